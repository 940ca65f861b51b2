//! Function analysis fixtures for Swift: one commit per situation, the exact change list
//! asserted for each.

use crate::common::TestEnv;
use crate::functions::{Source, step};

const GREETER: &str = r#"import Foundation

public struct Greeter {
    let name: String

    init(name: String) {
        self.name = name
    }

    func hello() -> String {
        return "hello " + name
    }

    func compute(a: Int, b: Int) -> Int {
        let s = a + b
        return s * 2
    }

    func helper(x: Int) -> Int {
        let y = x * 3
        let z = y - 4
        return z + 1
    }

    func size(_ items: [String]) -> Int {
        return items.count
    }

    func size(_ text: String) -> Int {
        return text.count
    }

    func fetch() async throws -> Int {
        try await Task.sleep(nanoseconds: 1)
        return 1
    }

    func outer() -> Int {
        func inner(_ v: Int) -> Int {
            return v + 1
        }
        return inner(1)
    }

    var count: Int {
        return name.count
    }
}

extension String {
    func shout() -> String {
        return uppercased() + "!"
    }
}

class Other {
    func hello() -> String {
        return "other"
    }
}
"#;

#[test]
fn swift_situations() {
    let env = TestEnv::new();
    let repo = env.repo("swift");
    let file = "Sources/Greeting/Greeter.swift";
    repo.write(file, GREETER).commit("base");
    let mut src = Source(GREETER.to_owned());
    let mut edit = |from: &str, to: &str| src.edit(from, to);

    let s = edit(
        "    func size(_ items",
        "    func added() -> Int {\n        return 7\n    }\n\n    func size(_ items",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} added Greeter.added")]
    );
    let s = edit("    func added() -> Int {\n        return 7\n    }\n\n", "");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} deleted Greeter.added")]
    );
    let s = edit("return s * 2", "return s * 3");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified Greeter.compute")]
    );
    let s = edit(
        "func compute(a: Int, b: Int) -> Int",
        "func compute(a: Int64, b: Int64) -> Int64",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} signature_changed Greeter.compute")]
    );
    let s = edit("func helper(x: Int)", "func assist(x: Int)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!(
            "{file} renamed Greeter.assist (was Greeter.helper)"
        )]
    );
    let s = edit(
        "func assist(x: Int) -> Int {\n        let y = x * 3",
        "func assist2(x: Int) -> Int {\n        let y = x * 5",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!(
            "{file} renamed Greeter.assist2 (was Greeter.assist) +edited"
        )]
    );
    // Move `compute` to an extension in another file.
    let compute = "    func compute(a: Int64, b: Int64) -> Int64 {\n        let s = a + b\n        return s * 3\n    }\n";
    let s = edit(&format!("{compute}\n"), "");
    let math = format!("extension Greeter {{\n{compute}}}\n");
    let math_file = "Sources/Greeting/Greeter+Math.swift";
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s)), (math_file, Some(&math))]),
        [format!("{math_file} moved Greeter.compute from {file}")]
    );
    // Reordering types and members is not a change.
    let other = "class Other {\n    func hello() -> String {\n        return \"other\"\n    }\n}\n";
    edit(&format!("\n{other}"), "");
    edit(
        "public struct Greeter {",
        &format!("{other}\npublic struct Greeter {{"),
    );
    let hello = "    func hello() -> String {\n        return \"hello \" + name\n    }\n\n";
    edit(hello, "");
    let s = edit("    func outer()", &format!("{hello}    func outer()"));
    assert_eq!(step(&env, &repo, &[(file, Some(&s))]), Vec::<String>::new());
    // Reformatting and comments are formatting only.
    let s = edit(
        "return \"hello \" + name",
        "return \"hello \"\n            + name",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} formatting_only Greeter.hello")]
    );
    let s = edit(
        "            return v + 1",
        "            // one more\n            return v + 1 /* so far */",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} formatting_only Greeter.outer.inner")]
    );
    // Overloads: only the one that changed, by body or by signature.
    let s = edit("return text.count", "return text.utf8.count");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified Greeter.size")]
    );
    let s = edit("func size(_ text: String)", "func size(_ text: Substring)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} signature_changed Greeter.size")]
    );
    // Nested functions, computed properties, extensions.
    let s = edit("return v + 1", "return v + 2");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified Greeter.outer.inner")]
    );
    let s = edit("return name.count", "return name.count + 1");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified Greeter.count")]
    );
    let s = edit("uppercased() + \"!\"", "uppercased() + \"!!\"");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified String.shout")]
    );
    // Attributes are part of the signature; async functions are functions.
    let s = edit(
        "    func fetch()",
        "    @available(*, deprecated)\n    func fetch()",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} signature_changed Greeter.fetch")]
    );
    let s = edit("Task.sleep(nanoseconds: 1)", "Task.sleep(nanoseconds: 2)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified Greeter.fetch")]
    );
    // Imports.
    let s = edit(
        "import Foundation\n",
        "import Foundation\nimport Dispatch\n",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} imports +Dispatch -")]
    );
    // A syntax error keeps what can be extracted and says so.
    let s = edit(
        "    func size(_ items",
        "    func broken( {\n    }\n\n    func size(_ items",
    );
    let got = step(&env, &repo, &[(file, Some(&s))]);
    assert!(got.contains(&format!("{file} parse_errors")), "{got:?}");
}
