//! `git log <range>`: every commit git lists, each as one string — its short id, day, author
//! and what it changed on the first line (`[M src/lib.rs +3 -1 (modified parse)]`, or totals
//! for a large commit), then its whole message — in git's order, paged by commit.
//!
//! It is cheaper than git's own output for the same commits (a short id instead of a full one,
//! the day instead of git's date line, no `Author:`/`Date:` labels or message indentation) and
//! says what each commit changed, which git's log does not. Functions are named for the first
//! [`MAX_ANALYSED`] commits of a page (the newest, in git's default order); the others name
//! their files.
//!
//! When git's own output for the command line is smaller than a page, what each commit changed
//! is shortened, then left out, before the answer would cost more than git's ([`super::own`]).
//!
//! The same answer is `get_commit_history`'s compact format ([`render`] with the caller's own
//! way of naming the next page, through `query::history`).

use std::ffi::OsString;

use serde::Serialize;

use super::overview::{self, Change};
use super::{AnswerError, Call, SHORT_ID, day, next_page};
use crate::budget::{self, Budget, Cut, Stage};
use crate::git::Repo;
use crate::git::log::CommitInfo;
use crate::manifest::history::{self, CommitChange};
use crate::paging::{Cursor, Fingerprint};
use crate::request::Log;

/// The most commits whose counts are computed for one page.
const MAX_LISTED: usize = 250;
/// The most commits of a page whose functions are named.
pub const MAX_ANALYSED: usize = 20;
/// About the most bytes a commit's change line takes before it becomes totals.
const CHANGE_ROOM: usize = 80;

/// The answer to `git log`.
#[derive(Serialize)]
struct LogAnswer<'a> {
    /// The command that prints git's own output (a paged answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    raw: Option<&'a str>,
    /// `<id> <day> <author> [<what changed>]` and the message, newest first (git's order).
    commits: Vec<String>,
    /// What is on the next pages.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    cut: Vec<String>,
    /// The command that prints the next page.
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<String>,
}

/// What a log answer is built from, and how it names what is not on it.
pub struct Input<'a> {
    /// The commits.
    pub log: &'a Log,
    /// The command that prints git's own output, named when the answer is paged.
    pub raw: Option<&'a str>,
    /// The most the answer may take.
    pub budget: Budget,
    /// Where to continue (a previous page's cursor).
    pub cursor: Option<&'a str>,
    /// How to ask for the page at a cursor.
    pub next: &'a dyn Fn(&str) -> String,
    /// git's own output for the command line, which the answer shrinks to (the shim's).
    pub own: Option<&'a super::own::Own>,
}

/// Builds the answer to `git log`.
pub fn answer(log: &Log, _argv: &[OsString], ctx: &Call) -> Result<String, AnswerError> {
    let repo = ctx.repo()?;
    render(
        repo,
        &Input {
            log,
            raw: Some(&ctx.raw_command),
            budget: ctx.budget.less(1),
            cursor: ctx.cursor.as_deref(),
            next: &|cursor| next_page(ctx, cursor),
            own: Some(ctx.own()?),
        },
    )
}

/// How much room each level of detail gives what a commit changed: the map's line with the
/// functions by name, then shorter (files or totals), then none.
const CHANGE_ROOMS: [usize; 3] = [CHANGE_ROOM, CHANGE_ROOM / 3, 0];

/// Renders one page of a history within the input's budget: as many commits as fit (at least
/// one), the rest on the next pages.
pub fn render(repo: &Repo, input: &Input<'_>) -> Result<String, AnswerError> {
    let log = input.log;
    let listed = repo.log(log)?;
    let fp = fingerprint(&listed);
    let offset = match input.cursor {
        Some(c) => CURSOR.decode(c, fp)?,
        None => 0,
    };
    let total = listed.len();
    if offset > total {
        return Err(crate::paging::CursorError::Invalid(
            input.cursor.unwrap_or_default().chars().take(80).collect(),
        )
        .into());
    }
    let page: Vec<CommitInfo> = listed.into_iter().skip(offset).take(MAX_LISTED).collect();
    let split = page.len().min(MAX_ANALYSED);
    let mut rest = page;
    let older = rest.split_off(split);
    let mut changes = history::changes(repo, rest, &log.paths, true)?;
    changes.extend(history::changes(repo, older, &log.paths, false)?);
    let entries: Vec<Vec<String>> = CHANGE_ROOMS
        .iter()
        .map(|room| changes.iter().map(|c| entry(c, *room)).collect())
        .collect();
    let shown_total = entries[0].len();
    let page = |budget: Budget| -> Result<String, AnswerError> {
        // What each commit changed gives way only to git's own output (smaller than a page):
        // within a page, commits move to the next page first, each keeping what it changed.
        let deepest = if budget < input.budget { 2 } else { 0 };
        let stages = [
            Stage::detail(vec![
                Cut::Detail("what each commit changed: shortened to its files or totals".into()),
                Cut::Detail(
                    "what each commit changed: left out (`git show --stat <id>` says it)".into(),
                ),
            ])
            .limited(deepest),
            Stage::Window {
                least: 1.min(shown_total),
                most: shown_total,
                total: total - offset,
                holds: "one commit",
                note: Box::new(|shown, _| {
                    Cut::Later(format!(
                        "{} more commits are on the next pages",
                        total - offset - shown
                    ))
                }),
            },
        ];
        let fitted = budget::fit(Some(budget), &stages, |s| {
            let (level, shown) = (s.get(0), s.get(1));
            let paged = offset + shown < total || offset > 0;
            let answer = LogAnswer {
                raw: input.raw.filter(|_| paged),
                commits: entries[level][..shown].to_vec(),
                cut: s.notes(),
                next: (offset + shown < total)
                    .then(|| (input.next)(&CURSOR.encode(fp, offset + shown))),
            };
            let json = crate::json::to_string(&answer)?;
            let len = json.len();
            Ok::<_, serde_json::Error>((json, len))
        })?;
        Ok(fitted.doc)
    };
    match input.own {
        Some(own) => own.fit(input.budget, &page),
        None => page(input.budget),
    }
}

/// One commit: `<id> <day> <author> [<what changed>]` (what changed within about `room`
/// bytes; none at 0), then its message as written.
fn entry(c: &CommitChange, room: usize) -> String {
    let info = &c.info;
    let what = if room == 0 {
        String::new()
    } else {
        overview::change_line(
            Change {
                files: &c.files,
                dependencies: &c.dependencies,
            },
            room,
        )
    };
    let merge = if info.is_merge() { "merge" } else { "" };
    // `[]` says nothing: an empty commit's line ends with its author.
    let what = match (merge, what.as_str()) {
        ("", "") => String::new(),
        (m, "") => format!(" [{m}]"),
        ("", w) => format!(" [{w}]"),
        (m, w) => format!(" [{m}; {w}]"),
    };
    format!(
        "{} {} {}{what}\n{}",
        info.sha.short(SHORT_ID),
        day(&info.author_date),
        info.author_name,
        info.message
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

/// The cursor of a log page.
const CURSOR: Cursor = Cursor("gl1");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paging::CursorError;

    #[test]
    fn log_cursors_round_trip_and_go_stale() {
        let c = CURSOR.encode(7, 40);
        assert_eq!(CURSOR.decode(&c, 7), Ok(40));
        assert!(matches!(CURSOR.decode(&c, 8), Err(CursorError::Stale(_))));
        for bad in ["", "gl1-", "gl1-x-1", "gl1-7-x", "gp2-7-1.0.0"] {
            assert!(
                matches!(CURSOR.decode(bad, 7), Err(CursorError::Invalid(_))),
                "{bad}"
            );
        }
    }
}
