//! `gh pr diff [<number> | <url> | <branch>]`: the pull request's manifest.
//!
//! The real `gh` names the base and head commits (`gh pr view --json ...`); the answer is the
//! manifest of merge-base(base, head)..head, as GitHub shows a pull request's changes, plus the
//! pull request's number and title.
//!
//! Invariants: nothing is fetched — when the repository lacks either commit the call passes
//! through to the real `gh` (which downloads the diff itself and writes nothing to the
//! repository). The object ids `gh` reports are checked to be full hexadecimal ids before they
//! are used, and the selector is passed to `gh` after `--`.

use std::ffi::OsString;
use std::io;
use std::path::PathBuf;
use std::process::Stdio;

use serde::Serialize;

use super::compact::Body;
use super::{AnswerError, Context, render_change, repo_arg};
use crate::git::deadline::{self, Ended};
use crate::locate;
use crate::manifest;
use crate::request::Diff;
use crate::request::gh::PrDiff;

/// Why the real `gh` could not tell which commits a pull request compares.
#[derive(Debug, thiserror::Error)]
pub enum GhError {
    /// No real `gh` was found.
    #[error(transparent)]
    Locate(#[from] locate::ResolveError),
    /// The real `gh` could not be started.
    #[error("cannot run {}: {source}", path.display())]
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
    #[error("unexpected `gh pr view` output: {0}")]
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
        oid: String,
        /// The pull request.
        number: u64,
    },
}

/// What `gh pr view --json` says about the pull request.
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct PrView {
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

#[derive(Clone, Copy, Serialize)]
struct PullRequest<'a> {
    number: u64,
    title: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    url: &'a str,
    base_ref: &'a str,
    head_ref: &'a str,
    base_sha: &'a str,
    head_sha: &'a str,
    merge_base: &'a str,
}

/// The answer to `gh pr diff`.
#[derive(Serialize)]
struct GhAnswer<'a> {
    /// The command that prints gh's own output.
    raw: &'a str,
    /// Which pull request, and its commits.
    pull_request: PullRequest<'a>,
    #[serde(flatten)]
    body: &'a Body,
}

/// The most bytes read from `gh pr view` (its answer is a few fields).
const MAX_VIEW: usize = 1 << 20;

const FIELDS: &str = "number,title,url,baseRefOid,headRefOid,baseRefName,headRefName";

/// Builds the answer to `gh pr diff`.
pub fn answer(pr: &PrDiff, ctx: &Context) -> Result<String, AnswerError> {
    let view = view(pr)?;
    for oid in [&view.base_ref_oid, &view.head_ref_oid] {
        if !is_object_id(oid) {
            return Err(GhError::InvalidObjectId(oid.chars().take(80).collect()).into());
        }
    }
    let repo = ctx.repo()?;
    for oid in [&view.head_ref_oid, &view.base_ref_oid] {
        if !repo.has_object(oid) {
            return Err(GhError::MissingCommit {
                oid: oid.clone(),
                number: view.number,
            }
            .into());
        }
    }
    let merge_base = repo.merge_base(&view.base_ref_oid, &view.head_ref_oid)?;
    let diff = Diff {
        positional: vec![merge_base.clone().into(), view.head_ref_oid.clone().into()],
        separator: true,
        ..Diff::default()
    };
    let built = manifest::build(&repo, &diff, &manifest::Options::default())?;
    let pull_request = PullRequest {
        number: view.number,
        title: &view.title,
        url: &view.url,
        base_ref: &view.base_ref_name,
        head_ref: &view.head_ref_name,
        base_sha: &view.base_ref_oid,
        head_sha: &view.head_ref_oid,
        merge_base: &merge_base,
    };
    let full_listing = format!(
        "git-prism manifest {} {merge_base} {}",
        repo_arg(&repo),
        view.head_ref_oid
    );
    render_change(ctx, &repo, &built, &[], true, full_listing, &|body| {
        serde_json::to_string(&GhAnswer {
            raw: &ctx.raw,
            pull_request,
            body,
        })
    })
}

/// Asks the real `gh` about the pull request.
fn view(pr: &PrDiff) -> Result<PrView, GhError> {
    let path_var = std::env::var_os("PATH");
    let pinned = std::env::var_os(locate::pin_variable("gh"));
    let gh = locate::resolve(locate::Inputs {
        tool: "gh",
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
    if let Some(selector) = &pr.selector {
        args.push(selector.clone());
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
    serde_json::from_slice(&out.stdout).map_err(GhError::Output)
}

/// Returns whether `s` is a full object id: 40 (SHA-1) or 64 (SHA-256) lower-case hex digits.
fn is_object_id(s: &str) -> bool {
    matches!(s.len(), 40 | 64) && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::is_object_id;

    #[test]
    fn object_ids_are_full_lower_case_hex() {
        assert!(is_object_id(&"a".repeat(40)));
        assert!(is_object_id(&"0123456789abcdef".repeat(4)));
        for bad in [
            "--upload-pack=touch /tmp/x",
            "HEAD",
            "",
            &"A".repeat(40),
            &"a".repeat(39),
            &"g".repeat(40),
            &"a".repeat(41),
        ] {
            assert!(!is_object_id(bad), "{bad}");
        }
    }
}
