//! Addresses and words as git reads them: whether an address is on this machine, which
//! transport it runs, the directory a clone makes, and an alias's value split into words.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};

/// Splits an alias's value into words exactly as git's `split_cmdline` does: only space, tab,
/// line feed and carriage return separate (not a no-break space, nor any other byte); single
/// and double quotes group; a backslash outside single quotes takes the next byte as it is;
/// leading and trailing separators make empty words, as in git. `None` where git refuses the
/// value (an unclosed quote, a backslash at the end).
pub fn split_cmdline(value: &[u8]) -> Option<Vec<OsString>> {
    let space = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r');
    let mut words = Vec::new();
    let mut word = Vec::new();
    let mut quoted: Option<u8> = None;
    let mut i = 0;
    while i < value.len() {
        let c = value[i];
        if quoted.is_none() && space(c) {
            words.push(OsString::from_vec(std::mem::take(&mut word)));
            while i + 1 < value.len() && space(value[i + 1]) {
                i += 1;
            }
            i += 1;
        } else if quoted.is_none() && (c == b'\'' || c == b'"') {
            quoted = Some(c);
            i += 1;
        } else if Some(c) == quoted {
            quoted = None;
            i += 1;
        } else {
            let mut c = c;
            if c == b'\\' && quoted != Some(b'\'') {
                i += 1;
                c = *value.get(i)?;
            }
            word.push(c);
            i += 1;
        }
    }
    if quoted.is_some() {
        return None;
    }
    words.push(OsString::from_vec(word));
    Some(words)
}

/// Whether an argument names a transport that runs a program: `ext::`/`fd::` and any
/// `<helper>::<address>` (git runs `git-remote-<helper>` from PATH), or a URL whose scheme git
/// hands to a helper (anything but `http`, `https`, `ssh`, `git`, `file`, `ftp`, `ftps`).
pub fn runs_transport(arg: &[u8]) -> bool {
    let value = match arg.iter().position(|b| *b == b'=') {
        Some(eq) if arg.starts_with(b"-") => &arg[eq + 1..],
        _ => arg,
    };
    if let Some(at) = value.windows(2).position(|w| w == b"::") {
        let helper = &value[..at];
        if !helper.is_empty()
            && helper
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'+'))
        {
            return true;
        }
    }
    if let Some(at) = value.windows(3).position(|w| w == b"://") {
        let scheme = &value[..at];
        let known = [
            &b"http"[..],
            b"https",
            b"ssh",
            b"git",
            b"file",
            b"ftp",
            b"ftps",
            b"git+ssh",
            b"ssh+git",
        ];
        if !scheme.is_empty()
            && scheme
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
            && !known.iter().any(|k| k.eq_ignore_ascii_case(scheme))
        {
            return true;
        }
    }
    false
}

/// Whether an address names a repository on this machine (a path or a `file://` URL) rather
/// than another machine, as git's `url_is_local_not_ssh` decides: no `:` before the first `/`.
pub fn is_local_address(address: &[u8]) -> bool {
    if address.starts_with(b"file://") {
        return true;
    }
    if address.windows(3).any(|w| w == b"://") {
        return false;
    }
    match (
        address.iter().position(|b| *b == b':'),
        address.iter().position(|b| *b == b'/'),
    ) {
        (None, _) => true,
        (Some(colon), Some(slash)) => slash < colon,
        (Some(_), None) => false,
    }
}

/// The path of a local address (`file://` stripped).
pub fn local_path(address: &[u8]) -> &OsStr {
    OsStr::from_bytes(address.strip_prefix(b"file://").unwrap_or(address))
}

/// The directory `git clone <url>` makes when none is named: the last part of the address,
/// without a trailing `/`, `/.git`, `.git` or `.bundle` (with `.git` added for a bare clone),
/// as git's `git_url_basename` works it out.
pub fn clone_dir(url: &[u8], bare: bool) -> OsString {
    let mut u = url;
    while u.len() > 1 && (u.ends_with(b"/") || u.ends_with(b"/.git")) {
        u = u
            .strip_suffix(b"/")
            .or_else(|| u.strip_suffix(b"/.git"))
            .unwrap_or(u);
    }
    let start = u
        .iter()
        .rposition(|b| *b == b'/' || *b == b':')
        .map_or(0, |p| p + 1);
    let mut name = &u[start..];
    for suffix in [&b".bundle"[..], b".git"] {
        if let Some(s) = name.strip_suffix(suffix) {
            name = s;
            break;
        }
    }
    let mut out = name.to_vec();
    if bare {
        out.extend_from_slice(b".git");
    }
    OsString::from_vec(out)
}
