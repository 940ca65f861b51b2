//! `git-prism history`: per-commit manifests of every commit in a range.

use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::Context;

use super::Out;
use super::manifest::{BYTES_PER_TOKEN, extract_own_flags, open_repo, shell_quote};
use crate::exit_codes;
use crate::manifest::{history, page};
use crate::request;

/// Arguments of `history`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Repository to inspect (default: the one containing the current directory)
    #[arg(long, value_name = "PATH")]
    pub repo: Option<PathBuf>,
    /// Pretty-print the JSON for people
    #[arg(long)]
    pub pretty: bool,
    /// Commits per page (a `next_cursor` is given when more remain)
    #[arg(long, value_name = "N")]
    pub page_size: Option<usize>,
    /// Continue from a previous page's `next_cursor`
    #[arg(long, value_name = "CURSOR")]
    pub cursor: Option<String>,
    /// Keep the output under about this many tokens, cutting detail in a stated order
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<usize>,
    /// Skip function and import analysis (faster)
    #[arg(long)]
    pub no_functions: bool,
    /// The commits, as for `git log`: `A..B`, `^A B`, `B --not A`, `-n N`, `--author X`,
    /// `--since D`, `--first-parent`, `-- <paths>`...
    #[arg(
        allow_hyphen_values = true,
        trailing_var_arg = true,
        value_name = "RANGE"
    )]
    pub range: Vec<OsString>,
}

pub fn run(mut args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let own = extract_own_flags(&mut args.range)?;
    args.pretty |= own.pretty;
    args.repo = args.repo.or(own.repo);
    args.page_size = args.page_size.or(own.page_size);
    args.cursor = args.cursor.or(own.cursor);
    args.max_tokens = args.max_tokens.or(own.max_tokens);
    args.no_functions |= own.no_functions;
    let log = request::parse_log(&args.range)
        .map_err(|reason| anyhow::anyhow!("unsupported range arguments: {reason}"))?;
    let repo = open_repo(args.repo.as_deref())?;
    let commits = history::history(&repo, &log, !args.no_functions)?;
    let range: Vec<String> = args.range.iter().map(|a| shell_quote(a)).collect();
    let paging = page::Paging {
        cursor: args.cursor.clone(),
        page_size: args.page_size,
        max_bytes: args.max_tokens.map(|t| t.saturating_mul(BYTES_PER_TOKEN)),
        pretty: args.pretty,
        raw: None,
    };
    let next = |cursor: &str| {
        let mut cmd = String::from("git-prism history");
        if let Some(repo) = &args.repo {
            cmd.push_str(&format!(" --repo {}", shell_quote(repo.as_os_str())));
        }
        if let Some(n) = args.page_size {
            cmd.push_str(&format!(" --page-size {n}"));
        }
        if let Some(n) = args.max_tokens {
            cmd.push_str(&format!(" --max-tokens {n}"));
        }
        if args.no_functions {
            cmd.push_str(" --no-functions");
        }
        cmd.push_str(&format!(" --cursor {cursor}"));
        for a in &range {
            cmd.push(' ');
            cmd.push_str(a);
        }
        cmd
    };
    let json = history::render(
        &repo.display_path().display().to_string(),
        &range.join(" "),
        &commits,
        &paging,
        &crate::time::now_rfc3339(),
        &next,
    )
    .context("cannot page the history")?;
    writeln!(out.stdout, "{json}")?;
    Ok(exit_codes::SUCCESS)
}
