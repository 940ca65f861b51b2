//! Running the real program: replacing this process with it ([`exec`], the passthrough), or,
//! for a write the session guard watches, running it as a child and ending as it ended
//! ([`run`], [`end_as`]).
//!
//! Invariants: the real program gets the caller's argv (including `argv[0]`), every file
//! descriptor, the signal mask and ignored signals exactly as the caller left them, and the
//! caller's environment plus `GIT_PRISM_INSIDE_SHIM` (the hop count, `1` on the first hop) and
//! the pin variable carrying the resolved path (so a nested shim execs it without walking
//! PATH); under a session's scope, also what the guard's decision adds (the hook wrapper's
//! `GIT_CONFIG_*` and `GIT_PRISM_HOOK_*`, a private `GIT_INDEX_FILE`). `execve(2)` is called
//! directly: the standard library's `Command::exec` resets the signal mask and `SIGPIPE`, which
//! git alone would not see. An [`Image`] is built before a `fork`, so the child allocates
//! nothing; the kernel layer's rules are put in force in the child just before `execve`.

use std::ffi::{CString, OsStr, OsString, c_char};
use std::io;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;

use crate::guard::observe::Ended;

#[allow(unsafe_code, reason = "the C environment execve passes on")]
unsafe extern "C" {
    static environ: *const *const c_char;
}

/// The variable that marks a process as started by the shim; its value counts the hops.
pub const INSIDE_SHIM: &str = "GIT_PRISM_INSIDE_SHIM";

/// Replaces the process with `program`, returning only if `execve` failed.
///
/// `set` lists variables to add to the environment (replacing any existing value).
pub fn exec(program: &Path, argv0: &OsStr, args: &[OsString], set: &[(&str, &OsStr)]) -> io::Error {
    match Image::new(program, argv0, args, set) {
        Ok(image) => image.exec(),
        Err(e) => e,
    }
}

/// A program, its argument vector and its environment, ready for `execve`: built before a
/// `fork`, so the child allocates nothing.
pub struct Image {
    program: CString,
    _argv: Vec<CString>,
    _added: Vec<CString>,
    argv: Vec<*const c_char>,
    envp: Vec<*const c_char>,
}

impl Image {
    /// Builds the image of `program` run with `argv0` and `args`, and the caller's
    /// environment with the variables `set` added (replacing any existing value).
    #[allow(unsafe_code, reason = "reads the C environment execve passes on")]
    pub fn new(
        program: &Path,
        argv0: &OsStr,
        args: &[OsString],
        set: &[(&str, &OsStr)],
    ) -> Result<Image, io::Error> {
        let program = CString::new(program.as_os_str().as_bytes()).map_err(|_| {
            io::Error::new(io::ErrorKind::InvalidInput, "program path contains NUL")
        })?;
        let mut argv_owned = Vec::with_capacity(args.len() + 1);
        for arg in std::iter::once(argv0).chain(args.iter().map(OsString::as_os_str)) {
            argv_owned.push(CString::new(arg.as_bytes()).map_err(|_| {
                io::Error::new(io::ErrorKind::InvalidInput, "argument contains NUL")
            })?);
        }
        let mut argv: Vec<*const c_char> = argv_owned.iter().map(|c| c.as_ptr()).collect();
        argv.push(std::ptr::null());

        let mut added = Vec::with_capacity(set.len());
        for (name, value) in set {
            let mut entry = Vec::with_capacity(name.len() + 1 + value.len());
            entry.extend_from_slice(name.as_bytes());
            entry.push(b'=');
            entry.extend_from_slice(value.as_bytes());
            added.push(CString::new(entry).map_err(|_| {
                io::Error::new(io::ErrorKind::InvalidInput, "variable contains NUL")
            })?);
        }
        let mut envp: Vec<*const c_char> = Vec::with_capacity(64);
        // SAFETY: `environ` is the C library's NULL-terminated environment array; nothing in
        // this single-threaded path modifies the environment while it is read, and the
        // entries stay alive until the process execs or exits.
        unsafe {
            let mut p = environ;
            while !p.is_null() && !(*p).is_null() {
                let entry = std::ffi::CStr::from_ptr(*p).to_bytes();
                let replaced = set.iter().any(|(name, _)| {
                    entry.len() > name.len()
                        && entry.starts_with(name.as_bytes())
                        && entry[name.len()] == b'='
                });
                if !replaced {
                    envp.push(*p);
                }
                p = p.add(1);
            }
        }
        envp.extend(added.iter().map(|c| c.as_ptr()));
        envp.push(std::ptr::null());
        Ok(Image {
            program,
            _argv: argv_owned,
            _added: added,
            argv,
            envp,
        })
    }

    /// Replaces the process with the image, returning only if `execve` failed.
    #[allow(
        unsafe_code,
        reason = "execve replaces the process; std has no exec that keeps argv[0] as bytes"
    )]
    pub fn exec(&self) -> io::Error {
        // SAFETY: all three arrays are NULL-terminated and point into `CString`s owned by the
        // image and `environ` entries that stay alive for the duration of the call.
        unsafe {
            libc::execve(
                self.program.as_ptr(),
                self.argv.as_ptr(),
                self.envp.as_ptr(),
            );
        }
        io::Error::last_os_error()
    }
}

/// The child [`run`] waits for, for the signal handler that passes signals on.
static CHILD: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

extern "C" fn pass_on(sig: libc::c_int) {
    let child = CHILD.load(std::sync::atomic::Ordering::SeqCst);
    if child > 0 {
        // SAFETY: kill is async-signal-safe; the pid is the child this process started.
        #[allow(unsafe_code, reason = "kill in a signal handler")]
        unsafe {
            libc::kill(child, sig);
        }
    }
}

/// Runs the image as a child of this process and waits for it, instead of becoming it: for a
/// write whose effects the session guard records after git ends. The child gets what
/// [`Image::exec`] would give the program (argv, environment, file descriptors, signal mask and
/// dispositions as this process has them), with `confinement` put in force in the child just
/// before `execve`. While it runs, this process ignores `SIGINT` and `SIGQUIT` (the terminal
/// sends them to the child too, as `system(3)` does) and passes `SIGTERM` and `SIGHUP` on.
#[allow(
    unsafe_code,
    reason = "fork, execve in the child, waitpid and signal dispositions have no safe wrapper that keeps the caller's signal state"
)]
pub fn run(image: &Image, confinement: Option<crate::confine::Prepared>) -> io::Result<Ended> {
    // Built before the fork: the child writes it as it is if execve fails.
    let failed = format!(
        "git-prism: cannot run '{}'\n",
        String::from_utf8_lossy(image.program.as_bytes())
    );
    // SAFETY: the child makes only async-signal-safe calls (the Landlock system calls,
    // execve, write, _exit) on memory allocated before the fork.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    if pid == 0 {
        if let Some(c) = confinement {
            if c.restrict_self().is_err() {
                let line =
                    b"git-prism guard: refused: the kernel layer could not be put in place\n";
                // SAFETY: a write of a static buffer and _exit, in the child.
                unsafe {
                    libc::write(2, line.as_ptr().cast(), line.len());
                    libc::_exit(crate::exit_codes::REFUSED);
                }
            }
        }
        let err = image.exec();
        let code = match err.raw_os_error() {
            Some(libc::ENOENT) | Some(libc::ENOTDIR) => crate::exit_codes::NOT_FOUND,
            _ => crate::exit_codes::NOT_EXECUTABLE,
        };
        // SAFETY: a write of a buffer made before the fork and _exit, in the child.
        unsafe {
            libc::write(2, failed.as_ptr().cast(), failed.len());
            libc::_exit(code);
        }
    }
    drop(confinement);
    wait_passing_signals(pid)
}

/// Waits for the child `pid` as [`run`] does: ignoring `SIGINT` and `SIGQUIT` meanwhile (the
/// terminal sends them to the child too, as `system(3)` does) and passing `SIGTERM` and
/// `SIGHUP` on; returns how it ended.
#[allow(
    unsafe_code,
    reason = "waitpid and signal dispositions have no safe wrapper that keeps the caller's signal state"
)]
pub fn wait_passing_signals(pid: i32) -> io::Result<Ended> {
    CHILD.store(pid, std::sync::atomic::Ordering::SeqCst);
    // SAFETY: sigaction with zeroed, then filled, structures; the old actions are restored
    // below before this function returns.
    let saved = unsafe {
        let mut ignore: libc::sigaction = std::mem::zeroed();
        ignore.sa_sigaction = libc::SIG_IGN;
        let mut forward: libc::sigaction = std::mem::zeroed();
        forward.sa_sigaction = pass_on as extern "C" fn(libc::c_int) as libc::sighandler_t;
        forward.sa_flags = libc::SA_RESTART;
        let mut saved: [libc::sigaction; 4] = std::mem::zeroed();
        for (i, (sig, action)) in [
            (libc::SIGINT, &ignore),
            (libc::SIGQUIT, &ignore),
            (libc::SIGTERM, &forward),
            (libc::SIGHUP, &forward),
        ]
        .into_iter()
        .enumerate()
        {
            libc::sigaction(sig, action, &mut saved[i]);
        }
        saved
    };
    let mut status: libc::c_int = 0;
    let waited = loop {
        // SAFETY: waits for the child forked above.
        let r = unsafe { libc::waitpid(pid, &mut status, 0) };
        if r == pid {
            break Ok(());
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            break Err(err);
        }
    };
    CHILD.store(0, std::sync::atomic::Ordering::SeqCst);
    // SAFETY: restores the actions saved above.
    unsafe {
        for (i, sig) in [libc::SIGINT, libc::SIGQUIT, libc::SIGTERM, libc::SIGHUP]
            .into_iter()
            .enumerate()
        {
            libc::sigaction(sig, &saved[i], std::ptr::null_mut());
        }
    }
    waited?;
    if libc::WIFSIGNALED(status) {
        Ok(Ended::Signaled(libc::WTERMSIG(status)))
    } else {
        Ok(Ended::Exited(libc::WEXITSTATUS(status)))
    }
}

/// Ends this process the way the child ended: with its exit code, or by the same signal (its
/// default action), so the caller sees what it would have seen had this process exec'd git.
#[allow(
    unsafe_code,
    reason = "signal, sigprocmask and raise have no safe wrapper"
)]
pub fn end_as(ended: Ended) -> i32 {
    match ended {
        Ended::Exited(code) => code,
        Ended::Signaled(sig) => {
            // SAFETY: the default action for `sig`, unblocked, then raised on this process.
            unsafe {
                libc::signal(sig, libc::SIG_DFL);
                let mut set: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut set);
                libc::sigaddset(&mut set, sig);
                libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
                libc::raise(sig);
            }
            128 + sig
        }
    }
}

/// Returns the hop count to give the child: one more than the current value of
/// `GIT_PRISM_INSIDE_SHIM` (an unset or non-numeric value counts as zero).
pub fn next_hop(current: Option<&OsStr>) -> u32 {
    current
        .and_then(|v| std::str::from_utf8(v.as_bytes()).ok())
        .and_then(|v| v.parse::<u32>().ok())
        .unwrap_or(0)
        .saturating_add(1)
}

/// Formats a hop count as the variable's value.
pub fn hop_value(hop: u32) -> OsString {
    OsString::from_vec(hop.to_string().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hops_count_up_from_one() {
        assert_eq!(next_hop(None), 1);
        assert_eq!(next_hop(Some(OsStr::new(""))), 1);
        assert_eq!(next_hop(Some(OsStr::new("yes"))), 1);
        assert_eq!(next_hop(Some(OsStr::new("1"))), 2);
        assert_eq!(next_hop(Some(OsStr::new("7"))), 8);
        assert_eq!(hop_value(1), "1");
    }
}
