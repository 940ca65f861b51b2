//! The fidelity contract: who reads git's stdout?
//!
//! JSON is served only when this process's stdout is the very stream the agent's harness
//! handed to the command: not a file a script redirected it into, not a pipe into `git apply`,
//! `head` or `grep`, not a `$(...)`, not a test runner capturing a subprocess.
//!
//! The harness is the nearest ancestor process whose environment does not carry the agent's
//! marker variable (the one [`super::detect`] found); the command's top process is its child
//! on the chain from us. If our stdout and the top process's stdout are not the same open file
//! (same device and inode: the same pipe, terminal, socket or file), something in between
//! redirected it, and the call passes through. See `docs/adr/0003-fidelity-contract.md`.
//!
//! On Linux this reads `/proc/<pid>/stat`, `/proc/<pid>/environ` and `/proc/<pid>/fd/1` of a
//! few ancestors: a handful of small reads, well under a millisecond. Elsewhere there is no
//! such check yet, and every call passes through.

use std::io;

/// The error returned by [`check`]: why the answer must be git's own bytes.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// File descriptor 1 is closed.
    #[error("stdout is closed")]
    StdoutClosed,
    /// Stdout is not the stream the harness gave the command.
    #[error("stdout is redirected (not the stream the agent's harness gave the command)")]
    Redirected,
    /// Every ancestor carries the marker (or the chain is unreadable to the end).
    #[error("no agent harness found among the ancestor processes")]
    NoHarness,
    /// A `/proc` file could not be read (another user's process, a race with its exit).
    #[error("cannot inspect process {pid}: {source}")]
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
    use super::{MAX_DEPTH, Refusal, environ_has, parse_ppid};
    use std::os::unix::fs::MetadataExt;

    pub fn check(marker: &str) -> Result<(), Refusal> {
        let mine = stdout_identity()?;
        let me = std::process::id();
        let mut child = me;
        let mut pid = read_ppid(me)?;
        let mut depth = 0;
        let top = loop {
            if pid == 0 || depth == MAX_DEPTH {
                return Err(Refusal::NoHarness);
            }
            let environ = std::fs::read(format!("/proc/{pid}/environ"))
                .map_err(|source| Refusal::Proc { pid, source })?;
            if !environ_has(&environ, marker) {
                break child;
            }
            child = pid;
            pid = read_ppid(pid)?;
            depth += 1;
        };
        if top == me {
            return Ok(());
        }
        let theirs = std::fs::metadata(format!("/proc/{top}/fd/1"))
            .map_err(|source| Refusal::Proc { pid: top, source })?;
        if (theirs.dev(), theirs.ino()) == mine {
            Ok(())
        } else {
            Err(Refusal::Redirected)
        }
    }

    fn stdout_identity() -> Result<(u64, u64), Refusal> {
        let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: `fstat` writes a `stat` into the buffer when it returns 0.
        let rc = unsafe { libc::fstat(1, st.as_mut_ptr()) };
        if rc != 0 {
            return Err(Refusal::StdoutClosed);
        }
        // SAFETY: initialised by the successful `fstat` above.
        let st = unsafe { st.assume_init() };
        #[allow(
            clippy::unnecessary_cast,
            reason = "the field types differ between targets"
        )]
        Ok((st.st_dev as u64, st.st_ino as u64))
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

    #[cfg(target_os = "linux")]
    #[test]
    fn a_marker_nobody_carries_makes_us_the_top_process() {
        // Our parent (the test harness) does not carry this variable, so this process is the
        // command's top process and its stdout is trivially the harness's stream.
        assert!(check("GIT_PRISM_TEST_MARKER_NOBODY_SETS").is_ok());
    }
}
