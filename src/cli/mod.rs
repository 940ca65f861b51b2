//! The `git-prism` command-line interface: clap definitions and dispatch, one file per
//! command, no logic of its own.
//!
//! This module is an edge: it owns stdout and stderr and maps results to exit codes. Every
//! command writes to the `Out` it is given, so tests and the other edges share the code path.

mod agent_detect;
mod context;
mod explain;
mod history;
mod languages;
mod manifest;
mod schema;
mod serve;
mod shim;
mod snapshot;

use std::ffi::OsString;
use std::io::{self, Write};

use clap::{Parser, Subcommand};

use crate::exit_codes;

/// Structured git change data for AI coding agents.
///
/// Installed on PATH as `git` and `gh` (see `git-prism shim install`), the same binary answers an
/// agent's `git diff`, `git log`, `git show`, `git blame` and `gh pr diff` with structured JSON and
/// passes every other call to the real program untouched.
#[derive(Debug, Parser)]
#[command(name = "git-prism", version, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Install, inspect or remove the git/gh PATH shim
    Shim(shim::Args),
    /// Print which AI agent the environment identifies, as JSON
    AgentDetect(agent_detect::Args),
    /// Print the change manifest of a range as JSON (files, line counts, dependencies)
    Manifest(manifest::Args),
    /// Print who calls each function a range changes, what it calls, its tests and blast radius
    Context(context::Args),
    /// Print the manifest and the function context of a range in one answer
    Review(context::Args),
    /// Print per-commit manifests of every commit in a range as JSON
    History(history::Args),
    /// Print file contents before and after a range as JSON
    Snapshot(snapshot::Args),
    /// Print the JSON Schema of the manifest
    Schema(schema::Args),
    /// Serve the same data as MCP tools over stdio (for agents that prefer tools)
    Serve(serve::Args),
    /// List the languages git-prism recognises and those with function analysis
    Languages(languages::Args),
    /// Print what the shim would decide for a git (or gh) command line here, and why
    Explain(explain::Args),
}

/// Output streams handed to commands.
pub struct Out<'a> {
    /// Standard output.
    pub stdout: &'a mut dyn Write,
    /// Standard error.
    pub stderr: &'a mut dyn Write,
}

/// Runs the CLI with `args` (without `argv[0]`) and returns the exit status. A panic is
/// reported in one line and exits with [`exit_codes::FAILURE`]; in `serve` it fails only the
/// tool call it happened in.
pub fn run(argv0: OsString, args: Vec<OsString>) -> i32 {
    crate::unwind::quiet_hook();
    match crate::unwind::catch(|| run_caught(argv0, args)) {
        Ok(code) => code,
        Err(panic) => {
            #[allow(clippy::print_stderr, reason = "the CLI's error edge")]
            {
                eprintln!("git-prism: internal error: {}", one_line(&panic));
            }
            exit_codes::FAILURE
        }
    }
}

/// Returns `text` on one line, at most 500 characters.
fn one_line(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(500)
        .collect();
    flat
}

fn run_caught(argv0: OsString, args: Vec<OsString>) -> i32 {
    let cli = match parse(argv0, args) {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return match err.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    exit_codes::SUCCESS
                }
                _ => exit_codes::USAGE,
            };
        }
    };
    // The server writes the protocol to stdout from its runtime's threads: it must not run
    // while this thread holds the stdout lock.
    let cli = match cli.command {
        Command::Serve(args) => {
            return match serve::run(args) {
                Ok(code) => code,
                Err(err) => {
                    #[allow(clippy::print_stderr, reason = "the CLI's error edge")]
                    {
                        eprintln!("git-prism: {err:#}");
                    }
                    exit_codes::FAILURE
                }
            };
        }
        command => Cli { command },
    };
    let stdout = io::stdout();
    let stderr = io::stderr();
    let mut stdout = stdout.lock();
    let mut stderr = stderr.lock();
    let mut out = Out {
        stdout: &mut stdout,
        stderr: &mut stderr,
    };
    let result = match cli.command {
        Command::Shim(args) => shim::run(args, &mut out),
        Command::AgentDetect(args) => agent_detect::run(args, &mut out),
        Command::Explain(args) => explain::run(args, &mut out),
        Command::Manifest(args) => manifest::run(args, &mut out),
        Command::Schema(args) => schema::run(args, &mut out),
        Command::Serve(_) => unreachable_serve(),
        Command::Context(args) => context::run(context::Mode::Context, args, &mut out),
        Command::Review(args) => context::run(context::Mode::Review, args, &mut out),
        Command::History(args) => history::run(args, &mut out),
        Command::Snapshot(args) => snapshot::run(args, &mut out),
        Command::Languages(args) => languages::run(args, &mut out),
    };
    let code = match result {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => exit_codes::SUCCESS,
        Err(err) => {
            let _ = writeln!(out.stderr, "git-prism: {err:#}");
            exit_codes::FAILURE
        }
    };
    match out.stdout.flush() {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            let _ = writeln!(out.stderr, "git-prism: cannot write output: {e}");
            exit_codes::FAILURE
        }
        _ => code,
    }
}

/// Stands in for `--` in the git-style arguments of `manifest` and `history` while clap parses
/// them (clap would swallow a leading `--`, which for git separates paths from revisions).
pub(crate) const SEPARATOR: &str = "--git-prism-paths";

/// Parses the command line (without running anything).
fn parse(argv0: OsString, mut args: Vec<OsString>) -> Result<Cli, clap::Error> {
    protect_separator(&mut args);
    Cli::try_parse_from(std::iter::once(argv0).chain(args))
}

fn protect_separator(args: &mut [OsString]) {
    if matches!(
        args.first().and_then(|a| a.to_str()),
        Some("manifest" | "history" | "context" | "review")
    ) {
        for arg in args.iter_mut().skip(1) {
            if arg == "--" {
                *arg = SEPARATOR.into();
            }
        }
    }
}

/// `serve` is dispatched before the output streams are locked.
fn unreachable_serve() -> anyhow::Result<i32> {
    anyhow::bail!("serve runs before the output streams are taken")
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn git_diff_arguments_reach_the_range() {
        let parse_line = |line: &str| {
            let args = line.split_whitespace().map(OsString::from).collect();
            match parse("git-prism".into(), args).map(|c| c.command) {
                Ok(Command::Manifest(mut m)) => {
                    let own =
                        manifest::extract_own_flags(&mut m.range).map_err(|e| e.to_string())?;
                    Ok((m.range, m.pretty || own.pretty, m.repo.or(own.repo)))
                }
                Ok(Command::History(mut h)) => {
                    let own =
                        manifest::extract_own_flags(&mut h.range).map_err(|e| e.to_string())?;
                    Ok((h.range, h.pretty || own.pretty, h.repo.or(own.repo)))
                }
                Ok(_) => Err("other command".to_owned()),
                Err(e) => Err(e.to_string()),
            }
        };
        let os = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(
            parse_line("manifest --cached").unwrap().0,
            os(&["--cached"])
        );
        assert_eq!(
            parse_line("manifest main..HEAD -- src").unwrap().0,
            os(&["main..HEAD", "--", "src"])
        );
        assert_eq!(parse_line("manifest -- src").unwrap().0, os(&["--", "src"]));
        assert_eq!(
            parse_line("history -- a.txt").unwrap().0,
            os(&["--", "a.txt"])
        );
        assert_eq!(
            parse_line("manifest -M50% main HEAD").unwrap().0,
            os(&["-M50%", "main", "HEAD"])
        );
        let (range, pretty, repo) = parse_line("manifest --pretty --repo /x main").unwrap();
        assert_eq!(
            (range, pretty, repo),
            (os(&["main"]), true, Some("/x".into()))
        );
        let (range, pretty, _) = parse_line("history -n 3 --pretty -- --pretty").unwrap();
        assert_eq!((range, pretty), (os(&["-n", "3", "--", "--pretty"]), true));
        assert_eq!(parse_line("manifest").unwrap().0, os(&[]));
    }
}
