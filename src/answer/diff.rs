//! `git diff <range>`: the change manifest with function analysis.

use std::ffi::{OsStr, OsString};

use super::{AnswerError, Context, repo_arg, tokens_for};
use crate::manifest::{self, page, pager};
use crate::request::Diff;
use crate::shell;

/// Builds the answer to `git diff` (`argv` is the subcommand and its arguments).
pub fn answer(diff: &Diff, argv: &[OsString], ctx: &Context) -> Result<String, AnswerError> {
    let repo = ctx.repo()?;
    let built = manifest::build(&repo, diff, &manifest::Options::default())?;
    let rest: Vec<&OsStr> = argv.iter().skip(1).map(OsString::as_os_str).collect();
    let next = |cursor: &str| {
        format!(
            "git-prism manifest {} --max-tokens {} --cursor {cursor} {}",
            repo_arg(&repo),
            tokens_for(ctx.max_output),
            shell::join(rest.iter().copied())
        )
    };
    let paging = pager::Paging {
        max_bytes: Some(ctx.max_output.saturating_sub(1)),
        raw: Some(ctx.raw.clone()),
        ..pager::Paging::default()
    };
    Ok(page::render(&built, &paging, &ctx.now, &next)?)
}
