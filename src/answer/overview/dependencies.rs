//! The dependency changes of a change as an answer lists them: each declared change with its
//! versions and bump, summarised by kind (majors first) when there are many.

use std::collections::BTreeMap;

use super::Change;
use crate::deps::{self, LockfileSummary};

/// The most dependency lines listed before they are summarised.
const MAX_DEPENDENCY_LINES: usize = 12;

/// Declared dependency changes, then lockfile totals; summarised when many, majors first.
pub fn dependency_lines(m: Change<'_>) -> Vec<String> {
    let deps = &m.dependencies;
    let mut lines: Vec<String> = if deps.changes.len() <= MAX_DEPENDENCY_LINES {
        deps.changes.iter().map(declared_line).collect()
    } else {
        declared_summary(&deps.changes)
    };
    lines.extend(
        deps.lockfiles
            .iter()
            .take(MAX_DEPENDENCY_LINES)
            .map(lockfile_line),
    );
    if deps.lockfiles.len() > MAX_DEPENDENCY_LINES {
        lines.push(format!(
            "… {} more lockfiles",
            deps.lockfiles.len() - MAX_DEPENDENCY_LINES
        ));
    }
    lines
}

/// A declared dependency's change: `serde 1.0.1 -> 2.0.0 major dev (Cargo.toml)`.
fn declared_line(c: &deps::Change) -> String {
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
}

/// Too many declared changes to list: their count by kind, then the major bumps.
fn declared_summary(changes: &[deps::Change]) -> Vec<String> {
    let mut by: BTreeMap<&'static str, usize> = BTreeMap::new();
    for c in changes {
        let kind = match (&c.old_version, &c.new_version, c.bump) {
            (None, Some(_), _) => "added",
            (Some(_), None, _) => "removed",
            (_, _, Some(b)) => b.label(),
            _ => "changed",
        };
        *by.entry(kind).or_default() += 1;
    }
    let mut lines = vec![format!(
        "{} declared dependencies changed: {}",
        changes.len(),
        by.iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    )];
    let majors: Vec<&deps::Change> = changes
        .iter()
        .filter(|c| c.bump == Some(deps::Bump::Major))
        .collect();
    lines.extend(
        majors
            .iter()
            .take(MAX_DEPENDENCY_LINES)
            .map(|c| declared_line(c)),
    );
    if majors.len() > MAX_DEPENDENCY_LINES {
        lines.push(format!(
            "… {} more major bumps",
            majors.len() - MAX_DEPENDENCY_LINES
        ));
    }
    lines
}

/// A lockfile's totals, with its notable entries (the crate itself, direct dependencies, major
/// bumps): they name what moved, and a few of them cost less than a second look at the
/// lockfile.
fn lockfile_line(l: &LockfileSummary) -> String {
    let mut line = format!(
        "{}: {} updated, {} added, {} removed",
        l.file, l.updated, l.added, l.removed
    );
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
    line
}
