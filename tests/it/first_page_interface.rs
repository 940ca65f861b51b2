//! Issue 36: on ranges of 20-300 files of real Rust, Python and Go histories, every public
//! function the range adds is on the first page of the shim's answer to `git diff A..B` (in
//! its `api`, or on the interface's continuation when page 1 says it continues; or in the
//! hunks of a range answered whole).
//!
//! The oracle is independent of git-prism's analyzers: it reads git's own `-U0` patch of the
//! range for declaration lines added on `+` lines of production files (Rust `pub fn`, Python
//! `def` of a public name at the top of a module or in public classes, Go `func` of an exported
//! name), reading the head side's file only to tell a function's enclosing block by
//! indentation (a `def` in a `def`, a `pub fn` in a `fn`, in `#[cfg(test)] mod tests` or in a
//! `macro_rules!`, are not the interface). A name also declared on a removed line of the same
//! file was there before (re-signed or reformatted), not added.
//!
//! The ranges are of the shared corpus (json, click, cobra), outside the grid `make bench`
//! samples (`HEAD~(k+n)..HEAD~k` with `k` a multiple of 100 below 600 and `n` 5, 20, 50 or
//! 100), so nothing was tuned on them. The figures are printed (`--nocapture`).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use regex::Regex;
use serde_json::Value;

use crate::common::TestEnv;
use crate::corpus::clone;

/// `(bundle, range)`: each of 20-300 files, with public functions added.
const RANGES: &[(&str, &str)] = &[
    ("json", "59d706077d30..85008aa29ca3"),
    ("json", "9d315a1422de..b0549161227f"),
    ("json", "43f6f80b5372..dd857e987518"),
    ("click", "260f50df43ef..22697863f0a2"),
    ("click", "288a00a5b176..770d2591766c"),
    ("click", "c52305064017..72f1f3e20834"),
    ("click", "f1249f837c81..bc9bb70eac0f"),
    ("click", "bda39db618e9..c7299c431933"),
    ("click", "848b664ede2e..398e43c8199d"),
    ("click", "d5e2fbf6774e..277d410e7342"),
    // More than 100 files: the interface may continue on page 2.
    ("click", "61eb5e2b473b..ccba3740b011"),
    ("click", "d5e2fbf6774e..1b3a822a1413"),
    ("cobra", "f06ae19d9634..b620a7591d08"),
    ("cobra", "8e127101ec7a..a082ce41f3c8"),
    ("cobra", "b55fa79836c6..62a72cdd0fa7"),
    ("cobra", "1c9c46d5c1cc..41fd44e1df83"),
    ("cobra", "ef82de70bb3f..80ea2901b62e"),
];

/// A public function a patch adds: its file, name and declaring keyword.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Item {
    file: String,
    name: String,
    keyword: &'static str,
}

/// Whether a path is production code (tests, benches, examples, docs, scripts and fixtures are
/// not), as the table of contents' roles say.
fn production(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let mut parts: Vec<&str> = lower.split('/').collect();
    let name = parts.pop().unwrap_or("");
    let not_code = [
        "test",
        "tests",
        "testing",
        "__tests__",
        "spec",
        "specs",
        "test_utils",
        "bench",
        "benches",
        "benchmarks",
        "example",
        "examples",
        "doc",
        "docs",
        "documentation",
        ".github",
        "ci",
        "scripts",
        "fixtures",
        "testdata",
    ];
    if parts.iter().any(|d| not_code.contains(d)) {
        return false;
    }
    let stem = name.split('.').next().unwrap_or(name);
    !(name.starts_with("test_")
        || name.ends_with("_test.py")
        || name == "conftest.py"
        || name.ends_with("_test.go")
        || matches!(stem, "tests" | "test" | "build")
        || stem.ends_with("_tests")
        || stem.ends_with("_test"))
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

/// Whether a Python `def` at `at` (0-based, indented `depth`) of the head file is public: its
/// name, and every block it is in up to the module, a public class (not a function).
fn python_public(lines: &[&str], at: usize, depth: usize, name: &str) -> bool {
    let special = name.starts_with("__") && name.ends_with("__");
    if name.starts_with('_') && !special {
        return false;
    }
    let class = Regex::new(r"^class\s+(\w+)").unwrap();
    let def = Regex::new(r"^(async\s+)?def\s").unwrap();
    let mut want = depth;
    for line in lines[..at.min(lines.len())].iter().rev() {
        let text = line.trim();
        if want == 0 {
            break;
        }
        if text.is_empty() || text.starts_with(['#', '@', ')', ']', '}']) || indent(line) >= want {
            continue;
        }
        if let Some(c) = class.captures(text) {
            if c[1].starts_with('_') {
                return false;
            }
        } else if def.is_match(text) {
            return false;
        }
        want = indent(line);
    }
    true
}

/// Whether a Rust `pub fn` at `at` (0-based, indented `depth`) of the head file is on the
/// interface: not in a function, a test module or a `macro_rules!`.
fn rust_public(lines: &[&str], at: usize, depth: usize) -> bool {
    let function = Regex::new(r"^(pub(\([^)]*\))?\s+)?((const|async|unsafe)\s+)*fn\s").unwrap();
    let module = Regex::new(r"^(pub(\([^)]*\))?\s+)?mod\s+(\w+)").unwrap();
    let test_attribute = Regex::new(r"cfg\(.*\btest\b").unwrap();
    let mut want = depth;
    for i in (0..at.min(lines.len())).rev() {
        let (line, text) = (lines[i], lines[i].trim());
        if want == 0 {
            break;
        }
        if text.is_empty()
            || text.starts_with("//")
            || text.starts_with("#[")
            || text.starts_with('}')
            || indent(line) >= want
        {
            continue;
        }
        if function.is_match(text) || text.contains("macro_rules!") {
            return false;
        }
        if let Some(m) = module.captures(text) {
            let attributes: String = lines[..i]
                .iter()
                .rev()
                .take_while(|l| l.trim().starts_with("#[") || l.trim().starts_with("//"))
                .copied()
                .collect();
            if matches!(&m[3], "tests" | "test") || test_attribute.is_match(&attributes) {
                return false;
            }
        }
        want = indent(line);
    }
    true
}

/// The public functions git's `-U0` patch of `a..b` adds to production files.
fn added_public(env: &TestEnv, dir: &Path, a: &str, b: &str) -> Vec<Item> {
    let git = |args: &[&str]| -> String {
        let out = env.plain_git(args).current_dir(dir).output().unwrap();
        assert!(out.status.success(), "git {args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let rust = Regex::new(
        r#"^(\s*)pub\s+(?:(?:const|async|unsafe|extern\s+"[^"]*")\s+)*fn\s+([A-Za-z_]\w*)"#,
    )
    .unwrap();
    let python = Regex::new(r"^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(").unwrap();
    let go = Regex::new(r"^()func\s+(?:\([^)]*\)\s*)?([A-Z]\w*)\s*[\[(]").unwrap();
    let hunk = Regex::new(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@").unwrap();
    let patch = git(&["diff", "-U0", "-M", a, b]);
    let mut heads: HashMap<String, String> = HashMap::new();
    // (added, item, the line without spaces)
    let mut found: Vec<(bool, Item, String)> = Vec::new();
    let mut path: Option<String> = None;
    let mut new_line = 0usize;
    for line in patch.lines() {
        if let Some(p) = line.strip_prefix("+++ ") {
            path = p.strip_prefix("b/").map(str::to_owned);
            continue;
        }
        if line.starts_with("--- ") {
            continue;
        }
        if let Some(c) = hunk.captures(line) {
            new_line = c[1].parse().unwrap();
            continue;
        }
        let (added, text) = match line.as_bytes().first() {
            Some(b'+') => (true, &line[1..]),
            Some(b'-') => (false, &line[1..]),
            _ => continue,
        };
        let at = new_line;
        if added {
            new_line += 1;
        }
        let Some(file) = path.as_deref().filter(|p| production(p)) else {
            continue;
        };
        let ext = file.rsplit('.').next().unwrap_or("");
        let (re, keyword) = match ext {
            "rs" if !text.contains('$') => (&rust, "fn"),
            "py" => (&python, "def"),
            "go" => (&go, "func"),
            _ => continue,
        };
        let Some(c) = re.captures(text) else { continue };
        let (depth, name) = (c[1].len(), c[2].to_owned());
        if added && ext != "go" {
            let head = heads
                .entry(file.to_owned())
                .or_insert_with(|| git(&["show", &format!("{b}:{file}")]));
            let lines: Vec<&str> = head.lines().collect();
            let public = if ext == "py" {
                python_public(&lines, at - 1, depth, &name)
            } else {
                rust_public(&lines, at - 1, depth)
            };
            if !public {
                continue;
            }
        }
        let bare: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let item = Item {
            file: file.to_owned(),
            name,
            keyword,
        };
        found.push((added, item, bare));
    }
    // A line on both sides (moved, or only re-indented) declares nothing new.
    let mut gone = vec![false; found.len()];
    for i in 0..found.len() {
        if gone[i] || !found[i].0 {
            continue;
        }
        if let Some(j) =
            (0..found.len()).find(|&j| !gone[j] && !found[j].0 && found[j].2 == found[i].2)
        {
            gone[i] = true;
            gone[j] = true;
        }
    }
    // A name declared on a removed line of the file was there before.
    let removed: HashSet<&Item> = found
        .iter()
        .zip(&gone)
        .filter(|((added, _, _), gone)| !added && !**gone)
        .map(|((_, item, _), _)| item)
        .collect();
    let mut out: Vec<Item> = Vec::new();
    for ((added, item, _), gone) in found.iter().zip(&gone) {
        if *added && !gone && !removed.contains(item) && !out.contains(item) {
            out.push(item.clone());
        }
    }
    out
}

/// The shim's answer to an agent's `git diff <range>`, at `cursor` when given.
fn answer(env: &TestEnv, dir: &Path, range: &str, cursor: Option<&str>) -> Value {
    let mut cmd = env.shim_git(&["diff", range]);
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
        "git diff {range} was not answered: {stderr}"
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Where a page names the interface: its `api`, or the whole answer when the range is
/// answered whole (its hunks hold every changed line).
fn interface_text(doc: &Value) -> String {
    match doc.get("api") {
        Some(api) => api.to_string(),
        None if doc.get("next").is_none() => doc.to_string(),
        None => String::new(),
    }
}

/// Whether one string of `text` names the item after its keyword (`pub fn Map::get(`, `def
/// Flask.run(`, `func (c *Command) Run(`), or, in a shape, the member then `keyword name`.
fn holds(text: &str, item: &Item) -> bool {
    let word = |s: &str, at: usize, len: usize| {
        !s[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !s[at + len..]
                .chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
    };
    text.split('"').any(|s| {
        let mut from = 0;
        while let Some(found) = s[from..].find(&item.name) {
            let at = from + found;
            if word(s, at, item.name.len()) {
                let before = &s[..at];
                if before
                    .rfind(item.keyword)
                    .is_some_and(|k| word(before, k, item.keyword.len()))
                    || s[at..].contains(&format!("{} {}", item.keyword, item.name))
                {
                    return true;
                }
            }
            from = at + item.name.len();
        }
        false
    })
}

#[test]
fn every_public_function_a_real_range_adds_is_on_page_one() {
    let env = TestEnv::new();
    let mut clones: HashMap<&str, std::path::PathBuf> = HashMap::new();
    let mut totals: HashMap<&str, (usize, usize, usize)> = HashMap::new();
    for &(bundle, range) in RANGES {
        let dir = match clones.get(bundle) {
            Some(dir) => dir.clone(),
            None => {
                let Some(repo) = clone(&env, bundle) else {
                    return;
                };
                clones.insert(bundle, repo.dir.clone());
                repo.dir
            }
        };
        let (a, b) = range.split_once("..").unwrap();
        let files = env
            .plain_git(&["diff", "--name-only", a, b])
            .current_dir(&dir)
            .output()
            .unwrap()
            .stdout
            .split(|c| *c == b'\n')
            .filter(|l| !l.is_empty())
            .count();
        assert!(
            (20..=300).contains(&files),
            "{bundle} {range}: {files} files"
        );
        let items = added_public(&env, &dir, a, b);
        assert!(
            !items.is_empty(),
            "{bundle} {range}: no public function added"
        );
        let first = answer(&env, &dir, range, None);
        let mut text = interface_text(&first);
        let continues = first["cut"]
            .to_string()
            .contains("the interface, continued");
        if continues {
            let next = first["next"].as_str().unwrap();
            let cursor = next
                .strip_prefix("GIT_PRISM_CURSOR=")
                .and_then(|n| n.split_once(' '))
                .unwrap()
                .0;
            text.push_str(&interface_text(&answer(&env, &dir, range, Some(cursor))));
        }
        let missing: Vec<&Item> = items.iter().filter(|i| !holds(&text, i)).collect();
        eprintln!(
            "{bundle} {range}: {files} files, {} public functions added, {} missing{}",
            items.len(),
            missing.len(),
            if continues {
                " (interface continued)"
            } else {
                ""
            }
        );
        assert!(missing.is_empty(), "{bundle} {range}: missing {missing:?}");
        let total = totals.entry(bundle).or_default();
        total.0 += 1;
        total.1 += items.len();
        total.2 += missing.len();
    }
    for (bundle, (ranges, items, missing)) in &totals {
        eprintln!("{bundle}: {ranges} ranges, {items} public functions added, {missing} missing");
    }
}

/// The oracle itself: what it counts as added to the interface, and how it reads a page.
#[test]
fn the_oracle_finds_the_public_functions_a_patch_adds() {
    let env = TestEnv::new();
    let repo = env.repo("mixed");
    repo.write("src/lib.rs", "pub fn kept() {}\n")
        .write("pkg/app.py", "def kept():\n    pass\n")
        .write("cmd/run.go", "package cmd\n\nfunc Kept() {}\n");
    let base = repo.commit("base");
    repo.write(
        "src/lib.rs",
        "pub fn kept(x: u8) {}\n\ncfg_rt! {\n    pub fn spawn() {}\n}\n\nfn outer() {\n    pub fn nested() {}\n}\n\nmacro_rules! m {\n    ($n:ident) => {\n        pub fn $n() {}\n    };\n}\n\n#[cfg(test)]\nmod tests {\n    pub fn helper() {}\n}\n",
    )
    .write(
        "pkg/app.py",
        "def kept(x):\n    pass\n\n\nclass App:\n    def run(self):\n        def inner():\n            pass\n\n    def _private(self):\n        pass\n\n\nclass _Hidden:\n    def shown(self):\n        pass\n",
    )
    .write(
        "cmd/run.go",
        "package cmd\n\nfunc Kept(x int) {}\n\nfunc (c *Command) Execute() error { return nil }\n\nfunc helper() {}\n",
    )
    .write("tests/it.rs", "pub fn fixture() {}\n");
    let head = repo.commit("more");
    let mut items: Vec<String> = added_public(&env, &repo.dir, &base, &head)
        .into_iter()
        .map(|i| format!("{} {} {}", i.file, i.keyword, i.name))
        .collect();
    items.sort();
    assert_eq!(
        items,
        [
            "cmd/run.go func Execute",
            "pkg/app.py def run",
            "src/lib.rs fn spawn"
        ]
    );
    let item = |name: &str, keyword: &'static str| Item {
        file: String::new(),
        name: name.to_owned(),
        keyword,
    };
    let api = r#"{"src/lib.rs":["added pub fn spawn()","added get, len on A, B: pub fn get(&self); pub fn len(&self)"]}"#;
    assert!(holds(api, &item("spawn", "fn")));
    assert!(holds(api, &item("len", "fn")));
    assert!(!holds(api, &item("spawned", "fn")));
    assert!(!holds(api, &item("bind", "fn")));
}
