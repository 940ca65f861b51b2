//! The map of a change, in the fewest tokens that still say everything an agent acts on: every
//! file (status, path, line counts, and only the flags that matter: binary, generated,
//! submodule, link, mode, untracked) and every changed function (kind of change, qualified
//! name, and the signature of an added or signature-changed one, visibility included), grouped
//! so a directory or a path is written once.
//!
//! Lines read like git's own `--name-status` and `--stat` (`M lib.rs +3 -1`), which agents
//! already know. The same vocabulary labels hunk headers (`added Map::get`, `renamed a -> b`,
//! a modified function by its name alone) and a log's one-line summary of a commit.

mod dependencies;
mod functions;
mod totals;

use bstr::ByteSlice;
use serde::Serialize;
use serde::ser::SerializeMap;

use crate::git::facts::Status;
use crate::git::{Mode, Oid};
use crate::manifest::hunks::{display_path, shows_hunks};
use crate::manifest::model::{FileChange, Kind};

pub use dependencies::dependency_lines;
pub use functions::{declaration_lines, function_lines, function_lines_where, labels, opaque_line};
pub(super) use functions::{rename_lines, shown_signature, signed, split_member};
pub use totals::{change_line, directory_totals, summary_line};

/// A JSON object whose keys keep the order they were inserted in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ordered<V>(pub Vec<(String, V)>);

impl<V> Ordered<V> {
    /// Whether it has no entries.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Appends `value` to the entry `key`, adding the entry at the end when it is new.
    pub fn push_to(&mut self, key: &str, value: V::Item)
    where
        V: Default + Extend<V::Item> + IntoIterator,
    {
        // Files arrive in git's order, where a directory's files can be interrupted by those
        // of its subdirectories (`src/app.rs`, `src/args/x.rs`, `src/lib.rs`): look back, the
        // most recent entries first.
        match self.0.iter_mut().rev().find(|(k, _)| k == key) {
            Some((_, v)) => v.extend(std::iter::once(value)),
            None => {
                let mut v = V::default();
                v.extend(std::iter::once(value));
                self.0.push((key.to_owned(), v));
            }
        }
    }
}

impl<V: Serialize> Serialize for Ordered<V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// What a map describes: a range's files and dependency changes (a manifest's, or one commit's
/// of a log).
#[derive(Clone, Copy)]
pub struct Change<'a> {
    /// The changed files.
    pub files: &'a [FileChange],
    /// The dependency changes.
    pub dependencies: &'a crate::deps::Report,
}

impl<'a> From<&'a crate::manifest::Manifest> for Change<'a> {
    fn from(m: &'a crate::manifest::Manifest) -> Self {
        Change {
            files: &m.files,
            dependencies: &m.dependencies,
        }
    }
}

/// One file of the map: its directory, its line, and its functions.
#[derive(Clone, Debug)]
pub struct MapEntry {
    /// The file's index among the change's files.
    pub index: usize,
    /// Its directory (`src/`, `""` at the top), the key its line is listed under.
    pub dir: String,
    /// `M lib.rs +3 -1` and the flags that matter.
    pub line: String,
    /// Its path as an answer quotes it (the map lists the file by `dir` and `line`).
    pub path: String,
    /// `added pub fn Type::name(..)` (the name written into its signature), `modified f`, ...
    pub functions: Vec<String>,
}

/// The map of every file, in `order` (indices into `files`).
pub fn map_entries(files: &[FileChange], order: &[usize]) -> Vec<MapEntry> {
    let mut seen = std::collections::HashSet::new();
    order
        .iter()
        .map(|&i| {
            let f = &files[i];
            let (dir, name) = split(&f.path);
            let mut line = file_line(f, &name);
            if !seen.insert((dir.clone(), line.clone())) {
                // A name built to read like another file's line (`a.rs +1 -0`): quoted, it
                // cannot (two lines under one key would merge two files).
                let quoted = crate::manifest::render::c_quote(name.as_bytes());
                line = file_line(f, &quoted);
                seen.insert((dir.clone(), line.clone()));
            }
            MapEntry {
                index: i,
                dir,
                line,
                path: display_path(&f.path),
                functions: function_lines(f),
            }
        })
        .collect()
}

/// Whether a file needs its own line beside its hunks: unless it is a plain modification (a
/// file listed only by its hunks is `M`, its counts its `+` and `-` lines), when the hunks do
/// not say everything the line does (added, deleted, a rename's source, a mode, binary,
/// generated, a link, a submodule, an untracked file) or it has no hunks to show.
pub fn needs_line(f: &FileChange) -> bool {
    !shows_hunks(f)
        || f.generated.is_some()
        || f.mode_before.is_symlink()
        || f.mode_after.is_symlink()
        || f.untracked
        || f.old_path.is_some()
        || f.status != Status::Modified
        || (f.mode_before.exists() && f.mode_after.exists() && f.mode_before != f.mode_after)
        || f.similarity.is_some()
}

/// Splits a path into its directory (with a final `/`, `""` at the top) and its name; a path
/// that is not UTF-8 stays whole, C-quoted as git quotes it.
pub(super) fn split(path: &[u8]) -> (String, String) {
    if path.to_str().is_err() || display_path(path).starts_with('"') {
        // Quoted whole (see `display_path`): a quoted name under a plain directory could read
        // like another path.
        return (String::new(), display_path(path));
    }
    match path.rfind_byte(b'/') {
        Some(i) => (
            path[..=i].to_str_lossy().into_owned(),
            path[i + 1..].to_str_lossy().into_owned(),
        ),
        None => (String::new(), path.to_str_lossy().into_owned()),
    }
}

/// `M name +3 -1`, with git's status letter (and rename score), then only the flags that
/// matter.
fn file_line(f: &FileChange, name: &str) -> String {
    let status = match f.status {
        Status::Added => "A".to_owned(),
        Status::Modified => match f.similarity {
            // `-B`: git prints the dissimilarity of a broken pair.
            Some(score) => format!("M{score:03}"),
            None => "M".to_owned(),
        },
        Status::Deleted => "D".to_owned(),
        Status::Renamed => format!("R{:03}", f.similarity.unwrap_or(0)),
        Status::Copied => format!("C{:03}", f.similarity.unwrap_or(0)),
        Status::TypeChanged => "T".to_owned(),
        Status::Unmerged => "U".to_owned(),
        Status::Unknown => "X".to_owned(),
    };
    let mut line = if f.untracked {
        format!("? {name}")
    } else {
        format!("{status} {name}")
    };
    if let Some(old) = &f.old_path {
        line.push_str(" <- ");
        line.push_str(&display_path(old));
    }
    match f.lines {
        Some((a, r)) if !f.binary => line.push_str(&format!(" +{a} -{r}")),
        _ => {}
    }
    if f.binary {
        line.push_str(" binary");
    }
    match f.kind() {
        Kind::Submodule => {
            let short = |o: &Option<Oid>, mode: Mode| {
                o.as_ref()
                    .filter(|_| mode.is_gitlink())
                    .map_or("-".to_owned(), |s| s.short(12).to_owned())
            };
            line.push_str(&format!(
                " submodule {}..{}",
                short(&f.oid_before, f.mode_before),
                short(&f.oid_after, f.mode_after)
            ));
        }
        Kind::Symlink => line.push_str(" symlink"),
        Kind::File => {}
    }
    if f.mode_before.exists() && f.mode_after.exists() && f.mode_before != f.mode_after {
        line.push_str(&format!(
            " mode {:o}->{:o}",
            f.mode_before.bits(),
            f.mode_after.bits()
        ));
    }
    if let Some(g) = f.generated {
        line.push_str(&format!(" generated:{}", g.label()));
        if f.generated_by_change {
            // Said so, and shown (ADR 14): the change made it generated, or (a lockfile the
            // base had) it changed in ways no package's version explains.
            let existed = matches!(f.status, Status::Modified | Status::TypeChanged);
            line.push_str(
                if g == crate::manifest::generated::Reason::Lockfile && existed {
                    ", changes no version explains"
                } else {
                    " by this change"
                },
            );
        }
        if let Some(shown) = f.generated_shown {
            // Shown as well (ADR 14): an edit, not a regeneration.
            line.push_str(", ");
            line.push_str(shown.label());
        }
    }
    line
}

/// The first `depth` directories of a path (`a/b/`), or `""` for a top-level file.
pub(super) fn prefix(path: &[u8], depth: usize) -> String {
    let dirs: Vec<&[u8]> = path.split(|b| *b == b'/').collect();
    let n = dirs.len().saturating_sub(1).min(depth);
    let mut out = String::new();
    for d in &dirs[..n] {
        out.push_str(&d.to_str_lossy());
        out.push('/');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::functions::function_line;
    use super::*;
    use crate::lang::{ChangeType, FunctionChange};
    use crate::manifest::model::{Functions, Outline};

    fn file(path: &str, status: Status, lines: Option<(u64, u64)>) -> FileChange {
        FileChange {
            path: path.into(),
            old_path: None,
            status,
            similarity: None,
            mode_before: crate::git::Mode::FILE,
            mode_after: crate::git::Mode::FILE,
            oid_before: None,
            oid_after: None,
            lines,
            binary: lines.is_none(),
            size_before: None,
            size_after: None,
            language: None,
            generated: None,
            generated_by_change: false,
            generated_shown: None,
            untracked: false,
            functions: Functions::Off,
            outline: Outline::default(),
        }
    }

    fn change(name: &str, change_type: ChangeType) -> FunctionChange {
        FunctionChange {
            name: name.into(),
            old_name: Some("old".into()),
            kind: crate::lang::FunctionKind::Function,
            change_type,
            start_line: 1,
            end_line: 2,
            signature: format!("fn {name}()"),
            old_path: Some("was.rs".into()),
            edited: false,
            visibility: crate::lang::Visibility::Public,
            test: false,
        }
    }

    #[test]
    fn file_lines_say_what_git_says_and_only_the_flags_that_matter() {
        let mut renamed = file("src/new.rs", Status::Renamed, Some((2, 1)));
        renamed.similarity = Some(97);
        renamed.old_path = Some("old/path.rs".into());
        assert_eq!(
            file_line(&renamed, "new.rs"),
            "R097 new.rs <- old/path.rs +2 -1"
        );
        let binary = file("logo.png", Status::Added, None);
        assert_eq!(file_line(&binary, "logo.png"), "A logo.png binary");
        let mut generated = file("Cargo.lock", Status::Modified, Some((3, 3)));
        generated.generated = Some(crate::manifest::generated::Reason::Lockfile);
        assert_eq!(
            file_line(&generated, "Cargo.lock"),
            "M Cargo.lock +3 -3 generated:lockfile"
        );
        let mut mode = file("run.sh", Status::Modified, Some((0, 0)));
        mode.mode_after = crate::git::Mode::EXECUTABLE;
        assert_eq!(
            file_line(&mode, "run.sh"),
            "M run.sh +0 -0 mode 100644->100755"
        );
        let mut untracked = file("new.py", Status::Added, Some((4, 0)));
        untracked.untracked = true;
        assert_eq!(file_line(&untracked, "new.py"), "? new.py +4 -0");
        let mut sub = file("vendor/lib", Status::Modified, Some((1, 1)));
        sub.mode_before = crate::git::Mode::GITLINK;
        sub.mode_after = crate::git::Mode::GITLINK;
        sub.oid_before = Some(crate::git::Oid::parse(&"a".repeat(40)).unwrap());
        sub.oid_after = Some(crate::git::Oid::parse(&"b".repeat(40)).unwrap());
        assert_eq!(
            file_line(&sub, "lib"),
            format!(
                "M lib +1 -1 submodule {}..{}",
                "a".repeat(12),
                "b".repeat(12)
            )
        );
        assert_eq!(split(b"a/b/c.rs"), ("a/b/".into(), "c.rs".into()));
        assert_eq!(split(b"top.rs"), (String::new(), "top.rs".into()));
        assert_eq!(
            split(b"d/\xff.rs"),
            (String::new(), "\"d/\\377.rs\"".into())
        );
    }

    #[test]
    fn members_of_a_renamed_scope_are_listed_once() {
        let renames = [
            ("<&'a mut R as Read>::next", "<&mut R as Read>::next"),
            ("<&'a mut R as Read>::peek", "<&mut R as Read>::peek"),
            ("LazyFile.open", "_LazyFile.open"),
            ("LazyFile.close", "_LazyFile.close"),
            ("safecall", "_safecall"),
            ("Old::only", "New::only"),
            ("a::x", "a::y"),
        ];
        assert_eq!(
            rename_lines(&renames),
            [
                "safecall -> _safecall, a::x -> a::y, Old::only -> New::only",
                "<&'a mut R as Read> -> <&mut R as Read>: next, peek",
                "LazyFile -> _LazyFile: open, close",
            ]
        );
        assert_eq!(
            split_member("a::<T as b::C>"),
            Some(("a", "::", "<T as b::C>"))
        );
        assert_eq!(split_member("plain"), None);
    }

    #[test]
    fn functions_read_as_their_kind_of_change() {
        assert_eq!(
            function_line(&change("a", ChangeType::Added), true),
            "added fn a()"
        );
        assert_eq!(
            function_line(&change("a", ChangeType::Added), false),
            "added a"
        );
        assert_eq!(
            function_line(&change("b", ChangeType::Renamed), true),
            "renamed old -> b"
        );
        assert_eq!(
            function_line(&change("c", ChangeType::Moved), true),
            "moved c from was.rs"
        );
        let mut f = file("src/lib.rs", Status::Modified, Some((5, 1)));
        f.functions = Functions::Analysed(crate::lang::FileFunctions {
            changed: vec![
                change("a", ChangeType::Added),
                change("b", ChangeType::Added),
                change("c", ChangeType::Modified),
            ],
            formatting_only: vec!["d".into()],
            ..Default::default()
        });
        let deps = crate::deps::Report::default();
        let files = [f.clone()];
        let one = Change {
            files: &files,
            dependencies: &deps,
        };
        assert_eq!(
            change_line(one, 200),
            "M src/lib.rs +5 -1 (added a, b; modified c)"
        );
        assert_eq!(
            change_line(one, 10),
            "1 file +5 -1 in src/; functions: 2 added, 1 modified"
        );
        let labels = labels(&f);
        assert_eq!(labels["a"], "added a");
        assert_eq!(labels["c"], "c");
        assert_eq!(labels["d"], "reformatted d");
        assert_eq!(
            function_lines(&f),
            [
                "added fn a()",
                "added fn b()",
                "modified c",
                "reformatted d"
            ]
        );
        // Declarations are named too: a line without hunks hides no deleted class.
        let declared = |name: &str, kind: &str, change_type| crate::lang::DeclarationChange {
            name: name.into(),
            kind: kind.into(),
            change_type,
            signature: format!("{kind} {name}"),
            visibility: crate::lang::Visibility::Public,
            test: false,
            start_line: 1,
        };
        if let Functions::Analysed(a) = &mut f.functions {
            a.declarations = vec![
                declared("Old", "class", ChangeType::Deleted),
                declared("New", "class", ChangeType::Added),
                declared("_Stream", "class", ChangeType::Deleted),
                declared("LIMIT", "const", ChangeType::SignatureChanged),
            ];
        }
        assert_eq!(
            function_lines(&f)[4..],
            [
                "deleted class Old, class _Stream",
                "added class New",
                "signature const LIMIT"
            ]
        );
        assert!(function_lines_where(&f, &|_| true).len() == 4);
        assert_eq!(
            shown_signature("#[cfg(feature = \"x\")] #[cfg_attr(docsrs, doc(cfg(y)))] pub fn f()"),
            "pub fn f()"
        );
        assert_eq!(shown_signature("#[broken fn g()"), "#[broken fn g()");
        assert_eq!(
            shown_signature("@property def h(self)"),
            "@property def h(self)"
        );
    }

    #[test]
    fn directory_totals_count_every_file_whatever_the_tree() {
        // 2,000 files in 400 top-level directories.
        let files: Vec<FileChange> = (0..2000)
            .map(|i| {
                file(
                    &format!("d{}/sub/f{i}.rs", i % 400),
                    Status::Modified,
                    Some((1, 1)),
                )
            })
            .collect();
        let totals = directory_totals(&files, 20);
        assert_eq!(totals.0.len(), 21);
        let counted: usize = totals
            .0
            .iter()
            .map(|(_, v)| v.split(' ').next().unwrap().parse::<usize>().unwrap())
            .sum();
        assert_eq!(counted, 2000, "every file is counted");
        assert_eq!(totals.0[20].0, "(380 other directories)");
        let deps = crate::deps::Report::default();
        let m = Change {
            files: &files,
            dependencies: &deps,
        };
        assert!(summary_line(m).starts_with("2000 files changed, +2000 -2000"));
    }
}
