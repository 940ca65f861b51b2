//! TypeScript: placeholder (being written); recognises nothing yet.

use tree_sitter::{Language, Node};

use super::{Analyzer, Role};

/// The TypeScript analyzer.
pub struct TypeScript;

impl Analyzer for TypeScript {
    fn labels(&self) -> &'static [&'static str] {
        &["typescript", "tsx"]
    }

    fn grammar(&self, label: &str) -> Language {
        let _ = label;
        if label == "tsx" { tree_sitter_typescript::LANGUAGE_TSX.into() } else { tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into() }
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
