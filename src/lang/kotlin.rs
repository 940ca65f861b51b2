//! Kotlin: functions, methods, secondary constructors (`Foo.constructor`), initializer blocks
//! (`Foo.init`) and property accessors (`Foo.count.get`), qualified by their enclosing classes,
//! interfaces, objects and companion objects (`Foo.Companion.create`, or the companion's own
//! name). An extension function is named by its receiver type (`String.shout`, and
//! `Foo.String.shout` inside `Foo`), kind `method`. Enum entries with bodies are scopes
//! (`Op.PLUS.apply`), and so are anonymous objects, named by their first supertype
//! (`Runnable.run`). Lambdas are not functions. Annotations and modifiers are part of the
//! signature; KDoc comments are comments.
//!
//! Interface (ADR 18): everything is public unless `private` or `internal` (`protected` counts
//! public: a subclass elsewhere can call it); an `override` implements a member declared
//! elsewhere; an accessor is as visible as its property, less when it says so (`private set`);
//! `init` blocks are private (nothing calls them). Classes, interfaces, enum classes, objects,
//! type aliases and `const val`s are declarations; a type caps what it holds.
//!
//! Imports: `import a.b.C` is `a.b.C`, `import a.b.*` is `a.b.*`, `import a.b.f as g` is
//! `a.b.f as g`.
//!
//! What Kotlin's formatters (ktlint, ktfmt, IntelliJ) may write either way (ADR 9): trailing
//! commas; optional semicolons (each statement ends with one, written or not); an expression
//! body for a block body holding one `return` or `throw` (`= x` is `{ return x }`); the order of
//! modifiers (`override public` is `public override`); a `: Unit` return type; empty
//! parentheses before a trailing lambda (`f() { }` is `f { }`); `${x}` for `$x` in string
//! templates; the letter case of numbers.

use tree_sitter::Node;

use super::nodes::{child_of_kind, modifier_words, simple_type, text};
use super::normal::caseless;
use super::{
    Analyzer, CallSite, Declaration, Declares, Head, ImportScheme, Language, LanguageConfig,
    Normal, Role, Visibility, calls, fnv,
};

/// Kotlin's facts.
pub(super) static CONFIG: LanguageConfig = LanguageConfig {
    grammars: &[(Language::Kotlin, || tree_sitter_kotlin_ng::LANGUAGE.into())],
    family: &[Language::Kotlin],
    import_scheme: Some(ImportScheme::Kotlin),
    separator: ".",
    comments: &["line_comment", "block_comment"],
    imports_as_written: true,
    normal_kinds: &[
        "number_literal",
        "float_literal",
        ";",
        "=",
        "block",
        "modifiers",
        ":",
        "user_type",
        "value_arguments",
        "string_literal",
        "multiline_string_literal",
    ],
    implied_kinds: &[],
    implied_parents: STATEMENT_LISTS,
    declarations: &[
        // An interface, an enum class or a class, by its keyword and modifiers.
        Declares::hook("class_declaration"),
        Declares::rule(
            "object_declaration",
            "object",
            Head::Child(&["class_body", "enum_class_body"]),
        ),
        Declares::rule("type_alias", "typealias", Head::Child(&["="])).named_by("type"),
        // A `const val`.
        Declares::hook("property_declaration"),
    ],
    wrapper_kinds: &[],
    item_containers: &[],
    analyzer: &Kotlin,
};

/// The Kotlin analyzer.
pub struct Kotlin;

/// Nodes whose children are statements (each ends with an implied `;`).
const STATEMENT_LISTS: &[&str] = &["source_file", "block", "statements", "class_body"];

impl Analyzer for Kotlin {
    fn visibility(
        &self,
        _outer: Node<'_>,
        node: Node<'_>,
        _name: &str,
        source: &[u8],
    ) -> Visibility {
        match node.kind() {
            "anonymous_initializer" => Visibility::Private,
            "getter" | "setter" => {
                let property = node.parent().filter(|p| p.kind() == "property_declaration");
                let outer = property.map_or(Visibility::Public, |p| access(p, source));
                outer.min(access(node, source))
            }
            _ => access(node, source),
        }
    }

    /// A class told from an interface and an enum class by its keyword and modifiers, and a
    /// `const val` (asked about classes and properties only).
    fn declaration<'t>(&self, node: Node<'t>, source: &[u8]) -> Option<Declaration<'t>> {
        let (kind, name, head_end) = match node.kind() {
            "class_declaration" => {
                let kind = if child_of_kind(node, "interface").is_some() {
                    "interface"
                } else if modifier_words(node, &["modifiers"], source).contains(&"enum") {
                    "enum class"
                } else {
                    "class"
                };
                let body = node
                    .named_children(&mut node.walk())
                    .find(|c| matches!(c.kind(), "class_body" | "enum_class_body"));
                let head_end = body.map_or(node.end_byte(), |b| b.start_byte());
                (kind, node.child_by_field_name("name")?, head_end)
            }
            "property_declaration" => {
                if !modifier_words(node, &["modifiers"], source).contains(&"const") {
                    return None;
                }
                let name = child_of_kind(node, "variable_declaration")
                    .and_then(|v| child_of_kind(v, "identifier"))?;
                let value = child_of_kind(node, "=").map_or(node.end_byte(), |e| e.start_byte());
                ("const val", name, value)
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

    fn role<'t>(&self, node: Node<'t>, source: &[u8]) -> Role<'t> {
        let scope = |name: String| Role::Scope {
            name,
            methods: true,
        };
        match node.kind() {
            "function_declaration" => {
                let Some(name) = node.child_by_field_name("name") else {
                    return Role::Other;
                };
                let body = child_of_kind(node, "function_body");
                match receiver(node, name, source) {
                    Some(receiver) => Role::Method {
                        name,
                        body,
                        outer: node,
                        receiver,
                    },
                    None => Role::Function {
                        name,
                        body,
                        outer: node,
                    },
                }
            }
            "secondary_constructor" | "anonymous_initializer" => {
                let keyword = if node.kind() == "secondary_constructor" {
                    "constructor"
                } else {
                    "init"
                };
                match child_of_kind(node, keyword) {
                    Some(name) => Role::Function {
                        name,
                        body: child_of_kind(node, "block"),
                        outer: node,
                    },
                    None => Role::Other,
                }
            }
            // `get() = ...`, `set(v) { ... }`; an accessor without a body is no function.
            "getter" | "setter" => {
                let keyword = if node.kind() == "getter" {
                    "get"
                } else {
                    "set"
                };
                match (
                    child_of_kind(node, keyword),
                    child_of_kind(node, "function_body"),
                ) {
                    (Some(name), Some(body)) => Role::Function {
                        name,
                        body: Some(body),
                        outer: node,
                    },
                    _ => Role::Other,
                }
            }
            "property_declaration"
                if child_of_kind(node, "getter").is_some()
                    || child_of_kind(node, "setter").is_some() =>
            {
                match child_of_kind(node, "variable_declaration")
                    .and_then(|v| child_of_kind(v, "identifier"))
                {
                    Some(name) => scope(text(name, source).to_owned()),
                    None => Role::Other,
                }
            }
            "class_declaration" | "object_declaration" => match node.child_by_field_name("name") {
                Some(name) => scope(text(name, source).to_owned()),
                None => Role::Other,
            },
            "companion_object" => scope(
                node.child_by_field_name("name")
                    .map_or("Companion", |n| text(n, source))
                    .to_owned(),
            ),
            "enum_entry" if child_of_kind(node, "class_body").is_some() => {
                match child_of_kind(node, "identifier") {
                    Some(name) => scope(text(name, source).to_owned()),
                    None => Role::Other,
                }
            }
            // `object : Runnable { ... }`
            "object_literal" => {
                let supertype = child_of_kind(node, "delegation_specifiers")
                    .and_then(|d| d.named_child(0))
                    .map(|d| simple_type(text(d, source), '<'));
                scope(supertype.unwrap_or_else(|| "object".to_owned()))
            }
            _ => Role::Other,
        }
    }

    fn call(&self, node: Node<'_>, source: &[u8]) -> Option<CallSite> {
        if node.kind() != "call_expression" {
            return None;
        }
        let callee = node.named_child(0)?;
        match callee.kind() {
            "identifier" => calls::site(text(callee, source), "", false),
            "navigation_expression" => {
                let last = u32::try_from(callee.named_child_count().checked_sub(1)?).ok()?;
                let name = callee.named_child(last)?;
                if name.kind() != "identifier" {
                    return None;
                }
                let object = callee.named_child(0)?;
                calls::site(text(name, source), text(object, source), true)
            }
            _ => None,
        }
    }

    fn normal(&self, node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
        let parent_kind = parent.map_or("", |p| p.kind());
        match node.kind() {
            "number_literal" | "float_literal" => caseless(&source[node.byte_range()]),
            ";" if STATEMENT_LISTS.contains(&parent_kind) => Normal::Drop,
            // `fun f() = x` is `fun f() { return x }`; `= throw e` is `{ throw e }`.
            "=" if parent_kind == "function_body" => match node.next_named_sibling() {
                Some(value) if is_throw(value, source) => Normal::Drop,
                _ => Normal::As(fnv(b"return")),
            },
            "block" if parent_kind == "function_body" => {
                let only = super::normal::only_child(node, CONFIG.comments);
                match only {
                    Some(statement)
                        if is_throw(statement, source)
                            || (statement.kind() == "return_expression"
                                && statement.named_child_count() > 0
                                && !text(statement, source).starts_with("return@")) =>
                    {
                        Normal::Unwrap
                    }
                    _ => Normal::Keep,
                }
            }
            // `if (c) { a } else { b }` is `if (c) a else b`, and `x -> { a }` is `x -> a`
            // (ktlint's braces); an `if` inside keeps its braces, or an `else` would change owner.
            "block"
                if matches!(parent_kind, "if_expression" | "when_entry")
                    && super::normal::only_child(node, CONFIG.comments)
                        .is_some_and(|c| c.kind() != "if_expression") =>
            {
                Normal::Unwrap
            }
            // Modifiers count in any order.
            "modifiers" => Normal::As(sorted_children(node, source)),
            // `: Unit` is the default return type.
            ":" if parent_kind == "function_declaration" => match node.next_named_sibling() {
                Some(ty)
                    if is_unit(ty, source)
                        && ty
                            .next_named_sibling()
                            .is_none_or(|b| b.kind() == "function_body") =>
                {
                    Normal::Drop
                }
                _ => Normal::Keep,
            },
            "user_type"
                if parent_kind == "function_declaration"
                    && is_unit(node, source)
                    && node.prev_sibling().is_some_and(|p| p.kind() == ":")
                    && node
                        .next_named_sibling()
                        .is_none_or(|b| b.kind() == "function_body") =>
            {
                Normal::Unwrap
            }
            // `f() { }` is `f { }`.
            // (`g() { }` is a call of `g()` with a lambda: the lambda follows the inner call.)
            "value_arguments"
                if parent_kind == "call_expression"
                    && node.named_child_count() == 0
                    && node
                        .next_named_sibling()
                        .or_else(|| parent.and_then(|p| p.next_named_sibling()))
                        .is_some_and(|s| s.kind() == "annotated_lambda") =>
            {
                Normal::Unwrap
            }
            // `"${x}"` is `"$x"`.
            "string_literal" => template(&source[node.byte_range()]),
            // A raw string trimmed by `trimMargin()` or `trimIndent()`: its indentation is
            // formatting (ktlint re-indents it).
            "multiline_string_literal" => {
                let trim = parent
                    .filter(|p| p.kind() == "navigation_expression")
                    .and_then(|p| {
                        let last = u32::try_from(p.named_child_count().checked_sub(1)?).ok()?;
                        p.named_child(last).filter(|n| n.kind() == "identifier")
                    });
                let literal = &source[node.byte_range()];
                match trim.map(|t| text(t, source)) {
                    Some("trimMargin") => template(&trimmed(literal, true)),
                    Some("trimIndent") => template(&trimmed(literal, false)),
                    _ => template(literal),
                }
            }
            _ => Normal::Keep,
        }
    }

    fn implied_end(&self, node: Node<'_>, parent: Option<Node<'_>>) -> &'static [&'static str] {
        let statement_list = parent.is_some_and(|p| STATEMENT_LISTS.contains(&p.kind()));
        // A block holding one statement reads as that statement (an expression body, a branch
        // without braces): there is no statement end to imply.
        let lone_jump = parent.is_some_and(|p| {
            p.kind() == "block" && super::normal::named_count(p, CONFIG.comments) == 1
        });
        if statement_list && !lone_jump && node.is_named() && !CONFIG.is_comment(node) {
            &[";"]
        } else {
            &[]
        }
    }

    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String> {
        if node.kind() != "import" {
            return Vec::new();
        }
        let (mut path, mut star, mut alias) = (None, false, None);
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            match child.kind() {
                "qualified_identifier" => path = Some(child),
                "*" => star = true,
                "identifier" if path.is_some() => alias = Some(child),
                "identifier" => path = Some(child),
                _ => {}
            }
        }
        let Some(path) = path else {
            return Vec::new();
        };
        let mut import: String = text(path, source)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if star {
            import.push_str(".*");
        }
        if let Some(alias) = alias {
            import.push_str(" as ");
            import.push_str(text(alias, source));
        }
        vec![import]
    }
}

/// The first child of `node` of the given kind (named or not).
/// What a declaration's modifiers say: `private` and `internal` private, an `override` an
/// implementation, anything else public (Kotlin's default).
fn access(node: Node<'_>, source: &[u8]) -> Visibility {
    let words = modifier_words(node, &["modifiers"], source);
    if words.contains(&"private") || words.contains(&"internal") {
        Visibility::Private
    } else if words.contains(&"override") {
        Visibility::Implementation
    } else {
        Visibility::Public
    }
}

/// An extension function's receiver type, simple name: the type before the `.` before its name.
fn receiver(node: Node<'_>, name: Node<'_>, source: &[u8]) -> Option<String> {
    let mut cursor = node.walk();
    let mut last_type = None;
    let mut dot = false;
    for child in node.children(&mut cursor) {
        if child.id() == name.id() {
            break;
        }
        match child.kind() {
            "." => dot = true,
            "user_type" | "nullable_type" | "parenthesized_type" | "function_type" => {
                last_type = Some(child);
            }
            _ => {}
        }
    }
    last_type
        .filter(|_| dot)
        .map(|t| simple_type(text(t, source), '<'))
}

/// A string template counted with `${name}` written `$name` where that means the same (the next
/// character cannot continue the name).
fn template(literal: &[u8]) -> Normal {
    if !literal.windows(2).any(|w| w == b"${") {
        return Normal::As(fnv(literal));
    }
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::with_capacity(literal.len());
    let mut i = 0;
    while i < literal.len() {
        if literal[i] == b'\\' && i + 1 < literal.len() {
            out.extend_from_slice(&literal[i..i + 2]);
            i += 2;
            continue;
        }
        if literal[i..].starts_with(b"${") {
            let name_len = literal[i + 2..].iter().take_while(|b| ident(**b)).count();
            let close = i + 2 + name_len;
            let simple = name_len > 0
                && !literal[i + 2].is_ascii_digit()
                && literal.get(close) == Some(&b'}')
                && !literal.get(close + 1).is_some_and(|b| ident(*b));
            if simple {
                out.push(b'$');
                out.extend_from_slice(&literal[i + 2..close]);
                i = close + 1;
                continue;
            }
            // An expression: its line breaks and indentation are formatting (one space for a
            // run of whitespace, none just inside the braces).
            let mut depth = 0usize;
            let mut end = None;
            for (k, b) in literal.iter().enumerate().skip(i + 1) {
                match b {
                    b'{' => depth += 1,
                    b'}' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            end = Some(k);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            // Unclosed (a broken literal): the rest as written, so the scan stays linear.
            let Some(end) = end else {
                out.extend_from_slice(&literal[i..]);
                break;
            };
            out.extend_from_slice(b"${");
            let inner = &literal[i + 2..end];
            let mut words = inner
                .split(u8::is_ascii_whitespace)
                .filter(|w| !w.is_empty())
                .peekable();
            while let Some(word) = words.next() {
                out.extend_from_slice(word);
                if words.peek().is_some() {
                    out.push(b' ');
                }
            }
            out.push(b'}');
            i = end + 1;
            continue;
        }
        out.push(literal[i]);
        i += 1;
    }
    Normal::As(fnv(&out))
}

/// A raw string literal (`"""..."""`) as `trimMargin()` (`margin`) or `trimIndent()` reads it:
/// its first and last lines dropped when blank, blank lines empty, and the indentation before
/// a `|` margin (or the lines' common indentation) removed.
fn trimmed(literal: &[u8], margin: bool) -> Vec<u8> {
    let inner = literal
        .strip_prefix(b"\"\"\"")
        .and_then(|l| l.strip_suffix(b"\"\"\""))
        .unwrap_or(literal);
    let blank = |l: &[u8]| l.iter().all(u8::is_ascii_whitespace);
    let mut lines: Vec<&[u8]> = inner.split(|b| *b == b'\n').collect();
    if lines.len() > 1 && lines.last().is_some_and(|l| blank(l)) {
        lines.pop();
    }
    if lines.first().is_some_and(|l| blank(l)) {
        lines.remove(0);
    }
    let indent = |l: &[u8]| l.iter().take_while(|b| **b == b' ' || **b == b'\t').count();
    let common = lines
        .iter()
        .filter(|l| !blank(l))
        .map(|l| indent(l))
        .min()
        .unwrap_or(0);
    let mut out = b"\"\"\"".to_vec();
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        if blank(line) {
            continue;
        }
        let cut = if !margin {
            common
        } else if line.get(indent(line)) == Some(&b'|') {
            indent(line)
        } else {
            0
        };
        out.extend_from_slice(&line[cut..]);
    }
    out.extend_from_slice(b"\"\"\"");
    out
}

fn is_unit(ty: Node<'_>, source: &[u8]) -> bool {
    ty.kind() == "user_type" && text(ty, source) == "Unit"
}

fn is_throw(node: Node<'_>, source: &[u8]) -> bool {
    node.kind() == "throw_expression"
        || (node.kind() == "jump_expression" && text(node, source).starts_with("throw"))
}

/// A hash of a node's children's texts (whitespace removed), sorted: the same for any order.
fn sorted_children(node: Node<'_>, source: &[u8]) -> u64 {
    let mut cursor = node.walk();
    let mut parts: Vec<Vec<u8>> = node
        .children(&mut cursor)
        .filter(|c| !CONFIG.is_comment(*c))
        .map(|c| {
            source[c.byte_range()]
                .iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace())
                .collect()
        })
        .collect();
    parts.sort();
    fnv(&parts.join(&b' '))
}

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::lang::analyze;
    use crate::lang::testing::{differ, names, same};

    #[test]
    fn qualified_names() {
        let source = r#"package com.x.core

/** doc */
@Ann
class Foo(val x: Int) : Base() {
    constructor(s: String) : this(1) {
    }

    init {
        check(x > 0)
    }

    var q: Int
        get() {
            return 1
        }
        set(v) {
        }

    val auto: Int = 1

    operator fun plus(o: Foo): Foo = this

    fun m(a: Int): Int {
        fun local() = 1
        val l = { y: Int -> y }
        return local() + l(a)
    }

    fun m(a: String): Int = 1

    fun String.inside() = 1

    companion object {
        fun create() = Foo(1)
    }

    object Inner {
        fun i() {
        }
    }

    abstract fun abs()
}

fun String.ext(): Int = length

fun <T> List<T>?.gen(): T = first()

fun Base<() -> Unit>.run() {
}

suspend fun s() {
}

interface I {
    fun j()
}

enum class E {
    A {
        override fun z() {
        }
    },
    B;

    open fun z() {
    }
}

val anon = object : Runnable {
    override fun run() {
    }
}
"#;
        assert_eq!(
            names(Language::Kotlin, source),
            vec![
                ("Foo.constructor".into(), "method"),
                ("Foo.init".into(), "method"),
                ("Foo.q.get".into(), "method"),
                ("Foo.q.set".into(), "method"),
                ("Foo.plus".into(), "method"),
                ("Foo.m".into(), "method"),
                ("Foo.m.local".into(), "function"),
                ("Foo.m".into(), "method"),
                ("Foo.String.inside".into(), "method"),
                ("Foo.Companion.create".into(), "method"),
                ("Foo.Inner.i".into(), "method"),
                ("Foo.abs".into(), "method"),
                ("String.ext".into(), "method"),
                ("List.gen".into(), "method"),
                ("Base.run".into(), "method"),
                ("s".into(), "function"),
                ("I.j".into(), "method"),
                ("E.A.z".into(), "method"),
                ("E.z".into(), "method"),
                ("Runnable.run".into(), "method"),
            ]
        );
    }

    #[test]
    fn imports_and_calls() {
        let source = "package p\n\nimport a.b.C\nimport a.b.*\nimport a.b.f as g\n\nfun top() {\n    a.b()\n    c()\n    d.e.f(1)\n    list.map { it + 1 }\n}\n";
        let analysis = analyze(Language::Kotlin, source.as_bytes()).unwrap();
        assert_eq!(analysis.imports, vec!["a.b.*", "a.b.C", "a.b.f as g"]);
        let calls = crate::lang::testing::call_sites(&analysis);
        assert_eq!(
            calls,
            vec![
                ("b".into(), "a".into()),
                ("c".into(), "".into()),
                ("f".into(), "d.e".into()),
                ("map".into(), "list".into()),
            ]
        );
    }

    #[test]
    fn comments_do_not_change_the_body() {
        crate::lang::testing::comments_only(
            Language::Kotlin,
            b"class K {\n    fun f(x: Int): Int {\n        val y = x + 1\n        return y\n    }\n}\n",
            b"class K {\n    /** Adds one. */\n    fun f(x: Int /* x */): Int { // add\n        val y = x+1 /* really */\n        return y\n    }\n}\n",
        );
    }

    #[test]
    fn formatting_ktlint_applies_is_not_a_change() {
        // Trailing commas, semicolons, expression bodies.
        same(
            Language::Kotlin,
            "fun f(a: Int, b: Int): Int {\n    return a + b\n}\n",
            "fun f(\n    a: Int,\n    b: Int,\n): Int = a + b\n",
        );
        same(
            Language::Kotlin,
            "fun f() {\n    a(); b();\n}\n",
            "fun f() {\n    a()\n    b()\n}\n",
        );
        same(
            Language::Kotlin,
            "fun f(): Nothing {\n    throw X()\n}\n",
            "fun f(): Nothing = throw X()\n",
        );
        same(
            Language::Kotlin,
            "val v: Int\n    get() {\n        return 1\n    }\n",
            "val v: Int\n    get() = 1\n",
        );
        // Modifier order, `: Unit`, parentheses before a trailing lambda, templates, numbers.
        same(
            Language::Kotlin,
            "class A {\n    override public fun f(): Unit {\n        g() { 1 }\n    }\n}\n",
            "class A {\n    public override fun f() {\n        g { 1 }\n    }\n}\n",
        );
        same(
            Language::Kotlin,
            "fun f(): Int {\n    if (a) return 1 else if (b) g() else h()\n    return when (x) {\n        0 -> 0\n        else -> 1\n    }\n}\n",
            "fun f(): Int {\n    if (a) {\n        return 1\n    } else if (b) {\n        g()\n    } else {\n        h()\n    }\n    return when (x) {\n        0 -> {\n            0\n        }\n\n        else -> {\n            1\n        }\n    }\n}\n",
        );
        same(
            Language::Kotlin,
            "fun f() = \"${x} and $y\" + 0XFF\n",
            "fun f() = \"$x and ${y}\" + 0xff\n",
        );
        // Line breaks inside a template's expression.
        same(
            Language::Kotlin,
            "fun f() = \"_${\n    name.replace(\"-\", \"_\")\n}_X\"\n",
            "fun f() = \"_${name.replace(\"-\", \"_\")}_X\"\n",
        );
        // Raw strings re-indented before `trimMargin()` and `trimIndent()`.
        same(
            Language::Kotlin,
            "fun f() {\n    g(\"\"\"\n        |a ${x}\n          |b\n        \"\"\".trimMargin())\n    h(\"\"\"\n        a\n          b\n\n    \"\"\".trimIndent())\n}\n",
            "fun f() {\n    g(\n        \"\"\"\n            |a $x\n            |b\n            \"\"\".trimMargin(),\n    )\n    h(\n        \"\"\"\n            a\n              b\n\n        \"\"\".trimIndent(),\n    )\n}\n",
        );
        same(
            Language::Kotlin,
            "fun f() = \"${x}\"\n",
            "fun f() = \"$x\"\n",
        );
    }

    #[test]
    fn templates_are_read_in_linear_time() {
        let hostile = format!("\"{}\"", "${a ".repeat(200_000));
        let started = std::time::Instant::now();
        assert!(matches!(
            super::template(hostile.as_bytes()),
            crate::lang::Normal::As(_)
        ));
        let nested = format!("\"{}{}\"", "${".repeat(100_000), "}".repeat(100_000));
        assert!(matches!(
            super::template(nested.as_bytes()),
            crate::lang::Normal::As(_)
        ));
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
    }

    #[test]
    fn meaningful_edits_near_the_formatting_rules_are_changes() {
        let f = |body: &str| format!("fun f(): Int {{\n    {body}\n}}\n");
        for (a, b) in [
            ("return g(1)", "return g(2)"),
            ("g(a)", "g(a, b)"),
            ("a()\n    return b()", "b()\n    return a()"),
            ("return (a + b) * c", "return a + b * c"),
            // A block holding one expression is not an expression body.
            ("g()", "return g()"),
            ("return \"${x}y\"", "return \"$x y\""),
            ("return \"${a + b}\"", "return \"${a - b}\""),
            ("return \"${a}b\"", "return \"${a} b\""),
        ] {
            differ(Language::Kotlin, &f(a), &f(b));
        }
        differ(
            Language::Kotlin,
            "fun f() = g()\n",
            "fun f() {\n    g()\n}\n",
        );
        // Indentation inside a raw string that is not trimmed is its content.
        differ(
            Language::Kotlin,
            "fun f() = \"\"\"\n    a\n\"\"\"\n",
            "fun f() = \"\"\"\n        a\n\"\"\"\n",
        );
        differ(
            Language::Kotlin,
            "fun f() = \"\"\"\n    a\n      b\n\"\"\".trimIndent()\n",
            "fun f() = \"\"\"\n    a\n    b\n\"\"\".trimIndent()\n",
        );
        // An `if` inside braces keeps them: the `else` belongs to the outer `if`.
        differ(
            Language::Kotlin,
            "fun f() {\n    if (a) {\n        if (b) c()\n    } else d()\n}\n",
            "fun f() {\n    if (a) if (b) c() else d()\n}\n",
        );
        differ(
            Language::Kotlin,
            "fun f() {\n    if (a) {\n        b()\n        c()\n    }\n}\n",
            "fun f() {\n    if (a) b()\n    c()\n}\n",
        );
        differ(
            Language::Kotlin,
            "fun f(): Int = 1\n",
            "fun f(): Long = 1\n",
        );
        differ(
            Language::Kotlin,
            "fun f() {\n    g(1) { 1 }\n}\n",
            "fun f() {\n    g { 1 }\n}\n",
        );
        differ(
            Language::Kotlin,
            "class A {\n    private fun f() {}\n}\n",
            "class A {\n    public fun f() {}\n}\n",
        );
    }

    #[test]
    fn visibility_and_declarations() {
        let source = r#"
package app

const val VERSION = "1"
typealias Names = List<String>
fun helper() {}
private fun hidden() {}
interface Store {
    fun put(k: String)
}
enum class Kind { A, B }
object Registry {
    fun lookup() {}
}
internal class Cache {
    fun get() {}
}
open class Client : Store {
    init { }
    var size: Int = 0
        get() = field
        private set(v) { field = v }
    fun open() {}
    protected fun send() {}
    internal fun pack() {}
    private fun drop() { fun local() {} }
    override fun put(k: String) {}
    companion object {
        const val MAX = 3
    }
}
"#;
        assert_eq!(
            crate::lang::testing::interface(Language::Kotlin, source),
            [
                "helper public",
                "hidden private",
                "Store.put public",
                "Registry.lookup public",
                "Cache.get private",
                "Client.init private",
                "Client.size.get public",
                "Client.size.set private",
                "Client.open public",
                "Client.send public",
                "Client.pack private",
                "Client.drop private",
                "Client.drop.local private",
                "Client.put implementation",
                "const val VERSION public: const val VERSION",
                "typealias Names public: typealias Names",
                "interface Store public: interface Store",
                "enum class Kind public: enum class Kind",
                "object Registry public: object Registry",
                "class Cache private: internal class Cache",
                "class Client public: open class Client : Store",
                "const val Client.Companion.MAX public: const val MAX",
            ]
        );
    }
}
