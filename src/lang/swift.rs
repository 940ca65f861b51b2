//! Swift: functions, methods, initializers (`Foo.init`), deinitializers (`Foo.deinit`),
//! subscripts (`Foo.subscript`), operators (`Foo.+`), computed properties and their accessors,
//! qualified by their enclosing types. Classes, structs, enums, actors, protocols and
//! extensions are scopes, an extension named by the type it extends, so its methods are that
//! type's (`Array.sum`). A computed property with only a getter body is one function
//! (`Foo.count`); one with accessors is a scope of them (`Foo.count.get`, `Foo.count.set`), and
//! so is a stored property's observers (`Foo.value.didSet`). Protocol requirements are
//! body-less methods. Closures are not functions. Attributes and modifiers are part of the
//! signature; `///` comments are comments.
//!
//! Interface (ADR 18): `public` and `open` are the API; `internal` (Swift's default, visible in
//! its own module only, as C#'s and Kotlin's `internal`), `package`, `fileprivate` and
//! `private` are private. Without a modifier a protocol's requirements are as visible as the
//! protocol, an extension's members as the extension says (`public extension`), and anything
//! else internal. An `override` implements a member declared elsewhere. An accessor is as
//! visible as its property, a setter less when the property says so (`private(set)`);
//! `deinit`, `willSet` and `didSet` are private (nothing calls them). Classes, structs, enums,
//! actors, protocols, type aliases and constants (`let` at the top level, `static let` in a
//! type) are declarations, extensions not; a type caps what it holds.
//!
//! Imports: `import Foundation` is `Foundation`, `import struct Foo.Bar` is `Foo.Bar`
//! (attributes such as `@testable` left out). Swift imports whole modules, so callers are
//! matched by name.
//!
//! What Swift's formatters (swift-format, SwiftFormat) may write either way (ADR 9; neither
//! installs from the registries this project uses, so these rules are stated there and tested
//! here): trailing commas; semicolons (the grammar does not keep them); parentheses around a
//! condition (`if (x) {` is `if x {`), a returned value or an atom; empty parentheses before a
//! trailing closure (`f() { }` is `f { }`); a `-> Void` or `-> ()` return type; the letter case
//! of numbers.

use tree_sitter::Node;

use super::nodes::{child_of_kind, modifier_words, text, type_name_tight};
use super::normal::{caseless, only_child};
use super::{
    Analyzer, CallSite, Declaration, Declares, Head, Language, LanguageConfig, Normal, Role,
    Visibility, calls,
};

/// Swift's facts.
pub(super) static CONFIG: LanguageConfig = LanguageConfig {
    grammars: &[(Language::Swift, || tree_sitter_swift::LANGUAGE.into())],
    family: &[Language::Swift],
    import_scheme: None,
    separator: ".",
    comments: &["comment", "multiline_comment"],
    imports_as_written: true,
    normal_kinds: &[
        "integer_literal",
        "real_literal",
        "hex_literal",
        "oct_literal",
        "bin_literal",
        "tuple_expression",
        "value_arguments",
        "->",
        "user_type",
        "tuple_type",
    ],
    implied_kinds: &[],
    implied_parents: &[],
    declarations: &[
        // A class, struct, enum or actor, by its keyword.
        Declares::hook("class_declaration"),
        Declares::rule("protocol_declaration", "protocol", Head::Field("body")),
        Declares::rule("typealias_declaration", "typealias", Head::Child(&["="])),
        // A stored `let` at the top level or `static let` in a type.
        Declares::hook("property_declaration"),
    ],
    wrapper_kinds: &[],
    item_containers: &[],
    analyzer: &Swift,
};

/// The Swift analyzer.
pub struct Swift;

/// Parents in which a parenthesised expression fills the whole slot.
const SLOTS: &[&str] = &[
    "if_statement",
    "guard_statement",
    "while_statement",
    "repeat_while_statement",
    "switch_statement",
    "control_transfer_statement",
    "property_declaration",
    "assignment",
    "value_argument",
];

/// Expressions that bind tighter than any operator.
const ATOMS: &[&str] = &[
    "simple_identifier",
    "integer_literal",
    "real_literal",
    "hex_literal",
    "oct_literal",
    "bin_literal",
    "boolean_literal",
    "line_string_literal",
    "nil_literal",
    "call_expression",
    "navigation_expression",
    "self_expression",
    "array_literal",
    "dictionary_literal",
    "tuple_expression",
];

impl Analyzer for Swift {
    fn visibility(
        &self,
        _outer: Node<'_>,
        node: Node<'_>,
        _name: &str,
        source: &[u8],
    ) -> Visibility {
        match node.kind() {
            "deinit_declaration" | "willset_clause" | "didset_clause" => Visibility::Private,
            // computed_getter < computed_property < property_declaration
            "computed_getter" | "computed_setter" | "computed_modify" => {
                let property = node
                    .parent()
                    .and_then(|c| c.parent())
                    .filter(|p| p.kind() == "property_declaration");
                let Some(property) = property else {
                    return member_access(node, source);
                };
                let outer = member_access(property, source);
                match access_levels(property, source).1 {
                    Some(setter) if node.kind() != "computed_getter" => outer.min(level(setter)),
                    _ => outer,
                }
            }
            _ => member_access(node, source),
        }
    }

    fn role<'t>(&self, node: Node<'t>, source: &[u8]) -> Role<'t> {
        let function = |name: Option<Node<'t>>, body: Option<Node<'t>>| match name {
            Some(name) => Role::Function {
                name,
                body,
                outer: node,
            },
            None => Role::Other,
        };
        let scope = |name: String| Role::Scope {
            name,
            methods: true,
        };
        match node.kind() {
            "function_declaration" | "init_declaration" | "protocol_function_declaration" => {
                function(
                    node.child_by_field_name("name"),
                    node.child_by_field_name("body"),
                )
            }
            "deinit_declaration" => function(
                child_of_kind(node, "deinit"),
                node.child_by_field_name("body"),
            ),
            "subscript_declaration" => function(
                child_of_kind(node, "subscript"),
                child_of_kind(node, "computed_property"),
            ),
            "property_declaration" => {
                let name = node
                    .child_by_field_name("name")
                    .map(|p| p.child_by_field_name("bound_identifier").unwrap_or(p));
                let Some(name) = name else {
                    return Role::Other;
                };
                if child_of_kind(node, "willset_didset_block").is_some() {
                    return scope(text(name, source).to_owned());
                }
                match node.child_by_field_name("computed_value") {
                    Some(computed) if has_accessors(computed) => {
                        scope(text(name, source).to_owned())
                    }
                    Some(computed) => function(Some(name), Some(computed)),
                    None => Role::Other,
                }
            }
            "computed_getter" | "computed_setter" | "computed_modify" => {
                let (spec, keyword) = match node.kind() {
                    "computed_getter" => ("getter_specifier", "get"),
                    "computed_setter" => ("setter_specifier", "set"),
                    _ => ("modify_specifier", "_modify"),
                };
                let name = child_of_kind(node, spec).and_then(|s| child_of_kind(s, keyword));
                function(name, child_of_kind(node, "statements"))
            }
            "willset_clause" | "didset_clause" => {
                let keyword = if node.kind() == "willset_clause" {
                    "willSet"
                } else {
                    "didSet"
                };
                function(
                    child_of_kind(node, keyword),
                    child_of_kind(node, "statements"),
                )
            }
            "class_declaration" | "protocol_declaration" => {
                match node.child_by_field_name("name") {
                    Some(name) => scope(type_name_tight(text(name, source))),
                    None => Role::Other,
                }
            }
            _ => Role::Other,
        }
    }

    /// A class, struct, enum or actor told by its keyword, and a stored `let` at the top level
    /// or a `static let` in a type, neither computed nor observed (asked about classes and
    /// properties only).
    fn declaration<'t>(&self, node: Node<'t>, source: &[u8]) -> Option<Declaration<'t>> {
        let body_start = |n: Node<'_>| {
            n.child_by_field_name("body")
                .map_or(n.end_byte(), |b| b.start_byte())
        };
        let (kind, name, head_end) = match node.kind() {
            "class_declaration" => {
                let kind = match node.child_by_field_name("declaration_kind")?.kind() {
                    "class" => "class",
                    "struct" => "struct",
                    "enum" => "enum",
                    "actor" => "actor",
                    _ => return None,
                };
                (kind, node.child_by_field_name("name")?, body_start(node))
            }
            "property_declaration" => {
                let binding = child_of_kind(node, "value_binding_pattern")?;
                let constant = binding
                    .child_by_field_name("mutability")
                    .is_some_and(|m| m.kind() == "let");
                let stored = node.child_by_field_name("computed_value").is_none()
                    && child_of_kind(node, "willset_didset_block").is_none();
                let placed = node.parent().is_some_and(|p| p.kind() == "source_file")
                    || modifier_words(node, &["modifiers"], source)
                        .iter()
                        .any(|w| matches!(*w, "static" | "class"));
                if !(constant && stored && placed) {
                    return None;
                }
                let name = node.child_by_field_name("name")?;
                let name = name.child_by_field_name("bound_identifier").unwrap_or(name);
                let value = node
                    .child_by_field_name("value")
                    .map_or(node.end_byte(), |v| v.start_byte());
                ("let", name, value)
            }
            _ => return None,
        };
        Some(Declaration {
            kind,
            name,
            outer: node,
            head_end,
        })
    }

    fn call(&self, node: Node<'_>, source: &[u8]) -> Option<CallSite> {
        if node.kind() != "call_expression" {
            return None;
        }
        let callee = node.named_child(0)?;
        match callee.kind() {
            "simple_identifier" => calls::site(text(callee, source), "", false),
            "navigation_expression" => {
                let name = callee
                    .child_by_field_name("suffix")?
                    .child_by_field_name("suffix")?;
                let target = callee.child_by_field_name("target")?;
                calls::site(text(name, source), text(target, source), true)
            }
            _ => None,
        }
    }

    fn normal(&self, node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
        let parent_kind = parent.map_or("", |p| p.kind());
        match node.kind() {
            "integer_literal" | "real_literal" | "hex_literal" | "oct_literal" | "bin_literal" => {
                caseless(&source[node.byte_range()])
            }
            // `(x)`: a one-element tuple without a label is a parenthesised expression.
            "tuple_expression" => match only_child(node, CONFIG.comments) {
                Some(inner)
                    if node.child_by_field_name("name").is_none()
                        && node.child(0).is_some_and(|c| c.kind() == "(")
                        && (SLOTS.contains(&parent_kind) || ATOMS.contains(&inner.kind())) =>
                {
                    Normal::Unwrap
                }
                _ => Normal::Keep,
            },
            // `f() { }` is `f { }`.
            "value_arguments"
                if parent_kind == "call_suffix"
                    && node.named_child_count() == 0
                    && node
                        .next_named_sibling()
                        .is_some_and(|s| s.kind() == "lambda_literal") =>
            {
                Normal::Unwrap
            }
            // `-> Void` and `-> ()` are no return type.
            "->" if parent_kind == "function_declaration" => match node.next_named_sibling() {
                Some(ty) if is_void(ty, source) => Normal::Drop,
                _ => Normal::Keep,
            },
            "user_type" | "tuple_type"
                if parent_kind == "function_declaration"
                    && is_void(node, source)
                    && node.prev_sibling().is_some_and(|p| p.kind() == "->") =>
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
        match child_of_kind(node, "identifier") {
            Some(path) => vec![
                text(path, source)
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect(),
            ],
            None => Vec::new(),
        }
    }
}

/// A declaration's access level and its setter's (`private(set)`), as written.
fn access_levels<'s>(node: Node<'_>, source: &'s [u8]) -> (Option<&'s str>, Option<&'s str>) {
    let (mut own, mut setter) = (None, None);
    let Some(modifiers) = child_of_kind(node, "modifiers") else {
        return (own, setter);
    };
    let mut cursor = modifiers.walk();
    for modifier in modifiers.children(&mut cursor) {
        if modifier.kind() != "visibility_modifier" {
            continue;
        }
        let Some(keyword) = modifier.child(0) else {
            continue;
        };
        if child_of_kind(modifier, "set").is_some() {
            setter = Some(text(keyword, source));
        } else {
            own = Some(text(keyword, source));
        }
    }
    (own, setter)
}

/// What an access level means to the interface: `public` and `open` are the API.
fn level(keyword: &str) -> Visibility {
    if matches!(keyword, "public" | "open") {
        Visibility::Public
    } else {
        Visibility::Private
    }
}

/// How far a member or type is visible by its modifiers, or by where it stands when it has no
/// access level (see the module's doc).
fn member_access(node: Node<'_>, source: &[u8]) -> Visibility {
    let (own, _) = access_levels(node, source);
    if own.is_some_and(|o| level(o) == Visibility::Private) {
        return Visibility::Private;
    }
    if modifier_words(node, &["modifiers"], source).contains(&"override") {
        return Visibility::Implementation;
    }
    if let Some(own) = own {
        return level(own);
    }
    let Some(body) = node.parent() else {
        return Visibility::Private;
    };
    match body.kind() {
        "protocol_body" => Visibility::Public,
        "class_body" => {
            let extension = body.parent().filter(|d| {
                d.child_by_field_name("declaration_kind")
                    .is_some_and(|k| k.kind() == "extension")
            });
            match extension.and_then(|e| access_levels(e, source).0) {
                Some(keyword) => level(keyword),
                None => Visibility::Private,
            }
        }
        _ => Visibility::Private,
    }
}

/// Whether a computed property spells out its accessors (`get { } set { }`).
fn has_accessors(computed: Node<'_>) -> bool {
    let mut cursor = computed.walk();
    computed.named_children(&mut cursor).any(|c| {
        matches!(
            c.kind(),
            "computed_getter" | "computed_setter" | "computed_modify"
        )
    })
}

/// `Void` or `()`.
fn is_void(ty: Node<'_>, source: &[u8]) -> bool {
    match ty.kind() {
        "user_type" => text(ty, source) == "Void",
        "tuple_type" => ty.named_child_count() == 0,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::lang::analyze;
    use crate::lang::testing::{differ, names, same};

    #[test]
    fn qualified_names() {
        let source = r#"import Foundation

/// Doc
public struct Foo<T>: Codable where T: Equatable {
    var x: Int {
        didSet { print(x) }
    }
    var plain = 1
    var computed: Int {
        return x
    }
    var both: Int {
        get { x }
        set { x = newValue }
    }
    init(x: Int) { self.x = x }
    init?(s: String) { return nil }
    deinit { }
    subscript(i: Int) -> Int {
        get { i }
        set { }
    }
    mutating func m(_ a: Int, b: Int = 1) async throws -> Int {
        func local() -> Int { 1 }
        let c = { (y: Int) -> Int in y + 1 }
        return local() + c(a)
    }
    func m(_ s: String) {}
    static func + (l: Foo, r: Foo) -> Foo { l }
    enum Inner {
        case a
        func f() {}
    }
}
extension Foo: CustomStringConvertible {
    var description: String { "" }
    func ext() {}
}
extension Array<Int> {
    func sum() -> Int { 0 }
}
protocol P {
    func req()
    var v: Int { get }
}
class C: NSObject {
    override func o() { super.o() }
}
func top(a: Int, b: Int) -> Int { a + b }
actor A {
    func act() {}
}
"#;
        assert_eq!(
            names(Language::Swift, source),
            vec![
                ("Foo.x.didSet".into(), "method"),
                ("Foo.computed".into(), "method"),
                ("Foo.both.get".into(), "method"),
                ("Foo.both.set".into(), "method"),
                ("Foo.init".into(), "method"),
                ("Foo.init".into(), "method"),
                ("Foo.deinit".into(), "method"),
                ("Foo.subscript".into(), "method"),
                ("Foo.subscript.get".into(), "function"),
                ("Foo.subscript.set".into(), "function"),
                ("Foo.m".into(), "method"),
                ("Foo.m.local".into(), "function"),
                ("Foo.m".into(), "method"),
                ("Foo.+".into(), "method"),
                ("Foo.Inner.f".into(), "method"),
                ("Foo.description".into(), "method"),
                ("Foo.ext".into(), "method"),
                ("Array.sum".into(), "method"),
                ("P.req".into(), "method"),
                ("C.o".into(), "method"),
                ("top".into(), "function"),
                ("A.act".into(), "method"),
            ]
        );
    }

    #[test]
    fn imports_and_calls() {
        let source = "import Foundation\n@testable import ArgumentParser\nimport struct Foo.Bar\n\nfunc f() {\n    g()\n    self.h(1)\n    Foo.bar.baz()\n    xs.map { $0 + 1 }\n}\n";
        let analysis = analyze(Language::Swift, source.as_bytes()).unwrap();
        assert_eq!(
            analysis.imports,
            vec!["ArgumentParser", "Foo.Bar", "Foundation"]
        );
        let calls = crate::lang::testing::call_sites(&analysis);
        assert_eq!(
            calls,
            vec![
                ("g".into(), "".into()),
                ("h".into(), "self".into()),
                ("baz".into(), "Foo.bar".into()),
                ("map".into(), "xs".into()),
            ]
        );
    }

    #[test]
    fn comments_do_not_change_the_body() {
        crate::lang::testing::comments_only(
            Language::Swift,
            b"struct K {\n    func f(x: Int) -> Int {\n        let y = x + 1\n        return y\n    }\n}\n",
            b"struct K {\n    /// Adds one.\n    func f(x: Int /* x */) -> Int { // add\n        let y = x+1 /* really */\n        return y\n    }\n}\n",
        );
    }

    // ADR 9's Swift rules, one case each.
    #[test]
    fn formatting_swift_formatters_apply_is_not_a_change() {
        // Trailing commas and line breaks.
        same(
            Language::Swift,
            "func f(a: Int, b: Int) -> [Int] {\n    return [a, b,]\n}\n",
            "func f(\n    a: Int,\n    b: Int\n) -> [Int] {\n    return [\n        a,\n        b\n    ]\n}\n",
        );
        // Semicolons.
        same(
            Language::Swift,
            "func f() {\n    a(); b();\n}\n",
            "func f() {\n    a()\n    b()\n}\n",
        );
        // Parentheses around conditions, returned values and atoms.
        same(
            Language::Swift,
            "func f() -> Int {\n    if (x > 1) { g() }\n    guard (y) else { return 0 }\n    while (z) { }\n    let v = (a + b)\n    return (v) * 2\n}\n",
            "func f() -> Int {\n    if x > 1 { g() }\n    guard y else { return 0 }\n    while z { }\n    let v = a + b\n    return v * 2\n}\n",
        );
        // Empty parentheses before a trailing closure, `-> Void`, numbers.
        same(
            Language::Swift,
            "func f() -> Void {\n    h() { 1 }\n    let n = 0XFF\n}\nfunc g() -> () { }\n",
            "func f() {\n    h { 1 }\n    let n = 0xff\n}\nfunc g() { }\n",
        );
    }

    #[test]
    fn meaningful_edits_near_the_formatting_rules_are_changes() {
        let f = |body: &str| format!("func f() -> Int {{\n    {body}\n}}\n");
        for (a, b) in [
            ("return g(1)", "return g(2)"),
            ("return g(a)", "return g(a, b)"),
            ("return (a + b) * c", "return a + b * c"),
            ("return (x, y).0", "return x"),
            ("h(1) { 1 }\n    return 0", "h { 1 }\n    return 0"),
            ("a()\n    return b()", "b()\n    return a()"),
            // An implied return is not yet read as an explicit one: reported (ADR 9).
            ("return g()", "g()"),
        ] {
            differ(Language::Swift, &f(a), &f(b));
        }
        differ(
            Language::Swift,
            "func f() -> Int { 1 }\n",
            "func f() -> Int? { 1 }\n",
        );
    }

    #[test]
    fn visibility_and_declarations() {
        let source = r#"import Foundation

public let version = "1"
let build = 2
public typealias Names = [String]
public func helper() {}
func internalHelper() {}
public protocol Store {
    func put(_ k: String)
}
enum Kind { case a, b }
open class Client: Base, Store {
    public static let max = 3
    private(set) public var size: Int {
        get { 1 }
        set { }
    }
    public var count: Int = 0 {
        didSet { }
    }
    public init() {}
    deinit {}
    func open() {}
    public func send() {}
    fileprivate func pack() {}
    private func drop() { func local() {} }
    package func share() {}
    override public func describe() {}
    public func put(_ k: String) {}
}
public extension Client {
    func extra() {}
    private func hidden() {}
}
extension Client {
    func more() {}
}
struct Point {
    public func norm() {}
}
public actor Counter {}
"#;
        assert_eq!(
            crate::lang::testing::interface(Language::Swift, source),
            [
                "helper public",
                "internalHelper private",
                "Store.put public",
                "Client.size.get public",
                "Client.size.set private",
                "Client.count.didSet private",
                "Client.init public",
                "Client.deinit private",
                "Client.open private",
                "Client.send public",
                "Client.pack private",
                "Client.drop private",
                "Client.drop.local private",
                "Client.share private",
                "Client.describe implementation",
                "Client.put public",
                "Client.extra public",
                "Client.hidden private",
                "Client.more private",
                "Point.norm private",
                "let version public: public let version",
                "let build private: let build",
                "typealias Names public: public typealias Names",
                "protocol Store public: public protocol Store",
                "enum Kind private: enum Kind",
                "class Client public: open class Client: Base, Store",
                "let Client.max public: public static let max",
                "struct Point private: struct Point",
                "actor Counter public: public actor Counter",
            ]
        );
    }
}
