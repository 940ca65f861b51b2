//! Function-level analysis with tree-sitter: one analyzer per language behind one trait.
//!
//! An [`Analyzer`] tells the shared walker what its grammar's nodes mean (a function, a scope
//! that qualifies names, an import, a comment, a docstring) and what its formatters may write
//! either way ([`Normal`], ADR 9). The walker (`walk::extract`) turns a syntax tree into
//! [`Function`]s with qualified names and a fingerprint of their body tokens as the language
//! reads them (without comments, whitespace, docstrings, trailing commas, optional semicolons,
//! redundant parentheses...), and into import strings; [`compare`] turns two such extractions
//! into function changes.
//!
//! Adding a language is its grammar crate, one file and one line in [`REGISTRY`] (see
//! `docs/adding-a-language.md`; a language git-prism does not recognise yet also needs its
//! [`Language`] and its detection in `manifest::language`): the analyzer says which
//! [`Language`]s it reads, which files can call into them ([`Analyzer::family`]) and how their
//! imports name things ([`Analyzer::import_scheme`]), so nothing else needs to learn the
//! language. It knows no repository: it analyses the bytes it is given, keyed by their blob
//! id in the per-user analysis cache ([`cache`]).
//!
//! Invariants:
//! - Bounded: files over [`MAX_FILE_BYTES`], with lines over [`MAX_LINE_BYTES`] or brackets
//!   nested deeper than [`MAX_NESTING`] are skipped with a stated reason; a parse that exceeds
//!   [`PARSE_BUDGET`] (or the answer's analysis deadline, [`within`]) is abandoned; every tree
//!   walk is iterative; files of [`BIG_PARSE_BYTES`] or more are parsed one at a time; and a
//!   parse runs on a stack grown on demand to what tree-sitter's recursion needs
//!   ([`parse_stack`]), so deep nesting cannot overflow the stack, and a stack that cannot be
//!   reserved (an address-space limit) skips the file rather than failing the answer.
//! - Parsers are created once per thread and language and reused.
//! - A tree with syntax errors still yields what could be extracted, flagged `parse_errors`.
//! - Items a grammar reads as plain tokens (a Rust macro invocation at item position, `cfg_rt!
//!   { pub fn f() {} }`) are read as items where their body parses as items, each body parsed
//!   again alone, nested ones too, within `embed`'s bounds; a body that does not is
//!   [`Opaque`], and says so.

pub mod annotations;
mod bash;
mod c;
pub mod cache;
mod calls;
pub mod compare;
mod cpp;
mod csharp;
mod ecmascript;
pub(crate) mod embed;
mod go;
mod java;
mod javascript;
mod kotlin;
mod languages;
mod lua;
mod normal;
mod php;
mod python;
mod ruby;
mod rust;
mod scala;
mod swift;
mod typescript;
mod walk;

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use tree_sitter::{Node, Parser, Tree};

pub use compare::{ChangeType, DeclarationChange, FileFunctions, FunctionChange};
pub use languages::Language;
use walk::extract;

use python::DEDENT;

/// Files larger than this are not analysed.
pub const MAX_FILE_BYTES: usize = 1024 * 1024;
/// Brackets nested deeper than this mark a file built to exhaust the parser (real code stays
/// far below), which is not analysed.
pub const MAX_NESTING: usize = 1000;
/// A line longer than this marks a minified or generated file, which is not analysed.
pub const MAX_LINE_BYTES: usize = 16 * 1024;
/// How long one parse may take.
pub const PARSE_BUDGET: Duration = Duration::from_millis(750);
/// How long extracting one parsed file may take.
pub const EXTRACT_BUDGET: Duration = Duration::from_millis(750);
/// Functions and scopes nested deeper than this are not told apart: their code counts toward
/// the innermost one above the limit (bounds name lengths and per-token work on hostile input).
pub const MAX_SCOPE_DEPTH: usize = 32;
/// The prefix of every reason an analysis ran out of its own time (remembered by the cache for
/// a while: the file is likely built to take it).
pub const OVER_BUDGET: &str = "exceeded its time budget";
/// The reason a file was not analysed because the answer's analysis time ran out (a fact of
/// the call, never cached).
pub const OUT_OF_TIME: &str = "not analysed: the answer's analysis time ran out";
/// The reason a file was not analysed because its parser's stack could not be reserved (an
/// address-space limit; a fact of the call, never cached).
pub const NO_STACK: &str = "not analysed: no room for the parser's stack";
/// Files at least this large are parsed one at a time: a hostile file's tree can take
/// hundreds of MiB, and several at once would add up.
pub const BIG_PARSE_BYTES: usize = 128 * 1024;

thread_local! {
    /// Whether the last parse on this thread was stopped by its own [`PARSE_BUDGET`] (rather
    /// than by the answer's deadline).
    static OWN_BUDGET_RAN_OUT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// When the analyses of the current answer must stop (see [`within`]).
    static DEADLINE: std::cell::Cell<Option<Instant>> = const { std::cell::Cell::new(None) };
}

/// The lock a big parse holds, with its tree, until its analysis is extracted.
static BIG_PARSE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs `f` (which analyses on this thread) with the answer's analysis `deadline`: a parse
/// started after it is skipped ([`OUT_OF_TIME`]), one running at it is stopped.
pub fn within<T>(deadline: Option<Instant>, f: impl FnOnce() -> T) -> T {
    let before = DEADLINE.with(|d| d.replace(deadline));
    let out = f();
    DEADLINE.with(|d| d.set(before));
    out
}

/// The analysis deadline of the current thread's answer: read it on the thread that set it
/// and pass it to [`within`] on the threads that analyse for it.
pub fn deadline() -> Option<Instant> {
    DEADLINE.with(std::cell::Cell::get)
}

/// Whether the current answer's analysis time ran out.
fn out_of_time() -> bool {
    DEADLINE.with(|d| d.get().is_some_and(|d| Instant::now() >= d))
}

/// Holds [`BIG_PARSE`] while a file of `len` bytes is parsed and extracted.
fn big_parse_guard(len: usize) -> Option<std::sync::MutexGuard<'static, ()>> {
    (len >= BIG_PARSE_BYTES).then(|| {
        BIG_PARSE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    })
}

/// What a grammar node means to the walker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role<'t> {
    /// A function or method definition.
    Function {
        /// The node holding its name.
        name: Node<'t>,
        /// Its body (absent for declarations such as trait method signatures).
        body: Option<Node<'t>>,
        /// The node whose start is the start of the definition (decorators and attributes
        /// included).
        outer: Node<'t>,
    },
    /// A method whose qualifier is not an enclosing node (Go's receiver): named
    /// `receiver<separator>name` under the enclosing scopes, kind `method`.
    Method {
        /// The node holding its name.
        name: Node<'t>,
        /// Its body (absent for declarations).
        body: Option<Node<'t>>,
        /// The node whose start is the start of the definition.
        outer: Node<'t>,
        /// The type it belongs to.
        receiver: String,
    },
    /// A container whose name qualifies the functions inside (impl, trait, class, module).
    Scope {
        /// The qualifier text.
        name: String,
        /// Whether functions directly inside are methods.
        methods: bool,
    },
    /// Anything else.
    Other,
}

/// How a node counts toward the fingerprints besides as written: what a formatter may write
/// differently without changing the meaning (ADR 9, `docs/adr/0009-where-formatting-ends.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Normal {
    /// As written.
    Keep,
    /// Not at all: a leaf the language lets the writer add or leave out (an optional `;`).
    Drop,
    /// As this one token: a leaf written another way with the same meaning (`0XFF`, `0xff`),
    /// or a literal compared by its value (its leaves then do not count).
    As(u64),
    /// Its first and last leaves do not count: redundant parentheses.
    Unwrap,
}

/// Whether a function is a free function or a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FunctionKind {
    /// A function.
    Function,
    /// A method: inside a type, trait, class or impl, or with a receiver.
    Method,
}

impl FunctionKind {
    /// The wire label: `function` or `method`.
    pub fn label(self) -> &'static str {
        match self {
            FunctionKind::Function => "function",
            FunctionKind::Method => "method",
        }
    }
}

/// How a language's imports name what a file can call, for resolving calls to definitions
/// (languages without one are matched by name). Each scheme's rules are one file of the
/// function context's resolver (`src/context/resolve/<scheme>.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImportScheme {
    /// Rust: `use` paths from the crate root, `self`, `super`; crates from `Cargo.toml`.
    Rust,
    /// Python: dotted modules from the file's package, relative imports.
    Python,
    /// Ruby: constant paths are global (`Sinatra::Base.helpers` names the method wherever it
    /// is defined); `require_relative` and `require` tell which files a file has loaded.
    Ruby,
    /// PHP: namespaces (taken from the directories, PSR-4), `use` bindings, `self::`,
    /// `static::` and `$this->` calls on the enclosing class.
    Php,
    /// C#: `using` namespaces, static imports and aliases; functions are named with their
    /// namespaces, so a name is its path.
    CSharp,
    /// Kotlin: `import` of a package's names, stars and aliases; a package is found by the
    /// directories its files are in.
    Kotlin,
}

/// One language's view of its tree-sitter grammar.
pub trait Analyzer: Sync {
    /// The languages this analyzer reads.
    fn languages(&self) -> &'static [Language];
    /// The grammar for one of its languages.
    fn grammar(&self, language: Language) -> tree_sitter::Language;
    /// The languages whose files can call into this analyzer's files (itself, and the
    /// languages it interoperates with: JavaScript and TypeScript, C and C++).
    fn family(&self) -> &'static [Language] {
        self.languages()
    }
    /// How imports name things, when calls can be resolved through them.
    fn import_scheme(&self) -> Option<ImportScheme> {
        None
    }
    /// The separator of qualified names (`::`, `.`).
    fn separator(&self) -> &'static str;
    /// What joins a function's own name to its qualifier when the language spells it another
    /// way than [`separator`](Analyzer::separator) (Ruby's `Foo#bar` and `Foo.bar`, Lua's
    /// `M:f`); `node` is the definition (the node [`Role::Function`] or [`Role::Method`] was
    /// given for).
    fn name_separator(&self, _node: Node<'_>) -> &'static str {
        self.separator()
    }
    /// A definition's kind when the language says otherwise than where it stands (`default`:
    /// a method inside a `methods` scope or with a receiver, else a function), as Lua's
    /// `function M.f()` is a function of the table `M`.
    fn kind(&self, _node: Node<'_>, default: FunctionKind) -> FunctionKind {
        default
    }
    /// The source as the grammar reads it: the same length, with the same line breaks, so
    /// every position and line stays the file's (bats' `@test "name" {` lines are written as
    /// the bash block they stand for). The default is the source itself.
    fn prepare<'s>(&self, source: &'s [u8]) -> std::borrow::Cow<'s, [u8]> {
        std::borrow::Cow::Borrowed(source)
    }
    /// What `node` means; `source` is the file's text.
    fn role<'t>(&self, node: Node<'t>, source: &[u8]) -> Role<'t>;
    /// Whether a node is a comment (its tokens never count).
    fn is_comment(&self, node: Node<'_>) -> bool;
    /// Whether a node is a docstring (counted as a comment).
    fn is_docstring(&self, _node: Node<'_>, _source: &[u8]) -> bool {
        false
    }
    /// The imports a node declares, as canonical strings (empty for non-imports).
    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String>;
    /// Whether an import's tokens count as written (the default: the walk does not look inside
    /// it) rather than as any other code's, through [`normal`](Analyzer::normal) (Lua's and
    /// Ruby's `require` is a call, often inside a function, that formatters rewrite).
    fn imports_as_written(&self) -> bool {
        true
    }
    /// Whether the node's subtree can contain imports (lets the walker skip the rest).
    fn may_hold_imports(&self, _node: Node<'_>) -> bool {
        true
    }
    /// The call a node makes, if it is a call. The default understands the call nodes of
    /// the common grammars (`call_expression`, `call`, `method_invocation`).
    fn call(&self, node: Node<'_>, source: &[u8]) -> Option<CallSite> {
        calls::generic(node, source)
    }
    /// Whether a call builds a value rather than calling a function (Rust's `Some(x)`,
    /// `Point(1, 2)`): such calls have no callee.
    fn builds_value(&self, _site: &CallSite) -> bool {
        false
    }
    /// Whether a function definition is a test by its own markers (`#[test]`, a `test_`
    /// name); `outer` and `node` are as in [`Role::Function`], `name` its name.
    fn is_test(&self, _outer: Node<'_>, _node: Node<'_>, _name: &str, _source: &[u8]) -> bool {
        false
    }
    /// Whether a scope holds tests only (`#[cfg(test)] mod tests`, a `unittest.TestCase`).
    fn is_test_scope(&self, _node: Node<'_>, _name: &str, _source: &[u8]) -> bool {
        false
    }
    /// How a node (a leaf, or a node with children that is not a definition) counts toward
    /// the fingerprints; `parent` is its parent. Called for every such node, so it must look
    /// at no more than the node, its parent and its children.
    fn normal(&self, _node: Node<'_>, _parent: Option<Node<'_>>, _source: &[u8]) -> Normal {
        Normal::Keep
    }
    /// The node kinds (named or not) `normal` may answer other than [`Normal::Keep`] for; it
    /// is not asked about other nodes.
    fn normal_kinds(&self) -> &'static [&'static str] {
        &[]
    }
    /// The node kinds `implied_end` may answer for, as the node itself and as its parent; it
    /// is not asked about other nodes.
    fn implied_kinds(&self) -> (&'static [&'static str], &'static [&'static str]) {
        (&[], &[])
    }
    /// Whether a comma that ends `list` means something (the comma of a one-element tuple);
    /// other trailing commas do not count.
    fn comma_counts(&self, _list: Node<'_>, _source: &[u8]) -> bool {
        false
    }
    /// The tokens a node ends with whether written or not (a statement's optional `;`, counted
    /// once: the written one is [`Normal::Drop`]ped); `parent` is its parent.
    fn implied_end(&self, _node: Node<'_>, _parent: Option<Node<'_>>) -> &'static [&'static str] {
        &[]
    }
    /// How far a definition is visible: a function (`outer` and `node` as in
    /// [`Role::Function`]) or a [`Declaration`] (`outer` and `node` its own), `name` its
    /// qualified name. Answers list the added, deleted and re-signed public definitions of a
    /// range first, with their signatures (the API), and the private ones by name. The walker
    /// makes a definition inside a function private without asking. The default counts every
    /// definition as public: a language that does not say shows every signature.
    fn visibility(
        &self,
        _outer: Node<'_>,
        _node: Node<'_>,
        _name: &str,
        _source: &[u8],
    ) -> Visibility {
        Visibility::Public
    }
    /// What a node declares besides functions that belongs to a file's interface: a type,
    /// trait, interface, enum, constant or type alias (`None` for anything else). A node may
    /// be a declaration and a scope at once (a class). The default declares nothing: the
    /// language reports functions only.
    fn declaration<'t>(&self, _node: Node<'t>, _source: &[u8]) -> Option<Declaration<'t>> {
        None
    }
    /// The node kinds `declaration` may answer for; it is not asked about other nodes.
    fn declaration_kinds(&self) -> &'static [&'static str] {
        &[]
    }
    /// How visible every definition directly inside a scope is when the scope decides it
    /// rather than each definition's own modifiers (a Rust trait impl's members are
    /// implementations, a trait's members as visible as the trait); `scope` is a node
    /// [`role`](Analyzer::role) called a [`Role::Scope`]. The default: each definition's own.
    fn members(&self, _scope: Node<'_>, _source: &[u8]) -> Option<Visibility> {
        None
    }
    /// Whether a node writes items in a form its grammar reads as plain tokens, and where:
    /// a Rust macro invocation at item position (`cfg_rt! { pub fn f() {} }`). The walk
    /// parses the [`Wrapper::items`] again as the file's language and reads what they hold as
    /// if written in the wrapper's place; a body that does not parse as items is opaque
    /// ([`Opaque`]). Asked only about [`wrapper_kinds`](Analyzer::wrapper_kinds), outside
    /// functions. The default: no wrappers (conditional compilation blocks, decorators and
    /// the like that a grammar parses as items need none).
    fn wrapper<'t>(&self, _node: Node<'t>, _source: &[u8]) -> Option<Wrapper<'t>> {
        None
    }
    /// The node kinds [`wrapper`](Analyzer::wrapper) may answer for.
    fn wrapper_kinds(&self) -> &'static [&'static str] {
        &[]
    }
    /// The node kinds whose children may be wrappers or hold them (a file, a module, an impl
    /// and their item lists): where wrappers are looked for before the walk, so that a search
    /// never enters function bodies.
    fn item_containers(&self) -> &'static [&'static str] {
        &[]
    }
}

/// A node that writes items in a form its grammar reads as plain tokens
/// ([`Analyzer::wrapper`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wrapper<'t> {
    /// What it is, in the language's word (`macro`).
    pub kind: &'static str,
    /// Its name as written (`cfg_rt!`, `cfg_if::cfg_if!`).
    pub name: String,
    /// The node whose start is the wrapper's start (its attributes included): its attributes
    /// are those of each item directly inside.
    pub outer: Node<'t>,
    /// Its body as the grammar reads it (a token tree): fingerprinted when opaque.
    pub body: Node<'t>,
    /// The ranges that would hold its items, read as one source (one, or several: `cfg_if!`'s
    /// branches); empty for an empty body.
    pub items: Vec<tree_sitter::Range>,
}

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

/// A declaration [`Analyzer::declaration`] found: what kind of thing it declares, the node
/// holding its name, where it starts and where its head ends (the signature is the text in
/// between, as for functions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declaration<'t> {
    /// What it declares, in the language's own word (`struct`, `enum`, `trait`, `type`,
    /// `const`, `class`, `interface`).
    pub kind: &'static str,
    /// The node holding its name.
    pub name: Node<'t>,
    /// The node whose start is the declaration's start (attributes included).
    pub outer: Node<'t>,
    /// Where its head ends: the start of its body or value (the end of the node when it has
    /// neither).
    pub head_end: usize,
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

/// Every analyzer, one line each.
pub static REGISTRY: &[&dyn Analyzer] = &[
    &rust::Rust,
    &python::Python,
    &typescript::TypeScript,
    &javascript::JavaScript,
    &go::Go,
    &java::Java,
    &c::C,
    &cpp::Cpp,
    &ruby::Ruby,
    &php::Php,
    &lua::Lua,
    &bash::Bash,
    &csharp::CSharp,
    &kotlin::Kotlin,
    &swift::Swift,
    &scala::Scala,
];

/// Returns the analyzer for a language.
pub fn for_language(language: Language) -> Option<&'static dyn Analyzer> {
    REGISTRY
        .iter()
        .copied()
        .find(|a| a.languages().contains(&language))
}

/// Returns every language that has an analyzer, sorted by label.
pub fn analyzed() -> Vec<Language> {
    let mut all: Vec<Language> = REGISTRY
        .iter()
        .flat_map(|a| a.languages().iter().copied())
        .collect();
    all.sort_unstable();
    all
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

/// A type, trait, constant or other declaration found in a file ([`Analyzer::declaration`]).
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

thread_local! {
    static PARSERS: RefCell<HashMap<Language, Parser>> = RefCell::new(HashMap::new());
}

/// Returns why `source` should not be analysed, if it should not.
pub fn refuse(source: &[u8]) -> Option<String> {
    if source.len() > MAX_FILE_BYTES {
        return Some(format!(
            "file too large ({} bytes, limit {MAX_FILE_BYTES})",
            source.len()
        ));
    }
    let longest = source
        .split(|b| *b == b'\n')
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0);
    if longest > MAX_LINE_BYTES {
        return Some(format!(
            "minified or generated: a line of {longest} bytes (limit {MAX_LINE_BYTES})"
        ));
    }
    if source[..source.len().min(8000)].contains(&0) {
        return Some("binary".into());
    }
    let deepest = nesting(source);
    if deepest > MAX_NESTING {
        // A parse of such a file builds a tree and a stack of hundreds of MiB.
        return Some(format!(
            "brackets nested {deepest} deep (limit {MAX_NESTING})"
        ));
    }
    None
}

/// The deepest bracket nesting of `source`, counting `(`, `[` and `{` and their closers
/// (those inside strings and comments too: an over-count only makes the limit stricter for
/// text that is not code anyway).
fn nesting(source: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    for &b in source {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// The stack a parse of `len` bytes may use. tree-sitter recurses once per level of nested
/// ambiguity when it merges stack versions (`stack_node_add_link`) and when it frees them
/// (`stack_node_release`, which a cancelled parse's reset runs over everything unreduced): one
/// 96-byte frame per level in a release build, a level at least three bytes (`{a:` in
/// TypeScript: 9.4 MiB for 100,000 levels, 300 KB). [`MAX_NESTING`] keeps bracket nesting far
/// below that (at most 150 KiB measured); this covers twice the worst case without it, so
/// nesting the guard does not count cannot overflow a stack either. At most 64 MiB, for one
/// file at a time ([`BIG_PARSE_BYTES`]).
pub fn parse_stack(len: usize) -> usize {
    const MIB: usize = 1024 * 1024;
    len.saturating_mul(64).clamp(MIB, 64 * MIB)
}

/// Parses `source` (reusing `old`, an edited tree of a previous version, when given) within
/// the time budget; `None` when the budget ran out. Runs on the current stack when
/// [`parse_stack`] of it is left, else on a segment of that size reserved for the parse and
/// released after it (the threads that parse keep small stacks: under an address-space limit,
/// only parses running at the moment reserve room). `Err` when the segment cannot be reserved.
fn parse(
    language: Language,
    analyzer: &dyn Analyzer,
    source: &[u8],
    old: Option<&Tree>,
) -> Result<Option<Option<Tree>>, String> {
    let room = parse_stack(source.len());
    // `stacker` panics when it cannot map the segment (an address-space limit): that file is
    // not analysed, the answer goes on.
    crate::unwind::catch(|| {
        stacker::maybe_grow(room, room, || {
            parse_here(language, analyzer, source, old, &[])
        })
    })
    .map_err(|e| format!("{NO_STACK} ({e})"))
}

/// Parses `ranges` of `source` alone, as one source (a wrapper's body read as items), within
/// the time budget; positions stay the file's. `Some(None)` when the parse ran out of time,
/// `None` when it could not be parsed.
fn parse_items(
    language: Language,
    analyzer: &dyn Analyzer,
    source: &[u8],
    ranges: &[tree_sitter::Range],
) -> Option<Option<Tree>> {
    let len: usize = ranges.iter().map(|r| r.end_byte - r.start_byte).sum();
    let room = parse_stack(len);
    crate::unwind::catch(|| {
        stacker::maybe_grow(room, room, || {
            parse_here(language, analyzer, source, None, ranges)
        })
    })
    .ok()
    .flatten()
}

/// Extracts one parsed file, its wrappers' items read first (`embed`). A file whose wrappers
/// could not all be read in time is not analysed, with the reason: a partial reading would
/// be cached as the file's.
fn extract_file(
    language: Language,
    analyzer: &dyn Analyzer,
    tree: &Tree,
    source: &[u8],
) -> Analysis {
    let embedded = embed::expand(analyzer, tree, source, &mut |ranges| {
        parse_items(language, analyzer, source, ranges)
    });
    if embedded.ran_out() {
        // The answer's time (a fact of the call), or the file's own cost (remembered).
        if out_of_time() {
            return Analysis::skipped(OUT_OF_TIME.to_owned());
        }
        return Analysis::skipped(format!(
            "macro bodies: parse {OVER_BUDGET} ({} ms)",
            PARSE_BUDGET.as_millis()
        ));
    }
    extract(analyzer, tree, source, &embedded)
}

/// [`parse`] on the current stack, of the whole source or of `ranges` alone.
fn parse_here(
    language: Language,
    analyzer: &dyn Analyzer,
    source: &[u8],
    old: Option<&Tree>,
    ranges: &[tree_sitter::Range],
) -> Option<Option<Tree>> {
    PARSERS.with(|parsers| {
        let mut parsers = parsers.borrow_mut();
        let parser = match parsers.entry(language) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let mut parser = Parser::new();
                parser.set_language(&analyzer.grammar(language)).ok()?;
                e.insert(parser)
            }
        };
        let started = Instant::now();
        let deadline = DEADLINE.with(std::cell::Cell::get);
        OWN_BUDGET_RAN_OUT.with(|c| c.set(false));
        let mut over_budget = |_: &tree_sitter::ParseState| {
            if started.elapsed() > PARSE_BUDGET {
                // The file's own cost (remembered by the cache), not the answer's deadline.
                OWN_BUDGET_RAN_OUT.with(|c| c.set(true));
                ControlFlow::Break(())
            } else if deadline.is_some_and(|d| Instant::now() >= d) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let options = tree_sitter::ParseOptions::new().progress_callback(&mut over_budget);
        let len = source.len();
        if !ranges.is_empty() {
            parser.set_included_ranges(ranges).ok()?;
        }
        let tree = parser.parse_with_options(
            &mut |offset, _| if offset < len { &source[offset..] } else { &[] },
            old,
            Some(options),
        );
        if !ranges.is_empty() {
            // The parser is reused for whole files: back to the whole document.
            parser.set_included_ranges(&[]).ok()?;
        }
        // A cancelled parse leaves state behind; the next parse must start clean.
        if tree.is_none() {
            parser.reset();
        }
        Some(tree)
    })
}

/// The analysis of a parse that was stopped: by its own budget, or by the answer's deadline.
fn over_budget() -> Analysis {
    if !OWN_BUDGET_RAN_OUT.with(std::cell::Cell::get) {
        return Analysis::skipped(OUT_OF_TIME.to_owned());
    }
    Analysis::skipped(format!(
        "parse {OVER_BUDGET} ({} ms)",
        PARSE_BUDGET.as_millis()
    ))
}

/// Parses and extracts one file with the analyzer for `language`.
pub fn analyze(language: Language, source: &[u8]) -> Option<Analysis> {
    let analyzer = for_language(language)?;
    if let Some(reason) = refuse(source) {
        return Some(Analysis::skipped(reason));
    }
    let _big = big_parse_guard(source.len());
    if out_of_time() {
        return Some(Analysis::skipped(OUT_OF_TIME.to_owned()));
    }
    let prepared = analyzer.prepare(source);
    let source = &*prepared;
    match parse(language, analyzer, source, None) {
        Ok(parsed) => Some(match parsed? {
            Some(tree) => extract_file(language, analyzer, &tree, source),
            None => over_budget(),
        }),
        Err(reason) => Some(Analysis::skipped(reason)),
    }
}

/// Parses and extracts two versions of one file; the second parse reuses the first tree,
/// edited where the line diff says the text changed, so most of it costs nothing.
pub fn analyze_pair(
    language: Language,
    before: &[u8],
    after: &[u8],
) -> Option<(Analysis, Analysis)> {
    let analyzer = for_language(language)?;
    let (refuse_before, refuse_after) = (refuse(before), refuse(after));
    if refuse_before.is_some() || refuse_after.is_some() {
        let one = |r: Option<String>, src: &[u8]| match r {
            Some(reason) => Some(Analysis::skipped(reason)),
            None => analyze(language, src),
        };
        return Some((one(refuse_before, before)?, one(refuse_after, after)?));
    }
    let _big = big_parse_guard(before.len().max(after.len()));
    if out_of_time() {
        let skipped = || Analysis::skipped(OUT_OF_TIME.to_owned());
        return Some((skipped(), skipped()));
    }
    let (before, after) = (analyzer.prepare(before), analyzer.prepare(after));
    let (before, after) = (&*before, &*after);
    let old = match parse(language, analyzer, before, None) {
        Ok(parsed) => parsed?,
        Err(reason) => return Some((Analysis::skipped(reason.clone()), Analysis::skipped(reason))),
    };
    let Some(old) = old else {
        return Some((over_budget(), over_budget()));
    };
    let old_analysis = extract_file(language, analyzer, &old, before);
    let mut edited = old.clone();
    for edit in edits(before, after) {
        edited.edit(&edit);
    }
    let new_analysis = match parse(language, analyzer, after, Some(&edited)) {
        Ok(parsed) => match parsed? {
            Some(tree) => extract_file(language, analyzer, &tree, after),
            None => over_budget(),
        },
        Err(reason) => Analysis::skipped(reason),
    };
    Some((old_analysis, new_analysis))
}

/// Analyses two versions of a file known by blob id (`None` for content without one, such as
/// a working-tree file), using and filling the persistent cache.
pub fn analyze_versions(
    language: Language,
    before: Option<(Option<&str>, &[u8])>,
    after: Option<(Option<&str>, &[u8])>,
) -> (Option<Analysis>, Option<Analysis>) {
    let cached = |side: &Option<(Option<&str>, &[u8])>| {
        side.and_then(|(oid, _)| oid.and_then(|o| cache::get(o, language.label())))
    };
    let (mut old, mut new) = (cached(&before), cached(&after));
    // Only what is computed here is written back: a hit is already on disk.
    let hits = [old.is_some(), new.is_some()];
    match (&before, &after) {
        (Some((_, a)), Some((_, b))) if old.is_none() && new.is_none() => {
            if let Some((x, y)) = analyze_pair(language, a, b) {
                old = Some(x);
                new = Some(y);
            }
        }
        _ => {
            if old.is_none() {
                old = before.and_then(|(_, content)| analyze(language, content));
            }
            if new.is_none() {
                new = after.and_then(|(_, content)| analyze(language, content));
            }
        }
    }
    for ((side, analysis), hit) in [(&before, &old), (&after, &new)].into_iter().zip(hits) {
        if hit {
            continue;
        }
        if let (Some((Some(oid), content)), Some(a)) = (side, analysis) {
            // Stored under the id only when the content is what the id names; a timeout too,
            // so a hostile file costs its parse time once (see `cache`).
            if !a.of_the_call()
                && crate::oid::Oid::parse(oid).is_ok_and(|id| id.names_blob(content))
            {
                cache::put(oid, language.label(), a);
            }
        }
    }
    (old, new)
}

/// Returns the edits that turn `before` into `after`, line by line, last first (so each
/// edit's positions are still valid when it is applied).
fn edits(before: &[u8], after: &[u8]) -> Vec<tree_sitter::InputEdit> {
    use imara_diff::{Algorithm, Diff, InternedInput, sources::byte_lines};
    let offsets = |text: &[u8]| -> Vec<usize> {
        let mut out = vec![0];
        out.extend(
            text.iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        );
        if *out.last().unwrap_or(&0) != text.len() {
            out.push(text.len());
        }
        out
    };
    let (old_lines, new_lines) = (offsets(before), offsets(after));
    let at = |lines: &[usize], line: u32| {
        lines
            .get(line as usize)
            .copied()
            .unwrap_or_else(|| *lines.last().unwrap_or(&0))
    };
    let input = InternedInput::new(byte_lines(before), byte_lines(after));
    let diff = Diff::compute(Algorithm::Histogram, &input);
    let mut out: Vec<tree_sitter::InputEdit> = diff
        .hunks()
        .map(|h| {
            let start_byte = at(&old_lines, h.before.start);
            let old_end_byte = at(&old_lines, h.before.end);
            let new_len = at(&new_lines, h.after.end) - at(&new_lines, h.after.start);
            let point = |row: u32| tree_sitter::Point {
                row: row as usize,
                column: 0,
            };
            tree_sitter::InputEdit {
                start_byte,
                old_end_byte,
                new_end_byte: start_byte + new_len,
                start_position: point(h.before.start),
                old_end_position: point(h.before.end),
                new_end_position: point(h.before.start + (h.after.end - h.after.start)),
            }
        })
        .collect();
    out.reverse();
    out
}

/// Hashes bytes with FNV-1a (stable across runs and versions).
pub const fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    h
}

/// Helpers shared by the analyzers' unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Function, Language, analyze};

    /// The functions extracted from `source`, which must parse cleanly.
    pub fn functions(language: Language, source: &str) -> Vec<Function> {
        let analysis = analyze(language, source.as_bytes()).unwrap();
        assert!(!analysis.parse_errors, "{source}");
        analysis.functions
    }

    /// Each function's name and fingerprints (signature, body).
    fn fingerprints(language: Language, source: &str) -> Vec<(String, u64, u64)> {
        functions(language, source)
            .into_iter()
            .map(|f| (f.name, f.signature_hash, f.body_hash))
            .collect()
    }

    /// Asserts that two versions of a file differ only in formatting: the same functions with
    /// the same fingerprints.
    #[track_caller]
    pub fn same(language: Language, a: &str, b: &str) {
        let (x, y) = (fingerprints(language, a), fingerprints(language, b));
        assert!(!x.is_empty(), "no function in {a}");
        assert_eq!(x, y, "\n{a}\n---\n{b}");
    }

    /// Asserts that two versions of a file differ in some function's fingerprints.
    #[track_caller]
    pub fn differ(language: Language, a: &str, b: &str) {
        let (x, y) = (fingerprints(language, a), fingerprints(language, b));
        assert!(!x.is_empty(), "no function in {a}");
        assert_ne!(x, y, "\n{a}\n---\n{b}");
    }

    /// Each function's `name visibility`, then each declaration's `kind name visibility:
    /// signature` (tests marked ` test`), as extracted from `source`.
    pub fn interface(language: Language, source: &str) -> Vec<String> {
        let analysis = analyze(language, source.as_bytes()).unwrap();
        assert!(!analysis.parse_errors, "{source}");
        let test = |t: bool| if t { " test" } else { "" };
        let mut out: Vec<String> = analysis
            .functions
            .iter()
            .map(|f| format!("{} {}{}", f.name, f.visibility.label(), test(f.test)))
            .collect();
        out.extend(analysis.declarations.iter().map(|d| {
            format!(
                "{} {} {}{}: {}",
                d.kind,
                d.name,
                d.visibility.label(),
                test(d.test),
                d.signature
            )
        }));
        out
    }

    /// Asserts that `b` is `a` with comments added (and spacing changed): its first function
    /// keeps its signature and body fingerprints, its text differs. Returns `b`'s function.
    #[track_caller]
    pub fn comments_only(language: Language, a: &[u8], b: &[u8]) -> Function {
        let first = |source: &[u8]| {
            let mut functions = analyze(language, source).unwrap().functions;
            assert!(!functions.is_empty(), "no function in {source:?}");
            functions.swap_remove(0)
        };
        let (a, b) = (first(a), first(b));
        assert_eq!(a.body_hash, b.body_hash);
        assert_eq!(a.signature_hash, b.signature_hash);
        assert_ne!(a.text_hash, b.text_hash);
        b
    }

    /// `(name, qualifier)` of each call an analysis found, in order.
    pub fn call_sites(analysis: &super::Analysis) -> Vec<(String, String)> {
        analysis
            .calls
            .iter()
            .map(|c| (c.site.name.clone(), c.site.qualifier.clone()))
            .collect()
    }

    /// `(qualified name, kind label)` of each function extracted from `source`.
    pub fn names(language: Language, source: &str) -> Vec<(String, &'static str)> {
        functions(language, source)
            .into_iter()
            .map(|f| (f.name, f.kind.label()))
            .collect()
    }
}

#[cfg(test)]
mod tests {

    /// tree-sitter merges and frees nested ambiguities recursively: 100,000 levels past the
    /// nesting guard need about 10 MiB of stack, which a thread of 256 KiB has only through
    /// [`parse_stack`]'s segment (without it, this overflows and the test process dies).
    #[test]
    fn a_deeply_nested_parse_runs_on_its_own_stack() {
        let source = "{a:".repeat(100_000);
        let analyzer = for_language(Language::TypeScript).unwrap();
        let parsed = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                parse(Language::TypeScript, analyzer, source.as_bytes(), None)
                    .map(|tree| tree.is_some())
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(parsed, Ok(true));
    }

    /// Issue 36: items inside wrappers are read as if written outside, in every language.
    /// Rust's item-position macros are the only wrappers a grammar reads as tokens (its
    /// analyzer says [`Analyzer::wrapper`]); the conditional blocks of C, C++, C# and Swift
    /// and Python's `if TYPE_CHECKING:` are parsed as items by their grammars already.
    #[test]
    fn items_inside_wrappers_are_read_in_every_language() {
        let cases: &[(Language, &str, &str)] = &[
            (Language::Rust, "m! {\n    fn f() {}\n}\n", "f"),
            (
                Language::C,
                "#ifdef X\nint f(void) { return 1; }\n#endif\n",
                "f",
            ),
            (
                Language::Cpp,
                "class A {\n#ifdef X\n  void f() {}\n#endif\n};\n",
                "A::f",
            ),
            (
                Language::CSharp,
                "class A {\n#if DEBUG\n  void F() {}\n#endif\n}\n",
                "A.F",
            ),
            (
                Language::Swift,
                "class A {\n#if os(Linux)\n  func f() {}\n#endif\n}\n",
                "A.f",
            ),
            (
                Language::Python,
                "if TYPE_CHECKING:\n    def f():\n        pass\n",
                "f",
            ),
        ];
        for &(language, source, name) in cases {
            let names: Vec<String> = testing::functions(language, source)
                .into_iter()
                .map(|f| f.name)
                .collect();
            assert_eq!(names, [name], "{language}");
        }
        let wrappers: Vec<Language> = REGISTRY
            .iter()
            .filter(|a| !a.wrapper_kinds().is_empty())
            .flat_map(|a| a.languages().iter().copied())
            .collect();
        assert_eq!(wrappers, [Language::Rust]);
    }

    #[test]
    fn files_nested_past_the_limit_are_refused() {
        let deep = "[a=".repeat(MAX_NESTING + 1);
        assert!(refuse(deep.as_bytes()).is_some_and(|r| r.contains("nested")));
        let shallow = "f(g(h(x)));\n".repeat(10_000);
        assert_eq!(refuse(shallow.as_bytes()), None);
    }

    use super::*;

    #[test]
    fn every_registered_language_builds_a_parser() {
        for analyzer in REGISTRY {
            for &language in analyzer.languages() {
                let mut parser = Parser::new();
                assert!(
                    parser.set_language(&analyzer.grammar(language)).is_ok(),
                    "{language}"
                );
                assert!(for_language(language).is_some());
                let analysis = analyze(language, b"").unwrap();
                assert!(analysis.functions.is_empty(), "{language}");
                // A language calls into itself, and its family agrees on who is in it.
                assert!(analyzer.family().contains(&language), "{language}");
                for &kin in analyzer.family() {
                    let other = for_language(kin).expect("a family member has an analyzer");
                    assert!(other.family().contains(&language), "{language} and {kin}");
                }
            }
        }
    }

    #[test]
    fn an_incremental_reparse_extracts_what_a_full_parse_does() {
        let before = b"fn a() { 1; }\n\nfn b() {\n    let x = 2;\n}\n\nfn c() {}\n";
        let after = b"fn a() { 1; }\n\nfn b() {\n    let x = 3;\n    let y = 4;\n}\n// new\nfn d() {}\n\nfn c() {}\n";
        let (_, incremental) = analyze_pair(Language::Rust, before, after).unwrap();
        let full = analyze(Language::Rust, after).unwrap();
        assert_eq!(incremental, full);
        let (_, same) = analyze_pair(
            Language::Python,
            b"def f():\n    pass\n",
            b"def f():\n    pass\n",
        )
        .unwrap();
        assert_eq!(
            same,
            analyze(Language::Python, b"def f():\n    pass\n").unwrap()
        );
        let (_, grown) = analyze_pair(Language::Python, b"", b"def g():\n    return 1").unwrap();
        assert_eq!(
            grown,
            analyze(Language::Python, b"def g():\n    return 1").unwrap()
        );
    }

    #[test]
    fn bounds_are_stated() {
        let big = vec![b'a'; MAX_FILE_BYTES + 1];
        assert!(refuse(&big).unwrap().starts_with("file too large"));
        let minified = vec![b'x'; MAX_LINE_BYTES + 1];
        assert!(refuse(&minified).unwrap().starts_with("minified"));
        assert_eq!(refuse(b"a\0b").as_deref(), Some("binary"));
        assert_eq!(refuse(b"fn main() {}\n"), None);
    }

    #[test]
    fn deeply_nested_definitions_are_bounded_in_every_language() {
        // Definitions nested as deep as a file under the size limit allows: names stop
        // growing at the depth limit and the walk stays within its time budget.
        let cases: &[(Language, &str, &str, &str)] = &[
            (Language::Rust, "", "fn a() {\n", "}\n"),
            (Language::TypeScript, "", "function a() {\n", "}\n"),
            (Language::JavaScript, "", "const a = () => {\n", "}\n"),
            (Language::Go, "func a() {\n", "{\n", "}\n"),
            (Language::Java, "", "class A {\n", "}\n"),
            (Language::C, "", "int a() {\n", "}\n"),
            (Language::Cpp, "", "namespace a {\n", "}\n"),
            (Language::Ruby, "", "def a\n", "end\n"),
            (Language::Php, "<?php\n", "function a() {\n", "}\n"),
            (Language::Lua, "", "function a()\n", "end\n"),
            (Language::Shell, "", "a() {\n", "}\n"),
            (Language::CSharp, "", "class A {\n", "}\n"),
            (Language::Kotlin, "", "fun a() {\n", "}\n"),
            (Language::Swift, "", "func a() {\n", "}\n"),
            (Language::Scala, "", "object A {\n", "}\n"),
        ];
        for &(label, head, open, close) in cases {
            let depth = (MAX_FILE_BYTES - 64) / (open.len() + close.len());
            let source = format!("{head}{}{}", open.repeat(depth), close.repeat(depth));
            let started = Instant::now();
            let analysis = analyze(label, source.as_bytes()).unwrap();
            let elapsed = started.elapsed();
            // Parse and walk budgets plus slack for a slow machine: minutes would mean an
            // unbounded walk.
            assert!(elapsed < Duration::from_secs(20), "{label}: {elapsed:?}");
            let separator = for_language(label).unwrap().separator();
            for f in &analysis.functions {
                assert!(
                    f.name.matches(separator).count() <= MAX_SCOPE_DEPTH + 1,
                    "{label}: {}",
                    f.name.len()
                );
            }
        }
    }
}
