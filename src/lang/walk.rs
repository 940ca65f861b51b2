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
    Analysis, Analyzer, Call, Declaration, Declared, EXTRACT_BUDGET, Function, FunctionKind,
    MAX_SCOPE_DEPTH, Normal, OVER_BUDGET, Opaque, Role, Visibility, Wrapper, fnv,
};

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

/// Returns the kind flags of a grammar for an analyzer, indexed by kind id.
fn hooks(analyzer: &dyn Analyzer, language: &Language) -> Rc<Vec<u8>> {
    HOOKS.with(|cache| {
        if let Some(flags) = cache.borrow().get(language) {
            return Rc::clone(flags);
        }
        let mut flags = vec![0u8; language.node_kind_count().max(1)];
        let (implied, children) = analyzer.implied_kinds();
        for (id, flag) in flags.iter_mut().enumerate() {
            let kind = u16::try_from(id)
                .ok()
                .and_then(|id| language.node_kind_for_id(id));
            if kind.is_some_and(names_kind) {
                *flag |= NAME;
            }
        }
        for (kinds, flag) in [
            (analyzer.normal_kinds(), NORMAL),
            (implied, IMPLIED),
            (children, IMPLIED_CHILDREN),
            (analyzer.declaration_kinds(), DECLARATION),
            (analyzer.wrapper_kinds(), WRAPPER),
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
    /// What joins its name to the scope before it ([`Analyzer::separator`], or the function's
    /// [`Analyzer::name_separator`]).
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

/// Returns a node's text (empty for invalid UTF-8).
pub fn text<'s>(node: Node<'_>, source: &'s [u8]) -> &'s str {
    std::str::from_utf8(&source[node.byte_range()]).unwrap_or("")
}

/// The words of a node's modifier children (the direct children whose kind is in `kinds`):
/// `public`, `static`, `@Override`, `private[pkg]` as `private` and `pkg`. For the analyzers'
/// [`Analyzer::visibility`].
pub(super) fn modifier_words<'s>(node: Node<'_>, kinds: &[&str], source: &'s [u8]) -> Vec<&'s str> {
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
    analyzer: &dyn Analyzer,
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
        analyzer,
        source,
        scopes: Vec::new(),
        embedded,
        into: None,
        inherited: Vec::new(),
        flags: hooks(analyzer, &tree.language()),
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
        let noise = analyzer.is_comment(node) || analyzer.is_docstring(node, source);
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
        let (analyzer, source) = (self.analyzer, self.source);
        let (mut hash, mut text) = match self.inherited_by(node) {
            Some(i) => (i.hash, i.text.clone()),
            None => (SEED, String::new()),
        };
        let mut at = Some(w.outer).filter(|o| o.id() != node.id());
        while let Some(n) = at.filter(|n| n.id() != node.id()) {
            if !analyzer.is_comment(n) {
                hash_leaves(analyzer, n, source, &mut hash);
            }
            at = n.next_sibling();
        }
        let own = signature_text(analyzer, w.outer, node, node.start_byte(), source);
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
        let (analyzer, source) = (self.analyzer, self.source);
        let parts = self.scopes.iter().map(|s| (s.lead, s.name.as_str()));
        let name = qualify(parts, analyzer.separator(), &w.name);
        let mut hash = SEED;
        hash_leaves(analyzer, w.body, source, &mut hash);
        out.opaque.push(Opaque {
            name: format!("{} {name}", w.kind),
            start_line: w.outer.start_position().row as u32 + 1,
            end_line: node.end_position().row as u32 + 1,
            hash,
        });
    }

    /// Handles a node the walk enters; returns whether to descend into it.
    fn enter(&mut self, node: Node<'t>, flags: u8, out: &mut Analysis) -> bool {
        let (analyzer, source) = (self.analyzer, self.source);
        // Past the depth limit, definitions are plain code of the innermost scope.
        let shallow = self.scopes.len() < MAX_SCOPE_DEPTH;
        if flags & WRAPPER != 0 && shallow && !self.in_function() {
            if let Some(w) = analyzer.wrapper(node, source) {
                match self.embedded.held(node) {
                    Held::Items(root) => {
                        self.inherit(node, &w, root);
                        self.into = Some(root);
                        return true;
                    }
                    Held::Empty => return false,
                    Held::Opaque => self.opaque(node, &w, out),
                }
            }
        }
        // A declaration outside every function (one inside is a local detail); before its own
        // scope opens, so a class is named by what encloses it.
        let mut cap = Visibility::Public;
        if shallow && flags & DECLARATION != 0 && !self.in_function() {
            if let Some(d) = analyzer.declaration(node, source) {
                let inherited = self.inherited_by(node);
                let d = declared(analyzer, source, node, d, &self.scopes, inherited);
                cap = d.visibility;
                out.declarations.push(d);
            }
        }
        let role = if shallow {
            analyzer.role(node, source)
        } else {
            Role::Other
        };
        match role {
            Role::Function { name, body, outer } => {
                self.flush();
                let scope = open_function(
                    analyzer,
                    source,
                    (node, name, body, outer),
                    None,
                    self.inherited_by(node),
                    &self.scopes,
                    out,
                );
                self.scopes.push(scope);
            }
            Role::Method {
                name,
                body,
                outer,
                receiver,
            } => {
                self.flush();
                let scope = open_function(
                    analyzer,
                    source,
                    (node, name, body, outer),
                    Some(&receiver),
                    self.inherited_by(node),
                    &self.scopes,
                    out,
                );
                self.scopes.push(scope);
            }
            Role::Scope { name, methods } => {
                let test = self.scopes.last().is_some_and(|s| s.test)
                    || analyzer.is_test_scope(node, &name, source);
                self.scopes.push(Scope {
                    node_id: node.id(),
                    name,
                    lead: analyzer.separator(),
                    methods,
                    test,
                    cap: self.scopes.last().map_or(cap, |s| s.cap.min(cap)),
                    members: analyzer.members(node, source),
                    open: None,
                });
            }
            Role::Other => {
                if node.child_count() == 0 {
                    self.leaf(node, flags);
                } else {
                    if let Some(site) = analyzer.call(node, source) {
                        out.calls.push(Call {
                            site,
                            line: node.start_position().row as u32 + 1,
                            caller: self
                                .scopes
                                .iter()
                                .rev()
                                .find_map(|s| s.open.as_ref().map(|o| o.index as u32)),
                            // A test module's own calls are test code too, in a function
                            // or not (a `macro_rules!` of `#[cfg(test)] mod tests`).
                            test: self.scopes.last().is_some_and(|s| s.test),
                        });
                    }
                    let imports = analyzer.imports(node, source);
                    if !imports.is_empty() {
                        out.imports.extend(imports);
                        // Import statements still count as tokens of an enclosing body.
                        if analyzer.imports_as_written() {
                            self.tokens_of(node);
                            return false;
                        }
                    }
                    if self.muted.is_none() && flags & NORMAL != 0 {
                        let parent = self.parent();
                        match analyzer.normal(node, parent, source) {
                            Normal::Unwrap => {
                                let last = node.child_count().saturating_sub(1);
                                for child in [node.child(0), node.child(last)].into_iter().flatten()
                                {
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
                    }
                }
            }
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

/// Decides a waiting comma now that the next token is known: a trailing comma does not count,
/// unless the language says it means something.
fn settle(
    open: &mut Open<'_>,
    (at, hash): (&Range<usize>, u64),
    analyzer: &dyn Analyzer,
    source: &[u8],
) {
    let Some(comma) = open.comma.take() else {
        return;
    };
    let trailing = CLOSING.contains(&hash) || comma.list.is_some_and(|l| at.start >= l.end_byte());
    let dropped = trailing
        && !comma.after_opening
        && !comma.list.is_some_and(|l| analyzer.comma_counts(l, source));
    if !dropped {
        count(open, &comma.at, COMMA, false);
    }
}

/// Whether a token lies within `region`. An implied token (empty, at the end of the node that
/// implies it) lies where a written one would: after that node, so at the very end of a region
/// it is outside, as a written `;` after an arrow function's expression body is.
fn within(region: &Range<usize>, at: &Range<usize>) -> bool {
    if at.is_empty() {
        region.start <= at.start && at.start < region.end
    } else {
        region.start <= at.start && at.end <= region.end
    }
}

/// Adds a token to the body or the signature fingerprint, by where it lies; a name counts
/// toward the body's shape as the order of its first use.
fn count(open: &mut Open<'_>, at: &Range<usize>, hash: u64, name: bool) {
    open.after_opening = hash == COMMA || OPENING.contains(&hash);
    if open.body.as_ref().is_some_and(|b| within(b, at)) {
        open.body_hash = mix(open.body_hash, hash);
        let shape = if name {
            let next = open.names.len() as u32;
            u64::from(*open.names.entry(hash).or_insert(next)) | NAME_SHAPE
        } else {
            hash
        };
        open.shape_hash = mix(open.shape_hash, shape);
        if open.tokens.len() < TOKEN_CAP {
            open.tokens.push(hash as u32);
        }
    } else if within(&open.signature, at) && !within(&open.name, at) {
        open.signature_hash = mix(open.signature_hash, hash);
    }
}

/// Folds every non-comment leaf of a subtree into `hash`.
fn hash_leaves(analyzer: &dyn Analyzer, node: Node<'_>, source: &[u8], hash: &mut u64) {
    let mut cursor = node.walk();
    let start = node.id();
    loop {
        let current = cursor.node();
        let comment = analyzer.is_comment(current);
        if current.child_count() == 0 {
            if !comment {
                *hash = mix(*hash, fnv(&source[current.byte_range()]));
            }
        } else if !comment && cursor.goto_first_child() {
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

/// Returns a definition's signature as one line: its tokens from `outer` to the body without
/// comments, separated by one space where the source had any, none just inside brackets, and
/// no trailing comma (unless it means something, as in a one-element tuple).
fn signature_text(
    analyzer: &dyn Analyzer,
    outer: Node<'_>,
    node: Node<'_>,
    end: usize,
    source: &[u8],
) -> String {
    let mut out = String::new();
    let mut prev: Option<(usize, &str)> = None;
    // Where the last token, a comma, began in `out` (with the space before it).
    let mut comma_at: Option<usize> = None;
    let mut root = Some(outer);
    while let Some(r) = root {
        let mut cursor = r.walk();
        'subtree: loop {
            let current = cursor.node();
            if current.start_byte() >= end {
                return finish_signature(out, comma_at);
            }
            let comment = analyzer.is_comment(current);
            if current.child_count() == 0 && !comment && current.end_byte() > current.start_byte() {
                let token = text(current, source);
                let closing = matches!(token, ")" | "]" | "}" | ">");
                if closing {
                    if let Some(at) = comma_at.take() {
                        out.truncate(at);
                    }
                }
                if let Some((prev_end, prev_token)) = prev {
                    let gap = &source[prev_end.min(current.start_byte())..current.start_byte()];
                    let newline = gap.contains(&b'\n');
                    let tight = matches!(prev_token, "(" | "[")
                        || matches!(token, ")" | "]")
                        || (newline && (matches!(prev_token, "{" | "<") || closing));
                    if !gap.is_empty() && !tight {
                        out.push(' ');
                    }
                }
                comma_at = None;
                if token == "," {
                    let meaningful = current
                        .parent()
                        .is_some_and(|list| analyzer.comma_counts(list, source));
                    if !meaningful {
                        comma_at = Some(out.trim_end().len());
                    }
                }
                let mut words = token.split_whitespace();
                if let Some(first) = words.next() {
                    out.push_str(first);
                    for word in words {
                        out.push(' ');
                        out.push_str(word);
                    }
                }
                prev = Some((current.end_byte(), token));
            } else if current.child_count() > 0 && !comment && cursor.goto_first_child() {
                continue;
            }
            loop {
                if cursor.node().id() == r.id() {
                    break 'subtree;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    break 'subtree;
                }
            }
        }
        // Attributes before the definition are its preceding siblings.
        root = (r.id() != node.id() && r.end_byte() <= node.start_byte())
            .then(|| r.next_sibling())
            .flatten();
    }
    finish_signature(out, comma_at)
}

fn finish_signature(mut out: String, comma_at: Option<usize>) -> String {
    if let Some(at) = comma_at {
        out.truncate(at);
    }
    let trimmed = out.trim_end_matches(['{', ':', ' ']);
    trimmed.chars().take(SIGNATURE_CHARS).collect()
}

/// A name qualified by its scopes: each `(join, name)` joined to the one before it by `join`,
/// `leaf` by `lead`. Scopes without a name (Ruby's `class << self`) add no segment.
fn qualify<'a>(parts: impl Iterator<Item = (&'a str, &'a str)>, lead: &str, leaf: &str) -> String {
    let mut qualified = String::new();
    for (join, part) in parts {
        if !part.is_empty() {
            if !qualified.is_empty() {
                qualified.push_str(join);
            }
            qualified.push_str(part);
        }
    }
    if !qualified.is_empty() {
        qualified.push_str(lead);
    }
    qualified.push_str(leaf);
    qualified
}

/// A declaration as the analysis records it: qualified by the enclosing scopes, its head on
/// one line, its visibility.
fn declared(
    analyzer: &dyn Analyzer,
    source: &[u8],
    node: Node<'_>,
    d: Declaration<'_>,
    scopes: &[Scope<'_>],
    inherited: Option<&Inherited>,
) -> Declared {
    let parts = scopes.iter().map(|s| (s.lead, s.name.as_str()));
    let name = qualify(parts, analyzer.separator(), text(d.name, source));
    let head_end = d.head_end.clamp(node.start_byte(), node.end_byte());
    let signature = signature_text(analyzer, d.outer, node, head_end, source);
    let mut signature = signature.trim_end_matches(['=', ';', ' ']).to_owned();
    if let Some(i) = inherited.filter(|i| !i.text.is_empty()) {
        signature = format!("{} {signature}", i.text);
    }
    let cap = scopes.last().map_or(Visibility::Public, |s| s.cap);
    let own = scopes
        .last()
        .and_then(|s| s.members)
        .unwrap_or_else(|| analyzer.visibility(d.outer, node, &name, source));
    Declared {
        visibility: own.min(cap),
        name,
        kind: d.kind.to_owned(),
        signature,
        test: scopes.last().is_some_and(|s| s.test),
        start_line: d.outer.start_position().row as u32 + 1,
        end_line: node.end_position().row as u32 + 1,
    }
}

/// Opens a function's scope and reserves its place in the output. `definition` is its node,
/// name, body and outer node as [`Role::Function`] gives them; `inherited`, the attributes of
/// the wrapper it is directly inside.
fn open_function<'t>(
    analyzer: &dyn Analyzer,
    source: &[u8],
    definition: (Node<'t>, Node<'t>, Option<Node<'t>>, Node<'t>),
    receiver: Option<&str>,
    inherited: Option<&Inherited>,
    scopes: &[Scope<'t>],
    out: &mut Analysis,
) -> Scope<'t> {
    let (node, name, body, outer) = definition;
    let leaf = text(name, source).to_owned();
    let kind = analyzer.kind(
        node,
        if receiver.is_some() || scopes.last().is_some_and(|s| s.methods) {
            FunctionKind::Method
        } else {
            FunctionKind::Function
        },
    );
    let separator = analyzer.separator();
    let lead = analyzer.name_separator(node);
    let parts = scopes.iter().map(|s| (s.lead, s.name.as_str()));
    let qualified = qualify(parts.chain(receiver.map(|r| (separator, r))), lead, &leaf);
    let test =
        scopes.last().is_some_and(|s| s.test) || analyzer.is_test(outer, node, &leaf, source);
    let visibility = if scopes.iter().any(|s| s.open.is_some()) {
        Visibility::Private
    } else {
        let cap = scopes.last().map_or(Visibility::Public, |s| s.cap);
        let own = scopes
            .last()
            .and_then(|s| s.members)
            .unwrap_or_else(|| analyzer.visibility(outer, node, &qualified, source));
        own.min(cap)
    };
    let sig_end = body.map_or(node.end_byte(), |b| b.start_byte());
    // Attributes before the function's own node (Rust's `#[...]` items are its siblings): hash
    // them here; everything from the node's start to its body comes through the walk.
    let mut signature_hash = inherited.map_or(SEED, |i| i.hash);
    let mut sibling =
        Some(outer).filter(|o| o.id() != node.id() && o.end_byte() <= node.start_byte());
    while let Some(n) = sibling {
        if n.id() == node.id() {
            break;
        }
        if !analyzer.is_comment(n) {
            hash_leaves(analyzer, n, source, &mut signature_hash);
        }
        sibling = n.next_sibling();
    }
    let mut signature = signature_text(analyzer, outer, node, sig_end, source);
    if let Some(i) = inherited.filter(|i| !i.text.is_empty()) {
        signature = format!("{} {signature}", i.text);
    }
    let index = out.functions.len();
    out.functions.push(Function {
        name: qualified,
        leaf: leaf.clone(),
        kind,
        test,
        start_line: outer.start_position().row as u32 + 1,
        end_line: node.end_position().row as u32 + 1,
        signature,
        signature_hash: 0,
        body_hash: 0,
        shape_hash: 0,
        text_hash: 0,
        tokens: Vec::new(),
        visibility,
    });
    // Functions nested in a method with a receiver are named under both (Lua's `M:f.g`).
    let (scope_name, lead) = match receiver {
        Some(r) => (format!("{r}{lead}{leaf}"), separator),
        None => (leaf, lead),
    };
    Scope {
        node_id: node.id(),
        name: scope_name,
        lead,
        methods: false,
        test,
        cap: Visibility::Private,
        members: None,
        open: Some(Open {
            index,
            outer_start: outer.start_byte(),
            body: body.map(|b| b.byte_range()),
            signature: node.start_byte()..sig_end,
            name: name.byte_range(),
            end: node.end_byte(),
            body_hash: SEED,
            shape_hash: SEED,
            names: HashMap::new(),
            signature_hash,
            tokens: Vec::new(),
            nested: Vec::new(),
            comma: None,
            after_opening: false,
        }),
    }
}

/// Finishes a scope: a function's fingerprints are written to its reserved slot, and its
/// range is cut out of its parent function's raw text.
fn close(scope: Scope<'_>, source: &[u8], scopes: &mut [Scope<'_>], out: &mut Analysis) {
    let Some(mut open) = scope.open else { return };
    if let Some(comma) = open.comma.take() {
        count(&mut open, &comma.at, COMMA, false);
    }
    let mut text_hash = SEED;
    let begin = open.outer_start;
    let mut at = begin;
    open.nested.sort_by_key(|r| r.start);
    for r in open
        .nested
        .iter()
        .chain(std::iter::once(&(open.end..open.end)))
    {
        if r.start >= at && r.start <= open.end {
            text_hash = mix(text_hash, fnv(&source[at..r.start]));
            at = r.end.min(open.end);
        }
    }
    if let Some(parent) = scopes.iter_mut().rev().find_map(|s| s.open.as_mut()) {
        parent.nested.push(begin..open.end);
    }
    open.tokens.sort_unstable();
    let f = &mut out.functions[open.index];
    f.signature_hash = open.signature_hash;
    f.body_hash = open.body_hash;
    f.shape_hash = open.shape_hash;
    f.text_hash = text_hash;
    f.tokens = open.tokens;
}
