//! `git-prism context` and `git-prism review`: the function context of a range (callers,
//! callees, tests, blast radius), alone or with the manifest in one answer.

use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::Context as _;

use super::Out;
use super::manifest::{BYTES_PER_TOKEN, extract_own_flags, open_repo, parse_range, shell_quote};
use crate::context::{self, render};
use crate::exit_codes;
use crate::manifest::{self, page};

/// Arguments of `context` and `review`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Repository to inspect (default: the one containing the current directory)
    #[arg(long, value_name = "PATH")]
    pub repo: Option<PathBuf>,
    /// Pretty-print the JSON for people
    #[arg(long)]
    pub pretty: bool,
    /// Only these functions (qualified or bare names, comma-separated or repeated); a name the
    /// range did not change is looked up on the head side
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub function_names: Vec<String>,
    /// Functions per page (and, for `review`, files per manifest page)
    #[arg(long, value_name = "N")]
    pub page_size: Option<usize>,
    /// Continue from a previous page's `next_cursor` (`context`)
    #[arg(long, value_name = "CURSOR")]
    pub cursor: Option<String>,
    /// Continue the manifest part from its `next_cursor` (`review`)
    #[arg(long, value_name = "CURSOR")]
    pub manifest_cursor: Option<String>,
    /// Continue the context part from its `next_cursor` (`review`)
    #[arg(long, value_name = "CURSOR")]
    pub context_cursor: Option<String>,
    /// Keep the output under about this many tokens, cutting detail in a stated order
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<usize>,
    /// Leave untracked files out of working-tree ranges
    #[arg(long)]
    pub no_untracked: bool,
    /// The range, as for `git diff` (see `git-prism manifest --help`)
    #[arg(
        allow_hyphen_values = true,
        trailing_var_arg = true,
        value_name = "RANGE"
    )]
    pub range: Vec<OsString>,
}

/// Moves `--function-names`, `--manifest-cursor` and `--context-cursor` out of the range
/// arguments (before `--`), so they work after the range too.
fn extract_context_flags(args: &mut Args) -> anyhow::Result<()> {
    let mut kept = Vec::with_capacity(args.range.len());
    let mut it = std::mem::take(&mut args.range).into_iter();
    while let Some(arg) = it.next() {
        let text = arg.to_string_lossy().into_owned();
        if text == "--" || text == super::SEPARATOR {
            kept.push(arg);
            kept.extend(it.by_ref());
            break;
        }
        let (name, inline) = match text.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_owned(), Some(v.to_owned())),
            _ => (text.clone(), None),
        };
        if !matches!(
            name.as_str(),
            "--function-names" | "--manifest-cursor" | "--context-cursor"
        ) {
            kept.push(arg);
            continue;
        }
        let value = match inline {
            Some(v) => v,
            None => it
                .next()
                .map(|v| v.to_string_lossy().into_owned())
                .with_context(|| format!("{name} needs a value"))?,
        };
        match name.as_str() {
            "--function-names" => args
                .function_names
                .extend(value.split(',').map(str::to_owned)),
            "--manifest-cursor" => args.manifest_cursor = Some(value),
            _ => args.context_cursor = Some(value),
        }
    }
    args.range = kept;
    args.function_names.retain(|n| !n.trim().is_empty());
    Ok(())
}

/// Which answer to give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The context alone.
    Context,
    /// The manifest and the context.
    Review,
}

pub fn run(mode: Mode, mut args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    extract_context_flags(&mut args)?;
    let own = extract_own_flags(&mut args.range)?;
    args.pretty |= own.pretty;
    args.no_untracked |= own.no_untracked;
    args.repo = args.repo.or(own.repo);
    args.page_size = args.page_size.or(own.page_size);
    args.cursor = args.cursor.or(own.cursor);
    args.max_tokens = args.max_tokens.or(own.max_tokens);
    if mode == Mode::Review && args.cursor.is_some() {
        anyhow::bail!("review takes --manifest-cursor and --context-cursor, one per part");
    }
    let diff = parse_range(&args.range)?;
    let repo = open_repo(args.repo.as_deref())?;
    let options = manifest::Options {
        untracked: !args.no_untracked,
        functions: true,
    };
    let started = std::time::Instant::now();
    let built = manifest::build(&repo, &diff, &options)?;
    let manifest_time = started.elapsed();
    let ctx = context::build(&repo, &built, &args.function_names)?;
    if std::env::var_os("GIT_PRISM_TRACE").is_some() {
        let phases: Vec<String> = std::iter::once(("manifest", manifest_time))
            .chain(ctx.timings.iter().copied())
            .map(|(name, d)| format!("{name} {:.2}ms", d.as_secs_f64() * 1e3))
            .collect();
        writeln!(out.stderr, "git-prism: trace: {}", phases.join(", "))?;
    }
    let command = |cursor_flag: &str, cursor: &str| {
        let mut cmd = match mode {
            Mode::Context => String::from("git-prism context"),
            Mode::Review => String::from("git-prism review"),
        };
        if let Some(repo) = &args.repo {
            cmd.push_str(&format!(" --repo {}", shell_quote(repo.as_os_str())));
        }
        if !args.function_names.is_empty() {
            let names = args.function_names.join(",");
            cmd.push_str(&format!(
                " --function-names {}",
                shell_quote(names.as_ref())
            ));
        }
        if let Some(n) = args.page_size {
            cmd.push_str(&format!(" --page-size {n}"));
        }
        if let Some(n) = args.max_tokens {
            cmd.push_str(&format!(" --max-tokens {n}"));
        }
        if args.no_untracked {
            cmd.push_str(" --no-untracked");
        }
        if mode == Mode::Review {
            // The other part stays where it was.
            let (other_flag, other) = if cursor_flag == "--manifest-cursor" {
                ("--context-cursor", &args.context_cursor)
            } else {
                ("--manifest-cursor", &args.manifest_cursor)
            };
            if let Some(o) = other {
                cmd.push_str(&format!(" {other_flag} {o}"));
            }
        }
        cmd.push_str(&format!(" {cursor_flag} {cursor}"));
        for a in &args.range {
            cmd.push(' ');
            cmd.push_str(&shell_quote(a));
        }
        cmd
    };
    let max_bytes = args.max_tokens.map(|t| t.saturating_mul(BYTES_PER_TOKEN));
    let now = crate::time::now_rfc3339();
    let json = match mode {
        Mode::Context => {
            let paging = page::Paging {
                cursor: args.cursor.clone(),
                page_size: args.page_size,
                max_bytes,
                pretty: args.pretty,
                raw: None,
            };
            render::render(&built, &ctx, &args.function_names, &paging, &now, &|c| {
                command("--cursor", c)
            })
        }
        Mode::Review => {
            let part = |cursor: &Option<String>| page::Paging {
                cursor: cursor.clone(),
                page_size: args.page_size,
                ..page::Paging::default()
            };
            let paging = render::ReviewPaging {
                manifest: part(&args.manifest_cursor),
                context: part(&args.context_cursor),
                max_bytes,
                pretty: args.pretty,
            };
            render::render_review(
                &built,
                &ctx,
                &args.function_names,
                &paging,
                &now,
                &|c| command("--manifest-cursor", c),
                &|c| command("--context-cursor", c),
            )
        }
    }
    .context("cannot page the answer")?;
    writeln!(out.stdout, "{json}")?;
    Ok(exit_codes::SUCCESS)
}
