//! Helpers shared by the analyzers' unit tests: the functions, fingerprints, interface and
//! calls extracted from a source, and assertions that two sources read the same or not.

use super::{Function, Language, analyze};

/// The functions extracted from `source`, which must parse cleanly.
pub fn functions(language: Language, source: &str) -> Vec<Function> {
    let analysis = analyze(language, source.as_bytes()).unwrap();
    assert!(!analysis.parse_errors, "{source}");
    analysis.functions
}

/// Each function's name and fingerprints (signature, body).
fn fingerprints(language: Language, source: &str) -> Vec<(String, u64, u64)> {
    functions(language, source)
        .into_iter()
        .map(|f| (f.name, f.signature_hash, f.body_hash))
        .collect()
}

/// Asserts that two versions of a file differ only in formatting: the same functions with
/// the same fingerprints.
#[track_caller]
pub fn same(language: Language, a: &str, b: &str) {
    let (x, y) = (fingerprints(language, a), fingerprints(language, b));
    assert!(!x.is_empty(), "no function in {a}");
    assert_eq!(x, y, "\n{a}\n---\n{b}");
}

/// Asserts that two versions of a file differ in some function's fingerprints.
#[track_caller]
pub fn differ(language: Language, a: &str, b: &str) {
    let (x, y) = (fingerprints(language, a), fingerprints(language, b));
    assert!(!x.is_empty(), "no function in {a}");
    assert_ne!(x, y, "\n{a}\n---\n{b}");
}

/// Each function's `name visibility`, then each declaration's `kind name visibility:
/// signature` (tests marked ` test`), as extracted from `source`.
pub fn interface(language: Language, source: &str) -> Vec<String> {
    let analysis = analyze(language, source.as_bytes()).unwrap();
    assert!(!analysis.parse_errors, "{source}");
    let test = |t: bool| if t { " test" } else { "" };
    let mut out: Vec<String> = analysis
        .functions
        .iter()
        .map(|f| format!("{} {}{}", f.name, f.visibility.label(), test(f.test)))
        .collect();
    out.extend(analysis.declarations.iter().map(|d| {
        format!(
            "{} {} {}{}: {}",
            d.kind,
            d.name,
            d.visibility.label(),
            test(d.test),
            d.signature
        )
    }));
    out
}

/// Asserts that `b` is `a` with comments added (and spacing changed): its first function
/// keeps its signature and body fingerprints, its text differs. Returns `b`'s function.
#[track_caller]
pub fn comments_only(language: Language, a: &[u8], b: &[u8]) -> Function {
    let first = |source: &[u8]| {
        let mut functions = analyze(language, source).unwrap().functions;
        assert!(!functions.is_empty(), "no function in {source:?}");
        functions.swap_remove(0)
    };
    let (a, b) = (first(a), first(b));
    assert_eq!(a.body_hash, b.body_hash);
    assert_eq!(a.signature_hash, b.signature_hash);
    assert_ne!(a.text_hash, b.text_hash);
    b
}

/// `(name, qualifier)` of each call an analysis found, in order.
pub fn call_sites(analysis: &super::Analysis) -> Vec<(String, String)> {
    analysis
        .calls
        .iter()
        .map(|c| (c.site.name.clone(), c.site.qualifier.clone()))
        .collect()
}

/// `(qualified name, kind label)` of each function extracted from `source`.
pub fn names(language: Language, source: &str) -> Vec<(String, &'static str)> {
    functions(language, source)
        .into_iter()
        .map(|f| (f.name, f.kind.label()))
        .collect()
}
