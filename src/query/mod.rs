//! One function per thing git-prism answers, each with its query type: the command line and the
//! MCP server are thin adapters that turn their arguments into a query, call the function, and
//! print or return what it renders. A default or a limit lives here, once.
//!
//! | use case | here | CLI | MCP tool |
//! |---|---|---|---|
//! | what a range changed (full or compact) | [`manifest()`] | `manifest` | `get_change_manifest` |
//! | file contents before and after | [`snapshots()`] | `snapshot` | `get_file_snapshots` |
//! | the commits of a log (full or compact) | [`history()`] | `history` | `get_commit_history` |
//! | callers, callees and tests of changed functions | [`context()`] | `context` | `get_function_context` |
//! | the manifest and the context together | [`review()`] | `review` | `review_change` |
//! | whether work said to be done is done in git | [`verify::verify`] | `verify`, `session verify` | — |
//!
//! The full forms are the manifest's (per file, per commit); the compact forms are what the
//! shim answers to `git diff` and `git log` ([`crate::answer`]), which the MCP tools give by
//! default. The shim's answers (`git diff`, `show`, `log`, `blame`, the pickaxe, `gh pr diff`)
//! are one function too, [`crate::answer::git`] and [`crate::answer::gh`]: their query is the
//! parsed command line itself.
//!
//! Invariants: nothing here prints; every answer is bounded by its query's budget (when one is
//! given) through [`crate::budget`], and its function analyses by the answer's analysis time
//! (a part of `GIT_PRISM_ANSWER_TIMEOUT`, as for the shim); arguments are checked here, so both
//! faces refuse the same things with the same words.

mod context;
mod history;
mod manifest;
mod snapshots;
pub mod verify;

pub use context::{ContextQuery, ReviewQuery, context, review};
pub use history::{HistoryForm, HistoryQuery, history};
pub use manifest::{ManifestForm, ManifestQuery, manifest};
pub use snapshots::{DEFAULT_MAX_FILE_SIZE, SnapshotQuery, snapshots};

use crate::budget::Budget;
use crate::context::ContextError;
use crate::git::GitError;
use crate::manifest::ManifestError;
use crate::paging::PageError;

/// The smallest budget a server call may set, in tokens: a client the server does not control
/// cannot ask for answers too small to hold one entry of anything (the command line takes what
/// its user asks for).
pub const MIN_TOKENS: usize = 1_000;

/// The error returned when a query cannot be answered.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// An argument is unusable.
    #[error("invalid argument: {0}")]
    Invalid(String),
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
    /// A compact answer could not be built.
    #[error(transparent)]
    Answer(#[from] crate::answer::AnswerError),
    /// The answer could not be written as JSON.
    #[error("cannot write the answer as JSON")]
    Json(#[from] serde_json::Error),
}

/// Runs one query's work with its analysis deadline (a part of `GIT_PRISM_ANSWER_TIMEOUT`, 30 s
/// by default): files not analysed by then say so (`analysis_skipped`), and the answer goes on.
fn bounded<T>(f: impl FnOnce() -> T) -> T {
    let limit = crate::answer::time_limit_from_env();
    let deadline = std::time::Instant::now() + crate::answer::analysis_time(limit);
    crate::lang::within(Some(deadline), f)
}

/// The largest budget a server call may ask for (about 3 MB of JSON): a reply is one line of
/// the protocol, held whole in memory on both sides.
pub const MAX_TOKENS: usize = 1_000_000;

/// The budget of `tokens` tokens for a server call, within [`MIN_TOKENS`] and [`MAX_TOKENS`].
pub fn server_budget(tokens: usize) -> Budget {
    Budget::tokens(tokens.clamp(MIN_TOKENS, MAX_TOKENS))
}

/// A rendered answer and how long its phases took (for `GIT_PRISM_TRACE`).
#[derive(Debug)]
pub struct Answered {
    /// The JSON.
    pub json: String,
    /// The phases' durations.
    pub timings: Vec<(&'static str, std::time::Duration)>,
}

/// Refuses a page size of 0 (a page holds at least one entry).
fn check_page_size(page_size: Option<usize>) -> Result<(), QueryError> {
    match page_size {
        Some(0) => Err(QueryError::Invalid("page_size must be at least 1".into())),
        _ => Ok(()),
    }
}
