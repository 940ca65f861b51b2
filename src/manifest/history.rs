//! Per-commit manifests: every commit git would list for a `git log` command line, newest
//! first (or as the options order them), each with its files against its first parent.
//!
//! Two calls to the real git: `git log` lists the commits (so every selection option, pathspec
//! and ordering git knows applies exactly), and one `git diff-tree --stdin` computes every
//! commit's per-file facts against its first parent (root commits: against the empty tree).

use std::ffi::OsString;

use bstr::ByteSlice;

use super::build::{DepSource, ManifestError, commit_files, dependency_report};
use super::model::FileChange;
use super::schema::{
    CommitDoc, HistoryDoc, HistoryMetadata, HistoryPagination, HistorySummary, HistoryTruncation,
    SCHEMA_VERSION,
};
use crate::budget::{self, Cut, Stage};
use crate::deps;
use crate::git::raw;
use crate::git::{GitError, Repo};
use crate::paging::{Cursor, Fingerprint, PageError, Paging};
use crate::request::Log;

/// One commit as `git log` describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommitInfo {
    /// Full id.
    pub sha: String,
    /// Parent ids, first parent first.
    pub parents: Vec<String>,
    /// Author name (mailmap applied, as `git log` shows it).
    pub author_name: String,
    /// Author email.
    pub author_email: String,
    /// Author date, strict ISO 8601.
    pub author_date: String,
    /// Committer date, strict ISO 8601.
    pub committer_date: String,
    /// The subject line (the first paragraph, joined like git's `%s`).
    pub subject: String,
    /// The rest of the message.
    pub body: String,
}

impl CommitInfo {
    /// Returns whether the commit is a merge.
    pub fn is_merge(&self) -> bool {
        self.parents.len() > 1
    }
}

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

/// The `--format` that makes `git log` output parseable: fields separated by US (0x1f), the
/// raw message last so a stray separator in it cannot shift the other fields.
const FORMAT: &str = "--format=%H%x1f%P%x1f%aN%x1f%aE%x1f%aI%x1f%cI%x1f%B";

/// Lists the commits of a `git log` command line.
pub fn commits(repo: &Repo, log: &Log) -> Result<Vec<CommitInfo>, GitError> {
    let mut args: Vec<OsString> = vec![
        "log".into(),
        "-z".into(),
        "--no-color".into(),
        FORMAT.into(),
    ];
    args.extend(log.args.iter().cloned());
    // After the caller's options, so they win: the pickaxe (`-S`/`-G`) and path-limited walks
    // diff blobs, and a textconv or external diff driver would run a configured program.
    args.push("--no-textconv".into());
    args.push("--no-ext-diff".into());
    args.push("--".into());
    args.extend(log.paths.iter().cloned());
    let out = repo.git.output(&args)?;
    out.split(|b| *b == 0)
        .filter(|r| !r.is_empty())
        .map(parse_record)
        .collect()
}

fn parse_record(record: &[u8]) -> Result<CommitInfo, GitError> {
    let bad = || GitError::Parse {
        command: "log".into(),
        detail: format!("bad record {:?}", record.as_bstr()),
    };
    let mut fields = record.splitn(7, |b| *b == 0x1f);
    let mut next = || {
        fields
            .next()
            .map(|f| f.to_str_lossy().into_owned())
            .ok_or_else(bad)
    };
    let sha = next()?;
    let parents = next()?;
    let author_name = next()?;
    let author_email = next()?;
    let author_date = next()?;
    let committer_date = next()?;
    let message = next()?;
    let (subject, body) = split_message(&message);
    Ok(CommitInfo {
        sha,
        parents: parents.split_whitespace().map(str::to_owned).collect(),
        author_name,
        author_email,
        author_date,
        committer_date,
        subject,
        body,
    })
}

/// Splits a commit message like git's `%s` and `%b`: blank lines (empty or whitespace only)
/// before the subject are skipped; the subject is the first paragraph, each line without its
/// trailing whitespace, joined by spaces; the body follows the blank lines after it.
pub fn split_message(message: &str) -> (String, String) {
    let space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
    let blank = |line: &&str| line.trim_matches(space).is_empty();
    let mut lines = message.split_inclusive('\n').peekable();
    while lines.next_if(blank).is_some() {}
    let mut subject = String::new();
    while let Some(line) = lines.next_if(|l| !blank(l)) {
        if !subject.is_empty() {
            subject.push(' ');
        }
        subject.push_str(line.trim_end_matches(space));
    }
    while lines.next_if(blank).is_some() {}
    let body: String = lines.collect();
    (subject, body.trim_end_matches('\n').to_owned())
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
    if commits.is_empty() {
        return Ok(Vec::new());
    }
    let mut args: Vec<OsString> = [
        "diff-tree",
        "--stdin",
        "--always",
        "--root",
        "-r",
        "-z",
        "--raw",
        "--numstat",
        "--no-abbrev",
        "--no-ext-diff",
        "--no-textconv",
        "-M",
    ]
    .iter()
    .map(OsString::from)
    .collect();
    args.extend(diff_options.iter().cloned());
    args.push("--".into());
    args.extend(paths.iter().cloned());
    let mut input = String::new();
    for c in &commits {
        match c.parents.first() {
            Some(parent) => input.push_str(&format!("{} {}\n", c.sha, parent)),
            None => input.push_str(&format!("{}\n", c.sha)),
        }
    }
    let out = repo.git.output_with_input(&args, input.into_bytes())?;
    let per_commit = raw::parse_per_commit(&out).map_err(|e| GitError::Parse {
        command: "diff-tree".into(),
        detail: e.0,
    })?;
    if per_commit.len() != commits.len() {
        return Err(GitError::Parse {
            command: "diff-tree".into(),
            detail: format!("{} commits in, {} out", commits.len(), per_commit.len()),
        }
        .into());
    }
    Ok(commits
        .into_iter()
        .zip(per_commit)
        .map(|(info, (_, entries))| {
            let files = commit_files(repo, entries, functions);
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
    let listed = commits(repo, log)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_split_like_git() {
        assert_eq!(
            split_message("subject\n"),
            ("subject".into(), String::new())
        );
        assert_eq!(
            split_message("subject\n\nbody line 1\nline 2\n"),
            ("subject".into(), "body line 1\nline 2".into())
        );
        assert_eq!(
            split_message("wrapped\nsubject\n\n\nbody\n"),
            ("wrapped subject".into(), "body".into())
        );
        assert_eq!(split_message(""), (String::new(), String::new()));
        // What `git log --format=%s` prints for messages no `git commit` cleaned up.
        assert_eq!(
            split_message("subj line   \n  \t\nbody after ws line\n").0,
            "subj line"
        );
        assert_eq!(
            split_message("  lead\nsecond  \n \nbody\n"),
            ("  lead second".into(), "body".into())
        );
        assert_eq!(
            split_message("\n\n  \nreal subject\n\nbody\n"),
            ("real subject".into(), "body".into())
        );
    }

    #[test]
    fn records_parse() {
        let rec = "abc\x1fp1 p2\x1fA U\x1fa@x\x1f2024-01-01T00:00:00Z\x1f2024-01-02T00:00:00Z\x1fsubj\x1fwith sep\n\nbody\n";
        let c = parse_record(rec.as_bytes()).unwrap();
        assert_eq!(c.parents, ["p1", "p2"]);
        assert!(c.is_merge());
        assert_eq!(c.subject, "subj\x1fwith sep");
        assert_eq!(c.body, "body");
        assert!(parse_record(b"abc\x1fonly").is_err());
    }
}
