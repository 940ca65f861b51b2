//! `git-prism session` as it starts ([`start`]): the scope loaded, what the kernel holds
//! here said (and refused unless `--weaker`), the session's places made, its record written
//! (the scope's repositories as they are, the environment that names programs, the sandbox
//! computed from the scope), then the agent started: in place of this process when there is
//! no sandbox, else in its sandbox ([`super::agent`]).

use std::ffi::{OsStr, OsString};
use std::os::unix::fs::DirBuilderExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::super::Out;
use super::agent;
use super::check::temp_warnings;
use super::scope_file;
use crate::git::probe::Stamp;
use crate::guard::{log, sandbox, scope, session};
use crate::locate::FileId;

/// Checks the scope, records the session (a copy of the scope and what the environment named
/// as it started, `guard::session`), then starts the agent's command in a sandbox derived
/// from the scope (`guard::sandbox`, ADR 19) with `GIT_PRISM_SCOPE` naming the session's scope
/// and git-prism's `git` first on PATH, and serves its git writes as the broker
/// (`broker::server`) until it ends; ends as the agent ended.
pub(super) fn start(
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
    let setup = Setup::new(named, weaker)?;
    let repos = recorded_repos(&setup.loaded);
    let policy = match setup.sandboxed {
        true => Some(setup.policy(&repos, program)?),
        false => None,
    };
    let record = setup.record(&command, repos, policy.as_ref());
    let scope_copy = session::create(&setup.state, &setup.text, &record)?;
    // The hooks of network calls run through links made now, beside the record.
    let _ = crate::guard::hook::wrapper_dir(&scope_copy, true);
    let started = Started {
        setup,
        record,
        scope_copy,
    };
    match policy {
        None => {
            let s = &started.setup;
            say_started(out, &started.record, &s.loaded, None, &s.weak)?;
            Err(exec_unconfined(program, rest, &started.scope_copy, &s.path))
        }
        Some(policy) => agent::run(&started, &policy, program, rest, out),
    }
}

/// Where a session starts, found before anything is recorded: its scope, the state directory,
/// what the kernel holds here, and the places made for it.
pub(super) struct Setup {
    /// The scope file named (absolute).
    file: PathBuf,
    /// The scope as loaded.
    pub loaded: scope::Scope,
    /// The scope file's text (the session keeps a copy).
    text: Vec<u8>,
    /// `PATH` with git-prism's `git` first.
    pub path: OsString,
    /// The state directory.
    pub state: PathBuf,
    /// What the kernel supports.
    support: crate::confine::Support,
    /// Whether the agent runs in a sandbox (the kernel has Landlock).
    sandboxed: bool,
    /// Whether the kernel gives user namespaces.
    pub namespaces: bool,
    /// What the kernel cannot hold (said as the session starts).
    pub weak: Vec<String>,
    /// The temporary directory the session was started with.
    base_temp: PathBuf,
    /// The agent's temporary directory (private when sandboxed).
    pub temp_dir: PathBuf,
    /// The session's id.
    id: String,
    /// The directory the session starts in.
    pub cwd: PathBuf,
    /// The session's directory under the state directory.
    pub session_dir: PathBuf,
    /// The broker's socket.
    pub socket: PathBuf,
    /// The home directory.
    home: Option<PathBuf>,
}

impl Setup {
    /// Loads the scope `named` and finds the session's places; an error when the kernel cannot
    /// hold the sandbox unless `weaker`.
    fn new(named: PathBuf, weaker: bool) -> Result<Setup> {
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
        // What the kernel can hold here; anything it cannot is said, and refused unless
        // --weaker.
        let namespaces =
            !no_namespaces_for_tests() && crate::confine::sandbox::namespaces_available();
        let weak = weaknesses(support, namespaces);
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
        Ok(Setup {
            file,
            loaded,
            text,
            path,
            support,
            sandboxed,
            namespaces,
            weak,
            base_temp,
            temp_dir,
            id,
            cwd,
            socket: session_dir.join("broker.sock"),
            session_dir,
            state,
            home: std::env::var_os("HOME")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute()),
        })
    }

    /// The agent's sandbox, computed from the scope (`guard::sandbox`).
    fn policy(&self, repos: &[session::Repo], program: &OsStr) -> Result<sandbox::Policy> {
        let var = |name: &str| std::env::var_os(name);
        let links = |tree: &Path| crate::git::probe::gitlinks(tree);
        Ok(sandbox::policy(&sandbox::Inputs {
            repos,
            settings: &self.loaded.sandbox,
            home: self.home.clone(),
            cwd: self.cwd.clone(),
            temp_dir: self.temp_dir.clone(),
            state_dir: self.state.clone(),
            session_dir: self.session_dir.clone(),
            empty_file: self.session_dir.join("empty"),
            program: program.to_owned(),
            var: &var,
            gitlinks: &links,
        })?)
    }

    /// The session's record: the scope, the command, what the environment named as it
    /// started, the repositories, the sandbox.
    fn record(
        &self,
        command: &[OsString],
        repos: Vec<session::Repo>,
        policy: Option<&sandbox::Policy>,
    ) -> session::Record {
        session::Record {
            version: session::VERSION,
            id: self.id.clone(),
            started: crate::time::now_rfc3339(),
            scope_file: session::Bytes::of(self.file.as_os_str()),
            command: command.iter().map(|a| session::Bytes::of(a)).collect(),
            cwd: session::Bytes::of(self.cwd.as_os_str()),
            temp_dir: session::Bytes::of(self.base_temp.as_os_str()),
            environment: crate::guard::session_vars()
                .map(str::to_owned)
                .chain(crate::guard::config_env_vars())
                .filter_map(|v| std::env::var_os(&v).map(|value| (v, session::Bytes::of(&value))))
                .collect(),
            repos,
            kernel: self.support.line(),
            sandbox: policy.map(|p| session::Sandbox {
                settings: self.loaded.sandbox.clone(),
                socket: session::Bytes::of(self.socket.as_os_str()),
                temp_dir: session::Bytes::of(self.temp_dir.as_os_str()),
                hidden: p
                    .sandbox
                    .hidden
                    .iter()
                    .map(|h| session::Bytes::of(h.path.as_os_str()))
                    .collect(),
                namespaces: self.namespaces,
            }),
        }
    }
}

/// A session recorded: its setup, its record, and the copy of its scope the guard reads.
pub(super) struct Started {
    /// Where it starts.
    pub setup: Setup,
    /// Its record.
    pub record: session::Record,
    /// The session's copy of the scope (`GIT_PRISM_SCOPE` names it).
    pub scope_copy: PathBuf,
}

/// What the kernel cannot hold here, one line each.
fn weaknesses(support: crate::confine::Support, namespaces: bool) -> Vec<String> {
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
    weak
}

/// The scope's repositories as the record keeps them: where they are, their HEAD, and the
/// settings of their configuration that name programs and remotes.
fn recorded_repos(loaded: &scope::Scope) -> Vec<session::Repo> {
    loaded
        .entries
        .iter()
        .map(|e| {
            let top = e
                .identity
                .work_tree
                .clone()
                .unwrap_or_else(|| e.identity.git_dir.clone());
            let (git_dir, common_dir) = (&e.identity.git_dir, &e.identity.common_dir);
            let before = Stamp::of(git_dir, common_dir);
            let read = crate::git::probe::own_config(&top, &[]);
            let after = Stamp::of(git_dir, common_dir);
            let config_stamp = match &read {
                Ok(own) => Stamp::recorded(before, after, own, std::time::SystemTime::now()),
                Err(_) => None,
            };
            let own = read.unwrap_or_default();
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
                config_stamp,
            }
        })
        .collect()
}

/// Runs the agent's command in place of this process, without a sandbox (the kernel has no
/// Landlock): only its git and gh calls are held, by the guard. Returns only when it cannot.
fn exec_unconfined(
    program: &OsStr,
    rest: &[OsString],
    scope_copy: &Path,
    path: &OsStr,
) -> anyhow::Error {
    let mut command = std::process::Command::new(program);
    command
        .args(rest)
        .env(scope::SCOPE_VAR, scope_copy)
        .env("PATH", path);
    let err = command.exec();
    anyhow::Error::new(err).context(format!("cannot run {}", program.to_string_lossy()))
}

/// Says in at most six lines what the session holds: its id, what the agent may write and
/// may not read, where its work leaves the machine, and what the kernel holds.
pub(super) fn say_started(
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
        .map(|e| {
            format!(
                "{} {}",
                e.permission.name(),
                crate::paths::normal(&e.path).display()
            )
        })
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
        .map(|e| {
            format!(
                "{} (never {})",
                crate::paths::normal(&e.path).display(),
                e.protected.join(", ")
            )
        })
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
    for line in temp_warnings(loaded, &record.temp_dir.path())
        .iter()
        .chain(&loaded.warnings)
    {
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

/// The session's private temporary directory, made new (0700) under `base`.
fn private_temp(base: &Path, id: &str) -> Result<PathBuf> {
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
