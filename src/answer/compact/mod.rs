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

mod cursor;
mod hunk_pages;
mod map;

use std::collections::{BTreeSet, HashMap};
use std::ffi::OsString;

use serde::Serialize;

use super::AnswerError;
use super::overview::{self, Ordered};
use super::role;
use super::toc;
use crate::budget::Budget;
use crate::git::Repo;
use crate::manifest::Manifest;
use crate::manifest::hunks::{self, PlacedHunk, display_path, shows_hunks};
use cursor::{At, cursor_fingerprint, decode};
use hunk_pages::hunk_page;
use map::map_page;

/// The smallest piece a hunk is split into, whatever the budget.
const MIN_PART: usize = 400;

/// A change too large, by estimate, for the whole layout is not fetched whole: past this many
/// times the budget, the answer is paged from the start.
const WHOLE_ESTIMATE_FACTOR: usize = 3;

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

/// About how many bytes a file's hunks take in an answer: its changed lines at about 60 bytes
/// each, context and headers included.
fn estimate_bytes(f: &crate::manifest::model::FileChange) -> usize {
    let (a, r) = f.lines.unwrap_or((0, 0));
    usize::try_from(a.saturating_add(r))
        .unwrap_or(usize::MAX)
        .saturating_mul(60)
        .saturating_add(200)
}

/// The files with hunks worth showing, in the order they are shown: by role, then git's order.
fn hunk_order(m: &Manifest) -> Vec<usize> {
    let mut order: Vec<usize> = (0..m.files.len())
        .filter(|&i| shows_hunks(&m.files[i]))
        .collect();
    order.sort_by_key(|&i| role::of(&m.files[i]));
    order
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

/// What an answer's fixed part takes on a page besides its parts (`raw`, `summary`, `cut`,
/// `next`), for the page counts a page announces.
const PAGE_OVERHEAD: usize = 600;

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
