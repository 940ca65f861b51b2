//! Quoting arguments for command lines shown to people and agents (`raw`, `next_page`).

use std::ffi::OsStr;

/// Quotes one argument for a POSIX shell: bare when it is made of safe characters,
/// single-quoted otherwise, and `$'...'` with escapes for bytes that are not valid UTF-8 or
/// are control characters (so that a quoted command line stays one line).
pub fn quote(arg: &OsStr) -> String {
    let bytes = arg.as_encoded_bytes();
    let safe = |b: &u8| b.is_ascii_alphanumeric() || b"-_./:=@^~%+,".contains(b);
    if !bytes.is_empty() && bytes.iter().all(safe) {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    match std::str::from_utf8(bytes) {
        Ok(s) if !s.chars().any(char::is_control) => {
            format!("'{}'", s.replace('\'', r"'\''"))
        }
        _ => {
            let mut out = String::from("$'");
            for b in bytes {
                match b {
                    b'\'' => out.push_str("\\'"),
                    b'\\' => out.push_str("\\\\"),
                    b'\n' => out.push_str("\\n"),
                    b'\t' => out.push_str("\\t"),
                    0x20..=0x7e => out.push(*b as char),
                    _ => out.push_str(&format!("\\x{b:02x}")),
                }
            }
            out.push('\'');
            out
        }
    }
}

/// Joins quoted arguments with spaces.
pub fn join<'a>(args: impl IntoIterator<Item = &'a OsStr>) -> String {
    args.into_iter().map(quote).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn quoting() {
        assert_eq!(quote(OsStr::new("main..HEAD")), "main..HEAD");
        assert_eq!(quote(OsStr::new("a b")), "'a b'");
        assert_eq!(quote(OsStr::new("it's")), r"'it'\''s'");
        assert_eq!(quote(OsStr::new("")), "''");
        assert_eq!(quote(OsStr::from_bytes(b"\xff.txt")), r"$'\xff.txt'");
        // A control character keeps the word on one line.
        assert_eq!(quote(OsStr::new("a\nb'c")), r"$'a\nb\'c'");
        assert_eq!(
            join([OsStr::new("diff"), OsStr::new("-- x")]),
            "diff '-- x'"
        );
    }
}
