//! Ruby: methods named as Ruby writes them — `Foo::Bar#baz` for an instance method, `Foo.qux`
//! for a singleton method (`def self.qux`, or a `def` inside `class << self`), `helper` for a
//! method defined at the top level (a function), and `Foo#outer#inner` for a `def` inside a
//! method. Classes and modules are scopes (`class Foo::Bar` is one scope named `Foo::Bar`);
//! `class << self` adds no name. `private def x`, `memoize def x` (a call whose only argument is
//! a definition) are the definition, their call part of its signature. Blocks, lambdas, procs,
//! `define_method` and `attr_accessor` are not functions: their code belongs to the method
//! around them.
//!
//! Interface (ADR 18): a method is public unless private by Ruby's own means — defined after a
//! bare `private` or `protected` in its class, module or `class << self` body (until a bare
//! `public`), named by `private :name` or `protected :name` there, wrapped (`private def x`,
//! `protected def x`), or a singleton method named by `private_class_method :name` (a bare
//! `private` does not reach `def self.x`, as in Ruby). `protected` counts private: only objects
//! of the class's own family can call it, and YARD leaves it out of the documented API. A
//! method defined at the top level is public (callable from everywhere). Classes, modules and
//! constants (`NAME = value` outside methods) are declarations, private when named by
//! `private_constant`; a class or module caps what it holds.
//!
//! Imports: `require "sinatra/base"` is `sinatra/base`; `require_relative "helper"` is the path
//! from the requiring file's directory, `./helper` (`../lib/x` as written); `load` and
//! `autoload` are not imports.
//!
//! What formatters write either way (ADR 9): `;` and line breaks (every statement ends with
//! one implied `;`), `then` and `do` after a condition, parentheses around a method's
//! parameters, `()` of a call without arguments, parentheses around a condition, single or
//! double quotes of a string with no interpolation, `_` in numbers, trailing commas. Layout
//! aside, RuboCop's other rewrites (`:a => 1` to `a: 1`, `do...end` to `{...}`, a redundant
//! `return` or `self.`) change tokens and count.

use tree_sitter::Node;

use super::nodes::{text, unspaced};
use super::normal::{followed, only_child, quoted_value};
use super::{
    Analyzer, CallSite, Declaration, Declares, ImportScheme, Language, LanguageConfig, Normal,
    Role, Visibility, calls, fnv,
};

/// Ruby's facts.
pub(super) static CONFIG: LanguageConfig = LanguageConfig {
    grammars: &[(Language::Ruby, || tree_sitter_ruby::LANGUAGE.into())],
    family: &[Language::Ruby],
    import_scheme: Some(ImportScheme::Ruby),
    separator: "::",
    comments: &["comment"],
    // `require` is a call, often inside a method, that formatters rewrite like any code.
    imports_as_written: false,
    normal_kinds: &[
        ";",
        "then",
        "do",
        "(",
        ")",
        "parenthesized_statements",
        "string",
        "integer",
        "float",
    ],
    implied_kinds: &[],
    implied_parents: &[
        "program",
        "body_statement",
        "block_body",
        "then",
        "else",
        "do",
        "ensure",
        "begin",
        "parenthesized_statements",
        "begin_block",
        "end_block",
        "if",
        "unless",
        "elsif",
        "while",
        "until",
    ],
    // A class's or module's head ends after its name or superclass; a constant is an
    // assignment in a class or module body or at the top level.
    declarations: &[
        Declares::hook("class"),
        Declares::hook("module"),
        Declares::hook("assignment"),
    ],
    wrapper_kinds: &[],
    item_containers: &[],
    analyzer: &Ruby,
};

/// The Ruby analyzer.
pub struct Ruby;

/// Nodes whose children are statements, each ended by a `;` or a line break.
const STATEMENTS: &[&str] = &[
    "program",
    "body_statement",
    "block_body",
    "then",
    "else",
    "do",
    "ensure",
    "begin",
    "parenthesized_statements",
    "begin_block",
    "end_block",
];

/// Nodes whose `condition` may be followed by `then` (or `do`) or a line break.
const CONDITIONALS: &[&str] = &["if", "unless", "elsif", "while", "until"];

/// The separator implied after a condition, whether `then`, `do` or a line break was written.
const THEN: &str = "then";

impl Analyzer for Ruby {
    fn name_separator(&self, node: Node<'_>) -> Option<&'static str> {
        match definition(node).map(|d| d.kind()) {
            Some("singleton_method") => Some("."),
            Some(_) if in_singleton_class(node) => Some("."),
            _ => Some("#"),
        }
    }

    fn visibility(
        &self,
        outer: Node<'_>,
        node: Node<'_>,
        _name: &str,
        source: &[u8],
    ) -> Visibility {
        match node.kind() {
            "class" | "module" | "assignment" => constant_visibility(node, source),
            _ => method_visibility(outer, node, source),
        }
    }

    fn declaration<'t>(&self, node: Node<'t>, _source: &[u8]) -> Option<Declaration<'t>> {
        let (kind, name, head_end) = match node.kind() {
            "class" | "module" => {
                let name = node.child_by_field_name("name")?;
                // The head ends after the name or the superclass (an empty class has no body,
                // only its `end`).
                let head = node.child_by_field_name("superclass").unwrap_or(name);
                let kind = if node.kind() == "class" {
                    "class"
                } else {
                    "module"
                };
                (kind, name, head.end_byte())
            }
            // `NAME = value`: a constant, in a class or module body or at the top level.
            "assignment" => {
                let name = node
                    .child_by_field_name("left")
                    .filter(|l| l.kind() == "constant")?;
                let parent = node.parent()?;
                if !matches!(parent.kind(), "program" | "body_statement")
                    || parent
                        .parent()
                        .is_some_and(|p| !matches!(p.kind(), "class" | "module"))
                {
                    return None;
                }
                let value = node
                    .child_by_field_name("right")
                    .map_or(node.end_byte(), |r| r.start_byte());
                ("constant", name, value)
            }
            _ => return None,
        };
        Some(Declaration {
            kind,
            name,
            outer: node,
            head_end,
        })
    }

    fn role<'t>(&self, node: Node<'t>, source: &[u8]) -> Role<'t> {
        match node.kind() {
            "method" | "singleton_method" if wrapper(node).is_some() => Role::Other,
            "method" | "singleton_method" => function(node, node, source),
            "call" => match wrapped(node) {
                Some(def) => function(def, node, source),
                None => Role::Other,
            },
            "class" | "module" => match node.child_by_field_name("name") {
                Some(name) => Role::Scope {
                    name: unspaced(text(name, source)),
                    methods: true,
                },
                None => Role::Other,
            },
            // `class << self`: methods inside are singleton methods of the enclosing class.
            "singleton_class" => Role::Scope {
                name: match node.child_by_field_name("value") {
                    Some(v) if v.kind() != "self" => unspaced(text(v, source)),
                    _ => String::new(),
                },
                methods: true,
            },
            _ => Role::Other,
        }
    }

    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String> {
        if node.kind() != "call" || node.child_by_field_name("receiver").is_some() {
            return Vec::new();
        }
        let Some(method) = node.child_by_field_name("method") else {
            return Vec::new();
        };
        let relative = match text(method, source) {
            "require" => false,
            "require_relative" => true,
            _ => return Vec::new(),
        };
        let Some(path) = node
            .child_by_field_name("arguments")
            .and_then(|a| only_child(a, CONFIG.comments))
            .and_then(|s| plain_string(s, source))
        else {
            return Vec::new();
        };
        let path = path.strip_suffix(".rb").unwrap_or(&path);
        if path.is_empty() {
            return Vec::new();
        }
        vec![
            if relative && !path.starts_with("./") && !path.starts_with("../") {
                format!("./{path}")
            } else {
                path.to_owned()
            },
        ]
    }

    fn call(&self, node: Node<'_>, source: &[u8]) -> Option<CallSite> {
        if node.kind() != "call" {
            return None;
        }
        let method = node.child_by_field_name("method")?;
        let name = text(method, source);
        let receiver = node.child_by_field_name("receiver");
        let member = node
            .child_by_field_name("operator")
            .is_none_or(|o| text(o, source) != "::");
        calls::site(
            name,
            receiver.map_or("", |r| text(r, source)),
            receiver.is_some() && member,
        )
    }

    fn is_test(&self, _outer: Node<'_>, node: Node<'_>, name: &str, _source: &[u8]) -> bool {
        // Minitest and Test::Unit run `test_` methods of test classes (a scope that makes its
        // methods tests); a `test_` method of any other class or module is its API.
        name.starts_with("test_") && node.parent().is_none_or(|p| p.kind() == "program")
    }

    fn is_test_scope(&self, node: Node<'_>, name: &str, source: &[u8]) -> bool {
        let last = name.rsplit("::").next().unwrap_or(name);
        last.ends_with("Test")
            || last.ends_with("Tests")
            || last.ends_with("Spec")
            || node
                .child_by_field_name("superclass")
                .is_some_and(|s| text(s, source).contains("Test"))
    }

    fn normal(&self, node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
        let parent_kind = parent.map_or("", |p| p.kind());
        match node.kind() {
            // Block-local variables (`|a; b|`) are the one place a `;` separates no statements.
            ";" if !matches!(parent_kind, "block_parameters" | "lambda_parameters") => Normal::Drop,
            "then" if node.child_count() == 0 => Normal::Drop,
            "do" if node.child_count() == 0 && parent_kind == "do" => Normal::Drop,
            // `def f(a, b)` is `def f a, b`; `x.f()` is `x.f`.
            "(" | ")" if parent_kind == "method_parameters" => Normal::Drop,
            "(" | ")"
                if parent_kind == "argument_list"
                    && parent.is_some_and(|p| p.named_child_count() == 0) =>
            {
                Normal::Drop
            }
            // `if (x)` is `if x`.
            "parenthesized_statements"
                if parent.is_some_and(|p| {
                    CONDITIONALS.contains(&p.kind())
                        && p.child_by_field_name("condition")
                            .is_some_and(|c| c.id() == node.id())
                }) && only_child(node, CONFIG.comments).is_some() =>
            {
                Normal::Unwrap
            }
            "string" => string_value(node, source),
            "integer" | "float" => {
                let digits: Vec<u8> = source[node.byte_range()]
                    .iter()
                    .filter(|b| **b != b'_')
                    .map(u8::to_ascii_lowercase)
                    .collect();
                if digits.len() == node.byte_range().len() && digits == source[node.byte_range()] {
                    Normal::Keep
                } else {
                    Normal::As(fnv(&digits))
                }
            }
            _ => Normal::Keep,
        }
    }

    fn implied_end(&self, node: Node<'_>, parent: Option<Node<'_>>) -> &'static [&'static str] {
        let Some(parent) = parent else { return &[] };
        if STATEMENTS.contains(&parent.kind()) {
            // A separator: only between statements (a comment is none). Statements at the
            // top level belong to no function.
            if parent.kind() != "program" && followed(node, parent, |n| CONFIG.is_comment(n)) {
                &[";"]
            } else {
                &[]
            }
        } else if CONDITIONALS.contains(&parent.kind())
            && parent
                .child_by_field_name("condition")
                .is_some_and(|c| c.id() == node.id())
        {
            &[THEN]
        } else {
            &[]
        }
    }
}

/// A definition's role: `def self.x` and `def x` are named in their scope, `def obj.x` with
/// `obj` as its receiver. `outer` is the definition or the call that wraps it.
fn function<'t>(def: Node<'t>, outer: Node<'t>, source: &[u8]) -> Role<'t> {
    let Some(name) = def.child_by_field_name("name") else {
        return Role::Other;
    };
    // An empty method has no body: its `end` stands for it, so a body added later is a
    // modification, not a new signature.
    let body = def.child_by_field_name("body").or_else(|| {
        def.child(def.child_count().saturating_sub(1))
            .filter(|e| e.kind() == "end")
    });
    match def.child_by_field_name("object") {
        Some(object) if def.kind() == "singleton_method" && object.kind() != "self" => {
            Role::Method {
                name,
                body,
                outer,
                receiver: unspaced(text(object, source)),
            }
        }
        _ => Role::Function { name, body, outer },
    }
}

/// The definition a function node stands for: itself, or the one its call wraps.
fn definition(node: Node<'_>) -> Option<Node<'_>> {
    match node.kind() {
        "method" | "singleton_method" => Some(node),
        "call" => wrapped(node),
        _ => None,
    }
}

/// The definition a call such as `private def x` wraps: its only argument, with no receiver
/// and no block.
fn wrapped(call: Node<'_>) -> Option<Node<'_>> {
    if call.child_by_field_name("receiver").is_some() || call.child_by_field_name("block").is_some()
    {
        return None;
    }
    let arguments = call.child_by_field_name("arguments")?;
    only_child(arguments, CONFIG.comments)
        .filter(|d| matches!(d.kind(), "method" | "singleton_method"))
}

/// The call that wraps a definition, if one does.
fn wrapper(def: Node<'_>) -> Option<Node<'_>> {
    let arguments = def.parent().filter(|p| p.kind() == "argument_list")?;
    let call = arguments.parent().filter(|c| c.kind() == "call")?;
    wrapped(call).filter(|d| d.id() == def.id()).map(|_| call)
}

/// Whether a definition stands directly inside `class << ...`.
fn in_singleton_class(node: Node<'_>) -> bool {
    let body = node.parent().filter(|p| p.kind() == "body_statement");
    body.and_then(|b| b.parent())
        .is_some_and(|c| c.kind() == "singleton_class")
}

/// How far a method is visible by the access calls of its body (see the module's doc); `outer`
/// is the statement that defines it (the definition or the call that wraps it).
fn method_visibility(outer: Node<'_>, node: Node<'_>, source: &[u8]) -> Visibility {
    let Some(def) = definition(node) else {
        return Visibility::Public;
    };
    if outer.kind() == "call" {
        let wrapper = outer
            .child_by_field_name("method")
            .map_or("", |m| text(m, source));
        match wrapper {
            "private" | "protected" | "private_class_method" => return Visibility::Private,
            "public" | "public_class_method" => return Visibility::Public,
            _ => {}
        }
    }
    let leaf = def
        .child_by_field_name("name")
        .map_or("", |n| text(n, source));
    let Some(body) = outer.parent().filter(|p| is_type_body(*p)) else {
        return Visibility::Public;
    };
    // `def self.x`: only `private_class_method` reaches it.
    if def.kind() == "singleton_method" {
        return access_by_name(body, None, leaf, CLASS_METHOD_CALLS, source);
    }
    let own = access_by_name(body, Some(outer), leaf, METHOD_CALLS, source);
    // A `def` in `class << self` is also named by the class's `private_class_method :x`.
    let class_body = body
        .parent()
        .filter(|s| s.kind() == "singleton_class")
        .and_then(|s| s.parent())
        .filter(|b| is_type_body(*b));
    match class_body {
        Some(class_body) => own.min(access_by_name(
            class_body,
            None,
            leaf,
            CLASS_METHOD_CALLS,
            source,
        )),
        None => own,
    }
}

/// Whether a node is the body of a class, module or `class << self`.
fn is_type_body(node: Node<'_>) -> bool {
    node.kind() == "body_statement"
        && node
            .parent()
            .is_some_and(|p| matches!(p.kind(), "class" | "module" | "singleton_class"))
}

/// The access calls that name instance methods (`private :x`).
const METHOD_CALLS: &[(&str, Visibility)] = &[
    ("private", Visibility::Private),
    ("protected", Visibility::Private),
    ("public", Visibility::Public),
];

/// The access calls that name singleton methods (`private_class_method :x`).
const CLASS_METHOD_CALLS: &[(&str, Visibility)] = &[
    ("private_class_method", Visibility::Private),
    ("public_class_method", Visibility::Public),
];

/// The access calls that name constants, classes and modules (`private_constant :X`).
const CONSTANT_CALLS: &[(&str, Visibility)] = &[
    ("private_constant", Visibility::Private),
    ("public_constant", Visibility::Public),
];

/// How far a member named `leaf` is visible by the statements of `body`: the last of `calls`
/// that names it, else (for an instance method, its `statement` given) the last bare
/// `private`, `protected` or `public` before it.
fn access_by_name(
    body: Node<'_>,
    statement: Option<Node<'_>>,
    leaf: &str,
    calls: &[(&str, Visibility)],
    source: &[u8],
) -> Visibility {
    let mut visibility = Visibility::Public;
    let mut before = statement.is_some();
    let mut named = None;
    let mut cursor = body.walk();
    for child in body.children(&mut cursor) {
        if statement.is_some_and(|s| s.id() == child.id()) {
            before = false;
            continue;
        }
        match child.kind() {
            "identifier" if before => match text(child, source) {
                "private" | "protected" => visibility = Visibility::Private,
                "public" | "module_function" => visibility = Visibility::Public,
                _ => {}
            },
            "call" if child.child_by_field_name("receiver").is_none() => {
                let method = child
                    .child_by_field_name("method")
                    .map_or("", |m| text(m, source));
                let access = calls.iter().find(|(call, _)| *call == method);
                if let Some((_, access)) = access.filter(|_| names(child, leaf, source)) {
                    named = Some(*access);
                }
            }
            _ => {}
        }
    }
    named.unwrap_or(visibility)
}

/// Whether an access call's arguments name `leaf` (`:leaf` or `"leaf"`).
fn names(call: Node<'_>, leaf: &str, source: &[u8]) -> bool {
    let Some(arguments) = call.child_by_field_name("arguments") else {
        return false;
    };
    let mut cursor = arguments.walk();
    arguments
        .named_children(&mut cursor)
        .any(|a| match a.kind() {
            "simple_symbol" => text(a, source).strip_prefix(':') == Some(leaf),
            "string" => plain_string(a, source).is_some_and(|s| s == leaf),
            _ => false,
        })
}

/// How far a class, module or constant is visible: private when its body's `private_constant`
/// names it.
fn constant_visibility(node: Node<'_>, source: &[u8]) -> Visibility {
    let name = match node.kind() {
        "assignment" => node.child_by_field_name("left"),
        _ => node.child_by_field_name("name"),
    };
    let Some(name) = name else {
        return Visibility::Public;
    };
    // `class A::B` is named `:B` where it is declared.
    let leaf = text(name, source).rsplit("::").next().unwrap_or("").trim();
    match node.parent().filter(|p| is_type_body(*p)) {
        Some(body) => access_by_name(body, None, leaf, CONSTANT_CALLS, source),
        None => Visibility::Public,
    }
}

/// A string literal's value when it has no interpolation and no escape but a quote or a
/// backslash (written the same in single and double quotes).
fn plain_string(node: Node<'_>, source: &[u8]) -> Option<String> {
    if node.kind() != "string" {
        return None;
    }
    let open = node.child(0)?;
    let single = match text(open, source) {
        "'" => true,
        "\"" => false,
        _ => return None,
    };
    let mut value = String::new();
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        let raw = text(child, source);
        match child.kind() {
            "string_content" if single => {
                let mut chars = raw.chars().peekable();
                while let Some(c) = chars.next() {
                    if c == '\\' && matches!(chars.peek(), Some('\\' | '\'')) {
                        value.extend(chars.next());
                    } else {
                        value.push(c);
                    }
                }
            }
            "string_content" => value.push_str(raw),
            "escape_sequence" if !single && matches!(raw, "\\\"" | "\\\\" | "\\'") => {
                value.push_str(&raw[1..]);
            }
            _ => return None,
        }
    }
    Some(value)
}

/// A string counts by its value when it has one in either quotes (`'it\'s'` is `"it's"`).
fn string_value(node: Node<'_>, source: &[u8]) -> Normal {
    match plain_string(node, source) {
        Some(value) => Normal::As(quoted_value(b"ruby-string", value.as_bytes(), false)),
        None => Normal::Keep,
    }
}

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::lang::analyze;
    use crate::lang::testing::{differ, names, same};

    #[test]
    fn qualified_names_as_ruby_writes_them() {
        let source = r#"require_relative "helper"
module Sinatra
  class Base
    attr_reader :params
    def call(env)
      dup.call!(env)
    end
    def self.get(path, &block) = route("GET", path, &block)
    class << self
      def reset!; end
      def settings = self
    end
    def ==(other) = other.equal?(self)
    def valid?; true; end
    def name=(value)
      @name = value
    end
    private def hidden
      handler = lambda { |x| x + 1 }
      [1].each do |i| puts i end
      def inner; end
    end
    def obj.odd; end
  end
  class Foo::Bar < Base
    def baz; end
  end
end
def helper(x) x end
"#;
        assert_eq!(
            names(Language::Ruby, source),
            vec![
                ("Sinatra::Base#call".into(), "method"),
                ("Sinatra::Base.get".into(), "method"),
                ("Sinatra::Base.reset!".into(), "method"),
                ("Sinatra::Base.settings".into(), "method"),
                ("Sinatra::Base#==".into(), "method"),
                ("Sinatra::Base#valid?".into(), "method"),
                ("Sinatra::Base#name=".into(), "method"),
                ("Sinatra::Base#hidden".into(), "method"),
                ("Sinatra::Base#hidden#inner".into(), "function"),
                ("Sinatra::Base::obj.odd".into(), "method"),
                ("Sinatra::Foo::Bar#baz".into(), "method"),
                ("helper".into(), "function"),
            ]
        );
    }

    #[test]
    fn signatures_are_one_line_and_keep_their_wrapper() {
        let source = "class A\n  private def f(a,\n      b = 1)\n    a\n  end\nend\n";
        let f = &analyze(Language::Ruby, source.as_bytes())
            .unwrap()
            .functions[0];
        assert_eq!(f.signature, "private def f(a, b = 1)");
        assert_eq!((f.start_line, f.end_line), (2, 5));
        differ(
            Language::Ruby,
            "class A\n  private def f; 1; end\nend\n",
            "class A\n  def f; 1; end\nend\n",
        );
    }

    #[test]
    fn imports() {
        let source = "require 'sinatra/base'\nrequire_relative \"helper\"\nrequire_relative '../lib/x.rb'\nrequire name\nload 'y.rb'\n";
        assert_eq!(
            analyze(Language::Ruby, source.as_bytes()).unwrap().imports,
            vec!["../lib/x", "./helper", "sinatra/base"]
        );
    }

    #[test]
    fn comments_do_not_change_the_body() {
        same(
            Language::Ruby,
            "class A\n  def f(x)\n    x + 1\n  end\nend\n",
            "class A\n  # Adds one.\n  def f(x) # x\n    x + 1 # really\n  end\n=begin\nblock\n=end\nend\n",
        );
    }

    #[test]
    fn formatting_rubocop_applies_is_not_a_change() {
        same(
            Language::Ruby,
            "def f a, b\n  if (a) then g(\"x\", 1_000,) end; h.i()\n  while b do b -= 1 end\nend\n",
            "def f(a, b)\n  if a\n    g('x', 1000)\n  end\n  h.i\n  while b\n    b -= 1\n  end\nend\n",
        );
        same(
            Language::Ruby,
            "def f\n  'it\\'s' + \"a\\\"b\"\nend\n",
            "def f\n  \"it's\" + 'a\"b'\nend\n",
        );
    }

    #[test]
    fn meaningful_edits_near_the_formatting_rules_are_changes() {
        let f = |body: &str| format!("def f(a, b)\n  {body}\nend\n");
        let pairs: &[(&str, &str)] = &[
            // Two statements are not one call.
            ("g\n  h", "g h"),
            ("g(a) + b", "g a + b"),
            ("'a\\nb'", "\"a\\nb\""),
            ("\"#{a}\"", "'#{a}'"),
            ("x = [a,]", "x = [a, b]"),
            ("c.each { |a,| a }", "c.each { |a| a }"),
            ("c.each { |a; b| a }", "c.each { |a, b| a }"),
            ("if a then b else c end", "if a then c else b end"),
            ("1000", "100"),
        ];
        for (a, b) in pairs {
            differ(Language::Ruby, &f(a), &f(b));
        }
    }

    #[test]
    fn visibility_and_declarations() {
        let source = r#"VERSION = "1"
def helper; end
module App
  LIMIT = 3
  class Client < Base
    SECRET = "x"
    private_constant :SECRET
    def open; end
    def self.build; end
    def self.make; end
    private_class_method :make
    def close; end
    private :close
    private def pack; end
    private
    def drop
      def nested; end
    end
    def self.still_public; end
    protected
    def send_it; end
    public
    def put; end
    protected def guard; end
    class << self
      def create; end
      private
      def cache; end
    end
  end
  class Hidden; end
  private_constant :Hidden
end
"#;
        assert_eq!(
            crate::lang::testing::interface(Language::Ruby, source),
            [
                "helper public",
                "App::Client#open public",
                "App::Client.build public",
                "App::Client.make private",
                "App::Client#close private",
                "App::Client#pack private",
                "App::Client#drop private",
                "App::Client#drop#nested private",
                "App::Client.still_public public",
                "App::Client#send_it private",
                "App::Client#put public",
                "App::Client#guard private",
                "App::Client.create public",
                "App::Client.cache private",
                "constant VERSION public: VERSION",
                "module App public: module App",
                "constant App::LIMIT public: LIMIT",
                "class App::Client public: class Client < Base",
                "constant App::Client::SECRET private: SECRET",
                "class App::Hidden private: class Hidden",
            ]
        );
    }

    #[test]
    fn tests_are_the_test_methods_of_test_classes() {
        let source = "def test_top; end\nclass Connection\n  def test_connection; end\nend\nclass CartTest < Minitest::Test\n  def test_total; end\nend\n";
        let tests: Vec<(String, bool)> = analyze(Language::Ruby, source.as_bytes())
            .unwrap()
            .functions
            .into_iter()
            .map(|f| (f.name, f.test))
            .collect();
        let expected: Vec<(String, bool)> = [
            ("test_top", true),
            // A `test_` method of a class that is not a test class is the class's API.
            ("Connection#test_connection", false),
            ("CartTest#test_total", true),
        ]
        .iter()
        .map(|(n, t)| ((*n).to_owned(), *t))
        .collect();
        assert_eq!(tests, expected);
    }
}
