//! What a target calls: each call inside its definition, with the file that defines what it
//! calls when the call resolves through the file's imports (or, by name, to the target's own
//! file); and the head-side files to analyse so that those definitions can be found.

use std::collections::{BTreeSet, HashMap};

use super::files::HeadTree;
use super::resolve::{self, FileView, Project, Resolution, Scheme};
use super::{Callee, Target};
use crate::lang::{self, Analysis};

/// The head-side files not analysed yet that define what the targets call (at most 500).
pub(super) fn callee_files(
    targets: &[Target],
    tree: &HeadTree,
    project: &Project,
    analyses: &HashMap<String, Analysis>,
    views: &HashMap<String, FileView>,
    base: &HashMap<String, Analysis>,
) -> Vec<String> {
    let mut wanted_files: BTreeSet<String> = BTreeSet::new();
    for t in targets {
        let Some(scheme) = Scheme::of(t.language) else {
            continue;
        };
        let Some((analysis, index)) = own(t, analyses, base) else {
            continue;
        };
        let own_view = views
            .get(t.file.as_str())
            .cloned()
            .unwrap_or_else(|| resolve::view(scheme, project, &t.file, analysis));
        for call in analysis.calls.iter().filter(|c| c.caller == Some(index)) {
            let Resolution::Paths(paths) = resolve::resolve(
                scheme,
                project,
                &own_view,
                call,
                Some(&analysis.functions[index as usize]),
            ) else {
                continue;
            };
            for path in paths {
                for k in 1..path.len() {
                    let module = path[..k].to_vec();
                    for f in resolve::module_files(scheme, project, &module) {
                        if tree.get(&f).is_some() && !analyses.contains_key(&f) {
                            wanted_files.insert(f);
                        }
                    }
                }
            }
        }
    }
    wanted_files.into_iter().take(500).collect()
}

/// The analysis holding a target's definition, and the definition's index in it.
pub(super) fn own<'a>(
    t: &Target,
    head: &'a HashMap<String, Analysis>,
    base: &'a HashMap<String, Analysis>,
) -> Option<(&'a Analysis, u32)> {
    let analysis = match &t.base_oid {
        Some(oid) => base.get(oid.as_str())?,
        None => head.get(&t.file)?,
    };
    let index = analysis
        .functions
        .iter()
        .position(|f| f.name == t.name && f.start_line == t.start_line)
        .or_else(|| analysis.functions.iter().position(|f| f.name == t.name))?;
    Some((analysis, index as u32))
}

/// The calls the target makes, in source order.
pub(super) fn callees(
    t: &Target,
    scheme: Option<Scheme>,
    project: &Project,
    tree: &HeadTree,
    analyses: &HashMap<String, Analysis>,
    views: &HashMap<String, FileView>,
    base: &HashMap<String, Analysis>,
) -> Vec<Callee> {
    let Some((analysis, index)) = own(t, analyses, base) else {
        return Vec::new();
    };
    let function = &analysis.functions[index as usize];
    let own_view = scheme.map(|s| {
        views
            .get(t.file.as_str())
            .filter(|_| t.base_oid.is_none())
            .cloned()
            .unwrap_or_else(|| resolve::view(s, project, &t.file, analysis))
    });
    let config = lang::for_language(t.language);
    let separator = config.map_or(".", |c| c.separator);
    analysis
        .calls
        .iter()
        .filter(|c| c.caller == Some(index))
        // A call that builds a value (Rust's `Some(x)`) calls no function.
        .filter(|c| !config.is_some_and(|l| l.analyzer.builds_value(&c.site)))
        .map(|call| {
            let site = &call.site;
            let callee = if site.qualifier.is_empty() {
                site.name.clone()
            } else if site.member {
                format!("{}.{}", site.qualifier, site.name)
            } else {
                format!("{}{separator}{}", site.qualifier, site.name)
            };
            // By name: only a definition in the same file is certain enough.
            let same_file = || {
                analysis
                    .functions
                    .iter()
                    .any(|f| f.leaf == site.name && site.qualifier.is_empty())
                    .then(|| t.file.clone())
            };
            let resolved_file = match (scheme, &own_view) {
                (Some(s), Some(view)) => {
                    defining_file(s, project, tree, analyses, view, call, function)
                        .or_else(|| s.own_file_fallback().then(same_file).flatten())
                }
                _ => same_file(),
            };
            Callee {
                callee,
                line: call.line,
                resolved_file,
            }
        })
        .collect()
}

/// The file defining what a call names, when its module's file is on the head side and has
/// the function.
fn defining_file(
    scheme: Scheme,
    project: &Project,
    tree: &HeadTree,
    analyses: &HashMap<String, Analysis>,
    view: &FileView,
    call: &lang::Call,
    caller: &lang::Function,
) -> Option<String> {
    let Resolution::Paths(paths) = resolve::resolve(scheme, project, view, call, Some(caller))
    else {
        return None;
    };
    for path in paths {
        for k in (1..path.len()).rev() {
            let module = path[..k].to_vec();
            for file in resolve::module_files(scheme, project, &module) {
                let Some(analysis) = analyses.get(&file) else {
                    continue;
                };
                if tree.get(&file).is_none() {
                    continue;
                }
                if analysis.functions.iter().any(|f| {
                    resolve::defines(scheme, &resolve::segments(scheme, &f.name), &path, k)
                }) {
                    return Some(file);
                }
            }
        }
    }
    None
}
