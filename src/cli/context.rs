//! `git-prism context` and `git-prism review`: the function context of a range (callers,
//! callees, tests, blast radius), alone or with the manifest in one answer.

use std::ffi::OsStr;

use anyhow::Context as _;

use super::Out;
use super::range::{self, RangeArgs};
use crate::exit_codes;
use crate::query::{self, ContextQuery, ReviewQuery};

/// Arguments of `context` and `review`.
#[derive(Debug, clap::Args)]
#[command(
    mut_arg("page_size", |a| a.help("Functions per page (and, for `review`, files per manifest page)")),
    mut_arg("cursor", |a| a.help("Continue from a previous page's `next_cursor` (`context`)")),
    mut_arg("git_args", |a| a.help("The range, as for `git diff` (see `git-prism manifest --help`)")),
)]
pub(crate) struct Args {
    #[command(flatten)]
    pub range: RangeArgs,
    /// Only these functions (qualified or bare names, comma-separated or repeated); a name the
    /// range did not change is looked up on the head side
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub function_names: Vec<String>,
    /// Continue the manifest part from its `next_cursor` (`review`)
    #[arg(long, value_name = "CURSOR")]
    pub manifest_cursor: Option<String>,
    /// Continue the context part from its `next_cursor` (`review`)
    #[arg(long, value_name = "CURSOR")]
    pub context_cursor: Option<String>,
    /// Leave untracked files out of working-tree ranges
    #[arg(long)]
    pub no_untracked: bool,
}

/// Which answer to give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// The context alone.
    Context,
    /// The manifest and the context.
    Review,
}

impl Mode {
    fn command(self) -> &'static str {
        match self {
            Mode::Context => "context",
            Mode::Review => "review",
        }
    }
}

pub(crate) fn run(mode: Mode, args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    if mode == Mode::Review && args.range.cursor.is_some() {
        anyhow::bail!("review takes --manifest-cursor and --context-cursor, one per part");
    }
    let repo = args.range.repo.open()?;
    let mut context = ContextQuery {
        untracked: !args.no_untracked,
        function_names: args.function_names.clone(),
        paging: args.range.paging(),
        ..ContextQuery::new(args.range.diff()?)
    };
    let command = |cursor_flag: &str, cursor: &str| {
        let names = args.function_names.join(",");
        let mut line = args
            .range
            .next_page(mode.command())
            .option(
                "--function-names",
                (!names.is_empty()).then_some(names.as_ref()),
            )
            .paging()
            .flag("--no-untracked", args.no_untracked);
        if mode == Mode::Review {
            // The other part stays where it was.
            let (other_flag, other) = if cursor_flag == "--manifest-cursor" {
                ("--context-cursor", &args.context_cursor)
            } else {
                ("--manifest-cursor", &args.manifest_cursor)
            };
            line = line.option(other_flag, other.as_deref().map(OsStr::new));
        }
        line.cursor(cursor_flag, cursor)
    };
    let answered = match mode {
        Mode::Context => query::context(&repo, &context, &|c| command("--cursor", c)),
        Mode::Review => {
            context.paging.cursor = args.context_cursor.clone();
            let q = ReviewQuery {
                context,
                manifest_cursor: args.manifest_cursor.clone(),
            };
            query::review(&repo, &q, &|c| command("--manifest-cursor", c), &|c| {
                command("--context-cursor", c)
            })
        }
    }
    .context("cannot answer")?;
    range::trace(out, &answered.timings)?;
    writeln!(out.stdout, "{}", answered.json)?;
    Ok(exit_codes::SUCCESS)
}
