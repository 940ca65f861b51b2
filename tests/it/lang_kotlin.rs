//! Function analysis fixtures for Kotlin: one commit per situation, the exact change list
//! asserted for each.

use crate::common::TestEnv;
use crate::functions::{Source, step};

const GREETER: &str = r#"package app.greeting

import kotlin.math.max

class Greeter(private val name: String) {
    constructor() : this("world") {
        println("default")
    }

    fun hello(): String {
        return "hello " + name
    }

    fun compute(a: Int, b: Int): Int {
        val s = a + b
        return s * 2
    }

    fun helper(x: Int): Int {
        val y = x * 3
        val z = y - 4
        return z + 1
    }

    fun size(items: List<String>): Int {
        return items.size
    }

    fun size(text: String): Int {
        return text.length
    }

    suspend fun fetch(): Int {
        delay(1)
        return 1
    }

    fun outer(): Int {
        fun inner(v: Int): Int {
            return v + 1
        }
        return inner(1)
    }

    companion object {
        fun create(): Greeter {
            return Greeter("x")
        }
    }
}

fun String.shout(): String {
    return uppercase() + "!"
}

class Other {
    fun hello(): String {
        return "other"
    }
}
"#;

#[test]
fn kotlin_situations() {
    let env = TestEnv::new();
    let repo = env.repo("kotlin");
    let file = "src/main/kotlin/app/greeting/Greeter.kt";
    repo.write(file, GREETER).commit("base");
    let mut src = Source(GREETER.to_owned());
    let mut edit = |from: &str, to: &str| src.edit(from, to);

    let s = edit(
        "    fun size(items",
        "    fun added(): Int {\n        return 7\n    }\n\n    fun size(items",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} added Greeter.added")]
    );
    let s = edit("    fun added(): Int {\n        return 7\n    }\n\n", "");
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
        "fun compute(a: Int, b: Int): Int",
        "fun compute(a: Long, b: Long): Long",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} signature_changed Greeter.compute")]
    );
    let s = edit("fun helper(x: Int)", "fun assist(x: Int)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!(
            "{file} renamed Greeter.assist (was Greeter.helper)"
        )]
    );
    let s = edit(
        "fun assist(x: Int): Int {\n        val y = x * 3",
        "fun assist2(x: Int): Int {\n        val y = x * 5",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!(
            "{file} renamed Greeter.assist2 (was Greeter.assist) +edited"
        )]
    );
    // Move `compute` to an object in another file.
    let compute = "    fun compute(a: Long, b: Long): Long {\n        val s = a + b\n        return s * 3\n    }\n";
    let s = edit(&format!("{compute}\n"), "");
    let math = format!("package app.greeting\n\nobject MathUtil {{\n{compute}}}\n");
    let math_file = "src/main/kotlin/app/greeting/MathUtil.kt";
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s)), (math_file, Some(&math))]),
        [format!(
            "{math_file} moved MathUtil.compute (was Greeter.compute) from {file}"
        )]
    );
    // Reordering classes and members is not a change.
    let other = "class Other {\n    fun hello(): String {\n        return \"other\"\n    }\n}\n";
    edit(&format!("\n{other}"), "");
    edit("class Greeter(", &format!("{other}\nclass Greeter("));
    let hello = "    fun hello(): String {\n        return \"hello \" + name\n    }\n\n";
    edit(hello, "");
    let s = edit("    fun outer()", &format!("{hello}    fun outer()"));
    assert_eq!(step(&env, &repo, &[(file, Some(&s))]), Vec::<String>::new());
    // Reformatting, an expression body, and comments are formatting only.
    let s = edit(
        "return \"hello \" + name",
        "return \"hello \" +\n            name",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} formatting_only Greeter.hello")]
    );
    let s = edit(
        "fun String.shout(): String {\n    return uppercase() + \"!\"\n}",
        "fun String.shout(): String = uppercase() + \"!\"",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} formatting_only String.shout")]
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
    let s = edit("return text.length", "return text.trim().length");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified Greeter.size")]
    );
    let s = edit("fun size(text: String)", "fun size(text: CharSequence)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} signature_changed Greeter.size")]
    );
    // Nested functions, companions, extensions and secondary constructors.
    let s = edit("return v + 1", "return v + 2");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified Greeter.outer.inner")]
    );
    let s = edit("return Greeter(\"x\")", "return Greeter(\"y\")");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified Greeter.Companion.create")]
    );
    let s = edit("uppercase() + \"!\"", "uppercase() + \"!!\"");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified String.shout")]
    );
    let s = edit("println(\"default\")", "println(\"none\")");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified Greeter.constructor")]
    );
    // Annotations are part of the signature; `suspend` functions are functions.
    let s = edit(
        "    suspend fun fetch()",
        "    @Deprecated(\"old\")\n    suspend fun fetch()",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} signature_changed Greeter.fetch")]
    );
    let s = edit("delay(1)", "delay(2)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified Greeter.fetch")]
    );
    // Imports.
    let s = edit(
        "import kotlin.math.max\n",
        "import kotlin.math.max\nimport kotlin.math.min as least\n",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} imports +kotlin.math.min as least -")]
    );
    // A syntax error keeps what can be extracted and says so.
    let s = edit(
        "    fun size(items",
        "    fun broken( {\n    }\n\n    fun size(items",
    );
    let got = step(&env, &repo, &[(file, Some(&s))]);
    assert!(got.contains(&format!("{file} parse_errors")), "{got:?}");
}
