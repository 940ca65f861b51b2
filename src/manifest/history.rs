//! Per-commit manifests: every commit git would list for a `git log` command line, newest
//! first (or as the options order them), each with its files against its first parent.
//!
//! Two calls to the real git: `git log` lists the commits (so every selection option, pathspec
//! and ordering git knows applies exactly), and one `git diff-tree --stdin` computes every
//! commit's per-file facts against its first parent (root commits: against the empty tree).
//! [`changes`] gives each listed commit's file changes (what the shim's `git log` and pickaxe
//! answers summarise); [`history`] and [`render`] make the full form's pages.

use std::ffi::OsString;

use super::build::{ManifestError, commit_files};
use super::dependencies::{DepSource, dependency_report};
use super::model::FileChange;
use super::schema::{
    CommitDoc, HistoryDoc, HistoryMetadata, HistoryPagination, HistorySummary, HistoryTruncation,
    SCHEMA_VERSION,
};
use crate::budget::{self, Cut, Stage};
use crate::deps;
use crate::git::Repo;
use crate::git::log::CommitInfo;
use crate::paging::{Cursor, Fingerprint, PageError, Paging};
use crate::request::Log;

/// One commit and what it changed against its first parent.
#[derive(Clone, Debug)]
pub struct CommitChange {
    /// The commit.
    pub info: CommitInfo,
    /// Its files.
    pub files: Vec<FileChange>,
    /// Its dependency changes.
    pub dependencies: deps::Report,
}

/// Computes every listed commit's files against its first parent, in one `git diff-tree`.
pub fn changes(
    repo: &Repo,
    commits: Vec<CommitInfo>,
    paths: &[OsString],
    functions: bool,
) -> Result<Vec<CommitChange>, ManifestError> {
    changes_with(repo, commits, paths, functions, &[])
}

/// Like [`changes`], with extra diff options for git (a pickaxe keeps only the file pairs
/// whose occurrences changed).
pub fn changes_with(
    repo: &Repo,
    commits: Vec<CommitInfo>,
    paths: &[OsString],
    functions: bool,
    diff_options: &[OsString],
) -> Result<Vec<CommitChange>, ManifestError> {
    let pairs: Vec<_> = commits
        .iter()
        .map(|c| (c.sha.clone(), c.parents.first().cloned()))
        .collect();
    let per_commit = repo.diff_tree(&pairs, diff_options, paths)?;
    Ok(commits
        .into_iter()
        .zip(per_commit)
        .map(|(info, entries)| {
            let files = commit_files(repo, info.parents.first(), entries, functions);
            let sources: Vec<DepSource> = files
                .iter()
                .filter(|f| deps::Format::of(&f.path).is_some())
                .map(DepSource::from_change)
                .collect();
            let dependencies = dependency_report(repo, &sources, None, &Default::default());
            CommitChange {
                info,
                files,
                dependencies,
            }
        })
        .collect())
}

/// Lists the commits of a `git log` command line with their changes.
pub fn history(
    repo: &Repo,
    log: &Log,
    functions: bool,
) -> Result<Vec<CommitChange>, ManifestError> {
    let listed = repo.log(log)?;
    changes(repo, listed, &log.paths, functions)
}

/// Renders a history as JSON within the paging and budget constraints (pages split commits).
/// Cut stages: commit message bodies, then files beyond the first 10, 3 and 0 of each commit
/// (counts kept), then commits move to the next page.
pub fn render(
    repo_path: &str,
    range: &str,
    commits: &[CommitChange],
    paging: &Paging,
    generated_at: &str,
    next_page: &dyn Fn(&str) -> String,
) -> Result<String, PageError> {
    let page = HistoryPage {
        repo_path,
        range,
        commits,
        generated_at,
        next_page,
        fingerprint: fingerprint(commits),
        summary: history_summary(commits),
    };
    let offset = paging.offset(Cursor::LIST, page.fingerprint)?;
    let end = paging.end(offset, commits.len())?;
    let whole = end - offset;
    let caps = [10, 3, 0];
    let stages = [
        Stage::detail(vec![Cut::Detail("commit message bodies".into())]),
        Stage::detail(
            caps.iter()
                .map(|cap| {
                    Cut::Detail(format!(
                        "files beyond the first {cap} of each commit (counts kept)"
                    ))
                })
                .collect(),
        ),
        Stage::moving("commits", "one commit", 1.min(whole), whole),
    ];
    let fitted = budget::fit(paging.budget, &stages, |s| {
        let view = HistoryView {
            offset,
            end: offset + s.get(2),
            bodies: s.get(0) == 0,
            files_per_commit: s.get(1).checked_sub(1).map_or(usize::MAX, |i| caps[i]),
            cuts: s.notes(),
        };
        let json = paging.to_json(&page.doc(&view))?;
        let len = json.len();
        Ok::<_, PageError>((json, len))
    })?;
    Ok(fitted.doc)
}

/// What every page of one history shares.
struct HistoryPage<'a> {
    repo_path: &'a str,
    range: &'a str,
    commits: &'a [CommitChange],
    generated_at: &'a str,
    next_page: &'a dyn Fn(&str) -> String,
    fingerprint: u64,
    summary: HistorySummary,
}

impl HistoryPage<'_> {
    /// The document of one rendering.
    fn doc(&self, view: &HistoryView) -> HistoryDoc {
        let total = self.commits.len();
        let next_cursor =
            (view.end < total).then(|| Cursor::LIST.encode(self.fingerprint, view.end));
        HistoryDoc {
            metadata: HistoryMetadata {
                schema_version: SCHEMA_VERSION,
                tool: "git-prism",
                version: env!("CARGO_PKG_VERSION"),
                repo_path: self.repo_path.to_owned(),
                range: self.range.to_owned(),
                generated_at: self.generated_at.to_owned(),
            },
            summary: self.summary.clone(),
            commits: self.commits[view.offset..view.end]
                .iter()
                .map(|c| commit_doc(c, view))
                .collect(),
            pagination: (view.offset > 0 || view.end < total).then(|| HistoryPagination {
                offset: view.offset,
                returned: view.end - view.offset,
                total_commits: total,
                next_cursor: next_cursor.clone(),
            }),
            truncated: (!view.cuts.is_empty()).then(|| HistoryTruncation {
                cut: view.cuts.clone(),
                commits_not_shown: total - (view.end - view.offset),
                next_page: next_cursor.as_deref().map(self.next_page),
            }),
        }
    }
}

/// What one rendering of a history shows.
struct HistoryView {
    offset: usize,
    end: usize,
    bodies: bool,
    files_per_commit: usize,
    cuts: Vec<String>,
}

fn fingerprint(commits: &[CommitChange]) -> u64 {
    let mut h = Fingerprint::new();
    for c in commits {
        h.eat(c.info.sha.as_bytes())
            .eat(&(c.files.len() as u64).to_le_bytes());
    }
    h.value()
}

fn history_summary(commits: &[CommitChange]) -> HistorySummary {
    let mut authors: Vec<String> = Vec::new();
    let (mut merges, mut files, mut added, mut removed) = (0, 0, 0, 0);
    for c in commits {
        let author = format!("{} <{}>", c.info.author_name, c.info.author_email);
        if !authors.contains(&author) {
            authors.push(author);
        }
        merges += usize::from(c.info.is_merge());
        files += c.files.len();
        for f in &c.files {
            if let Some((a, r)) = f.lines {
                added += a;
                removed += r;
            }
        }
    }
    HistorySummary {
        commits: commits.len(),
        merges,
        file_changes: files,
        lines_added: added,
        lines_removed: removed,
        authors,
    }
}

fn commit_doc(c: &CommitChange, view: &HistoryView) -> CommitDoc {
    let (added, removed) = c
        .files
        .iter()
        .filter_map(|f| f.lines)
        .fold((0, 0), |acc, (a, r)| (acc.0 + a, acc.1 + r));
    let shown = c.files.len().min(view.files_per_commit);
    CommitDoc {
        sha: c.info.sha.clone(),
        parents: c.info.parents.clone(),
        author: format!("{} <{}>", c.info.author_name, c.info.author_email),
        date: c.info.author_date.clone(),
        subject: c.info.subject.clone(),
        body: if view.bodies {
            c.info.body.clone()
        } else {
            String::new()
        },
        is_merge: c.info.is_merge(),
        files_changed: c.files.len(),
        lines_added: added,
        lines_removed: removed,
        files: c.files[..shown]
            .iter()
            .map(super::render::file_doc)
            .collect(),
        files_not_shown: c.files.len() - shown,
        dependency_changes: c
            .dependencies
            .changes
            .iter()
            .map(super::render::dependency_doc)
            .collect(),
    }
}
