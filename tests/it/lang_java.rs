//! Function analysis fixtures for Java: one commit per situation, the exact change list
//! asserted for each.

use crate::common::TestEnv;
use crate::functions::{Source, step};

const GREETER: &str = r#"package app;

import java.util.List;

public class Greeter {
    private final String name;

    public Greeter(String name) {
        this.name = name;
    }

    public String hello() {
        return "hello " + name;
    }

    public int compute(int a, int b) {
        int s = a + b;
        return s * 2;
    }

    public int helper(int x) {
        int y = x * 3;
        int z = y - 4;
        return z + 1;
    }

    public int size(List<String> items) {
        return items.size();
    }

    public int size(String text) {
        return text.length();
    }

    static class Inner {
        int depth() {
            return 1;
        }
    }
}

class Other {
    String hello() {
        return "other";
    }
}
"#;

#[test]
fn java_situations() {
    let env = TestEnv::new();
    let repo = env.repo("java");
    let file = "src/app/Greeter.java";
    repo.write(file, GREETER).commit("base");
    let mut src = Source(GREETER.to_owned());
    let mut edit = |from: &str, to: &str| src.edit(from, to);

    let s = edit(
        "    public int size(List",
        "    int added() {\n        return 7;\n    }\n\n    public int size(List",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/Greeter.java added Greeter.added"]
    );
    let s = edit("    int added() {\n        return 7;\n    }\n\n", "");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/Greeter.java deleted Greeter.added"]
    );
    let s = edit("return s * 2;", "return s * 3;");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/Greeter.java modified Greeter.compute"]
    );
    let s = edit(
        "public int compute(int a, int b)",
        "public long compute(long a, long b)",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/Greeter.java signature_changed Greeter.compute"]
    );
    let s = edit("public int helper(int x)", "public int assist(int x)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/Greeter.java renamed Greeter.assist (was Greeter.helper)"]
    );
    let s = edit(
        "public int assist(int x) {\n        int y = x * 3;",
        "public int assist2(int x) {\n        int y = x * 5;",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/Greeter.java renamed Greeter.assist2 (was Greeter.assist) +edited"]
    );
    // Move `compute` to a class of its own.
    let compute = "    public long compute(long a, long b) {\n        int s = a + b;\n        return s * 3;\n    }\n";
    let s = edit(&format!("{compute}\n"), "");
    let math = format!("package app;\n\nclass MathUtil {{\n{compute}}}\n");
    assert_eq!(
        step(
            &env,
            &repo,
            &[(file, Some(&s)), ("src/app/MathUtil.java", Some(&math))]
        ),
        [
            "src/app/MathUtil.java moved MathUtil.compute (was Greeter.compute) from src/app/Greeter.java"
        ]
    );
    // Reordering classes and methods is not a change.
    let other = "class Other {\n    String hello() {\n        return \"other\";\n    }\n}\n";
    edit(&format!("\n{other}"), "");
    edit(
        "public class Greeter {",
        &format!("{other}\npublic class Greeter {{"),
    );
    let ctor = "    public Greeter(String name) {\n        this.name = name;\n    }\n\n";
    edit(ctor, "");
    let s = edit(
        "    static class Inner",
        &format!("{ctor}    static class Inner"),
    );
    assert_eq!(step(&env, &repo, &[(file, Some(&s))]), Vec::<String>::new());
    // Reformatting and comments are formatting only.
    let s = edit(
        "return \"hello \" + name;",
        "return \"hello \"\n            + name;",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/Greeter.java formatting_only Greeter.hello"]
    );
    let s = edit(
        "            return 1;",
        "            // one level\n            return 1; /* so far */",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/Greeter.java formatting_only Greeter.Inner.depth"]
    );
    // Overloads: only the one that changed, by body or by signature.
    let s = edit("return text.length();", "return text.strip().length();");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/Greeter.java modified Greeter.size"]
    );
    let s = edit(
        "public int size(String text)",
        "public int size(CharSequence text)",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/Greeter.java signature_changed Greeter.size"]
    );
    // Inner classes qualify their methods.
    let s = edit("            return 1;", "            return 2;");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/Greeter.java modified Greeter.Inner.depth"]
    );
    // Annotations are part of the signature.
    let s = edit(
        "    String hello() {\n        return \"other\";",
        "    @Deprecated\n    String hello() {\n        return \"other\";",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/Greeter.java signature_changed Other.hello"]
    );
    // Imports.
    let s = edit(
        "import java.util.List;\n",
        "import java.util.List;\nimport static java.util.Objects.requireNonNull;\n",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/app/Greeter.java imports +static java.util.Objects.requireNonNull -"]
    );
    // A syntax error keeps what can be extracted and says so.
    let s = edit(
        "    public int size(List",
        "    public int broken( {\n    }\n\n    public int size(List",
    );
    let got = step(&env, &repo, &[(file, Some(&s))]);
    assert!(
        got.contains(&"src/app/Greeter.java parse_errors".to_owned()),
        "{got:?}"
    );
}
