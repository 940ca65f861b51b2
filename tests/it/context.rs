//! Function context on fixture repositories with known call graphs: the exact callers of each
//! changed function (same-named functions in other modules, methods, aliased, relative and
//! glob imports, re-exports, tests calling production code) and the risk grade.

use std::path::Path;

use serde_json::Value;

use crate::common::TestEnv;

fn run(env: &TestEnv, dir: &Path, command: &str, args: &[&str]) -> Value {
    let out = env
        .command(crate::common::bin(), &env.plain_path())
        .arg(command)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git-prism {command} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn context(env: &TestEnv, dir: &Path, args: &[&str]) -> Value {
    run(env, dir, "context", args)
}

/// The entry for `name` in `file`.
fn entry<'a>(doc: &'a Value, file: &str, name: &str) -> &'a Value {
    doc["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"] == file && f["name"] == name)
        .unwrap_or_else(|| panic!("no {file} {name} in {doc:#}"))
}

/// Callers as `file:line caller [test] [candidate]`.
fn callers(f: &Value) -> Vec<String> {
    f["callers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let mut s = format!(
                "{}:{} {}",
                c["file"].as_str().unwrap(),
                c["line"],
                c["caller"].as_str().unwrap_or("-")
            );
            if c["is_test"] == true {
                s.push_str(" test");
            }
            if c["candidate"] == true {
                s.push_str(" candidate");
            }
            s
        })
        .collect()
}

fn radius(f: &Value) -> (u64, u64, u64, &str) {
    let b = &f["blast_radius"];
    (
        b["production_callers"].as_u64().unwrap(),
        b["test_callers"].as_u64().unwrap(),
        b["candidate_callers"].as_u64().unwrap_or(0),
        b["risk"].as_str().unwrap(),
    )
}

const CARGO: &str = "[package]\nname = \"shop-core\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";

const LIB: &str =
    "pub mod cart;\npub mod price;\npub mod report;\npub mod util;\n\npub use cart::Cart;\n";

const PRICE: &str = "\
pub fn total(items: &[u32]) -> u32 {
    items.iter().sum()
}

pub fn new() -> u32 {
    0
}
";

const UTIL: &str = "\
pub fn new() -> u32 {
    1
}

pub fn helper() -> u32 {
    crate::price::total(&[1])
}
";

const CART: &str = "\
use crate::price::{self, total as sum};

pub struct Cart {
    items: Vec<u32>,
}

impl Cart {
    pub fn new() -> Cart {
        Cart { items: Vec::new() }
    }

    pub fn value(&self) -> u32 {
        sum(&self.items) + price::new()
    }

    pub fn refresh(&mut self) -> u32 {
        self.value()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_of_empty() {
        assert_eq!(Cart::new().value(), 0);
    }
}
";

const REPORT: &str = "\
use crate::cart::Cart;
use crate::util;

pub fn build() -> u32 {
    util::new() + util::helper()
}

pub fn fresh() -> Cart {
    Cart::new()
}

pub fn summarize(c: &Cart) -> u32 {
    c.value()
}
";

const INTEGRATION: &str = "\
use shop_core::price::total;
use shop_core::Cart;

#[test]
fn totals() {
    assert_eq!(total(&[1, 2]), 3);
    let _ = Cart::new();
}
";

/// A Rust crate, then one commit changing `price::total`, `util::new`, `Cart::new` and
/// `Cart::value` (bodies only).
fn rust_fixture(env: &TestEnv) -> crate::common::Repo<'_> {
    let repo = env.repo("shop");
    repo.write("Cargo.toml", CARGO)
        .write("src/lib.rs", LIB)
        .write("src/price.rs", PRICE)
        .write("src/util.rs", UTIL)
        .write("src/cart.rs", CART)
        .write("src/report.rs", REPORT)
        .write("tests/integration.rs", INTEGRATION);
    repo.commit("shop");
    repo.write(
        "src/price.rs",
        PRICE.replace("items.iter().sum()", "items.iter().copied().sum()"),
    )
    .write("src/util.rs", UTIL.replace("    1\n", "    2\n"))
    .write(
        "src/cart.rs",
        CART.replace("Cart { items: Vec::new() }", "Cart { items: vec![] }")
            .replace(
                "sum(&self.items) + price::new()",
                "price::new() + sum(&self.items)",
            ),
    );
    repo.commit("change");
    repo
}

#[test]
fn rust_callers_are_scoped_by_imports() {
    let env = TestEnv::new();
    let repo = rust_fixture(&env);
    let doc = context(&env, &repo.dir, &["HEAD~1..HEAD"]);
    assert_eq!(doc["summary"]["functions"], 4, "{doc:#}");

    // Through `crate::` paths, an alias (`total as sum`) and a test crate's `use shop_core::`.
    let total = entry(&doc, "src/price.rs", "total");
    assert_eq!(total["scoping"], "scoped");
    assert_eq!(
        callers(total),
        [
            "src/cart.rs:13 Cart::value",
            "src/util.rs:6 helper",
            "tests/integration.rs:6 totals test",
        ]
    );
    assert_eq!(radius(total), (2, 1, 0, "low"));
    assert_eq!(total["test_references"][0]["function"], "totals");

    // `util::new` is not `price::new` nor `Cart::new`.
    let new = entry(&doc, "src/util.rs", "new");
    assert_eq!(callers(new), ["src/report.rs:5 build"]);
    assert_eq!(radius(new), (1, 0, 0, "medium"));

    // A glob import in a test module and a re-export at the crate root.
    let cart_new = entry(&doc, "src/cart.rs", "Cart::new");
    assert_eq!(
        callers(cart_new),
        [
            "src/cart.rs:27 tests::value_of_empty test",
            "src/report.rs:9 fresh",
            "tests/integration.rs:7 totals test",
        ]
    );
    assert_eq!(radius(cart_new), (1, 2, 0, "low"));

    // `self.value()` is certain; `c.value()` is a candidate; `Cart::new().value()` in the
    // file's own test module is the file's (issue 36: it was a candidate, and `Cart::value`
    // untested).
    let value = entry(&doc, "src/cart.rs", "Cart::value");
    assert_eq!(
        callers(value),
        [
            "src/cart.rs:17 Cart::refresh",
            "src/cart.rs:27 tests::value_of_empty test",
            "src/report.rs:13 summarize candidate",
        ]
    );
    assert_eq!(radius(value), (1, 1, 1, "low"));
    let callees: Vec<(String, Option<String>)> = value["callees"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["callee"].as_str().unwrap().to_owned(),
                c["resolved_file"].as_str().map(str::to_owned),
            )
        })
        .collect();
    assert_eq!(
        callees,
        [
            ("price::new".to_owned(), Some("src/price.rs".to_owned())),
            ("sum".to_owned(), Some("src/price.rs".to_owned())),
        ]
    );
}

#[test]
fn names_can_be_asked_for_and_unknown_names_are_reported() {
    let env = TestEnv::new();
    let repo = rust_fixture(&env);
    let doc = context(
        &env,
        &repo.dir,
        &[
            "--function-names",
            "helper,total,no_such_fn",
            "HEAD~1..HEAD",
        ],
    );
    let names: Vec<&str> = doc["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{doc:#}");
    assert!(names.contains(&"helper") && names.contains(&"total"));
    let helper = entry(&doc, "src/util.rs", "helper");
    assert_eq!(helper["change_type"], "unchanged");
    assert_eq!(callers(helper), ["src/report.rs:5 build"]);
    assert_eq!(
        doc["summary"]["not_found"],
        serde_json::json!(["no_such_fn"])
    );
}

#[test]
fn a_deleted_function_with_callers_left_is_high_risk() {
    let env = TestEnv::new();
    let repo = rust_fixture(&env);
    repo.write("src/util.rs", "pub fn new() -> u32 {\n    2\n}\n");
    repo.commit("drop helper");
    let doc = context(&env, &repo.dir, &["HEAD~1..HEAD"]);
    let helper = entry(&doc, "src/util.rs", "helper");
    assert_eq!(helper["change_type"], "deleted");
    assert_eq!(callers(helper), ["src/report.rs:5 build"]);
    assert_eq!(radius(helper), (1, 0, 0, "high"));
    // What it called, read from the base side.
    assert_eq!(helper["callees"][0]["callee"], "crate::price::total");
    assert_eq!(helper["callees"][0]["resolved_file"], "src/price.rs");
}

const CORE_PY: &str = "\
def load(path):
    return open(path).read()


def new():
    return 1


class Store:
    def save(self, x):
        return self._write(x)

    def _write(self, x):
        return x
";

const OTHER_PY: &str = "\
def new():
    return 2


def load():
    return None
";

const APP_PY: &str = "\
from pkg.core import load as read_config, Store
from . import other
import pkg.core


def main():
    cfg = read_config(\"x\")
    other.new()
    pkg.core.new()
    s = Store()
    s.save(cfg)


def reload():
    from pkg.other import load
    return load()
";

const TEST_PY: &str = "\
from pkg import load
from pkg.core import Store


def test_load(tmp_path):
    assert load(tmp_path) is not None


class TestStore:
    def test_save(self):
        Store().save(1)
";

fn python_fixture(env: &TestEnv) -> crate::common::Repo<'_> {
    let repo = env.repo("py");
    repo.write("pkg/__init__.py", "from .core import load\n")
        .write("pkg/core.py", CORE_PY)
        .write("pkg/other.py", OTHER_PY)
        .write("pkg/app.py", APP_PY)
        .write("tests/test_core.py", TEST_PY);
    repo.commit("py");
    repo.write(
        "pkg/core.py",
        CORE_PY
            .replace("open(path).read()", "open(path).read().strip()")
            .replace("return self._write(x)", "return self._write(x) or x"),
    )
    .write("pkg/other.py", OTHER_PY.replace("return 2", "return 3"));
    repo.commit("change");
    repo
}

#[test]
fn python_callers_are_scoped_by_imports() {
    let env = TestEnv::new();
    let repo = python_fixture(&env);
    let doc = context(&env, &repo.dir, &["HEAD~1..HEAD"]);
    assert_eq!(doc["summary"]["functions"], 3, "{doc:#}");

    // An aliased import, and a re-export through the package's `__init__`; `reload` calls
    // `pkg.other.load`, not this one.
    let load = entry(&doc, "pkg/core.py", "load");
    assert_eq!(
        callers(load),
        ["pkg/app.py:7 main", "tests/test_core.py:6 test_load test"]
    );
    assert_eq!(radius(load), (1, 1, 0, "low"));

    // A relative import; `pkg.core.new()` is the other `new`.
    let new = entry(&doc, "pkg/other.py", "new");
    assert_eq!(callers(new), ["pkg/app.py:8 main"]);
    assert_eq!(radius(new), (1, 0, 0, "medium"));

    // Methods on values of unknown type are candidates; `self._write` resolves.
    let save = entry(&doc, "pkg/core.py", "Store.save");
    assert_eq!(
        callers(save),
        [
            "pkg/app.py:11 main candidate",
            "tests/test_core.py:11 TestStore.test_save test candidate",
        ]
    );
    assert_eq!(radius(save), (0, 0, 2, "low"));
    assert_eq!(save["callees"][0]["callee"], "self._write");
    assert_eq!(save["callees"][0]["resolved_file"], "pkg/core.py");
}

#[test]
fn pages_budgets_and_stale_cursors() {
    let env = TestEnv::new();
    let repo = rust_fixture(&env);
    let full = context(&env, &repo.dir, &["HEAD~1..HEAD"]);
    let all: Vec<String> = full["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{} {}", f["file"], f["name"]))
        .collect();
    // Riskiest first.
    let risks: Vec<&str> = full["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["blast_radius"]["risk"].as_str().unwrap())
        .collect();
    assert_eq!(risks, ["medium", "low", "low", "low"]);
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut args = vec!["--page-size", "1"];
        if let Some(c) = &cursor {
            args.extend(["--cursor", c.as_str()]);
        }
        args.push("HEAD~1..HEAD");
        let page = context(&env, &repo.dir, &args);
        assert_eq!(page["summary"]["functions"], 4);
        for f in page["functions"].as_array().unwrap() {
            seen.push(format!("{} {}", f["file"], f["name"]));
        }
        match page["pagination"]["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    assert_eq!(seen, all);

    // A small budget shortens lists, then moves functions to the next page, and says so.
    let small = context(&env, &repo.dir, &["--max-tokens", "500", "HEAD~1..HEAD"]);
    let cut = small["truncated"]["cut"].as_array().unwrap();
    assert!(!cut.is_empty(), "{small:#}");
    assert!(
        serde_json::to_string(&small).unwrap().len() <= 500 * 3
            || small["functions"].as_array().unwrap().len() == 1
    );
    assert!(
        small["truncated"]["next_page"]
            .as_str()
            .unwrap()
            .starts_with("git-prism context --max-tokens 500 --cursor ")
    );

    // The branch moves: the old cursor is refused.
    let first = context(&env, &repo.dir, &["--page-size", "1", "HEAD~1..HEAD"]);
    let stale = first["pagination"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    repo.write("src/util.rs", UTIL.replace("    1\n", "    4\n"));
    repo.commit("again");
    let out = env
        .command(crate::common::bin(), &env.plain_path())
        .args([
            "context",
            "--page-size",
            "1",
            "--cursor",
            &stale,
            "HEAD~1..HEAD",
        ])
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("stale cursor"));
}

#[test]
fn review_holds_manifest_and_context_with_one_budget_and_two_cursors() {
    let env = TestEnv::new();
    let repo = rust_fixture(&env);
    let doc = run(&env, &repo.dir, "review", &["HEAD~1..HEAD"]);
    assert_eq!(doc["manifest"]["summary"]["files_changed"], 3, "{doc:#}");
    assert_eq!(doc["context"]["summary"]["functions"], 4);
    let small = run(
        &env,
        &repo.dir,
        "review",
        &["--max-tokens", "1500", "--page-size", "2", "HEAD~1..HEAD"],
    );
    let len = serde_json::to_string(&small).unwrap().len();
    assert!(len <= 1500 * 3, "{len} bytes: {small:#}");
    let next = small["context"]["pagination"]["next_cursor"]
        .as_str()
        .unwrap();
    let second = run(
        &env,
        &repo.dir,
        "review",
        &["--page-size", "2", "--context-cursor", next, "HEAD~1..HEAD"],
    );
    // The manifest part starts over; the context part continues.
    assert_eq!(second["manifest"]["pagination"]["offset"], 0);
    assert_eq!(second["context"]["pagination"]["offset"], 2);
}

#[test]
fn working_tree_and_index_from_a_subdirectory() {
    let env = TestEnv::new();
    let repo = rust_fixture(&env);
    // An uncommitted change to `util::helper`, asked about from `src/`.
    repo.write("src/util.rs", UTIL.replace("&[1]", "&[1, 2]"));
    let sub = repo.dir.join("src");
    let worktree = context(&env, &sub, &["HEAD"]);
    let helper = entry(&worktree, "src/util.rs", "helper");
    assert_eq!(helper["change_type"], "modified");
    assert_eq!(callers(helper), ["src/report.rs:5 build"]);
    // Staged, it is the index's change.
    repo.git(&["add", "src/util.rs"]);
    let staged = context(&env, &sub, &["--cached"]);
    assert_eq!(
        callers(entry(&staged, "src/util.rs", "helper")),
        ["src/report.rs:5 build"]
    );
    assert_eq!(staged["summary"]["files_in_scope"], 6);
}

/// Head-side files whose names are not UTF-8 used to be left out of the search, so their
/// calls were never callers; they are read by their bytes (from a blob or the working tree) and
/// named lossily in the answer.
#[test]
fn callers_in_files_whose_names_are_not_utf8_are_found() {
    let env = TestEnv::new();
    let repo = env.repo("bytes");
    repo.write("util.py", "def helper():\n    return 1\n")
        .write_bytes_path(
            b"caller_\xff.py",
            "from util import helper\n\n\ndef use():\n    return helper()\n",
        );
    repo.commit("one");
    repo.write("util.py", "def helper():\n    return 2\n");
    let expected = ["caller_\u{fffd}.py:5 use".to_owned()];
    // The working tree: the caller is read from disk by its bytes.
    let doc = context(&env, &repo.dir, &[]);
    assert_eq!(
        callers(entry(&doc, "util.py", "helper")),
        expected,
        "{doc:#}"
    );
    // A commit: the caller is read from its blob.
    repo.commit("two");
    let doc = context(&env, &repo.dir, &["HEAD~1..HEAD"]);
    assert_eq!(
        callers(entry(&doc, "util.py", "helper")),
        expected,
        "{doc:#}"
    );
}

// A cached analysis stood for a file only through its calls and imports: a function defined in
// a cached file and called nowhere was `not_found` once a manifest had filled the cache.
#[test]
fn a_named_function_is_found_whatever_the_cache_holds() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    repo.write(
        "src/lib.rs",
        "pub fn lonely() -> u32 {\n    1\n}\n\npub fn changed() -> u32 {\n    1\n}\n",
    );
    repo.commit("one");
    repo.write(
        "src/lib.rs",
        "pub fn lonely() -> u32 {\n    1\n}\n\npub fn changed() -> u32 {\n    2\n}\n",
    );
    repo.commit("two");
    for _ in 0..2 {
        run(&env, &repo.dir, "manifest", &["HEAD~1..HEAD"]);
        let doc = context(
            &env,
            &repo.dir,
            &["HEAD~1..HEAD", "--function-names", "lonely"],
        );
        let f = entry(&doc, "src/lib.rs", "lonely");
        assert_eq!(f["change_type"], "unchanged", "{doc:#}");
        assert!(doc.get("not_found").is_none(), "{doc:#}");
    }
}

// Absolute imports of a package below the top of the repository (`proj/src/lib/...` imported
// as `lib.sessions`) were never resolved: only a leading `src` was dropped.
#[test]
fn python_packages_below_the_top_are_imported_by_their_package_path() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    repo.write("proj/src/lib/__init__.py", "")
        .write("proj/src/lib/sessions.py", "def hf(x):\n    return x\n")
        .write(
            "proj/tests/test_h.py",
            "from lib.sessions import hf\n\n\ndef test_hf():\n    assert hf(1) == 1\n",
        )
        .write(
            "python/requests/src/requests/utils.py",
            "def quote(x):\n    return x\n",
        )
        .write(
            "python/requests/src/requests/models.py",
            "from requests.utils import quote\n\n\ndef prepare(u):\n    return quote(u)\n",
        );
    repo.commit("one");
    repo.write("proj/src/lib/sessions.py", "def hf(x):\n    return x + 0\n")
        .write(
            "python/requests/src/requests/utils.py",
            "def quote(x):\n    return str(x)\n",
        );
    repo.commit("two");
    let doc = context(&env, &repo.dir, &["HEAD~1..HEAD"]);
    assert_eq!(
        callers(entry(&doc, "proj/src/lib/sessions.py", "hf")),
        ["proj/tests/test_h.py:5 test_hf test"]
    );
    assert_eq!(
        callers(entry(
            &doc,
            "python/requests/src/requests/utils.py",
            "quote"
        )),
        ["python/requests/src/requests/models.py:5 prepare"]
    );
}

// A method call on an unknown receiver in a file that imports the defining module itself
// (`from . import sessions`, `import pkg.sessions`) was dropped instead of listed as a
// candidate.
#[test]
fn a_file_importing_the_module_may_call_its_methods() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    let session =
        |body: &str| format!("class Session:\n    def request(self, m):\n        return {body}\n");
    repo.write("pkg/__init__.py", "")
        .write("pkg/sessions.py", session("m"))
        .write(
            "pkg/api.py",
            "from . import sessions\n\n\ndef get(m):\n    s = sessions.Session()\n    return s.request(m)\n",
        )
        .write(
            "pkg/api3.py",
            "import pkg.sessions\n\n\ndef get3(m):\n    s = pkg.sessions.Session()\n    return s.request(m)\n",
        )
        .write(
            "pkg/other.py",
            "def unrelated(x):\n    return x.request(1)\n",
        );
    repo.commit("one");
    repo.write("pkg/sessions.py", session("m + 1"));
    repo.commit("two");
    let doc = context(&env, &repo.dir, &["HEAD~1..HEAD"]);
    assert_eq!(
        callers(entry(&doc, "pkg/sessions.py", "Session.request")),
        ["pkg/api.py:6 get candidate", "pkg/api3.py:6 get3 candidate"]
    );
}

#[test]
fn ruby_callers_are_scoped_by_constants_and_requires() {
    let env = TestEnv::new();
    let repo = env.repo("rb");
    let cart = "module Shop\n  class Cart\n    def self.build(items)\n      new(items)\n    end\n\n    def total\n      1\n    end\n\n    def report\n      self.total + 1\n    end\n  end\nend\n";
    repo.write("lib/shop/cart.rb", cart)
        .write(
            "lib/shop/order.rb",
            "module Shop\n  class Order\n    def total\n      2\n    end\n\n    def place\n      Cart.build([])\n    end\n  end\nend\n",
        )
        .write(
            "lib/app.rb",
            "require_relative \"shop/cart\"\n\ndef checkout(cart)\n  cart.total\nend\n\ndef start\n  Shop::Cart.build([1])\nend\n",
        )
        .write(
            "lib/other.rb",
            "def sum(x)\n  x.total\nend\n\ndef make\n  Shop::Order.build\nend\n",
        );
    repo.commit("rb");
    repo.write(
        "lib/shop/cart.rb",
        cart.replace("new(items)", "new(items.compact)")
            .replace("      1\n", "      3\n"),
    );
    repo.commit("change");
    let doc = context(&env, &repo.dir, &["HEAD~1..HEAD"]);
    // A constant path names the singleton method from inside the module (`Cart.build`) and
    // from outside it (`Shop::Cart.build`); `Shop::Order.build` is another method.
    let build = entry(&doc, "lib/shop/cart.rb", "Shop::Cart.build");
    assert_eq!(build["scoping"], "scoped");
    assert_eq!(
        callers(build),
        [
            "lib/app.rb:8 start",
            "lib/shop/order.rb:8 Shop::Order#place"
        ]
    );
    // `self.total` resolves to the class's own method (a bare `total`, with neither arguments
    // nor parentheses, reads as a local variable and is no call); `cart.total` is a candidate
    // only in the file that requires the class's file.
    let total = entry(&doc, "lib/shop/cart.rb", "Shop::Cart#total");
    assert_eq!(
        callers(total),
        [
            "lib/app.rb:4 checkout candidate",
            "lib/shop/cart.rb:12 Shop::Cart#report"
        ]
    );
}

#[test]
fn php_callers_are_scoped_by_namespaces_and_use() {
    let env = TestEnv::new();
    let repo = env.repo("php");
    let route = "<?php\nnamespace App\\Routing;\n\nclass Route\n{\n    public static function create(): self\n    {\n        return new self();\n    }\n\n    public function run(): int\n    {\n        return 1;\n    }\n\n    public function twice(): int\n    {\n        return $this->run() * 2;\n    }\n}\n";
    repo.write("src/Routing/Route.php", route)
        .write(
            "src/Routing/Group.php",
            "<?php\nnamespace App\\Routing;\n\nclass Group\n{\n    public static function create(): self\n    {\n        return new self();\n    }\n\n    public function add(): Route\n    {\n        return Route::create();\n    }\n}\n",
        )
        .write(
            "src/App.php",
            "<?php\nnamespace App;\n\nuse App\\Routing\\Route;\n\nclass App\n{\n    public function boot(Route $r): int\n    {\n        Route::create();\n        return $r->run();\n    }\n}\n",
        )
        .write(
            "src/Other.php",
            "<?php\nnamespace App;\n\nclass Other\n{\n    public function go($x): int\n    {\n        Group::create();\n        return $x->run();\n    }\n}\n",
        );
    repo.commit("php");
    repo.write(
        "src/Routing/Route.php",
        route
            .replace("new self()", "new static()")
            .replace("return 1;", "return 2;"),
    );
    repo.commit("change");
    let doc = context(&env, &repo.dir, &["HEAD~1..HEAD"]);
    // Through `use`, and by name in the same namespace; `Group::create` is another method.
    let create = entry(&doc, "src/Routing/Route.php", "Route::create");
    assert_eq!(create["scoping"], "scoped");
    assert_eq!(
        callers(create),
        [
            "src/App.php:10 App::boot",
            "src/Routing/Group.php:13 Group::add"
        ]
    );
    // `$this->run()` in the class; `$r->run()` a candidate in the file that uses `Route`,
    // `$x->run()` none in a file that does not.
    let run = entry(&doc, "src/Routing/Route.php", "Route::run");
    assert_eq!(
        callers(run),
        [
            "src/App.php:11 App::boot candidate",
            "src/Routing/Route.php:18 Route::twice"
        ]
    );
}

/// Issue 36: ripgrep's `TypesBuilder::build` read as untested, though its file's
/// `#[cfg(test)] mod tests` calls it, in a `macro_rules!` that writes the tests (no function
/// around the call) and on a value whose type is not known (`btypes.build()`). A test
/// module's calls are tests, function or not, and in the definition's own file they are the
/// file's.
#[test]
fn a_test_module_calls_count_as_tests_in_and_out_of_functions() {
    let env = TestEnv::new();
    let repo = env.repo("ignore");
    let types = |result: &str| {
        format!(
            "pub struct TypesBuilder {{\n    defs: Vec<u32>,\n}}\n\nimpl TypesBuilder {{\n    pub fn new() -> TypesBuilder {{\n        TypesBuilder {{ defs: vec![] }}\n    }}\n\n    pub fn build(&self) -> Result<u32, ()> {{\n        {result}\n    }}\n}}\n\n#[cfg(test)]\nmod tests {{\n    use super::TypesBuilder;\n\n    macro_rules! matched {{\n        ($name:ident, $n:expr) => {{\n            #[test]\n            fn $name() {{\n                let btypes = TypesBuilder::new();\n                assert_eq!(btypes.build(), Ok($n));\n            }}\n        }};\n    }}\n\n    matched!(match1, 0);\n}}\n"
        )
    };
    repo.write("Cargo.toml", CARGO)
        .write("src/lib.rs", "pub mod types;\n")
        .write("src/types.rs", types("Ok(self.defs.len() as u32)"));
    repo.commit("types");
    repo.write("src/types.rs", types("Ok(self.defs.iter().count() as u32)"));
    repo.commit("count");
    let doc = context(&env, &repo.dir, &["HEAD~1..HEAD"]);
    let build = entry(&doc, "src/types.rs", "TypesBuilder::build");
    assert_eq!(callers(build), ["src/types.rs:24 - test"], "{doc:#}");
    assert_eq!(radius(build), (0, 1, 0, "none"));
    assert_eq!(build["blast_radius"]["has_tests"], true);
}
