//! PHP: functions (`helper`), methods and constructors qualified by their class, interface,
//! trait or enum (`Route::__construct`, `Route::run`); an anonymous class is PHP's
//! `class@anonymous`; a function declared inside a function is `outer::inner`. Namespaces do
//! not qualify names (the issue's `Class::method`). Closures (`function () use ($x) {}`) and
//! arrow functions (`fn($x) => ...`) are not functions: their code belongs to the function
//! around them. Abstract and interface methods are body-less methods. Attributes (`#[Route]`)
//! and modifiers are part of the signature; doc blocks are comments.
//!
//! Imports: `use Slim\Routing\Route;` is `Slim\Routing\Route`, `use A\B as C;` is `A\B as C`,
//! `use function A\f;` is `function A\f`, `use const A\X;` is `const A\X`, and a group
//! `use A\{B, C as D};` is `A\B`, `A\C as D`; no leading backslash.
//!
//! Interface (ADR 18): a method is public unless `private` (`protected` counts public: a
//! subclass elsewhere can call it; no modifier is public, as in PHP); one marked
//! `#[\Override]` implements a parent's. Classes, interfaces, traits, enums and constants
//! (`const` in a class or at the top level, `private const` private) are declarations.
//!
//! What formatters write either way (ADR 9): single or double quotes of a string without
//! variables or escapes but a quote or backslash, redundant parentheses, `()` after
//! `new Foo`, the case of `true`, `false`, `null` and of number prefixes, trailing commas.

use tree_sitter::Node;

use super::nodes::{modifier_words, text};
use super::normal::{Parens, caseless, quoted_value, redundant};
use super::{
    Analyzer, CallSite, Declaration, Declares, Head, ImportScheme, Language, LanguageConfig,
    Normal, Role, Visibility, calls,
};

/// PHP's facts.
pub(super) static CONFIG: LanguageConfig = LanguageConfig {
    grammars: &[(Language::Php, || tree_sitter_php::LANGUAGE_PHP.into())],
    family: &[Language::Php],
    import_scheme: Some(ImportScheme::Php),
    separator: "::",
    comments: &["comment"],
    imports_as_written: true,
    normal_kinds: &[
        "string",
        "encapsed_string",
        "integer",
        "float",
        "boolean",
        "null",
        "arguments",
        "parenthesized_expression",
    ],
    implied_kinds: &[],
    implied_parents: &[],
    declarations: &[
        Declares::rule("class_declaration", "class", Head::Field("body")),
        Declares::rule("interface_declaration", "interface", Head::Field("body")),
        Declares::rule("trait_declaration", "trait", Head::Field("body")),
        Declares::rule("enum_declaration", "enum", Head::Field("body")),
        Declares::hook("const_declaration"),
    ],
    wrapper_kinds: &[],
    item_containers: &[],
    analyzer: &Php,
};

/// The PHP analyzer.
pub struct Php;

impl Analyzer for Php {
    fn visibility(
        &self,
        _outer: Node<'_>,
        node: Node<'_>,
        _name: &str,
        source: &[u8],
    ) -> Visibility {
        let words = modifier_words(node, &["visibility_modifier"], source);
        if words.contains(&"private") {
            return Visibility::Private;
        }
        let overrides = node.child_by_field_name("attributes").is_some_and(|a| {
            text(a, source)
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| w == "Override")
        });
        if overrides {
            Visibility::Implementation
        } else {
            Visibility::Public
        }
    }

    fn role<'t>(&self, node: Node<'t>, source: &[u8]) -> Role<'t> {
        match node.kind() {
            "function_definition" | "method_declaration" => {
                match node.child_by_field_name("name") {
                    Some(name) => Role::Function {
                        name,
                        body: node.child_by_field_name("body"),
                        outer: node,
                    },
                    None => Role::Other,
                }
            }
            "class_declaration"
            | "interface_declaration"
            | "trait_declaration"
            | "enum_declaration" => match node.child_by_field_name("name") {
                Some(name) => Role::Scope {
                    name: text(name, source).to_owned(),
                    methods: true,
                },
                None => Role::Other,
            },
            "anonymous_class" => Role::Scope {
                name: "class@anonymous".to_owned(),
                methods: true,
            },
            _ => Role::Other,
        }
    }

    fn is_test(&self, _outer: Node<'_>, node: Node<'_>, name: &str, _source: &[u8]) -> bool {
        // PHPUnit runs `test*` methods of test classes (a scope that makes its methods
        // tests); a `test*` method of any other class is that class's API.
        name.starts_with("test") && node.kind() == "function_definition"
    }

    fn is_test_scope(&self, node: Node<'_>, name: &str, source: &[u8]) -> bool {
        let mut cursor = node.walk();
        let extends_test_case = node
            .children(&mut cursor)
            .any(|c| c.kind() == "base_clause" && text(c, source).contains("TestCase"));
        name.ends_with("Test") || name.ends_with("TestCase") || extends_test_case
    }

    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String> {
        if node.kind() != "namespace_use_declaration" {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut kind = None;
        let mut prefix = String::new();
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            match child.kind() {
                "function" | "const" => kind = Some(child.kind()),
                "namespace_name" => prefix = name_of(child, source),
                "namespace_use_clause" => out.extend(clause(child, kind, "", source)),
                "namespace_use_group" => {
                    let mut inner = child.walk();
                    for c in child.named_children(&mut inner) {
                        if c.kind() == "namespace_use_clause" {
                            out.extend(clause(c, kind, &prefix, source));
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    fn call(&self, node: Node<'_>, source: &[u8]) -> Option<CallSite> {
        match node.kind() {
            "function_call_expression" => {
                let function = node.child_by_field_name("function")?;
                match function.kind() {
                    "name" => calls::site(text(function, source), "", false),
                    "qualified_name" => {
                        let name = function.child_by_field_name("name").or_else(|| {
                            let mut cursor = function.walk();
                            function
                                .named_children(&mut cursor)
                                .filter(|c| c.kind() == "name")
                                .last()
                        })?;
                        let before = &source[function.start_byte()..name.start_byte()];
                        let qualifier = std::str::from_utf8(before).ok()?;
                        let qualifier = qualifier.trim_start_matches('\\').trim_end_matches('\\');
                        calls::site(text(name, source), qualifier, false)
                    }
                    _ => None,
                }
            }
            "member_call_expression" | "nullsafe_member_call_expression" => {
                let name = node.child_by_field_name("name")?;
                let object = node.child_by_field_name("object")?;
                calls::site(text(name, source), text(object, source), true)
            }
            "scoped_call_expression" => {
                let name = node.child_by_field_name("name")?;
                let scope = node.child_by_field_name("scope")?;
                let scope = text(scope, source).trim_start_matches('\\');
                calls::site(text(name, source), scope, false)
            }
            _ => None,
        }
    }

    /// `const A = 1, B = 2;`: the first constant names the declaration (asked about `const`
    /// declarations only).
    fn declaration<'t>(&self, node: Node<'t>, _source: &[u8]) -> Option<Declaration<'t>> {
        let element = node
            .named_children(&mut node.walk())
            .find(|c| c.kind() == "const_element")?;
        let mut cursor = element.walk();
        let mut parts = element.named_children(&mut cursor);
        let name = parts.find(|c| c.kind() == "name")?;
        let value = parts.next();
        Some(Declaration {
            kind: "const",
            name,
            outer: node,
            head_end: value.map_or(node.end_byte(), |v| v.start_byte()),
        })
    }

    fn normal(&self, node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
        match node.kind() {
            "string" | "encapsed_string" => string_value(node, source),
            "integer" | "float" => caseless(&source[node.byte_range()]),
            "boolean" | "null" => caseless(&source[node.byte_range()]),
            // `new Foo` is `new Foo()`.
            "arguments"
                if node.named_child_count() == 0
                    && parent.is_some_and(|p| p.kind() == "object_creation_expression") =>
            {
                Normal::Unwrap
            }
            "parenthesized_expression"
                if redundant(&PARENS, node, parent, source, CONFIG.comments) =>
            {
                Normal::Unwrap
            }
            _ => Normal::Keep,
        }
    }
}

/// A namespace name's segments joined with `\`, without a leading one.
fn name_of(node: Node<'_>, source: &[u8]) -> String {
    text(node, source)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .trim_start_matches('\\')
        .to_owned()
}

/// One `use` clause as its canonical string.
fn clause(node: Node<'_>, kind: Option<&str>, prefix: &str, source: &[u8]) -> Option<String> {
    let mut kind = kind;
    let mut path = None;
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        match child.kind() {
            "function" | "const" => kind = Some(child.kind()),
            "qualified_name" | "name" | "namespace_name" if path.is_none() => {
                path = Some(name_of(child, source));
            }
            _ => {}
        }
    }
    let path = path?;
    let mut out = String::new();
    if let Some(k) = kind {
        out.push_str(k);
        out.push(' ');
    }
    if !prefix.is_empty() {
        out.push_str(prefix);
        out.push('\\');
    }
    out.push_str(&path);
    if let Some(alias) = node.child_by_field_name("alias") {
        out.push_str(" as ");
        out.push_str(text(alias, source));
    }
    Some(out)
}

/// A string counts by its value when it is written the same in single and double quotes: no
/// variables, and no escapes but `\\` and the quote's own.
fn string_value(node: Node<'_>, source: &[u8]) -> Normal {
    let _ = node.kind();
    let raw = &source[node.byte_range()];
    let (single, body) = match raw {
        [b'\'', body @ .., b'\''] => (true, body),
        [b'"', body @ .., b'"'] => (false, body),
        _ => return Normal::Keep,
    };
    let mut value = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        let b = body[i];
        if b == b'\\' && i + 1 < body.len() {
            let next = body[i + 1];
            let escapes = if single {
                matches!(next, b'\\' | b'\'')
            } else {
                matches!(next, b'\\' | b'"' | b'$')
            };
            if escapes {
                value.push(next);
                i += 2;
                continue;
            }
            if !single {
                // `\n`, `\x41`...: no single-quoted spelling.
                return Normal::Keep;
            }
        }
        if !single && (b == b'$' || b == b'{') {
            return Normal::Keep;
        }
        value.push(b);
        i += 1;
    }
    Normal::As(quoted_value(b"php-string", &value, false))
}

/// PHP's parentheses rule: around an atom or filling a whole slot they never matter.
static PARENS: Parens = Parens {
    atoms: &[
        "variable_name",
        "name",
        "qualified_name",
        "member_access_expression",
        "nullsafe_member_access_expression",
        "scoped_property_access_expression",
        "class_constant_access_expression",
        "subscript_expression",
        "function_call_expression",
        "member_call_expression",
        "nullsafe_member_call_expression",
        "scoped_call_expression",
        "integer",
        "float",
        "string",
        "encapsed_string",
        "boolean",
        "null",
        "array_creation_expression",
    ],
    slots: &[
        "return_statement",
        "argument",
        "echo_statement",
        "expression_statement",
        "array_element_initializer",
    ],
    never: &[],
    not_in_slots: &[],
    unary: &["unary_op_expression"],
    binary: &["binary_expression"],
    precedence,
    right_assoc: &[b"**", b"??"],
};

fn precedence(operator: &[u8]) -> Option<u8> {
    Some(match operator {
        b"or" => 1,
        b"xor" => 2,
        b"and" => 3,
        b"??" => 5,
        b"||" => 6,
        b"&&" => 7,
        b"|" => 8,
        b"^" => 9,
        b"&" => 10,
        b"==" | b"!=" | b"===" | b"!==" | b"<>" | b"<=>" => 11,
        b"<" | b"<=" | b">" | b">=" => 12,
        b"." => 13,
        b"<<" | b">>" => 14,
        b"+" | b"-" => 15,
        b"*" | b"/" | b"%" => 16,
        b"instanceof" => 18,
        b"**" => 19,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::lang::analyze;
    use crate::lang::testing::{differ, names, same};

    #[test]
    fn qualified_names() {
        let source = r#"<?php
namespace Slim\Routing;
function top(int $a = 1, ...$rest): ?int { return $a; }
abstract class Route extends Base implements RouteInterface {
    public function __construct(private int $x) {}
    public static function create(): static { return new static(1); }
    abstract protected function abs(): void;
    public function __get($name) { return $this->$name; }
    public function run() {
        $f = function ($x) use ($y) { return $x; };
        $g = fn($x) => $x * 2;
        $o = new class { public function m() {} };
        function nested() {}
    }
}
interface I { public function i(); }
trait T { function t() {} }
enum E: string { case A = 'a'; public function label(): string { return 'x'; } }
"#;
        assert_eq!(
            names(Language::Php, source),
            vec![
                ("top".into(), "function"),
                ("Route::__construct".into(), "method"),
                ("Route::create".into(), "method"),
                ("Route::abs".into(), "method"),
                ("Route::__get".into(), "method"),
                ("Route::run".into(), "method"),
                ("Route::run::class@anonymous::m".into(), "method"),
                ("Route::run::nested".into(), "function"),
                ("I::i".into(), "method"),
                ("T::t".into(), "method"),
                ("E::label".into(), "method"),
            ]
        );
    }

    #[test]
    fn imports() {
        let source = "<?php\nuse Slim\\Interfaces\\RouteInterface;\nuse Foo\\{A, B as C};\nuse function Foo\\bar;\nuse const Foo\\X;\nuse \\Psr\\Log as L;\n";
        assert_eq!(
            analyze(Language::Php, source.as_bytes()).unwrap().imports,
            vec![
                "Foo\\A",
                "Foo\\B as C",
                "Psr\\Log as L",
                "Slim\\Interfaces\\RouteInterface",
                "const Foo\\X",
                "function Foo\\bar",
            ]
        );
    }

    #[test]
    fn doc_blocks_and_comments_do_not_count() {
        same(
            Language::Php,
            "<?php\nclass A {\n    public function f($x) {\n        return $x + 1;\n    }\n}\n",
            "<?php\nclass A {\n    /**\n     * Adds one.\n     */\n    public function f($x /* x */) {\n        // really\n        return $x + 1; # yes\n    }\n}\n",
        );
    }

    #[test]
    fn signatures_are_one_line() {
        let source = "<?php\nclass A {\n    #[Pure]\n    public static function f(\n        int $a,\n        string $b,\n    ): int {\n        return 1;\n    }\n}\n";
        let f = &analyze(Language::Php, source.as_bytes()).unwrap().functions[0];
        assert_eq!(
            f.signature,
            "#[Pure] public static function f(int $a, string $b): int"
        );
        assert_eq!((f.start_line, f.end_line), (3, 9));
    }

    #[test]
    fn formatting_prettier_applies_is_not_a_change() {
        same(
            Language::Php,
            "<?php\nfunction f($a) {\n    $x = new Foo;\n    g('a', \"it's\", 'a\\'b', TRUE, 0XFF, ($a), [1, 2,]);\n    return ($a + 1);\n}\n",
            "<?php\nfunction f($a)\n{\n    $x = new Foo();\n    g(\n        \"a\",\n        \"it's\",\n        \"a'b\",\n        true,\n        0xff,\n        $a,\n        [1, 2],\n    );\n    return $a + 1;\n}\n",
        );
    }

    #[test]
    fn meaningful_edits_near_the_formatting_rules_are_changes() {
        let f = |body: &str| format!("<?php\nfunction f($a, $b) {{\n    {body}\n}}\n");
        let pairs: &[(&str, &str)] = &[
            ("return '$a';", "return \"$a\";"),
            ("return '\\n';", "return \"\\n\";"),
            ("return ($a + $b) * 2;", "return $a + $b * 2;"),
            ("return $a - ($b - 1);", "return $a - $b - 1;"),
            ("g($a);", "g($a, $b);"),
            ("return new Foo($a);", "return new Foo();"),
        ];
        for (a, b) in pairs {
            differ(Language::Php, &f(a), &f(b));
        }
    }

    #[test]
    fn visibility_and_declarations() {
        let source = r#"<?php
namespace App;
const VERSION = "1";
function helper() {}
interface Store { public function put($k); }
trait Greets { protected function greet() {} }
enum Suit { case Hearts; }
final class Client extends Base implements Store {
    public const MAX = 3;
    private const NAME = "x";
    function open() {}
    protected function send() {}
    private function pack() { function inner() {} }
    #[\Override]
    public function put($k) {}
}
"#;
        assert_eq!(
            crate::lang::testing::interface(Language::Php, source),
            [
                "helper public",
                "Store::put public",
                "Greets::greet public",
                "Client::open public",
                "Client::send public",
                "Client::pack private",
                "Client::pack::inner private",
                "Client::put implementation",
                "const VERSION public: const VERSION",
                "interface Store public: interface Store",
                "trait Greets public: trait Greets",
                "enum Suit public: enum Suit",
                "class Client public: final class Client extends Base implements Store",
                "const Client::MAX public: public const MAX",
                "const Client::NAME private: private const NAME",
            ]
        );
    }

    #[test]
    fn tests_are_the_test_methods_of_test_classes() {
        let source = "<?php\nfunction testHelper() {}\nclass Connection {\n    public function testConnection() {}\n}\nclass RouteTest extends TestCase {\n    public function testRun() {}\n}\nclass Checks extends \\PHPUnit\\Framework\\TestCase {\n    public function testA() {}\n    private function build() {}\n}\n";
        let tests: Vec<String> = crate::lang::testing::interface(Language::Php, source)
            .into_iter()
            .filter(|l| !l.starts_with("class "))
            .collect();
        assert_eq!(
            tests,
            [
                "testHelper public test",
                // A `test*` method of a class that is not a test class is the class's API.
                "Connection::testConnection public",
                "RouteTest::testRun public test",
                "Checks::testA public test",
                "Checks::build private test",
            ]
        );
    }
}
