//! C#: methods, constructors, finalizers, operators, local functions and property, indexer and
//! event accessors, qualified by their namespaces and enclosing types (`Ns.Class.Method`, C#'s
//! own spelling).
//!
//! Namespaces (`namespace A.B { }`, and a file-scoped `namespace A.B;`, which qualifies the
//! whole file), classes, structs, interfaces, records and enums are scopes. A property,
//! indexer or event with accessor bodies is a scope of its accessors (`Foo.Count.get`,
//! `Foo.this.set`, `Foo.Changed.add`); an expression-bodied property or indexer is one function
//! (`Foo.Count`); accessors without a body (auto-properties) are not functions. An operator is
//! named by its symbol (`Foo.+`), a conversion operator by its target type (`Foo.int`), a
//! finalizer by its type (`Foo.Foo`, like a constructor). Lambdas and anonymous methods are not
//! functions. Attributes are children of the declaration, so they are part of the signature;
//! `///` documentation comments are comments.
//!
//! Interface (ADR 18): `public` and `protected` members are public (a subclass elsewhere can
//! call a protected one; `protected internal` too), `private`, `internal` and
//! `private protected` ones private; without a modifier, members of a class, struct or record
//! are private, of an interface or enum public, and types outside a type `internal` (private).
//! An `override` or an explicit interface implementation (`void IFoo.Bar()`) implements a
//! member declared elsewhere. An accessor is as visible as its property, less when it says so
//! (`private set`). Classes, structs, interfaces, enums, records, delegates and `const` fields
//! are declarations; a type caps what it holds (a public method of an internal class is not
//! public).
//!
//! Imports: `using A.B;` is `A.B`, `using static A.B.C;` is `static A.B.C`, an alias
//! `using X = A.B.C;` is `A.B.C as X`; `global using` is the same.
//!
//! What C# formatters (clang-format, CSharpier, `dotnet format`) may write either way (ADR 9):
//! whitespace and line breaks, trailing commas in initializers and enums, the letter case
//! of numbers (`0XFF`, `1E3`, `10L`), and a regular string literal broken into literals joined
//! by `+` (clang-format 23 does it: `"a b"` is `"a " + "b"`, when the literal is the
//! first operand of its `+` chain or alone).

use tree_sitter::Node;

use super::nodes::{child_of_kind, modifier_words, text, unspaced};
use super::normal::caseless;
use super::{
    Analyzer, CallSite, Declaration, Declares, Head, ImportScheme, Language, LanguageConfig,
    Normal, Role, Visibility, calls, fnv,
};

/// C#'s facts.
pub(super) static CONFIG: LanguageConfig = LanguageConfig {
    grammars: &[(Language::CSharp, || tree_sitter_c_sharp::LANGUAGE.into())],
    family: &[Language::CSharp],
    import_scheme: Some(ImportScheme::CSharp),
    separator: ".",
    comments: &["comment"],
    imports_as_written: true,
    normal_kinds: &[
        "integer_literal",
        "real_literal",
        "string_literal",
        "binary_expression",
    ],
    implied_kinds: &[],
    implied_parents: &[],
    declarations: &[
        Declares::rule("class_declaration", "class", Head::Field("body")),
        Declares::rule("struct_declaration", "struct", Head::Field("body")),
        Declares::rule("interface_declaration", "interface", Head::Field("body")),
        Declares::rule("enum_declaration", "enum", Head::Field("body")),
        Declares::rule("record_declaration", "record", Head::Field("body")),
        Declares::rule("delegate_declaration", "delegate", Head::Field("body")),
        // A `const` field.
        Declares::hook("field_declaration"),
    ],
    wrapper_kinds: &[],
    item_containers: &[],
    analyzer: &CSharp,
};

/// The C# analyzer.
pub struct CSharp;

impl Analyzer for CSharp {
    fn role<'t>(&self, node: Node<'t>, source: &[u8]) -> Role<'t> {
        let function = |name: Option<Node<'t>>, body: Option<Node<'t>>| match name {
            Some(name) => Role::Function {
                name,
                body,
                outer: node,
            },
            None => Role::Other,
        };
        let scope = |name: Option<Node<'t>>| match name {
            Some(name) => Role::Scope {
                name: unspaced(text(name, source)),
                methods: true,
            },
            None => Role::Other,
        };
        match node.kind() {
            "method_declaration"
            | "constructor_declaration"
            | "destructor_declaration"
            | "local_function_statement" => function(
                node.child_by_field_name("name"),
                node.child_by_field_name("body"),
            ),
            "operator_declaration" => function(
                node.child_by_field_name("operator"),
                node.child_by_field_name("body"),
            ),
            "conversion_operator_declaration" => function(
                node.child_by_field_name("type"),
                node.child_by_field_name("body"),
            ),
            // `get { ... }`; `get;` (an auto-property) is no function.
            "accessor_declaration" => match node.child_by_field_name("body") {
                Some(body) => function(node.child_by_field_name("name"), Some(body)),
                None => Role::Other,
            },
            "property_declaration" | "indexer_declaration" | "event_declaration" => {
                let name = node
                    .child_by_field_name("name")
                    .or_else(|| child_of_kind(node, "this"));
                if node.child_by_field_name("accessors").is_some() {
                    scope(name)
                } else {
                    match node.child_by_field_name("value") {
                        Some(value) if value.kind() == "arrow_expression_clause" => {
                            function(name, Some(value))
                        }
                        _ => Role::Other,
                    }
                }
            }
            "class_declaration"
            | "struct_declaration"
            | "interface_declaration"
            | "record_declaration"
            | "enum_declaration" => scope(node.child_by_field_name("name")),
            "namespace_declaration" => match node.child_by_field_name("name") {
                Some(name) => Role::Scope {
                    name: unspaced(text(name, source)),
                    methods: false,
                },
                None => Role::Other,
            },
            // `namespace A.B;` qualifies everything after it: the file is its scope.
            "compilation_unit" => {
                let mut cursor = node.walk();
                let file_scoped = node
                    .named_children(&mut cursor)
                    .find(|c| c.kind() == "file_scoped_namespace_declaration")
                    .and_then(|ns| ns.child_by_field_name("name"));
                match file_scoped {
                    Some(name) => Role::Scope {
                        name: unspaced(text(name, source)),
                        methods: false,
                    },
                    None => Role::Other,
                }
            }
            _ => Role::Other,
        }
    }

    fn call(&self, node: Node<'_>, source: &[u8]) -> Option<CallSite> {
        if node.kind() != "invocation_expression" {
            return None;
        }
        let mut callee = node.child_by_field_name("function")?;
        loop {
            match callee.kind() {
                "identifier" => return calls::site(text(callee, source), "", false),
                // `M<T>()`
                "generic_name" => {
                    let name = callee.named_child(0)?;
                    return calls::site(text(name, source), "", false);
                }
                "member_access_expression" => {
                    let mut name = callee.child_by_field_name("name")?;
                    if name.kind() == "generic_name" {
                        name = name.named_child(0)?;
                    }
                    let object = callee.child_by_field_name("expression")?;
                    return calls::site(text(name, source), text(object, source), true);
                }
                // `a?.M()`
                "conditional_access_expression" => {
                    let last = u32::try_from(callee.named_child_count().checked_sub(1)?).ok()?;
                    let binding = callee.named_child(last)?;
                    let name = binding.named_child(0)?;
                    let object = callee.named_child(0)?;
                    return calls::site(text(name, source), text(object, source), true);
                }
                "parenthesized_expression" => callee = callee.named_child(0)?,
                _ => return None,
            }
        }
    }

    fn visibility(
        &self,
        _outer: Node<'_>,
        node: Node<'_>,
        _name: &str,
        source: &[u8],
    ) -> Visibility {
        if node.kind() != "accessor_declaration" {
            return member_access(node, source);
        }
        // accessor_declaration < accessor_list < property, indexer or event
        let holder = node.parent().and_then(|list| list.parent());
        let outer = holder.map_or(Visibility::Public, |h| member_access(h, source));
        let own = modifier_words(node, &["modifier"], source);
        if own.is_empty() {
            outer
        } else {
            outer.min(access(&own).unwrap_or(Visibility::Public))
        }
    }

    /// A `const` field, named by its first declarator (asked about fields only).
    fn declaration<'t>(&self, node: Node<'t>, source: &[u8]) -> Option<Declaration<'t>> {
        if !modifier_words(node, &["modifier"], source).contains(&"const") {
            return None;
        }
        let declarator = node
            .named_children(&mut node.walk())
            .find(|c| c.kind() == "variable_declaration")?
            .named_children(&mut node.walk())
            .find(|c| c.kind() == "variable_declarator")?;
        let name = declarator.child_by_field_name("name")?;
        let value = declarator
            .named_children(&mut declarator.walk())
            .find(|c| c.start_byte() > name.start_byte());
        Some(Declaration {
            kind: "const",
            name,
            outer: node,
            head_end: value.map_or(node.end_byte(), |v| v.start_byte()),
        })
    }

    fn normal(&self, node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
        match node.kind() {
            "integer_literal" | "real_literal" => caseless(&source[node.byte_range()]),
            "string_literal" => match plain_string(node, source) {
                Some(body) => Normal::As(string_value(&[body])),
                None => Normal::Keep,
            },
            "binary_expression" => split_string(node, parent, source),
            _ => Normal::Keep,
        }
    }

    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String> {
        if node.kind() != "using_directive" {
            return Vec::new();
        }
        let (mut is_static, mut alias, mut path) = (false, None, None);
        let alias_node = node.child_by_field_name("name");
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            match child.kind() {
                "static" => is_static = true,
                _ if alias_node.is_some_and(|a| a.id() == child.id()) => alias = Some(child),
                "identifier" | "qualified_name" | "generic_name" | "alias_qualified_name" => {
                    path = Some(child)
                }
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
        import.push_str(&unspaced(text(path, source)));
        if let Some(alias) = alias {
            import.push_str(" as ");
            import.push_str(text(alias, source));
        }
        vec![import]
    }
}

/// What access modifiers say (`None` when they say nothing): `public`, `protected` and
/// `protected internal` are public; `private`, `internal` and `private protected` private.
fn access(words: &[&str]) -> Option<Visibility> {
    if words.contains(&"private") {
        Some(Visibility::Private)
    } else if words.contains(&"public") || words.contains(&"protected") {
        Some(Visibility::Public)
    } else if words.contains(&"internal") {
        Some(Visibility::Private)
    } else {
        None
    }
}

/// A member's or type's visibility from its modifiers, else the default of where it stands.
fn member_access(node: Node<'_>, source: &[u8]) -> Visibility {
    let words = modifier_words(node, &["modifier"], source);
    let explicit = node
        .named_children(&mut node.walk())
        .any(|c| c.kind() == "explicit_interface_specifier");
    if explicit {
        return Visibility::Implementation;
    }
    let visibility = access(&words).unwrap_or_else(|| {
        // declaration_list < class, struct, record, interface; enum members are no functions.
        let container = node.parent().and_then(|list| list.parent());
        match container.map(|c| c.kind()) {
            Some("interface_declaration") => Visibility::Public,
            _ => Visibility::Private,
        }
    });
    if visibility == Visibility::Public && words.contains(&"override") {
        Visibility::Implementation
    } else {
        visibility
    }
}

/// The body of a regular string literal (`"a\tb"`: `a\tb`, escapes as written); `None` for
/// a UTF-8 literal (`"a"u8`), verbatim, raw and interpolated strings.
fn plain_string<'s>(node: Node<'_>, source: &'s [u8]) -> Option<&'s [u8]> {
    if node.kind() != "string_literal" {
        return None;
    }
    let text = &source[node.byte_range()];
    (text.len() >= 2 && text.starts_with(b"\"") && text.ends_with(b"\""))
        .then(|| &text[1..text.len() - 1])
}

/// A regular string's value from its bodies, as written, joined.
fn string_value(bodies: &[&[u8]]) -> u64 {
    let mut value = b"cs-string\0".to_vec();
    for body in bodies {
        value.extend_from_slice(body);
    }
    fnv(&value)
}

/// clang-format breaks a long string literal into literals joined by `+`
/// (`"a b"` is `"a " + "b"`): a chain of `+` whose operands are all regular string literals
/// counts as the one literal they make. Only the operands on the chain's left edge are read
/// (`a + b + c` is `(a + b) + c`), and a chain whose parent already failed is not read again,
/// so a long chain is read once.
fn split_string(node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
    let is_plus = |n: Node<'_>| {
        n.kind() == "binary_expression"
            && n.child_by_field_name("operator")
                .is_some_and(|o| o.kind() == "+")
    };
    if !is_plus(node) {
        return Normal::Keep;
    }
    // Asked here, the parent chain was not all literals: if this is its left operand and its
    // right operand is a literal, the operand that failed is on this chain too.
    if let Some(p) = parent.filter(|p| is_plus(*p)) {
        let left = p
            .child_by_field_name("left")
            .is_some_and(|l| l.id() == node.id());
        let right = p.child_by_field_name("right");
        if left && right.is_some_and(|r| plain_string(r, source).is_some()) {
            return Normal::Keep;
        }
    }
    let mut bodies = Vec::new();
    let mut at = node;
    loop {
        let Some(right) = at.child_by_field_name("right") else {
            return Normal::Keep;
        };
        let Some(body) = plain_string(right, source) else {
            return Normal::Keep;
        };
        bodies.push(body);
        let Some(left) = at.child_by_field_name("left") else {
            return Normal::Keep;
        };
        if is_plus(left) {
            at = left;
            continue;
        }
        let Some(body) = plain_string(left, source) else {
            return Normal::Keep;
        };
        bodies.push(body);
        break;
    }
    bodies.reverse();
    Normal::As(string_value(&bodies))
}

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::lang::analyze;
    use crate::lang::testing::{differ, names, same};

    #[test]
    fn qualified_names() {
        let source = r#"
using System;
namespace Outer.Inner {
  /// <summary>doc</summary>
  [Attr]
  public partial class Foo<T> : Base where T : class {
    public Foo(int x) : base(x) { }
    ~Foo() { }
    public int Prop { get { return 1; } set { _p = value; } }
    public int Auto { get; set; }
    public int Expr => 42;
    public static Foo operator +(Foo a, Foo b) => a;
    public static implicit operator int(Foo f) { return 1; }
    public int this[int i] { get => i; }
    public event EventHandler E { add { } remove { } }
    void M<U>(U u) where U : struct {
      int Local(int y) { return y; }
      Func<int, int> f = x => x + 1;
      Action a = delegate { };
    }
    void M(string s) { }
    abstract void Abs();
    struct S { void N() { } }
    interface I { void J(); }
    record R(int X) { void K() { } }
  }
}
class Top { void T() { } }
"#;
        assert_eq!(
            names(Language::CSharp, source),
            vec![
                ("Outer.Inner.Foo.Foo".into(), "method"),
                ("Outer.Inner.Foo.Foo".into(), "method"),
                ("Outer.Inner.Foo.Prop.get".into(), "method"),
                ("Outer.Inner.Foo.Prop.set".into(), "method"),
                ("Outer.Inner.Foo.Expr".into(), "method"),
                ("Outer.Inner.Foo.+".into(), "method"),
                ("Outer.Inner.Foo.int".into(), "method"),
                ("Outer.Inner.Foo.this.get".into(), "method"),
                ("Outer.Inner.Foo.E.add".into(), "method"),
                ("Outer.Inner.Foo.E.remove".into(), "method"),
                ("Outer.Inner.Foo.M".into(), "method"),
                ("Outer.Inner.Foo.M.Local".into(), "function"),
                ("Outer.Inner.Foo.M".into(), "method"),
                ("Outer.Inner.Foo.Abs".into(), "method"),
                ("Outer.Inner.Foo.S.N".into(), "method"),
                ("Outer.Inner.Foo.I.J".into(), "method"),
                ("Outer.Inner.Foo.R.K".into(), "method"),
                ("Top.T".into(), "method"),
            ]
        );
    }

    #[test]
    fn a_file_scoped_namespace_qualifies_the_file() {
        let source = "namespace A.B;\n\nclass C\n{\n    void M() { }\n}\n";
        assert_eq!(
            names(Language::CSharp, source),
            vec![("A.B.C.M".into(), "method")]
        );
    }

    #[test]
    fn imports() {
        let source = "using System;\nusing static System.Math;\nusing L = System.Collections.Generic.List<int>;\nglobal using X . Y;\nnamespace N { using Inner.Ns; class K { } }\n";
        let imports = analyze(Language::CSharp, source.as_bytes())
            .unwrap()
            .imports;
        assert_eq!(
            imports,
            vec![
                "Inner.Ns",
                "System",
                "System.Collections.Generic.List<int> as L",
                "X.Y",
                "static System.Math"
            ]
        );
    }

    #[test]
    fn calls_are_named_by_their_last_segment() {
        let source = "class K { void M() { F(); this.G(); Console.WriteLine(1); a?.H(); Gen<int>(); x.Y.Z<T>(); } }\n";
        let calls: Vec<(String, String, bool)> = analyze(Language::CSharp, source.as_bytes())
            .unwrap()
            .calls
            .into_iter()
            .map(|c| (c.site.name, c.site.qualifier, c.site.member))
            .collect();
        assert_eq!(
            calls,
            vec![
                ("F".into(), "".into(), false),
                ("G".into(), "this".into(), true),
                ("WriteLine".into(), "Console".into(), true),
                ("H".into(), "a".into(), true),
                ("Gen".into(), "".into(), false),
                ("Z".into(), "x.Y".into(), true),
            ]
        );
    }

    #[test]
    fn comments_and_attributes() {
        let plain = analyze(
            Language::CSharp,
            b"class K {\n    int F(int x) {\n        return x + 1;\n    }\n}\n",
        )
        .unwrap();
        let commented = analyze(
            Language::CSharp,
            b"class K {\n    /// <summary>Adds one.</summary>\n    int F(int x /* x */) { // add\n        return x+1; /* really */\n    }\n}\n",
        )
        .unwrap();
        let (a, b) = (&plain.functions[0], &commented.functions[0]);
        assert_eq!(a.body_hash, b.body_hash);
        assert_eq!(a.signature_hash, b.signature_hash);
        assert_ne!(a.text_hash, b.text_hash);
        let attributed = analyze(
            Language::CSharp,
            b"class K {\n    [Obsolete]\n    int F(int x) {\n        return x + 1;\n    }\n}\n",
        )
        .unwrap();
        let c = &attributed.functions[0];
        assert_eq!(a.body_hash, c.body_hash);
        assert_ne!(a.signature_hash, c.signature_hash);
        assert_eq!(c.signature, "[Obsolete] int F(int x)");
    }

    #[test]
    fn formatting_is_not_a_change() {
        same(
            Language::CSharp,
            "class A { int F(int a, int b) { var xs = new[] { 1, 2, }; return a * b + 0XFF; } }\n",
            "class A\n{\n    int F(int a,\n          int b)\n    {\n        var xs = new[] { 1, 2 };\n        return a * b + 0xff;\n    }\n}\n",
        );
        same(
            Language::CSharp,
            "enum E { A, B, }\nclass A { double F() => 1E3; }\n",
            "enum E { A, B }\nclass A { double F() => 1e3; }\n",
        );
        // clang-format 23 breaks long literals into `+` chains.
        let f = |body: &str| format!("class A {{ string F(int x) {{ {body} }} }}\n");
        for (a, b) in [
            (r#"return "ab\"c" + x;"#, r#"return "ab" + "\"c" + x;"#),
            (r#"return "abc";"#, r#"return "a" + "b" + "c";"#),
            (r#"return G("abc", x);"#, r#"return G("a" + "bc", x);"#),
        ] {
            same(Language::CSharp, &f(a), &f(b));
        }
    }

    #[test]
    fn joined_literals_are_read_once_along_a_long_chain() {
        // 20,000 literals after a name: every `+` is asked, each reads only its own operands.
        let chain = format!("return x{};", "\n + \"a\"".repeat(20_000));
        let source = format!("class A {{ string F(int x) {{ {chain} }} }}\n");
        let started = std::time::Instant::now();
        let analysis = analyze(Language::CSharp, source.as_bytes()).unwrap();
        assert_eq!(analysis.skipped, None);
        assert_eq!(analysis.functions.len(), 1);
        assert!(started.elapsed() < std::time::Duration::from_secs(10));
    }

    #[test]
    fn meaningful_edits_near_the_formatting_rules_are_changes() {
        let f = |body: &str| format!("class A {{ void F() {{ {body} }} }}\n");
        for (a, b) in [
            ("G(1);", "G(2);"),
            ("G(a);", "G(a, b);"),
            ("x = (a + b) * c;", "x = a + b * c;"),
            ("var s = \"a\";", "var s = @\"a\";"),
            ("A(); B();", "B(); A();"),
            ("x = 0x1F;", "x = 0x2F;"),
            // Only literals join: a value between them, other strings, other operators.
            ("s = \"ab\" + x;", "s = \"a\" + x + \"b\";"),
            ("s = \"a1b\";", "s = \"a\" + 1 + \"b\";"),
            ("s = \"ab\";", "s = \"a\" + @\"b\";"),
            ("s = \"ab\";", "s = \"b\" + \"a\";"),
            ("s = \"ab\";", "s = $\"a\" + \"b\";"),
            ("s = \"ab\"u8;", "s = \"a\"u8 + \"b\"u8;"),
        ] {
            differ(Language::CSharp, &f(a), &f(b));
        }
    }

    #[test]
    fn visibility_and_declarations() {
        let source = r#"
namespace App {
  public class Client : Base, IStore {
    public const int Max = 3;
    private const string Name = "x";
    int count;
    public Client() { }
    protected void Send() { }
    internal void Pack() { }
    void Drop() { }
    protected internal void Both() { }
    private protected void Narrow() { }
    public override string ToString() { return ""; }
    void IStore.Put(string k) { }
    public int Count { get { return count; } private set { count = value; } }
    public delegate void Handler(int x);
    class Nested { public void Open() { } }
  }
  public interface IStore { void Put(string k); }
  internal struct Point { public int X() { return 0; } }
  enum Kind { A, B }
  public record Pair(int A, int B);
}
"#;
        assert_eq!(
            crate::lang::testing::interface(Language::CSharp, source),
            [
                "App.Client.Client public",
                "App.Client.Send public",
                "App.Client.Pack private",
                "App.Client.Drop private",
                "App.Client.Both public",
                "App.Client.Narrow private",
                "App.Client.ToString implementation",
                "App.Client.Put implementation",
                "App.Client.Count.get public",
                "App.Client.Count.set private",
                "App.Client.Nested.Open private",
                "App.IStore.Put public",
                "App.Point.X private",
                "class App.Client public: public class Client : Base, IStore",
                "const App.Client.Max public: public const int Max",
                "const App.Client.Name private: private const string Name",
                "delegate App.Client.Handler public: public delegate void Handler(int x)",
                "class App.Client.Nested private: class Nested",
                "interface App.IStore public: public interface IStore",
                "struct App.Point private: internal struct Point",
                "enum App.Kind private: enum Kind",
                "record App.Pair public: public record Pair(int A, int B)",
            ]
        );
    }
}
