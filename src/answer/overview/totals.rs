//! A change in totals, for where its files cannot all be named: per top-level directory (the
//! orientation of a map that spans pages), a commit's change on one line (a log's summary of
//! it), and the one line of totals a paged answer starts with.

use std::collections::BTreeMap;

use super::{Change, Ordered, declaration_lines, file_line, prefix};
use crate::lang::{ChangeType, FunctionChange};
use crate::manifest::hunks::display_path;
use crate::manifest::model::{FileChange, Functions};

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
