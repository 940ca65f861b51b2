//! Calls as written, from the call nodes the common tree-sitter grammars share.
//!
//! `call_expression` (Rust, TypeScript/JavaScript, Go, C, C++) and `call` (Python) hold the
//! callee in their `function` field; Java's `method_invocation` holds `object` and `name`. A
//! callee is a bare name (`parse`), a path (`crate::x::parse`, `ns::parse`) or a member access
//! (`p.parse`, `self.parse`, `os.path.join`, `p->parse`): the last segment is the name, the rest
//! the qualifier. Anything else (a call of a call's result, of a parenthesised closure) is not
//! a call of a named function and is ignored.

use tree_sitter::Node;

use super::CallSite;
use super::nodes::text;

/// Qualifiers longer than this are kept as `…` (an unknown receiver).
const MAX_QUALIFIER: usize = 160;

/// The call `node` makes, for the grammars that follow the common conventions.
pub fn generic(node: Node<'_>, source: &[u8]) -> Option<CallSite> {
    match node.kind() {
        "call_expression" | "call" => callee(node.child_by_field_name("function")?, source),
        "method_invocation" => {
            let name = node.child_by_field_name("name")?;
            let object = node.child_by_field_name("object");
            site(
                text(name, source),
                object.map_or("", |o| text(o, source)),
                object.is_some(),
            )
        }
        _ => None,
    }
}

/// Decodes a callee expression.
fn callee(mut expr: Node<'_>, source: &[u8]) -> Option<CallSite> {
    // `f::<T>()`, `f<T>()`: the generic arguments are not part of the name.
    while matches!(expr.kind(), "generic_function" | "template_function") {
        expr = expr
            .child_by_field_name("function")
            .or_else(|| expr.child_by_field_name("name"))?;
    }
    if expr.named_child_count() == 0 {
        return site(text(expr, source), "", false);
    }
    let mut name = ["field", "property", "attribute", "name"]
        .iter()
        .find_map(|f| expr.child_by_field_name(f))?;
    // C++ nests paths to the right: `a::b::c` is `a` then `b::c`.
    while name.named_child_count() > 0 {
        name = name
            .child_by_field_name("name")
            .or_else(|| name.child_by_field_name("function"))?;
    }
    let before = std::str::from_utf8(&source[expr.start_byte()..name.start_byte()]).ok()?;
    let before = before.trim_end();
    let (qualifier, member) = if let Some(q) = before.strip_suffix("::") {
        (q, false)
    } else if let Some(q) = before
        .strip_suffix("?.")
        .or_else(|| before.strip_suffix("->"))
        .or_else(|| before.strip_suffix('.'))
    {
        (q, true)
    } else {
        return None;
    };
    site(text(name, source), qualifier, member)
}

/// A call site from its parts, if `name` is an identifier (Ruby's may end with `?` or `!`).
pub fn site(name: &str, qualifier: &str, member: bool) -> Option<CallSite> {
    let word = name.strip_suffix(['?', '!']).unwrap_or(name);
    let identifier = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    if !identifier {
        return None;
    }
    Some(CallSite {
        name: name.to_owned(),
        qualifier: normalize(qualifier),
        member,
    })
}

/// Removes whitespace and generic arguments (`Vec::<u8>` is `Vec`, `Map<K, V>` is `Map`);
/// keeps `<T as Trait>` whole; turns an over-long qualifier into `…`.
fn normalize(qualifier: &str) -> String {
    if qualifier.len() > MAX_QUALIFIER {
        return "…".into();
    }
    let compact: String = {
        let mut out = String::with_capacity(qualifier.len());
        let mut space = false;
        for c in qualifier.chars() {
            if c.is_whitespace() {
                space = true;
                continue;
            }
            let word = |c: char| c.is_alphanumeric() || c == '_';
            if space && out.chars().last().is_some_and(word) && word(c) {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
        out
    };
    if compact.starts_with('<') {
        return compact;
    }
    let mut out = String::with_capacity(compact.len());
    let mut depth = 0usize;
    for c in compact.chars() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.replace("::::", "::").trim_end_matches("::").to_owned()
}

#[cfg(test)]
mod tests {
    use super::super::analyze;
    use super::*;
    use crate::lang::Language;

    fn calls(label: Language, source: &str) -> Vec<(String, String, bool, Option<u32>)> {
        analyze(label, source.as_bytes())
            .unwrap()
            .calls
            .into_iter()
            .map(|c| (c.site.qualifier, c.site.name, c.site.member, c.caller))
            .collect()
    }

    fn q(
        qualifier: &str,
        name: &str,
        member: bool,
        caller: Option<u32>,
    ) -> (String, String, bool, Option<u32>) {
        (qualifier.into(), name.into(), member, caller)
    }

    #[test]
    fn rust_calls() {
        let source = "fn a() { b(); crate::m::c(1); x.d(); Vec::<u8>::new(); f::<T>(); self.g(); (h)(); }\nstatic X: () = top();\n";
        assert_eq!(
            calls(Language::Rust, source),
            [
                q("", "b", false, Some(0)),
                q("crate::m", "c", false, Some(0)),
                q("x", "d", true, Some(0)),
                q("Vec", "new", false, Some(0)),
                q("", "f", false, Some(0)),
                q("self", "g", true, Some(0)),
                q("", "top", false, None),
            ]
        );
    }

    #[test]
    fn rust_calls_inside_macros() {
        let source = "fn a() { assert_eq!(total(&x), crate::m::f(1)); println!(\"{}\", self.g()); vec![h(1)]; }\n";
        assert_eq!(
            calls(Language::Rust, source),
            [
                q("", "total", false, Some(0)),
                q("crate::m", "f", false, Some(0)),
                q("self", "g", true, Some(0)),
                q("", "h", false, Some(0)),
            ]
        );
    }

    #[test]
    fn python_calls() {
        let source = "import os\ndef a():\n    b()\n    os.path.join(x)\n    self.c()\n    def inner():\n        d()\n";
        assert_eq!(
            calls(Language::Python, source),
            [
                q("", "b", false, Some(0)),
                q("os.path", "join", true, Some(0)),
                q("self", "c", true, Some(0)),
                q("", "d", false, Some(1)),
            ]
        );
    }

    #[test]
    fn other_grammars() {
        assert_eq!(
            calls(
                Language::TypeScript,
                "function a() { b(); x?.c(); this.d(); }"
            ),
            [
                q("", "b", false, Some(0)),
                q("x", "c", true, Some(0)),
                q("this", "d", true, Some(0)),
            ]
        );
        assert_eq!(
            calls(Language::Go, "package p\nfunc a() { fmt.Println(); b() }"),
            [
                q("fmt", "Println", true, Some(0)),
                q("", "b", false, Some(0))
            ]
        );
        assert_eq!(
            calls(Language::Java, "class A { void a() { b(); x.c(); } }"),
            [q("", "b", false, Some(0)), q("x", "c", true, Some(0))]
        );
        assert_eq!(
            calls(Language::C, "int a() { b(); p->c(); }"),
            [q("", "b", false, Some(0)), q("p", "c", true, Some(0))]
        );
        assert_eq!(
            calls(
                Language::Cpp,
                "void a() { std::chrono::now(); v.push_back(1); f<int>(); }"
            ),
            [
                q("std::chrono", "now", false, Some(0)),
                q("v", "push_back", true, Some(0)),
                q("", "f", false, Some(0)),
            ]
        );
    }

    #[test]
    fn qualifiers_are_normalized() {
        assert_eq!(normalize("Vec::<u8>"), "Vec");
        assert_eq!(normalize("HashMap<K, V>"), "HashMap");
        assert_eq!(normalize("<T as Trait>"), "<T as Trait>");
        assert_eq!(normalize("a\n    .b"), "a.b");
        assert_eq!(normalize(&"x".repeat(200)), "…");
    }
}
