//! The five tools: their arguments (with the JSON Schema clients see) and what they do, as
//! plain functions from a repository and arguments to a JSON answer, each a thin adapter that
//! turns its arguments into a [`crate::query`] query and returns what the query renders.
//!
//! Every answer is bounded: `max_response_tokens` (default [`DEFAULT_MAX_TOKENS`], held between
//! [`crate::query::MIN_TOKENS`] and [`crate::query::MAX_TOKENS`]) is turned into a byte budget
//! and the renderers cut detail in their stated order to fit it, pages moving to cursors; the
//! cut is always stated. Revisions are given as values, never as options: one that starts with
//! `-` (or holds a NUL) is refused before anything runs.

use std::ffi::OsString;

use bstr::BString;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::budget::Budget;
use crate::git::Repo;
use crate::paging::Paging;
use crate::query::{
    self, ContextQuery, HistoryForm, HistoryQuery, ManifestForm, ManifestQuery, QueryError,
    ReviewQuery, SnapshotQuery,
};
use crate::request::{Diff, Log};
use crate::text::clip;

/// The output budget when a call gives none: well under the 25,000 tokens clients commonly
/// accept from one tool call.
pub const DEFAULT_MAX_TOKENS: usize = 20_000;

/// Characters of a caller's value quoted in an error.
const QUOTED: usize = 200;

/// The error of a tool call, worded for the agent that made it.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// An argument is unusable.
    #[error("invalid argument: {0}")]
    Invalid(String),
    /// The repository is outside the allowed directories.
    #[error(transparent)]
    Confined(#[from] super::confine::ConfineError),
    /// The repository could not be opened.
    #[error(transparent)]
    Git(#[from] crate::git::GitError),
    /// The query could not be answered.
    #[error(transparent)]
    Query(#[from] QueryError),
}

/// A 1-based inclusive line range.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LineRange {
    /// First line (1-based).
    pub start: usize,
    /// Last line (inclusive).
    pub end: usize,
}

/// Arguments of `get_change_manifest`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ManifestArgs {
    /// The repository (a directory inside it). Default: the server's working directory, or
    /// the first allowed root.
    pub repo_path: Option<String>,
    /// The base revision: a branch, tag, SHA or expression (`main`, `HEAD~3`, `v1.2`).
    pub base_ref: String,
    /// The head revision. Omit it to compare the base with the working tree (committed,
    /// staged, unstaged and untracked changes).
    pub head_ref: Option<String>,
    /// Only paths matching these globs (`src/**`, `*.py`).
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Leave out paths matching these globs (`docs/**`).
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// Analyse functions and imports (default true; false is faster).
    pub include_function_analysis: Option<bool>,
    /// `compact` (default): the change as an agent's `git diff` gets it — git's own hunks, each
    /// headed by the functions it changes, and when it does not fit one answer, the complete
    /// map first (every file, every changed function with the signatures of added ones). `full`: the complete manifest (sizes, languages, line spans of functions), no
    /// hunks, paged by files with `page_size`.
    pub format: Option<ManifestFormat>,
    /// Lines of context around each change in `compact` hunks (default 0, like `git diff -U0`).
    pub context_lines: Option<u32>,
    /// `next_cursor` from a previous page of the same call.
    pub cursor: Option<String>,
    /// Files per page (default: as many as fit the budget).
    pub page_size: Option<usize>,
    /// Output budget in tokens (default 20,000).
    pub max_response_tokens: Option<usize>,
}

/// The forms `get_change_manifest` answers in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ManifestFormat {
    /// The overview and the hunks.
    #[default]
    Compact,
    /// The complete manifest, without hunks.
    Full,
}

/// Arguments of `get_file_snapshots`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnapshotArgs {
    /// The repository (a directory inside it). Default: the server's working directory, or
    /// the first allowed root.
    pub repo_path: Option<String>,
    /// The base revision (the "before" side).
    pub base_ref: String,
    /// The head revision (the "after" side); omit it for the working tree.
    pub head_ref: Option<String>,
    /// Paths from the top of the repository (at most 20).
    pub paths: Vec<String>,
    /// Return the "before" content (default true).
    pub include_before: Option<bool>,
    /// Return the "after" content (default true).
    pub include_after: Option<bool>,
    /// Only these lines of each side.
    pub line_range: Option<LineRange>,
    /// Files larger than this get no content (default 262,144; at most 16,777,216).
    pub max_file_size_bytes: Option<u64>,
    /// Also return git's diff hunks of each changed file (default false).
    pub include_diff_hunks: Option<bool>,
    /// Output budget in tokens (default 20,000).
    pub max_response_tokens: Option<usize>,
}

/// Arguments of `get_commit_history`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HistoryArgs {
    /// The repository (a directory inside it). Default: the server's working directory, or
    /// the first allowed root.
    pub repo_path: Option<String>,
    /// Commits after this revision (exclusive), as in `base..head`.
    pub base_ref: String,
    /// Up to this revision (inclusive).
    pub head_ref: String,
    /// `compact` (default): every commit of the range on one line each (short id, date,
    /// author, subject, line and file counts), and the files and changed functions of the most
    /// recent commits — what an agent's `git log` answers. `full`: each commit's complete
    /// manifest (sizes, languages, line spans), paged by commit with `page_size`.
    pub format: Option<HistoryFormat>,
    /// `next_cursor` (`full`) or the cursor named in `next` (`compact`) of a previous page of
    /// the same call.
    pub cursor: Option<String>,
    /// Commits per page in the `full` form (default: as many as fit the budget).
    pub page_size: Option<usize>,
    /// Output budget in tokens (default 20,000).
    pub max_response_tokens: Option<usize>,
}

/// The forms `get_commit_history` answers in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum HistoryFormat {
    /// Every commit on a line, the newest in detail.
    #[default]
    Compact,
    /// Every commit's complete manifest.
    Full,
}

/// Arguments of `get_function_context`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextArgs {
    /// The repository (a directory inside it). Default: the server's working directory, or
    /// the first allowed root.
    pub repo_path: Option<String>,
    /// The base revision.
    pub base_ref: String,
    /// The head revision; omit it for the working tree.
    pub head_ref: Option<String>,
    /// Only these functions (qualified like `Parser::parse` / `Store.save`, or bare names);
    /// a function the range did not change is looked up on the head side.
    #[serde(default)]
    pub function_names: Vec<String>,
    /// `next_cursor` from a previous page of the same call.
    pub cursor: Option<String>,
    /// Functions per page (default: as many as fit the budget).
    pub page_size: Option<usize>,
    /// Output budget in tokens (default 20,000).
    pub max_response_tokens: Option<usize>,
}

/// Arguments of `review_change`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewArgs {
    /// The repository (a directory inside it). Default: the server's working directory, or
    /// the first allowed root.
    pub repo_path: Option<String>,
    /// The base revision (`main` for a branch review).
    pub base_ref: String,
    /// The head revision; omit it for the working tree.
    pub head_ref: Option<String>,
    /// Only paths matching these globs.
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Leave out paths matching these globs.
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// Only these functions in the context part.
    #[serde(default)]
    pub function_names: Vec<String>,
    /// `manifest.pagination.next_cursor` from a previous call: continues the manifest part.
    pub manifest_cursor: Option<String>,
    /// `context.pagination.next_cursor` from a previous call: continues the context part.
    pub context_cursor: Option<String>,
    /// Files per manifest page and functions per context page.
    pub page_size: Option<usize>,
    /// Output budget in tokens for both parts together (default 20,000).
    pub max_response_tokens: Option<usize>,
}

/// The most path patterns a call may give (include and exclude each).
const MAX_PATTERNS: usize = 200;
/// The longest revision or path pattern accepted.
const MAX_ARG_LEN: usize = 4096;

/// Refuses a revision that git could take for an option, or that is empty or oversized.
fn revision(name: &str, value: &str) -> Result<OsString, ToolError> {
    if value.trim().is_empty() {
        return Err(ToolError::Invalid(format!("{name} is empty")));
    }
    if value.len() > MAX_ARG_LEN {
        return Err(ToolError::Invalid(format!(
            "{name} has {} bytes; a revision has at most {MAX_ARG_LEN}",
            value.len()
        )));
    }
    if value.starts_with('-') || value.contains('\0') {
        return Err(ToolError::Invalid(format!(
            "{name} '{}' is not a revision (it may not start with '-')",
            clip(value, QUOTED)
        )));
    }
    Ok(value.into())
}

/// The budget of a call: its `max_response_tokens`, or the server's default.
fn budget(tokens: Option<usize>, default: usize) -> Budget {
    query::server_budget(tokens.unwrap_or(default))
}

/// The `git diff` of a base, an optional head and path globs, checked.
fn diff(
    base: &str,
    head: Option<&str>,
    include: &[String],
    exclude: &[String],
) -> Result<Diff, ToolError> {
    let base = revision("base_ref", base)?;
    let head = head.map(|h| revision("head_ref", h)).transpose()?;
    for patterns in [include, exclude] {
        if patterns.len() > MAX_PATTERNS {
            return Err(ToolError::Invalid(format!(
                "{} path patterns; at most {MAX_PATTERNS} are accepted",
                patterns.len()
            )));
        }
        if let Some(p) = patterns.iter().find(|p| p.len() > MAX_ARG_LEN) {
            return Err(ToolError::Invalid(format!(
                "a path pattern of {} bytes; at most {MAX_ARG_LEN} are accepted",
                p.len()
            )));
        }
        if let Some(p) = patterns.iter().find(|p| p.is_empty() || p.contains('\0')) {
            return Err(ToolError::Invalid(format!(
                "bad path pattern '{}'",
                clip(p, QUOTED)
            )));
        }
    }
    Ok(Diff::between(base, head, include, exclude))
}

/// How a tool's answer names its next page.
fn next_call(tool: &'static str, field: &'static str) -> impl Fn(&str) -> String {
    move |cursor| format!("call {tool} again with the same arguments and {field} \"{cursor}\"")
}

/// A query's paging from a tool call's arguments (MCP answers are compact JSON).
fn paging(cursor: &Option<String>, page_size: Option<usize>, budget: Budget) -> Paging {
    Paging {
        cursor: cursor.clone(),
        page_size,
        budget: Some(budget),
        pretty: false,
    }
}

/// `get_change_manifest`.
pub fn change_manifest(
    repo: &Repo,
    args: &ManifestArgs,
    default_tokens: usize,
) -> Result<String, ToolError> {
    let range = diff(
        &args.base_ref,
        args.head_ref.as_deref(),
        &args.include_patterns,
        &args.exclude_patterns,
    )?;
    let q = ManifestQuery {
        functions: args.include_function_analysis.unwrap_or(true),
        from_cwd: false,
        form: match args.format.unwrap_or_default() {
            ManifestFormat::Full => ManifestForm::Full,
            ManifestFormat::Compact => ManifestForm::Compact {
                context: args
                    .context_lines
                    .unwrap_or(crate::manifest::hunks::DEFAULT_CONTEXT),
            },
        },
        paging: paging(
            &args.cursor,
            args.page_size,
            budget(args.max_response_tokens, default_tokens),
        ),
        ..ManifestQuery::new(range)
    };
    Ok(query::manifest(repo, &q, &next_call("get_change_manifest", "cursor"))?.json)
}

/// `get_file_snapshots`.
pub fn file_snapshots(
    repo: &Repo,
    args: &SnapshotArgs,
    default_tokens: usize,
) -> Result<String, ToolError> {
    let range = diff(&args.base_ref, args.head_ref.as_deref(), &[], &[])?;
    let paths = args
        .paths
        .iter()
        .map(|p| BString::from(p.as_str()))
        .collect();
    let mut q = SnapshotQuery::new(range, paths);
    q.from_cwd = false;
    q.budget = Some(budget(args.max_response_tokens, default_tokens));
    let s = &mut q.selection;
    s.line_range = args.line_range.map(|r| (r.start, r.end));
    s.max_file_size = args
        .max_file_size_bytes
        .unwrap_or(query::DEFAULT_MAX_FILE_SIZE);
    s.before = args.include_before.unwrap_or(true);
    s.after = args.include_after.unwrap_or(true);
    s.diff_hunks = args.include_diff_hunks.unwrap_or(false);
    Ok(query::snapshots(repo, &q)?)
}

/// `get_commit_history`.
pub fn commit_history(
    repo: &Repo,
    args: &HistoryArgs,
    default_tokens: usize,
) -> Result<String, ToolError> {
    let base = revision("base_ref", &args.base_ref)?;
    let head = revision("head_ref", &args.head_ref)?;
    let log = Log::range(&base, &head);
    let q = HistoryQuery {
        range_label: crate::shell::join(log.args.iter().map(OsString::as_os_str)),
        log,
        functions: true,
        form: match args.format.unwrap_or_default() {
            HistoryFormat::Compact => HistoryForm::Compact,
            HistoryFormat::Full => HistoryForm::Full,
        },
        paging: paging(
            &args.cursor,
            args.page_size,
            budget(args.max_response_tokens, default_tokens),
        ),
    };
    Ok(query::history(
        repo,
        &q,
        &next_call("get_commit_history", "cursor"),
    )?)
}

/// `get_function_context`.
pub fn function_context(
    repo: &Repo,
    args: &ContextArgs,
    default_tokens: usize,
) -> Result<String, ToolError> {
    let range = diff(&args.base_ref, args.head_ref.as_deref(), &[], &[])?;
    let q = ContextQuery {
        from_cwd: false,
        function_names: args.function_names.clone(),
        paging: paging(
            &args.cursor,
            args.page_size,
            budget(args.max_response_tokens, default_tokens),
        ),
        ..ContextQuery::new(range)
    };
    Ok(query::context(repo, &q, &next_call("get_function_context", "cursor"))?.json)
}

/// `review_change`.
pub fn review_change(
    repo: &Repo,
    args: &ReviewArgs,
    default_tokens: usize,
) -> Result<String, ToolError> {
    let range = diff(
        &args.base_ref,
        args.head_ref.as_deref(),
        &args.include_patterns,
        &args.exclude_patterns,
    )?;
    let q = ReviewQuery {
        context: ContextQuery {
            from_cwd: false,
            function_names: args.function_names.clone(),
            paging: paging(
                &args.context_cursor,
                args.page_size,
                budget(args.max_response_tokens, default_tokens),
            ),
            ..ContextQuery::new(range)
        },
        manifest_cursor: args.manifest_cursor.clone(),
    };
    Ok(query::review(
        repo,
        &q,
        &next_call("review_change", "manifest_cursor"),
        &next_call("review_change", "context_cursor"),
    )?
    .json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revisions_are_never_options() {
        assert!(revision("base_ref", "main").is_ok());
        assert!(revision("base_ref", "HEAD~3").is_ok());
        for bad in ["", " ", "--output=/tmp/x", "-p", "a\0b"] {
            assert!(revision("base_ref", bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn globs_become_top_level_pathspecs() {
        let d = diff("main", None, &["src/**".into()], &["*.md".into()]).unwrap();
        assert_eq!(d.positional, [OsString::from("main")]);
        assert_eq!(
            d.paths,
            [
                OsString::from(":(top,glob)src/**"),
                OsString::from(":(top,glob,exclude)*.md")
            ]
        );
        assert!(diff("main", Some("-x"), &[], &[]).is_err());
    }

    #[test]
    fn budgets_have_a_floor() {
        assert_eq!(budget(None, 20_000), Budget::bytes(60_000));
        assert_eq!(budget(Some(10), 20_000), Budget::bytes(3_000));
    }
}
