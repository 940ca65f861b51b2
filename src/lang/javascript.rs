//! JavaScript and JSX: functions and generators; class methods, getters and setters
//! (`Class.method`); arrow functions and function expressions bound to a name (`const f`, class
//! fields, object properties, `exports.f = function`, `export default`); nested functions
//! (`outer.inner`). `export`, `async` and decorators are part of the signature. Object-literal
//! functions are qualified by the variable or property holding the object (`api.get`).
//!
//! Imports are `module.name` strings: `import x from "m"` → `m.default as x`,
//! `import { a, b as c } from "m"` → `m.a`, `m.b as c`, `import * as ns from "m"` →
//! `m.* as ns`, `import "m"` → `m`, re-exports alike (`export * from "m"` → `m.*`), and
//! `require("m")` and `import("m")` → `m`.
//!
//! The rules are shared with TypeScript and detailed in `ecmascript`.

use super::ecmascript::{self, Dialect, EcmaScript};
use super::{Language, LanguageConfig};

/// JavaScript's facts: those of JavaScript and TypeScript but for the grammars (`ecmascript`).
pub(super) static CONFIG: LanguageConfig = LanguageConfig {
    // One grammar reads both: JSX is part of it.
    grammars: &[
        (Language::JavaScript, || {
            tree_sitter_javascript::LANGUAGE.into()
        }),
        (Language::Jsx, || tree_sitter_javascript::LANGUAGE.into()),
    ],
    family: ecmascript::FAMILY,
    import_scheme: None,
    separator: ".",
    comments: ecmascript::COMMENTS,
    imports_as_written: true,
    normal_kinds: ecmascript::NORMAL_KINDS,
    implied_kinds: ecmascript::IMPLIED_KINDS,
    implied_parents: &[],
    declarations: ecmascript::DECLARATIONS,
    wrapper_kinds: &[],
    item_containers: &[],
    analyzer: &EcmaScript(Dialect::JavaScript),
};

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::lang::analyze;
    use crate::lang::testing::{functions, names};

    #[test]
    fn qualified_names() {
        let source = r#"
"use strict";
function top(a) {
    function inner() {
        var innermost = function () {};
    }
    return a;
}
async function fetchAll() {}
function* ids() { yield 1; }
export default async () => {};
export const arrow = x => x * 2;
let expr = function named() {};
var a = () => 1, b = async function* () {};
[1, 2].map(function (n) { return n; });
promise.then((v) => v);

export class Greeter extends Base {
    static #count = 0;
    handler = () => {};
    #secret = function () {};
    constructor(name) { super(); this.name = name; }
    @bound hello() { return "hi " + this.name; }
    static async *stream() {}
    get size() { return 1; }
    set size(v) {}
    #hidden() {}
}

module.exports = {
    start() {},
    stop: function () {},
};
const api = { get: async (url) => {}, nested: { put() {} } };
Greeter.prototype.legacy = function () {};
exports.helper = () => {};
const Mixin = class {
    mixed() {}
};
"#;
        assert_eq!(
            names(Language::JavaScript, source),
            vec![
                ("top".into(), "function"),
                ("top.inner".into(), "function"),
                ("top.inner.innermost".into(), "function"),
                ("fetchAll".into(), "function"),
                ("ids".into(), "function"),
                ("default".into(), "function"),
                ("arrow".into(), "function"),
                ("expr".into(), "function"),
                ("a".into(), "function"),
                ("b".into(), "function"),
                ("Greeter.handler".into(), "method"),
                ("Greeter.#secret".into(), "method"),
                ("Greeter.constructor".into(), "method"),
                ("Greeter.hello".into(), "method"),
                ("Greeter.stream".into(), "method"),
                ("Greeter.size".into(), "method"),
                ("Greeter.size".into(), "method"),
                ("Greeter.#hidden".into(), "method"),
                ("start".into(), "function"),
                ("stop".into(), "function"),
                ("api.get".into(), "function"),
                ("api.nested.put".into(), "function"),
                ("legacy".into(), "function"),
                ("helper".into(), "function"),
                ("Mixin.mixed".into(), "method"),
            ]
        );
    }

    #[test]
    fn jsx_components() {
        let source = r#"
import React, { useState } from "react";

export default function App({ title }) {
    const [n, setN] = useState(0);
    const onClick = () => setN(n + 1);
    return (
        <button onClick={() => onClick()}>
            {/* the title */}
            {title}
        </button>
    );
}

export const Badge = ({ label }) => <span>{label}</span>;
"#;
        assert_eq!(
            names(Language::Jsx, source),
            vec![
                ("App".into(), "function"),
                ("App.onClick".into(), "function"),
                ("Badge".into(), "function"),
            ]
        );
    }

    #[test]
    fn imports() {
        let source = r#"
import x, { a, b as c } from "m";
import * as ns from './n.js';
import "side-effect";
import def, * as all from "both";
export { e, f as g, default as h } from "re";
export * from "star";
export * as everything from "ns";
export { local };
const fs = require("fs");
const { join } = require('path');
require("register");
async function load() {
    const lazy = await import("lazy");
    const notLiteral = require(name);
    const template = require(`tpl`);
}
"#;
        let imports = analyze(Language::JavaScript, source.as_bytes())
            .unwrap()
            .imports;
        assert_eq!(
            imports,
            vec![
                "./n.js.* as ns",
                "both.* as all",
                "both.default as def",
                "fs",
                "lazy",
                "m.a",
                "m.b as c",
                "m.default as x",
                "ns.* as everything",
                "path",
                "re.default as h",
                "re.e",
                "re.f as g",
                "register",
                "side-effect",
                "star.*",
            ]
        );
    }

    #[test]
    fn comments_and_whitespace_do_not_change_the_body() {
        let a = functions(
            Language::JavaScript,
            "function f(x) {\n    return x + 1;\n}\n",
        );
        let b = functions(
            Language::JavaScript,
            "function f( x ) { // add one\n  /** really */ return x+1; }\n",
        );
        assert_eq!(a[0].body_hash, b[0].body_hash);
        assert_eq!(a[0].signature_hash, b[0].signature_hash);
        assert_ne!(a[0].text_hash, b[0].text_hash);
    }

    #[test]
    fn decorators_export_and_async_are_part_of_the_signature() {
        let plain = functions(Language::JavaScript, "class A {\n    m() { go(); }\n}\n");
        let decorated = functions(
            Language::JavaScript,
            "class A {\n    @log m() { go(); }\n}\n",
        );
        assert_eq!(plain[0].body_hash, decorated[0].body_hash);
        assert_ne!(plain[0].signature_hash, decorated[0].signature_hash);
        let base = functions(Language::JavaScript, "function f() { go(); }\n");
        for changed in [
            "export function f() { go(); }\n",
            "async function f() { go(); }\n",
            "function f(a) { go(); }\n",
        ] {
            let other = functions(Language::JavaScript, changed);
            assert_eq!(base[0].body_hash, other[0].body_hash, "{changed}");
            assert_ne!(base[0].signature_hash, other[0].signature_hash, "{changed}");
        }
        let arrow = functions(
            Language::JavaScript,
            "export const f = async (a, b) => {\n};\n",
        );
        assert_eq!(arrow[0].signature, "export const f = async (a, b) =>");
    }

    #[test]
    fn formatting_prettier_applies_is_not_a_change() {
        use crate::lang::testing::same;
        same(
            Language::JavaScript,
            "function f(a) {\n  const g = x => ({ 'k': x })\n  const e = <div className='x'>hi</div>\n  return a ? (b) : g(a,)\n}\n",
            "function f(a) {\n  const g = (x) => ({ k: x });\n  const e = <div className=\"x\">hi</div>;\n  return a ? b : g(a);\n}\n",
        );
    }

    #[test]
    fn meaningful_edits_near_the_formatting_rules_are_changes() {
        use crate::lang::testing::differ;
        // Array holes are elements.
        differ(
            Language::JavaScript,
            "function f() { return [a, , ]; }\n",
            "function f() { return [a, ]; }\n",
        );
        // A quoted property name that is no identifier, and JSX attribute text.
        differ(
            Language::JavaScript,
            "function f() { return { 'a-b': 1 }; }\n",
            "function f() { return { 'ab': 1 }; }\n",
        );
        differ(
            Language::JavaScript,
            "function f() { return <a b=\"it\\'s\" />; }\n",
            "function f() { return <a b=\"it's\" />; }\n",
        );
    }
    #[test]
    fn visibility_and_declarations() {
        let source = r#"export function open() {}
function helper() {}
exports.load = function () {};
export class Client {
    send() {}
    #drop() {}
}
const MAX = 3;
"#;
        assert_eq!(
            crate::lang::testing::interface(Language::JavaScript, source),
            [
                "open public",
                "helper private",
                "load public",
                "Client.send public",
                "Client.#drop private",
                "class Client public: class Client",
                "const MAX private: const MAX",
            ]
        );
    }
}
