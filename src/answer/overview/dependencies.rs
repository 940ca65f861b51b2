//! The dependency changes of a change as an answer lists them: each declared change with its
//! versions and bump, summarised by kind (majors first) when there are many.

use std::collections::BTreeMap;

use super::Change;

/// The most dependency lines listed before they are summarised.
const MAX_DEPENDENCY_LINES: usize = 12;

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
