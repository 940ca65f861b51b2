//! Step 7 of building a manifest ([`super::build`]): the function analysis of its files. Both
//! sides of every file in a language with an analyzer are analysed in parallel, within the
//! caller's analysis deadline ([`crate::lang::within`]): what [`super::prefetch`] analysed
//! ahead of time is taken as it is, the rest is read (a blob, or the working-tree file through
//! [`crate::git::worktree`]) and parsed; then the comparisons are finished together, so that
//! functions that moved between files are paired. A generated file whose hunks are hidden is
//! not analysed, and a side too large to analyse says so.

use std::path::Path;

use bstr::{BString, ByteSlice};
use rayon::prelude::*;

use super::model::{FileChange, Functions, Kind, Outline};
use super::prefetch::Prefetched;
use crate::git::repo::Objects;
use crate::git::{Oid, Repo, worktree};
use crate::lang::Language;

/// Analyses the functions and imports of every file in a supported language, both sides in
/// parallel, then resolves functions that moved between files.
pub(super) fn analyze_functions(
    repo: &Repo,
    files: &mut [FileChange],
    base: Option<&Path>,
    prefetched: &Prefetched,
) {
    let jobs: Vec<(usize, Language)> = files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| analyzable(f).map(|label| (i, label)))
        .collect();
    // The workers analyse within the caller's deadline.
    let deadline = crate::lang::deadline();
    let pending: Vec<Analysed> = jobs
        .par_iter()
        .map_init(
            || repo.objects(),
            |objects, &(i, label)| {
                crate::lang::within(deadline, || {
                    analyse_file(objects, i, &files[i], label, base, prefetched)
                })
            },
        )
        .collect();
    let mut indices = Vec::with_capacity(pending.len());
    let mut outlines = Vec::with_capacity(pending.len());
    let mut compared = Vec::with_capacity(pending.len());
    for (i, path, p, outline) in pending {
        indices.push(i);
        outlines.push(outline);
        compared.push((path, p));
    }
    let results = crate::lang::compare::finish(compared);
    for f in files.iter_mut() {
        f.functions = Functions::Unsupported;
    }
    for ((i, result), outline) in indices.into_iter().zip(results).zip(outlines) {
        files[i].functions = Functions::Analysed(result);
        files[i].outline = outline;
    }
}

/// One file analysed: its index, its path, its comparison before it is finished, and the
/// spans of its functions on both sides.
type Analysed = (usize, String, crate::lang::compare::Pending, Outline);

/// The language to analyse a file in, when it can be: an analyzer's, a file on both sides (not
/// binary, a link or a submodule).
fn analyzable(f: &FileChange) -> Option<Language> {
    let label = f.language?;
    let analyzable = crate::lang::for_language(label).is_some()
        && !f.binary
        && f.kind() == Kind::File
        && Kind::of_mode(f.mode_before) != Some(Kind::Symlink)
        && Kind::of_mode(f.mode_before) != Some(Kind::Submodule);
    analyzable.then_some(label)
}

/// Analyses both sides of the change's file `i`, `f`: what was analysed ahead of time, the
/// rest read and parsed now; generated code is skipped.
fn analyse_file(
    objects: &Objects,
    i: usize,
    f: &FileChange,
    label: Language,
    base: Option<&Path>,
    prefetched: &Prefetched,
) -> Analysed {
    if let Some(reason) = f.generated.filter(|_| f.generated_hidden()) {
        // Generated code is regenerated, not reviewed: its functions are noise.
        let skipped = crate::lang::Analysis::skipped(format!("generated ({})", reason.label()));
        let pending = crate::lang::compare::compare(Some(&skipped), None);
        let path = f.path.to_str_lossy().into_owned();
        return (i, path, pending, Outline::default());
    }
    let ahead = |oid: Option<&Oid>| oid.and_then(|o| prefetched.analysis(o, label)).cloned();
    let (mut before, mut after) = (ahead(f.oid_before.as_ref()), ahead(f.oid_after.as_ref()));
    if before.is_none() || after.is_none() {
        let (x, y) = analyse_sides(objects, f, label, base, before.is_some(), after.is_some());
        before = before.or(x);
        after = after.or(y);
    }
    let pending = crate::lang::compare::compare(before.as_ref(), after.as_ref());
    let outline = Outline {
        before: Outline::spans(before.as_ref()),
        after: Outline::spans(after.as_ref()),
    };
    (i, f.path.to_str_lossy().into_owned(), pending, outline)
}

/// Reads and analyses the sides of a file that were not analysed ahead of time (those done are
/// `None`); a side too large to read is a skipped analysis that says so.
fn analyse_sides(
    objects: &Objects,
    f: &FileChange,
    label: Language,
    base: Option<&Path>,
    before_done: bool,
    after_done: bool,
) -> (Option<crate::lang::Analysis>, Option<crate::lang::Analysis>) {
    let before_path = f.old_path.as_ref().unwrap_or(&f.path);
    let read = |present: bool, done: bool, oid: Option<&Oid>, path: &BString| {
        if !present || done {
            return Ok(None);
        }
        content_of(objects, oid, path, base).map(Some)
    };
    let old = read(
        f.mode_before.exists(),
        before_done,
        f.oid_before.as_ref(),
        before_path,
    );
    let new = read(
        f.mode_after.exists(),
        after_done,
        f.oid_after.as_ref(),
        &f.path,
    );
    let (x, y) = crate::lang::analyze_versions(
        label,
        version_input(&old, f.oid_before.as_deref()),
        version_input(&new, f.oid_after.as_deref()),
    );
    let too_large = |side: Result<Option<Vec<u8>>, Option<String>>| match side {
        Err(Some(reason)) => Some(crate::lang::Analysis::skipped(reason)),
        _ => None,
    };
    (x.or_else(|| too_large(old)), y.or_else(|| too_large(new)))
}

/// The input [`crate::lang::analyze_versions`] takes for one side that was read.
fn version_input<'a>(
    side: &'a Result<Option<Vec<u8>>, Option<String>>,
    oid: Option<&'a str>,
) -> Option<(Option<&'a str>, &'a [u8])> {
    match side {
        Ok(Some(content)) => Some((oid, content.as_slice())),
        _ => None,
    }
}

/// Reads one side of a file for analysis: a blob, or the working-tree file; a side over the
/// analysis size limit is `Err` with the reason.
fn content_of(
    objects: &Objects,
    oid: Option<&Oid>,
    path: &BString,
    base: Option<&Path>,
) -> Result<Vec<u8>, Option<String>> {
    let too_large = |size: u64| {
        Err(Some(format!(
            "file too large ({size} bytes, limit {})",
            crate::lang::MAX_FILE_BYTES
        )))
    };
    match oid {
        Some(oid) => {
            let size = objects.size(oid).map_err(|_| None)?;
            if size > crate::lang::MAX_FILE_BYTES as u64 {
                return too_large(size);
            }
            objects.blob(oid).map_err(|_| None)
        }
        None => match worktree::read(base.ok_or(None)?, path, crate::lang::MAX_FILE_BYTES as u64) {
            Ok(Some(worktree::Content::File(bytes))) => Ok(bytes),
            Ok(Some(worktree::Content::TooLarge(size))) => too_large(size),
            // A link, a directory, a FIFO or a path that is gone: nothing to analyse.
            _ => Err(None),
        },
    }
}
