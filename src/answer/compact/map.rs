//! The map pages of a paged change answer: the first is the change's table of contents
//! ([`super::toc`]), the later ones continue the map; each says what the following pages hold,
//! by role and about how large.

use std::collections::BTreeSet;

use super::cursor::{At, Position, encode};
use super::overview::{self, Ordered};
use super::role::{self, Role};
use super::toc;
use super::{
    Body, Input, MIN_PART, PAGE_OVERHEAD, TOC_BYTES, TOC_BYTES_PER_ITEM, about_tokens,
    estimate_bytes, hunk_order, push_file,
};
use crate::budget::{self, Budget, Cut, Stage};
use crate::manifest::Manifest;
use crate::paging::{CursorError, json_len};

/// The most directories the table of contents' totals name (when it cannot name every file of
/// production code).
const TOC_DIRECTORIES: usize = 8;

/// Room kept on the first page for the notes that say what follows.
const NOTE_ROOM: usize = 400;

/// A page of the map. The first page (`at` is `None`) is the table of contents ([`toc`]):
/// the interface whole, then as many files of production code as [`TOC_BYTES`] (and
/// [`TOC_BYTES_PER_ITEM`] per public item) leave room for, the other files counted, the
/// dependency changes. A later page (`at`: the part it starts at and its number) continues the
/// map: production code, then tests and the files of other roles. Each page says what the
/// following ones hold and about how large they are; the hunks follow the map on pages of
/// their own.
pub(super) fn map_page(
    input: &Input<'_>,
    fp: u64,
    at: Option<(usize, Option<usize>)>,
    wrap: &dyn Fn(&Body) -> Result<String, serde_json::Error>,
) -> Result<String, super::AnswerError> {
    let m = input.manifest;
    let contents = toc::build(&m.files, &map_order(m));
    let (start, number) = at.unwrap_or((0, Some(1)));
    if start > contents.parts.len() {
        return Err(CursorError::Invalid(
            input.cursor.unwrap_or_default().chars().take(80).collect(),
        )
        .into());
    }
    let page = MapPage::new(input, fp, &contents, start, at.is_none(), number);
    let rest = page.rest();
    let note = |shown: usize, _: Budget| {
        Cut::Later(map_note(&rest[shown..], page.next_number, page.page_room))
    };
    let (least, most, budget) = page.window(wrap)?;
    let stages = [Stage::Window {
        least,
        most,
        total: rest.len(),
        holds: "one part of the map",
        note: Box::new(note),
    }];
    let fitted = budget::fit(Some(budget), &stages, |s| {
        let json = wrap(&page.body(s.get(0), s.notes()))?;
        let len = json.len();
        Ok::<_, serde_json::Error>((json, len))
    })?;
    Ok(fitted.doc)
}

/// One page of the map as it is fitted: what every rendering of it shares.
struct MapPage<'a> {
    input: &'a Input<'a>,
    fp: u64,
    contents: &'a toc::Toc,
    /// The part the page starts at.
    start: usize,
    /// Whether it is the first page, the table of contents.
    first: bool,
    /// The number of the page after it, when known.
    next_number: Option<usize>,
    /// What every rendering holds besides the parts it shows.
    base: Body,
    /// The files whose hunks follow the map, in their order.
    order: Vec<usize>,
    /// About how large those hunks are, in bytes.
    hunk_bytes: usize,
    /// What a page holds besides its fixed part, for the page counts a note announces.
    page_room: usize,
}

impl<'a> MapPage<'a> {
    fn new(
        input: &'a Input<'a>,
        fp: u64,
        contents: &'a toc::Toc,
        start: usize,
        first: bool,
        number: Option<usize>,
    ) -> MapPage<'a> {
        let m = input.manifest;
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
        let hunk_bytes: usize = order
            .iter()
            .map(|&i| estimate_bytes(&m.files[i]))
            .fold(0, usize::saturating_add);
        let page_room = input
            .budget
            .as_bytes()
            .saturating_sub(PAGE_OVERHEAD)
            .max(MIN_PART);
        MapPage {
            input,
            fp,
            contents,
            start,
            first,
            next_number: number.map(|n| n + 1),
            base,
            order,
            hunk_bytes,
            page_room,
        }
    }

    /// The parts from the page's start on.
    fn rest(&self) -> &'a [toc::Part] {
        &self.contents.parts[self.start..]
    }

    /// Whether hunks follow the map.
    fn hunks_follow(&self) -> bool {
        self.input.hunks && !self.order.is_empty()
    }

    /// The page showing the first `shown` parts, with `notes` saying what was cut.
    fn body(&self, shown: usize, notes: Vec<String>) -> Body {
        let (m, rest) = (self.input.manifest, self.rest());
        let mut body = self.base.clone();
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
        if self.first && self.start + shown < self.contents.first {
            body.directories = overview::directory_totals(&m.files, TOC_DIRECTORIES);
        }
        body.cut = notes;
        if shown < rest.len() {
            body.next = Some((self.input.next)(&encode(
                self.fp,
                At::Map(self.start + shown, self.next_number),
            )));
        } else if self.hunks_follow() {
            body.next = Some((self.input.next)(&encode(
                self.fp,
                At::Hunks(Position::default()),
            )));
        }
        if self.hunks_follow() {
            let after_map = if shown < rest.len() { "then " } else { "" };
            body.cut.push(hunks_note(
                m,
                &self.order,
                self.hunk_bytes,
                self.page_room,
                after_map,
                (shown == rest.len()).then_some(self.next_number).flatten(),
            ));
        }
        body
    }

    /// The least and the most parts the page shows, and its budget. The table of contents: the
    /// interface whole when the page can hold it, then production code as far as the first
    /// page's own size allows.
    fn window(
        &self,
        wrap: &dyn Fn(&Body) -> Result<String, serde_json::Error>,
    ) -> Result<(usize, usize, Budget), serde_json::Error> {
        let (input, contents, rest) = (self.input, self.contents, self.rest());
        if !self.first {
            return Ok((1.min(rest.len()), rest.len(), input.budget));
        }
        let bare = wrap(&self.body(contents.api_parts, Vec::new()))?.len();
        if !input.budget.fits(bare.saturating_add(NOTE_ROOM)) {
            return Ok((1.min(rest.len()), rest.len(), input.budget));
        }
        let target =
            TOC_BYTES.saturating_add(contents.api_items.saturating_mul(TOC_BYTES_PER_ITEM));
        let budget = input
            .budget
            .min(Budget::bytes(target.max(bare + NOTE_ROOM)));
        // The whole map when it fits; else production code only.
        let whole = wrap(&self.body(rest.len(), Vec::new()))?.len();
        let most = if budget.fits(whole) {
            rest.len()
        } else {
            contents.first
        };
        Ok((contents.api_parts, most, budget))
    }
}

/// The files in the map's order: production code first, then tests, benches, examples, docs
/// and configuration (git's order within each), as the hunks follow.
fn map_order(m: &Manifest) -> Vec<usize> {
    let mut order: Vec<usize> = (0..m.files.len()).collect();
    order.sort_by_key(|&i| role::of(&m.files[i]));
    order
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
