//! A time limit, and an output cap, on each process of the structured path (the real git,
//! `gh pr view`): [`run`]. The limit is `GIT_PRISM_GIT_TIMEOUT` seconds ([`DEFAULT_TIMEOUT`]
//! when unset).
//!
//! A hostile repository can make git block for ever where the caller's own command would not
//! (a FIFO named `.gitignore` blocks the listing of untracked files). Every process started
//! for an answer is killed once its limit passes, and the answer fails (the shim then runs the
//! real program with the caller's argv; the server reports an error).
//!
//! Invariants: the watchdog signals the process through a pidfd opened right after the spawn,
//! before anyone can reap it, so a pid reused by another process is never signalled. Without
//! pidfds (another system, an old kernel) it signals the pid, which is safe as long as the
//! caller reaps the child only after [`Deadline::disarm`]: [`wait_exited`] waits for the exit
//! without reaping. Disarming joins the watchdog thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// The limit when `GIT_PRISM_GIT_TIMEOUT` does not set one.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The variable that sets the limit, in seconds.
pub const TIMEOUT_VAR: &str = "GIT_PRISM_GIT_TIMEOUT";

/// Returns the limit from the environment (whole seconds, at least 1), or the default.
pub fn timeout_from_env() -> Duration {
    std::env::var(TIMEOUT_VAR)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&s| s > 0)
        .map_or(DEFAULT_TIMEOUT, Duration::from_secs)
}

/// How a bounded run of a child process ended when it did not end with an exit status and
/// its output.
#[derive(Debug)]
pub enum Ended {
    /// The process ran past its limit and was killed.
    TimedOut(Duration),
    /// It printed more than `max` bytes and was stopped.
    TooLarge(usize),
    /// It exited, but a process it started still holds its output.
    LeftRunning,
    /// Waiting for it or reading from it failed.
    Io(std::io::Error),
}

/// What a bounded run produced.
#[derive(Debug)]
pub struct Output {
    /// How the process exited.
    pub status: std::process::ExitStatus,
    /// Its standard output (at most the cap).
    pub stdout: Vec<u8>,
    /// The start of its standard error.
    pub stderr: Vec<u8>,
}

/// The most bytes of standard error kept (for error messages); the rest is drained.
const MAX_STDERR: u64 = 64 * 1024;

/// How long a process's pipes may stay open after it exits.
const LINGER: Duration = Duration::from_secs(5);

/// Runs `child` to its end within `limit`, reading at most `max` bytes of its standard output.
///
/// Both pipes are read from threads while this one waits, so that the limit stops the process
/// whatever blocks: the process itself, or one it started that keeps its pipes open (those
/// readers are then left behind rather than waited for). The child is reaped only after the
/// watchdog is disarmed and the reader that may stop it has reported.
pub fn run(mut child: std::process::Child, max: usize, limit: Duration) -> Result<Output, Ended> {
    use std::io::Read;
    let mut deadline = match Deadline::start(&child, limit) {
        Ok(deadline) => deadline,
        Err(e) => return Err(stop(&mut child, e)),
    };
    let (err_tx, err_rx) = mpsc::channel();
    match child.stderr.take() {
        Some(mut stderr) => {
            let reader = std::thread::Builder::new()
                .name("git-stderr".into())
                .spawn(move || {
                    let mut kept = Vec::new();
                    let _ = (&mut stderr).take(MAX_STDERR).read_to_end(&mut kept);
                    let _ = err_tx.send(kept);
                    // The rest is drained so that the process never blocks on a full pipe.
                    let _ = std::io::copy(&mut stderr, &mut std::io::sink());
                });
            if let Err(e) = reader {
                deadline.disarm();
                return Err(stop(&mut child, e));
            }
        }
        None => drop(err_tx.send(Vec::new())),
    }
    let (out_tx, out_rx) = mpsc::channel();
    match child.stdout.take() {
        Some(stdout) => {
            let killer = deadline.killer();
            let cap = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
            let reader = std::thread::Builder::new()
                .name("git-stdout".into())
                .spawn(move || {
                    let mut out = Vec::new();
                    let read = stdout.take(cap).read_to_end(&mut out);
                    if out.len() > max {
                        killer.kill();
                    }
                    let _ = out_tx.send(read.map(|_| out));
                });
            if let Err(e) = reader {
                deadline.disarm();
                return Err(stop(&mut child, e));
            }
        }
        None => drop(out_tx.send(Ok(Vec::new()))),
    }
    wait_exited(&mut child).map_err(Ended::Io)?;
    let fired = deadline.disarm();
    // The process has exited: its pipes end now, unless one it started still holds them.
    let read = out_rx.recv_timeout(LINGER);
    let status = child.wait().map_err(Ended::Io)?;
    if fired {
        return Err(Ended::TimedOut(limit));
    }
    let stdout = match read {
        Ok(read) => read.map_err(Ended::Io)?,
        Err(_) => return Err(Ended::LeftRunning),
    };
    if stdout.len() > max {
        return Err(Ended::TooLarge(max));
    }
    let stderr = err_rx.recv_timeout(LINGER).unwrap_or_default();
    Ok(Output {
        status,
        stdout,
        stderr,
    })
}

/// Kills and reaps `child`, which cannot be watched or read because a thread for it could not
/// be started (an address-space or thread limit), and says so.
fn stop(child: &mut std::process::Child, e: std::io::Error) -> Ended {
    let _ = child.kill();
    let _ = child.wait();
    Ended::Io(std::io::Error::new(
        e.kind(),
        format!("cannot start a thread to watch it: {e}"),
    ))
}

/// A way to kill one child process: its pidfd (closed when the last holder lets go), or its
/// pid where there is none.
#[derive(Debug)]
pub struct Killer {
    pidfd: Option<rustix::fd::OwnedFd>,
    pid: rustix::process::Pid,
}

impl Killer {
    fn open(child: &std::process::Child) -> Killer {
        let pid = rustix::process::Pid::from_child(child);
        Killer {
            pidfd: pidfd_open(pid),
            pid,
        }
    }

    /// Sends SIGKILL to the process (nothing happens once it is gone).
    pub fn kill(&self) {
        use rustix::process::Signal;
        let _ = match &self.pidfd {
            #[cfg(target_os = "linux")]
            Some(pidfd) => rustix::process::pidfd_send_signal(pidfd, Signal::KILL),
            _ => rustix::process::kill_process(self.pid, Signal::KILL),
        };
    }
}

/// The watchdog of one child process.
#[derive(Debug)]
pub struct Deadline {
    disarm: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    fired: Arc<AtomicBool>,
    killer: Arc<Killer>,
}

impl Deadline {
    /// Starts watching `child`: it is killed when `limit` passes before [`Deadline::disarm`].
    /// `Err` when the watchdog's thread cannot be started: a process nobody watches is not run.
    pub fn start(child: &std::process::Child, limit: Duration) -> std::io::Result<Deadline> {
        let killer = Arc::new(Killer::open(child));
        let (disarm, disarmed) = mpsc::channel::<()>();
        let fired = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&fired);
        let watchdog = Arc::clone(&killer);
        let thread = std::thread::Builder::new()
            .name("git-deadline".into())
            .spawn(move || {
                if let Err(mpsc::RecvTimeoutError::Timeout) = disarmed.recv_timeout(limit) {
                    flag.store(true, Ordering::SeqCst);
                    watchdog.kill();
                }
            })?;
        Ok(Deadline {
            disarm: Some(disarm),
            thread: Some(thread),
            fired,
            killer,
        })
    }

    /// A handle that kills the process now (for a reader that has seen enough).
    pub fn killer(&self) -> Arc<Killer> {
        Arc::clone(&self.killer)
    }

    /// Stops watching (call it once `wait` has returned); returns whether the limit passed and
    /// the process was killed.
    pub fn disarm(&mut self) -> bool {
        drop(self.disarm.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.fired.load(Ordering::SeqCst)
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        self.disarm();
    }
}

/// A pidfd for `pid` (`None` where there is none: another system, an old kernel).
#[cfg(target_os = "linux")]
fn pidfd_open(pid: rustix::process::Pid) -> Option<rustix::fd::OwnedFd> {
    rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok()
}

#[cfg(not(target_os = "linux"))]
fn pidfd_open(_pid: rustix::process::Pid) -> Option<rustix::fd::OwnedFd> {
    None
}

/// Waits until `child` has exited without reaping it (its pid stays taken until
/// `Child::wait`), so that a watchdog still armed can never signal another process.
pub fn wait_exited(child: &mut std::process::Child) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{Pid, WaitId, WaitIdOptions, waitid};
        let pid = Pid::from_child(child);
        loop {
            match waitid(
                WaitId::Pid(pid),
                WaitIdOptions::EXITED | WaitIdOptions::NOWAIT,
            ) {
                Ok(_) => return Ok(()),
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => return Err(e.into()),
            }
        }
    }
    // Elsewhere: polled, and reaped when seen (the pid fallback's window is one poll).
    #[cfg(not(target_os = "linux"))]
    loop {
        if child.try_wait()?.is_some() {
            return Ok(());
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_past_its_limit_is_killed_and_says_so() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        let mut deadline = Deadline::start(&child, Duration::from_millis(200)).unwrap();
        let status = child.wait().unwrap();
        assert!(deadline.disarm());
        assert!(!status.success());
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn waiting_for_the_exit_leaves_the_child_to_reap() {
        let mut child = std::process::Command::new("sh")
            .args(["-c", "exit 7"])
            .spawn()
            .unwrap();
        wait_exited(&mut child).unwrap();
        assert_eq!(child.wait().unwrap().code(), Some(7));
    }

    #[test]
    fn a_process_within_its_limit_is_left_alone() {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let mut deadline = Deadline::start(&child, Duration::from_secs(30)).unwrap();
        assert!(child.wait().unwrap().success());
        assert!(!deadline.disarm());
    }
}
