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

use tree_sitter::Node;

use super::normal::{Parens, caseless, only_child, quoted_value, redundant};
use super::walk::text;
use super::{Declaration, Normal, Role, Visibility, fnv};

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
pub(super) fn role<'t>(node: Node<'t>, source: &[u8], dialect: Dialect) -> Role<'t> {
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

/// How far a definition is visible (both analyzers): what `export` wraps (on the same line),
/// what is assigned to `exports` or `module.exports`, and class and interface members that are
/// neither `private` nor `#private` (the walker caps those by their class: members of a class
/// that is not exported are not). Read from the node, its children and the bytes before it.
pub(super) fn visibility(node: Node<'_>, source: &[u8]) -> Visibility {
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

/// What a node declares besides functions (both analyzers): classes, interfaces, type aliases,
/// enums, and constants (a `const` whose first value is not a function).
pub(super) fn declaration<'t>(node: Node<'t>, _source: &[u8]) -> Option<Declaration<'t>> {
    let kind = match node.kind() {
        "class_declaration" | "abstract_class_declaration" => "class",
        "interface_declaration" => "interface",
        "type_alias_declaration" => "type",
        "enum_declaration" => "enum",
        "lexical_declaration" => {
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
            return Some(Declaration {
                kind: "const",
                name,
                outer: node,
                head_end: value.map_or(node.end_byte(), |v| v.start_byte()),
            });
        }
        _ => return None,
    };
    let head_end = match kind {
        "type" => None,
        _ => node.child_by_field_name("body"),
    };
    Some(Declaration {
        kind,
        name: node.child_by_field_name("name")?,
        outer: node,
        head_end: head_end.map_or(node.end_byte(), |b| b.start_byte()),
    })
}

/// The node kinds [`declaration`] answers for.
pub(super) const DECLARATION_KINDS: &[&str] = &[
    "class_declaration",
    "abstract_class_declaration",
    "interface_declaration",
    "type_alias_declaration",
    "enum_declaration",
    "lexical_declaration",
];

/// Whether a node is a comment.
pub(super) fn is_comment(node: Node<'_>) -> bool {
    matches!(node.kind(), "comment" | "html_comment")
}

/// The imports a node declares, as canonical strings (see the module doc).
pub(super) fn imports(node: Node<'_>, source: &[u8]) -> Vec<String> {
    match node.kind() {
        "import_statement" => import_statement(node, source),
        "export_statement" => re_export(node, source),
        "call_expression" => module_load(node, source).into_iter().collect(),
        _ => Vec::new(),
    }
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
        "export_statement" => {
            let mut cursor = node.walk();
            let default = node.children(&mut cursor).find(|c| c.kind() == "default");
            bound(default, field("value"))
        }
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

/// A string literal's content (quotes dropped; escapes kept as written).
fn unquote(literal: &str) -> String {
    literal
        .strip_prefix(['"', '\''])
        .and_then(|rest| rest.strip_suffix(['"', '\'']))
        .unwrap_or(literal)
        .to_owned()
}

/// The module a node names in its `source` field, unquoted.
fn source_module(node: Node<'_>, source: &[u8]) -> Option<String> {
    node.child_by_field_name("source")
        .map(|s| unquote(text(s, source)))
}

/// `module.name`, with ` as alias` when the alias is given.
fn member(module: &str, name: &str, alias: Option<&str>) -> String {
    match alias {
        Some(alias) => format!("{module}.{name} as {alias}"),
        None => format!("{module}.{name}"),
    }
}

/// The names of `import_specifier` or `export_specifier` children of a list node.
fn specifiers(list: Node<'_>, module: &str, source: &[u8], out: &mut Vec<String>) {
    let mut cursor = list.walk();
    for spec in list.named_children(&mut cursor) {
        if !matches!(spec.kind(), "import_specifier" | "export_specifier") {
            continue;
        }
        let Some(name) = spec.child_by_field_name("name") else {
            continue;
        };
        let alias = spec
            .child_by_field_name("alias")
            .map(|a| unquote(text(a, source)));
        out.push(member(
            module,
            &unquote(text(name, source)),
            alias.as_deref(),
        ));
    }
}

/// The last named, non-comment child of a node (the identifier of `* as ns`).
fn last_named(node: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| !is_comment(*c))
        .last()
}

fn import_statement(node: Node<'_>, source: &[u8]) -> Vec<String> {
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
    let Some(module) = source_module(node, source) else {
        // `import x = require("m")`: the source is the require clause's.
        return children
            .iter()
            .filter(|c| c.kind() == "import_require_clause")
            .filter_map(|c| source_module(*c, source))
            .collect();
    };
    let mut out = Vec::new();
    for clause in children.iter().filter(|c| c.kind() == "import_clause") {
        let mut cursor = clause.walk();
        for part in clause.named_children(&mut cursor) {
            match part.kind() {
                "identifier" => out.push(member(&module, "default", Some(text(part, source)))),
                "namespace_import" => {
                    if let Some(ns) = last_named(part) {
                        out.push(member(&module, "*", Some(text(ns, source))));
                    }
                }
                "named_imports" => specifiers(part, &module, source, &mut out),
                _ => {}
            }
        }
    }
    if out.is_empty() {
        // `import "m"` (for its side effects) and `import {} from "m"` load the module.
        out.push(module);
    }
    out
}

fn re_export(node: Node<'_>, source: &[u8]) -> Vec<String> {
    let Some(module) = source_module(node, source) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        match child.kind() {
            "export_clause" => specifiers(child, &module, source, &mut out),
            "namespace_export" => {
                if let Some(ns) = last_named(child) {
                    out.push(member(&module, "*", Some(&unquote(text(ns, source)))));
                }
            }
            "*" => out.push(member(&module, "*", None)),
            _ => {}
        }
    }
    if out.is_empty() {
        // `export {} from "m"` still loads the module.
        out.push(module);
    }
    out
}

/// The module of `require("m")` or `import("m")` with a string literal.
fn module_load(node: Node<'_>, source: &[u8]) -> Option<String> {
    let function = node.child_by_field_name("function")?;
    let loads = function.kind() == "import"
        || (function.kind() == "identifier" && text(function, source) == "require");
    if !loads {
        return None;
    }
    let arguments = node.child_by_field_name("arguments")?;
    let mut cursor = arguments.walk();
    let mut args = arguments
        .named_children(&mut cursor)
        .filter(|a| !is_comment(*a));
    match (args.next(), args.next()) {
        (Some(only), None) if only.kind() == "string" => Some(unquote(text(only, source))),
        _ => None,
    }
}

/// Statements that end with a `;` whether written or not (automatic semicolon insertion):
/// each counts one, implied, and a written one is dropped.
const STATEMENTS: &[&str] = &[
    "expression_statement",
    "lexical_declaration",
    "variable_declaration",
    "return_statement",
    "throw_statement",
    "break_statement",
    "continue_statement",
    "debugger_statement",
    "do_statement",
    "import_statement",
    "export_statement",
    "type_alias_declaration",
    "ambient_declaration",
    "function_signature",
];

/// The kinds `normal` looks at.
pub(super) const NORMAL_KINDS: &[&str] = &[
    ";",
    "|",
    "&",
    "number",
    "string",
    "parenthesized_expression",
    "formal_parameters",
    "return",
    "throw",
    "break",
    "continue",
    "yield",
];

/// The kinds `implied_end` looks at: [`STATEMENTS`], [`FIELDS`], empty statements and `new`.
pub(super) const IMPLIED_KINDS: &[&str] = &[
    "expression_statement",
    "lexical_declaration",
    "variable_declaration",
    "return_statement",
    "throw_statement",
    "break_statement",
    "continue_statement",
    "debugger_statement",
    "do_statement",
    "import_statement",
    "export_statement",
    "type_alias_declaration",
    "ambient_declaration",
    "function_signature",
    "field_definition",
    "public_field_definition",
    "method_signature",
    "abstract_method_signature",
    "index_signature",
    "empty_statement",
    "new_expression",
];

/// Class members that end with a `;` whether written or not (the `;` is the class body's).
const FIELDS: &[&str] = &[
    "field_definition",
    "public_field_definition",
    "method_signature",
    "abstract_method_signature",
    "index_signature",
];

/// Where an empty statement (a lone `;`) is only a stray separator, which prettier removes.
const STATEMENT_LISTS: &[&str] = &[
    "program",
    "statement_block",
    "class_body",
    "switch_case",
    "switch_default",
];

/// JavaScript's parentheses rule: atoms, whole slots, doubled, or implied by precedence.
static PARENS: Parens = Parens {
    atoms: &[
        "identifier",
        "this",
        "super",
        "member_expression",
        "subscript_expression",
        "call_expression",
        "string",
        "template_string",
        "number",
        "true",
        "false",
        "null",
        "undefined",
        "array",
        "object",
        "regex",
        "jsx_element",
        "jsx_self_closing_element",
        "non_null_expression",
    ],
    slots: &[
        "variable_declarator",
        "assignment_expression",
        "augmented_assignment_expression",
        "return_statement",
        "throw_statement",
        "arguments",
        "array",
        "pair",
        "arrow_function",
        "spread_element",
        "template_substitution",
        "jsx_expression",
        // `(a = 1), b()`: each operand of the comma operator is a whole assignment.
        "sequence_expression",
    ],
    // `new (a())()` is not `new a()()`.
    never: &["new_expression"],
    not_in_slots: &["sequence_expression"],
    unary: &["unary_expression", "await_expression", "update_expression"],
    binary: &["binary_expression"],
    precedence,
    right_assoc: &[b"**"],
};

fn precedence(operator: &[u8]) -> Option<u8> {
    Some(match operator {
        b"??" => 1,
        b"||" => 2,
        b"&&" => 3,
        b"|" => 4,
        b"^" => 5,
        b"&" => 6,
        b"==" | b"!=" | b"===" | b"!==" => 7,
        b"<" | b">" | b"<=" | b">=" | b"instanceof" | b"in" => 8,
        b"<<" | b">>" | b">>>" => 9,
        b"+" | b"-" => 10,
        b"*" | b"/" | b"%" => 11,
        b"**" => 12,
        _ => return None,
    })
}

/// How a node counts toward the fingerprints (shared by both analyzers' `normal`): optional
/// semicolons, separators of object types, redundant parentheses (a lone arrow parameter's
/// included), string quotes, number spellings, quoted property names, a leading `|`.
pub(super) fn normal(node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
    let parent_kind = parent.map_or("", |p| p.kind());
    match node.kind() {
        ";" if STATEMENTS.contains(&parent_kind)
            || matches!(parent_kind, "class_body" | "empty_statement") =>
        {
            Normal::Drop
        }
        // `{ a: string, b: number }` is `{ a: string; b: number }`.
        ";" if matches!(parent_kind, "object_type" | "interface_body") => Normal::As(fnv(b",")),
        // A `|` or `&` before the first member of a union or intersection type.
        "|" | "&"
            if matches!(parent_kind, "union_type" | "intersection_type")
                && parent.is_some_and(|p| p.start_byte() == node.start_byte()) =>
        {
            Normal::Drop
        }
        // `return` and a line break end the statement (JavaScript inserts the `;` there),
        // whatever follows: `return\n(x)` returns nothing. tree-sitter reads the next line as
        // the value, so the break itself must count.
        "return" | "throw" | "break" | "continue" | "yield"
            if parent.is_some_and(|p| {
                matches!(
                    p.kind(),
                    "return_statement"
                        | "throw_statement"
                        | "break_statement"
                        | "continue_statement"
                        | "yield_expression"
                )
            }) && line_break_after(node, source) =>
        {
            Normal::As(fnv(b";\n"))
        }
        "number" => number(&source[node.byte_range()]),
        // Not the `string` type keyword.
        "string" if node.is_named() => string(node, parent, source),
        "parenthesized_expression" if parens_redundant(node, parent, source) => Normal::Unwrap,
        // `(x) => x` is `x => x`.
        "formal_parameters" if parent_kind == "arrow_function" && lone_parameter(node) => {
            Normal::Unwrap
        }
        _ => Normal::Keep,
    }
}

/// The tokens a node ends with whether written or not: a statement's `;`, the `()` of
/// `new Foo`.
pub(super) fn implied_end(node: Node<'_>, parent: Option<Node<'_>>) -> &'static [&'static str] {
    let kind = node.kind();
    let parent_kind = parent.map_or("", |p| p.kind());
    if STATEMENTS.contains(&kind) || (parent_kind == "class_body" && FIELDS.contains(&kind)) {
        &[";"]
    } else if kind == "empty_statement" && !STATEMENT_LISTS.contains(&parent_kind) {
        // The empty body of a control statement (`for (;;);`) is a statement.
        &[";"]
    } else if kind == "new_expression" && node.child_by_field_name("arguments").is_none() {
        &["(", ")"]
    } else {
        &[]
    }
}

/// Whether a line break comes between `node` and the next token of its parent (a value or a
/// label; a written `;` ends the statement anyway).
fn line_break_after(node: Node<'_>, source: &[u8]) -> bool {
    let Some(next) = node.next_sibling() else {
        return false;
    };
    if next.kind() == ";" {
        return false;
    }
    source
        .get(node.end_byte()..next.start_byte())
        .is_some_and(|between| between.contains(&b'\n'))
}

fn parens_redundant(node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> bool {
    if let Some(inner) = only_child(node, is_comment) {
        let kind = inner.kind();
        // `(a?.b).c` stops the optional chain; `a?.b.c` does not.
        if matches!(
            kind,
            "member_expression" | "subscript_expression" | "call_expression"
        ) && text(inner, source).contains("?.")
        {
            return false;
        }
        // `() => ({})` returns an object, `() => {}` nothing; `({} = x)` needs them too.
        if matches!(kind, "object" | "object_pattern" | "assignment_expression")
            && parent.is_some_and(|p| matches!(p.kind(), "arrow_function" | "expression_statement"))
        {
            return false;
        }
    }
    // Every binary and unary expression binds tighter than `?:`, in any of its three places.
    if parent.is_some_and(|p| p.kind() == "ternary_expression")
        && only_child(node, is_comment).is_some_and(|inner| {
            PARENS.binary.contains(&inner.kind()) || PARENS.unary.contains(&inner.kind())
        })
    {
        return true;
    }
    redundant(&PARENS, node, parent, source, is_comment)
}

/// Whether an arrow function's parameter list is one plain name (`(x)`, not `(x: T)`,
/// `(x = 1)` or `(...x)`).
fn lone_parameter(parameters: Node<'_>) -> bool {
    only_child(parameters, is_comment).is_some_and(|p| match p.kind() {
        "identifier" => true,
        "required_parameter" => only_child(p, is_comment).is_some_and(|i| i.kind() == "identifier"),
        _ => false,
    })
}

/// A number by its value when it is a plain decimal (`1.50`, `1.5`, `15e-1`); other
/// spellings in lower case (`0XFF`, `0xff`).
fn number(literal: &[u8]) -> Normal {
    let plain = literal
        .iter()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    let starts_with_zero_digit =
        literal.len() > 1 && literal[0] == b'0' && literal[1].is_ascii_digit();
    if plain && !starts_with_zero_digit {
        if let Some(value) = std::str::from_utf8(literal)
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
        {
            let mut bytes = *b"num:\0\0\0\0\0\0\0\0";
            bytes[4..].copy_from_slice(&value.to_bits().to_le_bytes());
            return Normal::As(fnv(&bytes));
        }
    }
    caseless(literal)
}

/// A string literal by its value: either quote, `\'` and `\"` read as quotes (not in JSX
/// attributes, which have no escapes). A property name that is a valid identifier counts as
/// that identifier (`{"a": 1}` is `{a: 1}`).
fn string(node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
    let range = node.byte_range();
    if range.len() < 2 {
        return Normal::Keep;
    }
    let body = &source[range.start + 1..range.end - 1];
    let key = parent.is_some_and(|p| {
        matches!(p.kind(), "pair" | "property_signature")
            && p.child_by_field_name(if p.kind() == "pair" { "key" } else { "name" })
                .is_some_and(|k| k.id() == node.id())
    });
    if key
        && body.first().is_some_and(|b| !b.is_ascii_digit())
        && body.iter().all(|b| is_identifier_byte(*b))
    {
        return Normal::As(fnv(body));
    }
    let jsx = parent.is_some_and(|p| p.kind() == "jsx_attribute");
    Normal::As(quoted_value(b"", body, !jsx))
}

#[cfg(test)]
mod tests {
    #[test]
    fn implied_kinds_cover_every_statement_and_field() {
        for kind in super::STATEMENTS.iter().chain(super::FIELDS) {
            assert!(super::IMPLIED_KINDS.contains(kind), "{kind}");
        }
    }

    use super::{byte_after, may_follow_decorator, unquote, word_before};
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
