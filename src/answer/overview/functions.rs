//! A file's changed functions and declarations in the map's vocabulary: the lines a map lists
//! (an added or re-signed function with its signature, the others by kind of change and name),
//! the labels hunk headers carry, and how a qualified name and its signature are written as one.

use std::collections::{HashMap, HashSet};

use crate::lang::{ChangeType, FunctionChange};
use crate::manifest::model::{FileChange, Functions};

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
pub(crate) fn rename_lines(renames: &[(&str, &str)]) -> Vec<String> {
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
pub(crate) fn split_member(name: &str) -> Option<(&str, &str, &str)> {
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
pub(crate) fn shown_signature(signature: &str) -> &str {
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

/// A function's qualified name and its signature in one: the scope written into the signature
/// before the name (`pub fn get(&self)` of `Map::get` is `pub fn Map::get(&self)`); the
/// signature alone when it already shows the scope before the name (Go's receiver: `func (c
/// *Command) Run()`); `name: signature` when the name is not in it.
pub(crate) fn signed(name: &str, signature: &str) -> String {
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
pub(crate) fn function_line(c: &FunctionChange, signatures: bool) -> String {
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
