//! Rust: functions, methods (`Type::method`, `<Type as Trait>::method`, `Trait::method`),
//! functions in inline modules (`module::function`) and nested functions (`outer::inner`);
//! `use` trees expanded to one path per leaf, and `extern crate`. Items inside macro
//! invocations at item position are read as items where they parse as items (`macros`).

use tree_sitter::Node;

use super::nodes::{text, type_name};
use super::normal::{named_count, only_child};
use super::{
    Analyzer, CallSite, Declaration, Declares, Head, ImportScheme, Language, LanguageConfig,
    Normal, Role, Visibility, Wrapper, calls,
};

mod macros;

/// Rust's facts.
pub(super) static CONFIG: LanguageConfig = LanguageConfig {
    grammars: &[(Language::Rust, || tree_sitter_rust::LANGUAGE.into())],
    family: &[Language::Rust],
    import_scheme: Some(ImportScheme::Rust),
    separator: "::",
    comments: &["line_comment", "block_comment"],
    imports_as_written: true,
    normal_kinds: &[";", "block"],
    implied_kinds: &[],
    implied_parents: &[],
    // The head: up to a braced body or a constant's value; a type alias's target is part of
    // what it declares (and a tuple struct's fields: `Rust::declaration`).
    declarations: &[
        Declares::hook("struct_item"),
        Declares::rule("enum_item", "enum", Head::Field("body")),
        Declares::rule("union_item", "union", Head::Field("body")),
        Declares::rule("trait_item", "trait", Head::Field("body")),
        Declares::rule("type_item", "type", Head::Whole),
        Declares::rule("const_item", "const", Head::Field("value")),
        Declares::rule("static_item", "static", Head::Field("value")),
    ],
    wrapper_kinds: &["macro_invocation"],
    item_containers: &[
        "source_file",
        "declaration_list",
        "mod_item",
        "impl_item",
        "trait_item",
        "foreign_mod_item",
        "expression_statement",
    ],
    analyzer: &Rust,
};

/// The Rust analyzer.
pub struct Rust;

impl Analyzer for Rust {
    fn builds_value(&self, site: &CallSite) -> bool {
        // `Some(x)`, `Ok(x)`, `Point(1, 2)`: capitalised calls are enum variants and tuple
        // structs.
        site.name.starts_with(char::is_uppercase)
    }

    fn role<'t>(&self, node: Node<'t>, source: &[u8]) -> Role<'t> {
        match node.kind() {
            "function_item" | "function_signature_item" => {
                let Some(name) = node.child_by_field_name("name") else {
                    return Role::Other;
                };
                Role::Function {
                    name,
                    body: node.child_by_field_name("body"),
                    outer: first_attribute(node),
                }
            }
            "impl_item" => {
                let ty = node
                    .child_by_field_name("type")
                    .map(|t| type_name(text(t, source)))
                    .unwrap_or_default();
                let name = match node.child_by_field_name("trait") {
                    Some(tr) => format!("<{ty} as {}>", trait_name(tr, source)),
                    None => ty,
                };
                Role::Scope {
                    name,
                    methods: true,
                }
            }
            "trait_item" => match node.child_by_field_name("name") {
                Some(n) => Role::Scope {
                    name: text(n, source).to_owned(),
                    methods: true,
                },
                None => Role::Other,
            },
            "mod_item" if node.child_by_field_name("body").is_some() => {
                match node.child_by_field_name("name") {
                    Some(n) => Role::Scope {
                        name: text(n, source).to_owned(),
                        methods: false,
                    },
                    None => Role::Other,
                }
            }
            _ => Role::Other,
        }
    }

    fn visibility(
        &self,
        _outer: Node<'_>,
        node: Node<'_>,
        _name: &str,
        source: &[u8],
    ) -> Visibility {
        declared_visibility(node, source)
    }

    fn members(&self, scope: Node<'_>, source: &[u8]) -> Option<Visibility> {
        // A member of a trait impl is as visible as the trait; of a trait, as the trait is
        // (whether written in the body or in a macro there).
        match scope.kind() {
            "impl_item" if scope.child_by_field_name("trait").is_some() => {
                Some(Visibility::Implementation)
            }
            "trait_item" => Some(declared_visibility(scope, source)),
            _ => None,
        }
    }

    fn wrapper<'t>(&self, node: Node<'t>, source: &[u8]) -> Option<Wrapper<'t>> {
        macros::wrapper(node, source)
    }

    fn declaration<'t>(&self, node: Node<'t>, _source: &[u8]) -> Option<Declaration<'t>> {
        // A struct's head ends at its braced fields; a tuple struct's fields are part of what
        // it declares.
        let body = node
            .child_by_field_name("body")
            .filter(|b| b.kind() != "ordered_field_declaration_list");
        Some(Declaration {
            kind: "struct",
            name: node.child_by_field_name("name")?,
            outer: node,
            head_end: body.map_or(node.end_byte(), |b| b.start_byte()),
        })
    }

    fn normal(&self, node: Node<'_>, parent: Option<Node<'_>>, _source: &[u8]) -> Normal {
        match node.kind() {
            // `else { return }` is `else { return; }`: the block diverges either way.
            ";" if parent.is_some_and(diverging_tail) => Normal::Drop,
            // `A => { x }` is `A => x`, and `|a| { x }` is `|a| x`.
            "block"
                if parent
                    .is_some_and(|p| matches!(p.kind(), "match_arm" | "closure_expression"))
                    && lone_expression(node) =>
            {
                Normal::Unwrap
            }
            _ => Normal::Keep,
        }
    }

    fn comma_counts(&self, list: Node<'_>, source: &[u8]) -> bool {
        match list.kind() {
            "tuple_expression" | "tuple_type" | "tuple_pattern" => {
                named_count(list, CONFIG.comments) == 1
            }
            // A macro's tokens: a parenthesized group with one comma, at its end, is a
            // one-element tuple unless it follows a name or a closing bracket (then it is an
            // argument list: `vec![f(a,)]`, and the macro's own `m!(a,)`).
            "token_tree" => {
                let before = source[..list.start_byte()]
                    .iter()
                    .rev()
                    .find(|b| !b.is_ascii_whitespace());
                let arguments = before.is_some_and(|b| {
                    b.is_ascii_alphanumeric() || matches!(b, b'_' | b')' | b']' | b'>' | b'!')
                });
                let mut cursor = list.walk();
                list.child(0).is_some_and(|c| c.kind() == "(")
                    && !arguments
                    && list
                        .children(&mut cursor)
                        .filter(|c| c.kind() == ",")
                        .count()
                        == 1
            }
            _ => false,
        }
    }

    fn call(&self, node: Node<'_>, source: &[u8]) -> Option<CallSite> {
        if node.kind() == "token_tree" {
            macros::macro_call(node, source)
        } else {
            calls::generic(node, source)
        }
    }

    fn is_test(&self, outer: Node<'_>, node: Node<'_>, _name: &str, source: &[u8]) -> bool {
        let mut at = Some(outer).filter(|o| o.id() != node.id());
        while let Some(n) = at {
            if n.id() == node.id() || n.start_byte() >= node.start_byte() {
                break;
            }
            if n.kind() == "attribute_item" && test_attribute(text(n, source)) {
                return true;
            }
            at = n.next_sibling();
        }
        false
    }

    fn is_test_scope(&self, node: Node<'_>, name: &str, source: &[u8]) -> bool {
        if node.kind() != "mod_item" {
            return false;
        }
        if matches!(name, "tests" | "test") {
            return true;
        }
        let mut prev = node.prev_sibling();
        while let Some(p) = prev {
            match p.kind() {
                "attribute_item" => {
                    let attribute: String = text(p, source).split_whitespace().collect();
                    if attribute.starts_with("#[cfg(")
                        && attribute
                            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                            .any(|w| w == "test")
                    {
                        return true;
                    }
                }
                "line_comment" | "block_comment" => {}
                _ => break,
            }
            prev = p.prev_sibling();
        }
        false
    }

    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        match node.kind() {
            "use_declaration" => {
                if let Some(arg) = node.child_by_field_name("argument") {
                    expand(arg, "", source, &mut out);
                }
            }
            "extern_crate_declaration" => {
                if let Some(name) = node.child_by_field_name("name") {
                    let mut import = format!("extern crate {}", text(name, source));
                    if let Some(alias) = node.child_by_field_name("alias") {
                        import.push_str(" as ");
                        import.push_str(text(alias, source));
                    }
                    out.push(import);
                }
            }
            _ => {}
        }
        out
    }
}

/// What an item's own visibility modifier says: `pub` is public; `pub(crate)`, `pub(super)`,
/// `pub(in ..)` and no modifier are not.
fn declared_visibility(item: Node<'_>, source: &[u8]) -> Visibility {
    let mut cursor = item.walk();
    let modifier = item
        .children(&mut cursor)
        .find(|c| c.kind() == "visibility_modifier");
    match modifier {
        Some(m) if text(m, source).trim() == "pub" => Visibility::Public,
        _ => Visibility::Private,
    }
}

/// Whether a statement is a `return`, `break` or `continue` ending its block, where a `;`
/// changes nothing (rustfmt adds it).
fn diverging_tail(statement: Node<'_>) -> bool {
    if statement.kind() != "expression_statement" {
        return false;
    }
    let diverges = statement.named_child(0).is_some_and(|e| {
        matches!(
            e.kind(),
            "return_expression" | "break_expression" | "continue_expression"
        )
    });
    if !diverges {
        return false;
    }
    let mut next = statement.next_named_sibling();
    while let Some(n) = next {
        if !CONFIG.is_comment(n) {
            return false;
        }
        next = n.next_named_sibling();
    }
    true
}

/// Whether a block holds one expression and nothing else (no statement, no item, no label).
/// A block-like expression there (`{ match x { .. } }`) is read as a statement without `;`.
fn lone_expression(block: Node<'_>) -> bool {
    block.child(0).is_some_and(|c| c.kind() == "{")
        && only_child(block, CONFIG.comments).is_some_and(|e| {
            let kind = e.kind();
            if kind == "expression_statement" {
                return e.child_count() == 1;
            }
            !(kind.ends_with("_statement")
                || kind.ends_with("_item")
                || kind.ends_with("_declaration")
                || kind.ends_with("attribute_item"))
        })
}

/// Whether an attribute marks a test: `#[test]`, `#[tokio::test]`, `#[rstest]`,
/// `#[test_case(..)]`, `#[quickcheck]`, `#[proptest]`, `#[bench]`.
fn test_attribute(attribute: &str) -> bool {
    let inner = attribute.trim_start_matches("#[").trim_start();
    let path = inner
        .split(|c: char| c == '(' || c == ']' || c == '=' || c.is_whitespace())
        .next()
        .unwrap_or("");
    let last = path.rsplit("::").next().unwrap_or("");
    last.starts_with("test") || matches!(last, "rstest" | "quickcheck" | "proptest" | "bench")
}

/// The first of the attributes directly before an item (or the item itself).
fn first_attribute(node: Node<'_>) -> Node<'_> {
    let mut first = node;
    let mut prev = node.prev_sibling();
    while let Some(p) = prev {
        match p.kind() {
            "attribute_item" => first = p,
            "line_comment" | "block_comment" => {}
            _ => break,
        }
        prev = p.prev_sibling();
    }
    first
}

/// A trait's name for qualifying the methods of an impl of it: its type arguments kept
/// (`From<i128>`, `Encoder<&[u8]>`), so two impls of one trait for one type are told apart
/// whatever else the file holds; lifetimes dropped (`Deserializer<'de>` is `Deserializer`,
/// `PartialEq<&'a str>` is `PartialEq<&str>`): they never tell impls apart. Spelled from its
/// tokens: one space between words, after a comma and around `->`, `=` and `+`, none
/// elsewhere.
fn trait_name(node: Node<'_>, source: &[u8]) -> String {
    const LIFETIME: &str = "'";
    let mut tokens: Vec<&str> = Vec::new();
    let mut cursor = node.walk();
    'walk: loop {
        let current = cursor.node();
        let lifetime = current.kind() == "lifetime";
        if lifetime {
            tokens.push(LIFETIME);
        } else if current.child_count() == 0 && !CONFIG.is_comment(current) {
            tokens.push(text(current, source));
        } else if !CONFIG.is_comment(current) && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node().id() == node.id() {
                break 'walk;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    // Lifetimes out, with the comma that separated one from the next argument, and `<>` left
    // empty by them.
    let mut kept: Vec<&str> = Vec::with_capacity(tokens.len());
    let mut skip_comma = false;
    for token in tokens {
        match token {
            LIFETIME => {
                if kept.last() == Some(&",") {
                    kept.pop();
                } else {
                    skip_comma = true;
                }
                continue;
            }
            "," if skip_comma => {
                skip_comma = false;
                continue;
            }
            ">" if kept.last() == Some(&"<") => {
                kept.pop();
                skip_comma = false;
                continue;
            }
            _ => skip_comma = false,
        }
        kept.push(token);
    }
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut out = String::new();
    for token in kept {
        let after_comma = out.ends_with(',');
        if after_comma
            || (word(out.chars().next_back()) && word(token.chars().next()))
            || matches!(token, "->" | "=" | "+")
        {
            out.push(' ');
        }
        out.push_str(token);
        if matches!(token, "->" | "=" | "+") {
            out.push(' ');
        }
    }
    out
}

fn join(prefix: &str, part: &str) -> String {
    let part: String = part.split_whitespace().collect();
    match (prefix.is_empty(), part.as_str()) {
        (true, _) => part,
        (false, "self") => prefix.to_owned(),
        _ => format!("{prefix}::{part}"),
    }
}

/// Expands a use tree into one path per leaf.
fn expand(node: Node<'_>, prefix: &str, source: &[u8], out: &mut Vec<String>) {
    match node.kind() {
        "use_list" => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                expand(child, prefix, source, out);
            }
        }
        "scoped_use_list" => {
            let path = node
                .child_by_field_name("path")
                .map_or_else(|| prefix.to_owned(), |p| join(prefix, text(p, source)));
            if let Some(list) = node.child_by_field_name("list") {
                expand(list, &path, source, out);
            }
        }
        "use_as_clause" => {
            let path = node
                .child_by_field_name("path")
                .map(|p| text(p, source))
                .unwrap_or("");
            let alias = node
                .child_by_field_name("alias")
                .map(|a| text(a, source))
                .unwrap_or("");
            out.push(format!("{} as {alias}", join(prefix, path)));
        }
        "line_comment" | "block_comment" => {}
        _ => out.push(join(prefix, text(node, source))),
    }
}

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::lang::analyze;

    fn names(source: &str) -> Vec<(String, &'static str)> {
        crate::lang::testing::names(Language::Rust, source)
    }

    #[test]
    fn qualified_names() {
        let source = r#"
fn free() {}
struct Greeter;
impl Greeter {
    pub fn new() -> Self { Greeter }
    fn hello(&self) {
        fn helper() {}
    }
}
impl<T: Clone> Wrapper<T> {
    fn new() -> Self { todo!() }
}
impl std::fmt::Display for Greeter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { Ok(()) }
}
trait Speak {
    fn speak(&self);
    fn loud(&self) { self.speak() }
}
mod inner {
    pub async fn fetch() {}
    mod deeper { fn x() {} }
}
"#;
        assert_eq!(
            names(source),
            vec![
                ("free".into(), "function"),
                ("Greeter::new".into(), "method"),
                ("Greeter::hello".into(), "method"),
                ("Greeter::hello::helper".into(), "function"),
                ("Wrapper::new".into(), "method"),
                ("<Greeter as std::fmt::Display>::fmt".into(), "method"),
                ("Speak::speak".into(), "method"),
                ("Speak::loud".into(), "method"),
                ("inner::fetch".into(), "function"),
                ("inner::deeper::x".into(), "function"),
            ]
        );
    }

    #[test]
    fn trait_impls_are_named_with_their_type_arguments() {
        // Issue 36: `impl Encoder<&[u8]>` beside `impl Encoder<Bytes>` read as one name.
        let source = r#"
impl Encoder<Bytes> for LengthDelimitedCodec { fn encode(&mut self) {} }
impl Encoder<&[u8]> for LengthDelimitedCodec { fn encode(&mut self) {} }
impl<'a> PartialEq<&'a str> for Value { fn eq(&self) -> bool { true } }
impl<'de> serde::Deserializer<'de> for Value { fn deserialize_any(self) {} }
impl<'a, T> From<Cow<'a, [T]>> for Value { fn from(x: u8) -> Self { todo!() } }
impl<K, V> FromIterator<(K, V)> for Map<K, V> { fn from_iter() {} }
impl From<Box<dyn std::error::Error + Send>> for Error { fn from() {} }
impl<T> Index<T> for Value where T: ?Sized { fn index(&self) {} }
"#;
        let got: Vec<String> = names(source).into_iter().map(|(n, _)| n).collect();
        assert_eq!(
            got,
            [
                "<LengthDelimitedCodec as Encoder<Bytes>>::encode",
                "<LengthDelimitedCodec as Encoder<&[u8]>>::encode",
                "<Value as PartialEq<&str>>::eq",
                "<Value as serde::Deserializer>::deserialize_any",
                "<Value as From<Cow<[T]>>>::from",
                "<Map as FromIterator<(K, V)>>::from_iter",
                "<Error as From<Box<dyn std::error::Error + Send>>>::from",
                "<Value as Index<T>>::index",
            ]
        );
    }

    #[test]
    fn a_test_module_calls_are_test_calls_in_and_out_of_functions() {
        let source = "fn prod() { build(); }\n#[cfg(test)]\nmod tests {\n    macro_rules! matched {\n        () => { b.build() };\n    }\n    fn helper() { b.build(); }\n}\n";
        let calls: Vec<(String, Option<u32>, bool)> = analyze(Language::Rust, source.as_bytes())
            .unwrap()
            .calls
            .into_iter()
            .filter(|c| c.site.name == "build")
            .map(|c| (c.site.name, c.caller, c.test))
            .collect();
        assert_eq!(
            calls,
            [
                ("build".to_owned(), Some(0), false),
                ("build".to_owned(), None, true),
                ("build".to_owned(), Some(1), true),
            ]
        );
    }

    #[test]
    fn use_trees_expand_to_leaves() {
        let source = "use std::collections::{HashMap, btree_map::{self, Entry as E}};\nuse crate::a::*;\nuse b;\npub use c::d as e;\nextern crate alloc;\n";
        let imports = analyze(Language::Rust, source.as_bytes()).unwrap().imports;
        assert_eq!(
            imports,
            vec![
                "b",
                "c::d as e",
                "crate::a::*",
                "extern crate alloc",
                "std::collections::HashMap",
                "std::collections::btree_map",
                "std::collections::btree_map::Entry as E",
            ]
        );
    }

    #[test]
    fn attributes_are_part_of_the_signature() {
        let plain = analyze(Language::Rust, b"fn f() { 1; }\n").unwrap();
        let inline = analyze(Language::Rust, b"#[inline]\nfn f() { 1; }\n").unwrap();
        assert_eq!(plain.functions[0].body_hash, inline.functions[0].body_hash);
        assert_ne!(
            plain.functions[0].signature_hash,
            inline.functions[0].signature_hash
        );
        assert_eq!(inline.functions[0].start_line, 1);
        assert_eq!(inline.functions[0].signature, "#[inline] fn f()");
    }

    #[test]
    fn comments_and_whitespace_do_not_change_the_body() {
        let a = analyze(Language::Rust, b"fn f(x: u8) -> u8 {\n    x + 1\n}\n").unwrap();
        let b = analyze(
            Language::Rust,
            b"fn f( x:u8 )->u8{ // add one\n  /* really */ x+1 }\n",
        )
        .unwrap();
        assert_eq!(a.functions[0].body_hash, b.functions[0].body_hash);
        assert_eq!(a.functions[0].signature_hash, b.functions[0].signature_hash);
        assert_ne!(a.functions[0].text_hash, b.functions[0].text_hash);
    }

    #[test]
    fn tests_are_marked() {
        let source = "fn prod() {}\n#[test]\nfn t() {}\n#[tokio::test]\nasync fn u() {}\n#[cfg(test)]\nmod checks {\n    fn helper() {}\n}\nmod tests {\n    fn h() {}\n}\n#[cfg(not(feature = \"x\"))]\nmod other {\n    fn o() {}\n}\n#[inline]\nfn testable() {}\n";
        let tests: Vec<(String, bool)> = analyze(Language::Rust, source.as_bytes())
            .unwrap()
            .functions
            .into_iter()
            .map(|f| (f.name, f.test))
            .collect();
        let expected: Vec<(String, bool)> = [
            ("prod", false),
            ("t", true),
            ("u", true),
            ("checks::helper", true),
            ("tests::h", true),
            ("other::o", false),
            ("testable", false),
        ]
        .iter()
        .map(|(n, t)| ((*n).to_owned(), *t))
        .collect();
        assert_eq!(tests, expected);
    }

    #[test]
    fn formatting_rustfmt_applies_is_not_a_change() {
        use crate::lang::testing::same;
        // Trailing commas where arguments, parameters and generics are wrapped.
        same(
            Language::Rust,
            "fn f<T: Clone, U>(a: T, b: U) -> T { g(a, b); vec![1, 2]; S { a, b } }\n",
            "fn f<\n    T: Clone,\n    U,\n>(\n    a: T,\n    b: U,\n) -> T {\n    g(\n        a,\n        b,\n    );\n    vec![\n        1,\n        2,\n    ];\n    S {\n        a,\n        b,\n    }\n}\n",
        );
        // `where` clauses end with a comma when they are wrapped.
        same(
            Language::Rust,
            "fn f<T>(t: T) where T: Clone { t; }\n",
            "fn f<T>(t: T)\nwhere\n    T: Clone,\n{\n    t;\n}\n",
        );
        // A `;` after a diverging tail expression.
        same(
            Language::Rust,
            "fn f(x: u8) -> u8 { if x > 1 { return 2 } else { loop { break } } for i in a { continue } 0 }\n",
            "fn f(x: u8) -> u8 {\n    if x > 1 {\n        return 2;\n    } else {\n        loop {\n            break;\n        }\n    }\n    for i in a {\n        continue;\n    }\n    0\n}\n",
        );
        // Inside macros, argument lists wrapped by rustfmt.
        same(
            Language::Rust,
            "fn f() { vec![M { s: T::new(S { a, b }) }]; }\n",
            "fn f() {\n    vec![M {\n        s: T::new(\n            S {\n                a,\n                b,\n            },\n        ),\n    }];\n}\n",
        );
        // Closure bodies wrapped in a block.
        same(
            Language::Rust,
            "fn f() { v.with_mut(|p| p.write(1)); }\n",
            "fn f() {\n    v.with_mut(|p| {\n        p.write(1)\n    });\n}\n",
        );
        // Match arms: a block holding one expression, and the commas between arms.
        same(
            Language::Rust,
            "fn f(x: u8) -> u8 { match x { 1 => g(x), 2 => { h(x) } 3 => match x { _ => 4 }, _ => 3 } }\n",
            "fn f(x: u8) -> u8 {\n    match x {\n        1 => {\n            g(x)\n        }\n        2 => h(x),\n        3 => {\n            match x {\n                _ => 4,\n            }\n        }\n        _ => 3,\n    }\n}\n",
        );
    }

    #[test]
    fn meaningful_edits_near_the_formatting_rules_are_changes() {
        use crate::lang::testing::differ;
        // A one-element tuple is not a parenthesized expression.
        differ(
            Language::Rust,
            "fn f() { let t = (1,); }\n",
            "fn f() { let t = (1); }\n",
        );
        differ(Language::Rust, "fn f(t: (u8,)) {}\n", "fn f(t: (u8)) {}\n");
        // ... not even inside a macro's arguments.
        differ(
            Language::Rust,
            "fn f() { m!((1,)); }\n",
            "fn f() { m!((1)); }\n",
        );
        differ(
            Language::Rust,
            "fn f() { m!(a, (1,)); }\n",
            "fn f() { m!(a, (1)); }\n",
        );
        // A block's value: `x` and `x;` differ when the tail does not diverge.
        differ(
            Language::Rust,
            "fn f() -> u8 { x }\n",
            "fn f() -> u8 { x; }\n",
        );
        // A `return;` that is not the last statement is not a tail.
        differ(
            Language::Rust,
            "fn f() { if a { return; g() } }\n",
            "fn f() { if a { return g() } }\n",
        );
        // A match arm block with statements is not its expression.
        differ(
            Language::Rust,
            "fn f(x: u8) { match x { _ => { g(); } } }\n",
            "fn f(x: u8) { match x { _ => g(), } }\n",
        );
        differ(
            Language::Rust,
            "fn f() { v.map(|p| { p.write(1); }); }\n",
            "fn f() { v.map(|p| p.write(1)); }\n",
        );
        // Literals, operators, arguments and order.
        differ(
            Language::Rust,
            "fn f() { g(1, 2); }\n",
            "fn f() { g(1, 3); }\n",
        );
        differ(Language::Rust, "fn f() { a + b; }\n", "fn f() { a - b; }\n");
        differ(
            Language::Rust,
            "fn f() { g(a); }\n",
            "fn f() { g(a, b); }\n",
        );
        differ(
            Language::Rust,
            "fn f() { a(); b(); }\n",
            "fn f() { b(); a(); }\n",
        );
        differ(
            Language::Rust,
            "fn f(a: u8) {}\n",
            "fn f(a: u8, b: u8) {}\n",
        );
    }

    #[test]
    fn signatures_read_as_one_line() {
        let a = crate::lang::testing::functions(
            Language::Rust,
            "pub fn total<\n    T: Clone,\n>(\n    values: &[T], // the values\n    start: T,\n) -> T\nwhere\n    T: Add,\n{\n    start\n}\n",
        );
        assert_eq!(
            a[0].signature,
            "pub fn total<T: Clone>(values: &[T], start: T) -> T where T: Add"
        );
    }

    #[test]
    fn visibility_and_declarations() {
        let source = r#"
pub fn open() {}
pub(crate) fn helper() {}
fn private() { struct Local; }
pub struct Map<K, V> { inner: Vec<(K, V)> }
pub struct Wrapper(pub u8);
pub(crate) enum Kind { A, B }
pub trait Speak: Send {
    fn speak(&self);
    const LOUD: bool = false;
}
trait Hidden { fn h(&self); }
impl<K, V> Map<K, V> {
    pub fn get(&self) -> Option<&V> { None }
    fn grow(&mut self) {}
}
impl<K, V> Clone for Map<K, V> {
    fn clone(&self) -> Self { todo!() }
}
pub type Result<T> = std::result::Result<T, Error>;
pub const MAX: usize = 10;
static mut COUNT: u32 = 0;
#[cfg(test)]
mod tests {
    pub struct Fixture;
    #[test]
    fn t() {}
}
"#;
        assert_eq!(
            crate::lang::testing::interface(Language::Rust, source),
            [
                "open public",
                "helper private",
                "private private",
                "Speak::speak public",
                "Hidden::h private",
                "Map::get public",
                "Map::grow private",
                "<Map as Clone>::clone implementation",
                "tests::t private test",
                "struct Map public: pub struct Map<K, V>",
                "struct Wrapper public: pub struct Wrapper(pub u8)",
                "enum Kind private: pub(crate) enum Kind",
                "trait Speak public: pub trait Speak: Send",
                "const Speak::LOUD public: const LOUD: bool",
                "trait Hidden private: trait Hidden",
                "type Result public: pub type Result<T> = std::result::Result<T, Error>",
                "const MAX public: pub const MAX: usize",
                "static COUNT private: static mut COUNT: u32",
                "struct tests::Fixture public test: pub struct Fixture",
            ]
        );
    }
}
