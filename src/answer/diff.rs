//! `git diff <range>`: the whole change at a glance and its hunks ([`super::compact`]).

use std::ffi::{OsStr, OsString};

use serde::Serialize;

use super::compact::{self, Body};
use super::{AnswerError, Context, next_page, range_label, repo_arg, shaping};
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
pub fn answer(diff: &Diff, argv: &[OsString], ctx: &Context) -> Result<String, AnswerError> {
    let repo = ctx.repo()?;
    let built = manifest::build(&repo, diff, &manifest::Options::default())?;
    let rest: Vec<&OsStr> = argv.iter().skip(1).map(OsString::as_os_str).collect();
    let shaping = shaping(&diff.patch);
    let range = range_label(&built);
    let request = compact::Request {
        manifest: &built,
        shaping: &shaping,
        hunks: true,
        budget: ctx.max_output.saturating_sub(1),
        cursor: ctx.cursor.as_deref(),
        next: &|cursor| next_page(ctx, cursor),
        full_listing: format!(
            "git-prism manifest {} {}",
            repo_arg(&repo),
            shell::join(rest.iter().copied())
        ),
    };
    compact::render(&repo, &request, &|body| {
        serde_json::to_string(&DiffAnswer {
            raw: &ctx.raw,
            range: &range,
            body,
        })
    })
}
