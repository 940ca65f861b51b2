//! `git-prism session`: start an agent held to a scope (ADR 15, its record written first:
//! ADR 16), say what the scope allows here (`check`), ask git whether the session's work is
//! done (`verify`, ADR 17), and show the guard's record (`log`).
//!
//! One file per action: `start` (the session's setup and record) with `agent` (the agent in
//! its sandbox, served by the broker), `check`, `verify` and `records`; this file holds the
//! arguments, the listing, and how a session and its scope are found.

mod agent;
mod check;
mod records;
mod start;
mod verify;

use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use super::Out;
use crate::exit_codes;
use crate::guard::{log, scope, session};

/// The top of `session --help` and of its manual page: what a session is, that it needs the
/// shim, and the scope file's keys as [`scope`] reads them.
pub(super) const LONG_ABOUT: &str = "\
Start an agent held to a scope, check a scope, read the record

`git-prism session --scope FILE -- COMMAND` starts the agent's command in a sandbox derived \
from the scope, with every git and gh call it makes judged by the session's guard, and ends as \
the agent ended. The subcommands list the sessions, say what a scope allows here, ask git \
whether a session's work is done and print the guard's record.

The shim must be installed (`git-prism shim install`): the session puts git-prism's git first \
on the agent's PATH, where the guard sees every call, and does not start without it.

The scope file is TOML; only a repository's `path` and `permission` are required, and an \
unknown key or permission is an error:

  protected_paths = [\"migrations/\"] # paths no commit may change
  unlisted = \"hidden\"               # \"read\": unlisted repos readable
  writable = [\"~/.cache/pip\"]       # more places the agent may write
  hidden = [\"~/work/secret\"]        # more places it may not read
  ports = [443, 80]                 # its TCP ports (\"any\": every one)

  [[repo]]
  path = \"/home/me/src/app\"         # a repository's top (or bare)
  permission = \"write-push\"         # read | write-local | write-push
  protected = [\"main\", \"master\"]    # never pushed to (the default)
  protected_paths = [\".github/\"]    # replaces the list above here

`read`: nothing in the repository changes through git; `write-local`: everything on this \
machine, nothing leaves it; `write-push`: pushes too, never to a protected branch. A repository \
the scope does not list is `read`, and hidden from the agent unless `unlisted = \"read\"`. The \
guard refuses a commit that changes a protected path, and `session verify` fails (exit status \
15) if one changed anyway.";

/// Arguments of `session`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    /// The scope file (TOML: repositories and what they allow)
    ///
    /// Its keys are described above.
    #[arg(long, value_name = "FILE")]
    scope: Option<PathBuf>,
    /// The agent's command line (after `--`)
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<OsString>,
    /// Start even where the kernel cannot hold the whole sandbox
    ///
    /// Without user namespaces, Landlock or TCP rules; the session says what does not hold.
    #[arg(long)]
    weaker: bool,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// List the sessions started on this machine
    ///
    /// Oldest first: id, start, whether it still runs, the agent's command and the scope.
    List {
        /// Print each session as a JSON line
        #[arg(long)]
        json: bool,
    },
    /// Say what the session's scope allows in the repository here
    ///
    /// Says what the scope (`--scope`, else the session's) allows in the repository of the
    /// current directory.
    Check {
        /// The scope file [default: $GIT_PRISM_SCOPE]
        #[arg(long, value_name = "FILE")]
        scope: Option<PathBuf>,
    },
    /// Ask git whether the session's work is committed, pushed and merged
    ///
    /// The checks of `git-prism verify`, against what the session recorded as it started
    /// (each repository's HEAD, its protected paths) and what its record says of skipped
    /// hooks. Silent when every check holds.
    Verify {
        /// The session to verify [default: this one]
        ///
        /// By its id or a unique start of it (`session list`), also after it ended.
        #[arg(long, value_name = "ID")]
        session: Option<String>,
        #[command(flatten)]
        checks: super::verify::Checks,
        /// The repositories to verify [default: every one the scope lets the session write]
        #[arg(value_name = "REPO")]
        repos: Vec<PathBuf>,
    },
    /// Print the guard's record of refusals, pushes and writes
    ///
    /// Every refusal, every push it let through, and what each commit, merge, rebase, reset
    /// and push did.
    Log {
        /// Only this session's records (by id or a unique start of it)
        #[arg(long, value_name = "ID")]
        session: Option<String>,
        /// Print the records as JSON lines
        #[arg(long)]
        json: bool,
        /// Only the last N records
        #[arg(long, value_name = "N")]
        last: Option<usize>,
    },
}

pub fn run(args: Args, out: &mut Out<'_>) -> Result<i32> {
    match args.action {
        Some(Action::Check { scope }) => check::check(scope, out),
        Some(Action::Log {
            session,
            json,
            last,
        }) => records::show_log(session.as_deref(), json, last, out),
        Some(Action::Verify {
            session,
            checks,
            repos,
        }) => verify::verify(session.as_deref(), &checks, &repos, out),
        Some(Action::List { json }) => list(json, out),
        None => start::start(args.scope, args.command, args.weaker, out),
    }
}

/// The directory of the session `id` names (its whole id, or a start of it that only one
/// session's id has), under the state directory.
fn session_dir(id: &str) -> Result<PathBuf> {
    let sessions = log::dir()
        .context("no state directory: set HOME, XDG_STATE_HOME or GIT_PRISM_STATE_DIR")?
        .join("sessions");
    if id.len() < 4 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        bail!("`{id}` is not a session id (`git-prism session list` shows them)");
    }
    let found: Vec<PathBuf> = std::fs::read_dir(&sessions)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with(id))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default();
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => bail!(
            "no session {id} in {} (`git-prism session list` shows them)",
            sessions.display()
        ),
        _ => bail!(
            "{id} starts the ids of {} sessions: give more of it",
            found.len()
        ),
    }
}

/// The scope of the session to act on: the one `--session` names, else the one this process
/// runs in (`GIT_PRISM_SCOPE`).
fn session_scope(id: Option<&str>) -> Result<PathBuf> {
    match id {
        Some(id) => Ok(session_dir(id)?.join(session::SCOPE_FILE)),
        None => std::env::var_os(scope::SCOPE_VAR)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .context("not in a session: name one with --session <id> (`git-prism session list` shows them)"),
    }
}

/// The scope file: the one named, else `$GIT_PRISM_SCOPE`, made absolute and without `.` or
/// `..` (the session records it, and every message names it).
fn scope_file(named: Option<PathBuf>) -> Result<PathBuf> {
    let file = match named {
        Some(f) => f,
        None => std::env::var_os(scope::SCOPE_VAR)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .with_context(|| {
                format!("no scope: pass --scope <file> or set {}", scope::SCOPE_VAR)
            })?,
    };
    Ok(crate::paths::normal(&file))
}

/// Lists the sessions of the state directory, oldest first.
fn list(json: bool, out: &mut Out<'_>) -> Result<i32> {
    let sessions = log::dir()
        .context("no state directory: set HOME, XDG_STATE_HOME or GIT_PRISM_STATE_DIR")?
        .join("sessions");
    let mut records: Vec<session::Record> = std::fs::read_dir(&sessions)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| {
                    session::load(&e.path().join(session::SCOPE_FILE))
                        .ok()
                        .flatten()
                })
                .collect()
        })
        .unwrap_or_default();
    records.sort_by(|a, b| a.started.cmp(&b.started).then(a.id.cmp(&b.id)));
    if records.is_empty() && !json {
        writeln!(out.stdout, "no sessions yet ({})", sessions.display())?;
    }
    for r in &records {
        let running = r
            .sandbox
            .as_ref()
            .is_some_and(|s| std::os::unix::net::UnixStream::connect(s.socket.path()).is_ok());
        let words: Vec<OsString> = r.command.iter().map(session::Bytes::os).collect();
        let command = crate::shell::join(words.iter().map(OsString::as_os_str));
        if json {
            let line = serde_json::json!({
                "id": r.id,
                "started": r.started,
                "running": running,
                "command": command,
                "scope": r.scope_file.path(),
                "repos": r.repos.iter().map(|p| p.path.path()).collect::<Vec<_>>(),
            });
            writeln!(out.stdout, "{}", crate::json::to_string(&line)?)?;
        } else {
            writeln!(
                out.stdout,
                "{}  {}  {:<7}  {}  (scope {})",
                r.id,
                r.started,
                if running { "running" } else { "ended" },
                command,
                r.scope_file.path().display()
            )?;
        }
    }
    Ok(exit_codes::SUCCESS)
}
