//! `git log <range>`: every commit git would list, each with its per-file facts and functions.

use std::ffi::{OsStr, OsString};

use super::{AnswerError, Context, repo_arg, tokens_for};
use crate::manifest::{history, pager};
use crate::request::Log;
use crate::shell;

/// Builds the answer to `git log` (`argv` is the subcommand and its arguments).
pub fn answer(log: &Log, argv: &[OsString], ctx: &Context) -> Result<String, AnswerError> {
    let repo = ctx.repo()?;
    let commits = history::history(&repo, log, true)?;
    let rest: Vec<&OsStr> = argv.iter().skip(1).map(OsString::as_os_str).collect();
    let range = shell::join(rest.iter().copied());
    let next = |cursor: &str| {
        format!(
            "git-prism history {} --max-tokens {} --cursor {cursor} {range}",
            repo_arg(&repo),
            tokens_for(ctx.max_output),
        )
    };
    let paging = pager::Paging {
        max_bytes: Some(ctx.max_output.saturating_sub(1)),
        raw: Some(ctx.raw.clone()),
        ..pager::Paging::default()
    };
    Ok(history::render(
        &repo.display_path().display().to_string(),
        &range,
        &commits,
        &paging,
        &ctx.now,
        &next,
    )?)
}
