//! A function on the walk: opened where its definition starts (its qualified name, kind,
//! visibility and test mark decided there, its place in the output reserved), its tokens
//! counted toward its body or its signature as they come, a comma held until the token after
//! it says whether it trails, and closed with its fingerprints and its raw text (nested
//! functions cut out).

use std::collections::HashMap;
use std::ops::Range;

use tree_sitter::Node;

use super::signature::{hash_leaves, qualify, signature_text};
use super::{CLOSING, COMMA, Inherited, NAME_SHAPE, OPENING, Open, SEED, Scope, TOKEN_CAP, mix};
use crate::lang::nodes::text;
use crate::lang::{Analysis, Analyzer, Function, FunctionKind, LanguageConfig, Visibility, fnv};

/// Decides a waiting comma now that the next token is known: a trailing comma does not count,
/// unless the language says it means something.
pub(super) fn settle(
    open: &mut Open<'_>,
    (at, hash): (&Range<usize>, u64),
    analyzer: &dyn Analyzer,
    source: &[u8],
) {
    let Some(comma) = open.comma.take() else {
        return;
    };
    let trailing = CLOSING.contains(&hash) || comma.list.is_some_and(|l| at.start >= l.end_byte());
    let dropped = trailing
        && !comma.after_opening
        && !comma.list.is_some_and(|l| analyzer.comma_counts(l, source));
    if !dropped {
        count(open, &comma.at, COMMA, false);
    }
}

/// Whether a token lies within `region`. An implied token (empty, at the end of the node that
/// implies it) lies where a written one would: after that node, so at the very end of a region
/// it is outside, as a written `;` after an arrow function's expression body is.
fn within(region: &Range<usize>, at: &Range<usize>) -> bool {
    if at.is_empty() {
        region.start <= at.start && at.start < region.end
    } else {
        region.start <= at.start && at.end <= region.end
    }
}

/// Adds a token to the body or the signature fingerprint, by where it lies; a name counts
/// toward the body's shape as the order of its first use.
pub(super) fn count(open: &mut Open<'_>, at: &Range<usize>, hash: u64, name: bool) {
    open.after_opening = hash == COMMA || OPENING.contains(&hash);
    if open.body.as_ref().is_some_and(|b| within(b, at)) {
        open.body_hash = mix(open.body_hash, hash);
        let shape = if name {
            let next = open.names.len() as u32;
            u64::from(*open.names.entry(hash).or_insert(next)) | NAME_SHAPE
        } else {
            hash
        };
        open.shape_hash = mix(open.shape_hash, shape);
        if open.tokens.len() < TOKEN_CAP {
            open.tokens.push(hash as u32);
        }
    } else if within(&open.signature, at) && !within(&open.name, at) {
        open.signature_hash = mix(open.signature_hash, hash);
    }
}

/// Opens a function's scope and reserves its place in the output. `definition` is its node,
/// name, body and outer node as [`crate::lang::Role::Function`] gives them; `inherited`, the
/// attributes of the wrapper it is directly inside.
pub(super) fn open_function<'t>(
    config: &LanguageConfig,
    source: &[u8],
    definition: (Node<'t>, Node<'t>, Option<Node<'t>>, Node<'t>),
    receiver: Option<&str>,
    inherited: Option<&Inherited>,
    scopes: &[Scope<'t>],
    out: &mut Analysis,
) -> Scope<'t> {
    let (node, name, body, outer) = definition;
    let analyzer = config.analyzer;
    let leaf = text(name, source).to_owned();
    let kind = analyzer.kind(
        node,
        if receiver.is_some() || scopes.last().is_some_and(|s| s.methods) {
            FunctionKind::Method
        } else {
            FunctionKind::Function
        },
    );
    let separator = config.separator;
    let lead = analyzer.name_separator(node).unwrap_or(separator);
    let parts = scopes.iter().map(|s| (s.lead, s.name.as_str()));
    let qualified = qualify(parts.chain(receiver.map(|r| (separator, r))), lead, &leaf);
    let test =
        scopes.last().is_some_and(|s| s.test) || analyzer.is_test(outer, node, &leaf, source);
    let visibility = visibility(analyzer, (outer, node, &qualified), scopes, source);
    let sig_end = body.map_or(node.end_byte(), |b| b.start_byte());
    let (signature_hash, signature) = head(config, (outer, node, sig_end), inherited, source);
    let index = out.functions.len();
    out.functions.push(Function {
        name: qualified,
        leaf: leaf.clone(),
        kind,
        test,
        start_line: outer.start_position().row as u32 + 1,
        end_line: node.end_position().row as u32 + 1,
        signature,
        signature_hash: 0,
        body_hash: 0,
        shape_hash: 0,
        text_hash: 0,
        tokens: Vec::new(),
        visibility,
    });
    // Functions nested in a method with a receiver are named under both (Lua's `M:f.g`).
    let (scope_name, lead) = match receiver {
        Some(r) => (format!("{r}{lead}{leaf}"), separator),
        None => (leaf, lead),
    };
    Scope {
        node_id: node.id(),
        name: scope_name,
        lead,
        methods: false,
        test,
        cap: Visibility::Private,
        members: None,
        open: Some(Open {
            index,
            outer_start: outer.start_byte(),
            body: body.map(|b| b.byte_range()),
            signature: node.start_byte()..sig_end,
            name: name.byte_range(),
            end: node.end_byte(),
            body_hash: SEED,
            shape_hash: SEED,
            names: HashMap::new(),
            signature_hash,
            tokens: Vec::new(),
            nested: Vec::new(),
            comma: None,
            after_opening: false,
        }),
    }
}

/// How visible a function is (`outer`, `node` and its qualified `name`): private inside
/// another function, else what its scope says of its members or it says of itself, capped by
/// its scope.
fn visibility(
    analyzer: &dyn Analyzer,
    (outer, node, name): (Node<'_>, Node<'_>, &str),
    scopes: &[Scope<'_>],
    source: &[u8],
) -> Visibility {
    if scopes.iter().any(|s| s.open.is_some()) {
        return Visibility::Private;
    }
    let cap = scopes.last().map_or(Visibility::Public, |s| s.cap);
    let own = scopes
        .last()
        .and_then(|s| s.members)
        .unwrap_or_else(|| analyzer.visibility(outer, node, name, source));
    own.min(cap)
}

/// A function's head before the walk reaches its node: the signature fingerprint of what
/// comes before the node (the wrapper's attributes it inherits, then attributes written as
/// the node's siblings, as Rust's `#[...]` items are: everything from the node's start to its
/// body comes through the walk), and the signature's text from `outer` to `end`.
fn head(
    config: &LanguageConfig,
    (outer, node, end): (Node<'_>, Node<'_>, usize),
    inherited: Option<&Inherited>,
    source: &[u8],
) -> (u64, String) {
    let mut hash = inherited.map_or(SEED, |i| i.hash);
    let mut sibling =
        Some(outer).filter(|o| o.id() != node.id() && o.end_byte() <= node.start_byte());
    while let Some(n) = sibling {
        if n.id() == node.id() {
            break;
        }
        if !config.is_comment(n) {
            hash_leaves(config, n, source, &mut hash);
        }
        sibling = n.next_sibling();
    }
    let mut signature = signature_text(config, outer, node, end, source);
    if let Some(i) = inherited.filter(|i| !i.text.is_empty()) {
        signature = format!("{} {signature}", i.text);
    }
    (hash, signature)
}

/// Finishes a scope: a function's fingerprints are written to its reserved slot, and its
/// range is cut out of its parent function's raw text.
pub(super) fn close(scope: Scope<'_>, source: &[u8], scopes: &mut [Scope<'_>], out: &mut Analysis) {
    let Some(mut open) = scope.open else { return };
    if let Some(comma) = open.comma.take() {
        count(&mut open, &comma.at, COMMA, false);
    }
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
    f.shape_hash = open.shape_hash;
    f.text_hash = text_hash;
    f.tokens = open.tokens;
}
