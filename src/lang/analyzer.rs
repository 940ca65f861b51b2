//! What a language is to the analysis: one [`LanguageConfig`] value per language, like
//! difftastic's `TreeSitterConfig`, holding its facts as data (its grammars, family, import
//! scheme, separator, comment kinds, the node kinds each hook is asked about, and the
//! declarations read by rule), and the [`Analyzer`] it hands the rest to: what takes code
//! (what a node means, what it imports or calls, what a formatter may write either way).
//!
//! The shared code reads the value; an analyzer's trait methods are only the behaviour that
//! cannot be data, each with a default that says nothing.

use tree_sitter::Node;

use super::{CallSite, Language, Visibility, calls};

/// A grammar crate's language, built when a parser is first made for it.
pub type Grammar = fn() -> tree_sitter::Language;

/// One language's facts, read by the shared walk, the parser and the layers above, and the
/// [`Analyzer`] that reads its nodes. One `static` per language (`rust::CONFIG`), listed in
/// [`super::REGISTRY`].
pub struct LanguageConfig {
    /// The languages it reads, each with its grammar (one analyzer may read several, as
    /// TypeScript reads `typescript` and `tsx`).
    pub grammars: &'static [(Language, Grammar)],
    /// The languages whose files can call into its files: its own, and those it
    /// interoperates with (JavaScript and TypeScript, C and C++). The function context
    /// searches their files for callers.
    pub family: &'static [Language],
    /// How imports name things, when calls can be resolved through them (`None`: callers
    /// are matched by name).
    pub import_scheme: Option<ImportScheme>,
    /// The separator of qualified names (`::`, `.`).
    pub separator: &'static str,
    /// The node kinds that are comments: their tokens never count.
    pub comments: &'static [&'static str],
    /// Whether an import's tokens count as written (the walk does not look inside it) rather
    /// than as any other code's, through [`Analyzer::normal`] (Lua's and Ruby's `require` is a
    /// call, often inside a function, that formatters rewrite).
    pub imports_as_written: bool,
    /// The node kinds (named or not) [`Analyzer::normal`] may answer other than
    /// [`Normal::Keep`] for; it is not asked about other nodes.
    pub normal_kinds: &'static [&'static str],
    /// The node kinds [`Analyzer::implied_end`] may answer for as the node itself.
    pub implied_kinds: &'static [&'static str],
    /// The node kinds [`Analyzer::implied_end`] may answer for the children of.
    pub implied_parents: &'static [&'static str],
    /// What a file declares besides functions that belongs to its interface (types, traits,
    /// interfaces, enums, constants, aliases): one row per node kind that may declare
    /// something; no other node is asked. Empty: the language reports functions only.
    pub declarations: &'static [Declares],
    /// The node kinds [`Analyzer::wrapper`] may answer for (none: the grammar reads every
    /// item as an item).
    pub wrapper_kinds: &'static [&'static str],
    /// The node kinds whose children may be wrappers or hold them (a file, a module, an impl
    /// and their item lists): where wrappers are looked for before the walk, so that a search
    /// never enters function bodies.
    pub item_containers: &'static [&'static str],
    /// Everything that takes code.
    pub analyzer: &'static dyn Analyzer,
}

impl LanguageConfig {
    /// The languages it reads.
    pub fn languages(&self) -> impl Iterator<Item = Language> + '_ {
        self.grammars.iter().map(|(language, _)| *language)
    }

    /// Whether it reads `language`.
    pub fn reads(&self, language: Language) -> bool {
        self.languages().any(|l| l == language)
    }

    /// The grammar for one of its languages.
    pub fn grammar(&self, language: Language) -> Option<tree_sitter::Language> {
        self.grammars
            .iter()
            .find(|(l, _)| *l == language)
            .map(|(_, grammar)| grammar())
    }

    /// Whether a node is a comment.
    pub fn is_comment(&self, node: Node<'_>) -> bool {
        self.comments.contains(&node.kind())
    }

    /// What a node declares, by its row of [`declarations`](LanguageConfig::declarations)
    /// (`None` for a node that declares nothing).
    pub fn declaration<'t>(&self, node: Node<'t>, source: &[u8]) -> Option<Declaration<'t>> {
        let row = self.declarations.iter().find(|d| d.node == node.kind())?;
        match row.read {
            Read::Hook => self.analyzer.declaration(node, source),
            Read::Rule { kind, name, head } => {
                let name = node.child_by_field_name(name)?;
                let head_end = match head {
                    Head::Field(field) => node.child_by_field_name(field).map(|f| f.start_byte()),
                    Head::Required(field) => Some(node.child_by_field_name(field)?.start_byte()),
                    Head::Child(kinds) => {
                        let mut cursor = node.walk();
                        let child = node
                            .children(&mut cursor)
                            .find(|c| kinds.contains(&c.kind()));
                        child.map(|c| c.start_byte())
                    }
                    Head::Whole => None,
                };
                Some(Declaration {
                    kind,
                    name,
                    outer: node,
                    head_end: head_end.unwrap_or(node.end_byte()),
                })
            }
        }
    }
}

/// A node kind that may declare something besides functions, and how it is read (a row of
/// [`LanguageConfig::declarations`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declares {
    /// The node kind.
    pub node: &'static str,
    /// How a node of the kind is read.
    pub read: Read,
}

/// How a declaring node is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read {
    /// By rule: it declares a `kind` (the language's word: `struct`, `class`, `const`) named
    /// by its `name` field, starting at the node, its head (its signature) ending as `head`
    /// says.
    Rule {
        /// What it declares.
        kind: &'static str,
        /// The field holding its name.
        name: &'static str,
        /// Where its head ends.
        head: Head,
    },
    /// By [`Analyzer::declaration`]: it takes more than a rule (a constant told by its
    /// modifiers, a kind told by a child, a head that starts before the node).
    Hook,
}

/// Where a declaration's head ends: the signature is the text from its start to there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Head {
    /// At the start of this field (a body, a constant's value), at the node's end without it.
    Field(&'static str),
    /// At the start of this field, which the node must have to declare anything (C's `struct
    /// s { .. }`, not the `struct s` of `struct s x;`).
    Required(&'static str),
    /// At the first child of one of these kinds (`=`, `class_body`), at the node's end
    /// without one.
    Child(&'static [&'static str]),
    /// At the node's end: what it declares is all head (a type alias).
    Whole,
}

impl Declares {
    /// A declaration of `kind` named by the node's `name` field, its head ending as `head`
    /// says.
    pub const fn rule(node: &'static str, kind: &'static str, head: Head) -> Declares {
        Declares {
            node,
            read: Read::Rule {
                kind,
                name: "name",
                head,
            },
        }
    }

    /// A node kind [`Analyzer::declaration`] reads.
    pub const fn hook(node: &'static str) -> Declares {
        Declares {
            node,
            read: Read::Hook,
        }
    }

    /// The same rule with the name in another field (Kotlin's `typealias` names it `type`).
    pub const fn named_by(self, field: &'static str) -> Declares {
        match self.read {
            Read::Rule { kind, head, .. } => Declares {
                node: self.node,
                read: Read::Rule {
                    kind,
                    name: field,
                    head,
                },
            },
            Read::Hook => self,
        }
    }
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

/// What one language's grammar nodes mean, where that takes code: the behaviour its
/// [`LanguageConfig`] cannot say as data. Only [`role`](Analyzer::role) and
/// [`imports`](Analyzer::imports) are required; every other method's default says nothing
/// about the language.
pub trait Analyzer: Sync {
    /// What `node` means; `source` is the file's text.
    fn role<'t>(&self, node: Node<'t>, source: &[u8]) -> Role<'t>;
    /// The imports a node declares, as canonical strings (empty for non-imports).
    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String>;
    /// What joins a function's own name to its qualifier when the language spells it another
    /// way than [`LanguageConfig::separator`] (Ruby's `Foo#bar` and `Foo.bar`, Lua's `M:f`);
    /// `node` is the definition (the node [`Role::Function`] or [`Role::Method`] was given
    /// for). The default: the separator.
    fn name_separator(&self, _node: Node<'_>) -> Option<&'static str> {
        None
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
    /// Whether a node is a docstring (counted as a comment).
    fn is_docstring(&self, _node: Node<'_>, _source: &[u8]) -> bool {
        false
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
    /// the fingerprints; `parent` is its parent. Asked only about
    /// [`LanguageConfig::normal_kinds`], so it must look at no more than the node, its parent
    /// and its children.
    fn normal(&self, _node: Node<'_>, _parent: Option<Node<'_>>, _source: &[u8]) -> Normal {
        Normal::Keep
    }
    /// Whether a comma that ends `list` means something (the comma of a one-element tuple);
    /// other trailing commas do not count.
    fn comma_counts(&self, _list: Node<'_>, _source: &[u8]) -> bool {
        false
    }
    /// The tokens a node ends with whether written or not (a statement's optional `;`, counted
    /// once: the written one is [`Normal::Drop`]ped); `parent` is its parent. Asked only about
    /// [`LanguageConfig::implied_kinds`] and the children of
    /// [`LanguageConfig::implied_parents`].
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
    /// What a node declares when its row of [`LanguageConfig::declarations`] is
    /// [`Read::Hook`] (`None`: nothing). A node may be a declaration and a scope at once (a
    /// class).
    fn declaration<'t>(&self, _node: Node<'t>, _source: &[u8]) -> Option<Declaration<'t>> {
        None
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
    /// ([`super::Opaque`]). Asked only about [`LanguageConfig::wrapper_kinds`], outside
    /// functions. The default: no wrappers (conditional compilation blocks, decorators and
    /// the like that a grammar parses as items need none).
    fn wrapper<'t>(&self, _node: Node<'t>, _source: &[u8]) -> Option<Wrapper<'t>> {
        None
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

/// A declaration found by [`LanguageConfig::declaration`]: what kind of thing it declares,
/// the node holding its name, where it starts and where its head ends (the signature is the
/// text in between, as for functions).
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
