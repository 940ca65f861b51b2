//! What JavaScript's and TypeScript's formatters (prettier) may write either way (ADR 9):
//! optional semicolons (every statement ends with one, written or implied), separators of
//! object types, redundant parentheses (a lone arrow parameter's included), string quotes,
//! number spellings, quoted property names, a leading `|`, and the `()` of `new Foo`.

use tree_sitter::Node;

use super::{COMMENTS, is_identifier_byte};
use crate::lang::nodes::text;
use crate::lang::normal::{Parens, caseless, only_child, quoted_value, redundant};
use crate::lang::{Normal, fnv};

/// Statements that end with a `;` whether written or not (automatic semicolon insertion):
/// each counts one, implied, and a written one is dropped.
const STATEMENTS: &[&str] = &[
    "expression_statement",
    "lexical_declaration",
    "variable_declaration",
    "return_statement",
    "throw_statement",
    "break_statement",
    "continue_statement",
    "debugger_statement",
    "do_statement",
    "import_statement",
    "export_statement",
    "type_alias_declaration",
    "ambient_declaration",
    "function_signature",
];

/// The kinds [`normal`] looks at.
pub(in crate::lang) const NORMAL_KINDS: &[&str] = &[
    ";",
    "|",
    "&",
    "number",
    "string",
    "parenthesized_expression",
    "formal_parameters",
    "return",
    "throw",
    "break",
    "continue",
    "yield",
];

/// The kinds `implied_end` looks at: [`STATEMENTS`], [`FIELDS`], empty statements and `new`.
pub(in crate::lang) const IMPLIED_KINDS: &[&str] = &[
    "expression_statement",
    "lexical_declaration",
    "variable_declaration",
    "return_statement",
    "throw_statement",
    "break_statement",
    "continue_statement",
    "debugger_statement",
    "do_statement",
    "import_statement",
    "export_statement",
    "type_alias_declaration",
    "ambient_declaration",
    "function_signature",
    "field_definition",
    "public_field_definition",
    "method_signature",
    "abstract_method_signature",
    "index_signature",
    "empty_statement",
    "new_expression",
];

/// Class members that end with a `;` whether written or not (the `;` is the class body's).
const FIELDS: &[&str] = &[
    "field_definition",
    "public_field_definition",
    "method_signature",
    "abstract_method_signature",
    "index_signature",
];

/// Where an empty statement (a lone `;`) is only a stray separator, which prettier removes.
const STATEMENT_LISTS: &[&str] = &[
    "program",
    "statement_block",
    "class_body",
    "switch_case",
    "switch_default",
];

/// JavaScript's parentheses rule: atoms, whole slots, doubled, or implied by precedence.
static PARENS: Parens = Parens {
    atoms: &[
        "identifier",
        "this",
        "super",
        "member_expression",
        "subscript_expression",
        "call_expression",
        "string",
        "template_string",
        "number",
        "true",
        "false",
        "null",
        "undefined",
        "array",
        "object",
        "regex",
        "jsx_element",
        "jsx_self_closing_element",
        "non_null_expression",
    ],
    slots: &[
        "variable_declarator",
        "assignment_expression",
        "augmented_assignment_expression",
        "return_statement",
        "throw_statement",
        "arguments",
        "array",
        "pair",
        "arrow_function",
        "spread_element",
        "template_substitution",
        "jsx_expression",
        // `(a = 1), b()`: each operand of the comma operator is a whole assignment.
        "sequence_expression",
    ],
    // `new (a())()` is not `new a()()`.
    never: &["new_expression"],
    not_in_slots: &["sequence_expression"],
    unary: &["unary_expression", "await_expression", "update_expression"],
    binary: &["binary_expression"],
    precedence,
    right_assoc: &[b"**"],
};

fn precedence(operator: &[u8]) -> Option<u8> {
    Some(match operator {
        b"??" => 1,
        b"||" => 2,
        b"&&" => 3,
        b"|" => 4,
        b"^" => 5,
        b"&" => 6,
        b"==" | b"!=" | b"===" | b"!==" => 7,
        b"<" | b">" | b"<=" | b">=" | b"instanceof" | b"in" => 8,
        b"<<" | b">>" | b">>>" => 9,
        b"+" | b"-" => 10,
        b"*" | b"/" | b"%" => 11,
        b"**" => 12,
        _ => return None,
    })
}

/// How a node counts toward the fingerprints (shared by both analyzers' `normal`): optional
/// semicolons, separators of object types, redundant parentheses (a lone arrow parameter's
/// included), string quotes, number spellings, quoted property names, a leading `|`.
pub(super) fn normal(node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
    let parent_kind = parent.map_or("", |p| p.kind());
    match node.kind() {
        ";" if STATEMENTS.contains(&parent_kind)
            || matches!(parent_kind, "class_body" | "empty_statement") =>
        {
            Normal::Drop
        }
        // `{ a: string, b: number }` is `{ a: string; b: number }`.
        ";" if matches!(parent_kind, "object_type" | "interface_body") => Normal::As(fnv(b",")),
        // A `|` or `&` before the first member of a union or intersection type.
        "|" | "&"
            if matches!(parent_kind, "union_type" | "intersection_type")
                && parent.is_some_and(|p| p.start_byte() == node.start_byte()) =>
        {
            Normal::Drop
        }
        // `return` and a line break end the statement (JavaScript inserts the `;` there),
        // whatever follows: `return\n(x)` returns nothing. tree-sitter reads the next line as
        // the value, so the break itself must count.
        "return" | "throw" | "break" | "continue" | "yield"
            if parent.is_some_and(|p| {
                matches!(
                    p.kind(),
                    "return_statement"
                        | "throw_statement"
                        | "break_statement"
                        | "continue_statement"
                        | "yield_expression"
                )
            }) && line_break_after(node, source) =>
        {
            Normal::As(fnv(b";\n"))
        }
        "number" => number(&source[node.byte_range()]),
        // Not the `string` type keyword.
        "string" if node.is_named() => string(node, parent, source),
        "parenthesized_expression" if parens_redundant(node, parent, source) => Normal::Unwrap,
        // `(x) => x` is `x => x`.
        "formal_parameters" if parent_kind == "arrow_function" && lone_parameter(node) => {
            Normal::Unwrap
        }
        _ => Normal::Keep,
    }
}

/// The tokens a node ends with whether written or not: a statement's `;`, the `()` of
/// `new Foo`.
pub(super) fn implied_end(node: Node<'_>, parent: Option<Node<'_>>) -> &'static [&'static str] {
    let kind = node.kind();
    let parent_kind = parent.map_or("", |p| p.kind());
    if STATEMENTS.contains(&kind) || (parent_kind == "class_body" && FIELDS.contains(&kind)) {
        &[";"]
    } else if kind == "empty_statement" && !STATEMENT_LISTS.contains(&parent_kind) {
        // The empty body of a control statement (`for (;;);`) is a statement.
        &[";"]
    } else if kind == "new_expression" && node.child_by_field_name("arguments").is_none() {
        &["(", ")"]
    } else {
        &[]
    }
}

/// Whether a line break comes between `node` and the next token of its parent (a value or a
/// label; a written `;` ends the statement anyway).
fn line_break_after(node: Node<'_>, source: &[u8]) -> bool {
    let Some(next) = node.next_sibling() else {
        return false;
    };
    if next.kind() == ";" {
        return false;
    }
    source
        .get(node.end_byte()..next.start_byte())
        .is_some_and(|between| between.contains(&b'\n'))
}

fn parens_redundant(node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> bool {
    if let Some(inner) = only_child(node, COMMENTS) {
        let kind = inner.kind();
        // `(a?.b).c` stops the optional chain; `a?.b.c` does not.
        if matches!(
            kind,
            "member_expression" | "subscript_expression" | "call_expression"
        ) && text(inner, source).contains("?.")
        {
            return false;
        }
        // `() => ({})` returns an object, `() => {}` nothing; `({} = x)` needs them too.
        if matches!(kind, "object" | "object_pattern" | "assignment_expression")
            && parent.is_some_and(|p| matches!(p.kind(), "arrow_function" | "expression_statement"))
        {
            return false;
        }
    }
    // Every binary and unary expression binds tighter than `?:`, in any of its three places.
    if parent.is_some_and(|p| p.kind() == "ternary_expression")
        && only_child(node, COMMENTS).is_some_and(|inner| {
            PARENS.binary.contains(&inner.kind()) || PARENS.unary.contains(&inner.kind())
        })
    {
        return true;
    }
    redundant(&PARENS, node, parent, source, COMMENTS)
}

/// Whether an arrow function's parameter list is one plain name (`(x)`, not `(x: T)`,
/// `(x = 1)` or `(...x)`).
fn lone_parameter(parameters: Node<'_>) -> bool {
    only_child(parameters, COMMENTS).is_some_and(|p| match p.kind() {
        "identifier" => true,
        "required_parameter" => only_child(p, COMMENTS).is_some_and(|i| i.kind() == "identifier"),
        _ => false,
    })
}

/// A number by its value when it is a plain decimal (`1.50`, `1.5`, `15e-1`); other
/// spellings in lower case (`0XFF`, `0xff`).
fn number(literal: &[u8]) -> Normal {
    let plain = literal
        .iter()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    let starts_with_zero_digit =
        literal.len() > 1 && literal[0] == b'0' && literal[1].is_ascii_digit();
    if plain && !starts_with_zero_digit {
        if let Some(value) = std::str::from_utf8(literal)
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
        {
            let mut bytes = *b"num:\0\0\0\0\0\0\0\0";
            bytes[4..].copy_from_slice(&value.to_bits().to_le_bytes());
            return Normal::As(fnv(&bytes));
        }
    }
    caseless(literal)
}

/// A string literal by its value: either quote, `\'` and `\"` read as quotes (not in JSX
/// attributes, which have no escapes). A property name that is a valid identifier counts as
/// that identifier (`{"a": 1}` is `{a: 1}`).
fn string(node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
    let range = node.byte_range();
    if range.len() < 2 {
        return Normal::Keep;
    }
    let body = &source[range.start + 1..range.end - 1];
    let key = parent.is_some_and(|p| {
        matches!(p.kind(), "pair" | "property_signature")
            && p.child_by_field_name(if p.kind() == "pair" { "key" } else { "name" })
                .is_some_and(|k| k.id() == node.id())
    });
    if key
        && body.first().is_some_and(|b| !b.is_ascii_digit())
        && body.iter().all(|b| is_identifier_byte(*b))
    {
        return Normal::As(fnv(body));
    }
    let jsx = parent.is_some_and(|p| p.kind() == "jsx_attribute");
    Normal::As(quoted_value(b"", body, !jsx))
}

#[cfg(test)]
mod tests {
    #[test]
    fn implied_kinds_cover_every_statement_and_field() {
        for kind in super::STATEMENTS.iter().chain(super::FIELDS) {
            assert!(super::IMPLIED_KINDS.contains(kind), "{kind}");
        }
    }
}
