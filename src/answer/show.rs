//! `git show <commit>`: the commit (id, a merge's parents, author, date, full message) and its
//! change against its first parent (root commits: against the empty tree, everything added), as
//! [`super::compact`] renders a change (git's hunks headed by their functions, or the map first
//! when they do not fit).
//!
//! `--format=` / `--pretty=` (empty) leave out the commit's header (its id stays, so the answer
//! is citable); `-U<n>` and `-W` shape the hunks; paths after `--` limit the change to them.
//! `-s` / `--no-patch` is what git prints for it, its header and message, in the answer's words:
//! what the commit changed is added (as a log line says it) only while the answer stays within
//! git's own output ([`super::own`]).

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
pub(crate) fn answer(show: &Show, ctx: &Call) -> Result<String, AnswerError> {
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
    let diff = built_for(show, &sha, &base);
    let info = repo.commit_info(&sha)?;
    let date = super::short_date(&info.author_date);
    let compared_with = match parents.len() {
        0 => Some("the empty tree (root commit)"),
        1 => None,
        _ => Some("its first parent (merge commit)"),
    };
    let header = !show.no_header;
    if show.no_patch {
        return short(ctx, repo, &diff, &sha, &parents, &info, header);
    }
    let built = manifest::build(repo, &diff, &manifest::Options::default())?;
    let merge_parents: Vec<&str> = if header && parents.len() > 1 {
        parents.iter().map(|p| p.short(SHORT_ID)).collect()
    } else {
        Vec::new()
    };
    render_change(ctx, repo, &built, &show.patch, true, false, &|body| {
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

/// The diff a commit is shown as: against its first parent (`base`), limited to the paths and
/// with the options the command line gives.
fn built_for(show: &Show, sha: &Oid, base: &Oid) -> Diff {
    Diff {
        positional: vec![base.clone().into(), sha.clone().into()],
        separator: true,
        paths: show.paths.clone(),
        options: show.options.clone(),
        ..Diff::default()
    }
}

/// The answer to `git show -s`: git's header and message in the answer's words.
#[derive(Serialize)]
struct ShortAnswer<'a> {
    /// The commit's id, shortened.
    commit: &'a str,
    /// A merge's parents, shortened.
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
    /// What the commit changed, as a log line says it (`M src/lib.rs +3 -1 (modified parse)`,
    /// or totals), only as far as git's own output leaves room.
    #[serde(skip_serializing_if = "Option::is_none")]
    changed: Option<String>,
}

/// The fewest bytes worth spending on what a commit changed (`M a.rs +1 -1` and its quotes).
const MIN_CHANGED: usize = 16;

/// Builds the answer to `git show -s`: what git prints (the commit's id, a merge's parents, the
/// author, the date and the message; only the id with an empty `--format=`), and what the
/// commit changed only while the whole stays within git's own output (issue 36: with every
/// file, function and type it was larger than git's for 27 of 30 commits).
fn short(
    ctx: &Call,
    repo: &crate::git::Repo,
    diff: &Diff,
    sha: &Oid,
    parents: &[Oid],
    info: &crate::git::log::CommitInfo,
    header: bool,
) -> Result<String, AnswerError> {
    let date = super::short_date(&info.author_date);
    let mut doc = ShortAnswer {
        commit: sha.short(SHORT_ID),
        parents: if header && parents.len() > 1 {
            parents.iter().map(|p| p.short(SHORT_ID)).collect()
        } else {
            Vec::new()
        },
        author: header.then(|| format!("{} <{}>", info.author_name, info.author_email)),
        date: header.then_some(date.as_str()),
        message: header.then_some(info.message.as_str()),
        changed: None,
    };
    let plain = crate::json::to_string(&doc)?;
    // Each try costs a rendering; the room shrinks by a third each time (the line's quoting and
    // tokens are only known once written).
    let mut bytes = match ctx.own()?.room(format!("{plain}\n").as_bytes())? {
        Some(room) => room.bytes.min(room.tokens.saturating_mul(3)),
        None => ctx.budget.as_bytes().saturating_sub(plain.len() + 1),
    };
    if bytes < MIN_CHANGED {
        return Ok(plain);
    }
    let built = manifest::build(repo, diff, &manifest::Options::default())?;
    let change = super::overview::Change::from(&built);
    while bytes >= MIN_CHANGED {
        let line = super::overview::change_line(change, bytes);
        if line.is_empty() {
            break;
        }
        doc.changed = Some(line);
        let json = crate::json::to_string(&doc)?;
        if ctx.own()?.admits(format!("{json}\n").as_bytes())? {
            return Ok(json);
        }
        bytes = bytes * 2 / 3;
    }
    Ok(plain)
}
