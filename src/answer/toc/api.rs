//! The interface lines of a table of contents: each public function or declaration of
//! production code added, deleted, re-signed, renamed or moved, with its signature; a shape
//! repeated on several scopes said once; members of implementations by name.

use std::collections::{BTreeMap, HashSet};

use super::names::group_names;
use super::{Candidate, analysed, is_api, public_move, verb};
use crate::answer::overview;
use crate::lang::{ChangeType, DeclarationChange, FunctionChange, Visibility};
use crate::manifest::hunks::display_path;
use crate::manifest::model::FileChange;

/// A shape: members with the same signatures, changed the same way on several scopes.
pub(super) struct Shape<'a> {
    /// The change, per member: (verb, member, signature), in order of first appearance.
    keys: Vec<(&'static str, &'a str, &'a str)>,
    /// The scopes, in order of first appearance.
    scopes: Vec<&'a str>,
    /// Every change the shape stands for, in order.
    pub(super) members: Vec<Candidate<'a>>,
}

impl Shape<'_> {
    /// `added get_ref, get_mut on Filter, Map: pub fn get_ref(&self) -> &S; pub fn get_mut(..)`.
    pub(super) fn line(&self) -> String {
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
    pub(super) fn key(&self, files: &[FileChange]) -> String {
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
pub(super) fn shapes<'a>(public: &[Candidate<'a>]) -> Vec<Shape<'a>> {
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
pub(super) fn api_lines(
    f: &FileChange,
    shaped: &HashSet<*const FunctionChange>,
) -> (Vec<String>, usize) {
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
    lines.extend(public_rename_lines(&public_renames));
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

/// The lines of public renames: the members of a renamed scope (a class renamed) said once,
/// without signatures (their own did not change), after each function renamed alone with its
/// signature.
fn public_rename_lines(public_renames: &[&FunctionChange]) -> Vec<String> {
    let mut scopes: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for c in public_renames {
        if let Some(key) = scope_change(c) {
            *scopes.entry(key).or_default() += 1;
        }
    }
    let mut lines = Vec::new();
    let mut grouped: Vec<(&str, &str)> = Vec::new();
    for c in public_renames {
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
    lines
}

/// The old and new scope of a member renamed with its scope alone (`Old::get` -> `New::get`).
fn scope_change(c: &FunctionChange) -> Option<(&str, &str)> {
    let old = c.old_name.as_deref().and_then(overview::split_member)?;
    let new = overview::split_member(&c.name)?;
    (old.2 == new.2 && old.1 == new.1 && old.0 != new.0).then_some((old.0, new.0))
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
