//! `git-prism snapshot`: file contents before and after a range.

use std::ffi::OsString;

use bstr::BString;

use super::Out;
use super::range::{self, RepoArgs};
use crate::exit_codes;
use crate::manifest::snapshot;
use crate::query::{self, SnapshotQuery};

/// Arguments of `snapshot`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    pub repo: RepoArgs,
    /// Files to read (at most 20)
    ///
    /// Relative to the top of the working tree.
    #[arg(long = "paths", alias = "path", value_name = "PATH", num_args = 1.., required = true)]
    pub paths: Vec<OsString>,
    /// Only lines START to END (1-based, inclusive)
    #[arg(long, value_name = "START:END", value_parser = parse_range_arg)]
    pub line_range: Option<(usize, usize)>,
    /// Skip contents over BYTES
    ///
    /// A file larger than this many bytes gets no content.
    #[arg(long, value_name = "BYTES", default_value_t = query::DEFAULT_MAX_FILE_SIZE)]
    pub max_file_size: u64,
    /// Keep the output under about N tokens
    ///
    /// The largest contents are left out first.
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<usize>,
    /// Only the content before the range
    #[arg(long, conflicts_with = "after_only")]
    pub before_only: bool,
    /// Only the content after the range
    #[arg(long)]
    pub after_only: bool,
    /// Also return each changed file's diff hunks
    #[arg(long)]
    pub diff_hunks: bool,
    /// Compare the index instead of the working tree
    #[arg(long, alias = "staged")]
    pub cached: bool,
    /// The range, as for `git diff` (`A..B`, `A`, nothing...)
    #[arg(value_name = "RANGE")]
    pub range: Vec<OsString>,
}

fn parse_range_arg(text: &str) -> Result<(usize, usize), String> {
    snapshot::parse_line_range(text)
        .ok_or_else(|| format!("expected START:END with 1 <= START <= END, got '{text}'"))
}

pub(crate) fn run(args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let mut range = range::parse_diff(&args.range)?;
    range.cached |= args.cached;
    let repo = args.repo.open()?;
    let paths = args
        .paths
        .iter()
        .map(|p| BString::from(p.as_encoded_bytes()))
        .collect();
    let mut q = SnapshotQuery::new(range, paths);
    q.budget = args.max_tokens.map(crate::budget::Budget::tokens);
    q.pretty = args.repo.pretty;
    let s = &mut q.selection;
    s.line_range = args.line_range;
    s.max_file_size = args.max_file_size;
    s.before = !args.after_only;
    s.after = !args.before_only;
    s.diff_hunks = args.diff_hunks;
    let json = query::snapshots(&repo, &q)?;
    writeln!(out.stdout, "{json}")?;
    Ok(exit_codes::SUCCESS)
}
