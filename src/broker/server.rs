//! The broker's side, in `git-prism session`, outside the sandbox: accepts the session's
//! calls, checks who sends them, and runs each as a new shim process ([`Runner`]) with the
//! caller's descriptors, working directory and signal state, the user's environment, and only
//! the caller's variables that say what the call is ([`CALL_VARS`]).

use std::ffi::{OsStr, OsString};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::wire::{self, Kind, Message, Reply, Request};

/// Variables a call keeps from its own environment (every other comes from the session's):
/// who is committing and when, which repository and index, what the pathspecs mean, the
/// programs git may run (which the guard compares with the session's), the locale and the
/// terminal. A call's `PATH`, `LD_PRELOAD`, `BASH_ENV` and the like never reach the git that
/// runs with the user's credentials.
pub const CALL_VARS: &[&str] = &[
    "GIT_AUTHOR_NAME",
    "GIT_AUTHOR_EMAIL",
    "GIT_AUTHOR_DATE",
    "GIT_COMMITTER_NAME",
    "GIT_COMMITTER_EMAIL",
    "GIT_COMMITTER_DATE",
    "EMAIL",
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    "GIT_LITERAL_PATHSPECS",
    "GIT_GLOB_PATHSPECS",
    "GIT_NOGLOB_PATHSPECS",
    "GIT_ICASE_PATHSPECS",
    "GIT_REFLOG_ACTION",
    "GIT_TERMINAL_PROMPT",
    "GIT_MERGE_AUTOEDIT",
    "GIT_MERGE_VERBOSITY",
    "GIT_PROGRESS_DELAY",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_PAGER",
    "PAGER",
    "EDITOR",
    "VISUAL",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_NOSYSTEM",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "HOME",
    "XDG_CONFIG_HOME",
    "GH_REPO",
    "GH_PROMPT_DISABLED",
    "GH_NO_UPDATE_NOTIFIER",
    "GH_PAGER",
    "NO_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "TERM",
    "COLUMNS",
    "LINES",
    "TZ",
    "LANG",
    "LANGUAGE",
];

/// Prefixes of variables a call keeps too (`GIT_CONFIG_KEY_<n>`, `GIT_TRACE*`, `LC_*`).
const CALL_PREFIXES: &[&str] = &["GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_", "GIT_TRACE", "LC_"];

/// Whether the variable `name` comes from the call rather than from the session.
pub fn from_call(name: &[u8]) -> bool {
    CALL_VARS.iter().any(|v| v.as_bytes() == name)
        || CALL_PREFIXES.iter().any(|p| name.starts_with(p.as_bytes()))
}

/// How the broker tells the session's processes from others of the same user.
#[derive(Clone, Debug)]
pub enum Peers {
    /// Processes in this mount namespace (the sandbox's), named as `/proc/<pid>/ns/mnt` reads.
    Namespace(OsString),
    /// The process with this id and its descendants (a sandbox without a namespace).
    Descendants(i32),
}

/// What the broker runs a call as.
pub struct Runner {
    /// git-prism's own executable.
    pub exe: PathBuf,
    /// The session's environment, with the session's own variables set (its scope, state and
    /// temporary directory, `PATH` with the shim first) and the broker's mark.
    pub env: Vec<(OsString, OsString)>,
    /// The broker's view (the agent's hidden paths hidden), which a call that needs no
    /// credentials enters before it runs.
    pub view: Option<crate::confine::sandbox::View>,
}

impl Runner {
    /// The environment for one call: the session's, with the call's own [`CALL_VARS`] as the
    /// call has them (present or absent).
    fn environment(&self, call: &[OsString]) -> Vec<(OsString, OsString)> {
        let mut env: Vec<(OsString, OsString)> = self
            .env
            .iter()
            .filter(|(k, _)| !from_call(k.as_bytes()))
            .cloned()
            .collect();
        for entry in call {
            let bytes = entry.as_bytes();
            let Some(eq) = bytes.iter().position(|b| *b == b'=') else {
                continue;
            };
            let (name, value) = (&bytes[..eq], &bytes[eq + 1..]);
            if from_call(name) && !name.is_empty() {
                env.push((
                    OsStr::from_bytes(name).to_owned(),
                    OsStr::from_bytes(value).to_owned(),
                ));
            }
        }
        env
    }
}

/// The broker: its socket, who it serves, what it runs, and the calls in flight.
pub struct Broker {
    listener: UnixListener,
    peers: Peers,
    runner: Runner,
    in_flight: AtomicUsize,
}

impl Broker {
    /// A broker on `listener`, serving `peers`, running calls as `runner`.
    pub fn new(listener: UnixListener, peers: Peers, runner: Runner) -> Arc<Broker> {
        Arc::new(Broker {
            listener,
            peers,
            runner,
            in_flight: AtomicUsize::new(0),
        })
    }

    /// Accepts calls on a thread of its own, each served on a thread of its own, for as long
    /// as the process lives.
    pub fn start(self: &Arc<Broker>) {
        let broker = Arc::clone(self);
        std::thread::spawn(move || {
            for stream in broker.listener.incoming() {
                let Ok(stream) = stream else { continue };
                broker.in_flight.fetch_add(1, Ordering::SeqCst);
                let b = Arc::clone(&broker);
                std::thread::spawn(move || {
                    crate::unwind::quiet_hook();
                    let _ = crate::unwind::catch(|| b.serve(stream));
                    b.in_flight.fetch_sub(1, Ordering::SeqCst);
                });
            }
        });
    }

    /// Waits until no call is in flight.
    pub fn drain(&self) {
        while self.in_flight.load(Ordering::SeqCst) > 0 {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    /// Serves one connection.
    fn serve(&self, mut stream: UnixStream) {
        // Who calls is checked before anything of the call is read.
        if self.check_peer(&stream).is_err() {
            let _ = wire::reply(&mut stream, Reply::NotServed);
            return;
        }
        // A caller that connects and sends nothing keeps no thread for long.
        let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(30)));
        let received = wire::receive(&mut stream);
        let _ = stream.set_read_timeout(None);
        let Ok((request, fds)) = received else {
            return;
        };
        let mut fds = fds.into_iter();
        let (Some(stdin), Some(stdout), Some(stderr), Some(cwd_fd)) =
            (fds.next(), fds.next(), fds.next(), fds.next())
        else {
            return;
        };
        let fail = |stream: &mut UnixStream, stderr: &OwnedFd, why: &str| {
            let line = format!("git-prism session: the broker refused the call: {why}\n");
            let _ = rustix::io::write(stderr, line.as_bytes());
            let _ = wire::reply(stream, Reply::Failed(crate::exit_codes::REFUSED));
        };
        let Some(cwd) = same_directory(&request.cwd, &cwd_fd) else {
            fail(
                &mut stream,
                &stderr,
                "its working directory is not one the broker can see as the caller does; run it from a directory of the session's repositories (`cd <repository>`), or ask the user to run it outside the session",
            );
            return;
        };
        let ended = match self.run(&request, &cwd, [stdin, stdout, stderr], &mut stream) {
            Ok(ended) => ended,
            Err(()) => return,
        };
        let _ = wire::reply(&mut stream, ended);
    }

    /// Whether the peer is one of the session's processes.
    fn check_peer(&self, stream: &UnixStream) -> Result<(), String> {
        let (pid, uid) = peer(stream).ok_or("the caller cannot be identified")?;
        if uid != rustix::process::getuid().as_raw() {
            return Err("the caller is another user".into());
        }
        let ok = match &self.peers {
            Peers::Namespace(ns) => std::fs::read_link(format!("/proc/{pid}/ns/mnt"))
                .is_ok_and(|link| link.as_os_str() == ns.as_os_str()),
            Peers::Descendants(root) => descends_from(pid, *root),
        };
        if ok {
            Ok(())
        } else {
            Err("the caller is not one of the session's processes".into())
        }
    }

    /// Runs the call and waits for it, passing on the signals the caller sends meanwhile.
    fn run(
        &self,
        request: &Request,
        cwd: &(PathBuf, u64, u64),
        [stdin, stdout, stderr]: [OwnedFd; 3],
        stream: &mut UnixStream,
    ) -> Result<Reply, ()> {
        let err_fd = stderr.try_clone().ok();
        let mut command = self.command(request, cwd, [stdin, stdout, stderr]);
        let mut child = match command.spawn() {
            Ok(c) => c,
            Err(e) => {
                if let Some(fd) = &err_fd {
                    let line = format!(
                        "git-prism session: the broker cannot run the call: {}; ask the user to run it outside the session\n",
                        crate::text::io_words(&e)
                    );
                    let _ = rustix::io::write(fd, line.as_bytes());
                }
                let _ = wire::reply(stream, Reply::Failed(crate::exit_codes::NOT_EXECUTABLE));
                return Err(());
            }
        };
        drop(command);
        let pid = child.id() as i32;
        // Signals from the caller go to the call's process group until it has ended; a caller
        // that goes away (killed) takes the call with it, as it would had it exec'd git.
        let ended = Arc::new(Mutex::new(false));
        let relay = relay_signals(stream, pid, Arc::clone(&ended))?;
        // Wait without reaping, mark the call ended, then reap.
        wait_unreaped(pid);
        *ended
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = true;
        let status = child.wait().map_err(|_| ())?;
        let _ = stream.shutdown(std::net::Shutdown::Read);
        drop(relay);
        Ok(match (status.code(), status.signal()) {
            (Some(code), _) => Reply::Exited(code),
            (None, Some(sig)) => Reply::Signaled(sig),
            (None, None) => Reply::Exited(crate::exit_codes::FAILURE),
        })
    }

    /// The command that runs the call: git-prism as `git`, `gh` or `session verify`, in the
    /// session's environment with the call's own variables, in the caller's directory, on the
    /// caller's descriptors, in the broker's view for a `git` call, with the caller's signal
    /// state.
    fn command(
        &self,
        request: &Request,
        cwd: &(PathBuf, u64, u64),
        [stdin, stdout, stderr]: [OwnedFd; 3],
    ) -> std::process::Command {
        let (argv0, args): (&str, Vec<OsString>) = match request.kind {
            Kind::Git => ("git", request.args.clone()),
            Kind::Gh => ("gh", request.args.clone()),
            Kind::Verify => {
                let mut a: Vec<OsString> = vec!["session".into(), "verify".into()];
                a.extend(request.args.iter().cloned());
                ("git-prism", a)
            }
        };
        let (view_fds, view_var) = match self
            .runner
            .view
            .as_ref()
            .filter(|_| request.kind == Kind::Git)
        {
            Some(v) => {
                let (fds, var) = v.for_child();
                (fds, Some(var))
            }
            None => (Vec::new(), None),
        };
        let mut command = std::process::Command::new(&self.runner.exe);
        command
            .arg0(argv0)
            .args(&args)
            .env_clear()
            .envs(self.runner.environment(&request.env))
            .current_dir(&cwd.0)
            .stdin(std::process::Stdio::from(stdin))
            .stdout(std::process::Stdio::from(stdout))
            .stderr(std::process::Stdio::from(stderr));
        if let Some(var) = &view_var {
            command.env(crate::confine::sandbox::VIEW_VAR, var);
        }
        set_up_child(
            &mut command,
            view_fds,
            (request.blocked, request.ignored),
            (cwd.1, cwd.2),
        );
        command
    }
}

/// Sets what the call's process does between fork and exec: a session of its own, the view's
/// namespaces at the numbers it is told (`view_fds`: from, to), the caller's blocked and
/// ignored signals (`signals`), and a check that the directory it enters is the one the caller
/// stood in (`dir`: device, inode).
#[allow(
    unsafe_code,
    reason = "pre_exec: the call's signal state and session, set between fork and exec"
)]
fn set_up_child(
    command: &mut std::process::Command,
    view_fds: Vec<(i32, i32)>,
    (blocked, ignored): (u64, u64),
    (dev, ino): (u64, u64),
) {
    // SAFETY: the closure makes only async-signal-safe calls (setsid, sigprocmask, signal,
    // stat on a path made before the fork) on memory allocated before the fork.
    unsafe {
        command.pre_exec(move || {
            // A session of its own: the caller's terminal signals reach it through the
            // caller, and its process group can be signalled as one.
            libc::setsid();
            // The view's namespaces, at the numbers the child is told (dup2 leaves them
            // open across the exec).
            for (from, to) in &view_fds {
                if libc::dup2(*from, *to) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            for sig in 1..64 {
                if blocked & (1 << (sig - 1)) != 0 {
                    libc::sigaddset(&mut set, sig);
                }
                if ignored & (1 << (sig - 1)) != 0 {
                    libc::signal(sig, libc::SIG_IGN);
                }
            }
            libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
            // The directory entered is the one the caller stood in, not one swapped in
            // since it was checked.
            let mut st: libc::stat = std::mem::zeroed();
            if libc::stat(c".".as_ptr(), &mut st) != 0
                || st.st_dev != dev as libc::dev_t
                || st.st_ino != ino as libc::ino_t
            {
                return Err(std::io::Error::from_raw_os_error(libc::ESTALE));
            }
            Ok(())
        });
    }
}

/// Passes the signals the caller sends on `stream` to the call's process group (`pid`) until
/// `ended`; a caller that goes away kills it.
#[allow(
    unsafe_code,
    reason = "kill of the call's process group, which the caller signals"
)]
fn relay_signals(
    stream: &UnixStream,
    pid: i32,
    ended: Arc<Mutex<bool>>,
) -> Result<std::thread::JoinHandle<()>, ()> {
    let mut messages = stream.try_clone().map_err(|_| ())?;
    Ok(std::thread::spawn(move || {
        loop {
            let sig = match wire::read_message(&mut messages) {
                Ok(Some(Message::Signal(sig))) => sig,
                Ok(None) | Err(_) => libc::SIGKILL,
            };
            let done = ended
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if *done {
                return;
            }
            // SAFETY: kill of the call's process group, which cannot have been reused: the
            // call is not reaped while `done` is false and this lock is held.
            unsafe {
                libc::kill(-pid, sig);
            }
            drop(done);
            if sig == libc::SIGKILL {
                return;
            }
        }
    }))
}

/// Waits until the process `pid` has ended, without reaping it (so its id cannot be reused
/// while the relay may still signal it).
#[allow(unsafe_code, reason = "waitid(WNOWAIT) has no wrapper in std")]
fn wait_unreaped(pid: i32) {
    // SAFETY: waitid on the child started above, with a zeroed siginfo to fill.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        loop {
            let r = libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            );
            if r == 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                break;
            }
        }
    }
}

/// The caller's working directory as the broker sees it, when it is the same directory the
/// caller's descriptor names (device, inode): a directory hidden from the caller, or swapped
/// for another, is not.
fn same_directory(named: &OsStr, fd: &OwnedFd) -> Option<(PathBuf, u64, u64)> {
    let path = PathBuf::from(named);
    if !path.is_absolute() {
        return None;
    }
    let theirs = rustix::fs::fstat(fd).ok()?;
    let ours = std::fs::metadata(&path).ok()?;
    (ours.dev() == theirs.st_dev as u64 && ours.ino() == theirs.st_ino as u64 && ours.is_dir())
        .then(|| (path, ours.dev(), ours.ino()))
}

/// The peer's process id and user id.
#[allow(
    unsafe_code,
    reason = "getsockopt(SO_PEERCRED) has no wrapper in the dependencies used"
)]
fn peer(stream: &UnixStream) -> Option<(i32, u32)> {
    // SAFETY: getsockopt fills a zeroed ucred of the size given.
    unsafe {
        let mut cred: libc::ucred = std::mem::zeroed();
        let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
        let r = libc::getsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&mut cred as *mut libc::ucred).cast(),
            &mut len,
        );
        (r == 0 && cred.pid > 0).then_some((cred.pid, cred.uid))
    }
}

/// Whether process `pid` is `root` or descends from it (its parents, read from `/proc`).
fn descends_from(mut pid: i32, root: i32) -> bool {
    for _ in 0..256 {
        if pid == root {
            return true;
        }
        if pid <= 1 {
            return false;
        }
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            return false;
        };
        // `pid (comm) state ppid ...`: the command may hold spaces and parentheses.
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            return false;
        };
        let Some(ppid) = after.split_whitespace().nth(1).and_then(|p| p.parse().ok()) else {
            return false;
        };
        pid = ppid;
    }
    false
}

/// The mount namespace of process `pid`, as the broker compares it.
pub fn namespace_of(pid: i32) -> Option<OsString> {
    std::fs::read_link(format!("/proc/{pid}/ns/mnt"))
        .ok()
        .map(PathBuf::into_os_string)
}

/// Binds the broker's socket at `path` (only its owner may connect: the directory is private).
pub fn bind(path: &Path) -> std::io::Result<UnixListener> {
    UnixListener::bind(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_keeps_only_the_variables_that_say_what_it_is() {
        let runner = Runner {
            view: None,
            exe: "/x".into(),
            env: vec![
                ("PATH".into(), "/session".into()),
                ("GH_TOKEN".into(), "secret".into()),
                ("GIT_DIR".into(), "/session/git".into()),
            ],
        };
        let env = runner.environment(&[
            "PATH=/agent".into(),
            "LD_PRELOAD=/agent/evil.so".into(),
            "GIT_AUTHOR_NAME=Agent".into(),
            "GIT_CONFIG_KEY_0=user.name".into(),
        ]);
        let get = |k: &str| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        assert_eq!(get("PATH"), Some("/session".into()));
        assert_eq!(get("GH_TOKEN"), Some("secret".into()));
        assert_eq!(get("LD_PRELOAD"), None);
        assert_eq!(get("GIT_AUTHOR_NAME"), Some("Agent".into()));
        assert_eq!(get("GIT_CONFIG_KEY_0"), Some("user.name".into()));
        // The call did not set GIT_DIR: the session's is not used for it either.
        assert_eq!(get("GIT_DIR"), None);
    }

    #[test]
    fn descendants_are_found_through_proc() {
        let me = std::process::id() as i32;
        assert!(descends_from(me, me));
        let parent = rustix::process::getppid().map_or(1, |p| p.as_raw_nonzero().get());
        assert!(descends_from(me, parent));
        assert!(!descends_from(parent, me));
    }
}
