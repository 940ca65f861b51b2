//! Lua: functions named as Lua writes them — `helper` (global or `local function`), `M.f` (a
//! function of the table `M`, `function M.f()` or `M.f = function() end`), `M:f` (a method,
//! with its implicit `self`), `a.b.c:d`; a function declared inside another is `outer.inner`.
//! A function value bound to one name (`local f = function() end`, `M.f = function() end`) is
//! that function; anonymous functions passed as arguments (busted's
//! `describe("x", function() ... end)`) and other function values are not functions: their
//! code belongs to the function around them.
//!
//! Interface (ADR 18): a `local function f`, or a function bound to a `local` name
//! (`local f = function() end`), is private (nothing outside its file can name it); a global
//! function and a table's (`M.f`, `M:f`, what a module returns) are public. Lua has no
//! declarations besides functions.
//!
//! Imports: `require("a.b")` and `require "a.b"` are `a.b`.
//!
//! What formatters write either way (ADR 9): `;` and line breaks between statements (every
//! statement but the last is followed by one implied `;`), single or double quotes, the
//! parentheses of a call whose one argument is a string or a table (`f "x"`, `f{}`), `;` or
//! `,` between table fields, redundant parentheses around a name, literal or table, trailing
//! separators.

use tree_sitter::Node;

use super::nodes::text;
use super::normal::{caseless, followed, only_child, quoted_value};
use super::{
    Analyzer, CallSite, FunctionKind, Language, LanguageConfig, Normal, Role, Visibility, calls,
    fnv,
};

/// Lua's facts.
pub(super) static CONFIG: LanguageConfig = LanguageConfig {
    grammars: &[(Language::Lua, || tree_sitter_lua::LANGUAGE.into())],
    family: &[Language::Lua],
    import_scheme: None,
    separator: ".",
    comments: &["comment"],
    // `require` is a call, often inside a function, that formatters rewrite like any code.
    imports_as_written: false,
    normal_kinds: &[
        ";",
        "string",
        "number",
        "arguments",
        "parenthesized_expression",
    ],
    implied_kinds: &[],
    implied_parents: STATEMENTS,
    declarations: &[],
    wrapper_kinds: &[],
    item_containers: &[],
    analyzer: &Lua,
};

/// The Lua analyzer.
pub struct Lua;

/// Nodes whose children are statements.
const STATEMENTS: &[&str] = &["chunk", "block"];

impl Analyzer for Lua {
    fn name_separator(&self, node: Node<'_>) -> Option<&'static str> {
        // `M:f`; `M.f` is joined by the separator.
        match name_node(node).map(|n| n.kind()) {
            Some("method_index_expression") => Some(":"),
            _ => None,
        }
    }

    fn kind(&self, node: Node<'_>, default: FunctionKind) -> FunctionKind {
        match name_node(node).map(|n| n.kind()) {
            Some("method_index_expression") => FunctionKind::Method,
            Some("dot_index_expression") => FunctionKind::Function,
            _ => default,
        }
    }

    fn visibility(
        &self,
        outer: Node<'_>,
        _node: Node<'_>,
        _name: &str,
        _source: &[u8],
    ) -> Visibility {
        // `local function f` and `local f = function() end` (outer is the declaration).
        let local = matches!(
            outer.kind(),
            "function_declaration" | "variable_declaration"
        ) && outer.child(0).is_some_and(|c| c.kind() == "local");
        if local {
            Visibility::Private
        } else {
            Visibility::Public
        }
    }

    fn role<'t>(&self, node: Node<'t>, source: &[u8]) -> Role<'t> {
        match node.kind() {
            "function_declaration" => named(node, node, node.child_by_field_name("name"), source),
            "function_definition" => match binding(node) {
                Some((target, outer)) => named(node, outer, Some(target), source),
                None => Role::Other,
            },
            _ => Role::Other,
        }
    }

    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String> {
        if node.kind() != "function_call" {
            return Vec::new();
        }
        let callee = node.child_by_field_name("name");
        if !callee.is_some_and(|c| c.kind() == "identifier" && text(c, source) == "require") {
            return Vec::new();
        }
        node.child_by_field_name("arguments")
            .and_then(|a| only_child(a, CONFIG.comments))
            .and_then(|s| plain_string(s, source))
            .filter(|m| !m.is_empty())
            .map(|m| vec![String::from_utf8_lossy(&m).into_owned()])
            .unwrap_or_default()
    }

    fn call(&self, node: Node<'_>, source: &[u8]) -> Option<CallSite> {
        if node.kind() != "function_call" {
            return None;
        }
        let callee = node.child_by_field_name("name")?;
        match callee.kind() {
            "identifier" => calls::site(text(callee, source), "", false),
            "dot_index_expression" => calls::site(
                text(callee.child_by_field_name("field")?, source),
                text(callee.child_by_field_name("table")?, source),
                true,
            ),
            "method_index_expression" => calls::site(
                text(callee.child_by_field_name("method")?, source),
                text(callee.child_by_field_name("table")?, source),
                true,
            ),
            _ => None,
        }
    }

    fn is_test(&self, _outer: Node<'_>, _node: Node<'_>, name: &str, _source: &[u8]) -> bool {
        name.starts_with("test")
    }

    fn normal(&self, node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
        let parent_kind = parent.map_or("", |p| p.kind());
        match node.kind() {
            ";" if parent_kind == "table_constructor" => Normal::As(fnv(b",")),
            ";" => Normal::Drop,
            "string" => match plain_string(node, source) {
                Some(value) => Normal::As(quoted_value(b"lua-string", &value, false)),
                None => Normal::Keep,
            },
            "number" => caseless(&source[node.byte_range()]),
            // `f "x"` and `f{...}` are `f("x")` and `f({...})`.
            "arguments"
                if only_child(node, CONFIG.comments)
                    .is_some_and(|a| matches!(a.kind(), "string" | "table_constructor")) =>
            {
                match node.child(0) {
                    Some(open) if open.kind() == "(" => Normal::Unwrap,
                    _ => Normal::Keep,
                }
            }
            // `(x)` around a name, literal or table; not around a call or `...`, whose
            // parentheses keep one value of several.
            "parenthesized_expression"
                if only_child(node, CONFIG.comments).is_some_and(|c| {
                    matches!(
                        c.kind(),
                        "identifier"
                            | "string"
                            | "number"
                            | "nil"
                            | "true"
                            | "false"
                            | "table_constructor"
                            | "dot_index_expression"
                            | "bracket_index_expression"
                            | "parenthesized_expression"
                    )
                }) =>
            {
                Normal::Unwrap
            }
            _ => Normal::Keep,
        }
    }

    fn implied_end(&self, node: Node<'_>, parent: Option<Node<'_>>) -> &'static [&'static str] {
        if !parent.is_some_and(|p| STATEMENTS.contains(&p.kind())) {
            return &[];
        }
        // A separator: only between statements (a comment is none). Statements at the top
        // level belong to no function.
        // `;` alone is an empty statement: no statement at all.
        let nothing = |n: Node<'_>| CONFIG.is_comment(n) || n.kind() == "empty_statement";
        match parent {
            Some(p) if p.kind() != "chunk" && !nothing(node) && followed(node, p, nothing) => {
                &[";"]
            }
            _ => &[],
        }
    }
}

/// The name a function is declared or bound with (`f`, `M.f`, `M:f`).
fn name_node(node: Node<'_>) -> Option<Node<'_>> {
    match node.kind() {
        "function_declaration" => node.child_by_field_name("name"),
        "function_definition" => binding(node).map(|(target, _)| target),
        _ => None,
    }
}

/// The one name a function value is bound to (`local f = function() end`,
/// `M.f = function() end`) and the statement that binds it.
fn binding(def: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    let values = def.parent().filter(|p| p.kind() == "expression_list")?;
    let assignment = values
        .parent()
        .filter(|p| p.kind() == "assignment_statement")?;
    let targets = assignment
        .named_children(&mut assignment.walk())
        .find(|c| c.kind() == "variable_list")?;
    let target = only_child(targets, CONFIG.comments)?;
    if only_child(values, CONFIG.comments)?.id() != def.id() {
        return None;
    }
    let outer = assignment
        .parent()
        .filter(|p| p.kind() == "variable_declaration")
        .unwrap_or(assignment);
    Some((target, outer))
}

/// A function's role from the name it is declared with.
fn named<'t>(node: Node<'t>, outer: Node<'t>, name: Option<Node<'t>>, source: &[u8]) -> Role<'t> {
    let Some(name) = name else {
        return Role::Other;
    };
    let body = node.child_by_field_name("body").or_else(|| {
        node.child(node.child_count().saturating_sub(1))
            .filter(|e| e.kind() == "end")
    });
    let (field, table) = match name.kind() {
        "identifier" => return Role::Function { name, body, outer },
        "dot_index_expression" => ("field", "table"),
        "method_index_expression" => ("method", "table"),
        _ => return Role::Other,
    };
    match (
        name.child_by_field_name(field),
        name.child_by_field_name(table),
    ) {
        (Some(leaf), Some(table)) => Role::Method {
            name: leaf,
            body,
            outer,
            receiver: text(table, source)
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect(),
        },
        _ => Role::Other,
    }
}

/// A short string's value (quotes and `\'`, `\"` escapes resolved); long strings
/// (`[[...]]`) keep their spelling.
fn plain_string(node: Node<'_>, source: &[u8]) -> Option<Vec<u8>> {
    if node.kind() != "string" {
        return None;
    }
    let raw = &source[node.byte_range()];
    let body = match raw {
        [b'"', body @ .., b'"'] | [b'\'', body @ .., b'\''] => body,
        _ => return None,
    };
    let mut value = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i] == b'\\' && matches!(body.get(i + 1), Some(b'\'' | b'"')) {
            value.push(body[i + 1]);
            i += 2;
        } else if body[i] == b'\\' && i + 1 < body.len() {
            value.extend_from_slice(&body[i..i + 2]);
            i += 2;
        } else {
            value.push(body[i]);
            i += 1;
        }
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::lang::analyze;
    use crate::lang::testing::{differ, names, same};

    #[test]
    fn qualified_names_as_lua_writes_them() {
        let source = r#"local M = {}
local function helper(a, ...) return a end
function global() end
function M.f(x) return helper(x) end
function M:g(y)
  local function inner() end
  self:f(y)
end
function a.b.c:d() end
M.h = function(z) return z end
local k = function() end
local p, q = function() end, 1
describe("x", function()
  it("y", function() end)
end)
return M
"#;
        assert_eq!(
            names(Language::Lua, source),
            vec![
                ("helper".into(), "function"),
                ("global".into(), "function"),
                ("M.f".into(), "function"),
                ("M:g".into(), "method"),
                ("M:g.inner".into(), "function"),
                ("a.b.c:d".into(), "method"),
                ("M.h".into(), "function"),
                ("k".into(), "function"),
            ]
        );
    }

    #[test]
    fn imports_and_signatures() {
        let source = "local a = require(\"a.b\")\nlocal c = require 'c'\nlocal M = {}\nfunction M:f(x,\n  y)\n  return x\nend\n";
        let analysis = analyze(Language::Lua, source.as_bytes()).unwrap();
        assert_eq!(analysis.imports, vec!["a.b", "c"]);
        assert_eq!(analysis.functions[0].signature, "function M:f(x, y)");
        assert_eq!(
            (
                analysis.functions[0].start_line,
                analysis.functions[0].end_line
            ),
            (4, 7)
        );
    }

    #[test]
    fn comments_do_not_count() {
        same(
            Language::Lua,
            "function f(x)\n  return x + 1\nend\n",
            "--- Adds one.\nfunction f(x) -- x\n  --[[ long\n  comment ]]\n  return x + 1 -- really\nend\n",
        );
    }

    #[test]
    fn formatting_stylua_applies_is_not_a_change() {
        same(
            Language::Lua,
            "local function f(a)\n  local t = {1; 2,}; g 'x'; h{a}\n  return (a)\nend\n",
            "local function f(a)\n\tlocal t = { 1, 2 }\n\tg(\"x\")\n\th({ a })\n\treturn a\nend\n",
        );
    }

    #[test]
    fn a_require_inside_a_function_counts_as_the_call_it_is() {
        same(
            Language::Lua,
            "local function f(b)\n  return require 'a.b'(b)\nend\n",
            "local function f(b)\n  return require(\"a.b\")(b)\nend\n",
        );
        differ(
            Language::Lua,
            "local function f(b)\n  return require 'a.b'(b)\nend\n",
            "local function f(b)\n  return require 'a.c'(b)\nend\n",
        );
    }

    #[test]
    fn meaningful_edits_near_the_formatting_rules_are_changes() {
        let f = |body: &str| format!("local function f(a, b, ...)\n  {body}\nend\n");
        let pairs: &[(&str, &str)] = &[
            ("return (g())", "return g()"),
            ("return (...)", "return ..."),
            ("g('a\\n')", "g('a')"),
            ("local t = {a, b}", "local t = {a; b; c}"),
            ("return a - (b - 1)", "return a - b - 1"),
        ];
        for (a, b) in pairs {
            differ(Language::Lua, &f(a), &f(b));
        }
    }

    #[test]
    fn visibility_and_declarations() {
        let source = r#"local M = {}
local function helper() end
function global() end
function M.f() end
function M:g()
  local function inner() end
end
local k = function() end
M.h = function() end
return M
"#;
        assert_eq!(
            crate::lang::testing::interface(Language::Lua, source),
            [
                "helper private",
                "global public",
                "M.f public",
                "M:g public",
                "M:g.inner private",
                "k private",
                "M.h public",
            ]
        );
    }
}
