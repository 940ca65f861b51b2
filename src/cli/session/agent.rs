//! The agent in its sandbox ([`run`]): the places the sandbox needs made, the broker
//! listening on the session's socket, the agent spawned in the sandbox with its environment
//! (credentials withheld, the done-gate's hooks through its harness's per-run settings), and
//! the broker serving its git writes, in its own view of the sandbox, until the agent ends.

use std::ffi::{OsStr, OsString};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::super::Out;
use super::start::{Started, say_started};
use crate::confine::sandbox::Sandbox;
use crate::guard::{sandbox, scope};
use crate::install::hooks::Harness;

/// A process's environment, in order.
type Environment = Vec<(OsString, OsString)>;

/// Starts the agent in its sandbox and serves its git writes as the broker until it ends:
/// the places the sandbox needs made, the broker listening, what the session holds said, the
/// agent spawned (with the done-gate's hooks of its harness), and the broker's view and
/// runner set up. Ends as the agent ended.
pub(super) fn run(
    started: &Started,
    policy: &sandbox::Policy,
    program: &OsString,
    rest: &[OsString],
    out: &mut Out<'_>,
) -> Result<i32> {
    let s = &started.setup;
    make_private_file(&s.session_dir.join("empty"))?;
    for dir in &policy.create {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let listener = crate::broker::server::bind(&s.socket)
        .with_context(|| format!("cannot listen on {}", s.socket.display()))?;
    say_started(out, &started.record, &s.loaded, Some(policy), &s.weak)?;

    let mut sandbox = policy.sandbox.clone();
    sandbox.namespaces = s.namespaces;
    rules_off_for_tests(policy, &mut sandbox);
    let (agent_args, agent_env) = agent_command(started, program, rest)?;
    let child = crate::confine::sandbox::spawn(&sandbox, program, &agent_args, &agent_env, &s.cwd)
        .with_context(|| format!("cannot start {} in the sandbox", program.to_string_lossy()))?;
    let pid = child.id() as i32;
    let peers = match crate::broker::server::namespace_of(pid).filter(|_| s.namespaces) {
        Some(ns) => crate::broker::server::Peers::Namespace(ns),
        None => crate::broker::server::Peers::Descendants(pid),
    };
    let runner = runner(started, &sandbox)?;
    let broker = crate::broker::server::Broker::new(listener, peers, runner);
    broker.start();
    let ended = crate::shim::exec::wait_passing_signals(pid)?;
    broker.drain();
    let _ = std::fs::remove_file(&s.socket);
    Ok(crate::shim::exec::end_as(ended))
}

/// The agent's arguments and environment: its own, with the done-gate's hooks through the
/// harness's own per-run settings where it has them.
fn agent_command(
    started: &Started,
    program: &OsStr,
    rest: &[OsString],
) -> Result<(Vec<OsString>, Environment)> {
    let s = &started.setup;
    let mut agent_env = agent_environment(
        &started.scope_copy,
        &s.socket,
        &s.state,
        &s.temp_dir,
        &s.path,
    );
    let mut agent_args: Vec<OsString> = rest.to_vec();
    if let Some((harness, file)) = harness_settings(program, &s.session_dir)? {
        match harness {
            Harness::Claude => {
                agent_args.splice(0..0, [OsString::from("--settings"), file.into_os_string()]);
            }
            Harness::Gemini => {
                agent_env.retain(|(k, _)| k != "GEMINI_CLI_SYSTEM_SETTINGS_PATH");
                agent_env.push((
                    "GEMINI_CLI_SYSTEM_SETTINGS_PATH".into(),
                    file.into_os_string(),
                ));
            }
            Harness::Codex => {}
        }
    }
    Ok((agent_args, agent_env))
}

/// How the broker runs the calls it takes: git-prism itself, in the session's environment,
/// inside the broker's view of the sandbox.
fn runner(started: &Started, sandbox: &Sandbox) -> Result<crate::broker::server::Runner> {
    let s = &started.setup;
    // The broker's view: what the agent cannot read stays hidden from the git writes the
    // broker runs for it (a hook the agent edited, `commit -F <a key>`), but their git
    // directories are writable. Calls that need the user's credentials (the network, gh,
    // `session verify --pushed`) run outside it.
    let view = if s.namespaces && !crate::confine::test_rule_off("broker-view") {
        Some(
            crate::confine::sandbox::View::make(sandbox)
                .context("cannot make the broker's view of the sandbox")?,
        )
    } else {
        None
    };
    // The broker's git finds its programs (ssh, credential helpers) on the session's PATH,
    // never in a directory the agent can write.
    let runner_path = std::env::join_paths(std::env::split_paths(&s.path).filter(|d| {
        d.is_absolute()
            && !sandbox.confinement.dirs.iter().any(|w| {
                d.canonicalize()
                    .unwrap_or_else(|_| d.clone())
                    .starts_with(w)
            })
    }))?;
    Ok(crate::broker::server::Runner {
        exe: std::env::current_exe().context("cannot find git-prism's own executable")?,
        env: runner_environment(&started.scope_copy, &s.state, &s.temp_dir, &runner_path),
        view,
    })
}

/// The settings file that gives the harness `program` starts the done-gate's hooks for this
/// session (Claude Code's `--settings`, Gemini CLI's system settings with the machine's own
/// kept), written in the session's directory; `None` for a program that is no harness with a
/// per-run override (Codex needs its hooks installed and trusted: `shim install --hooks`).
fn harness_settings(
    program: &OsStr,
    session_dir: &Path,
) -> Result<Option<(crate::install::hooks::Harness, PathBuf)>> {
    use crate::install::hooks::{Harness, session_settings};
    let name = Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let harness = match name.as_str() {
        "claude" => Harness::Claude,
        "gemini" => Harness::Gemini,
        _ => return Ok(None),
    };
    let exe = std::env::current_exe().context("cannot find git-prism's own executable")?;
    let mut bytes = session_settings(harness, &exe)?;
    if harness == Harness::Gemini {
        // The override replaces the machine's system settings for the run: they are kept.
        let system = Path::new("/etc/gemini-cli/settings.json");
        if let Ok(existing) = crate::paths::read_regular(system, 4 << 20) {
            bytes = crate::install::hooks::merge_settings(&existing, &bytes)?;
        }
    }
    let file = session_dir.join(format!("{}-settings.json", harness.flag()));
    std::fs::write(&file, bytes).with_context(|| format!("cannot write {}", file.display()))?;
    Ok(Some((harness, file)))
}

/// An empty file no one writes (what hides files from the agent).
fn make_private_file(path: &Path) -> Result<()> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o444)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    Ok(())
}

/// The agent's environment: the session's, without the variables that carry credentials, with
/// the session's scope, broker, state, temporary directory and `PATH`.
fn agent_environment(
    scope_copy: &Path,
    socket: &Path,
    state: &Path,
    temp: &Path,
    path: &OsStr,
) -> Environment {
    let keep_credentials = crate::confine::test_rule_off("env");
    let mut env: Vec<(OsString, OsString)> = std::env::vars_os()
        .filter(|(k, _)| {
            let name = k.to_string_lossy();
            (keep_credentials || !sandbox::WITHHELD_VARS.contains(&name.as_ref()))
                && !matches!(
                    name.as_ref(),
                    crate::broker::BROKERED_VAR | "GIT_PRISM_INSIDE_SHIM"
                )
        })
        .collect();
    for (k, v) in [
        (scope::SCOPE_VAR, scope_copy.as_os_str()),
        (crate::broker::BROKER_VAR, socket.as_os_str()),
        ("GIT_PRISM_STATE_DIR", state.as_os_str()),
        ("TMPDIR", temp.as_os_str()),
        ("PATH", path),
    ] {
        env.retain(|(n, _)| n != k);
        env.push((k.into(), v.to_owned()));
    }
    env
}

/// The environment the broker runs calls in: the session's own (credentials included), with
/// the session's scope, state, temporary directory and `PATH`, answers off (a brokered call is
/// a write) and the broker's mark.
fn runner_environment(scope_copy: &Path, state: &Path, temp: &Path, path: &OsStr) -> Environment {
    let mut env: Vec<(OsString, OsString)> = std::env::vars_os()
        .filter(|(k, _)| {
            !matches!(
                k.to_string_lossy().as_ref(),
                crate::broker::BROKER_VAR | "GIT_PRISM_INSIDE_SHIM"
            )
        })
        .collect();
    let me = OsString::from(std::process::id().to_string());
    for (k, v) in [
        (scope::SCOPE_VAR, scope_copy.as_os_str()),
        ("GIT_PRISM_STATE_DIR", state.as_os_str()),
        ("TMPDIR", temp.as_os_str()),
        ("PATH", path),
        (crate::broker::BROKERED_VAR, me.as_os_str()),
        ("GIT_PRISM_PASSTHROUGH", OsStr::new("1")),
    ] {
        env.retain(|(n, _)| n != k);
        env.push((k.into(), v.to_owned()));
    }
    env
}

/// Removes the sandbox's rules a test switches off (`GIT_PRISM_TEST_RULE_OFF`, debug builds
/// only), so each is shown to hold alone.
fn rules_off_for_tests(policy: &sandbox::Policy, sandbox: &mut crate::confine::sandbox::Sandbox) {
    use crate::confine::test_rule_off;
    if test_rule_off("read-only") {
        sandbox.read_only.clear();
    }
    let off = |path: &PathBuf| {
        (test_rule_off("hide-unlisted") && policy.unlisted.contains(path))
            || (test_rule_off("hide-credentials") && policy.credentials.contains(path))
    };
    sandbox.hidden.retain(|h| !off(&h.path));
    if test_rule_off("tcp") {
        sandbox.confinement.network = crate::confine::Network::Any;
    }
    if test_rule_off("landlock") {
        sandbox.confinement.dirs = vec![PathBuf::from("/")];
        sandbox.confinement.network = crate::confine::Network::Any;
    }
}
