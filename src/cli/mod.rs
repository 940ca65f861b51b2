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
#[allow(
    unreachable_pub,
    reason = "says `pub` of items only `cli` sees; being refactored (issue 37), which narrows them"
)]
mod hook;
mod languages;
mod manifest;
mod manual;
mod range;
mod schema;
mod serve;
#[allow(
    unreachable_pub,
    reason = "says `pub` of items only `cli` sees; being refactored (issue 37), which narrows them"
)]
mod session;
mod shim;
mod snapshot;
mod verify;

use std::ffi::OsString;
use std::io::{self, Write};

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::exit_codes;

/// Structured git change data for AI coding agents
///
/// Installed on PATH as `git` and `gh` (see `git-prism shim install`), the same binary answers an
/// agent's `git diff`, `git log`, `git show`, `git blame` and `gh pr diff` with structured JSON and
/// passes every other call to the real program untouched. The commands below give structured
/// change data by name (`manifest`, `context`, `review`, ...), serve it as MCP tools (`serve`),
/// and hold an agent to a scope (`session`).
///
/// `git-prism <COMMAND> -h` summarises a command, `--help` is its full reference with examples,
/// and `git-prism man` prints the manual (every environment variable and file).
#[derive(Debug, Parser)]
#[command(name = "git-prism", version = crate::version::VERSION, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Each command's doc comment: its first paragraph is its line in `git-prism -h` and the top of
// its own `-h` (at most 64 characters, so that `git-prism -h` fits 80 columns); the whole is
// the top of its `--help` and its manual page's DESCRIPTION.
#[derive(Debug, Subcommand)]
enum Command {
    /// Install, inspect or remove the git/gh PATH shim
    ///
    /// The shim is two links, `git` and `gh`, to this binary, in a directory first on PATH: an
    /// agent's reads get structured answers, everything else runs the real program.
    Shim(shim::Args),
    /// Print which AI agent the environment identifies, as JSON
    ///
    /// The shim answers only an agent it recognises by its environment; this prints the agent
    /// and the variable that named it (both null for none).
    AgentDetect(agent_detect::Args),
    /// Print the change manifest of a range as JSON
    ///
    /// The manifest lists every file the range changes, with its line counts, the functions and
    /// imports it changes, and dependency changes; `git-prism schema` describes it field by
    /// field.
    Manifest(manifest::Args),
    /// Print callers, callees, tests and risk of changed functions
    ///
    /// For each function a range changes: who calls it, what it calls, its tests and its blast
    /// radius, as JSON.
    Context(context::ContextArgs),
    /// Print the manifest and the function context in one answer
    ///
    /// One JSON answer for a range; each part pages on its own (`--manifest-cursor`,
    /// `--context-cursor`).
    Review(context::ReviewArgs),
    /// Print per-commit manifests of every commit in a range as JSON
    History(history::Args),
    /// Print file contents before and after a range as JSON
    Snapshot(snapshot::Args),
    /// Print the JSON Schema of the manifest
    Schema(schema::Args),
    /// Serve the same data as MCP tools over stdio
    ///
    /// For agents that prefer tools to git. Stdout belongs to the protocol; the server logs to
    /// stderr, and stops when the client closes stdin or the process that started it ends.
    Serve(serve::Args),
    /// List the languages git-prism recognises and analyses
    ///
    /// The language labels git-prism gives files, and those with function analysis
    /// (functions, methods, imports).
    Languages(languages::Args),
    /// Print what the shim would do with a git command line, and why
    ///
    /// As JSON: whether the shim would answer a git (or gh) command line here (`structured`,
    /// with the request it would answer) or pass it to the real program (`passthrough`, with
    /// the reason). What a session's guard would decide is `session
    /// check`'s.
    Explain(explain::Args),
    /// Start an agent held to a scope, check a scope, read the record
    #[command(long_about = session::LONG_ABOUT)]
    Session(session::Args),
    /// Ask git whether work is committed, pushed and merged
    ///
    /// With `--protected`, also that no change touches a protected path. Silent when every
    /// check holds; else one `git-prism verify:` line per failing check, with what to run, and
    /// the first failing check's exit status. Inside a session, `git-prism session verify` asks
    /// the same from what the session recorded.
    Verify(verify::Args),
    /// Run as an agent harness's hook (`stop`, `session-start`)
    ///
    /// The done-gate: `stop` blocks a turn's end until its work is done, `session-start` says
    /// where the work stands as a session starts. `git-prism shim install --hooks` adds both to
    /// the settings of Claude Code, Codex and Gemini CLI.
    Hook(hook::Args),
    /// Print shell completions (bash, zsh, fish, elvish, powershell)
    Completions(completions::CompletionArgs),
    /// Print the manual page, or write every page into a directory
    ///
    /// git-prism(1) is printed as roff; with a directory, one page per command is written
    /// there.
    Man(manual::Args),
}

/// The command line as git-prism parses it: the derive's definition with every command's
/// examples and exit statuses after its `--help` (the manual's table, [`manual`]), and
/// `git-prism -h` one screen (its `-h` and `-V` only in `--help`). Built.
pub(crate) fn command() -> clap::Command {
    finish(Cli::command())
}

/// Finishes `command`, the derive's definition (perhaps adjusted), as [`command`] does.
pub(crate) fn finish(command: clap::Command) -> clap::Command {
    let mut command = manual::with_help_tails(command);
    // Built, the subcommands know their full names for usage lines ("git-prism manifest").
    command.build();
    // clap adds `--help` and `--version` as it builds. `mut_args` keeps the arguments' order,
    // which the built lookup tables index.
    command.mut_args(|arg| match arg.get_id().as_str() {
        "help" => arg.hide_short_help(true),
        "version" => arg.hide_short_help(true).long_help("Print version"),
        _ => arg,
    })
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
    if parse_only() {
        return match cli.command.parse_range() {
            Ok(()) => exit_codes::SUCCESS,
            Err(err) => {
                #[allow(clippy::print_stderr, reason = "the CLI's error edge")]
                {
                    eprintln!("git-prism: {err:#}");
                }
                exit_codes::FAILURE
            }
        };
    }
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
        Command::Context(args) => context::run_context(args, &mut out),
        Command::Review(args) => context::run_review(args, &mut out),
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
    let mut command = command();
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
    /// Parses the git-style range of a command that takes one with the shim's grammar, as
    /// running the command does first (clap takes any word into the range).
    fn parse_range(&self) -> anyhow::Result<()> {
        match self {
            Command::Manifest(a) => a.range.diff().map(drop),
            Command::Context(a) => a.range.diff().map(drop),
            Command::Review(a) => a.range.diff().map(drop),
            Command::History(a) => a.range.log().map(drop),
            Command::Snapshot(a) => range::parse_diff(&a.range).map(drop),
            _ => Ok(()),
        }
    }

    /// The git-style range arguments of a range command.
    fn git_args(&mut self) -> Option<&mut Vec<OsString>> {
        match self {
            Command::Manifest(a) => Some(&mut a.range.git_args),
            Command::History(a) => Some(&mut a.range.git_args),
            Command::Context(a) => Some(&mut a.range.git_args),
            Command::Review(a) => Some(&mut a.range.git_args),
            _ => None,
        }
    }
}

/// Test switch (debug builds only, `GIT_PRISM_TEST_PARSE_ONLY`): the command line is parsed,
/// its range too, and nothing runs, so a test can hold every example in the help to the
/// parser.
fn parse_only() -> bool {
    #[cfg(debug_assertions)]
    {
        std::env::var_os("GIT_PRISM_TEST_PARSE_ONLY").is_some()
    }
    #[cfg(not(debug_assertions))]
    {
        false
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
        manual::with_help_tails(Cli::command()).debug_assert();
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
    fn review_options_after_the_range_keep_their_order() {
        let args = "review --function-names a HEAD --function-names b,c --context-cursor x"
            .split_whitespace()
            .map(OsString::from)
            .collect();
        let Ok(Command::Review(r)) = parse("git-prism".into(), args).map(|c| c.command) else {
            panic!("not a review command");
        };
        assert_eq!(r.functions.function_names, ["a", "b", "c"]);
        assert_eq!(r.context_cursor.as_deref(), Some("x"));
        assert_eq!(r.range.git_args, os(&["HEAD"]));
    }

    /// What a command line parses to, or clap's error.
    fn parsed(line: &str) -> Result<Command, String> {
        let args = line.split_whitespace().map(OsString::from).collect();
        parse("git-prism".into(), args)
            .map(|c| c.command)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn context_and_review_take_only_their_own_cursors() {
        // `context` pages one answer; `review` two parts, each with its cursor.
        assert!(matches!(
            parsed("context --cursor x HEAD"),
            Ok(Command::Context(_))
        ));
        // `review`'s cursors are no option of `context`: they stay in the range, which git's
        // grammar refuses (before, `context` took them and ignored them).
        for line in [
            "context --manifest-cursor x HEAD",
            "context --context-cursor x HEAD",
        ] {
            let Ok(Command::Context(c)) = parsed(line) else {
                panic!("{line} is not a context command");
            };
            assert_eq!(c.range.git_args.len(), 3, "{line}");
            assert!(c.range.diff().is_err(), "{line}");
        }
        // `review --cursor` parses, hidden, so that `review` can say which cursors it takes.
        let Ok(Command::Review(r)) = parsed("review --cursor x HEAD") else {
            panic!("review --cursor does not parse");
        };
        assert_eq!(r.range.cursor.as_deref(), Some("x"));
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
