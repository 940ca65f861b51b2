//! Replacing this process with the real program.
//!
//! Invariants: the real program gets the caller's argv (including `argv[0]`), every file
//! descriptor, the signal mask and ignored signals exactly as the caller left them, and the
//! caller's environment plus at most two variables: `GIT_PRISM_INSIDE_SHIM` (the hop count,
//! `1` on the first hop) and the pin variable carrying the resolved path (so a nested shim
//! execs it without walking PATH). `execve(2)` is called directly: the standard library's
//! `Command::exec` resets the signal mask and `SIGPIPE`, which git alone would not see.

use std::ffi::{CString, OsStr, OsString, c_char};
use std::io;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;

#[allow(unsafe_code, reason = "the C environment execve passes on")]
unsafe extern "C" {
    static environ: *const *const c_char;
}

/// The variable that marks a process as started by the shim; its value counts the hops.
pub const INSIDE_SHIM: &str = "GIT_PRISM_INSIDE_SHIM";

/// Replaces the process with `program`, returning only if `execve` failed.
///
/// `set` lists variables to add to the environment (replacing any existing value).
#[allow(
    unsafe_code,
    reason = "execve replaces the process; std has no exec that keeps argv[0] as bytes"
)]
pub fn exec(program: &Path, argv0: &OsStr, args: &[OsString], set: &[(&str, &OsStr)]) -> io::Error {
    let Ok(program) = CString::new(program.as_os_str().as_bytes()) else {
        return io::Error::new(io::ErrorKind::InvalidInput, "program path contains NUL");
    };
    let mut argv_owned = Vec::with_capacity(args.len() + 1);
    for arg in std::iter::once(argv0).chain(args.iter().map(OsString::as_os_str)) {
        match CString::new(arg.as_bytes()) {
            Ok(c) => argv_owned.push(c),
            Err(_) => return io::Error::new(io::ErrorKind::InvalidInput, "argument contains NUL"),
        }
    }
    let mut argv: Vec<*const c_char> = argv_owned.iter().map(|c| c.as_ptr()).collect();
    argv.push(std::ptr::null());

    let mut added = Vec::with_capacity(set.len());
    for (name, value) in set {
        let mut entry = Vec::with_capacity(name.len() + 1 + value.len());
        entry.extend_from_slice(name.as_bytes());
        entry.push(b'=');
        entry.extend_from_slice(value.as_bytes());
        match CString::new(entry) {
            Ok(c) => added.push(c),
            Err(_) => return io::Error::new(io::ErrorKind::InvalidInput, "variable contains NUL"),
        }
    }
    let mut envp: Vec<*const c_char> = Vec::with_capacity(64);
    // SAFETY: `environ` is the C library's NULL-terminated environment array; nothing in this
    // single-threaded hot path modifies the environment while it is read.
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

    // SAFETY: all three arrays are NULL-terminated and point into `CString`s and `environ`
    // entries that stay alive for the duration of the call.
    unsafe {
        libc::execve(program.as_ptr(), argv.as_ptr(), envp.as_ptr());
    }
    io::Error::last_os_error()
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
