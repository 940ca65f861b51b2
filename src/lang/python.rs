//! Python: functions, methods (`Class.method`), nested functions (`outer.inner`), decorated
//! and `async` definitions; docstrings count as comments; `import x`, `import x as y`,
//! `from x import y as z` and relative imports as canonical strings.

use tree_sitter::Node;

use super::nodes::text;
use super::normal::{caseless, named_count, only_child, quoted_value};
use super::{
    Analyzer, Declaration, Declares, Head, ImportScheme, Language, LanguageConfig, Normal, Role,
    Visibility,
};

/// The token a block ends with, written as a dedent: without it `if a:\n  b\nc` and
/// `if a:\n  b\n  c` would have the same tokens.
pub(super) const DEDENT: &str = "\u{1}dedent";

/// Expressions that bind tighter than any operator: parentheses around them never matter.
const ATOMS: &[&str] = &[
    "identifier",
    "attribute",
    "subscript",
    "call",
    "string",
    "concatenated_string",
    "integer",
    "float",
    "true",
    "false",
    "none",
    "ellipsis",
    "list",
    "dictionary",
    "set",
    "tuple",
    "list_comprehension",
    "dictionary_comprehension",
    "set_comprehension",
    "generator_expression",
];

/// Parents whose child fills a whole expression slot, where black adds or removes
/// parentheses (`return (\n  x\n)`, `for v in (\n  values\n):`, `if (a):`).
const SLOTS: &[&str] = &[
    "return_statement",
    "assignment",
    "augmented_assignment",
    "for_statement",
    "if_statement",
    "elif_clause",
    "while_statement",
    "assert_statement",
    "delete_statement",
    "keyword_argument",
    "argument_list",
    "type",
    "parenthesized_expression",
    "expression_statement",
];

/// Lists whose trailing comma makes a one-element tuple.
const TUPLES: &[&str] = &["tuple", "tuple_pattern", "expression_list", "pattern_list"];

/// Python's facts.
pub(super) static CONFIG: LanguageConfig = LanguageConfig {
    grammars: &[(Language::Python, || tree_sitter_python::LANGUAGE.into())],
    family: &[Language::Python],
    import_scheme: Some(ImportScheme::Python),
    separator: ".",
    comments: &["comment"],
    imports_as_written: true,
    normal_kinds: &[
        ";",
        "line_continuation",
        "integer",
        "float",
        "string",
        "parenthesized_expression",
        "tuple",
        "tuple_pattern",
    ],
    implied_kinds: &["block"],
    implied_parents: &["block", "module"],
    declarations: &[
        Declares::rule("class_definition", "class", Head::Field("body")),
        // A constant: `NAME = value` or `NAME: type = value`.
        Declares::hook("expression_statement"),
    ],
    wrapper_kinds: &[],
    item_containers: &[],
    analyzer: &Python,
};

/// The Python analyzer.
pub struct Python;

impl Analyzer for Python {
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

    fn visibility(
        &self,
        _outer: Node<'_>,
        _node: Node<'_>,
        name: &str,
        _source: &[u8],
    ) -> Visibility {
        // A leading underscore says internal, for a name and for what it is defined in; special
        // methods (`__eq__`) are public.
        let internal = name
            .split('.')
            .any(|part| part.starts_with('_') && !(part.len() > 4 && part.ends_with("__")));
        if internal {
            Visibility::Private
        } else {
            Visibility::Public
        }
    }

    /// A constant: `NAME = value` or `NAME: type = value` in a module or class body, the name
    /// in capitals (asked about expression statements only).
    fn declaration<'t>(&self, node: Node<'t>, source: &[u8]) -> Option<Declaration<'t>> {
        let assignment = node.named_child(0).filter(|a| a.kind() == "assignment")?;
        let name = assignment
            .child_by_field_name("left")
            .filter(|l| l.kind() == "identifier")?;
        let word = &source[name.byte_range()];
        let constant = word.len() > 1
            && word.iter().any(u8::is_ascii_uppercase)
            && word
                .iter()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_');
        if !constant {
            return None;
        }
        Some(Declaration {
            kind: "const",
            name,
            outer: node,
            head_end: assignment
                .child_by_field_name("right")
                .map_or(node.end_byte(), |r| r.start_byte()),
        })
    }

    fn normal(&self, node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
        match node.kind() {
            // Statement separators: every statement ends with one (`implied_end`).
            ";" if parent.is_some_and(|p| matches!(p.kind(), "block" | "module")) => Normal::Drop,
            "line_continuation" => Normal::Drop,
            "integer" | "float" => caseless(&source[node.byte_range()]),
            "string" => string_value(node, source),
            "parenthesized_expression" if redundant(node, parent) => Normal::Unwrap,
            // `for (a, b) in x` is `for a, b in x`; `del (a, b)` is `del a, b`.
            "tuple" | "tuple_pattern"
                if parent.is_some_and(|p| {
                    p.kind() == "delete_statement"
                        || (p.kind() == "for_statement"
                            && p.child_by_field_name("left")
                                .is_some_and(|l| l.id() == node.id()))
                }) =>
            {
                Normal::Unwrap
            }
            _ => Normal::Keep,
        }
    }

    fn comma_counts(&self, list: Node<'_>, _source: &[u8]) -> bool {
        match list.kind() {
            kind if TUPLES.contains(&kind) => named_count(list, CONFIG.comments) == 1,
            // `a[1,]` indexes with a tuple; the value is the first named child.
            "subscript" => named_count(list, CONFIG.comments) == 2,
            _ => false,
        }
    }

    fn implied_end(&self, node: Node<'_>, parent: Option<Node<'_>>) -> &'static [&'static str] {
        if node.kind() == "block" {
            &[DEDENT]
        } else if parent.is_some_and(|p| matches!(p.kind(), "block" | "module")) {
            &[";"]
        } else {
            &[]
        }
    }

    fn is_test(&self, outer: Node<'_>, node: Node<'_>, name: &str, source: &[u8]) -> bool {
        // pytest collects `test*` functions of a module, and `test*` methods only of test
        // classes (which make their methods tests as a scope): `Flask.test_request_context`
        // is the application's API, not a test.
        if name.starts_with("test") && !in_class(node) {
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

/// Whether a definition is a member of a class (directly in its body, decorated or not).
fn in_class(node: Node<'_>) -> bool {
    node.parent()
        .filter(|p| p.kind() == "block")
        .and_then(|b| b.parent())
        .is_some_and(|c| c.kind() == "class_definition")
}

/// Whether a parenthesized expression's parentheses are redundant: around an atom, or filling
/// a whole slot.
fn redundant(node: Node<'_>, parent: Option<Node<'_>>) -> bool {
    let Some(inner) = only_child(node, CONFIG.comments) else {
        return false;
    };
    // `(yield)` and `(x := 1)` need theirs in most places; leave them.
    if matches!(inner.kind(), "yield" | "named_expression") {
        return false;
    }
    ATOMS.contains(&inner.kind()) || parent.is_some_and(|p| SLOTS.contains(&p.kind()))
}

/// A string literal as its value: the prefix in lower case, without `u`, in a fixed order;
/// single or triple quotes, whichever quote character; `\'` and `\"` read as quotes, hex
/// escapes in lower case and `\N{...}` names in upper case (unless raw).
fn string_value(node: Node<'_>, source: &[u8]) -> Normal {
    let count = node.child_count();
    let (Some(start), Some(end)) = (node.child(0), node.child(count.saturating_sub(1))) else {
        return Normal::Keep;
    };
    if start.kind() != "string_start" || end.kind() != "string_end" {
        return Normal::Keep;
    }
    let opening = &source[start.byte_range()];
    let letters = opening
        .iter()
        .take_while(|b| b.is_ascii_alphabetic())
        .count();
    let mut prefix: Vec<u8> = opening[..letters]
        .iter()
        .map(u8::to_ascii_lowercase)
        .filter(|b| *b != b'u')
        .collect();
    prefix.sort_unstable();
    let raw = prefix.contains(&b'r');
    prefix.push(if opening.len() - letters == 3 {
        b'3'
    } else {
        b'1'
    });
    let body = &source[start.end_byte()..end.start_byte().max(start.end_byte())];
    if raw || !body.contains(&b'\\') {
        return Normal::As(quoted_value(&prefix, body, !raw));
    }
    Normal::As(quoted_value(&prefix, &escapes_in_one_case(body), true))
}

/// Writes hex escapes (`\xAB`, `\uABCD`, `\U0001ABCD`) in lower case and `\N{...}` names in
/// upper case, as black does: the same characters either way.
fn escapes_in_one_case(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i] != b'\\' || i + 1 >= body.len() {
            out.push(body[i]);
            i += 1;
            continue;
        }
        let kind = body[i + 1];
        out.extend_from_slice(&body[i..i + 2]);
        i += 2;
        let digits = match kind {
            b'x' => 2,
            b'u' => 4,
            b'U' => 8,
            b'N' => {
                while i < body.len() && body[i] != b'}' {
                    out.push(body[i].to_ascii_uppercase());
                    i += 1;
                }
                0
            }
            _ => 0,
        };
        for _ in 0..digits {
            if i < body.len() && body[i].is_ascii_hexdigit() {
                out.push(body[i].to_ascii_lowercase());
                i += 1;
            }
        }
    }
    out
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
        let source = "def prod(): pass\ndef test_a(): pass\n@pytest.fixture\ndef db(): pass\n@cache\ndef c(): pass\nclass TestX:\n    def helper(self): pass\nclass Case(unittest.TestCase):\n    def setUp(self): pass\nclass Plain:\n    def m(self): pass\nclass Flask:\n    @setupmethod\n    def test_request_context(self) -> RequestContext: pass\n    def test_client(self): pass\n";
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
            // A `test*` method of a class that is not a test class is its API (pytest does not
            // collect it).
            ("Flask.test_request_context", false),
            ("Flask.test_client", false),
        ]
        .iter()
        .map(|(n, t)| ((*n).to_owned(), *t))
        .collect();
        assert_eq!(tests, expected);
    }

    #[test]
    fn formatting_black_applies_is_not_a_change() {
        use crate::lang::testing::same;
        // Magic trailing commas, and wrapped calls.
        same(
            Language::Python,
            "def total(values, start):\n    return sum(values, start)\n",
            "def total(\n    values,\n    start,\n):\n    return sum(\n        values,\n        start,\n    )\n",
        );
        // Redundant parentheses, added or removed.
        same(
            Language::Python,
            "def f(values):\n    for v in values:\n        x = v + 1\n    if x:\n        return x\n    return (a.b)\n",
            "def f(values):\n    for v in (\n        values\n    ):\n        x = (\n            v + 1\n        )\n    if (x):\n        return (x)\n    return a.b\n",
        );
        same(
            Language::Python,
            "def f(p):\n    for (a, b) in p:\n        del (a, b)\n",
            "def f(p):\n    for a, b in p:\n        del a, b\n",
        );
        // String quotes, prefixes, quote escapes and hex escapes.
        same(
            Language::Python,
            "def f():\n    return ['a', u'b', 'it\\'s', \"say \\\"hi\\\"\", B'x', Rb'\\d', '\\xAB']\n",
            "def f():\n    return [\"a\", \"b\", \"it's\", 'say \"hi\"', b\"x\", bR\"\\d\", \"\\xab\"]\n",
        );
        // Numbers in any case, `;` between statements, backslash continuations.
        same(
            Language::Python,
            "def f():\n    a = 0XFF; b = 1E5\n    c = 1 + \\\n        2\n",
            "def f():\n    a = 0xff\n    b = 1e5\n    c = 1 + 2\n",
        );
    }

    #[test]
    fn meaningful_edits_near_the_formatting_rules_are_changes() {
        use crate::lang::testing::differ;
        // One-element tuples and subscripts.
        differ(
            Language::Python,
            "def f():\n    return (1,)\n",
            "def f():\n    return (1)\n",
        );
        differ(
            Language::Python,
            "def f():\n    x = 1,\n",
            "def f():\n    x = 1\n",
        );
        differ(
            Language::Python,
            "def f():\n    return a[1,]\n",
            "def f():\n    return a[1]\n",
        );
        // Parentheses that group.
        differ(
            Language::Python,
            "def f():\n    return (a + b) * c\n",
            "def f():\n    return a + b * c\n",
        );
        differ(
            Language::Python,
            "def f():\n    return (a < b) < c\n",
            "def f():\n    return a < b < c\n",
        );
        // String contents, raw strings and prefixes.
        differ(
            Language::Python,
            "def f():\n    return 'a'\n",
            "def f():\n    return 'b'\n",
        );
        differ(
            Language::Python,
            "def f():\n    return 'a b'\n",
            "def f():\n    return 'a  b'\n",
        );
        differ(
            Language::Python,
            "def f():\n    return '\\n'\n",
            "def f():\n    return r'\\n'\n",
        );
        differ(
            Language::Python,
            "def f():\n    return 'x'\n",
            "def f():\n    return b'x'\n",
        );
        differ(
            Language::Python,
            "def f():\n    return 'it\\n'\n",
            "def f():\n    return 'at\\n'\n",
        );
        // Which block a statement belongs to.
        differ(
            Language::Python,
            "def f():\n    if a:\n        b()\n    c()\n",
            "def f():\n    if a:\n        b()\n        c()\n",
        );
        // Literals, operators, arguments and order.
        differ(
            Language::Python,
            "def f():\n    g(1)\n",
            "def f():\n    g(2)\n",
        );
        differ(
            Language::Python,
            "def f():\n    a + b\n",
            "def f():\n    a - b\n",
        );
        differ(
            Language::Python,
            "def f():\n    g(a)\n",
            "def f():\n    g(a, b)\n",
        );
        differ(
            Language::Python,
            "def f():\n    a()\n    b()\n",
            "def f():\n    b()\n    a()\n",
        );
    }

    #[test]
    fn signatures_read_as_one_line() {
        let f = crate::lang::testing::functions(
            Language::Python,
            "def total(\n    values,\n    start=(1,),\n):\n    pass\n",
        );
        assert_eq!(f[0].signature, "def total(values, start=(1,))");
    }

    #[test]
    fn visibility_and_declarations() {
        let source = "MAX_SIZE = 10\n_CACHE: dict = {}\nlower = 1\nclass Client(Base):\n    RETRIES: int = 3\n    def send(self):\n        LOCAL = 1\n    def _prepare(self):\n        pass\n    def __eq__(self, other):\n        pass\nclass _Impl:\n    def run(self):\n        pass\ndef helper():\n    class Inner:\n        pass\n";
        assert_eq!(
            crate::lang::testing::interface(Language::Python, source),
            [
                "Client.send public",
                "Client._prepare private",
                "Client.__eq__ public",
                "_Impl.run private",
                "helper public",
                "const MAX_SIZE public: MAX_SIZE",
                "const _CACHE private: _CACHE: dict",
                "class Client public: class Client(Base)",
                "const Client.RETRIES public: RETRIES: int",
                "class _Impl private: class _Impl",
            ]
        );
    }
}
