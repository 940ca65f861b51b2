//! The shared tree walk: one iterative pass yields functions with qualified names and token
//! fingerprints, and imports.
//!
//! Every leaf token goes to the innermost open function only: to its body fingerprint when it
//! lies in the body, to its signature fingerprint when it lies before the body. Comment and
//! docstring subtrees are never entered. A nested function's text is cut out of its parent's
//! raw-text hash, so a change inside `outer.inner` shows on `outer.inner` alone.

use std::ops::Range;

use tree_sitter::{Node, Tree};

use super::{
    Analysis, Analyzer, Call, EXTRACT_BUDGET, Function, FunctionKind, MAX_SCOPE_DEPTH, OVER_BUDGET,
    Role, fnv,
};

/// The most body tokens kept per function for similarity (the hash covers them all).
const TOKEN_CAP: usize = 1024;
const SEED: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0100_0000_01b3;

fn mix(hash: u64, token: u64) -> u64 {
    (hash ^ token).wrapping_mul(PRIME)
}

/// A scope on the walk's stack: a container or a function.
struct Scope {
    /// The node that opened it (popped when the walk leaves that node).
    node_id: usize,
    name: String,
    methods: bool,
    /// Whether everything inside is test code.
    test: bool,
    /// Set for functions.
    open: Option<Open>,
}

/// A function whose node the walk is inside.
struct Open {
    /// Its index in the output (reserved when it opened, to keep source order).
    index: usize,
    /// Where the definition starts (attributes and decorators included).
    outer_start: usize,
    body: Option<Range<usize>>,
    signature: Range<usize>,
    end: usize,
    body_hash: u64,
    signature_hash: u64,
    tokens: Vec<u32>,
    nested: Vec<Range<usize>>,
}

/// Returns a node's text (empty for invalid UTF-8).
pub fn text<'s>(node: Node<'_>, source: &'s [u8]) -> &'s str {
    std::str::from_utf8(&source[node.byte_range()]).unwrap_or("")
}

/// Extracts functions and imports from a parsed file.
pub fn extract(analyzer: &dyn Analyzer, tree: &Tree, source: &[u8]) -> Analysis {
    let root = tree.root_node();
    let mut out = Analysis {
        parse_errors: root.has_error(),
        ..Analysis::default()
    };
    let mut scopes: Vec<Scope> = Vec::new();
    let mut cursor = root.walk();
    let started = std::time::Instant::now();
    let mut visited = 0u32;
    'walk: loop {
        visited = visited.wrapping_add(1);
        if visited % 256 == 0 && started.elapsed() > EXTRACT_BUDGET {
            return Analysis::skipped(format!(
                "analysis {OVER_BUDGET} ({} ms)",
                EXTRACT_BUDGET.as_millis()
            ));
        }
        let node = cursor.node();
        let noise = analyzer.is_comment(node) || analyzer.is_docstring(node, source);
        let mut descend = !noise;
        if !noise {
            // Past the depth limit, definitions are plain code of the innermost scope.
            let role = if scopes.len() < MAX_SCOPE_DEPTH {
                analyzer.role(node, source)
            } else {
                Role::Other
            };
            match role {
                Role::Function { name, body, outer } => {
                    let scope = open_function(
                        analyzer, source, node, name, body, outer, None, &scopes, &mut out,
                    );
                    scopes.push(scope);
                }
                Role::Method {
                    name,
                    body,
                    outer,
                    receiver,
                } => {
                    let scope = open_function(
                        analyzer,
                        source,
                        node,
                        name,
                        body,
                        outer,
                        Some(&receiver),
                        &scopes,
                        &mut out,
                    );
                    scopes.push(scope);
                }
                Role::Scope { name, methods } => {
                    let test = scopes.last().is_some_and(|s| s.test)
                        || analyzer.is_test_scope(node, &name, source);
                    scopes.push(Scope {
                        node_id: node.id(),
                        name,
                        methods,
                        test,
                        open: None,
                    });
                }
                Role::Other => {
                    if node.child_count() == 0 {
                        token(&mut scopes, node, source);
                    } else {
                        if let Some(site) = analyzer.call(node, source) {
                            out.calls.push(Call {
                                site,
                                line: node.start_position().row as u32 + 1,
                                caller: scopes
                                    .iter()
                                    .rev()
                                    .find_map(|s| s.open.as_ref().map(|o| o.index as u32)),
                            });
                        }
                        let imports = analyzer.imports(node, source);
                        if !imports.is_empty() {
                            out.imports.extend(imports);
                            // Import statements still count as tokens of an enclosing body.
                            tokens_of(&mut scopes, node, source);
                            descend = false;
                        }
                    }
                }
            }
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            let id = cursor.node().id();
            if scopes.last().is_some_and(|s| s.node_id == id) {
                if let Some(scope) = scopes.pop() {
                    close(scope, source, &mut scopes, &mut out);
                }
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    // Functions left open by a malformed tree still get their fingerprints.
    while let Some(scope) = scopes.pop() {
        close(scope, source, &mut scopes, &mut out);
    }
    out.imports.sort();
    out.imports.dedup();
    out
}

/// Adds a leaf token to the innermost open function.
fn token(scopes: &mut [Scope], leaf: Node<'_>, source: &[u8]) {
    let Some(open) = scopes.iter_mut().rev().find_map(|s| s.open.as_mut()) else {
        return;
    };
    let range = leaf.byte_range();
    let hash = fnv(&source[range.clone()]);
    if open
        .body
        .as_ref()
        .is_some_and(|b| b.start <= range.start && range.end <= b.end)
    {
        open.body_hash = mix(open.body_hash, hash);
        if open.tokens.len() < TOKEN_CAP {
            open.tokens.push(hash as u32);
        }
    } else if open.signature.start <= range.start && range.end <= open.signature.end {
        open.signature_hash = mix(open.signature_hash, hash);
    }
}

/// Folds every non-comment leaf of a subtree into `hash`.
fn hash_leaves(analyzer: &dyn Analyzer, node: Node<'_>, source: &[u8], hash: &mut u64) {
    let mut cursor = node.walk();
    let start = node.id();
    loop {
        let current = cursor.node();
        let comment = analyzer.is_comment(current);
        if current.child_count() == 0 {
            if !comment {
                *hash = mix(*hash, fnv(&source[current.byte_range()]));
            }
        } else if !comment && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node().id() == start {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// Adds every leaf of a subtree (an import statement) to the innermost open function.
fn tokens_of(scopes: &mut [Scope], node: Node<'_>, source: &[u8]) {
    let mut cursor = node.walk();
    let start = node.id();
    loop {
        let current = cursor.node();
        if current.child_count() == 0 {
            token(scopes, current, source);
        } else if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node().id() == start {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

#[allow(clippy::too_many_arguments, reason = "the parts of one definition")]
fn open_function(
    analyzer: &dyn Analyzer,
    source: &[u8],
    node: Node<'_>,
    name: Node<'_>,
    body: Option<Node<'_>>,
    outer: Node<'_>,
    receiver: Option<&str>,
    scopes: &[Scope],
    out: &mut Analysis,
) -> Scope {
    let leaf = text(name, source).to_owned();
    let kind = if receiver.is_some() || scopes.last().is_some_and(|s| s.methods) {
        FunctionKind::Method
    } else {
        FunctionKind::Function
    };
    let separator = analyzer.separator();
    let mut qualified = String::new();
    for part in scopes.iter().map(|s| s.name.as_str()).chain(receiver) {
        qualified.push_str(part);
        qualified.push_str(separator);
    }
    qualified.push_str(&leaf);
    let test =
        scopes.last().is_some_and(|s| s.test) || analyzer.is_test(outer, node, &leaf, source);
    let sig_end = body.map_or(node.end_byte(), |b| b.start_byte());
    let signature = outer.start_byte()..sig_end;
    // Attributes before the function's own node (Rust's `#[...]` items are its siblings): hash
    // them here; everything from the node's start to its body comes through the walk.
    let mut signature_hash = SEED;
    let mut sibling =
        Some(outer).filter(|o| o.id() != node.id() && o.end_byte() <= node.start_byte());
    while let Some(n) = sibling {
        if n.id() == node.id() {
            break;
        }
        if !analyzer.is_comment(n) {
            hash_leaves(analyzer, n, source, &mut signature_hash);
        }
        sibling = n.next_sibling();
    }
    let signature_text = String::from_utf8_lossy(&source[signature.clone()])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let signature_text: String = signature_text.chars().take(240).collect();
    let index = out.functions.len();
    out.functions.push(Function {
        name: qualified,
        leaf: leaf.clone(),
        kind,
        test,
        start_line: outer.start_position().row as u32 + 1,
        end_line: node.end_position().row as u32 + 1,
        signature: signature_text.trim_end_matches(['{', ':', ' ']).to_owned(),
        signature_hash: 0,
        body_hash: 0,
        text_hash: 0,
        tokens: Vec::new(),
    });
    Scope {
        node_id: node.id(),
        name: leaf,
        methods: false,
        test,
        open: Some(Open {
            index,
            outer_start: outer.start_byte(),
            body: body.map(|b| b.byte_range()),
            signature: node.start_byte()..sig_end,
            end: node.end_byte(),
            body_hash: SEED,
            signature_hash,
            tokens: Vec::new(),
            nested: Vec::new(),
        }),
    }
}

/// Finishes a scope: a function's fingerprints are written to its reserved slot, and its
/// range is cut out of its parent function's raw text.
fn close(scope: Scope, source: &[u8], scopes: &mut [Scope], out: &mut Analysis) {
    let Some(mut open) = scope.open else { return };
    let mut text_hash = SEED;
    let begin = open.outer_start;
    let mut at = begin;
    open.nested.sort_by_key(|r| r.start);
    for r in open
        .nested
        .iter()
        .chain(std::iter::once(&(open.end..open.end)))
    {
        if r.start >= at && r.start <= open.end {
            text_hash = mix(text_hash, fnv(&source[at..r.start]));
            at = r.end.min(open.end);
        }
    }
    if let Some(parent) = scopes.iter_mut().rev().find_map(|s| s.open.as_mut()) {
        parent.nested.push(begin..open.end);
    }
    open.tokens.sort_unstable();
    let f = &mut out.functions[open.index];
    f.signature_hash = open.signature_hash;
    f.body_hash = open.body_hash;
    f.text_hash = text_hash;
    f.tokens = open.tokens;
}
