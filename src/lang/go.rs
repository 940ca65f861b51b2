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

use super::walk::text;
use super::{Analyzer, Language, Role};

/// The Go analyzer.
pub struct Go;

impl Analyzer for Go {
    fn languages(&self) -> &'static [Language] {
        &[Language::Go]
    }

    fn grammar(&self, _language: Language) -> tree_sitter::Language {
        tree_sitter_go::LANGUAGE.into()
    }

    fn separator(&self) -> &'static str {
        "."
    }

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

    fn is_comment(&self, node: Node<'_>) -> bool {
        node.kind() == "comment"
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
            "func (s *Server) Start( ctx context.Context, ) error"
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
        let a = analyze(
            Language::Go,
            b"package p\nfunc (s *S) M(x int) int {\n\treturn x + 1\n}\n",
        )
        .unwrap();
        let b = analyze(Language::Go,
            b"package p\nfunc (s *S) M(x int /* x */) int { // add one\n\treturn x+1 /* really */\n}\n",
        )
        .unwrap();
        let (a, b) = (&a.functions[0], &b.functions[0]);
        assert_eq!(a.body_hash, b.body_hash);
        assert_eq!(a.signature_hash, b.signature_hash);
        assert_ne!(a.text_hash, b.text_hash);
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
        let depth = 20_000;
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
}
