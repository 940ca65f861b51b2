//! Hooks of a call that needs the network (ADR 16): git runs them inside the call's Landlock
//! domain, which lets the transport connect out; a hook must not be a second way out. Landlock
//! only narrows, so the shim points git's `core.hooksPath` (through `GIT_CONFIG_COUNT`, which
//! the repository's configuration, a clone's `-c` and its template cannot override) at a
//! directory of links to git-prism named after every hook, and this wrapper, run as the hook:
//!
//! 1. confines itself further: no TCP, writes only where the call's own repository allows
//!    (never the repository a push writes into);
//! 2. for `pre-push`, reads the refs git is about to update on the remote — git's own
//!    statement, after every refspec, symbolic ref and configuration has been applied — and
//!    refuses when one is a protected branch;
//! 3. execs the hook the repository would have run (its `core.hooksPath` without the shim's,
//!    else `hooks/` in its common directory), if there is one.
//!
//! A call that sets `core.hooksPath` itself on the command line (which would win over the
//! shim's) gets no network from the kernel layer at all.

use std::ffi::{OsStr, OsString};
use std::io::{Read, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

use crate::confine::{Confinement, Network};

/// Every hook git runs by name (githooks(5)).
pub const HOOKS: &[&str] = &[
    "applypatch-msg",
    "pre-applypatch",
    "post-applypatch",
    "pre-commit",
    "pre-merge-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "pre-rebase",
    "post-checkout",
    "post-merge",
    "pre-push",
    "pre-receive",
    "update",
    "proc-receive",
    "post-receive",
    "post-update",
    "reference-transaction",
    "push-to-checkout",
    "pre-auto-gc",
    "post-rewrite",
    "sendemail-validate",
    "fsmonitor-watchman",
    "p4-changelist",
    "p4-prepare-changelist",
    "p4-post-changelist",
    "p4-pre-submit",
    "post-index-change",
];

/// The variable naming the directories a hook may write (one per line).
pub const DIRS_VAR: &str = "GIT_PRISM_HOOK_DIRS";
/// The variable naming the files a hook may write (one per line).
pub const FILES_VAR: &str = "GIT_PRISM_HOOK_FILES";
/// The variable naming the protected branches a `pre-push` hook checks (one per line).
pub const PROTECTED_VAR: &str = "GIT_PRISM_HOOK_PROTECTED";
/// The variable giving the index of the shim's `core.hooksPath` among `GIT_CONFIG_KEY_<n>`.
pub const INDEX_VAR: &str = "GIT_PRISM_HOOK_INDEX";

/// What the hooks of a network call may do.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// Directories a hook may write.
    pub dirs: Vec<PathBuf>,
    /// Files a hook may write.
    pub files: Vec<PathBuf>,
    /// Branches a push must not update (checked by the `pre-push` wrapper).
    pub protected: Vec<String>,
}

impl Plan {
    /// The hooks' plan for a decision: its files, and the directories `dirs` (the call's own
    /// places, without those of a repository a push writes into).
    pub fn new(d: &super::Decision, dirs: Vec<PathBuf>) -> Plan {
        let (base_dirs, files) = d
            .confinement
            .as_ref()
            .map(|c| (c.dirs.clone(), c.files.clone()))
            .unwrap_or_default();
        let dirs = if dirs.is_empty() { base_dirs } else { dirs };
        Plan {
            dirs,
            files,
            protected: Vec::new(),
        }
    }

    /// The variables the shim sets for git so that its hooks run through the wrapper in
    /// `wrapper`: `core.hooksPath` appended to the configuration git reads from the
    /// environment (which holds `count` entries before it), and the plan.
    pub fn environment(&self, wrapper: &Path, count: usize) -> Vec<(String, OsString)> {
        let lines = |paths: &[PathBuf]| {
            let mut out = Vec::new();
            for p in paths {
                let b = p.as_os_str().as_bytes();
                // A path holding a line break cannot be passed: it is granted nothing.
                if !b.contains(&b'\n') {
                    out.extend_from_slice(b);
                    out.push(b'\n');
                }
            }
            OsString::from_vec(out)
        };
        vec![
            ("GIT_CONFIG_COUNT".into(), (count + 1).to_string().into()),
            (format!("GIT_CONFIG_KEY_{count}"), "core.hooksPath".into()),
            (
                format!("GIT_CONFIG_VALUE_{count}"),
                wrapper.as_os_str().to_owned(),
            ),
            (INDEX_VAR.into(), count.to_string().into()),
            (DIRS_VAR.into(), lines(&self.dirs)),
            (FILES_VAR.into(), lines(&self.files)),
            (PROTECTED_VAR.into(), self.protected.join("\n").into()),
        ]
    }
}

/// The directory of hook links for a call under the scope file `scope`: the session's own
/// (beside its record), else `hooks` in the state directory; made or repaired so that every
/// link names this binary. `None` when it cannot be made.
pub fn wrapper_dir(scope: &Path, has_record: bool) -> Option<PathBuf> {
    let dir = if has_record {
        scope.parent()?.join("hooks")
    } else {
        super::log::dir()?.join("hooks")
    };
    let exe = std::fs::read_link("/proc/self/exe")
        .ok()
        .or_else(|| std::env::current_exe().ok())?;
    if std::fs::symlink_metadata(&dir).is_err() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&dir)
            .ok()?;
    }
    let meta = std::fs::symlink_metadata(&dir).ok()?;
    if !meta.is_dir() {
        return None;
    }
    for name in HOOKS {
        let link = dir.join(name);
        if std::fs::read_link(&link).ok().as_deref() == Some(exe.as_path()) {
            continue;
        }
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&exe, &link).ok()?;
    }
    Some(dir)
}

/// Whether `name` (the stem of `argv[0]`) is a hook's: git-prism then runs as the wrapper.
pub fn is_hook(name: &OsStr) -> bool {
    HOOKS.iter().any(|h| h.as_bytes() == name.as_bytes())
}

/// Whether a remote ref a push updates is one of `protected` (`refs/heads/<pattern>`).
fn protected_ref(remote_ref: &str, protected: &[String]) -> Option<String> {
    let branch = remote_ref.strip_prefix("refs/heads/")?;
    protected
        .iter()
        .any(|p| super::scope::glob_matches(p, branch))
        .then(|| branch.to_owned())
}

/// What the wrapper does, decided before it execs anything.
#[derive(Debug)]
pub enum HookStep {
    /// Refused: the line to print.
    Refuse(String),
    /// Run this hook (with these bytes on its standard input, when they were read).
    Run(PathBuf, Option<Vec<u8>>),
    /// No hook to run.
    Nothing,
}

/// Runs as the hook `name` with git's arguments for it (`args`: a `pre-push` hook's are the
/// remote's name and address): confines itself, checks a push's refs, and finds the
/// repository's own hook. The edge (`crate::shim::hook`) prints and execs.
pub fn wrap(name: &str, args: &[OsString], stdin: &mut dyn Read) -> HookStep {
    let var_lines = |var: &str| -> Vec<PathBuf> {
        std::env::var_os(var)
            .map(|v| {
                v.as_bytes()
                    .split(|b| *b == b'\n')
                    .filter(|l| !l.is_empty())
                    .map(|l| PathBuf::from(OsStr::from_bytes(l)))
                    .collect()
            })
            .unwrap_or_default()
    };
    let confinement = Confinement {
        dirs: var_lines(DIRS_VAR),
        files: var_lines(FILES_VAR),
        network: Network::None,
    };
    if !test_switch_off("GIT_PRISM_TEST_KERNEL_LAYER") {
        if let Err(e) = crate::confine::apply(&confinement) {
            return HookStep::Refuse(format!(
                "git-prism guard: refused the `{name}` hook: {}; ask the user to run the command outside the session",
                crate::text::chain(&e)
            ));
        }
    }
    let mut input = None;
    if name == "pre-push" {
        let mut bytes = Vec::new();
        if stdin.read_to_end(&mut bytes).is_err() {
            return HookStep::Refuse(
                "git-prism guard: refused the push: the refs it updates cannot be read; ask the user to push outside the session".into(),
            );
        }
        let protected: Vec<String> = std::env::var(PROTECTED_VAR)
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect();
        for line in String::from_utf8_lossy(&bytes).lines() {
            let remote_ref = line.split(' ').nth(2).unwrap_or_default();
            if let Some(branch) = protected_ref(remote_ref, &protected) {
                let remote = args
                    .first()
                    .map_or_else(|| "origin".into(), |r| crate::shell::quote(r));
                return HookStep::Refuse(format!(
                    "git-prism guard: refused the push of `{branch}`: a protected branch (protected: {}); push the work to a branch of your own instead (`git push {remote} HEAD:refs/heads/<new-branch>`) and open a pull request into `{branch}`, or ask the user to push it outside the session",
                    protected.join(", ")
                ));
            }
        }
        input = Some(bytes);
    }
    match own_hook(name) {
        Some(path) => HookStep::Run(path, input),
        None => HookStep::Nothing,
    }
}

/// The hook the repository would have run without the shim's `core.hooksPath`.
fn own_hook(name: &str) -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    let dir = match configured_hooks_path(&cwd) {
        Some(p) => cwd.join(p),
        None => {
            let found = crate::git::probe::discover(&cwd, &[], false).ok()??;
            found.common_dir.join("hooks")
        }
    };
    let path = dir.join(name);
    let meta = std::fs::metadata(&path).ok()?;
    let wrapper = std::fs::canonicalize(&path).ok();
    let me = std::fs::read_link("/proc/self/exe").ok();
    // The wrapper itself (a repository pointed at the shim's directory) is never run again.
    if wrapper.is_some() && wrapper == me {
        return None;
    }
    use std::os::unix::fs::PermissionsExt;
    (meta.is_file() && meta.permissions().mode() & 0o111 != 0).then_some(path)
}

/// `core.hooksPath` as the repository's configuration has it, without the shim's entry.
fn configured_hooks_path(cwd: &Path) -> Option<OsString> {
    let index: usize = std::env::var(INDEX_VAR).ok()?.parse().ok()?;
    // Git reads `GIT_CONFIG_COUNT` entries below the count: the shim's is the last one, so
    // the configuration without it is the same with the count lowered.
    let value = crate::git::probe::config_value_with_count(cwd, "core.hooksPath", index)?;
    (!value.is_empty()).then(|| OsString::from(value))
}

/// Whether a switch for tests only is set to `off` (never in a release build).
pub fn test_switch_off(name: &str) -> bool {
    #[cfg(debug_assertions)]
    {
        std::env::var_os(name).is_some_and(|v| v == "off")
    }
    #[cfg(not(debug_assertions))]
    {
        let _ = name;
        false
    }
}

/// Writes `bytes` where a hook can read them as its standard input: a memory file.
#[allow(unsafe_code, reason = "memfd_create and dup2 have no wrapper in std")]
pub fn stdin_from(bytes: &[u8]) -> std::io::Result<()> {
    let name = std::ffi::CString::new("git-prism-pre-push").map_err(std::io::Error::other)?;
    // SAFETY: a valid NUL-terminated name and no flags that need anything else.
    let fd = unsafe { libc::memfd_create(name.as_ptr(), 0) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `fd` was just returned by memfd_create and is owned here.
    let mut file = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(fd) };
    file.write_all(bytes)?;
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(0))?;
    // SAFETY: both descriptors are valid; dup2 replaces standard input.
    if unsafe { libc::dup2(fd, 0) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}
