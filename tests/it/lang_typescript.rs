//! Function analysis fixtures for TypeScript and TSX: one commit per situation, the exact
//! change list asserted for each.

use crate::common::TestEnv;
use crate::functions::{Source, step};

const APP: &str = r#"import { readFile } from "fs";

export class Greeter {
    constructor(private name: string) {}

    hello(): string {
        return "hello " + this.name;
    }
}

export class Other {
    hello(): string {
        return "other";
    }
}

export function compute(a: number, b: number): number {
    const s = a + b;
    return s * 2;
}

export function helper(x: number): number {
    const y = x * 3;
    const z = y - 4;
    return z + 1;
}

export async function fetchOne(): Promise<number> {
    return 1;
}

export const double = (x: number): number => x * 2;

export function outer(): number {
    function inner(): number {
        return 1;
    }
    return inner() + 1;
}
"#;

const VIEW: &str = r#"import React from "react";

export function Panel({ title }: { title: string }) {
    const shout = () => title.toUpperCase();
    return (
        <section onClick={() => console.log(title)}>
            <h1>{shout()}</h1>
        </section>
    );
}

export const Badge = ({ label }: { label: string }) => <span>{label}</span>;
"#;

#[test]
fn typescript_situations() {
    let env = TestEnv::new();
    let repo = env.repo("typescript");
    repo.write("src/app.ts", APP)
        .write("src/view.tsx", VIEW)
        .commit("base");
    let app = "src/app.ts";
    let mut src = Source(APP.to_owned());
    let mut edit = |from: &str, to: &str| src.edit(from, to);

    let s = edit(
        "export async function fetchOne",
        "export function addedFn(): number {\n    return 7;\n}\n\nexport async function fetchOne",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.ts added addedFn"]
    );
    let s = edit(
        "export function addedFn(): number {\n    return 7;\n}\n\n",
        "",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.ts deleted addedFn"]
    );
    let s = edit("return s * 2;", "return s * 3;");
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.ts modified compute"]
    );
    let s = edit(
        "compute(a: number, b: number): number",
        "compute(a: bigint, b: bigint): bigint",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.ts signature_changed compute"]
    );
    let s = edit("export function helper(", "export function assist(");
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.ts renamed assist (was helper)"]
    );
    let s = edit(
        "export function assist(x: number): number {\n    const y = x * 3;",
        "export function assist2(x: number): number {\n    const y = x * 5;",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.ts renamed assist2 (was assist) +edited"]
    );
    // Move `compute` to another file.
    let compute = "export function compute(a: bigint, b: bigint): bigint {\n    const s = a + b;\n    return s * 3;\n}\n\n";
    let s = edit(compute, "");
    assert_eq!(
        step(
            &env,
            &repo,
            &[(app, Some(&s)), ("src/math.ts", Some(compute))]
        ),
        ["src/math.ts moved compute from src/app.ts"]
    );
    // Reordering classes is not a change.
    let other =
        "export class Other {\n    hello(): string {\n        return \"other\";\n    }\n}\n\n";
    edit(other, "");
    let s = edit(
        "export class Greeter {",
        &format!("{other}export class Greeter {{"),
    );
    assert_eq!(step(&env, &repo, &[(app, Some(&s))]), Vec::<String>::new());
    // Reformatting and comments are formatting only.
    let s = edit(
        "return \"hello \" + this.name;",
        "return \"hello \" +\n            this.name;",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.ts formatting_only Greeter.hello"]
    );
    let s = edit(
        "    return inner() + 1;",
        "    /** The inner function, plus one. */\n    return inner() + 1; // done",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.ts formatting_only outer"]
    );
    // The same method name in two classes: only the one that changed.
    let s = edit("return \"other\";", "return \"other!\";");
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.ts modified Other.hello"]
    );
    // A change inside a nested function is reported on it alone.
    let s = edit(
        "    function inner(): number {\n        return 1;",
        "    function inner(): number {\n        return 2;",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.ts modified outer.inner"]
    );
    // Decorators and async are part of the signature.
    let s = edit(
        "    hello(): string {\n        return \"hello",
        "    @memoize()\n    hello(): string {\n        return \"hello",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.ts signature_changed Greeter.hello"]
    );
    let s = edit(
        "export async function fetchOne()",
        "export function fetchOne()",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.ts signature_changed fetchOne"]
    );
    // An arrow function bound to a const is a function.
    let s = edit(
        "(x: number): number => x * 2;",
        "(x: number): number => x * 4;",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.ts modified double"]
    );
    let s = edit(
        "export const double = (x: number)",
        "export const double = (x: bigint)",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.ts signature_changed double"]
    );
    // Imports.
    let s = edit(
        "import { readFile } from \"fs\";\n",
        "import { readFile, writeFile as write } from \"fs\";\nimport * as path from \"path\";\n",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.ts imports +fs.writeFile as write,path.* as path -"]
    );
    // TSX: a component and a function nested in it; the inline callback is not a function.
    let mut view = Source(VIEW.to_owned());
    let v = view.edit("<h1>{shout()}</h1>", "<h2>{shout()}</h2>");
    assert_eq!(
        step(&env, &repo, &[("src/view.tsx", Some(&v))]),
        ["src/view.tsx modified Panel"]
    );
    let v = view.edit("title.toUpperCase()", "title.toLowerCase()");
    assert_eq!(
        step(&env, &repo, &[("src/view.tsx", Some(&v))]),
        ["src/view.tsx modified Panel.shout"]
    );
    let v = view.edit("console.log(title)", "console.info(title)");
    assert_eq!(
        step(&env, &repo, &[("src/view.tsx", Some(&v))]),
        ["src/view.tsx modified Panel"]
    );
    let v = view.edit("<span>{label}</span>", "<strong>{label}</strong>");
    assert_eq!(
        step(&env, &repo, &[("src/view.tsx", Some(&v))]),
        ["src/view.tsx modified Badge"]
    );
    // A syntax error keeps what can be extracted and says so.
    let s = edit(
        "export function outer()",
        "export function broken( {\n}\n\nexport function outer()",
    );
    let got = step(&env, &repo, &[(app, Some(&s))]);
    assert!(
        got.contains(&"src/app.ts parse_errors".to_owned()),
        "{got:?}"
    );
}
