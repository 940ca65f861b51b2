//! The shim's structured answers: what an agent reads instead of git's porcelain.
//!
//! Each watched command has its answer: `git diff` the change manifest with function analysis,
//! `git log` per-commit manifests, `git show` a commit and its manifest, `git blame` grouped
//! blame, `git log -S/-G` the pickaxe's commits and the functions whose occurrences changed,
//! `gh pr diff` the pull request's manifest.
//!
//! Invariants: an answer is built fully in memory and returned as bytes (compact JSON, one
//! object, a trailing newline); nothing here writes anywhere. Every answer carries `raw`, the
//! command that prints git's own output, and stays within the output budget
//! (`GIT_PRISM_MAX_OUTPUT` characters, default [`DEFAULT_MAX_OUTPUT`]), saying what it cut and
//! which command pages the rest. Any error means the caller runs the real program instead.

mod blame;
mod diff;
mod gh;
mod log;
mod pickaxe;
mod show;

use std::ffi::{OsStr, OsString};

use crate::git::{GitError, Location, Repo};
use crate::manifest::ManifestError;
use crate::manifest::pager::PageError;
use crate::request::{Command, Request};
use crate::shell;

pub use blame::{BlameDoc, blame_doc};

/// The default output budget, in characters.
pub const DEFAULT_MAX_OUTPUT: usize = 20_000;

/// The error returned when no structured answer can be built (the real program answers).
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    /// Repository access or the real git failed (a bad revision, for one).
    #[error(transparent)]
    Git(#[from] GitError),
    /// Building a manifest failed.
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    /// A cursor could not be used.
    #[error(transparent)]
    Page(#[from] PageError),
    /// The request has no structured answer.
    #[error("{0}")]
    Unsupported(String),
    /// The GitHub CLI failed or answered something unexpected.
    #[error("gh: {0}")]
    Gh(String),
    /// The answer could not be written as JSON.
    #[error("cannot write the answer as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// What every answer needs to know.
pub struct Context {
    /// Where the repository is looked for.
    pub location: Location,
    /// The output budget in bytes.
    pub max_output: usize,
    /// The command that gives the real program's output.
    pub raw: String,
    /// When the answer is generated.
    pub now: String,
}

impl Context {
    /// Builds the context of a `git` call from its parsed request.
    pub fn for_git(request: &Request, max_output: usize) -> Result<Context, AnswerError> {
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
        Ok(Context {
            location,
            max_output,
            raw: format!("GIT_PRISM_INSIDE_SHIM=1 git {}", shell::join(args)),
            now: crate::time::now_rfc3339(),
        })
    }

    /// Opens the repository.
    fn repo(&self) -> Result<Repo, AnswerError> {
        Ok(Repo::open(&self.location)?)
    }
}

/// Returns the output budget from `GIT_PRISM_MAX_OUTPUT` (characters), or the default.
pub fn max_output_from_env() -> usize {
    std::env::var("GIT_PRISM_MAX_OUTPUT")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n >= 1000)
        .unwrap_or(DEFAULT_MAX_OUTPUT)
}

/// Answers a `git` call.
pub fn git(request: &Request, ctx: &Context) -> Result<Vec<u8>, AnswerError> {
    let json = match &request.command {
        Command::Diff(d) => diff::answer(d, &request.argv, ctx)?,
        Command::Log(l) if l.pickaxe.is_some() => pickaxe::answer(l, &request.argv, ctx)?,
        Command::Log(l) => log::answer(l, &request.argv, ctx)?,
        Command::Show(s) => show::answer(s, ctx)?,
        Command::Blame(b) => blame::answer(b, &request.argv, ctx)?,
    };
    Ok(finish(json))
}

/// Answers `gh pr diff`.
pub fn gh(pr: &crate::request::gh::PrDiff, argv: &[OsString]) -> Result<Vec<u8>, AnswerError> {
    let args: Vec<&OsStr> = argv.iter().map(OsString::as_os_str).collect();
    let ctx = Context {
        location: Location::current()?,
        max_output: max_output_from_env(),
        raw: format!("GIT_PRISM_INSIDE_SHIM=1 gh {}", shell::join(args)),
        now: crate::time::now_rfc3339(),
    };
    Ok(finish(gh::answer(pr, &ctx)?))
}

fn finish(mut json: String) -> Vec<u8> {
    json.push('\n');
    json.into_bytes()
}

/// The `--repo` argument that points a follow-up `git-prism` command at the same repository
/// and directory (pathspecs stay relative to it).
fn repo_arg(repo: &Repo) -> String {
    format!("--repo {}", shell::quote(repo.dir.as_os_str()))
}

/// Budget in tokens to give a follow-up command so its pages are the size of this answer.
fn tokens_for(max_output: usize) -> usize {
    (max_output / crate::manifest::pager::BYTES_PER_TOKEN).max(100)
}
