//! git-prism: structured git change data for AI coding agents.
//!
//! One binary, personalities chosen by the stem of `argv[0]`:
//! - `git`: the PATH shim ([`shim`]), which holds the call to the session's scope when one is
//!   set ([`guard`]), then answers an agent's `git diff`/`log`/`show`/`blame` with structured
//!   JSON or `exec`s the real git untouched;
//! - `gh`: the same for `gh pr diff`;
//! - the name of one of git's hooks (`pre-push`, ...): the session guard's hook wrapper
//!   ([`shim::hook`]), which git runs through the links the shim points `core.hooksPath` at;
//! - anything else: the `git-prism` command-line interface ([`cli`]), whose `serve` is the MCP
//!   server ([`serve`]).
//!
//! Library modules never print; the shim, the CLI and the server's stdio transport are the only
//! edges that touch the process's standard streams. `tests/it/layers.rs` holds the modules to
//! their layers (`docs/ARCHITECTURE.md`).

pub mod answer;
pub mod broker;
pub mod budget;
pub mod cli;
pub mod confine;
pub mod context;
pub mod deps;
pub mod exit_codes;
#[doc(hidden)]
pub mod fuzz;
pub mod git;
#[allow(
    unreachable_pub,
    reason = "`guard::placed` still says `pub` of items its private module keeps; the guard is \
              being refactored (issue 37), which narrows it"
)]
pub mod guard;
pub mod install;
pub mod json;
#[allow(
    unreachable_pub,
    reason = "items of private analyzer modules still say `pub`; the analyzers are being \
              rewritten as data (issue 37), which narrows them"
)]
pub mod lang;
pub mod locate;
pub mod manifest;
pub mod oid;
pub mod paging;
pub mod paths;
pub mod query;
pub mod request;
pub mod serve;
pub mod shell;
#[allow(
    unreachable_pub,
    reason = "`shim::reader` still says `pub` of a private item; the shim is being refactored \
              (issue 37), which narrows it"
)]
pub mod shim;
pub mod text;
pub mod time;
pub mod tokens;
pub mod unwind;
pub mod version;

use std::ffi::{OsStr, OsString};
use std::path::Path;

use locate::Program;

/// Which program the binary acts as, decided by the stem of `argv[0]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Personality {
    /// Invoked as `git` or `gh`: the shim in front of that program.
    Shim(Program),
    /// Invoked under any other name: the `git-prism` CLI.
    Cli,
}

impl Personality {
    /// Returns the personality for an `argv[0]` (absolute path, symlink, hardlink, copy, or
    /// `git.exe` all work: only the file stem counts).
    pub fn from_argv0(argv0: &OsStr) -> Personality {
        let path = Path::new(argv0);
        let name = match path.extension() {
            Some(ext) if ext.eq_ignore_ascii_case("exe") => path.file_stem(),
            _ => path.file_name(),
        };
        match name.map(OsStr::as_encoded_bytes) {
            Some(b"git") => Personality::Shim(Program::Git),
            Some(b"gh") => Personality::Shim(Program::Gh),
            _ => Personality::Cli,
        }
    }
}

/// Runs the binary with its full argument vector (including `argv[0]`) and returns the
/// process exit status.
pub fn run(mut args: Vec<OsString>) -> i32 {
    let argv0 = if args.is_empty() {
        OsString::from("git-prism")
    } else {
        args.remove(0)
    };
    match Personality::from_argv0(&argv0) {
        Personality::Shim(program) => shim::run(program, argv0, args),
        Personality::Cli => match shim::hook::is_hook(&argv0) {
            // Run by git as one of its hooks, through the session guard's wrapper.
            Some(name) => shim::hook::run(&name, &args),
            None => cli::run(argv0, args),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn personality_comes_from_the_file_stem() {
        let cases = [
            ("git", Personality::Shim(Program::Git)),
            ("/usr/local/bin/git", Personality::Shim(Program::Git)),
            ("./bin/git", Personality::Shim(Program::Git)),
            ("git.exe", Personality::Shim(Program::Git)),
            ("GIT.EXE", Personality::Cli),
            ("gh", Personality::Shim(Program::Gh)),
            ("/x/gh.exe", Personality::Shim(Program::Gh)),
            ("git-prism", Personality::Cli),
            ("/opt/git-prism", Personality::Cli),
            ("git2", Personality::Cli),
            ("gitk", Personality::Cli),
            ("", Personality::Cli),
        ];
        for (argv0, want) in cases {
            assert_eq!(Personality::from_argv0(OsStr::new(argv0)), want, "{argv0}");
        }
    }
}
