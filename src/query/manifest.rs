//! The change of a range: `git-prism manifest` and `get_change_manifest`, as the full manifest
//! or in the compact form the shim answers `git diff` with ([`crate::answer::compact`]).

use serde::Serialize;

use super::{Answered, QueryError, check_page_size};
use crate::answer::compact;
use crate::git::Repo;
use crate::manifest::{self, render};
use crate::paging::Paging;
use crate::request::Diff;

/// The most lines of context a compact answer's hunks take.
const MAX_CONTEXT: u32 = 10_000;

/// The form of a manifest answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ManifestForm {
    /// The complete manifest (sizes, languages, line spans of functions), paged by files.
    Full,
    /// Every file and changed function at a glance, then git's hunks with `context` lines of
    /// context: what the shim answers to `git diff`. Paged by cursor only.
    Compact {
        /// Lines of context around each change.
        context: u32,
    },
}

/// What a manifest query asks.
#[derive(Clone, Debug)]
pub struct ManifestQuery {
    /// The range, as `git diff` takes it.
    pub range: Diff,
    /// Add untracked, not ignored files to working-tree ranges.
    pub untracked: bool,
    /// Analyse functions and imports.
    pub functions: bool,
    /// The range is named from the caller's directory, so `diff.relative` applies as it does
    /// to git (the command line); a server names a repository instead.
    pub from_cwd: bool,
    /// The form of the answer.
    pub form: ManifestForm,
    /// Cursor, page size, budget.
    pub paging: Paging,
}

impl ManifestQuery {
    /// The full manifest of `range` with every default: untracked files and functions in,
    /// named from the caller's directory, unpaged.
    pub fn new(range: Diff) -> ManifestQuery {
        ManifestQuery {
            range,
            untracked: true,
            functions: true,
            from_cwd: true,
            form: ManifestForm::Full,
            paging: Paging::default(),
        }
    }

    /// The options the manifest is built with.
    pub(super) fn options(&self) -> manifest::Options {
        manifest::Options {
            untracked: self.untracked,
            functions: self.functions,
            relative_config: self.from_cwd,
        }
    }
}

/// Answers a manifest query; `next` names the call that fetches the page at a cursor.
pub fn manifest(
    repo: &Repo,
    q: &ManifestQuery,
    next: &dyn Fn(&str) -> String,
) -> Result<Answered, QueryError> {
    super::bounded(|| {
        check_page_size(q.paging.page_size)?;
        if matches!(q.form, ManifestForm::Compact { .. }) && q.paging.page_size.is_some() {
            return Err(QueryError::Invalid(
                "page_size applies to format \"full\"; the compact form pages by cursor".into(),
            ));
        }
        let built = manifest::build(repo, &q.range, &q.options())?;
        let json = match &q.form {
            ManifestForm::Full => {
                render::render(&built, &q.paging, &crate::time::now_rfc3339(), next)?
            }
            ManifestForm::Compact { context } => compact_manifest(repo, &built, q, *context, next)?,
        };
        Ok(Answered {
            json,
            timings: built.timings,
        })
    })
}

/// The compact form: the shim's `git diff` answer with the range named, paged by cursor.
fn compact_manifest(
    repo: &Repo,
    built: &manifest::Manifest,
    q: &ManifestQuery,
    context: u32,
    next: &dyn Fn(&str) -> String,
) -> Result<String, QueryError> {
    #[derive(Serialize)]
    struct Compact<'a> {
        range: String,
        #[serde(flatten)]
        body: &'a compact::Body,
    }
    let input = compact::Input {
        manifest: built,
        context: context.min(MAX_CONTEXT),
        shaping: &[],
        hunks: true,
        budget: q.paging.budget.unwrap_or(crate::answer::DEFAULT_BUDGET),
        cursor: q.paging.cursor.as_deref(),
        next,
        raw: None,
        range: false,
    };
    let range = crate::answer::range_label(built);
    Ok(compact::render(repo, &input, &|body| {
        crate::json::to_string(&Compact {
            range: range.clone(),
            body,
        })
    })?)
}
