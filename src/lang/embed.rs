//! Items a grammar reads as plain tokens, read as items: a Rust macro invocation at item
//! position (`cfg_rt! { pub fn f() {} }`, `cfg_if! { if #[cfg(unix)] { .. } else { .. } }`)
//! holds items that tree-sitter leaves as a token tree. Before the walk, each such wrapper's
//! body ([`super::Wrapper::items`]) is parsed again, alone, as the file's language (tree-sitter's
//! included ranges: every position and line stays the file's), and the wrappers found in what
//! it holds are parsed in turn; the walk then reads each body that parsed as items in the
//! wrapper's place ([`Embedded::held`]). A body with a syntax error is not items: the walk
//! leaves it opaque and says so ([`super::Opaque`]).
//!
//! Invariants:
//! - The search visits only [`super::LanguageConfig::item_containers`] (a file, a module, an impl
//!   and their item lists), never a function's body.
//! - Bounded: wrappers nested deeper than [`MAX_DEPTH`], and bodies past [`MAX_BYTES`] in all
//!   and past [`MAX_WRAPPERS`] in number, are opaque; the sub-parses share one parse's time
//!   budget ([`super::PARSE_BUDGET`]), and a file whose sub-parses run out of it, or of the
//!   answer's time, is not analysed ([`Embedded::ran_out`]): a partial reading would be cached
//!   as the file's. A hostile file costs at most [`MAX_DEPTH`] parses of itself and one parse's
//!   time more.

use std::collections::HashMap;
use std::time::Instant;

use tree_sitter::{Node, Range, Tree};

use super::{LanguageConfig, MAX_FILE_BYTES, PARSE_BUDGET};

/// Wrappers nested deeper than this are opaque (real code nests two or three: tokio's
/// `cfg_rt! { cfg_net! { .. } }`).
pub const MAX_DEPTH: usize = 8;
/// The most bytes of wrapper bodies parsed again for one file.
pub const MAX_BYTES: usize = MAX_FILE_BYTES;
/// The most wrappers parsed again for one file.
pub const MAX_WRAPPERS: usize = 4096;

/// What a wrapper holds, as the walk reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held<'t> {
    /// Items: the root of its body parsed as items.
    Items(Node<'t>),
    /// Nothing: an empty body.
    Empty,
    /// Not items (or not read): opaque.
    Opaque,
}

/// The bodies of a file's wrappers, parsed as items.
#[derive(Default)]
pub struct Embedded {
    /// The parsed bodies.
    trees: Vec<Tree>,
    /// By the wrapper node's first byte: its body's index in `trees`, or `None` for an empty
    /// body. (A wrapper's first byte is its own: nested wrappers start inside their parent's
    /// body.)
    held: HashMap<usize, Option<usize>>,
    /// Whether the sub-parses ran out of time with bodies left to read.
    ran_out: bool,
}

impl Embedded {
    /// Whether the sub-parses ran out of time (their budget, or the answer's) with bodies left
    /// to read: the file's reading is partial.
    pub fn ran_out(&self) -> bool {
        self.ran_out
    }

    /// What the wrapper `node` holds.
    pub fn held(&self, node: Node<'_>) -> Held<'_> {
        match self.held.get(&node.start_byte()) {
            Some(Some(i)) => self
                .trees
                .get(*i)
                .map_or(Held::Opaque, |t| Held::Items(t.root_node())),
            Some(None) => Held::Empty,
            None => Held::Opaque,
        }
    }
}

/// Finds the wrappers of `tree` and of the items they hold, and parses their bodies with
/// `parse` (the ranges of one body, read as one source): `Some(Some(tree))`, `Some(None)` when
/// the parse ran out of time, `None` when it could not be parsed.
pub fn expand(
    config: &LanguageConfig,
    tree: &Tree,
    source: &[u8],
    parse: &mut dyn FnMut(&[Range]) -> Option<Option<Tree>>,
) -> Embedded {
    let mut out = Embedded::default();
    if config.wrapper_kinds.is_empty() {
        return out;
    }
    let language = tree.language();
    let ids = |kinds: &[&str]| -> Vec<u16> {
        kinds
            .iter()
            .map(|k| language.id_for_node_kind(k, true))
            .filter(|id| *id != 0)
            .collect()
    };
    let (wrappers, containers) = (ids(config.wrapper_kinds), ids(config.item_containers));
    let started = Instant::now();
    let (mut bytes, mut parsed) = (0usize, 0usize);
    // The trees to search, breadth first: the file (`None`), then each body parsed, with its
    // depth. Each search collects owned ranges before anything is parsed, so no node borrows
    // the list of trees while it grows.
    let mut queue: Vec<(Option<usize>, usize)> = vec![(None, 0)];
    let mut next = 0;
    while let Some(&(index, depth)) = queue.get(next) {
        next += 1;
        let root = match index {
            None => tree.root_node(),
            Some(i) => match out.trees.get(i) {
                Some(t) => t.root_node(),
                None => continue,
            },
        };
        let found = find(config, root, source, &wrappers, &containers);
        for (start, ranges) in found {
            if ranges.is_empty() {
                out.held.insert(start, None);
                continue;
            }
            let len: usize = ranges.iter().map(|r| r.end_byte - r.start_byte).sum();
            // Past a bound the wrapper stays opaque: not entered in `held`.
            if depth >= MAX_DEPTH || bytes + len > MAX_BYTES || parsed >= MAX_WRAPPERS {
                continue;
            }
            if started.elapsed() > PARSE_BUDGET {
                out.ran_out = true;
                return out;
            }
            bytes += len;
            parsed += 1;
            let body = match parse(&ranges) {
                Some(Some(body)) => body,
                Some(None) => {
                    out.ran_out = true;
                    return out;
                }
                None => continue,
            };
            if body.root_node().has_error() {
                continue;
            }
            out.held.insert(start, Some(out.trees.len()));
            queue.push((Some(out.trees.len()), depth + 1));
            out.trees.push(body);
        }
    }
    out
}

/// The wrappers among the item containers from `root` down: each wrapper node's first byte
/// and the ranges of its items.
fn find(
    config: &LanguageConfig,
    root: Node<'_>,
    source: &[u8],
    wrappers: &[u16],
    containers: &[u16],
) -> Vec<(usize, Vec<Range>)> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        let kind = node.kind_id();
        if wrappers.contains(&kind) {
            if let Some(w) = config.analyzer.wrapper(node, source) {
                out.push((node.start_byte(), w.items));
                continue;
            }
        }
        if node.id() == root.id() || containers.contains(&kind) {
            let mut cursor = node.walk();
            // Reversed onto the stack: found in source order.
            let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::{Language, for_language};

    fn tree(source: &[u8]) -> Tree {
        let analyzer = for_language(Language::Rust).unwrap();
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&analyzer.grammar(Language::Rust).unwrap())
            .unwrap();
        parser.parse(source, None).unwrap()
    }

    #[test]
    fn a_body_that_cannot_be_read_in_time_makes_the_reading_partial() {
        let analyzer = for_language(Language::Rust).unwrap();
        let source = b"m! { fn f() {} }\nn! { fn g() {} }\n";
        let tree = tree(source);
        let root = tree.root_node();
        let (m, n) = (root.child(0).unwrap(), root.child(1).unwrap());
        // Out of time: the reading stops and says so (the file is then not analysed).
        let mut calls = 0;
        let late = expand(analyzer, &tree, source, &mut |_| {
            calls += 1;
            Some(None)
        });
        assert!(late.ran_out());
        assert_eq!(calls, 1);
        // Not parsed (no parser, no stack): that wrapper is opaque, the others are read.
        let mut first = true;
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&analyzer.grammar(Language::Rust).unwrap())
            .unwrap();
        let partial = expand(analyzer, &tree, source, &mut |ranges| {
            if std::mem::take(&mut first) {
                return None;
            }
            parser.set_included_ranges(ranges).unwrap();
            Some(parser.parse(source, None))
        });
        assert!(!partial.ran_out());
        assert_eq!(partial.held(m), Held::Opaque);
        assert!(matches!(partial.held(n), Held::Items(_)));
    }
}
