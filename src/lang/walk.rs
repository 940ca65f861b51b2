//! The shared, iterative tree walk: functions with qualified names and token fingerprints,
//! and imports.

use tree_sitter::{Node, Tree, TreeCursor};

use super::{Analysis, Analyzer, Function, Role, fnv};

/// The most body tokens kept per function for similarity (the hash covers them all).
const TOKEN_CAP: usize = 4096;

/// A scope on the walk's stack.
struct Scope {
    /// The node that opened it (popped when the walk leaves that node).
    node_id: usize,
    name: String,
    methods: bool,
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
    'walk: loop {
        let node = cursor.node();
        let mut descend = true;
        match analyzer.role(node, source) {
            Role::Function { name, body, outer } => {
                let leaf = text(name, source).to_owned();
                let kind = if scopes.last().is_some_and(|s| s.methods) {
                    "method"
                } else {
                    "function"
                };
                let mut qualified = String::new();
                for s in &scopes {
                    qualified.push_str(&s.name);
                    qualified.push_str(analyzer.separator());
                }
                qualified.push_str(&leaf);
                out.functions.push(fingerprint(
                    analyzer,
                    source,
                    node,
                    body,
                    outer,
                    qualified,
                    leaf.clone(),
                    kind,
                ));
                scopes.push(Scope {
                    node_id: node.id(),
                    name: leaf,
                    methods: false,
                });
            }
            Role::Scope { name, methods } => scopes.push(Scope {
                node_id: node.id(),
                name,
                methods,
            }),
            Role::Other => {
                let imports = analyzer.imports(node, source);
                if !imports.is_empty() {
                    out.imports.extend(imports);
                    descend = false;
                }
            }
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if scopes
                .last()
                .is_some_and(|s| s.node_id == cursor.node().id())
            {
                scopes.pop();
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    out.imports.sort();
    out.imports.dedup();
    out
}

/// Returns a node's text (lossy for invalid UTF-8).
pub fn text<'s>(node: Node<'_>, source: &'s [u8]) -> &'s str {
    std::str::from_utf8(&source[node.byte_range()]).unwrap_or("")
}

/// Visits the leaves of `node`'s subtree in order, skipping subtrees for which `skip` is true;
/// `skip` sees every node, leaves are passed to `leaf`.
fn leaves<'t>(
    node: Node<'t>,
    skip: &mut dyn FnMut(Node<'t>) -> bool,
    leaf: &mut dyn FnMut(Node<'t>),
) {
    let mut cursor: TreeCursor<'t> = node.walk();
    let start = node.id();
    loop {
        let current = cursor.node();
        let skipped = current.id() != start && skip(current);
        if !skipped {
            if current.child_count() == 0 {
                leaf(current);
            } else if cursor.goto_first_child() {
                continue;
            }
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

#[allow(
    clippy::too_many_arguments,
    reason = "one call site, all parts of one definition"
)]
fn fingerprint<'t>(
    analyzer: &dyn Analyzer,
    source: &[u8],
    node: Node<'t>,
    body: Option<Node<'t>>,
    outer: Node<'t>,
    name: String,
    leaf: String,
    kind: &'static str,
) -> Function {
    let is_noise = |n: Node<'_>| analyzer.is_comment(n) || analyzer.is_docstring(n, source);
    // Nested functions belong to themselves: their tokens and text are cut out of the body.
    let mut nested: Vec<std::ops::Range<usize>> = Vec::new();
    let mut body_hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut tokens: Vec<u32> = Vec::new();
    if let Some(body) = body {
        let mut skip = |n: Node<'t>| {
            if matches!(analyzer.role(n, source), Role::Function { .. }) {
                nested.push(n.byte_range());
                return true;
            }
            is_noise(n)
        };
        let mut leaf_fn = |n: Node<'t>| {
            let t = &source[n.byte_range()];
            let h = fnv(t);
            body_hash = (body_hash ^ h).wrapping_mul(0x0100_0000_01b3);
            if tokens.len() < TOKEN_CAP {
                tokens.push(h as u32);
            }
        };
        leaves(body, &mut skip, &mut leaf_fn);
    }
    tokens.sort_unstable();
    // The signature: from the definition's start (attributes, decorators) to its body.
    let sig_end = body.map_or(node.end_byte(), |b| b.start_byte());
    let sig_start = outer.start_byte();
    let mut signature_hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut sig_tokens = |n: Node<'t>| {
        if n.start_byte() >= sig_start && n.end_byte() <= sig_end {
            signature_hash =
                (signature_hash ^ fnv(&source[n.byte_range()])).wrapping_mul(0x0100_0000_01b3);
        }
    };
    let mut skip_sig =
        |n: Node<'t>| body.is_some_and(|b| b.id() == n.id()) || analyzer.is_comment(n);
    let mut chain = Some(outer);
    while let Some(n) = chain {
        leaves(n, &mut skip_sig, &mut sig_tokens);
        if n.id() == node.id() || n.end_byte() >= node.end_byte() {
            break;
        }
        chain = n.next_sibling();
    }
    let signature = String::from_utf8_lossy(&source[sig_start..sig_end])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let signature: String = signature.chars().take(240).collect();
    // The raw text without nested functions: a change here that is not a token change is
    // formatting.
    let mut text_hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut at = sig_start;
    nested.sort_by_key(|r| r.start);
    for r in nested
        .iter()
        .chain(std::iter::once(&(node.end_byte()..node.end_byte())))
    {
        if r.start >= at {
            text_hash = (text_hash ^ fnv(&source[at..r.start])).wrapping_mul(0x0100_0000_01b3);
            at = r.end;
        }
    }
    Function {
        name,
        leaf,
        kind,
        start_line: outer.start_position().row as u32 + 1,
        end_line: node.end_position().row as u32 + 1,
        signature: signature.trim_end_matches(['{', ':', ' ']).to_owned(),
        signature_hash,
        body_hash,
        text_hash,
        tokens,
    }
}
