//! `git blame [-L a,b] [<rev>] [--] <path>`: real blame (git's own), grouped into hunks of
//! consecutive lines from the same commit, with a table of the commits and, where the file's
//! language is analysed, the function each hunk lies in.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::Path;

use schemars::JsonSchema;
use serde::Serialize;

use super::{AnswerError, Call};
use crate::budget::{self, Budget, Cut, Stage};
use crate::git::blame;
use crate::git::{Oid, Repo, worktree};
use crate::manifest::language;
use crate::request::Blame;
use crate::shell;
use crate::time::iso_date;

/// Characters of a commit id shown in hunks and the commits table.
const SHORT: usize = 12;

/// A grouped blame.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BlameDoc {
    /// The command that prints git's own output instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw: Option<String>,
    /// The file, as given.
    pub path: String,
    /// The revision blamed (absent: the working tree).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rev: Option<String>,
    /// Lines blamed.
    pub lines: usize,
    /// Runs of consecutive lines last changed by the same commit.
    pub hunks: Vec<HunkDoc>,
    /// Each commit that appears, by its id's first 12 characters.
    pub commits: BTreeMap<String, CommitDoc>,
    /// Present when hunks were cut to fit the output budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<Truncated>,
}

/// One hunk.
#[derive(Debug, Serialize, JsonSchema)]
pub struct HunkDoc {
    /// First line.
    pub start_line: u32,
    /// Last line.
    pub end_line: u32,
    /// The commit (first 12 characters of its id; `^` marks a blame boundary).
    pub commit: String,
    /// The commit's author.
    pub author: String,
    /// The author date, ISO 8601 with the author's offset.
    pub date: String,
    /// The commit's subject.
    pub summary: String,
    /// The innermost functions or methods the hunk's lines lie in (several when the hunk
    /// spans several definitions).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<String>,
}

/// One commit of the table.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CommitDoc {
    /// Full id.
    pub sha: Oid,
    /// Author name.
    pub author: String,
    /// Author email.
    pub email: String,
    /// Author date.
    pub date: String,
    /// Subject.
    pub summary: String,
    /// Lines of the blamed range last changed by this commit.
    pub lines: usize,
}

/// What was cut.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Truncated {
    /// Hunks not shown.
    pub hunks_not_shown: usize,
    /// The command that shows the rest.
    pub next_page: String,
}

/// Builds the answer to `git blame`.
pub fn answer(b: &Blame, argv: &[OsString], ctx: &Call) -> Result<String, AnswerError> {
    let repo = ctx.repo()?;
    let doc = blame_doc(
        &repo,
        b,
        argv,
        Some(ctx.raw_command.clone()),
        ctx.budget.less(1),
    )?;
    Ok(serde_json::to_string(&doc)?)
}

/// Blames with the real git and groups the result, within `budget` of JSON.
pub fn blame_doc(
    repo: &Repo,
    b: &Blame,
    argv: &[OsString],
    raw: Option<String>,
    budget: Budget,
) -> Result<BlameDoc, AnswerError> {
    let parsed = repo.blame(b)?;
    let functions = functions_of(repo, b).unwrap_or_default();
    let short = |sha: &Oid| sha.short(SHORT).to_owned();
    let mut counts: BTreeMap<&Oid, usize> = BTreeMap::new();
    for line in &parsed.lines {
        *counts.entry(&line.sha).or_default() += 1;
    }
    let hunks: Vec<HunkDoc> = blame::hunks(&parsed.lines)
        .into_iter()
        .map(|h| {
            let details = parsed.commits.get(&h.sha).cloned().unwrap_or_default();
            let mut commit = short(&h.sha);
            if details.boundary {
                commit.insert(0, '^');
            }
            HunkDoc {
                start_line: h.start,
                end_line: h.end,
                commit,
                author: details.author.clone(),
                date: iso_date(details.time, &details.tz),
                summary: details.summary.clone(),
                functions: innermost(&functions, h.start, h.end),
            }
        })
        .collect();
    let commits = parsed
        .commits
        .iter()
        .map(|(sha, d)| {
            (
                short(sha),
                CommitDoc {
                    sha: sha.clone(),
                    author: d.author.clone(),
                    email: d.email.clone(),
                    date: iso_date(d.time, &d.tz),
                    summary: d.summary.clone(),
                    lines: counts.get(sha).copied().unwrap_or(0),
                },
            )
        })
        .collect();
    let mut doc = BlameDoc {
        raw,
        path: b.path.to_string_lossy().into_owned(),
        rev: b.rev.as_ref().map(|r| r.to_string_lossy().into_owned()),
        lines: parsed.lines.len(),
        hunks,
        commits,
        truncated: None,
    };
    fit(&mut doc, b, &repo.dir, argv, budget)?;
    Ok(doc)
}

/// Shows the hunks that fit the budget (at least one); the rest are named by `truncated`, a
/// blame of just their lines, and the commits table keeps only the commits shown.
fn fit(
    doc: &mut BlameDoc,
    blame: &Blame,
    dir: &Path,
    argv: &[OsString],
    budget: Budget,
) -> Result<(), serde_json::Error> {
    let all = std::mem::take(&mut doc.hunks);
    let commits = std::mem::take(&mut doc.commits);
    let next_page = |from: usize| {
        // The same blame of the lines not shown: git's own command with one `-L` per run of
        // consecutive lines left (several `-L` ranges stay apart), which the shim answers
        // again.
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for h in &all[from..] {
            match runs.last_mut() {
                Some(run) if h.start_line == run.1 + 1 => run.1 = h.end_line,
                _ => runs.push((h.start_line, h.end_line)),
            }
        }
        format!(
            "git -C {} blame {}",
            shell::quote(dir.as_os_str()),
            shell::join(
                blame
                    .limited_to(argv, &runs)
                    .iter()
                    .map(OsString::as_os_str)
            )
        )
    };
    let count = all.len();
    let stages = [Stage::Window {
        least: 1.min(count),
        most: count,
        total: count,
        holds: "one hunk",
        note: Box::new(|shown, budget| Cut::Moved {
            entries: "hunks",
            shown,
            budget,
        }),
    }];
    let show = |doc: &mut BlameDoc, n: usize| {
        doc.hunks = all[..n].iter().map(clone_hunk).collect();
        doc.truncated = (n < count).then(|| Truncated {
            hunks_not_shown: count - n,
            next_page: next_page(n),
        });
        // The commits table only needs the commits of the hunks shown.
        let shown: std::collections::BTreeSet<&str> = doc
            .hunks
            .iter()
            .map(|h| h.commit.trim_start_matches('^'))
            .collect();
        doc.commits = commits
            .iter()
            .filter(|(k, _)| shown.contains(k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
    };
    let fitted = budget::fit(Some(budget), &stages, |s| {
        show(doc, s.get(0));
        let len = serde_json::to_string(&*doc)?.len();
        Ok::<_, serde_json::Error>((s.get(0), len))
    })?;
    show(doc, fitted.doc);
    Ok(())
}

fn clone_hunk(h: &HunkDoc) -> HunkDoc {
    HunkDoc {
        start_line: h.start_line,
        end_line: h.end_line,
        commit: h.commit.clone(),
        author: h.author.clone(),
        date: h.date.clone(),
        summary: h.summary.clone(),
        functions: h.functions.clone(),
    }
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

/// The innermost functions overlapping lines `start..=end`: those that overlap the range and
/// contain no other overlapping function.
fn innermost(functions: &[(u32, u32, String)], start: u32, end: u32) -> Vec<String> {
    let overlapping: Vec<&(u32, u32, String)> = functions
        .iter()
        .filter(|(s, e, _)| *s <= end && start <= *e)
        .collect();
    overlapping
        .iter()
        .filter(|(s, e, name)| {
            !overlapping
                .iter()
                .any(|(s2, e2, n2)| n2 != name && s <= s2 && e2 <= e && (s, e) != (s2, e2))
        })
        .map(|(_, _, name)| name.clone())
        .collect()
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
        assert_eq!(innermost(&f, 6, 6), ["outer.inner"]);
        assert_eq!(innermost(&f, 2, 3), ["outer"]);
        assert_eq!(innermost(&f, 7, 25), ["outer.inner", "next"]);
        assert!(innermost(&f, 40, 41).is_empty());
    }

    /// Two hunks over the budget used to make the search try showing both, with a next page
    /// starting at a third hunk that does not exist: an index out of bounds, and the shim
    /// aborted instead of passing the call to git.
    #[test]
    fn two_hunks_over_the_budget_show_one_and_page_the_other() {
        let hunk = |start: u32, commit: &str| HunkDoc {
            start_line: start,
            end_line: start,
            commit: commit.to_owned(),
            author: "A".repeat(400),
            date: "2024-01-01T00:00:00+00:00".into(),
            summary: "s".repeat(400),
            functions: Vec::new(),
        };
        let mut doc = BlameDoc {
            raw: None,
            path: "f".into(),
            rev: None,
            lines: 2,
            hunks: vec![hunk(1, "aaaa"), hunk(2, "bbbb")],
            commits: BTreeMap::new(),
            truncated: None,
        };
        let argv = ["blame".into(), "f".into()];
        fit(
            &mut doc,
            &Blame::default(),
            Path::new("/r"),
            &argv,
            Budget::bytes(1000),
        )
        .unwrap();
        assert_eq!(doc.hunks.len(), 1);
        let truncated = doc.truncated.unwrap();
        assert_eq!(truncated.hunks_not_shown, 1);
        assert!(
            truncated.next_page.contains("-L 2,2 f"),
            "{}",
            truncated.next_page
        );
    }
}
