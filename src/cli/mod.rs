//! The `git-prism` command-line interface: clap definitions and dispatch, one file per
//! command. A command turns its arguments into a query or a library call and writes what comes
//! back; what it answers is decided below (`query`, `install`, `guard`), never here.
//!
//! This module is an edge: it owns stdout and stderr and maps results to exit codes
//! ([`crate::exit_codes`]; a broken pipe is a clean exit, a panic one line and a failure).
//! Every command but `serve` writes to the [`Out`] it is given; `serve` leaves stdout to the
//! protocol and logs to stderr.

mod agent_detect;
mod completions;
mod context;
mod explain;
mod history;
mod hook;
mod languages;
mod manifest;
mod manual;
mod range;
mod schema;
mod serve;
mod session;
mod shim;
mod snapshot;
mod verify;

use std::ffi::OsString;
use std::io::{self, Write};

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::exit_codes;

/// Structured git change data for AI coding agents.
///
/// Installed on PATH as `git` and `gh` (see `git-prism shim install`), the same binary answers an
/// agent's `git diff`, `git log`, `git show`, `git blame` and `gh pr diff` with structured JSON and
/// passes every other call to the real program untouched.
#[derive(Debug, Parser)]
#[command(name = "git-prism", version = crate::version::VERSION, max_term_width = 100)]
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
    /// Start an agent held to a scope of repositories and permissions; check it; read its record
    Session(session::Args),
    /// Ask git whether work said to be done is committed, pushed and merged (silent when it is)
    #[command(
        after_help = "Exit status: 0 every check holds (nothing is printed); 10 committed, 11 commit, 12 pushed, 13 merged, 14 hooks, 15 protected (the first failing check's; one line each, with what to run); 1 the checks could not be asked (a bad revision, no repository); 2 usage."
    )]
    Verify(verify::Args),
    /// Run as an agent harness's hook: block a turn's end until its work is done (`stop`), say
    /// where the work stands as a session starts (`session-start`)
    Hook(hook::Args),
    /// Print shell completions (bash, zsh, fish, elvish, powershell)
    Completions(completions::CompletionArgs),
    /// Print the manual page (roff), or write one page per command into a directory
    Man(manual::Args),
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
                eprintln!(
                    "git-prism {}: internal error: {}",
                    crate::version::VERSION,
                    one_line(&panic)
                );
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
                        eprintln!("git-prism: {}", crate::text::chain(err.as_ref()));
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
        Command::Session(args) => session::run(args, &mut out),
        Command::Verify(args) => verify::run(args, &mut out),
        Command::Hook(args) => hook::run(args, &mut out),
        Command::Completions(args) => completions::completions(args, &mut out),
        Command::Man(args) => manual::run(args, &mut out),
    };
    let code = match result {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => exit_codes::SUCCESS,
        Err(err) => {
            let _ = writeln!(
                out.stderr,
                "git-prism: {}",
                crate::text::chain(err.as_ref())
            );
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

/// Parses the command line (without running anything).
fn parse(argv0: OsString, mut args: Vec<OsString>) -> Result<Cli, clap::Error> {
    let mut command = Cli::command();
    // Built, the subcommands know their full names for usage lines ("git-prism manifest").
    command.build();
    let range_command = args
        .first()
        .and_then(|a| a.to_str())
        .filter(|name| range::RANGE_COMMANDS.contains(name))
        .and_then(|name| command.find_subcommand(name));
    if let Some(sub) = range_command {
        range::hoist_own_options(sub, &mut args)?;
    }
    let matches = command.try_get_matches_from_mut(std::iter::once(argv0).chain(args))?;
    let mut cli = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut command))?;
    if let Some(git_args) = cli.command.git_args() {
        range::restore_separator(git_args);
    }
    Ok(cli)
}

impl Command {
    /// The git-style range arguments of a range command.
    fn git_args(&mut self) -> Option<&mut Vec<OsString>> {
        match self {
            Command::Manifest(a) => Some(&mut a.range.git_args),
            Command::History(a) => Some(&mut a.range.git_args),
            Command::Context(a) | Command::Review(a) => Some(&mut a.range.git_args),
            _ => None,
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
    use std::path::PathBuf;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    /// `(range, pretty, repo)` of a `manifest` or `history` command line.
    fn range_of(line: &str) -> Result<(Vec<OsString>, bool, Option<PathBuf>), String> {
        let args = line.split_whitespace().map(OsString::from).collect();
        match parse("git-prism".into(), args).map(|c| c.command) {
            Ok(Command::Manifest(m)) => Ok(m.range),
            Ok(Command::History(h)) => Ok(h.range),
            Ok(_) => Err("other command".to_owned()),
            Err(e) => Err(e.to_string()),
        }
        .map(|r| (r.git_args, r.repo.pretty, r.repo.repo))
    }

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn git_diff_arguments_reach_the_range() {
        assert_eq!(range_of("manifest --cached").unwrap().0, os(&["--cached"]));
        assert_eq!(
            range_of("manifest main..HEAD -- src").unwrap().0,
            os(&["main..HEAD", "--", "src"])
        );
        assert_eq!(range_of("manifest -- src").unwrap().0, os(&["--", "src"]));
        assert_eq!(
            range_of("history -- a.txt").unwrap().0,
            os(&["--", "a.txt"])
        );
        assert_eq!(
            range_of("manifest -M50% main HEAD").unwrap().0,
            os(&["-M50%", "main", "HEAD"])
        );
        assert_eq!(range_of("manifest").unwrap().0, os(&[]));
    }

    #[test]
    fn own_options_work_before_and_after_the_range() {
        let (range, pretty, repo) = range_of("manifest --pretty --repo /x main").unwrap();
        assert_eq!(
            (range, pretty, repo),
            (os(&["main"]), true, Some("/x".into()))
        );
        let (range, pretty, repo) = range_of("manifest main --repo=/x --pretty").unwrap();
        assert_eq!(
            (range, pretty, repo),
            (os(&["main"]), true, Some("/x".into()))
        );
        // After `--` everything is a path, even a name that is also an option.
        let (range, pretty, _) = range_of("history -n 3 --pretty -- --pretty").unwrap();
        assert_eq!((range, pretty), (os(&["-n", "3", "--", "--pretty"]), true));
        // `--help` is clap's, not an own option: after the range it stays git's to refuse.
        assert_eq!(
            range_of("manifest HEAD --help").unwrap().0,
            os(&["HEAD", "--help"])
        );
        let err = range_of("history main --repo").unwrap_err();
        assert!(err.contains("--repo needs a value"), "{err}");
        let err = range_of("manifest --pretty main --pretty").unwrap_err();
        assert!(err.contains("cannot be used multiple times"), "{err}");
    }

    #[test]
    fn context_options_after_the_range_keep_their_order() {
        let args = "context --function-names a HEAD --function-names b,c --context-cursor x"
            .split_whitespace()
            .map(OsString::from)
            .collect();
        let Ok(Command::Context(c)) = parse("git-prism".into(), args).map(|c| c.command) else {
            panic!("not a context command");
        };
        assert_eq!(c.function_names, ["a", "b", "c"]);
        assert_eq!(c.context_cursor.as_deref(), Some("x"));
        assert_eq!(c.range.git_args, os(&["HEAD"]));
    }

    #[test]
    fn range_arguments_keep_non_utf8_bytes() {
        use std::os::unix::ffi::OsStringExt;
        let repo = OsString::from_vec(b"/r\xff".to_vec());
        let path = OsString::from_vec(b"a\xff.rs".to_vec());
        let args = vec![
            "manifest".into(),
            "HEAD".into(),
            "--repo".into(),
            repo.clone(),
            "--".into(),
            path.clone(),
        ];
        let Ok(Command::Manifest(m)) = parse("git-prism".into(), args).map(|c| c.command) else {
            panic!("not a manifest command");
        };
        assert_eq!(m.range.repo.repo, Some(PathBuf::from(repo)));
        assert_eq!(m.range.git_args, vec!["HEAD".into(), "--".into(), path]);
    }
}
