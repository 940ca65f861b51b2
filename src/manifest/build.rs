//! Building a manifest: git's per-file facts, enriched in parallel.
//!
//! 1. The range is resolved against the repository ([`crate::git::revs`]); for a command run
//!    below the top of the work tree, `diff.relative` applies as it does to git (not for the
//!    server, whose `repo_path` names a repository: [`Options::for_server`]).
//! 2. The real git reports every changed pair with `--raw --numstat -z -M` for exactly the
//!    resolved objects: paths, statuses, renames, modes and line counts are git's. Meanwhile
//!    [`super::prefetch`] reads ahead what the next steps need.
//! 3. On a working-tree target, untracked files that are not ignored are added (line counts as
//!    `git add -N` would give them).
//! 4. In parallel, each file gets its sizes, language, and generated flag; only the start of
//!    the content is inspected, and only when the path does not already decide.
//! 5. Dependency files are parsed before and after.
//! 6. A generated file counts as generated only if the change's base said so too (a change
//!    cannot hide its own code); a hand edit to one, and a lockfile change the dependency report
//!    does not explain, keep their hunks (ADR 14).
//! 7. With [`Options::functions`], both sides of every file in an analysed language are
//!    analysed in parallel ([`crate::lang`], within the caller's analysis deadline): the
//!    function changes, the imports, and the outlines that place hunks in functions; then
//!    functions that moved between files are paired. A generated file whose hunks are hidden
//!    is not analysed (its functions are regenerated, not reviewed).
//!
//! Working-tree content is read only through [`crate::git::worktree`]: never outside the
//! working tree, never through a symlink, only regular files, never more than a cap.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};

use bstr::{BString, ByteSlice};
use rayon::prelude::*;

use super::generated::{self, Attribute};
use super::language;
use super::model::{FileChange, Functions, Kind, Manifest, Outline};
use super::prefetch::{Prefetched, ReadAhead};
use crate::deps;
use crate::git::attributes::{State, Where};
use crate::git::facts::{self, Status};
use crate::git::repo::Objects;
use crate::git::revs::{Head, Target};
use crate::git::{GitError, Mode, Oid, Repo, worktree};
use crate::lang::Language;
use crate::request::Diff;
use crate::time::Stopwatch;

/// The error returned by [`build`].
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// Repository access or the real git failed.
    #[error(transparent)]
    Git(#[from] GitError),
}

/// Files larger than this are not read for language or generated markers.
const HEAD_READ_LIMIT: u64 = 2 * 1024 * 1024;
/// git's binary sniffing window: a NUL in the first 8000 bytes makes a file binary.
const BINARY_SNIFF: usize = 8000;

/// Options that shape a manifest.
#[derive(Clone, Debug)]
pub struct Options {
    /// Add untracked, not ignored files to working-tree targets.
    pub untracked: bool,
    /// Analyse functions and imports of files in supported languages.
    pub functions: bool,
    /// Apply `diff.relative` as git does for a command run below the top of the work tree
    /// (the shim and the CLI; not the server, whose `repo_path` names a repository).
    pub relative_config: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            untracked: true,
            functions: true,
            relative_config: true,
        }
    }
}

impl Options {
    /// The options of a server tool: the defaults, without `diff.relative`.
    pub fn for_server() -> Options {
        Options {
            relative_config: false,
            ..Options::default()
        }
    }
}

/// Builds the manifest of a `git diff` command line.
pub fn build(repo: &Repo, diff: &Diff, options: &Options) -> Result<Manifest, ManifestError> {
    let mut clock = Stopwatch::start();
    let configured;
    let relative = if options.relative_config {
        configured_relative(repo, diff)?
    } else {
        None
    };
    let diff = match relative {
        Some(d) => {
            configured = d;
            &configured
        }
        None => diff,
    };
    let (target, paths) = repo.diff_target(diff)?;
    clock.lap("resolve");
    let relative = diff.relative();
    let GitFacts {
        entries,
        untracked,
        prefetched,
    } = git_facts(repo, &target, diff, &paths, options, relative, &mut clock)?;
    clock.lap("git diff");
    let base = worktree_base(repo, relative);
    let (mut files, dependencies) = enrich_all(
        repo,
        entries,
        &untracked,
        target.head,
        base.as_deref(),
        &prefetched,
        &mut clock,
    );
    let base_side = match (&target.base_sha, target.base_ref.as_str()) {
        (Some(oid), _) => Some(Where::Tree(oid)),
        (None, "INDEX") => Some(Where::Index),
        (None, _) => None,
    };
    judge_against_base(&repo.objects(), &mut files, base_side);
    unexplained_lockfiles(&mut files, &dependencies);
    edits_shown(&mut files);
    if options.functions {
        analyze_functions(repo, &mut files, base.as_deref(), &prefetched);
        clock.lap("functions");
    }
    Ok(Manifest {
        repo_path: repo.display_path().to_owned(),
        target,
        pathspecs: paths
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect(),
        paths: paths.to_vec(),
        diff_options: diff.options.clone(),
        files,
        dependencies,
        functions: options.functions,
        timings: clock.into_laps(),
    })
}

/// What the real git says changed, and what was read ahead meanwhile.
struct GitFacts {
    /// git's changed pairs.
    entries: Vec<facts::Entry>,
    /// Untracked files that are not ignored (working-tree targets).
    untracked: Vec<BString>,
    /// What was worked out while git ran.
    prefetched: Prefetched,
}

/// Runs the real git for the facts (and, on a working tree, the untracked files) while this
/// process reads ahead what enrichment will need.
fn git_facts(
    repo: &Repo,
    target: &Target,
    diff: &Diff,
    paths: &[OsString],
    options: &Options,
    relative: bool,
    clock: &mut Stopwatch,
) -> Result<GitFacts, ManifestError> {
    // git computes the facts while this process prepares what enrichment needs. A diff of the
    // working tree reads a private copy of the index (it would rewrite the index it reads).
    let diffing = repo.start_diff_facts(target, &diff.options, paths)?;
    // git lists no untracked file; they are added for a plain working-tree diff (not a
    // reversed one, nor one relative to a directory).
    let wants_untracked = options.untracked
        && target.head == Head::Worktree
        && !relative
        && !diff.reversed()
        && repo.workdir().is_some();
    let listing = if wants_untracked {
        Some(repo.start_untracked(paths)?)
    } else {
        None
    };
    let (finished, prefetched, git_time, ahead_time) = std::thread::scope(|scope| {
        let ahead = ReadAhead::start(scope, repo, target, !paths.is_empty(), options.functions);
        let start = std::time::Instant::now();
        let finished = diffing.finish();
        let git_time = start.elapsed();
        let start = std::time::Instant::now();
        let prefetched = if finished.is_ok() {
            ahead.finish(repo)
        } else {
            ahead.cancel();
            Prefetched::default()
        };
        (finished, prefetched, git_time, start.elapsed())
    });
    clock.record("  git (parallel)", git_time);
    clock.record("  read-ahead after git", ahead_time);
    let entries = finished?;
    let untracked = match listing {
        Some(pending) => pending.finish()?,
        None => Vec::new(),
    };
    Ok(GitFacts {
        entries,
        untracked,
        prefetched,
    })
}

/// Enriches git's entries and the untracked files (sizes, language, generated flag) while
/// the dependency files among them are parsed.
fn enrich_all(
    repo: &Repo,
    entries: Vec<facts::Entry>,
    untracked: &[BString],
    head: Head,
    base: Option<&Path>,
    prefetched: &Prefetched,
    clock: &mut Stopwatch,
) -> (Vec<FileChange>, deps::Report) {
    let sources: Vec<DepSource> = entries
        .iter()
        .map(DepSource::from_entry)
        .chain(untracked.iter().map(DepSource::untracked))
        .filter(|s| s.format.is_some())
        .collect();
    let untracked_refs: Vec<&bstr::BStr> = untracked.iter().map(|p| p.as_bstr()).collect();
    let (attrs, untracked_attrs) = attributes(&repo.objects(), &entries, &untracked_refs);
    clock.lap("attributes");
    let ((mut files, enrich_time), (dependencies, deps_time)) = rayon::join(
        || {
            let start = std::time::Instant::now();
            let out = enrich_entries(repo, entries, attrs, head, base, prefetched);
            (out, start.elapsed())
        },
        || {
            let start = std::time::Instant::now();
            let out = dependency_report(repo, &sources, base, prefetched);
            (out, start.elapsed())
        },
    );
    clock.record("  files (parallel)", enrich_time);
    clock.record("  dependencies (parallel)", deps_time);
    let untracked_files: Vec<FileChange> = untracked
        .iter()
        .cloned()
        .zip(untracked_attrs)
        .collect::<Vec<_>>()
        .into_par_iter()
        .filter_map(|(path, attr)| base.and_then(|b| untracked_file(b, path, attr)))
        .collect();
    files.extend(untracked_files);
    clock.lap("enrich");
    (files, dependencies)
}

/// Turns git's entries into file changes, in parallel.
fn enrich_entries(
    repo: &Repo,
    entries: Vec<facts::Entry>,
    attrs: Vec<Attrs>,
    head: Head,
    base: Option<&Path>,
    prefetched: &Prefetched,
) -> Vec<FileChange> {
    entries
        .into_par_iter()
        .zip(attrs.into_par_iter())
        .map_init(
            || repo.objects(),
            |objects, (entry, attr)| enrich(objects, entry, attr, head, base, prefetched),
        )
        .collect()
}

/// Turns the entries of a commit-to-commit comparison into file changes.
pub fn commit_files(
    repo: &Repo,
    parent: Option<&Oid>,
    entries: Vec<facts::Entry>,
    functions: bool,
) -> Vec<FileChange> {
    let objects = repo.objects();
    let (attrs, _) = attributes(&objects, &entries, &[]);
    let prefetched = Prefetched::default();
    let mut files = enrich_entries(repo, entries, attrs, Head::Object, None, &prefetched);
    judge_against_base(&objects, &mut files, parent.map(Where::Tree));
    edits_shown(&mut files);
    if functions {
        analyze_functions(repo, &mut files, None, &prefetched);
    }
    files
}

/// Analyses the functions and imports of every file in a supported language, both sides in
/// parallel, then resolves functions that moved between files.
pub(crate) fn analyze_functions(
    repo: &Repo,
    files: &mut [FileChange],
    base: Option<&Path>,
    prefetched: &Prefetched,
) {
    let jobs: Vec<(usize, Language)> = files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let label = f.language?;
            let analyzable = crate::lang::for_language(label).is_some()
                && !f.binary
                && f.kind() == Kind::File
                && Kind::of_mode(f.mode_before) != Some(Kind::Symlink)
                && Kind::of_mode(f.mode_before) != Some(Kind::Submodule);
            analyzable.then_some((i, label))
        })
        .collect();
    type Job = (usize, String, crate::lang::compare::Pending, Outline);
    // The workers analyse within the caller's deadline.
    let deadline = crate::lang::deadline();
    let pending: Vec<Job> = jobs
        .par_iter()
        .map_init(
            || repo.objects(),
            |objects, &(i, label)| {
                crate::lang::within(deadline, || {
                    let (path, pending, outline) =
                        analyze_file(objects, &files[i], label, base, prefetched);
                    (i, path, pending, outline)
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

/// The functions of one changed file, both sides, pending comparison across the range (the
/// prefetched analyses first, then its versions read and analysed here).
fn analyze_file(
    objects: &crate::git::repo::Objects,
    f: &FileChange,
    label: Language,
    base: Option<&Path>,
    prefetched: &Prefetched,
) -> (String, crate::lang::compare::Pending, Outline) {
    if let Some(reason) = f.generated.filter(|_| f.generated_hidden()) {
        // Generated code is regenerated, not reviewed: its functions are noise.
        let skipped = crate::lang::Analysis::skipped(format!("generated ({})", reason.label()));
        let pending = crate::lang::compare::compare(Some(&skipped), None);
        let path = f.path.to_str_lossy().into_owned();
        return (path, pending, Outline::default());
    }
    let before_path = f.old_path.as_ref().unwrap_or(&f.path);
    let ahead = |oid: Option<&Oid>| oid.and_then(|o| prefetched.analysis(o, label)).cloned();
    let (mut before, mut after) = (ahead(f.oid_before.as_ref()), ahead(f.oid_after.as_ref()));
    if before.is_none() || after.is_none() {
        let read = |present: bool, done: bool, oid: Option<&Oid>, path: &BString| {
            if !present || done {
                return Ok(None);
            }
            content_of(objects, oid, path, base).map(Some)
        };
        let old = read(
            f.mode_before.exists(),
            before.is_some(),
            f.oid_before.as_ref(),
            before_path,
        );
        let new = read(
            f.mode_after.exists(),
            after.is_some(),
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
        before = before.or(x).or_else(|| too_large(old));
        after = after.or(y).or_else(|| too_large(new));
    }
    let pending = crate::lang::compare::compare(before.as_ref(), after.as_ref());
    let outline = Outline {
        before: Outline::spans(before.as_ref()),
        after: Outline::spans(after.as_ref()),
    };
    (f.path.to_str_lossy().into_owned(), pending, outline)
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

/// The diff with `--relative` added when git would apply `diff.relative = true` (the command
/// names neither `--relative` nor `--no-relative` and runs below the top of the work tree), so
/// the answer's paths are the ones git's own diff shows.
fn configured_relative(repo: &Repo, diff: &Diff) -> Result<Option<Diff>, ManifestError> {
    // Strictly inside the work tree: from outside it (`--work-tree` elsewhere) git has no
    // prefix and `diff.relative` changes nothing.
    let below_top = repo.workdir().is_some_and(|top| {
        match (std::fs::canonicalize(top), std::fs::canonicalize(&repo.dir)) {
            (Ok(top), Ok(dir)) => dir != top && dir.starts_with(&top),
            _ => false,
        }
    });
    if diff.decides_relative() || !below_top || !repo.config_bool("diff.relative")? {
        return Ok(None);
    }
    Ok(Some(diff.made_relative()))
}

/// Where working-tree paths of the diff are relative to.
fn worktree_base(repo: &Repo, relative: bool) -> Option<PathBuf> {
    if relative {
        Some(repo.dir.clone())
    } else {
        repo.workdir().map(Path::to_path_buf)
    }
}

/// What `.gitattributes` says about each path: (generated attribute, binary attribute).
#[derive(Clone, Copy, Debug, Default)]
struct Attrs {
    generated: Attribute,
    binary: bool,
}

/// Looks up the attributes of `tracked` and `untracked` paths (returned in the same order).
fn attributes(
    objects: &Objects,
    entries: &[facts::Entry],
    untracked: &[&bstr::BStr],
) -> (Vec<Attrs>, Vec<Attrs>) {
    let paths: Vec<&bstr::BStr> = entries
        .iter()
        .map(|e| e.path.as_bstr())
        .chain(untracked.iter().copied())
        .collect();
    let mut attrs = vec![Attrs::default(); paths.len()];
    let names = ["linguist-generated", "linguist-vendored", "binary", "diff"];
    objects.attributes(&names, &paths, |i, name, state| attrs[i].apply(name, state));
    let untracked = attrs.split_off(entries.len());
    (attrs, untracked)
}

impl Attrs {
    /// Folds one assigned attribute into the result.
    fn apply(&mut self, name: &str, state: State<'_>) {
        let generated_attr = matches!(name, "linguist-generated" | "linguist-vendored");
        match state {
            State::Set if generated_attr => self.generated = Attribute::Generated,
            State::Value(v) if generated_attr && v == "true" => {
                self.generated = Attribute::Generated;
            }
            State::Unset if generated_attr && self.generated == Attribute::Unspecified => {
                self.generated = Attribute::NotGenerated;
            }
            State::Value(v)
                if generated_attr && v == "false" && self.generated == Attribute::Unspecified =>
            {
                self.generated = Attribute::NotGenerated;
            }
            State::Set if name == "binary" => self.binary = true,
            State::Unset if name == "diff" => self.binary = true,
            _ => {}
        }
    }
}

/// Keeps the hunks of a lockfile the base had when its dependency report finds no package
/// added, removed or updated: whatever changed (a `resolved` URL, a checksum) is not told by
/// the report, so the lines are shown.
fn unexplained_lockfiles(files: &mut [FileChange], dependencies: &deps::Report) {
    for f in files.iter_mut() {
        if f.generated != Some(generated::Reason::Lockfile) || f.generated_by_change {
            continue;
        }
        let path = f.path.to_str_lossy();
        let explained = dependencies
            .lockfiles
            .iter()
            .find(|l| l.file == path)
            .is_some_and(|l| l.updated + l.added + l.removed > 0);
        if !explained && f.status == Status::Modified {
            f.generated_by_change = true;
        }
    }
}

/// Keeps the hunks of each file its base already called generated (not a lockfile: the
/// dependency report tells those) whose change is an edit rather than a regeneration: at most
/// [`generated::SMALL_EDIT`] lines, or without a change to what generates it among the other
/// files of the change (ADR 14, issue 29). A large regeneration with its source stays facts
/// only. A change limited by pathspecs lists only what they match: its generated files are
/// judged on what is listed, so a source left out shows them.
fn edits_shown(files: &mut [FileChange]) {
    let judged: Vec<usize> = files
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            f.status == Status::Modified
                && f.generated_hidden()
                && f.generated != Some(generated::Reason::Lockfile)
        })
        .map(|(i, _)| i)
        .collect();
    // How many files of the change can regenerate each kind (counted once per kind: a change
    // can regenerate thousands of files).
    let mut sources: std::collections::HashMap<generated::Reason, usize> = Default::default();
    for &i in &judged {
        let Some(reason) = files[i].generated else {
            continue;
        };
        sources.entry(reason).or_insert_with(|| {
            files
                .iter()
                .filter(|other| generated::regenerated_by(reason, &other.path, other.generated))
                .count()
        });
    }
    for i in judged {
        let f = &files[i];
        let (Some(reason), Some((added, removed))) = (f.generated, f.lines) else {
            continue;
        };
        let shown = if added + removed <= generated::SMALL_EDIT {
            Some(generated::Shown::SmallEdit)
        } else {
            // Not counting the file itself (a vendored `package.json`).
            let own = usize::from(generated::regenerated_by(reason, &f.path, f.generated));
            let regenerated = sources.get(&reason).copied().unwrap_or(0) > own;
            (!regenerated).then_some(generated::Shown::WithoutSource)
        };
        files[i].generated_shown = shown;
    }
}

/// Judges the files the head side calls generated against the change's `base` (`None`: the
/// change starts from nothing): a file counts as generated only if its base said so too (its
/// attributes, its content's first lines, its name there). A file the change itself made
/// generated — a marker or an attribute it added, a name it chose (an added, copied or renamed
/// file) — is flagged `generated_by_change` and keeps its hunks and functions: a change's
/// author must not be able to hide its code from the reviewer (a lockfile the change adds
/// included: `#[path = "Cargo.lock"] mod x;` compiles one).
fn judge_against_base(objects: &Objects, files: &mut [FileChange], base: Option<Where<'_>>) {
    let judged: Vec<usize> = files
        .iter()
        .enumerate()
        .filter(|(_, f)| f.generated.is_some())
        .map(|(i, _)| i)
        .collect();
    if judged.is_empty() {
        return;
    }
    let in_base = |f: &FileChange| {
        base.is_some()
            && f.oid_before.is_some()
            && matches!(
                f.status,
                Status::Modified | Status::Deleted | Status::TypeChanged | Status::Unmerged
            )
    };
    let existing: Vec<usize> = judged
        .iter()
        .copied()
        .filter(|&i| in_base(&files[i]))
        .collect();
    let mut attrs = vec![Attrs::default(); existing.len()];
    if let Some(place) = base.filter(|_| !existing.is_empty()) {
        let paths: Vec<&bstr::BStr> = existing.iter().map(|&i| files[i].path.as_bstr()).collect();
        let names = ["linguist-generated", "linguist-vendored", "binary", "diff"];
        objects.attributes_in(place, &names, &paths, |j, name, state| {
            attrs[j].apply(name, state)
        });
    }
    for i in judged {
        let before = existing.iter().position(|&e| e == i).and_then(|j| {
            let f = &files[i];
            let oid = f.oid_before.as_ref()?;
            let head = match objects.size(oid) {
                Ok(size) if size <= HEAD_READ_LIMIT => objects.blob(oid).ok().map(|mut b| {
                    b.truncate(generated::MARKER_WINDOW);
                    b
                }),
                _ => None,
            };
            generated::classify(&f.path, attrs[j].generated, head.as_deref())
        });
        if before.is_none() {
            files[i].generated_by_change = true;
        }
    }
}

/// Adds sizes, language and the generated flag to one of git's entries.
fn enrich(
    objects: &Objects,
    entry: facts::Entry,
    attr: Attrs,
    head: Head,
    base: Option<&Path>,
    prefetched: &Prefetched,
) -> FileChange {
    let binary = entry.lines.is_none() && entry.status != Status::Unmerged;
    let kind_after = Kind::of_mode(entry.mode_after);
    let kind_before = Kind::of_mode(entry.mode_before);
    let size = |oid: &Option<Oid>, kind: Option<Kind>, side_is_worktree: bool| -> Option<u64> {
        match kind? {
            Kind::Submodule => None,
            _ => match oid {
                Some(oid) => objects.size(oid).ok(),
                None if side_is_worktree => base
                    .and_then(|b| worktree::open(b, &entry.path).ok().flatten())
                    .and_then(|e| e.size()),
                None => None,
            },
        }
    };
    let after_is_worktree = head == Head::Worktree && entry.oid_after.is_none();
    let size_before = size(&entry.oid_before, kind_before, false);
    let size_after = size(&entry.oid_after, kind_after, after_is_worktree);
    let path_language = language::from_path(&entry.path);
    let path_generated = match attr.generated {
        Attribute::Unspecified => generated::by_path(&entry.path),
        _ => None,
    };
    let is_file = entry_kind(&entry) == Kind::File;
    let decided = attr.generated != Attribute::Unspecified || path_generated.is_some();
    let need_head = is_file && !binary && (path_language.is_none() || !decided);
    let head = if need_head {
        let (oid, kind_ok, size) = if kind_after.is_some() {
            (&entry.oid_after, kind_after == Some(Kind::File), size_after)
        } else {
            (
                &entry.oid_before,
                kind_before == Some(Kind::File),
                size_before,
            )
        };
        match (oid, kind_ok, size) {
            (_, false, _) => None,
            (_, _, Some(s)) if s > HEAD_READ_LIMIT => None,
            (Some(oid), _, _) => match prefetched.head(oid) {
                Some(head) => Some(head.to_vec()),
                None => objects.blob(oid).ok(),
            },
            (None, _, _) if after_is_worktree => {
                match base.and_then(|b| worktree::open(b, &entry.path).ok().flatten()) {
                    Some(worktree::Entry::File { mut file, .. }) => read_head(&mut file),
                    _ => None,
                }
            }
            _ => None,
        }
    } else {
        None
    };
    let language = path_language.or_else(|| {
        head.as_deref()
            .filter(|_| is_file)
            .and_then(language::from_shebang)
    });
    let generated = generated::classify(&entry.path, attr.generated, head.as_deref());
    FileChange {
        path: entry.path,
        old_path: entry.old_path,
        status: entry.status,
        similarity: entry.score,
        mode_before: entry.mode_before,
        mode_after: entry.mode_after,
        oid_before: entry.oid_before,
        oid_after: entry.oid_after,
        lines: entry.lines,
        binary,
        size_before,
        size_after,
        language,
        generated,
        generated_by_change: false,
        generated_shown: None,
        untracked: false,
        functions: Functions::Off,
        outline: super::model::Outline::default(),
    }
}

fn entry_kind(entry: &facts::Entry) -> Kind {
    Kind::of_mode(entry.mode_after)
        .or_else(|| Kind::of_mode(entry.mode_before))
        .unwrap_or(Kind::File)
}

/// Reads the first bytes of a working-tree file.
fn read_head(file: &mut std::fs::File) -> Option<Vec<u8>> {
    let mut buf = vec![0u8; generated::MARKER_WINDOW.max(BINARY_SNIFF)];
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(_) => return None,
        }
    }
    buf.truncate(filled);
    Some(buf)
}

/// Builds the entry of an untracked file: counted as `git add -N` would make git count it.
fn untracked_file(base: &Path, path: BString, attr: Attrs) -> Option<FileChange> {
    let (mode, lines, binary, head, size) = match worktree::open(base, &path).ok()?? {
        worktree::Entry::Symlink(target) => {
            let count = line_count_bytes(&target);
            (
                Mode::SYMLINK,
                Some((count, 0)),
                false,
                None,
                target.len() as u64,
            )
        }
        worktree::Entry::File {
            mut file,
            size,
            executable,
        } => {
            let head = read_head(&mut file).unwrap_or_default();
            let binary = attr.binary || head[..head.len().min(BINARY_SNIFF)].contains(&0);
            let lines = if binary {
                None
            } else {
                count_lines(&head, file, size).map(|n| (n, 0))
            };
            (
                if executable {
                    Mode::EXECUTABLE
                } else {
                    Mode::FILE
                },
                lines,
                binary,
                Some(head),
                size,
            )
        }
        worktree::Entry::Directory | worktree::Entry::Special => return None,
    };
    let language =
        language::from_path(&path).or_else(|| head.as_deref().and_then(language::from_shebang));
    let generated = generated::classify(&path, attr.generated, head.as_deref());
    Some(FileChange {
        old_path: None,
        status: Status::Added,
        similarity: None,
        mode_before: Mode::ABSENT,
        mode_after: mode,
        oid_before: None,
        oid_after: None,
        lines,
        binary,
        size_before: None,
        size_after: Some(size),
        language,
        generated,
        generated_by_change: false,
        generated_shown: None,
        untracked: true,
        functions: Functions::Off,
        outline: super::model::Outline::default(),
        path,
    })
}

/// Counts lines the way git's numstat does: newlines, plus one for a last line without one.
pub fn line_count_bytes(content: &[u8]) -> u64 {
    let newlines = memchr_count(content);
    let trailing = u64::from(!content.is_empty() && !content.ends_with(b"\n"));
    newlines + trailing
}

fn memchr_count(content: &[u8]) -> u64 {
    content.iter().filter(|b| **b == b'\n').count() as u64
}

/// Counts the lines of a file without holding it in memory: `head` was read from `file`
/// already, the rest is read up to the size the file had when it was opened (a file that
/// keeps growing cannot keep this reading).
fn count_lines(head: &[u8], file: std::fs::File, size: u64) -> Option<u64> {
    let mut file = file.take(size.saturating_sub(head.len() as u64));
    let mut buf = vec![0u8; 64 * 1024];
    let (mut newlines, mut last) = (memchr_count(head), head.last().copied());
    loop {
        let n = file.read(&mut buf).ok()?;
        if n == 0 {
            break;
        }
        newlines += memchr_count(&buf[..n]);
        last = Some(buf[n - 1]);
    }
    Some(newlines + u64::from(last.is_some_and(|b| b != b'\n')))
}

/// A dependency file among the changes: where its two versions are.
pub(crate) struct DepSource {
    path: BString,
    old_path: Option<BString>,
    format: Option<deps::Format>,
    oid_before: Option<Oid>,
    oid_after: Option<Oid>,
    before: bool,
    after: bool,
    regular: bool,
}

impl DepSource {
    /// From one of git's entries.
    fn from_entry(e: &facts::Entry) -> DepSource {
        DepSource {
            path: e.path.clone(),
            old_path: e.old_path.clone(),
            format: deps::Format::of(&e.path),
            oid_before: e.oid_before.clone(),
            oid_after: e.oid_after.clone(),
            before: e.mode_before.exists(),
            after: e.mode_after.exists(),
            regular: entry_kind(e) == Kind::File,
        }
    }

    /// From an untracked file.
    fn untracked(path: &BString) -> DepSource {
        DepSource {
            path: path.clone(),
            old_path: None,
            format: deps::Format::of(path),
            oid_before: None,
            oid_after: None,
            before: false,
            after: true,
            regular: true,
        }
    }

    /// From a file change.
    pub(crate) fn from_change(f: &FileChange) -> DepSource {
        DepSource {
            path: f.path.clone(),
            old_path: f.old_path.clone(),
            format: deps::Format::of(&f.path),
            oid_before: f.oid_before.clone(),
            oid_after: f.oid_after.clone(),
            before: f.mode_before.exists(),
            after: f.mode_after.exists(),
            regular: f.kind() == Kind::File,
        }
    }
}

/// Parses the dependency files among the changes, before and after.
pub(crate) fn dependency_report(
    repo: &Repo,
    sources: &[DepSource],
    base: Option<&Path>,
    prefetched: &Prefetched,
) -> deps::Report {
    const LIMIT: u64 = 16 * 1024 * 1024;
    let read = |objects: &Objects, oid: Option<&Oid>, path: &BString| -> Option<Vec<u8>> {
        match oid {
            Some(oid) if objects.size(oid).ok()? <= LIMIT => objects.blob(oid).ok(),
            Some(_) => None,
            None => match worktree::read(base?, path, LIMIT) {
                Ok(Some(worktree::Content::File(bytes))) => Some(bytes),
                _ => None,
            },
        }
    };
    // Lockfiles are big and often deep in delta chains: read them in parallel.
    let changed: Vec<deps::ChangedFile> = sources
        .par_iter()
        .filter(|s| s.regular)
        .filter_map(|s| s.format.map(|format| (s, format)))
        .map_init(
            || repo.objects(),
            |objects, (s, format)| {
                let side = |oid: Option<&Oid>, path: &BString| -> deps::Parsed {
                    if let Some(parsed) = oid.and_then(|o| prefetched.declarations(o, format)) {
                        return Some(parsed.clone());
                    }
                    read(objects, oid, path).map(|content| deps::parse(format, &content))
                };
                let before = s
                    .oid_before
                    .as_ref()
                    .filter(|_| s.before)
                    .and_then(|oid| side(Some(oid), s.old_path.as_ref().unwrap_or(&s.path)));
                let after = if s.after {
                    side(s.oid_after.as_ref(), &s.path)
                } else {
                    None
                };
                deps::ChangedFile {
                    path: s.path.to_str_lossy().into_owned(),
                    format,
                    before,
                    after,
                }
            },
        )
        .collect();
    deps::report(&changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_counted_like_numstat() {
        assert_eq!(line_count_bytes(b""), 0);
        assert_eq!(line_count_bytes(b"a"), 1);
        assert_eq!(line_count_bytes(b"a\n"), 1);
        assert_eq!(line_count_bytes(b"a\nb"), 2);
        assert_eq!(line_count_bytes(b"a\r\nb\r\n"), 2);
    }
}
