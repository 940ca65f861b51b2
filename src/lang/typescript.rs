//! TypeScript and TSX: functions, generators and overload/`declare` signatures; class methods
//! (`Class.method`), abstract methods and interface method signatures (`Interface.method`,
//! without a body); arrow functions and function expressions bound to a name (`const f`, class
//! fields, object properties, `export default`); nested functions (`outer.inner`) and functions
//! in namespaces and modules (`A.B.f`). `export`, `async`, types and decorators are part of the
//! signature. Object-literal functions are qualified by the variable or property holding the
//! object (`api.get`).
//!
//! Imports are `module.name` strings: `import x from "m"` → `m.default as x`,
//! `import { a, b as c } from "m"` → `m.a`, `m.b as c`, `import * as ns from "m"` →
//! `m.* as ns`, `import "m"` → `m`, re-exports alike (`export * from "m"` → `m.*`), and
//! `require("m")`, `import x = require("m")` and `import("m")` → `m`.
//!
//! The rules are shared with JavaScript and detailed in `ecmascript`.

use super::ecmascript::{self, Dialect, EcmaScript};
use super::{Language, LanguageConfig};

/// TypeScript's facts: those of JavaScript and TypeScript but for the grammars (`ecmascript`).
pub(super) static CONFIG: LanguageConfig = LanguageConfig {
    // The TSX grammar reads `<T>x` as JSX, so plain TypeScript needs its own.
    grammars: &[
        (Language::TypeScript, || {
            tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into()
        }),
        (Language::Tsx, || {
            tree_sitter_typescript::LANGUAGE_TSX.into()
        }),
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
    analyzer: &EcmaScript(Dialect::TypeScript),
};

#[cfg(test)]
mod tests {
    use crate::lang::Language;
    use crate::lang::analyze;
    use crate::lang::testing::{functions, names};

    #[test]
    fn qualified_names() {
        let source = r#"
export function top(a: number): number {
    function inner() {
        const innermost = () => 1;
    }
    return a;
}
export async function* stream() {}
export default function () {}
function over(a: string): void;
function over(a: any) {}
declare function ambient(): void;
export const arrow = async (x: number): Promise<number> => x * 2;
let expr = function named() {};
const a = () => 1, b = function () {};
items.forEach((item) => item.go());
setTimeout(function tick() {}, 10);

@Component({ selector: "x" })
export class Greeter<T> extends Base implements Hello {
    private handler = (e: Event) => {};
    count = 0;
    constructor(private name: string) { super(); }
    @Input() @Other()
    public async hello(): Promise<string> { return "hi"; }
    static create(): Greeter<T>;
    static create(x?: T): Greeter<T> { return new Greeter(""); }
    get size() { return 1; }
    #secret() {}
}

export abstract class Shape {
    abstract area(): number;
    describe() { return `area ${this.area()}`; }
}

export interface Hello {
    hello(): Promise<string>;
    callback: () => void;
    shape: { inline(): void };
}

namespace Outer.Inner {
    export function deep() {}
}
declare module "plugin" {
    function hook(): void;
}

export const api = {
    get(url: string) {},
    post: async (url: string) => {},
    nested: { put() {} },
};
const Anonymous = class {
    run() {}
};
exports.legacy = function () {};
"#;
        assert_eq!(
            names(Language::TypeScript, source),
            vec![
                ("top".into(), "function"),
                ("top.inner".into(), "function"),
                ("top.inner.innermost".into(), "function"),
                ("stream".into(), "function"),
                ("default".into(), "function"),
                ("over".into(), "function"),
                ("over".into(), "function"),
                ("ambient".into(), "function"),
                ("arrow".into(), "function"),
                ("expr".into(), "function"),
                ("a".into(), "function"),
                ("b".into(), "function"),
                ("Greeter.handler".into(), "method"),
                ("Greeter.constructor".into(), "method"),
                ("Greeter.hello".into(), "method"),
                ("Greeter.create".into(), "method"),
                ("Greeter.create".into(), "method"),
                ("Greeter.size".into(), "method"),
                ("Greeter.#secret".into(), "method"),
                ("Shape.area".into(), "method"),
                ("Shape.describe".into(), "method"),
                ("Hello.hello".into(), "method"),
                ("Outer.Inner.deep".into(), "function"),
                ("plugin.hook".into(), "function"),
                ("api.get".into(), "function"),
                ("api.post".into(), "function"),
                ("api.nested.put".into(), "function"),
                ("Anonymous.run".into(), "method"),
                ("legacy".into(), "function"),
            ]
        );
    }

    #[test]
    fn tsx_components() {
        let source = r#"
import React, { useState } from "react";

export default function App({ title }: Props) {
    const [n, setN] = useState(0);
    const onClick = () => setN(n + 1);
    return <button onClick={() => onClick()}>{title}</button>;
}

export const Badge = ({ label }: { label: string }) => <span>{label}</span>;

class Counter extends React.Component<Props> {
    render() {
        return <div>{this.props.title}</div>;
    }
}
"#;
        assert_eq!(
            names(Language::Tsx, source),
            vec![
                ("App".into(), "function"),
                ("App.onClick".into(), "function"),
                ("Badge".into(), "function"),
                ("Counter.render".into(), "method"),
            ]
        );
        // Plain TypeScript has its own grammar: there `<T>` starts a generic arrow, not JSX.
        let generic = "const id = <T>(x: T): T => x;\n";
        assert_eq!(
            names(Language::TypeScript, generic),
            vec![("id".into(), "function")]
        );
    }

    #[test]
    fn imports() {
        let source = r#"
import x, { a, type b as c } from "m";
import * as ns from './n';
import type { T } from "types";
import "side-effect";
import {} from "empty";
import fs = require("fs");
import { default as d, "odd-name" as odd } from "q";
export { e, f as g } from "re";
export * from "all";
export * as everything from "ns";
export type { U } from "types2";
export { local };
const path = require("path");
async function load() {
    const lazy = await import("lazy");
    const notLiteral = require(name);
}
"#;
        let imports = analyze(Language::TypeScript, source.as_bytes())
            .unwrap()
            .imports;
        assert_eq!(
            imports,
            vec![
                "./n.* as ns",
                "all.*",
                "empty",
                "fs",
                "lazy",
                "m.a",
                "m.b as c",
                "m.default as x",
                "ns.* as everything",
                "path",
                "q.default as d",
                "q.odd-name as odd",
                "re.e",
                "re.f as g",
                "side-effect",
                "types.T",
                "types2.U",
            ]
        );
    }

    #[test]
    fn comments_and_whitespace_do_not_change_the_body() {
        let a = functions(
            Language::TypeScript,
            "function f(x: number): number {\n    return x + 1;\n}\n",
        );
        let b = functions(
            Language::TypeScript,
            "function f( x:number ):number { // add one\n  /** really */ return x+1; }\n",
        );
        assert_eq!(a[0].body_hash, b[0].body_hash);
        assert_eq!(a[0].signature_hash, b[0].signature_hash);
        assert_ne!(a[0].text_hash, b[0].text_hash);
    }

    #[test]
    fn decorators_are_part_of_the_signature() {
        let plain = functions(Language::TypeScript, "class A {\n    m() { go(); }\n}\n");
        let decorated = functions(
            Language::TypeScript,
            "class A {\n    @log()\n    // why\n    @trace m() { go(); }\n}\n",
        );
        assert_eq!(plain[0].body_hash, decorated[0].body_hash);
        assert_ne!(plain[0].signature_hash, decorated[0].signature_hash);
        assert_eq!(decorated[0].start_line, 2);
        assert_eq!(decorated[0].signature, "@log() @trace m()");
        // A comment between decorators is not part of the signature's tokens.
        let uncommented = functions(
            Language::TypeScript,
            "class A {\n    @log() @trace m() { go(); }\n}\n",
        );
        assert_eq!(uncommented[0].signature_hash, decorated[0].signature_hash);
    }

    #[test]
    fn export_async_and_types_are_part_of_the_signature() {
        let base = functions(Language::TypeScript, "const f = (x: number) => x + 1;\n");
        for changed in [
            "export const f = (x: number) => x + 1;\n",
            "const f = async (x: number) => x + 1;\n",
            "const f = (x: string) => x + 1;\n",
            "const f: Op = (x: number) => x + 1;\n",
        ] {
            let other = functions(Language::TypeScript, changed);
            assert_eq!(base[0].body_hash, other[0].body_hash, "{changed}");
            assert_ne!(base[0].signature_hash, other[0].signature_hash, "{changed}");
        }
        let exported = functions(
            Language::TypeScript,
            "export async function g(): Promise<void> {}\n",
        );
        assert_eq!(
            exported[0].signature,
            "export async function g(): Promise<void>"
        );
        let interface = functions(
            Language::TypeScript,
            "interface I {\n    m(a: number): void;\n}\n",
        );
        assert_eq!(interface[0].signature, "m(a: number): void");
    }

    #[test]
    fn a_nested_function_is_cut_out_of_its_parent() {
        let a = functions(
            Language::TypeScript,
            "function outer() {\n    const inner = () => 1;\n    return inner();\n}\n",
        );
        let b = functions(
            Language::TypeScript,
            "function outer() {\n    const inner = () => 2;\n    return inner();\n}\n",
        );
        assert_eq!(a[0].name, "outer");
        assert_eq!(a[0].body_hash, b[0].body_hash);
        assert_eq!(a[0].text_hash, b[0].text_hash);
        assert_ne!(a[1].body_hash, b[1].body_hash);
    }

    #[test]
    fn malformed_input_yields_what_it_can() {
        let analysis = analyze(
            Language::TypeScript,
            b"function ok() { return 1; }\nclass { m( { }\nexport const = () =>\n",
        )
        .unwrap();
        assert!(analysis.parse_errors);
        assert_eq!(analysis.functions[0].name, "ok");
        // Deep nesting (as deep as a file may nest and still be analysed) is walked without
        // recursion.
        let depth = crate::lang::MAX_NESTING - 3;
        let deep = format!(
            "const f = () => {}1{};\n",
            "(\n".repeat(depth),
            ")\n".repeat(depth)
        );
        let analysis = analyze(Language::TypeScript, deep.as_bytes()).unwrap();
        assert_eq!(analysis.functions[0].name, "f");
    }

    #[test]
    fn formatting_prettier_applies_is_not_a_change() {
        use crate::lang::testing::same;
        // Semicolons, quotes, trailing commas, arrow parameter parentheses, `new Foo`.
        same(
            Language::TypeScript,
            "function f(a: number, b: string) {\n  const g = x => x + 1\n  let s = 'it\\'s'\n  h(a, b)\n  return new Foo\n}\n",
            "function f(\n  a: number,\n  b: string,\n) {\n  const g = (x) => x + 1;\n  let s = \"it's\";\n  h(\n    a,\n    b,\n  );\n  return new Foo();\n}\n",
        );
        // Parentheses: around atoms, in slots, by precedence; numbers; property names.
        same(
            Language::TypeScript,
            "function f() {\n  const a = (b && c) || d\n  const e = (g * h) + 1.50\n  return (x)\n}\nconst k = () => ({ \"a\": 1, b: (c ? d : e) })\n",
            "function f() {\n  const a = b && c || d;\n  const e = g * h + 1.5;\n  return x;\n}\nconst k = () => ({ a: 1, b: c ? d : e });\n",
        );
        // Object type separators, a leading `|`, class body semicolons.
        same(
            Language::TypeScript,
            "class A {\n  x: { a: string, b: number } = y\n  m(p: | A | B): void {\n    return\n  };\n}\n",
            "class A {\n  x: { a: string; b: number } = y;\n  m(p: A | B): void {\n    return;\n  }\n}\n",
        );
    }

    #[test]
    fn meaningful_edits_near_the_formatting_rules_are_changes() {
        use crate::lang::testing::differ;
        let f = |body: &str| format!("function f() {{\n{body}\n}}\n");
        let pairs: &[(&str, &str)] = &[
            // Grouping against precedence, and the comma operator.
            ("x = (a || b) && c;", "x = a || b && c;"),
            ("x = a - (b - c);", "x = a - b - c;"),
            ("x = (a ** b) ** c;", "x = a ** b ** c;"),
            ("g((a, b));", "g(a, b);"),
            // An object body is not a block; an optional chain stops at parentheses.
            ("const k = () => ({});", "const k = () => {};"),
            ("x = (a?.b).c;", "x = a?.b.c;"),
            ("x = new (a())();", "x = new a()();"),
            // Automatic semicolon insertion: `return` ends at the line break.
            ("return\nx;", "return x;"),
            ("a\n;(b)", "a(b)"),
            ("if (x); g();", "if (x) g();"),
            // Typed arrow parameters keep their parentheses.
            ("const k = (x: T) => x;", "const k = x => x;"),
            // Literals, operators, arguments and order.
            ("g('a');", "g('b');"),
            ("g(1.5);", "g(1.25);"),
            ("x = a + b;", "x = a - b;"),
            ("g(a);", "g(a, b);"),
            ("a(); b();", "b(); a();"),
        ];
        for (a, b) in pairs {
            differ(Language::TypeScript, &f(a), &f(b));
        }
    }
    #[test]
    fn visibility_and_declarations() {
        let source = r#"export function open(): void {}
function helper() {}
export const handler = () => {};
export const LIMIT = 5;
const local = 1;
export interface Store {
    get(key: string): string;
}
export class Client {
    send() {}
    private pack() {}
    #drop() {}
}
class Hidden {
    run() {}
}
export type Id = string;
export enum Mode { A, B }
"#;
        assert_eq!(
            crate::lang::testing::interface(Language::TypeScript, source),
            [
                "open public",
                "helper private",
                "handler public",
                "Store.get public",
                "Client.send public",
                "Client.pack private",
                "Client.#drop private",
                "Hidden.run private",
                "const LIMIT public: const LIMIT",
                "const local private: const local",
                "interface Store public: interface Store",
                "class Client public: class Client",
                "class Hidden private: class Hidden",
                "type Id public: type Id = string",
                "enum Mode public: enum Mode",
            ]
        );
    }
}
