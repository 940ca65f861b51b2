//! `git log -S <term>` / `git log -G <regex>`: the commits git's pickaxe lists, each with its
//! whole message and the changed lines that hold the term, each placed in its function: who
//! introduced (or removed) something, and why, in one call.
//!
//! Each commit is one string: `<id> <day> <author>`, the message as written, then per file and
//! function the changed lines that match (`src/lib.rs:121 Map::insert` and git's `+`/`-`
//! lines). Which files count is git's own filtering (the diff of the commit runs with the same
//! pickaxe options); which lines show is the term matched against each changed line. Regular
//! expressions are Rust's `regex` syntax, close to the POSIX extended syntax git uses; a term
//! the crate cannot compile makes the call pass through to git. `-i` /
//! `--regexp-ignore-case` makes both git's filter and the match ignore case.
//!
//! Long lists are paged by commit over the list git gives (its `-n`, `--skip` and `--reverse`
//! applied once): `next` is the same command with `GIT_PRISM_CURSOR`, bound to the listed
//! commits. Only the commits of a page are analysed.
//!
//! git's own `log -S` prints each commit's header and message, no lines: the answer saves on
//! those (a short id, the day, no labels or indentation) and spends what it saves on the lines,
//! as many of each commit's as git's own output leaves room for ([`super::own`]), saying how
//! many it shows.

use std::ffi::OsString;

use bstr::ByteSlice;
use serde::Serialize;

use super::{AnswerError, Call, SHORT_ID, day, next_page};
use crate::budget::{self, Budget, Cut, Stage};
use crate::git::Oid;
use crate::git::log::CommitInfo;
use crate::manifest::hunks::{self, changed_lines, display_path, function_at, shows_hunks};
use crate::manifest::{self, Manifest};
use crate::paging::Cursor;
use crate::request::{Diff, Log};

/// How the term matches.
enum Matcher {
    Literal(Vec<u8>),
    Regex(regex::bytes::Regex),
}

impl Matcher {
    /// Whether a line holds the term.
    fn matches(&self, line: &[u8]) -> bool {
        match self {
            Matcher::Literal(t) if t.is_empty() => false,
            Matcher::Literal(t) => line.find(t).is_some(),
            Matcher::Regex(r) => r.is_match(line),
        }
    }
}

/// The answer to a pickaxe.
#[derive(Serialize)]
struct PickaxeAnswer<'a> {
    /// The command that prints git's own output (a paged answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    raw: Option<&'a str>,
    /// Each commit: `<id> <day> <author>`, its message, and the matching changed lines by file
    /// and function.
    commits: Vec<String>,
    /// What is on the next pages.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    cut: Vec<String>,
    /// The command that prints the next page.
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<String>,
}

/// The most commits listed for one page (each analysed only while the page fills).
const MAX_PAGE: usize = 100;

/// The most matching lines shown per commit; past that, how many more.
const MAX_LINES: usize = 60;

/// The cursor of a pickaxe page.
const CURSOR: Cursor = Cursor("gk1");

/// Builds the answer to `git log -S/-G`.
pub(crate) fn answer(log: &Log, _argv: &[OsString], ctx: &Call) -> Result<String, AnswerError> {
    let matcher = Matcher::of(log)?;
    let repo = ctx.repo()?;
    let listed = repo.log(log)?;
    let fp = super::log::fingerprint(&listed);
    let offset = page_start(ctx, fp, listed.len())?;
    let budget = ctx.budget.less(1);
    let entries = analyse(repo, &listed[offset..], log, &matcher, budget)?;
    let page = Page {
        ctx,
        fp,
        offset,
        total: listed.len(),
        shown: entries.len(),
        texts: LINE_LIMITS
            .iter()
            .map(|limit| entries.iter().map(|e| e.text(*limit)).collect())
            .collect(),
        full: budget,
    };
    // git's own `log -S` prints each commit's header and message: the lines fill what the
    // answer saves on those (issue 36), never more.
    ctx.own()?.fit(budget, &|budget| page.render(budget))
}

impl Matcher {
    /// How the log's pickaxe matches: literally, or as a regular expression when it is one
    /// (`-G`, `--pickaxe-regex`) or ignores case.
    fn of(log: &Log) -> Result<Matcher, AnswerError> {
        let pickaxe = log
            .pickaxe
            .as_ref()
            .ok_or_else(|| AnswerError::Unsupported("no pickaxe".into()))?;
        let term = pickaxe.term.to_string_lossy().into_owned();
        let ignore_case = log.ignores_case();
        let is_regex = log.pickaxe_is_regex();
        if !is_regex && !ignore_case {
            return Ok(Matcher::Literal(pickaxe.term.as_encoded_bytes().to_vec()));
        }
        let pattern = if is_regex {
            term.clone()
        } else {
            regex::escape(&term)
        };
        Ok(Matcher::Regex(
            regex::bytes::RegexBuilder::new(&pattern)
                .case_insensitive(ignore_case)
                .size_limit(1 << 20)
                .build()
                .map_err(|e| AnswerError::Unsupported(format!("regex {term:?}: {e}")))?,
        ))
    }
}

/// Where the page starts among the `total` listed commits: at the cursor's commit, or the
/// first.
fn page_start(ctx: &Call, fp: u64, total: usize) -> Result<usize, AnswerError> {
    let offset = match ctx.cursor.as_deref() {
        Some(c) => CURSOR.decode(c, fp)?,
        None => 0,
    };
    if offset > total {
        return Err(crate::paging::CursorError::Invalid(
            ctx.cursor
                .clone()
                .unwrap_or_default()
                .chars()
                .take(80)
                .collect(),
        )
        .into());
    }
    Ok(offset)
}

/// The commits of a page, from its start: analysed one at a time until the page is full (a
/// page of large commits holds only a handful, and analysing the rest would be wasted).
fn analyse(
    repo: &crate::git::Repo,
    from: &[CommitInfo],
    log: &Log,
    matcher: &Matcher,
    budget: Budget,
) -> Result<Vec<Entry>, AnswerError> {
    // git's pickaxe also filters each commit's file pairs: its diff asks for exactly those.
    let options = log.pickaxe_options();
    let mut entries: Vec<Entry> = Vec::new();
    let mut size = 0usize;
    for info in from.iter().take(MAX_PAGE) {
        let found = entry(repo, info, log, &options, matcher)?;
        size = size.saturating_add(crate::json::to_string(&found.text(MAX_LINES))?.len() + 1);
        entries.push(found);
        if size > budget.as_bytes() {
            break;
        }
    }
    Ok(entries)
}

/// A page of the answer as it is fitted: what every rendering of it shares.
struct Page<'a> {
    ctx: &'a Call,
    /// The fingerprint of the listed commits, which the cursor carries.
    fp: u64,
    /// Where the page starts among the listed commits.
    offset: usize,
    /// How many commits git listed.
    total: usize,
    /// How many commits were analysed for the page.
    shown: usize,
    /// The analysed commits' texts, at each level of [`LINE_LIMITS`].
    texts: Vec<Vec<String>>,
    /// The page's whole budget.
    full: Budget,
}

impl Page<'_> {
    /// The page within `budget`: the lines give way only to git's own output (smaller than a
    /// page); within a page, commits move to the next page first, each with its lines.
    fn render(&self, budget: Budget) -> Result<String, AnswerError> {
        let (offset, total) = (self.offset, self.total);
        let deepest = if budget < self.full {
            LINE_LIMITS.len() - 1
        } else {
            0
        };
        let stages = [
            Stage::detail(
                LINE_LIMITS[1..]
                    .iter()
                    .map(|limit| {
                        Cut::Detail(match limit {
                            0 => "the matching lines: left out (`git show <id>` has them)".into(),
                            n => format!("the matching lines: the first {n} of each commit"),
                        })
                    })
                    .collect(),
            )
            .limited(deepest),
            Stage::Window {
                least: 1.min(self.shown),
                most: self.shown,
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
            let json = crate::json::to_string(&self.doc(s.get(0), s.get(1), s.notes()))?;
            let len = json.len();
            Ok::<_, serde_json::Error>((json, len))
        })?;
        Ok(fitted.doc)
    }

    /// The page showing `shown` commits at the detail `level`, with `cut` saying what was
    /// cut.
    fn doc(&self, level: usize, shown: usize, cut: Vec<String>) -> PickaxeAnswer<'_> {
        let (offset, total) = (self.offset, self.total);
        let paged = offset > 0 || offset + shown < total;
        PickaxeAnswer {
            raw: paged.then_some(self.ctx.raw_command.as_str()),
            commits: self.texts[level][..shown].to_vec(),
            cut,
            next: (offset + shown < total)
                .then(|| next_page(self.ctx, &CURSOR.encode(self.fp, offset + shown))),
        }
    }
}

/// How many matching lines of each commit each level of detail shows.
const LINE_LIMITS: [usize; 5] = [MAX_LINES, 20, 5, 1, 0];

/// One commit of the answer, before it is written at a level of detail.
struct Entry {
    /// `<id> <day> <author>` and the message.
    head: String,
    /// The matching lines, each with the `path:line function` head it starts, if it starts
    /// one.
    lines: Vec<Matched>,
    /// The short id, for the command that shows the rest.
    id: String,
    /// Files whose lines are not shown (generated, binary), named.
    facts: Option<String>,
}

impl Entry {
    /// The commit as one string, with at most `limit` of its matching lines (heads not
    /// counted).
    fn text(&self, limit: usize) -> String {
        let mut text = self.head.clone();
        // The first lines are shown, so every line shown is under the last head shown.
        let shown = self.lines.len().min(limit);
        for m in &self.lines[..shown] {
            if let Some(place) = &m.place {
                text.push('\n');
                text.push_str(place);
            }
            text.push('\n');
            text.push_str(&m.line);
        }
        let more = self.lines.len() - shown;
        if more > 0 {
            text.push_str(&format!(
                "\n… {more} more matching lines: git show {}",
                self.id
            ));
        }
        if let Some(facts) = &self.facts {
            text.push_str(facts);
        }
        text
    }
}

/// One commit of the answer: its header, its message, and the changed lines that hold the
/// term, by file and function.
fn entry(
    repo: &crate::git::Repo,
    info: &CommitInfo,
    log: &Log,
    options: &[OsString],
    matcher: &Matcher,
) -> Result<Entry, AnswerError> {
    let head = format!(
        "{} {} {}\n{}",
        info.sha.short(SHORT_ID),
        day(&info.author_date),
        info.author_name,
        info.message
    );
    let base = info
        .parents
        .first()
        .cloned()
        .unwrap_or_else(Oid::empty_tree);
    let diff = Diff {
        positional: vec![base.into(), info.sha.clone().into()],
        separator: true,
        paths: log.paths.clone(),
        options: options.to_vec(),
        ..Diff::default()
    };
    let built = manifest::build(
        repo,
        &diff,
        &manifest::Options {
            untracked: false,
            functions: true,
            relative_config: false,
        },
    )?;
    let lines = matching_lines(repo, &built, matcher)?;
    let facts = built.files.iter().any(|f| !shows_hunks(f)).then(|| {
        let facts: Vec<String> = built
            .files
            .iter()
            .filter(|f| !shows_hunks(f))
            .map(|f| display_path(&f.path))
            .collect();
        format!("\n(also in {}, without lines)", facts.join(", "))
    });
    Ok(Entry {
        head,
        lines,
        id: info.sha.short(SHORT_ID).to_owned(),
        facts,
    })
}

/// A changed line that holds the term.
struct Matched {
    /// `<path>:<line> <function>`, on the first line of a run in the same file and function.
    place: Option<String>,
    /// git's `+`/`-` line.
    line: String,
}

/// The changed lines of a commit that hold the term: under a `<path>:<line> <function>` head
/// per run of lines in the same file and function, git's `+`/`-` lines.
fn matching_lines(
    repo: &crate::git::Repo,
    built: &Manifest,
    matcher: &Matcher,
) -> Result<Vec<Matched>, AnswerError> {
    let wanted: Vec<usize> = (0..built.files.len())
        .filter(|&i| shows_hunks(&built.files[i]))
        .collect();
    let mut out = Vec::new();
    for file in hunks::hunks(repo, built, &wanted, 0, &[])? {
        let f = &built.files[file.index];
        let path = display_path(&f.path);
        let mut last_head: Option<String> = None;
        for placed in &file.hunks {
            let numbered = changed_lines(&placed.hunk);
            let changed = placed
                .hunk
                .lines
                .iter()
                .filter(|l| matches!(l.as_bytes().first(), Some(b'+' | b'-')));
            for (line, (old_side, number)) in changed.zip(numbered) {
                if !matcher.matches(&line.as_bytes()[1..]) {
                    continue;
                }
                let function = function_at(f, old_side, number).unwrap_or("");
                let head = format!("{path} {function}");
                let mut place = None;
                if last_head.as_deref() != Some(head.as_str()) {
                    place = Some(if function.is_empty() {
                        format!("{path}:{number}")
                    } else {
                        format!("{path}:{number} {function}")
                    });
                    last_head = Some(head);
                }
                out.push(Matched {
                    place,
                    line: line.clone(),
                });
            }
        }
    }
    Ok(out)
}
