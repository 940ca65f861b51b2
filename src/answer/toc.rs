//! The table of contents of a change too large for one answer (ADR 18): what the first page of
//! a paged answer holds, ranked for what is asked of a range, and what the map's later pages
//! hold.
//!
//! A range is asked for its new interface (release notes, an upgrade review), then for what
//! else changed in the code that ships, and only then for its tests and documentation. So:
//!
//! - **The interface first** ([`Part::Api`]): every public function or declaration (type,
//!   trait, interface, enum, constant) of production code that was added, deleted, re-signed or
//!   renamed, with its signature; members of an interface implemented elsewhere (a Rust trait
//!   impl) by name, their signatures being the interface's. A shape repeated on several types
//!   (`get_ref`, `get_mut` on nine adapters) is said once: the members, the types, then each
//!   signature.
//! - **Production code by name** ([`Part::File`], one per file): modified functions, private
//!   ones added, deleted or re-signed, moves and reformatting, members of one scope written
//!   once (`Deserializer::{peek, parse}`); the file's own tests counted.
//! - **Everything else counted** ([`Toc::elsewhere`]): tests, benches, examples, docs and
//!   configuration per directory (`tests/: 14 files +900 -200; tests: 52 added`), their names
//!   on a later page, after production code.
//!
//! Every changed function of the change is named in some part: the table of contents and the
//! map's later pages together are the whole map.

use std::collections::{BTreeMap, HashSet};

use bstr::ByteSlice;

use super::overview::{self, MapEntry, Ordered};
use super::role::{self, Role};
use crate::lang::{ChangeType, DeclarationChange, FunctionChange, Visibility};
use crate::manifest::hunks::display_path;
use crate::manifest::model::{FileChange, Functions};

/// The most directories [`Toc::elsewhere`] names; the rest are counted together.
const MAX_ELSEWHERE: usize = 16;

/// A directory's files are named in its count line when it has at most this many.
const NAMED_FILES: usize = 4;

/// One piece of the map, in page order.
#[derive(Clone, Debug)]
pub enum Part {
    /// Interface changes under a key: a file's path, or the directory of several files that
    /// share a shape.
    Api {
        /// The file's path, or `dir/ (n files)`.
        key: String,
        /// One line per change (or per shape).
        lines: Vec<String>,
    },
    /// One file of the map with the names of its changed functions.
    File {
        /// The file's line and names.
        entry: MapEntry,
        /// What kind of code it is (a production file's tests count as tests).
        role: Role,
    },
}

impl Part {
    /// What kind of code the part describes.
    pub fn role(&self) -> Role {
        match self {
            Part::Api { .. } => Role::Production,
            Part::File { role, .. } => *role,
        }
    }
}

/// A change's table of contents and the rest of its map.
#[derive(Clone, Debug, Default)]
pub struct Toc {
    /// The interface, then production code, then tests of production files and the files of
    /// other roles.
    pub parts: Vec<Part>,
    /// How many of `parts` are the interface.
    pub api_parts: usize,
    /// How many of `parts` are the interface and production code: what the first page holds
    /// when it has room.
    pub first: usize,
    /// Public functions and declarations the interface lists with their signatures.
    pub api_items: usize,
    /// Files other than production code, counted per directory.
    pub elsewhere: Ordered<String>,
}

/// A change to the interface, found in one file.
struct Candidate<'a> {
    /// Index into the change's files.
    file: usize,
    change: &'a FunctionChange,
}

/// Builds the table of contents of `files`, taken in `order` (production code first).
pub fn build(files: &[FileChange], order: &[usize]) -> Toc {
    let roles: Vec<Role> = files.iter().map(role::of).collect();
    let production: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| roles[i] == Role::Production)
        .collect();
    // Shapes: the same member with the same signature on several scopes.
    let mut public: Vec<Candidate<'_>> = Vec::new();
    for &i in &production {
        for c in analysed(&files[i]).map_or(&[][..], |a| &a.changed[..]) {
            if is_api(c) && c.visibility == Visibility::Public {
                public.push(Candidate { file: i, change: c });
            }
        }
    }
    let shapes = shapes(&public);
    let shaped: HashSet<*const FunctionChange> = shapes
        .iter()
        .flat_map(|s| s.members.iter().map(|c| std::ptr::from_ref(c.change)))
        .collect();

    let mut toc = Toc::default();
    let mut shown_shapes = vec![false; shapes.len()];
    for &i in &production {
        for (n, shape) in shapes.iter().enumerate() {
            if !shown_shapes[n] && shape.members.first().is_some_and(|c| c.file == i) {
                shown_shapes[n] = true;
                toc.api_items += shape.members.len();
                toc.parts.push(Part::Api {
                    key: shape.key(files),
                    lines: vec![shape.line()],
                });
            }
        }
        let (lines, items) = api_lines(&files[i], &shaped);
        if !lines.is_empty() {
            toc.api_items += items;
            let key = display_path(&files[i].path);
            // A shape of this file alone went first under the same key: one part.
            match toc.parts.last_mut() {
                Some(Part::Api {
                    key: last,
                    lines: shape,
                }) if *last == key => shape.extend(lines),
                _ => toc.parts.push(Part::Api { key, lines }),
            }
        }
    }
    toc.api_parts = toc.parts.len();
    let entries = overview::map_entries(files, order);
    for e in entries
        .iter()
        .filter(|e| roles[e.index] == Role::Production)
    {
        let mut entry = e.clone();
        entry.functions = production_names(&files[e.index]);
        toc.parts.push(Part::File {
            entry,
            role: Role::Production,
        });
    }
    toc.first = toc.parts.len();
    for e in entries
        .iter()
        .filter(|e| roles[e.index] == Role::Production)
    {
        let tests = test_names(&files[e.index]);
        if !tests.is_empty() {
            let mut entry = e.clone();
            entry.functions = tests;
            toc.parts.push(Part::File {
                entry,
                role: Role::Test,
            });
        }
    }
    for e in entries
        .iter()
        .filter(|e| roles[e.index] != Role::Production)
    {
        let mut entry = e.clone();
        entry.functions = other_names(&files[e.index]);
        toc.parts.push(Part::File {
            entry,
            role: roles[e.index],
        });
    }
    toc.elsewhere = elsewhere(files, order, &roles);
    toc
}

/// A file's analysis, when it was analysed.
fn analysed(f: &FileChange) -> Option<&crate::lang::FileFunctions> {
    match &f.functions {
        Functions::Analysed(a) => Some(a),
        _ => None,
    }
}

/// Whether a function's change is one of the interface (when it is visible): new, gone,
/// re-signed or renamed, outside tests.
fn is_api(c: &FunctionChange) -> bool {
    !c.test
        && matches!(
            c.change_type,
            ChangeType::Added
                | ChangeType::Deleted
                | ChangeType::SignatureChanged
                | ChangeType::Renamed
        )
}

/// Whether a change moves a public function to another file (an interface change: where it
/// is imported from).
fn public_move(c: &FunctionChange) -> bool {
    !c.test && c.change_type == ChangeType::Moved && c.visibility == Visibility::Public
}

/// The word a change is said with.
fn verb(t: ChangeType) -> &'static str {
    match t {
        ChangeType::Added => "added",
        ChangeType::Deleted => "deleted",
        ChangeType::SignatureChanged => "signature",
        ChangeType::Renamed => "renamed",
        ChangeType::Modified => "modified",
        ChangeType::Moved => "moved",
    }
}

/// A shape: members with the same signatures, changed the same way on several scopes.
struct Shape<'a> {
    /// The change, per member: (verb, member, signature), in order of first appearance.
    keys: Vec<(&'static str, &'a str, &'a str)>,
    /// The scopes, in order of first appearance.
    scopes: Vec<&'a str>,
    /// Every change the shape stands for, in order.
    members: Vec<Candidate<'a>>,
}

impl Shape<'_> {
    /// `added get_ref, get_mut on Filter, Map: pub fn get_ref(&self) -> &S; pub fn get_mut(..)`.
    fn line(&self) -> String {
        let mut verbs: Vec<&str> = Vec::new();
        for (v, _, _) in &self.keys {
            if !verbs.contains(v) {
                verbs.push(v);
            }
        }
        let mut line = String::new();
        for (n, v) in verbs.iter().enumerate() {
            if n > 0 {
                line.push_str("; ");
            }
            line.push_str(v);
            line.push(' ');
            let members: Vec<&str> = self
                .keys
                .iter()
                .filter(|(w, _, _)| w == v)
                .map(|(_, m, _)| *m)
                .collect();
            line.push_str(&members.join(", "));
        }
        line.push_str(" on ");
        line.push_str(&self.scopes.join(", "));
        line.push_str(": ");
        let signatures: Vec<&str> = self.keys.iter().map(|(_, _, s)| *s).collect();
        line.push_str(&signatures.join("; "));
        line
    }

    /// Where the shape is: its file, or the directory its files share and how many they are.
    fn key(&self, files: &[FileChange]) -> String {
        let mut paths: Vec<String> = self
            .members
            .iter()
            .map(|c| display_path(&files[c.file].path))
            .collect();
        paths.dedup();
        let unique: std::collections::BTreeSet<&String> = paths.iter().collect();
        if unique.len() == 1 {
            return paths.swap_remove(0);
        }
        let first = paths[0].as_str();
        let mut common = first.rfind('/').map_or("", |i| &first[..=i]);
        for p in &paths {
            while !p.starts_with(common) {
                let trimmed = common.trim_end_matches('/');
                common = trimmed.rfind('/').map_or("", |i| &trimmed[..=i]);
            }
        }
        let dir = if common.is_empty() { "(top)" } else { common };
        format!("{dir} ({} files)", unique.len())
    }
}

/// Finds the shapes among public interface changes: a member changed the same way with the
/// same signature on at least two scopes; members found on exactly the same scopes share a
/// shape.
fn shapes<'a>(public: &[Candidate<'a>]) -> Vec<Shape<'a>> {
    type Key<'a> = (&'static str, &'a str, &'a str);
    // Per key, its scopes in order of appearance.
    let mut by_key: Vec<(Key<'a>, Vec<&'a str>)> = Vec::new();
    let mut index: BTreeMap<Key<'a>, usize> = BTreeMap::new();
    for c in public {
        if c.change.change_type == ChangeType::Renamed || c.change.signature.is_empty() {
            continue;
        }
        let Some((scope, _, member)) = overview::split_member(&c.change.name) else {
            continue;
        };
        let key = (
            verb(c.change.change_type),
            member,
            overview::shown_signature(&c.change.signature),
        );
        let n = *index.entry(key).or_insert_with(|| {
            by_key.push((key, Vec::new()));
            by_key.len() - 1
        });
        if !by_key[n].1.contains(&scope) {
            by_key[n].1.push(scope);
        }
    }
    let mut out: Vec<Shape<'a>> = Vec::new();
    for (key, scopes) in by_key {
        if scopes.len() < 2 {
            continue;
        }
        let mut sorted = scopes.clone();
        sorted.sort_unstable();
        match out.iter_mut().find(|s| {
            let mut theirs = s.scopes.clone();
            theirs.sort_unstable();
            theirs == sorted
        }) {
            Some(shape) => shape.keys.push(key),
            None => out.push(Shape {
                keys: vec![key],
                scopes,
                members: Vec::new(),
            }),
        }
    }
    for c in public {
        let Some((scope, _, member)) = overview::split_member(&c.change.name) else {
            continue;
        };
        let key = (
            verb(c.change.change_type),
            member,
            overview::shown_signature(&c.change.signature),
        );
        if let Some(shape) = out
            .iter_mut()
            .find(|s| s.keys.contains(&key) && s.scopes.contains(&scope))
        {
            shape.members.push(Candidate {
                file: c.file,
                change: c.change,
            });
        }
    }
    out
}

/// A file's interface lines (shaped changes left out) and how many public items they list:
/// public functions and declarations with their signatures, members of implementations by
/// name.
fn api_lines(f: &FileChange, shaped: &HashSet<*const FunctionChange>) -> (Vec<String>, usize) {
    let Some(a) = analysed(f) else {
        return (Vec::new(), 0);
    };
    let mut lines = Vec::new();
    let mut items = 0;
    let mut implementations: Vec<(&'static str, Vec<&str>)> = Vec::new();
    let mut renamed: Vec<(&str, &str)> = Vec::new();
    let mut public_renames: Vec<&FunctionChange> = Vec::new();
    for c in &a.changed {
        if public_move(c) {
            // Its path changed: in most languages, the name its users import.
            items += 1;
            lines.push(format!(
                "moved {} from {}",
                overview::signed(&c.name, &c.signature),
                c.old_path.as_deref().unwrap_or("?"),
            ));
            continue;
        }
        if !is_api(c) || shaped.contains(&std::ptr::from_ref(c)) {
            continue;
        }
        match c.visibility {
            Visibility::Public if c.change_type == ChangeType::Renamed => {
                items += 1;
                public_renames.push(c);
            }
            Visibility::Public => {
                items += 1;
                let line = api_line(c);
                if !lines.contains(&line) {
                    lines.push(line);
                }
            }
            Visibility::Implementation if c.change_type == ChangeType::Renamed => {
                renamed.push((c.old_name.as_deref().unwrap_or("?"), &c.name));
            }
            Visibility::Implementation => {
                let v = verb(c.change_type);
                let name = c.name.as_str();
                match implementations.iter_mut().find(|(w, _)| *w == v) {
                    Some((_, names)) => names.push(name),
                    None => implementations.push((v, vec![name])),
                }
            }
            Visibility::Private => {}
        }
    }
    // Members of a renamed scope (a class renamed) are said once, without signatures (their
    // own did not change); a function renamed alone keeps its signature.
    fn scope_change(c: &FunctionChange) -> Option<(&str, &str)> {
        let old = c.old_name.as_deref().and_then(overview::split_member)?;
        let new = overview::split_member(&c.name)?;
        (old.2 == new.2 && old.1 == new.1 && old.0 != new.0).then_some((old.0, new.0))
    }
    let mut scopes: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for c in &public_renames {
        if let Some(key) = scope_change(c) {
            *scopes.entry(key).or_default() += 1;
        }
    }
    let mut grouped: Vec<(&str, &str)> = Vec::new();
    for c in &public_renames {
        match scope_change(c) {
            Some(key) if scopes[&key] > 1 => {
                grouped.push((c.old_name.as_deref().unwrap_or("?"), &c.name));
            }
            _ => lines.push(api_line(c)),
        }
    }
    lines.extend(
        overview::rename_lines(&grouped)
            .into_iter()
            .map(|l| format!("renamed {l}")),
    );
    for d in &a.declarations {
        if !d.test && d.visibility == Visibility::Public {
            items += 1;
            lines.push(declaration_line(d));
        }
    }
    for (v, names) in implementations {
        lines.push(format!("{v} {}", group_names(&names)));
    }
    lines.extend(
        overview::rename_lines(&renamed)
            .into_iter()
            .map(|l| format!("renamed {l}")),
    );
    (lines, items)
}

/// A public function's change with its signature, the name said once: `added pub fn
/// Map::get(&self)`, `renamed a -> pub fn b()`.
fn api_line(c: &FunctionChange) -> String {
    let signed = overview::signed(&c.name, &c.signature);
    match c.change_type {
        ChangeType::Renamed => format!(
            "renamed {} -> {signed}",
            c.old_name.as_deref().unwrap_or("?")
        ),
        t => format!("{} {signed}", verb(t)),
    }
}

/// A declaration's change: `added pub struct Map<K, V>` when its head says what and which it
/// is, else `added const Client.RETRIES: RETRIES: int`.
fn declaration_line(d: &DeclarationChange) -> String {
    let head = overview::shown_signature(&d.signature);
    let leaf = overview::split_member(&d.name).map_or(d.name.as_str(), |(_, _, m)| m);
    let says_kind = head
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '#' || c == '@'))
        .any(|w| w == d.kind || w.trim_start_matches(['#', '@']) == d.kind);
    let v = verb(d.change_type);
    if head.contains(d.name.as_str()) && says_kind {
        format!("{v} {head}")
    } else if head.contains(d.name.as_str()) {
        format!("{v} {} {head}", d.kind)
    } else if head.contains(leaf) {
        format!("{v} {} {}: {head}", d.kind, d.name)
    } else {
        format!("{v} {} {}", d.kind, d.name)
    }
}

/// Names with the members of one scope written once: `A::{x, y}, B::z, free` (the scope's
/// own separator kept), in order of first appearance; a name listed twice once.
pub fn group_names(names: &[&str]) -> String {
    let mut groups: Vec<(&str, &str, Vec<&str>)> = Vec::new();
    let mut seen = HashSet::new();
    for &name in names {
        if !seen.insert(name) {
            continue;
        }
        let (scope, sep, member) = overview::split_member(name).unwrap_or(("", "", name));
        match groups
            .iter_mut()
            .find(|(s, p, _)| *s == scope && *p == sep && !scope.is_empty())
        {
            Some((_, _, members)) => members.push(member),
            None => groups.push((scope, sep, vec![member])),
        }
    }
    groups
        .into_iter()
        .map(|(scope, sep, members)| match members.as_slice() {
            [one] if scope.is_empty() => (*one).to_owned(),
            [one] => format!("{scope}{sep}{one}"),
            _ => format!("{scope}{sep}{{{}}}", members.join(", ")),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Names of changes by verb, each verb once: `added a, B::{c, d}; deleted e`.
fn by_verb(
    changes: impl Iterator<Item = (&'static str, String)>,
) -> Vec<(&'static str, Vec<String>)> {
    let mut out: Vec<(&'static str, Vec<String>)> = Vec::new();
    for (v, name) in changes {
        match out.iter_mut().find(|(w, _)| *w == v) {
            Some((_, names)) => names.push(name),
            None => out.push((v, vec![name])),
        }
    }
    out
}

/// `added a, B::{c, d}; deleted e` (renames and moves listed as they are).
fn join_verbs(groups: &[(&'static str, Vec<String>)]) -> String {
    groups
        .iter()
        .map(|(v, names)| {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            if matches!(*v, "renamed" | "moved") {
                format!("{v} {}", names.join(", "))
            } else {
                format!("{v} {}", group_names(&names))
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// How a renamed or moved function is named in a list.
fn listed_name(c: &FunctionChange) -> String {
    match c.change_type {
        ChangeType::Renamed => format!("{} -> {}", c.old_name.as_deref().unwrap_or("?"), c.name),
        ChangeType::Moved => format!("{} from {}", c.name, c.old_path.as_deref().unwrap_or("?")),
        _ => c.name.clone(),
    }
}

/// A production file's names, for the table of contents: what its interface lines do not
/// say. `modified a, B::{c, d}`; `private: added e; deleted f`; `moved g from x.rs`;
/// `reformatted h`; `tests: 2 added, 1 modified`.
fn production_names(f: &FileChange) -> Vec<String> {
    let Some(a) = analysed(f) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let code = || a.changed.iter().filter(|c| !c.test);
    let modified: Vec<&str> = code()
        .filter(|c| c.change_type == ChangeType::Modified)
        .map(|c| c.name.as_str())
        .collect();
    if !modified.is_empty() {
        out.push(format!("modified {}", group_names(&modified)));
    }
    let mut private = by_verb(
        code()
            .filter(|c| is_api(c) && c.visibility == Visibility::Private)
            .map(|c| (verb(c.change_type), listed_name(c))),
    );
    // Declarations an implementation makes (a trait impl's associated types) are the
    // interface's: not listed.
    for d in a
        .declarations
        .iter()
        .filter(|d| !d.test && d.visibility == Visibility::Private)
    {
        let name = format!("{} {}", d.kind, d.name);
        match private.iter_mut().find(|(v, _)| *v == verb(d.change_type)) {
            Some((_, names)) => names.push(name),
            None => private.push((verb(d.change_type), vec![name])),
        }
    }
    if !private.is_empty() {
        out.push(format!("private: {}", join_verbs(&private)));
    }
    let moved: Vec<String> = code()
        .filter(|c| c.change_type == ChangeType::Moved && !public_move(c))
        .map(listed_name)
        .collect();
    if !moved.is_empty() {
        out.push(format!("moved {}", moved.join(", ")));
    }
    if !a.formatting_only.is_empty() {
        let names: Vec<&str> = a.formatting_only.iter().map(String::as_str).collect();
        out.push(format!("reformatted {}", group_names(&names)));
    }
    out.extend(overview::opaque_line(a));
    let tests = counts(a.changed.iter().filter(|c| c.test));
    if !tests.is_empty() {
        out.push(format!("tests: {tests}"));
    }
    out
}

/// A production file's tests by name: `tests: added a, b; modified c`.
fn test_names(f: &FileChange) -> Vec<String> {
    let Some(a) = analysed(f) else {
        return Vec::new();
    };
    let groups = by_verb(
        a.changed
            .iter()
            .filter(|c| c.test)
            .map(|c| (verb(c.change_type), listed_name(c))),
    );
    if groups.is_empty() {
        Vec::new()
    } else {
        vec![format!("tests: {}", join_verbs(&groups))]
    }
}

/// The names of a file of tests, benches, examples, docs or configuration, by verb, without
/// signatures.
fn other_names(f: &FileChange) -> Vec<String> {
    let Some(a) = analysed(f) else {
        return Vec::new();
    };
    let mut groups = by_verb(
        a.changed
            .iter()
            .map(|c| (verb(c.change_type), listed_name(c))),
    );
    if !a.formatting_only.is_empty() {
        groups.push(("reformatted", a.formatting_only.clone()));
    }
    groups
        .iter()
        .map(|g| join_verbs(std::slice::from_ref(g)))
        .collect()
}

/// `2 added, 1 modified` (in the order of [`ChangeType`]).
fn counts<'a>(changes: impl Iterator<Item = &'a FunctionChange>) -> String {
    let mut by: BTreeMap<ChangeType, usize> = BTreeMap::new();
    for c in changes {
        *by.entry(c.change_type).or_default() += 1;
    }
    by.iter()
        .map(|(t, n)| format!("{n} {}", verb(*t)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Directory names that say what their files are for: a file under one is counted with it.
const ROLE_DIRS: &[&str] = &[
    "test",
    "tests",
    "testing",
    "__tests__",
    "spec",
    "specs",
    "testdata",
    "fixtures",
    "bench",
    "benches",
    "benchmarks",
    "example",
    "examples",
    "doc",
    "docs",
    "documentation",
    ".github",
    ".circleci",
    "ci",
    "scripts",
];

/// The directory a file other than production code is counted under: the path up to the first
/// directory that says its role (`tokio/tests/`), else its top-level directory, else `(top)`.
fn count_dir(path: &[u8]) -> String {
    let text = path.to_str_lossy();
    let parts: Vec<&str> = text.split('/').collect();
    let dirs = &parts[..parts.len().saturating_sub(1)];
    if let Some(at) = dirs
        .iter()
        .position(|d| ROLE_DIRS.contains(&d.to_ascii_lowercase().as_str()))
    {
        return format!("{}/", dirs[..=at].join("/"));
    }
    match dirs.first() {
        Some(d) => format!("{d}/"),
        None => "(top)".to_owned(),
    }
}

/// Files other than production code counted per directory: `14 files +900 -200; tests: 52
/// added, 3 modified`, the files named when a directory has few.
fn elsewhere(files: &[FileChange], order: &[usize], roles: &[Role]) -> Ordered<String> {
    struct Count {
        files: Vec<usize>,
        added: u64,
        removed: u64,
        tests: bool,
    }
    let mut dirs: Vec<(String, Count)> = Vec::new();
    for &i in order.iter().filter(|&&i| roles[i] != Role::Production) {
        let f = &files[i];
        let dir = count_dir(&f.path);
        let at = match dirs.iter().position(|(d, _)| *d == dir) {
            Some(at) => at,
            None => {
                dirs.push((
                    dir,
                    Count {
                        files: Vec::new(),
                        added: 0,
                        removed: 0,
                        tests: false,
                    },
                ));
                dirs.len() - 1
            }
        };
        let c = &mut dirs[at].1;
        c.files.push(i);
        let (a, r) = f.lines.unwrap_or((0, 0));
        c.added = c.added.saturating_add(a);
        c.removed = c.removed.saturating_add(r);
        c.tests |= roles[i] == Role::Test;
    }
    let line = |c: &Count, dir: &str| {
        let n = c.files.len();
        let mut line = format!(
            "{n} file{} +{} -{}",
            if n == 1 { "" } else { "s" },
            c.added,
            c.removed
        );
        let changes: Vec<&FunctionChange> = c
            .files
            .iter()
            .filter_map(|&i| analysed(&files[i]))
            .flat_map(|a| &a.changed)
            .collect();
        let counted = counts(changes.into_iter());
        if !counted.is_empty() {
            let word = if c.tests { "tests" } else { "functions" };
            line.push_str(&format!("; {word}: {counted}"));
        }
        if n <= NAMED_FILES {
            let names: Vec<String> = c
                .files
                .iter()
                .map(|&i| {
                    let path = display_path(&files[i].path);
                    match path.strip_prefix(dir) {
                        Some(rest) if !rest.is_empty() => rest.to_owned(),
                        _ => path,
                    }
                })
                .collect();
            line.push_str(&format!(": {}", names.join(", ")));
        }
        line
    };
    let rest = dirs.split_off(dirs.len().min(MAX_ELSEWHERE));
    let mut out: Vec<(String, String)> =
        dirs.iter().map(|(d, c)| (d.clone(), line(c, d))).collect();
    if !rest.is_empty() {
        let total = Count {
            files: rest
                .iter()
                .flat_map(|(_, c)| c.files.iter().copied())
                .collect(),
            added: rest
                .iter()
                .fold(0u64, |s, (_, c)| s.saturating_add(c.added)),
            removed: rest
                .iter()
                .fold(0u64, |s, (_, c)| s.saturating_add(c.removed)),
            tests: rest.iter().any(|(_, c)| c.tests),
        };
        let key = format!("({} other directories)", rest.len());
        out.push((key.clone(), line(&total, &key)));
    }
    Ordered(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::facts::Status;
    use crate::lang::{FileFunctions, FunctionKind};

    fn file(
        path: &str,
        changed: Vec<FunctionChange>,
        declarations: Vec<DeclarationChange>,
    ) -> FileChange {
        FileChange {
            path: path.into(),
            old_path: None,
            status: Status::Modified,
            similarity: None,
            mode_before: crate::git::Mode::FILE,
            mode_after: crate::git::Mode::FILE,
            oid_before: None,
            oid_after: None,
            lines: Some((10, 2)),
            binary: false,
            size_before: None,
            size_after: None,
            language: crate::manifest::language::from_path(path.as_bytes()),
            generated: None,
            generated_by_change: false,
            generated_shown: None,
            untracked: false,
            functions: Functions::Analysed(FileFunctions {
                changed,
                declarations,
                ..FileFunctions::default()
            }),
            outline: Default::default(),
        }
    }

    fn change(
        name: &str,
        t: ChangeType,
        visibility: Visibility,
        signature: &str,
    ) -> FunctionChange {
        FunctionChange {
            name: name.into(),
            old_name: (t == ChangeType::Renamed).then(|| format!("{name}_old")),
            kind: FunctionKind::Method,
            change_type: t,
            start_line: 1,
            end_line: 2,
            signature: signature.into(),
            old_path: None,
            edited: false,
            visibility,
            test: false,
        }
    }

    #[test]
    fn the_interface_comes_first_with_shapes_said_once() {
        use ChangeType::*;
        use Visibility::*;
        let adapter = |ty: &str| {
            file(
                &format!("src/stream_ext/{}.rs", ty.to_ascii_lowercase()),
                vec![
                    change(
                        &format!("{ty}::get_ref"),
                        Added,
                        Public,
                        "pub fn get_ref(&self) -> &St",
                    ),
                    change(
                        &format!("{ty}::into_inner"),
                        Added,
                        Public,
                        "pub fn into_inner(self) -> St",
                    ),
                    change(
                        &format!("<{ty} as Stream>::poll_next"),
                        Modified,
                        Implementation,
                        "",
                    ),
                ],
                Vec::new(),
            )
        };
        let mut test_fn = change("tests::it_works", Added, Private, "fn it_works()");
        test_fn.test = true;
        let files = vec![
            adapter("Filter"),
            file(
                "src/map.rs",
                vec![
                    change(
                        "Map::shift_insert",
                        Added,
                        Public,
                        "#[inline] pub fn shift_insert(&mut self)",
                    ),
                    change("Map::grow", Added, Private, "fn grow(&mut self)"),
                    change("Map::len", Modified, Public, "pub fn len(&self) -> usize"),
                    change(
                        "<Map as Hash>::hash",
                        Added,
                        Implementation,
                        "fn hash<H>(&self, h: &mut H)",
                    ),
                    change("Map::retain", Renamed, Public, "pub fn retain(&mut self)"),
                    test_fn,
                ],
                vec![DeclarationChange {
                    name: "IntoValues".into(),
                    kind: "struct".into(),
                    change_type: Added,
                    signature: "pub struct IntoValues".into(),
                    visibility: Public,
                    test: false,
                    start_line: 9,
                }],
            ),
            adapter("Map2"),
            file(
                "tests/map.rs",
                vec![change("test_shift", Added, Private, "fn test_shift()")],
                Vec::new(),
            ),
            file("README.md", Vec::new(), Vec::new()),
        ];
        let order: Vec<usize> = (0..files.len()).collect();
        let toc = build(&files, &order);
        let api: Vec<(String, Vec<String>)> = toc
            .parts
            .iter()
            .take(toc.api_parts)
            .map(|p| match p {
                Part::Api { key, lines } => (key.clone(), lines.clone()),
                Part::File { .. } => unreachable!(),
            })
            .collect();
        assert_eq!(
            api,
            [
                (
                    "src/stream_ext/ (2 files)".to_owned(),
                    vec!["added get_ref, into_inner on Filter, Map2: pub fn get_ref(&self) -> &St; pub fn into_inner(self) -> St".to_owned()]
                ),
                (
                    "src/map.rs".to_owned(),
                    vec![
                        "added pub fn Map::shift_insert(&mut self)".to_owned(),
                        "renamed Map::retain_old -> pub fn Map::retain(&mut self)".to_owned(),
                        "added pub struct IntoValues".to_owned(),
                        "added <Map as Hash>::hash".to_owned(),
                    ]
                ),
            ]
        );
        assert_eq!(toc.api_items, 4 + 2 + 1);
        let names: Vec<(String, Vec<String>)> = toc.parts[toc.api_parts..]
            .iter()
            .map(|p| match p {
                Part::File { entry, .. } => (entry.path.clone(), entry.functions.clone()),
                Part::Api { .. } => unreachable!(),
            })
            .collect();
        assert_eq!(
            names,
            [
                (
                    "src/stream_ext/filter.rs".to_owned(),
                    vec!["modified <Filter as Stream>::poll_next".to_owned()]
                ),
                (
                    "src/map.rs".to_owned(),
                    vec![
                        "modified Map::len".to_owned(),
                        "private: added Map::grow".to_owned(),
                        "tests: 1 added".to_owned(),
                    ]
                ),
                (
                    "src/stream_ext/map2.rs".to_owned(),
                    vec!["modified <Map2 as Stream>::poll_next".to_owned()]
                ),
                // Later pages: the production file's tests by name, then the other files.
                (
                    "src/map.rs".to_owned(),
                    vec!["tests: added tests::it_works".to_owned()]
                ),
                (
                    "tests/map.rs".to_owned(),
                    vec!["added test_shift".to_owned()]
                ),
                ("README.md".to_owned(), Vec::new()),
            ]
        );
        assert_eq!(toc.first, toc.api_parts + 3);
        assert_eq!(
            toc.elsewhere.0,
            [
                (
                    "tests/".to_owned(),
                    "1 file +10 -2; tests: 1 added: map.rs".to_owned()
                ),
                ("(top)".to_owned(), "1 file +10 -2: README.md".to_owned()),
            ]
        );
    }

    #[test]
    fn a_shape_within_one_file_shares_the_file_s_entry() {
        use ChangeType::*;
        use Visibility::*;
        let files = vec![file(
            "src/join.rs",
            vec![
                change(
                    "Rotator::num_skip",
                    Added,
                    Public,
                    "pub fn num_skip(&mut self) -> u32",
                ),
                change(
                    "Biased::num_skip",
                    Added,
                    Public,
                    "pub fn num_skip(&mut self) -> u32",
                ),
                change("Rotator::new", Added, Public, "pub fn new() -> Self"),
            ],
            Vec::new(),
        )];
        let toc = build(&files, &[0]);
        assert_eq!(toc.api_parts, 1);
        match &toc.parts[0] {
            Part::Api { key, lines } => {
                assert_eq!(key, "src/join.rs");
                assert_eq!(
                    lines,
                    &[
                        "added num_skip on Rotator, Biased: pub fn num_skip(&mut self) -> u32",
                        "added pub fn Rotator::new() -> Self",
                    ]
                );
            }
            Part::File { .. } => unreachable!(),
        }
    }

    #[test]
    fn a_signature_carries_its_qualified_name() {
        assert_eq!(
            overview::signed("Map::get", "pub fn get(&self) -> u8"),
            "pub fn Map::get(&self) -> u8"
        );
        assert_eq!(
            overview::signed("get", "pub fn get(&self)"),
            "pub fn get(&self)"
        );
        assert_eq!(
            overview::signed("Option.flag", "@property def flag(self) -> bool"),
            "@property def Option.flag(self) -> bool"
        );
        assert_eq!(
            overview::signed("Command.Run", "func (c *Command) Run() error"),
            "func (c *Command) Run() error"
        );
        assert_eq!(
            overview::signed("<A as B>::x", "fn x(&self)"),
            "fn <A as B>::x(&self)"
        );
        assert_eq!(overview::signed("a::b", "fn bb()"), "a::b: fn bb()");
        assert_eq!(overview::signed("f", ""), "f");
    }

    #[test]
    fn names_of_one_scope_are_written_once() {
        assert_eq!(
            group_names(&[
                "Deserializer::peek",
                "free",
                "Deserializer::parse",
                "<A as B>::x",
                "Class.open",
                "Class.close",
                "free",
            ]),
            "Deserializer::{peek, parse}, free, <A as B>::x, Class.{open, close}"
        );
    }

    #[test]
    fn counted_directories_end_at_the_one_that_says_the_role() {
        assert_eq!(count_dir(b"tokio/tests/io.rs"), "tokio/tests/");
        assert_eq!(count_dir(b"tests/ui/x.rs"), "tests/");
        assert_eq!(count_dir(b"README.md"), "(top)");
        assert_eq!(count_dir(b"src/lib.md"), "src/");
    }
}
