//! The map of a change, in the fewest tokens that still say everything an agent acts on: every
//! file (status, path, line counts, and only the flags that matter: binary, generated,
//! submodule, link, mode, untracked) and every changed function (kind of change, qualified
//! name, and the signature of an added or signature-changed one, visibility included), grouped
//! so a directory or a path is written once.
//!
//! Lines read like git's own `--name-status` and `--stat` (`M lib.rs +3 -1`), which agents
//! already know. The same vocabulary labels hunk headers (`added Map::get`, `renamed a -> b`,
//! a modified function by its name alone) and a log's one-line summary of a commit.

use std::collections::{BTreeMap, HashMap, HashSet};

use bstr::ByteSlice;
use serde::Serialize;
use serde::ser::SerializeMap;

use crate::git::facts::Status;
use crate::git::{Mode, Oid};
use crate::lang::{ChangeType, FunctionChange};
use crate::manifest::hunks::{display_path, shows_hunks};
use crate::manifest::model::{FileChange, Functions, Kind};

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

/// The most dependency lines listed before they are summarised.
const MAX_DEPENDENCY_LINES: usize = 12;

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

/// A file's functions as the map lists them: each added or signature-changed function with
/// its signature (visibility included), then the others by kind on one line each (`modified
/// a, b`, `renamed a -> b`, `moved c from x.rs`, `deleted d`, `reformatted e`); a name listed
/// twice (two definitions under `cfg`, say) once. Then its declarations (types, traits,
/// constants) added, deleted or with a changed head, by kind and name (`deleted class
/// MaybeStripAnsi, class _Stream`): a line without hunks (`git show -s`, a map page) hides no
/// name.
pub fn function_lines(f: &FileChange) -> Vec<String> {
    let mut out = function_lines_where(f, &|_| true);
    out.extend(declaration_lines(f));
    if let Functions::Analysed(a) = &f.functions {
        out.extend(opaque_line(a));
    }
    out
}

/// The opaque wrappers a file's change touches, when any: `opaque macro x!, macro y!` (what
/// changed inside them is not analysed).
pub fn opaque_line(a: &crate::lang::FileFunctions) -> Option<String> {
    (!a.opaque.is_empty()).then(|| format!("opaque {}", a.opaque.join(", ")))
}

/// A file's declarations added, deleted or with a changed head, one line per kind of change:
/// `added struct Map, const LIMIT`, `signature trait Read`.
pub fn declaration_lines(f: &FileChange) -> Vec<String> {
    let Functions::Analysed(a) = &f.functions else {
        return Vec::new();
    };
    let mut by: Vec<(&'static str, Vec<String>)> = Vec::new();
    // A set, not a scan of each list: a file of 1 MiB may declare 100,000 constants.
    let mut seen: HashSet<(&'static str, String)> = HashSet::new();
    for d in &a.declarations {
        let verb = match d.change_type {
            ChangeType::Added => "added",
            ChangeType::Deleted => "deleted",
            _ => "signature",
        };
        let name = format!("{} {}", d.kind, d.name);
        if !seen.insert((verb, name.clone())) {
            continue;
        }
        match by.iter_mut().find(|(v, _)| *v == verb) {
            Some((_, names)) => names.push(name),
            None => by.push((verb, vec![name])),
        }
    }
    by.into_iter()
        .map(|(verb, names)| format!("{verb} {}", names.join(", ")))
        .collect()
}

/// Like [`function_lines`], for the changes `keep` keeps (a file's functions that no hunk
/// shown names, say); functions only reformatted are kept when any change is.
pub fn function_lines_where(f: &FileChange, keep: &dyn Fn(&FunctionChange) -> bool) -> Vec<String> {
    let Functions::Analysed(a) = &f.functions else {
        return Vec::new();
    };
    let kept: Vec<&FunctionChange> = a.changed.iter().filter(|c| keep(c)).collect();
    let all = kept.len() == a.changed.len();
    let mut out: Vec<String> = Vec::new();
    let mut renames: Vec<(&str, &str)> = Vec::new();
    let mut by: Vec<(&'static str, Vec<String>)> = Vec::new();
    // Sets, not scans of each list: a file of 1 MiB may hold 100,000 functions.
    let mut seen: HashSet<(&'static str, String)> = HashSet::new();
    let mut add = |kind: &'static str, text: String| {
        if !seen.insert((kind, text.clone())) {
            return;
        }
        match by.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, names)) => names.push(text),
            None => by.push((kind, vec![text])),
        }
    };
    let mut lines_seen: HashSet<String> = HashSet::new();
    for c in kept {
        match c.change_type {
            ChangeType::Added | ChangeType::SignatureChanged => {
                let line = function_line(c, true);
                if lines_seen.insert(line.clone()) {
                    out.push(line);
                }
            }
            ChangeType::Renamed => renames.push((c.old_name.as_deref().unwrap_or("?"), &c.name)),
            ChangeType::Moved => add(
                "moved",
                format!("{} from {}", c.name, c.old_path.as_deref().unwrap_or("?")),
            ),
            ChangeType::Modified => add("modified", c.name.clone()),
            ChangeType::Deleted => add("deleted", c.name.clone()),
        }
    }
    if all {
        for name in &a.formatting_only {
            add("reformatted", name.clone());
        }
    }
    out.extend(
        by.into_iter()
            .map(|(kind, names)| format!("{kind} {}", names.join(", "))),
    );
    out.extend(
        rename_lines(&renames)
            .into_iter()
            .map(|line| format!("renamed {line}")),
    );
    out
}

/// Renames as the map lists them: `a -> b` each, except that the members of one renamed scope
/// (an impl whose header changed, a class renamed) are said once, `renamed <&'a mut R as Read>
/// -> <&mut R as Read>: next, peek`, where they would otherwise repeat both scopes per member.
pub(super) fn rename_lines(renames: &[(&str, &str)]) -> Vec<String> {
    type Scopes<'a> = (&'a str, &'a str, &'a str);
    let mut groups: Vec<(Scopes<'_>, Vec<(&str, &str)>)> = Vec::new();
    for &(old, new) in renames {
        let key = match (split_member(old), split_member(new)) {
            (Some((old_scope, sep, member)), Some((new_scope, new_sep, same)))
                if member == same && sep == new_sep && old_scope != new_scope =>
            {
                (old_scope, new_scope, sep)
            }
            _ => ("", "", ""),
        };
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push((old, new)),
            None => groups.push((key, vec![(old, new)])),
        }
    }
    let mut single: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for ((old_scope, new_scope, sep), members) in groups {
        if sep.is_empty() || members.len() == 1 {
            single.extend(members.iter().map(|(old, new)| format!("{old} -> {new}")));
        } else {
            let names: Vec<&str> = members
                .iter()
                .map(|(old, _)| &old[old_scope.len() + sep.len()..])
                .collect();
            out.push(format!("{old_scope} -> {new_scope}: {}", names.join(", ")));
        }
    }
    if !single.is_empty() {
        out.insert(0, single.join(", "));
    }
    out
}

/// A qualified name split at its last separator outside brackets (`::` or `.`): its scope, the
/// separator and its member (`<&'a mut R as Read>::next` gives `<&'a mut R as Read>`, `::`
/// and `next`).
pub(super) fn split_member(name: &str) -> Option<(&str, &str, &str)> {
    let bytes = name.as_bytes();
    let mut depth = 0i32;
    let mut found = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'<' | b'(' | b'[' => depth += 1,
            b'>' | b')' | b']' => depth -= 1,
            b':' if depth == 0 && bytes.get(i + 1) == Some(&b':') => {
                found = Some((i, 2));
                i += 1;
            }
            b'.' if depth == 0 => found = Some((i, 1)),
            _ => {}
        }
        i += 1;
    }
    let (at, len) = found?;
    let (scope, member) = (&name[..at], &name[at + len..]);
    (!scope.is_empty() && !member.is_empty()).then_some((scope, &name[at..at + len], member))
}

/// A signature as the map shows it: without leading Rust attributes (`#[inline]`,
/// `#[cfg(...)]`, `#[cfg_attr(...)]`), which say how it is built rather than what it is.
pub(super) fn shown_signature(signature: &str) -> &str {
    let mut rest = signature.trim_start();
    while let Some(after) = rest.strip_prefix("#[") {
        let mut depth = 1usize;
        let mut end = None;
        for (i, ch) in after.char_indices() {
            match ch {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(i + 1);
                        break;
                    }
                }
                _ => {}
            }
        }
        match end {
            Some(e) => rest = after[e..].trim_start(),
            None => return signature,
        }
    }
    if rest.is_empty() { signature } else { rest }
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

/// How a hunk header names the functions it touches: a modified function by its name, any
/// other change with its kind (`added x`, `signature x`, `renamed a -> b`, `moved x from a.rs`,
/// `reformatted x`), keyed by the names a hunk can find (old and new).
pub fn labels(f: &FileChange) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let Functions::Analysed(a) = &f.functions else {
        return out;
    };
    for c in &a.changed {
        let label = match c.change_type {
            ChangeType::Modified => c.name.clone(),
            ChangeType::Renamed => format!(
                "renamed {} -> {}",
                c.old_name.as_deref().unwrap_or("?"),
                c.name
            ),
            _ => function_line(c, false),
        };
        if let Some(old) = &c.old_name {
            out.insert(old.clone(), label.clone());
        }
        out.insert(c.name.clone(), label);
    }
    for name in &a.formatting_only {
        out.entry(name.clone())
            .or_insert_with(|| format!("reformatted {name}"));
    }
    out
}

/// Complete totals per top-level directory (`src/`: `12 files +300 -40`), the largest
/// `max` first and the rest counted together: the orientation of a map that spans pages.
pub fn directory_totals(files: &[FileChange], max: usize) -> Ordered<String> {
    let mut dirs: BTreeMap<String, (usize, u64, u64)> = BTreeMap::new();
    for f in files {
        let e = dirs.entry(prefix(&f.path, 1)).or_default();
        e.0 += 1;
        let (a, r) = f.lines.unwrap_or((0, 0));
        e.1 = e.1.saturating_add(a);
        e.2 = e.2.saturating_add(r);
    }
    let mut dirs: Vec<(String, (usize, u64, u64))> = dirs.into_iter().collect();
    dirs.sort_by_key(|(_, (n, a, r))| std::cmp::Reverse((a.saturating_add(*r), *n)));
    let rest: Vec<(String, (usize, u64, u64))> = dirs.split_off(dirs.len().min(max));
    let line = |(n, a, r): (usize, u64, u64)| {
        format!("{n} file{} +{a} -{r}", if n == 1 { "" } else { "s" })
    };
    let mut out: Vec<(String, String)> = dirs
        .into_iter()
        .map(|(d, t)| (if d.is_empty() { "(top)".into() } else { d }, line(t)))
        .collect();
    if !rest.is_empty() {
        let t = rest.iter().fold((0, 0u64, 0u64), |acc, (_, (n, a, r))| {
            (
                acc.0 + n,
                acc.1.saturating_add(*a),
                acc.2.saturating_add(*r),
            )
        });
        out.push((format!("({} other directories)", rest.len()), line(t)));
    }
    Ordered(out)
}

/// A commit's change on one line, within about `room` bytes: each file as the map says it
/// (`M src/lib.rs +3 -1`) with its changed functions by name (`(added a; modified b)`) while
/// the room lasts, file by file; when the files alone do not fit, the totals and where (`12 files +300 -40 in
/// src/, tests/; functions: 3 added, 5 modified`).
pub fn change_line(c: Change<'_>, room: usize) -> String {
    let lines: Vec<String> = c
        .files
        .iter()
        .map(|f| file_line(f, &display_path(&f.path)))
        .collect();
    let plain = lines.join(", ");
    if plain.len() <= room {
        // Each file's functions by name, in order, while the room lasts.
        let mut spare = room - plain.len();
        let mut parts = Vec::with_capacity(lines.len());
        for (line, f) in lines.iter().zip(c.files) {
            let names = changed_names(f);
            if !names.is_empty() && names.len() + 3 <= spare {
                spare -= names.len() + 3;
                parts.push(format!("{line} ({names})"));
            } else {
                parts.push(line.clone());
            }
        }
        return parts.join(", ");
    }
    let (mut added, mut removed) = (0u64, 0u64);
    let mut changes: Vec<FunctionChange> = Vec::new();
    for f in c.files {
        let (a, r) = f.lines.unwrap_or((0, 0));
        added = added.saturating_add(a);
        removed = removed.saturating_add(r);
        if let Functions::Analysed(a) = &f.functions {
            changes.extend(a.changed.iter().cloned());
        }
    }
    let n = c.files.len();
    let mut line = format!(
        "{n} file{} +{added} -{removed}",
        if n == 1 { "" } else { "s" }
    );
    let dirs = directory_totals(c.files, 3);
    let named: Vec<&str> = dirs
        .0
        .iter()
        .map(|(d, _)| d.as_str())
        .filter(|d| !d.starts_with('('))
        .collect();
    if !named.is_empty() {
        line.push_str(&format!(" in {}", named.join(", ")));
        if dirs.0.len() > named.len() {
            line.push_str(", …");
        }
    }
    if !changes.is_empty() {
        line.push_str(&format!("; functions: {}", counts(&changes)));
    }
    line
}

/// A file's changed functions by name, grouped by kind: `added a, b; modified c`.
fn changed_names(f: &FileChange) -> String {
    let Functions::Analysed(a) = &f.functions else {
        return String::new();
    };
    let mut by: Vec<(&'static str, Vec<String>)> = Vec::new();
    for c in &a.changed {
        let (kind, text) = match c.change_type {
            ChangeType::Renamed => (
                "renamed",
                format!("{} -> {}", c.old_name.as_deref().unwrap_or("?"), c.name),
            ),
            ChangeType::Moved => (
                "moved",
                format!("{} from {}", c.name, c.old_path.as_deref().unwrap_or("?")),
            ),
            ChangeType::SignatureChanged => ("signature", c.name.clone()),
            other => (other.label(), c.name.clone()),
        };
        match by.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, names)) => names.push(text),
            None => by.push((kind, vec![text])),
        }
    }
    // Its declarations too: a line without hunks (`git show -s`) hides no name (ADR 18).
    by.iter()
        .map(|(kind, names)| format!("{kind} {}", names.join(", ")))
        .chain(declaration_lines(f))
        .collect::<Vec<_>>()
        .join("; ")
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

/// A function's qualified name and its signature in one: the scope written into the signature
/// before the name (`pub fn get(&self)` of `Map::get` is `pub fn Map::get(&self)`); the
/// signature alone when it already shows the scope before the name (Go's receiver: `func (c
/// *Command) Run()`); `name: signature` when the name is not in it.
pub(super) fn signed(name: &str, signature: &str) -> String {
    let signature = shown_signature(signature);
    if signature.is_empty() {
        return name.to_owned();
    }
    let (scope, sep, leaf) = split_member(name).unwrap_or(("", "", name));
    let is_word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let at = signature.match_indices(leaf).map(|(i, _)| i).find(|&i| {
        !is_word(signature[..i].chars().next_back())
            && !is_word(signature[i + leaf.len()..].chars().next())
    });
    match at {
        Some(_) if scope.is_empty() => signature.to_owned(),
        Some(i) if signature[..i].contains(scope.trim_start_matches('*')) => signature.to_owned(),
        Some(i) => format!("{}{scope}{sep}{}", &signature[..i], &signature[i..]),
        None => format!("{name}: {signature}"),
    }
}

/// `added pub fn Type::name(x: u8)` (the name written into its signature, said once),
/// `renamed old -> new`, `moved from a.rs`, ...; without signatures `added Type::name`.
pub(super) fn function_line(c: &FunctionChange, signatures: bool) -> String {
    let shows_signature = matches!(
        c.change_type,
        ChangeType::Added | ChangeType::SignatureChanged
    );
    if signatures && shows_signature && !c.signature.is_empty() {
        let verb = match c.change_type {
            ChangeType::Added => "added",
            _ => "signature",
        };
        let edited = if c.edited { " (edited)" } else { "" };
        return format!("{verb}{edited} {}", signed(&c.name, &c.signature));
    }
    let mut line = match c.change_type {
        ChangeType::Added => format!("added {}", c.name),
        ChangeType::Deleted => format!("deleted {}", c.name),
        ChangeType::Modified => format!("modified {}", c.name),
        ChangeType::SignatureChanged => format!("signature {}", c.name),
        ChangeType::Renamed => format!(
            "renamed {} -> {}",
            c.old_name.as_deref().unwrap_or("?"),
            c.name
        ),
        ChangeType::Moved => format!(
            "moved {} from {}",
            c.name,
            c.old_path.as_deref().unwrap_or("?")
        ),
    };
    if c.edited {
        line.push_str(" (edited)");
    }
    line
}

/// `2 added, 1 modified`.
fn counts(changes: &[FunctionChange]) -> String {
    let mut by: BTreeMap<&'static str, usize> = BTreeMap::new();
    for c in changes {
        *by.entry(c.change_type.label()).or_default() += 1;
    }
    by.iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `6 files changed, +38 -18; 1 binary, 2 generated; functions: 1 added, 2 modified`.
pub fn summary_line(m: Change<'_>) -> String {
    let (mut added, mut removed) = (0u64, 0u64);
    let (mut binary, mut generated, mut untracked) = (0, 0, 0);
    let mut changes: Vec<FunctionChange> = Vec::new();
    let mut reformatted = 0;
    for f in m.files {
        if let Some((a, r)) = f.lines {
            added = added.saturating_add(a);
            removed = removed.saturating_add(r);
        }
        binary += usize::from(f.binary);
        generated += usize::from(f.generated.is_some());
        untracked += usize::from(f.untracked);
        if let Functions::Analysed(a) = &f.functions {
            changes.extend(a.changed.iter().cloned());
            reformatted += a.formatting_only.len();
        }
    }
    let mut line = format!(
        "{} file{} changed, +{added} -{removed}",
        m.files.len(),
        if m.files.len() == 1 { "" } else { "s" }
    );
    let mut extras = Vec::new();
    if binary > 0 {
        extras.push(format!("{binary} binary"));
    }
    if generated > 0 {
        extras.push(format!("{generated} generated"));
    }
    if untracked > 0 {
        extras.push(format!("{untracked} untracked"));
    }
    if !extras.is_empty() {
        line.push_str(&format!(" ({})", extras.join(", ")));
    }
    if !changes.is_empty() {
        line.push_str(&format!("; functions: {}", counts(&changes)));
    }
    if reformatted > 0 {
        line.push_str(&format!("; {reformatted} only reformatted"));
    }
    line
}

/// Declared dependency changes, then lockfile totals; summarised when many, majors first.
pub fn dependency_lines(m: Change<'_>) -> Vec<String> {
    let deps = &m.dependencies;
    let line = |c: &crate::deps::Change| {
        let versions = match (&c.old_version, &c.new_version) {
            (Some(o), Some(n)) => format!("{o} -> {n}"),
            (None, Some(n)) => format!("added {n}"),
            (Some(o), None) => format!("removed {o}"),
            (None, None) => String::new(),
        };
        let bump = c
            .bump
            .map(|b| format!(" {}", b.label()))
            .unwrap_or_default();
        let kind = if c.kind == "normal" {
            String::new()
        } else {
            format!(" {}", c.kind)
        };
        format!("{} {versions}{bump}{kind} ({})", c.name, c.file)
    };
    let mut lines: Vec<String> = Vec::new();
    if deps.changes.len() <= MAX_DEPENDENCY_LINES {
        lines.extend(deps.changes.iter().map(line));
    } else {
        let mut by: BTreeMap<&'static str, usize> = BTreeMap::new();
        for c in &deps.changes {
            let kind = match (&c.old_version, &c.new_version, c.bump) {
                (None, Some(_), _) => "added",
                (Some(_), None, _) => "removed",
                (_, _, Some(b)) => b.label(),
                _ => "changed",
            };
            *by.entry(kind).or_default() += 1;
        }
        lines.push(format!(
            "{} declared dependencies changed: {}",
            deps.changes.len(),
            by.iter()
                .map(|(k, n)| format!("{n} {k}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let majors: Vec<&crate::deps::Change> = deps
            .changes
            .iter()
            .filter(|c| c.bump == Some(crate::deps::Bump::Major))
            .collect();
        lines.extend(majors.iter().take(MAX_DEPENDENCY_LINES).map(|c| line(c)));
        if majors.len() > MAX_DEPENDENCY_LINES {
            lines.push(format!(
                "… {} more major bumps",
                majors.len() - MAX_DEPENDENCY_LINES
            ));
        }
    }
    for l in deps.lockfiles.iter().take(MAX_DEPENDENCY_LINES) {
        let mut line = format!(
            "{}: {} updated, {} added, {} removed",
            l.file, l.updated, l.added, l.removed
        );
        // The notable entries (the crate itself, direct dependencies, major bumps) name what
        // moved; a few of them cost less than a second look at the lockfile.
        let notable: Vec<String> = l
            .notable
            .iter()
            .take(6)
            .map(|c| {
                format!(
                    "{} {} -> {}",
                    c.name,
                    c.old_version.as_deref().unwrap_or("none"),
                    c.new_version.as_deref().unwrap_or("none")
                )
            })
            .collect();
        if !notable.is_empty() {
            line.push_str(&format!(" ({}", notable.join(", ")));
            if l.notable.len() > notable.len() {
                line.push_str(&format!(", … {} more", l.notable.len() - notable.len()));
            }
            line.push(')');
        }
        lines.push(line);
    }
    if deps.lockfiles.len() > MAX_DEPENDENCY_LINES {
        lines.push(format!(
            "… {} more lockfiles",
            deps.lockfiles.len() - MAX_DEPENDENCY_LINES
        ));
    }
    lines
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
    use super::*;
    use crate::manifest::model::Outline;

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
