//! Go: placeholder (being written); recognises nothing yet.

use tree_sitter::{Language, Node};

use super::{Analyzer, Role};

/// The Go analyzer.
pub struct Go;

impl Analyzer for Go {
    fn labels(&self) -> &'static [&'static str] {
        &["go"]
    }

    fn grammar(&self, label: &str) -> Language {
        let _ = label;
        tree_sitter_go::LANGUAGE.into()
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
