//! C (and `.h` headers): function definitions, named by the identifier at the end of their
//! declarator chain (`static int (*get(void))(int) { ... }` is `get`); GCC nested functions
//! are `outer.inner`. Prototypes (declarations without a body) are not functions, nor are
//! function-like macros.
//!
//! Imports are `#include` targets as written: `<stdio.h>`, `"util.h"`, or the macro name for a
//! computed include (`HEADER`).

use tree_sitter::Node;

use super::nodes::text;
use super::normal::{Parens, caseless, lone_statement, redundant};
use super::{
    Analyzer, Declaration, Declares, Head, Language, LanguageConfig, Normal, Role, Visibility, fnv,
};

/// C's facts.
pub(super) static CONFIG: LanguageConfig = LanguageConfig {
    grammars: &[(Language::C, || tree_sitter_c::LANGUAGE.into())],
    // C++ calls C, and C headers are shared with C++.
    family: &[Language::C, Language::Cpp],
    import_scheme: None,
    separator: ".",
    comments: &["comment"],
    imports_as_written: true,
    normal_kinds: NORMAL_KINDS,
    implied_kinds: &[],
    implied_parents: &[],
    declarations: DECLARATIONS,
    wrapper_kinds: &[],
    item_containers: &[],
    analyzer: &C,
};

/// The C analyzer.
pub struct C;

impl Analyzer for C {
    fn role<'t>(&self, node: Node<'t>, _source: &[u8]) -> Role<'t> {
        if node.kind() != "function_definition" {
            return Role::Other;
        }
        match declarator_name(node) {
            Some(name) => Role::Function {
                name,
                body: node.child_by_field_name("body"),
                outer: node,
            },
            None => Role::Other,
        }
    }

    fn visibility(
        &self,
        _outer: Node<'_>,
        node: Node<'_>,
        _name: &str,
        source: &[u8],
    ) -> Visibility {
        linkage(node, source)
    }

    fn declaration<'t>(&self, node: Node<'t>, _source: &[u8]) -> Option<Declaration<'t>> {
        typedef(node)
    }

    fn normal(&self, node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
        normal(&PARENS, node, parent, source)
    }

    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String> {
        include(node, source).into_iter().collect()
    }
}

/// A definition's linkage as its visibility (C and C++): `static` keeps it in its file.
pub(super) fn linkage(node: Node<'_>, source: &[u8]) -> Visibility {
    let mut cursor = node.walk();
    let is_static = node
        .children(&mut cursor)
        .any(|c| c.kind() == "storage_class_specifier" && text(c, source) == "static");
    if is_static {
        Visibility::Private
    } else {
        Visibility::Public
    }
}

/// What C and C++ declare besides functions: a named struct, union, enum or class with a body
/// (its head up to the body), a `typedef` ([`typedef`]), a C++ `using` alias, a `#define` (up
/// to its value).
pub(super) const DECLARATIONS: &[Declares] = &[
    Declares::rule("struct_specifier", "struct", Head::Required("body")),
    Declares::rule("union_specifier", "union", Head::Required("body")),
    Declares::rule("enum_specifier", "enum", Head::Required("body")),
    Declares::rule("class_specifier", "class", Head::Required("body")),
    Declares::hook("type_definition"),
    Declares::rule("alias_declaration", "using", Head::Whole),
    Declares::rule("preproc_def", "define", Head::Field("value")),
];

/// A `typedef` (C and C++), named by what it defines (`typedef struct { .. } point;` is
/// `point`), its head up to a body it spells out.
pub(super) fn typedef(node: Node<'_>) -> Option<Declaration<'_>> {
    let name = node
        .child_by_field_name("declarator")
        .filter(|d| d.kind() == "type_identifier")?;
    let body = node
        .child_by_field_name("type")
        .and_then(|t| t.child_by_field_name("body"));
    Some(Declaration {
        kind: "typedef",
        name,
        outer: node,
        head_end: body.map_or(node.end_byte(), |b| b.start_byte()),
    })
}

/// The node naming a function definition (C or C++): the end of its declarator chain, found
/// by walking down through function, pointer, reference, parenthesized and attributed
/// declarators. `None` when the chain ends in anything but a name.
pub(super) fn declarator_name(definition: Node<'_>) -> Option<Node<'_>> {
    let mut node = definition.child_by_field_name("declarator")?;
    loop {
        node = match node.kind() {
            "function_declarator"
            | "pointer_declarator"
            | "attributed_declarator"
            | "array_declarator" => node.child_by_field_name("declarator")?,
            // `(name)` and C++'s `&name`, `&&name`: the declarator is the last named child.
            "parenthesized_declarator" | "reference_declarator" => {
                let mut cursor = node.walk();
                node.named_children(&mut cursor)
                    .filter(|c| c.kind() != "comment")
                    .last()?
            }
            "identifier"
            | "field_identifier"
            | "qualified_identifier"
            | "destructor_name"
            | "operator_name"
            | "operator_cast"
            | "template_function"
            | "template_method" => return Some(node),
            _ => return None,
        };
    }
}

/// The target of an `#include`, as written (C or C++).
pub(super) fn include(node: Node<'_>, source: &[u8]) -> Option<String> {
    if node.kind() != "preproc_include" {
        return None;
    }
    let path = text(node.child_by_field_name("path")?, source).trim();
    (!path.is_empty()).then(|| path.to_owned())
}

/// The statements whose braces are redundant when they are a control statement's whole body.
const SIMPLE: &[&str] = &[
    "expression_statement",
    "return_statement",
    "break_statement",
    "continue_statement",
    "goto_statement",
    "throw_statement",
];

/// Control statements whose body may be braced or not.
const CONTROL: &[&str] = &[
    "if_statement",
    "else_clause",
    "for_statement",
    "for_range_loop",
    "while_statement",
    "do_statement",
];

/// The kinds `normal` looks at.
pub(super) const NORMAL_KINDS: &[&str] = &[
    "number_literal",
    "string_literal",
    "concatenated_string",
    "parenthesized_expression",
    "compound_statement",
];

/// C's parentheses rule: atoms, whole slots, doubled, or implied by precedence. Never around
/// a called name: `(max)(a, b)` does not expand a function-like macro `max`.
pub(super) static PARENS: Parens = Parens {
    atoms: ATOMS,
    slots: &[
        "return_statement",
        "init_declarator",
        "assignment_expression",
        "argument_list",
        "initializer_list",
    ],
    never: &["call_expression"],
    not_in_slots: &["comma_expression"],
    unary: UNARY,
    binary: &["binary_expression"],
    precedence,
    right_assoc: &[],
};

/// Expressions that bind tighter than any operator.
pub(super) const ATOMS: &[&str] = &[
    "identifier",
    "field_expression",
    "call_expression",
    "subscript_expression",
    "number_literal",
    "string_literal",
    "char_literal",
    "concatenated_string",
    "true",
    "false",
    "null",
    "this",
    "qualified_identifier",
];

/// Expressions that bind tighter than any binary operator.
pub(super) const UNARY: &[&str] = &[
    "unary_expression",
    "pointer_expression",
    "cast_expression",
    "sizeof_expression",
    "update_expression",
];

pub(super) fn precedence(operator: &[u8]) -> Option<u8> {
    Some(match operator {
        b"||" => 1,
        b"&&" => 2,
        b"|" => 3,
        b"^" => 4,
        b"&" => 5,
        b"==" | b"!=" => 6,
        b"<" | b">" | b"<=" | b">=" | b"<=>" => 7,
        b"<<" | b">>" => 8,
        b"+" | b"-" => 9,
        b"*" | b"/" | b"%" => 10,
        _ => return None,
    })
}

/// A string literal, or adjacent ones, as the bytes between their quotes joined (with the
/// first one's prefix, `L`, `u8`...); adjacent literals with a macro between them
/// (`"%" PRIu64`) count as written.
fn string_value(node: Node<'_>, source: &[u8]) -> Normal {
    let mut value = Vec::new();
    let mut prefix_done = false;
    let mut literal = |n: Node<'_>, value: &mut Vec<u8>| -> bool {
        let text = &source[n.byte_range()];
        let Some(open) = text.iter().position(|b| *b == b'"') else {
            return false;
        };
        if text.len() < open + 2 || text.last() != Some(&b'"') {
            return false;
        }
        if !prefix_done {
            value.extend_from_slice(&text[..open]);
            value.push(0);
            prefix_done = true;
        }
        value.extend_from_slice(&text[open + 1..text.len() - 1]);
        true
    };
    if node.kind() == "string_literal" {
        if !literal(node, &mut value) {
            return Normal::Keep;
        }
    } else {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if CONFIG.is_comment(child) {
                continue;
            }
            if child.kind() != "string_literal" || !literal(child, &mut value) {
                return Normal::Keep;
            }
        }
    }
    Normal::As(fnv(&value))
}

/// How a node counts (shared with C++): number spellings, redundant parentheses, and the
/// braces of a control statement's lone simple statement (clang-format's `InsertBraces`).
pub(super) fn normal(
    parens: &Parens,
    node: Node<'_>,
    parent: Option<Node<'_>>,
    source: &[u8],
) -> Normal {
    match node.kind() {
        "number_literal" => caseless(&source[node.byte_range()]),
        // clang-format breaks long literals into adjacent ones: `"a b"` is `"a " "b"`.
        "string_literal" if parent.is_none_or(|p| p.kind() != "concatenated_string") => {
            string_value(node, source)
        }
        "concatenated_string" => string_value(node, source),
        "parenthesized_expression" if redundant(parens, node, parent, source, CONFIG.comments) => {
            Normal::Unwrap
        }
        "compound_statement"
            if parent.is_some_and(|p| CONTROL.contains(&p.kind()))
                && lone_statement(node, SIMPLE, CONFIG.comments) =>
        {
            Normal::Unwrap
        }
        _ => Normal::Keep,
    }
}

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::lang::analyze;

    fn names(source: &str) -> Vec<(String, &'static str)> {
        crate::lang::testing::names(Language::C, source)
    }

    #[test]
    fn function_names() {
        let source = r#"
int proto(int a);
static int (*get(void))(int) { return 0; }
char **names(int n) { return 0; }
int (paren)(int a) { return a; }
int old(a) int a; { return a; }
#ifdef X
void in_ifdef(void) { }
#endif
void outer(void) { void nested(void) { } }
struct point { int x, y; };
#define SQUARE(x) ((x) * (x))
int main(int argc, char **argv) { return proto(argc); }
"#;
        assert_eq!(
            names(source),
            vec![
                ("get".into(), "function"),
                ("names".into(), "function"),
                ("paren".into(), "function"),
                ("old".into(), "function"),
                ("in_ifdef".into(), "function"),
                ("outer".into(), "function"),
                ("outer.nested".into(), "function"),
                ("main".into(), "function"),
            ]
        );
    }

    #[test]
    fn includes() {
        let source = "#include <stdio.h>\n#include \"util.h\"\n#include HEADER\n#include <stdio.h>\nint x;\n";
        let imports = analyze(Language::C, source.as_bytes()).unwrap().imports;
        assert_eq!(imports, vec!["\"util.h\"", "<stdio.h>", "HEADER"]);
    }

    #[test]
    fn comments_do_not_change_the_body() {
        let b = crate::lang::testing::comments_only(
            Language::C,
            b"int f(int x) {\n    return x + 1;\n}\n",
            b"/* Adds one. */\nint f(int x /* x */) { // add\n    return x+1; /* really */\n}\n",
        );
        assert_eq!(b.start_line, 2);
    }

    #[test]
    fn the_return_type_and_storage_class_are_part_of_the_signature() {
        let base = analyze(Language::C, b"int f(void) { return 1; }\n").unwrap();
        for other in [
            "static int f(void) { return 1; }\n",
            "long f(void) { return 1; }\n",
            "int *f(void) { return 1; }\n",
        ] {
            let changed = analyze(Language::C, other.as_bytes()).unwrap();
            let (a, b) = (&base.functions[0], &changed.functions[0]);
            assert_eq!(b.name, "f");
            assert_eq!(a.body_hash, b.body_hash, "{other}");
            assert_ne!(a.signature_hash, b.signature_hash, "{other}");
        }
    }

    #[test]
    fn formatting_clang_format_may_apply_is_not_a_change() {
        use crate::lang::testing::same;
        // Brace styles, inserted braces, doubled parentheses, trailing commas.
        same(
            Language::C,
            "int f(int a, int b) {\n  g(\"a long \" \"message\");\n  if (a > b) return ((a));\n  else { b++; }\n  int x[] = {1, 2, 3};\n  while ((a = g())) b += (a * 2);\n  return a + b;\n}\n",
            "int\nf (int a, int b)\n{\n  g (\"a long message\");\n  if (a > b)\n    {\n      return a;\n    }\n  else\n    b++;\n  int x[] = {\n    1,\n    2,\n    3,\n  };\n  while ((a = g()))\n    {\n      b += a * 2;\n    }\n  return a + b;\n}\n",
        );
    }

    #[test]
    fn meaningful_edits_near_the_formatting_rules_are_changes() {
        use crate::lang::testing::differ;
        let f = |body: &str| format!("int f(void) {{\n  {body}\n}}\n");
        let pairs: &[(&str, &str)] = &[
            ("g(\"a b\");", "g(\"a\" \"b\");"),
            ("g(\"%\" PRIu64);", "g(\"%\" \"PRIu64\");"),
            // A parenthesized name is not expanded as a function-like macro.
            ("return (max)(a, b);", "return max(a, b);"),
            ("return (a + b) * c;", "return a + b * c;"),
            ("g((a, b));", "g(a, b);"),
            // The `else` of an inner `if`.
            (
                "if (a) { if (b) c(); } else d();",
                "if (a) if (b) c(); else d();",
            ),
            ("if (a) { c(); d(); }", "if (a) c(); d();"),
            ("g(1);", "g(2);"),
            ("g(a);", "g(a, b);"),
            ("a(); b();", "b(); a();"),
        ];
        for (a, b) in pairs {
            differ(Language::C, &f(a), &f(b));
        }
    }

    #[test]
    fn visibility_and_declarations() {
        let source = "#define LIMIT 10\nstruct point { int x; };\ntypedef struct { int y; } pair;\ntypedef unsigned long id_t;\nenum color { RED };\nint area(struct point p) { return 0; }\nstatic int helper(void) { struct local { int z; }; return 1; }\n";
        assert_eq!(
            crate::lang::testing::interface(Language::C, source),
            [
                "area public",
                "helper private",
                "define LIMIT public: #define LIMIT",
                "struct point public: struct point",
                "typedef pair public: typedef struct",
                "typedef id_t public: typedef unsigned long id_t",
                "enum color public: enum color",
            ]
        );
    }
}
