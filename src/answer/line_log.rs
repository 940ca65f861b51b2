//! `git log -L :<function>:<file>` and `git log -L <start>,<end>:<file>`: a function's or a
//! range's history, each commit as one string — its id, day, author and subject, then the lines
//! of the range it changed, without context, in runs under git's `-U0` hunk headers
//! (`@@ -12,2 +12,3 @@`). git prints every version of the range whole, with its header and
//! message, for each commit; the answer keeps what changed.
//!
//! A commit that changes the range only by formatting, comments or docstrings — every changed
//! line lies in functions whose code is the same as the language reads it (ADR 9), or is blank
//! — is marked `[formatting or comments only]`, and one that changes only type annotations
//! (Python's, TypeScript's: [`crate::lang::annotations`]) `[type annotations only]`; their lines
//! are left out. A commit the analyzers cannot judge (a language without one, a file past their
//! limits, a line outside any function) shows its lines.
//!
//! Which commits, in which order, and which lines of each are in the range is git's own answer
//! (`git log -L` with the caller's options, [`crate::git::Repo::line_log`]). Pages hold as many
//! commits as the budget allows, the rest behind `next` (a cursor bound to the listed commits);
//! only the commits of a page are analysed. A commit with more than [`MAX_LINES`] changed lines
//! in the range shows the first ones and says how to see the rest.

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use serde::Serialize;

use super::{AnswerError, Call, SHORT_ID, day, next_page};
use crate::budget::{self, Cut, Stage};
use crate::git::Repo;
use crate::git::log::LineCommit;
use crate::git::patch::FilePatch;
use crate::lang::Analysis;
use crate::manifest::language;
use crate::paging::{Cursor, Fingerprint};
use crate::request::Log;

/// The answer to `git log -L`.
#[derive(Serialize)]
struct LineLogAnswer<'a> {
    /// The command that prints git's own output (a paged answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    raw: Option<&'a str>,
    /// `<id> <day> <author>: <subject>`, then the changed lines of the range, newest first
    /// (git's order).
    commits: Vec<String>,
    /// What is on the next pages.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    cut: Vec<String>,
    /// The command that prints the next page.
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<String>,
}

/// The most changed lines of one commit shown; past them, how many more and where they are.
pub(crate) const MAX_LINES: usize = 200;

/// The cursor of a line log's page.
const CURSOR: Cursor = Cursor("gL1");

/// What a commit did to the range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    /// Code changed (or the analyzers cannot tell that it did not).
    Code,
    /// Only formatting, comments or docstrings.
    Formatting,
    /// Only type annotations (and perhaps formatting).
    Annotations,
}

/// Builds the answer to `git log -L`.
pub(crate) fn answer(log: &Log, ctx: &Call) -> Result<String, AnswerError> {
    let repo = ctx.repo()?;
    let listed = repo.line_log(log)?;
    let mut fp = Fingerprint::new();
    for c in &listed {
        fp.eat(c.sha.as_bytes());
    }
    let fp = fp.value();
    let offset = match ctx.cursor.as_deref() {
        Some(c) => CURSOR.decode(c, fp)?,
        None => 0,
    };
    let total = listed.len();
    if offset > total {
        return Err(crate::paging::CursorError::Invalid(
            ctx.cursor
                .clone()
                .unwrap_or_default()
                .chars()
                .take(80)
                .collect(),
        )
        .into());
    }
    // The path the range has now: a commit whose diff names another (the file was renamed
    // since) or several says which.
    let current = listed
        .iter()
        .flat_map(|c| c.files.first())
        .find_map(FilePatch::path)
        .cloned();
    let budget = ctx.budget.less(1);
    // Commits are analysed one at a time until the page is full.
    let mut entries: Vec<String> = Vec::new();
    let mut size = 0usize;
    for commit in listed.iter().skip(offset) {
        let text = entry(repo, commit, current.as_ref().map(|p| p.as_slice()))?;
        size = size.saturating_add(crate::json::to_string(&text)?.len() + 1);
        entries.push(text);
        if size > budget.as_bytes() {
            break;
        }
    }
    let stages = [Stage::Window {
        least: 1.min(entries.len()),
        most: entries.len(),
        total: total - offset,
        holds: "one commit",
        note: Box::new(|shown, _| {
            Cut::Later(format!(
                "{} more commits are on the next pages",
                total - offset - shown
            ))
        }),
    }];
    let fitted = budget::fit(Some(budget), &stages, |s| {
        let shown = s.get(0);
        let paged = offset > 0 || offset + shown < total;
        let doc = LineLogAnswer {
            raw: paged.then_some(ctx.raw_command.as_str()),
            commits: entries[..shown].to_vec(),
            cut: s.notes(),
            next: (offset + shown < total)
                .then(|| next_page(ctx, &CURSOR.encode(fp, offset + shown))),
        };
        let json = crate::json::to_string(&doc)?;
        let len = json.len();
        Ok::<_, serde_json::Error>((json, len))
    })?;
    Ok(fitted.doc)
}

/// One commit: `<id> <day> <author>: <subject>`, its mark or the changed lines of the range.
fn entry(repo: &Repo, commit: &LineCommit, current: Option<&[u8]>) -> Result<String, AnswerError> {
    let mut text = format!(
        "{} {} {}: {}",
        commit.sha.short(SHORT_ID),
        day(&commit.author_date),
        commit.author_name,
        commit.subject
    );
    let changes: Vec<Change> = commit
        .files
        .iter()
        .map(|f| judge(repo, commit, f))
        .collect();
    let changed_any = commit.files.iter().any(|f| !changed(f).is_empty());
    if changed_any && changes.iter().all(|c| *c != Change::Code) {
        text.push_str(if changes.contains(&Change::Annotations) {
            " [type annotations only]"
        } else {
            " [formatting or comments only]"
        });
        return Ok(text);
    }
    let several = commit.files.len() > 1;
    let mut shown = 0usize;
    let mut more = 0usize;
    for f in &commit.files {
        let path = f.path().map(|p| p.as_slice());
        if several || path != current {
            text.push('\n');
            text.push_str(
                &path
                    .map(crate::manifest::hunks::display_path)
                    .unwrap_or_default(),
            );
        }
        for run in runs(f) {
            if shown >= MAX_LINES {
                more += run.lines.len();
                continue;
            }
            text.push('\n');
            text.push_str(&run.header);
            for line in &run.lines {
                if shown >= MAX_LINES {
                    more += 1;
                    continue;
                }
                text.push('\n');
                text.push_str(line);
                shown += 1;
            }
        }
    }
    if more > 0 {
        text.push_str(&format!(
            "\n… {more} more changed lines: git show {}",
            commit.sha.short(SHORT_ID)
        ));
    }
    Ok(text)
}

/// A run of consecutive changed lines under git's `-U0` header.
struct Run {
    header: String,
    lines: Vec<String>,
}

/// The changed lines of a file's diff in runs, as `git diff -U0` would head them.
fn runs(f: &FilePatch) -> Vec<Run> {
    let mut out = Vec::new();
    for hunk in &f.hunks {
        let (mut old, mut new) = (hunk.old_start, hunk.new_start);
        let mut current: Option<(u32, u32, Vec<String>, u32, u32)> = None;
        let mut close = |run: Option<(u32, u32, Vec<String>, u32, u32)>| {
            if let Some((old_at, new_at, lines, removed, added)) = run {
                out.push(Run {
                    header: format!("@@ -{} +{} @@", side(old_at, removed), side(new_at, added)),
                    lines,
                });
            }
        };
        for line in &hunk.lines {
            match line.as_bytes().first() {
                Some(b'-') => {
                    let run = current.get_or_insert_with(|| (old, new, Vec::new(), 0, 0));
                    run.2.push(line.clone());
                    run.3 += 1;
                    old += 1;
                }
                Some(b'+') => {
                    let run = current.get_or_insert_with(|| (old, new, Vec::new(), 0, 0));
                    run.2.push(line.clone());
                    run.4 += 1;
                    new += 1;
                }
                Some(b'\\') => {}
                _ => {
                    close(current.take());
                    old += 1;
                    new += 1;
                }
            }
        }
        close(current.take());
    }
    out
}

/// One side of a `-U0` hunk header: the first line and the count (`12`, `12,3`; `11,0` for no
/// line, after line 11).
fn side(at: u32, count: u32) -> String {
    match count {
        0 => format!("{},0", at.saturating_sub(1)),
        1 => at.to_string(),
        n => format!("{at},{n}"),
    }
}

/// The changed lines of a file's diff: (old side?, line number, text without its prefix).
fn changed(f: &FilePatch) -> Vec<(bool, u32, &str)> {
    let mut out = Vec::new();
    for hunk in &f.hunks {
        let (mut old, mut new) = (hunk.old_start, hunk.new_start);
        for line in &hunk.lines {
            match line.as_bytes().first() {
                Some(b'-') => {
                    out.push((true, old, &line[1..]));
                    old += 1;
                }
                Some(b'+') => {
                    out.push((false, new, &line[1..]));
                    new += 1;
                }
                Some(b'\\') => {}
                _ => {
                    old += 1;
                    new += 1;
                }
            }
        }
    }
    out
}

/// What a commit did to one file's part of the range, as the analyzers read it.
fn judge(repo: &Repo, commit: &LineCommit, f: &FilePatch) -> Change {
    let lines = changed(f);
    if lines.is_empty() {
        return Change::Formatting;
    }
    let (Some(old_path), Some(new_path), Some(parent)) =
        (&f.old_path, &f.new_path, commit.parents.first())
    else {
        // Added or deleted with the commit: its code is the change.
        return Change::Code;
    };
    let Some(language) = language::from_path(new_path) else {
        return Change::Code;
    };
    let read = |rev: &crate::git::Oid, path: &[u8]| {
        repo.blob_at(
            OsStr::new(rev.as_str()),
            Path::new(OsStr::from_bytes(path)),
            crate::lang::MAX_FILE_BYTES,
        )
        .ok()
    };
    let (Some(before), Some(after)) = (read(parent, old_path), read(&commit.sha, new_path)) else {
        return Change::Code;
    };
    let ids = (
        crate::oid::Oid::of_blob(&before),
        crate::oid::Oid::of_blob(&after),
    );
    let (Some(old), Some(new)) = crate::lang::analyze_versions(
        language,
        Some((ids.0.as_ref().map(|o| o.as_str()), &before)),
        Some((ids.1.as_ref().map(|o| o.as_str()), &after)),
    ) else {
        return Change::Code;
    };
    // The functions the changed lines are in, by name; a line in none counts unless blank.
    let mut touched: BTreeSet<&str> = BTreeSet::new();
    for (old_side, number, text) in &lines {
        let analysis = if *old_side { &old } else { &new };
        match innermost(analysis, *number) {
            Some(name) => {
                touched.insert(name);
            }
            None if text.trim().is_empty() => {}
            None => return Change::Code,
        }
    }
    if same_code(&old, &new, &touched) {
        return Change::Formatting;
    }
    let plain = |source: &[u8]| {
        crate::lang::annotations::without_annotations(language, source)
            .and_then(|plain| crate::lang::analyze(language, &plain))
    };
    match (plain(&before), plain(&after)) {
        (Some(old), Some(new)) if same_code(&old, &new, &touched) => Change::Annotations,
        _ => Change::Code,
    }
}

/// The name of the innermost function around `line`, if any.
fn innermost(analysis: &Analysis, line: u32) -> Option<&str> {
    analysis
        .functions
        .iter()
        .filter(|f| f.start_line <= line && line <= f.end_line)
        .min_by_key(|f| f.end_line - f.start_line)
        .map(|f| f.name.as_str())
}

/// Whether every named function is on both sides, with the same code (signature and body as
/// the language reads them), in analyses that were not skipped.
fn same_code(old: &Analysis, new: &Analysis, names: &BTreeSet<&str>) -> bool {
    if old.skipped.is_some() || new.skipped.is_some() || old.parse_errors || new.parse_errors {
        return false;
    }
    names.iter().all(|name| {
        let find = |a: &'_ Analysis| {
            let mut found = a.functions.iter().filter(|f| f.name == *name);
            let first = found.next();
            // Two definitions of one name cannot be told apart: not judged.
            first.filter(|_| found.next().is_none()).cloned()
        };
        match (find(old), find(new)) {
            (Some(a), Some(b)) => {
                a.signature_hash == b.signature_hash && a.body_hash == b.body_hash
            }
            _ => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::patch::Hunk;

    fn patch(old_start: u32, new_start: u32, lines: &[&str]) -> FilePatch {
        FilePatch {
            old_path: Some("a.py".into()),
            new_path: Some("a.py".into()),
            hunks: vec![Hunk {
                old_start,
                old_lines: 0,
                new_start,
                new_lines: 0,
                section: String::new(),
                lines: lines.iter().map(|l| (*l).to_owned()).collect(),
            }],
        }
    }

    #[test]
    fn runs_are_headed_as_git_diff_u0_heads_them() {
        let f = patch(
            10,
            10,
            &[
                " def f():",
                "-    return 1",
                "+    return 2",
                "+    # more",
                "     pass",
                "+    added",
                " x",
                "-    gone",
                "\\ No newline at end of file",
            ],
        );
        let runs = runs(&f);
        let heads: Vec<&str> = runs.iter().map(|r| r.header.as_str()).collect();
        assert_eq!(
            heads,
            ["@@ -11 +11,2 @@", "@@ -12,0 +14 @@", "@@ -14 +15,0 @@"]
        );
        assert_eq!(
            runs[0].lines,
            ["-    return 1", "+    return 2", "+    # more"]
        );
    }
}
