//! Paths as git shows them and as rules match them: git's C-quoting ([`c_quote`]), a path shown
//! to a person ([`shown_path`]: as it is, or quoted when it would print ambiguously), and a
//! protected-path rule ([`is_under`]) and a protected branch pattern ([`star_matches`]); a
//! path as a message names it ([`normal`]). Used by the manifest's wire form, `verify`'s lines and
//! the session guard alike. And the one way the small files git-prism trusts are read (a
//! scope, a session's record, a worktree's `gitdir`, an agent harness's settings):
//! [`read_regular`], regular files only, of bounded size, opened without blocking.

use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Component, Path, PathBuf};

use bstr::{BStr, ByteSlice};

/// Quotes a path the way git does with `core.quotePath` on.
pub fn c_quote(path: &[u8]) -> String {
    let mut out = String::from("\"");
    for &b in path {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            0x07 => out.push_str("\\a"),
            0x08 => out.push_str("\\b"),
            0x0b => out.push_str("\\v"),
            0x0c => out.push_str("\\f"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out.push('"');
    out
}

/// A path as git's status shows it to a person: as it is, or C-quoted when it holds a quote,
/// a backslash, a control or invisible character, or bytes that are not UTF-8 (so the line
/// stays one line and no two paths print the same).
pub fn shown_path(path: &BStr) -> String {
    match path.to_str() {
        Ok(s)
            if !s.chars().any(|c| {
                c == '"' || c == '\\' || c.is_control() || crate::json::is_invisible(c)
            }) =>
        {
            s.to_owned()
        }
        _ => c_quote(path),
    }
}

/// Whether `path` is the protected path `rule` or lies under it: `dir/` covers the directory,
/// a rule without `/` at its end a file or a directory of that name (`./` at the start is
/// ignored; an empty rule covers nothing).
pub fn is_under(path: &[u8], rule: &str) -> bool {
    let rule = rule.trim_start_matches("./").as_bytes();
    if rule.is_empty() || rule == b"/" {
        return false;
    }
    match rule.strip_suffix(b"/") {
        Some(dir) => path.starts_with(rule) || path == dir,
        None => path == rule || (path.starts_with(rule) && path.get(rule.len()) == Some(&b'/')),
    }
}

/// Whether `name` (a branch, as a protected branch pattern is matched) matches `pattern`,
/// where `*` matches any run of characters, `/` included.
pub fn star_matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            let Some(rest) = name.strip_prefix(head) else {
                return false;
            };
            // The tail may hold more stars: try every split point.
            (0..=rest.len()).any(|i| rest.is_char_boundary(i) && star_matches(tail, &rest[i..]))
        }
    }
}

/// A path as a message names it: absolute, without `.` or `..` (`app/../scope.toml` is
/// `scope.toml` beside `app`): the canonical path where it exists, else resolved lexically. A
/// path with neither is kept as it is (its symbolic links too).
pub fn normal(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let dotted = absolute
        .components()
        .any(|c| matches!(c, Component::CurDir | Component::ParentDir));
    if !dotted {
        return absolute;
    }
    if let Ok(canonical) = absolute.canonicalize() {
        return canonical;
    }
    let mut out = PathBuf::new();
    for c in absolute.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Reads a regular file of at most `max` bytes, without blocking on a FIFO or following a
/// device: anything but a regular file is an error, and so is a larger one.
pub fn read_regular(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    if meta.len() > max {
        return Err(std::io::Error::other(format!("larger than {max} bytes")));
    }
    let mut out = Vec::new();
    file.take(max + 1).read_to_end(&mut out)?;
    if out.len() as u64 > max {
        return Err(std::io::Error::other(format!("larger than {max} bytes")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn paths_in_messages_are_normal() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        std::fs::create_dir(top.join("app")).unwrap();
        std::fs::write(top.join("scope.toml"), "").unwrap();
        assert_eq!(
            normal(&top.join("app/../scope.toml")),
            top.join("scope.toml")
        );
        assert_eq!(normal(&top.join("app/./../gone/x")), top.join("gone/x"));
        assert_eq!(normal(&top.join("app")), top.join("app"));
    }

    #[test]
    fn fifos_and_devices_are_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
        #[allow(unsafe_code)]
        // SAFETY: a valid NUL-terminated path.
        let made = unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
        assert_eq!(made, 0);
        assert!(read_regular(&fifo, 10).is_err());
        assert!(read_regular(Path::new("/dev/zero"), 10).is_err());
        let big = dir.path().join("big");
        std::fs::write(&big, [b'x'; 11]).unwrap();
        assert!(read_regular(&big, 10).is_err());
        std::fs::write(&big, [b'x'; 10]).unwrap();
        assert_eq!(read_regular(&big, 10).unwrap().len(), 10);
    }
}
