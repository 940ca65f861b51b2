//! What is checked in an answer rather than counted: whether a single commit's answer carries
//! every changed line of the files it gives hunks for, and over how many pages a range's map
//! runs.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use super::{Bench, Samples, WHOLE_PATCH_TOKENS, run};

impl Bench<'_> {
    /// Whether every changed line of the files the answer gives hunks for (neither generated
    /// nor binary) is inside it, when git's patch of them is small enough to be shown whole.
    pub(super) fn coverage(
        &self,
        s: &mut Samples,
        sha: &str,
        range: &str,
        doc: &Value,
    ) -> Result<()> {
        if doc.get("next").is_some_and(|n| !n.is_null()) && doc.get("hunks").is_none() {
            return Ok(());
        }
        let mut args: Vec<String> = vec!["diff".into(), "-U0".into(), range.into(), "--".into()];
        args.extend(
            facts_only(doc)
                .iter()
                .map(|p| format!(":(exclude,top,literal){p}")),
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let wanted = run(self.git(&args))?;
        if self.count(&wanted) <= WHOLE_PATCH_TOKENS {
            s.eligible += 1;
            if covers(doc, &changed_lines(&wanted)) {
                s.covered += 1;
            } else {
                s.uncovered.push(sha.chars().take(10).collect());
            }
        }
        Ok(())
    }

    /// How a range's map is laid out over its pages, and the tokens of those pages (the first
    /// answer's included).
    pub(super) fn map_pages(&self, range: &str, first: &[u8]) -> Result<(MapPages, usize)> {
        let doc: Value = serde_json::from_slice(first)
            .with_context(|| format!("no JSON answer to git diff {range}"))?;
        let mut tokens = self.count(first);
        let mut next = next_cursor(&doc);
        if next.is_none() {
            return Ok((MapPages::Whole, tokens));
        }
        let mut pages = 1;
        while let Some(cursor) = next.filter(|c| is_map_position(c)) {
            pages += 1;
            if pages > 50 {
                bail!("the map of {range} takes more than 50 pages");
            }
            let bytes = run(self.agent(&["diff", range], Some(&cursor)))?;
            tokens += self.count(&bytes);
            let page: Value = serde_json::from_slice(&bytes)
                .with_context(|| format!("page {pages} of git diff {range} is not an answer"))?;
            next = next_cursor(&page);
        }
        Ok((
            if pages == 1 {
                MapPages::First
            } else {
                MapPages::Pages(pages)
            },
            tokens,
        ))
    }
}

/// How a range's map is laid out.
#[derive(Clone, Copy)]
pub(super) enum MapPages {
    /// Everything (map and hunks) in the first answer.
    Whole,
    /// The whole map in the first answer, hunks on the next pages.
    First,
    /// The map over this many pages.
    Pages(usize),
}

impl MapPages {
    pub(super) fn describe(self) -> String {
        match self {
            MapPages::Whole => "whole".into(),
            MapPages::First => "map on page 1".into(),
            MapPages::Pages(n) => format!("map over {n} pages"),
        }
    }
}

/// The cursor of an answer's `next` (`GIT_PRISM_CURSOR=<cursor> git ...`).
fn next_cursor(doc: &Value) -> Option<String> {
    let next = doc.get("next")?.as_str()?;
    let cursor = next.strip_prefix("GIT_PRISM_CURSOR=")?.split(' ').next()?;
    Some(cursor.to_owned())
}

/// Whether a cursor points into the map (its position is `m<n>`) rather than the hunks.
fn is_map_position(cursor: &str) -> bool {
    cursor
        .rsplit('-')
        .next()
        .is_some_and(|p| p.starts_with('m'))
}

/// The changed lines of a patch, per file (`+x` and `-x`, as git prints them).
fn changed_lines(patch: &[u8]) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut file = String::new();
    let text = String::from_utf8_lossy(patch);
    let mut in_hunk = false;
    for line in text.split('\n') {
        if line.starts_with("diff --git ") {
            in_hunk = false;
            continue;
        }
        if let Some(p) = line.strip_prefix("+++ b/") {
            file = p.to_owned();
            continue;
        }
        if let Some(p) = line.strip_prefix("--- a/") {
            file = p.to_owned();
            continue;
        }
        if line.starts_with("@@") {
            in_hunk = true;
            continue;
        }
        if in_hunk && (line.starts_with('+') || line.starts_with('-')) {
            out.entry(file.clone()).or_default().push(line.to_owned());
        }
    }
    out
}

/// The paths an answer lists as generated, binary or links (facts, never hunks), from both
/// layouts: `files: {dir: [line]}` and `files: {dir: {line: [functions]}}`.
fn facts_only(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(files) = doc["files"].as_object() else {
        return out;
    };
    for (dir, entries) in files {
        let dir = if dir == "(top)" { "" } else { dir.as_str() };
        let lines: Vec<&str> = match entries {
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            Value::Object(o) => o.keys().map(String::as_str).collect(),
            _ => Vec::new(),
        };
        for e in lines {
            if e.contains(" generated") || e.contains(" binary") || e.contains(" symlink") {
                let name = e.split(' ').nth(1).unwrap_or("");
                out.push(format!("{dir}{name}"));
            }
        }
    }
    out
}

/// Whether every changed line of `wanted` appears among the answer's hunk lines of its file
/// (a line split into segments, `+…`, counts when its first segment is there).
fn covers(doc: &Value, wanted: &BTreeMap<String, Vec<String>>) -> bool {
    let hunks = &doc["hunks"];
    wanted.iter().all(|(file, lines)| {
        let mut have: BTreeMap<String, usize> = BTreeMap::new();
        for h in hunks[file.as_str()].as_array().into_iter().flatten() {
            for l in h.as_str().unwrap_or("").split('\n').skip(1) {
                *have.entry(l.to_owned()).or_default() += 1;
            }
        }
        lines.iter().all(|l| {
            let key = if have.contains_key(l.as_str()) {
                l.clone()
            } else {
                // A long line arrives in segments; its first segment is a prefix of it.
                match have.keys().find(|k| {
                    k.len() > 1 && l.starts_with(k.as_str()) && *have.get(*k).unwrap_or(&0) > 0
                }) {
                    Some(k) => k.clone(),
                    None => return false,
                }
            };
            let n = have.entry(key).or_default();
            let present = *n > 0;
            *n = n.saturating_sub(1);
            present
        })
    })
}
