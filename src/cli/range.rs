//! The arguments every range command shares, and what they share in using them: opening the
//! repository, the page budget, the trace line, and the command line of the next page.
//!
//! [`RepoArgs`] (`--repo`, `--pretty`) is flattened into every command that reads a repository;
//! [`RangeArgs`] adds paging and git's own range arguments for `manifest`, `history`, `context`
//! and `review`. The range is parsed with the shim's grammar ([`crate::request`]), so it means
//! what it means to git. git-prism's own options may also follow the range (`history -n 3
//! --pretty`): [`hoist_own_options`] moves them in front of it before clap parses, using clap's
//! own definitions of the command, so there is one parser of them.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use super::Out;
use crate::budget::Budget;
use crate::git::{Location, Repo};
use crate::paging::Paging;
use crate::request;

/// Stands in for `--` in the git-style arguments of the range commands while clap parses them
/// (clap would swallow a leading `--`, which for git separates paths from revisions).
pub(crate) const SEPARATOR: &str = "--git-prism-paths";

/// The commands whose last argument is a git-style range that may contain `--` and that take
/// their own options after it.
pub(crate) const RANGE_COMMANDS: &[&str] = &["manifest", "history", "context", "review"];

/// Where the repository is and how the JSON is printed.
#[derive(Debug, clap::Args)]
pub(crate) struct RepoArgs {
    /// Repository to inspect
    ///
    /// Default: the one containing the current directory.
    #[arg(long, value_name = "PATH")]
    pub repo: Option<PathBuf>,
    /// Pretty-print the JSON for people
    #[arg(long)]
    pub pretty: bool,
}

impl RepoArgs {
    /// Opens the repository named by `--repo`, or the current one.
    pub(crate) fn open(&self) -> anyhow::Result<Repo> {
        let location = match &self.repo {
            Some(path) => Location::at(path)?,
            None => Location::current()?,
        };
        Ok(Repo::open(&location)?)
    }
}

/// A range and how to page the answer about it.
#[derive(Debug, clap::Args)]
pub(crate) struct RangeArgs {
    #[command(flatten)]
    pub repo: RepoArgs,
    /// Entries per page
    ///
    /// A `next_cursor` is given when more remain.
    #[arg(long, value_name = "N")]
    pub page_size: Option<usize>,
    /// Continue from a previous page's `next_cursor`
    #[arg(long, value_name = "CURSOR")]
    pub cursor: Option<String>,
    /// Keep each page under about N tokens
    ///
    /// Detail is cut in a stated order. Default: the shim's page, 20,000 bytes or
    /// `GIT_PRISM_MAX_OUTPUT`.
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<usize>,
    /// Print everything in one answer, however large
    ///
    /// git's own `--all` is `--glob='*' HEAD`.
    #[arg(long, conflicts_with = "max_tokens")]
    pub all: bool,
    /// The range, as for git
    #[arg(
        allow_hyphen_values = true,
        trailing_var_arg = true,
        value_name = "RANGE"
    )]
    pub git_args: Vec<OsString>,
}

impl RangeArgs {
    /// Parses the range as `git diff` would.
    pub(crate) fn diff(&self) -> anyhow::Result<request::Diff> {
        parse_diff(&self.git_args)
    }

    /// Parses the range as `git log` would (a line range's history, `-L`, is the shim's answer
    /// to `git log -L`, not a history of manifests).
    pub(crate) fn log(&self) -> anyhow::Result<request::Log> {
        let log = request::parse_log(&self.git_args).map_err(unsupported)?;
        if let Some(range) = log.line_ranges.first() {
            anyhow::bail!(
                "unsupported range arguments: `-L {}`: run `git log -L` as an agent for a line range's history",
                range.spec.to_string_lossy()
            );
        }
        Ok(log)
    }

    /// The budget of a page: `--max-tokens`, none with `--all`, else the shim's own (issue 36:
    /// without a default, `review` of one tokio range printed 1.1 MB).
    pub(crate) fn budget(&self) -> Option<Budget> {
        if self.all {
            return None;
        }
        Some(
            self.max_tokens
                .map_or_else(crate::answer::budget_from_env, Budget::tokens),
        )
    }

    /// The paging of the answer: `--cursor`, `--page-size`, the budget, `--pretty`.
    pub(crate) fn paging(&self) -> Paging {
        Paging {
            cursor: self.cursor.clone(),
            page_size: self.page_size,
            budget: self.budget(),
            pretty: self.repo.pretty,
        }
    }

    /// The range as one shell-quoted string.
    pub(crate) fn quoted(&self) -> String {
        crate::shell::join(self.git_args.iter().map(OsString::as_os_str))
    }

    /// Starts the command line of a next page: `git-prism <command> [--repo <path>]`.
    pub(crate) fn next_page(&self, command: &str) -> NextPage<'_> {
        let mut line = format!("git-prism {command}");
        if let Some(repo) = &self.repo.repo {
            line.push_str(" --repo ");
            line.push_str(&crate::shell::quote(repo.as_os_str()));
        }
        NextPage { args: self, line }
    }
}

/// The command line that fetches the next page: the same command, options and range, and the
/// cursor.
pub(crate) struct NextPage<'a> {
    args: &'a RangeArgs,
    line: String,
}

impl NextPage<'_> {
    /// Adds an option with its value, shell-quoted.
    pub(crate) fn option(mut self, name: &str, value: Option<&OsStr>) -> Self {
        if let Some(value) = value {
            self.line.push(' ');
            self.line.push_str(name);
            self.line.push(' ');
            self.line.push_str(&crate::shell::quote(value));
        }
        self
    }

    /// Adds a flag when it is set.
    pub(crate) fn flag(mut self, name: &str, set: bool) -> Self {
        if set {
            self.line.push(' ');
            self.line.push_str(name);
        }
        self
    }

    /// Adds `--page-size` and `--max-tokens` as given.
    pub(crate) fn paging(self) -> Self {
        let (size, tokens) = (self.args.page_size, self.args.max_tokens);
        self.option(
            "--page-size",
            size.map(|n| n.to_string()).as_deref().map(OsStr::new),
        )
        .option(
            "--max-tokens",
            tokens.map(|n| n.to_string()).as_deref().map(OsStr::new),
        )
    }

    /// Ends the line with the cursor option and the range.
    pub(crate) fn cursor(self, name: &str, cursor: &str) -> String {
        let mut line = self.line;
        line.push_str(&format!(" {name} {cursor}"));
        for arg in &self.args.git_args {
            line.push(' ');
            line.push_str(&crate::shell::quote(arg));
        }
        line
    }
}

/// Parses `git diff`-style range arguments with the shim's grammar.
pub(crate) fn parse_diff(git_args: &[OsString]) -> anyhow::Result<request::Diff> {
    request::parse_diff(git_args).map_err(unsupported)
}

fn unsupported(reason: request::Reason) -> anyhow::Error {
    anyhow::anyhow!("unsupported range arguments: {reason}")
}

/// Writes the phases of a run to stderr when `GIT_PRISM_TRACE` is set.
pub(crate) fn trace<'a>(
    out: &mut Out<'_>,
    phases: impl IntoIterator<Item = &'a (&'static str, std::time::Duration)>,
) -> std::io::Result<()> {
    if std::env::var_os("GIT_PRISM_TRACE").is_none() {
        return Ok(());
    }
    let phases: Vec<String> = phases
        .into_iter()
        .map(|(name, d)| format!("{name} {:.2}ms", d.as_secs_f64() * 1e3))
        .collect();
    writeln!(out.stderr, "git-prism: trace: {}", phases.join(", "))
}

/// Moves the command's own long options that follow the start of its range (before `--`) in
/// front of the range, where clap parses them, and protects every `--` after the subcommand
/// from clap (see [`SEPARATOR`]). `command` is the subcommand's clap definition; which options
/// are its own, and which take a value, is read from it.
///
/// `git-prism history -n 3 --pretty` becomes `history --pretty -n 3`; a git option's value is
/// never taken for an option (`-- --pretty` stays a path).
pub(crate) fn hoist_own_options(
    command: &clap::Command,
    args: &mut Vec<OsString>,
) -> Result<(), clap::Error> {
    // The option named by a token (`--name` or `--name=value`), and whether it needs the next
    // token as its value.
    let own = |arg: &OsStr| -> Option<bool> {
        let bytes = arg.as_encoded_bytes();
        let name = bytes.strip_prefix(b"--")?;
        let (name, inline) = match name.iter().position(|b| *b == b'=') {
            Some(eq) => (&name[..eq], true),
            None => (name, false),
        };
        let opt = command
            .get_arguments()
            .find(|a| a.get_long().is_some_and(|l| l.as_bytes() == name))?;
        // `--help` after the range stays in it, where git's grammar refuses it, as before.
        if matches!(
            opt.get_action(),
            clap::ArgAction::Help | clap::ArgAction::HelpShort | clap::ArgAction::HelpLong
        ) {
            return None;
        }
        Some(opt.get_action().takes_values() && !inline)
    };
    let Some(tail) = args.get(1..) else {
        return Ok(());
    };
    // Clap parses the options before the range; the range starts at the first other token.
    let mut start = 0;
    while let Some(arg) = tail.get(start) {
        match own(arg) {
            Some(takes_value) if arg != "--" => start += 1 + usize::from(takes_value),
            _ => break,
        }
    }
    let mut hoisted = Vec::new();
    let mut range = Vec::new();
    let mut rest = tail.iter().skip(start).cloned();
    while let Some(arg) = rest.next() {
        if arg == "--" {
            range.push(arg);
            range.extend(rest.by_ref());
            break;
        }
        match own(&arg) {
            Some(takes_value) => {
                let name = arg.to_string_lossy().into_owned();
                hoisted.push(arg);
                if takes_value {
                    match rest.next() {
                        Some(value) if value != "--" => hoisted.push(value),
                        _ => {
                            return Err(command.clone().error(
                                clap::error::ErrorKind::InvalidValue,
                                format!("{name} needs a value"),
                            ));
                        }
                    }
                }
            }
            None => range.push(arg),
        }
    }
    for arg in &mut range {
        if arg == "--" {
            *arg = SEPARATOR.into();
        }
    }
    let start = 1 + start.min(tail.len());
    args.truncate(start);
    args.extend(hoisted);
    args.extend(range);
    Ok(())
}

/// Turns the stand-ins for `--` back, after clap has parsed.
pub(crate) fn restore_separator(git_args: &mut [OsString]) {
    for arg in git_args {
        if arg == SEPARATOR {
            *arg = "--".into();
        }
    }
}
