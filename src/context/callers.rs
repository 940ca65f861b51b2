//! Who calls a target: each call of its name on the head side, resolved through the calling
//! file's imports where its language has an import scheme (a call on a receiver of unknown type
//! is a candidate), matched by name where it has none; and what the callers add up to: the
//! tests that reach the target and how far a change to it can spread.

use std::collections::{BTreeSet, HashMap};

use super::files::HeadTree;
use super::resolve::{self, Definition, FileView, Project, Resolution, Scheme};
use super::{BlastRadius, Caller, Change, Risk, Target, TestReference, family, is_test_path};
use crate::lang::{self, Analysis, ChangeType, Language};

/// Every call on the head side by the name it may call: its own name, and the original name
/// of an alias it calls through (`sum` for `use price::total as sum` is listed under `total`).
pub(super) struct CallIndex<'a> {
    by_name: HashMap<&'a str, Vec<(&'a str, &'a lang::Call)>>,
}

impl<'a> CallIndex<'a> {
    pub(super) fn new(
        analyses: &'a HashMap<String, Analysis>,
        views: &'a HashMap<String, FileView>,
    ) -> Self {
        let mut by_name: HashMap<&'a str, Vec<(&'a str, &'a lang::Call)>> = HashMap::new();
        for (path, analysis) in analyses {
            let aliases: HashMap<&str, &str> = views
                .get(path)
                .map(|v| v.aliases().collect())
                .unwrap_or_default();
            for call in &analysis.calls {
                let name = call.site.name.as_str();
                by_name.entry(name).or_default().push((path.as_str(), call));
                if let Some(original) = aliases.get(name).filter(|_| call.site.qualifier.is_empty())
                {
                    by_name
                        .entry(original)
                        .or_default()
                        .push((path.as_str(), call));
                }
            }
        }
        CallIndex { by_name }
    }

    /// The calls that may call a function whose last segment is `leaf`.
    pub(super) fn calls_of(&self, leaf: &str) -> &[(&'a str, &'a lang::Call)] {
        self.by_name.get(leaf).map_or(&[], Vec::as_slice)
    }
}

/// The target's callers, one per file and line.
pub(super) fn callers(
    t: &Target,
    scheme: Option<Scheme>,
    tree: &HeadTree,
    project: &Project,
    analyses: &HashMap<String, Analysis>,
    index: &CallIndex<'_>,
    views: &HashMap<String, FileView>,
) -> Vec<Caller> {
    let definition = scheme.map(|s| Definition::new(s, project, &t.file, &t.name));
    let resolving = scheme.zip(definition.as_ref());
    let family = family(t.language);
    let mut callers: BTreeSet<Caller> = BTreeSet::new();
    for &(path, call) in index.calls_of(&t.leaf) {
        let Some(file) = tree.get(path) else { continue };
        if !family.contains(&file.language) {
            continue;
        }
        let Some(analysis) = analyses.get(path) else {
            continue;
        };
        let caller = call.caller.map(|i| &analysis.functions[i as usize]);
        // A function calling itself is not a caller.
        if t.base_oid.is_none() && *path == t.file && caller.is_some_and(|c| c.name == t.name) {
            continue;
        }
        let site = Site {
            language: file.language,
            view: views.get(path),
            call,
            caller,
        };
        let Some(candidate) = may_call(t, resolving, project, &site) else {
            continue;
        };
        let is_test = is_test_path(path) || call.test || caller.is_some_and(|c| c.test);
        // A test module in the definition's own file (`#[cfg(test)] mod tests`, `use
        // super::*`) tests that file: a method it calls on a value whose type is not
        // known (`builder.build()`) is the file's own.
        let candidate = candidate && !(is_test && *path == t.file);
        callers.insert(Caller {
            file: path.to_owned(),
            line: call.line,
            caller: caller.map(|c| c.name.clone()),
            is_test,
            candidate,
        });
    }
    dedup_lines(callers.into_iter().collect())
}

/// A call of a target's name, where it is made.
struct Site<'a> {
    /// The calling file's language.
    language: Language,
    /// The calling file's imports, when its language has an import scheme.
    view: Option<&'a FileView>,
    /// The call.
    call: &'a lang::Call,
    /// The calling function (`None` at module level).
    caller: Option<&'a lang::Function>,
}

/// Whether a call of the target's name may call it: `Some(false)` when it names the target,
/// `Some(true)` when it is a candidate (a call on a receiver whose type could not be known),
/// `None` when it calls something else. `resolving` is the target's import scheme and its
/// definition, when its language has one.
fn may_call(
    t: &Target,
    resolving: Option<(Scheme, &Definition)>,
    project: &Project,
    site: &Site<'_>,
) -> Option<bool> {
    match (resolving, site.view) {
        (Some((s, d)), Some(view)) if Scheme::of(site.language) == Some(s) => {
            match resolve::resolve(s, project, view, site.call, site.caller) {
                Resolution::Paths(paths) => paths.iter().any(|p| d.named_by(s, p)).then_some(false),
                Resolution::Receiver => (d.is_method() && d.related(s, view)).then_some(true),
            }
        }
        // Matched by name alone: a member call might be on anything.
        _ if site.call.site.name != t.leaf => None,
        _ => Some(site.call.site.member),
    }
}

/// One entry per file and line (a line with two calls of the name is one call site).
fn dedup_lines(mut callers: Vec<Caller>) -> Vec<Caller> {
    callers.dedup_by(|b, a| a.file == b.file && a.line == b.line);
    callers
}

/// The test functions among the callers, each once, at its first call.
pub(super) fn test_references(callers: &[Caller]) -> Vec<TestReference> {
    let mut tests: BTreeSet<TestReference> = BTreeSet::new();
    for c in callers.iter().filter(|c| c.is_test && !c.candidate) {
        if !tests
            .iter()
            .any(|r| r.file == c.file && r.function == c.caller)
        {
            tests.insert(TestReference {
                file: c.file.clone(),
                function: c.caller.clone(),
                line: c.line,
            });
        }
    }
    tests.into_iter().collect()
}

/// How far a change to the target can spread, from its callers.
pub(super) fn blast_radius(change: Change, callers: &[Caller]) -> BlastRadius {
    let production_callers = callers
        .iter()
        .filter(|c| !c.is_test && !c.candidate)
        .count();
    let test_callers = callers.iter().filter(|c| c.is_test && !c.candidate).count();
    let candidate_callers = callers.iter().filter(|c| c.candidate).count();
    BlastRadius {
        production_callers,
        test_callers,
        candidate_callers,
        has_tests: test_callers > 0,
        risk: risk(change, production_callers, test_callers, candidate_callers),
    }
}

/// Grades a change by who depends on the function.
pub fn risk(change: Change, production: usize, tests: usize, candidates: usize) -> Risk {
    let has_tests = tests > 0;
    if change == Change::Changed(ChangeType::Deleted) {
        return if production > 0 {
            Risk::High
        } else if tests > 0 || candidates > 0 {
            Risk::Low
        } else {
            Risk::None
        };
    }
    if production == 0 {
        return if candidates > 0 {
            Risk::Low
        } else {
            Risk::None
        };
    }
    // Callers must adapt to a new signature.
    let breaking = change == Change::Changed(ChangeType::SignatureChanged);
    if production >= 10 || (!has_tests && (production >= 3 || breaking)) {
        Risk::High
    } else if production >= 3 || !has_tests || breaking {
        Risk::Medium
    } else {
        Risk::Low
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn risk_grades() {
        let modified = Change::Changed(ChangeType::Modified);
        let signature_changed = Change::Changed(ChangeType::SignatureChanged);
        let deleted = Change::Changed(ChangeType::Deleted);
        assert_eq!(risk(modified, 0, 0, 0), Risk::None);
        assert_eq!(risk(modified, 0, 3, 0), Risk::None);
        assert_eq!(risk(modified, 0, 0, 2), Risk::Low);
        assert_eq!(risk(modified, 1, 1, 0), Risk::Low);
        assert_eq!(risk(modified, 1, 0, 0), Risk::Medium);
        assert_eq!(risk(modified, 3, 1, 0), Risk::Medium);
        assert_eq!(risk(modified, 3, 0, 0), Risk::High);
        assert_eq!(risk(modified, 10, 5, 0), Risk::High);
        assert_eq!(risk(signature_changed, 1, 1, 0), Risk::Medium);
        assert_eq!(risk(signature_changed, 1, 0, 0), Risk::High);
        assert_eq!(risk(deleted, 1, 0, 0), Risk::High);
        assert_eq!(risk(deleted, 0, 2, 0), Risk::Low);
        assert_eq!(risk(deleted, 0, 0, 0), Risk::None);
        // Asked for by name, unchanged: graded like a modification.
        assert_eq!(risk(Change::Unchanged, 1, 0, 0), Risk::Medium);
    }
}
