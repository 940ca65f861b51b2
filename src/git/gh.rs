//! Running the real `gh` for the one fact git-prism asks it: which commits a pull request
//! compares (`gh pr view --json`).
//!
//! Invariants: the real `gh` is found like the shim finds it (never git-prism itself); it runs
//! without a prompt or colour, bounded in time and output ([`super::deadline`]), with the
//! selector after `--`; the object ids it reports are checked to be full hexadecimal ids
//! ([`Oid`]) before anything uses them. Nothing is fetched.

use std::ffi::OsString;
use std::io;
use std::path::PathBuf;
use std::process::Stdio;

use super::deadline::{self, Ended};
use crate::locate;
use crate::oid::Oid;

/// Why the real `gh` could not tell which commits a pull request compares.
#[derive(Debug, thiserror::Error)]
pub enum GhError {
    /// No real `gh` was found.
    #[error(transparent)]
    Locate(#[from] locate::ResolveError),
    /// The real `gh` could not be started.
    #[error("cannot run {}", path.display())]
    Spawn {
        /// The binary that was run.
        path: PathBuf,
        /// Why it could not start.
        #[source]
        source: io::Error,
    },
    /// `gh pr view` failed; its own message (stderr, trimmed).
    #[error("`gh pr view` failed: {0}")]
    Failed(String),
    /// `gh pr view` ran past its time limit and was stopped.
    #[error(
        "`gh pr view` ran for more than {0} s and was stopped (GIT_PRISM_GIT_TIMEOUT sets the limit)"
    )]
    TimedOut(u64),
    /// `gh pr view` exited, but a process it started still holds its output.
    #[error("`gh pr view` exited but a process it started still holds its output")]
    LeftRunning,
    /// `gh pr view` printed more than a pull request's fields take.
    #[error("`gh pr view` printed more than {0} bytes")]
    TooLarge(usize),
    /// `gh pr view` printed something that is not the JSON asked for.
    #[error("unexpected `gh pr view` output")]
    Output(#[source] serde_json::Error),
    /// `gh pr view` named an object id that is not a full hexadecimal id (its first 80
    /// characters).
    #[error("`gh pr view` gave an invalid object id '{0}'")]
    InvalidObjectId(String),
    /// The repository lacks a commit of the pull request (git-prism never fetches).
    #[error(
        "commit {oid} of pull request {number} is not in the repository (git-prism never fetches)"
    )]
    MissingCommit {
        /// The commit.
        oid: Oid,
        /// The pull request.
        number: u64,
    },
}

/// What `gh pr view --json` prints.
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawView {
    number: u64,
    #[serde(default)]
    title: String,
    #[serde(default)]
    url: String,
    base_ref_oid: String,
    head_ref_oid: String,
    #[serde(default)]
    base_ref_name: String,
    #[serde(default)]
    head_ref_name: String,
}

/// What `gh pr view` says about a pull request, its commit ids checked.
#[derive(Debug)]
pub struct PrView {
    /// The number.
    pub number: u64,
    /// The title.
    pub title: String,
    /// The web address.
    pub url: String,
    /// The base branch's commit.
    pub base: Oid,
    /// The head commit.
    pub head: Oid,
    /// The base branch's name.
    pub base_name: String,
    /// The head branch's name.
    pub head_name: String,
}

/// The most bytes read from `gh pr view` (its answer is a few fields).
const MAX_VIEW: usize = 1 << 20;

const FIELDS: &str = "number,title,url,baseRefOid,headRefOid,baseRefName,headRefName";

/// Asks the real `gh` about the pull request the selector names (the current branch's
/// without one).
pub fn pr_view(selector: Option<&std::ffi::OsStr>) -> Result<PrView, GhError> {
    let path_var = std::env::var_os("PATH");
    let pinned = std::env::var_os(locate::Program::Gh.pin_variable());
    let gh = locate::resolve(locate::Inputs {
        tool: locate::Program::Gh,
        path_var: path_var.as_deref(),
        pinned: pinned.as_deref(),
        self_id: locate::FileId::current_exe(),
    })?;
    let mut args: Vec<OsString> = vec![
        "pr".into(),
        "view".into(),
        "--json".into(),
        FIELDS.into(),
        "--".into(),
    ];
    if let Some(selector) = selector {
        args.push(selector.to_owned());
    }
    let spawn_error = |source| GhError::Spawn {
        path: gh.clone(),
        source,
    };
    let child = std::process::Command::new(&gh)
        .args(&args)
        .env("GIT_PRISM_INSIDE_SHIM", "1")
        .env("GH_PROMPT_DISABLED", "1")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(spawn_error)?;
    // gh answers in milliseconds; a hung or endless one gives way to the real `gh`.
    let limit = deadline::timeout_from_env();
    let out = deadline::run(child, MAX_VIEW, limit).map_err(|ended| match ended {
        Ended::TimedOut(limit) => GhError::TimedOut(limit.as_secs()),
        Ended::TooLarge(max) => GhError::TooLarge(max),
        Ended::LeftRunning => GhError::LeftRunning,
        Ended::Io(source) => spawn_error(source),
    })?;
    if !out.status.success() {
        return Err(GhError::Failed(
            String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        ));
    }
    let view: RawView = serde_json::from_slice(&out.stdout).map_err(GhError::Output)?;
    let oid = |text: &str| {
        Oid::parse(text).map_err(|_| GhError::InvalidObjectId(text.chars().take(80).collect()))
    };
    Ok(PrView {
        number: view.number,
        base: oid(&view.base_ref_oid)?,
        head: oid(&view.head_ref_oid)?,
        title: view.title,
        url: view.url,
        base_name: view.base_ref_name,
        head_name: view.head_ref_name,
    })
}
