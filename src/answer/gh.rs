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
use std::process::Stdio;

use serde::Serialize;

use super::compact::{self, Body};
use super::{AnswerError, Context, next_page, repo_arg, shaping};
use crate::locate;
use crate::manifest;
use crate::request::Diff;
use crate::request::gh::PrDiff;

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

const FIELDS: &str = "number,title,url,baseRefOid,headRefOid,baseRefName,headRefName";

/// Builds the answer to `gh pr diff`.
pub fn answer(pr: &PrDiff, ctx: &Context) -> Result<String, AnswerError> {
    let view = view(pr)?;
    for oid in [&view.base_ref_oid, &view.head_ref_oid] {
        if !is_object_id(oid) {
            return Err(AnswerError::Gh(format!(
                "`gh pr view` gave an invalid object id '{}'",
                oid.chars().take(80).collect::<String>()
            )));
        }
    }
    let repo = ctx.repo()?;
    for oid in [&view.head_ref_oid, &view.base_ref_oid] {
        if !repo.has_object(oid) {
            return Err(AnswerError::Gh(format!(
                "commit {oid} of pull request {} is not in the repository (git-prism never fetches)",
                view.number
            )));
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
    let shaping = shaping(&[]);
    let request = compact::Request {
        manifest: &built,
        shaping: &shaping,
        hunks: true,
        budget: ctx.max_output.saturating_sub(1),
        cursor: ctx.cursor.as_deref(),
        next: &|cursor| next_page(ctx, cursor),
        full_listing: format!(
            "git-prism manifest {} {merge_base} {}",
            repo_arg(&repo),
            view.head_ref_oid
        ),
    };
    compact::render(&repo, &request, &|body| {
        serde_json::to_string(&GhAnswer {
            raw: &ctx.raw,
            pull_request,
            body,
        })
    })
}

/// Asks the real `gh` about the pull request.
fn view(pr: &PrDiff) -> Result<PrView, AnswerError> {
    let path_var = std::env::var_os("PATH");
    let pinned = std::env::var_os(locate::pin_variable("gh"));
    let gh = locate::resolve(locate::Inputs {
        tool: "gh",
        path_var: path_var.as_deref(),
        pinned: pinned.as_deref(),
        self_id: locate::FileId::current_exe(),
    })
    .map_err(|e| AnswerError::Gh(e.to_string()))?;
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
    let out = std::process::Command::new(&gh)
        .args(&args)
        .env("GIT_PRISM_INSIDE_SHIM", "1")
        .env("GH_PROMPT_DISABLED", "1")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| AnswerError::Gh(format!("{}: {e}", gh.display())))?;
    if !out.status.success() {
        return Err(AnswerError::Gh(
            String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        ));
    }
    serde_json::from_slice(&out.stdout)
        .map_err(|e| AnswerError::Gh(format!("unexpected `gh pr view` output: {e}")))
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
