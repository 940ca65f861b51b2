//! What analysing a file yields: its [`Function`]s with their fingerprints, its
//! [`Declared`] types and constants, its imports, its [`Call`]s and its [`Opaque`] wrappers, in
//! one [`Analysis`] (the value the per-user cache stores, `cache`).

use super::{FunctionKind, NO_STACK, OUT_OF_TIME};

/// An item-position wrapper whose body is not items (a Rust macro such as
/// `forward_to_deserialize_any! { bool i8 }`): the analysis does not see inside it, and says
/// so, naming it where a change lies in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opaque {
    /// What it is and its qualified name: `macro <Value as Deserializer>::forward_to_deserialize_any!`.
    pub name: String,
    /// First line (1-based), attributes included.
    pub start_line: u32,
    /// Last line (1-based).
    pub end_line: u32,
    /// Hash of its tokens without comments and whitespace: equal when it did not change.
    pub hash: u64,
}

/// How far a definition is visible outside its file or module (ordered: the more visible is
/// the greater).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Visibility {
    /// Usable only where it is defined: `pub(crate)`, `private`, C's `static`, a Python or
    /// Go name its language calls internal, anything inside a function.
    Private,
    /// A member of an implementation of an interface declared elsewhere (a Rust trait impl,
    /// a Java `@Override`): as visible as the interface, its signature the interface's.
    Implementation,
    /// Part of the interface: `pub`, `export`, `public`, an exported Go name.
    #[default]
    Public,
}

impl Visibility {
    /// The label used in the cache and in tests.
    pub fn label(self) -> &'static str {
        match self {
            Visibility::Private => "private",
            Visibility::Implementation => "implementation",
            Visibility::Public => "public",
        }
    }
}

/// A call as written: `name` is what is called, `qualifier` what comes before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSite {
    /// The called name's last segment (`parse` in `crate::x::parse()` or `p.parse()`).
    pub name: String,
    /// The path or receiver before it, whitespace removed (`crate::x`, `p`, `self`), empty
    /// for a bare call; capped in length.
    pub qualifier: String,
    /// Whether the qualifier is a value or module joined with `.`/`->` (`p.parse()`), as
    /// opposed to a path joined with `::`.
    pub member: bool,
}

/// A call found in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// What is called.
    pub site: CallSite,
    /// The line (1-based).
    pub line: u32,
    /// The index in [`Analysis::functions`] of the innermost function making the call
    /// (`None` at module level).
    pub caller: Option<u32>,
    /// Whether the call is test code: in a test, or anywhere in a test scope (a `#[cfg(test)]
    /// mod tests`, a test class), a function around it or not.
    pub test: bool,
}

/// A function or method found in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Qualified name (`Type::method`, `<Type as Trait>::method`, `Class.method`).
    pub name: String,
    /// The last segment of the name.
    pub leaf: String,
    /// A function or a method.
    pub kind: FunctionKind,
    /// Whether it is a test by its own markers or by being inside a test scope.
    pub test: bool,
    /// First line (1-based), including decorators and attributes.
    pub start_line: u32,
    /// Last line (1-based).
    pub end_line: u32,
    /// The signature's text on one line: its tokens, comments left out, single spaces, no
    /// trailing comma.
    pub signature: String,
    /// Hash of the signature's tokens as the language reads them, without the function's own
    /// name (so equal hashes mean equal parameters, return type and modifiers).
    pub signature_hash: u64,
    /// Hash of the body's tokens without comments, whitespace, docstrings and nested functions.
    pub body_hash: u64,
    /// The same hash with every name (identifier, constant, variable) counted by the order of
    /// its first use rather than by its spelling: equal when a body changed only in names.
    pub shape_hash: u64,
    /// Hash of the definition's raw text (to tell formatting-only edits from no edit).
    pub text_hash: u64,
    /// The body's token hashes, sorted (a multiset for similarity); capped.
    pub tokens: Vec<u32>,
    /// How far it is visible.
    pub visibility: Visibility,
}

/// A type, trait, constant or other declaration found in a file
/// ([`super::LanguageConfig::declarations`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    /// Qualified name (`module::Type`, `Outer.Inner`).
    pub name: String,
    /// What it declares (`struct`, `class`, `const`, ...).
    pub kind: String,
    /// The head's text on one line, as a function's signature (`pub struct Map<K, V>`).
    pub signature: String,
    /// How far it is visible.
    pub visibility: Visibility,
    /// Whether it is inside a test scope.
    pub test: bool,
    /// First line (1-based), attributes included.
    pub start_line: u32,
    /// Last line (1-based).
    pub end_line: u32,
}

/// What analysing one file produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    /// Functions and methods, in source order.
    pub functions: Vec<Function>,
    /// Types, traits, constants and other declarations outside functions, in source order.
    pub declarations: Vec<Declared>,
    /// Imports as canonical strings, sorted and deduplicated.
    pub imports: Vec<String>,
    /// Calls, in source order.
    pub calls: Vec<Call>,
    /// Item-position wrappers whose body is not items, in source order.
    pub opaque: Vec<Opaque>,
    /// Whether the tree has syntax errors.
    pub parse_errors: bool,
    /// Why the file was not analysed, when it was not.
    pub skipped: Option<String>,
}

impl Analysis {
    /// An analysis that did not happen, and why.
    pub fn skipped(reason: String) -> Analysis {
        Analysis {
            skipped: Some(reason),
            ..Analysis::default()
        }
    }

    /// Whether this says something about the call rather than the file ([`OUT_OF_TIME`],
    /// [`NO_STACK`]): such an analysis is never cached.
    pub fn of_the_call(&self) -> bool {
        self.skipped
            .as_deref()
            .is_some_and(|r| r.contains(OUT_OF_TIME) || r.contains(NO_STACK))
    }
}
