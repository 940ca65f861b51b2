//! A change as an agent reads it — for `git diff`, `git show` and `gh pr diff` — in one of two
//! layouts, whichever the budget allows (ADR 13, ADR 18):
//!
//! - **Whole**: the change fits one answer (a range of several commits over more than
//!   [`WHOLE_RANGE_FILES`] files only when it fits a table of contents, [`TOC_BYTES`]). Every
//!   hunk is there, each headed by the functions it changes with their kind of change
//!   (`@@ -10 +10 @@ added Map::get`; a modified function by its name alone), so the hunks
//!   themselves are the map: `files` lists only the files whose hunks do not say everything
//!   (added, deleted, renamed or copied, binary, generated, a mode, a link, a submodule,
//!   untracked, no hunks: [`overview::needs_line`]), with any changed function no hunk shows.
//!   No summary, no `raw`: nothing is missing that git's own output would add.
//! - **Paged**: it does not fit. The first page is the change's table of contents
//!   ([`super::toc`]): `summary`, `api` (every public item added, deleted or re-signed, with its
//!   signature), `files` (production code by directory, each file's line with its other changed
//!   functions by name), `elsewhere` (tests, docs and configuration counted per directory),
//!   the dependency changes, and `cut`, which says what the next pages hold by role and size.
//!   A map too large for one page continues on the next pages; map pages hold no hunks. The
//!   hunks follow on later pages, production code first. `raw` names git's own output, `next`
//!   the command that prints the next page.
//!
//! Hunks are git's own (`git diff -p`; no context unless the caller asked for `-U<n>` or `-W`:
//! [`crate::manifest::hunks::DEFAULT_CONTEXT`]) without its per-file headers. Binaries and
//! submodules contribute facts, never hunks; a link's hunk shows its target; a generated file
//! keeps its hunks when the edit is small or comes without its source (ADR 14,
//! [`crate::manifest::hunks::shows_hunks`]), a large regeneration stays facts only.
//!
//! Invariants: the answer never exceeds its budget (a hunk too large for a page is split at
//! line boundaries, a line too long for a page into segments, and continued); no changed line
//! is cut without its rest on the following pages; every cut is stated; no hunk label hides a
//! function; a cursor is bound to the range's facts and the hunk options (a cursor from before
//! the branch moved is refused). The fitting is [`crate::budget`]'s.

use std::collections::{BTreeSet, HashMap};
use std::ffi::OsString;

use serde::Serialize;

use super::overview::{self, Ordered};
use super::role::{self, Role};
use super::toc;
use crate::budget::{self, Budget, Cut, Stage};
use crate::git::Repo;
use crate::manifest::Manifest;
use crate::manifest::hunks::{self, FileHunks, PlacedHunk, display_path, shows_hunks};
use crate::manifest::render::fingerprint;
use crate::paging::{Cursor, CursorError, Fingerprint, json_len};

/// The smallest piece a hunk is split into, whatever the budget.
const MIN_PART: usize = 400;

/// A change too large, by estimate, for the whole layout is not fetched whole: past this many
/// times the budget, the answer is paged from the start.
const WHOLE_ESTIMATE_FACTOR: usize = 3;

/// The most directories the table of contents' totals name (when it cannot name every file of
/// production code).
const TOC_DIRECTORIES: usize = 8;

/// What to render.
pub struct Input<'a> {
    /// The change.
    pub manifest: &'a Manifest,
    /// Lines of context unless the hunk options say otherwise.
    pub context: u32,
    /// The caller's hunk options (`-U<n>`, `-W`, `--inter-hunk-context`), verbatim.
    pub shaping: &'a [OsString],
    /// Whether to show hunks at all (`git show -s` does not).
    pub hunks: bool,
    /// The most the whole answer may take.
    pub budget: Budget,
    /// Where to continue, from a previous page's `next`.
    pub cursor: Option<&'a str>,
    /// Turns a cursor into the command that prints the next page.
    pub next: &'a dyn Fn(&str) -> String,
    /// The command that prints the real program's own output, named on a paged answer.
    pub raw: Option<&'a str>,
    /// Whether the change is a range of several commits: its whole layout is taken only
    /// when it costs no more than a table of contents ([`TOC_BYTES`]); otherwise the first
    /// page is its table of contents.
    pub range: bool,
}

/// What a range's first page aims at, in bytes, besides its interface lines: about 2,000
/// tokens. A range whose whole answer fits it is answered whole.
pub const TOC_BYTES: usize = 6_400;

/// What the first page allows for each public item of the interface it lists (about 15
/// tokens).
pub const TOC_BYTES_PER_ITEM: usize = 48;

/// Tenths of bytes per token of an answer's text (code and names in JSON strings measure 3.6
/// to 3.7 in cl100k_base), for the sizes a page says the next ones have.
const TEXT_TENTHS_PER_TOKEN: usize = 36;

/// The body of a change answer: what every change answer has after its own header fields.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Body {
    /// The command that prints git's own output (a paged answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw: Option<String>,
    /// One line of totals (a paged answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Which part of the answer a later page holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<String>,
    /// Totals per top-level directory, when the first page cannot name every file of
    /// production code.
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    pub directories: Ordered<String>,
    /// The interface a paged change adds, deletes or re-signs, by file: public functions and
    /// declarations with their signatures, members of implementations by name.
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    pub api: Ordered<Vec<String>>,
    /// Files by directory, each `M name +added -removed [flags]` with its changed functions
    /// (`added pub fn Type::name(..)`, the name written into its signature, `modified f, g`, ...).
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    pub files: Ordered<Ordered<Vec<String>>>,
    /// Tests, benches, examples, docs and configuration counted per directory (the first page
    /// of a paged change; their names are on a later page).
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    pub elsewhere: Ordered<String>,
    /// Dependency changes: declared ones, then lockfile totals.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dependencies: Vec<String>,
    /// The changed code by file: `@@ -<old line> +<new line> @@ <functions>` then git's lines.
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    pub hunks: Ordered<Vec<String>>,
    /// What is on later pages.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cut: Vec<String>,
    /// The command that prints the next page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

/// Where a hunk page starts: the position in the hunk order, the hunk, and the part of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Position {
    file: usize,
    hunk: usize,
    part: usize,
}

/// Where a page starts: in the map (at a part of the table of contents and the page's number,
/// when known), or in the hunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    Map(usize, Option<usize>),
    Hunks(Position),
}

/// One piece of a page: a part of a hunk of one file.
struct Piece {
    at: Position,
    /// Index into the manifest's files.
    index: usize,
    text: String,
}

/// Renders the answer: `wrap` turns a body into the complete answer (adding the caller's own
/// fields), so the budget covers everything.
pub fn render(
    repo: &Repo,
    input: &Input<'_>,
    wrap: &dyn Fn(&Body) -> Result<String, serde_json::Error>,
) -> Result<String, super::AnswerError> {
    let m = input.manifest;
    let fp = cursor_fingerprint(m, input.context, input.shaping);
    let at = match input.cursor {
        Some(c) => Some(decode(c, fp)?),
        None => {
            if let Some(json) = whole(repo, input, wrap)? {
                return Ok(json);
            }
            None
        }
    };
    match at {
        None => map_page(input, fp, None, wrap),
        Some(At::Map(start, page)) => map_page(input, fp, Some((start, page)), wrap),
        Some(At::Hunks(start)) => {
            let base = Body {
                raw: input.raw.map(str::to_owned),
                summary: Some(overview::summary_line(m.into())),
                ..Body::default()
            };
            hunk_page(repo, input, fp, start, base, wrap)
        }
    }
}

/// The whole layout, when the change fits one answer.
fn whole(
    repo: &Repo,
    input: &Input<'_>,
    wrap: &dyn Fn(&Body) -> Result<String, serde_json::Error>,
) -> Result<Option<String>, super::AnswerError> {
    let m = input.manifest;
    let order = hunk_order(m);
    let estimate: usize = order
        .iter()
        .map(|&i| estimate_bytes(&m.files[i]))
        .fold(0, usize::saturating_add);
    let limit = whole_limit(input);
    if input.hunks && estimate > limit.as_bytes().saturating_mul(WHOLE_ESTIMATE_FACTOR) {
        return Ok(None);
    }
    let fetched = if input.hunks {
        hunks::hunks(repo, m, &order, input.context, input.shaping)?
    } else {
        Vec::new()
    };
    let mut body = Body {
        dependencies: overview::dependency_lines(m.into()),
        ..Body::default()
    };
    let with_hunks: BTreeSet<usize> = fetched
        .iter()
        .filter(|f| !f.hunks.is_empty())
        .map(|f| f.index)
        .collect();
    for (i, f) in m.files.iter().enumerate() {
        let has_hunks = with_hunks.contains(&i);
        let placed: BTreeSet<&str> = fetched
            .iter()
            .filter(|h| h.index == i)
            .flat_map(|h| &h.hunks)
            .flat_map(|p| p.functions.iter().map(String::as_str))
            .collect();
        let functions = if has_hunks {
            // What the hunk headers do not name.
            overview::function_lines_where(f, &|c| {
                !placed.contains(c.name.as_str())
                    && !c.old_name.as_deref().is_some_and(|o| placed.contains(o))
            })
        } else {
            overview::function_lines(f)
        };
        if !has_hunks || overview::needs_line(f) || !functions.is_empty() {
            let entry = &overview::map_entries(&m.files, &[i])[0];
            push_file(&mut body.files, entry, functions);
        }
    }
    for file in &fetched {
        let labels = overview::labels(&m.files[file.index]);
        let texts: Vec<String> = file.hunks.iter().map(|h| hunk_text(h, &labels)).collect();
        if !texts.is_empty() {
            body.hunks
                .0
                .push((display_path(&m.files[file.index].path), texts));
        }
    }
    let json = wrap(&body)?;
    Ok(limit.fits(json.len()).then_some(json))
}

/// A range of at most this many files is answered whole when it fits the budget: a table of
/// contents saves nothing when there are so few files to choose from (an agent that narrowed a
/// range to two files with `-- <path>` read its contents, then the next page, in the issue-27
/// trials).
pub const WHOLE_RANGE_FILES: usize = 4;

/// The most a whole answer may take: the budget, or for a range of several commits over more
/// than [`WHOLE_RANGE_FILES`] files what its table of contents would (a range is asked for its
/// contents first).
fn whole_limit(input: &Input<'_>) -> Budget {
    if input.range && input.manifest.files.len() > WHOLE_RANGE_FILES {
        input.budget.min(Budget::bytes(TOC_BYTES))
    } else {
        input.budget
    }
}

/// Adds a file's line and its functions under its directory.
fn push_file(
    files: &mut Ordered<Ordered<Vec<String>>>,
    entry: &overview::MapEntry,
    functions: Vec<String>,
) {
    match files.0.iter_mut().rev().find(|(d, _)| *d == entry.dir) {
        Some((_, lines)) => match lines.0.iter_mut().find(|(l, _)| *l == entry.line) {
            Some((_, f)) => f.extend(functions),
            None => lines.0.push((entry.line.clone(), functions)),
        },
        None => files.0.push((
            entry.dir.clone(),
            Ordered(vec![(entry.line.clone(), functions)]),
        )),
    }
}

/// Removes a file's `tests: 2 added` count from this page's map, when the file is on it.
fn drop_test_count(files: &mut Ordered<Ordered<Vec<String>>>, entry: &overview::MapEntry) {
    if let Some((_, lines)) = files.0.iter_mut().rev().find(|(d, _)| *d == entry.dir) {
        if let Some((_, functions)) = lines.0.iter_mut().find(|(l, _)| *l == entry.line) {
            functions.retain(|f| {
                !f.strip_prefix("tests: ")
                    .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
            });
        }
    }
}

/// About how many bytes a file's hunks take in an answer: its changed lines at about 60 bytes
/// each, context and headers included.
fn estimate_bytes(f: &crate::manifest::model::FileChange) -> usize {
    let (a, r) = f.lines.unwrap_or((0, 0));
    usize::try_from(a.saturating_add(r))
        .unwrap_or(usize::MAX)
        .saturating_mul(60)
        .saturating_add(200)
}

/// A whole hunk: its header with the functions it changes, then git's lines.
fn hunk_text(placed: &PlacedHunk, labels: &HashMap<String, String>) -> String {
    let mut text = header(
        placed,
        labels,
        (placed.hunk.old_start, placed.hunk.new_start),
        0,
        None,
    );
    for line in &placed.hunk.lines {
        text.push('\n');
        text.push_str(line);
    }
    text
}

/// `@@ -<old> +<new> @@ <functions>`, and ` (part N)` for a hunk's later parts; `names` are
/// the functions the part changes (`None`: the whole hunk's).
fn header(
    placed: &PlacedHunk,
    labels: &HashMap<String, String>,
    (old, new): (u32, u32),
    part: usize,
    names: Option<&[String]>,
) -> String {
    let mut s = format!("@@ -{old} +{new} @@");
    let label = |name: &str| labels.get(name).cloned().unwrap_or_else(|| name.to_owned());
    let place = match names {
        None => placed.place(&label),
        Some(names) => hunks::place_names(names, &label).or_else(|| placed.section.clone()),
    };
    if let Some(place) = place {
        s.push(' ');
        s.push_str(&place);
    }
    if part > 0 {
        s.push_str(&format!(" (part {})", part + 1));
    }
    s
}

/// A page of the map. The first page (`at` is `None`) is the table of contents ([`toc`]):
/// the interface whole, then as many files of production code as [`TOC_BYTES`] (and
/// [`TOC_BYTES_PER_ITEM`] per public item) leave room for, the other files counted, the
/// dependency changes. A later page (`at`: the part it starts at and its number) continues the
/// map: production code, then tests and the files of other roles. Each page says what the
/// following ones hold and about how large they are; the hunks follow the map on pages of
/// their own.
fn map_page(
    input: &Input<'_>,
    fp: u64,
    at: Option<(usize, Option<usize>)>,
    wrap: &dyn Fn(&Body) -> Result<String, serde_json::Error>,
) -> Result<String, super::AnswerError> {
    let m = input.manifest;
    let contents = toc::build(&m.files, &map_order(m));
    let parts = &contents.parts;
    let (start, number) = at.unwrap_or((0, Some(1)));
    if start > parts.len() {
        return Err(CursorError::Invalid(
            input.cursor.unwrap_or_default().chars().take(80).collect(),
        )
        .into());
    }
    let first = at.is_none();
    let rest = &parts[start..];
    let base = Body {
        raw: input.raw.map(str::to_owned),
        // Page 1 said it; a page of the map that follows does not repeat it.
        summary: first.then(|| overview::summary_line(m.into())),
        page: (!first).then(|| "the map, continued".to_owned()),
        dependencies: if first {
            overview::dependency_lines(m.into())
        } else {
            Vec::new()
        },
        elsewhere: if first {
            contents.elsewhere.clone()
        } else {
            Ordered::default()
        },
        ..Body::default()
    };
    let order = hunk_order(m);
    let hunks_follow = input.hunks && !order.is_empty();
    let hunk_bytes: usize = order
        .iter()
        .map(|&i| estimate_bytes(&m.files[i]))
        .fold(0, usize::saturating_add);
    let page_room = input
        .budget
        .as_bytes()
        .saturating_sub(PAGE_OVERHEAD)
        .max(MIN_PART);
    let next_number = number.map(|n| n + 1);
    let body_of = |shown: usize, notes: Vec<String>| {
        let mut body = base.clone();
        for part in &rest[..shown] {
            match part {
                toc::Part::Api { key, lines } => {
                    // A shape found in one file shares the file's key: one entry, in order.
                    for line in lines {
                        body.api.push_to(key, line.clone());
                    }
                }
                toc::Part::File { entry, role } => {
                    if *role == Role::Test {
                        // A production file's tests by name: their count, already on this
                        // page with the file, says nothing more.
                        drop_test_count(&mut body.files, entry);
                    }
                    push_file(&mut body.files, entry, entry.functions.clone());
                }
            }
        }
        if first && start + shown < contents.first {
            body.directories = overview::directory_totals(&m.files, TOC_DIRECTORIES);
        }
        body.cut = notes;
        if shown < rest.len() {
            body.next = Some((input.next)(&encode(
                fp,
                At::Map(start + shown, next_number),
            )));
        } else if hunks_follow {
            body.next = Some((input.next)(&encode(fp, At::Hunks(Position::default()))));
        }
        if hunks_follow {
            let after_map = if shown < rest.len() { "then " } else { "" };
            body.cut.push(hunks_note(
                m,
                &order,
                hunk_bytes,
                page_room,
                after_map,
                (shown == rest.len()).then_some(next_number).flatten(),
            ));
        }
        body
    };
    let note =
        |shown: usize, _: Budget| Cut::Later(map_note(&rest[shown..], next_number, page_room));
    // The table of contents: the interface whole when the page can hold it, then production
    // code as far as the first page's own size allows.
    let (least, most, budget) = if first {
        let bare = wrap(&body_of(contents.api_parts, Vec::new()))?.len();
        if input.budget.fits(bare.saturating_add(NOTE_ROOM)) {
            let target =
                TOC_BYTES.saturating_add(contents.api_items.saturating_mul(TOC_BYTES_PER_ITEM));
            let budget = input
                .budget
                .min(Budget::bytes(target.max(bare + NOTE_ROOM)));
            // The whole map when it fits; else production code only.
            let whole = wrap(&body_of(rest.len(), Vec::new()))?.len();
            let most = if budget.fits(whole) {
                rest.len()
            } else {
                contents.first
            };
            (contents.api_parts, most, budget)
        } else {
            (1.min(rest.len()), rest.len(), input.budget)
        }
    } else {
        (1.min(rest.len()), rest.len(), input.budget)
    };
    let stages = [Stage::Window {
        least,
        most,
        total: rest.len(),
        holds: "one part of the map",
        note: Box::new(note),
    }];
    let fitted = budget::fit(Some(budget), &stages, |s| {
        let json = wrap(&body_of(s.get(0), s.notes()))?;
        let len = json.len();
        Ok::<_, serde_json::Error>((json, len))
    })?;
    Ok(fitted.doc)
}

/// What an answer's fixed part takes on a page besides its parts (`raw`, `summary`, `cut`,
/// `next`), for the page counts a page announces.
const PAGE_OVERHEAD: usize = 600;

/// Room kept on the first page for the notes that say what follows.
const NOTE_ROOM: usize = 400;

/// About how many tokens `bytes` of an answer take, rounded to two significant digits.
fn about_tokens(bytes: usize) -> String {
    let tokens = bytes
        .saturating_mul(10)
        .div_ceil(TEXT_TENTHS_PER_TOKEN)
        .max(1);
    let mut scale = 1;
    while tokens / scale >= 100 {
        scale *= 10;
    }
    let rounded = tokens.div_ceil(scale) * scale;
    let digits = rounded.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    format!("about {out} tokens")
}

/// `page 4`, `pages 4-6`, or `the next page(s)` when the page's number is not known.
fn pages_from(next: Option<usize>, count: usize) -> String {
    match (next, count) {
        (Some(n), 0 | 1) => format!("page {n}"),
        (Some(n), c) => format!("pages {n}-{}", n + c - 1),
        (None, 0 | 1) => "the next page".to_owned(),
        (None, c) => format!("the next {c} pages"),
    }
}

/// What the rest of the map holds, by role and size: `page 2: 3 more files of production
/// code, then tests (41 files, about 3,000 tokens)`.
fn map_note(rest: &[toc::Part], next: Option<usize>, page_room: usize) -> String {
    let bytes: usize = rest
        .iter()
        .map(|p| match p {
            toc::Part::Api { key, lines } => {
                json_len(key) + lines.iter().map(|l| json_len(l) + 1).sum::<usize>() + 4
            }
            toc::Part::File { entry, .. } => {
                json_len(&entry.line)
                    + entry
                        .functions
                        .iter()
                        .map(|l| json_len(l) + 1)
                        .sum::<usize>()
                    + 4
            }
        })
        .sum();
    let files: BTreeSet<usize> = rest
        .iter()
        .filter_map(|p| match p {
            toc::Part::File { entry, .. } => Some(entry.index),
            toc::Part::Api { .. } => None,
        })
        .collect();
    let mut said: Vec<String> = Vec::new();
    if rest.iter().any(|p| matches!(p, toc::Part::Api { .. })) {
        said.push("the interface, continued".to_owned());
    }
    let production = rest
        .iter()
        .filter(|p| {
            matches!(
                p,
                toc::Part::File {
                    role: Role::Production,
                    ..
                }
            )
        })
        .count();
    if production > 0 {
        said.push(format!(
            "{production} more file{} of production code",
            if production == 1 { "" } else { "s" }
        ));
    }
    let roles: BTreeSet<Role> = rest
        .iter()
        .map(toc::Part::role)
        .filter(|r| *r != Role::Production)
        .collect();
    if !roles.is_empty() {
        said.push(
            roles
                .iter()
                .map(|r| r.label())
                .collect::<Vec<_>>()
                .join(", "),
        );
    }
    format!(
        "{}: {} ({} file{}, {})",
        pages_from(next, bytes.div_ceil(page_room)),
        said.join(", then "),
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        about_tokens(bytes)
    )
}

/// What the hunk pages hold: `then the hunks, production code first (63 files, about 40,000
/// tokens over 8 pages)`.
fn hunks_note(
    m: &Manifest,
    order: &[usize],
    bytes: usize,
    page_room: usize,
    then: &str,
    next: Option<usize>,
) -> String {
    let roles: BTreeSet<Role> = order.iter().map(|&i| role::of(&m.files[i])).collect();
    let first = if roles.len() > 1 {
        format!(", {} first", Role::Production.label())
    } else {
        format!(" of {}", roles.first().map_or("", |r| r.label()))
    };
    let pages = bytes.div_ceil(page_room).max(1);
    let whose = if then.is_empty() {
        format!("{}: the hunks", pages_from(next, pages))
    } else {
        format!("{then}the hunks")
    };
    format!(
        "{whose}{first} ({} file{}, {}{})",
        order.len(),
        if order.len() == 1 { "" } else { "s" },
        about_tokens(bytes),
        if then.is_empty() {
            String::new()
        } else {
            format!(" over {pages} page{}", if pages == 1 { "" } else { "s" })
        }
    )
}

/// A page of hunks from `start` on, after whatever `base` already holds.
fn hunk_page(
    repo: &Repo,
    input: &Input<'_>,
    fp: u64,
    start: Position,
    base: Body,
    wrap: &dyn Fn(&Body) -> Result<String, serde_json::Error>,
) -> Result<String, super::AnswerError> {
    let m = input.manifest;
    let order = hunk_order(m);
    let map_on_page = !base.files.is_empty();
    let mut base = base;
    let more_hunks = input.hunks && start.file < order.len();
    if !map_on_page {
        base.page = Some(if more_hunks {
            format!(
                "hunks continued from {}",
                display_path(&m.files[order[start.file]].path)
            )
        } else {
            "no more hunks".to_owned()
        });
    }
    let (candidates, exhausted) = if more_hunks {
        candidates(repo, m, &order, start, input)?
    } else {
        (Vec::new(), true)
    };
    let resume = |shown: usize| candidates.get(shown).map(|p| p.at);
    // A page of hunks alone keeps at least one piece, so that following `next` always
    // advances; a page that holds the map advances by the map.
    let least = usize::from(!map_on_page).min(candidates.len());
    let stages = [Stage::Window {
        least,
        most: candidates.len(),
        total: candidates.len() + usize::from(!exhausted),
        holds: "one piece of a hunk",
        note: Box::new(|shown, _| {
            let at = resume(shown).unwrap_or(Position {
                file: order.len(),
                ..Position::default()
            });
            Cut::Later(later_note(m, &order, at, input.budget))
        }),
    }];
    let fitted = budget::fit(Some(input.budget), &stages, |s| {
        let shown = s.get(0);
        let mut body = base.clone();
        body.hunks = group(m, &candidates[..shown]);
        body.cut = s.notes();
        body.next = None;
        if shown < candidates.len() || !exhausted {
            // Just after the last piece shown (positions order lexicographically).
            let after = |p: &Piece| Position {
                part: p.at.part + 1,
                ..p.at
            };
            let at = resume(shown).or(candidates.last().map(after));
            if let Some(at) = at {
                body.next = Some((input.next)(&encode(fp, At::Hunks(at))));
            }
        }
        let json = wrap(&body)?;
        let len = json.len();
        Ok::<_, serde_json::Error>((json, len))
    })?;
    Ok(fitted.doc)
}

/// The pieces that may go on this page, from `start` on: whole files' hunks fetched from git
/// in batches until they hold more than the budget (so at least one is left over when any is),
/// and whether they are all there are.
fn candidates(
    repo: &Repo,
    m: &Manifest,
    order: &[usize],
    start: Position,
    input: &Input<'_>,
) -> Result<(Vec<Piece>, bool), super::AnswerError> {
    let budget = input.budget.as_bytes();
    let part_limit = (budget / 2).max(MIN_PART);
    let mut out: Vec<Piece> = Vec::new();
    let mut used = 0usize;
    let mut next_file = start.file;
    while next_file < order.len() {
        let batch_end = batch(m, order, next_file, budget.saturating_sub(used));
        let fetched = hunks::hunks(
            repo,
            m,
            &order[next_file..batch_end],
            input.context,
            input.shaping,
        )?;
        for (file_pos, &index) in order.iter().enumerate().take(batch_end).skip(next_file) {
            let Some(file) = fetched.iter().find(|f| f.index == index) else {
                continue;
            };
            let labels = overview::labels(&m.files[index]);
            for piece in pieces(file, &m.files[index], file_pos, part_limit, &labels) {
                if piece.at < start {
                    continue;
                }
                if used > budget {
                    return Ok((out, false));
                }
                used = used.saturating_add(json_len(&piece.text) + 1);
                out.push(piece);
            }
        }
        next_file = batch_end;
    }
    Ok((out, true))
}

/// The files in the map's order: production code first, then tests, benches, examples, docs
/// and configuration (git's order within each), as the hunks follow.
fn map_order(m: &Manifest) -> Vec<usize> {
    let mut order: Vec<usize> = (0..m.files.len()).collect();
    order.sort_by_key(|&i| role::of(&m.files[i]));
    order
}

/// Splits a file's hunks into page pieces no longer than `part_limit`.
fn pieces(
    file: &FileHunks,
    change: &crate::manifest::model::FileChange,
    file_pos: usize,
    part_limit: usize,
    labels: &HashMap<String, String>,
) -> Vec<Piece> {
    let name_at =
        |old_side: bool, line: u32| hunks::function_at(change, old_side, line).map(str::to_owned);
    let mut out = Vec::new();
    for (h, placed) in file.hunks.iter().enumerate() {
        for (part, text) in parts(placed, part_limit, labels, &name_at)
            .into_iter()
            .enumerate()
        {
            out.push(Piece {
                at: Position {
                    file: file_pos,
                    hunk: h,
                    part,
                },
                index: file.index,
                text,
            });
        }
    }
    out
}

/// The most characters of file names a cut note lists (a cut note stays a line, however
/// many files are cut).
const NOTE_NAMES: usize = 360;

/// Says which files' hunks are on later pages, from `at` on: up to 20 names, as many as fit
/// [`NOTE_NAMES`].
fn later_note(m: &Manifest, order: &[usize], at: Position, budget: Budget) -> String {
    let later: Vec<String> = order[at.file..]
        .iter()
        .map(|&i| display_path(&m.files[i].path))
        .collect();
    let roles: std::collections::BTreeSet<Role> = order[at.file..]
        .iter()
        .map(|&i| role::of(&m.files[i]))
        .collect();
    let mut named = 0;
    let mut names = String::new();
    for name in later.iter().take(20) {
        let separator = if named == 0 { "" } else { ", " };
        if named > 0 && json_len(&names) + json_len(name) + separator.len() > NOTE_NAMES {
            break;
        }
        names.push_str(separator);
        names.push_str(name);
        named += 1;
    }
    if json_len(&names) > NOTE_NAMES {
        // One name longer than the room: its start says enough (measured as JSON, where a
        // control character takes six).
        let mut start = String::new();
        for c in names.chars() {
            start.push(c);
            if json_len(&start) > NOTE_NAMES / 2 {
                start.pop();
                break;
            }
        }
        names = start + "…";
    }
    let bytes: usize = order[at.file..]
        .iter()
        .map(|&i| estimate_bytes(&m.files[i]))
        .fold(0, usize::saturating_add);
    let room = budget
        .as_bytes()
        .saturating_sub(PAGE_OVERHEAD)
        .max(MIN_PART);
    let pages = bytes.div_ceil(room).max(1);
    let mut note = format!(
        "hunks of {} file{} ({}; {} over {pages} page{}) are on the next pages: {names}",
        later.len(),
        if later.len() == 1 { "" } else { "s" },
        roles
            .iter()
            .map(|r| r.label())
            .collect::<Vec<_>>()
            .join(", "),
        about_tokens(bytes),
        if pages == 1 { "" } else { "s" },
    );
    if later.len() > named {
        note.push_str(&format!(", … {} more", later.len() - named));
    }
    if at.hunk > 0 || at.part > 0 {
        note.push_str(" (the first of them continues where this page ends)");
    }
    note
}

/// The files with hunks worth showing, in the order they are shown: by role, then git's order.
fn hunk_order(m: &Manifest) -> Vec<usize> {
    let mut order: Vec<usize> = (0..m.files.len())
        .filter(|&i| shows_hunks(&m.files[i]))
        .collect();
    order.sort_by_key(|&i| role::of(&m.files[i]));
    order
}

/// The end of the next batch of files to ask git for: enough estimated text to fill `room`
/// twice over, and at least one file.
fn batch(m: &Manifest, order: &[usize], from: usize, room: usize) -> usize {
    let mut estimate = 0usize;
    let mut end = from;
    while end < order.len() {
        let (a, r) = m.files[order[end]].lines.unwrap_or((0, 0));
        // About 60 characters per changed line, context and headers included.
        estimate = estimate.saturating_add(
            usize::try_from(a.saturating_add(r))
                .unwrap_or(usize::MAX)
                .saturating_mul(60)
                + 200,
        );
        end += 1;
        if estimate > room.saturating_mul(2) {
            break;
        }
    }
    end
}

/// Renders a hunk as one or more strings of at most about `limit` bytes each; each part
/// starts with a header giving the line numbers where it starts. A line longer than a part is
/// split into segments: each segment after the first starts a new part and repeats the line's
/// prefix followed by `…`, so that every byte of the line is shown, in order. A hunk in
/// several parts names in each part's header the functions that part changes (`name_at`:
/// the function around a line of the old or the new side), so that every page names what it
/// shows.
fn parts(
    placed: &PlacedHunk,
    limit: usize,
    labels: &HashMap<String, String>,
    name_at: &dyn Fn(bool, u32) -> Option<String>,
) -> Vec<String> {
    let h = &placed.hunk;
    let (mut old, mut new) = (h.old_start, h.new_start);
    // Each part: where it starts, its lines, and the functions its changed lines are in.
    type Part<'l> = ((u32, u32), Vec<std::borrow::Cow<'l, str>>, Vec<String>);
    let mut found: Vec<Part<'_>> = Vec::new();
    let mut current: Part<'_> = ((old, new), Vec::new(), Vec::new());
    let mut size = header(placed, labels, (old, new), 0, None).len();
    let room = limit.saturating_sub(size + 16);
    for line in &h.lines {
        for segment in segments(line, room) {
            if size + segment.len() + 1 > limit && !current.1.is_empty() {
                found.push(std::mem::replace(
                    &mut current,
                    ((old, new), Vec::new(), Vec::new()),
                ));
                size = header(placed, labels, (old, new), found.len(), None).len();
            }
            size += segment.len() + 1;
            current.1.push(segment);
        }
        let name = match line.as_bytes().first() {
            Some(b'-') => name_at(true, old),
            Some(b'+') => name_at(false, new),
            _ => None,
        };
        if let Some(name) = name {
            if !current.2.contains(&name) {
                current.2.push(name);
            }
        }
        match line.as_bytes().first() {
            Some(b'-') => old += 1,
            Some(b'+') => new += 1,
            Some(b' ') => {
                old += 1;
                new += 1;
            }
            _ => {}
        }
    }
    found.push(current);
    let single = found.len() == 1;
    found
        .into_iter()
        .enumerate()
        .map(|(n, (at, lines, names))| {
            let names = (!single).then_some(names.as_slice());
            let mut text = header(placed, labels, at, n, names);
            for line in lines {
                text.push('\n');
                text.push_str(&line);
            }
            text
        })
        .collect()
}

/// Splits a line into segments of at most `room` bytes (at least [`MIN_PART`] / 2, cut at
/// character boundaries); every segment after the first repeats the line's prefix and `…`.
fn segments(line: &str, room: usize) -> Vec<std::borrow::Cow<'_, str>> {
    let room = room.max(MIN_PART / 2);
    if line.len() <= room {
        return vec![line.into()];
    }
    let prefix: String = line.chars().take(1).collect();
    let mut out = Vec::new();
    let mut rest = line;
    let mut first = true;
    while !rest.is_empty() {
        let lead = if first {
            String::new()
        } else {
            format!("{prefix}…")
        };
        let take = room.saturating_sub(lead.len()).max(1);
        let mut end = take.min(rest.len());
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        if end == 0 {
            end = rest.chars().next().map_or(rest.len(), char::len_utf8);
        }
        out.push(format!("{lead}{}", &rest[..end]).into());
        rest = &rest[end..];
        first = false;
    }
    out
}

/// Groups the pieces of a page by file, in order.
fn group(m: &Manifest, shown: &[Piece]) -> Ordered<Vec<String>> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    let mut last = None;
    for p in shown {
        if last != Some(p.index) {
            groups.push((display_path(&m.files[p.index].path), Vec::new()));
            last = Some(p.index);
        }
        if let Some((_, texts)) = groups.last_mut() {
            texts.push(p.text.clone());
        }
    }
    Ordered(groups)
}

/// The fingerprint a cursor carries: the range's facts and the hunk options.
fn cursor_fingerprint(m: &Manifest, context: u32, shaping: &[OsString]) -> u64 {
    let mut h = Fingerprint::extend(fingerprint(m));
    h.eat(&context.to_le_bytes());
    for arg in shaping {
        h.eat(arg.as_encoded_bytes());
    }
    h.value()
}

/// The kind of a change answer's cursor.
const CURSOR: Cursor = Cursor("gp2");

fn encode(fp: u64, at: At) -> String {
    let position = match at {
        At::Map(n, None) => format!("m{n}"),
        At::Map(n, Some(page)) => format!("m{n}.{page}"),
        At::Hunks(p) => format!("{}.{}.{}", p.file, p.hunk, p.part),
    };
    CURSOR.encode_position(fp, &position)
}

fn decode(cursor: &str, fp: u64) -> Result<At, CursorError> {
    let position = CURSOR.decode_position(cursor, fp)?;
    let invalid = || CursorError::Invalid(cursor.chars().take(80).collect());
    if let Some(n) = position.strip_prefix('m') {
        let (n, page) = match n.split_once('.') {
            Some((n, page)) => (n, Some(page.parse().map_err(|_| invalid())?)),
            None => (n, None),
        };
        return n.parse().map(|n| At::Map(n, page)).map_err(|_| invalid());
    }
    let mut numbers = position.split('.').map(str::parse::<usize>);
    match (
        numbers.next(),
        numbers.next(),
        numbers.next(),
        numbers.next(),
    ) {
        (Some(Ok(file)), Some(Ok(hunk)), Some(Ok(part)), None) => {
            Ok(At::Hunks(Position { file, hunk, part }))
        }
        _ => Err(invalid()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::patch::Hunk;

    #[test]
    fn cursors_round_trip_and_go_stale() {
        let at = Position {
            file: 3,
            hunk: 1,
            part: 2,
        };
        let c = encode(0xabc, At::Hunks(at));
        assert_eq!(decode(&c, 0xabc), Ok(At::Hunks(at)));
        let m = encode(0xabc, At::Map(7, None));
        assert_eq!(decode(&m, 0xabc), Ok(At::Map(7, None)));
        let m = encode(0xabc, At::Map(7, Some(3)));
        assert_eq!(decode(&m, 0xabc), Ok(At::Map(7, Some(3))));
        assert!(matches!(decode(&c, 0xabd), Err(CursorError::Stale(_))));
        for bad in [
            "",
            "gp2-",
            "gp2-zz-1.1.1",
            "gp2-0abc-1.1",
            "gp2-0abc-1.1.1.1",
            "gp1-0abc-1",
        ] {
            assert!(
                matches!(decode(bad, 0xabc), Err(CursorError::Invalid(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_long_hunk_is_split_with_the_line_numbers_of_each_part() {
        let lines: Vec<String> = (0..40)
            .map(|i| match i % 3 {
                0 => format!(" context {i}"),
                1 => format!("-old {i}"),
                _ => format!("+new {i}"),
            })
            .collect();
        let placed = PlacedHunk {
            hunk: Hunk {
                old_start: 10,
                old_lines: 0,
                new_start: 20,
                new_lines: 0,
                section: String::new(),
                lines: lines.clone(),
            },
            functions: vec!["f".into()],
            section: None,
        };
        let labels = HashMap::new();
        let whole = parts(&placed, usize::MAX, &labels, &|_, _| None);
        assert_eq!(whole.len(), 1);
        assert!(whole[0].starts_with("@@ -10 +20 @@ f\n context 0\n-old 1\n+new 2"));
        let split = parts(&placed, 120, &labels, &|_, _| Some("f".to_owned()));
        assert!(split.len() > 3);
        assert!(split.iter().all(|p| p.len() <= 140), "{split:?}");
        // Every line appears once, in order, across the parts.
        let rejoined: Vec<&str> = split.iter().flat_map(|p| p.lines().skip(1)).collect();
        assert_eq!(
            rejoined,
            lines.iter().map(String::as_str).collect::<Vec<_>>()
        );
        // The second part starts where the first one ended.
        let first_lines = split[0].lines().count() - 1;
        let (mut old, mut new) = (10, 20);
        for l in &lines[..first_lines] {
            match l.as_bytes()[0] {
                b'-' => old += 1,
                b'+' => new += 1,
                _ => {
                    old += 1;
                    new += 1;
                }
            }
        }
        assert!(split[1].starts_with(&format!("@@ -{old} +{new} @@ f (part 2)")));
    }

    #[test]
    fn a_line_longer_than_a_part_is_split_and_shown_whole() {
        let long = format!("+{}pw == \"letmein\"", "x".repeat(5000));
        let placed = PlacedHunk {
            hunk: Hunk {
                old_start: 1,
                old_lines: 0,
                new_start: 1,
                new_lines: 1,
                section: String::new(),
                lines: vec![long.clone(), " after".into()],
            },
            functions: Vec::new(),
            section: None,
        };
        let split = parts(&placed, 1000, &HashMap::new(), &|_, _| None);
        assert!(split.len() >= 5, "{}", split.len());
        assert!(split.iter().all(|p| p.len() <= 1000), "{split:?}");
        let mut rejoined = String::new();
        for part in &split {
            for line in part.lines().skip(1) {
                if let Some(rest) = line.strip_prefix("+…") {
                    rejoined.push_str(rest);
                } else if line.starts_with('+') {
                    rejoined.push_str(line);
                }
            }
        }
        assert_eq!(rejoined, long);
        assert!(split.last().unwrap().ends_with("\n after"));
        // Multi-byte characters are never split.
        let wide = format!("+{}", "é".repeat(3000));
        for seg in segments(&wide, 501) {
            assert!(seg.len() <= 501 + 4, "{}", seg.len());
        }
    }
}
