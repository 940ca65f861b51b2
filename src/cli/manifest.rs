//! `git-prism manifest`: the change manifest of a range, as JSON.

use anyhow::Context;

use super::Out;
use super::range::{self, RangeArgs};
use crate::exit_codes;
use crate::query::{self, ManifestQuery};

/// Arguments of `manifest`.
#[derive(Debug, clap::Args)]
#[command(
    mut_arg("page_size", |a| a
        .help("Files per page")
        .long_help("Files per page (a `next_cursor` is given when more remain)")),
    mut_arg("git_args", |a| a.help("The range, as for `git diff`").long_help(
        "The range, as for `git diff`: `A..B`, `A...B`, `A B`, `A^!`, `A` (against the working \
         tree), nothing (index against working tree), `--cached [A]`, `--merge-base`, diff \
         options such as `-M50%` or `--no-renames`, and `-- <paths>`"
    )),
)]
pub(crate) struct Args {
    #[command(flatten)]
    pub range: RangeArgs,
    /// Leave untracked files out of working-tree manifests
    #[arg(long)]
    pub no_untracked: bool,
    /// Skip function and import analysis (faster)
    #[arg(long)]
    pub no_functions: bool,
}

pub(crate) fn run(args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let started = std::time::Instant::now();
    let repo = args.range.repo.open()?;
    let opened = ("open", started.elapsed());
    let q = ManifestQuery {
        untracked: !args.no_untracked,
        functions: !args.no_functions,
        paging: args.range.paging(),
        ..ManifestQuery::new(args.range.diff()?)
    };
    let next = |cursor: &str| {
        args.range
            .next_page("manifest")
            .paging()
            .flag("--no-functions", args.no_functions)
            .flag("--no-untracked", args.no_untracked)
            .cursor("--cursor", cursor)
    };
    let answered = query::manifest(&repo, &q, &next).context("cannot answer")?;
    range::trace(out, std::iter::once(&opened).chain(&answered.timings))?;
    writeln!(out.stdout, "{}", answered.json)?;
    Ok(exit_codes::SUCCESS)
}
