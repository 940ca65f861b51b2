//! Function analysis fixtures for JavaScript and JSX: one commit per situation, the exact
//! change list asserted for each.

use crate::common::TestEnv;
use crate::functions::{Source, step};

const APP: &str = r#"const fs = require("fs");

class Greeter {
    constructor(name) {
        this.name = name;
    }

    hello() {
        return "hello " + this.name;
    }

    onClick = (event) => {
        event.preventDefault();
    };
}

class Other {
    hello() {
        return "other";
    }
}

function compute(a, b) {
    const s = a + b;
    return s * 2;
}

function helper(x) {
    const y = x * 3;
    const z = y - 4;
    return z + 1;
}

async function fetchOne() {
    return 1;
}

const double = (x) => x * 2;

function outer() {
    function inner() {
        return 1;
    }
    return inner() + 1;
}

module.exports = { Greeter, Other, compute, double, outer };
"#;

const VIEW: &str = r#"import React from "react";

export default function Panel({ title }) {
    const shout = () => title.toUpperCase();
    return (
        <section onClick={() => console.log(title)}>
            <h1>{shout()}</h1>
        </section>
    );
}
"#;

#[test]
fn javascript_situations() {
    let env = TestEnv::new();
    let repo = env.repo("javascript");
    repo.write("src/app.js", APP)
        .write("src/view.jsx", VIEW)
        .commit("base");
    let app = "src/app.js";
    let mut src = Source(APP.to_owned());
    let mut edit = |from: &str, to: &str| src.edit(from, to);

    let s = edit(
        "async function fetchOne",
        "function addedFn() {\n    return 7;\n}\n\nasync function fetchOne",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.js added addedFn"]
    );
    let s = edit("function addedFn() {\n    return 7;\n}\n\n", "");
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.js deleted addedFn"]
    );
    let s = edit("return s * 2;", "return s * 3;");
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.js modified compute"]
    );
    let s = edit("function compute(a, b)", "function compute(a, b = 0)");
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.js signature_changed compute"]
    );
    let s = edit("function helper(x)", "function assist(x)");
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.js renamed assist (was helper)"]
    );
    let s = edit(
        "function assist(x) {\n    const y = x * 3;",
        "function assist2(x) {\n    const y = x * 5;",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.js renamed assist2 (was assist) +edited"]
    );
    // Move `compute` to another file.
    let compute = "function compute(a, b = 0) {\n    const s = a + b;\n    return s * 3;\n}\n\n";
    let s = edit(compute, "");
    assert_eq!(
        step(
            &env,
            &repo,
            &[(app, Some(&s)), ("src/math.js", Some(compute))]
        ),
        ["src/math.js moved compute from src/app.js"]
    );
    // Reordering classes is not a change.
    let other = "class Other {\n    hello() {\n        return \"other\";\n    }\n}\n\n";
    edit(other, "");
    let s = edit("class Greeter {", &format!("{other}class Greeter {{"));
    assert_eq!(step(&env, &repo, &[(app, Some(&s))]), Vec::<String>::new());
    // Reformatting and comments are formatting only.
    let s = edit(
        "return \"hello \" + this.name;",
        "return \"hello \" +\n            this.name;",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.js formatting_only Greeter.hello"]
    );
    let s = edit(
        "    return inner() + 1;",
        "    /** The inner function, plus one. */\n    return inner() + 1; // done",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.js formatting_only outer"]
    );
    // The same method name in two classes: only the one that changed.
    let s = edit("return \"other\";", "return \"other!\";");
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.js modified Other.hello"]
    );
    // A change inside a nested function is reported on it alone.
    let s = edit(
        "    function inner() {\n        return 1;",
        "    function inner() {\n        return 2;",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.js modified outer.inner"]
    );
    // async is part of the signature.
    let s = edit("async function fetchOne()", "function fetchOne()");
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.js signature_changed fetchOne"]
    );
    // Arrow functions bound to a const or held by a class field are functions.
    let s = edit("(x) => x * 2;", "(x) => x * 4;");
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.js modified double"]
    );
    let s = edit("const double = (x) =>", "const double = async (x) =>");
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.js signature_changed double"]
    );
    let s = edit("event.preventDefault();", "event.stopPropagation();");
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.js modified Greeter.onClick"]
    );
    // Imports, CommonJS and ES modules alike.
    let s = edit(
        "const fs = require(\"fs\");\n",
        "const fs = require(\"fs\");\nconst { join } = require(\"path\");\n",
    );
    assert_eq!(
        step(&env, &repo, &[(app, Some(&s))]),
        ["src/app.js imports +path -"]
    );
    // JSX: a component and a function nested in it; the inline callback is not a function.
    let mut view = Source(VIEW.to_owned());
    let v = view.edit("<h1>{shout()}</h1>", "<h2>{shout()}</h2>");
    assert_eq!(
        step(&env, &repo, &[("src/view.jsx", Some(&v))]),
        ["src/view.jsx modified Panel"]
    );
    let v = view.edit("title.toUpperCase()", "title.toLowerCase()");
    assert_eq!(
        step(&env, &repo, &[("src/view.jsx", Some(&v))]),
        ["src/view.jsx modified Panel.shout"]
    );
    let v = view.edit(
        "import React from \"react\";\n",
        "import React, { useState } from \"react\";\n",
    );
    assert_eq!(
        step(&env, &repo, &[("src/view.jsx", Some(&v))]),
        ["src/view.jsx imports +react.useState -"]
    );
    // A syntax error keeps what can be extracted and says so.
    let s = edit(
        "function outer()",
        "function broken( {\n}\n\nfunction outer()",
    );
    let got = step(&env, &repo, &[(app, Some(&s))]);
    assert!(
        got.contains(&"src/app.js parse_errors".to_owned()),
        "{got:?}"
    );
}
