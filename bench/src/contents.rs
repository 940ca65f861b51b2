//! Part of figure 3: what the first page of a range holds and costs (issue 27). For every
//! sampled range of 20-300 files:
//!
//! - **the interface is on page 1**: every public item of production code that the range adds,
//!   deletes or re-signs, found independently in git's `-U0` patch (a declaration line of a
//!   public function, type or constant on a `+` or `-` line, where the same line, spaces aside,
//!   is not also on the other side), must be named on the first page with its signature (in
//!   its `api` section, or in its hunks when the range is answered whole);
//! - **page 1 costs** at most 2,500 tokens plus 15 per such item (ranges of at most 100 files);
//! - **the whole map** (the pages before the first hunk) costs at most 0.1× git's `-U0` patch
//!   of the range.
//!
//! The oracle reads Rust, Go and Python declarations (the languages of the corpora that have an
//! analyzer); a range's files in other languages are counted as not checked.

use std::collections::BTreeMap;

use regex::Regex;
use serde_json::Value;

/// Page 1 of a range of at most this many files has a token cap.
pub const CAPPED_FILES: usize = 100;
/// The cap's fixed part, and what it allows per public item.
pub const CAP_BASE: usize = 2_500;
pub const CAP_PER_ITEM: usize = 15;
/// The whole map against git's `-U0` patch.
pub const MAP_RATIO: f64 = 0.1;

/// One public item of the interface found in a patch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// The file it is in.
    pub file: String,
    /// Its name (the last segment).
    pub name: String,
    /// The keyword that declares it (`fn`, `struct`, `def`, `func`, ...).
    pub keyword: &'static str,
}

/// The declaration patterns of one language: (regex over a changed line's text without its
/// `+`/`-`, the keyword it declares with; the name is the regex's last group).
struct Patterns {
    rust: Vec<(Regex, &'static str)>,
    go: Vec<(Regex, &'static str)>,
    python: Vec<(Regex, &'static str)>,
}

impl Patterns {
    fn new() -> Patterns {
        let r = |s: &str| Regex::new(s).expect("a valid pattern");
        Patterns {
            rust: vec![
                (
                    r(
                        r#"^\s*pub\s+(?:(?:const|async|unsafe|extern\s+"[^"]*")\s+)*fn\s+([A-Za-z_]\w*)"#,
                    ),
                    "fn",
                ),
                (r(r"^\s*pub\s+struct\s+([A-Za-z_]\w*)"), "struct"),
                (r(r"^\s*pub\s+enum\s+([A-Za-z_]\w*)"), "enum"),
                (
                    r(r"^\s*pub\s+(?:unsafe\s+)?trait\s+([A-Za-z_]\w*)"),
                    "trait",
                ),
                (r(r"^\s*pub\s+type\s+([A-Za-z_]\w*)"), "type"),
                (r(r"^\s*pub\s+union\s+([A-Za-z_]\w*)"), "union"),
                (r(r"^\s*pub\s+const\s+([A-Za-z_]\w*)\s*:"), "const"),
                (
                    r(r"^\s*pub\s+static\s+(?:mut\s+)?([A-Za-z_]\w*)\s*:"),
                    "static",
                ),
            ],
            go: vec![
                (r(r"^func\s+(?:\([^)]*\)\s*)?([A-Z]\w*)\s*[\[(]"), "func"),
                (r(r"^type\s+([A-Z]\w*)"), "type"),
                (r(r"^const\s+([A-Z]\w*)"), "const"),
                (r(r"^var\s+([A-Z]\w*)"), "var"),
            ],
            python: vec![
                (r(r"^(?:async\s+)?def\s+([A-Za-z]\w*)\s*\("), "def"),
                (r(r"^class\s+([A-Za-z]\w*)"), "class"),
                (r(r"^([A-Z][A-Z0-9_]+)\s*(?::[^=]*)?=[^=]"), "const"),
            ],
        }
    }

    fn of(&self, path: &str) -> Option<&[(Regex, &'static str)]> {
        if !is_production(path) {
            return None;
        }
        let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
        match ext {
            "rs" => Some(&self.rust),
            "go" => Some(&self.go),
            "py" => Some(&self.python),
            _ => None,
        }
    }
}

/// Whether a path is production code by the conventions git-prism's roles follow (tests,
/// benches, examples, docs, scripts and fixtures are not).
fn is_production(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let mut parts: Vec<&str> = lower.split('/').collect();
    let name = parts.pop().unwrap_or("");
    let not_code_dirs = [
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
    if parts.iter().any(|d| not_code_dirs.contains(d)) {
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

/// The public items a `-U0` patch adds, deletes or re-signs, and how many changed lines it
/// has in files the oracle cannot read.
pub fn interface(patch: &str) -> (Vec<Item>, usize) {
    let patterns = Patterns::new();
    let mut file = String::new();
    let mut old_file = String::new();
    let mut unread = 0usize;
    // (sign, file, name, keyword, the line without spaces)
    let mut found: Vec<(bool, String, String, &'static str, String)> = Vec::new();
    for line in patch.lines() {
        if let Some(p) = line.strip_prefix("--- ") {
            old_file = p.strip_prefix("a/").unwrap_or(p).to_owned();
            continue;
        }
        if let Some(p) = line.strip_prefix("+++ ") {
            file = if p == "/dev/null" {
                old_file.clone()
            } else {
                p.strip_prefix("b/").unwrap_or(p).to_owned()
            };
            continue;
        }
        let (added, text) = match line.as_bytes().first() {
            Some(b'+') => (true, &line[1..]),
            Some(b'-') => (false, &line[1..]),
            _ => continue,
        };
        let Some(list) = patterns.of(&file) else {
            if !file.is_empty() && is_production(&file) {
                unread += 1;
            }
            continue;
        };
        for (re, keyword) in list {
            if let Some(c) = re.captures(text) {
                let name = c.get(c.len() - 1).map_or("", |m| m.as_str()).to_owned();
                // A constant's value is not its signature: only what comes before `=`.
                let head = match *keyword {
                    "const" | "static" | "var" => text.split('=').next().unwrap_or(text),
                    _ => text,
                };
                let bare: String = head.chars().filter(|c| !c.is_whitespace()).collect();
                found.push((added, file.clone(), name, keyword, bare));
                break;
            }
        }
    }
    // A line on both sides (moved, or only re-indented) declares nothing new.
    let mut gone = vec![false; found.len()];
    for i in 0..found.len() {
        if gone[i] || !found[i].0 {
            continue;
        }
        if let Some(j) =
            (0..found.len()).find(|&j| !gone[j] && !found[j].0 && found[j].4 == found[i].4)
        {
            gone[i] = true;
            gone[j] = true;
        }
    }
    let mut items: Vec<Item> = Vec::new();
    for (n, (_, file, name, keyword, _)) in found.into_iter().enumerate() {
        let item = Item {
            file,
            name,
            keyword,
        };
        if !gone[n] && !items.contains(&item) {
            items.push(item);
        }
    }
    (items, unread)
}

/// The text the first page names the interface in: its `api` section, or the whole answer when
/// it has no map (a range answered whole: its hunks hold every changed line).
pub fn interface_text(doc: &Value) -> String {
    match doc.get("api") {
        Some(api) => api.to_string(),
        None if doc.get("next").is_none() => doc.to_string(),
        None => String::new(),
    }
}

/// How many public items a first page's `api` lists with their signatures: a shape line
/// (`added a, b on X, Y: ..`) counts each member on each scope, a line naming members of an
/// implementation or of a renamed scope (no signature) counts none, any other line one.
pub fn listed_items(doc: &Value) -> usize {
    let Some(api) = doc.get("api").and_then(Value::as_object) else {
        return 0;
    };
    let mut n = 0;
    for line in api
        .values()
        .flat_map(|v| v.as_array().into_iter().flatten())
    {
        let line = line.as_str().unwrap_or("");
        let body = line.split_once(' ').map_or("", |(_, rest)| rest);
        let shape = body
            .split_once(" on ")
            .and_then(|(members, rest)| Some((members, rest.split_once(": ")?.0)));
        if let Some((members, scopes)) = shape {
            let count = |s: &str| s.split(", ").count();
            let members: usize = members
                .split("; ")
                .map(|m| {
                    let m = ["added ", "deleted ", "signature "]
                        .iter()
                        .find_map(|v| m.strip_prefix(v))
                        .unwrap_or(m);
                    count(m)
                })
                .sum();
            n += members.max(1) * count(scopes);
            continue;
        }
        let names_only = (body.starts_with('<') && !body.contains(": "))
            || (line.starts_with("renamed ") && body.contains(": ") && !body.contains('('));
        if !names_only {
            n += 1;
        }
    }
    n
}

/// Whether the first page names an item with its signature: one string of `text` holds the
/// item's keyword and then its name as a word (a shape line names the member, then its types,
/// then each signature: `pub fn get_ref(`).
pub fn holds(text: &str, item: &Item) -> bool {
    let keyword = item.keyword;
    let word = |s: &str, at: usize, len: usize| {
        let before = s[..at].chars().next_back();
        let after = s[at + len..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    };
    // Each JSON string of the text, roughly: split at quotes. A rename names the old name
    // before its arrow (its signature is the new one's, under the new name).
    text.split('"').any(|s| {
        if s.starts_with("renamed ") {
            let old = s.split(" -> ").next().unwrap_or("");
            if old
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| w == item.name)
            {
                return true;
            }
        }
        let mut from = 0;
        while let Some(at) = s[from..].find(&item.name) {
            let at = from + at;
            if word(s, at, item.name.len()) {
                let before = &s[..at];
                if before
                    .rfind(keyword)
                    .is_some_and(|k| word(before, k, keyword.len()))
                {
                    return true;
                }
                // A shape: the member named first, its signature after.
                if s[at..].contains(&format!("{keyword} {}", item.name)) {
                    return true;
                }
            }
            from = at + item.name.len();
        }
        false
    })
}

/// One range's figures.
pub struct Range {
    pub label: String,
    pub files: usize,
    pub items: usize,
    /// Public items page 1's `api` lists with their signatures ([`listed_items`]).
    pub listed: usize,
    pub missing: Vec<String>,
    pub unread: usize,
    pub page1: usize,
    /// Tokens of the whole map (pages before the first hunk); `None` when answered whole.
    pub map: Option<usize>,
    pub patch: usize,
    /// Whether page 1 says the interface continues on the next page (it is larger than one).
    pub interface_continues: bool,
}

impl Range {
    /// Page 1's cap in tokens, for ranges of at most [`CAPPED_FILES`] files: per public item
    /// it must hold, the more of the oracle's count and the page's own.
    pub fn cap(&self) -> Option<usize> {
        (self.files <= CAPPED_FILES).then(|| CAP_BASE + CAP_PER_ITEM * self.items.max(self.listed))
    }
}

/// Median, 90th percentile and maximum of some ratios.
fn spread(mut r: Vec<f64>) -> Option<(f64, f64, f64)> {
    if r.is_empty() {
        return None;
    }
    r.sort_by(f64::total_cmp);
    let q = |p: f64| r[((r.len() - 1) as f64 * p).round() as usize];
    Some((q(0.5), q(0.9), r[r.len() - 1]))
}

/// The rows and the summary sentence of the ranges' figures, per corpus and over all.
pub fn rows(ranges: &BTreeMap<String, Vec<Range>>) -> (Vec<Vec<String>>, String) {
    let mut rows = Vec::new();
    let mut all: Vec<&Range> = Vec::new();
    for (corpus, list) in ranges {
        all.extend(list);
        rows.extend(rows_of(corpus, &list.iter().collect::<Vec<_>>()));
    }
    rows.extend(rows_of("**all**", &all));
    let missing: Vec<String> = all
        .iter()
        .filter(|r| !r.missing.is_empty() && !r.interface_continues)
        .map(|r| format!("{} lacks {}", r.label, r.missing.join(", ")))
        .collect();
    let items: usize = all.iter().map(|r| r.items).sum();
    let unread: usize = all.iter().filter(|r| r.unread > 0).count();
    let whole = all.iter().filter(|r| r.map.is_none()).count();
    let over_page: Vec<String> = all
        .iter()
        .filter(|r| r.interface_continues)
        .map(|r| format!("{} ({} items)", r.label, r.items))
        .collect();
    let over_cap: Vec<String> = all
        .iter()
        .filter_map(|r| {
            let cap = r.cap()?;
            (r.page1 > cap).then(|| format!("{}: {} tokens, cap {cap}", r.label, r.page1))
        })
        .collect();
    let big_maps: Vec<String> = all
        .iter()
        .filter_map(|r| {
            let ratio = r.map? as f64 / r.patch.max(1) as f64;
            (ratio > MAP_RATIO).then(|| format!("{}: {ratio:.3}", r.label))
        })
        .collect();
    let list = |v: &[String]| {
        if v.is_empty() {
            String::new()
        } else {
            format!(" ({})", v.join("; "))
        }
    };
    let summary = format!(
        "{} ranges of 20-300 files ({whole} answered whole); {items} public items found in their `-U0` patches. Ranges whose interface is larger than one page and continues on page 2, as page 1 says: {}{}. Ranges with an item missing from page 1 otherwise: {}{}. Page 1 over its cap: {}{}. Whole map over {MAP_RATIO}x the patch: {}{}. {unread} ranges have changed production lines in languages the oracle does not read.",
        all.len(),
        over_page.len(),
        list(&over_page),
        missing.len(),
        list(&missing),
        over_cap.len(),
        list(&over_cap),
        big_maps.len(),
        list(&big_maps),
    );
    (rows, summary)
}

fn rows_of(corpus: &str, list: &[&Range]) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let capped: Vec<f64> = list
        .iter()
        .filter_map(|r| r.cap().map(|c| r.page1 as f64 / c as f64))
        .collect();
    let over = capped.iter().filter(|r| **r > 1.0).count();
    if let Some((m, p90, max)) = spread(capped.clone()) {
        rows.push(vec![
            corpus.to_owned(),
            "page 1 ÷ (2,500 + 15 × items), ≤ 100 files".to_owned(),
            capped.len().to_string(),
            format!("{m:.3}"),
            format!("{p90:.3}"),
            format!("{max:.3}"),
            format!("{over} over 1"),
        ]);
    }
    let tokens: Vec<f64> = list
        .iter()
        .filter(|r| r.files <= CAPPED_FILES)
        .map(|r| r.page1 as f64)
        .collect();
    if let Some((m, p90, max)) = spread(tokens.clone()) {
        rows.push(vec![
            corpus.to_owned(),
            "page 1 tokens, ≤ 100 files".to_owned(),
            tokens.len().to_string(),
            format!("{m:.0}"),
            format!("{p90:.0}"),
            format!("{max:.0}"),
            String::new(),
        ]);
    }
    let maps: Vec<f64> = list
        .iter()
        .filter_map(|r| r.map.map(|m| m as f64 / r.patch.max(1) as f64))
        .collect();
    let over = maps.iter().filter(|r| **r > MAP_RATIO).count();
    if let Some((m, p90, max)) = spread(maps.clone()) {
        rows.push(vec![
            corpus.to_owned(),
            "whole map ÷ git's `-U0` patch".to_owned(),
            maps.len().to_string(),
            format!("{m:.3}"),
            format!("{p90:.3}"),
            format!("{max:.3}"),
            format!("{over} over {MAP_RATIO}"),
        ]);
    }
    let missing = list
        .iter()
        .filter(|r| !r.missing.is_empty() && !r.interface_continues)
        .count();
    let continued = list.iter().filter(|r| r.interface_continues).count();
    rows.push(vec![
        corpus.to_owned(),
        "ranges with a public item missing from page 1".to_owned(),
        list.len().to_string(),
        String::new(),
        String::new(),
        String::new(),
        format!(
            "{missing} of {} ({} items; {continued} more whose interface continues on page 2)",
            list.len(),
            list.iter().map(|r| r.items).sum::<usize>()
        ),
    ]);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oracle_finds_public_items_and_ignores_moves() {
        let patch = "\
diff --git a/src/map.rs b/src/map.rs
--- a/src/map.rs
+++ b/src/map.rs
@@ -1,0 +2,3 @@
+    pub fn shift_insert(&mut self, i: usize) -> Option<Value> {
+pub struct IntoValues {
+    fn private() {}
-pub fn moved() {}
@@ -10 +12 @@
+pub  fn moved() {}
-    pub fn get(&self) -> u8 {
+    pub fn get(&self) -> u16 {
diff --git a/tests/t.rs b/tests/t.rs
--- a/tests/t.rs
+++ b/tests/t.rs
@@ -0,0 +1 @@
+pub fn helper() {}
diff --git a/pkg/a.go b/pkg/a.go
--- a/pkg/a.go
+++ b/pkg/a.go
@@ -0,0 +1,2 @@
+func (c *Client) Send() error {
+func helper() {}
";
        let (items, unread) = interface(patch);
        let names: Vec<(&str, &str)> = items.iter().map(|i| (i.name.as_str(), i.keyword)).collect();
        assert_eq!(
            names,
            [
                ("shift_insert", "fn"),
                ("IntoValues", "struct"),
                ("get", "fn"),
                ("Send", "func")
            ]
        );
        assert_eq!(unread, 0);
        let api = r#"{"src/map.rs":["added Map::shift_insert: pub fn shift_insert(&mut self)","added pub struct IntoValues","added get_ref, get on Filter, Map: pub fn get_ref(&self); pub fn get(&self) -> u16"],"pkg/a.go":["added Client.Send: func (c *Client) Send() error"]}"#;
        for item in &items {
            assert!(holds(api, item), "{item:?}");
        }
        let doc: Value = serde_json::from_str(&format!(
            "{{\"api\":{api}}}",
            api = r#"{"a.rs":["added pub fn A::f(&self)","added get_ref, get on Filter, Map: pub fn get_ref(&self); pub fn get(&self)","added <A as Clone>::clone","renamed Old -> New: a, b","renamed x -> pub fn y()","added pub struct S"]}"#
        ))
        .unwrap();
        assert_eq!(listed_items(&doc), 1 + 2 * 2 + 1 + 1);
        let missing = Item {
            file: "x".into(),
            name: "shift".into(),
            keyword: "fn",
        };
        assert!(!holds(api, &missing));
    }
}
