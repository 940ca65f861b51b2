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
//! line boundaries, a line too long for a page into segments, and continued); no changed line
//! is cut without its rest on the following pages; every cut is stated, with the files whose
//! hunks are on later pages; a cursor is bound to the range's facts and the hunk options (a
//! cursor from before the branch moved is refused). The fitting is [`crate::budget`]'s: hunk
//! pieces give way first, then the overview's detail.

use std::ffi::OsString;

use serde::Serialize;

use super::overview::{Level, Ordered, Overview, overview};
use super::role::{self, Role};
use crate::budget::{self, Budget, Cut, Stage};
use crate::git::Repo;
use crate::manifest::Manifest;
use crate::manifest::hunks::{self, FileHunks, PlacedHunk, display_path, shows_hunks};
use crate::manifest::render::fingerprint;
use crate::paging::{Cursor, CursorError, Fingerprint, json_len};

/// The smallest piece a hunk is split into, whatever the budget.
const MIN_PART: usize = 400;

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
    input: &Input<'_>,
    wrap: &dyn Fn(&Body) -> Result<String, serde_json::Error>,
) -> Result<String, super::AnswerError> {
    let m = input.manifest;
    let fp = cursor_fingerprint(m, input.context, input.shaping);
    let first_page = input.cursor.is_none();
    let start = match input.cursor {
        Some(c) => decode(c, fp)?,
        None => Position::default(),
    };
    let order = hunk_order(m);
    let more_hunks = input.hunks && start.file < order.len();
    // The overview's levels, most detailed first; later pages carry only the summary line.
    let overviews: Vec<Overview> = if first_page {
        overview_levels(m, input)
    } else {
        vec![Overview {
            summary: super::overview::summary_line(m.into()),
            ..Overview::default()
        }]
    };
    let page = match (first_page, more_hunks) {
        (true, _) => None,
        (false, true) => Some(format!(
            "hunks continued from {}",
            display_path(&m.files[order[start.file]].path)
        )),
        (false, false) if input.cursor.is_some() && start.file >= order.len() => {
            Some("no more hunks".into())
        }
        (false, false) => None,
    };
    let (candidates, exhausted) = if more_hunks {
        candidates(repo, m, &order, start, input)?
    } else {
        (Vec::new(), true)
    };
    let resume = |shown: usize| candidates.get(shown).map(|p| p.at);
    let stages = [
        // A later page keeps at least one piece, so that following `next` always advances;
        // the first page advances by its overview alone.
        Stage::Window {
            least: usize::from(!first_page).min(candidates.len()),
            most: candidates.len(),
            total: candidates.len() + usize::from(!exhausted),
            holds: "one piece of a hunk",
            note: Box::new(|shown, _| {
                let at = resume(shown).unwrap_or(Position {
                    file: order.len(),
                    ..Position::default()
                });
                Cut::Later(later_note(m, &order, at))
            }),
        },
        // The overview says itself what a less detailed level leaves out (`omitted`).
        Stage::Detail {
            deepest: overviews.len() - 1,
            notes: Box::new(|_| Vec::new()),
        },
    ];
    let fitted = budget::fit(Some(input.budget), &stages, |s| {
        let shown = s.get(0);
        let mut body = Body {
            overview: overviews[s.get(1)].clone(),
            page: page.clone(),
            hunks: group(m, &candidates[..shown]),
            cut: s.notes(),
            next: None,
        };
        if shown < candidates.len() || !exhausted {
            // Just after the last piece shown (positions order lexicographically).
            let after = |p: &Piece| Position {
                part: p.at.part + 1,
                ..p.at
            };
            let at = resume(shown).or(candidates.last().map(after));
            if let Some(at) = at {
                body.next = Some((input.next)(&encode(fp, at)));
            }
        }
        let json = wrap(&body)?;
        let len = json.len();
        Ok::<_, serde_json::Error>((json, len))
    })?;
    Ok(fitted.doc)
}

/// The overview at each level, most detailed first: every file and function with signatures,
/// then without, then summarised into shrinking shares of the budget.
fn overview_levels(m: &Manifest, input: &Input<'_>) -> Vec<Overview> {
    let mut levels = vec![
        overview(m.into(), Level::Full, usize::MAX, &input.full_listing),
        overview(m.into(), Level::Names, usize::MAX, &input.full_listing),
    ];
    // Summarised: the complete counts plus the most significant entries in about half the
    // budget, then less.
    let mut room = input.budget.as_bytes() / 2;
    loop {
        levels.push(overview(
            m.into(),
            Level::Summarised,
            room,
            &input.full_listing,
        ));
        if room < 200 {
            break;
        }
        room /= 2;
    }
    levels
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
            for piece in pieces(file, file_pos, part_limit) {
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

/// Renders a hunk as one or more strings of at most about `limit` bytes each; each part
/// starts with a header giving the line numbers where it starts. A line longer than a part is
/// split into segments: each segment after the first starts a new part and repeats the line's
/// prefix followed by `…`, so that every byte of the line is shown, in order.
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
        for segment in segments(line, limit.saturating_sub(text_len_floor(function))) {
            if text.len() + segment.len() + 1 > limit && text.contains('\n') {
                out.push(std::mem::take(&mut text));
                text = header(old, new, out.len());
            }
            text.push('\n');
            text.push_str(&segment);
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
    out.push(text);
    out
}

/// Room a part's header takes, at most (line numbers, the function, the part number).
fn text_len_floor(function: &str) -> usize {
    function.len() + 48
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

/// The kind of a hunk page's cursor.
const CURSOR: Cursor = Cursor("gp2");

fn encode(fp: u64, at: Position) -> String {
    CURSOR.encode_position(fp, &format!("{}.{}.{}", at.file, at.hunk, at.part))
}

fn decode(cursor: &str, fp: u64) -> Result<Position, CursorError> {
    let position = CURSOR.decode_position(cursor, fp)?;
    let mut numbers = position.split('.').map(str::parse::<usize>);
    match (
        numbers.next(),
        numbers.next(),
        numbers.next(),
        numbers.next(),
    ) {
        (Some(Ok(file)), Some(Ok(hunk)), Some(Ok(part)), None) => Ok(Position { file, hunk, part }),
        _ => Err(CursorError::Invalid(cursor.chars().take(80).collect())),
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
            function: None,
        };
        let split = parts(&placed, 1000);
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
