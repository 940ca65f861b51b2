//! The fidelity contract: who reads git's stdout?
//!
//! JSON is served only when this process's stdout is the very stream the agent's harness
//! handed to the command: not a file a script redirected it into, not a pipe into `git apply`,
//! `head` or `grep`, not a `$(...)`, not a test runner capturing a subprocess.
//!
//! The harness is the nearest ancestor process whose environment does not carry the agent's
//! marker variable (the one [`super::detect`] found). The proof that our stdout is its stream is
//! the stream's identity, never our position in the process tree: the harness must itself hold
//! our stdout open — the same pipe (both ends of a pipe are one inode), terminal or file; the
//! other end of a socket pair it created (Node's child processes talk over socket pairs); or the
//! master side of our pseudo-terminal. A redirect anywhere between the harness and git replaces
//! the stream with one the harness does not hold, however the shell applied it: `dash` applies
//! `> file` and then execs the last command, so git can be the command's top process and still
//! write into a file. See `docs/adr/0003-fidelity-contract.md`.
//!
//! One pipe is let through: agents end their commands with `| cat`, and a plain `cat` (no
//! options, no files) copies its input unchanged, so a pipe read by a plain `cat` whose own
//! stdout the harness holds counts as the harness's stream. That reader is found among our
//! siblings, waiting up to 50 ms (`CAT_POLLS`) for the shell to start it, up to 450 ms more
//! (`EXEC_POLLS`) while it is forked but not yet `cat` (a loaded machine), and up to 2 s
//! (`PRELUDE_WAIT`) while it runs commands of its own first (`| (sleep 1; exec cat)`). A
//! forked reader that reads the pipe itself (`| while read l; do …`, `| (head -1; cat)`) ends
//! the wait at once: what reaches the harness is then not an unchanged copy. `cat -n`,
//! `head`, `grep`, a second `cat`, `cat > file` and `$(...)` still get git's bytes.
//!
//! On Linux this reads `/proc/<pid>/stat` and `/proc/<pid>/environ` of a few ancestors and
//! inspects the harness's descriptors in `/proc/<pid>/fd`: small reads, well under a
//! millisecond (a `| cat` can wait for its reader). Elsewhere there is no such check yet, and
//! every call passes through.

use std::io;

/// The error returned by [`check`]: why the answer must be git's own bytes.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// File descriptor 1 is closed.
    #[error("stdout is closed")]
    StdoutClosed,
    /// Stdout is not a stream the harness holds.
    #[error("stdout is redirected (not the stream the agent's harness gave the command)")]
    Redirected,
    /// Every ancestor carries the marker (or the chain is unreadable to the end).
    #[error("no agent harness found among the ancestor processes")]
    NoHarness,
    /// A `/proc` file could not be read (another user's process, a race with its exit).
    #[error("cannot inspect process {pid}")]
    Proc {
        /// The process whose `/proc` entry failed.
        pid: u32,
        /// The underlying error.
        source: io::Error,
    },
    /// The platform has no implementation of the check.
    #[error("the stdout check is only implemented on Linux")]
    Unsupported,
}

/// Checks that this process's stdout is the stream the agent's harness gave the command.
///
/// `marker` is the environment variable that identified the agent.
pub fn check(marker: &str) -> Result<(), Refusal> {
    imp::check(marker)
}

/// How many ancestors to inspect at most before giving up (a runaway chain is not a harness).
const MAX_DEPTH: usize = 64;

/// How many of the harness's open descriptors to inspect at most.
const MAX_FDS: usize = 4096;

/// How many children of the shell, and of a forked reader, to inspect at most (a pipeline's
/// shell has a few; thousands would make every millisecond of the wait a thousand reads).
const MAX_CHILDREN: usize = 256;

/// How many times (a millisecond apart) to look for the `cat` a pipe leads to.
const CAT_POLLS: usize = 50;

/// How many more times to look while a sibling reading our pipe has been forked by the shell
/// but has not yet run its command: it will, and on a loaded machine that can take longer
/// than [`CAT_POLLS`] (`$(...)`, where no sibling ever reads, never waits for these).
const EXEC_POLLS: usize = 450;

/// How long to wait at most for a forked reader that is running commands of its own before its
/// `cat` (`| (sleep 1; exec cat)`): git's bytes would not be read before then either, so the
/// wait costs the command nothing, and a loaded machine can stretch such a prelude well past
/// [`EXEC_POLLS`].
const PRELUDE_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Returns whether a process's `/proc/<pid>/wchan` says it sleeps reading a pipe. The name is
/// the kernel's function: `anon_pipe_read` (6.x), `pipe_read` (5.x), `pipe_wait` or
/// `pipe_wait_readable` (older). An unknown name, or `0` from a kernel that does not say, is
/// not a read: the wait then ends on its time limit.
pub fn sleeps_reading_a_pipe(wchan: &[u8]) -> bool {
    matches!(
        wchan.trim_ascii(),
        b"anon_pipe_read" | b"pipe_read" | b"pipe_wait" | b"pipe_wait_readable"
    )
}

/// Returns whether a `/proc/<pid>/cmdline` is a plain `cat`: no options and no files (`-` is
/// standard input), so it copies its input to its output unchanged.
pub fn is_plain_cat(cmdline: &[u8]) -> bool {
    let mut args = cmdline.split(|b| *b == 0).filter(|a| !a.is_empty());
    let Some(name) = args.next() else {
        return false;
    };
    let base = name.rsplit(|b| *b == b'/').next().unwrap_or(name);
    base == b"cat" && args.all(|a| a == b"-")
}

/// Returns the `tty-index` of a pseudo-terminal master from its `/proc/<pid>/fdinfo/<fd>`.
pub fn tty_index(fdinfo: &[u8]) -> Option<u32> {
    fdinfo.split(|b| *b == b'\n').find_map(|line| {
        let rest = line.strip_prefix(b"tty-index:")?;
        std::str::from_utf8(rest).ok()?.trim().parse().ok()
    })
}

/// Returns whether a NUL-separated environment block sets `name` to a non-empty value.
pub fn environ_has(block: &[u8], name: &str) -> bool {
    let name = name.as_bytes();
    block.split(|b| *b == 0).any(|entry| {
        entry.len() > name.len() + 1 && entry.starts_with(name) && entry[name.len()] == b'='
    })
}

/// Returns the parent pid from the contents of `/proc/<pid>/stat`.
///
/// The second field (the command name) is in parentheses and may itself contain spaces and
/// parentheses, so parsing starts after the last `)`.
pub fn parse_ppid(stat: &[u8]) -> Option<u32> {
    let close = stat.iter().rposition(|b| *b == b')')?;
    let rest = std::str::from_utf8(stat.get(close + 1..)?).ok()?;
    let mut fields = rest.split_ascii_whitespace();
    let _state = fields.next()?;
    fields.next()?.parse().ok()
}

#[cfg(target_os = "linux")]
mod imp {
    use super::{
        CAT_POLLS, EXEC_POLLS, MAX_CHILDREN, MAX_DEPTH, MAX_FDS, PRELUDE_WAIT, Refusal,
        environ_has, is_plain_cat, parse_ppid, sleeps_reading_a_pipe, tty_index,
    };
    use std::os::unix::fs::MetadataExt;

    /// What identifies an open stream: the device and inode it lives on, and its file type.
    #[derive(Clone, Copy, Debug)]
    struct Stream {
        dev: u64,
        ino: u64,
        mode: u32,
        rdev: u64,
    }

    impl Stream {
        fn same_file(&self, dev: u64, ino: u64) -> bool {
            (self.dev, self.ino) == (dev, ino)
        }

        fn kind(&self) -> u32 {
            self.mode & libc::S_IFMT
        }
    }

    pub fn check(marker: &str) -> Result<(), Refusal> {
        let mine = stdout_stream()?;
        let harness = find_harness(marker)?;
        let peer = (mine.kind() == libc::S_IFSOCK)
            .then(socket_peer_pid)
            .flatten();
        if harness_holds(harness, &mine, peer)? {
            return Ok(());
        }
        // `git diff | cat`: agents add it out of habit, to keep a pager away. `cat` copies its
        // input to its output unchanged, so when its output is the harness's stream, ours is
        // in effect too.
        if mine.kind() == libc::S_IFIFO {
            if let Some(cat) = plain_cat_reading(&mine) {
                let path = format!("/proc/{cat}/fd/1");
                if let Ok(meta) = std::fs::metadata(&path) {
                    let theirs = Stream {
                        dev: meta.dev(),
                        ino: meta.ino(),
                        mode: meta.mode(),
                        rdev: meta.rdev(),
                    };
                    if harness_holds(harness, &theirs, None)? {
                        return Ok(());
                    }
                }
            }
        }
        Err(Refusal::Redirected)
    }

    /// What a sibling reading our stdout pipe is, seen from `/proc`.
    enum Sibling {
        /// It has run its command: this pid, a plain `cat` or not.
        Ran(Option<u32>),
        /// The shell forked it and it has not run its command yet.
        Forked(Prelude),
    }

    /// What a forked reader is doing before it runs its command, in the order the wait
    /// weighs them (the strongest seen among the readers decides).
    #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    enum Prelude {
        /// Nothing seen (between fork and exec, or sleeping on something unknown).
        Idle,
        /// Running commands of its own (`sleep 1` in `| (sleep 1; exec cat)`).
        Busy,
        /// Reading the pipe itself, or through a command of its own: its `cat` would not copy
        /// all of git's output.
        Reading,
    }

    /// Returns the process reading our stdout pipe when it is a plain `cat` (no options, no
    /// files). The reader is a sibling started by the same shell, which may not have started
    /// it, or the reader may not have exec'd `cat` yet, when we look: the answer waits for it
    /// for up to [`CAT_POLLS`] milliseconds, [`EXEC_POLLS`] more while the reader is forked
    /// but has not run its command yet, and up to [`PRELUDE_WAIT`] while it runs commands of
    /// its own first. A forked reader that reads the pipe itself ends the wait. In `$(...)`
    /// the shell itself reads and no sibling ever does: the wait ends that.
    fn plain_cat_reading(mine: &Stream) -> Option<u32> {
        let me = std::process::id();
        let parent = read_ppid(me).ok()?;
        let shell = std::fs::read_link(format!("/proc/{parent}/exe")).ok()?;
        let started = std::time::Instant::now();
        let (mut polls, mut exec_polls) = (0, 0);
        loop {
            let mut prelude = None;
            for pid in children(parent)?.into_iter().filter(|p| *p != me) {
                match sibling(pid, mine, &shell)? {
                    None => {}
                    Some(Sibling::Ran(cat)) => return cat,
                    Some(Sibling::Forked(seen)) => prelude = prelude.max(Some(seen)),
                }
            }
            match prelude {
                Some(Prelude::Reading) => return None,
                Some(Prelude::Busy) if started.elapsed() < PRELUDE_WAIT => {}
                Some(_) if exec_polls < EXEC_POLLS => exec_polls += 1,
                _ if polls < CAT_POLLS => polls += 1,
                _ => return None,
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// The children of `pid` (of its main thread, which is the one that forks in a shell), the
    /// first [`MAX_CHILDREN`] of them: each is looked at every millisecond of the wait.
    fn children(pid: u32) -> Option<Vec<u32>> {
        let list = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
        Some(
            list.split_ascii_whitespace()
                .filter_map(|p| p.parse().ok())
                .take(MAX_CHILDREN)
                .collect(),
        )
    }

    /// Whether `pid` reads our pipe (`None` when it does not, or is gone), and if so what it
    /// is. `None` from the whole function: its command line could not be read.
    fn sibling(pid: u32, mine: &Stream, shell: &std::path::Path) -> Option<Option<Sibling>> {
        if !reads_from(pid, mine) {
            return Some(None);
        }
        let Ok(exe) = std::fs::read_link(format!("/proc/{pid}/exe")) else {
            return Some(None);
        };
        if exe != shell {
            let argv = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            if argv.is_empty() {
                // Caught inside `execve`: the new program is named but its arguments are not
                // in place yet (seen under load as `exe` → cat with an empty command line).
                return Some(Some(Sibling::Forked(Prelude::Idle)));
            }
            let cat = is_plain_cat(&argv) && exe.file_name().is_some_and(|n| n == "cat");
            return Some(Some(Sibling::Ran(cat.then_some(pid))));
        }
        // The shell's child, not yet the command it will run.
        let own = children(pid).unwrap_or_default();
        let reading = |p: u32| reads_from(p, mine) && sleeps_on_pipe(p);
        let prelude = if own.iter().any(|p| reading(*p)) || (own.is_empty() && reading(pid)) {
            Prelude::Reading
        } else if own.is_empty() {
            Prelude::Idle
        } else {
            Prelude::Busy
        };
        Some(Some(Sibling::Forked(prelude)))
    }

    /// Whether `pid`'s standard input is our stdout's pipe.
    fn reads_from(pid: u32, mine: &Stream) -> bool {
        std::fs::metadata(format!("/proc/{pid}/fd/0"))
            .is_ok_and(|input| mine.same_file(input.dev(), input.ino()))
    }

    /// Whether `pid` sleeps reading a pipe (its `wchan`).
    fn sleeps_on_pipe(pid: u32) -> bool {
        std::fs::read(format!("/proc/{pid}/wchan")).is_ok_and(|w| sleeps_reading_a_pipe(&w))
    }

    /// Returns the nearest ancestor whose environment does not carry `marker`.
    fn find_harness(marker: &str) -> Result<u32, Refusal> {
        let mut pid = read_ppid(std::process::id())?;
        for _ in 0..MAX_DEPTH {
            if pid == 0 {
                break;
            }
            let environ = std::fs::read(format!("/proc/{pid}/environ"))
                .map_err(|source| Refusal::Proc { pid, source })?;
            if !environ_has(&environ, marker) {
                return Ok(pid);
            }
            pid = read_ppid(pid)?;
        }
        Err(Refusal::NoHarness)
    }

    /// Returns whether the harness holds our stdout's stream open: the same pipe (either end:
    /// both ends of a pipe are one inode), terminal or file; the other end of a socket pair it
    /// created; or the master side of our pseudo-terminal.
    fn harness_holds(harness: u32, mine: &Stream, peer: Option<u32>) -> Result<bool, Refusal> {
        let dir = format!("/proc/{harness}/fd");
        let entries = std::fs::read_dir(&dir).map_err(|source| Refusal::Proc {
            pid: harness,
            source,
        })?;
        let pts = (mine.kind() == libc::S_IFCHR)
            .then(|| our_pts_index(mine))
            .flatten();
        for entry in entries.take(MAX_FDS) {
            let Ok(entry) = entry else { continue };
            let path = entry.path();
            // `stat` follows the descriptor to the open file itself.
            let Ok(meta) = std::fs::metadata(&path) else {
                continue;
            };
            if mine.same_file(meta.dev(), meta.ino()) {
                return Ok(true);
            }
            if let Some(index) = pts {
                if is_ptmx(&path) && master_index(harness, &entry.file_name()) == Some(index) {
                    return Ok(true);
                }
            }
        }
        Ok(peer == Some(harness))
    }

    fn is_ptmx(fd_link: &std::path::Path) -> bool {
        std::fs::read_link(fd_link)
            .is_ok_and(|t| t.as_os_str() == "/dev/ptmx" || t.as_os_str() == "/dev/pts/ptmx")
    }

    /// The index of the pseudo-terminal whose master the harness holds at `fd`
    /// (`tty-index` in `/proc/<pid>/fdinfo/<fd>`).
    fn master_index(harness: u32, fd: &std::ffi::OsStr) -> Option<u32> {
        let mut path = std::path::PathBuf::from(format!("/proc/{harness}/fdinfo"));
        path.push(fd);
        let info = std::fs::read(path).ok()?;
        tty_index(&info)
    }

    /// The index `N` of `/dev/pts/N` when our stdout is a pseudo-terminal's slave side.
    fn our_pts_index(mine: &Stream) -> Option<u32> {
        let target = std::fs::read_link("/proc/self/fd/1").ok()?;
        let index = target.to_str()?.strip_prefix("/dev/pts/")?.parse().ok()?;
        // Unix98 pseudo-terminal slaves have majors 136 to 143.
        let major = libc::major(mine.rdev as libc::dev_t);
        (136..=143).contains(&major).then_some(index)
    }

    /// The process that created the other end of our stdout socket (for a socket pair: the
    /// process that called `socketpair`).
    ///
    /// Hand-written: rustix's `socket_peercred` reads the kernel's answer into a non-zero pid,
    /// and the kernel answers 0 for a peer in another pid namespace or no peer at all.
    #[allow(
        unsafe_code,
        reason = "getsockopt(SO_PEERCRED) can give pid 0 (see above)"
    )]
    fn socket_peer_pid() -> Option<u32> {
        let mut cred = libc::ucred {
            pid: 0,
            uid: 0,
            gid: 0,
        };
        let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
        // SAFETY: `cred` and `len` are valid for writes and `len` is the buffer's size.
        let rc = unsafe {
            libc::getsockopt(
                1,
                libc::SOL_SOCKET,
                libc::SO_PEERCRED,
                (&raw mut cred).cast(),
                &mut len,
            )
        };
        (rc == 0 && cred.pid > 0).then_some(cred.pid.unsigned_abs())
    }

    fn stdout_stream() -> Result<Stream, Refusal> {
        let Ok(st) = rustix::fs::fstat(std::io::stdout()) else {
            return Err(Refusal::StdoutClosed);
        };
        #[allow(
            clippy::unnecessary_cast,
            reason = "the field types differ between targets"
        )]
        Ok(Stream {
            dev: st.st_dev as u64,
            ino: st.st_ino as u64,
            mode: st.st_mode as u32,
            rdev: st.st_rdev as u64,
        })
    }

    fn read_ppid(pid: u32) -> Result<u32, Refusal> {
        let stat = std::fs::read(format!("/proc/{pid}/stat"))
            .map_err(|source| Refusal::Proc { pid, source })?;
        parse_ppid(&stat).ok_or_else(|| Refusal::Proc {
            pid,
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, "unparsable stat"),
        })
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::Refusal;

    pub fn check(_marker: &str) -> Result<(), Refusal> {
        Err(Refusal::Unsupported)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environ_lookup() {
        let block = b"PATH=/bin\0CLAUDECODE=1\0EMPTY=\0CLAUDECODE_X=2\0";
        assert!(environ_has(block, "CLAUDECODE"));
        assert!(environ_has(block, "PATH"));
        assert!(!environ_has(block, "EMPTY"), "empty values do not count");
        assert!(!environ_has(block, "CLAUDE"));
        assert!(!environ_has(block, "CODEX_SANDBOX"));
        assert!(!environ_has(b"", "PATH"));
    }

    #[test]
    fn ppid_parsing_survives_odd_command_names() {
        assert_eq!(parse_ppid(b"123 (bash) S 45 123 123 0"), Some(45));
        assert_eq!(parse_ppid(b"123 (a b) c) R 7 1 1"), Some(7));
        assert_eq!(parse_ppid(b"123 (x"), None);
        assert_eq!(parse_ppid(b""), None);
    }

    #[test]
    fn a_pipe_read_is_named_as_each_kernel_names_it() {
        for name in [
            &b"anon_pipe_read"[..],
            b"pipe_read\n",
            b"pipe_wait",
            b"pipe_wait_readable",
        ] {
            assert!(sleeps_reading_a_pipe(name), "{name:?}");
        }
        for other in [
            &b"0"[..],
            b"",
            b"do_wait",
            b"hrtimer_nanosleep",
            b"pipe_write",
        ] {
            assert!(!sleeps_reading_a_pipe(other), "{other:?}");
        }
    }

    /// This kernel's name for a process asleep on a pipe read is one the wait recognises (an
    /// unknown name would make `| while read` wait out the whole limit).
    #[cfg(target_os = "linux")]
    #[test]
    fn this_kernel_says_when_a_process_reads_a_pipe() {
        use std::process::{Command, Stdio};
        let mut child = Command::new("sh")
            .args(["-c", "read line"])
            .stdin(Stdio::piped())
            .spawn()
            .unwrap();
        let wchan = format!("/proc/{}/wchan", child.id());
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let mut seen = Vec::new();
        while std::time::Instant::now() < deadline {
            seen = std::fs::read(&wchan).unwrap_or_default();
            if sleeps_reading_a_pipe(&seen) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        drop(child.stdin.take());
        child.wait().unwrap();
        assert!(
            sleeps_reading_a_pipe(&seen),
            "{}",
            String::from_utf8_lossy(&seen)
        );
    }

    #[test]
    fn only_a_plain_cat_passes_its_input_through() {
        assert!(is_plain_cat(b"cat\0"));
        assert!(is_plain_cat(b"/usr/bin/cat\0"));
        assert!(is_plain_cat(b"cat\0-\0"));
        for other in [
            &b"cat\0-n\0"[..],
            b"cat\0file\0",
            b"cat\0-A\0",
            b"head\0",
            b"concat\0",
            b"",
        ] {
            assert!(!is_plain_cat(other), "{other:?}");
        }
    }

    #[test]
    fn tty_index_comes_from_fdinfo() {
        let info = b"pos:\t0\nflags:\t02100002\nmnt_id:\t24\nino:\t91\ntty-index:\t17\n";
        assert_eq!(tty_index(info), Some(17));
        assert_eq!(tty_index(b"pos:\t0\nflags:\t0\n"), None);
        assert_eq!(tty_index(b"tty-index:\tx\n"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_marker_nobody_carries_makes_us_the_top_process() {
        // Our parent (the test harness) does not carry this variable, so this process is the
        // command's top process and its stdout is trivially the harness's stream.
        assert!(check("GIT_PRISM_TEST_MARKER_NOBODY_SETS").is_ok());
    }
}
