//! The hunk pages of a paged change answer: git's hunks fetched in batches from where the
//! page starts, split into pieces no longer than half a page (a long line into segments), as
//! many as the budget holds, and a note naming the files whose hunks are on later pages.

use std::collections::HashMap;

use super::cursor::{At, Position, encode};
use super::overview::{self, Ordered};
use super::role::{self, Role};
use super::{
    Body, Input, MIN_PART, PAGE_OVERHEAD, about_tokens, estimate_bytes, header, hunk_order,
};
use crate::budget::{self, Budget, Cut, Stage};
use crate::git::Repo;
use crate::manifest::Manifest;
use crate::manifest::hunks::{self, FileHunks, PlacedHunk, display_path};
use crate::paging::json_len;

/// One piece of a page: a part of a hunk of one file.
struct Piece {
    at: Position,
    /// Index into the manifest's files.
    index: usize,
    text: String,
}

/// A page of hunks from `start` on, after whatever `base` already holds.
pub(super) fn hunk_page(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::patch::Hunk;

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
