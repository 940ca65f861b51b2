//! Scala: methods and functions (`def`, abstract ones included), auxiliary constructors
//! (`Foo.this`) and nested functions, qualified by their enclosing classes, traits, objects,
//! enums and package objects (`Obj.Companion.f`, a class and its companion object both named
//! `Foo`). A Scala 3 extension is a scope named by the type it extends (`String.shout`), and an
//! anonymous class by the type it instantiates. Lambdas and `val`s holding them are not
//! functions. Annotations and modifiers are part of the signature; Scaladoc comments are
//! comments.
//!
//! Interface (ADR 18): everything is public unless `private`, qualified or not (`private[pkg]`
//! and `private[this]` are private too); `protected` counts public (a subclass elsewhere can
//! call it), as in Java and Kotlin; an `override` implements a member declared elsewhere.
//! Classes (`case class` too), traits, objects, enums, type aliases and type members, and
//! `val`s of an object, a package object or a package (Scala's constants: what Java calls
//! `static final`) are declarations; a type caps what it holds.
//!
//! Imports: one string per imported name: `import a.b.C` is `a.b.C`, `import a.b.{C, D => E}`
//! is `a.b.C` and `a.b.D as E`, a wildcard (`_` or `*`) is `a.b._`.
//!
//! What Scala's formatter (scalafmt, which does not install from the registries this project
//! uses: ADR 9 states these rules, tested here) may write either way: trailing commas; optional
//! semicolons (each statement ends with one, written or not); braces around a method body that
//! is one expression (`def f = { x }` is `def f = x`, scalafmt's `RedundantBraces`); redundant
//! parentheses (around an atom, filling a whole slot, doubled, or implied by precedence,
//! `RedundantParens`); the letter case of numbers.

use tree_sitter::Node;

use super::nodes::{child_of_kind, modifier_words, simple_type, text};
use super::normal::{Parens, caseless, named_count, only_child, redundant};
use super::{
    Analyzer, Declaration, Declares, Head, Language, LanguageConfig, Normal, Role, Visibility,
};

/// Scala's facts.
pub(super) static CONFIG: LanguageConfig = LanguageConfig {
    grammars: &[(Language::Scala, || tree_sitter_scala::LANGUAGE.into())],
    family: &[Language::Scala],
    import_scheme: None,
    separator: ".",
    comments: &["comment", "block_comment"],
    imports_as_written: true,
    normal_kinds: &[
        "integer_literal",
        "floating_point_literal",
        ";",
        "parenthesized_expression",
        "block",
    ],
    implied_kinds: &[],
    implied_parents: STATEMENT_LISTS,
    declarations: &[
        // A class or object, `case` or not.
        Declares::hook("class_definition"),
        Declares::hook("object_definition"),
        Declares::rule("trait_definition", "trait", Head::Field("body")),
        Declares::rule("enum_definition", "enum", Head::Field("body")),
        Declares::rule("type_definition", "type", Head::Child(&["="])),
        // A `val` of an object, a package object or a package.
        Declares::hook("val_definition"),
    ],
    wrapper_kinds: &[],
    item_containers: &[],
    analyzer: &Scala,
};

/// The Scala analyzer.
pub struct Scala;

/// Nodes whose children are statements (each ends with an implied `;`).
const STATEMENT_LISTS: &[&str] = &["compilation_unit", "block", "template_body"];

impl Analyzer for Scala {
    fn visibility(
        &self,
        _outer: Node<'_>,
        node: Node<'_>,
        _name: &str,
        source: &[u8],
    ) -> Visibility {
        let words = modifier_words(node, &["modifiers"], source);
        if words.contains(&"private") {
            Visibility::Private
        } else if words.contains(&"override") {
            Visibility::Implementation
        } else {
            Visibility::Public
        }
    }

    fn role<'t>(&self, node: Node<'t>, source: &[u8]) -> Role<'t> {
        let scope = |name: String| Role::Scope {
            name,
            methods: true,
        };
        match node.kind() {
            "function_definition" | "function_declaration" => {
                match node.child_by_field_name("name") {
                    Some(name) => Role::Function {
                        name,
                        body: node.child_by_field_name("body"),
                        outer: node,
                    },
                    None => Role::Other,
                }
            }
            "class_definition" | "object_definition" | "trait_definition" | "enum_definition"
            | "package_object" => match node.child_by_field_name("name") {
                Some(name) => scope(text(name, source).to_owned()),
                None => Role::Other,
            },
            // `extension (s: String) def shout = ...`
            "extension_definition" => {
                let ty = node
                    .child_by_field_name("parameters")
                    .and_then(|p| p.named_child(0))
                    .and_then(|p| p.child_by_field_name("type"));
                match ty {
                    Some(ty) => scope(simple_type(text(ty, source), '[')),
                    None => Role::Other,
                }
            }
            // `new Runnable { def run() = ... }`
            "instance_expression" if child_of_kind(node, "template_body").is_some() => {
                let ty = node
                    .named_children(&mut node.walk())
                    .find(|c| c.kind() != "template_body" && c.kind() != "arguments");
                match ty {
                    Some(ty) => scope(simple_type(text(ty, source), '[')),
                    None => Role::Other,
                }
            }
            _ => Role::Other,
        }
    }

    /// A class or an object (`case` or not), and a `val` of an object, a package object or a
    /// package bound to one name (asked about those only).
    fn declaration<'t>(&self, node: Node<'t>, _source: &[u8]) -> Option<Declaration<'t>> {
        let case = child_of_kind(node, "case").is_some();
        let kind = match node.kind() {
            "class_definition" if case => "case class",
            "class_definition" => "class",
            "object_definition" if case => "case object",
            "object_definition" => "object",
            "val_definition" => return val(node),
            _ => return None,
        };
        Some(Declaration {
            kind,
            name: node.child_by_field_name("name")?,
            outer: node,
            head_end: body_start(node),
        })
    }

    fn normal(&self, node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
        let parent_kind = parent.map_or("", |p| p.kind());
        match node.kind() {
            "integer_literal" | "floating_point_literal" => caseless(&source[node.byte_range()]),
            ";" if STATEMENT_LISTS.contains(&parent_kind) => Normal::Drop,
            "parenthesized_expression"
                if redundant(&PARENS, node, parent, source, CONFIG.comments) =>
            {
                Normal::Unwrap
            }
            // `def f = { x }` is `def f = x`.
            "block" if parent_kind == "function_definition" && one_expression(node) => {
                Normal::Unwrap
            }
            _ => Normal::Keep,
        }
    }

    fn implied_end(&self, node: Node<'_>, parent: Option<Node<'_>>) -> &'static [&'static str] {
        let Some(parent) = parent.filter(|p| STATEMENT_LISTS.contains(&p.kind())) else {
            return &[];
        };
        // A block holding one expression reads as that expression, which has no statement end
        // to imply.
        if !node.is_named()
            || CONFIG.is_comment(node)
            || (parent.kind() == "block" && one_expression(parent))
        {
            return &[];
        }
        &[";"]
    }

    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String> {
        if node.kind() != "import_declaration" {
            return Vec::new();
        }
        let mut prefix: Vec<&str> = Vec::new();
        let mut out = Vec::new();
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            match child.kind() {
                "identifier" => prefix.push(text(child, source)),
                "namespace_wildcard" => out.push(format!("{}._", prefix.join("."))),
                "namespace_selectors" => {
                    let mut inner = child.walk();
                    for selector in child.named_children(&mut inner) {
                        let base = prefix.join(".");
                        match selector.kind() {
                            "identifier" => out.push(format!("{base}.{}", text(selector, source))),
                            "namespace_wildcard" => out.push(format!("{base}._")),
                            "arrow_renamed_identifier" | "as_renamed_identifier" => {
                                let (Some(name), Some(alias)) = (
                                    selector.child_by_field_name("name"),
                                    selector.child_by_field_name("alias"),
                                ) else {
                                    continue;
                                };
                                out.push(format!(
                                    "{base}.{} as {}",
                                    text(name, source),
                                    text(alias, source)
                                ));
                            }
                            _ => {}
                        }
                    }
                }
                "as_renamed_identifier" | "arrow_renamed_identifier" => {
                    if let (Some(name), Some(alias)) = (
                        child.child_by_field_name("name"),
                        child.child_by_field_name("alias"),
                    ) {
                        let mut path = prefix.clone();
                        path.push(text(name, source));
                        out.push(format!("{} as {}", path.join("."), text(alias, source)));
                    }
                }
                _ => {}
            }
        }
        if out.is_empty() && !prefix.is_empty() {
            out.push(prefix.join("."));
        }
        out
    }
}

/// A `val` of an object, a package object or a package, bound to one name.
fn val(node: Node<'_>) -> Option<Declaration<'_>> {
    let placed = node.parent().is_some_and(|p| {
        p.kind() == "compilation_unit"
            || (p.kind() == "template_body"
                && p.parent().is_some_and(|o| {
                    matches!(
                        o.kind(),
                        "object_definition" | "package_object" | "package_clause"
                    )
                }))
    });
    let name = node
        .child_by_field_name("pattern")
        .filter(|p| p.kind() == "identifier")?;
    if !placed {
        return None;
    }
    let value = node
        .child_by_field_name("value")
        .map_or(node.end_byte(), |v| v.start_byte());
    Some(Declaration {
        kind: "val",
        name,
        outer: node,
        head_end: value,
    })
}

/// Where a definition's body starts (its end when it has none).
fn body_start(node: Node<'_>) -> usize {
    node.child_by_field_name("body")
        .map_or(node.end_byte(), |b| b.start_byte())
}

/// Whether a block holds one expression (not a definition or an import).
fn one_expression(block: Node<'_>) -> bool {
    block.child(0).is_some_and(|c| c.kind() == "{")
        && named_count(block, CONFIG.comments) == 1
        && only_child(block, CONFIG.comments).is_some_and(|c| {
            !c.kind().ends_with("_definition")
                && !c.kind().ends_with("_declaration")
                && c.kind() != "lambda_expression"
                && c.kind() != "case_clause"
        })
}

/// Scala's parentheses rule: atoms, whole slots, doubled, or implied by precedence (which
/// Scala gives an operator by its first character).
static PARENS: Parens = Parens {
    atoms: &[
        "identifier",
        "field_expression",
        "call_expression",
        "generic_function",
        "integer_literal",
        "floating_point_literal",
        "string",
        "interpolated_string_expression",
        "character_literal",
        "boolean_literal",
        "null_literal",
        "unit",
        "tuple_expression",
        "instance_expression",
        "block",
    ],
    slots: &[
        "val_definition",
        "var_definition",
        "function_definition",
        "arguments",
        "assignment_expression",
        "return_expression",
    ],
    never: &[],
    not_in_slots: &["lambda_expression"],
    unary: &["prefix_expression"],
    binary: &["infix_expression"],
    precedence,
    right_assoc: &[b"::", b"+:", b":::", b"#::", b"/:"],
};

fn precedence(operator: &[u8]) -> Option<u8> {
    let first = *operator.first()?;
    // `+=` and the like are assignments, below every operator.
    if operator.len() > 1
        && operator.ends_with(b"=")
        && !matches!(operator, b"<=" | b">=" | b"!=" | b"==" | b"===" | b"=!=")
    {
        return None;
    }
    Some(match first {
        b'a'..=b'z' | b'A'..=b'Z' | b'_' => 1,
        b'|' => 2,
        b'^' => 3,
        b'&' => 4,
        b'=' | b'!' => 5,
        b'<' | b'>' => 6,
        b':' => 7,
        b'+' | b'-' => 8,
        b'*' | b'/' | b'%' => 9,
        _ => 10,
    })
}

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::lang::analyze;
    use crate::lang::testing::{differ, names, same};

    #[test]
    fn qualified_names() {
        let source = r#"package scopt

/** doc */
object Outer {
  def f(a: Int, b: Int): Int = a + b
  def f(a: String): Int = 1
  def g(x: Int) = {
    def inner(y: Int) = y
    val l = (z: Int) => z + 1
    inner(x) + l(x)
  }
  object Companion {
    def h(): Unit = ()
  }
  implicit class Rich(val s: String) extends AnyVal {
    def twice: String = s + s
  }
  def unary_! : Boolean = true
  def +(o: Int): Int = o
}

class Foo[A](x: Int) extends Bar with Baz {
  def this(s: String) = this(1)
  val v = 1
  def abs: Int
  override def toString(): String = "Foo"
  val r = new Runnable {
    def run(): Unit = ()
  }
}

object Foo {
  def apply(x: Int): Foo = new Foo(x)
  extension (s: String) def shout: String = s.toUpperCase
}

trait T {
  def t(): Unit
}

enum Color {
  case Red
  def f = 1
}

def top(x: Int): Int = x
"#;
        assert_eq!(
            names(Language::Scala, source),
            vec![
                ("Outer.f".into(), "method"),
                ("Outer.f".into(), "method"),
                ("Outer.g".into(), "method"),
                ("Outer.g.inner".into(), "function"),
                ("Outer.Companion.h".into(), "method"),
                ("Outer.Rich.twice".into(), "method"),
                ("Outer.unary_!".into(), "method"),
                ("Outer.+".into(), "method"),
                ("Foo.this".into(), "method"),
                ("Foo.abs".into(), "method"),
                ("Foo.toString".into(), "method"),
                ("Foo.Runnable.run".into(), "method"),
                ("Foo.apply".into(), "method"),
                ("Foo.String.shout".into(), "method"),
                ("T.t".into(), "method"),
                ("Color.f".into(), "method"),
                ("top".into(), "function"),
            ]
        );
    }

    #[test]
    fn imports_and_calls() {
        let source = "package p\n\nimport scala.collection.mutable\nimport java.util.{Locale, Date => JDate}\nimport foo._\nimport bar.*\n\nobject O {\n  def f() = {\n    g()\n    a.b(1)\n    c.d.e[Int](2)\n  }\n}\n";
        let analysis = analyze(Language::Scala, source.as_bytes()).unwrap();
        assert_eq!(
            analysis.imports,
            vec![
                "bar._",
                "foo._",
                "java.util.Date as JDate",
                "java.util.Locale",
                "scala.collection.mutable"
            ]
        );
        let calls = crate::lang::testing::call_sites(&analysis);
        assert_eq!(
            calls,
            vec![
                ("g".into(), "".into()),
                ("b".into(), "a".into()),
                ("e".into(), "c.d".into()),
            ]
        );
    }

    #[test]
    fn comments_do_not_change_the_body() {
        crate::lang::testing::comments_only(
            Language::Scala,
            b"object K {\n  def f(x: Int): Int = {\n    val y = x + 1\n    y\n  }\n}\n",
            b"object K {\n  /** Adds one. */\n  def f(x: Int /* x */): Int = { // add\n    val y = x+1 /* really */\n    y\n  }\n}\n",
        );
    }

    // ADR 9's Scala rules, one case each.
    #[test]
    fn formatting_scalafmt_applies_is_not_a_change() {
        // Trailing commas and line breaks.
        same(
            Language::Scala,
            "object O {\n  def f(a: Int, b: Int): List[Int] = List(a, b)\n}\n",
            "object O {\n  def f(\n      a: Int,\n      b: Int,\n  ): List[Int] = List(\n    a,\n    b,\n  )\n}\n",
        );
        // Semicolons.
        same(
            Language::Scala,
            "object O {\n  def f() = {\n    a(); b();\n  }\n}\n",
            "object O {\n  def f() = {\n    a()\n    b()\n  }\n}\n",
        );
        // Braces around a one-expression body.
        same(
            Language::Scala,
            "object O {\n  def f(x: Int): Int = { x + 1 }\n}\n",
            "object O {\n  def f(x: Int): Int = x + 1\n}\n",
        );
        // Redundant parentheses, numbers.
        same(
            Language::Scala,
            "object O {\n  def f(x: Int) = {\n    val v = (x + 1)\n    g((v))\n    (a * b) + 0XFF\n  }\n}\n",
            "object O {\n  def f(x: Int) = {\n    val v = x + 1\n    g(v)\n    a * b + 0xff\n  }\n}\n",
        );
    }

    #[test]
    fn meaningful_edits_near_the_formatting_rules_are_changes() {
        let f = |body: &str| format!("object O {{\n  def f() = {{\n    {body}\n  }}\n}}\n");
        for (a, b) in [
            ("g(1)", "g(2)"),
            ("g(a)", "g(a, b)"),
            ("(a + b) * c", "a + b * c"),
            ("a - (b - c)", "a - b - c"),
            ("(a :: b) :: c", "a :: b :: c"),
            ("a()\n    b()", "b()\n    a()"),
            ("val x = 1\n    x", "val x = 2\n    x"),
        ] {
            differ(Language::Scala, &f(a), &f(b));
        }
        // A block with a definition is not one expression.
        differ(
            Language::Scala,
            "object O {\n  def f() = {\n    def g = 1\n  }\n}\n",
            "object O {\n  def f() = {\n    def g = 2\n  }\n}\n",
        );
    }

    #[test]
    fn visibility_and_declarations() {
        let source = r#"package app

val Version = "1"
type Names = List[String]
def helper(): Unit = ()
private def hidden(): Unit = ()
sealed trait Store {
  type Key
  def put(k: String): Unit
}
case class Pair(a: Int, b: Int)
enum Kind { case A, B }
object Registry {
  final val Max = 3
  private val Secret = 1
  def lookup(): Unit = ()
  private[app] def scoped(): Unit = ()
}
abstract class Client extends Store {
  val size = 1
  def open(): Unit = ()
  protected def send(): Unit = ()
  protected[this] def sendSelf(): Unit = ()
  private def drop(): Unit = { def local() = 1; local() }
  private[this] def mine(): Unit = ()
  override def put(k: String): Unit = ()
}
private class Cache {
  def get(): Unit = ()
}
case object Empty
"#;
        assert_eq!(
            crate::lang::testing::interface(Language::Scala, source),
            [
                "helper public",
                "hidden private",
                "Store.put public",
                "Registry.lookup public",
                "Registry.scoped private",
                "Client.open public",
                "Client.send public",
                "Client.sendSelf public",
                "Client.drop private",
                "Client.drop.local private",
                "Client.mine private",
                "Client.put implementation",
                "Cache.get private",
                "val Version public: val Version",
                "type Names public: type Names",
                "trait Store public: sealed trait Store",
                "type Store.Key public: type Key",
                "case class Pair public: case class Pair(a: Int, b: Int)",
                "enum Kind public: enum Kind",
                "object Registry public: object Registry",
                "val Registry.Max public: final val Max",
                "val Registry.Secret private: private val Secret",
                "class Client public: abstract class Client extends Store",
                "class Cache private: private class Cache",
                "case object Empty public: case object Empty",
            ]
        );
    }
}
