//! The agent's sandbox (ADR 19): a [`Sandbox`] — what is hidden, what is read-only, what may
//! be written and connected to — put around a new process just before it execs the agent, so
//! that the agent and everything it starts hold to it, whichever program they run.
//!
//! Two mechanisms, in this order, in the child between `fork` and `execve` ([`spawn`]):
//!
//! 1. **A user and mount namespace** ([`Sandbox::namespaces`]): a mount namespace of its own
//!    (inside a new user namespace that maps only the caller's own user and group; for root
//!    without user namespaces, a mount namespace alone), whose mounts receive nothing back
//!    from it. In it, each hidden directory is covered by an empty read-only tmpfs (with the
//!    few paths inside it that must stay visible bound back: [`Hidden::reveal`]), each hidden
//!    file by an empty read-only file, and each read-only path (the git directories inside a
//!    writable work tree) bound onto itself read-only. Landlock can only grant, so a git
//!    directory inside a work tree the agent may write cannot be carved out by it alone; a
//!    read-only mount can.
//! 2. **Landlock** ([`super::Confinement`]): writes only where granted, TCP connections only to
//!    the given ports, no signal to a process outside the domain; once in force, no mount can be
//!    changed, so the namespace's mounts hold too.
//!
//! Before both, the capabilities that reach past paths (reading files by handle, raw devices,
//! mounts, tracing) leave the bounding set, so a root agent cannot regain them by an `execve`.
//!
//! Everything is built before the fork (`Sandbox::prepare`): the child only makes system
//! calls on memory allocated before it, and reports the first one that fails through a pipe
//! (which step, and `errno`), so the caller can say exactly what the kernel refused. Nothing
//! here decides what to hide or allow: `guard::sandbox` computes the policy from the scope.

use std::ffi::{CString, OsStr, OsString};
use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};

use super::{ConfineError, Confinement, Prepared};

/// What a sandboxed process may see, write and reach.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sandbox {
    /// Whether to hide and make read-only with a mount namespace (without it, only Landlock
    /// holds: the caller has said it accepts the weaker sandbox).
    pub namespaces: bool,
    /// Paths covered by something empty and read-only (directories by a tmpfs, files by
    /// [`Sandbox::empty_file`]).
    pub hidden: Vec<Hidden>,
    /// Paths bound onto themselves read-only.
    pub read_only: Vec<PathBuf>,
    /// An empty regular file that hides files.
    pub empty_file: PathBuf,
    /// What may be written and connected to.
    pub confinement: Confinement,
}

/// A hidden path, and the paths inside it that stay as they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hidden {
    /// The path (absolute, links resolved).
    pub path: PathBuf,
    /// Paths inside it that stay visible (the session's own directory inside the hidden
    /// directory of every session).
    pub reveal: Vec<PathBuf>,
}

impl Hidden {
    /// A path hidden whole.
    pub fn whole(path: PathBuf) -> Hidden {
        Hidden {
            path,
            reveal: Vec::new(),
        }
    }
}

/// The step of the sandbox's set-up the kernel refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Creating the user and mount namespace.
    Namespace,
    /// Mapping the user and group into the user namespace.
    IdMap,
    /// Keeping the namespace's mounts from propagating out.
    Private,
    /// Hiding a path.
    Hide,
    /// Making a path read-only.
    ReadOnly,
    /// Dropping capabilities.
    Capabilities,
    /// Putting the Landlock rules in force.
    Landlock,
    /// Returning to the working directory.
    Cwd,
}

impl Step {
    fn code(self) -> u32 {
        self as u32
    }

    fn from_code(code: u32) -> Option<Step> {
        [
            Step::Namespace,
            Step::IdMap,
            Step::Private,
            Step::Hide,
            Step::ReadOnly,
            Step::Capabilities,
            Step::Landlock,
            Step::Cwd,
        ]
        .into_iter()
        .find(|s| s.code() == code)
    }

    fn what(self) -> &'static str {
        match self {
            Step::Namespace => "cannot create a user and mount namespace",
            Step::IdMap => "cannot map the user into the user namespace",
            Step::Private => "cannot make the namespace's mounts private",
            Step::Hide => "cannot hide a path",
            Step::ReadOnly => "cannot make a path read-only",
            Step::Capabilities => "cannot drop capabilities",
            Step::Landlock => "cannot put the Landlock rules in force",
            Step::Cwd => "cannot return to the working directory",
        }
    }
}

/// The error returned by [`spawn`].
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The rules could not be built.
    #[error("cannot build the sandbox's rules")]
    Rules(#[from] ConfineError),
    /// A path or argument holds a NUL byte.
    #[error("{0} holds a NUL byte")]
    Nul(String),
    /// The kernel refused a step of the set-up.
    #[error("{}{}", .step.what(), .path.as_ref().map(|p| format!(" ({})", p.display())).unwrap_or_default())]
    Refused {
        /// The step.
        step: Step,
        /// The path the step was about, when it was about one.
        path: Option<PathBuf>,
        /// The kernel's error.
        #[source]
        source: io::Error,
    },
    /// The program could not be started.
    #[error("cannot run {}", .program.to_string_lossy())]
    Exec {
        /// The program.
        program: OsString,
        /// Why.
        #[source]
        source: io::Error,
    },
}

impl SandboxError {
    /// Whether the kernel refused the namespaces themselves (user namespaces disabled): the
    /// one failure a weaker sandbox (Landlock alone) avoids.
    pub fn namespaces_refused(&self) -> bool {
        matches!(
            self,
            SandboxError::Refused {
                step: Step::Namespace | Step::IdMap,
                ..
            }
        )
    }
}

/// One mount made in the child.
enum Mount {
    /// An empty tmpfs (writable until [`Mount::Seal`], so reveal points can be made in it).
    Tmpfs { target: CString },
    /// A directory made inside a tmpfs (a reveal point or one of its parents).
    Mkdir { path: CString },
    /// A file made inside a tmpfs (a reveal point).
    Touch { path: CString },
    /// A bind mount.
    Bind { source: CString, target: CString },
    /// A bind mount made read-only, keeping the flags an unprivileged namespace may not drop.
    ReadOnly {
        target: CString,
        flags: libc::c_ulong,
    },
    /// A tmpfs made read-only.
    Seal { target: CString },
}

/// A sandbox ready for a fork: every path converted, every descriptor open, the Landlock
/// ruleset built.
struct Plan {
    namespaces: bool,
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
    root: bool,
    mounts: Vec<(Mount, usize)>,
    paths: Vec<PathBuf>,
    cwd: CString,
    landlock: Option<Prepared>,
    /// Descriptors the bind mounts read from (`/proc/self/fd/<n>`), kept open until the exec.
    _held: Vec<OwnedFd>,
}

/// Capabilities that reach past paths and mounts: reading files by handle, device nodes, raw
/// I/O, mounts and namespaces, tracing, modules, the clock, and the like.
const DROPPED_CAPABILITIES: &[libc::c_int] = &[
    2,  // CAP_DAC_READ_SEARCH: open_by_handle_at
    9,  // CAP_LINUX_IMMUTABLE
    12, // CAP_NET_ADMIN
    16, // CAP_SYS_MODULE
    17, // CAP_SYS_RAWIO
    18, // CAP_SYS_CHROOT
    19, // CAP_SYS_PTRACE
    21, // CAP_SYS_ADMIN
    22, // CAP_SYS_BOOT
    25, // CAP_SYS_TIME
    27, // CAP_MKNOD
    31, // CAP_SETFCAP
    32, // CAP_MAC_OVERRIDE
    33, // CAP_MAC_ADMIN
    34, // CAP_SYSLOG
    38, // CAP_PERFMON
    39, // CAP_BPF
];

fn cstring(path: &Path) -> Result<CString, SandboxError> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| SandboxError::Nul(path.display().to_string()))
}

/// The mount flags a read-only remount must keep (an unprivileged mount namespace may not
/// clear them), from the flags of the mount `path` is on.
fn locked_flags(path: &Path) -> libc::c_ulong {
    let Ok(stat) = rustix::fs::statvfs(path) else {
        return 0;
    };
    let f = stat.f_flag;
    let mut flags = 0;
    for (st, ms) in [
        (rustix::fs::StatVfsMountFlags::NOSUID, libc::MS_NOSUID),
        (rustix::fs::StatVfsMountFlags::NODEV, libc::MS_NODEV),
        (rustix::fs::StatVfsMountFlags::NOEXEC, libc::MS_NOEXEC),
        (rustix::fs::StatVfsMountFlags::NOATIME, libc::MS_NOATIME),
        (
            rustix::fs::StatVfsMountFlags::NODIRATIME,
            libc::MS_NODIRATIME,
        ),
        (rustix::fs::StatVfsMountFlags::RELATIME, libc::MS_RELATIME),
    ] {
        if f.contains(st) {
            flags |= ms;
        }
    }
    flags
}

impl Sandbox {
    /// Builds everything the child needs, for a process that will run in `cwd`.
    fn prepare(&self, cwd: &Path) -> Result<Plan, SandboxError> {
        let uid = rustix::process::getuid().as_raw();
        let gid = rustix::process::getgid().as_raw();
        let mut plan = Plan {
            namespaces: self.namespaces,
            uid_map: format!("{uid} {uid} 1").into_bytes(),
            gid_map: format!("{gid} {gid} 1").into_bytes(),
            root: uid == 0,
            mounts: Vec::new(),
            paths: Vec::new(),
            cwd: cstring(cwd)?,
            landlock: Some(super::prepare(&self.confinement)?),
            _held: Vec::new(),
        };
        if !self.namespaces {
            return Ok(plan);
        }
        for hidden in &self.hidden {
            plan.hide(hidden, &self.empty_file)?;
        }
        for path in &self.read_only {
            plan.bind_read_only(path)?;
        }
        Ok(plan)
    }
}

impl Plan {
    /// The mounts that hide `hidden` (when it exists): a file under `empty_file`, read-only;
    /// a directory under a tmpfs, with its reveal points bound back, then sealed.
    fn hide(&mut self, hidden: &Hidden, empty_file: &Path) -> Result<(), SandboxError> {
        let Ok(meta) = std::fs::symlink_metadata(&hidden.path) else {
            return Ok(());
        };
        let index = self.paths.len();
        self.paths.push(hidden.path.clone());
        let target = cstring(&hidden.path)?;
        if !meta.is_dir() {
            let empty = cstring(empty_file)?;
            self.mounts.push((
                Mount::Bind {
                    source: empty,
                    target: target.clone(),
                },
                index,
            ));
            self.mounts.push((
                Mount::ReadOnly {
                    target,
                    flags: locked_flags(empty_file),
                },
                index,
            ));
            return Ok(());
        }
        self.mounts.push((
            Mount::Tmpfs {
                target: target.clone(),
            },
            index,
        ));
        for reveal in &hidden.reveal {
            self.reveal(&hidden.path, reveal, index)?;
        }
        self.mounts.push((Mount::Seal { target }, index));
        Ok(())
    }

    /// The mounts that keep `reveal`, inside the hidden directory `hidden` (mount `index`),
    /// visible: its parents made in the tmpfs, and it bound back from a descriptor opened now
    /// (when it exists).
    fn reveal(&mut self, hidden: &Path, reveal: &Path, index: usize) -> Result<(), SandboxError> {
        let Ok(inside) = reveal.strip_prefix(hidden) else {
            return Ok(());
        };
        let Ok(fd) = rustix::fs::open(
            reveal,
            rustix::fs::OFlags::PATH | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        ) else {
            return Ok(());
        };
        let is_dir = std::fs::metadata(reveal).is_ok_and(|m| m.is_dir());
        let mut at = hidden.to_owned();
        let parts: Vec<_> = inside.components().collect();
        for (i, part) in parts.iter().enumerate() {
            at.push(part);
            let path = cstring(&at)?;
            let last = i + 1 == parts.len();
            self.mounts.push((
                if last && !is_dir {
                    Mount::Touch { path }
                } else {
                    Mount::Mkdir { path }
                },
                index,
            ));
        }
        let source = CString::new(format!("/proc/self/fd/{}", fd.as_raw_fd()))
            .map_err(|_| SandboxError::Nul("a descriptor path".into()))?;
        self.mounts.push((
            Mount::Bind {
                source,
                target: cstring(reveal)?,
            },
            index,
        ));
        self._held.push(fd);
        Ok(())
    }

    /// The mounts that make `path` (when it exists) read-only: bound onto itself, remounted.
    fn bind_read_only(&mut self, path: &Path) -> Result<(), SandboxError> {
        if std::fs::symlink_metadata(path).is_err() {
            return Ok(());
        }
        let index = self.paths.len();
        self.paths.push(path.to_owned());
        let target = cstring(path)?;
        self.mounts.push((
            Mount::Bind {
                source: target.clone(),
                target: target.clone(),
            },
            index,
        ));
        self.mounts.push((
            Mount::ReadOnly {
                target,
                flags: locked_flags(path),
            },
            index,
        ));
        Ok(())
    }
}

/// Where a step failed in the child: the step, the path's index in [`Plan::paths`] (or
/// [`NO_PATH`]), and `errno`.
type Failure = (Step, u32, i32);

/// The path index of a step that names no path.
const NO_PATH: u32 = u32::MAX;

/// The calling thread's `errno`.
fn errno() -> i32 {
    io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

impl Plan {
    /// Sets the sandbox up on the calling process. Runs in the child between `fork` and
    /// `execve`: system calls only, on memory allocated before the fork.
    #[allow(unsafe_code, reason = "chdir has no async-signal-safe wrapper")]
    fn enter(&mut self) -> Result<(), Failure> {
        if self.namespaces {
            self.unshare()?;
            make_private()?;
            for (mount, index) in &self.mounts {
                let (step, r) = mount.make();
                if r != 0 {
                    return Err((step, *index as u32, errno()));
                }
            }
        }
        drop_capabilities()?;
        if let Some(landlock) = self.landlock.take() {
            if landlock.restrict_self().is_err() {
                return Err((Step::Landlock, NO_PATH, errno()));
            }
        }
        // SAFETY: chdir on a string made before the fork: the working directory as the
        // namespace shows it (a read-only mount over it takes effect).
        if unsafe { libc::chdir(self.cwd.as_ptr()) } != 0 {
            return Err((Step::Cwd, NO_PATH, errno()));
        }
        Ok(())
    }

    /// Enters a new user and mount namespace mapping only the caller's user and group; for
    /// root where user namespaces are off, a mount namespace alone (the capabilities that
    /// could undo it are dropped later).
    #[allow(unsafe_code, reason = "unshare has no async-signal-safe wrapper")]
    fn unshare(&self) -> Result<(), Failure> {
        // SAFETY: unshare takes flags only.
        let userns = unsafe { libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS) } == 0;
        if userns {
            return self.map_ids();
        }
        let first = errno();
        // SAFETY: unshare takes flags only.
        if !self.root || unsafe { libc::unshare(libc::CLONE_NEWNS) } != 0 {
            return Err((Step::Namespace, NO_PATH, first));
        }
        Ok(())
    }

    /// Maps the caller's user and group into the new user namespace.
    #[allow(
        unsafe_code,
        reason = "raw writes to /proc: no async-signal-safe wrapper"
    )]
    fn map_ids(&self) -> Result<(), Failure> {
        for (file, bytes) in [
            (c"/proc/self/setgroups", &b"deny"[..]),
            (c"/proc/self/uid_map", &self.uid_map[..]),
            (c"/proc/self/gid_map", &self.gid_map[..]),
        ] {
            // SAFETY: open/write/close on a static path and a buffer made before the fork.
            let ok = unsafe {
                let fd = libc::open(file.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
                let ok = fd >= 0
                    && libc::write(fd, bytes.as_ptr().cast(), bytes.len()) == bytes.len() as isize;
                if fd >= 0 {
                    libc::close(fd);
                }
                ok
            };
            if !ok {
                return Err((Step::IdMap, NO_PATH, errno()));
            }
        }
        Ok(())
    }
}

/// Keeps the namespace's mounts from propagating out (every mount a slave).
#[allow(unsafe_code, reason = "mount has no async-signal-safe wrapper")]
fn make_private() -> Result<(), Failure> {
    // SAFETY: mount with a static path and null pointers where the kernel takes none.
    let private = unsafe {
        libc::mount(
            std::ptr::null(),
            c"/".as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_SLAVE,
            std::ptr::null(),
        )
    };
    if private != 0 {
        return Err((Step::Private, NO_PATH, errno()));
    }
    Ok(())
}

/// Drops [`DROPPED_CAPABILITIES`] from the bounding set.
#[allow(unsafe_code, reason = "prctl has no async-signal-safe wrapper")]
fn drop_capabilities() -> Result<(), Failure> {
    for cap in DROPPED_CAPABILITIES {
        // SAFETY: prctl with integer arguments. A capability this kernel does not know
        // (EINVAL) is not held either.
        let r = unsafe { libc::prctl(libc::PR_CAPBSET_DROP, *cap as libc::c_ulong, 0, 0, 0) };
        if r != 0 && errno() != libc::EINVAL {
            return Err((Step::Capabilities, NO_PATH, errno()));
        }
    }
    Ok(())
}

impl Mount {
    /// Makes the mount (or the directory or file) in the child: the step it belongs to, and
    /// the system call's result (0: done).
    #[allow(
        unsafe_code,
        reason = "mount, mkdir and open have no async-signal-safe wrapper"
    )]
    fn make(&self) -> (Step, libc::c_int) {
        // SAFETY: every pointer is a NUL-terminated string made before the fork, or null where
        // the kernel takes none.
        unsafe {
            match self {
                Mount::Tmpfs { target } => (
                    Step::Hide,
                    libc::mount(
                        c"tmpfs".as_ptr(),
                        target.as_ptr(),
                        c"tmpfs".as_ptr(),
                        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                        c"mode=0755,size=16k,nr_inodes=256".as_ptr().cast(),
                    ),
                ),
                Mount::Mkdir { path } => {
                    let r = libc::mkdir(path.as_ptr(), 0o755);
                    let exists =
                        r != 0 && io::Error::last_os_error().raw_os_error() == Some(libc::EEXIST);
                    (Step::Hide, if exists { 0 } else { r })
                }
                Mount::Touch { path } => {
                    let fd = libc::open(
                        path.as_ptr(),
                        libc::O_WRONLY | libc::O_CREAT | libc::O_CLOEXEC,
                        0o644,
                    );
                    if fd >= 0 {
                        libc::close(fd);
                    }
                    (Step::Hide, if fd >= 0 { 0 } else { -1 })
                }
                Mount::Bind { source, target } => (
                    Step::Hide,
                    libc::mount(
                        source.as_ptr(),
                        target.as_ptr(),
                        std::ptr::null(),
                        libc::MS_BIND,
                        std::ptr::null(),
                    ),
                ),
                Mount::ReadOnly { target, flags } => (
                    Step::ReadOnly,
                    libc::mount(
                        std::ptr::null(),
                        target.as_ptr(),
                        std::ptr::null(),
                        libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | flags,
                        std::ptr::null(),
                    ),
                ),
                Mount::Seal { target } => (
                    Step::Hide,
                    libc::mount(
                        std::ptr::null(),
                        target.as_ptr(),
                        std::ptr::null(),
                        libc::MS_REMOUNT
                            | libc::MS_RDONLY
                            | libc::MS_NOSUID
                            | libc::MS_NODEV
                            | libc::MS_NOEXEC,
                        std::ptr::null(),
                    ),
                ),
            }
        }
    }
}

/// Starts `program` (looked up on the `PATH` of `env`) with `args` and exactly the
/// environment `env`, in `cwd`, inside `sandbox`; returns the child once it has exec'd.
#[allow(
    unsafe_code,
    reason = "pre_exec: the sandbox is entered in the child, between fork and exec"
)]
pub fn spawn(
    sandbox: &Sandbox,
    program: &OsStr,
    args: &[OsString],
    env: &[(OsString, OsString)],
    cwd: &Path,
) -> Result<std::process::Child, SandboxError> {
    let mut plan = sandbox.prepare(cwd)?;
    let (mut report_read, report_write) = pipe()?;
    let report_fd = report_write.as_raw_fd();
    let mut command = std::process::Command::new(program);
    command.args(args).env_clear().current_dir(cwd);
    for (k, v) in env {
        command.env(k, v);
    }
    // SAFETY: the closure makes system calls only, on memory allocated before the fork
    // (`Plan::enter`), and writes its failure to a pipe made before it.
    unsafe {
        command.pre_exec(move || match plan.enter() {
            Ok(()) => Ok(()),
            Err((step, index, errno)) => {
                let mut buf = [0u8; 12];
                buf[..4].copy_from_slice(&step.code().to_le_bytes());
                buf[4..8].copy_from_slice(&index.to_le_bytes());
                buf[8..].copy_from_slice(&errno.to_le_bytes());
                libc::write(report_fd, buf.as_ptr().cast(), buf.len());
                Err(io::Error::from_raw_os_error(errno))
            }
        });
    }
    let spawned = command.spawn();
    drop(report_write);
    drop(command);
    let mut buf = Vec::new();
    let _ = report_read.read_to_end(&mut buf);
    if buf.len() == 12 {
        let word = |i: usize| [buf[i], buf[i + 1], buf[i + 2], buf[i + 3]];
        let step = Step::from_code(u32::from_le_bytes(word(0))).unwrap_or(Step::Namespace);
        let index = u32::from_le_bytes(word(4));
        let errno = i32::from_le_bytes(word(8));
        let path = sandbox_path(sandbox, index);
        return Err(SandboxError::Refused {
            step,
            path,
            source: io::Error::from_raw_os_error(errno),
        });
    }
    spawned.map_err(|source| SandboxError::Exec {
        program: program.to_owned(),
        source,
    })
}

/// The path of the `index`-th mount target, in the order [`Sandbox::prepare`] numbers them.
fn sandbox_path(sandbox: &Sandbox, index: u32) -> Option<PathBuf> {
    let existing = sandbox
        .hidden
        .iter()
        .map(|h| &h.path)
        .chain(&sandbox.read_only)
        .filter(|p| std::fs::symlink_metadata(p).is_ok());
    existing.into_iter().nth(index as usize).cloned()
}

/// A pipe whose ends close on exec.
fn pipe() -> Result<(std::fs::File, OwnedFd), SandboxError> {
    let (read, write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).map_err(|e| {
        SandboxError::Refused {
            step: Step::Namespace,
            path: None,
            source: e.into(),
        }
    })?;
    Ok((std::fs::File::from(read), write))
}

/// A user and mount namespace kept open by descriptors, for processes to enter later: the
/// broker's view, in which the git writes it runs for the agent see what the agent sees (the
/// hidden paths hidden) but may write their git directories.
pub struct View {
    /// The user namespace (`None`: the mount namespace was made without one, as root).
    user: Option<OwnedFd>,
    /// The mount namespace.
    mnt: OwnedFd,
}

/// The variable naming, for the broker's child, the descriptors of the view it may enter
/// (`<mount>` or `<mount>,<user>`).
pub const VIEW_VAR: &str = "GIT_PRISM_VIEW";

/// The descriptor numbers a child gets the view's namespaces at.
const VIEW_FDS: (i32, i32) = (200, 201);

impl View {
    /// Makes the namespace of `sandbox` (its hidden paths; nothing read-only, no Landlock) in
    /// a short-lived child and keeps it open.
    #[allow(
        unsafe_code,
        reason = "fork without exec: the child makes the namespace, then waits to be released"
    )]
    pub fn make(sandbox: &Sandbox) -> Result<View, SandboxError> {
        let view = Sandbox {
            namespaces: true,
            hidden: sandbox.hidden.clone(),
            read_only: Vec::new(),
            empty_file: sandbox.empty_file.clone(),
            confinement: Confinement::default(),
        };
        let mut plan = view.prepare(Path::new("/"))?;
        plan.landlock = None;
        let (mut ready_read, ready_write) = pipe()?;
        let (release_read, release_write) = pipe()?;
        let failed = |source: io::Error| SandboxError::Refused {
            step: Step::Namespace,
            path: None,
            source,
        };
        // SAFETY: the child makes system calls only (`Plan::enter`, write, read, _exit) on
        // memory allocated before the fork.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(failed(io::Error::last_os_error()));
        }
        if pid == 0 {
            // SAFETY: in the child: system calls on descriptors and buffers made before the fork.
            unsafe {
                // The parent's ends: the child's copies would keep the pipes open for ever.
                libc::close(release_write.as_raw_fd());
                libc::close(ready_read.as_raw_fd());
                let code: u8 = if plan.enter().is_ok() { 0 } else { 1 };
                libc::write(ready_write.as_raw_fd(), (&code as *const u8).cast(), 1);
                let mut byte = 0u8;
                libc::read(release_read.as_raw_fd(), (&mut byte as *mut u8).cast(), 1);
                libc::_exit(0);
            }
        }
        drop(ready_write);
        drop(release_read);
        let mut code = [1u8];
        let made = ready_read.read_exact(&mut code).is_ok() && code[0] == 0;
        let open = |kind: &str| -> Option<OwnedFd> {
            rustix::fs::open(
                format!("/proc/{pid}/ns/{kind}"),
                rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::CLOEXEC,
                rustix::fs::Mode::empty(),
            )
            .ok()
        };
        let same_user = std::fs::read_link(format!("/proc/{pid}/ns/user")).ok()
            == std::fs::read_link("/proc/self/ns/user").ok();
        let result = match (made, open("mnt")) {
            (true, Some(mnt)) => Ok(View {
                user: if same_user { None } else { open("user") },
                mnt,
            }),
            _ => Err(failed(io::Error::other(
                "the view's namespace was not made",
            ))),
        };
        drop(release_write);
        let mut status = 0;
        // SAFETY: reaps the child forked above.
        unsafe {
            libc::waitpid(pid, &mut status, 0);
        }
        result
    }

    /// The descriptors a child is to get (kept open across its `execve` at fixed numbers) and
    /// the value of [`VIEW_VAR`] that names them.
    pub fn for_child(&self) -> (Vec<(i32, i32)>, String) {
        let mut fds = vec![(self.mnt.as_raw_fd(), VIEW_FDS.0)];
        let mut value = VIEW_FDS.0.to_string();
        if let Some(user) = &self.user {
            fds.push((user.as_raw_fd(), VIEW_FDS.1));
            value = format!("{value},{}", VIEW_FDS.1);
        }
        (fds, value)
    }
}

/// Enters the view whose descriptors [`VIEW_VAR`] names (the broker's child, for a call that
/// needs no credentials), or only closes them: they never reach git. `Ok(false)` when there
/// is no view to enter.
#[allow(
    unsafe_code,
    reason = "setns and fcntl on descriptors the broker passed"
)]
pub fn enter_view(enter: bool) -> io::Result<bool> {
    let Some(value) = std::env::var_os(VIEW_VAR) else {
        return Ok(false);
    };
    let fds: Vec<i32> = value
        .to_string_lossy()
        .split(',')
        .filter_map(|f| f.parse().ok())
        .filter(|f| *f == VIEW_FDS.0 || *f == VIEW_FDS.1)
        .collect();
    let mut entered = false;
    let cwd = std::env::current_dir();
    if enter {
        let (mnt, user) = (fds.first().copied(), fds.get(1).copied());
        // SAFETY: setns on descriptors this process was given for it; the user namespace
        // first, as the mount namespace belongs to it.
        unsafe {
            if let Some(user) = user {
                if libc::setns(user, libc::CLONE_NEWUSER) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            if let Some(mnt) = mnt {
                if libc::setns(mnt, libc::CLONE_NEWNS) != 0 {
                    return Err(io::Error::last_os_error());
                }
                entered = true;
            }
        }
    }
    for fd in fds {
        // SAFETY: closes a descriptor this process was given and no one else holds.
        unsafe {
            libc::close(fd);
        }
    }
    if entered {
        // Entering a mount namespace leaves the working directory at its root: back to the
        // same path, in the view (the caller's directory is never one the view hides).
        std::env::set_current_dir(cwd?)?;
    }
    Ok(entered)
}

/// Whether this kernel lets this user create the sandbox's user and mount namespace: a
/// short-lived child tries (about a millisecond).
#[allow(unsafe_code, reason = "pre_exec: the namespace is tried in the child")]
pub fn namespaces_available() -> bool {
    let probe = Sandbox {
        namespaces: true,
        ..Sandbox::default()
    };
    let Ok(mut plan) = probe.prepare(Path::new("/")) else {
        return false;
    };
    plan.landlock = None;
    // The child ends as soon as the namespace is made: nothing is exec'd.
    let mut command = std::process::Command::new("/proc/self/exe");
    command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // SAFETY: the closure makes system calls only, on memory allocated before the fork.
    unsafe {
        command.pre_exec(move || match plan.enter() {
            Ok(()) => libc::_exit(0),
            Err((_, _, errno)) => Err(io::Error::from_raw_os_error(errno)),
        });
    }
    command.status().is_ok_and(|s| s.success())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_round_trip_through_their_codes() {
        for step in [
            Step::Namespace,
            Step::IdMap,
            Step::Private,
            Step::Hide,
            Step::ReadOnly,
            Step::Capabilities,
            Step::Landlock,
            Step::Cwd,
        ] {
            assert_eq!(Step::from_code(step.code()), Some(step));
        }
        assert_eq!(Step::from_code(99), None);
    }
}
