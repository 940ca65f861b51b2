//! C++: function definitions as in C, plus
//! - methods defined in class, struct and union bodies (`Foo::bar`, kind `method`);
//! - out-of-line definitions named as written (`void Foo::bar() {}` is `Foo::bar`, and
//!   `A<T>::f` keeps its template arguments); outside a class body they are kind `function`;
//! - namespaces qualify what they contain (`a::b::f`; an anonymous namespace does not);
//! - templates: a `template <...>` line is part of the definition it introduces (its start and
//!   signature);
//! - constructors, destructors (`~Foo`) and operators (`operator==`, `operator bool() const`)
//!   under their textual names; defaulted and deleted definitions are body-less functions.
//!
//! Lambdas are not functions; prototypes and pure virtual declarations are not either.
//! Overloads share a name: the comparison pairs them by identical bodies, then in order.
//!
//! Imports are `#include` targets as written (`<vector>`, `"foo.h"`) and using-declarations
//! with whitespace normalised and no semicolon (`using namespace std`, `using a::b`).

use tree_sitter::Node;

use super::c::{self, ATOMS, UNARY, declarator_name, include, precedence};
use super::nodes::{text, type_name_tight};
use super::normal::Parens;
use super::{Analyzer, Declaration, Language, LanguageConfig, Normal, Role, Visibility};

/// C++'s facts: C's comments, literals and declarations.
pub(super) static CONFIG: LanguageConfig = LanguageConfig {
    grammars: &[(Language::Cpp, || tree_sitter_cpp::LANGUAGE.into())],
    // C++ calls C, and C headers are shared with C++.
    family: &[Language::C, Language::Cpp],
    import_scheme: None,
    separator: "::",
    comments: &["comment"],
    imports_as_written: true,
    normal_kinds: c::NORMAL_KINDS,
    implied_kinds: &[],
    implied_parents: &[],
    declarations: c::DECLARATIONS,
    wrapper_kinds: &[],
    item_containers: &[],
    analyzer: &Cpp,
};

/// The C++ analyzer.
pub struct Cpp;

impl Analyzer for Cpp {
    fn role<'t>(&self, node: Node<'t>, source: &[u8]) -> Role<'t> {
        match node.kind() {
            // A templated definition is part of its template declaration's function.
            "function_definition" if !in_template(node) => function(node, node),
            // The outermost of nested template declarations (a member template defined out
            // of line) is the function, so its `template <...>` line is in the signature.
            "template_declaration" if !in_template(node) => match templated_definition(node) {
                Some(definition) => function(definition, node),
                None => Role::Other,
            },
            "class_specifier" | "struct_specifier" | "union_specifier" => {
                match (
                    node.child_by_field_name("name"),
                    node.child_by_field_name("body"),
                ) {
                    (Some(name), Some(_)) => Role::Scope {
                        name: type_name_tight(text(name, source)),
                        methods: true,
                    },
                    _ => Role::Other,
                }
            }
            "namespace_definition" => match node.child_by_field_name("name") {
                Some(name) => Role::Scope {
                    name: compact(name, source),
                    methods: false,
                },
                None => Role::Other,
            },
            _ => Role::Other,
        }
    }

    fn visibility(
        &self,
        outer: Node<'_>,
        node: Node<'_>,
        _name: &str,
        source: &[u8],
    ) -> Visibility {
        if c::linkage(node, source) == Visibility::Private {
            return Visibility::Private;
        }
        let overrides = node
            .child_by_field_name("declarator")
            .filter(|d| d.kind() == "function_declarator")
            .is_some_and(|d| {
                let mut cursor = d.walk();
                d.children(&mut cursor)
                    .any(|c| c.kind() == "virtual_specifier")
            });
        let access = member_access(outer, source);
        if overrides && access != Visibility::Private {
            Visibility::Implementation
        } else {
            access
        }
    }

    fn declaration<'t>(&self, node: Node<'t>, _source: &[u8]) -> Option<Declaration<'t>> {
        c::typedef(node)
    }

    fn normal(&self, node: Node<'_>, parent: Option<Node<'_>>, source: &[u8]) -> Normal {
        c::normal(&PARENS, node, parent, source)
    }

    fn imports(&self, node: Node<'_>, source: &[u8]) -> Vec<String> {
        match node.kind() {
            "preproc_include" => include(node, source).into_iter().collect(),
            "using_declaration" => {
                let using = compact(node, source);
                let using = using.trim_end_matches(';').trim_end();
                vec![using.to_owned()]
            }
            _ => Vec::new(),
        }
    }
}

/// A class body's access sections: its id and range, and where each label starts with the
/// access it gives.
type Sections = (usize, std::ops::Range<usize>, Vec<(usize, Visibility)>);

thread_local! {
    /// The access sections of the class body last asked about (so a class of many members
    /// costs one pass over its body, not one per member).
    static SECTIONS: std::cell::RefCell<Sections> =
        const { std::cell::RefCell::new((usize::MAX, 0..0, Vec::new())) };
}

/// The access of a class member (a definition, or the declaration holding a nested type):
/// the nearest label before it, else the default of its class (`class`: private; `struct`,
/// `union`: public). Protected members are public to subclasses: counted public. Anything not
/// in a class body is public.
fn member_access(member: Node<'_>, source: &[u8]) -> Visibility {
    let mut member = member;
    let mut list = member.parent();
    if list.is_some_and(|p| matches!(p.kind(), "field_declaration" | "declaration")) {
        member = list.unwrap_or(member);
        list = member.parent();
    }
    let Some(list) = list.filter(|l| l.kind() == "field_declaration_list") else {
        return Visibility::Public;
    };
    let default = match list.parent().map(|c| c.kind()) {
        Some("class_specifier") => Visibility::Private,
        _ => Visibility::Public,
    };
    SECTIONS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.0 != list.id() || cache.1 != list.byte_range() {
            let mut labels = Vec::new();
            let mut cursor = list.walk();
            for child in list.children(&mut cursor) {
                if child.kind() == "access_specifier" {
                    let access = if text(child, source).trim() == "private" {
                        Visibility::Private
                    } else {
                        Visibility::Public
                    };
                    labels.push((child.start_byte(), access));
                }
            }
            *cache = (list.id(), list.byte_range(), labels);
        }
        cache
            .2
            .iter()
            .rev()
            .find(|(at, _)| *at < member.start_byte())
            .map_or(default, |(_, access)| *access)
    })
}

/// Whether a node is the declaration a template declaration introduces.
fn in_template(node: Node<'_>) -> bool {
    node.parent()
        .is_some_and(|p| p.kind() == "template_declaration")
}

/// The function a definition makes, starting at `outer`.
fn function<'t>(definition: Node<'t>, outer: Node<'t>) -> Role<'t> {
    match declarator_name(definition) {
        Some(name) => Role::Function {
            name,
            body: definition.child_by_field_name("body"),
            outer,
        },
        None => Role::Other,
    }
}

/// The function definition a template declaration introduces, through nested template
/// declarations (`template <class T> template <class U> void A<T>::f(U) {}`).
fn templated_definition(template: Node<'_>) -> Option<Node<'_>> {
    let mut node = template;
    loop {
        let mut cursor = node.walk();
        let inner = node
            .named_children(&mut cursor)
            .find(|c| matches!(c.kind(), "function_definition" | "template_declaration"))?;
        if inner.kind() == "function_definition" {
            return Some(inner);
        }
        node = inner;
    }
}

/// A node's tokens without comments, joined without whitespace except between two words
/// (`using  namespace std ;` is `using namespace std;`, `a :: b` is `a::b`).
fn compact(node: Node<'_>, source: &[u8]) -> String {
    let mut out = String::new();
    let mut cursor = node.walk();
    let start = node.id();
    loop {
        let current = cursor.node();
        if CONFIG.is_comment(current) {
            // Not entered, not kept.
        } else if current.child_count() == 0 {
            let token = text(current, source);
            let word = |c: char| c.is_alphanumeric() || c == '_';
            if out.ends_with(word) && token.starts_with(word) {
                out.push(' ');
            }
            out.push_str(token);
        } else if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node().id() == start {
                return out;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

/// C's parentheses rule, except that parentheses in a `return` and in `decltype` stay:
/// `decltype((x))` is a reference where `decltype(x)` is not, and so is what
/// `return (x);` returns from a `decltype(auto)` function.
static PARENS: Parens = Parens {
    atoms: ATOMS,
    slots: &[
        "init_declarator",
        "assignment_expression",
        "argument_list",
        "initializer_list",
    ],
    never: &["call_expression", "return_statement", "decltype"],
    not_in_slots: &["comma_expression"],
    unary: UNARY,
    binary: &["binary_expression"],
    precedence,
    right_assoc: &[],
};

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::lang::analyze;

    fn names(source: &str) -> Vec<(String, &'static str)> {
        crate::lang::testing::names(Language::Cpp, source)
    }

    #[test]
    fn qualified_names() {
        let source = r#"
namespace ns { namespace inner {
int free_fn(int a) { return a; }
} }
namespace x::y { void z() {} }
namespace { void anon() {} }
class Foo : public Base {
public:
  Foo() : x(1) {}
  ~Foo() {}
  bool operator==(const Foo& o) const { return true; }
  operator bool() const { return true; }
  void decl();
  virtual void pure() = 0;
  Foo(const Foo&) = default;
  template <typename T> T get() { return T(); }
  struct Nested { void deep() {} };
  int x;
};
void Foo::decl() { auto l = [](int a) { return a; }; }
Foo::~Foo() {}
bool Foo::operator<(const Foo& o) const { return false; }
template <typename T>
T twice(T t) { return t * 2; }
template <typename T> template <typename U> void A<T>::f(U u) {}
template <typename T> class Box { T get() { return t; } T t; };
template <> struct Box<int> { int get() { return 0; } };
int *ptr_fn(void) { return 0; }
int &ref_fn() { static int x; return x; }
extern "C" { void c_fn() {} }
[[nodiscard]] int attr() { return 1; }
void local() { struct L { void m() {} }; }
"#;
        assert_eq!(
            names(source),
            vec![
                ("ns::inner::free_fn".into(), "function"),
                ("x::y::z".into(), "function"),
                ("anon".into(), "function"),
                ("Foo::Foo".into(), "method"),
                ("Foo::~Foo".into(), "method"),
                ("Foo::operator==".into(), "method"),
                ("Foo::operator bool() const".into(), "method"),
                ("Foo::Foo".into(), "method"),
                ("Foo::get".into(), "method"),
                ("Foo::Nested::deep".into(), "method"),
                ("Foo::decl".into(), "function"),
                ("Foo::~Foo".into(), "function"),
                ("Foo::operator<".into(), "function"),
                ("twice".into(), "function"),
                ("A<T>::f".into(), "function"),
                ("Box::get".into(), "method"),
                ("Box::get".into(), "method"),
                ("ptr_fn".into(), "function"),
                ("ref_fn".into(), "function"),
                ("c_fn".into(), "function"),
                ("attr".into(), "function"),
                ("local".into(), "function"),
                ("local::L::m".into(), "method"),
            ]
        );
    }

    #[test]
    fn imports() {
        let source = "#include <vector>\n#include \"foo.h\"\nusing namespace std;\nusing  a :: b ;\nusing namespace /* c */ x::y;\nusing T = int;\nnamespace fs = std::filesystem;\n";
        let imports = analyze(Language::Cpp, source.as_bytes()).unwrap().imports;
        assert_eq!(
            imports,
            vec![
                "\"foo.h\"",
                "<vector>",
                "using a::b",
                "using namespace std",
                "using namespace x::y",
            ]
        );
    }

    #[test]
    fn the_template_line_is_part_of_the_signature() {
        let one = analyze(
            Language::Cpp,
            b"// twice\ntemplate <typename T>\nT twice(T t) { return t * 2; }\n",
        )
        .unwrap();
        let two = analyze(
            Language::Cpp,
            b"// twice\ntemplate <typename T, typename U = T>\nT twice(T t) { return t * 2; }\n",
        )
        .unwrap();
        let (a, b) = (&one.functions[0], &two.functions[0]);
        assert_eq!(one.functions.len(), 1);
        assert_eq!((a.start_line, a.end_line), (2, 3));
        assert_eq!(a.signature, "template <typename T> T twice(T t)");
        assert_eq!(a.body_hash, b.body_hash);
        assert_ne!(a.signature_hash, b.signature_hash);
    }

    #[test]
    fn comments_do_not_change_the_body() {
        crate::lang::testing::comments_only(
            Language::Cpp,
            b"struct K {\n  int f(int x) const {\n    return x + 1;\n  }\n};\n",
            b"struct K {\n  /// Adds one.\n  int f(int x /* x */) const { // add\n    return x+1; /* really */\n  }\n};\n",
        );
    }

    #[test]
    fn formatting_clang_format_may_apply_is_not_a_change() {
        use crate::lang::testing::same;
        same(
            Language::Cpp,
            "int f(std::vector<int> v) {\n  for (auto x : v) { g(x); }\n  return (v.size());\n}\n",
            "int f(std::vector<int> v)\n{\n    for (auto x : v)\n        g(x);\n    return (v.size());\n}\n",
        );
    }

    #[test]
    fn parentheses_that_make_references_are_changes() {
        use crate::lang::testing::differ;
        differ(
            Language::Cpp,
            "decltype(auto) f() { return (x); }\n",
            "decltype(auto) f() { return x; }\n",
        );
        differ(
            Language::Cpp,
            "void f() { decltype((x)) y = x; }\n",
            "void f() { decltype(x) y = x; }\n",
        );
    }

    #[test]
    fn visibility_and_declarations() {
        let source = "namespace app {\nclass Shape {\n    int id;\n    void reset() {}\npublic:\n    virtual double area() const { return 0; }\n    struct Point { int x; };\nprivate:\n    void grow() {}\n};\nstruct Circle : Shape {\n    double area() const override { return 1; }\n};\nstatic int helper() { return 0; }\nint count() { return 1; }\nusing Id = long;\n}\n";
        assert_eq!(
            crate::lang::testing::interface(Language::Cpp, source),
            [
                "app::Shape::reset private",
                "app::Shape::area public",
                "app::Shape::grow private",
                "app::Circle::area implementation",
                "app::helper private",
                "app::count public",
                "class app::Shape public: class Shape",
                "struct app::Shape::Point public: struct Point",
                "struct app::Circle public: struct Circle : Shape",
                "using app::Id public: using Id = long",
            ]
        );
    }
}
