//! Function analysis fixtures for C#: one commit per situation, the exact change list asserted
//! for each.

use crate::common::TestEnv;
use crate::functions::{Source, step};

const GREETER: &str = r#"using System;
using System.Collections.Generic;

namespace App.Greeting
{
    public class Greeter
    {
        private readonly string name;

        public Greeter(string name)
        {
            this.name = name;
        }

        public string Hello()
        {
            return "hello " + name;
        }

        public int Compute(int a, int b)
        {
            var s = a + b;
            return s * 2;
        }

        public int Helper(int x)
        {
            var y = x * 3;
            var z = y - 4;
            return z + 1;
        }

        public int Size(List<string> items)
        {
            return items.Count;
        }

        public int Size(string text)
        {
            return text.Length;
        }

        public async Task<int> FetchAsync()
        {
            await Task.Delay(1);
            return 1;
        }

        public int Outer()
        {
            int Inner(int v)
            {
                return v + 1;
            }
            return Inner(1);
        }

        public int Count
        {
            get { return name.Length; }
        }
    }

    class Other
    {
        string Hello()
        {
            return "other";
        }
    }
}
"#;

#[test]
fn csharp_situations() {
    let env = TestEnv::new();
    let repo = env.repo("csharp");
    let file = "src/Greeter.cs";
    repo.write(file, GREETER).commit("base");
    let mut src = Source(GREETER.to_owned());
    let mut edit = |from: &str, to: &str| src.edit(from, to);
    let g = "App.Greeting.Greeter";

    let s = edit(
        "        public int Size(List",
        "        int Added()\n        {\n            return 7;\n        }\n\n        public int Size(List",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} added {g}.Added")]
    );
    let s = edit(
        "        int Added()\n        {\n            return 7;\n        }\n\n",
        "",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} deleted {g}.Added")]
    );
    let s = edit("return s * 2;", "return s * 3;");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified {g}.Compute")]
    );
    let s = edit(
        "public int Compute(int a, int b)",
        "public long Compute(long a, long b)",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} signature_changed {g}.Compute")]
    );
    let s = edit("public int Helper(int x)", "public int Assist(int x)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} renamed {g}.Assist (was {g}.Helper)")]
    );
    let s = edit(
        "public int Assist(int x)\n        {\n            var y = x * 3;",
        "public int Assist2(int x)\n        {\n            var y = x * 5;",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!(
            "{file} renamed {g}.Assist2 (was {g}.Assist) +edited"
        )]
    );
    // Move `Compute` to a class of its own in another file.
    let compute = "        public long Compute(long a, long b)\n        {\n            var s = a + b;\n            return s * 3;\n        }\n";
    let s = edit(&format!("{compute}\n"), "");
    let math =
        format!("namespace App.Greeting\n{{\n    class MathUtil\n    {{\n{compute}    }}\n}}\n");
    assert_eq!(
        step(
            &env,
            &repo,
            &[(file, Some(&s)), ("src/MathUtil.cs", Some(&math))]
        ),
        [format!(
            "src/MathUtil.cs moved App.Greeting.MathUtil.Compute (was {g}.Compute) from {file}"
        )]
    );
    // Reordering classes and members is not a change.
    let other = "    class Other\n    {\n        string Hello()\n        {\n            return \"other\";\n        }\n    }\n";
    edit(&format!("\n{other}"), "");
    edit(
        "    public class Greeter\n",
        &format!("{other}\n    public class Greeter\n"),
    );
    let ctor = "        public Greeter(string name)\n        {\n            this.name = name;\n        }\n\n";
    edit(ctor, "");
    let s = edit(
        "        public int Count\n",
        &format!("{ctor}        public int Count\n"),
    );
    assert_eq!(step(&env, &repo, &[(file, Some(&s))]), Vec::<String>::new());
    // Reformatting and comments are formatting only.
    let s = edit(
        "return \"hello \" + name;",
        "return \"hello \"\n                + name;",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} formatting_only {g}.Hello")]
    );
    let s = edit(
        "                return v + 1;",
        "                // one more\n                return v + 1; /* so far */",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} formatting_only {g}.Outer.Inner")]
    );
    let s = edit(
        "        public int Outer()",
        "        /// <summary>Calls the inner function.</summary>\n        public int Outer()",
    );
    // A documentation comment lies before the definition: not even a formatting change.
    assert_eq!(step(&env, &repo, &[(file, Some(&s))]), Vec::<String>::new());
    // Overloads: only the one that changed, by body or by signature.
    let s = edit("return text.Length;", "return text.Trim().Length;");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified {g}.Size")]
    );
    let s = edit(
        "public int Size(string text)",
        "public int Size(object text)",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} signature_changed {g}.Size")]
    );
    // A local function is named inside its method; a change to it is its own.
    let s = edit("return v + 1;", "return v + 2;");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified {g}.Outer.Inner")]
    );
    // A property accessor.
    let s = edit(
        "get { return name.Length; }",
        "get { return name.Length + 1; }",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified {g}.Count.get")]
    );
    // Attributes are part of the signature; async methods are methods.
    let s = edit(
        "        public async Task<int> FetchAsync()",
        "        [Obsolete]\n        public async Task<int> FetchAsync()",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} signature_changed {g}.FetchAsync")]
    );
    let s = edit("await Task.Delay(1);", "await Task.Delay(2);");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified {g}.FetchAsync")]
    );
    // Imports.
    let s = edit(
        "using System;\n",
        "using System;\nusing static System.Math;\n",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} imports +static System.Math -")]
    );
    // A syntax error keeps what can be extracted and says so.
    let s = edit(
        "        public int Size(List",
        "        public int Broken( {\n        }\n\n        public int Size(List",
    );
    let got = step(&env, &repo, &[(file, Some(&s))]);
    assert!(got.contains(&format!("{file} parse_errors")), "{got:?}");
}
