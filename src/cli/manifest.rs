//! `git-prism manifest`: the change manifest of a range, as JSON.

use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::Context;

use super::Out;
use crate::exit_codes;
use crate::git::{Location, Repo};
use crate::manifest::{self, page};
use crate::request;

/// Arguments of `manifest`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Repository to inspect (default: the one containing the current directory)
    #[arg(long, value_name = "PATH")]
    pub repo: Option<PathBuf>,
    /// Pretty-print the JSON for people
    #[arg(long)]
    pub pretty: bool,
    /// Files per page (a `next_cursor` is given when more remain)
    #[arg(long, value_name = "N")]
    pub page_size: Option<usize>,
    /// Continue from a previous page's `next_cursor`
    #[arg(long, value_name = "CURSOR")]
    pub cursor: Option<String>,
    /// Keep the output under about this many tokens, cutting detail in a stated order
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<usize>,
    /// Leave untracked files out of working-tree manifests
    #[arg(long)]
    pub no_untracked: bool,
    /// Skip function and import analysis (faster)
    #[arg(long)]
    pub no_functions: bool,
    /// The range, as for `git diff`: `A..B`, `A...B`, `A B`, `A^!`, `A` (against the working
    /// tree), nothing (index against working tree), `--cached [A]`, `--merge-base`, diff
    /// options such as `-M50%` or `--no-renames`, and `-- <paths>`
    #[arg(
        allow_hyphen_values = true,
        trailing_var_arg = true,
        value_name = "RANGE"
    )]
    pub range: Vec<OsString>,
}

pub use crate::manifest::page::BYTES_PER_TOKEN;

/// Parses `git diff`-style range arguments with the shim's grammar.
pub fn parse_range(range: &[OsString]) -> anyhow::Result<request::Diff> {
    request::parse_diff(range)
        .map_err(|reason| anyhow::anyhow!("unsupported range arguments: {reason}"))
}

/// git-prism's own options, wherever they appear among the range arguments.
#[derive(Debug, Default)]
pub struct OwnFlags {
    /// `--pretty`.
    pub pretty: bool,
    /// `--no-untracked`.
    pub no_untracked: bool,
    /// `--no-functions`.
    pub no_functions: bool,
    /// `--repo`.
    pub repo: Option<PathBuf>,
    /// `--page-size`.
    pub page_size: Option<usize>,
    /// `--cursor`.
    pub cursor: Option<String>,
    /// `--max-tokens`.
    pub max_tokens: Option<usize>,
}

/// Moves git-prism's own options out of the range arguments (before `--`), so they work after
/// the range too: `git-prism history -n 3 --pretty`. A bare `--pretty` never means git's
/// `--pretty` here: git's output formats are never produced by these commands.
pub fn extract_own_flags(range: &mut Vec<OsString>) -> anyhow::Result<OwnFlags> {
    let mut flags = OwnFlags::default();
    let mut kept = Vec::with_capacity(range.len());
    let mut it = std::mem::take(range).into_iter();
    while let Some(arg) = it.next() {
        let text = arg.to_string_lossy().into_owned();
        if text == "--" || text == super::SEPARATOR {
            kept.push("--".into());
            kept.extend(it.by_ref().map(|a| {
                if a == super::SEPARATOR {
                    "--".into()
                } else {
                    a
                }
            }));
            break;
        }
        let (name, inline) = match text.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_owned(), Some(v.to_owned())),
            _ => (text.clone(), None),
        };
        let value = |it: &mut std::vec::IntoIter<OsString>| -> anyhow::Result<String> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => it
                    .next()
                    .map(|v| v.to_string_lossy().into_owned())
                    .with_context(|| format!("{name} needs a value")),
            }
        };
        match name.as_str() {
            "--pretty" if inline.is_none() => flags.pretty = true,
            "--no-untracked" if inline.is_none() => flags.no_untracked = true,
            "--no-functions" if inline.is_none() => flags.no_functions = true,
            "--repo" => flags.repo = Some(PathBuf::from(value(&mut it)?)),
            "--page-size" => {
                flags.page_size = Some(value(&mut it)?.parse().context("--page-size")?)
            }
            "--cursor" => flags.cursor = Some(value(&mut it)?),
            "--max-tokens" => {
                flags.max_tokens = Some(value(&mut it)?.parse().context("--max-tokens")?)
            }
            _ => kept.push(arg),
        }
    }
    *range = kept;
    Ok(flags)
}

/// Opens the repository named by `--repo`, or the current one.
pub fn open_repo(repo: Option<&std::path::Path>) -> anyhow::Result<Repo> {
    let location = match repo {
        Some(path) => Location::at(path)?,
        None => Location::current()?,
    };
    Ok(Repo::open(&location)?)
}

/// Quotes an argument for a shell command line shown to the user.
pub fn shell_quote(arg: &std::ffi::OsStr) -> String {
    crate::shell::quote(arg)
}

pub fn run(mut args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let own = extract_own_flags(&mut args.range)?;
    args.pretty |= own.pretty;
    args.no_untracked |= own.no_untracked;
    args.no_functions |= own.no_functions;
    args.repo = args.repo.or(own.repo);
    args.page_size = args.page_size.or(own.page_size);
    args.cursor = args.cursor.or(own.cursor);
    args.max_tokens = args.max_tokens.or(own.max_tokens);
    let diff = parse_range(&args.range)?;
    let started = std::time::Instant::now();
    let repo = open_repo(args.repo.as_deref())?;
    let opened = started.elapsed();
    let options = manifest::Options {
        untracked: !args.no_untracked,
        functions: !args.no_functions,
    };
    let built = manifest::build(&repo, &diff, &options)?;
    if std::env::var_os("GIT_PRISM_TRACE").is_some() {
        let phases: Vec<String> = std::iter::once(("open", opened))
            .chain(built.timings.iter().copied())
            .map(|(name, d)| format!("{name} {:.2}ms", d.as_secs_f64() * 1e3))
            .collect();
        writeln!(out.stderr, "git-prism: trace: {}", phases.join(", "))?;
    }
    let paging = page::Paging {
        cursor: args.cursor.clone(),
        page_size: args.page_size,
        max_bytes: args.max_tokens.map(|t| t.saturating_mul(BYTES_PER_TOKEN)),
        pretty: args.pretty,
        raw: None,
    };
    let next = |cursor: &str| {
        let mut cmd = String::from("git-prism manifest");
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
        if args.no_untracked {
            cmd.push_str(" --no-untracked");
        }
        cmd.push_str(&format!(" --cursor {cursor}"));
        for a in &args.range {
            cmd.push(' ');
            cmd.push_str(&shell_quote(a));
        }
        cmd
    };
    let json = page::render(&built, &paging, &crate::time::now_rfc3339(), &next)
        .context("cannot page the manifest")?;
    writeln!(out.stdout, "{json}")?;
    Ok(exit_codes::SUCCESS)
}
