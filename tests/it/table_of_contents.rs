//! A range's first page is its table of contents (issue 27, ADR 18): the interface with its
//! signatures, production code by name, the other files counted, what the next pages hold and
//! how large they are; and no hunk label hides a function.

use serde_json::Value;

use crate::common::{Repo, TestEnv};

/// The JSON answer of `git <args>` run by an agent, at `cursor` when given.
fn page(env: &TestEnv, dir: &std::path::Path, args: &[&str], cursor: Option<&str>) -> Value {
    serde_json::from_str(&page_text(env, dir, args, cursor)).unwrap()
}

/// The answer's text (its keys in the answer's own order).
fn page_text(env: &TestEnv, dir: &std::path::Path, args: &[&str], cursor: Option<&str>) -> String {
    let mut cmd = env.shim_git(args);
    cmd.env("CLAUDECODE", "1")
        .env("GIT_PRISM_DEBUG", "1")
        .current_dir(dir);
    if let Some(c) = cursor {
        cmd.env("GIT_PRISM_CURSOR", c);
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("git-prism: structured: "),
        "git {args:?} was not answered: {stderr}"
    );
    assert!(out.stdout.len() <= 20_000, "{}", out.stdout.len());
    String::from_utf8(out.stdout).unwrap()
}

/// The cursor of a page's `next`.
fn cursor(doc: &Value) -> Option<String> {
    let next = doc["next"].as_str()?;
    Some(
        next.strip_prefix("GIT_PRISM_CURSOR=")?
            .split_once(' ')?
            .0
            .to_owned(),
    )
}

/// A body long enough that the range's hunks do not fit a table of contents.
fn body(n: usize) -> String {
    (0..n)
        .map(|i| format!("    let v{i} = {i} * 2 + 1;\n"))
        .collect()
}

/// A library that grows over three commits: a public struct and methods, a private helper, a
/// modified function, a trait impl, tests, a README and two pages of docs (five files: more
/// than a range answered whole for its few files).
fn growing(env: &TestEnv) -> (Repo<'_>, String) {
    let repo = env.repo("lib");
    repo.write(
        "src/lib.rs",
        format!("pub fn total(x: u32) -> u32 {{\n{}    x\n}}\n", body(5)),
    )
    .write("README.md", "# lib\n");
    let base = repo.commit("base");
    repo.write(
        "src/lib.rs",
        format!(
            "pub fn total(x: u32) -> u32 {{\n{}    x + 1\n}}\n\npub struct Widget {{\n    size: u32,\n}}\n\nimpl Widget {{\n    pub fn new(size: u32) -> Widget {{\n{}        Widget {{ size }}\n    }}\n\n    pub fn size(&self) -> u32 {{\n        self.size\n    }}\n}}\n",
            body(5),
            body(150)
        ),
    );
    repo.commit("widget");
    repo.write(
        "src/lib.rs",
        format!(
            "pub fn total(x: u32) -> u32 {{\n{}    x + 1\n}}\n\npub struct Widget {{\n    size: u32,\n}}\n\npub const MAX: u32 = 10;\n\nimpl Widget {{\n    pub fn new(size: u32) -> Widget {{\n{}        Widget {{ size }}\n    }}\n\n    pub fn size(&self) -> u32 {{\n        helper(self.size)\n    }}\n}}\n\nimpl Clone for Widget {{\n    fn clone(&self) -> Widget {{\n        Widget {{ size: self.size }}\n    }}\n}}\n\nfn helper(x: u32) -> u32 {{\n{}    x\n}}\n",
            body(5),
            body(150),
            body(150)
        ),
    )
    .write(
        "tests/widget.rs",
        "#[test]\nfn new_widget() {}\n\n#[test]\nfn sized_widget() {}\n",
    )
    .write("README.md", "# lib\n\nWidgets.\n")
    .write("docs/guide.md", "# Guide\n\nUse widgets.\n")
    .write("docs/faq.md", "# FAQ\n\nNone yet.\n");
    repo.commit("helper, tests, docs");
    (repo, base)
}

#[test]
fn a_range_starts_with_its_table_of_contents() {
    let env = TestEnv::new();
    let (repo, base) = growing(&env);
    let range = format!("{}..HEAD", &base[..12]);
    let args = ["diff", range.as_str()];
    let first = page(&env, &repo.dir, &args, None);
    // The interface, with signatures; what else changed in production code by name; the rest
    // counted; no hunk.
    assert!(first.get("hunks").is_none(), "{first}");
    assert_eq!(
        first["api"]["src/lib.rs"],
        serde_json::json!([
            "added pub fn Widget::new(size: u32) -> Widget",
            "added pub fn Widget::size(&self) -> u32",
            "added pub struct Widget",
            "added pub const MAX: u32",
            "added <Widget as Clone>::clone",
        ]),
        "{first}"
    );
    let (line, names) = first["files"]["src/"]
        .as_object()
        .unwrap()
        .iter()
        .next()
        .unwrap();
    assert!(line.starts_with("M lib.rs +"), "{line}");
    assert_eq!(
        names,
        &serde_json::json!(["modified total", "private: added helper"]),
        "{first}"
    );
    assert_eq!(
        first["elsewhere"]["tests/"],
        "1 file +5 -0; tests: 2 added: widget.rs"
    );
    assert_eq!(first["elsewhere"]["(top)"], "1 file +2 -0: README.md");
    assert!(
        first["elsewhere"]["docs/"]
            .as_str()
            .unwrap()
            .starts_with("2 files +6 -0"),
        "{first}"
    );
    // A map this small is whole on page 1: the tests by name too.
    assert_eq!(
        first["files"]["tests/"]["A widget.rs +5 -0"],
        serde_json::json!(["added new_widget, sized_widget"])
    );
    // What the next pages hold, by role and size; then the hunks, production code first.
    let cut = first["cut"][0].as_str().unwrap();
    assert!(
        cut.starts_with("page 2: the hunks, production code first (5 files, about ")
            || cut.starts_with("pages 2-"),
        "{cut}"
    );
    let text = page_text(&env, &repo.dir, &args, cursor(&first).as_deref());
    let second: Value = serde_json::from_str(&text).unwrap();
    let hunks = second["hunks"].as_object().unwrap();
    let at = |path: &str| text.find(&format!("\"{path}\":[\"@@")).unwrap();
    assert!(
        at("src/lib.rs") < at("README.md"),
        "production first: {text}"
    );
    assert!(
        hunks["src/lib.rs"][0].as_str().unwrap().contains(" total"),
        "{second}"
    );
}

#[test]
fn a_map_larger_than_its_first_page_continues_by_role_with_sizes() {
    let env = TestEnv::new();
    let (repo, base) = growing(&env);
    // Forty files of tests: their names are a map page of their own.
    for i in 0..40 {
        repo.write(
            &format!("tests/suite_{i:02}.rs"),
            format!("#[test]\nfn first_{i}() {{}}\n\n#[test]\nfn second_{i}() {{}}\n"),
        );
    }
    repo.commit("suites");
    let range = format!("{}..HEAD", &base[..12]);
    let run = |cursor: Option<&str>| {
        let mut cmd = env.shim_git(&["diff", range.as_str()]);
        cmd.env("CLAUDECODE", "1")
            .env("GIT_PRISM_MAX_OUTPUT", "2000")
            .current_dir(&repo.dir);
        if let Some(c) = cursor {
            cmd.env("GIT_PRISM_CURSOR", c);
        }
        let out = cmd.output().unwrap();
        assert!(out.stdout.len() <= 2000, "{}", out.stdout.len());
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let first = run(None);
    // The interface is whole on page 1 even when production code must wait.
    assert_eq!(
        first["api"]["src/lib.rs"].as_array().unwrap().len(),
        5,
        "{first}"
    );
    assert_eq!(
        first["elsewhere"]["tests/"], "41 files +205 -0; tests: 82 added",
        "{first}"
    );
    let notes = first["cut"].to_string();
    assert!(
        notes.contains("page 2: tests (") || notes.contains("pages 2-"),
        "{notes}"
    );
    assert!(notes.contains(" tokens)"), "{notes}");
    assert!(notes.contains("then the hunks"), "{notes}");
    // Every later map page says it continues the map and what follows; then the hunks.
    let mut named: Vec<String> = Vec::new();
    let mut doc = first;
    let mut pages = 1;
    while doc.get("hunks").is_none() {
        for (_, files) in doc["files"].as_object().into_iter().flatten() {
            for (line, functions) in files.as_object().unwrap() {
                named.push(format!("{line}: {functions}"));
            }
        }
        let Some(c) = cursor(&doc) else { break };
        doc = run(Some(&c));
        pages += 1;
        if doc.get("hunks").is_none() {
            assert_eq!(doc["page"], "the map, continued", "{doc}");
            let note = doc["cut"][0].as_str().unwrap();
            let next = pages + 1;
            assert!(
                note.starts_with(&format!("page {next}: "))
                    || note.starts_with(&format!("pages {next}-")),
                "{note}"
            );
        }
    }
    assert!(pages >= 3, "{pages}");
    let named = named.join("\n");
    assert!(named.contains("modified total"), "{named}");
    assert!(named.contains("added new_widget, sized_widget"), "{named}");
    assert!(named.contains("added first_39, second_39"), "{named}");
}

#[test]
fn a_small_range_is_answered_whole_and_a_large_commit_stays_whole() {
    let env = TestEnv::new();
    let repo = env.repo("small");
    repo.write("a.py", "def f():\n    return 1\n");
    let base = repo.commit("base");
    repo.write("a.py", "def f():\n    return 2\n");
    repo.commit("one");
    repo.write("b.py", "def g():\n    return 3\n");
    repo.commit("two");
    let doc = page(
        &env,
        &repo.dir,
        &["diff", &format!("{}..HEAD", &base[..12])],
        None,
    );
    assert!(
        doc.get("next").is_none() && doc.get("raw").is_none(),
        "{doc}"
    );
    assert!(
        doc["hunks"]["a.py"][0]
            .as_str()
            .unwrap()
            .contains("+    return 2")
    );
    // One commit of about 9 KB of hunks is answered whole, as ADR 13 says; the same change
    // over two commits is a range of more than four files, and starts with its table of
    // contents.
    let lines: String = (0..300)
        .map(|i| format!("    value_{i} = compute({i}, {i} + 1)\n"))
        .collect();
    repo.write("c.py", format!("def big():\n{lines}    return 0\n"));
    for name in ["d", "e", "f"] {
        repo.write(
            &format!("{name}.py"),
            format!("def {name}():\n    return 0\n"),
        );
    }
    repo.commit("big");
    let one = page(&env, &repo.dir, &["diff", "HEAD~1..HEAD"], None);
    assert!(one.get("next").is_none(), "{one}");
    let range = page(&env, &repo.dir, &["diff", "HEAD~2..HEAD"], None);
    assert!(
        range.get("hunks").is_none() && range.get("next").is_some(),
        "{range}"
    );
    assert_eq!(range["api"]["c.py"][0], "added def big()");
    // The same range narrowed to a few files is read for its code: whole when it fits.
    let narrowed = page(
        &env,
        &repo.dir,
        &["diff", "HEAD~2..HEAD", "--", "b.py", "c.py"],
        None,
    );
    assert!(narrowed.get("next").is_none(), "{narrowed}");
    assert!(
        narrowed["hunks"]["c.py"][0]
            .as_str()
            .unwrap()
            .contains("+    value_299 = compute(299, 299 + 1)"),
        "{narrowed}"
    );
}

#[test]
fn no_hunk_label_hides_a_function() {
    let env = TestEnv::new();
    let repo = env.repo("labels");
    repo.write(
        "m.py",
        "def a():\n    return 1\ndef b():\n    return 2\ndef c():\n    return 3\ndef d():\n    return 4\ndef e():\n    return 5\n",
    );
    repo.commit("five");
    repo.write(
        "m.py",
        "def a():\n    return 10\ndef b():\n    return 20\ndef c():\n    return 30\ndef d():\n    return 40\ndef e():\n    return 50\n",
    );
    repo.commit("all five");
    let doc = page(&env, &repo.dir, &["diff", "-U1", "HEAD~1..HEAD"], None);
    let label = doc["hunks"]["m.py"][0]
        .as_str()
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_owned();
    assert_eq!(label, "@@ -1 +1 @@ a, b, c, d, e", "{doc}");
}

#[test]
fn an_answer_without_hunks_names_the_declarations_a_commit_deletes() {
    let env = TestEnv::new();
    let repo = env.repo("declared");
    repo.write(
        "pager.py",
        "class Stream(Protocol):\n    buffer: bytes\n\nclass Wrapper:\n    def write(self, s):\n        return s\n",
    );
    repo.commit("base");
    repo.write(
        "pager.py",
        "class Writer:\n    def write(self, s):\n        return s\n",
    );
    repo.commit("replace the wrapper");
    let doc = page(&env, &repo.dir, &["show", "-s", "HEAD"], None);
    let names = doc["changed"].to_string();
    assert!(
        names.contains("deleted class Stream, class Wrapper"),
        "{doc}"
    );
    assert!(names.contains("added class Writer"), "{doc}");
}

/// Issue 36: `Flask.test_request_context`, whose return type changed, was missing from the
/// interface: its `test` prefix made it a test, though pytest collects `test*` methods only of
/// test classes. A public method re-signed is on the interface, whatever its name.
#[test]
fn a_public_method_named_like_a_test_is_on_the_interface_when_re_signed() {
    let env = TestEnv::new();
    let repo = env.repo("flask");
    let lines: String = (0..300)
        .map(|i| format!("        value_{i} = compute({i}, {i} + 1)\n"))
        .collect();
    let app = |returns: &str| {
        format!(
            "class Flask:\n    def test_request_context(self, *args: t.Any) -> {returns}:\n        return RequestContext(self, *args)\n\n    def run(self) -> None:\n{lines}        return None\n"
        )
    };
    repo.write("src/flask/app.py", app("RequestContext"));
    for name in ["a", "b", "c", "d"] {
        repo.write(&format!("src/flask/{name}.py"), "X = 1\n");
    }
    repo.commit("base");
    repo.write("src/flask/app.py", app("\"RequestContext\""));
    for name in ["a", "b", "c", "d"] {
        repo.write(&format!("src/flask/{name}.py"), "X = 2\n");
    }
    repo.commit("quoted return type");
    // `run` rewritten: more hunks than a table of contents.
    repo.write(
        "src/flask/app.py",
        app("\"RequestContext\"").replace("compute(", "recompute("),
    );
    repo.commit("run recomputes");
    let range = page(&env, &repo.dir, &["diff", "HEAD~2..HEAD"], None);
    assert!(range.get("hunks").is_none(), "{range}");
    assert_eq!(
        range["api"]["src/flask/app.py"],
        serde_json::json!([
            "signature def Flask.test_request_context(self, *args: t.Any) -> \"RequestContext\""
        ]),
        "{range}"
    );
}

/// Issue 36: on tokio's last 95 files the interface missed `Builder::track_task_schedule_latency`,
/// written inside `cfg_unstable! { .. }` in `impl Builder`, and the hunk's label named the macro.
/// Items inside a macro whose body is items are on the interface as if written outside it.
#[test]
fn items_inside_macros_are_on_the_interface() {
    let env = TestEnv::new();
    let repo = env.repo("tokio");
    let builder = |more: &str| {
        format!(
            "pub struct Builder {{\n    latency: bool,\n}}\n\nimpl Builder {{\n    pub fn new() -> Builder {{\n{}        Builder {{ latency: false }}\n    }}\n{more}}}\n",
            body(200)
        )
    };
    let latency = "\n    cfg_unstable! {\n        pub fn track_task_schedule_latency(&mut self) -> &mut Self {\n            self.latency = true;\n            self\n        }\n    }\n";
    repo.write("src/runtime/builder.rs", builder(""));
    for name in ["a", "b", "c", "d"] {
        repo.write(&format!("src/{name}.rs"), "pub fn x() {}\n");
    }
    repo.commit("base");
    repo.write("src/runtime/builder.rs", builder(latency));
    repo.commit("latency");
    // `new` rewritten, and four more files: more hunks than a table of contents.
    repo.write(
        "src/runtime/builder.rs",
        builder(latency).replace("* 2 + 1", "* 3 + 1"),
    );
    for name in ["a", "b", "c", "d"] {
        repo.write(
            &format!("src/{name}.rs"),
            "pub fn x() {}\n\npub fn y() {}\n",
        );
    }
    repo.commit("rewrite");
    let range = page(&env, &repo.dir, &["diff", "HEAD~2..HEAD"], None);
    assert!(range.get("hunks").is_none(), "{range}");
    assert_eq!(
        range["api"]["src/runtime/builder.rs"],
        serde_json::json!([
            "added pub fn Builder::track_task_schedule_latency(&mut self) -> &mut Self"
        ]),
        "{range}"
    );
    // The hunk names the function, not the macro.
    let show = page(&env, &repo.dir, &["show", "HEAD~1"], None);
    let hunks = show["hunks"]["src/runtime/builder.rs"].to_string();
    assert!(
        hunks.contains("@@ added Builder::track_task_schedule_latency\\n"),
        "{show}"
    );
}
