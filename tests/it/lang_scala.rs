//! Function analysis fixtures for Scala: one commit per situation, the exact change list
//! asserted for each.

use crate::common::TestEnv;
use crate::functions::{Source, step};

const GREETER: &str = r#"package app.greeting

import scala.concurrent.Future

class Greeter(name: String) {
  def this() = this("world")

  def hello(): String = {
    "hello " + name
  }

  def compute(a: Int, b: Int): Int = {
    val s = a + b
    s * 2
  }

  def helper(x: Int): Int = {
    val y = x * 3
    val z = y - 4
    z + 1
  }

  def size(items: List[String]): Int = {
    items.size
  }

  def size(text: String): Int = {
    text.length
  }

  def fetch()(implicit ec: ExecutionContext): Future[Int] = Future {
    Thread.sleep(1)
    1
  }

  def outer(): Int = {
    def inner(v: Int): Int = {
      v + 1
    }
    inner(1)
  }
}

object Greeter {
  def apply(name: String): Greeter = {
    new Greeter(name)
  }
}

class Other {
  def hello(): String = {
    "other"
  }
}
"#;

#[test]
fn scala_situations() {
    let env = TestEnv::new();
    let repo = env.repo("scala");
    let file = "src/main/scala/app/greeting/Greeter.scala";
    repo.write(file, GREETER).commit("base");
    let mut src = Source(GREETER.to_owned());
    let mut edit = |from: &str, to: &str| src.edit(from, to);

    let s = edit(
        "  def size(items",
        "  def added(): Int = {\n    7\n  }\n\n  def size(items",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} added Greeter.added")]
    );
    let s = edit("  def added(): Int = {\n    7\n  }\n\n", "");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} deleted Greeter.added")]
    );
    let s = edit("s * 2", "s * 3");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified Greeter.compute")]
    );
    let s = edit(
        "def compute(a: Int, b: Int): Int",
        "def compute(a: Long, b: Long): Long",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} signature_changed Greeter.compute")]
    );
    let s = edit("def helper(x: Int)", "def assist(x: Int)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!(
            "{file} renamed Greeter.assist (was Greeter.helper)"
        )]
    );
    let s = edit(
        "def assist(x: Int): Int = {\n    val y = x * 3",
        "def assist2(x: Int): Int = {\n    val y = x * 5",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!(
            "{file} renamed Greeter.assist2 (was Greeter.assist) +edited"
        )]
    );
    // Move `compute` to an object in another file.
    let compute = "  def compute(a: Long, b: Long): Long = {\n    val s = a + b\n    s * 3\n  }\n";
    let s = edit(&format!("{compute}\n"), "");
    let math = format!("package app.greeting\n\nobject MathUtil {{\n{compute}}}\n");
    let math_file = "src/main/scala/app/greeting/MathUtil.scala";
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s)), (math_file, Some(&math))]),
        [format!(
            "{math_file} moved MathUtil.compute (was Greeter.compute) from {file}"
        )]
    );
    // Reordering classes and members is not a change.
    let other = "class Other {\n  def hello(): String = {\n    \"other\"\n  }\n}\n";
    edit(&format!("\n{other}"), "");
    edit("class Greeter(", &format!("{other}\nclass Greeter("));
    let hello = "  def hello(): String = {\n    \"hello \" + name\n  }\n\n";
    edit(hello, "");
    let s = edit("  def outer()", &format!("{hello}  def outer()"));
    assert_eq!(step(&env, &repo, &[(file, Some(&s))]), Vec::<String>::new());
    // Reformatting, braces around one expression, and comments are formatting only.
    let s = edit(
        "  def hello(): String = {\n    \"hello \" + name\n  }",
        "  def hello(): String = \"hello \" +\n    name",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} formatting_only Greeter.hello")]
    );
    let s = edit("      v + 1", "      // one more\n      v + 1 /* so far */");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} formatting_only Greeter.outer.inner")]
    );
    // Overloads: only the one that changed, by body or by signature.
    let s = edit("text.length", "text.trim.length");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified Greeter.size")]
    );
    let s = edit("def size(text: String)", "def size(text: CharSequence)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} signature_changed Greeter.size")]
    );
    // Nested functions, companion objects, auxiliary constructors.
    let s = edit("v + 1", "v + 2");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified Greeter.outer.inner")]
    );
    let s = edit("new Greeter(name)", "new Greeter(name.trim)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified Greeter.apply")]
    );
    let s = edit("this(\"world\")", "this(\"all\")");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified Greeter.this")]
    );
    // Annotations are part of the signature; a method returning a Future is a method.
    let s = edit(
        "  def fetch()",
        "  @deprecated(\"old\", \"1.0\")\n  def fetch()",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} signature_changed Greeter.fetch")]
    );
    let s = edit("Thread.sleep(1)", "Thread.sleep(2)");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!("{file} modified Greeter.fetch")]
    );
    // Imports.
    let s = edit(
        "import scala.concurrent.Future\n",
        "import scala.concurrent.{Future, ExecutionContext => EC}\n",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        [format!(
            "{file} imports +scala.concurrent.ExecutionContext as EC -"
        )]
    );
    // A syntax error keeps what can be extracted and says so.
    let s = edit(
        "  def size(items",
        "  def broken( = {\n  }\n\n  def size(items",
    );
    let got = step(&env, &repo, &[(file, Some(&s))]);
    assert!(got.contains(&format!("{file} parse_errors")), "{got:?}");
}
