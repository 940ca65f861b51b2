//! `git diff <range>`: the change in the compact vocabulary ([`super::compact`]); a range with
//! no change passes through to git, whose empty output says so in no bytes.

use std::ffi::OsString;

use super::{AnswerError, Call, render_change};
use crate::manifest;
use crate::request::Diff;

/// Builds the answer to `git diff` (`_argv` is the subcommand and its arguments). A range with
/// no change has no answer: git's own (empty) output says it in no bytes at all.
pub(crate) fn answer(diff: &Diff, _argv: &[OsString], ctx: &Call) -> Result<String, AnswerError> {
    let repo = ctx.repo()?;
    let built = manifest::build(repo, diff, &manifest::Options::default())?;
    if built.files.is_empty() {
        return Err(AnswerError::Unsupported("nothing changed".into()));
    }
    let range = super::spans_commits(repo, &built)?;
    render_change(ctx, repo, &built, &diff.patch, true, range, &|body| {
        crate::json::to_string(body)
    })
}
