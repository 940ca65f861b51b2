//! A change as an agent reads it: the whole change at a glance, then the changed code, within
//! one budget — for `git diff`, `git show` and `gh pr diff`.
//!
//! The first page holds the [`Overview`] (complete up to hundreds of files and functions,
//! summarised past that) and then as many hunks as the budget leaves room for, production code
//! first, then tests, then benches, examples, docs and configuration (git's order within each).
//! Later pages, reached with the `next` command, carry the remaining hunks. Hunks are git's own
//! (`git diff -p`, one line of context unless the caller asked for `-U<n>` or `-W`) without
//! its per-file headers: each is one string whose first line is `@@ -<old> +<new> @@
//! <function>` and whose other lines keep git's `+`, `-` and ` ` prefixes. Generated files,
//! binaries, submodules and links contribute facts, never hunks (docs/adr, "the shim's answer").
//!
//! Invariants: the answer never exceeds its budget (a hunk too large for a page is split at
//! line boundaries and continued); every cut is stated, with the files whose hunks are on
//! later pages; a cursor is bound to the range's facts and the hunk options (a cursor from
//! before the branch moved is refused).

use std::ffi::OsString;

use serde::Serialize;

use super::overview::{Level, Ordered, Overview, json_len, overview};
use super::role::{self, Role};
use crate::git::Repo;
use crate::manifest::Manifest;
use crate::manifest::hunks::{self, FileHunks, PlacedHunk, display_path, shows_hunks};
use crate::manifest::page::fingerprint;
use crate::manifest::pager::{CursorError as PageError, Fingerprint, decode_tagged, encode_tagged};

/// The hunk option used when the caller gives none: one line of context (see the ADR for the
/// measurement behind it).
pub const DEFAULT_CONTEXT: &str = "-U1";

/// The longest line shown whole; longer ones are cut with their length stated.
const MAX_LINE: usize = 2000;

/// Room kept free on every page for the cut note (besides the next command).
const RESERVE: usize = 600;

/// What to render.
pub struct Request<'a> {
    /// The change.
    pub manifest: &'a Manifest,
    /// The caller's hunk options (`-U<n>`, `-W`, `--inter-hunk-context`), verbatim.
    pub shaping: &'a [OsString],
    /// Whether to show hunks at all (`git show -s` does not).
    pub hunks: bool,
    /// The most characters the whole answer may take.
    pub budget: usize,
    /// Where to continue, from a previous page's `next`.
    pub cursor: Option<&'a str>,
    /// Turns a cursor into the command that prints the next page.
    pub next: &'a dyn Fn(&str) -> String,
    /// The command that lists every file and function (for a summarised overview).
    pub full_listing: String,
}

/// The body of a change answer: what every change answer has after its own header fields.
#[derive(Debug, Default, Serialize)]
pub struct Body {
    /// The whole change at a glance (the first page), or only its summary line (later pages).
    #[serde(flatten)]
    pub overview: Overview,
    /// Which part of the hunks this page holds, on pages after the first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<String>,
    /// The changed code by file: `@@ -<old line> +<new line> @@ <function>` then git's lines.
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    pub hunks: Ordered<Vec<String>>,
    /// What did not fit, and where it is.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cut: Vec<String>,
    /// The command that prints the next page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

/// Where a page starts: the position in the hunk order, the hunk, and the part of that hunk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Position {
    file: usize,
    hunk: usize,
    part: usize,
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
    request: &Request<'_>,
    wrap: &dyn Fn(&Body) -> Result<String, serde_json::Error>,
) -> Result<String, super::AnswerError> {
    let m = request.manifest;
    let fp = cursor_fingerprint(m, request.shaping);
    let start = match request.cursor {
        Some(c) => decode(c, fp)?,
        None => Position::default(),
    };
    let size = |body: &Body| wrap(body).map(|s| s.len()).unwrap_or(usize::MAX);
    // Room for the cut note and the next command, whose length is known up to the cursor.
    let reserve = RESERVE + (request.next)(&encode(fp, Position::default())).len() + 16;
    let mut body = Body::default();
    if request.cursor.is_none() {
        body.overview = choose_overview(m, request, reserve, &size);
    } else {
        body.overview.summary = super::overview::summary_line(m.into());
    }
    let order = hunk_order(m);
    if !request.hunks || order.is_empty() || start.file >= order.len() {
        if request.cursor.is_some() && start.file >= order.len() {
            body.page = Some("no more hunks".into());
        }
        return finish(&body, wrap);
    }
    if request.cursor.is_some() {
        body.page = Some(format!(
            "hunks continued from {}",
            display_path(&m.files[order[start.file]].path)
        ));
    }
    let base = size(&body);
    let limit = request.budget.saturating_sub(reserve);
    let part_limit = (request.budget / 2).max(400);
    let mut used = base;
    let mut shown: Vec<Piece> = Vec::new();
    let mut resume: Option<Position> = None;
    let mut next_file = start.file;
    'fill: while next_file < order.len() {
        let batch_end = batch(m, &order, next_file, limit.saturating_sub(used));
        let fetched = hunks::hunks(repo, m, &order[next_file..batch_end], request.shaping)?;
        for (file_pos, &index) in order.iter().enumerate().take(batch_end).skip(next_file) {
            let Some(file) = fetched.iter().find(|f| f.index == index) else {
                continue;
            };
            for mut piece in pieces(file, file_pos, part_limit) {
                if piece.at < start {
                    continue;
                }
                let new_group = shown.last().is_none_or(|p| p.index != piece.index);
                let key = if new_group {
                    json_len(&display_path(&m.files[index].path)) + 3
                } else {
                    0
                };
                let mut cost = json_len(&piece.text) + 1 + key;
                if used + cost > limit {
                    if !shown.is_empty() {
                        resume = Some(piece.at);
                        break 'fill;
                    }
                    // Not even one piece fits this page (a very long line under a small
                    // budget): show what fits of it and go on, so paging always advances.
                    let room = limit.saturating_sub(used + key + 1);
                    piece.text = squeeze(&piece.text, room);
                    cost = json_len(&piece.text) + 1 + key;
                }
                used += cost;
                shown.push(piece);
            }
        }
        next_file = batch_end;
    }
    // The estimate above is exact up to separators; confirm with the cut note and the next
    // command in place, and give pieces back until the whole answer fits.
    loop {
        body.hunks = group(m, &shown);
        body.cut.clear();
        body.next = None;
        if let Some(at) = resume {
            body.cut.push(later_note(m, &order, at));
            body.next = Some((request.next)(&encode(fp, at)));
        }
        // A later page keeps at least one piece, so that following `next` always advances;
        // the first page advances by its overview alone.
        let least = usize::from(request.cursor.is_some());
        if size(&body) <= request.budget || shown.len() <= least {
            break;
        }
        resume = shown.pop().map(|p| p.at).or(resume);
    }
    finish(&body, wrap)
}

/// The most characters of file names a cut note lists (it must fit [`RESERVE`]).
const NOTE_NAMES: usize = 360;

/// Says which files' hunks are on later pages, from `at` on: up to 20 names, as many as fit
/// [`NOTE_NAMES`].
fn later_note(m: &Manifest, order: &[usize], at: Position) -> String {
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
    let mut note = format!(
        "hunks of {} file{} ({}) are on the next pages: {names}",
        later.len(),
        if later.len() == 1 { "" } else { "s" },
        roles
            .iter()
            .map(|r| r.label())
            .collect::<Vec<_>>()
            .join(", "),
    );
    if later.len() > named {
        note.push_str(&format!(", … {} more", later.len() - named));
    }
    if at.hunk > 0 || at.part > 0 {
        note.push_str(" (the first of them continues where this page ends)");
    }
    note
}

/// Serializes the body; it fits by construction, and a failure to serialize is an error.
fn finish(
    body: &Body,
    wrap: &dyn Fn(&Body) -> Result<String, serde_json::Error>,
) -> Result<String, super::AnswerError> {
    Ok(wrap(body)?)
}

/// The most detailed overview whose answer leaves room for the cut note: every file and
/// function with signatures, then without, then summarised into a share of the budget.
fn choose_overview(
    m: &Manifest,
    request: &Request<'_>,
    reserve: usize,
    size: &dyn Fn(&Body) -> usize,
) -> Overview {
    let limit = request.budget.saturating_sub(reserve);
    for level in [Level::Full, Level::Names] {
        let o = overview(m.into(), level, usize::MAX, &request.full_listing);
        let body = Body {
            overview: o,
            ..Body::default()
        };
        if size(&body) <= limit {
            return body.overview;
        }
    }
    // Summarised: the complete counts plus the most significant entries in about half the
    // budget, leaving the rest to hunks.
    let mut room = request.budget / 2;
    loop {
        let o = overview(m.into(), Level::Summarised, room, &request.full_listing);
        let body = Body {
            overview: o,
            ..Body::default()
        };
        if size(&body) <= limit || room < 200 {
            return body.overview;
        }
        room /= 2;
    }
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

/// Splits a file's hunks into page pieces no longer than `part_limit`.
fn pieces(file: &FileHunks, file_pos: usize, part_limit: usize) -> Vec<Piece> {
    let mut out = Vec::new();
    for (h, placed) in file.hunks.iter().enumerate() {
        for (part, text) in parts(placed, part_limit).into_iter().enumerate() {
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

/// Renders a hunk as one or more strings of at most about `limit` characters each; each part
/// starts with a header giving the line numbers where it starts.
fn parts(placed: &PlacedHunk, limit: usize) -> Vec<String> {
    let h = &placed.hunk;
    let function = placed.function.as_deref().unwrap_or("");
    let header = |old: u32, new: u32, part: usize| {
        let mut s = format!("@@ -{old} +{new} @@");
        if !function.is_empty() {
            s.push(' ');
            s.push_str(function);
        }
        if part > 0 {
            s.push_str(&format!(" (part {})", part + 1));
        }
        s
    };
    let (mut old, mut new) = (h.old_start, h.new_start);
    let mut out = Vec::new();
    let mut text = header(old, new, 0);
    for line in &h.lines {
        let shown = clip(line);
        if text.len() + shown.len() + 1 > limit && text.contains('\n') {
            out.push(std::mem::take(&mut text));
            text = header(old, new, out.len());
        }
        text.push('\n');
        text.push_str(&shown);
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
    out.push(text);
    out
}

/// A piece cut so that its JSON form takes at most `room` bytes, saying so.
fn squeeze(text: &str, room: usize) -> String {
    const NOTE: &str = "… [the rest of this part does not fit the output budget]";
    let with = |n: usize| -> String {
        let mut out: String = text.chars().take(n).collect();
        out.push_str(NOTE);
        out
    };
    // The largest prefix, in characters, whose JSON form fits.
    let (mut lo, mut hi) = (0, text.chars().count());
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if json_len(&with(mid)) <= room {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    with(lo)
}

/// A line cut to [`MAX_LINE`] characters, saying how much was cut.
fn clip(line: &str) -> std::borrow::Cow<'_, str> {
    if line.len() <= MAX_LINE {
        return line.into();
    }
    let cut: String = line.chars().take(MAX_LINE).collect();
    let rest = line.chars().count() - cut.chars().count();
    format!("{cut}… [{rest} more characters]").into()
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
fn cursor_fingerprint(m: &Manifest, shaping: &[OsString]) -> u64 {
    let mut h = Fingerprint::extend(fingerprint(m));
    for arg in shaping {
        h.eat(arg.as_encoded_bytes());
    }
    h.value()
}

/// The kind of a hunk page's cursor.
const CURSOR_TAG: &str = "gp2";

fn encode(fp: u64, at: Position) -> String {
    encode_tagged(
        CURSOR_TAG,
        fp,
        &format!("{}.{}.{}", at.file, at.hunk, at.part),
    )
}

fn decode(cursor: &str, fp: u64) -> Result<Position, PageError> {
    let position = decode_tagged(cursor, CURSOR_TAG, fp)?;
    let mut numbers = position.split('.').map(str::parse::<usize>);
    match (
        numbers.next(),
        numbers.next(),
        numbers.next(),
        numbers.next(),
    ) {
        (Some(Ok(file)), Some(Ok(hunk)), Some(Ok(part)), None) => Ok(Position { file, hunk, part }),
        _ => Err(PageError::Invalid(cursor.chars().take(80).collect())),
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
        let c = encode(0xabc, at);
        assert_eq!(decode(&c, 0xabc), Ok(at));
        assert!(matches!(decode(&c, 0xabd), Err(PageError::Stale(_))));
        for bad in [
            "",
            "gp2-",
            "gp2-zz-1.1.1",
            "gp2-0abc-1.1",
            "gp2-0abc-1.1.1.1",
            "gp1-0abc-1",
        ] {
            assert!(
                matches!(decode(bad, 0xabc), Err(PageError::Invalid(_))),
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
            function: Some("f".into()),
        };
        let whole = parts(&placed, usize::MAX);
        assert_eq!(whole.len(), 1);
        assert!(whole[0].starts_with("@@ -10 +20 @@ f\n context 0\n-old 1\n+new 2"));
        let split = parts(&placed, 120);
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
    fn a_squeezed_piece_fits_its_room() {
        let text = format!("@@ -1 +1 @@\n+{}", "\"quoted\" ".repeat(300));
        for room in [80, 200, 1000] {
            let s = squeeze(&text, room);
            assert!(json_len(&s) <= room, "{room}: {}", json_len(&s));
            assert!(s.ends_with("does not fit the output budget]"));
        }
    }

    #[test]
    fn very_long_lines_are_clipped_with_their_length() {
        let line = format!("+{}", "x".repeat(5000));
        let shown = clip(&line);
        assert!(shown.len() < 2100);
        assert!(
            shown.ends_with("[3001 more characters]"),
            "{}",
            &shown[2000..]
        );
        assert_eq!(clip("+short"), "+short");
    }
}
