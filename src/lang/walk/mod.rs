//! The shared tree walk: one iterative pass yields functions with qualified names and token
//! fingerprints, and imports.
//!
//! Every leaf token goes to the innermost open function only: to its body fingerprint when it
//! lies in the body, to its signature fingerprint when it lies before the body (the function's
//! own name excepted, so a renamed function keeps its signature fingerprint). Comment and
//! docstring subtrees are never entered. A nested function's text is cut out of its parent's
//! raw-text hash, so a change inside `outer.inner` shows on `outer.inner` alone.
//!
//! Tokens are counted as the language means them, not as a formatter wrote them (ADR 9,
//! `docs/adr/0009-where-formatting-ends.md`): the analyzer's [`Analyzer::normal`] drops or
//! rewrites tokens and unwraps redundant parentheses, [`Analyzer::implied_end`] adds the
//! terminators a language lets the writer omit, and a comma that ends a list (the next token
//! closes a delimiter, or lies outside the list) does not count unless
//! [`Analyzer::comma_counts`] says it means something there. Each step looks at one node, its
//! parent and at most its children, so the walk stays linear.
//!
//! A wrapper whose body [`super::embed`] read as items (a Rust macro at item position) is walked
//! in its place: the walk goes into the body's own tree under the scopes around the wrapper, the
//! wrapper's attributes counted as those of each item directly inside; a wrapper whose body is
//! not items is recorded as [`Opaque`]. A body's shape fingerprint counts its names by the order
//! of their first use, so a body that changed only in names keeps its shape (ADR 20).

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use tree_sitter::{Language, Node, Tree};

use super::embed::{Embedded, Held};
use super::{
    Analysis, Analyzer, Call, EXTRACT_BUDGET, LanguageConfig, MAX_SCOPE_DEPTH, Normal, OVER_BUDGET,
    Opaque, Role, Visibility, Wrapper, fnv,
};
use function::{close, count, open_function, settle};
use signature::{declared, hash_leaves, qualify, signature_text};

mod function;
mod signature;

/// The most body tokens kept per function for similarity (the hash covers them all).
const TOKEN_CAP: usize = 1024;
const SEED: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0100_0000_01b3;
/// The longest signature text kept.
const SIGNATURE_CHARS: usize = 240;

const COMMA: u64 = fnv(b",");
/// Marks a name's order of first use in a body's shape (apart from any token's hash).
const NAME_SHAPE: u64 = 0x5a5a_0000_0000_0000;
/// Tokens that close a delimited list: a comma right before one of them is a trailing comma.
const CLOSING: [u64; 4] = [fnv(b")"), fnv(b"]"), fnv(b"}"), fnv(b">")];
/// Tokens that open a delimited list: a comma right after one (or after another comma) is an
/// elision (`[a, , b]`), never a trailing comma.
const OPENING: [u64; 4] = [fnv(b"("), fnv(b"["), fnv(b"{"), fnv(b"<")];

/// Kind flags: `normal` may change nodes of the kind.
const NORMAL: u8 = 1;
/// `implied_end` may answer for nodes of the kind.
const IMPLIED: u8 = 2;
/// `implied_end` may answer for children of nodes of the kind.
const IMPLIED_CHILDREN: u8 = 4;
/// `declaration` may answer for nodes of the kind.
const DECLARATION: u8 = 8;
/// Leaves of the kind are names (identifiers, constants, variables): a body's shape counts
/// them by order of first use, not by spelling.
const NAME: u8 = 16;
/// `wrapper` may answer for nodes of the kind.
const WRAPPER: u8 = 32;

/// Whether leaves of a grammar's node kind are names, by the kind's name: every grammar
/// calls its identifiers `*identifier` (`identifier`, `field_identifier`,
/// `simple_identifier`...), PHP `name`, Ruby and PHP their variables and constants.
fn names_kind(kind: &str) -> bool {
    kind.ends_with("identifier")
        || matches!(
            kind,
            "name"
                | "constant"
                | "instance_variable"
                | "class_variable"
                | "global_variable"
                | "variable_name"
        )
}

thread_local! {
    /// Per grammar, which node kinds the analyzer's normalisation hooks are asked about:
    /// asking about every node would cost a string conversion of its kind each time.
    static HOOKS: RefCell<HashMap<Language, Rc<Vec<u8>>>> = RefCell::new(HashMap::new());
}

/// Returns the kind flags of a grammar for its language's configuration, indexed by kind id.
fn hooks(config: &LanguageConfig, language: &Language) -> Rc<Vec<u8>> {
    HOOKS.with(|cache| {
        if let Some(flags) = cache.borrow().get(language) {
            return Rc::clone(flags);
        }
        let mut flags = vec![0u8; language.node_kind_count().max(1)];
        for (id, flag) in flags.iter_mut().enumerate() {
            let kind = u16::try_from(id)
                .ok()
                .and_then(|id| language.node_kind_for_id(id));
            if kind.is_some_and(names_kind) {
                *flag |= NAME;
            }
        }
        let declarations: Vec<&str> = config.declarations.iter().map(|d| d.node).collect();
        for (kinds, flag) in [
            (config.normal_kinds, NORMAL),
            (config.implied_kinds, IMPLIED),
            (config.implied_parents, IMPLIED_CHILDREN),
            (&declarations, DECLARATION),
            (config.wrapper_kinds, WRAPPER),
        ] {
            for kind in kinds {
                for named in [true, false] {
                    let id = usize::from(language.id_for_node_kind(kind, named));
                    if id != 0 && id < flags.len() {
                        flags[id] |= flag;
                    }
                }
            }
        }
        let flags = Rc::new(flags);
        cache
            .borrow_mut()
            .insert(language.clone(), Rc::clone(&flags));
        flags
    })
}

fn mix(hash: u64, token: u64) -> u64 {
    (hash ^ token).wrapping_mul(PRIME)
}

/// A scope on the walk's stack: a container or a function.
struct Scope<'t> {
    /// The node that opened it (popped when the walk leaves that node).
    node_id: usize,
    name: String,
    /// What joins its name to the scope before it ([`LanguageConfig::separator`], or the
    /// function's [`Analyzer::name_separator`]).
    lead: &'static str,
    methods: bool,
    /// Whether everything inside is test code.
    test: bool,
    /// The most visible anything inside can be: a declaration's own (a class that is not
    /// exported hides its methods); `Public` for scopes that are not declarations.
    cap: Visibility,
    /// How visible every definition directly inside is, when the scope decides it
    /// ([`Analyzer::members`]).
    members: Option<Visibility>,
    /// Set for functions.
    open: Option<Open<'t>>,
}

/// A function whose node the walk is inside.
struct Open<'t> {
    /// Its index in the output (reserved when it opened, to keep source order).
    index: usize,
    /// Where the definition starts (attributes and decorators included).
    outer_start: usize,
    body: Option<Range<usize>>,
    signature: Range<usize>,
    /// The name's bytes, which do not count toward the signature fingerprint.
    name: Range<usize>,
    end: usize,
    body_hash: u64,
    /// The body's tokens with each name counted as the order of its first use.
    shape_hash: u64,
    /// The names of the body seen so far, by hash, with the order of their first use.
    names: HashMap<u64, u32>,
    signature_hash: u64,
    tokens: Vec<u32>,
    nested: Vec<Range<usize>>,
    /// A comma not counted yet: whether it is a trailing comma depends on the next token.
    comma: Option<Comma<'t>>,
    /// Whether the last token counted opened a list or was a comma.
    after_opening: bool,
}

/// A comma waiting for the token after it.
struct Comma<'t> {
    at: Range<usize>,
    /// The node the comma separates the children of.
    list: Option<Node<'t>>,
    /// Whether it directly follows an opening delimiter or another comma (an elision).
    after_opening: bool,
}

/// The attributes of a wrapper whose body is read as items: those of each item directly
/// inside (`#[cfg(x)] m! { fn f() }` reads as `#[cfg(x)] fn f()`).
struct Inherited {
    /// The id of the root of the wrapper's items.
    root: usize,
    /// The signature fingerprint they start an item's with.
    hash: u64,
    /// Their text, written before an item's signature.
    text: String,
}

/// The walk's state besides the scopes.
struct Walk<'t, 'a> {
    config: &'a LanguageConfig,
    /// The configuration's analyzer.
    analyzer: &'a dyn Analyzer,
    source: &'a [u8],
    scopes: Vec<Scope<'t>>,
    /// The wrappers' bodies read as items ([`super::embed`]).
    embedded: &'t Embedded,
    /// The root of a wrapper's items the walk goes into instead of the wrapper's own children
    /// (set by `enter`).
    into: Option<Node<'t>>,
    /// The attributes of the wrappers the walk is inside, innermost last.
    inherited: Vec<Inherited>,
    /// Kind flags of the grammar ([`hooks`]).
    flags: Rc<Vec<u8>>,
    /// The ancestors of the current node with their kind flags, innermost last.
    ancestors: Vec<(Node<'t>, u8)>,
    /// Leaves that do not count: the parentheses of unwrapped nodes not reached yet.
    skip: Vec<usize>,
    /// The node whose leaves do not count because it counted as one token.
    muted: Option<usize>,
}

/// Extracts functions and imports from a parsed file, reading the items of its wrappers
/// where `embedded` holds them.
pub fn extract<'t>(
    config: &LanguageConfig,
    tree: &'t Tree,
    source: &[u8],
    embedded: &'t Embedded,
) -> Analysis {
    let root = tree.root_node();
    let mut out = Analysis {
        parse_errors: root.has_error(),
        ..Analysis::default()
    };
    let mut walk = Walk {
        config,
        analyzer: config.analyzer,
        source,
        scopes: Vec::new(),
        embedded,
        into: None,
        inherited: Vec::new(),
        flags: hooks(config, &tree.language()),
        ancestors: Vec::new(),
        skip: Vec::new(),
        muted: None,
    };
    let mut cursor = root.walk();
    // The cursors of the trees the walk left for a wrapper's items, each at its wrapper.
    let mut outer: Vec<tree_sitter::TreeCursor<'t>> = Vec::new();
    let started = std::time::Instant::now();
    let mut visited = 0u32;
    'walk: loop {
        visited = visited.wrapping_add(1);
        if visited % 256 == 0 && started.elapsed() > EXTRACT_BUDGET {
            return Analysis::skipped(format!(
                "analysis {OVER_BUDGET} ({} ms)",
                EXTRACT_BUDGET.as_millis()
            ));
        }
        let node = cursor.node();
        let flags = walk.flags_of(node);
        let noise = config.is_comment(node) || config.analyzer.is_docstring(node, source);
        let descend = !noise && walk.enter(node, flags, &mut out);
        if let Some(items) = walk.into.take().filter(|_| descend) {
            // A wrapper's items, in its place: the wrapper is their parent.
            walk.ancestors.push((node, flags));
            outer.push(std::mem::replace(&mut cursor, items.walk()));
            continue;
        }
        if descend && cursor.goto_first_child() {
            walk.ancestors.push((node, flags));
            continue;
        }
        // Only the node just entered can be a comment or docstring (the walk never enters
        // those): nothing is implied at its end.
        let mut quiet = noise;
        loop {
            let current = cursor.node();
            let flags = if quiet { 0 } else { walk.flags_of(current) };
            walk.leave(current, flags, &mut out, quiet);
            quiet = false;
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                // The end of a wrapper's items: back at the wrapper, which is left next.
                let Some(back) = outer.pop() else {
                    break 'walk;
                };
                cursor = back;
            }
            walk.ancestors.pop();
        }
    }
    // Functions left open by a malformed tree still get their fingerprints.
    while let Some(scope) = walk.scopes.pop() {
        close(scope, source, &mut walk.scopes, &mut out);
    }
    out.imports.sort();
    out.imports.dedup();
    out
}

impl<'t> Walk<'t, '_> {
    fn flags_of(&self, node: Node<'_>) -> u8 {
        self.flags
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(0)
    }

    /// Whether the walk is inside a function.
    fn in_function(&self) -> bool {
        self.scopes.iter().any(|s| s.open.is_some())
    }

    /// The current node's parent.
    fn parent(&self) -> Option<Node<'t>> {
        self.ancestors.last().map(|(n, _)| *n)
    }

    /// The wrapper attributes a definition directly inside a wrapper's items takes as its own.
    fn inherited_by(&self, node: Node<'_>) -> Option<&Inherited> {
        self.inherited
            .last()
            .filter(|i| node.parent().is_some_and(|p| p.id() == i.root))
    }

    /// Enters a wrapper whose body is read as items (`root`): its attributes, with those of
    /// the wrapper it is directly inside, become those of each item directly inside.
    fn inherit(&mut self, node: Node<'t>, w: &Wrapper<'t>, root: Node<'t>) {
        let (config, source) = (self.config, self.source);
        let (mut hash, mut text) = match self.inherited_by(node) {
            Some(i) => (i.hash, i.text.clone()),
            None => (SEED, String::new()),
        };
        let mut at = Some(w.outer).filter(|o| o.id() != node.id());
        while let Some(n) = at.filter(|n| n.id() != node.id()) {
            if !config.is_comment(n) {
                hash_leaves(config, n, source, &mut hash);
            }
            at = n.next_sibling();
        }
        let own = signature_text(config, w.outer, node, node.start_byte(), source);
        if !own.is_empty() {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&own);
        }
        self.inherited.push(Inherited {
            root: root.id(),
            hash,
            text,
        });
    }

    /// Records a wrapper whose body is not items: named under its scopes, fingerprinted.
    fn opaque(&mut self, node: Node<'t>, w: &Wrapper<'t>, out: &mut Analysis) {
        let (config, source) = (self.config, self.source);
        let parts = self.scopes.iter().map(|s| (s.lead, s.name.as_str()));
        let name = qualify(parts, config.separator, &w.name);
        let mut hash = SEED;
        hash_leaves(config, w.body, source, &mut hash);
        out.opaque.push(Opaque {
            name: format!("{} {name}", w.kind),
            start_line: w.outer.start_position().row as u32 + 1,
            end_line: node.end_position().row as u32 + 1,
            hash,
        });
    }

    /// Handles a node the walk enters; returns whether to descend into it.
    fn enter(&mut self, node: Node<'t>, flags: u8, out: &mut Analysis) -> bool {
        // Past the depth limit, definitions are plain code of the innermost scope.
        let shallow = self.scopes.len() < MAX_SCOPE_DEPTH;
        if flags & WRAPPER != 0 && shallow && !self.in_function() {
            if let Some(descend) = self.wrapper(node, out) {
                return descend;
            }
        }
        // A declaration outside every function (one inside is a local detail); before its own
        // scope opens, so a class is named by what encloses it.
        let cap = if shallow && flags & DECLARATION != 0 && !self.in_function() {
            self.declaration(node, out)
        } else {
            Visibility::Public
        };
        let role = if shallow {
            self.analyzer.role(node, self.source)
        } else {
            Role::Other
        };
        match role {
            Role::Function { name, body, outer } => {
                self.function(node, (name, body, outer), None, out)
            }
            Role::Method {
                name,
                body,
                outer,
                receiver,
            } => self.function(node, (name, body, outer), Some(&receiver), out),
            Role::Scope { name, methods } => self.scope(node, name, methods, cap),
            Role::Other if node.child_count() == 0 => self.leaf(node, flags),
            Role::Other => return self.code(node, flags, out),
        }
        true
    }

    /// Reads a wrapper: `Some(true)` when the walk goes into its items in its place,
    /// `Some(false)` when it holds nothing, `None` when it is not one or is opaque (recorded,
    /// and the node is read as any other).
    fn wrapper(&mut self, node: Node<'t>, out: &mut Analysis) -> Option<bool> {
        let w = self.analyzer.wrapper(node, self.source)?;
        match self.embedded.held(node) {
            Held::Items(root) => {
                self.inherit(node, &w, root);
                self.into = Some(root);
                Some(true)
            }
            Held::Empty => Some(false),
            Held::Opaque => {
                self.opaque(node, &w, out);
                None
            }
        }
    }

    /// Records what a node declares, if anything; returns how visible it is (what it caps the
    /// definitions inside it at), public when it declares nothing.
    fn declaration(&mut self, node: Node<'t>, out: &mut Analysis) -> Visibility {
        let Some(d) = self.config.declaration(node, self.source) else {
            return Visibility::Public;
        };
        let inherited = self.inherited_by(node);
        let d = declared(self.config, self.source, node, d, &self.scopes, inherited);
        let cap = d.visibility;
        out.declarations.push(d);
        cap
    }

    /// Opens a function (`definition`: its name, body and outer node), with its receiver when
    /// it has one.
    fn function(
        &mut self,
        node: Node<'t>,
        (name, body, outer): (Node<'t>, Option<Node<'t>>, Node<'t>),
        receiver: Option<&str>,
        out: &mut Analysis,
    ) {
        self.flush();
        let scope = open_function(
            self.config,
            self.source,
            (node, name, body, outer),
            receiver,
            self.inherited_by(node),
            &self.scopes,
            out,
        );
        self.scopes.push(scope);
    }

    /// Opens a scope named `name`; `cap` is how visible the node itself is as a declaration.
    fn scope(&mut self, node: Node<'t>, name: String, methods: bool, cap: Visibility) {
        let (analyzer, source) = (self.analyzer, self.source);
        let test = self.scopes.last().is_some_and(|s| s.test)
            || analyzer.is_test_scope(node, &name, source);
        self.scopes.push(Scope {
            node_id: node.id(),
            name,
            lead: self.config.separator,
            methods,
            test,
            cap: self.scopes.last().map_or(cap, |s| s.cap.min(cap)),
            members: analyzer.members(node, source),
            open: None,
        });
    }

    /// Reads a node with children that defines nothing: the call it makes, the imports it
    /// declares, how it counts ([`Analyzer::normal`]). Returns whether to descend into it (an
    /// import counted as written is counted here, whole).
    fn code(&mut self, node: Node<'t>, flags: u8, out: &mut Analysis) -> bool {
        let (analyzer, source) = (self.analyzer, self.source);
        if let Some(site) = analyzer.call(node, source) {
            out.calls.push(Call {
                site,
                line: node.start_position().row as u32 + 1,
                caller: self
                    .scopes
                    .iter()
                    .rev()
                    .find_map(|s| s.open.as_ref().map(|o| o.index as u32)),
                // A test module's own calls are test code too, in a function or not (a
                // `macro_rules!` of `#[cfg(test)] mod tests`).
                test: self.scopes.last().is_some_and(|s| s.test),
            });
        }
        let imports = analyzer.imports(node, source);
        if !imports.is_empty() {
            out.imports.extend(imports);
            // Import statements still count as tokens of an enclosing body.
            if self.config.imports_as_written {
                self.tokens_of(node);
                return false;
            }
        }
        if self.muted.is_some() || flags & NORMAL == 0 {
            return true;
        }
        let parent = self.parent();
        match analyzer.normal(node, parent, source) {
            Normal::Unwrap => {
                let last = node.child_count().saturating_sub(1);
                for child in [node.child(0), node.child(last)].into_iter().flatten() {
                    if child.child_count() == 0 {
                        self.skip.push(child.id());
                    }
                }
            }
            Normal::As(hash) => {
                self.emit(node.byte_range(), hash, parent, false);
                self.muted = Some(node.id());
            }
            Normal::Keep | Normal::Drop => {}
        }
        true
    }

    /// Handles a node the walk leaves (its subtree done).
    fn leave(&mut self, node: Node<'t>, flags: u8, out: &mut Analysis, quiet: bool) {
        let id = node.id();
        if self.inherited.last().is_some_and(|i| i.root == id) {
            self.inherited.pop();
        }
        if self.scopes.last().is_some_and(|s| s.node_id == id) {
            if let Some(scope) = self.scopes.pop() {
                close(scope, self.source, &mut self.scopes, out);
            }
        }
        if self.muted == Some(id) {
            self.muted = None;
        }
        let parent_flags = self.ancestors.last().map_or(0, |(_, f)| *f);
        let asked = flags & IMPLIED != 0 || parent_flags & IMPLIED_CHILDREN != 0;
        if asked && !quiet && self.muted.is_none() && node.is_named() {
            let parent = self.parent();
            let end = node.end_byte();
            for token in self.analyzer.implied_end(node, parent) {
                self.emit(end..end, fnv(token.as_bytes()), parent, false);
            }
        }
    }

    /// Counts a leaf, normalised.
    fn leaf(&mut self, leaf: Node<'t>, flags: u8) {
        if self.muted.is_some() {
            return;
        }
        if !self.skip.is_empty() {
            if let Some(at) = self.skip.iter().rposition(|id| *id == leaf.id()) {
                self.skip.swap_remove(at);
                return;
            }
        }
        let parent = self.parent();
        let normal = if flags & NORMAL != 0 {
            self.analyzer.normal(leaf, parent, self.source)
        } else {
            Normal::Keep
        };
        let (hash, name) = match normal {
            Normal::Drop => return,
            Normal::As(hash) => (hash, false),
            Normal::Keep | Normal::Unwrap => {
                (fnv(&self.source[leaf.byte_range()]), flags & NAME != 0)
            }
        };
        self.emit(leaf.byte_range(), hash, parent, name);
    }

    /// Counts every leaf of a subtree (an import statement) as written.
    fn tokens_of(&mut self, node: Node<'t>) {
        let mut cursor = node.walk();
        let start = node.id();
        loop {
            let current = cursor.node();
            if current.child_count() == 0 {
                let hash = fnv(&self.source[current.byte_range()]);
                let name = self.flags_of(current) & NAME != 0;
                self.emit(current.byte_range(), hash, None, name);
            } else if cursor.goto_first_child() {
                continue;
            }
            loop {
                if cursor.node().id() == start {
                    return;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return;
                }
            }
        }
    }

    /// Gives a token (a `name` or not) to the innermost open function; a comma waits for the
    /// token after it.
    fn emit(&mut self, at: Range<usize>, hash: u64, list: Option<Node<'t>>, name: bool) {
        let (analyzer, source) = (self.analyzer, self.source);
        let Some(open) = self.scopes.iter_mut().rev().find_map(|s| s.open.as_mut()) else {
            return;
        };
        settle(open, (&at, hash), analyzer, source);
        if hash == COMMA {
            open.comma = Some(Comma {
                at,
                list,
                after_opening: open.after_opening,
            });
            return;
        }
        count(open, &at, hash, name);
    }

    /// Counts the innermost open function's waiting comma before a nested function opens:
    /// what follows it is not the outer function's.
    fn flush(&mut self) {
        if let Some(open) = self.scopes.iter_mut().rev().find_map(|s| s.open.as_mut()) {
            if let Some(comma) = open.comma.take() {
                count(open, &comma.at, COMMA, false);
            }
        }
    }
}
