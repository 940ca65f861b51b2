//! Parsing within bounds: what is refused before a parse ([`refuse`]), the time a parse and
//! an extraction may take, the answer's deadline ([`within`]), the stack a parse runs on
//! ([`parse_stack`]), parsers kept per thread and language, and the entry points that parse
//! and extract one file ([`analyze`]), two versions of it reusing the first tree
//! ([`analyze_pair`]), or two versions known by blob id through the cache
//! ([`analyze_versions`]).

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use tree_sitter::{Parser, Tree};

use super::walk::extract;
use super::{Analysis, Language, LanguageConfig, cache, embed, for_language};

/// Files larger than this are not analysed.
pub const MAX_FILE_BYTES: usize = 1024 * 1024;
/// Brackets nested deeper than this mark a file built to exhaust the parser (real code stays
/// far below), which is not analysed.
pub const MAX_NESTING: usize = 1000;
/// A line longer than this marks a minified or generated file, which is not analysed.
pub const MAX_LINE_BYTES: usize = 16 * 1024;
/// How long one parse may take.
pub const PARSE_BUDGET: Duration = Duration::from_millis(750);
/// How long extracting one parsed file may take.
pub const EXTRACT_BUDGET: Duration = Duration::from_millis(750);
/// Functions and scopes nested deeper than this are not told apart: their code counts toward
/// the innermost one above the limit (bounds name lengths and per-token work on hostile input).
pub const MAX_SCOPE_DEPTH: usize = 32;
/// The prefix of every reason an analysis ran out of its own time (remembered by the cache for
/// a while: the file is likely built to take it).
pub const OVER_BUDGET: &str = "exceeded its time budget";
/// The reason a file was not analysed because the answer's analysis time ran out (a fact of
/// the call, never cached).
pub const OUT_OF_TIME: &str = "not analysed: the answer's analysis time ran out";
/// The reason a file was not analysed because its parser's stack could not be reserved (an
/// address-space limit; a fact of the call, never cached).
pub const NO_STACK: &str = "not analysed: no room for the parser's stack";
/// Files at least this large are parsed one at a time: a hostile file's tree can take
/// hundreds of MiB, and several at once would add up.
pub const BIG_PARSE_BYTES: usize = 128 * 1024;

thread_local! {
    /// Whether the last parse on this thread was stopped by its own [`PARSE_BUDGET`] (rather
    /// than by the answer's deadline).
    static OWN_BUDGET_RAN_OUT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// When the analyses of the current answer must stop (see [`within`]).
    static DEADLINE: std::cell::Cell<Option<Instant>> = const { std::cell::Cell::new(None) };
}

/// The lock a big parse holds, with its tree, until its analysis is extracted.
static BIG_PARSE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs `f` (which analyses on this thread) with the answer's analysis `deadline`: a parse
/// started after it is skipped ([`OUT_OF_TIME`]), one running at it is stopped.
pub fn within<T>(deadline: Option<Instant>, f: impl FnOnce() -> T) -> T {
    let before = DEADLINE.with(|d| d.replace(deadline));
    let out = f();
    DEADLINE.with(|d| d.set(before));
    out
}

/// The analysis deadline of the current thread's answer: read it on the thread that set it
/// and pass it to [`within`] on the threads that analyse for it.
pub fn deadline() -> Option<Instant> {
    DEADLINE.with(std::cell::Cell::get)
}

/// Whether the current answer's analysis time ran out.
fn out_of_time() -> bool {
    DEADLINE.with(|d| d.get().is_some_and(|d| Instant::now() >= d))
}

/// Holds [`BIG_PARSE`] while a file of `len` bytes is parsed and extracted.
fn big_parse_guard(len: usize) -> Option<std::sync::MutexGuard<'static, ()>> {
    (len >= BIG_PARSE_BYTES).then(|| {
        BIG_PARSE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    })
}

thread_local! {
    static PARSERS: RefCell<HashMap<Language, Parser>> = RefCell::new(HashMap::new());
}

/// Returns why `source` should not be analysed, if it should not.
pub fn refuse(source: &[u8]) -> Option<String> {
    if source.len() > MAX_FILE_BYTES {
        return Some(format!(
            "file too large ({} bytes, limit {MAX_FILE_BYTES})",
            source.len()
        ));
    }
    let longest = source
        .split(|b| *b == b'\n')
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0);
    if longest > MAX_LINE_BYTES {
        return Some(format!(
            "minified or generated: a line of {longest} bytes (limit {MAX_LINE_BYTES})"
        ));
    }
    if source[..source.len().min(8000)].contains(&0) {
        return Some("binary".into());
    }
    let deepest = nesting(source);
    if deepest > MAX_NESTING {
        // A parse of such a file builds a tree and a stack of hundreds of MiB.
        return Some(format!(
            "brackets nested {deepest} deep (limit {MAX_NESTING})"
        ));
    }
    None
}

/// The deepest bracket nesting of `source`, counting `(`, `[` and `{` and their closers
/// (those inside strings and comments too: an over-count only makes the limit stricter for
/// text that is not code anyway).
fn nesting(source: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    for &b in source {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// The stack a parse of `len` bytes may use. tree-sitter recurses once per level of nested
/// ambiguity when it merges stack versions (`stack_node_add_link`) and when it frees them
/// (`stack_node_release`, which a cancelled parse's reset runs over everything unreduced): one
/// 96-byte frame per level in a release build, a level at least three bytes (`{a:` in
/// TypeScript: 9.4 MiB for 100,000 levels, 300 KB). [`MAX_NESTING`] keeps bracket nesting far
/// below that (at most 150 KiB measured); this covers twice the worst case without it, so
/// nesting the guard does not count cannot overflow a stack either. At most 64 MiB, for one
/// file at a time ([`BIG_PARSE_BYTES`]).
pub fn parse_stack(len: usize) -> usize {
    const MIB: usize = 1024 * 1024;
    len.saturating_mul(64).clamp(MIB, 64 * MIB)
}

/// Parses `source` (reusing `old`, an edited tree of a previous version, when given) within
/// the time budget; `None` when the budget ran out. Runs on the current stack when
/// [`parse_stack`] of it is left, else on a segment of that size reserved for the parse and
/// released after it (the threads that parse keep small stacks: under an address-space limit,
/// only parses running at the moment reserve room). `Err` when the segment cannot be reserved.
pub(super) fn parse(
    language: Language,
    config: &LanguageConfig,
    source: &[u8],
    old: Option<&Tree>,
) -> Result<Option<Option<Tree>>, String> {
    let room = parse_stack(source.len());
    // `stacker` panics when it cannot map the segment (an address-space limit): that file is
    // not analysed, the answer goes on.
    crate::unwind::catch(|| {
        stacker::maybe_grow(room, room, || {
            parse_here(language, config, source, old, &[])
        })
    })
    .map_err(|e| format!("{NO_STACK} ({e})"))
}

/// Parses `ranges` of `source` alone, as one source (a wrapper's body read as items), within
/// the time budget; positions stay the file's. `Some(None)` when the parse ran out of time,
/// `None` when it could not be parsed.
fn parse_items(
    language: Language,
    config: &LanguageConfig,
    source: &[u8],
    ranges: &[tree_sitter::Range],
) -> Option<Option<Tree>> {
    let len: usize = ranges.iter().map(|r| r.end_byte - r.start_byte).sum();
    let room = parse_stack(len);
    crate::unwind::catch(|| {
        stacker::maybe_grow(room, room, || {
            parse_here(language, config, source, None, ranges)
        })
    })
    .ok()
    .flatten()
}

/// Extracts one parsed file, its wrappers' items read first (`embed`). A file whose wrappers
/// could not all be read in time is not analysed, with the reason: a partial reading would
/// be cached as the file's.
fn extract_file(
    language: Language,
    config: &LanguageConfig,
    tree: &Tree,
    source: &[u8],
) -> Analysis {
    let embedded = embed::expand(config, tree, source, &mut |ranges| {
        parse_items(language, config, source, ranges)
    });
    if embedded.ran_out() {
        // The answer's time (a fact of the call), or the file's own cost (remembered).
        if out_of_time() {
            return Analysis::skipped(OUT_OF_TIME.to_owned());
        }
        return Analysis::skipped(format!(
            "macro bodies: parse {OVER_BUDGET} ({} ms)",
            PARSE_BUDGET.as_millis()
        ));
    }
    extract(config, tree, source, &embedded)
}

/// [`parse`] on the current stack, of the whole source or of `ranges` alone.
fn parse_here(
    language: Language,
    config: &LanguageConfig,
    source: &[u8],
    old: Option<&Tree>,
    ranges: &[tree_sitter::Range],
) -> Option<Option<Tree>> {
    PARSERS.with(|parsers| {
        let mut parsers = parsers.borrow_mut();
        let parser = match parsers.entry(language) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let mut parser = Parser::new();
                parser.set_language(&config.grammar(language)?).ok()?;
                e.insert(parser)
            }
        };
        let started = Instant::now();
        let deadline = DEADLINE.with(std::cell::Cell::get);
        OWN_BUDGET_RAN_OUT.with(|c| c.set(false));
        let mut over_budget = |_: &tree_sitter::ParseState| {
            if started.elapsed() > PARSE_BUDGET {
                // The file's own cost (remembered by the cache), not the answer's deadline.
                OWN_BUDGET_RAN_OUT.with(|c| c.set(true));
                ControlFlow::Break(())
            } else if deadline.is_some_and(|d| Instant::now() >= d) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let options = tree_sitter::ParseOptions::new().progress_callback(&mut over_budget);
        let len = source.len();
        if !ranges.is_empty() {
            parser.set_included_ranges(ranges).ok()?;
        }
        let tree = parser.parse_with_options(
            &mut |offset, _| if offset < len { &source[offset..] } else { &[] },
            old,
            Some(options),
        );
        if !ranges.is_empty() {
            // The parser is reused for whole files: back to the whole document.
            parser.set_included_ranges(&[]).ok()?;
        }
        // A cancelled parse leaves state behind; the next parse must start clean.
        if tree.is_none() {
            parser.reset();
        }
        Some(tree)
    })
}

/// The analysis of a parse that was stopped: by its own budget, or by the answer's deadline.
fn over_budget() -> Analysis {
    if !OWN_BUDGET_RAN_OUT.with(std::cell::Cell::get) {
        return Analysis::skipped(OUT_OF_TIME.to_owned());
    }
    Analysis::skipped(format!(
        "parse {OVER_BUDGET} ({} ms)",
        PARSE_BUDGET.as_millis()
    ))
}

/// Parses and extracts one file with the analyzer for `language`.
pub fn analyze(language: Language, source: &[u8]) -> Option<Analysis> {
    let config = for_language(language)?;
    if let Some(reason) = refuse(source) {
        return Some(Analysis::skipped(reason));
    }
    let _big = big_parse_guard(source.len());
    if out_of_time() {
        return Some(Analysis::skipped(OUT_OF_TIME.to_owned()));
    }
    let prepared = config.analyzer.prepare(source);
    let source = &*prepared;
    match parse(language, config, source, None) {
        Ok(parsed) => Some(match parsed? {
            Some(tree) => extract_file(language, config, &tree, source),
            None => over_budget(),
        }),
        Err(reason) => Some(Analysis::skipped(reason)),
    }
}

/// Parses and extracts two versions of one file; the second parse reuses the first tree,
/// edited where the line diff says the text changed, so most of it costs nothing.
pub fn analyze_pair(
    language: Language,
    before: &[u8],
    after: &[u8],
) -> Option<(Analysis, Analysis)> {
    let config = for_language(language)?;
    let (refuse_before, refuse_after) = (refuse(before), refuse(after));
    if refuse_before.is_some() || refuse_after.is_some() {
        let one = |r: Option<String>, src: &[u8]| match r {
            Some(reason) => Some(Analysis::skipped(reason)),
            None => analyze(language, src),
        };
        return Some((one(refuse_before, before)?, one(refuse_after, after)?));
    }
    let _big = big_parse_guard(before.len().max(after.len()));
    if out_of_time() {
        let skipped = || Analysis::skipped(OUT_OF_TIME.to_owned());
        return Some((skipped(), skipped()));
    }
    let (before, after) = (
        config.analyzer.prepare(before),
        config.analyzer.prepare(after),
    );
    let (before, after) = (&*before, &*after);
    let old = match parse(language, config, before, None) {
        Ok(parsed) => parsed?,
        Err(reason) => return Some((Analysis::skipped(reason.clone()), Analysis::skipped(reason))),
    };
    let Some(old) = old else {
        return Some((over_budget(), over_budget()));
    };
    let old_analysis = extract_file(language, config, &old, before);
    let mut edited = old.clone();
    for edit in edits(before, after) {
        edited.edit(&edit);
    }
    let new_analysis = match parse(language, config, after, Some(&edited)) {
        Ok(parsed) => match parsed? {
            Some(tree) => extract_file(language, config, &tree, after),
            None => over_budget(),
        },
        Err(reason) => Analysis::skipped(reason),
    };
    Some((old_analysis, new_analysis))
}

/// Analyses two versions of a file known by blob id (`None` for content without one, such as
/// a working-tree file), using and filling the persistent cache.
pub fn analyze_versions(
    language: Language,
    before: Option<(Option<&str>, &[u8])>,
    after: Option<(Option<&str>, &[u8])>,
) -> (Option<Analysis>, Option<Analysis>) {
    let cached = |side: &Option<(Option<&str>, &[u8])>| {
        side.and_then(|(oid, _)| oid.and_then(|o| cache::get(o, language.label())))
    };
    let (mut old, mut new) = (cached(&before), cached(&after));
    // Only what is computed here is written back: a hit is already on disk.
    let hits = [old.is_some(), new.is_some()];
    match (&before, &after) {
        (Some((_, a)), Some((_, b))) if old.is_none() && new.is_none() => {
            if let Some((x, y)) = analyze_pair(language, a, b) {
                old = Some(x);
                new = Some(y);
            }
        }
        _ => {
            if old.is_none() {
                old = before.and_then(|(_, content)| analyze(language, content));
            }
            if new.is_none() {
                new = after.and_then(|(_, content)| analyze(language, content));
            }
        }
    }
    for ((side, analysis), hit) in [(&before, &old), (&after, &new)].into_iter().zip(hits) {
        if hit {
            continue;
        }
        if let (Some((Some(oid), content)), Some(a)) = (side, analysis) {
            // Stored under the id only when the content is what the id names; a timeout too,
            // so a hostile file costs its parse time once (see `cache`).
            if !a.of_the_call()
                && crate::oid::Oid::parse(oid).is_ok_and(|id| id.names_blob(content))
            {
                cache::put(oid, language.label(), a);
            }
        }
    }
    (old, new)
}

/// Returns the edits that turn `before` into `after`, line by line, last first (so each
/// edit's positions are still valid when it is applied).
fn edits(before: &[u8], after: &[u8]) -> Vec<tree_sitter::InputEdit> {
    use imara_diff::{Algorithm, Diff, InternedInput, sources::byte_lines};
    let offsets = |text: &[u8]| -> Vec<usize> {
        let mut out = vec![0];
        out.extend(
            text.iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        );
        if *out.last().unwrap_or(&0) != text.len() {
            out.push(text.len());
        }
        out
    };
    let (old_lines, new_lines) = (offsets(before), offsets(after));
    let at = |lines: &[usize], line: u32| {
        lines
            .get(line as usize)
            .copied()
            .unwrap_or_else(|| *lines.last().unwrap_or(&0))
    };
    let input = InternedInput::new(byte_lines(before), byte_lines(after));
    let diff = Diff::compute(Algorithm::Histogram, &input);
    let mut out: Vec<tree_sitter::InputEdit> = diff
        .hunks()
        .map(|h| {
            let start_byte = at(&old_lines, h.before.start);
            let old_end_byte = at(&old_lines, h.before.end);
            let new_len = at(&new_lines, h.after.end) - at(&new_lines, h.after.start);
            let point = |row: u32| tree_sitter::Point {
                row: row as usize,
                column: 0,
            };
            tree_sitter::InputEdit {
                start_byte,
                old_end_byte,
                new_end_byte: start_byte + new_len,
                start_position: point(h.before.start),
                old_end_position: point(h.before.end),
                new_end_position: point(h.before.start + (h.after.end - h.after.start)),
            }
        })
        .collect();
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`parse_stack`]'s segment (without it, this overflows and the test process dies).
    #[test]
    fn a_deeply_nested_parse_runs_on_its_own_stack() {
        let source = "{a:".repeat(100_000);
        let analyzer = for_language(Language::TypeScript).unwrap();
        let parsed = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                parse(Language::TypeScript, analyzer, source.as_bytes(), None)
                    .map(|tree| tree.is_some())
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(parsed, Ok(true));
    }

    #[test]
    fn files_nested_past_the_limit_are_refused() {
        let deep = "[a=".repeat(MAX_NESTING + 1);
        assert!(refuse(deep.as_bytes()).is_some_and(|r| r.contains("nested")));
        let shallow = "f(g(h(x)));\n".repeat(10_000);
        assert_eq!(refuse(shallow.as_bytes()), None);
    }

    #[test]
    fn an_incremental_reparse_extracts_what_a_full_parse_does() {
        let before = b"fn a() { 1; }\n\nfn b() {\n    let x = 2;\n}\n\nfn c() {}\n";
        let after = b"fn a() { 1; }\n\nfn b() {\n    let x = 3;\n    let y = 4;\n}\n// new\nfn d() {}\n\nfn c() {}\n";
        let (_, incremental) = analyze_pair(Language::Rust, before, after).unwrap();
        let full = analyze(Language::Rust, after).unwrap();
        assert_eq!(incremental, full);
        let (_, same) = analyze_pair(
            Language::Python,
            b"def f():\n    pass\n",
            b"def f():\n    pass\n",
        )
        .unwrap();
        assert_eq!(
            same,
            analyze(Language::Python, b"def f():\n    pass\n").unwrap()
        );
        let (_, grown) = analyze_pair(Language::Python, b"", b"def g():\n    return 1").unwrap();
        assert_eq!(
            grown,
            analyze(Language::Python, b"def g():\n    return 1").unwrap()
        );
    }

    #[test]
    fn bounds_are_stated() {
        let big = vec![b'a'; MAX_FILE_BYTES + 1];
        assert!(refuse(&big).unwrap().starts_with("file too large"));
        let minified = vec![b'x'; MAX_LINE_BYTES + 1];
        assert!(refuse(&minified).unwrap().starts_with("minified"));
        assert_eq!(refuse(b"a\0b").as_deref(), Some("binary"));
        assert_eq!(refuse(b"fn main() {}\n"), None);
    }
}
