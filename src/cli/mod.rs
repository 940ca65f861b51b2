//! The `git-prism` command-line interface: clap definitions and dispatch, one file per
//! command, no logic of its own.
//!
//! This module is an edge: it owns stdout and stderr and maps results to exit codes. Every
//! command writes to the `Out` it is given, so tests and the other edges share the code path.

mod agent_detect;
mod explain;
mod shim;

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

/// Runs the CLI with `args` (without `argv[0]`) and returns the exit status.
pub fn run(argv0: OsString, args: Vec<OsString>) -> i32 {
    let cli = match Cli::try_parse_from(std::iter::once(argv0).chain(args)) {
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
}
