//! `git log <range>`: every commit git lists, one line each (short id, date, author, subject,
//! line counts), and for the most recent ones as many as the budget holds, their files and
//! changed functions against their first parent.
//!
//! Long histories are paged by commit: `next` continues the list where this page ends.
//!
//! The same answer serves MCP's `get_commit_history` ([`render`] with the caller's own way of
//! naming the next page and one commit's change).

use std::ffi::OsString;

use serde::Serialize;

use super::overview::{Change, Level, Ordered, Overview, json_len, overview};
use super::{AnswerError, Context, next_page};
use crate::git::Repo;
use crate::manifest::history::{self, CommitChange, CommitInfo};
use crate::manifest::pager::{CursorError as PageError, Fingerprint, decode_tagged, encode_tagged};
use crate::request::Log;

/// The share of the budget the commit lines may take; the rest goes to details.
const LINES_SHARE: usize = 55;
/// The most commits whose counts are computed for one page.
const MAX_LISTED: usize = 250;
/// The most commits detailed on one page.
const MAX_DETAILED: usize = 12;
/// The least room worth starting another commit's details in.
const MIN_DETAIL: usize = 300;
/// Room kept for the cut note and the next command.
const RESERVE: usize = 500;

/// The answer to `git log`.
#[derive(Serialize)]
struct LogAnswer<'a> {
    /// The command that prints git's own output (the shim's answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    raw: Option<&'a str>,
    /// How many commits git lists.
    total: usize,
    /// `<id> <date> <author>: <subject> (+added -removed, N files)`, newest first.
    commits: Vec<String>,
    /// The files and functions of the most recent commits of this page, by short id.
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    details: Ordered<Detail>,
    /// What did not fit, and where it is.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    cut: Vec<String>,
    /// The command that prints the next page.
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<String>,
}

/// One commit in detail.
#[derive(Serialize)]
struct Detail {
    /// The message after the subject line.
    #[serde(skip_serializing_if = "String::is_empty")]
    body: String,
    #[serde(flatten)]
    listing: Overview,
}

/// What a log answer is built from, and how it names what is not on it.
pub struct Request<'a> {
    /// The commits.
    pub log: &'a Log,
    /// The command that prints git's own output, if the answer names one.
    pub raw: Option<&'a str>,
    /// The most characters the answer may take.
    pub budget: usize,
    /// Where to continue (a previous page's cursor).
    pub cursor: Option<&'a str>,
    /// How to ask for the page at a cursor.
    pub next: &'a dyn Fn(&str) -> String,
    /// How to ask for one commit's whole change, given its id (`<id>` in general advice).
    pub show: &'a dyn Fn(&str) -> String,
}

/// Builds the answer to `git log`.
pub fn answer(log: &Log, _argv: &[OsString], ctx: &Context) -> Result<String, AnswerError> {
    let repo = ctx.repo()?;
    render(
        &repo,
        &Request {
            log,
            raw: Some(&ctx.raw),
            budget: ctx.max_output.saturating_sub(1),
            cursor: ctx.cursor.as_deref(),
            next: &|cursor| next_page(ctx, cursor),
            show: &|id| format!("git show {id}"),
        },
    )
}

/// Renders one page of a history within the request's budget.
pub fn render(repo: &Repo, req: &Request<'_>) -> Result<String, AnswerError> {
    let log = req.log;
    let listed = history::commits(repo, log)?;
    let fp = fingerprint(&listed);
    let offset = match req.cursor {
        Some(c) => decode(c, fp)?,
        None => 0,
    };
    let total = listed.len();
    let page: Vec<CommitInfo> = listed.into_iter().skip(offset).take(MAX_LISTED).collect();
    let budget = req.budget;
    let counted = history::changes(repo, page, &log.paths, false)?;
    let mut answer = LogAnswer {
        raw: req.raw,
        total,
        commits: Vec::new(),
        details: Ordered(Vec::new()),
        cut: Vec::new(),
        next: None,
    };
    let lines_room = budget * LINES_SHARE / 100;
    let mut used = json_len(&answer);
    for c in &counted {
        let line = commit_line(c);
        let cost = json_len(&line) + 1;
        if used + cost > lines_room && !answer.commits.is_empty() {
            break;
        }
        used += cost;
        answer.commits.push(line);
    }
    let shown = answer.commits.len();
    // Details for the newest commits of the page, one at a time with function analysis, each
    // as complete as the room left allows.
    let limit = budget.saturating_sub(RESERVE);
    let mut details_shown = 0;
    for c in counted.iter().take(shown.min(MAX_DETAILED)) {
        if limit.saturating_sub(used) < MIN_DETAIL {
            break;
        }
        let Some(analysed) = history::changes(repo, vec![c.info.clone()], &log.paths, true)?
            .into_iter()
            .next()
        else {
            break;
        };
        let change = Change {
            files: &analysed.files,
            dependencies: &analysed.dependencies,
        };
        let key = short(&c.info.sha);
        let room = limit.saturating_sub(used);
        let fitting = [Level::Full, Level::Names, Level::Summarised]
            .into_iter()
            .map(|level| Detail {
                body: c.info.body.clone(),
                listing: overview(change, level, room / 2, &(req.show)(&key)),
            })
            .find(|d| json_len(d) + json_len(&key) + 2 <= room);
        let Some(detail) = fitting else { break };
        used += json_len(&detail) + json_len(&key) + 2;
        details_shown += 1;
        answer.details.0.push((key, detail));
    }
    let end = offset + shown;
    loop {
        answer.cut.clear();
        answer.next = None;
        if details_shown < shown {
            answer.cut.push(format!(
                "files and functions of the {} older commits of this page are not detailed: `{}` answers each",
                shown - details_shown,
                (req.show)("<id>")
            ));
        }
        if end < total {
            answer.cut.push(format!(
                "{} more commits are on the next pages",
                total - end
            ));
            answer.next = Some((req.next)(&encode(fp, end)));
        }
        let size = json_len(&answer);
        if size <= budget || answer.details.0.is_empty() {
            break;
        }
        answer.details.0.pop();
        details_shown -= 1;
    }
    Ok(serde_json::to_string(&answer)?)
}

fn short(sha: &str) -> String {
    sha.chars().take(12).collect()
}

/// `abc123def456 2024-01-02 Name: subject (+3 -1, 2 files)`.
fn commit_line(c: &CommitChange) -> String {
    let (added, removed) = c
        .files
        .iter()
        .filter_map(|f| f.lines)
        .fold((0u64, 0u64), |acc, (a, r)| {
            (acc.0.saturating_add(a), acc.1.saturating_add(r))
        });
    let date = c.info.author_date.get(..10).unwrap_or(&c.info.author_date);
    let n = c.files.len();
    format!(
        "{} {date} {}: {} ({}+{added} -{removed}, {n} file{})",
        short(&c.info.sha),
        c.info.author_name,
        c.info.subject,
        if c.info.is_merge() { "merge, " } else { "" },
        if n == 1 { "" } else { "s" }
    )
}

/// A fingerprint of the listed commits: a cursor is refused once the history changed.
pub(super) fn fingerprint(commits: &[CommitInfo]) -> u64 {
    let mut h = Fingerprint::new();
    for c in commits {
        h.eat(c.sha.as_bytes());
    }
    h.value()
}

/// A cursor into a list of commits: the list's [`fingerprint`] and an offset, under a tag
/// naming the kind of answer it continues.
pub(super) struct CommitCursor(pub(super) &'static str);

impl CommitCursor {
    /// The cursor of the page starting at `offset`.
    pub(super) fn encode(&self, fp: u64, offset: usize) -> String {
        encode_tagged(self.0, fp, &offset.to_string())
    }

    /// The offset of a cursor, refused if it is another kind's or the list has changed.
    pub(super) fn decode(&self, cursor: &str, fp: u64) -> Result<usize, PageError> {
        decode_tagged(cursor, self.0, fp)?
            .parse()
            .map_err(|_| PageError::Invalid(cursor.chars().take(80).collect()))
    }
}

/// The cursor of a log page.
const CURSOR: CommitCursor = CommitCursor("gl1");

fn encode(fp: u64, offset: usize) -> String {
    CURSOR.encode(fp, offset)
}

fn decode(cursor: &str, fp: u64) -> Result<usize, PageError> {
    CURSOR.decode(cursor, fp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_cursors_round_trip_and_go_stale() {
        let c = encode(7, 40);
        assert_eq!(decode(&c, 7), Ok(40));
        assert!(matches!(decode(&c, 8), Err(PageError::Stale(_))));
        for bad in ["", "gl1-", "gl1-x-1", "gl1-7-x", "gp2-7-1.0.0"] {
            assert!(
                matches!(decode(bad, 7), Err(PageError::Invalid(_))),
                "{bad}"
            );
        }
    }
}
