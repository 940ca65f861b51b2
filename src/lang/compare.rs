//! Comparing two extractions: what happened to each function.
//!
//! - Functions are matched by qualified name, so moving one within a file is not a change.
//!   Duplicate names (the same method name in two `impl` blocks of a generic type) are paired
//!   by identical bodies first, then in order: none overwrites another.
//! - A matched pair is unchanged when its token fingerprints are equal (only its raw text may
//!   differ: reported as `formatting_only`), `signature_changed` when its signature tokens
//!   differ, `modified` when its body tokens differ.
//! - Unmatched functions are paired into `renamed` within a file, and into `moved` across files
//!   (same name with at least [`MOVE_SIMILARITY`] of its tokens, or the same non-trivial body) by
//!   [`finish`]; what remains is `added` or `deleted`. One rename rule for every language
//!   (issue 36): a function of the same kind under a new name is `renamed` when
//!   - its body did not change: of at least [`MIN_TOKENS`] tokens, or of any size when the
//!     pair is unmistakable (the one function that left the file and the one that arrived, or
//!     a member that kept its own name under a renamed scope) with the same signature apart
//!     from the name;
//!   - its body changed only in names (each identifier replaced consistently, as when a field
//!     is renamed with its property): when the pair is unmistakable or the body is large
//!     (`edited`);
//!   - its body changed beyond names but is large and similar: both sides at least
//!     [`LARGE_BODY`] tokens that are not brackets, commas or statement ends (so a language's
//!     braces and semicolons do not make one-line bodies large in one language and small in
//!     another), and at least [`RENAME_SIMILARITY`] of its tokens shared (`edited`).
//!
//!   Otherwise the old function is `deleted` and the new one `added`: a small body that
//!   changed beyond names leaves too little to say it is the same function.
//! - Bounded: pairing by name is linear (an index of names); renames score at most
//!   [`MAX_PAIRS`] pairs per file and moves at most [`MAX_PAIRS`] pairs per change, only among
//!   same-named or same-bodied functions. Past that, what is left is `added` or `deleted` (a
//!   file of 20,000 same-named functions moved elsewhere used 10 GB and aborted).

use std::collections::HashMap;

use super::{Analysis, Declared, Function, FunctionKind, Opaque, Visibility};

/// How similar two bodies must be (token multisets, Dice coefficient) to count as one function
/// renamed.
pub const RENAME_SIMILARITY: f64 = 0.8;
/// How similar a function that changed files must be to count as moved under the same name.
pub const MOVE_SIMILARITY: f64 = 0.5;
/// Bodies with fewer tokens are too small to identify a function by content alone.
pub const MIN_TOKENS: usize = 4;
/// A body that changed under a new name is still the same function (`renamed`, `edited`) only
/// when both sides have at least this many tokens that are not brackets, commas or statement
/// ends ([`meaningful`]): `return x * 3` (4) is not, `let y = x * 3; y + 1` (9) is.
pub const LARGE_BODY: usize = 8;

/// How a body that changed only in names scores as a rename: below an unchanged body, above
/// any similarity of changed tokens.
const SAME_SHAPE: f64 = 0.999;

/// The tokens that only delimit: brackets, commas and statement ends (written or implied, and
/// Python's end of block), as the truncated hashes a function keeps.
const DELIMITERS: [u32; 9] = [
    super::fnv(b"{") as u32,
    super::fnv(b"}") as u32,
    super::fnv(b"(") as u32,
    super::fnv(b")") as u32,
    super::fnv(b"[") as u32,
    super::fnv(b"]") as u32,
    super::fnv(b",") as u32,
    super::fnv(b";") as u32,
    super::fnv(super::DEDENT.as_bytes()) as u32,
];

/// How many of a body's tokens say something: all but brackets, commas and statement ends.
pub fn meaningful(tokens: &[u32]) -> usize {
    tokens.iter().filter(|t| !DELIMITERS.contains(t)).count()
}
/// The most pairs of functions scored as a rename within a file, or as a move across files.
pub const MAX_PAIRS: usize = 200_000;

/// Indices of functions by a key, taken in order, each once ([`Index::take`]).
struct Index<K> {
    lists: std::collections::HashMap<K, (Vec<usize>, usize)>,
}

impl<K: std::hash::Hash + Eq> Index<K> {
    fn new(keys: impl Iterator<Item = (usize, K)>) -> Index<K> {
        let mut lists: std::collections::HashMap<K, (Vec<usize>, usize)> =
            std::collections::HashMap::new();
        for (i, k) in keys {
            lists.entry(k).or_default().0.push(i);
        }
        Index { lists }
    }

    /// The first index under `key` not yet `used` (and marks it used); amortised constant.
    fn take(&mut self, key: &K, used: &mut [bool]) -> Option<usize> {
        let (list, cursor) = self.lists.get_mut(key)?;
        while let Some(&i) = list.get(*cursor) {
            *cursor += 1;
            if !used[i] {
                used[i] = true;
                return Some(i);
            }
        }
        None
    }
}

/// What happened to a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChangeType {
    /// New.
    Added,
    /// Removed.
    Deleted,
    /// Body changed.
    Modified,
    /// Parameters, return type, visibility, `async`, attributes or decorators changed.
    SignatureChanged,
    /// Same (or a similar) body under a new name.
    Renamed,
    /// Left one file and appeared in another.
    Moved,
}

impl ChangeType {
    /// Returns the label used in the manifest.
    pub fn label(self) -> &'static str {
        match self {
            ChangeType::Added => "added",
            ChangeType::Deleted => "deleted",
            ChangeType::Modified => "modified",
            ChangeType::SignatureChanged => "signature_changed",
            ChangeType::Renamed => "renamed",
            ChangeType::Moved => "moved",
        }
    }
}

/// One function's change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionChange {
    /// Qualified name (after the change; before it for deletions).
    pub name: String,
    /// The name before a rename or move, when it differs.
    pub old_name: Option<String>,
    /// A function or a method.
    pub kind: FunctionKind,
    /// What happened.
    pub change_type: ChangeType,
    /// First line (of the new version; of the old one for deletions).
    pub start_line: u32,
    /// Last line.
    pub end_line: u32,
    /// The signature.
    pub signature: String,
    /// The file a moved function came from.
    pub old_path: Option<String>,
    /// Whether a renamed, moved or signature-changed function's body changed too.
    pub edited: bool,
    /// How far it is visible: for a change that kept it, the more visible of its two sides
    /// (a public function made private is a change of the interface).
    pub visibility: Visibility,
    /// Whether it is a test (by its own markers, or inside a test scope).
    pub test: bool,
}

/// One declaration's change (a type, trait, constant...: [`super::Declared`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclarationChange {
    /// Qualified name.
    pub name: String,
    /// What it declares (`struct`, `class`, `const`, ...).
    pub kind: String,
    /// Added, deleted, or `SignatureChanged` (its head changed).
    pub change_type: ChangeType,
    /// Its head (the new one; the old one for deletions).
    pub signature: String,
    /// How far it is visible (the more visible side for a changed head).
    pub visibility: Visibility,
    /// Whether it is inside a test scope.
    pub test: bool,
    /// First line (of the new version; of the old one for deletions).
    pub start_line: u32,
}

/// Function-level changes of one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileFunctions {
    /// Changes, in source order.
    pub changed: Vec<FunctionChange>,
    /// Declarations added, deleted or with a changed head, in source order.
    pub declarations: Vec<DeclarationChange>,
    /// Functions whose only changes are whitespace, comments or docstrings.
    pub formatting_only: Vec<String>,
    /// Opaque wrappers ([`super::Opaque`], `macro x!`) added, deleted or changed, each once:
    /// what changed inside them is not analysed.
    pub opaque: Vec<String>,
    /// Imports added.
    pub imports_added: Vec<String>,
    /// Imports removed.
    pub imports_removed: Vec<String>,
    /// Whether either side had syntax errors (what could be extracted is reported).
    pub parse_errors: bool,
    /// Why the file was not analysed, if it was not.
    pub skipped: Option<String>,
}

/// One file's comparison before cross-file moves are resolved.
#[derive(Clone, Debug, Default)]
pub struct Pending {
    functions: FileFunctions,
    added: Vec<Function>,
    deleted: Vec<Function>,
}

/// Returns the Dice similarity of two sorted token multisets.
pub fn similarity(a: &[u32], b: &[u32]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    2.0 * common as f64 / (a.len() + b.len()) as f64
}

fn change(f: &Function, change_type: ChangeType) -> FunctionChange {
    FunctionChange {
        name: f.name.clone(),
        old_name: None,
        kind: f.kind,
        change_type,
        start_line: f.start_line,
        end_line: f.end_line,
        signature: f.signature.clone(),
        old_path: None,
        edited: false,
        visibility: f.visibility,
        test: f.test,
    }
}

/// Pairs two sides' declarations by kind and name (duplicates in order): what is new, gone, or
/// declared with another head.
fn compare_declarations(old: &[Declared], new: &[Declared]) -> Vec<DeclarationChange> {
    let change =
        |d: &Declared, change_type: ChangeType, visibility: Visibility| DeclarationChange {
            name: d.name.clone(),
            kind: d.kind.clone(),
            change_type,
            signature: d.signature.clone(),
            visibility,
            test: d.test,
            start_line: d.start_line,
        };
    let mut old_used = vec![false; old.len()];
    let mut by_name = Index::new(
        old.iter()
            .enumerate()
            .map(|(i, d)| (i, (d.kind.as_str(), d.name.as_str()))),
    );
    let mut out = Vec::new();
    for n in new {
        match by_name.take(&(n.kind.as_str(), n.name.as_str()), &mut old_used) {
            Some(i) if old[i].signature != n.signature => out.push(change(
                n,
                ChangeType::SignatureChanged,
                old[i].visibility.max(n.visibility),
            )),
            Some(_) => {}
            None => out.push(change(n, ChangeType::Added, n.visibility)),
        }
    }
    for (d, used) in old.iter().zip(&old_used) {
        if !used {
            out.push(change(d, ChangeType::Deleted, d.visibility));
        }
    }
    out
}

/// The opaque wrappers that are not on both sides with the same tokens (pairs by name and
/// fingerprint, so one moved is no change), new side first, each name once.
fn compare_opaque(old: &[Opaque], new: &[Opaque]) -> Vec<String> {
    let mut old_used = vec![false; old.len()];
    let mut same = Index::new(
        old.iter()
            .enumerate()
            .map(|(i, o)| (i, (o.name.as_str(), o.hash))),
    );
    let mut out: Vec<String> = Vec::new();
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut unmatched: Vec<&str> = Vec::new();
    for n in new {
        if same
            .take(&(n.name.as_str(), n.hash), &mut old_used)
            .is_none()
        {
            unmatched.push(&n.name);
        }
    }
    unmatched.extend(
        old.iter()
            .zip(&old_used)
            .filter(|(_, used)| !**used)
            .map(|(o, _)| o.name.as_str()),
    );
    for name in unmatched {
        if seen.insert(name) {
            out.push(name.to_owned());
        }
    }
    out
}

/// Compares one file's two sides (`None`: the side does not exist or was not analysed).
pub fn compare(before: Option<&Analysis>, after: Option<&Analysis>) -> Pending {
    let mut pending = Pending::default();
    let skipped = before
        .and_then(|a| a.skipped.clone())
        .or_else(|| after.and_then(|a| a.skipped.clone()));
    if let Some(reason) = skipped {
        pending.functions.skipped = Some(reason);
        return pending;
    }
    let empty = Analysis::default();
    let (old, new) = (before.unwrap_or(&empty), after.unwrap_or(&empty));
    let out = &mut pending.functions;
    out.parse_errors = old.parse_errors || new.parse_errors;
    out.imports_added = new
        .imports
        .iter()
        .filter(|i| old.imports.binary_search(i).is_err())
        .cloned()
        .collect();
    out.imports_removed = old
        .imports
        .iter()
        .filter(|i| new.imports.binary_search(i).is_err())
        .cloned()
        .collect();

    out.declarations = compare_declarations(&old.declarations, &new.declarations);
    out.opaque = compare_opaque(&old.opaque, &new.opaque);
    let mut old_used = vec![false; old.functions.len()];
    let mut new_used = vec![false; new.functions.len()];
    // Pair equal names: identical bodies first, then in order of appearance.
    let mut by_body = Index::new(
        old.functions
            .iter()
            .enumerate()
            .map(|(i, o)| (i, (o.name.as_str(), o.body_hash))),
    );
    let mut by_name = Index::new(
        old.functions
            .iter()
            .enumerate()
            .map(|(i, o)| (i, o.name.as_str())),
    );
    for identical in [true, false] {
        for (j, n) in new.functions.iter().enumerate() {
            if new_used[j] {
                continue;
            }
            let found = if identical {
                by_body.take(&(n.name.as_str(), n.body_hash), &mut old_used)
            } else {
                by_name.take(&n.name.as_str(), &mut old_used)
            };
            if let Some(i) = found {
                new_used[j] = true;
                let o = &old.functions[i];
                let body = o.body_hash != n.body_hash;
                let signature = o.signature_hash != n.signature_hash;
                if signature {
                    let mut c = change(n, ChangeType::SignatureChanged);
                    c.edited = body;
                    c.visibility = c.visibility.max(o.visibility);
                    out.changed.push(c);
                } else if body {
                    out.changed.push(change(n, ChangeType::Modified));
                } else if o.text_hash != n.text_hash {
                    out.formatting_only.push(n.name.clone());
                }
            }
        }
    }
    let deleted: Vec<&Function> = old
        .functions
        .iter()
        .zip(&old_used)
        .filter(|(_, u)| !**u)
        .map(|(f, _)| f)
        .collect();
    let added: Vec<&Function> = new
        .functions
        .iter()
        .zip(&new_used)
        .filter(|(_, u)| !**u)
        .map(|(f, _)| f)
        .collect();
    // Renames: the best-scoring pairs first.
    let mut candidates: Vec<(f64, usize, usize)> = Vec::new();
    let only = deleted.len() == 1 && added.len() == 1;
    let mut budget = MAX_PAIRS;
    'pairs: for (i, o) in deleted.iter().enumerate() {
        for (j, n) in added.iter().enumerate() {
            if o.kind != n.kind {
                continue;
            }
            if budget == 0 {
                break 'pairs;
            }
            budget -= 1;
            if let Some(score) = rename_score(o, n, only) {
                candidates.push((score, i, j));
            }
        }
    }
    candidates.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut deleted_used = vec![false; deleted.len()];
    let mut added_used = vec![false; added.len()];
    for (_, i, j) in candidates {
        if deleted_used[i] || added_used[j] {
            continue;
        }
        deleted_used[i] = true;
        added_used[j] = true;
        let mut c = change(added[j], ChangeType::Renamed);
        c.visibility = c.visibility.max(deleted[i].visibility);
        c.old_name = Some(deleted[i].name.clone());
        c.edited = deleted[i].body_hash != added[j].body_hash;
        out.changed.push(c);
    }
    pending.deleted = deleted
        .iter()
        .zip(&deleted_used)
        .filter(|(_, u)| !**u)
        .map(|(f, _)| (*f).clone())
        .collect();
    pending.added = added
        .iter()
        .zip(&added_used)
        .filter(|(_, u)| !**u)
        .map(|(f, _)| (*f).clone())
        .collect();
    pending
}

/// How well a deleted and an added function of one file pair as a rename (the module doc's
/// rule); `None` when they do not.
fn rename_score(o: &Function, n: &Function, only: bool) -> Option<f64> {
    // The one candidate, or a member that kept its own name under a renamed scope: nothing
    // else it could be.
    let unmistakable = only || o.leaf == n.leaf;
    if o.body_hash == n.body_hash {
        // The signature fingerprint leaves the name out: equal means equal parameters.
        if unmistakable && o.signature_hash == n.signature_hash {
            return Some(1.0);
        }
        return (o.tokens.len() >= MIN_TOKENS && n.tokens.len() >= MIN_TOKENS).then_some(1.0);
    }
    let large = meaningful(&o.tokens) >= LARGE_BODY && meaningful(&n.tokens) >= LARGE_BODY;
    // Changed only in names (a field renamed with its property): the same function.
    if o.shape_hash == n.shape_hash && (unmistakable || large) {
        return Some(SAME_SHAPE);
    }
    if !large {
        return None;
    }
    let s = similarity(&o.tokens, &n.tokens);
    (s >= RENAME_SIMILARITY).then_some(s)
}

fn move_score(o: &Function, n: &Function) -> Option<f64> {
    let same_name = o.leaf == n.leaf && o.kind == n.kind;
    let big = o.tokens.len() >= MIN_TOKENS && n.tokens.len() >= MIN_TOKENS;
    if same_name {
        if o.body_hash == n.body_hash {
            return Some(2.0);
        }
        let s = similarity(&o.tokens, &n.tokens);
        return (s >= MOVE_SIMILARITY).then_some(1.0 + s);
    }
    (big && o.body_hash == n.body_hash).then_some(1.0)
}

/// Resolves moves across files and returns each file's changes, in the order given.
pub fn finish(files: Vec<(String, Pending)>) -> Vec<FileFunctions> {
    let mut files = files;
    // Only same-named functions, or bodies identical and large enough, can be a move: the
    // deleted functions are indexed by both, so the work follows the candidates, not the
    // number of files.
    let mut by_name: HashMap<(&str, FunctionKind), Vec<(usize, usize)>> = HashMap::new();
    let mut by_body: HashMap<u64, Vec<(usize, usize)>> = HashMap::new();
    for (fd, (_, d)) in files.iter().enumerate() {
        for (id, o) in d.deleted.iter().enumerate() {
            by_name
                .entry((o.leaf.as_str(), o.kind))
                .or_default()
                .push((fd, id));
            if o.tokens.len() >= MIN_TOKENS {
                by_body.entry(o.body_hash).or_default().push((fd, id));
            }
        }
    }
    let mut candidates: Vec<(f64, usize, usize, usize, usize)> = Vec::new();
    let mut budget = MAX_PAIRS;
    'pairs: for (fa, (_, a)) in files.iter().enumerate() {
        for (ia, n) in a.added.iter().enumerate() {
            let named = by_name.get(&(n.leaf.as_str(), n.kind));
            let bodied = (n.tokens.len() >= MIN_TOKENS)
                .then(|| by_body.get(&n.body_hash))
                .flatten();
            let mut seen = std::collections::HashSet::new();
            for &(fd, id) in named
                .into_iter()
                .flatten()
                .chain(bodied.into_iter().flatten())
            {
                if fd == fa || !seen.insert((fd, id)) {
                    continue;
                }
                if budget == 0 {
                    break 'pairs;
                }
                budget -= 1;
                if let Some(score) = move_score(&files[fd].1.deleted[id], n) {
                    candidates.push((score, fa, ia, fd, id));
                }
            }
        }
    }
    candidates.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then((a.1, a.2, a.3, a.4).cmp(&(b.1, b.2, b.3, b.4)))
    });
    let mut taken_added = std::collections::HashSet::new();
    let mut taken_deleted = std::collections::HashSet::new();
    let mut moves: Vec<(usize, FunctionChange)> = Vec::new();
    for (_, fa, ia, fd, id) in candidates {
        if taken_added.contains(&(fa, ia)) || taken_deleted.contains(&(fd, id)) {
            continue;
        }
        taken_added.insert((fa, ia));
        taken_deleted.insert((fd, id));
        let n = &files[fa].1.added[ia];
        let o = &files[fd].1.deleted[id];
        let mut c = change(n, ChangeType::Moved);
        c.visibility = c.visibility.max(o.visibility);
        c.old_path = Some(files[fd].0.clone());
        c.old_name = (o.name != n.name).then(|| o.name.clone());
        c.edited = o.body_hash != n.body_hash;
        moves.push((fa, c));
    }
    for (fa, c) in moves {
        files[fa].1.functions.changed.push(c);
    }
    files
        .into_iter()
        .enumerate()
        .map(|(f, (_, mut p))| {
            for (i, n) in p.added.iter().enumerate() {
                if !taken_added.contains(&(f, i)) {
                    p.functions.changed.push(change(n, ChangeType::Added));
                }
            }
            for (i, o) in p.deleted.iter().enumerate() {
                if !taken_deleted.contains(&(f, i)) {
                    p.functions.changed.push(change(o, ChangeType::Deleted));
                }
            }
            // New-side positions first, in order; deletions (old-side positions) last.
            p.functions.changed.sort_by(|a, b| {
                let key = |c: &FunctionChange| (c.change_type == ChangeType::Deleted, c.start_line);
                key(a).cmp(&key(b)).then_with(|| a.name.cmp(&b.name))
            });
            p.functions
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Language;
    use crate::lang::analyze;

    fn one(label: Language, before: &str, after: &str) -> FileFunctions {
        let (b, a) = (
            analyze(label, before.as_bytes()).unwrap(),
            analyze(label, after.as_bytes()).unwrap(),
        );
        finish(vec![("f".into(), compare(Some(&b), Some(&a)))]).remove(0)
    }

    fn summary(f: &FileFunctions) -> Vec<String> {
        f.changed
            .iter()
            .map(|c| {
                let mut s = format!("{} {}", c.change_type.label(), c.name);
                if let Some(old) = &c.old_name {
                    s.push_str(&format!(" (was {old})"));
                }
                if c.edited {
                    s.push_str(" +edited");
                }
                s
            })
            .collect()
    }

    #[test]
    fn similarity_is_dice() {
        assert_eq!(similarity(&[1, 2, 3, 4], &[1, 2, 3, 4]), 1.0);
        assert_eq!(similarity(&[1, 2], &[3, 4]), 0.0);
        assert!((similarity(&[1, 1, 2, 3], &[1, 2, 3, 5]) - 0.75).abs() < 1e-9);
    }

    #[test]
    fn rust_situations() {
        let base = "fn keep() { let a = 1; let b = 2; a + b; }\nfn edit() { let x = 1; x; }\nfn gone() { let y = 3; y; }\nfn sig(a: u8) { a; }\n";
        let f = one(
            Language::Rust,
            base,
            "fn sig(a: u16) { a; }\nfn keep() {\n    let a = 1; // comment\n    let b = 2;\n    a + b;\n}\nfn edit() { let x = 2; x; }\nfn fresh() {}\n",
        );
        assert_eq!(
            summary(&f),
            [
                "signature_changed sig",
                "modified edit",
                "added fresh",
                "deleted gone"
            ]
        );
        assert_eq!(f.formatting_only, ["keep"]);
    }

    #[test]
    fn renames_with_and_without_edits() {
        let before = "fn alpha() { let total = 1 + 2 + 3 + 4; total * 2; }\nfn beta() { let value = compute(1, 2, 3); value.finish(); }\n";
        let after = "fn alpha2() { let total = 1 + 2 + 3 + 4; total * 2; }\nfn gamma() { let value = compute(1, 2, 3); value.finish(); value.log(); }\n";
        let f = one(Language::Rust, before, after);
        assert_eq!(
            summary(&f),
            [
                "renamed alpha2 (was alpha)",
                "renamed gamma (was beta) +edited"
            ]
        );
    }

    /// Issue 36: one rename rule for every language. A one-line body renamed with an edit was
    /// `renamed` in C# and PHP (whose braces and `;` made it four tokens and more) and
    /// `added` + `deleted` in Kotlin, Swift and Scala.
    #[test]
    fn one_rename_rule_for_every_language() {
        // (language, one line: name, parameter, factor; two statements: the same)
        type Template = fn(&str, &str, u8) -> String;
        let cases: &[(Language, Template, Template)] = &[
            (
                Language::Rust,
                |n, p, k| format!("fn {n}({p}: u8) -> u8 {{ {p} * {k} }}\n"),
                |n, p, k| format!("fn {n}({p}: u8) -> u8 {{ let y = {p} * {k}; y + 1 }}\n"),
            ),
            (
                Language::Python,
                |n, p, k| format!("def {n}({p}):\n    return {p} * {k}\n"),
                |n, p, k| format!("def {n}({p}):\n    y = {p} * {k}\n    return y + 1\n"),
            ),
            (
                Language::TypeScript,
                |n, p, k| format!("function {n}({p}: number): number {{ return {p} * {k}; }}\n"),
                |n, p, k| {
                    format!(
                        "function {n}({p}: number): number {{ const y = {p} * {k}; return y + 1; }}\n"
                    )
                },
            ),
            (
                Language::JavaScript,
                |n, p, k| format!("function {n}({p}) {{ return {p} * {k}; }}\n"),
                |n, p, k| format!("function {n}({p}) {{ const y = {p} * {k}; return y + 1; }}\n"),
            ),
            (
                Language::Go,
                |n, p, k| format!("package a\n\nfunc {n}({p} int) int {{ return {p} * {k} }}\n"),
                |n, p, k| {
                    format!(
                        "package a\n\nfunc {n}({p} int) int {{\n\ty := {p} * {k}\n\treturn y + 1\n}}\n"
                    )
                },
            ),
            (
                Language::Java,
                |n, p, k| format!("class A {{ int {n}(int {p}) {{ return {p} * {k}; }} }}\n"),
                |n, p, k| {
                    format!(
                        "class A {{ int {n}(int {p}) {{ int y = {p} * {k}; return y + 1; }} }}\n"
                    )
                },
            ),
            (
                Language::C,
                |n, p, k| format!("int {n}(int {p}) {{ return {p} * {k}; }}\n"),
                |n, p, k| format!("int {n}(int {p}) {{ int y = {p} * {k}; return y + 1; }}\n"),
            ),
            (
                Language::Cpp,
                |n, p, k| format!("int {n}(int {p}) {{ return {p} * {k}; }}\n"),
                |n, p, k| format!("int {n}(int {p}) {{ int y = {p} * {k}; return y + 1; }}\n"),
            ),
            (
                Language::Ruby,
                |n, p, k| format!("class A\n  def {n}({p})\n    {p} * {k}\n  end\nend\n"),
                |n, p, k| {
                    format!("class A\n  def {n}({p})\n    y = {p} * {k}\n    y + 1\n  end\nend\n")
                },
            ),
            (
                Language::Php,
                |n, p, k| {
                    format!("<?php\nclass A {{ function {n}(${p}) {{ return ${p} * {k}; }} }}\n")
                },
                |n, p, k| {
                    format!(
                        "<?php\nclass A {{ function {n}(${p}) {{ $y = ${p} * {k}; return $y + 1; }} }}\n"
                    )
                },
            ),
            (
                Language::Lua,
                |n, p, k| format!("function {n}({p}) return {p} * {k} end\n"),
                |n, p, k| format!("function {n}({p}) local y = {p} * {k} return y + 1 end\n"),
            ),
            (
                Language::Shell,
                |n, p, k| format!("{n}() {{ echo $(( {p} * {k} )); }}\n"),
                |n, p, k| format!("{n}() {{ y=$(( {p} * {k} )); echo $(( y + 1 )); }}\n"),
            ),
            (
                Language::CSharp,
                |n, p, k| format!("class A {{ int {n}(int {p}) {{ return {p} * {k}; }} }}\n"),
                |n, p, k| {
                    format!(
                        "class A {{ int {n}(int {p}) {{ var y = {p} * {k}; return y + 1; }} }}\n"
                    )
                },
            ),
            (
                Language::Kotlin,
                |n, p, k| {
                    format!("class A {{\n    fun {n}({p}: Int): Int {{ return {p} * {k} }}\n}}\n")
                },
                |n, p, k| {
                    format!(
                        "class A {{\n    fun {n}({p}: Int): Int {{\n        val y = {p} * {k}\n        return y + 1\n    }}\n}}\n"
                    )
                },
            ),
            (
                Language::Swift,
                |n, p, k| {
                    format!(
                        "class A {{\n    func {n}({p}: Int) -> Int {{ return {p} * {k} }}\n}}\n"
                    )
                },
                |n, p, k| {
                    format!(
                        "class A {{\n    func {n}({p}: Int) -> Int {{\n        let y = {p} * {k}\n        return y + 1\n    }}\n}}\n"
                    )
                },
            ),
            (
                Language::Scala,
                |n, p, k| format!("class A {{\n  def {n}({p}: Int): Int = {{ {p} * {k} }}\n}}\n"),
                |n, p, k| {
                    format!(
                        "class A {{\n  def {n}({p}: Int): Int = {{\n    val y = {p} * {k}\n    y + 1\n  }}\n}}\n"
                    )
                },
            ),
        ];
        // Each change as `kind leaf` lines, the qualifiers left out.
        let leaves = |language: Language, before: String, after: String| -> Vec<String> {
            summary(&one(language, &before, &after))
                .into_iter()
                .map(|line| {
                    line.split(' ')
                        .map(|word| {
                            word.rsplit(['.', '#', ':'])
                                .next()
                                .unwrap_or(word)
                                .to_owned()
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect()
        };
        for &(language, one_line, two) in cases {
            // A small body edited under a new name: too little left to call it the same.
            assert_eq!(
                leaves(
                    language,
                    one_line("helper", "x", 3),
                    one_line("assist", "x", 5)
                ),
                ["added assist", "deleted helper"],
                "{language}"
            );
            // The same, unedited, or changed only in names: renamed.
            assert_eq!(
                leaves(
                    language,
                    one_line("helper", "x", 3),
                    one_line("assist", "x", 3)
                ),
                ["renamed assist (was helper)"],
                "{language}"
            );
            assert_eq!(
                leaves(
                    language,
                    one_line("helper", "x", 3),
                    one_line("assist", "z", 3)
                ),
                ["renamed assist (was helper) +edited"],
                "{language}"
            );
            // A large and similar body edited under a new name: renamed, edited.
            assert_eq!(
                leaves(language, two("helper", "x", 3), two("assist", "x", 5)),
                ["renamed assist (was helper) +edited"],
                "{language}"
            );
        }
    }

    #[test]
    fn duplicate_names_never_overwrite_each_other() {
        let before = "impl A<u8> { fn new() -> u8 { 1 } }\nimpl A<u16> { fn new() -> u16 { 2 } }\n";
        let after = "impl A<u8> { fn new() -> u8 { 1 } }\nimpl A<u16> { fn new() -> u16 { 3 } }\n";
        let f = one(Language::Rust, before, after);
        assert_eq!(summary(&f), ["modified A::new"]);
        assert_eq!(f.changed[0].start_line, 2);
    }

    #[test]
    fn a_change_in_a_nested_function_is_reported_once() {
        let before =
            "def outer():\n    x = 1\n    def inner():\n        return 1\n    return inner\n";
        let after =
            "def outer():\n    x = 1\n    def inner():\n        return 2\n    return inner\n";
        let f = one(Language::Python, before, after);
        assert_eq!(summary(&f), ["modified outer.inner"]);
        assert!(f.formatting_only.is_empty());
    }

    #[test]
    fn reordering_is_not_a_change() {
        let f = one(
            Language::Python,
            "def a():\n    return 1\n\ndef b():\n    return 2\n",
            "def b():\n    return 2\n\ndef a():\n    return 1\n",
        );
        assert!(f.changed.is_empty() && f.formatting_only.is_empty());
    }

    #[test]
    fn moves_across_files() {
        let a_before = analyze(
            Language::Python,
            b"def helper(x):\n    y = x * 2\n    return y + 1\n\ndef stay():\n    pass\n",
        )
        .unwrap();
        let a_after = analyze(Language::Python, b"def stay():\n    pass\n").unwrap();
        let b_after = analyze(
            Language::Python,
            b"def helper(x):\n    y = x * 3\n    return y + 1\n",
        )
        .unwrap();
        let files = finish(vec![
            ("a.py".into(), compare(Some(&a_before), Some(&a_after))),
            ("b.py".into(), compare(None, Some(&b_after))),
        ]);
        assert!(files[0].changed.is_empty(), "{:?}", files[0]);
        assert_eq!(summary(&files[1]), ["moved helper +edited"]);
        assert_eq!(files[1].changed[0].old_path.as_deref(), Some("a.py"));
    }

    #[test]
    fn imports_changed() {
        let f = one(
            Language::Python,
            "import os\nfrom x import y\n",
            "import os\nfrom x import z\n",
        );
        assert_eq!(f.imports_added, ["x.z"]);
        assert_eq!(f.imports_removed, ["x.y"]);
    }

    #[test]
    fn skipped_files_say_why() {
        let minified = "x".repeat(super::super::MAX_LINE_BYTES + 10);
        let f = one(Language::Python, "def a():\n    pass\n", &minified);
        assert!(f.skipped.unwrap().starts_with("minified"));
        assert!(f.changed.is_empty());
    }
}
