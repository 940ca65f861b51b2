//! The sandboxed side of the broker: sends one call, with this process's standard streams,
//! working directory, environment and signal state, passes on the signals this process
//! receives while it runs, and returns how it ended, so the shim can end the same way.

use std::ffi::OsString;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};

use super::wire::{self, Kind, Reply, Request};
use crate::guard::observe::Ended;

/// The error returned by [`call`].
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The broker cannot be reached.
    #[error("cannot reach the session's broker at {}", .path.display())]
    Connect {
        /// Its socket.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The call could not be sent, or its end not read.
    #[error("the session's broker did not answer")]
    Wire(#[from] wire::WireError),
    /// This process's working directory cannot be named.
    #[error("the working directory cannot be read")]
    Cwd(#[source] std::io::Error),
    /// The broker serves only the session's own processes.
    #[error(
        "the session's broker serves only the session's processes, and this is not one of the session's processes"
    )]
    NotServed,
}

/// The socket the signal handler writes to (`-1`: none).
static SOCKET: AtomicI32 = AtomicI32::new(-1);

/// The signals passed on to the brokered call: those a terminal or a supervisor sends to end
/// or interrupt what runs.
const PASSED: [libc::c_int; 4] = [libc::SIGINT, libc::SIGQUIT, libc::SIGTERM, libc::SIGHUP];

extern "C" fn pass_on(sig: libc::c_int) {
    let fd = SOCKET.load(Ordering::SeqCst);
    if fd >= 0 {
        let msg = wire::signal_message(sig);
        // SAFETY: write is async-signal-safe; the buffer lives on this stack frame.
        #[allow(unsafe_code, reason = "write in a signal handler")]
        unsafe {
            libc::write(fd, msg.as_ptr().cast(), msg.len());
        }
    }
}

/// The caller's blocked signals and the signals it ignores, as bit sets (bit `n - 1`).
#[allow(unsafe_code, reason = "sigprocmask and sigaction queries")]
fn signal_state() -> (u64, u64) {
    let mut blocked = 0u64;
    let mut ignored = 0u64;
    // SAFETY: queries only: a null new set and new action change nothing.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigprocmask(libc::SIG_BLOCK, std::ptr::null(), &mut set);
        for sig in 1..64 {
            if libc::sigismember(&set, sig) == 1 {
                blocked |= 1 << (sig - 1);
            }
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) == 0
                && old.sa_sigaction == libc::SIG_IGN
            {
                ignored |= 1 << (sig - 1);
            }
        }
    }
    (blocked, ignored)
}

/// This process's descriptor `fd`, or `/dev/null` where it is closed (as git itself would
/// reopen it).
fn reopened(fd: i32) -> Option<OwnedFd> {
    let open = rustix::io::fcntl_getfd(borrowed(fd)).is_ok();
    if open {
        return None;
    }
    std::fs::OpenOptions::new()
        .read(fd == 0)
        .write(fd != 0)
        .open("/dev/null")
        .ok()
        .map(OwnedFd::from)
}

#[allow(
    unsafe_code,
    reason = "borrowing a standard descriptor to ask whether it is open"
)]
fn borrowed(fd: i32) -> std::os::fd::BorrowedFd<'static> {
    // SAFETY: only passed to fcntl(F_GETFD), which reports EBADF for a closed descriptor.
    unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) }
}

/// Sends the call `kind` with `args` to the broker at `socket` and waits for its end.
#[allow(
    unsafe_code,
    reason = "signal handlers that pass signals on while the call runs"
)]
pub fn call(socket: &Path, kind: Kind, args: &[OsString]) -> Result<Ended, ClientError> {
    let mut stream = UnixStream::connect(socket).map_err(|source| ClientError::Connect {
        path: socket.to_owned(),
        source,
    })?;
    let cwd = std::env::current_dir().map_err(ClientError::Cwd)?;
    let dir = rustix::fs::open(
        ".",
        rustix::fs::OFlags::PATH | rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )
    .map_err(|e| ClientError::Cwd(e.into()))?;
    let (blocked, ignored) = signal_state();
    let request = Request {
        kind,
        blocked,
        ignored,
        cwd: cwd.into_os_string(),
        args: args.to_vec(),
        env: std::env::vars_os()
            .map(|(k, v)| {
                let mut e = k.into_vec();
                e.push(b'=');
                e.extend(v.into_vec());
                OsString::from_vec(e)
            })
            .collect(),
    };
    let replaced: Vec<Option<OwnedFd>> = (0..3).map(reopened).collect();
    let fd = |i: usize| replaced[i].as_ref().map_or(i as i32, |f| f.as_raw_fd());
    if let Err(e) = wire::send(
        &mut stream,
        &request,
        [fd(0), fd(1), fd(2), dir.as_raw_fd()],
    ) {
        // The broker refuses a caller that is not one of the session's processes before it
        // reads the request: its answer may be on the socket though the request was cut off.
        let closed = matches!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset
        );
        if closed && matches!(wire::read_reply(&mut stream), Ok(Reply::NotServed)) {
            return Err(ClientError::NotServed);
        }
        return Err(ClientError::Wire(e.into()));
    }
    drop(replaced);
    drop(dir);
    SOCKET.store(stream.as_raw_fd(), Ordering::SeqCst);
    // SAFETY: sigaction with a zeroed, then filled, structure; the old actions are restored
    // below. A signal this process ignores stays ignored (the call was told so).
    let saved = unsafe {
        let mut saved: [libc::sigaction; PASSED.len()] = std::mem::zeroed();
        for (i, sig) in PASSED.into_iter().enumerate() {
            let mut action: libc::sigaction = std::mem::zeroed();
            libc::sigaction(sig, std::ptr::null(), &mut saved[i]);
            if saved[i].sa_sigaction == libc::SIG_IGN {
                continue;
            }
            action.sa_sigaction = pass_on as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
        saved
    };
    let reply = wire::read_reply(&mut stream);
    SOCKET.store(-1, Ordering::SeqCst);
    // SAFETY: restores the actions saved above.
    unsafe {
        for (i, sig) in PASSED.into_iter().enumerate() {
            libc::sigaction(sig, &saved[i], std::ptr::null_mut());
        }
    }
    Ok(match reply? {
        Reply::Exited(code) | Reply::Failed(code) => Ended::Exited(code),
        Reply::Signaled(sig) => Ended::Signaled(sig),
        Reply::NotServed => return Err(ClientError::NotServed),
    })
}
