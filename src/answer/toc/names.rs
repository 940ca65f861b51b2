//! The names a table of contents gives a file's other changes: production code's modified and
//! private functions, moves and reformatting by name, its tests counted; a file of another role
//! by verb; the members of one scope written once.

use std::collections::{BTreeMap, HashSet};

use super::{analysed, is_api, public_move, verb};
use crate::answer::overview;
use crate::lang::{ChangeType, FunctionChange, Visibility};
use crate::manifest::model::FileChange;

/// Names with the members of one scope written once: `A::{x, y}, B::z, free` (the scope's
/// own separator kept), in order of first appearance; a name listed twice once.
pub(super) fn group_names(names: &[&str]) -> String {
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
pub(super) fn production_names(f: &FileChange) -> Vec<String> {
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
pub(super) fn test_names(f: &FileChange) -> Vec<String> {
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
pub(super) fn other_names(f: &FileChange) -> Vec<String> {
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
pub(super) fn counts<'a>(changes: impl Iterator<Item = &'a FunctionChange>) -> String {
    let mut by: BTreeMap<ChangeType, usize> = BTreeMap::new();
    for c in changes {
        *by.entry(c.change_type).or_default() += 1;
    }
    by.iter()
        .map(|(t, n)| format!("{n} {}", verb(*t)))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
