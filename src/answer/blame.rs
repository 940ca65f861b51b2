//! `git blame [-L a,b] [<rev>] [--] <path>`: git's own blame, each commit once in a table
//! (`<id>`: `<author> <day>: <subject>`) and the blamed lines in runs of consecutive lines from
//! the same commit, each run headed by its commit, its lines and, where the file's language is
//! analysed, the function it lies in (`<id> 10-14 parse`), then the lines themselves.
//!
//! git's own output repeats the commit, author and date on every line; this says each once,
//! so it is smaller for every range of more than a line or two, and names the function.
//!
//! The runs that fit the budget are shown (at least one); the rest are on the next page:
//! `next` is the same blame limited (`-L`) to the lines not shown, which the shim answers
//! again, and the commits table keeps only the commits shown. Every step is linear in the
//! lines and the runs.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::Path;

use serde::Serialize;

use super::{AnswerError, Call, SHORT_ID, day};
use crate::budget::{self, Budget, Cut, Stage};
use crate::git::blame;
use crate::git::{Oid, Repo, worktree};
use crate::manifest::language;
use crate::request::Blame;
use crate::shell;

/// The answer to `git blame`.
#[derive(Debug, Serialize)]
struct BlameAnswer {
    /// The command that prints git's own output (a paged answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    raw: Option<String>,
    /// Each commit of the runs shown: `<author> <day>: <subject>`, by short id (`^` marks a
    /// blame boundary, zeros lines not committed yet).
    commits: BTreeMap<String, String>,
    /// Runs of lines: `<id> <first>-<last> <function>` and then the lines.
    lines: Vec<String>,
    /// What is on the next page.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    cut: Vec<String>,
    /// The command that blames the lines not shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<String>,
}

/// One run of consecutive lines from the same commit, rendered.
struct Run {
    /// The commit's short id as the table keys it.
    commit: String,
    first: u32,
    last: u32,
    text: String,
}

/// Builds the answer to `git blame`.
pub(crate) fn answer(b: &Blame, argv: &[OsString], ctx: &Call) -> Result<String, AnswerError> {
    let repo = ctx.repo()?;
    let parsed = repo.blame(b)?;
    let functions = functions_of(repo, b).unwrap_or_default();
    let mut table: BTreeMap<String, String> = BTreeMap::new();
    let key = |sha: &Oid, details: &blame::CommitDetails| {
        let mut id = sha.short(SHORT_ID).to_owned();
        if details.boundary {
            id.insert(0, '^');
        }
        id
    };
    for (sha, d) in &parsed.commits {
        let date = crate::time::iso_date(d.time, &d.tz);
        table.insert(
            key(sha, d),
            format!("{} {}: {}", d.author, day(&date), d.summary),
        );
    }
    // Every step is linear in the lines and the runs: a blame of 200,000 lines is git's time.
    let mut functions = Functions::new(functions);
    let none = blame::CommitDetails::default();
    let runs: Vec<Run> = blame::hunks(&parsed.lines)
        .into_iter()
        .map(|h| {
            let details = parsed.commits.get(&h.sha).unwrap_or(&none);
            let commit = key(&h.sha, details);
            let mut text = if h.start == h.end {
                format!("{commit} {}", h.start)
            } else {
                format!("{commit} {}-{}", h.start, h.end)
            };
            let names = functions.innermost(h.start, h.end);
            if !names.is_empty() {
                text.push(' ');
                text.push_str(&names.join(", "));
            }
            for line in &parsed.lines[h.lines.clone()] {
                text.push('\n');
                text.push_str(&line.text);
            }
            Run {
                commit,
                first: h.start,
                last: h.end,
                text,
            }
        })
        .collect();
    let json = fit(
        &runs,
        &table,
        b,
        &repo.dir,
        argv,
        &ctx.raw_command,
        ctx.budget.less(1),
    )?;
    Ok(json)
}

/// Shows the runs that fit the budget (at least one); the rest are named by `next`, a blame of
/// just their lines, and the commits table keeps only the commits shown.
fn fit(
    runs: &[Run],
    table: &BTreeMap<String, String>,
    blame: &Blame,
    dir: &Path,
    argv: &[OsString],
    raw: &str,
    budget: Budget,
) -> Result<String, serde_json::Error> {
    let next_page = |from: usize| {
        // The same blame of the lines not shown: git's own command with one `-L` per run of
        // consecutive lines left (several `-L` ranges stay apart), which the shim answers
        // again.
        let mut spans: Vec<(u32, u32)> = Vec::new();
        for r in &runs[from..] {
            match spans.last_mut() {
                Some(span) if r.first == span.1 + 1 => span.1 = r.last,
                _ => spans.push((r.first, r.last)),
            }
        }
        format!(
            "git -C {} blame {}",
            shell::quote(dir.as_os_str()),
            shell::join(
                blame
                    .limited_to(argv, &spans)
                    .iter()
                    .map(OsString::as_os_str)
            )
        )
    };
    let count = runs.len();
    let stages = [Stage::Window {
        least: 1.min(count),
        most: count,
        total: count,
        holds: "one run of lines",
        note: Box::new(|shown, _| {
            let lines: u32 = runs[shown..].iter().map(|r| r.last - r.first + 1).sum();
            Cut::Later(format!("{lines} more lines are blamed on the next page"))
        }),
    }];
    let fitted = budget::fit(Some(budget), &stages, |s| {
        let shown = s.get(0);
        let ids: std::collections::BTreeSet<&str> =
            runs[..shown].iter().map(|r| r.commit.as_str()).collect();
        let answer = BlameAnswer {
            raw: (shown < count).then(|| raw.to_owned()),
            commits: table
                .iter()
                .filter(|(k, _)| ids.contains(k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            lines: runs[..shown].iter().map(|r| r.text.clone()).collect(),
            cut: s.notes(),
            next: (shown < count).then(|| next_page(shown)),
        };
        let json = crate::json::to_string(&answer)?;
        let len = json.len();
        Ok::<_, serde_json::Error>((json, len))
    })?;
    Ok(fitted.doc)
}

/// The functions of the blamed version of the file, with their line ranges.
fn functions_of(repo: &Repo, b: &Blame) -> Option<Vec<(u32, u32, String)>> {
    let label = language::from_path(b.path.as_encoded_bytes())?;
    crate::lang::for_language(label)?;
    let content = match &b.rev {
        Some(rev) => {
            let workdir = repo.workdir()?;
            let full = repo.dir.join(&b.path);
            let relative = full
                .strip_prefix(workdir)
                .ok()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| b.path.clone().into());
            // Files past the analysis limit are not analysed: read no more than that.
            repo.blob_at(rev, &relative, crate::lang::MAX_FILE_BYTES)
                .ok()?
        }
        // The working tree's version: read as every working-tree file is, inside the tree,
        // without following a symlink (a link's "functions" would be another file's).
        None => {
            let workdir = repo.workdir()?;
            let rel = worktree_relative(workdir, &repo.dir, Path::new(&b.path))?;
            match worktree::read(workdir, &rel, crate::lang::MAX_FILE_BYTES as u64) {
                Ok(Some(worktree::Content::File(bytes))) => bytes,
                _ => return None,
            }
        }
    };
    let analysis = crate::lang::analyze(label, &content)?;
    Some(
        analysis
            .functions
            .into_iter()
            .map(|f| (f.start_line, f.end_line, f.name))
            .collect(),
    )
}

/// The path from the top of the working tree of `path` as given in `dir` (resolved by name;
/// `None` when it leaves the working tree).
fn worktree_relative(workdir: &Path, dir: &Path, path: &Path) -> Option<bstr::BString> {
    let prefix_of = |dir: &Path| {
        dir.strip_prefix(workdir)
            .ok()
            .map(Path::to_path_buf)
            .or_else(|| {
                let (dir, top) = (dir.canonicalize().ok()?, workdir.canonicalize().ok()?);
                dir.strip_prefix(top).ok().map(Path::to_path_buf)
            })
    };
    if path.is_absolute() {
        let parent = path.parent()?;
        let prefix = prefix_of(parent)?;
        let name = path.file_name()?;
        return worktree::normalize(
            prefix.as_os_str().as_encoded_bytes(),
            name.as_encoded_bytes(),
        );
    }
    let prefix = prefix_of(dir)?;
    worktree::normalize(
        prefix.as_os_str().as_encoded_bytes(),
        path.as_os_str().as_encoded_bytes(),
    )
}

/// The functions of the blamed file, asked in order of the runs (which never overlap and
/// come first line first): each function joins the functions in reach once and leaves once.
struct Functions {
    /// By first line.
    by_start: Vec<(u32, u32, String)>,
    /// The next one not yet in reach.
    next: usize,
    /// Those starting at or before the last run asked about and ending at or after its start.
    reach: Vec<usize>,
}

impl Functions {
    fn new(mut functions: Vec<(u32, u32, String)>) -> Functions {
        functions.sort_by_key(|&(start, end, _)| (start, std::cmp::Reverse(end)));
        Functions {
            by_start: functions,
            next: 0,
            reach: Vec::new(),
        }
    }

    /// The innermost functions overlapping lines `start..=end` (at or after the last range
    /// asked about): those that overlap the range and contain no other overlapping function,
    /// in order of their first line.
    fn innermost(&mut self, start: u32, end: u32) -> Vec<String> {
        while self.next < self.by_start.len() && self.by_start[self.next].0 <= end {
            self.reach.push(self.next);
            self.next += 1;
        }
        let by_start = &self.by_start;
        self.reach.retain(|&i| by_start[i].1 >= start);
        let overlapping: Vec<&(u32, u32, String)> =
            self.reach.iter().map(|&i| &by_start[i]).collect();
        innermost(&overlapping)
    }
}

/// Of `overlapping` (sorted by first line, the longer first), those that contain no other:
/// no other starts at or after it, ends at or before it and spans other lines. A function
/// that contains one has it among those right after it (its children come first), and one
/// that contains none is told by the least last line of those after it, so the whole check is
/// about linear (not one comparison per pair: a run can cover thousands of functions).
fn innermost(overlapping: &[&(u32, u32, String)]) -> Vec<String> {
    let n = overlapping.len();
    // `least_end[i]`: the least last line among `overlapping[i..]`.
    let mut least_end = vec![u32::MAX; n + 1];
    for i in (0..n).rev() {
        least_end[i] = least_end[i + 1].min(overlapping[i].1);
    }
    let mut out = Vec::new();
    for (i, &&(s, e, ref name)) in overlapping.iter().enumerate() {
        // Those on exactly its lines come right after it and do not count.
        let mut j = i + 1;
        while j < n && (overlapping[j].0, overlapping[j].1) == (s, e) {
            j += 1;
        }
        // Every later one starts at or after it; one starting within it and ending at or
        // before its end lies inside it.
        let contains = least_end[j] <= e
            && overlapping[j..]
                .iter()
                .take_while(|f| f.0 <= e)
                .any(|f| f.1 <= e);
        if !contains {
            out.push(name.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_innermost_functions_win() {
        let f = vec![
            (1, 20, "outer".to_owned()),
            (5, 8, "outer.inner".to_owned()),
            (22, 30, "next".to_owned()),
        ];
        let ask = |start, end| Functions::new(f.clone()).innermost(start, end);
        assert_eq!(ask(6, 6), ["outer.inner"]);
        assert_eq!(ask(2, 3), ["outer"]);
        assert_eq!(ask(7, 25), ["outer.inner", "next"]);
        assert!(ask(40, 41).is_empty());
        // Asked in order, as the runs come.
        let mut functions = Functions::new(f.clone());
        assert_eq!(functions.innermost(2, 3), ["outer"]);
        assert_eq!(functions.innermost(6, 6), ["outer.inner"]);
        assert_eq!(functions.innermost(7, 25), ["outer.inner", "next"]);
        assert!(functions.innermost(40, 41).is_empty());
        // Two functions sharing a line (`} fn b() {`) are both innermost; so are two on the
        // same lines.
        let g = vec![
            (1, 5, "a".to_owned()),
            (5, 9, "b".to_owned()),
            (7, 7, "c".to_owned()),
            (7, 7, "d".to_owned()),
        ];
        assert_eq!(Functions::new(g.clone()).innermost(5, 5), ["a", "b"]);
        assert_eq!(Functions::new(g).innermost(1, 9), ["a", "c", "d"]);
    }

    /// Two runs over the budget used to make the search try showing both, with a next page
    /// starting at a third run that does not exist: an index out of bounds, and the shim
    /// aborted instead of passing the call to git.
    #[test]
    fn two_runs_over_the_budget_show_one_and_page_the_other() {
        let run = |first: u32, commit: &str| Run {
            commit: commit.into(),
            first,
            last: first,
            text: format!("{commit} {first}\n{}", "x".repeat(600)),
        };
        let runs = [run(1, "a"), run(2, "b")];
        let table: BTreeMap<String, String> = [("a".into(), "A".into()), ("b".into(), "B".into())]
            .into_iter()
            .collect();
        let argv = ["blame".into(), "f".into()];
        let json = fit(
            &runs,
            &table,
            &Blame::default(),
            Path::new("/r"),
            &argv,
            "GIT_PRISM_INSIDE_SHIM=1 git blame f",
            Budget::bytes(1000),
        )
        .unwrap();
        let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(doc["lines"].as_array().unwrap().len(), 1);
        assert_eq!(doc["commits"].as_object().unwrap().len(), 1, "{doc}");
        assert!(doc["next"].as_str().unwrap().contains("-L 2,2 f"), "{doc}");
        assert!(doc["raw"].is_string());
    }
}
