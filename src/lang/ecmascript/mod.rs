//! What the JavaScript and TypeScript analyzers share. The TypeScript grammar extends the
//! JavaScript one, so one reading of the node kinds serves JavaScript, JSX, TypeScript and TSX;
//! kinds that only TypeScript has (interfaces, namespaces, signatures) never occur in JavaScript
//! trees.
//!
//! Functions, one per definition:
//! - `function` and `function*` declarations, TypeScript overload and `declare` signatures
//!   (`function f(): void;`, without a body), and class and object-literal methods, getters and
//!   setters (a getter and its setter share a name, like overloads);
//! - TypeScript `abstract` method signatures, and method signatures in interfaces and class
//!   bodies (overloads), without a body; those in type literals are types, not functions;
//! - arrow functions and function expressions bound to a name: a `const`/`let`/`var` declarator
//!   (`const f = () => {}`), a class field (`handler = () => {}`), an object property
//!   (`key: () => {}`), an assignment (`exports.f = function () {}`, named by the last segment:
//!   `f`), and `export default () => {}` (named `default`). Functions passed as arguments or
//!   wrapped in calls (`memo(() => ...)`) are anonymous callbacks, not functions: their tokens
//!   count toward the enclosing function.
//!
//! A definition starts at its wrappers: `export`, `export default` and `declare`, and the
//! `const`/`let`/`var` of a single declarator, so `export`, `async`, `const` and TypeScript
//! types are part of the signature. A wrapper separated from what it wraps by a comment or a
//! line break (`export /* why */ function f`) is left out. Decorators are part of the signature too: the
//! TypeScript grammar puts a method's decorators before it in the class body (they become the
//! definition's start), the JavaScript grammar inside the method.
//!
//! Names are qualified with `.` by classes (`Class.method`), interfaces (`Interface.method`),
//! TypeScript namespaces and modules (`A.B.f`, `declare module "m"` as `m`) and enclosing functions
//! (`outer.inner`). Functions directly in a class or interface are `method`s. An anonymous class
//! takes the name it is bound to (`const Foo = class {}`, `exports.Foo = class {}`), `default`
//! when it is exported as default; one bound to nothing (passed as an argument) qualifies nothing,
//! and its methods are unqualified `function`s. Object literals held by a variable or a property
//! qualify what they hold (`const api = { get() {} }` gives the function `api.get`), but are not
//! classes: their functions are `function`s.
//!
//! `comment` and `html_comment` nodes are comments; JSDoc is a comment like any other. JSX text
//! is one token as written, surrounding whitespace included, so re-indenting a line of text
//! inside an element is a body change, not formatting.
//!
//! Imports, one canonical string per imported name, `module.name`, with the module as written
//! (quotes dropped) and `type`/`typeof` modifiers ignored (a type-only import is still a
//! dependency):
//! - `import x from "m"` → `m.default as x`; `import { a, b as c } from "m"` → `m.a`,
//!   `m.b as c`; `import * as ns from "m"` → `m.* as ns`; `import "m"` and `import {} from "m"`
//!   → `m`;
//! - re-exports: `export { a, b as c } from "m"` → `m.a`, `m.b as c`; `export * from "m"` →
//!   `m.*`; `export * as ns from "m"` → `m.* as ns`;
//! - whole-module loads: `require("m")` (whatever it is assigned to), TypeScript's
//!   `import x = require("m")` and dynamic `import("m")` with a literal → `m`.
//!
//! Cost: tree-sitter finds a node's parent or sibling by descending from the root, which costs
//! the node's depth, so a lookup per definition would make deeply nested files quadratic. Roles
//! are therefore read from a node, its children and the bytes around it; only TypeScript method
//! signatures, and methods whose preceding text may be a decorator, look at their parent.
//!
//! The module is split by concern: `imports` reads import and export statements and module
//! loads, `formatting` what prettier and the like may write either way (ADR 9).

use tree_sitter::Node;

use super::nodes::{child_of_kind, text};
use super::{Analyzer, Declaration, Declares, Head, Language, Normal, Role, Visibility};
use imports::unquote;

mod formatting;
mod imports;

/// The languages of one program: each can call into the others' files.
pub(super) const FAMILY: &[Language] = &[
    Language::TypeScript,
    Language::Tsx,
    Language::JavaScript,
    Language::Jsx,
];

/// The comment kinds of both grammars (JSDoc is a comment like any other).
pub(super) const COMMENTS: &[&str] = &["comment", "html_comment"];

pub(super) use formatting::{IMPLIED_KINDS, NORMAL_KINDS};

/// What both grammars declare besides functions: classes, interfaces, type aliases, enums,
/// and constants (a `const` whose first value is not a function: [`const_declaration`]).
pub(super) const DECLARATIONS: &[Declares] = &[
    Declares::rule("class_declaration", "class", Head::Field("body")),
    Declares::rule("abstract_class_declaration", "class", Head::Field("body")),
    Declares::rule("interface_declaration", "interface", Head::Field("body")),
    Declares::rule("type_alias_declaration", "type", Head::Whole),
    Declares::rule("enum_declaration", "enum", Head::Field("body")),
    Declares::hook("lexical_declaration"),
];

/// The JavaScript and TypeScript analyzer, for one grammar.
pub(super) struct EcmaScript(pub(super) Dialect);

impl Analyzer for EcmaScript {
    fn role<'t>(&self, node: Node<'t>, source: &[u8]) -> Role<'t> {
        role(node, source, self.0)
    }

    fn visibility(
        &self,
        _outer: Node<'_>,
        node: Node<'_>,
        _name: &str,
        source: &[u8],
    ) -> Visibility {
        visibility(node, source)
    }

    fn declaration<'t>(&self, node: Node<'t>, _source: &[u8]) -> Option<Declaration<'t>> {
        const_declaration(node)
    }

    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String> {
        imports::imports(node, source)
    }

    fn normal(&self, node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
        formatting::normal(node, parent, source)
    }

    fn implied_end(&self, node: Node<'_>, parent: Option<Node<'_>>) -> &'static [&'static str] {
        formatting::implied_end(node, parent)
    }
}

/// Which grammar a tree comes from, where they differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dialect {
    /// JavaScript and JSX: decorators are inside the member they decorate.
    JavaScript,
    /// TypeScript and TSX: a method's decorators are its preceding siblings.
    TypeScript,
}

/// How many wrappers a definition can sit in (`export declare const f = ...` has three): a
/// bound on the descent that also caps what a malformed tree can cost.
const MAX_WRAPPERS: usize = 4;

/// How many bytes of whitespace and comments the byte checks look across. Past it they give
/// the cautious answer (not wrapped; maybe decorated), the same for every node.
const TRIVIA_LIMIT: usize = 1024;

/// A function's name and body, read from the node that defines it.
struct Definition<'t> {
    name: Node<'t>,
    body: Option<Node<'t>>,
}

/// What `node` means (shared by both analyzers' `role`).
fn role<'t>(node: Node<'t>, source: &[u8], dialect: Dialect) -> Role<'t> {
    // Keywords such as `class` and `module` share their kind with named nodes.
    if !node.is_named() {
        return Role::Other;
    }
    if let Some((name, methods)) = scope(node, source) {
        return Role::Scope { name, methods };
    }
    match definition(node, source) {
        Some(def) if !claimed(node, source) => {
            let outer = match (dialect, node.kind()) {
                (Dialect::TypeScript, "method_definition") => first_decorator(node, source),
                _ => node,
            };
            Role::Function {
                name: def.name,
                body: def.body,
                outer,
            }
        }
        _ => Role::Other,
    }
}

/// How far a definition is visible: what `export` wraps (on the same line), what is assigned
/// to `exports` or `module.exports`, and class and interface members that are neither
/// `private` nor `#private` (the walker caps those by their class: members of a class that is
/// not exported are not). Read from the node, its children and the bytes before it.
fn visibility(node: Node<'_>, source: &[u8]) -> Visibility {
    let public = |yes: bool| {
        if yes {
            Visibility::Public
        } else {
            Visibility::Private
        }
    };
    match node.kind() {
        "export_statement" => Visibility::Public,
        "method_definition"
        | "method_signature"
        | "abstract_method_signature"
        | "public_field_definition"
        | "field_definition" => {
            let mut cursor = node.walk();
            let private = node.children(&mut cursor).any(|c| {
                c.kind() == "private_property_identifier"
                    || (c.kind() == "accessibility_modifier" && text(c, source) == "private")
            });
            public(!private)
        }
        "assignment_expression" => public(node.child_by_field_name("left").is_some_and(|l| {
            let target = text(l, source);
            target.starts_with("exports.") || target.starts_with("module.exports")
        })),
        _ => public(exported(node, source)),
    }
}

/// Whether `export` (or `export default`) comes right before a node, on its line.
fn exported(node: Node<'_>, source: &[u8]) -> bool {
    let before = word_before(source, node.start_byte());
    let word = &source[before.clone()];
    word == b"export"
        || (word == b"default" && &source[word_before(source, before.start)] == b"export")
}

/// A `const` declaration whose first value is not a function, named by its first declarator
/// (its head up to the value).
fn const_declaration(node: Node<'_>) -> Option<Declaration<'_>> {
    if node.child(0).is_none_or(|c| c.kind() != "const") {
        return None;
    }
    let mut cursor = node.walk();
    let declarator = node
        .named_children(&mut cursor)
        .find(|c| c.kind() == "variable_declarator")?;
    let name = declarator
        .child_by_field_name("name")
        .filter(|n| n.kind() == "identifier")?;
    let value = declarator.child_by_field_name("value");
    if value.is_some_and(is_function_value) {
        return None;
    }
    Some(Declaration {
        kind: "const",
        name,
        outer: node,
        head_end: value.map_or(node.end_byte(), |v| v.start_byte()),
    })
}

/// Whether a node is a comment.
fn is_comment(node: Node<'_>) -> bool {
    COMMENTS.contains(&node.kind())
}

/// The name a scope node qualifies with, and whether functions directly inside are methods.
fn scope(node: Node<'_>, source: &[u8]) -> Option<(String, bool)> {
    let (name, methods) = match node.kind() {
        // An anonymous class expression is named by the node binding it (below).
        "class_declaration" | "abstract_class_declaration" | "interface_declaration" | "class" => (
            text(node.child_by_field_name("name")?, source).to_owned(),
            true,
        ),
        "internal_module" | "module" => {
            let name = node.child_by_field_name("name")?;
            let name = match name.kind() {
                "string" => unquote(text(name, source)),
                // `A.B` may be written `A . B`.
                _ => text(name, source).split_whitespace().collect(),
            };
            (name, false)
        }
        // A binding of an anonymous class or an object literal: naming it from here, rather
        // than from the value, spares the value a parent lookup.
        "variable_declarator" | "pair" | "assignment_expression" | "export_statement" => {
            let value = bound_value(node)?;
            let methods = match value.kind() {
                "class" if value.child_by_field_name("name").is_none() => true,
                "object" if matches!(node.kind(), "variable_declarator" | "pair") => false,
                _ => return None,
            };
            (binding_name(node, source)?, methods)
        }
        _ => return None,
    };
    // A malformed tree can leave a name empty; an empty qualifier would make `.f` names.
    (!name.is_empty()).then_some((name, methods))
}

/// The value a binding node binds: a declarator's or property's value, an assignment's right
/// side, what `export default` exports.
fn bound_value(node: Node<'_>) -> Option<Node<'_>> {
    match node.kind() {
        "assignment_expression" => node.child_by_field_name("right"),
        _ => node.child_by_field_name("value"),
    }
}

/// The name a binding node gives its value: the variable, the property, the assignment target,
/// `default` for `export default`.
fn binding_name(node: Node<'_>, source: &[u8]) -> Option<String> {
    let name = match node.kind() {
        "variable_declarator" => node
            .child_by_field_name("name")
            .filter(|n| n.kind() == "identifier")?,
        "pair" => node.child_by_field_name("key")?,
        "assignment_expression" => target_name(node.child_by_field_name("left")?)?,
        "export_statement" => return Some("default".to_owned()),
        _ => return None,
    };
    Some(text(name, source).to_owned())
}

/// The name node of an assignment target: the identifier, or the last segment of a member
/// expression (`exports.f`, `Foo.prototype.f` → `f`).
fn target_name(left: Node<'_>) -> Option<Node<'_>> {
    match left.kind() {
        "identifier" => Some(left),
        "member_expression" => left.child_by_field_name("property").filter(|p| {
            matches!(
                p.kind(),
                "property_identifier" | "private_property_identifier"
            )
        }),
        _ => None,
    }
}

/// The declaration a wrapper may hold: `export <declaration>`, `declare <declaration>`, the
/// first declarator of a `const`/`let`/`var` statement. It is wrapped when [`claimed`] says so.
fn wrapped_declaration(node: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = node.walk();
    match node.kind() {
        "export_statement" => node.child_by_field_name("declaration"),
        "ambient_declaration" => node.named_children(&mut cursor).find(|c| !is_comment(*c)),
        "lexical_declaration" | "variable_declaration" => node
            .named_children(&mut cursor)
            .find(|c| c.kind() == "variable_declarator"),
        _ => None,
    }
}

/// Whether a wrapper around `node` makes the definition (so `node` itself is not one). Read
/// from the bytes around `node`, with no parent lookup: a declaration right after `export`,
/// `export default` or `declare`, or the only declarator right after `const`, `let` or `var`,
/// on the same line. Both sides of a wrapping ask this same question, so exactly one of them
/// is the function.
fn claimed(node: Node<'_>, source: &[u8]) -> bool {
    let before = word_before(source, node.start_byte());
    let word = &source[before.clone()];
    match node.kind() {
        "function_declaration"
        | "generator_function_declaration"
        | "function_signature"
        | "lexical_declaration"
        | "variable_declaration"
        | "ambient_declaration" => {
            word == b"export"
                || word == b"declare"
                || (word == b"default" && &source[word_before(source, before.start)] == b"export")
        }
        "variable_declarator" => {
            matches!(word, b"const" | b"let" | b"var")
                && byte_after(source, node.end_byte()) != Some(b',')
        }
        _ => false,
    }
}

/// The function `node` defines, looking through the wrappers that claim what they hold.
fn definition<'t>(node: Node<'t>, source: &[u8]) -> Option<Definition<'t>> {
    let mut current = node;
    for _ in 0..=MAX_WRAPPERS {
        match wrapped_declaration(current).filter(|inner| claimed(*inner, source)) {
            Some(inner) => current = inner,
            None => return own_definition(current),
        }
    }
    None
}

/// The function a node defines by itself (no wrapper).
fn own_definition(node: Node<'_>) -> Option<Definition<'_>> {
    let field = |name: &str| node.child_by_field_name(name);
    match node.kind() {
        "function_declaration"
        | "generator_function_declaration"
        | "function_signature"
        | "method_definition"
        | "abstract_method_signature" => Some(Definition {
            name: field("name")?,
            body: field("body"),
        }),
        // Elsewhere (type literals) a method signature is part of a type. A rare kind, so its
        // parent lookup stays cheap.
        "method_signature"
            if node
                .parent()
                .is_some_and(|p| matches!(p.kind(), "class_body" | "interface_body")) =>
        {
            Some(Definition {
                name: field("name")?,
                body: None,
            })
        }
        "variable_declarator" => bound(
            field("name").filter(|n| n.kind() == "identifier"),
            field("value"),
        ),
        // TypeScript's class field, then JavaScript's.
        "public_field_definition" => bound(field("name"), field("value")),
        "field_definition" => bound(field("property"), field("value")),
        "pair" => bound(field("key"), field("value")),
        "assignment_expression" => bound(field("left").and_then(target_name), field("right")),
        // `export default () => {}` is named by its `default` keyword.
        "export_statement" => bound(child_of_kind(node, "default"), field("value")),
        _ => None,
    }
}

/// A function expression bound to a name (`name = value`), when the value is one.
fn bound<'t>(name: Option<Node<'t>>, value: Option<Node<'t>>) -> Option<Definition<'t>> {
    let value = value.filter(|v| is_function_value(*v))?;
    Some(Definition {
        name: name?,
        body: value.child_by_field_name("body"),
    })
}

/// Whether a value is a function expression (arrow, `function`, `function*`).
fn is_function_value(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "arrow_function" | "function_expression" | "generator_function"
    )
}

/// The first of the decorators before a TypeScript method (its siblings in the class body), or
/// the method itself. The parent lookup is skipped when the text before the method rules
/// decorators out.
fn first_decorator<'t>(node: Node<'t>, source: &[u8]) -> Node<'t> {
    if !may_follow_decorator(source, node.start_byte()) {
        return node;
    }
    let Some(parent) = node.parent() else {
        return node;
    };
    let mut first = None;
    let mut cursor = parent.walk();
    for child in parent.children(&mut cursor) {
        if child.id() == node.id() {
            return first.unwrap_or(node);
        }
        match child.kind() {
            "decorator" => {
                first.get_or_insert(child);
            }
            _ if is_comment(child) => {}
            _ => first = None,
        }
    }
    node
}

fn is_identifier_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// The range of the word that ends right before `at` on the same line, across spaces and tabs
/// only (empty when there is none, or when it is part of a longer name or of a member such as
/// `x.export`). The same line, because tree-sitter reads a keyword that ends a line as an
/// identifier in places: `export`, a line break and `function f() {}` parse as the expression
/// `export` and a function.
fn word_before(source: &[u8], at: usize) -> std::ops::Range<usize> {
    // Keywords are at most 7 bytes; one more tells a longer identifier.
    const LONGEST: usize = 8;
    let at = at.min(source.len());
    let floor = at.saturating_sub(TRIVIA_LIMIT);
    let mut end = at;
    while end > floor && matches!(source[end - 1], b' ' | b'\t') {
        end -= 1;
    }
    let mut start = end;
    while start > floor && end - start < LONGEST && is_identifier_byte(source[start - 1]) {
        start -= 1;
    }
    let attached = start > 0
        && (is_identifier_byte(source[start - 1]) || matches!(source[start - 1], b'.' | b'#'));
    if attached { end..end } else { start..end }
}

/// The first byte at or after `at` that is not whitespace or inside a comment.
fn byte_after(source: &[u8], at: usize) -> Option<u8> {
    let limit = at.saturating_add(TRIVIA_LIMIT).min(source.len());
    let mut i = at;
    while i < limit {
        match (source[i], source.get(i + 1)) {
            (b, _) if b.is_ascii_whitespace() => i += 1,
            (b'/', Some(b'/')) => {
                i += source[i..limit].iter().position(|b| *b == b'\n')?;
            }
            (b'/', Some(b'*')) => {
                let close = source[i + 2..limit].windows(2).position(|w| w == b"*/")?;
                i += 2 + close + 2;
            }
            (b, _) => return Some(b),
        }
    }
    None
}

/// Whether the text before `at`, across whitespace and comments, could end a decorator: it
/// cannot when it ends with `{`, `}`, `;` or `,`, or is the file's start. Unsure cases (a
/// line with `//` after code, text past [`TRIVIA_LIMIT`]) answer yes.
fn may_follow_decorator(source: &[u8], at: usize) -> bool {
    let at = at.min(source.len());
    let floor = at.saturating_sub(TRIVIA_LIMIT);
    let mut end = at;
    loop {
        while end > floor && source[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        if end == 0 {
            return false;
        }
        if end <= floor {
            return true;
        }
        let line_start = source[floor..end]
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(floor, |i| floor + i + 1);
        let line = &source[line_start..end];
        if line.ends_with(b"*/") {
            // Back to the comment's opening (the nearest one: a `/*` inside a comment only
            // leaves comment text to read, which answers yes).
            match source[floor..end - 2].windows(2).rposition(|w| w == b"/*") {
                Some(open) => end = floor + open,
                None => return true,
            }
        } else if line.trim_ascii_start().starts_with(b"//") {
            end = line_start;
        } else if line.windows(2).any(|w| w == b"//") {
            // Perhaps a comment after code, perhaps `//` in a string: unsure.
            return true;
        } else {
            return !matches!(source[end - 1], b'{' | b'}' | b';' | b',');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::imports::unquote;
    use super::{byte_after, may_follow_decorator, word_before};
    use crate::lang::{Function, Language, analyze};

    fn functions(label: Language, source: &str) -> Vec<Function> {
        analyze(label, source.as_bytes()).unwrap().functions
    }

    /// `(name, signature, start_line)` of each function.
    fn outline(language: Language, source: &str) -> Vec<(String, String, u32)> {
        functions(language, source)
            .into_iter()
            .map(|f| (f.name, f.signature, f.start_line))
            .collect()
    }

    fn one(name: &str, signature: &str, line: u32) -> (String, String, u32) {
        (name.to_owned(), signature.to_owned(), line)
    }

    #[test]
    fn unquote_drops_one_pair_of_quotes() {
        assert_eq!(unquote("\"m\""), "m");
        assert_eq!(unquote("'./a/b.js'"), "./a/b.js");
        assert_eq!(unquote("''"), "");
        assert_eq!(unquote("bare"), "bare");
        assert_eq!(unquote("\""), "\"");
    }

    #[test]
    fn byte_checks() {
        let word = |s: &str, at: usize| {
            let r = word_before(s.as_bytes(), at);
            s[r].to_owned()
        };
        assert_eq!(word("export  function", 8), "export");
        assert_eq!(word("export \tfunction", 8), "export");
        assert_eq!(word("export\nfunction", 7), "");
        assert_eq!(word("myexport function", 9), "myexport");
        assert_eq!(word("notexported function", 12), "");
        assert_eq!(word("x.export function", 9), "");
        assert_eq!(word("/* c */ function", 8), "");
        assert_eq!(word("function", 0), "");
        assert_eq!(byte_after(b"f = 1 /* a, */ // b,\n , g", 5), Some(b','));
        assert_eq!(byte_after(b"f = 1;", 5), Some(b';'));
        assert_eq!(byte_after(b"f = 1 // open", 5), None);
        assert_eq!(byte_after(b"f = 1 /* open", 5), None);
        let may = |s: &str| may_follow_decorator(s.as_bytes(), s.len());
        assert!(!may(""));
        assert!(!may("class A {\n    "));
        assert!(!may("    x = 1;\n    /** doc */\n    "));
        assert!(!may("    }\n    // note\n    // more\n    "));
        assert!(may("    @Dec()\n    "));
        assert!(may("    @a.b /* c */ "));
        assert!(may("    @Dec() // ends with;\n    "));
        assert!(may("    x = 1\n    "));
    }

    #[test]
    fn one_function_per_wrapped_definition() {
        assert_eq!(
            outline(
                Language::JavaScript,
                "export function f() {}\nexport\nfunction g() {}\nexport /* why */ function h() {}\n"
            ),
            [
                one("f", "export function f()", 1),
                one("g", "function g()", 3),
                one("h", "function h()", 4),
            ]
        );
        assert_eq!(
            outline(
                Language::JavaScript,
                "const a = () => 1 /* c */, b = () => 2;\nlet c = () => 3\nconst d = () => 4\nexport default async function e() {}\n"
            ),
            [
                one("a", "a = () =>", 1),
                one("b", "b = () =>", 1),
                one("c", "let c = () =>", 2),
                one("d", "const d = () =>", 3),
                one("e", "export default async function e()", 4),
            ]
        );
        // `export` ending a member expression is not the keyword.
        assert_eq!(
            outline(Language::JavaScript, "x.export\nfunction h() {}\n"),
            [one("h", "function h()", 2)]
        );
        assert_eq!(
            outline(
                Language::TypeScript,
                "declare function g(): void;\nexport declare function k(a: string): number;\n"
            ),
            [
                one("g", "declare function g(): void;", 1),
                one("k", "export declare function k(a: string): number;", 2),
            ]
        );
    }

    #[test]
    fn typescript_decorators_start_their_method() {
        let source = "class A {\n    @a\n    m() {}\n    @b() // note;\n    n() {}\n    /** doc */\n    o() {}\n    x = 1\n    p() {}\n    @c /* c */ @d()\n    // why\n    q() {}\n    @e f = () => 1;\n}\n";
        let starts: Vec<(String, u32)> = functions(Language::TypeScript, source)
            .into_iter()
            .map(|f| (f.name, f.start_line))
            .collect();
        assert_eq!(
            starts,
            [
                ("A.m".to_owned(), 2),
                ("A.n".to_owned(), 4),
                ("A.o".to_owned(), 7),
                ("A.p".to_owned(), 9),
                ("A.q".to_owned(), 10),
                ("A.f".to_owned(), 13),
            ]
        );
        let q = &functions(Language::TypeScript, source)[4];
        assert_eq!(q.signature, "@c @d() q()");
    }

    #[test]
    fn anonymous_classes_take_their_binding_name() {
        let source = "const A = class { m() {} };\nexports.B = class { n() {} };\nexport default class { o() {} }\nconst C = class Named { p() {} };\nregister(class { q() {} });\n";
        let names: Vec<(String, &str)> = functions(Language::JavaScript, source)
            .into_iter()
            .map(|f| (f.name, f.kind.label()))
            .collect();
        assert_eq!(
            names,
            [
                ("A.m".to_owned(), "method"),
                ("B.n".to_owned(), "method"),
                ("default.o".to_owned(), "method"),
                ("Named.p".to_owned(), "method"),
                ("q".to_owned(), "function"),
            ]
        );
    }
}
