//! Rust's item-position macros, which the grammar reads as token trees: where a macro
//! invocation stands for items (`cfg_rt! { pub fn f() {} }`, `cfg_if::cfg_if! { if
//! #[cfg(unix)] { .. } else { .. } }`), the ranges its items would be parsed from (ADR 20);
//! and calls written inside a macro's arguments (`assert_eq!(total(&x), 3)`).

use tree_sitter::Node;

use super::first_attribute;
use crate::lang::nodes::text;
use crate::lang::{CallSite, Wrapper, calls};

/// The wrapper a macro invocation is at item position: in a file, a module or an impl or
/// trait body (`m!(..);` at the top of a file is a statement of the file).
pub(super) fn wrapper<'t>(node: Node<'t>, source: &[u8]) -> Option<Wrapper<'t>> {
    let parent = node.parent()?;
    let item_position = match parent.kind() {
        "source_file" | "declaration_list" => true,
        "expression_statement" => parent.parent().is_some_and(|p| p.kind() == "source_file"),
        _ => false,
    };
    if !item_position {
        return None;
    }
    let path = node.child_by_field_name("macro")?;
    let mut cursor = node.walk();
    let body = node
        .children(&mut cursor)
        .find(|c| c.kind() == "token_tree")?;
    let name: String = text(path, source).split_whitespace().collect();
    Some(Wrapper {
        kind: "macro",
        name: format!("{name}!"),
        outer: first_attribute(if parent.kind() == "expression_statement" {
            parent
        } else {
            node
        }),
        body,
        items: branches(body, source).unwrap_or_else(|| inside(body).into_iter().collect()),
    })
}

/// A call inside a macro's arguments (`assert_eq!(total(&x), 3)`), where the grammar keeps
/// only tokens: a parenthesised token tree right after a name, a `::` path or `.name`.
pub(super) fn macro_call(tree: Node<'_>, source: &[u8]) -> Option<CallSite> {
    if tree.child(0).is_none_or(|c| c.kind() != "(") {
        return None;
    }
    let name = tree.prev_sibling().filter(|n| n.kind() == "identifier")?;
    let mut parts: Vec<&str> = Vec::new();
    let mut member = false;
    let mut at = name.prev_sibling();
    while let Some(sep) = at {
        match sep.kind() {
            "::" => {}
            "." if parts.is_empty() => member = true,
            _ => break,
        }
        let Some(segment) = sep
            .prev_sibling()
            .filter(|n| matches!(n.kind(), "identifier" | "self" | "crate" | "super"))
        else {
            if member {
                // A method of an expression's value (`a().b()`).
                parts.push("…");
            }
            break;
        };
        parts.push(text(segment, source));
        if member {
            break;
        }
        at = segment.prev_sibling();
    }
    parts.reverse();
    calls::site(text(name, source), &parts.join("::"), member)
}

/// What a token tree holds between its delimiters, as a range of the file (`None` when empty
/// or not delimited).
fn inside(tree: Node<'_>) -> Option<tree_sitter::Range> {
    let open = tree
        .child(0)
        .filter(|c| matches!(c.kind(), "{" | "(" | "["))?;
    let close = tree
        .child(tree.child_count().checked_sub(1)?)
        .filter(|c| matches!(c.kind(), "}" | ")" | "]") && c.id() != open.id())?;
    (open.end_byte() < close.start_byte()).then(|| tree_sitter::Range {
        start_byte: open.end_byte(),
        end_byte: close.start_byte(),
        start_point: open.end_position(),
        end_point: close.start_position(),
    })
}

/// The branches of a `cfg_if!`-style body, `if #[cfg(..)] { items } else if #[cfg(..)] {
/// items } else { items }`: what each branch's braces hold (`None` when the body has another
/// shape). Each branch's items are the wrapper's: they read as if written outside, one after
/// the other.
fn branches(body: Node<'_>, source: &[u8]) -> Option<Vec<tree_sitter::Range>> {
    let mut cursor = body.walk();
    let tokens: Vec<Node<'_>> = body.children(&mut cursor).collect();
    // Between the body's own delimiters.
    let inner = tokens.get(1..tokens.len().checked_sub(1)?)?;
    fn kind<'t>(n: Option<&Node<'t>>) -> &'t str {
        n.map_or("", |n| n.kind())
    }
    let group = |n: Option<&Node<'_>>, open: &str| {
        n.is_some_and(|n| n.kind() == "token_tree" && kind(n.child(0).as_ref()) == open)
    };
    let mut out = Vec::new();
    let mut at = 0;
    let mut first = true;
    loop {
        // `if #[..] { .. }` (first, or after `else`), or a final `else { .. }`.
        let conditional = kind(inner.get(at)) == "if";
        if conditional {
            if !(kind(inner.get(at + 1)) == "#" && group(inner.get(at + 2), "[")) {
                return None;
            }
            at += 3;
        } else if first {
            return None;
        }
        if !group(inner.get(at), "{") {
            return None;
        }
        out.extend(inner.get(at).and_then(|g| inside(*g)));
        at += 1;
        first = false;
        if at == inner.len() {
            return Some(out);
        }
        // A token tree reads `else` as a name.
        if !conditional || inner.get(at).is_none_or(|e| text(*e, source) != "else") {
            return None;
        }
        at += 1;
    }
}

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::lang::analyze;

    fn names(source: &str) -> Vec<(String, &'static str)> {
        crate::lang::testing::names(Language::Rust, source)
    }

    /// Issue 36: tokio writes much of its API inside `cfg_*! { .. }` blocks, which the grammar
    /// reads as tokens: their items are read as if written outside, nested ones too.
    #[test]
    fn items_inside_item_macros_are_read_as_items() {
        let source = r#"
cfg_rt! {
    pub fn spawn() {}
    pub struct Handle;
    cfg_net! {
        pub fn bind() {}
    }
}
impl Builder {
    cfg_unstable! {
        pub fn track_task_schedule_latency(&mut self) -> &mut Self { self }
    }
    pub fn new() -> Builder { Builder }
}
impl Clone for Builder {
    cfg_x! { fn clone(&self) -> Self { todo!() } }
}
cfg_if::cfg_if! {
    if #[cfg(unix)] {
        pub fn unix() {}
    } else if #[cfg(windows)] {
        pub(crate) fn windows() {}
    } else {
        fn other() {}
    }
}
mod inner {
    cfg_io! { pub async fn read() {} }
}
#[cfg(test)]
mod tests {
    cfg_rt! { fn helper() {} }
}
"#;
        assert_eq!(
            crate::lang::testing::interface(Language::Rust, source),
            [
                "spawn public",
                "bind public",
                "Builder::track_task_schedule_latency public",
                "Builder::new public",
                "<Builder as Clone>::clone implementation",
                "unix public",
                "windows private",
                "other private",
                "inner::read public",
                "tests::helper private test",
                "struct Handle public: pub struct Handle",
            ]
        );
        let analysis = analyze(Language::Rust, source.as_bytes()).unwrap();
        let spawn = &analysis.functions[0];
        assert_eq!((spawn.start_line, spawn.end_line), (3, 3));
        let track = &analysis.functions[2];
        assert_eq!(track.kind.label(), "method");
        assert_eq!(
            track.signature,
            "pub fn track_task_schedule_latency(&mut self) -> &mut Self"
        );
        assert!(analysis.opaque.is_empty(), "{:?}", analysis.opaque);
    }

    /// A macro whose body is not items stays opaque, and is named so that a change inside it
    /// can say where it is.
    #[test]
    fn a_macro_whose_body_is_not_items_is_opaque() {
        let source = "impl<'de> Deserializer<'de> for Value {\n    forward_to_deserialize_any! {\n        bool i8 i16\n    }\n    deserialize_number!(deserialize_i8);\n    fn deserialize_any(self) {}\n}\nfrom_integer! { i8 i16 }\nimpl_from!(u8, u16);\nm! {}\nserde_if_integer128! {\n    from_integer! { i128 }\n}\n";
        let analysis = analyze(Language::Rust, source.as_bytes()).unwrap();
        let opaque: Vec<(String, u32, u32)> = analysis
            .opaque
            .iter()
            .map(|o| (o.name.clone(), o.start_line, o.end_line))
            .collect();
        assert_eq!(
            opaque,
            [
                (
                    "macro <Value as Deserializer>::forward_to_deserialize_any!".to_owned(),
                    2,
                    4
                ),
                (
                    "macro <Value as Deserializer>::deserialize_number!".to_owned(),
                    5,
                    5
                ),
                ("macro from_integer!".to_owned(), 8, 8),
                ("macro impl_from!".to_owned(), 9, 9),
                ("macro from_integer!".to_owned(), 12, 12),
            ]
        );
        assert_eq!(
            names(source),
            [(
                "<Value as Deserializer>::deserialize_any".to_owned(),
                "method"
            )]
        );
        // Its tokens are its fingerprint: a change inside it is a change of it.
        let edited = analyze(
            Language::Rust,
            source.replace("bool i8 i16", "bool i8 i32").as_bytes(),
        )
        .unwrap();
        assert_ne!(edited.opaque[0].hash, analysis.opaque[0].hash);
        assert_eq!(edited.opaque[1].hash, analysis.opaque[1].hash);
    }

    /// `#[cfg(x)] m! { fn f() }` reads as `#[cfg(x)] fn f()`: moving an attribute from an item
    /// to the macro around it (serde_json 04ff227) changes no signature.
    #[test]
    fn a_macro_s_attributes_are_its_items_own() {
        let outside = crate::lang::testing::functions(
            Language::Rust,
            "#[cfg(feature = \"x\")]\nm! {\n    fn f(a: u8) {}\n    impl A { fn g() {} }\n}\n",
        );
        let inside = crate::lang::testing::functions(
            Language::Rust,
            "m! {\n    #[cfg(feature = \"x\")]\n    fn f(a: u8) {}\n    impl A { fn g() {} }\n}\n",
        );
        assert_eq!(outside[0].signature, "#[cfg(feature = \"x\")] fn f(a: u8)");
        assert_eq!(outside[0].signature, inside[0].signature);
        assert_eq!(outside[0].signature_hash, inside[0].signature_hash);
        // An impl's members do not take the impl's attributes, in a macro or not.
        assert_eq!(outside[1].signature, "fn g()");
        // Nested: the outer macro's attributes, then the inner one's.
        let nested = crate::lang::testing::functions(
            Language::Rust,
            "#[cfg(a)]\nm! {\n    #[cfg(b)]\n    n! {\n        fn f() {}\n    }\n}\n",
        );
        let written =
            crate::lang::testing::functions(Language::Rust, "#[cfg(a)]\n#[cfg(b)]\nfn f() {}\n");
        assert_eq!(nested[0].signature, "#[cfg(a)] #[cfg(b)] fn f()");
        assert_eq!(nested[0].signature_hash, written[0].signature_hash);
    }

    /// Macros nested past the depth limit are opaque, and a file of them costs a bounded time.
    #[test]
    fn nested_macros_are_bounded() {
        let depth = 900;
        let source = format!(
            "{}pub fn deep() {{}}\n{}",
            "m! {\n".repeat(depth),
            "}\n".repeat(depth)
        );
        let started = std::time::Instant::now();
        let analysis = analyze(Language::Rust, source.as_bytes()).unwrap();
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
        assert!(analysis.functions.is_empty());
        assert_eq!(analysis.opaque.len(), 1);
        assert_eq!(
            analysis.opaque[0].start_line as usize,
            crate::lang::embed::MAX_DEPTH + 1
        );
        let shallow = format!(
            "{}pub fn deep() {{}}\n{}",
            "m! {\n".repeat(3),
            "}\n".repeat(3)
        );
        assert_eq!(names(&shallow), [("deep".to_owned(), "function")]);
    }
}
