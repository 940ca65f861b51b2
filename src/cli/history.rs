//! `git-prism history`: per-commit manifests of every commit in a range.

use anyhow::Context;

use super::Out;
use super::range::RangeArgs;
use crate::exit_codes;
use crate::query::{self, HistoryForm, HistoryQuery};

/// Arguments of `history`.
#[derive(Debug, clap::Args)]
#[command(
    mut_arg("page_size", |a| a
        .help("Commits per page")
        .long_help("Commits per page (a `next_cursor` is given when more remain)")),
    mut_arg("git_args", |a| a.help("The commits, as for `git log`").long_help(
        "The commits, as for `git log`: `A..B`, `^A B`, `B --not A`, `-n N`, `--author X`, \
         `--since D`, `--first-parent`, `-- <paths>`..."
    )),
)]
pub(crate) struct Args {
    #[command(flatten)]
    pub range: RangeArgs,
    /// Skip function and import analysis (faster)
    #[arg(long)]
    pub no_functions: bool,
}

pub(crate) fn run(args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let repo = args.range.repo.open()?;
    let q = HistoryQuery {
        log: args.range.log()?,
        functions: !args.no_functions,
        form: HistoryForm::Full,
        range_label: args.range.quoted(),
        paging: args.range.paging(),
    };
    let next = |cursor: &str| {
        args.range
            .next_page("history")
            .paging()
            .flag("--no-functions", args.no_functions)
            .cursor("--cursor", cursor)
    };
    let json = query::history(&repo, &q, &next).context("cannot answer")?;
    writeln!(out.stdout, "{json}")?;
    Ok(exit_codes::SUCCESS)
}
