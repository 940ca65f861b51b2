//! `git show <commit>`: the commit, its diffstat, and its manifest against its first parent
//! (root commits: against the empty tree, everything added).

use std::ffi::OsString;

use serde::Serialize;

use super::{AnswerError, Context, repo_arg, tokens_for};
use crate::git::revs::EMPTY_TREE;
use crate::manifest::schema::ManifestDoc;
use crate::manifest::{self, history, page, pager};
use crate::request::{Diff, Log, Show};
use crate::shell;

/// The commit part of a `git show` answer.
#[derive(Serialize)]
struct CommitHeader<'a> {
    sha: &'a str,
    parents: &'a [String],
    author: String,
    date: &'a str,
    subject: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    body: &'a str,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    is_merge: bool,
    /// What the manifest compares the commit with.
    compared_with: &'a str,
}

/// A `git show` answer: the commit, its diffstat, then its manifest.
#[derive(Serialize)]
struct ShowDoc<'a> {
    raw: &'a str,
    commit: CommitHeader<'a>,
    diffstat: Diffstat,
    /// Absent only while the rest is measured for the budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    manifest: Option<ManifestDoc>,
}

/// The diffstat part: git's totals for the commit.
#[derive(Serialize)]
struct Diffstat {
    files_changed: usize,
    insertions: u64,
    deletions: u64,
}

/// Builds the answer to `git show`.
pub fn answer(show: &Show, ctx: &Context) -> Result<String, AnswerError> {
    let repo = ctx.repo()?;
    let name = show.rev.clone().unwrap_or_else(|| OsString::from("HEAD"));
    let resolved = repo.resolve(&name)?;
    if !resolved.is_commit {
        return Err(AnswerError::Unsupported(format!(
            "`show {}` shows a tree",
            name.to_string_lossy()
        )));
    }
    let sha = resolved.sha;
    let parents = repo.parents(&sha)?;
    let base = parents
        .first()
        .cloned()
        .unwrap_or_else(|| EMPTY_TREE.to_owned());
    let diff = Diff {
        positional: vec![base.clone().into(), sha.clone().into()],
        separator: true,
        options: show.options.clone(),
        ..Diff::default()
    };
    let mut built = manifest::build(&repo, &diff, &manifest::Options::default())?;
    let shown = name.to_string_lossy().into_owned();
    built.target.base_ref = if parents.is_empty() {
        "(empty tree)".to_owned()
    } else {
        format!("{shown}^")
    };
    built.target.head_ref = shown;
    let info = history::commits(
        &repo,
        &Log {
            args: vec!["-1".into(), "--no-walk".into(), sha.clone().into()],
            ..Log::default()
        },
    )?
    .into_iter()
    .next()
    .ok_or_else(|| AnswerError::Unsupported("git log listed no commit".into()))?;
    let summary = page::summary(&built.files);
    let mut doc = ShowDoc {
        raw: &ctx.raw,
        commit: CommitHeader {
            sha: &info.sha,
            parents: &info.parents,
            author: format!("{} <{}>", info.author_name, info.author_email),
            date: &info.author_date,
            subject: &info.subject,
            body: &info.body,
            is_merge: info.is_merge(),
            compared_with: if parents.is_empty() {
                "the empty tree (root commit)"
            } else {
                "its first parent"
            },
        },
        diffstat: Diffstat {
            files_changed: summary.files_changed,
            insertions: summary.lines_added,
            deletions: summary.lines_removed,
        },
        manifest: None,
    };
    let header = serde_json::to_string(&doc)?.len();
    let next = |cursor: &str| {
        format!(
            "git-prism manifest {} --max-tokens {} --cursor {cursor} {} {}",
            repo_arg(&repo),
            tokens_for(ctx.max_output),
            shell::quote(base.as_ref()),
            sha
        )
    };
    let paging = pager::Paging {
        max_bytes: Some(ctx.max_output.saturating_sub(header + 16)),
        ..pager::Paging::default()
    };
    doc.manifest = Some(page::document(&built, &paging, &ctx.now, &next)?);
    Ok(serde_json::to_string(&doc)?)
}
