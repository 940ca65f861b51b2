//! Type annotations a language lets the writer leave out, blanked: the same source with each
//! one replaced by spaces (line breaks kept, so every line stays where it was). Analysed, it
//! gives the functions' fingerprints as if no annotation were written, so an edit that only
//! adds, removes or changes annotations changes no code (`git log -L`'s "type annotations
//! only").
//!
//! One table of what an annotation is, per language (`ANNOTATED`): Python's parameter,
//! return and variable annotations (`x: int`, `-> str`, `y: int = 1`); TypeScript's type
//! annotations (`: T` of parameters, returns, variables and properties). Other languages'
//! types are part of what the code means and are never blanked.
//!
//! Invariants: pure over bytes; the output has the input's length and line breaks; a parse
//! that fails or runs out of its budget gives `None` (the caller compares as written).

use tree_sitter::Node;

use super::Language;

/// How a language writes its annotations.
struct Annotated {
    /// The languages.
    languages: &'static [Language],
    /// Nodes that are an annotation whole (`type_annotation`: `: number`).
    whole: &'static [&'static str],
    /// Nodes whose field names an annotation, blanked from the token before it (`:` or `->`)
    /// to its end: (node kind, field).
    fields: &'static [(&'static str, &'static str)],
}

/// Every language with annotations that can be left out.
const ANNOTATED: &[Annotated] = &[
    Annotated {
        languages: &[Language::Python],
        whole: &[],
        fields: &[
            ("typed_parameter", "type"),
            ("typed_default_parameter", "type"),
            ("function_definition", "return_type"),
            ("assignment", "type"),
        ],
    },
    Annotated {
        languages: &[Language::TypeScript, Language::Tsx],
        whole: &["type_annotation"],
        fields: &[],
    },
];

/// Returns `source` with its type annotations blanked, or `None` when the language has none
/// (or the source cannot be parsed within budget).
pub fn without_annotations(language: Language, source: &[u8]) -> Option<Vec<u8>> {
    let table = ANNOTATED.iter().find(|a| a.languages.contains(&language))?;
    let analyzer = super::for_language(language)?;
    if super::refuse(source).is_some() {
        return None;
    }
    let tree = super::parsing::parse(language, analyzer, source, None).ok()???;
    let mut out = source.to_vec();
    let mut blank = |from: usize, to: usize| {
        for b in out.get_mut(from..to).into_iter().flatten() {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    };
    let mut cursor = tree.walk();
    'walk: loop {
        let node = cursor.node();
        let mut descend = true;
        if table.whole.contains(&node.kind()) {
            blank(node.start_byte(), node.end_byte());
            descend = false;
        } else {
            for (kind, field) in table.fields {
                if node.kind() != *kind {
                    continue;
                }
                if let Some(annotation) = node.child_by_field_name(field) {
                    let from = token_before(annotation)
                        .map_or(annotation.start_byte(), |t| t.start_byte());
                    blank(from, annotation.end_byte());
                }
            }
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    Some(out)
}

/// The `:` or `->` that introduces an annotation (its previous sibling), if it is one.
fn token_before(annotation: Node<'_>) -> Option<Node<'_>> {
    annotation
        .prev_sibling()
        .filter(|t| matches!(t.kind(), ":" | "->"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blanked(language: Language, source: &str) -> String {
        String::from_utf8(without_annotations(language, source.as_bytes()).unwrap()).unwrap()
    }

    #[test]
    fn python_annotations_are_blanked_and_lines_kept() {
        let source =
            "def f(a: int, b: str = 'x', *c) -> t.Optional[int]:\n    y: int = a\n    return y\n";
        let out = blanked(Language::Python, source);
        assert_eq!(out.len(), source.len());
        assert_eq!(
            out,
            "def f(a     , b      = 'x', *c)                   :\n    y      = a\n    return y\n"
        );
    }

    #[test]
    fn typescript_annotations_are_blanked() {
        let out = blanked(
            Language::TypeScript,
            "function f(a: number, b?: string): Promise<void> {\n  const x: number = a;\n}\n",
        );
        assert_eq!(
            out,
            "function f(a        , b?        )                {\n  const x         = a;\n}\n"
        );
    }

    #[test]
    fn analysed_without_annotations_only_the_code_counts() {
        let before = b"def make_str(value):\n    return str(value)\n";
        let after = b"def make_str(value: t.Any) -> str:\n    return str(value)\n";
        let changed = b"def make_str(value: t.Any) -> str:\n    return repr(value)\n";
        let fingerprint = |source: &[u8]| {
            let plain = without_annotations(Language::Python, source).unwrap();
            let a = super::super::analyze(Language::Python, &plain).unwrap();
            (a.functions[0].signature_hash, a.functions[0].body_hash)
        };
        assert_eq!(fingerprint(before), fingerprint(after));
        assert_ne!(fingerprint(before), fingerprint(changed));
        assert!(without_annotations(Language::Rust, b"fn f(a: u8) {}").is_none());
    }
}
