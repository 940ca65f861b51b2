//! The PATH shim: decide per call whether to answer with structure or exec the real program.
//!
//! The decision, in order (see `docs/ARCHITECTURE.md` and the ADRs in `docs/adr/`):
//! 1. opt-outs (`GIT_PRISM_PASSTHROUGH`, `GIT_PRISM_DISABLE`, `GIT_PRISM_INSIDE_SHIM`);
//! 2. agent detection from the environment ([`detect`]);
//! 3. the pure classifier ([`request::classify`], [`gh::classify`]);
//! 4. the fidelity contract ([`reader`]): is stdout the harness's own stream?
//! 5. the answer ([`crate::answer`]), built fully in memory; on any error, the real program
//!    runs instead.
//!
//! Invariants: until step 5 succeeds nothing is written to stdout. The passthrough path reads
//! a few environment variables, walks PATH once ([`locate`]) and calls `execve` ([`exec`]):
//! no repository is opened, no configuration file is read, no thread or runtime is started.
//! This module is an edge of the program: it writes the answer to stdout and, when
//! `GIT_PRISM_DEBUG=1`, one line to stderr saying what it decided and why.

pub mod detect;
pub mod exec;
pub mod reader;

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io::{self, Write};

use crate::exit_codes;
use crate::locate::{self, Program};
use crate::request::{self, gh};

/// The most nested shim hops before resolution is declared a loop: a wrapper on PATH that runs
/// `git` again comes back to the shim every time.
pub const MAX_HOPS: u32 = 20;

/// Why the shim passed a call through (for `GIT_PRISM_DEBUG`).
#[derive(Debug)]
pub enum Passthrough {
    /// An opt-out variable is set.
    OptOut(&'static str),
    /// The environment names no agent.
    NotAnAgent,
    /// The classifier's reason.
    Classified(request::Reason),
    /// The fidelity contract refused.
    Fidelity(reader::Refusal),
    /// The structured answer failed; git answers instead.
    AnswerFailed(crate::answer::AnswerError),
    /// Building the answer panicked (the panic's message); git answers instead.
    Panicked(String),
    /// The answer was not ready within its time limit; git answers instead.
    TimedOut(std::time::Duration),
}

impl fmt::Display for Passthrough {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Passthrough::OptOut(var) => write!(f, "{var} is set"),
            Passthrough::NotAnAgent => f.write_str("not an agent"),
            Passthrough::Classified(r) => r.fmt(f),
            Passthrough::Fidelity(r) => f.write_str(&crate::text::chain(r)),
            Passthrough::AnswerFailed(e) => {
                write!(f, "no structured answer: {}", crate::text::chain(e))
            }
            Passthrough::Panicked(panic) => {
                write!(f, "no structured answer: internal error: {panic}")
            }
            Passthrough::TimedOut(limit) => write!(
                f,
                "no structured answer within {} s (GIT_PRISM_ANSWER_TIMEOUT)",
                limit.as_secs()
            ),
        }
    }
}

/// A call the shim will try to answer.
#[derive(Clone, Debug)]
pub enum Structured {
    /// A `git` call.
    Git(Box<request::Request>),
    /// `gh pr diff`.
    Gh(gh::PrDiff),
}

impl fmt::Display for Structured {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Structured::Git(r) => r.fmt(f),
            Structured::Gh(p) => match &p.selector {
                Some(s) => write!(f, "gh pr diff {}", s.to_string_lossy()),
                None => f.write_str("gh pr diff"),
            },
        }
    }
}

/// Runs the shim for `tool` and returns the exit status (when it does not exec).
pub fn run(tool: Program, argv0: OsString, args: Vec<OsString>) -> i32 {
    // The session guard comes first, for every call: the escape hatches below switch off
    // answers, never the guard (ADR 15).
    if let Some(scope) = std::env::var_os(crate::guard::scope::SCOPE_VAR).filter(|v| !v.is_empty())
    {
        if let Some(code) = guard(tool, &args, &scope) {
            return code;
        }
    }
    let debug = truthy_var("GIT_PRISM_DEBUG");
    match structured_answer(tool, &args) {
        Ok((structured, bytes)) => {
            if debug {
                note(format_args!("structured: {structured}"));
            }
            return write_answer(&bytes);
        }
        Err(reason) => {
            if debug {
                note(format_args!("passthrough: {reason}"));
            }
        }
    }
    passthrough(tool, &argv0, &args)
}

/// Holds a call to the session's scope: `Some(status)` when it is refused (the line printed,
/// the record kept), `None` to go on.
fn guard(tool: Program, args: &[OsString], scope: &OsStr) -> Option<i32> {
    let cwd = std::env::current_dir().ok();
    match crate::unwind::catch(|| crate::guard::check(tool, args, cwd.as_deref(), scope)) {
        Ok(crate::guard::Verdict::Allow) => None,
        Ok(crate::guard::Verdict::Record(record)) => {
            crate::guard::log::append(&record);
            None
        }
        Ok(crate::guard::Verdict::Refuse(line, record)) => {
            crate::guard::log::append(&record);
            say(&line);
            Some(exit_codes::REFUSED)
        }
        Err(panic) => {
            // A guard that cannot decide refuses: failing open would be worse than no guard.
            say(&format!(
                "git-prism guard: refused (the guard failed: {panic}); run it yourself outside the agent's session"
            ));
            Some(exit_codes::REFUSED)
        }
    }
}

/// Decides and, for a watched call by an agent, builds the answer in memory. Any failure —
/// a panic included — is a reason to run the real program: nothing has been written yet.
fn structured_answer(
    tool: Program,
    args: &[OsString],
) -> Result<(Structured, Vec<u8>), Passthrough> {
    let agent = gate()?;
    // Only an agent's call gets this far: the passthrough path of everyone else pays nothing
    // for the panic hook.
    crate::unwind::quiet_hook();
    let structured = crate::unwind::catch(|| classify_and_check(tool, args, agent))
        .map_err(Passthrough::Panicked)??;
    // Only an answer pays for a thread (its stack fits a parser's worst case), bounded in
    // time: past the limit git answers, and the thread ends with the process image.
    let limit = crate::answer::time_limit_from_env();
    let (request, argv) = (structured.clone(), args.to_vec());
    let deadline = std::time::Instant::now() + crate::answer::analysis_time(limit);
    let bytes = crate::unwind::catch_within(limit, move || {
        crate::lang::within(Some(deadline), || answer(&request, &argv))
    })
    .map_err(|stopped| match stopped {
        crate::unwind::Stopped::Panicked(panic) => Passthrough::Panicked(panic),
        crate::unwind::Stopped::TimedOut => Passthrough::TimedOut(limit),
    })?
    .map_err(Passthrough::AnswerFailed)?;
    Ok((structured, bytes))
}

/// Decides, without side effects beyond reading the environment and (for watched calls by an
/// agent) `/proc`, whether a call gets a structured answer.
pub fn decide(tool: Program, args: &[OsString]) -> Result<Structured, Passthrough> {
    let agent = gate()?;
    classify_and_check(tool, args, agent)
}

/// The opt-outs and the agent: the checks every call pays for, before any parsing.
fn gate() -> Result<detect::Agent, Passthrough> {
    for var in ["GIT_PRISM_PASSTHROUGH", "GIT_PRISM_DISABLE"] {
        if truthy_var(var) {
            return Err(Passthrough::OptOut(var));
        }
    }
    if std::env::var_os(exec::INSIDE_SHIM).is_some() {
        return Err(Passthrough::OptOut(exec::INSIDE_SHIM));
    }
    detect::detect(|name| std::env::var_os(name)).ok_or(Passthrough::NotAnAgent)
}

/// The classifier, then the fidelity contract.
fn classify_and_check(
    tool: Program,
    args: &[OsString],
    agent: detect::Agent,
) -> Result<Structured, Passthrough> {
    let structured = match tool {
        Program::Git => match request::classify(args) {
            request::Decision::Structured(request) => Structured::Git(request),
            request::Decision::Passthrough(reason) => {
                return Err(Passthrough::Classified(reason));
            }
        },
        Program::Gh => Structured::Gh(gh::classify(args).map_err(Passthrough::Classified)?),
    };
    reader::check(agent.signal).map_err(Passthrough::Fidelity)?;
    Ok(structured)
}

/// Builds the structured answer fully in memory; an error means the real program answers.
fn answer(
    structured: &Structured,
    args: &[OsString],
) -> Result<Vec<u8>, crate::answer::AnswerError> {
    match structured {
        Structured::Git(request) => {
            let ctx = crate::answer::Call::for_git(request, crate::answer::budget_from_env())?;
            crate::answer::git(request, &ctx)
        }
        Structured::Gh(pr) => crate::answer::gh(pr, args),
    }
}

/// Writes a complete answer to stdout in one go.
fn write_answer(bytes: &[u8]) -> i32 {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => exit_codes::SUCCESS,
        // The reader went away: exit the way git would have, quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => exit_codes::SUCCESS,
        Err(e) => {
            note(format_args!("cannot write the answer: {e}"));
            exit_codes::FAILURE
        }
    }
}

/// Execs the real program with the caller's arguments; returns only on failure.
fn passthrough(tool: Program, argv0: &OsStr, args: &[OsString]) -> i32 {
    let hop = exec::next_hop(std::env::var_os(exec::INSIDE_SHIM).as_deref());
    let pin = tool.pin_variable();
    let pinned = std::env::var_os(pin);
    if hop > MAX_HOPS {
        note(format_args!(
            "`{}` keeps coming back to git-prism after {MAX_HOPS} hops (last tried: {}); a wrapper on PATH probably runs `{}` again: set {pin} to the real binary's absolute path",
            tool.name(),
            pinned
                .as_deref()
                .map_or_else(|| "PATH".into(), OsStr::to_string_lossy),
            tool.name(),
        ));
        return exit_codes::NOT_FOUND;
    }
    let path_var = std::env::var_os("PATH");
    let resolved = locate::resolve(locate::Inputs {
        tool,
        path_var: path_var.as_deref(),
        pinned: pinned.as_deref(),
        self_id: locate::FileId::current_exe(),
    });
    let program = match resolved {
        Ok(program) => program,
        Err(err) => {
            note(format_args!("{err}"));
            return match err {
                locate::ResolveError::NotFound { .. } => exit_codes::NOT_FOUND,
                locate::ResolveError::NotExecutable { .. } => exit_codes::NOT_EXECUTABLE,
            };
        }
    };
    if truthy_var("GIT_PRISM_DEBUG_RESOLVER") {
        note(format_args!(
            "resolved {}: {}",
            tool.name(),
            program.display()
        ));
    }
    let hop = exec::hop_value(hop);
    let err = exec::exec(
        &program,
        argv0,
        args,
        &[(exec::INSIDE_SHIM, &hop), (pin, program.as_os_str())],
    );
    note(format_args!("cannot run '{}': {err}", program.display()));
    match err.raw_os_error() {
        Some(libc::ENOENT) | Some(libc::ENOTDIR) => exit_codes::NOT_FOUND,
        _ => exit_codes::NOT_EXECUTABLE,
    }
}

fn truthy_var(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| detect::is_truthy(&v))
}

/// Writes one `git-prism: ...` line to stderr.
/// Writes one line to stderr as it is, in one write.
fn say(line: &str) {
    let _ = io::stderr()
        .lock()
        .write_all(format!("{line}\n").as_bytes());
}

fn note(message: fmt::Arguments<'_>) {
    // One write: stderr is unbuffered, and `writeln!` would write the pieces one by one, which
    // interleave with another process's lines on a shared pipe (`git diff | git apply`).
    let line = format!("git-prism: {message}\n");
    let _ = io::stderr().lock().write_all(line.as_bytes());
}
