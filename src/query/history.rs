//! The commits of a log: `git-prism history` and `get_commit_history`, as per-commit manifests
//! (the full form, [`crate::manifest::history`]) or as the shim answers `git log` (the compact
//! form, [`crate::answer::log`]).

use super::{QueryError, check_page_size};
use crate::git::Repo;
use crate::manifest::history as commits;
use crate::paging::Paging;
use crate::request::Log;

/// The form of a history answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryForm {
    /// Each commit's complete manifest, paged by commit.
    Full,
    /// Every commit on one line and the newest in detail: what the shim answers to `git log`.
    /// Paged by cursor only.
    Compact,
}

/// What a history query asks.
#[derive(Clone, Debug)]
pub struct HistoryQuery {
    /// The commits, as `git log` takes them.
    pub log: Log,
    /// Analyse functions and imports (the full form).
    pub functions: bool,
    /// The form of the answer.
    pub form: HistoryForm,
    /// The range as the caller wrote it, repeated in the full form's metadata.
    pub range_label: String,
    /// Cursor, page size, budget.
    pub paging: Paging,
}

/// Answers a history query; `next` names the call that fetches the page at a cursor.
pub fn history(
    repo: &Repo,
    q: &HistoryQuery,
    next: &dyn Fn(&str) -> String,
) -> Result<String, QueryError> {
    super::bounded(|| {
        check_page_size(q.paging.page_size)?;
        match q.form {
            HistoryForm::Compact => {
                if q.paging.page_size.is_some() {
                    return Err(QueryError::Invalid(
                        "page_size applies to format \"full\"; the compact form pages by cursor"
                            .into(),
                    ));
                }
                Ok(crate::answer::log::render(
                    repo,
                    &crate::answer::log::Input {
                        log: &q.log,
                        raw: None,
                        budget: q.paging.budget.unwrap_or(crate::answer::DEFAULT_BUDGET),
                        cursor: q.paging.cursor.as_deref(),
                        next,
                        own: None,
                    },
                )?)
            }
            HistoryForm::Full => {
                let listed = commits::history(repo, &q.log, q.functions)?;
                Ok(commits::render(
                    &repo.display_path().display().to_string(),
                    &q.range_label,
                    &listed,
                    &q.paging,
                    &crate::time::now_rfc3339(),
                    next,
                )?)
            }
        }
    })
}
