//! `git-prism session`: start an agent held to a scope (ADR 15, its record written first:
//! ADR 16), say what the scope allows here (`check`), ask git whether the session's work is
//! done (`verify`, ADR 17), and show the guard's record (`log`).

use std::ffi::{OsStr, OsString};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use super::Out;
use crate::exit_codes;
use crate::guard::{log, place, sandbox, scope, session};
use crate::locate::FileId;

/// Arguments of `session`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    /// The scope file (TOML: `[[repo]]` with `path`, `permission`, `protected`)
    #[arg(long, value_name = "FILE")]
    scope: Option<PathBuf>,
    /// The agent's command line (after `--`)
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<OsString>,
    /// Start even where the kernel cannot hold the whole sandbox (no user namespaces, no
    /// Landlock or no TCP rules), saying what does not hold
    #[arg(long)]
    weaker: bool,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// List the sessions started on this machine: id, start, whether it still runs, the
    /// agent's command and the scope
    List {
        /// Print each session as a JSON line
        #[arg(long)]
        json: bool,
    },
    /// Say what the session's scope allows in the repository here
    Check {
        /// The scope file [default: $GIT_PRISM_SCOPE]
        #[arg(long, value_name = "FILE")]
        scope: Option<PathBuf>,
    },
    /// Ask git whether the session's work is committed, pushed and merged (silent when it is)
    #[command(
        after_help = "Exit status: 0 every check holds (nothing is printed); 10 committed, 11 commit, 12 pushed, 13 merged, 14 hooks, 15 protected (the first failing check's; one line each, with what to run); 1 the checks could not be asked (a bad revision, no repository); 2 usage."
    )]
    Verify {
        /// The session to verify, by its id or a unique start of it (`session list`), also
        /// after it ended [default: the session this runs in]
        #[arg(long, value_name = "ID")]
        session: Option<String>,
        #[command(flatten)]
        checks: super::verify::Checks,
        /// The repositories to verify [default: every one the scope lets the session write]
        #[arg(value_name = "REPO")]
        repos: Vec<PathBuf>,
    },
    /// Print the guard's record: every refusal, every push it let through, and what each
    /// commit, merge, rebase, reset and push did
    Log {
        /// Only this session's records, by its id or a unique start of it
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
        Some(Action::Check { scope }) => check(scope, out),
        Some(Action::Log {
            session,
            json,
            last,
        }) => show_log(session.as_deref(), json, last, out),
        Some(Action::Verify {
            session,
            checks,
            repos,
        }) => verify(session.as_deref(), &checks, &repos, out),
        Some(Action::List { json }) => list(json, out),
        None => start(args.scope, args.command, args.weaker, out),
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

/// The scope file: the one named, else `$GIT_PRISM_SCOPE`, made absolute.
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
    Ok(std::path::absolute(&file)?)
}

/// Checks the scope, records the session (a copy of the scope and what the environment named
/// as it started, `guard::session`), then starts the agent's command in a sandbox derived
/// from the scope (`guard::sandbox`, ADR 19) with `GIT_PRISM_SCOPE` naming the session's scope
/// and git-prism's `git` first on PATH, and serves its git writes as the broker
/// (`broker::server`) until it ends; ends as the agent ended.
fn start(
    named: Option<PathBuf>,
    command: Vec<OsString>,
    weaker: bool,
    out: &mut Out<'_>,
) -> Result<i32> {
    let Some(named) = named else {
        bail!("git-prism session needs --scope <file> and the agent's command after `--`");
    };
    let Some((program, rest)) = command.split_first() else {
        bail!("no command: `git-prism session --scope <file> -- <agent command>`");
    };
    let file = scope_file(Some(named))?;
    let loaded = scope::load(&file)?;
    let text = crate::paths::read_regular(&file, 1 << 20)
        .with_context(|| format!("cannot read the scope file {}", file.display()))?;
    let path = shim_first_path()?;
    let state = log::dir().context(
        "no state directory for the session's record: set HOME, XDG_STATE_HOME or GIT_PRISM_STATE_DIR",
    )?;
    std::fs::create_dir_all(&state)
        .with_context(|| format!("cannot create the state directory {}", state.display()))?;
    let state = state.canonicalize()?;
    let support = crate::confine::support();
    let base_temp = std::env::var_os("TMPDIR")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .unwrap_or_else(|| PathBuf::from("/tmp"));
    let id = session::new_id();
    let cwd = std::env::current_dir()?;

    // What the kernel can hold here; anything it cannot is said, and refused unless --weaker.
    let namespaces = !no_namespaces_for_tests() && crate::confine::sandbox::namespaces_available();
    let mut weak = Vec::new();
    match support {
        crate::confine::Support::None => weak.push(
            "no Landlock: the agent is not confined, only its git and gh calls are held by the guard"
                .to_owned(),
        ),
        crate::confine::Support::WritesOnly { abi } => weak.push(format!(
            "Landlock ABI {abi} has no TCP rules: the agent's own connections are not held"
        )),
        crate::confine::Support::Full { .. } => {}
    }
    if support.any() && !namespaces {
        weak.push(
            "no user namespaces: the agent can write its repositories' git directories and read unlisted repositories and credentials"
                .to_owned(),
        );
    }
    if !weak.is_empty() && !weaker {
        bail!(
            "the kernel cannot hold the agent's sandbox: {}; run `git-prism session --weaker ...` to start it anyway",
            weak.join("; ")
        );
    }
    let sandboxed = support.any();
    let temp_dir = if sandboxed {
        private_temp(&base_temp, &id)?
    } else {
        base_temp.clone()
    };
    let session_dir = state.join("sessions").join(&id);
    let socket = session_dir.join("broker.sock");
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());

    let repos: Vec<session::Repo> = loaded
        .entries
        .iter()
        .map(|e| {
            let top = e
                .identity
                .work_tree
                .clone()
                .unwrap_or_else(|| e.identity.git_dir.clone());
            let own = crate::git::probe::own_config(&top, &[]).unwrap_or_default();
            session::Repo {
                path: session::Bytes::of(e.path.as_os_str()),
                permission: e.permission,
                protected: e.protected.clone(),
                git_dir: session::Bytes::of(e.identity.git_dir.as_os_str()),
                common_dir: session::Bytes::of(e.identity.common_dir.as_os_str()),
                work_tree: e
                    .identity
                    .work_tree
                    .as_ref()
                    .map(|w| session::Bytes::of(w.as_os_str())),
                protected_paths: e.protected_paths.clone(),
                head: crate::git::refs::resolve(&e.identity.ref_store(), "HEAD")
                    .and_then(|r| r.oid)
                    .map(|oid| oid.as_str().to_owned()),
                programs: crate::guard::config::programs(&own),
                remotes: crate::guard::config::remotes(&own),
            }
        })
        .collect();
    let policy = if sandboxed {
        let var = |name: &str| std::env::var_os(name);
        let links = |tree: &std::path::Path| crate::git::probe::gitlinks(tree);
        Some(sandbox::policy(&sandbox::Inputs {
            repos: &repos,
            settings: &loaded.sandbox,
            home: home.clone(),
            cwd: cwd.clone(),
            temp_dir: temp_dir.clone(),
            state_dir: state.clone(),
            session_dir: session_dir.clone(),
            empty_file: session_dir.join("empty"),
            program: program.clone(),
            var: &var,
            gitlinks: &links,
        })?)
    } else {
        None
    };
    let record = session::Record {
        version: session::VERSION,
        id: id.clone(),
        started: crate::time::now_rfc3339(),
        scope_file: session::Bytes::of(file.as_os_str()),
        command: command.iter().map(|a| session::Bytes::of(a)).collect(),
        cwd: session::Bytes::of(cwd.as_os_str()),
        temp_dir: session::Bytes::of(base_temp.as_os_str()),
        environment: crate::guard::session_vars()
            .map(str::to_owned)
            .chain(crate::guard::config_env_vars())
            .filter_map(|v| std::env::var_os(&v).map(|value| (v, session::Bytes::of(&value))))
            .collect(),
        repos,
        kernel: support.line(),
        sandbox: policy.as_ref().map(|p| session::Sandbox {
            settings: loaded.sandbox.clone(),
            socket: session::Bytes::of(socket.as_os_str()),
            temp_dir: session::Bytes::of(temp_dir.as_os_str()),
            hidden: p
                .sandbox
                .hidden
                .iter()
                .map(|h| session::Bytes::of(h.path.as_os_str()))
                .collect(),
            namespaces,
        }),
    };
    let scope_copy = session::create(&state, &text, &record)?;
    // The hooks of network calls run through links made now, beside the record.
    let _ = crate::guard::hook::wrapper_dir(&scope_copy, true);

    let Some(policy) = policy else {
        say_started(out, &record, &loaded, None, &weak)?;
        let mut command = std::process::Command::new(program);
        command
            .args(rest)
            .env(scope::SCOPE_VAR, &scope_copy)
            .env("PATH", path);
        let err = command.exec();
        return Err(
            anyhow::Error::new(err).context(format!("cannot run {}", program.to_string_lossy()))
        );
    };
    make_private_file(&session_dir.join("empty"))?;
    for dir in &policy.create {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let listener = crate::broker::server::bind(&socket)
        .with_context(|| format!("cannot listen on {}", socket.display()))?;
    say_started(out, &record, &loaded, Some(&policy), &weak)?;

    let mut sandbox = policy.sandbox.clone();
    sandbox.namespaces = namespaces;
    rules_off_for_tests(&policy, &mut sandbox);
    let mut agent_env = agent_environment(&scope_copy, &socket, &state, &temp_dir, &path);
    // The done-gate's hooks, through the harness's own per-run settings where it has them.
    let mut agent_args: Vec<OsString> = rest.to_vec();
    if let Some((harness, file)) = harness_settings(program, &session_dir)? {
        match harness {
            crate::install::hooks::Harness::Claude => {
                agent_args.splice(0..0, [OsString::from("--settings"), file.into_os_string()]);
            }
            crate::install::hooks::Harness::Gemini => {
                agent_env.retain(|(k, _)| k != "GEMINI_CLI_SYSTEM_SETTINGS_PATH");
                agent_env.push((
                    "GEMINI_CLI_SYSTEM_SETTINGS_PATH".into(),
                    file.into_os_string(),
                ));
            }
            crate::install::hooks::Harness::Codex => {}
        }
    }
    let child = crate::confine::sandbox::spawn(&sandbox, program, &agent_args, &agent_env, &cwd)
        .with_context(|| format!("cannot start {} in the sandbox", program.to_string_lossy()))?;
    let pid = child.id() as i32;
    let peers = match crate::broker::server::namespace_of(pid).filter(|_| namespaces) {
        Some(ns) => crate::broker::server::Peers::Namespace(ns),
        None => crate::broker::server::Peers::Descendants(pid),
    };
    // The broker's view: what the agent cannot read stays hidden from the git writes the
    // broker runs for it (a hook the agent edited, `commit -F <a key>`), but their git
    // directories are writable. Calls that need the user's credentials (the network, gh,
    // `session verify --pushed`) run outside it.
    let view = if namespaces && !crate::confine::test_rule_off("broker-view") {
        Some(
            crate::confine::sandbox::View::make(&sandbox)
                .context("cannot make the broker's view of the sandbox")?,
        )
    } else {
        None
    };
    // The broker's git finds its programs (ssh, credential helpers) on the session's PATH,
    // never in a directory the agent can write.
    let runner_path = std::env::join_paths(std::env::split_paths(&path).filter(|d| {
        d.is_absolute()
            && !sandbox.confinement.dirs.iter().any(|w| {
                d.canonicalize()
                    .unwrap_or_else(|_| d.clone())
                    .starts_with(w)
            })
    }))?;
    let runner = crate::broker::server::Runner {
        exe: std::env::current_exe().context("cannot find git-prism's own executable")?,
        env: runner_environment(&scope_copy, &state, &temp_dir, &runner_path),
        view,
    };
    let broker = crate::broker::server::Broker::new(listener, peers, runner);
    broker.start();
    let ended = crate::shim::exec::wait_passing_signals(pid)?;
    broker.drain();
    let _ = std::fs::remove_file(&socket);
    Ok(crate::shim::exec::end_as(ended))
}

/// The settings file that gives the harness `program` starts the done-gate's hooks for this
/// session (Claude Code's `--settings`, Gemini CLI's system settings with the machine's own
/// kept), written in the session's directory; `None` for a program that is no harness with a
/// per-run override (Codex needs its hooks installed and trusted: `shim install --hooks`).
fn harness_settings(
    program: &OsStr,
    session_dir: &std::path::Path,
) -> Result<Option<(crate::install::hooks::Harness, PathBuf)>> {
    use crate::install::hooks::{Harness, session_settings};
    let name = std::path::Path::new(program)
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
        let system = std::path::Path::new("/etc/gemini-cli/settings.json");
        if let Ok(existing) = crate::paths::read_regular(system, 4 << 20) {
            bytes = crate::install::hooks::merge_settings(&existing, &bytes)?;
        }
    }
    let file = session_dir.join(format!("{}-settings.json", harness.flag()));
    std::fs::write(&file, bytes).with_context(|| format!("cannot write {}", file.display()))?;
    Ok(Some((harness, file)))
}

/// The session's private temporary directory, made new (0700) under `base`.
fn private_temp(base: &std::path::Path, id: &str) -> Result<PathBuf> {
    let dir = base.join(format!("git-prism-session-{}", &id[..16]));
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(&dir)
        .with_context(|| {
            format!(
                "cannot create the session's temporary directory {}",
                dir.display()
            )
        })?;
    Ok(dir.canonicalize()?)
}

/// An empty file no one writes (what hides files from the agent).
fn make_private_file(path: &std::path::Path) -> Result<()> {
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
    scope_copy: &std::path::Path,
    socket: &std::path::Path,
    state: &std::path::Path,
    temp: &std::path::Path,
    path: &OsStr,
) -> Vec<(OsString, OsString)> {
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
fn runner_environment(
    scope_copy: &std::path::Path,
    state: &std::path::Path,
    temp: &std::path::Path,
    path: &OsStr,
) -> Vec<(OsString, OsString)> {
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

/// Says in at most six lines what the session holds: its id, what the agent may write and
/// may not read, where its work leaves the machine, and what the kernel holds.
fn say_started(
    out: &mut Out<'_>,
    record: &session::Record,
    loaded: &scope::Scope,
    policy: Option<&sandbox::Policy>,
    weak: &[String],
) -> Result<()> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut lines = vec![format!(
        "session {}: `git-prism session verify --session {}` asks git whether its work is done",
        record.id, record.id
    )];
    let listed: Vec<String> = loaded
        .entries
        .iter()
        .map(|e| format!("{} {}", e.permission.name(), e.path.display()))
        .collect();
    lines.push(format!(
        "scope: {}; every other repository: {}",
        listed.join(", "),
        match (policy, loaded.sandbox.unlisted) {
            (Some(_), scope::Unlisted::Hidden) => "hidden",
            _ => "read",
        }
    ));
    if let Some(p) = policy {
        lines.extend(p.lines(&record.repos, home.as_deref()));
    }
    let pushes: Vec<String> = loaded
        .entries
        .iter()
        .filter(|e| e.permission == scope::Permission::WritePush)
        .map(|e| format!("{} (never {})", e.path.display(), e.protected.join(", ")))
        .collect();
    let leaves = if pushes.is_empty() {
        "no push".to_owned()
    } else {
        format!("pushes from {}", pushes.join(", "))
    };
    let own = match policy.map(|p| &p.sandbox.confinement.network) {
        Some(crate::confine::Network::Ports(ports)) => format!(
            "; the agent's own TCP: ports {}",
            ports
                .iter()
                .map(u16::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Some(crate::confine::Network::Any) => "; the agent's own TCP: any port".to_owned(),
        _ => String::new(),
    };
    lines.push(format!("its work leaves the machine: {leaves}{own}"));
    let mut kernel = record.kernel.clone();
    if !weak.is_empty() {
        kernel = format!("{kernel}; weaker (--weaker): {}", weak.join("; "));
    }
    lines.push(kernel);
    for line in lines.iter().take(6) {
        writeln!(out.stderr, "git-prism session: {line}")?;
    }
    for line in temp_warnings(loaded, &record.temp_dir.path()) {
        writeln!(out.stderr, "git-prism session: {line}")?;
    }
    out.stderr.flush()?;
    Ok(())
}

/// Test switch (debug builds only): behave as if the kernel refused user namespaces.
fn no_namespaces_for_tests() -> bool {
    #[cfg(debug_assertions)]
    {
        std::env::var_os("GIT_PRISM_TEST_NO_NAMESPACES").is_some()
    }
    #[cfg(not(debug_assertions))]
    {
        false
    }
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

/// One line per repository of the scope the kernel layer cannot hold because the temporary
/// directory, which every call may write, holds it (or lies inside it).
fn temp_warnings(scope: &scope::Scope, temp_dir: &std::path::Path) -> Vec<String> {
    let temp = temp_dir
        .canonicalize()
        .unwrap_or_else(|_| temp_dir.to_owned());
    scope
        .entries
        .iter()
        .filter(|e| {
            let top = e
                .identity
                .work_tree
                .clone()
                .unwrap_or_else(|| e.identity.git_dir.clone());
            top.starts_with(&temp) || temp.starts_with(&top)
        })
        .map(|e| {
            format!(
                "warning: {} and the temporary directory {} overlap: the kernel layer lets every call write there (set TMPDIR elsewhere)",
                e.path.display(),
                temp.display()
            )
        })
        .collect()
}

/// PATH with git-prism's `git` first: as it is when the shim already comes first, else with
/// the installed shim directory in front; an error when the shim is not installed.
fn shim_first_path() -> Result<OsString> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let me = FileId::current_exe();
    let first_git = std::env::split_paths(&path)
        .filter(|d| d.is_absolute())
        .map(|d| d.join("git"))
        .find(|g| g.is_file());
    if first_git.as_deref().and_then(FileId::of) == me && me.is_some() {
        return Ok(path);
    }
    let layout = crate::install::Layout::from_env(None)?;
    let linked = layout.bin_dir.join("git");
    if FileId::of(&linked) == me && me.is_some() {
        let mut dirs = vec![layout.bin_dir.clone()];
        dirs.extend(std::env::split_paths(&path));
        return Ok(std::env::join_paths(dirs)?);
    }
    bail!(
        "the `git` on PATH is not git-prism, so the guard would see no call: run `git-prism shim install` first (or put its directory first on PATH)"
    )
}

/// Prints what the scope allows in the repository of the current directory.
fn check(named: Option<PathBuf>, out: &mut Out<'_>) -> Result<i32> {
    let file = scope_file(named)?;
    let loaded = match scope::load(&file) {
        Ok(s) => s,
        Err(e) => {
            writeln!(out.stdout, "scope: {}", file.display())?;
            writeln!(out.stdout, "invalid: {}", crate::text::chain(&e))?;
            writeln!(
                out.stdout,
                "every repository: read (every write is refused until the file is fixed)"
            )?;
            writeln!(out.stdout, "{}", crate::confine::support().line())?;
            return Ok(exit_codes::FAILURE);
        }
    };
    let record = session::load(&file).ok().flatten();
    match &record {
        Some(r) => {
            writeln!(out.stdout, "scope: {}", r.scope_file.path().display())?;
            writeln!(
                out.stdout,
                "session: {} (started {}; its copy of the scope: {})",
                r.id,
                r.started,
                file.display()
            )?;
        }
        None => writeln!(out.stdout, "scope: {}", file.display())?,
    }
    writeln!(out.stdout, "{}", crate::confine::support().line())?;
    let temp_dir = record.as_ref().map_or_else(
        || {
            std::env::var_os("TMPDIR")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .unwrap_or_else(|| PathBuf::from("/tmp"))
        },
        |r| r.temp_dir.path(),
    );
    for line in temp_warnings(&loaded, &temp_dir) {
        writeln!(out.stdout, "{line}")?;
    }
    let cwd = std::env::current_dir()?;
    let Some(repo) = place::of_call(&cwd, &Default::default()) else {
        writeln!(out.stdout, "repository: none here")?;
        return Ok(exit_codes::SUCCESS);
    };
    let shown = repo
        .work_tree
        .clone()
        .unwrap_or_else(|| repo.git_dir.clone());
    writeln!(out.stdout, "repository: {}", shown.display())?;
    let entry = loaded.entry_for(&repo);
    match entry {
        None => {
            writeln!(out.stdout, "permission: read (not listed)")?;
            writeln!(
                out.stdout,
                "allowed: every read (status, diff, log, show, blame, grep, ls-remote)"
            )?;
            writeln!(
                out.stdout,
                "refused: commits, branches, tags, checkouts, resets, stashes, fetches, pushes, gh writes"
            )?;
        }
        Some(e) => {
            writeln!(out.stdout, "listed as: {}", e.path.display())?;
            writeln!(out.stdout, "permission: {}", e.permission.name())?;
            let (allowed, refused) = match e.permission {
                scope::Permission::Read => (
                    "every read".to_owned(),
                    "anything that changes the repository, pushes, gh writes".to_owned(),
                ),
                scope::Permission::WriteLocal => (
                    "every read and every change on this machine (commit, branch, fetch, ...)"
                        .to_owned(),
                    "pushes, gh writes, anything else that leaves the machine".to_owned(),
                ),
                scope::Permission::WritePush => (
                    "everything, pushes to branches that are not protected".to_owned(),
                    format!(
                        "pushes to {} (and --all, --mirror, --prune, patterns, pushes whose destination cannot be told, gh pr merge)",
                        e.protected.join(", ")
                    ),
                ),
            };
            writeln!(out.stdout, "allowed: {allowed}")?;
            writeln!(out.stdout, "refused: {refused}")?;
        }
    }
    if let Some(f) = log::file() {
        writeln!(out.stdout, "record: {}", f.display())?;
    }
    Ok(exit_codes::SUCCESS)
}

/// `session verify`: the checks of `git-prism verify`, from what the session recorded as it
/// started (each repository's HEAD, its protected paths) and what its record says of skipped
/// hooks.
fn verify(
    session_id: Option<&str>,
    checks: &super::verify::Checks,
    named: &[PathBuf],
    out: &mut Out<'_>,
) -> Result<i32> {
    // Inside a session's sandbox the broker verifies, outside it, with the user's credentials
    // (a `--pushed` check asks the remote).
    if let Some(socket) =
        crate::broker::socket().filter(|_| session_id.is_none() && !crate::broker::is_brokered())
    {
        let args: Vec<OsString> = std::env::args_os()
            .skip_while(|a| a != "session")
            .skip(1)
            .skip_while(|a| a != "verify")
            .skip(1)
            .collect();
        out.stdout.flush()?;
        let ended = crate::broker::client::call(&socket, crate::broker::wire::Kind::Verify, &args)?;
        return Ok(crate::shim::exec::end_as(ended));
    }
    let file = session_scope(session_id)?;
    let record = session::load(&file)?.with_context(|| {
        format!(
            "{} is not the scope of a session `git-prism session` started (no record beside it): use `git-prism verify --since <rev>`",
            file.display()
        )
    })?;
    let repos: Vec<&session::Repo> = if named.is_empty() {
        let writable: Vec<&session::Repo> = record
            .repos
            .iter()
            // A bare repository (a push's destination) holds no work of its own: the
            // `--pushed` check of the repositories that push to it asks about it.
            .filter(|r| r.permission >= scope::Permission::WriteLocal && r.work_tree.is_some())
            .collect();
        if writable.is_empty() {
            bail!(
                "the session's scope lets it write no repository with a work tree: name the repositories to verify"
            );
        }
        writable
    } else {
        let mut found = Vec::new();
        for path in named {
            let id = place::identify(&std::path::absolute(path)?)
                .with_context(|| format!("{} is not a git repository", path.display()))?;
            let repo = record
                .repos
                .iter()
                .find(|r| r.identity().common_dir == id.common_dir)
                .with_context(|| {
                    format!(
                        "{} is not one of the session's repositories",
                        path.display()
                    )
                })?;
            found.push(repo);
        }
        found
    };
    let log = log::read();
    let mut subjects = Vec::new();
    for repo in repos {
        let identity = repo.identity();
        let shown = identity.shown().display().to_string();
        let since = match &repo.head {
            Some(head) => crate::query::verify::Since::SessionStart(
                crate::git::Oid::parse(head)
                    .context("the session record's HEAD is not an object id")?,
            ),
            None => crate::query::verify::Since::Unborn,
        };
        let mut skipped_hooks: Vec<crate::query::verify::SkippedHooks> = log
            .iter()
            .filter(|r| r.session.as_deref() == Some(record.id.as_str()))
            .filter(|r| r.repo.as_deref() == Some(shown.as_str()))
            .filter_map(|r| {
                let how = r.effect.as_ref()?.hooks_skipped.clone()?;
                Some(crate::query::verify::SkippedHooks {
                    time: r.time.clone(),
                    command: r.command.clone(),
                    how,
                })
            })
            .collect();
        // The configuration the session could write, as it is now: hooks pointed elsewhere
        // skip the repository's own, and a remote's address changed means `--pushed` would ask
        // another remote than the one the session started with.
        let own = crate::git::probe::own_config(&identity.shown(), &[]).unwrap_or_default();
        let hooks_now: Vec<(String, session::Bytes)> = crate::guard::config::programs(&own)
            .into_iter()
            .filter(|(k, _)| k == "core.hookspath")
            .collect();
        let hooks_then: Vec<(String, session::Bytes)> = repo
            .programs
            .iter()
            .filter(|(k, _)| k == "core.hookspath")
            .cloned()
            .collect();
        if hooks_now != hooks_then && !crate::confine::test_rule_off("verify-hookspath") {
            let now = hooks_now.last().map_or_else(
                || "unset".to_owned(),
                |(_, v)| v.os().to_string_lossy().into_owned(),
            );
            skipped_hooks.push(crate::query::verify::SkippedHooks {
                time: "now".into(),
                command: format!("core.hooksPath = {now}"),
                how: "core.hooksPath changed in the repository's configuration since the session started".into(),
            });
        }
        let remote_changes = crate::guard::config::remote_changes(
            &repo.remotes,
            &crate::guard::config::remotes(&own),
        );
        let mut protected_paths = repo.protected_paths.clone();
        protected_paths.extend(super::verify::protected(checks).iter().cloned());
        subjects.push(crate::query::verify::Subject {
            location: crate::git::Location::at(&identity.shown())?,
            since,
            protected_paths,
            skipped_hooks: Some(skipped_hooks),
            remote_changes,
        });
    }
    super::verify::run_checks(subjects, checks, out)
}

/// What a write did, on one line: the exit, HEAD's move, what a push sent, skipped hooks and
/// what git did not do.
fn effect_text(e: &crate::guard::observe::Observed) -> String {
    let short = |o: &Option<String>| {
        o.as_deref()
            .map_or_else(|| "nothing".to_owned(), |o| o.chars().take(12).collect())
    };
    let mut parts = vec![match (e.exit, e.signal) {
        (Some(code), _) => format!("exit {code}"),
        (None, Some(sig)) => format!("signal {sig}"),
        (None, None) => "ended".to_owned(),
    }];
    if e.head_before != e.head_after {
        parts.push(format!(
            "HEAD {} -> {}",
            short(&e.head_before),
            short(&e.head_after)
        ));
    } else if e.head_before.is_some() {
        parts.push(format!("HEAD unchanged at {}", short(&e.head_before)));
    }
    for p in &e.pushed {
        if p.before == p.after {
            parts.push(format!("{}: not updated", p.branch));
        } else {
            parts.push(format!(
                "{}: {} -> {}",
                p.branch,
                short(&p.before),
                short(&p.after)
            ));
        }
    }
    if let Some(how) = &e.hooks_skipped {
        parts.push(format!("hooks skipped ({how})"));
    }
    if let Some(note) = &e.note {
        parts.push(note.clone());
    }
    parts.join("; ")
}

/// Prints the guard's record (of one session, when one is named).
fn show_log(
    session_id: Option<&str>,
    json: bool,
    last: Option<usize>,
    out: &mut Out<'_>,
) -> Result<i32> {
    let id = match session_id {
        Some(id) => Some(
            session::load(&session_dir(id)?.join(session::SCOPE_FILE))?
                .context("the session's record cannot be read")?
                .id,
        ),
        None => None,
    };
    let records: Vec<log::Entry> = log::read()
        .into_iter()
        .filter(|r| id.is_none() || r.session == id)
        .collect();
    let skip = last.map_or(0, |n| records.len().saturating_sub(n));
    if records.is_empty() && !json {
        writeln!(
            out.stdout,
            "no records yet ({})",
            log::file().map_or_else(
                || "no state directory".to_owned(),
                |f| f.display().to_string()
            )
        )?;
    }
    for r in &records[skip..] {
        if json {
            writeln!(out.stdout, "{}", crate::json::to_string(r)?)?;
        } else {
            writeln!(
                out.stdout,
                "{}  {:<7}  {}  [{}]  {}  — {}",
                r.time,
                r.decision,
                r.repo.as_deref().unwrap_or("-"),
                r.permission,
                r.command,
                r.rule
            )?;
            if let Some(effect) = &r.effect {
                writeln!(out.stdout, "    {}", effect_text(effect))?;
            }
        }
    }
    Ok(exit_codes::SUCCESS)
}
