//! The changed lines of a manifest's files: git's own patch for the range (`git diff -p`),
//! split per file, matched to the manifest's entries by path, and each hunk placed in the
//! function it changes.
//!
//! Invariants:
//! - The patch comes from the real git, run like the facts are (no external diff, no textconv,
//!   no colour, the default `a/`/`b/` prefixes, on a private index copy for working-tree
//!   targets), with the caller's fact options and then the hunk-shaping options, so the hunks
//!   are the ones git would print for the same options.
//! - Only the files asked for are diffed (with the sources of their renames), unless the caller
//!   chose options under which a narrower pathspec could change git's answer (`--relative`,
//!   copy detection), every file is asked for, or too many are to name them all (the caller's
//!   pathspecs are used then); git's output is read up to [`MAX_PATCH`] bytes.
//! - Untracked files get the hunk git would show for them if they were added.
//! - A hunk's functions are the innermost function around each of its changed lines, on the
//!   side that line belongs to (tree-sitter's qualified names, in order, each once); a hunk in
//!   no known function keeps git's own hunk header text.
//! - The caller gives the lines of context, and the caller's hunk-shaping options (`-U<n>`,
//!   `-W`) win over it: the shim's answers and `get_change_manifest`'s compact form ask for
//!   [`DEFAULT_CONTEXT`] (none). Which files show hunks at all is [`shows_hunks`]'s: not
//!   binary, not a submodule, not a regenerated generated file (ADR 14); a link's target is its
//!   content.

use std::ffi::OsString;

use bstr::ByteSlice;

use super::model::{FileChange, Manifest, Outline};
use crate::git::patch::{self, Hunk};
use crate::git::{GitError, PatchPaths, PatchShape, Repo, worktree};

/// The most bytes of patch read from git for one answer.
pub const MAX_PATCH: usize = 64 * 1024 * 1024;

/// The largest untracked file whose lines an answer shows (read whole from the work tree).
pub const MAX_UNTRACKED: u64 = 16 * 1024 * 1024;

/// Lines of context around changes when the caller's hunk options give none: none, the
/// changed lines alone, each hunk headed by the functions it changes (ADR 13 has the
/// measurement behind it; `-U<n>` and `-W` ask for more).
pub const DEFAULT_CONTEXT: u32 = 0;

/// One hunk and the functions it changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedHunk {
    /// git's hunk.
    pub hunk: Hunk,
    /// The qualified names of the innermost functions around its changed lines, in order,
    /// each once (old-side names for removed lines, new-side names for added ones).
    pub functions: Vec<String>,
    /// git's own hunk header text (its function context), for a hunk in no known function.
    pub section: Option<String>,
}

impl PlacedHunk {
    /// How a hunk header names where it is: every function it changes, as `label` says
    /// ([`place_names`]), or git's own header text when it is in none.
    pub fn place(&self, label: &dyn Fn(&str) -> String) -> Option<String> {
        place_names(&self.functions, label).or_else(|| self.section.clone())
    }
}

/// The words a label may start with to say how its function changed (a modified function's
/// label is its bare name).
const KINDS: [&str; 6] = [
    "added",
    "deleted",
    "signature",
    "renamed",
    "moved",
    "reformatted",
];

/// Names every function of `names` as `label` says, each change once: modified functions by
/// name first, then each kind of change once with its names (`parse, peek; added next;
/// deleted old`). No name is left out: a label names every function its hunk changes.
pub fn place_names(names: &[String], label: &dyn Fn(&str) -> String) -> Option<String> {
    let mut groups: Vec<(&'static str, Vec<String>)> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for name in names {
        let l = label(name);
        if seen.contains(&l) {
            continue;
        }
        seen.push(l.clone());
        let (kind, rest) = match l.split_once(' ') {
            Some((k, rest)) => match KINDS.iter().find(|kind| **kind == k) {
                Some(kind) => (*kind, rest.to_owned()),
                None => ("", l.clone()),
            },
            None => ("", l.clone()),
        };
        match groups.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, names)) => names.push(rest),
            None => groups.push((kind, vec![rest])),
        }
    }
    groups.sort_by_key(|(k, _)| !k.is_empty());
    let text = groups
        .iter()
        .map(|(k, names)| {
            if k.is_empty() {
                names.join(", ")
            } else {
                format!("{k} {}", names.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join("; ");
    (!text.is_empty()).then_some(text)
}

/// The hunks of one file of the manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileHunks {
    /// The file's index in [`Manifest::files`].
    pub index: usize,
    /// Its hunks, in order.
    pub hunks: Vec<PlacedHunk>,
}

/// Returns the hunks of the files `wanted` (indices into `manifest.files`), in that order, with
/// `context` lines of context and then `shaping` (`-U<n>`, `-W`, ...) applied after the
/// caller's fact options. Files without hunks
/// (binary, mode-only, pure renames, submodules) are left out.
pub fn hunks(
    repo: &Repo,
    manifest: &Manifest,
    wanted: &[usize],
    context: u32,
    shaping: &[OsString],
) -> Result<Vec<FileHunks>, GitError> {
    let mut found: Vec<Option<Vec<Hunk>>> = vec![None; manifest.files.len()];
    let tracked: Vec<usize> = wanted
        .iter()
        .copied()
        .filter(|&i| !manifest.files[i].untracked)
        .collect();
    if !tracked.is_empty() {
        for file in run(repo, manifest, &tracked, context, shaping)? {
            let Some(path) = file.path() else { continue };
            let same_path = |&i: &usize| manifest.files[i].path == *path;
            // A path listed twice gets git's sections in turn; a type change (a link replaced
            // by a file) is one entry and two sections, the removal then the addition.
            let unfilled = tracked
                .iter()
                .copied()
                .find(|i| same_path(i) && found[*i].is_none());
            match unfilled.or_else(|| tracked.iter().copied().find(same_path)) {
                Some(i) => found[i].get_or_insert_with(Vec::new).extend(file.hunks),
                None => continue,
            }
        }
    }
    let mut result = Vec::new();
    for &i in wanted {
        let f = &manifest.files[i];
        let unplaced = if f.untracked {
            untracked_hunk(repo, f, MAX_UNTRACKED)
        } else {
            found[i].take().unwrap_or_default()
        };
        if unplaced.is_empty() {
            continue;
        }
        result.push(FileHunks {
            index: i,
            hunks: unplaced.into_iter().map(|h| place(h, f)).collect(),
        });
    }
    Ok(result)
}

/// Runs `git diff -p` for the files `tracked` of the manifest's range, split per file.
fn run(
    repo: &Repo,
    manifest: &Manifest,
    tracked: &[usize],
    context: u32,
    shaping: &[OsString],
) -> Result<Vec<patch::FilePatch>, GitError> {
    let pairs = tracked
        .iter()
        .map(|&i| {
            let f = &manifest.files[i];
            (f.path.as_slice(), f.old_path.as_ref().map(|p| p.as_slice()))
        })
        .collect();
    repo.patch(
        &manifest.target,
        &manifest.diff_options,
        &PatchShape { context, shaping },
        &PatchPaths {
            pairs,
            caller: &manifest.paths,
            all: tracked.len() == manifest.files.len(),
        },
        MAX_PATCH,
    )
}

/// Places a hunk in the functions its changed lines belong to: the innermost function around
/// each changed line, in order; git's hunk header text when none is.
fn place(hunk: Hunk, file: &FileChange) -> PlacedHunk {
    let mut names: Vec<String> = Vec::new();
    for (old_side, line) in changed_lines(&hunk) {
        if let Some(name) = function_at(file, old_side, line) {
            if !names.iter().any(|n| n == name) {
                names.push(name.to_owned());
            }
        }
    }
    let section = hunk.section.trim();
    let section =
        (names.is_empty() && !section.is_empty()).then(|| section.chars().take(80).collect());
    PlacedHunk {
        hunk,
        functions: names,
        section,
    }
}

/// The qualified name of the innermost function around line `line` of one side of a file.
pub fn function_at(file: &FileChange, old_side: bool, line: u32) -> Option<&str> {
    let spans = if old_side {
        &file.outline.before
    } else {
        &file.outline.after
    };
    Outline::enclosing(spans, line).map(|s| s.name.as_str())
}

/// The changed lines of a hunk: whether each is on the old side, and its line number there.
pub fn changed_lines(hunk: &Hunk) -> Vec<(bool, u32)> {
    let (mut old, mut new) = (hunk.old_start, hunk.new_start);
    let mut out = Vec::new();
    for line in &hunk.lines {
        match line.as_bytes().first() {
            Some(b'-') => {
                out.push((true, old));
                old += 1;
            }
            Some(b'+') => {
                out.push((false, new));
                new += 1;
            }
            Some(b' ') => {
                old += 1;
                new += 1;
            }
            _ => {}
        }
    }
    out
}

/// The hunk git would show for an untracked file if it were added: every line added (none for
/// an empty, binary, unreadable or oversized file: git shows an empty new file without a hunk).
/// Read with the work-tree reader, so it never leaves the tree.
pub fn untracked_hunk(repo: &Repo, file: &FileChange, cap: u64) -> Vec<Hunk> {
    let content = repo
        .workdir()
        .and_then(|w| worktree::read(w, &file.path, cap).ok().flatten());
    // As git shows a new file: a link's target is its one line, without a final newline.
    let (content, link) = match content {
        Some(worktree::Content::File(bytes)) => (bytes, false),
        Some(worktree::Content::Symlink(target)) => (target, true),
        _ => return Vec::new(),
    };
    // An empty file: git writes `new file mode` and no `@@` line, not `@@ -0,0 +0,0 @@`.
    if content.is_empty() || content.contains(&0) {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(&content);
    let mut lines: Vec<String> = text.lines().map(|l| format!("+{l}")).collect();
    if link || (!content.is_empty() && !content.ends_with(b"\n")) {
        lines.push("\\ No newline at end of file".into());
    }
    let added = text.lines().count();
    vec![Hunk {
        old_start: 0,
        old_lines: 0,
        new_start: u32::from(added > 0),
        new_lines: u32::try_from(added).unwrap_or(u32::MAX),
        section: String::new(),
        lines,
    }]
}

/// Returns whether a path's hunks are worth showing: text a person wrote or a link's target
/// (not generated, not binary, not a submodule).
pub fn shows_hunks(f: &FileChange) -> bool {
    use super::model::Kind;
    // A link's target is its content: where it points is what a reviewer must see (git's patch
    // shows it as a line), and a file that became a link shows what it held.
    let text_kind = |mode: crate::git::Mode| {
        matches!(Kind::of_mode(mode), Some(Kind::File | Kind::Symlink) | None)
    };
    !f.generated_hidden()
        && !f.binary
        && text_kind(f.mode_before)
        && text_kind(f.mode_after)
        && f.lines.is_some()
}

/// The path of a file as the answer names it (git's C-quoted form when it is not UTF-8).
pub fn display_path(path: &[u8]) -> String {
    // Quoted as git quotes it when it is not UTF-8 or holds a quote, a backslash or a control
    // character: an unquoted path then never holds `"`, a quoted one always starts with it, and
    // git's quoting is one-to-one, so two paths never print the same (no duplicate JSON keys).
    let plain = path
        .iter()
        .all(|&b| b != b'"' && b != b'\\' && b >= 0x20 && b != 0x7f);
    match path.to_str() {
        // A name with an invisible character (`auth\u{200b}.py`) would look like another:
        // quoted, as git quotes it, its bytes show.
        Ok(s) if plain && !s.chars().any(crate::json::is_invisible) => s.to_owned(),
        _ => super::render::c_quote(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::model::Span;

    fn hunk(old_start: u32, new_start: u32, lines: &[&str]) -> Hunk {
        Hunk {
            old_start,
            old_lines: 0,
            new_start,
            new_lines: 0,
            section: "impl Foo {".into(),
            lines: lines.iter().map(|l| (*l).to_owned()).collect(),
        }
    }

    #[test]
    fn changed_lines_are_numbered_on_their_side() {
        assert_eq!(
            changed_lines(&hunk(10, 12, &[" a", " b", "+c"])),
            [(false, 14)]
        );
        assert_eq!(
            changed_lines(&hunk(10, 12, &[" a", "-b", "+c", "+d"])),
            [(true, 11), (false, 13), (false, 14)]
        );
        assert!(changed_lines(&hunk(10, 12, &[" a"])).is_empty());
    }

    #[test]
    fn a_hunk_is_placed_in_its_innermost_function() {
        let span = |name: &str, start, end| Span {
            name: name.into(),
            start,
            end,
        };
        let file = FileChange {
            path: "a.rs".into(),
            old_path: None,
            status: crate::git::facts::Status::Modified,
            similarity: None,
            mode_before: crate::git::Mode::FILE,
            mode_after: crate::git::Mode::FILE,
            oid_before: None,
            oid_after: None,
            lines: Some((1, 1)),
            binary: false,
            size_before: None,
            size_after: None,
            language: None,
            generated: None,
            generated_by_change: false,
            generated_shown: None,
            untracked: false,
            functions: super::super::model::Functions::Off,
            outline: Outline {
                before: vec![span("Foo::old", 1, 30)],
                after: vec![span("Foo", 1, 40), span("Foo::bar", 10, 20)],
            },
        };
        let name = |n: &str| n.to_owned();
        let placed = place(hunk(10, 12, &[" a", "+c"]), &file);
        assert_eq!(placed.place(&name).as_deref(), Some("Foo::bar"));
        let placed = place(hunk(10, 12, &["-a"]), &file);
        assert_eq!(placed.place(&name).as_deref(), Some("Foo::old"));
        // A hunk that starts before a function (its doc comment) and reaches into it.
        let placed = place(hunk(5, 5, &["+doc", " a", " b", " c", " d", "+x"]), &file);
        assert_eq!(placed.place(&name).as_deref(), Some("Foo, Foo::bar"));
        // Labels that name one change once (a renamed function's old and new names).
        let one = |_: &str| "renamed a -> b".to_owned();
        assert_eq!(placed.place(&one).as_deref(), Some("renamed a -> b"));
        // Every function is named, each kind of change once, modified ones first.
        let many: Vec<String> = [
            "to_base64",
            "ser_bytes",
            "run",
            "ser_path",
            "serialize",
            "go",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        let kinds = |n: &str| match n {
            "serialize" => "added <Data as Serialize>::serialize".to_owned(),
            "run" | "go" => n.to_owned(),
            _ => format!("deleted {n}"),
        };
        assert_eq!(
            place_names(&many, &kinds).as_deref(),
            Some(
                "run, go; deleted to_base64, ser_bytes, ser_path; added <Data as Serialize>::serialize"
            )
        );
        let placed = place(hunk(100, 100, &["+z"]), &file);
        assert_eq!(
            placed.place(&name).as_deref(),
            Some("impl Foo {"),
            "git's header text"
        );
    }
}
