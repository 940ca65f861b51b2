//! Reading nodes, for the walk and the analyzers alike: a node's text, its first child of a
//! kind, the words of its modifiers, and a type's name as it qualifies the methods inside
//! (whole, without spaces, or its simple name).

use tree_sitter::Node;

/// Returns a node's text (empty for invalid UTF-8).
pub fn text<'s>(node: Node<'_>, source: &'s [u8]) -> &'s str {
    std::str::from_utf8(&source[node.byte_range()]).unwrap_or("")
}

/// The first child of `node` of the given kind (named or not).
pub fn child_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    node.children(&mut cursor).find(|c| c.kind() == kind)
}

/// The words of a node's modifier children (the direct children whose kind is in `kinds`):
/// `public`, `static`, `@Override`, `private[pkg]` as `private` and `pkg`. For the analyzers'
/// [`super::Analyzer::visibility`].
pub fn modifier_words<'s>(node: Node<'_>, kinds: &[&str], source: &'s [u8]) -> Vec<&'s str> {
    let mut cursor = node.walk();
    let mut words = Vec::new();
    for child in node.children(&mut cursor) {
        if kinds.contains(&child.kind()) {
            words.extend(
                text(child, source)
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '@'))
                    .filter(|w| !w.is_empty()),
            );
        }
    }
    words
}

/// A type's name for qualifying methods: generic arguments dropped (so changing them does not
/// rename every method), whitespace collapsed to single spaces (`dyn Trait` stays two words).
/// Languages whose type names hold no spaces remove them ([`type_name_tight`]).
pub fn type_name(ty: &str) -> String {
    let mut out = String::with_capacity(ty.len());
    let mut depth = 0usize;
    for c in ty.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// [`type_name`] without any whitespace (`Foo <T>` and `Foo<T>` are `Foo`; C++'s `a :: B` is
/// `a::B`).
pub fn type_name_tight(ty: &str) -> String {
    unspaced(&type_name(ty))
}

/// A text without its whitespace (a name written across lines or with spaces around its
/// separators: `Foo :: Bar` is `Foo::Bar`).
pub fn unspaced(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// A type's simple name: its type arguments (from the first `open`, `<` or `[`: they may
/// hold anything, `Base<() -> Unit>`), `?`, parentheses and whitespace dropped, then its last
/// dotted segment (`kotlin.collections.List<T>?` is `List`).
pub fn simple_type(ty: &str, open: char) -> String {
    let name = ty.split(open).next().unwrap_or(ty);
    let name: String = name
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '?' | '(' | ')'))
        .collect();
    match name.rsplit_once('.') {
        Some((_, simple)) => simple.to_owned(),
        None => name,
    }
}
