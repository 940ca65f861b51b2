//! Java: placeholder (being written); recognises nothing yet.

use tree_sitter::{Language, Node};

use super::{Analyzer, Role};

/// The Java analyzer.
pub struct Java;

impl Analyzer for Java {
    fn labels(&self) -> &'static [&'static str] {
        &["java"]
    }

    fn grammar(&self, label: &str) -> Language {
        let _ = label;
        tree_sitter_java::LANGUAGE.into()
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
