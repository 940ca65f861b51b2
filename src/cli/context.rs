//! `git-prism context` and `git-prism review`: the function context of a range (callers,
//! callees, tests, blast radius), alone or with the manifest in one answer.

use std::ffi::OsStr;

use anyhow::Context as _;

use super::Out;
use super::range::{self, RangeArgs};
use crate::exit_codes;
use crate::query::{self, ContextQuery, ReviewQuery};

/// Arguments of `context`.
#[derive(Debug, clap::Args)]
#[command(
    mut_arg("page_size", |a| a
        .help("Functions per page")
        .long_help("Functions per page (a `next_cursor` is given when more remain)")),
    mut_arg("git_args", |a| a
        .help("The range, as for `git diff`")
        .long_help("The range, as for `git diff` (see `git-prism manifest --help`)")),
)]
pub(crate) struct ContextArgs {
    #[command(flatten)]
    pub range: RangeArgs,
    #[command(flatten)]
    pub functions: Functions,
}

/// Arguments of `review`: its two parts page on their own, so it takes a cursor for each and
/// `--cursor` only to say so.
#[derive(Debug, clap::Args)]
#[command(
    mut_arg("page_size", |a| a
        .help("Functions (and manifest files) per page")
        .long_help("Functions per context page and files per manifest page (a `next_cursor` is given when more remain)")),
    mut_arg("cursor", |a| a.hide(true)),
    mut_arg("git_args", |a| a
        .help("The range, as for `git diff`")
        .long_help("The range, as for `git diff` (see `git-prism manifest --help`)")),
)]
pub(crate) struct ReviewArgs {
    #[command(flatten)]
    pub range: RangeArgs,
    #[command(flatten)]
    pub functions: Functions,
    /// Continue the manifest from its `next_cursor`
    ///
    /// The context part stays where `--context-cursor` says.
    #[arg(long, value_name = "CURSOR")]
    pub manifest_cursor: Option<String>,
    /// Continue the context from its `next_cursor`
    ///
    /// The manifest part stays where `--manifest-cursor` says.
    #[arg(long, value_name = "CURSOR")]
    pub context_cursor: Option<String>,
}

/// What `context` and `review` both ask about.
#[derive(Debug, clap::Args)]
pub(crate) struct Functions {
    /// Only these functions (comma-separated)
    ///
    /// Qualified or bare names, comma-separated or repeated; a name the range did not change is
    /// looked up on the head side.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub function_names: Vec<String>,
    /// Leave out untracked files
    ///
    /// A range against the working tree includes them unless this is given.
    #[arg(long)]
    pub no_untracked: bool,
}

/// The cursors of `review`'s two parts.
#[derive(Debug, Default)]
struct Cursors {
    manifest: Option<String>,
    context: Option<String>,
}

/// Which answer to give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
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

/// Runs `git-prism context`.
pub(crate) fn run_context(args: ContextArgs, out: &mut Out<'_>) -> anyhow::Result<i32> {
    run(
        Mode::Context,
        &args.range,
        &args.functions,
        &Cursors::default(),
        out,
    )
}

/// Runs `git-prism review`.
pub(crate) fn run_review(args: ReviewArgs, out: &mut Out<'_>) -> anyhow::Result<i32> {
    if args.range.cursor.is_some() {
        anyhow::bail!("review takes --manifest-cursor and --context-cursor, one per part");
    }
    let cursors = Cursors {
        manifest: args.manifest_cursor,
        context: args.context_cursor,
    };
    run(Mode::Review, &args.range, &args.functions, &cursors, out)
}

fn run(
    mode: Mode,
    range: &RangeArgs,
    functions: &Functions,
    cursors: &Cursors,
    out: &mut Out<'_>,
) -> anyhow::Result<i32> {
    let repo = range.repo.open()?;
    let mut context = ContextQuery {
        untracked: !functions.no_untracked,
        function_names: functions.function_names.clone(),
        paging: range.paging(),
        ..ContextQuery::new(range.diff()?)
    };
    let command = |cursor_flag: &str, cursor: &str| {
        let names = functions.function_names.join(",");
        let mut line = range
            .next_page(mode.command())
            .option(
                "--function-names",
                (!names.is_empty()).then_some(names.as_ref()),
            )
            .paging()
            .flag("--no-untracked", functions.no_untracked);
        if mode == Mode::Review {
            // The other part stays where it was.
            let (other_flag, other) = if cursor_flag == "--manifest-cursor" {
                ("--context-cursor", &cursors.context)
            } else {
                ("--manifest-cursor", &cursors.manifest)
            };
            line = line.option(other_flag, other.as_deref().map(OsStr::new));
        }
        line.cursor(cursor_flag, cursor)
    };
    let answered = match mode {
        Mode::Context => query::context(&repo, &context, &|c| command("--cursor", c)),
        Mode::Review => {
            context.paging.cursor = cursors.context.clone();
            let q = ReviewQuery {
                context,
                manifest_cursor: cursors.manifest.clone(),
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
