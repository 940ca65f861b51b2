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

use super::overview::{Change, Level, Ordered, Overview, overview};
use super::{AnswerError, Call, next_page};
use crate::budget::{self, Budget, Cut, Stage};
use crate::git::log::CommitInfo;
use crate::git::{Oid, Repo};
use crate::manifest::history::{self, CommitChange};
use crate::paging::{Cursor, Fingerprint, json_len};
use crate::request::Log;

/// The share of the budget the commit lines may take; the rest goes to details.
const LINES_SHARE: usize = 55;
/// The most commits whose counts are computed for one page.
const MAX_LISTED: usize = 250;
/// The most commits detailed on one page.
const MAX_DETAILED: usize = 12;

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
#[derive(Clone, Serialize)]
struct Detail {
    /// The message after the subject line.
    #[serde(skip_serializing_if = "String::is_empty")]
    body: String,
    #[serde(flatten)]
    listing: Overview,
}

/// What a log answer is built from, and how it names what is not on it.
pub struct Input<'a> {
    /// The commits.
    pub log: &'a Log,
    /// The command that prints git's own output, if the answer names one.
    pub raw: Option<&'a str>,
    /// The most the answer may take.
    pub budget: Budget,
    /// Where to continue (a previous page's cursor).
    pub cursor: Option<&'a str>,
    /// How to ask for the page at a cursor.
    pub next: &'a dyn Fn(&str) -> String,
    /// How to ask for one commit's whole change, given its id (`<id>` in general advice).
    pub show: &'a dyn Fn(&str) -> String,
}

/// Builds the answer to `git log`.
pub fn answer(log: &Log, _argv: &[OsString], ctx: &Call) -> Result<String, AnswerError> {
    let repo = ctx.repo()?;
    render(
        &repo,
        &Input {
            log,
            raw: Some(&ctx.raw_command),
            budget: ctx.budget.less(1),
            cursor: ctx.cursor.as_deref(),
            next: &|cursor| next_page(ctx, cursor),
            show: &|id| format!("git show {id}"),
        },
    )
}

/// Renders one page of a history within the request's budget. The commit lines take at most
/// `LINES_SHARE` per cent of it; cut stages: details of the older commits give way first,
/// then the details' level, then commit lines move to the next page.
pub fn render(repo: &Repo, req: &Input<'_>) -> Result<String, AnswerError> {
    let log = req.log;
    let listed = repo.log(log)?;
    let fp = fingerprint(&listed);
    let offset = match req.cursor {
        Some(c) => CURSOR.decode(c, fp)?,
        None => 0,
    };
    let total = listed.len();
    let page: Vec<CommitInfo> = listed.into_iter().skip(offset).take(MAX_LISTED).collect();
    let counted = history::changes(repo, page, &log.paths, false)?;
    let lines: Vec<String> = counted.iter().map(commit_line).collect();
    // The lines that fit their share of the budget (at least one).
    let share = req.budget.share(LINES_SHARE).as_bytes();
    let mut used = 0usize;
    let most_lines = lines
        .iter()
        .take_while(|l| {
            used = used.saturating_add(json_len(*l) + 1);
            used <= share
        })
        .count()
        .max(1)
        .min(lines.len());
    // Details of the newest commits, analysed one at a time until they would hold more than
    // the rest of the budget.
    let room = req.budget.as_bytes().saturating_sub(used.min(share));
    let mut details: Vec<(String, [Detail; 3])> = Vec::new();
    let mut detail_used = 0usize;
    for c in counted.iter().take(most_lines.min(MAX_DETAILED)) {
        if detail_used > room {
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
        let at = |level| Detail {
            body: c.info.body.clone(),
            listing: overview(change, level, room / 2, &(req.show)(&key)),
        };
        let levels = [at(Level::Full), at(Level::Names), at(Level::Summarised)];
        detail_used = detail_used.saturating_add(json_len(&levels[0]) + json_len(&key) + 2);
        details.push((key, levels));
    }
    let show_any = (req.show)("<id>");
    let stages = [
        Stage::Window {
            least: 0,
            most: details.len(),
            total: most_lines,
            holds: "one commit line",
            note: Box::new(|shown, _| {
                Cut::Detail(format!(
                    "files and functions of the commits after the newest {shown} of this page are not detailed: `{show_any}` answers each"
                ))
            }),
        },
        Stage::Detail {
            deepest: 2,
            // The details say themselves what a less detailed level leaves out.
            notes: Box::new(|_| Vec::new()),
        },
        Stage::Window {
            least: 1.min(lines.len()),
            most: most_lines,
            total: total - offset,
            holds: "one commit line",
            note: Box::new(|shown, _| {
                Cut::Later(format!(
                    "{} more commits are on the next pages",
                    total - offset - shown
                ))
            }),
        },
    ];
    let fitted = budget::fit(Some(req.budget), &stages, |s| {
        let shown = s.get(2);
        let answer = LogAnswer {
            raw: req.raw,
            total,
            commits: lines[..shown].to_vec(),
            details: Ordered(
                details
                    .iter()
                    .take(s.get(0).min(shown))
                    .map(|(key, levels)| (key.clone(), levels[s.get(1)].clone()))
                    .collect(),
            ),
            cut: s.notes(),
            next: (offset + shown < total).then(|| (req.next)(&CURSOR.encode(fp, offset + shown))),
        };
        let json = serde_json::to_string(&answer)?;
        let len = json.len();
        Ok::<_, serde_json::Error>((json, len))
    })?;
    Ok(fitted.doc)
}

fn short(sha: &Oid) -> String {
    sha.short(12).to_owned()
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
