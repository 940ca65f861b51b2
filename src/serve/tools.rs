//! The five tools: their arguments (with the JSON Schema clients see) and what they do, as
//! plain functions from a repository and arguments to a JSON answer.
//!
//! Every answer is bounded: `max_response_tokens` (default [`DEFAULT_MAX_TOKENS`]) is turned into
//! a byte budget and the renderers cut detail in their stated order to fit it, pages moving to
//! cursors; the cut is always stated. Revisions are given as values, never as options: one that
//! starts with `-` is refused before anything runs.

use std::ffi::OsString;

use bstr::BString;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::answer::compact;
use crate::budget::Budget;
use crate::context::{self, ContextError, render as context_render};
use crate::git::{GitError, Repo};
use crate::manifest::render;
use crate::manifest::{self, ManifestError, history, snapshot};
use crate::paging::{PageError, Paging};
use crate::request::{Diff, Log};
use crate::text::clip;

/// The output budget when a call gives none: well under the 25,000 tokens clients commonly
/// accept from one tool call.
pub const DEFAULT_MAX_TOKENS: usize = 20_000;

/// The smallest budget honoured (a page always holds at least one entry).
const MIN_MAX_TOKENS: usize = 1_000;

/// Characters of a caller's value quoted in an error.
const QUOTED: usize = 200;

/// The longest path a snapshot call may name (Linux's `PATH_MAX`).
const MAX_PATH_BYTES: usize = 4096;

/// The error of a tool call, worded for the agent that made it.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// An argument is unusable.
    #[error("invalid argument: {0}")]
    Invalid(String),
    /// The repository is outside the allowed directories.
    #[error(transparent)]
    Confined(#[from] super::confine::ConfineError),
    /// git or the repository failed.
    #[error(transparent)]
    Git(#[from] GitError),
    /// Building the manifest failed.
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    /// Building the function context failed.
    #[error(transparent)]
    Context(#[from] ContextError),
    /// A cursor is invalid or stale.
    #[error(transparent)]
    Page(#[from] PageError),
    /// The compact answer could not be built.
    #[error(transparent)]
    Answer(#[from] crate::answer::AnswerError),
    /// The answer could not be written as JSON.
    #[error("cannot write the answer as JSON: {0}")]
    Json(#[from] serde_json::Error),
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
    /// `compact` (default): every file and changed function at a glance, then git's own hunks
    /// with one line of context, each placed in its function — what an agent's `git diff`
    /// answers. `full`: the complete manifest (sizes, languages, line spans of functions), no
    /// hunks, paged by files with `page_size`.
    pub format: Option<ManifestFormat>,
    /// Lines of context around each change in `compact` hunks (default 1, like `git diff -U1`).
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

/// The budget of a call.
fn budget(tokens: Option<usize>, default: usize) -> Budget {
    Budget::tokens(tokens.unwrap_or(default).max(MIN_MAX_TOKENS))
}

fn page_size(n: Option<usize>) -> Result<Option<usize>, ToolError> {
    match n {
        Some(0) => Err(ToolError::Invalid("page_size must be at least 1".into())),
        n => Ok(n),
    }
}

/// The `git diff` of a base, an optional head and path globs.
fn diff(
    base: &str,
    head: Option<&str>,
    include: &[String],
    exclude: &[String],
) -> Result<Diff, ToolError> {
    let mut positional = vec![revision("base_ref", base)?];
    if let Some(h) = head {
        positional.push(revision("head_ref", h)?);
    }
    let mut paths: Vec<OsString> = Vec::new();
    for (patterns, magic) in [(include, "top,glob"), (exclude, "top,glob,exclude")] {
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
        for p in patterns {
            if p.is_empty() || p.contains('\0') {
                return Err(ToolError::Invalid(format!(
                    "bad path pattern '{}'",
                    clip(p, QUOTED)
                )));
            }
            paths.push(format!(":({magic}){p}").into());
        }
    }
    Ok(Diff {
        positional,
        separator: true,
        paths,
        ..Diff::default()
    })
}

/// How a tool's answer names its next page.
fn next_call(tool: &'static str, field: &'static str) -> impl Fn(&str) -> String {
    move |cursor| format!("call {tool} again with the same arguments and {field} \"{cursor}\"")
}

/// `get_change_manifest`.
pub fn change_manifest(
    repo: &Repo,
    args: &ManifestArgs,
    default_tokens: usize,
) -> Result<String, ToolError> {
    let d = diff(
        &args.base_ref,
        args.head_ref.as_deref(),
        &args.include_patterns,
        &args.exclude_patterns,
    )?;
    let options = manifest::Options {
        functions: args.include_function_analysis.unwrap_or(true),
        ..manifest::Options::for_server()
    };
    let built = manifest::build(repo, &d, &options)?;
    if args.format.unwrap_or_default() == ManifestFormat::Compact {
        return compact_manifest(repo, &built, args, default_tokens);
    }
    let paging = Paging {
        cursor: args.cursor.clone(),
        page_size: page_size(args.page_size)?,
        budget: Some(budget(args.max_response_tokens, default_tokens)),
        pretty: false,
    };
    Ok(render::render(
        &built,
        &paging,
        &crate::time::now_rfc3339(),
        &next_call("get_change_manifest", "cursor"),
    )?)
}

/// The compact form of `get_change_manifest`: the shim's `git diff` answer, paged by cursor.
fn compact_manifest(
    repo: &Repo,
    built: &manifest::Manifest,
    args: &ManifestArgs,
    default_tokens: usize,
) -> Result<String, ToolError> {
    #[derive(serde::Serialize)]
    struct Compact<'a> {
        range: String,
        #[serde(flatten)]
        body: &'a compact::Body,
    }
    if args.page_size.is_some() {
        return Err(ToolError::Invalid(
            "page_size applies to format \"full\"; the compact form pages by cursor".into(),
        ));
    }
    let context = args.context_lines.unwrap_or(1).min(10_000);

    let next = next_call("get_change_manifest", "cursor");
    let request = compact::Request {
        manifest: built,
        context,
        shaping: &[],
        hunks: true,
        budget: budget(args.max_response_tokens, default_tokens),
        cursor: args.cursor.as_deref(),
        next: &next,
        full_listing: "call get_change_manifest with format \"full\"".into(),
    };
    let range = crate::answer::range_label(built);
    Ok(compact::render(repo, &request, &|body| {
        serde_json::to_string(&Compact {
            range: range.clone(),
            body,
        })
    })?)
}

/// `get_file_snapshots`.
pub fn file_snapshots(
    repo: &Repo,
    args: &SnapshotArgs,
    default_tokens: usize,
) -> Result<String, ToolError> {
    if args.paths.is_empty() {
        return Err(ToolError::Invalid("paths is empty".into()));
    }
    if args.paths.len() > snapshot::MAX_PATHS {
        return Err(ToolError::Invalid(format!(
            "at most {} paths per call (got {})",
            snapshot::MAX_PATHS,
            args.paths.len()
        )));
    }
    // A path longer than any the file system accepts is a caller's mistake (or an attempt to
    // make the answer echo it): refused before anything runs.
    if let Some(p) = args.paths.iter().find(|p| p.len() > MAX_PATH_BYTES) {
        return Err(ToolError::Invalid(format!(
            "path '{}' is longer than {MAX_PATH_BYTES} bytes",
            clip(p, QUOTED)
        )));
    }
    let line_range = match args.line_range {
        Some(r) if r.start == 0 || r.end < r.start => {
            return Err(ToolError::Invalid(format!(
                "line_range {}..{} is not 1 <= start <= end",
                r.start, r.end
            )));
        }
        Some(r) => Some((r.start, r.end)),
        None => None,
    };
    let d = diff(&args.base_ref, args.head_ref.as_deref(), &[], &[])?;
    let options = manifest::Options {
        functions: false,
        ..manifest::Options::for_server()
    };
    let built = manifest::build(repo, &d, &options)?;
    let request = snapshot::Request {
        paths: args
            .paths
            .iter()
            .map(|p| BString::from(p.as_str()))
            .collect(),
        line_range,
        max_file_size: args.max_file_size_bytes.unwrap_or(256 * 1024),
        before: args.include_before.unwrap_or(true),
        after: args.include_after.unwrap_or(true),
        diff_hunks: args.include_diff_hunks.unwrap_or(false),
    };
    let mut files = snapshot::snapshots(repo, &built, &request)?;
    let max = budget(args.max_response_tokens, default_tokens);
    let mut cuts: Vec<String> = Vec::new();
    let render = |files: &[snapshot::FileSnapshot], cuts: &[String]| {
        serde_json::to_string(&SnapshotAnswer {
            doc: snapshot::SnapshotDoc::new(&built, files.to_vec(), crate::time::now_rfc3339()),
            truncated: (!cuts.is_empty()).then_some(SnapshotCuts { cut: cuts }),
        })
    };
    // Over the budget: the largest contents and hunk lists go first, each replaced by why.
    loop {
        if max.fits(render(&files, &cuts)?.len()) {
            break;
        }
        let Some((path, what)) = drop_largest(&mut files) else {
            break;
        };
        cuts.push(format!(
            "{what} of {path} left out to fit {max} bytes (ask for fewer paths or a line_range)"
        ));
    }
    Ok(render(&files, &cuts)?)
}

/// The answer of `get_file_snapshots`: the snapshots, and what was left out to fit.
#[derive(Serialize)]
struct SnapshotAnswer<'a> {
    #[serde(flatten)]
    doc: snapshot::SnapshotDoc,
    #[serde(skip_serializing_if = "Option::is_none")]
    truncated: Option<SnapshotCuts<'a>>,
}

/// What `get_file_snapshots` left out, in the order cut.
#[derive(Serialize)]
struct SnapshotCuts<'a> {
    cut: &'a [String],
}

/// Removes the largest content or hunk list; returns the file and what was removed.
fn drop_largest(files: &mut [snapshot::FileSnapshot]) -> Option<(String, &'static str)> {
    let mut best: Option<(usize, usize, u8)> = None;
    for (i, f) in files.iter().enumerate() {
        let sides = [(&f.before, 0u8), (&f.after, 1u8)];
        for (side, which) in sides {
            if let Some(len) = side
                .as_ref()
                .and_then(|s| s.content.as_ref())
                .map(String::len)
            {
                if best.is_none_or(|b| len > b.0) {
                    best = Some((len, i, which));
                }
            }
        }
        if let Some(h) = &f.diff_hunks {
            let len: usize = h.iter().flat_map(|h| &h.lines).map(String::len).sum();
            if len > 0 && best.is_none_or(|b| len > b.0) {
                best = Some((len, i, 2));
            }
        }
    }
    let (_, i, which) = best?;
    let f = &mut files[i];
    let reason = "omitted to fit the response budget";
    let what = match which {
        0 | 1 => {
            let side = if which == 0 {
                &mut f.before
            } else {
                &mut f.after
            };
            if let Some(s) = side.as_mut() {
                s.content = None;
                s.reason = Some(reason.into());
            }
            if which == 0 {
                "before content"
            } else {
                "after content"
            }
        }
        _ => {
            f.diff_hunks = Some(Vec::new());
            "diff hunks"
        }
    };
    Some((f.path.clone(), what))
}

/// `get_commit_history`.
pub fn commit_history(
    repo: &Repo,
    args: &HistoryArgs,
    default_tokens: usize,
) -> Result<String, ToolError> {
    let base = revision("base_ref", &args.base_ref)?;
    let head = revision("head_ref", &args.head_ref)?;
    let range = format!("{}..{}", base.to_string_lossy(), head.to_string_lossy());
    let log = Log {
        args: vec![range.clone().into()],
        ..Log::default()
    };
    if args.format.unwrap_or_default() == HistoryFormat::Compact {
        if args.page_size.is_some() {
            return Err(ToolError::Invalid(
                "page_size applies to format \"full\"; the compact form pages by cursor".into(),
            ));
        }
        let next = next_call("get_commit_history", "cursor");
        let show =
            |id: &str| format!("get_change_manifest with base_ref \"{id}^\" and head_ref \"{id}\"");
        return Ok(crate::answer::log::render(
            repo,
            &crate::answer::log::Request {
                log: &log,
                raw: None,
                budget: budget(args.max_response_tokens, default_tokens),
                cursor: args.cursor.as_deref(),
                next: &next,
                show: &show,
            },
        )?);
    }
    let commits = history::history(repo, &log, true)?;
    let paging = Paging {
        cursor: args.cursor.clone(),
        page_size: page_size(args.page_size)?,
        budget: Some(budget(args.max_response_tokens, default_tokens)),
        pretty: false,
    };
    Ok(history::render(
        &repo.display_path().display().to_string(),
        &range,
        &commits,
        &paging,
        &crate::time::now_rfc3339(),
        &next_call("get_commit_history", "cursor"),
    )?)
}

/// `get_function_context`.
pub fn function_context(
    repo: &Repo,
    args: &ContextArgs,
    default_tokens: usize,
) -> Result<String, ToolError> {
    let d = diff(&args.base_ref, args.head_ref.as_deref(), &[], &[])?;
    let built = manifest::build(repo, &d, &manifest::Options::for_server())?;
    let ctx = context::build(repo, &built, &args.function_names)?;
    let paging = Paging {
        cursor: args.cursor.clone(),
        page_size: page_size(args.page_size)?,
        budget: Some(budget(args.max_response_tokens, default_tokens)),
        pretty: false,
    };
    Ok(context_render::render(
        &built,
        &ctx,
        &args.function_names,
        &paging,
        &crate::time::now_rfc3339(),
        &next_call("get_function_context", "cursor"),
    )?)
}

/// `review_change`.
pub fn review_change(
    repo: &Repo,
    args: &ReviewArgs,
    default_tokens: usize,
) -> Result<String, ToolError> {
    let d = diff(
        &args.base_ref,
        args.head_ref.as_deref(),
        &args.include_patterns,
        &args.exclude_patterns,
    )?;
    let built = manifest::build(repo, &d, &manifest::Options::for_server())?;
    let ctx = context::build(repo, &built, &args.function_names)?;
    let size = page_size(args.page_size)?;
    let part = |cursor: &Option<String>| Paging {
        cursor: cursor.clone(),
        page_size: size,
        ..Paging::default()
    };
    let paging = context_render::ReviewPaging {
        manifest: part(&args.manifest_cursor),
        context: part(&args.context_cursor),
        budget: Some(budget(args.max_response_tokens, default_tokens)),
        pretty: false,
    };
    Ok(context_render::render_review(
        &built,
        &ctx,
        &args.function_names,
        &paging,
        &crate::time::now_rfc3339(),
        &next_call("review_change", "manifest_cursor"),
        &next_call("review_change", "context_cursor"),
    )?)
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
