//! The whole change at a glance, in the fewest tokens that still say everything an agent acts
//! on: every file (status, path, line counts, and only the flags that matter: binary,
//! generated, submodule, mode, untracked) and every changed function (kind of change,
//! qualified name, the signature where it changed), grouped so a directory or a path is written
//! once.
//!
//! Lines read like git's own `--name-status` and `--stat` (`M lib.rs +3 -1`), which agents
//! already know. When the full listing does not fit its share of the budget, it degrades in
//! stated steps: signatures go, then the listing becomes complete counts per directory and per
//! file plus the most significant entries (production code first, largest first).

use std::collections::BTreeMap;

use bstr::ByteSlice;
use serde::Serialize;
use serde::ser::SerializeMap;

use crate::git::facts::Status;
use crate::git::{Mode, Oid};
use crate::lang::{ChangeType, FunctionChange};
use crate::manifest::Manifest;
use crate::manifest::hunks::display_path;
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
    fn push_to(&mut self, key: &str, value: V::Item)
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

/// The at-a-glance part of an answer.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Overview {
    /// One line of totals.
    pub summary: String,
    /// Complete counts per directory, when the files are too many to list one by one.
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    pub directories: Ordered<String>,
    /// Files by directory: `M name +added -removed [flags]`.
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    pub files: Ordered<Vec<String>>,
    /// Changed functions by file: `added Type::name: signature`, `modified f`, ...
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    pub functions: Ordered<Vec<String>>,
    /// Imports added (`+`) and removed (`-`), by file.
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    pub imports: Ordered<Vec<String>>,
    /// Dependency changes: declared ones, then lockfile totals.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dependencies: Vec<String>,
    /// What this overview leaves out, and where to find it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub omitted: Vec<String>,
}

/// What an overview describes: a range's files and dependency changes (a manifest's, or one
/// commit's of a log).
#[derive(Clone, Copy)]
pub struct Change<'a> {
    /// The changed files.
    pub files: &'a [FileChange],
    /// The dependency changes.
    pub dependencies: &'a crate::deps::Report,
}

impl<'a> From<&'a Manifest> for Change<'a> {
    fn from(m: &'a Manifest) -> Self {
        Change {
            files: &m.files,
            dependencies: &m.dependencies,
        }
    }
}

/// How much of the listing an overview holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Every file and function, signatures and imports included.
    Full,
    /// Every file, each with its changed functions by name on the same line.
    Names,
    /// Counts per directory and per file, and the most significant entries.
    Summarised,
}

/// The most dependency lines listed before they are summarised.
const MAX_DEPENDENCY_LINES: usize = 12;

/// Builds the overview of `m` at `level`; `room` bounds a summarised listing (in bytes).
pub fn overview(m: Change<'_>, level: Level, room: usize, full_listing: &str) -> Overview {
    let mut o = Overview {
        summary: summary_line(m),
        dependencies: dependency_lines(m),
        ..Overview::default()
    };
    match level {
        Level::Full => {
            for f in m.files {
                let (dir, name) = split(&f.path);
                o.files.push_to(&dir, file_line(f, &name));
            }
            for f in m.files {
                add_functions(&mut o, f, true);
            }
            return o;
        }
        Level::Names => {
            for f in m.files {
                let (dir, name) = split(&f.path);
                o.files.push_to(&dir, merged_line(f, &name));
            }
            if m.files.iter().any(has_imports) {
                o.omitted
                    .push(format!("imports and signatures: {full_listing}"));
            }
            return o;
        }
        Level::Summarised => {}
    }
    // Complete counts per directory (coarser directories when there are many), then the most
    // significant entries in the room left.
    let depth = directory_depth(m, (room / 90).max(1));
    let mut dirs: BTreeMap<String, Totals> = BTreeMap::new();
    for f in m.files {
        let key = prefix(&f.path, depth);
        let e = dirs.entry(key).or_default();
        e.0 += 1;
        let (a, r) = f.lines.unwrap_or((0, 0));
        e.1 = e.1.saturating_add(a);
        e.2 = e.2.saturating_add(r);
        if let Functions::Analysed(analysis) = &f.functions {
            e.3.extend(analysis.changed.iter().cloned());
        }
    }
    let max_groups = (room / 90).max(8);
    let mut dirs: Vec<(String, Totals)> = dirs.into_iter().collect();
    let mut rest: Option<(usize, usize, u64, u64)> = None;
    if dirs.len() > max_groups {
        // Even the top directories are too many: keep the largest, count the others.
        dirs.sort_by_key(|(_, (n, a, r, _))| std::cmp::Reverse((a.saturating_add(*r), *n)));
        for (_, (n, a, r, _)) in dirs.drain(max_groups..) {
            let e = rest.get_or_insert((0, 0, 0, 0));
            e.0 += 1;
            e.1 += n;
            e.2 = e.2.saturating_add(a);
            e.3 = e.3.saturating_add(r);
        }
        dirs.sort_by(|x, y| x.0.cmp(&y.0));
    }
    o.directories = Ordered(
        dirs.into_iter()
            .map(|(d, (n, a, r, functions))| {
                let mut line = format!("{n} file{} +{a} -{r}", if n == 1 { "" } else { "s" });
                if !functions.is_empty() {
                    line.push_str(&format!("; functions: {}", counts(&functions)));
                }
                (d, line)
            })
            .collect(),
    );
    if let Some((groups, n, a, r)) = rest {
        o.directories.0.push((
            format!("({groups} other directories)"),
            format!("{n} files +{a} -{r}"),
        ));
    }
    let mut order: Vec<usize> = (0..m.files.len()).collect();
    order.sort_by_key(|&i| {
        let f = &m.files[i];
        let (a, r) = f.lines.unwrap_or((0, 0));
        (
            super::role::of(f) as u8,
            std::cmp::Reverse(a.saturating_add(r)),
        )
    });
    let mut used = json_len(&o);
    let mut shown = 0;
    let mut shown_functions = 0;
    let total_functions: usize = m.files.iter().map(changed_count).sum();
    for &i in &order {
        let f = &m.files[i];
        let (dir, name) = split(&f.path);
        let line = merged_line(f, &name);
        let cost = line.len() + dir.len() + 8;
        if used + cost > room {
            break;
        }
        used += cost;
        shown += 1;
        shown_functions += changed_count(f);
        o.files.push_to(&dir, line);
    }
    sort_groups(&mut o.files);
    o.omitted.push(format!(
        "{} of {} files and {shown_functions} of {total_functions} functions are listed (the largest, production code first); every directory and file is counted; the full listing: {full_listing}",
        shown,
        m.files.len(),
    ));
    o
}

/// Puts the groups of a listing built out of order back in path order.
fn sort_groups(groups: &mut Ordered<Vec<String>>) {
    groups.0.sort_by(|a, b| a.0.cmp(&b.0));
    let mut merged: Vec<(String, Vec<String>)> = Vec::new();
    for (k, v) in groups.0.drain(..) {
        match merged.last_mut() {
            Some((last, lines)) if *last == k => lines.extend(v),
            _ => merged.push((k, v)),
        }
    }
    groups.0 = merged;
}

/// A directory's files, lines added and removed, and changed functions.
type Totals = (usize, u64, u64, Vec<FunctionChange>);

/// The serialized length of a value.
pub fn json_len<T: Serialize>(value: &T) -> usize {
    serde_json::to_string(value).map_or(usize::MAX, |s| s.len())
}

/// The deepest directory depth (up to 6) at which a summarised listing has at most `groups`
/// directories; the top level (0: one group per top-level directory) when none has.
fn directory_depth(m: Change<'_>, groups: usize) -> usize {
    for depth in (1..=6).rev() {
        let mut seen = std::collections::BTreeSet::new();
        for f in m.files {
            seen.insert(prefix(&f.path, depth));
        }
        if seen.len() <= groups {
            return depth;
        }
    }
    1
}

/// The first `depth` directories of a path (`a/b/`), or `""` for a top-level file.
fn prefix(path: &[u8], depth: usize) -> String {
    let dirs: Vec<&[u8]> = path.split(|b| *b == b'/').collect();
    let n = dirs.len().saturating_sub(1).min(depth);
    let mut out = String::new();
    for d in &dirs[..n] {
        out.push_str(&d.to_str_lossy());
        out.push('/');
    }
    out
}

/// Splits a path into its directory (with a final `/`, `""` at the top) and its name; a path
/// that is not UTF-8 stays whole, C-quoted as git quotes it.
fn split(path: &[u8]) -> (String, String) {
    if path.to_str().is_err() {
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
    }
    line
}

/// `added Type::name: pub fn name(x: u8)`, `renamed old -> new`, `moved from a.rs`, ...
fn function_line(c: &FunctionChange, signatures: bool) -> String {
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
    let shows_signature = matches!(
        c.change_type,
        ChangeType::Added | ChangeType::SignatureChanged
    );
    if signatures && shows_signature && !c.signature.is_empty() {
        line.push_str(": ");
        line.push_str(&c.signature);
    }
    line
}

/// Adds a file's functions, imports and formatting-only functions.
fn add_functions(o: &mut Overview, f: &FileChange, signatures: bool) {
    let Functions::Analysed(a) = &f.functions else {
        return;
    };
    let path = display_path(&f.path);
    for c in &a.changed {
        o.functions.push_to(&path, function_line(c, signatures));
    }
    for name in &a.formatting_only {
        o.functions.push_to(&path, format!("reformatted {name}"));
    }
    for i in &a.imports_added {
        o.imports.push_to(&path, format!("+ {i}"));
    }
    for i in &a.imports_removed {
        o.imports.push_to(&path, format!("- {i}"));
    }
}

/// Whether a file's analysis found imports added or removed.
fn has_imports(f: &FileChange) -> bool {
    matches!(&f.functions, Functions::Analysed(a) if !a.imports_added.is_empty() || !a.imports_removed.is_empty())
}

/// How many functions of a file changed.
fn changed_count(f: &FileChange) -> usize {
    match &f.functions {
        Functions::Analysed(a) => a.changed.len(),
        _ => 0,
    }
}

/// A file's line with its changed functions by name: `M app.rs +3 -1: added a, b; modified c`.
fn merged_line(f: &FileChange, name: &str) -> String {
    let mut line = file_line(f, name);
    let Functions::Analysed(a) = &f.functions else {
        return line;
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
    if !a.formatting_only.is_empty() {
        by.push(("reformatted", a.formatting_only.clone()));
    }
    for (i, (kind, names)) in by.iter().enumerate() {
        line.push_str(if i == 0 { ": " } else { "; " });
        line.push_str(kind);
        line.push(' ');
        line.push_str(&names.join(", "));
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
fn dependency_lines(m: Change<'_>) -> Vec<String> {
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
    fn functions_read_as_their_kind_of_change() {
        assert_eq!(
            function_line(&change("a", ChangeType::Added), true),
            "added a: fn a()"
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
        assert_eq!(
            merged_line(&f, "lib.rs"),
            "M lib.rs +5 -1: added a, b; modified c; reformatted d"
        );
    }

    #[test]
    fn a_summarised_overview_stays_in_its_room_whatever_the_tree() {
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
        let deps = crate::deps::Report::default();
        let m = Change {
            files: &files,
            dependencies: &deps,
        };
        for room in [500, 2_000, 10_000] {
            let o = overview(m, Level::Summarised, room, "git-prism manifest A B");
            assert!(json_len(&o) <= room + 600, "{room}: {}", json_len(&o));
            let counted: usize = o
                .directories
                .0
                .iter()
                .map(|(_, v)| v.split(' ').next().unwrap().parse::<usize>().unwrap())
                .sum();
            assert_eq!(counted, 2000, "every file is counted");
        }
        assert!(summary_line(m).starts_with("2000 files changed, +2000 -2000"));
    }
}
