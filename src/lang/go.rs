//! Go: functions (`name`) and methods qualified by their receiver's type, without pointer or
//! type arguments (`func (s *Server[T]) Start()` is `Server.Start`). Function literals, even
//! when bound with `:=` or `var`, are not functions: their tokens belong to the enclosing
//! function's body.
//!
//! Imports are the import paths, unquoted (`fmt`, `golang.org/x/sync/errgroup`); an aliased
//! import is `path as alias`, blank and dot imports included (`embed as _`, `strings as .`).
//!
//! A method declaration is a [`Role::Method`] named by its receiver type; its signature is
//! everything from `func` to the body, receiver included.

use tree_sitter::Node;

use super::nodes::text;
use super::normal::{Parens, caseless, redundant};
use super::{Analyzer, Declaration, Declares, Language, LanguageConfig, Normal, Role, Visibility};

/// Go's facts. Its declarations take a hook each: a lone spec's head starts at the keyword
/// before it (`type X struct`).
pub(super) static CONFIG: LanguageConfig = LanguageConfig {
    grammars: &[(Language::Go, || tree_sitter_go::LANGUAGE.into())],
    family: &[Language::Go],
    import_scheme: None,
    separator: ".",
    comments: &["comment"],
    imports_as_written: true,
    normal_kinds: &[
        ";",
        "int_literal",
        "float_literal",
        "imaginary_literal",
        "parenthesized_expression",
    ],
    implied_kinds: &[],
    implied_parents: STATEMENT_LISTS,
    declarations: &[
        Declares::hook("type_spec"),
        Declares::hook("type_alias"),
        Declares::hook("const_spec"),
        Declares::hook("var_spec"),
    ],
    wrapper_kinds: &[],
    item_containers: &[],
    analyzer: &Go,
};

/// The Go analyzer.
pub struct Go;

impl Analyzer for Go {
    fn role<'t>(&self, node: Node<'t>, source: &[u8]) -> Role<'t> {
        match node.kind() {
            "function_declaration" => match node.child_by_field_name("name") {
                Some(name) => Role::Function {
                    name,
                    body: node.child_by_field_name("body"),
                    outer: node,
                },
                None => Role::Other,
            },
            "method_declaration" => method(node, source),
            _ => Role::Other,
        }
    }

    fn visibility(
        &self,
        _outer: Node<'_>,
        _node: Node<'_>,
        name: &str,
        _source: &[u8],
    ) -> Visibility {
        // Go exports what starts with a capital letter.
        let leaf = name.rsplit('.').next().unwrap_or(name);
        if leaf.starts_with(char::is_uppercase) {
            Visibility::Public
        } else {
            Visibility::Private
        }
    }

    fn declaration<'t>(&self, node: Node<'t>, _source: &[u8]) -> Option<Declaration<'t>> {
        let (kind, head_end) = match node.kind() {
            "type_spec" => {
                let ty = node.child_by_field_name("type");
                let kind = match ty.map(|t| t.kind()) {
                    Some("struct_type") => "struct",
                    Some("interface_type") => "interface",
                    _ => "type",
                };
                (kind, ty.and_then(open_brace))
            }
            "type_alias" => ("type", None),
            "const_spec" => ("const", node.child_by_field_name("value")),
            "var_spec" => ("var", node.child_by_field_name("value")),
            _ => return None,
        };
        // `type X struct`, `const X`: the keyword before a lone spec is part of its head.
        let keyword = node
            .prev_sibling()
            .filter(|k| matches!(k.kind(), "type" | "const" | "var"));
        Some(Declaration {
            kind,
            name: node.child_by_field_name("name")?,
            outer: keyword.unwrap_or(node),
            head_end: head_end.map_or(node.end_byte(), |h| h.start_byte()),
        })
    }

    fn normal(&self, node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
        match node.kind() {
            // A written `;` between statements is the line break gofmt puts there.
            ";" if parent.is_some_and(|p| STATEMENT_LISTS.contains(&p.kind())) => Normal::Drop,
            "int_literal" | "float_literal" | "imaginary_literal" => {
                caseless(&source[node.byte_range()])
            }
            "parenthesized_expression"
                if redundant(&PARENS, node, parent, source, CONFIG.comments) =>
            {
                Normal::Unwrap
            }
            _ => Normal::Keep,
        }
    }

    fn implied_end(&self, _node: Node<'_>, parent: Option<Node<'_>>) -> &'static [&'static str] {
        // Every statement ends with a `;`, written or implied by its line break: without it,
        // `a\n(b)` (two statements) and `a(b)` would have the same tokens.
        if parent.is_some_and(|p| STATEMENT_LISTS.contains(&p.kind())) {
            &[";"]
        } else {
            &[]
        }
    }

    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        if node.kind() != "import_declaration" {
            return out;
        }
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "import_spec" => out.extend(import_spec(child, source)),
                "import_spec_list" => {
                    let mut inner = child.walk();
                    for spec in child.named_children(&mut inner) {
                        if spec.kind() == "import_spec" {
                            out.extend(import_spec(spec, source));
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }
}

/// A method declaration's role: a method of its receiver's type, or, when the receiver has
/// no recognisable type (malformed code), a function under its own name.
fn method<'t>(decl: Node<'t>, source: &[u8]) -> Role<'t> {
    let Some(name) = decl.child_by_field_name("name") else {
        return Role::Other;
    };
    let body = decl.child_by_field_name("body");
    match receiver_type(decl, source) {
        Some(receiver) => Role::Method {
            name,
            body,
            outer: decl,
            receiver,
        },
        None => Role::Function {
            name,
            body,
            outer: decl,
        },
    }
}

/// The `{` that opens a struct's or an interface's members.
fn open_brace(ty: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = ty.walk();
    let children: Vec<Node<'_>> = ty.children(&mut cursor).collect();
    children.into_iter().find_map(|c| {
        if c.kind() == "{" {
            Some(c)
        } else {
            c.child(0).filter(|b| b.kind() == "{")
        }
    })
}

/// The last named child that is not a comment.
fn last_named(node: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .last()
}

/// The receiver's type name, without pointer, parentheses or type arguments.
fn receiver_type(decl: Node<'_>, source: &[u8]) -> Option<String> {
    let receiver = decl.child_by_field_name("receiver")?;
    let mut cursor = receiver.walk();
    let parameter = receiver.named_children(&mut cursor).find(|c| {
        matches!(
            c.kind(),
            "parameter_declaration" | "variadic_parameter_declaration"
        )
    })?;
    let mut ty = parameter.child_by_field_name("type")?;
    loop {
        match ty.kind() {
            "pointer_type" | "parenthesized_type" => ty = last_named(ty)?,
            "generic_type" => ty = ty.child_by_field_name("type")?,
            "type_identifier" => return Some(text(ty, source).to_owned()),
            _ => return None,
        }
    }
}

/// One import spec as `path` or `path as alias`.
fn import_spec(spec: Node<'_>, source: &[u8]) -> Option<String> {
    let literal = text(spec.child_by_field_name("path")?, source);
    let path = ['"', '`'].iter().find_map(|q| {
        literal
            .strip_prefix(*q)
            .and_then(|rest| rest.strip_suffix(*q))
    })?;
    Some(match spec.child_by_field_name("name") {
        Some(alias) => format!("{path} as {}", text(alias, source)),
        None => path.to_owned(),
    })
}

/// Lists of statements or declarations, separated by `;` or line breaks.
const STATEMENT_LISTS: &[&str] = &["statement_list", "source_file", "field_declaration_list"];

/// Go's parentheses rule; gofmt removes those around an `if`, `for` or `switch` condition.
static PARENS: Parens = Parens {
    atoms: &[
        "identifier",
        "selector_expression",
        "call_expression",
        "index_expression",
        "slice_expression",
        "type_assertion_expression",
        "int_literal",
        "float_literal",
        "imaginary_literal",
        "rune_literal",
        "interpreted_string_literal",
        "raw_string_literal",
        "true",
        "false",
        "nil",
        "iota",
        "composite_literal",
    ],
    slots: &[
        "if_statement",
        "for_statement",
        "expression_switch_statement",
        "expression_list",
        "argument_list",
        "literal_element",
        "keyed_element",
    ],
    never: &[],
    not_in_slots: &[],
    unary: &["unary_expression"],
    binary: &["binary_expression"],
    precedence,
    right_assoc: &[],
};

fn precedence(operator: &[u8]) -> Option<u8> {
    Some(match operator {
        b"||" => 1,
        b"&&" => 2,
        b"==" | b"!=" | b"<" | b"<=" | b">" | b">=" => 3,
        b"+" | b"-" | b"|" | b"^" => 4,
        b"*" | b"/" | b"%" | b"<<" | b">>" | b"&" | b"&^" => 5,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::lang::analyze;

    fn names(source: &str) -> Vec<(String, &'static str)> {
        crate::lang::testing::names(Language::Go, source)
    }

    #[test]
    fn qualified_names() {
        let source = r#"package main

func Top(a int) (int, error) { return a, nil }

func (s *Server) Start() {}

func (s Server[T]) Stop() {}

func (s *Server[K, V]) Run() {
	f := func() {}
	var g = func() {}
	f(); g()
}

func (Client) Start() {}

func Generic[T any](x T) T { return x }

func asm(x int) int

func (s *(Server)) Paren() {}
"#;
        assert_eq!(
            names(source),
            vec![
                ("Top".into(), "function"),
                ("Server.Start".into(), "method"),
                ("Server.Stop".into(), "method"),
                ("Server.Run".into(), "method"),
                ("Client.Start".into(), "method"),
                ("Generic".into(), "function"),
                ("asm".into(), "function"),
                ("Server.Paren".into(), "method"),
            ]
        );
    }

    #[test]
    fn a_method_spans_its_declaration() {
        let source = "package p\n\n// Start starts.\nfunc (s *Server) Start(\n\tctx context.Context,\n) error {\n\treturn nil\n}\n";
        let analysis = analyze(Language::Go, source.as_bytes()).unwrap();
        let f = &analysis.functions[0];
        assert_eq!((f.start_line, f.end_line), (4, 8));
        assert_eq!(
            f.signature,
            "func (s *Server) Start(ctx context.Context) error"
        );
    }

    #[test]
    fn the_receiver_and_result_are_part_of_the_signature() {
        let base = analyze(
            Language::Go,
            b"package p\nfunc (s *S) M() int { return 1 }\n",
        )
        .unwrap();
        for other in [
            "package p\nfunc (s S) M() int { return 1 }\n",
            "package p\nfunc (s *S) M() int64 { return 1 }\n",
            "package p\nfunc (s *S) M(x int) int { return 1 }\n",
        ] {
            let changed = analyze(Language::Go, other.as_bytes()).unwrap();
            let (a, b) = (&base.functions[0], &changed.functions[0]);
            assert_eq!(a.body_hash, b.body_hash, "{other}");
            assert_ne!(a.signature_hash, b.signature_hash, "{other}");
        }
    }

    #[test]
    fn imports() {
        let source = "package main\n\nimport \"fmt\"\nimport (\n\tf \"fmt\"\n\t_ \"embed\"\n\t. \"strings\" // dot\n\t\"golang.org/x/sync/errgroup\"\n\traw `os`\n)\n\nfunc main() {}\n";
        let imports = analyze(Language::Go, source.as_bytes()).unwrap().imports;
        assert_eq!(
            imports,
            vec![
                "embed as _",
                "fmt",
                "fmt as f",
                "golang.org/x/sync/errgroup",
                "os as raw",
                "strings as .",
            ]
        );
    }

    #[test]
    fn comments_do_not_change_the_body() {
        crate::lang::testing::comments_only(
            Language::Go,
            b"package p\nfunc (s *S) M(x int) int {\n\treturn x + 1\n}\n",
            b"package p\nfunc (s *S) M(x int /* x */) int { // add one\n\treturn x+1 /* really */\n}\n",
        );
    }

    #[test]
    fn malformed_methods_do_not_break_the_walk() {
        for (source, expected) in [
            ("package p\nfunc (s *S) M(", vec!["S.M"]),
            ("package p\nfunc (s *S) M() {\n\tif {\n}\n", vec!["S.M"]),
            ("package p\nfunc (s *S)\nfunc f() {}\n", vec![]),
        ] {
            let analysis = analyze(Language::Go, source.as_bytes()).unwrap();
            assert!(analysis.parse_errors, "{source}");
            let found: Vec<&str> = analysis.functions.iter().map(|f| f.name.as_str()).collect();
            assert_eq!(found, expected, "{source}");
        }
        // A receiver without a type leaves the method under its own name.
        assert_eq!(
            names("package p\nfunc () M() {}\nfunc f() {}\n"),
            vec![("M".into(), "function"), ("f".into(), "function")]
        );
    }

    #[test]
    fn deeply_nested_blocks_cost_linear_time() {
        // As deep as a file may nest and still be analysed.
        let depth = crate::lang::MAX_NESTING - 2;
        let source = format!(
            "package p\nfunc (s *S) Deep() {{\n{}{}}}\nfunc (s *S) After() {{}}\n",
            "{\n".repeat(depth),
            "}\n".repeat(depth)
        );
        let started = std::time::Instant::now();
        let analysis = analyze(Language::Go, source.as_bytes()).unwrap();
        let elapsed = started.elapsed();
        let found: Vec<&str> = analysis.functions.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(found, ["S.Deep", "S.After"]);
        // Asking every block for its parent would take tens of seconds here.
        assert!(
            elapsed < std::time::Duration::from_secs(3),
            "took {elapsed:?}"
        );
    }

    #[test]
    fn formatting_gofmt_applies_is_not_a_change() {
        use crate::lang::testing::same;
        same(
            Language::Go,
            "package p\nfunc f(a, b int) int {\n\tif (a > b) { return (a) }; x := []int{1,2,\n3,\n}\n\tfor (a < b) { a++ }\n\treturn 0X1F + len(x)\n}\n",
            "package p\n\nfunc f(a, b int) int {\n\tif a > b {\n\t\treturn (a)\n\t}\n\tx := []int{1, 2,\n\t\t3,\n\t}\n\tfor a < b {\n\t\ta++\n\t}\n\treturn 0x1f + len(x)\n}\n",
        );
    }

    #[test]
    fn meaningful_edits_near_the_formatting_rules_are_changes() {
        use crate::lang::testing::differ;
        let f = |body: &str| format!("package p\n\nfunc f() {{\n\t{body}\n}}\n");
        let pairs: &[(&str, &str)] = &[
            ("x = (a + b) * c", "x = a + b*c"),
            ("x = a - (b - c)", "x = a - b - c"),
            // A line break ends a statement: two statements, not one call.
            ("a\n\t(b)", "a(b)"),
            ("g(1)", "g(2)"),
            ("x = a + b", "x = a - b"),
            ("g(a)", "g(a, b)"),
            ("a()\n\tb()", "b()\n\ta()"),
        ];
        for (a, b) in pairs {
            differ(Language::Go, &f(a), &f(b));
        }
    }

    #[test]
    fn visibility_and_declarations() {
        let source = "package p\n\nconst Version = \"1\"\nconst (\n\tA int = 1\n\tb = 2\n)\nvar Default Config\ntype Config struct {\n\tName string\n}\ntype reader interface {\n\tRead() error\n}\ntype ID = string\nfunc New() *Config { return nil }\nfunc helper() {}\nfunc (c *Config) Load() error { const local = 1; return nil }\nfunc (c *Config) reset() {}\n";
        assert_eq!(
            crate::lang::testing::interface(Language::Go, source),
            [
                "New public",
                "helper private",
                "Config.Load public",
                "Config.reset private",
                "const Version public: const Version",
                "const A public: A int",
                "const b private: b",
                "var Default public: var Default Config",
                "struct Config public: type Config struct",
                "interface reader private: type reader interface",
                "type ID public: type ID = string",
            ]
        );
    }
}
