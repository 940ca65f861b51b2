//! Turning a manifest into bytes: pages, cursors ([`crate::paging`]), and the output budget
//! ([`crate::budget`]).
//!
//! Invariants:
//! - The summary always covers the whole range; pages only split `files`.
//! - A cursor is bound to a fingerprint of the resolved range (commits and every file's
//!   facts): a cursor from before the branch moved or the working tree changed is refused.
//! - Fitting a budget cuts detail in a stated order (lockfile notables, then files moved to the
//!   next page) and says what it cut; a file is never dropped, only moved to a later page.
//! - A manifest that fits on one page lists files in git's order. One split into pages lists
//!   them [`FUNCTIONS_FIRST`]: files whose functions changed, then the other files, then generated
//!   and binary ones (git's order within each group), so the first page an agent reads carries
//!   the code changes rather than a release's documentation. The cursor says which order it
//!   belongs to (`gp1-<fingerprint>-f<offset>`).

use bstr::ByteSlice;

use super::model::{FileChange, Functions, Kind, Manifest};
use super::schema::{self, ManifestDoc};
use crate::budget::{self, Cut, Stage};
use crate::git::facts::Status;
use crate::git::revs::Head;
use crate::lang::{ChangeType, FunctionChange, Language};
use crate::paging::{Cursor, CursorError, Fingerprint, PageError, Paging};

/// The name of the page order that puts files with changed functions first.
pub const FUNCTIONS_FIRST: &str = "functions_first";

/// Returns the files' indices in the [`FUNCTIONS_FIRST`] order.
fn functions_first(files: &[FileChange]) -> Vec<usize> {
    let rank = |f: &FileChange| match &f.functions {
        Functions::Analysed(a) if !a.changed.is_empty() => 0,
        _ if f.generated_hidden() || f.binary => 2,
        _ => 1,
    };
    let mut order: Vec<usize> = (0..files.len()).collect();
    // A stable sort keeps git's order within each group.
    order.sort_by_key(|&i| rank(&files[i]));
    order
}

/// Splits a manifest cursor's offset from its order: `f12` is offset 12 in the
/// [`FUNCTIONS_FIRST`] order, `12` offset 12 in git's.
fn manifest_cursor(cursor: &str, fingerprint: u64) -> Result<(usize, bool), CursorError> {
    let position = Cursor::LIST.decode_position(cursor, fingerprint)?;
    let (digits, reordered) = match position.strip_prefix('f') {
        Some(rest) => (rest, true),
        None => (position, false),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CursorError::Invalid(cursor.chars().take(80).collect()));
    }
    digits
        .parse()
        .map(|o| (o, reordered))
        .map_err(|_| CursorError::Invalid(cursor.chars().take(80).collect()))
}

/// The cursor of the page of a manifest starting at `offset`, in the given order.
fn encode_manifest_cursor(fingerprint: u64, offset: usize, reordered: bool) -> String {
    let prefix = if reordered { "f" } else { "" };
    Cursor::LIST.encode_position(fingerprint, &format!("{prefix}{offset}"))
}

/// Returns a fingerprint of the manifest's resolved range: stable across runs and versions
/// (FNV-1a, not the standard library's unspecified hasher).
pub fn fingerprint(m: &Manifest) -> u64 {
    let mut h = Fingerprint::new();
    h.eat(m.target.base_sha.as_deref().unwrap_or("").as_bytes())
        .eat(m.target.head_sha.as_deref().unwrap_or("").as_bytes())
        .eat(head_label(m.target.head).as_bytes());
    for p in &m.pathspecs {
        h.eat(p.as_bytes());
    }
    for f in &m.files {
        let (a, r) = f.lines.unwrap_or((u64::MAX, u64::MAX));
        h.eat(&f.path)
            .eat(&[f.status.letter() as u8])
            .eat(f.oid_before.as_deref().unwrap_or("").as_bytes())
            .eat(f.oid_after.as_deref().unwrap_or("").as_bytes())
            .eat(&a.to_le_bytes())
            .eat(&r.to_le_bytes())
            .eat(&f.size_after.unwrap_or(u64::MAX).to_le_bytes());
    }
    h.value()
}

fn head_label(head: Head) -> &'static str {
    match head {
        Head::Object => "commit",
        Head::Index => "index",
        Head::Worktree => "worktree",
    }
}

/// Renders the manifest as JSON within the paging and budget constraints.
///
/// `next_page` turns a cursor into the command that fetches the next page.
pub fn render(
    m: &Manifest,
    paging: &Paging,
    generated_at: &str,
    next_page: &dyn Fn(&str) -> String,
) -> Result<String, PageError> {
    let doc = document(m, paging, generated_at, next_page)?;
    Ok(paging.to_json(&doc)?)
}

/// Builds the document of one page within the paging and budget constraints (for answers that
/// embed it). Cut stages: lockfile notable changes (first page only), then files move to the
/// next page.
pub fn document(
    m: &Manifest,
    paging: &Paging,
    generated_at: &str,
    next_page: &dyn Fn(&str) -> String,
) -> Result<ManifestDoc, PageError> {
    let fp = fingerprint(m);
    let total = m.files.len();
    let (offset, reordered) = match &paging.cursor {
        Some(c) => manifest_cursor(c, fp)?,
        None => (0, false),
    };
    let end = paging.end(offset, total)?;
    let whole = (offset..end).len();
    let fits_whole = |order: Option<Vec<usize>>| -> Result<Option<ManifestDoc>, PageError> {
        let view = View {
            offset,
            end,
            order,
            lockfile_notable: true,
            cuts: Vec::new(),
        };
        let doc = to_doc(m, &view, fp, generated_at, next_page);
        let fits = paging
            .budget
            .is_none_or(|b| b.fits(paging.to_json(&doc).map_or(usize::MAX, |s| s.len())));
        Ok(fits.then_some(doc))
    };
    // Pages follow the functions-first order: a page size that splits the files asks for it.
    let paged = reordered || (end < total && offset == 0);
    if let Some(doc) = fits_whole(paged.then(|| functions_first(&m.files)))? {
        return Ok(doc);
    }
    // Everything does not fit on one page: pages follow the functions-first order.
    let order = (paged || offset == 0).then(|| functions_first(&m.files));
    let notable = offset == 0
        && m.dependencies
            .lockfiles
            .iter()
            .any(|l| !l.notable.is_empty());
    let stages = [
        Stage::detail(if notable {
            vec![Cut::Detail("lockfile notable changes (counts kept)".into())]
        } else {
            Vec::new()
        }),
        Stage::moving("files", "one file", 1.min(whole), whole),
    ];
    let fitted = budget::fit(paging.budget, &stages, |s| {
        let view = View {
            offset,
            end: offset + s.get(1),
            order: order.clone(),
            lockfile_notable: s.get(0) == 0,
            cuts: s.notes(),
        };
        let doc = to_doc(m, &view, fp, generated_at, next_page);
        let len = paging.to_json(&doc)?.len();
        Ok::<_, PageError>((doc, len))
    })?;
    Ok(fitted.doc)
}

/// What one rendering shows.
struct View {
    offset: usize,
    end: usize,
    /// The order pages list files in (`None`: git's).
    order: Option<Vec<usize>>,
    lockfile_notable: bool,
    cuts: Vec<String>,
}

/// The metadata block of a manifest (shared by every document about a range).
pub fn metadata(m: &Manifest, generated_at: &str) -> schema::Metadata {
    schema::Metadata {
        schema_version: schema::SCHEMA_VERSION,
        tool: "git-prism",
        version: env!("CARGO_PKG_VERSION"),
        repo_path: m.repo_path.display().to_string(),
        base_ref: m.target.base_ref.clone(),
        head_ref: m.target.head_ref.clone(),
        base_sha: m.target.base_sha.clone(),
        head_sha: m.target.head_sha.clone(),
        head: head_label(m.target.head),
        pathspecs: clipped(&m.pathspecs),
        generated_at: generated_at.to_owned(),
    }
}

/// The most characters of pathspecs a document repeats: they are the caller's own input.
const PATHSPECS_SHOWN: usize = 1000;

/// Returns the pathspecs to repeat, within [`PATHSPECS_SHOWN`] characters (each at most 200),
/// ending with `"… (N more)"` when some are left out.
fn clipped(pathspecs: &[String]) -> Vec<String> {
    let mut shown = Vec::new();
    let mut used = 0;
    for (i, p) in pathspecs.iter().enumerate() {
        let mut text: String = p.chars().take(200).collect();
        if text.len() < p.len() {
            text.push('…');
        }
        used += text.chars().count();
        if used > PATHSPECS_SHOWN {
            shown.push(format!("… ({} more)", pathspecs.len() - i));
            break;
        }
        shown.push(text);
    }
    shown
}

fn to_doc(
    m: &Manifest,
    view: &View,
    fp: u64,
    generated_at: &str,
    next_page: &dyn Fn(&str) -> String,
) -> ManifestDoc {
    let total = m.files.len();
    let next_cursor =
        (view.end < total).then(|| encode_manifest_cursor(fp, view.end, view.order.is_some()));
    let first_page = view.offset == 0;
    let deps = &m.dependencies;
    ManifestDoc {
        metadata: metadata(m, generated_at),
        summary: summary_of(m),
        files: (view.offset..view.end)
            .map(|k| view.order.as_ref().map_or(k, |order| order[k]))
            .map(|i| file_doc(&m.files[i]))
            .collect(),
        dependency_changes: if first_page {
            deps.changes.iter().map(dependency_doc).collect()
        } else {
            Vec::new()
        },
        lockfile_changes: if first_page {
            deps.lockfiles
                .iter()
                .map(|l| schema::LockfileChange {
                    file: l.file.clone(),
                    updated: l.updated,
                    added: l.added,
                    removed: l.removed,
                    direct: l.direct,
                    notable: if view.lockfile_notable {
                        l.notable
                            .iter()
                            .map(|c| schema::LockedChange {
                                name: c.name.clone(),
                                old_version: c.old_version.clone(),
                                new_version: c.new_version.clone(),
                                bump: c.bump.map(|b| b.label()),
                            })
                            .collect()
                    } else {
                        Vec::new()
                    },
                    omitted: if view.lockfile_notable {
                        l.omitted
                    } else {
                        l.omitted + l.notable.len()
                    },
                })
                .collect()
        } else {
            Vec::new()
        },
        dependency_errors: if first_page {
            deps.errors
                .iter()
                .map(|(file, error)| schema::DependencyError {
                    file: file.clone(),
                    error: error.clone(),
                })
                .collect()
        } else {
            Vec::new()
        },
        pagination: (view.offset > 0 || view.end < total).then(|| schema::Pagination {
            offset: view.offset,
            returned: view.end - view.offset,
            total_files: total,
            order: view.order.as_ref().map(|_| FUNCTIONS_FIRST),
            next_cursor: next_cursor.clone(),
        }),
        truncated: (!view.cuts.is_empty()).then(|| schema::Truncation {
            cut: view.cuts.clone(),
            files_not_shown: total - (view.end - view.offset),
            next_page: next_cursor.as_deref().map(next_page),
        }),
    }
}

/// Converts one dependency change to its wire form.
pub fn dependency_doc(c: &crate::deps::Change) -> schema::DependencyChange {
    schema::DependencyChange {
        file: c.file.clone(),
        name: c.name.clone(),
        kind: c.kind,
        scope: c.scope.clone(),
        old_version: c.old_version.clone(),
        new_version: c.new_version.clone(),
        bump: c.bump.map(|b| b.label()),
        locked_old: c.locked.as_ref().and_then(|l| l.0.clone()),
        locked_new: c.locked.as_ref().and_then(|l| l.1.clone()),
    }
}

/// Computes the totals over every file of a manifest.
pub fn summary_of(m: &Manifest) -> schema::Summary {
    let mut s = summary(&m.files);
    if m.functions && s.functions.is_none() {
        s.functions = Some(schema::FunctionSummary::default());
    }
    s
}

/// Computes the totals over every file.
pub fn summary(files: &[FileChange]) -> schema::Summary {
    let mut s = schema::Summary {
        files_changed: files.len(),
        ..schema::Summary::default()
    };
    let mut languages = std::collections::BTreeSet::new();
    for f in files {
        match f.status {
            Status::Added => s.added += 1,
            Status::Modified => s.modified += 1,
            Status::Deleted => s.deleted += 1,
            Status::Renamed => s.renamed += 1,
            Status::Copied => s.copied += 1,
            Status::TypeChanged => s.type_changed += 1,
            Status::Unmerged => s.unmerged += 1,
            Status::Unknown => {}
        }
        if f.untracked {
            s.untracked += 1;
        }
        if let Some((a, r)) = f.lines {
            s.lines_added = s.lines_added.saturating_add(a);
            s.lines_removed = s.lines_removed.saturating_add(r);
        }
        if let Some(l) = f.language {
            languages.insert(l);
        }
        if f.generated.is_some() {
            s.generated_files += 1;
        }
        if f.binary {
            s.binary_files += 1;
        }
        if f.kind() == Kind::Submodule {
            s.submodules += 1;
        }
    }
    s.languages_affected = languages.into_iter().map(Language::label).collect();
    if files.iter().any(|f| f.functions != Functions::Off) {
        let mut fs = schema::FunctionSummary::default();
        for f in files {
            if let Functions::Analysed(a) = &f.functions {
                if a.skipped.is_none() {
                    fs.files_analyzed += 1;
                }
                fs.formatting_only += a.formatting_only.len();
                for c in &a.changed {
                    match c.change_type {
                        ChangeType::Added => fs.added += 1,
                        ChangeType::Deleted => fs.deleted += 1,
                        ChangeType::Modified => fs.modified += 1,
                        ChangeType::SignatureChanged => fs.signature_changed += 1,
                        ChangeType::Renamed => fs.renamed += 1,
                        ChangeType::Moved => fs.moved += 1,
                    }
                }
            }
        }
        s.functions = Some(fs);
    }
    s
}

/// Returns the wire change type of a git status.
pub fn change_type(status: Status) -> schema::ChangeType {
    match status {
        Status::Added => schema::ChangeType::Added,
        Status::Modified => schema::ChangeType::Modified,
        Status::Deleted => schema::ChangeType::Deleted,
        Status::Renamed => schema::ChangeType::Renamed,
        Status::Copied => schema::ChangeType::Copied,
        Status::TypeChanged => schema::ChangeType::TypeChanged,
        Status::Unmerged => schema::ChangeType::Unmerged,
        Status::Unknown => schema::ChangeType::Unknown,
    }
}

/// Returns `(lossy, quoted)`: the path as a string, and git's C-quoted form when the string is
/// lossy.
pub fn path_strings(path: &[u8]) -> (String, Option<String>) {
    match std::str::from_utf8(path) {
        Ok(s) => (s.to_owned(), None),
        Err(_) => (path.to_str_lossy().into_owned(), Some(c_quote(path))),
    }
}

pub use crate::paths::c_quote;

/// Converts one file change to its wire form.
pub fn file_doc(f: &FileChange) -> schema::File {
    let (path, path_quoted) = path_strings(&f.path);
    let (old_path, old_path_quoted) = match &f.old_path {
        Some(p) => {
            let (s, q) = path_strings(p);
            (Some(s), q)
        }
        None => (None, None),
    };
    let mode_changed =
        f.mode_before.exists() && f.mode_after.exists() && f.mode_before != f.mode_after;
    let kind = f.kind();
    schema::File {
        path,
        path_quoted,
        old_path,
        old_path_quoted,
        change_type: change_type(f.status),
        similarity: f
            .similarity
            .filter(|_| matches!(f.status, Status::Renamed | Status::Copied)),
        dissimilarity: f
            .similarity
            .filter(|_| !matches!(f.status, Status::Renamed | Status::Copied)),
        lines_added: f.lines.map(|l| l.0),
        lines_removed: f.lines.map(|l| l.1),
        is_binary: f.binary,
        is_generated: f.generated.is_some(),
        generated_reason: f.generated.map(|g| g.label()),
        generated_by_change: f.generated_by_change,
        generated_shown: f.generated_shown.map(|s| s.label()),
        language: f.language.map(Language::label),
        size_before: f.size_before,
        size_after: f.size_after,
        mode_before: mode_changed.then(|| f.mode_before.to_string()),
        mode_after: mode_changed.then(|| f.mode_after.to_string()),
        kind: match kind {
            Kind::File => None,
            Kind::Symlink => Some("symlink"),
            Kind::Submodule => Some("submodule"),
        },
        submodule: (kind == Kind::Submodule).then(|| schema::Submodule {
            old_commit: f
                .mode_before
                .is_gitlink()
                .then(|| f.oid_before.clone())
                .flatten(),
            new_commit: f
                .mode_after
                .is_gitlink()
                .then(|| f.oid_after.clone())
                .flatten(),
        }),
        untracked: f.untracked,
        functions_changed: match &f.functions {
            Functions::Off => None,
            Functions::Unsupported => Some(None),
            Functions::Analysed(a) if a.skipped.is_some() => Some(None),
            Functions::Analysed(a) => Some(Some(function_docs(&a.changed))),
        },
        imports_changed: match &f.functions {
            Functions::Off => None,
            Functions::Unsupported => Some(None),
            Functions::Analysed(a) if a.skipped.is_some() => Some(None),
            Functions::Analysed(a) => Some(Some(schema::ImportsChanged {
                added: a.imports_added.clone(),
                removed: a.imports_removed.clone(),
            })),
        },
        formatting_only: match &f.functions {
            Functions::Analysed(a) => a.formatting_only.clone(),
            _ => Vec::new(),
        },
        opaque_changed: match &f.functions {
            Functions::Analysed(a) => a.opaque.clone(),
            _ => Vec::new(),
        },
        parse_errors: matches!(&f.functions, Functions::Analysed(a) if a.parse_errors),
        analysis_skipped: match &f.functions {
            Functions::Analysed(a) => a.skipped.clone(),
            _ => None,
        },
    }
}

fn function_docs(changes: &[FunctionChange]) -> Vec<schema::FunctionChangeDoc> {
    changes
        .iter()
        .map(|c| schema::FunctionChangeDoc {
            name: c.name.clone(),
            old_name: c.old_name.clone(),
            kind: c.kind.label(),
            change_type: c.change_type.label(),
            start_line: Some(c.start_line),
            end_line: Some(c.end_line),
            signature: Some(c.signature.clone()),
            old_path: c.old_path.clone(),
            edited: c.edited,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_cursors_carry_their_order() {
        let fp = 0x12f0;
        assert_eq!(
            manifest_cursor(&Cursor::LIST.encode(fp, 7), fp),
            Ok((7, false))
        );
        assert_eq!(
            manifest_cursor(&encode_manifest_cursor(fp, 7, true), fp),
            Ok((7, true))
        );
        let reordered = format!("gp1-{fp:016x}-f7");
        assert_eq!(manifest_cursor(&reordered, fp), Ok((7, true)));
        assert_eq!(
            manifest_cursor(&reordered, fp + 1),
            Err(CursorError::Stale(reordered.clone()))
        );
        for bad in ["gp1-00000000000012f0-f", "gp1-00000000000012f0-fx", "f7"] {
            assert_eq!(
                manifest_cursor(bad, fp),
                Err(CursorError::Invalid(bad.into())),
                "{bad}"
            );
        }
    }

    #[test]
    fn functions_first_keeps_git_order_within_groups() {
        use crate::lang::{FileFunctions, FunctionKind};
        let file = |path: &str, functions: Functions, binary: bool| FileChange {
            path: path.into(),
            old_path: None,
            status: Status::Modified,
            similarity: None,
            mode_before: crate::git::Mode::FILE,
            mode_after: crate::git::Mode::FILE,
            oid_before: None,
            oid_after: None,
            lines: (!binary).then_some((1, 1)),
            binary,
            size_before: None,
            size_after: None,
            language: None,
            generated: None,
            generated_by_change: false,
            generated_shown: None,
            untracked: false,
            functions,
            outline: Default::default(),
        };
        let changed = FileFunctions {
            changed: vec![FunctionChange {
                name: "f".into(),
                old_name: None,
                kind: FunctionKind::Function,
                change_type: ChangeType::Modified,
                start_line: 1,
                end_line: 1,
                signature: "fn f()".into(),
                old_path: None,
                edited: false,
                visibility: crate::lang::Visibility::Public,
                test: false,
            }],
            ..FileFunctions::default()
        };
        let files = vec![
            file("a.png", Functions::Unsupported, true),
            file("b.md", Functions::Unsupported, false),
            file("c.rs", Functions::Analysed(changed.clone()), false),
            file("d.rs", Functions::Analysed(FileFunctions::default()), false),
            file("e.rs", Functions::Analysed(changed), false),
        ];
        assert_eq!(functions_first(&files), vec![2, 4, 1, 3, 0]);
    }

    /// A random manifest: zero to many files with hostile paths, functions and pathspecs.
    fn random_manifest(rng: &mut crate::fuzz::Rng) -> Manifest {
        use crate::lang::FileFunctions;
        let most = if rng.one_in(10) { 300 } else { 12 };
        let files = (0..rng.below(most))
            .map(|i| {
                let changed = (0..rng.below(6))
                    .map(|_| FunctionChange {
                        name: String::from_utf8_lossy(&rng.short_bytes(300)).into_owned(),
                        old_name: None,
                        kind: crate::lang::FunctionKind::Function,
                        change_type: ChangeType::Modified,
                        start_line: rng.number() as u32,
                        end_line: rng.number() as u32,
                        signature: String::from_utf8_lossy(&rng.short_bytes(300)).into_owned(),
                        old_path: None,
                        edited: false,
                        visibility: crate::lang::Visibility::Public,
                        test: false,
                    })
                    .collect();
                FileChange {
                    path: if rng.one_in(50) {
                        rng.bytes()
                    } else {
                        rng.short_bytes(200)
                    }
                    .into(),
                    old_path: rng.one_in(5).then(|| rng.short_bytes(200).into()),
                    status: *rng.pick(&[Status::Added, Status::Modified, Status::Renamed]),
                    similarity: None,
                    mode_before: crate::git::Mode::FILE,
                    mode_after: crate::git::Mode::FILE,
                    oid_before: None,
                    oid_after: crate::git::Oid::parse(&format!("{i:040x}")).ok(),
                    lines: Some((rng.number(), rng.number())),
                    binary: rng.one_in(10),
                    size_before: None,
                    size_after: Some(rng.number()),
                    language: None,
                    generated: None,
                    generated_by_change: false,
                    generated_shown: None,
                    untracked: false,
                    functions: Functions::Analysed(FileFunctions {
                        changed,
                        ..FileFunctions::default()
                    }),
                    outline: Default::default(),
                }
            })
            .collect();
        Manifest {
            repo_path: std::path::PathBuf::from(rng.string()),
            target: crate::git::revs::Target {
                base_ref: rng.string(),
                base_sha: Some(crate::git::Oid::parse(&"a".repeat(40)).unwrap()),
                head_ref: rng.string(),
                head_sha: Some(crate::git::Oid::parse(&"b".repeat(40)).unwrap()),
                head: Head::Object,
                diff_args: Vec::new(),
            },
            pathspecs: (0..rng.below(3)).map(|_| rng.string()).collect(),
            paths: Vec::new(),
            diff_options: Vec::new(),
            files,
            dependencies: crate::deps::Report::default(),
            functions: true,
            timings: Vec::new(),
        }
    }

    // Property: rendering never panics, always yields one JSON object, stays within its budget
    // unless it says it could not, and pages through every file exactly once.
    #[test]
    fn random_manifests_render_within_their_budget() {
        for seed in 0..150u64 {
            let mut rng = crate::fuzz::Rng::new(seed);
            let m = random_manifest(&mut rng);
            let max = *rng.pick(&[0, 1, 100, 1_000, 3_000, 20_000, 60_000]);
            let page_size = rng.one_in(3).then(|| rng.number() as usize);
            let mut cursor = if rng.one_in(8) {
                Some(rng.string())
            } else {
                None
            };
            let mut seen = 0;
            // Bounded: a tiny budget makes one page per file.
            for _ in 0..=m.files.len().min(40) {
                let paging = Paging {
                    cursor: cursor.clone(),
                    page_size,
                    budget: Some(crate::budget::Budget::bytes(max)),
                    ..Paging::default()
                };
                let out = crate::unwind::catch(|| render(&m, &paging, "now", &|c| c.to_owned()))
                    .unwrap_or_else(|p| panic!("seed {seed}: {p}"));
                let Ok(json) = out else { break };
                let doc: serde_json::Value = serde_json::from_str(&json)
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}: {json}"));
                if !json.contains("still over") {
                    assert!(json.len() <= max, "seed {seed}: {} > {max}", json.len());
                }
                seen += doc["files"].as_array().map_or(0, Vec::len);
                cursor = doc["pagination"]["next_cursor"].as_str().map(str::to_owned);
                if cursor.is_none() {
                    break;
                }
            }
            if !m.files.is_empty() && seen > 0 {
                assert!(seen <= m.files.len(), "seed {seed}: a file was shown twice");
            }
        }
    }

    #[test]
    fn repeated_pathspecs_are_clipped() {
        let many: Vec<String> = (0..2000).map(|i| format!("p{i}")).collect();
        let shown = clipped(&many);
        assert!(shown.iter().map(String::len).sum::<usize>() < 1100);
        assert!(shown.last().unwrap().ends_with("more)"), "{shown:?}");
        let long = vec!["x".repeat(25_000)];
        assert_eq!(clipped(&long)[0].chars().count(), 201);
        assert_eq!(clipped(&["a".into(), "b".into()]), ["a", "b"]);
    }

    #[test]
    fn quoting_matches_git() {
        assert_eq!(c_quote(b"\xff.txt"), "\"\\377.txt\"");
        assert_eq!(c_quote(b"a\"b\\c\td"), "\"a\\\"b\\\\c\\td\"");
        assert_eq!(path_strings(b"plain.rs"), ("plain.rs".into(), None));
        assert_eq!(path_strings(b"\xffx").1.as_deref(), Some("\"\\377x\""));
    }
}
