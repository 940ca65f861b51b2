//! `gh pr diff [<number> | <url> | <branch>]`: the pull request's manifest.
//!
//! The real `gh` names the base and head commits (`gh pr view --json ...`); the head is fetched
//! with the real git (`refs/pull/<n>/head`) when its objects are missing; the answer is the
//! manifest of merge-base(base, head)..head, as GitHub shows a pull request's changes, plus the
//! pull request's number and title.

use std::ffi::OsString;
use std::process::Stdio;

use serde::Serialize;

use super::{AnswerError, Context, repo_arg, tokens_for};
use crate::locate;
use crate::manifest::schema::ManifestDoc;
use crate::manifest::{self, page, pager};
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

#[derive(Serialize)]
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

/// A `gh pr diff` answer: the pull request, then its manifest.
#[derive(Serialize)]
struct PrDiffDoc<'a> {
    raw: &'a str,
    pull_request: PullRequest<'a>,
    /// Absent only while the rest is measured for the budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    manifest: Option<ManifestDoc>,
}

const FIELDS: &str = "number,title,url,baseRefOid,headRefOid,baseRefName,headRefName";

/// Builds the answer to `gh pr diff`.
pub fn answer(pr: &PrDiff, ctx: &Context) -> Result<String, AnswerError> {
    let view = view(pr)?;
    let repo = ctx.repo()?;
    if !repo.has_object(&view.head_ref_oid) {
        let refspec = format!("refs/pull/{}/head", view.number);
        repo.git
            .output(["fetch", "--quiet", "--no-tags", "origin", refspec.as_str()])?;
    }
    if !repo.has_object(&view.base_ref_oid) {
        repo.git.output([
            "fetch",
            "--quiet",
            "--no-tags",
            "origin",
            view.base_ref_oid.as_str(),
        ])?;
    }
    let merge_base = repo.merge_base(&view.base_ref_oid, &view.head_ref_oid)?;
    let diff = Diff {
        positional: vec![merge_base.clone().into(), view.head_ref_oid.clone().into()],
        separator: true,
        ..Diff::default()
    };
    let mut built = manifest::build(&repo, &diff, &manifest::Options::default())?;
    let base_name = if view.base_ref_name.is_empty() {
        "base"
    } else {
        view.base_ref_name.as_str()
    };
    built.target.base_ref = format!("merge-base({base_name}, pull/{}/head)", view.number);
    built.target.head_ref = format!("pull/{}/head", view.number);
    let mut doc = PrDiffDoc {
        raw: &ctx.raw,
        pull_request: PullRequest {
            number: view.number,
            title: &view.title,
            url: &view.url,
            base_ref: &view.base_ref_name,
            head_ref: &view.head_ref_name,
            base_sha: &view.base_ref_oid,
            head_sha: &view.head_ref_oid,
            merge_base: &merge_base,
        },
        manifest: None,
    };
    let header = serde_json::to_string(&doc)?.len();
    let next = |cursor: &str| {
        format!(
            "git-prism manifest {} --max-tokens {} --cursor {cursor} {merge_base} {}",
            repo_arg(&repo),
            tokens_for(ctx.max_output),
            view.head_ref_oid
        )
    };
    let paging = pager::Paging {
        max_bytes: Some(ctx.max_output.saturating_sub(header + 16)),
        ..pager::Paging::default()
    };
    doc.manifest = Some(page::document(&built, &paging, &ctx.now, &next)?);
    Ok(serde_json::to_string(&doc)?)
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
    let mut args: Vec<OsString> = vec!["pr".into(), "view".into()];
    if let Some(selector) = &pr.selector {
        args.push(selector.clone());
    }
    args.push("--json".into());
    args.push(FIELDS.into());
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
