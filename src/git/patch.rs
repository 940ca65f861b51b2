//! Hunks of git's unified diff output (`git diff -U<n>` for one file), parsed.

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
