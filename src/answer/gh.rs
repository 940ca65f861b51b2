//! `gh pr diff [<number> | <url> | <branch>]`: the pull request's change.
//!
//! The real `gh` names the base and head commits (`gh pr view --json ...`); the answer is the
//! change merge-base(base, head)..head, as GitHub shows a pull request's changes, in the
//! compact vocabulary of `git diff` ([`super::compact`]), headed by the pull request (number,
//! title, URL, base and head branches and commits, merge base).
//!
//! Invariants: nothing is fetched — when the repository lacks either commit the call passes
//! through to the real `gh` (which downloads the diff itself and writes nothing to the
//! repository). The object ids `gh` reports are checked to be full hexadecimal ids before they
//! are used, and the selector is passed to `gh` after `--`.

use serde::Serialize;

use super::compact::Body;
use super::{AnswerError, Call, SHORT_ID, render_change};
use crate::git::gh::{self, GhError};
use crate::manifest;
use crate::request::Diff;
use crate::request::gh::PrDiff;

/// Which pull request, and the commits it compares (ids shortened).
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
    /// Which pull request, and its commits.
    pull_request: PullRequest<'a>,
    #[serde(flatten)]
    body: &'a Body,
}

/// Builds the answer to `gh pr diff`.
pub(crate) fn answer(pr: &PrDiff, ctx: &Call) -> Result<String, AnswerError> {
    let view = gh::pr_view(pr.selector.as_deref())?;
    let repo = ctx.repo()?;
    for oid in [&view.head, &view.base] {
        if !repo.has_object(oid) {
            return Err(GhError::MissingCommit {
                oid: oid.clone(),
                number: view.number,
            }
            .into());
        }
    }
    let merge_base = repo.merge_base(&view.base, &view.head)?;
    // What `gh` prints is the patch of the merge base against the head: the answer is weighed
    // against git's own for it.
    let own = super::own::Own::start_patch(repo, &merge_base, &view.head, ctx.budget);
    let _ = ctx.own.set(own);
    let diff = Diff {
        positional: vec![merge_base.clone().into(), view.head.clone().into()],
        separator: true,
        ..Diff::default()
    };
    let built = manifest::build(repo, &diff, &manifest::Options::default())?;
    let pull_request = PullRequest {
        number: view.number,
        title: &view.title,
        url: &view.url,
        base_ref: &view.base_name,
        head_ref: &view.head_name,
        base_sha: view.base.short(SHORT_ID),
        head_sha: view.head.short(SHORT_ID),
        merge_base: merge_base.short(SHORT_ID),
    };
    let range = super::spans_commits(repo, &built)?;
    render_change(ctx, repo, &built, &[], true, range, &|body| {
        crate::json::to_string(&GhAnswer { pull_request, body })
    })
}
