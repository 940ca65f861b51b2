//! Hunks of git's unified diff output (`git diff -U<n>`), parsed: for one file ([`hunks`]) or
//! for a whole patch, file by file ([`file_patches`]).
//!
//! Files are recognised by their `--- a/<path>` and `+++ b/<path>` lines (or `rename from`/
//! `rename to` when only the name changed), which hold one path each, C-quoted by git when it
//! has unusual bytes; the `diff --git` line is ambiguous when a path has spaces. The patch must
//! be produced with the default `a/` and `b/` prefixes (`--src-prefix=a/ --dst-prefix=b/`, which
//! override a user's `diff.noprefix` or `diff.mnemonicPrefix`).

use bstr::BString;
use serde::Serialize;

/// One hunk of a unified diff.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Hunk {
    /// First line of the old side (1-based; 0 for an empty side).
    pub old_start: u32,
    /// Lines of the old side.
    pub old_lines: u32,
    /// First line of the new side.
    pub new_start: u32,
    /// Lines of the new side.
    pub new_lines: u32,
    /// The text after the second `@@` (git's function context), if any.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub section: String,
    /// The hunk's lines with their `+`, `-` or ` ` prefix (`\` lines for a missing newline).
    pub lines: Vec<String>,
}

/// Parses the hunks of a patch (invalid UTF-8 replaced). Lines before the first hunk header
/// (the `diff --git` block) are skipped; a second file's header ends the first file's hunks.
pub fn hunks(patch: &[u8]) -> Vec<Hunk> {
    let mut out: Vec<Hunk> = Vec::new();
    let mut in_hunk = false;
    for raw in patch.split(|b| *b == b'\n') {
        let line = String::from_utf8_lossy(raw);
        if let Some(header) = line.strip_prefix("@@ ") {
            if let Some(h) = header_of(header) {
                out.push(h);
                in_hunk = true;
                continue;
            }
        }
        if line.starts_with("diff --git ") {
            in_hunk = false;
            continue;
        }
        if in_hunk && matches!(line.as_bytes().first(), Some(b'+' | b'-' | b' ' | b'\\')) {
            if let Some(h) = out.last_mut() {
                h.lines.push(line.into_owned());
            }
        }
    }
    out
}

/// The hunks of one file of a patch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FilePatch {
    /// The path before (`None` for an added file).
    pub old_path: Option<BString>,
    /// The path after (`None` for a deleted file).
    pub new_path: Option<BString>,
    /// The hunks, in order.
    pub hunks: Vec<Hunk>,
}

impl FilePatch {
    /// The path the file has after the change, or before it when it was deleted.
    pub fn path(&self) -> Option<&BString> {
        self.new_path.as_ref().or(self.old_path.as_ref())
    }
}

/// Splits a whole patch into files and parses each file's hunks.
pub fn file_patches(patch: &[u8]) -> Vec<FilePatch> {
    let mut files: Vec<FilePatch> = Vec::new();
    let mut in_header = false;
    for raw in patch.split(|b| *b == b'\n') {
        if raw.starts_with(b"diff --git ") || raw.starts_with(b"diff --cc ") {
            files.push(FilePatch::default());
            in_header = true;
            continue;
        }
        let Some(file) = files.last_mut() else {
            continue;
        };
        if in_header {
            if let Some(rest) = raw.strip_prefix(b"--- ") {
                file.old_path = side_path(rest);
            } else if let Some(rest) = raw.strip_prefix(b"+++ ") {
                file.new_path = side_path(rest);
            } else if let Some(rest) = raw.strip_prefix(b"rename from ") {
                file.old_path = Some(unquote(rest));
            } else if let Some(rest) = raw.strip_prefix(b"rename to ") {
                file.new_path = Some(unquote(rest));
            } else if let Some(rest) = raw.strip_prefix(b"copy from ") {
                file.old_path = Some(unquote(rest));
            } else if let Some(rest) = raw.strip_prefix(b"copy to ") {
                file.new_path = Some(unquote(rest));
            }
        }
        if let Some(header) = raw.strip_prefix(b"@@ ") {
            if let Some(h) = header_of(&String::from_utf8_lossy(header)) {
                file.hunks.push(h);
                in_header = false;
                continue;
            }
        }
        if !in_header && matches!(raw.first(), Some(b'+' | b'-' | b' ' | b'\\')) {
            if let Some(h) = file.hunks.last_mut() {
                h.lines.push(String::from_utf8_lossy(raw).into_owned());
            }
        }
    }
    files
}

/// The path of a `---`/`+++` line: `None` for `/dev/null`, else without its `a/` or `b/`
/// prefix (patches are asked for with both; `-R` swaps them between the sides).
fn side_path(rest: &[u8]) -> Option<BString> {
    if rest == b"/dev/null" {
        return None;
    }
    // git ends the line with a tab when the path holds a space (for patch(1)), quoted or not;
    // a tab inside a path is always quoted (`\t`), so a literal one is never the path's.
    let rest = rest.strip_suffix(b"\t").unwrap_or(rest);
    let path = unquote(rest);
    Some(
        match path
            .strip_prefix(b"a/")
            .or_else(|| path.strip_prefix(b"b/"))
        {
            Some(p) => p.into(),
            None => path,
        },
    )
}

/// Undoes git's C-quoting of a path (`"a\tb\303\244"`); an unquoted path is returned as is.
pub fn unquote(text: &[u8]) -> BString {
    let Some(inner) = text.strip_prefix(b"\"").and_then(|t| t.strip_suffix(b"\"")) else {
        return text.into();
    };
    let mut out = Vec::with_capacity(inner.len());
    let mut i = 0;
    while i < inner.len() {
        let b = inner[i];
        if b != b'\\' || i + 1 == inner.len() {
            out.push(b);
            i += 1;
            continue;
        }
        let next = inner[i + 1];
        let simple = match next {
            b'a' => Some(0x07),
            b'b' => Some(0x08),
            b't' => Some(b'\t'),
            b'n' => Some(b'\n'),
            b'v' => Some(0x0b),
            b'f' => Some(0x0c),
            b'r' => Some(b'\r'),
            b'"' => Some(b'"'),
            b'\\' => Some(b'\\'),
            _ => None,
        };
        if let Some(c) = simple {
            out.push(c);
            i += 2;
            continue;
        }
        let octal = inner
            .get(i + 1..i + 4)
            .filter(|d| d.iter().all(|c| (b'0'..=b'7').contains(c)));
        match octal {
            Some(d) => {
                let value = d.iter().fold(0u32, |acc, c| acc * 8 + u32::from(c - b'0'));
                out.push(u8::try_from(value).unwrap_or(b'?'));
                i += 4;
            }
            None => {
                out.push(b);
                i += 1;
            }
        }
    }
    out.into()
}

/// Parses `-a,b +c,d @@ section`.
fn header_of(header: &str) -> Option<Hunk> {
    let (ranges, section) = header.split_once(" @@")?;
    let (old, new) = ranges.split_once(' ')?;
    let range = |r: &str, sign: char| -> Option<(u32, u32)> {
        let r = r.strip_prefix(sign)?;
        match r.split_once(',') {
            Some((s, n)) => Some((s.parse().ok()?, n.parse().ok()?)),
            None => Some((r.parse().ok()?, 1)),
        }
    };
    let (old_start, old_lines) = range(old, '-')?;
    let (new_start, new_lines) = range(new, '+')?;
    Some(Hunk {
        old_start,
        old_lines,
        new_start,
        new_lines,
        section: section.trim_start().to_owned(),
        lines: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_patch_splits_into_files_by_their_paths() {
        let patch = b"diff --git a/x y b/x y\nindex 1..2 100644\n--- a/x y\t\n+++ b/x y\t\n@@ -1 +1 @@\n-a\n+b\n\
diff --git a/old b/new\nsimilarity index 100%\nrename from old\nrename to new\n\
diff --git a/gone b/gone\ndeleted file mode 100644\n--- a/gone\n+++ /dev/null\n@@ -1 +0,0 @@\n-z\n\
diff --git \"a/\\303\\244\" \"b/\\303\\244\"\nnew file mode 100644\n--- /dev/null\n+++ \"b/\\303\\244\"\n@@ -0,0 +1 @@\n+--- not a header\n\
diff --git a/bin b/bin\nBinary files a/bin and b/bin differ\n";
        let files = file_patches(patch);
        assert_eq!(files.len(), 5);
        assert_eq!(files[0].path().unwrap(), "x y");
        assert_eq!(files[0].hunks[0].lines, ["-a", "+b"]);
        assert_eq!(files[1].old_path.as_ref().unwrap(), "old");
        assert_eq!(files[1].new_path.as_ref().unwrap(), "new");
        assert!(files[1].hunks.is_empty());
        assert_eq!(files[2].new_path, None);
        assert_eq!(files[2].path().unwrap(), "gone");
        assert_eq!(files[3].path().unwrap(), "ä");
        assert_eq!(files[3].hunks[0].lines, ["+--- not a header"]);
        assert!(files[4].hunks.is_empty());
    }

    #[test]
    fn a_path_with_a_space_ends_at_git_s_tab_quoted_or_not() {
        let patch = b"diff --git a/a b b/a b\n--- a/a b\t\n+++ b/a b\t\n@@ -1 +1 @@\n-a\n+b\n\
diff --git \"a/x\\ty z\" \"b/x\\ty z\"\n--- \"a/x\\ty z\"\t\n+++ \"b/x\\ty z\"\t\n@@ -1 +1 @@\n-a\n+b\n";
        let files = file_patches(patch);
        assert_eq!(files[0].path().unwrap(), "a b");
        assert_eq!(files[1].path().unwrap(), "x\ty z");
    }

    #[test]
    fn unquoting_undoes_git_s_quoting() {
        assert_eq!(unquote(b"plain name"), "plain name");
        assert_eq!(unquote(b"\"a\\tb\\\"c\\\\\""), "a\tb\"c\\");
        assert_eq!(unquote(b"\"\\377x\""), b"\xffx".as_slice());
        assert_eq!(unquote(b"\"trailing\\\""), "trailing\\");
    }

    #[test]
    fn parses_hunks() {
        let patch = b"diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@ fn main\n a\n-b\n+c\n+d\n@@ -10 +11,0 @@\n-z\n\\ No newline at end of file\n";
        let h = hunks(patch);
        assert_eq!(h.len(), 2);
        assert_eq!(
            (
                h[0].old_start,
                h[0].old_lines,
                h[0].new_start,
                h[0].new_lines
            ),
            (1, 2, 1, 3)
        );
        assert_eq!(h[0].section, "fn main");
        assert_eq!(h[0].lines, [" a", "-b", "+c", "+d"]);
        assert_eq!(
            (
                h[1].old_start,
                h[1].old_lines,
                h[1].new_start,
                h[1].new_lines
            ),
            (10, 1, 11, 0)
        );
        assert_eq!(h[1].lines, ["-z", "\\ No newline at end of file"]);
        assert!(hunks(b"Binary files a/x and b/x differ\n").is_empty());
    }
}
