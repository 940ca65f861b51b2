//! Function analysis fixtures for C (`.c` and `.h`): one commit per situation, the exact change
//! list asserted for each.

use crate::common::TestEnv;
use crate::functions::{Source, step};

const MAIN: &str = r#"#include <stdio.h>
#include "util.h"

static int compute(int a, int b) {
    int s = a + b;
    return s * 2;
}

int helper(int x) {
    int y = x * 3;
    int z = y - 4;
    return z + 1;
}

void greet(const char *name) {
    printf("hello %s\n", name);
}

#ifdef _WIN32
static const char *sep(void) {
    return "\\";
}
#else
static const char *sep(void) {
    return "/";
}
#endif

int fetch(void) {
    return 1;
}

int main(int argc, char **argv) {
    greet(argv[0]);
    return compute(argc, 2);
}
"#;

#[test]
fn c_situations() {
    let env = TestEnv::new();
    let repo = env.repo("c");
    let file = "src/main.c";
    repo.write(file, MAIN).commit("base");
    let mut src = Source(MAIN.to_owned());
    let mut edit = |from: &str, to: &str| src.edit(from, to);

    let s = edit(
        "int fetch(void)",
        "int added(void) {\n    return 7;\n}\n\nint fetch(void)",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/main.c added added"]
    );
    let s = edit("int added(void) {\n    return 7;\n}\n\n", "");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/main.c deleted added"]
    );
    let s = edit("return s * 2;", "return s * 3;");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/main.c modified compute"]
    );
    let s = edit(
        "static int compute(int a, int b)",
        "static long compute(long a, long b)",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/main.c signature_changed compute"]
    );
    let s = edit("int helper(int x)", "int assist(int x)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/main.c renamed assist (was helper)"]
    );
    let s = edit(
        "int assist(int x) {\n    int y = x * 3;",
        "int assist2(int x) {\n    int y = x * 5;",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/main.c renamed assist2 (was assist) +edited"]
    );
    // Move `compute` into a header (`.h` files are C).
    let compute =
        "static long compute(long a, long b) {\n    int s = a + b;\n    return s * 3;\n}\n";
    let s = edit(&format!("{compute}\n"), "");
    let header = format!("#pragma once\n\n{compute}");
    assert_eq!(
        step(
            &env,
            &repo,
            &[(file, Some(&s)), ("src/util.h", Some(&header))]
        ),
        ["src/util.h moved compute from src/main.c"]
    );
    // Reordering is not a change, and neither is a prototype.
    let greet = "void greet(const char *name) {\n    printf(\"hello %s\\n\", name);\n}\n\n";
    edit(greet, "");
    let s = edit(
        "int fetch(void)",
        &format!("int assist2(int x);\n\n{greet}int fetch(void)"),
    );
    assert_eq!(step(&env, &repo, &[(file, Some(&s))]), Vec::<String>::new());
    // Reformatting and comments are formatting only.
    let s = edit(
        "printf(\"hello %s\\n\", name);",
        "printf(\"hello %s\\n\",\n           name);",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/main.c formatting_only greet"]
    );
    let s = edit(
        "    greet(argv[0]);",
        "    /* say hello first */\n    greet(argv[0]); // once",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/main.c formatting_only main"]
    );
    // The same function defined in both branches of an `#ifdef`: only the one that changed.
    let s = edit("return \"/\";", "return \"//\";");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/main.c modified sep"]
    );
    // Storage classes are part of the signature.
    let s = edit("int fetch(void)", "static int fetch(void)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/main.c signature_changed fetch"]
    );
    // Includes.
    let s = edit("#include \"util.h\"\n", "#include <string.h>\n");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["src/main.c imports +<string.h> -\"util.h\""]
    );
    // A syntax error keeps what can be extracted and says so.
    let s = edit("int main(", "int broken( {\n}\n\nint main(");
    let got = step(&env, &repo, &[(file, Some(&s))]);
    assert!(
        got.contains(&"src/main.c parse_errors".to_owned()),
        "{got:?}"
    );
}
