//! C (and `.h` headers): function definitions, named by the identifier at the end of their
//! declarator chain (`static int (*get(void))(int) { ... }` is `get`); GCC nested functions
//! are `outer.inner`. Prototypes (declarations without a body) are not functions, nor are
//! function-like macros.
//!
//! Imports are `#include` targets as written: `<stdio.h>`, `"util.h"`, or the macro name for a
//! computed include (`HEADER`).

use tree_sitter::Node;

use super::walk::text;
use super::{Analyzer, Language, Role};

/// The C analyzer.
pub struct C;

impl Analyzer for C {
    fn languages(&self) -> &'static [Language] {
        &[Language::C]
    }

    fn grammar(&self, _language: Language) -> tree_sitter::Language {
        tree_sitter_c::LANGUAGE.into()
    }

    fn separator(&self) -> &'static str {
        "."
    }

    fn family(&self) -> &'static [Language] {
        // C++ calls C, and C headers are shared with C++.
        &[Language::C, Language::Cpp]
    }

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

    fn is_comment(&self, node: Node<'_>) -> bool {
        node.kind() == "comment"
    }

    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String> {
        include(node, source).into_iter().collect()
    }
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
        let a = analyze(Language::C, b"int f(int x) {\n    return x + 1;\n}\n").unwrap();
        let b = analyze(
            Language::C,
            b"/* Adds one. */\nint f(int x /* x */) { // add\n    return x+1; /* really */\n}\n",
        )
        .unwrap();
        let (a, b) = (&a.functions[0], &b.functions[0]);
        assert_eq!(a.body_hash, b.body_hash);
        assert_eq!(a.signature_hash, b.signature_hash);
        assert_ne!(a.text_hash, b.text_hash);
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
}
