//! JavaScript's and TypeScript's imports, one canonical string per imported name (see the
//! parent module's doc): import statements, re-exports, and whole-module loads (`require("m")`,
//! `import("m")`).

use tree_sitter::Node;

use super::is_comment;
use crate::lang::nodes::text;

/// The imports a node declares, as canonical strings.
pub(super) fn imports(node: Node<'_>, source: &[u8]) -> Vec<String> {
    match node.kind() {
        "import_statement" => import_statement(node, source),
        "export_statement" => re_export(node, source),
        "call_expression" => module_load(node, source).into_iter().collect(),
        _ => Vec::new(),
    }
}

/// A string literal's content (quotes dropped; escapes kept as written).
pub(super) fn unquote(literal: &str) -> String {
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
