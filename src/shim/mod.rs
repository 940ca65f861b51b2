//! The PATH shim: hold a call to the session's scope, then decide whether to answer it with
//! structure or run the real program.
//!
//! In order (see `docs/ARCHITECTURE.md` and the ADRs in `docs/adr/`):
//! 0. with `GIT_PRISM_SCOPE` set, the session guard ([`crate::guard::check`], ADR 15), on every
//!    call and before any opt-out: a refusal is recorded, prints its `git-prism guard:` line and
//!    ends the call with [`exit_codes::REFUSED`]; a call let through keeps the guard's
//!    [`crate::guard::Decision`] for step 6;
//! 1. opt-outs (`GIT_PRISM_PASSTHROUGH`, `GIT_PRISM_DISABLE`, `GIT_PRISM_INSIDE_SHIM`);
//! 2. agent detection from the environment ([`detect`]);
//! 3. the pure classifier ([`request::classify`], [`gh::classify`]);
//! 4. the fidelity contract ([`reader`]): is stdout the harness's own stream?
//! 5. the answer ([`crate::answer`]), built fully in memory on a thread of its own within
//!    `GIT_PRISM_ANSWER_TIMEOUT`; on any error, panic or timeout, the real program runs instead;
//! 6. the real program: the hop count checked ([`MAX_HOPS`]), then found on PATH
//!    ([`locate`]); under a scope, the guard's preparations made (directories, a private index,
//!    the hook wrapper's variables) and a `git` call confined by the kernel layer
//!    ([`crate::confine`], ADR 16); then `execve` ([`exec`]). A write the guard watches runs git as a child instead: the refs
//!    are read before and after, the record says what git did, and the shim ends as git ended
//!    (ADR 17).
//!
//! Invariants: until step 5 succeeds nothing is written to stdout. Without a scope, the
//! passthrough path reads a few environment variables, walks PATH once and calls `execve`:
//! no repository is opened, no configuration file is read, no thread or runtime is started.
//! This module is an edge of the program: it writes the answer to stdout and one-line
//! messages to stderr (the guard's refusals, `git-prism session:` when a watched write did not
//! do what it names, `git-prism:` failures and, with `GIT_PRISM_DEBUG=1`, what it decided and
//! why). [`hook`] is the edge of the guard's hook wrapper.

pub mod detect;
pub mod exec;
pub mod hook;
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
    // answers, never the guard (ADR 15). Without a scope this costs one `getenv`.
    let mut held = None;
    if let Some(scope) = std::env::var_os(crate::guard::scope::SCOPE_VAR).filter(|v| !v.is_empty())
    {
        // The broker's child: a call that needs no credentials runs in the broker's view,
        // where what the agent cannot read is hidden (entered before anything else runs: a
        // user namespace is entered only by a process of one thread).
        if crate::broker::is_brokered() {
            let network = tool == Program::Gh || crate::request::effect::git(&args).network;
            if let Err(e) = crate::confine::sandbox::enter_view(!network) {
                note(format_args!(
                    "cannot enter the session's view: {}",
                    crate::text::io_words(&e)
                ));
                return exit_codes::REFUSED;
            }
        } else {
            let _ = crate::confine::sandbox::enter_view(false);
        }
        // Inside a session's sandbox, a call that needs what the sandbox withholds (a git
        // directory, the network with the user's credentials, gh's token) is the broker's;
        // the broker judges it itself (ADR 19), so a write is sent at once, unjudged here.
        let sandboxed = crate::broker::socket().filter(|_| !crate::broker::is_brokered());
        if let Some(socket) = &sandboxed {
            if tool == Program::Git && !might_run_here(&args) {
                return brokered(socket, tool, &args);
            }
        }
        let decision = judge(tool, &args, &scope);
        if let Some(socket) = &sandboxed {
            if !decision.runs_in_sandbox() {
                if tool == Program::Gh {
                    if let Ok((_, bytes)) = structured_answer(tool, &args) {
                        return write_answer(&bytes);
                    }
                }
                return brokered(socket, tool, &args);
            }
        }
        match guard(tool, &scope, decision) {
            Ok(h) => held = Some(h),
            Err(code) => return code,
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
        Err(Passthrough::AnswerFailed(e)) if e.cursor().is_some() => {
            // A later page was asked for: git's whole output is not that page (on a large
            // range it is megabytes), so the caller is told to start again (issue 36).
            say(&stale_cursor_line(tool, &args, e.cursor()));
            return exit_codes::FAILURE;
        }
        Err(reason) => {
            if debug {
                note(format_args!("passthrough: {reason}"));
            }
        }
    }
    passthrough(tool, &argv0, &args, held.as_ref())
}

/// Whether a git call may run inside the sandbox as it is, from its command line alone: a
/// read (or an alias, which the guard must resolve first). Everything else is a write the
/// broker judges.
fn might_run_here(args: &[OsString]) -> bool {
    use crate::request::effect::Effect;
    let call = crate::request::effect::git(args);
    match call.effect {
        Effect::Alias { .. } => true,
        Effect::Read => !call.network && call.targets.is_empty(),
        _ => false,
    }
}

/// Sends a call to the session's broker and ends as it ended there.
fn brokered(socket: &std::path::Path, tool: Program, args: &[OsString]) -> i32 {
    let kind = match tool {
        Program::Git => crate::broker::wire::Kind::Git,
        Program::Gh => crate::broker::wire::Kind::Gh,
    };
    if truthy_var("GIT_PRISM_DEBUG") {
        note(format_args!("brokered: {}", socket.display()));
    }
    match crate::broker::client::call(socket, kind, args) {
        Ok(ended) => exec::end_as(ended),
        Err(e) => {
            note(format_args!(
                "{}: in the session's sandbox this call needs the session's broker (its git directories are read-only, its credentials withheld); ask the user to run it outside the session",
                crate::text::chain(&e)
            ));
            exit_codes::REFUSED
        }
    }
}

/// The guard's decision on a call (a panic in the guard is a refusal: failing open would be
/// worse than no guard); for a call the session's broker started, also the broker's own rules.
fn judge(tool: Program, args: &[OsString], scope: &OsStr) -> crate::guard::Decision {
    use crate::guard::Decision;
    let cwd = std::env::current_dir().ok();
    let decision = crate::unwind::catch(|| crate::guard::check(tool, args, cwd.as_deref(), scope))
        .unwrap_or_else(|panic| Decision::failed(tool, args, panic));
    if !crate::broker::is_brokered() {
        return decision;
    }
    if decision.runs_in_sandbox() {
        return decision.refused_by_broker(
            "a read runs inside the session's sandbox, not through its broker".into(),
        );
    }
    let hidden = crate::guard::session::load(std::path::Path::new(scope))
        .ok()
        .flatten()
        .and_then(|r| r.sandbox)
        .map(|s| s.hidden.iter().map(|h| h.path()).collect::<Vec<_>>())
        .unwrap_or_default();
    match cwd
        .as_deref()
        .and_then(|cwd| crate::guard::sandbox::names_hidden(args, cwd, &hidden))
    {
        Some(path) if !crate::confine::test_rule_off("hidden-args") => {
            decision.refused_by_broker(format!(
                "{} is hidden from the agent, and git would read it outside the sandbox",
                path.display()
            ))
        }
        _ => decision,
    }
}

/// The one line a cursor that cannot be used gets: what is wrong with it, and the command to
/// run again (the caller's own, without the cursor, which comes from the environment).
fn stale_cursor_line(
    tool: Program,
    args: &[OsString],
    cursor: Option<&crate::paging::CursorError>,
) -> String {
    use crate::paging::CursorError;
    let command = format!(
        "{} {}",
        tool.name(),
        crate::shell::join(args.iter().map(OsString::as_os_str))
    );
    let what = match cursor {
        Some(CursorError::Stale(_)) => {
            "is stale: what it pages has changed since it was printed (a branch moved or the working tree changed)".to_owned()
        }
        Some(CursorError::Invalid(c)) => format!("'{c}' is not one this command printed"),
        None => "cannot be used".to_owned(),
    };
    format!(
        "git-prism: the page cursor ({}) {what}; run `{command}` again without it for the first page",
        crate::answer::CURSOR_VAR
    )
}

/// A call the guard let through, and what the kernel layer puts around it.
struct Held {
    decision: crate::guard::Decision,
    /// Variables added to git's environment (the hook wrapper's).
    env: Vec<(String, OsString)>,
    /// Whether the confinement is applied (always, but with the test switch in a debug build).
    confine: bool,
}

/// Holds a call to the session's scope: `Err(status)` when it is refused (the line printed,
/// the record kept), else what the kernel layer must apply before git runs.
fn guard(tool: Program, scope: &OsStr, decision: crate::guard::Decision) -> Result<Held, i32> {
    use crate::guard::{Decision, Outcome, hook};
    // Switches for tests only, honoured in debug builds alone (`hook::test_switch_off`): the
    // tests prove each layer holds without the other.
    let argv_off = hook::test_switch_off("GIT_PRISM_TEST_ARGV_LAYER");
    let kernel_off = hook::test_switch_off("GIT_PRISM_TEST_KERNEL_LAYER");
    let refuse = |decision: &Decision| {
        crate::guard::log::append(&decision.record());
        say(&decision.to_string());
        exit_codes::REFUSED
    };
    match decision.outcome {
        Outcome::Refuse if !argv_off || decision.confinement.is_none() && tool == Program::Git => {
            return Err(refuse(&decision));
        }
        // A watched write is recorded once git has ended, with what it did.
        Outcome::Record if decision.watch.is_none() => {
            crate::guard::log::append(&decision.record());
        }
        Outcome::Record => {}
        Outcome::Refuse | Outcome::Allow => {}
    }
    if truthy_var("GIT_PRISM_DEBUG") {
        if let Some(c) = &decision.confinement {
            note(format_args!(
                "guard: {}; kernel: writes in {} and {} files, {}",
                decision.rule.text(decision.scope_file.as_deref()),
                c.dirs
                    .iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                c.files.len(),
                c.network
            ));
        }
    }
    let mut env: Vec<(String, OsString)> = Vec::new();
    // Program-naming settings changed since the session started, as they were: after the
    // configuration git reads from the environment, before the hook wrapper's.
    let mut count = std::env::var("GIT_CONFIG_COUNT")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(0);
    if !decision.config.is_empty() {
        for (key, value) in &decision.config {
            env.push((format!("GIT_CONFIG_KEY_{count}"), key.into()));
            env.push((format!("GIT_CONFIG_VALUE_{count}"), value.clone()));
            count += 1;
        }
        env.push(("GIT_CONFIG_COUNT".to_owned(), count.to_string().into()));
    }
    if decision.confinement.is_some() && !kernel_off {
        for p in &decision.prepare {
            // Made as git would make them; a failure is git's to report.
            if p.dir {
                let _ = std::fs::create_dir_all(&p.path);
            } else if !p.path.exists() {
                let _ = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&p.path);
            }
        }
        if let Some(index) = &decision.index_copy {
            if let Some(copy) = index_copy(index, decision.confinement.as_ref()) {
                env.push(("GIT_INDEX_FILE".to_owned(), copy.into_os_string()));
            }
        }
        if let Some(plan) = &decision.hooks {
            let has_record = crate::guard::session::load(std::path::Path::new(scope))
                .ok()
                .flatten()
                .is_some();
            match hook::wrapper_dir(std::path::Path::new(scope), has_record) {
                Some(dir) => {
                    let more = plan.environment(&dir, count);
                    env.retain(|(k, _)| !more.iter().any(|(m, _)| m == k));
                    env.extend(more);
                }
                None => {
                    return Err(refuse(&decision.unconfined(
                        "the hooks of a call that needs the network cannot be confined (no hook directory in the state directory)".into(),
                    )));
                }
            }
        }
    }
    Ok(Held {
        decision,
        env,
        confine: !kernel_off,
    })
}

/// Copies `index` into a new private directory in the confinement's temporary directory (its
/// first) for a read that takes the index's lock; copies left by earlier calls more than an
/// hour old are removed. `None` when it cannot be made: git then reports the lock it cannot
/// take.
fn index_copy(
    index: &std::path::Path,
    confinement: Option<&crate::confine::Confinement>,
) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let temp = confinement?.dirs.first()?;
    const PREFIX: &str = "git-prism-index-";
    if let Ok(entries) = std::fs::read_dir(temp) {
        for e in entries.flatten() {
            let old = e
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age.as_secs() > 3600);
            if old && e.file_name().to_string_lossy().starts_with(PREFIX) {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
    let dir = temp.join(format!(
        "{PREFIX}{}",
        &crate::guard::session::new_id()[..16]
    ));
    std::fs::DirBuilder::new().mode(0o700).create(&dir).ok()?;
    let copy = dir.join("index");
    std::fs::copy(index, &copy).ok()?;
    Some(copy)
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
            request::Verdict::Structured(request) => Structured::Git(request),
            request::Verdict::Passthrough(reason) => {
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
fn passthrough(tool: Program, argv0: &OsStr, args: &[OsString], held: Option<&Held>) -> i32 {
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
    let fixed: [(&str, &OsStr); 2] = [(exec::INSIDE_SHIM, &hop), (pin, program.as_os_str())];
    let err = match held {
        // Without a scope: the two variables, nothing else (the hot path).
        None => exec::exec(&program, argv0, args, &fixed),
        Some(held) => {
            let mut set: Vec<(&str, &OsStr)> = fixed.to_vec();
            set.extend(held.env.iter().map(|(k, v)| (k.as_str(), v.as_os_str())));
            if let Some(watch) = &held.decision.watch {
                return watched(&program, argv0, args, &set, held, watch);
            }
            // The kernel layer, last thing before git runs: git and everything it starts stay
            // within what the call's permission allows.
            if let (Some(confinement), true) = (&held.decision.confinement, held.confine) {
                if let Err(e) = crate::confine::apply(confinement) {
                    let refused = held.decision.clone().unconfined(crate::text::chain(&e));
                    crate::guard::log::append(&refused.record());
                    say(&refused.to_string());
                    return exit_codes::REFUSED;
                }
            }
            exec::exec(&program, argv0, args, &set)
        }
    };
    note(format_args!(
        "cannot run '{}': {}",
        program.display(),
        crate::text::io_words(&err)
    ));
    match err.raw_os_error() {
        Some(libc::ENOENT) | Some(libc::ENOTDIR) => exit_codes::NOT_FOUND,
        _ => exit_codes::NOT_EXECUTABLE,
    }
}

/// Runs git as a child for a write the session guard watches (issue 28): the refs before,
/// git (confined as [`passthrough`] would confine it), the refs after; then the record of what
/// it did, one line on stderr when it exited 0 without doing what it names, and this process
/// ends as git ended.
fn watched(
    program: &std::path::Path,
    argv0: &OsStr,
    args: &[OsString],
    set: &[(&str, &OsStr)],
    held: &Held,
    watch: &crate::guard::observe::Watch,
) -> i32 {
    let image = match exec::Image::new(program, argv0, args, set) {
        Ok(image) => image,
        Err(err) => {
            note(format_args!(
                "cannot run '{}': {}",
                program.display(),
                crate::text::io_words(&err)
            ));
            return exit_codes::NOT_EXECUTABLE;
        }
    };
    let confinement = match (&held.decision.confinement, held.confine) {
        (Some(c), true) => match crate::confine::prepare(c) {
            Ok(p) => Some(p),
            Err(e) => {
                let refused = held.decision.clone().unconfined(e.to_string());
                crate::guard::log::append(&refused.record());
                say(&refused.to_string());
                return exit_codes::REFUSED;
            }
        },
        _ => None,
    };
    let before = watch.before();
    let ended = match exec::run(&image, confinement) {
        Ok(ended) => ended,
        Err(err) => {
            note(format_args!(
                "cannot run '{}': {}",
                program.display(),
                crate::text::io_words(&err)
            ));
            return exit_codes::NOT_EXECUTABLE;
        }
    };
    let (effect, line) = watch.finish(&before, ended);
    let mut record = held.decision.record();
    record.effect = Some(effect);
    crate::guard::log::append(&record);
    if let Some(line) = line {
        say(&format!("git-prism session: {line}"));
    }
    exec::end_as(ended)
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
