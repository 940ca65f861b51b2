//! Bash (and the POSIX shells the `shell` label covers): functions, written `name() {...}`,
//! `function name {...}` or `function name() (...)`; a function defined inside another is
//! `outer.inner`. A bats test, `@test "does a thing" { ... }`, is a test function named as
//! written, `@test "does a thing"`: bats turns each into a function before bash reads it, and
//! the analyzer reads it the same way ([`Analyzer::prepare`] writes its first line as the
//! block it stands for, at the same length, so lines and columns stay the file's). Its
//! description is its name and does not count toward its body.
//!
//! Interface (ADR 18): every function is public (a sourced file's functions are all callable)
//! and the shell declares nothing else: the analyzer keeps both defaults.
//!
//! Imports: the files `source file` and `. file` read (bats' `load file` too), as written,
//! quotes removed when the path has no expansion.
//!
//! What formatters write either way (ADR 9): `;` or a line break between commands (every
//! command but the last is followed by one implied `;`), line continuations, indentation and
//! spacing; and `function f {`, `f() {` or `function f() {`, which bash reads alike.

use std::borrow::Cow;

use tree_sitter::Node;

use super::nodes::text;
use super::normal::followed;
use super::{Analyzer, CallSite, Language, LanguageConfig, Normal, Role, calls};

/// The shell's facts.
pub(super) static CONFIG: LanguageConfig = LanguageConfig {
    grammars: &[(Language::Shell, || tree_sitter_bash::LANGUAGE.into())],
    family: &[Language::Shell],
    import_scheme: None,
    separator: ".",
    comments: &["comment"],
    imports_as_written: true,
    normal_kinds: &[";", "\\\n", "line_continuation", "function", "(", ")"],
    implied_kinds: &[],
    implied_parents: STATEMENTS,
    declarations: &[],
    wrapper_kinds: &[],
    item_containers: &[],
    analyzer: &Bash,
};

/// The Bash analyzer.
pub struct Bash;

/// Nodes whose children are commands, separated by `;`, `&` or line breaks.
const STATEMENTS: &[&str] = &[
    "program",
    "compound_statement",
    "subshell",
    "do_group",
    "if_statement",
    "elif_clause",
    "else_clause",
    "while_statement",
    "case_item",
];

/// How a bats test starts.
const TEST: &[u8] = b"@test";

impl Analyzer for Bash {
    fn prepare<'s>(&self, source: &'s [u8]) -> Cow<'s, [u8]> {
        bats(source)
    }

    fn role<'t>(&self, node: Node<'t>, source: &[u8]) -> Role<'t> {
        match node.kind() {
            "function_definition" => match node.child_by_field_name("name") {
                Some(name) => Role::Function {
                    name,
                    body: node.child_by_field_name("body"),
                    outer: node,
                },
                None => Role::Other,
            },
            "compound_statement" => match test_name(node, source) {
                Some(name) => Role::Function {
                    name,
                    body: Some(node),
                    outer: node,
                },
                None => Role::Other,
            },
            _ => Role::Other,
        }
    }

    /// A bats test's `@test "name"` line is its name, not its code.
    fn is_docstring(&self, node: Node<'_>, source: &[u8]) -> bool {
        // The sibling lookup last: it is the costly part.
        node.kind() == "command"
            && is_test_line(node, source)
            && node.prev_sibling().is_some_and(|p| p.kind() == "{")
    }

    fn is_test(&self, _outer: Node<'_>, _node: Node<'_>, name: &str, _source: &[u8]) -> bool {
        name.as_bytes().starts_with(TEST)
    }

    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String> {
        if node.kind() != "command" {
            return Vec::new();
        }
        let Some(name) = node.child_by_field_name("name") else {
            return Vec::new();
        };
        if !matches!(text(name, source), "source" | "." | "load") {
            return Vec::new();
        }
        let mut cursor = node.walk();
        let Some(path) = node.children_by_field_name("argument", &mut cursor).next() else {
            return Vec::new();
        };
        let written = text(path, source);
        let plain = match path.kind() {
            "raw_string" => written
                .strip_prefix('\'')
                .and_then(|w| w.strip_suffix('\'')),
            "string"
                if path
                    .named_children(&mut path.walk())
                    .all(|c| c.kind() == "string_content") =>
            {
                written.strip_prefix('"').and_then(|w| w.strip_suffix('"'))
            }
            _ => None,
        };
        let import = plain.unwrap_or(written);
        if import.is_empty() {
            Vec::new()
        } else {
            vec![import.to_owned()]
        }
    }

    fn call(&self, node: Node<'_>, source: &[u8]) -> Option<CallSite> {
        if node.kind() != "command" {
            return None;
        }
        let name = node.child_by_field_name("name")?;
        calls::site(text(name, source), "", false)
    }

    fn normal(&self, node: Node<'_>, parent: Option<Node<'_>>, _source: &[u8]) -> Normal {
        match node.kind() {
            ";" if parent.is_some_and(|p| {
                STATEMENTS.contains(&p.kind())
                    || matches!(p.kind(), "for_statement" | "c_style_for_statement")
            }) =>
            {
                Normal::Drop
            }
            "\\\n" | "line_continuation" => Normal::Drop,
            // `function f {`, `f() {` and `function f() {` are one definition.
            "function" | "(" | ")" if parent.is_some_and(|p| p.kind() == "function_definition") => {
                Normal::Drop
            }
            _ => Normal::Keep,
        }
    }

    fn implied_end(&self, node: Node<'_>, parent: Option<Node<'_>>) -> &'static [&'static str] {
        if !parent.is_some_and(|p| STATEMENTS.contains(&p.kind())) {
            return &[];
        }
        // A separator: only between commands (a comment is none). Commands at the top level
        // belong to no function.
        match parent {
            Some(p) if p.kind() != "program" && followed(node, p, |n| CONFIG.is_comment(n)) => {
                &[";"]
            }
            _ => &[],
        }
    }
}

/// Whether a command is a bats test's `@test ...` line.
fn is_test_line(command: Node<'_>, source: &[u8]) -> bool {
    command
        .child_by_field_name("name")
        .is_some_and(|n| &source[n.byte_range()] == TEST)
}

/// The `@test "name"` command that opens a block written from a bats test line.
fn test_name<'t>(block: Node<'t>, source: &[u8]) -> Option<Node<'t>> {
    let first = block.named_child(0)?;
    (block.child(0)?.kind() == "{"
        && first.kind() == "command"
        && first.start_position().row == block.start_position().row
        && is_test_line(first, source))
    .then_some(first)
}

/// Writes each bats test line, `@test "name" {`, as the block it opens, `{ @test "name"`:
/// the same bytes but for the brace moved to the front (and one space or tab before it
/// dropped to make room for the one after it), so the test's body is one block whose first
/// command names it.
fn bats(source: &[u8]) -> Cow<'_, [u8]> {
    if !source.windows(TEST.len()).any(|w| w == TEST) {
        return Cow::Borrowed(source);
    }
    let mut out = source.to_vec();
    let mut start = 0;
    while start < out.len() {
        let end = out[start..]
            .iter()
            .position(|b| *b == b'\n')
            .map_or(out.len(), |i| start + i);
        rewrite_test_line(&mut out[start..end]);
        start = end + 1;
    }
    Cow::Owned(out)
}

/// Rewrites one line in place if it is `<indent>@test <name> {<blanks>`.
fn rewrite_test_line(line: &mut [u8]) {
    let indent = line
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    let rest = &line[indent..];
    if !rest.starts_with(TEST)
        || !rest
            .get(TEST.len())
            .is_some_and(|b| matches!(b, b' ' | b'\t'))
    {
        return;
    }
    let trimmed = rest.len()
        - rest
            .iter()
            .rev()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\r'))
            .count();
    if trimmed < 2 || rest[trimmed - 1] != b'{' {
        return;
    }
    let brace = indent + trimmed - 1;
    // `@test "x" {` becomes `{ @test "x"` when a blank precedes the brace; else `{@test "x"`.
    let spaced = matches!(line[brace - 1], b' ' | b'\t');
    let head = if spaced { brace - 1 } else { brace };
    let name: Vec<u8> = line[indent..head].to_vec();
    let mut at = indent;
    line[at] = b'{';
    at += 1;
    if spaced {
        line[at] = b' ';
        at += 1;
    }
    line[at..at + name.len()].copy_from_slice(&name);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Language;
    use crate::lang::analyze;
    use crate::lang::testing::{differ, names, same};

    #[test]
    fn functions_and_bats_tests() {
        let source = r#"#!/usr/bin/env bash
foo() {
  local a=$1
  echo "$a" | grep x
}
function bar {
  inner() { :; }
  foo "x"; inner
}
function baz() ( echo sub )
@test "does a thing" {
  run foo
  [ "$status" -eq 0 ]
}
  @test 'second {one}'{
    bar
  }
"#;
        assert_eq!(
            names(Language::Shell, source),
            vec![
                ("foo".into(), "function"),
                ("bar".into(), "function"),
                ("bar.inner".into(), "function"),
                ("baz".into(), "function"),
                ("@test \"does a thing\"".into(), "function"),
                ("@test 'second {one}'".into(), "function"),
            ]
        );
        let analysis = analyze(Language::Shell, source.as_bytes()).unwrap();
        let test = &analysis.functions[4];
        assert!(test.test);
        assert_eq!((test.start_line, test.end_line), (11, 14));
    }

    #[test]
    fn the_bats_rewrite_keeps_every_position() {
        let source = b"a\n@test \"x y\" {\n  b\n}\n\t@test x{\r\n}\n@testing {\n";
        let out = bats(source);
        assert_eq!(out.len(), source.len());
        assert_eq!(
            &*out,
            b"a\n{ @test \"x y\"\n  b\n}\n\t{@test x\r\n}\n@testing {\n"
        );
        assert!(matches!(bats(b"foo() { :; }\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_renamed_test_keeps_its_body() {
        let a = analyze(Language::Shell, b"@test \"one\" {\n  run x\n}\n").unwrap();
        let b = analyze(Language::Shell, b"@test \"two\" {\n  run x\n}\n").unwrap();
        assert_eq!(a.functions[0].body_hash, b.functions[0].body_hash);
        assert_ne!(a.functions[0].name, b.functions[0].name);
    }

    #[test]
    fn imports() {
        let source =
            "source \"$ROOT/lib/x.bash\"\n. ./helper.sh\nsource 'a b.sh'\nload test_helper\n";
        assert_eq!(
            analyze(Language::Shell, source.as_bytes()).unwrap().imports,
            vec![
                "\"$ROOT/lib/x.bash\"",
                "./helper.sh",
                "a b.sh",
                "test_helper"
            ]
        );
    }

    #[test]
    fn comments_do_not_count() {
        same(
            Language::Shell,
            "f() {\n  echo a\n}\n",
            "# Says a.\nf() { # f\n  # really\n  echo a # yes\n}\n",
        );
    }

    #[test]
    fn formatting_shfmt_applies_is_not_a_change() {
        same(
            Language::Shell,
            "f() {\n  if [ -n \"$1\" ]\n  then echo a; echo \\\n    b\n  fi\n  for i in 1 2\n  do\n    g \"$i\"; done\n}\n",
            "f() {\n\tif [ -n \"$1\" ]; then\n\t\techo a\n\t\techo b\n\tfi\n\tfor i in 1 2; do\n\t\tg \"$i\"\n\tdone\n}\n",
        );
    }

    #[test]
    fn meaningful_edits_near_the_formatting_rules_are_changes() {
        let f = |body: &str| format!("f() {{\n  {body}\n}}\n");
        let pairs: &[(&str, &str)] = &[
            ("a\n  b", "a b"),
            ("a; b", "a & b"),
            ("a && b", "a; b"),
            ("echo 'x'", "echo \"x\""),
        ];
        for (a, b) in pairs {
            differ(Language::Shell, &f(a), &f(b));
        }
    }
}
