//! `git diff <range>`: the whole change at a glance and its hunks ([`super::compact`]).

use std::ffi::{OsStr, OsString};

use serde::Serialize;

use super::compact::Body;
use super::{AnswerError, Call, range_label, render_change, repo_arg};
use crate::manifest;
use crate::request::Diff;
use crate::shell;

/// The answer to `git diff`.
#[derive(Serialize)]
struct DiffAnswer<'a> {
    /// The command that prints git's own output.
    raw: &'a str,
    /// The two sides, by short id (`(working tree)`, `(index)` when they are not commits).
    range: &'a str,
    #[serde(flatten)]
    body: &'a Body,
}

/// Builds the answer to `git diff` (`argv` is the subcommand and its arguments).
pub fn answer(diff: &Diff, argv: &[OsString], ctx: &Call) -> Result<String, AnswerError> {
    let repo = ctx.repo()?;
    let built = manifest::build(&repo, diff, &manifest::Options::default())?;
    let rest: Vec<&OsStr> = argv.iter().skip(1).map(OsString::as_os_str).collect();
    let range = range_label(&built);
    let full_listing = format!(
        "git-prism manifest {} {}",
        repo_arg(&repo),
        shell::join(rest.iter().copied())
    );
    render_change(
        ctx,
        &repo,
        &built,
        &diff.patch,
        true,
        full_listing,
        &|body| {
            serde_json::to_string(&DiffAnswer {
                raw: &ctx.raw_command,
                range: &range,
                body,
            })
        },
    )
}
