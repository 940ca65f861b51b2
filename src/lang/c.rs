//! C: placeholder (being written); recognises nothing yet.

use tree_sitter::{Language, Node};

use super::{Analyzer, Role};

/// The C analyzer.
pub struct C;

impl Analyzer for C {
    fn labels(&self) -> &'static [&'static str] {
        &["c"]
    }

    fn grammar(&self, label: &str) -> Language {
        let _ = label;
        tree_sitter_c::LANGUAGE.into()
    }

    fn separator(&self) -> &'static str {
        "."
    }

    fn role<'t>(&self, _node: Node<'t>, _source: &[u8]) -> Role<'t> {
        Role::Other
    }

    fn is_comment(&self, node: Node<'_>) -> bool {
        node.kind() == "comment"
    }

    fn imports(&self, _node: Node<'_>, _source: &[u8]) -> Vec<String> {
        Vec::new()
    }
}
