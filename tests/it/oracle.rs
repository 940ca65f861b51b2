//! Real git as the oracle: a manifest's per-file facts must equal what
//! `git diff --numstat -z -M` and `git diff --name-status -z -M` print for the same range.

use std::collections::BTreeMap;
use std::path::Path;

use bstr::BString;
use serde_json::Value;

use crate::common::{Repo, TestEnv};

/// git's facts for one file: status letter (with score), old path, counts (`None`: binary).
#[derive(Debug, PartialEq, Eq, Clone)]
pub(crate) struct Fact {
    pub status: String,
    pub old_path: Option<BString>,
    pub lines: Option<(u64, u64)>,
}

fn split_z(out: &[u8]) -> Vec<&[u8]> {
    let mut parts: Vec<&[u8]> = out.split(|b| *b == 0).collect();
    if parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    parts
}

/// Runs git's `--name-status` and `--numstat` for `args` and merges them by path.
pub(crate) fn git_facts(repo: &Repo<'_>, dir: &Path, args: &[&str]) -> BTreeMap<BString, Fact> {
    let run = |format: &str| {
        let mut full = vec!["diff", format, "-z", "-M"];
        full.extend_from_slice(args);
        let out = repo.git_cmd(&full).current_dir(dir).output().unwrap();
        assert!(
            out.status.success(),
            "git {full:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let mut facts = BTreeMap::new();
    let names = run("--name-status");
    let mut it = split_z(&names).into_iter();
    while let Some(status) = it.next() {
        let status = String::from_utf8(status.to_vec()).unwrap();
        let (old, path) = if status.starts_with('R') || status.starts_with('C') {
            let old = BString::from(it.next().unwrap());
            (Some(old), BString::from(it.next().unwrap()))
        } else {
            (None, BString::from(it.next().unwrap()))
        };
        facts.insert(
            path,
            Fact {
                status,
                old_path: old,
                lines: None,
            },
        );
    }
    let nums = run("--numstat");
    let mut it = split_z(&nums).into_iter();
    while let Some(record) = it.next() {
        let mut fields = record.splitn(3, |b| *b == b'\t');
        let added = fields.next().unwrap();
        let removed = fields.next().unwrap();
        let mut path = BString::from(fields.next().unwrap());
        if path.is_empty() {
            it.next();
            path = BString::from(it.next().unwrap());
        }
        let count = |c: &[u8]| std::str::from_utf8(c).unwrap().parse::<u64>().ok();
        let lines = match (count(added), count(removed)) {
            (Some(a), Some(r)) => Some((a, r)),
            _ => None,
        };
        facts
            .get_mut(&path)
            .unwrap_or_else(|| panic!("numstat path {path:?} not in name-status"))
            .lines = lines;
    }
    facts
}

/// Reads the facts of a manifest (tracked files only) in the same shape as [`git_facts`].
pub(crate) fn manifest_facts(doc: &Value) -> BTreeMap<BString, Fact> {
    let mut out = BTreeMap::new();
    for f in doc["files"].as_array().unwrap() {
        if f["untracked"].as_bool() == Some(true) {
            continue;
        }
        let bytes = |plain: &Value, quoted: &Value| -> BString {
            match quoted.as_str() {
                Some(q) => BString::from(unquote(q)),
                None => BString::from(plain.as_str().unwrap()),
            }
        };
        let path = bytes(&f["path"], &f["path_quoted"]);
        let letter = match f["change_type"].as_str().unwrap() {
            "added" => "A",
            "modified" => "M",
            "deleted" => "D",
            "renamed" => "R",
            "copied" => "C",
            "type_changed" => "T",
            "unmerged" => "U",
            other => panic!("unknown change type {other}"),
        };
        let score = f["similarity"].as_u64().or(f["dissimilarity"].as_u64());
        let status = match score {
            Some(s) => format!("{letter}{s:03}"),
            None => letter.to_owned(),
        };
        let old_path = f
            .get("old_path")
            .filter(|v| !v.is_null())
            .map(|p| bytes(p, &f["old_path_quoted"]));
        let lines = match (f["lines_added"].as_u64(), f["lines_removed"].as_u64()) {
            (Some(a), Some(r)) => Some((a, r)),
            _ => {
                assert_eq!(
                    f["is_binary"].as_bool(),
                    Some(true),
                    "no counts but not binary: {f}"
                );
                None
            }
        };
        assert!(
            out.insert(
                path,
                Fact {
                    status,
                    old_path,
                    lines
                }
            )
            .is_none(),
            "duplicate path {f}"
        );
    }
    out
}

/// Reverses git's C quoting.
fn unquote(q: &str) -> Vec<u8> {
    let inner = q
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap();
    let b = inner.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            let c = b[i + 1];
            match c {
                b'0'..=b'7' => {
                    let v = u8::from_str_radix(std::str::from_utf8(&b[i + 1..i + 4]).unwrap(), 8)
                        .unwrap();
                    out.push(v);
                    i += 4;
                    continue;
                }
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'r' => out.push(b'\r'),
                b'a' => out.push(7),
                b'b' => out.push(8),
                b'v' => out.push(11),
                b'f' => out.push(12),
                other => out.push(other),
            }
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

/// Runs `git-prism manifest <args>` in `dir` and parses the JSON: every file in one answer
/// (`--all`) unless the arguments set a budget.
pub(crate) fn manifest(env: &TestEnv, dir: &Path, args: &[&str]) -> Value {
    let all: &[&str] = if args.contains(&"--max-tokens") {
        &[]
    } else {
        &["--all"]
    };
    let out = env
        .command(crate::common::bin(), &env.plain_path())
        .arg("manifest")
        .args(all)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git-prism manifest {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Asserts the manifest of `args` has git's facts for `args`.
pub(crate) fn assert_matches_git(
    env: &TestEnv,
    repo: &Repo<'_>,
    dir: &Path,
    args: &[&str],
) -> Value {
    let doc = manifest(env, dir, args);
    let want = git_facts(repo, dir, args);
    let got = manifest_facts(&doc);
    assert_eq!(got, want, "manifest {args:?} differs from git");
    assert_eq!(
        doc["summary"]["files_changed"].as_u64().unwrap() as usize,
        doc["files"].as_array().unwrap().len()
    );
    doc
}

/// Reads the facts of a shim answer's compact listing (`"files": {"dir/": ["M name +1 -2",
/// ...]}`), tracked files only, in the same shape as [`git_facts`].
pub(crate) fn compact_facts(doc: &Value) -> BTreeMap<BString, Fact> {
    let mut out = BTreeMap::new();
    let empty = serde_json::Map::new();
    let files = match &doc["files"] {
        Value::Null => &empty,
        files => files
            .as_object()
            .unwrap_or_else(|| panic!("no files listing: {doc}")),
    };
    for (dir, entries) in files {
        let entries = entries
            .as_object()
            .unwrap_or_else(|| panic!("a directory's files are an object: {doc}"));
        for entry in entries.keys() {
            let (status, mut rest) = entry.split_once(' ').unwrap();
            if status == "?" {
                continue;
            }
            let mut lines = None;
            let mut binary = false;
            // Flags and counts come last, in a fixed order: strip them from the end.
            loop {
                if let Some(r) = rest.strip_suffix(" binary") {
                    binary = true;
                    rest = r;
                    continue;
                }
                if let Some(r) = rest.strip_suffix(" symlink") {
                    rest = r;
                    continue;
                }
                let Some((head, last)) = rest.rsplit_once(' ') else {
                    break;
                };
                if last.starts_with("generated:")
                    || (last.contains("->") && head.ends_with(" mode"))
                {
                    rest = head.strip_suffix(" mode").unwrap_or(head);
                    continue;
                }
                if last.contains("..") && head.ends_with(" submodule") {
                    rest = head.strip_suffix(" submodule").unwrap();
                    continue;
                }
                if let Some(removed) = last.strip_prefix('-').and_then(|n| n.parse::<u64>().ok()) {
                    let (head2, plus) = head.rsplit_once(' ').unwrap();
                    let added = plus.strip_prefix('+').unwrap().parse::<u64>().unwrap();
                    lines = Some((added, removed));
                    rest = head2;
                    continue;
                }
                break;
            }
            assert!(
                lines.is_some() || binary,
                "no counts but not binary: {entry}"
            );
            let (name, old) = match rest.split_once(" <- ") {
                Some((n, o)) => (n, Some(o)),
                None => (rest, None),
            };
            let mut path = BString::from(dir.as_str());
            path.extend_from_slice(&quoted_bytes(name));
            assert!(
                out.insert(
                    path,
                    Fact {
                        status: status.to_owned(),
                        old_path: old.map(quoted_bytes),
                        lines: if binary { None } else { lines },
                    }
                )
                .is_none(),
                "duplicate path {entry}"
            );
        }
    }
    // A file listed only by its hunks is a plain modification: its counts are its changed
    // lines (the answer's hunks have no context unless asked for).
    if let Some(hunks) = doc["hunks"].as_object() {
        for (path, list) in hunks {
            let key = quoted_bytes(path);
            if out.contains_key(&key) {
                continue;
            }
            let (mut added, mut removed) = (0u64, 0u64);
            for h in list.as_array().unwrap() {
                for line in h.as_str().unwrap().split('\n').skip(1) {
                    match line.as_bytes().first() {
                        Some(b'+') => added += 1,
                        Some(b'-') => removed += 1,
                        _ => {}
                    }
                }
            }
            out.insert(
                key,
                Fact {
                    status: "M".to_owned(),
                    old_path: None,
                    lines: Some((added, removed)),
                },
            );
        }
    }
    out
}

/// A path as an answer writes it: as is, or C-quoted by git when it is not UTF-8.
fn quoted_bytes(text: &str) -> BString {
    if text.starts_with('"') {
        BString::from(unquote(text))
    } else {
        BString::from(text)
    }
}
