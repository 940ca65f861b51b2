//! What a definition's head reads as: its signature on one line (tokens from its start to its
//! body, comments left out, trailing commas dropped), the fingerprint of attributes written
//! before its node, its name qualified by the scopes around it, and a declaration as the
//! analysis records it.

use tree_sitter::Node;

use super::{Inherited, SIGNATURE_CHARS, Scope, mix};
use crate::lang::nodes::text;
use crate::lang::{Declaration, Declared, LanguageConfig, Visibility, fnv};

/// Folds every non-comment leaf of a subtree into `hash`.
pub(super) fn hash_leaves(config: &LanguageConfig, node: Node<'_>, source: &[u8], hash: &mut u64) {
    let mut cursor = node.walk();
    let start = node.id();
    loop {
        let current = cursor.node();
        let comment = config.is_comment(current);
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

/// Returns a definition's signature as one line: its tokens from `outer` to the body without
/// comments, separated by one space where the source had any, none just inside brackets, and
/// no trailing comma (unless it means something, as in a one-element tuple).
pub(super) fn signature_text(
    config: &LanguageConfig,
    outer: Node<'_>,
    node: Node<'_>,
    end: usize,
    source: &[u8],
) -> String {
    let mut out = String::new();
    let mut prev: Option<(usize, &str)> = None;
    // Where the last token, a comma, began in `out` (with the space before it).
    let mut comma_at: Option<usize> = None;
    let mut root = Some(outer);
    while let Some(r) = root {
        let mut cursor = r.walk();
        'subtree: loop {
            let current = cursor.node();
            if current.start_byte() >= end {
                return finish_signature(out, comma_at);
            }
            let comment = config.is_comment(current);
            if current.child_count() == 0 && !comment && current.end_byte() > current.start_byte() {
                let token = text(current, source);
                let closing = matches!(token, ")" | "]" | "}" | ">");
                if closing {
                    if let Some(at) = comma_at.take() {
                        out.truncate(at);
                    }
                }
                if let Some((prev_end, prev_token)) = prev {
                    let gap = &source[prev_end.min(current.start_byte())..current.start_byte()];
                    let newline = gap.contains(&b'\n');
                    let tight = matches!(prev_token, "(" | "[")
                        || matches!(token, ")" | "]")
                        || (newline && (matches!(prev_token, "{" | "<") || closing));
                    if !gap.is_empty() && !tight {
                        out.push(' ');
                    }
                }
                comma_at = None;
                if token == "," {
                    let meaningful = current
                        .parent()
                        .is_some_and(|list| config.analyzer.comma_counts(list, source));
                    if !meaningful {
                        comma_at = Some(out.trim_end().len());
                    }
                }
                let mut words = token.split_whitespace();
                if let Some(first) = words.next() {
                    out.push_str(first);
                    for word in words {
                        out.push(' ');
                        out.push_str(word);
                    }
                }
                prev = Some((current.end_byte(), token));
            } else if current.child_count() > 0 && !comment && cursor.goto_first_child() {
                continue;
            }
            loop {
                if cursor.node().id() == r.id() {
                    break 'subtree;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    break 'subtree;
                }
            }
        }
        // Attributes before the definition are its preceding siblings.
        root = (r.id() != node.id() && r.end_byte() <= node.start_byte())
            .then(|| r.next_sibling())
            .flatten();
    }
    finish_signature(out, comma_at)
}

fn finish_signature(mut out: String, comma_at: Option<usize>) -> String {
    if let Some(at) = comma_at {
        out.truncate(at);
    }
    let trimmed = out.trim_end_matches(['{', ':', ' ']);
    trimmed.chars().take(SIGNATURE_CHARS).collect()
}

/// A name qualified by its scopes: each `(join, name)` joined to the one before it by `join`,
/// `leaf` by `lead`. Scopes without a name (Ruby's `class << self`) add no segment.
pub(super) fn qualify<'a>(
    parts: impl Iterator<Item = (&'a str, &'a str)>,
    lead: &str,
    leaf: &str,
) -> String {
    let mut qualified = String::new();
    for (join, part) in parts {
        if !part.is_empty() {
            if !qualified.is_empty() {
                qualified.push_str(join);
            }
            qualified.push_str(part);
        }
    }
    if !qualified.is_empty() {
        qualified.push_str(lead);
    }
    qualified.push_str(leaf);
    qualified
}

/// A declaration as the analysis records it: qualified by the enclosing scopes, its head on
/// one line, its visibility.
pub(super) fn declared(
    config: &LanguageConfig,
    source: &[u8],
    node: Node<'_>,
    d: Declaration<'_>,
    scopes: &[Scope<'_>],
    inherited: Option<&Inherited>,
) -> Declared {
    let parts = scopes.iter().map(|s| (s.lead, s.name.as_str()));
    let name = qualify(parts, config.separator, text(d.name, source));
    let head_end = d.head_end.clamp(node.start_byte(), node.end_byte());
    let signature = signature_text(config, d.outer, node, head_end, source);
    let mut signature = signature.trim_end_matches(['=', ';', ' ']).to_owned();
    if let Some(i) = inherited.filter(|i| !i.text.is_empty()) {
        signature = format!("{} {signature}", i.text);
    }
    let cap = scopes.last().map_or(Visibility::Public, |s| s.cap);
    let own = scopes
        .last()
        .and_then(|s| s.members)
        .unwrap_or_else(|| config.analyzer.visibility(d.outer, node, &name, source));
    Declared {
        visibility: own.min(cap),
        name,
        kind: d.kind.to_owned(),
        signature,
        test: scopes.last().is_some_and(|s| s.test),
        start_line: d.outer.start_position().row as u32 + 1,
        end_line: node.end_position().row as u32 + 1,
    }
}
