//! `git show <commit>`: the commit (id, a merge's parents, author, date, full message) and its
//! change against its first parent (root commits: against the empty tree, everything added), as
//! [`super::compact`] renders a change (git's hunks headed by their functions, or the map first
//! when they do not fit).
//!
//! `--format=` / `--pretty=` (empty) leave out the commit's header (its id stays, so the answer
//! is citable); `-s` / `--no-patch` leave out the hunks; `-U<n>` and `-W` shape them; paths
//! after `--` limit the change to them.

use std::ffi::OsString;

use serde::Serialize;

use super::compact::Body;
use super::{AnswerError, Call, SHORT_ID, render_change};
use crate::git::Oid;
use crate::manifest;
use crate::request::{Diff, Show};

/// The answer to `git show`.
#[derive(Serialize)]
struct ShowAnswer<'a> {
    /// The commit's id, shortened.
    commit: &'a str,
    /// A merge's parents, shortened (the first is what the change is compared with).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    parents: Vec<&'a str>,
    /// `Name <email>`.
    #[serde(skip_serializing_if = "Option::is_none")]
    author: Option<String>,
    /// The author date.
    #[serde(skip_serializing_if = "Option::is_none")]
    date: Option<&'a str>,
    /// The full commit message.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
    /// For a merge or a root commit: what the change is compared with.
    #[serde(skip_serializing_if = "Option::is_none")]
    compared_with: Option<&'a str>,
    #[serde(flatten)]
    body: &'a Body,
}

/// Builds the answer to `git show`.
pub fn answer(show: &Show, ctx: &Call) -> Result<String, AnswerError> {
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
    let base = parents.first().cloned().unwrap_or_else(Oid::empty_tree);
    let diff = Diff {
        positional: vec![base.clone().into(), sha.clone().into()],
        separator: true,
        paths: show.paths.clone(),
        options: show.options.clone(),
        ..Diff::default()
    };
    let built = manifest::build(&repo, &diff, &manifest::Options::default())?;
    let info = repo.commit_info(&sha)?;
    let date = super::short_date(&info.author_date);
    let compared_with = match parents.len() {
        0 => Some("the empty tree (root commit)"),
        1 => None,
        _ => Some("its first parent (merge commit)"),
    };
    let header = !show.no_header;
    let hunks = !show.no_patch;
    let merge_parents: Vec<&str> = if header && parents.len() > 1 {
        parents.iter().map(|p| p.short(SHORT_ID)).collect()
    } else {
        Vec::new()
    };
    render_change(ctx, &repo, &built, &show.patch, hunks, false, &|body| {
        crate::json::to_string(&ShowAnswer {
            commit: sha.short(SHORT_ID),
            parents: merge_parents.clone(),
            author: header.then(|| format!("{} <{}>", info.author_name, info.author_email)),
            date: header.then_some(date.as_str()),
            message: header.then_some(info.message.as_str()),
            compared_with,
            body,
        })
    })
}
