//! Function analysis fixtures for C++: one commit per situation, the exact change list asserted
//! for each.

use crate::common::TestEnv;
use crate::functions::{Source, step};

const GEO: &str = r#"#include <string>
#include "shape.h"

namespace geo {

class Shape {
public:
    explicit Shape(std::string name) : name_(std::move(name)) {}
    virtual ~Shape() {}
    double area() const { return 0.0; }
    double scale(double f) const { return area() * f; }
    double scale(int f) const { return area() * f * 1.0; }
    std::string describe() const;

private:
    std::string name_;
};

std::string Shape::describe() const {
    return "shape " + name_;
}

double compute(double a, double b) {
    double s = a + b;
    return s * 2;
}

int helper(int x) {
    int y = x * 3;
    int z = y - 4;
    return z + 1;
}

namespace detail {
int clamp(int v) {
    return v < 0 ? 0 : v;
}
}  // namespace detail

}  // namespace geo

template <typename T>
T twice(T value) {
    return value * 2;
}

bool operator==(const geo::Shape& a, const geo::Shape& b) {
    return a.area() == b.area();
}
"#;

#[test]
fn cpp_situations() {
    let env = TestEnv::new();
    let repo = env.repo("cpp");
    let file = "src/geo.cpp";
    repo.write(file, GEO).commit("base");
    let mut src = Source(GEO.to_owned());
    let mut edit = |from: &str, to: &str| src.edit(from, to);

    let s = edit(
        "namespace detail {",
        "int added() {\n    return 7;\n}\n\nnamespace detail {",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/geo.cpp added geo::added"]
    );
    let s = edit("int added() {\n    return 7;\n}\n\n", "");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/geo.cpp deleted geo::added"]
    );
    let s = edit("return s * 2;", "return s * 3;");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/geo.cpp modified geo::compute"]
    );
    let s = edit(
        "double compute(double a, double b)",
        "float compute(float a, float b)",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/geo.cpp signature_changed geo::compute"]
    );
    let s = edit("int helper(int x)", "int assist(int x)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/geo.cpp renamed geo::assist (was geo::helper)"]
    );
    let s = edit(
        "int assist(int x) {\n    int y = x * 3;",
        "int assist2(int x) {\n    int y = x * 5;",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/geo.cpp renamed geo::assist2 (was geo::assist) +edited"]
    );
    // Move `compute` to another file, in the same namespace.
    let compute =
        "float compute(float a, float b) {\n    double s = a + b;\n    return s * 3;\n}\n";
    let s = edit(&format!("{compute}\n"), "");
    let math = format!("namespace geo {{\n\n{compute}\n}}  // namespace geo\n");
    assert_eq!(
        step(
            &env,
            &repo,
            &[(file, Some(&s)), ("src/math.cpp", Some(&math))]
        ),
        ["src/math.cpp moved geo::compute from src/geo.cpp"]
    );
    // Reordering is not a change.
    let twice = "template <typename T>\nT twice(T value) {\n    return value * 2;\n}\n\n";
    edit(twice, "");
    let s = edit("namespace geo {", &format!("{twice}namespace geo {{"));
    assert_eq!(step(&env, &repo, &[(file, Some(&s))]), Vec::<String>::new());
    // Reformatting and comments are formatting only.
    let s = edit(
        "return a.area() == b.area();",
        "return a.area()\n        == b.area();",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/geo.cpp formatting_only operator=="]
    );
    let s = edit(
        "    return \"shape \" + name_;",
        "    // the name, prefixed\n    return \"shape \" + name_;",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/geo.cpp formatting_only geo::Shape::describe"]
    );
    // Overloads: only the one that changed, by body or by signature.
    let s = edit("return area() * f * 1.0;", "return area() * f * 2.0;");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/geo.cpp modified geo::Shape::scale"]
    );
    let s = edit("double scale(int f) const", "double scale(long f) const");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/geo.cpp signature_changed geo::Shape::scale"]
    );
    // Nested namespaces, and destructors under their own name.
    let s = edit("return v < 0 ? 0 : v;", "return v < 0 ? 0 : v + 0;");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/geo.cpp modified geo::detail::clamp"]
    );
    let s = edit("virtual ~Shape() {}", "virtual ~Shape() { name_.clear(); }");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/geo.cpp modified geo::Shape::~Shape"]
    );
    // The template line is part of the signature.
    let s = edit(
        "template <typename T>\nT twice",
        "template <typename T, typename U = T>\nT twice",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/geo.cpp signature_changed twice"]
    );
    // Imports: includes and using-declarations.
    let s = edit(
        "#include \"shape.h\"\n",
        "#include \"shape.h\"\n#include <vector>\nusing namespace std;\n",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/geo.cpp imports +<vector>,using namespace std -"]
    );
    // A syntax error keeps what can be extracted and says so.
    let s = edit("bool operator==", "int broken( {\n}\n\nbool operator==");
    let got = step(&env, &repo, &[(file, Some(&s))]);
    assert!(
        got.contains(&"src/geo.cpp parse_errors".to_owned()),
        "{got:?}"
    );
}
