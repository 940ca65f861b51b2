//! Java: methods and constructors (compact record constructors included) qualified by their
//! enclosing types (`Outer.Inner.method`). Classes, interfaces, enums, records, annotation
//! types, enum constants with bodies (`Op.PLUS.apply`) and anonymous classes (named by the
//! simple name of the type they instantiate: `Outer.start.Runnable.run`) are scopes.
//! Interface and abstract methods and annotation type elements are body-less methods.
//! Annotations and modifiers are children of the declaration, so they are part of the
//! signature. Lambdas are not functions. Overloads share a name: the comparison pairs them by
//! identical bodies, then in order.
//!
//! Imports: `import a.b.C;` is `a.b.C`, `import a.b.*;` is `a.b.*`, and static imports are
//! prefixed: `static a.b.C.m`, `static a.b.C.*`.

use tree_sitter::Node;

use super::nodes::{child_of_kind, text, type_name_tight};
use super::normal::{Parens, caseless, redundant};
use super::{
    Analyzer, Declaration, Declares, Head, Language, LanguageConfig, Normal, Role, Visibility,
};

/// Java's facts.
pub(super) static CONFIG: LanguageConfig = LanguageConfig {
    grammars: &[(Language::Java, || tree_sitter_java::LANGUAGE.into())],
    family: &[Language::Java],
    import_scheme: None,
    separator: ".",
    comments: &["line_comment", "block_comment"],
    imports_as_written: true,
    normal_kinds: &[
        "decimal_integer_literal",
        "hex_integer_literal",
        "octal_integer_literal",
        "binary_integer_literal",
        "decimal_floating_point_literal",
        "hex_floating_point_literal",
        "parenthesized_expression",
    ],
    implied_kinds: &[],
    implied_parents: &[],
    declarations: &[
        Declares::rule("class_declaration", "class", Head::Field("body")),
        Declares::rule("interface_declaration", "interface", Head::Field("body")),
        Declares::rule("enum_declaration", "enum", Head::Field("body")),
        Declares::rule("record_declaration", "record", Head::Field("body")),
        Declares::rule(
            "annotation_type_declaration",
            "@interface",
            Head::Field("body"),
        ),
        // A constant: `static final`, or any field of an interface.
        Declares::hook("field_declaration"),
        Declares::hook("constant_declaration"),
    ],
    wrapper_kinds: &[],
    item_containers: &[],
    analyzer: &Java,
};

/// The Java analyzer.
pub struct Java;

impl Analyzer for Java {
    fn role<'t>(&self, node: Node<'t>, source: &[u8]) -> Role<'t> {
        match node.kind() {
            "method_declaration"
            | "constructor_declaration"
            | "compact_constructor_declaration"
            | "annotation_type_element_declaration" => match node.child_by_field_name("name") {
                Some(name) => Role::Function {
                    name,
                    body: node.child_by_field_name("body"),
                    outer: node,
                },
                None => Role::Other,
            },
            "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "annotation_type_declaration" => match node.child_by_field_name("name") {
                Some(name) => Role::Scope {
                    name: text(name, source).to_owned(),
                    methods: true,
                },
                None => Role::Other,
            },
            // `PLUS { int apply(int a, int b) { ... } }`
            "enum_constant" if node.child_by_field_name("body").is_some() => {
                match node.child_by_field_name("name") {
                    Some(name) => Role::Scope {
                        name: text(name, source).to_owned(),
                        methods: true,
                    },
                    None => Role::Other,
                }
            }
            // `new Runnable() { public void run() { ... } }`
            "object_creation_expression" if child_of_kind(node, "class_body").is_some() => {
                match node.child_by_field_name("type") {
                    Some(ty) => Role::Scope {
                        name: simple_name(text(ty, source)),
                        methods: true,
                    },
                    None => Role::Other,
                }
            }
            _ => Role::Other,
        }
    }

    fn visibility(
        &self,
        _outer: Node<'_>,
        node: Node<'_>,
        _name: &str,
        source: &[u8],
    ) -> Visibility {
        let mut cursor = node.walk();
        let modifiers = node
            .children(&mut cursor)
            .find(|c| c.kind() == "modifiers")
            .map_or("", |m| text(m, source));
        let words: Vec<&str> = modifiers
            .split(|c: char| !(c.is_alphanumeric() || c == '@' || c == '_'))
            .collect();
        if words.contains(&"@Override") {
            Visibility::Implementation
        } else if words.contains(&"public") || words.contains(&"protected") {
            Visibility::Public
        } else if words.contains(&"private") {
            Visibility::Private
        } else if node
            .parent()
            .is_some_and(|p| matches!(p.kind(), "interface_body" | "annotation_type_body"))
        {
            // Interface members are public without saying so.
            Visibility::Public
        } else {
            Visibility::Private
        }
    }

    /// A constant: `static final`, or any field of an interface (asked about fields and
    /// constants only).
    fn declaration<'t>(&self, node: Node<'t>, source: &[u8]) -> Option<Declaration<'t>> {
        let mut cursor = node.walk();
        let modifiers = node
            .children(&mut cursor)
            .find(|c| c.kind() == "modifiers")
            .map_or("", |m| text(m, source));
        let words: Vec<&str> = modifiers.split_whitespace().collect();
        let constant = node.kind() == "constant_declaration"
            || (words.contains(&"static") && words.contains(&"final"));
        if !constant {
            return None;
        }
        let declarator = node.child_by_field_name("declarator")?;
        Some(Declaration {
            kind: "const",
            name: declarator.child_by_field_name("name")?,
            outer: node,
            head_end: declarator
                .child_by_field_name("value")
                .map_or(node.end_byte(), |v| v.start_byte()),
        })
    }

    fn normal(&self, node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
        match node.kind() {
            "decimal_integer_literal"
            | "hex_integer_literal"
            | "octal_integer_literal"
            | "binary_integer_literal"
            | "decimal_floating_point_literal"
            | "hex_floating_point_literal" => caseless(&source[node.byte_range()]),
            "parenthesized_expression"
                if redundant(&PARENS, node, parent, source, CONFIG.comments) =>
            {
                Normal::Unwrap
            }
            _ => Normal::Keep,
        }
    }

    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String> {
        if node.kind() != "import_declaration" {
            return Vec::new();
        }
        let (mut is_static, mut wildcard, mut path) = (false, false, None);
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            match child.kind() {
                "static" => is_static = true,
                "asterisk" => wildcard = true,
                "identifier" | "scoped_identifier" => path = Some(child),
                _ => {}
            }
        }
        let Some(path) = path else {
            return Vec::new();
        };
        let mut import = String::new();
        if is_static {
            import.push_str("static ");
        }
        import.push_str(&dotted(path, source));
        if wildcard {
            import.push_str(".*");
        }
        vec![import]
    }
}

/// A type's simple name for qualifying methods: package, type arguments and whitespace
/// dropped (`java.util.Comparator<String>` is `Comparator`).
fn simple_name(ty: &str) -> String {
    let name = type_name_tight(ty);
    match name.rsplit_once('.') {
        Some((_, simple)) => simple.to_owned(),
        None => name,
    }
}

/// A (scoped) identifier's parts joined with dots, whatever whitespace or comments lie
/// between them.
fn dotted(node: Node<'_>, source: &[u8]) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let mut cursor = node.walk();
    let start = node.id();
    loop {
        let current = cursor.node();
        if current.kind() == "identifier" {
            parts.push(text(current, source));
        } else if !matches!(current.kind(), "line_comment" | "block_comment")
            && cursor.goto_first_child()
        {
            continue;
        }
        loop {
            if cursor.node().id() == start {
                return parts.join(".");
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return parts.join(".");
            }
        }
    }
}

/// Java's parentheses rule: atoms, whole slots, doubled, or implied by precedence.
static PARENS: Parens = Parens {
    atoms: &[
        "identifier",
        "field_access",
        "method_invocation",
        "array_access",
        "this",
        "decimal_integer_literal",
        "hex_integer_literal",
        "octal_integer_literal",
        "binary_integer_literal",
        "decimal_floating_point_literal",
        "hex_floating_point_literal",
        "string_literal",
        "character_literal",
        "text_block",
        "true",
        "false",
        "null_literal",
        "class_literal",
        "object_creation_expression",
    ],
    slots: &[
        "return_statement",
        "throw_statement",
        "variable_declarator",
        "assignment_expression",
        "argument_list",
        "array_initializer",
        "lambda_expression",
    ],
    never: &[],
    not_in_slots: &[],
    unary: &["unary_expression", "cast_expression", "update_expression"],
    binary: &["binary_expression"],
    precedence,
    right_assoc: &[],
};

fn precedence(operator: &[u8]) -> Option<u8> {
    Some(match operator {
        b"||" => 1,
        b"&&" => 2,
        b"|" => 3,
        b"^" => 4,
        b"&" => 5,
        b"==" | b"!=" => 6,
        b"<" | b">" | b"<=" | b">=" => 7,
        b"<<" | b">>" | b">>>" => 8,
        b"+" | b"-" => 9,
        b"*" | b"/" | b"%" => 10,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::lang::analyze;

    fn names(source: &str) -> Vec<(String, &'static str)> {
        crate::lang::testing::names(Language::Java, source)
    }

    #[test]
    fn qualified_names() {
        let source = r#"
@Ann
public class Outer<T> extends Base {
    @Override
    public String toString() { return ""; }
    void f(int a) {}
    void f(String a) {}
    Outer() { super(); }
    class Inner {
        void g() {}
        class Deeper { void d() {} }
    }
    interface I { void h(); default void k() {} }
    enum E { A { void z() {} }, B; void e() {} }
    record R(int x) { R { } R(String s) { this(1); } }
    @interface Meta { String value() default ""; }
    abstract void later();
    void anon() {
        Runnable r = new Runnable() { public void run() {} };
        Runnable l = () -> {};
        Comparator<String> c = new java.util.Comparator<String>() {
            public int compare(String a, String b) { return 0; }
        };
    }
}
"#;
        assert_eq!(
            names(source),
            vec![
                ("Outer.toString".into(), "method"),
                ("Outer.f".into(), "method"),
                ("Outer.f".into(), "method"),
                ("Outer.Outer".into(), "method"),
                ("Outer.Inner.g".into(), "method"),
                ("Outer.Inner.Deeper.d".into(), "method"),
                ("Outer.I.h".into(), "method"),
                ("Outer.I.k".into(), "method"),
                ("Outer.E.A.z".into(), "method"),
                ("Outer.E.e".into(), "method"),
                ("Outer.R.R".into(), "method"),
                ("Outer.R.R".into(), "method"),
                ("Outer.Meta.value".into(), "method"),
                ("Outer.later".into(), "method"),
                ("Outer.anon".into(), "method"),
                ("Outer.anon.Runnable.run".into(), "method"),
                ("Outer.anon.Comparator.compare".into(), "method"),
            ]
        );
    }

    #[test]
    fn imports() {
        let source = "package p;\nimport a.b.C;\nimport static a.b.C.m;\nimport a.b.*;\nimport static a.b.C.*;\nimport x . /* odd */ y;\nclass K {}\n";
        let imports = analyze(Language::Java, source.as_bytes()).unwrap().imports;
        assert_eq!(
            imports,
            vec!["a.b.*", "a.b.C", "static a.b.C.*", "static a.b.C.m", "x.y"]
        );
    }

    #[test]
    fn annotations_are_part_of_the_signature() {
        let plain = analyze(Language::Java, b"class K {\n    void f() { g(); }\n}\n").unwrap();
        let annotated = analyze(
            Language::Java,
            b"class K {\n    @Override\n    void f() { g(); }\n}\n",
        )
        .unwrap();
        let (a, b) = (&plain.functions[0], &annotated.functions[0]);
        assert_eq!(a.body_hash, b.body_hash);
        assert_ne!(a.signature_hash, b.signature_hash);
        assert_eq!(b.start_line, 2);
        assert_eq!(b.signature, "@Override void f()");
    }

    #[test]
    fn comments_do_not_change_the_body() {
        crate::lang::testing::comments_only(
            Language::Java,
            b"class K {\n    int f(int x) {\n        return x + 1;\n    }\n}\n",
            b"class K {\n    /** Adds one. */\n    int f(int x /* x */) { // add\n        return x+1; /* really */\n    }\n}\n",
        );
    }

    #[test]
    fn overloads_are_compared_pairwise() {
        use crate::lang::compare::{compare, finish};
        let before =
            "class K {\n    void f(int a) { one(a); }\n    void f(String a) { two(a); }\n}\n";
        let after =
            "class K {\n    void f(int a) { one(a); }\n    void f(String a) { three(a); }\n}\n";
        let (b, a) = (
            analyze(Language::Java, before.as_bytes()).unwrap(),
            analyze(Language::Java, after.as_bytes()).unwrap(),
        );
        let changes = finish(vec![("K.java".into(), compare(Some(&b), Some(&a)))]).remove(0);
        let summary: Vec<(String, &str, u32)> = changes
            .changed
            .iter()
            .map(|c| (c.name.clone(), c.change_type.label(), c.start_line))
            .collect();
        assert_eq!(summary, [("K.f".to_owned(), "modified", 3)]);
    }

    #[test]
    fn formatting_prettier_java_applies_is_not_a_change() {
        use crate::lang::testing::same;
        same(
            Language::Java,
            "class A { int f(int a, int b) { if ((a > b) && (b > 0 || a < 0)) { return (a); } return (a * b) + 0XFF; } }\n",
            "class A {\n\n  int f(int a, int b) {\n    if (a > b && (b > 0 || a < 0)) {\n      return a;\n    }\n    return a * b + 0xff;\n  }\n}\n",
        );
    }

    #[test]
    fn meaningful_edits_near_the_formatting_rules_are_changes() {
        use crate::lang::testing::differ;
        let f = |body: &str| format!("class A {{ void f() {{ {body} }} }}\n");
        let pairs: &[(&str, &str)] = &[
            // String concatenation is left to right.
            ("s = \"a\" + (1 + 2);", "s = \"a\" + 1 + 2;"),
            ("x = (a || b) && c;", "x = a || b && c;"),
            ("g(1);", "g(2);"),
            ("g(a);", "g(a, b);"),
            ("a(); b();", "b(); a();"),
        ];
        for (a, b) in pairs {
            differ(Language::Java, &f(a), &f(b));
        }
    }

    #[test]
    fn visibility_and_declarations() {
        let source = r#"
public class Client implements Runnable {
    public static final int MAX = 3;
    private static final String NAME = "x";
    int count;
    public Client() {}
    protected void send() {}
    void pack() {}
    private void drop() {}
    @Override
    public void run() {}
}
public interface Store {
    int LIMIT = 5;
    void put(String k);
}
class Hidden {
    public void open() {}
}
"#;
        assert_eq!(
            crate::lang::testing::interface(Language::Java, source),
            [
                "Client.Client public",
                "Client.send public",
                "Client.pack private",
                "Client.drop private",
                "Client.run implementation",
                "Store.put public",
                "Hidden.open private",
                "class Client public: public class Client implements Runnable",
                "const Client.MAX public: public static final int MAX",
                "const Client.NAME private: private static final String NAME",
                "interface Store public: public interface Store",
                "const Store.LIMIT public: int LIMIT",
                "class Hidden private: class Hidden",
            ]
        );
    }
}
