//! What the analyzers' formatting rules share (ADR 9, `docs/adr/0009-where-formatting-ends.md`):
//! redundant parentheses in the C family of grammars (JavaScript, TypeScript, Java, C, C++,
//! Go), literals compared by value, and the braces of a lone statement.
//!
//! Every helper looks at a node, its parent and their children only: the walk calls them for
//! every node.

use tree_sitter::Node;

use super::{Normal, fnv};

/// Returns the only named child of `node` that is not a comment (a node of one of the
/// `comments` kinds, its language's [`super::LanguageConfig::comments`]).
pub(super) fn only_child<'t>(node: Node<'t>, comments: &[&str]) -> Option<Node<'t>> {
    let mut found = None;
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        if comments.contains(&child.kind()) {
            continue;
        }
        if found.is_some() {
            return None;
        }
        found = Some(child);
    }
    found
}

/// Returns how many named children of `node` are not comments.
pub(super) fn named_count(node: Node<'_>, comments: &[&str]) -> usize {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| !comments.contains(&c.kind()))
        .count()
}

/// Whether a named child of `parent` that is not `skip`ped (a comment) follows `node`, its
/// child: a statement after it, so the separator a line break stands for is between them. Walks the
/// parent's children from the first (a sibling lookup would start from the tree's root).
pub(super) fn followed(node: Node<'_>, parent: Node<'_>, skip: impl Fn(Node<'_>) -> bool) -> bool {
    let mut cursor = parent.walk();
    if !cursor.goto_first_child() {
        return false;
    }
    loop {
        let current = cursor.node();
        if current.start_byte() >= node.end_byte()
            && current.id() != node.id()
            && current.is_named()
            && !skip(current)
        {
            return true;
        }
        if !cursor.goto_next_sibling() {
            return false;
        }
    }
}

/// A token that means the same in any letter case (`0XFF`, `1E5`): counted in lower case.
pub(super) fn caseless(text: &[u8]) -> Normal {
    if text.iter().any(u8::is_ascii_uppercase) {
        Normal::As(fnv(&text.to_ascii_lowercase()))
    } else {
        Normal::Keep
    }
}

/// Hashes a quoted literal's value: `prefix` (already normalised), then the body with `\'` and
/// `\"` read as the quote they escape (when `escapes`); other escapes stay as written. So
/// `'it\'s'` and `"it's"` are one value, and `'a"b'` and `"a\"b"` another.
pub(super) fn quoted_value(prefix: &[u8], body: &[u8], escapes: bool) -> u64 {
    let mut value = Vec::with_capacity(prefix.len() + body.len() + 1);
    value.extend_from_slice(prefix);
    value.push(0);
    let mut i = 0;
    while i < body.len() {
        let b = body[i];
        if escapes && b == b'\\' && i + 1 < body.len() {
            let next = body[i + 1];
            if next == b'\'' || next == b'"' {
                value.push(next);
            } else {
                value.push(b);
                value.push(next);
            }
            i += 2;
            continue;
        }
        value.push(b);
        i += 1;
    }
    fnv(&value)
}

/// The grammar facts the C-family parenthesis rule needs.
pub(super) struct Parens {
    /// Expressions that bind tighter than any operator: parentheses around them never matter.
    /// Not a parenthesized expression: of doubled parentheses only the inner pair goes.
    pub atoms: &'static [&'static str],
    /// Parents whose child fills a whole expression slot (an argument, a return value, the
    /// right side of an assignment): parentheses there never matter.
    pub slots: &'static [&'static str],
    /// Parents where nothing is unwrapped (`new (a())()`, C++ `decltype((x))`).
    pub never: &'static [&'static str],
    /// Expressions that are not a slot's whole value even there (the comma operator:
    /// `f((a, b))` is not `f(a, b)`).
    pub not_in_slots: &'static [&'static str],
    /// Unary expressions, which bind tighter than every binary operator.
    pub unary: &'static [&'static str],
    /// The binary expression kinds (their operator is the `operator` field).
    pub binary: &'static [&'static str],
    /// A binary operator's precedence (higher binds tighter).
    pub precedence: fn(&[u8]) -> Option<u8>,
    /// Right-associative binary operators (`**`).
    pub right_assoc: &'static [&'static [u8]],
}

/// Whether the parentheses of `node` (a parenthesized expression whose parent is `parent`)
/// are redundant: around an atom, filling a slot, doubled, or implied by precedence.
pub(super) fn redundant(
    rules: &Parens,
    node: Node<'_>,
    parent: Option<Node<'_>>,
    source: &[u8],
    comments: &[&str],
) -> bool {
    let Some(inner) = only_child(node, comments) else {
        return false;
    };
    let Some(parent) = parent else {
        return rules.atoms.contains(&inner.kind());
    };
    let outer = parent.kind();
    if rules.never.contains(&outer) {
        return false;
    }
    if rules.atoms.contains(&inner.kind()) || outer == node.kind() {
        return true;
    }
    if rules.not_in_slots.contains(&inner.kind()) {
        return false;
    }
    if rules.slots.contains(&outer) {
        return true;
    }
    if !rules.binary.contains(&outer) {
        return false;
    }
    let operator = |n: Node<'_>| {
        n.child_by_field_name("operator")
            .map(|o| &source[o.byte_range()])
    };
    let Some(outer_op) = operator(parent) else {
        return false;
    };
    let left = parent
        .child_by_field_name("left")
        .is_some_and(|l| l.id() == node.id());
    let right_assoc = rules.right_assoc.contains(&outer_op);
    if rules.unary.contains(&inner.kind()) {
        // `(-a) ** b` needs them.
        return !(left && right_assoc);
    }
    if !rules.binary.contains(&inner.kind()) {
        return false;
    }
    let (Some(outer_p), Some(inner_p)) = (
        (rules.precedence)(outer_op),
        operator(inner).and_then(rules.precedence),
    ) else {
        return false;
    };
    inner_p > outer_p || (inner_p == outer_p && (left != right_assoc))
}

/// Whether `block` (a braced block that is the body of a control statement) holds one simple
/// statement, so its braces are redundant: `if (x) { return; }` is `if (x) return;`. Control
/// statements inside are left alone: unwrapping `if (a) { if (b) c(); } else d();` would give
/// the `else` to the inner `if`.
pub(super) fn lone_statement(block: Node<'_>, simple: &[&str], comments: &[&str]) -> bool {
    block.child(0).is_some_and(|c| c.kind() == "{")
        && only_child(block, comments).is_some_and(|s| simple.contains(&s.kind()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Language;

    #[test]
    fn quoted_values_resolve_quote_escapes_only() {
        assert_eq!(
            quoted_value(b"", b"it\\'s", true),
            quoted_value(b"", b"it's", true)
        );
        assert_eq!(
            quoted_value(b"", b"a\\\"b", true),
            quoted_value(b"", b"a\"b", true)
        );
        assert_ne!(
            quoted_value(b"", b"a\\nb", true),
            quoted_value(b"", b"anb", true)
        );
        // An escaped backslash before a quote is not a quote escape.
        assert_ne!(
            quoted_value(b"", b"a\\\\'", true),
            quoted_value(b"", b"a\\'", true)
        );
        assert_ne!(
            quoted_value(b"r", b"it\\'s", false),
            quoted_value(b"r", b"it's", false)
        );
        assert_ne!(
            quoted_value(b"b", b"x", true),
            quoted_value(b"", b"x", true)
        );
    }

    #[test]
    fn caseless_tokens_count_in_lower_case() {
        assert_eq!(caseless(b"0XFF"), Normal::As(fnv(b"0xff")));
        assert_eq!(caseless(b"0xff"), Normal::Keep);
    }

    // Doubled parentheses lost both pairs, so `((a + b)) * c` read as `a + b * c`.
    #[test]
    fn doubled_parentheses_keep_one_pair() {
        use crate::lang::testing::{differ, same};
        differ(
            Language::Python,
            "def f():\n    return ((a + b)) * c\n",
            "def f():\n    return a + b * c\n",
        );
        same(
            Language::Python,
            "def f():\n    return ((a + b)) * c\n",
            "def f():\n    return (a + b) * c\n",
        );
        differ(
            Language::Java,
            "class A { int f() { return ((a + b)) * c; } }\n",
            "class A { int f() { return a + b * c; } }\n",
        );
        same(
            Language::Java,
            "class A { void f() { if ((a <= 0)) { g(); } } }\n",
            "class A { void f() { if (a <= 0) { g(); } } }\n",
        );
        differ(
            Language::C,
            "int f(void) { return ((a + b)) * c; }\n",
            "int f(void) { return a + b * c; }\n",
        );
        differ(
            Language::TypeScript,
            "function f() { return ((a + b)) * c; }\n",
            "function f() { return a + b * c; }\n",
        );
    }
}
