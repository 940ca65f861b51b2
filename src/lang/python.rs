//! Python: functions, methods (`Class.method`), nested functions (`outer.inner`), decorated
//! and `async` definitions; docstrings count as comments; `import x`, `import x as y`,
//! `from x import y as z` and relative imports as canonical strings.

use tree_sitter::Node;

use super::walk::text;
use super::{Analyzer, ImportScheme, Language, Role};

/// The Python analyzer.
pub struct Python;

impl Analyzer for Python {
    fn languages(&self) -> &'static [Language] {
        &[Language::Python]
    }

    fn grammar(&self, _language: Language) -> tree_sitter::Language {
        tree_sitter_python::LANGUAGE.into()
    }

    fn separator(&self) -> &'static str {
        "."
    }

    fn import_scheme(&self) -> Option<ImportScheme> {
        Some(ImportScheme::Python)
    }

    fn role<'t>(&self, node: Node<'t>, source: &[u8]) -> Role<'t> {
        match node.kind() {
            // A decorated function is scoped at its decorators, so they are part of its
            // signature and its range.
            "decorated_definition" => match node.child_by_field_name("definition") {
                Some(def) if def.kind() == "function_definition" => {
                    match def.child_by_field_name("name") {
                        Some(name) => Role::Function {
                            name,
                            body: def.child_by_field_name("body"),
                            outer: node,
                        },
                        None => Role::Other,
                    }
                }
                _ => Role::Other,
            },
            "function_definition"
                if node
                    .parent()
                    .is_some_and(|p| p.kind() == "decorated_definition") =>
            {
                Role::Other
            }
            "function_definition" => match node.child_by_field_name("name") {
                Some(name) => Role::Function {
                    name,
                    body: node.child_by_field_name("body"),
                    outer: node,
                },
                None => Role::Other,
            },
            "class_definition" => match node.child_by_field_name("name") {
                Some(n) => Role::Scope {
                    name: text(n, source).to_owned(),
                    methods: true,
                },
                None => Role::Other,
            },
            _ => Role::Other,
        }
    }

    fn is_comment(&self, node: Node<'_>) -> bool {
        node.kind() == "comment"
    }

    fn is_test(&self, outer: Node<'_>, node: Node<'_>, name: &str, source: &[u8]) -> bool {
        if name.starts_with("test") {
            return true;
        }
        // A pytest fixture is test code too.
        let _ = outer;
        let decorators_end = node
            .child_by_field_name("definition")
            .map_or(node.start_byte(), |d| d.start_byte());
        source
            .get(node.start_byte()..decorators_end)
            .is_some_and(|d| d.windows(7).any(|w| w == b"fixture"))
    }

    fn is_test_scope(&self, node: Node<'_>, name: &str, source: &[u8]) -> bool {
        name.starts_with("Test")
            || node
                .child_by_field_name("superclasses")
                .is_some_and(|s| text(s, source).contains("TestCase"))
    }

    fn is_docstring(&self, node: Node<'_>, _source: &[u8]) -> bool {
        if node.kind() != "expression_statement" {
            return false;
        }
        let only_string = node.named_child_count() == 1
            && node
                .named_child(0)
                .is_some_and(|c| matches!(c.kind(), "string" | "concatenated_string"));
        if !only_string {
            return false;
        }
        // The first statement of a module, class or function body.
        let Some(parent) = node.parent() else {
            return false;
        };
        let first = parent.named_child(0).is_some_and(|c| c.id() == node.id());
        first && matches!(parent.kind(), "block" | "module")
    }

    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        let name_of = |n: Node<'_>| -> String {
            match n.kind() {
                "aliased_import" => {
                    let name = n
                        .child_by_field_name("name")
                        .map(|x| text(x, source))
                        .unwrap_or("");
                    let alias = n
                        .child_by_field_name("alias")
                        .map(|x| text(x, source))
                        .unwrap_or("");
                    format!("{name} as {alias}")
                }
                _ => text(n, source).to_owned(),
            }
        };
        match node.kind() {
            "import_statement" => {
                let mut cursor = node.walk();
                for n in node.children_by_field_name("name", &mut cursor) {
                    out.push(name_of(n));
                }
            }
            "import_from_statement" | "future_import_statement" => {
                let module = match node.kind() {
                    "future_import_statement" => "__future__".to_owned(),
                    _ => node
                        .child_by_field_name("module_name")
                        .map(|m| text(m, source).to_owned())
                        .unwrap_or_default(),
                };
                let join = |name: &str| {
                    if module.ends_with('.') {
                        format!("{module}{name}")
                    } else {
                        format!("{module}.{name}")
                    }
                };
                let mut cursor = node.walk();
                let names: Vec<Node<'_>> =
                    node.children_by_field_name("name", &mut cursor).collect();
                for n in names {
                    out.push(join(&name_of(n)));
                }
                let mut cursor = node.walk();
                if node
                    .children(&mut cursor)
                    .any(|c| c.kind() == "wildcard_import")
                {
                    out.push(join("*"));
                }
            }
            _ => {}
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::lang::analyze;

    fn names(source: &str) -> Vec<(String, &'static str)> {
        crate::lang::testing::names(Language::Python, source)
    }

    #[test]
    fn qualified_names() {
        let source = r#"
def top():
    def inner():
        def innermost():
            pass
    return inner

class Greeter:
    @staticmethod
    def make():
        return Greeter()

    async def hello(self):
        pass

    class Nested:
        def deep(self):
            pass

@decorator(arg=1)
async def fetch():
    pass
"#;
        assert_eq!(
            names(source),
            vec![
                ("top".into(), "function"),
                ("top.inner".into(), "function"),
                ("top.inner.innermost".into(), "function"),
                ("Greeter.make".into(), "method"),
                ("Greeter.hello".into(), "method"),
                ("Greeter.Nested.deep".into(), "method"),
                ("fetch".into(), "function"),
            ]
        );
    }

    #[test]
    fn imports() {
        let source = "import os\nimport a.b as c, d\nfrom x import y as z, w\nfrom . import sibling\nfrom ..pkg.mod import thing\nfrom m import *\nfrom __future__ import annotations\n";
        let imports = analyze(Language::Python, source.as_bytes())
            .unwrap()
            .imports;
        assert_eq!(
            imports,
            vec![
                "..pkg.mod.thing",
                ".sibling",
                "__future__.annotations",
                "a.b as c",
                "d",
                "m.*",
                "os",
                "x.w",
                "x.y as z",
            ]
        );
    }

    #[test]
    fn docstrings_and_comments_are_not_code() {
        let a = analyze(Language::Python, b"def f(x):\n    return x + 1\n").unwrap();
        let b = analyze(
            Language::Python,
            b"def f(x):\n    \"\"\"Add one.\"\"\"\n    # really\n    return x+1\n",
        )
        .unwrap();
        assert_eq!(a.functions[0].body_hash, b.functions[0].body_hash);
        assert_ne!(a.functions[0].text_hash, b.functions[0].text_hash);
    }

    #[test]
    fn decorators_are_part_of_the_signature() {
        let a = analyze(Language::Python, b"def f():\n    pass\n").unwrap();
        let b = analyze(Language::Python, b"@cache\ndef f():\n    pass\n").unwrap();
        assert_eq!(a.functions[0].body_hash, b.functions[0].body_hash);
        assert_ne!(a.functions[0].signature_hash, b.functions[0].signature_hash);
        assert_eq!(b.functions[0].signature, "@cache def f()");
    }

    #[test]
    fn tests_are_marked() {
        let source = "def prod(): pass\ndef test_a(): pass\n@pytest.fixture\ndef db(): pass\n@cache\ndef c(): pass\nclass TestX:\n    def helper(self): pass\nclass Case(unittest.TestCase):\n    def setUp(self): pass\nclass Plain:\n    def m(self): pass\n";
        let tests: Vec<(String, bool)> = analyze(Language::Python, source.as_bytes())
            .unwrap()
            .functions
            .into_iter()
            .map(|f| (f.name, f.test))
            .collect();
        let expected: Vec<(String, bool)> = [
            ("prod", false),
            ("test_a", true),
            ("db", true),
            ("c", false),
            ("TestX.helper", true),
            ("Case.setUp", true),
            ("Plain.m", false),
        ]
        .iter()
        .map(|(n, t)| ((*n).to_owned(), *t))
        .collect();
        assert_eq!(tests, expected);
    }
}
