//! Function context: for every function a range changes (or every function named), who calls
//! it, what it calls, which tests reach it, and how far a change to it can spread.
//!
//! 1. The targets are the manifest's function changes (or definitions of the names asked
//!    for, found on the head side).
//! 2. The head side's files in the targets' languages (and the languages that can call into
//!    them: each analyzer's family) are searched for the targets' names as whole words, all
//!    names in one Aho-Corasick pass per file; only files that match are parsed, in parallel,
//!    through the per-blob analysis cache ([`files`]).
//! 3. Each call with a target's name is resolved through its file's imports ([`resolve`]):
//!    callers are credited only when the call can name the target (`scoping: scoped`); calls
//!    on receivers of unknown type are candidates. Languages whose analyzer has no import
//!    scheme are matched by name (`scoping: full_scan`).
//! 4. Callees are the calls inside the target, each with the file that defines it when that
//!    can be resolved; test references are the test functions among the callers; the blast
//!    radius counts production and test callers and grades the risk.
//!
//! The library never prints; [`render`] turns a [`Context`] into JSON pages.

mod callees;
mod callers;
pub mod files;
pub mod render;
pub mod resolve;

use std::collections::{BTreeSet, HashMap};

use callees::callee_files;
use callers::CallIndex;
pub use callers::risk;
use files::HeadTree;
use resolve::{FileView, Project, Scheme};

use crate::git::{GitError, Oid, Repo};
use crate::lang::{self, Analysis, ChangeType, FunctionKind, Language};
use crate::manifest::model::{Functions, Manifest};
use crate::time::Stopwatch;

/// The error returned by [`build`].
#[derive(Debug, thiserror::Error)]
pub enum ContextError {
    /// Repository access or the real git failed.
    #[error(transparent)]
    Git(#[from] GitError),
    /// The function names asked for are more or longer than the bounds.
    #[error("at most {MAX_NAMES} function names of at most {MAX_NAME_LEN} characters each ({0})")]
    Names(String),
}

/// The most function names one call may ask about.
pub const MAX_NAMES: usize = 100;
/// The longest function name one call may ask about (qualified names included).
pub const MAX_NAME_LEN: usize = 512;

/// How risky a change to a function is, from who depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Risk {
    /// Nothing in production calls it.
    None,
    /// Few production callers, covered by tests; or only candidate callers.
    Low,
    /// Several production callers, or callers without tests, or callers that must adapt.
    Medium,
    /// Many production callers, or callers without tests that must adapt, or callers left
    /// calling a deleted function.
    High,
}

impl Risk {
    /// The wire label.
    pub fn label(self) -> &'static str {
        match self {
            Risk::None => "none",
            Risk::Low => "low",
            Risk::Medium => "medium",
            Risk::High => "high",
        }
    }
}

/// What the range did to a function whose context is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The range changed it.
    Changed(ChangeType),
    /// It was asked for by name and the range did not change it.
    Unchanged,
}

impl Change {
    /// The wire label: a change type's, or `unchanged`.
    pub fn label(self) -> &'static str {
        match self {
            Change::Changed(change) => change.label(),
            Change::Unchanged => "unchanged",
        }
    }
}

/// How a function's callers were found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoping {
    /// Filtered by what the calling files import (languages with an import scheme).
    Scoped,
    /// Matched by name alone.
    FullScan,
}

impl Scoping {
    /// The wire label: `scoped` or `full_scan`.
    pub fn label(self) -> &'static str {
        match self {
            Scoping::Scoped => "scoped",
            Scoping::FullScan => "full_scan",
        }
    }
}

/// One place that calls a target.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Caller {
    /// The calling file.
    pub file: String,
    /// The line of the call.
    pub line: u32,
    /// The calling function's qualified name (`None` at module level).
    pub caller: Option<String>,
    /// Whether the call is test code.
    pub is_test: bool,
    /// Whether the call is on a receiver whose type could not be known.
    pub candidate: bool,
}

/// One call a target makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Callee {
    /// The call as written (`helper`, `crate::x::parse`, `self.load`).
    pub callee: String,
    /// The line of the call.
    pub line: u32,
    /// The file that defines what is called, when it could be resolved.
    pub resolved_file: Option<String>,
}

/// A test function that calls a target.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TestReference {
    /// The test's file.
    pub file: String,
    /// The test function (`None` for module-level test code).
    pub function: Option<String>,
    /// The line of its first call to the target.
    pub line: u32,
}

/// How far a change can spread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlastRadius {
    /// Calls from production code.
    pub production_callers: usize,
    /// Calls from test code.
    pub test_callers: usize,
    /// Candidate calls (unknown receivers), not counted above.
    pub candidate_callers: usize,
    /// Whether any test calls it.
    pub has_tests: bool,
    /// The grade.
    pub risk: Risk,
}

/// The context of one function.
#[derive(Clone, Debug)]
pub struct FunctionContext {
    /// Qualified name.
    pub name: String,
    /// The file defining it (on the head side; the base side for deletions).
    pub file: String,
    /// What the range did to it.
    pub change_type: Change,
    /// A function or a method.
    pub kind: FunctionKind,
    /// Its language.
    pub language: Language,
    /// Whether callers were filtered by imports or matched by name.
    pub scoping: Scoping,
    /// Its callers, by file and line.
    pub callers: Vec<Caller>,
    /// What it calls, in source order.
    pub callees: Vec<Callee>,
    /// The tests that call it.
    pub test_references: Vec<TestReference>,
    /// How far a change can spread.
    pub blast_radius: BlastRadius,
}

/// The context of a range.
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// One entry per target, in manifest order.
    pub functions: Vec<FunctionContext>,
    /// Names asked for that no function on the head side has.
    pub not_found: Vec<String>,
    /// Files on the head side in the targets' languages.
    pub files_in_scope: usize,
    /// Files that mention a target's name and were analysed.
    pub files_analysed: usize,
    /// How long each phase took (for `GIT_PRISM_TRACE=1`).
    pub timings: Vec<(&'static str, std::time::Duration)>,
}

/// A function to find the context of.
#[derive(Clone, Debug)]
struct Target {
    name: String,
    leaf: String,
    file: String,
    language: Language,
    kind: FunctionKind,
    change: Change,
    start_line: u32,
    /// The blob holding the definition when it is not on the head side (a deletion).
    base_oid: Option<Oid>,
}

/// The languages whose files can call into a language's files, as its analyzer says.
fn family(language: Language) -> &'static [Language] {
    lang::for_language(language).map_or(&[], |a| a.family)
}

/// Whether a path is test code by the common conventions: a `test`/`tests`/`__tests__`/`spec`
/// directory, `test_*.py`, `*_test.py`, `conftest.py`, `*_test.go`, `*.test.ts`, `*.spec.js`,
/// `*Test.java`, `*Tests.cs`, `*Test.kt`, `*Spec.scala`, `*Test.php`, `*_spec.rb`, `*_spec.lua`,
/// `*.bats`, `tests.rs`.
pub fn is_test_path(path: &str) -> bool {
    let mut parts: Vec<&str> = path.split('/').collect();
    let name = parts.pop().unwrap_or("");
    if parts.iter().any(|d| {
        matches!(
            d.to_ascii_lowercase().as_str(),
            "test" | "tests" | "testing" | "__tests__" | "spec" | "specs" | "test_utils"
        )
    }) {
        return true;
    }
    let stem = name.split('.').next().unwrap_or(name);
    let lower = name.to_ascii_lowercase();
    (lower.starts_with("test_") && lower.ends_with(".py"))
        || lower.ends_with("_test.py")
        || lower == "conftest.py"
        || lower.ends_with("_test.go")
        || lower.contains(".test.")
        || lower.contains(".spec.")
        || matches!(stem, "tests" | "test")
        || stem.ends_with("_tests")
        || stem.ends_with("_test")
        || ((lower.ends_with(".java") || lower.ends_with(".php"))
            && (stem.ends_with("Test") || stem.ends_with("Tests")))
        // C#, Kotlin, Swift and Scala test classes (`ParserTests.cs`, `ParserSpec.scala`).
        || ([".cs", ".kt", ".swift", ".scala"].iter().any(|e| lower.ends_with(e))
            && ["Test", "Tests", "Spec"].iter().any(|s| stem.ends_with(s)))
        || stem.ends_with("_spec")
        || lower.ends_with(".bats")
}

/// Builds the context of a manifest's changed functions, or of the functions named in
/// `names` (qualified names or bare names).
pub fn build(repo: &Repo, manifest: &Manifest, names: &[String]) -> Result<Context, ContextError> {
    // Every name becomes a search pattern over the repository: their count and size bound the
    // time a call can take.
    if names.len() > MAX_NAMES {
        return Err(ContextError::Names(format!("{} given", names.len())));
    }
    if let Some(long) = names.iter().find(|n| n.chars().count() > MAX_NAME_LEN) {
        return Err(ContextError::Names(format!(
            "one has {} characters",
            long.chars().count()
        )));
    }
    let mut clock = Stopwatch::start();
    let (mut targets, wanted) = select_targets(manifest, names);
    let tree = HeadTree::list(repo, &manifest.target)?;
    clock.lap("list");
    let languages = languages_in_scope(&targets, !wanted.is_empty());
    let mut analyses = search(repo, &tree, &targets, &wanted, &languages);
    clock.lap("search and analyse");
    let not_found = find_named(&mut targets, &wanted, &tree, &analyses);
    let project = if targets
        .iter()
        .any(|t| Scheme::of(t.language) == Some(Scheme::Rust))
    {
        project(repo, &tree)
    } else {
        Project::default()
    };
    let base = base_side(repo, &targets);
    let views: HashMap<String, FileView> = analyses
        .iter()
        .filter_map(|(path, a)| {
            let scheme = Scheme::of(tree.get(path)?.language)?;
            Some((path.clone(), resolve::view(scheme, &project, path, a)))
        })
        .collect();
    let files_analysed = analyses.len();
    let callee_files = callee_files(&targets, &tree, &project, &analyses, &views, &base);
    analyses.extend(files::analyse_all(repo, &tree, &callee_files));
    clock.lap("callees");
    let index = CallIndex::new(&analyses, &views);
    let functions = targets
        .iter()
        .map(|t| function_context(t, &tree, &project, &analyses, &index, &views, &base))
        .collect();
    clock.lap("resolve");
    Ok(Context {
        functions,
        not_found,
        files_in_scope: tree
            .files()
            .iter()
            .filter(|f| languages.contains(&f.language))
            .count(),
        files_analysed,
        timings: clock.into_laps(),
    })
}

/// The manifest's changed functions that `names` select (all of them without names), and the
/// names that select none of them (to be looked up on the head side).
fn select_targets<'n>(manifest: &Manifest, names: &'n [String]) -> (Vec<Target>, Vec<&'n String>) {
    let mut targets = changed(manifest);
    if names.is_empty() {
        return (targets, Vec::new());
    }
    targets.retain(|t| names.iter().any(|n| *n == t.name || *n == t.leaf));
    let wanted = names
        .iter()
        .filter(|n| !targets.iter().any(|t| t.name == **n || t.leaf == **n))
        .collect();
    (targets, wanted)
}

/// The languages whose files can call the targets (every analysed language's family when names
/// are looked up), sorted.
fn languages_in_scope(targets: &[Target], looking_up: bool) -> Vec<Language> {
    let mut languages: BTreeSet<Language> = BTreeSet::new();
    for t in targets {
        languages.extend(family(t.language));
    }
    if looking_up {
        languages.extend(lang::analyzed().into_iter().flat_map(family));
    }
    languages.into_iter().collect()
}

/// Analyses the head-side files in `languages` that mention a target's or a wanted name, and
/// the targets' own files.
fn search(
    repo: &Repo,
    tree: &HeadTree,
    targets: &[Target],
    wanted: &[&String],
    languages: &[Language],
) -> HashMap<String, Analysis> {
    let mut leaves: BTreeSet<&str> = targets.iter().map(|t| t.leaf.as_str()).collect();
    for n in wanted {
        leaves.insert(leaf_of(n));
    }
    let leaves: Vec<&str> = leaves.into_iter().collect();
    let mut analyses = files::mentioning(repo, tree, &leaves, languages);
    let own_files: Vec<String> = targets
        .iter()
        .filter(|t| t.base_oid.is_none() && !analyses.contains_key(&t.file))
        .map(|t| t.file.clone())
        .collect();
    analyses.extend(files::analyse_all(repo, tree, &own_files));
    analyses
}

/// Adds the head side's definitions of the wanted names as targets; returns the names that
/// have none.
fn find_named(
    targets: &mut Vec<Target>,
    wanted: &[&String],
    tree: &HeadTree,
    analyses: &HashMap<String, Analysis>,
) -> Vec<String> {
    let mut not_found = Vec::new();
    for &name in wanted {
        let mut found: Vec<Target> = Vec::new();
        for (path, analysis) in analyses {
            let Some(file) = tree.get(path) else { continue };
            for f in &analysis.functions {
                if f.name == *name || (!name.contains(['.', ':', '#']) && f.leaf == *name) {
                    found.push(Target {
                        name: f.name.clone(),
                        leaf: f.leaf.clone(),
                        file: path.clone(),
                        language: file.language,
                        kind: f.kind,
                        change: Change::Unchanged,
                        start_line: f.start_line,
                        base_oid: None,
                    });
                }
            }
        }
        if found.is_empty() {
            not_found.push(name.clone());
        }
        found.sort_by(|a, b| (&a.file, a.start_line).cmp(&(&b.file, b.start_line)));
        targets.extend(found);
    }
    not_found
}

/// The base-side analyses of deleted targets, by blob id.
fn base_side(repo: &Repo, targets: &[Target]) -> HashMap<String, Analysis> {
    let objects = repo.objects();
    let mut base: HashMap<String, Analysis> = HashMap::new();
    for t in targets {
        if let Some(oid) = &t.base_oid {
            if !base.contains_key(oid.as_str()) {
                if let Some(a) = files::analyse(t.language, Some(oid), || objects.blob(oid).ok()) {
                    base.insert(oid.to_string(), a);
                }
            }
        }
    }
    base
}

fn leaf_of(name: &str) -> &str {
    name.rsplit(['.', ':', '#']).next().unwrap_or(name)
}

/// The manifest's function changes as targets.
fn changed(manifest: &Manifest) -> Vec<Target> {
    let mut out = Vec::new();
    for file in &manifest.files {
        let Functions::Analysed(functions) = &file.functions else {
            continue;
        };
        let Some(language) = file.language else {
            continue;
        };
        let path = String::from_utf8_lossy(&file.path).into_owned();
        for change in &functions.changed {
            let deleted = change.change_type == ChangeType::Deleted;
            // A deleted function's file may still exist; its definition is on the base side.
            let base_oid = if deleted {
                file.oid_before.clone()
            } else {
                None
            };
            if deleted && base_oid.is_none() {
                continue;
            }
            out.push(Target {
                leaf: leaf_of(&change.name).to_owned(),
                name: change.name.clone(),
                file: if deleted {
                    file.old_path
                        .as_ref()
                        .map_or_else(|| path.clone(), |p| String::from_utf8_lossy(p).into_owned())
                } else {
                    path.clone()
                },
                language,
                kind: change.kind,
                change: Change::Changed(change.change_type),
                start_line: change.start_line,
                base_oid,
            });
        }
    }
    out
}

/// Reads the repository's crates from its `Cargo.toml` files on the head side.
fn project(repo: &Repo, tree: &HeadTree) -> Project {
    let objects = repo.objects();
    let crates = tree
        .manifests("Cargo.toml")
        .iter()
        .filter_map(|(path, bytes, oid)| {
            let content = tree.read(&objects, bytes.as_ref(), oid.as_ref())?;
            let name = resolve::crate_name(&String::from_utf8_lossy(&content))?;
            let dir = path.strip_suffix("Cargo.toml").unwrap_or("").to_owned();
            Some((dir, name))
        })
        .collect();
    Project::new(crates)
}

/// The context of one target: its callers, its callees, the tests that reach it and how far a
/// change to it can spread.
fn function_context(
    t: &Target,
    tree: &HeadTree,
    project: &Project,
    analyses: &HashMap<String, Analysis>,
    index: &CallIndex<'_>,
    views: &HashMap<String, FileView>,
    base: &HashMap<String, Analysis>,
) -> FunctionContext {
    let scheme = Scheme::of(t.language);
    let callers = callers::callers(t, scheme, tree, project, analyses, index, views);
    let callees = callees::callees(t, scheme, project, tree, analyses, views, base);
    FunctionContext {
        name: t.name.clone(),
        file: t.file.clone(),
        change_type: t.change,
        kind: t.kind,
        language: t.language,
        scoping: if scheme.is_some() {
            Scoping::Scoped
        } else {
            Scoping::FullScan
        },
        test_references: callers::test_references(&callers),
        blast_radius: callers::blast_radius(t.change, &callers),
        callers,
        callees,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_paths_follow_conventions() {
        for p in [
            "tests/it.rs",
            "src/tests.rs",
            "pkg/test_x.py",
            "pkg/x_test.py",
            "conftest.py",
            "a/b_test.go",
            "web/a.test.ts",
            "web/a.spec.js",
            "src/test/java/FooTest.java",
            "x/__tests__/y.js",
            "lib/cart_spec.rb",
            "busted/x_spec.lua",
            "Slim/RouteTest.php",
            "integration/add.bats",
            "lib/ParserTests.cs",
            "clikt/src/commonTest/kotlin/OptionTest.kt",
            "Sources/X/ParserTests.swift",
            "shared/src/x/ImmutableParserSpec.scala",
        ] {
            assert!(is_test_path(p), "{p}");
        }
        for p in [
            "src/lib.rs",
            "pkg/testing_utils_not.py",
            "src/contest.rs",
            "latest.py",
            "src/CommandLine/Parser.cs",
            "src/Contest.kt",
        ] {
            assert!(!is_test_path(p), "{p}");
        }
    }
}
