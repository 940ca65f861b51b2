//! The shim's structured answers: what an agent reads instead of git's porcelain.
//!
//! Each watched command has its answer, one function over the parsed command line
//! ([`git()`], [`gh()`]; ADRs 10, 13): `git diff` the change in the [`compact`] vocabulary
//! (git's hunks headed by the functions they change, or, when they do not fit, the map of
//! every file and changed function first, [`overview`]); `git show` a commit and its change
//! alike; `git log` one string per commit, what it changed and its message ([`log`]);
//! `git blame` git's blame in runs of lines, each commit said once; `git log -S/-G` the
//! pickaxe's commits with the matching changed lines, each in its function; `git log -L` a
//! function's or a range's history, the lines each commit changed (`line_log`); `gh pr diff` the
//! pull request's change. A `git diff` with nothing changed has no answer: git's empty output
//! says it in no bytes. The shim calls [`git()`] and [`gh()`]; [`crate::query`] renders the
//! compact forms of `get_change_manifest` and `get_commit_history` with [`compact`] and [`log`].
//!
//! Invariants: an answer is built fully in memory and returned as bytes (compact JSON, one
//! object, a trailing newline); nothing here writes anywhere. It costs no more than git's own
//! output for the same command line, in bytes and in estimated tokens ([`own`], issue 36):
//! git runs beside the answer, and a larger answer is an error (git answers). It stays within
//! the output budget
//! (`GIT_PRISM_MAX_OUTPUT` bytes, default [`DEFAULT_BUDGET`]; an answer over it is an error),
//! and one that does not hold everything says what it cut (`cut`), the command that prints the
//! next page (`next`, with `GIT_PRISM_CURSOR`) and the one that prints git's own output (`raw`).
//! Its function analyses stop at a part of the answer's time limit ([`analysis_time`] of
//! `GIT_PRISM_ANSWER_TIMEOUT`), listing the files not analysed by then without their
//! functions. Any error means the caller runs the real program instead.

mod blame;
pub mod compact;
mod diff;
mod gh;
mod line_log;
pub mod log;
pub mod overview;
pub mod own;
mod pickaxe;
pub mod role;
mod show;
pub mod toc;

use std::cell::OnceCell;
use std::ffi::{OsStr, OsString};

use crate::budget::Budget;
use crate::git::{GitError, Location, Repo};
use crate::manifest::ManifestError;
use crate::paging::PageError;
use crate::request::{Command, Request};
use crate::shell;

/// The default output budget of the shim's answers.
pub const DEFAULT_BUDGET: Budget = Budget::bytes(20_000);

/// The smallest budget `GIT_PRISM_MAX_OUTPUT` may set.
const MIN_BUDGET: usize = 1000;

/// The error returned when no structured answer can be built (the real program answers).
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    /// Repository access or the real git failed (a bad revision, for one).
    #[error(transparent)]
    Git(#[from] GitError),
    /// Building a manifest failed.
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    /// A page could not be rendered.
    #[error(transparent)]
    Page(#[from] PageError),
    /// A cursor could not be used.
    #[error(transparent)]
    Cursor(#[from] crate::paging::CursorError),
    /// The request has no structured answer.
    #[error("{0}")]
    Unsupported(String),
    /// The GitHub CLI failed or answered something unexpected.
    #[error(transparent)]
    Gh(#[from] crate::git::gh::GhError),
    /// The answer could not be written as JSON.
    #[error("cannot write the answer as JSON")]
    Json(#[from] serde_json::Error),
}

impl AnswerError {
    /// The cursor that could not be used, when that is why there is no answer: the caller asked
    /// for a later page, and git's whole output would be a different answer from the one asked
    /// for.
    pub fn cursor(&self) -> Option<&crate::paging::CursorError> {
        match self {
            AnswerError::Cursor(c) | AnswerError::Page(PageError::Cursor(c)) => Some(c),
            _ => None,
        }
    }
}

/// What every answer needs to know.
pub struct Call {
    /// Where the repository is looked for.
    pub location: Location,
    /// The output budget.
    pub budget: Budget,
    /// The command that gives the real program's own output (an answer's `raw`).
    pub raw_command: String,
    /// The caller's command, shell-quoted (for the command that prints a next page).
    pub command: String,
    /// Where to continue a paged answer (`GIT_PRISM_CURSOR`).
    pub cursor: Option<String>,
    /// The repository, opened once for the answer.
    repo: OnceCell<Repo>,
    /// git's own output for the command line, which the answer must not cost more than.
    own: OnceCell<own::Own>,
}

/// The longest command line an answer repeats (in `raw` and `next`); a longer one gets git's
/// own output.
const MAX_COMMAND: usize = 2000;

/// The variable that asks the shim for a later page of an answer.
pub const CURSOR_VAR: &str = "GIT_PRISM_CURSOR";

/// Reads [`CURSOR_VAR`].
fn cursor_from_env() -> Option<String> {
    std::env::var(CURSOR_VAR).ok().filter(|c| !c.is_empty())
}

impl Call {
    /// Builds the context of a `git` call from its parsed request.
    pub fn for_git(request: &Request, budget: Budget) -> Result<Call, AnswerError> {
        let mut location = Location::current()?;
        location.chdir = request.globals.chdir.clone();
        location.git_dir = request.globals.git_dir.clone();
        location.work_tree = request.globals.work_tree.clone();
        location.bare = request.globals.bare;
        location.globals = request.globals.args.clone();
        let args: Vec<&OsStr> = request
            .globals
            .args
            .iter()
            .chain(&request.argv)
            .map(OsString::as_os_str)
            .collect();
        let command = format!("git {}", shell::join(args));
        if command.len() > MAX_COMMAND {
            return Err(AnswerError::Unsupported(format!(
                "a command line of {} characters is too long to repeat as `raw`",
                command.len()
            )));
        }
        Ok(Call {
            location,
            budget,
            raw_command: format!("GIT_PRISM_INSIDE_SHIM=1 {command}"),
            command,
            cursor: cursor_from_env(),
            repo: OnceCell::new(),
            own: OnceCell::new(),
        })
    }

    /// The repository (opened the first time).
    fn repo(&self) -> Result<&Repo, AnswerError> {
        if let Some(repo) = self.repo.get() {
            return Ok(repo);
        }
        let repo = Repo::open(&self.location)?;
        Ok(self.repo.get_or_init(|| repo))
    }

    /// git's own output for the command line (started by [`git()`] or [`gh()`]).
    fn own(&self) -> Result<&own::Own, AnswerError> {
        self.own
            .get()
            .ok_or_else(|| AnswerError::Unsupported("git's own output was not started".into()))
    }
}

/// Returns the output budget from `GIT_PRISM_MAX_OUTPUT` (bytes, at least 1000), or the
/// default.
pub fn budget_from_env() -> Budget {
    std::env::var("GIT_PRISM_MAX_OUTPUT")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n >= MIN_BUDGET)
        .map_or(DEFAULT_BUDGET, Budget::bytes)
}

/// How long an answer may take in all, by default: past it the shim runs git instead.
pub const DEFAULT_TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(30);

/// Returns the answer's time limit from `GIT_PRISM_ANSWER_TIMEOUT` (seconds, at least 1), or
/// the default.
pub fn time_limit_from_env() -> std::time::Duration {
    std::env::var("GIT_PRISM_ANSWER_TIMEOUT")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|n| *n >= 1)
        .map_or(DEFAULT_TIME_LIMIT, std::time::Duration::from_secs)
}

/// The part of an answer's time limit its function analyses may use: past it, the files not
/// analysed yet are listed without their functions, and the answer goes on with the rest.
pub fn analysis_time(limit: std::time::Duration) -> std::time::Duration {
    limit / 3
}

/// Answers a `git` call: the answer, when it costs no more than git's own output for the same
/// command line (else an error, and git answers).
pub fn git(request: &Request, ctx: &Call) -> Result<Vec<u8>, AnswerError> {
    // git starts at once, beside the answer: its output is weighed against the answer's.
    let own = own::Own::start(ctx.repo()?, &request.argv, ctx.budget);
    let own = ctx.own.get_or_init(|| own);
    let json = match &request.command {
        Command::Diff(d) => diff::answer(d, &request.argv, ctx)?,
        Command::Log(l) if l.pickaxe.is_some() => pickaxe::answer(l, &request.argv, ctx)?,
        Command::Log(l) if !l.line_ranges.is_empty() => line_log::answer(l, ctx)?,
        Command::Log(l) => log::answer(l, &request.argv, ctx)?,
        Command::Show(s) => show::answer(s, ctx)?,
        Command::Blame(b) => blame::answer(b, &request.argv, ctx)?,
    };
    let bytes = finish(json, ctx.budget)?;
    own.admit(&bytes)?;
    Ok(bytes)
}

/// Answers `gh pr diff`.
pub fn gh(pr: &crate::request::gh::PrDiff, argv: &[OsString]) -> Result<Vec<u8>, AnswerError> {
    let args: Vec<&OsStr> = argv.iter().map(OsString::as_os_str).collect();
    let command = format!("gh {}", shell::join(args));
    let ctx = Call {
        location: Location::current()?,
        budget: budget_from_env(),
        raw_command: format!("GIT_PRISM_INSIDE_SHIM=1 {command}"),
        command,
        cursor: cursor_from_env(),
        repo: OnceCell::new(),
        own: OnceCell::new(),
    };
    let bytes = finish(gh::answer(pr, &ctx)?, ctx.budget)?;
    ctx.own()?.admit(&bytes)?;
    Ok(bytes)
}

/// Ends an answer with a newline, refusing one over the budget (git answers instead: an
/// oversized command line, for one, makes even the fixed part too large).
fn finish(mut json: String, budget: Budget) -> Result<Vec<u8>, AnswerError> {
    json.push('\n');
    if !budget.fits(json.len()) {
        return Err(AnswerError::Unsupported(format!(
            "the answer takes {} bytes, over the budget of {budget}",
            json.len()
        )));
    }
    Ok(json.into_bytes())
}

/// Renders a change answer of the shim (`diff`, `show`, `gh pr diff`): the compact body for
/// `built` with the hunk options `patch`, within the call's budget and paged by its cursor,
/// wrapped by `wrap` into the command's own answer. `range` says the change spans several
/// commits (its table of contents comes first unless the whole answer is as small).
fn render_change(
    ctx: &Call,
    repo: &Repo,
    built: &crate::manifest::Manifest,
    patch: &[OsString],
    hunks: bool,
    range: bool,
    wrap: &dyn Fn(&compact::Body) -> Result<String, serde_json::Error>,
) -> Result<String, AnswerError> {
    let input = compact::Input {
        manifest: built,
        context: crate::manifest::hunks::DEFAULT_CONTEXT,
        shaping: patch,
        hunks,
        budget: ctx.budget.less(1),
        cursor: ctx.cursor.as_deref(),
        next: &|cursor| next_page(ctx, cursor),
        raw: Some(&ctx.raw_command),
        range,
    };
    compact::render(repo, &input, wrap)
}

/// The command that prints the page at `cursor` of this answer: the caller's command again.
fn next_page(ctx: &Call, cursor: &str) -> String {
    format!("{CURSOR_VAR}={cursor} {}", ctx.command)
}

/// The length of the commit ids answers print: unique in any repository an agent meets, and
/// half the tokens of a full id.
pub const SHORT_ID: usize = 12;

/// A date as answers print it: `2024-05-01 12:00 +0200` (a date and time of git's strict ISO
/// 8601 form, seconds left out); anything else as it is.
pub fn short_date(iso: &str) -> String {
    let b = iso.as_bytes();
    if b.len() >= 19 && b.get(10) == Some(&b'T') {
        let zone = iso[19..].replace(':', "");
        let zone = if zone == "Z" {
            "+0000".to_owned()
        } else {
            zone
        };
        format!("{} {} {zone}", &iso[..10], &iso[11..16])
    } else {
        iso.to_owned()
    }
}

/// A date as a log line prints it: the day (`2024-05-01`).
pub fn day(iso: &str) -> &str {
    iso.get(..10).unwrap_or(iso)
}

/// Whether a change between two commits spans several commits: the head is not a commit
/// whose first parent is the base (a working tree, the index or a single commit is one
/// change).
fn spans_commits(repo: &Repo, m: &crate::manifest::Manifest) -> Result<bool, AnswerError> {
    use crate::git::revs::Head;
    let (Some(base), Some(head), Head::Object) =
        (&m.target.base_sha, &m.target.head_sha, m.target.head)
    else {
        return Ok(false);
    };
    if base == head {
        return Ok(false);
    }
    Ok(repo.parents(head)?.first() != Some(base))
}

/// `base..head` with short ids, as an answer names its range.
pub fn range_label(m: &crate::manifest::Manifest) -> String {
    use crate::git::revs::Head;
    let short = |s: &Option<crate::git::Oid>| {
        s.as_ref()
            .map_or_else(|| "(none)".to_owned(), |s| s.short(SHORT_ID).to_owned())
    };
    let base = match &m.target.base_sha {
        Some(_) => short(&m.target.base_sha),
        None => "(index)".to_owned(),
    };
    let head = match m.target.head {
        Head::Object => short(&m.target.head_sha),
        Head::Index => "(index)".to_owned(),
        Head::Worktree => "(working tree)".to_owned(),
    };
    format!("{base}..{head}")
}
