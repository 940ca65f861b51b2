//! Building a manifest: git's per-file facts, enriched in parallel.
//!
//! 1. The range is resolved against the repository ([`crate::git::revs`]).
//! 2. The real git reports every changed pair with `--raw --numstat -z -M` for exactly the
//!    resolved objects: paths, statuses, renames, modes and line counts are git's.
//! 3. On a working-tree target, untracked files that are not ignored are added (line counts as
//!    `git add -N` would give them).
//! 4. In parallel, each file gets its sizes, language, and generated flag; only the start of
//!    the content is inspected, and only when the path does not already decide.
//! 5. Dependency files are parsed before and after.

use std::ffi::OsString;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use bstr::{BString, ByteSlice};
use rayon::prelude::*;

use super::generated::{self, Attribute};
use super::language;
use super::model::{FileChange, Kind, Manifest};
use crate::deps;
use crate::git::raw::{self, Status};
use crate::git::repo::Objects;
use crate::git::revs::{Head, Target};
use crate::git::{GitError, Repo};
use crate::shim::classify::Diff;

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
}

impl Default for Options {
    fn default() -> Self {
        Options { untracked: true }
    }
}

/// Builds the manifest of a `git diff` command line.
pub fn build(repo: &Repo, diff: &Diff, options: &Options) -> Result<Manifest, ManifestError> {
    let (target, paths) = repo.diff_target(diff)?;
    let relative = diff
        .options
        .iter()
        .any(|o| o.as_bytes().starts_with(b"--relative"));
    let entries = diff_entries(repo, &target, &diff.options, &paths)?;
    let mut untracked = Vec::new();
    if options.untracked && target.head == Head::Worktree && !relative && repo.workdir().is_some() {
        untracked = untracked_paths(repo, &paths)?;
    }
    let base = worktree_base(repo, relative);
    let untracked_refs: Vec<&bstr::BStr> = untracked.iter().map(|p| p.as_bstr()).collect();
    let (mut files, untracked_attrs) =
        enrich_entries(repo, entries, &untracked_refs, target.head, base.as_deref());
    let untracked_files: Vec<FileChange> = untracked
        .into_par_iter()
        .zip(untracked_attrs.into_par_iter())
        .filter_map(|(path, attr)| base.as_deref().and_then(|b| untracked_file(b, path, attr)))
        .collect();
    files.extend(untracked_files);
    let dependencies = dependency_report(repo, &files, base.as_deref());
    Ok(Manifest {
        repo_path: repo.display_path().to_owned(),
        target,
        pathspecs: paths
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect(),
        files,
        dependencies,
    })
}

/// Turns git's entries into file changes (in parallel), and returns the attributes of the
/// `untracked` paths looked up along the way.
fn enrich_entries(
    repo: &Repo,
    entries: Vec<raw::Entry>,
    untracked: &[&bstr::BStr],
    head: Head,
    base: Option<&Path>,
) -> (Vec<FileChange>, Vec<Attrs>) {
    let tracked_paths: Vec<&bstr::BStr> = entries.iter().map(|e| e.path.as_bstr()).collect();
    let (tracked_attrs, untracked_attrs) = attributes(repo, &tracked_paths, untracked);
    let files = entries
        .into_par_iter()
        .zip(tracked_attrs.into_par_iter())
        .map_init(
            || repo.local(),
            |local, (entry, attr)| enrich(&Objects::new(local), entry, attr, head, base),
        )
        .collect();
    (files, untracked_attrs)
}

/// Turns the entries of a commit-to-commit comparison into file changes.
pub fn commit_files(repo: &Repo, entries: Vec<raw::Entry>) -> Vec<FileChange> {
    enrich_entries(repo, entries, &[], Head::Object, None).0
}

/// Runs `git diff --raw --numstat -z -M` for the target and parses it.
fn diff_entries(
    repo: &Repo,
    target: &Target,
    user_options: &[OsString],
    paths: &[OsString],
) -> Result<Vec<raw::Entry>, GitError> {
    let mut args: Vec<OsString> = [
        "diff",
        "--raw",
        "--numstat",
        "-z",
        "--no-abbrev",
        "--no-ext-diff",
        "--no-textconv",
        "--no-color",
    ]
    .iter()
    .map(OsString::from)
    .collect();
    let chooses_renames = user_options.iter().any(|o| {
        let b = o.as_bytes();
        b.starts_with(b"-M")
            || b.starts_with(b"-C")
            || b.starts_with(b"--find-renames")
            || b.starts_with(b"--find-copies")
            || b == b"--no-renames"
            || b.starts_with(b"-B")
            || b.starts_with(b"--break-rewrites")
    });
    if !chooses_renames {
        args.push("-M".into());
    }
    if !user_options
        .iter()
        .any(|o| o.as_bytes().starts_with(b"--relative"))
    {
        args.push("--no-relative".into());
    }
    args.extend(user_options.iter().cloned());
    args.extend(target.diff_args.iter().cloned());
    args.push("--".into());
    args.extend(paths.iter().cloned());
    let out = repo.git.output(&args)?;
    raw::parse(&out).map_err(|e| GitError::Parse {
        command: "diff".into(),
        detail: e.0,
    })
}

/// Lists untracked files that are not ignored, relative to the top of the working tree.
fn untracked_paths(repo: &Repo, paths: &[OsString]) -> Result<Vec<BString>, GitError> {
    let mut args: Vec<OsString> = [
        "ls-files",
        "--others",
        "--exclude-standard",
        "-z",
        "--full-name",
        "--",
    ]
    .iter()
    .map(OsString::from)
    .collect();
    args.extend(paths.iter().cloned());
    let out = repo.git.output(&args)?;
    Ok(out
        .split(|b| *b == 0)
        // A nested repository is listed as a directory: never a file entry.
        .filter(|p| !p.is_empty() && !p.ends_with(b"/"))
        .map(BString::from)
        .collect())
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
    repo: &Repo,
    tracked: &[&bstr::BStr],
    untracked: &[&bstr::BStr],
) -> (Vec<Attrs>, Vec<Attrs>) {
    let local = repo.local();
    let lookup = || -> Option<(Vec<Attrs>, Vec<Attrs>)> {
        let index = local.index_or_empty().ok()?;
        let source = if local.workdir().is_some() {
            gix::worktree::stack::state::attributes::Source::WorktreeThenIdMapping
        } else {
            gix::worktree::stack::state::attributes::Source::IdMapping
        };
        let mut stack = local.attributes_only(&index, source).ok()?;
        let mut outcome = stack.selected_attribute_matches([
            "linguist-generated",
            "linguist-vendored",
            "binary",
            "diff",
        ]);
        let mut one = |path: &bstr::BStr| -> Attrs {
            let mut attrs = Attrs::default();
            let Ok(platform) = stack.at_entry(path, None) else {
                return attrs;
            };
            platform.matching_attributes(&mut outcome);
            for m in outcome.iter_selected() {
                attrs.apply(m.assignment.name.as_str(), m.assignment.state);
            }
            attrs
        };
        let tracked = tracked.iter().map(|p| one(p)).collect();
        let untracked = untracked.iter().map(|p| one(p)).collect();
        Some((tracked, untracked))
    };
    lookup().unwrap_or_else(|| {
        (
            vec![Attrs::default(); tracked.len()],
            vec![Attrs::default(); untracked.len()],
        )
    })
}

impl Attrs {
    /// Folds one matched attribute into the result.
    fn apply(&mut self, name: &str, state: gix::attrs::StateRef<'_>) {
        use gix::attrs::StateRef;
        let generated_attr = matches!(name, "linguist-generated" | "linguist-vendored");
        match state {
            StateRef::Set if generated_attr => self.generated = Attribute::Generated,
            StateRef::Value(v) if generated_attr && v.as_bstr() == "true" => {
                self.generated = Attribute::Generated;
            }
            StateRef::Unset if generated_attr && self.generated == Attribute::Unspecified => {
                self.generated = Attribute::NotGenerated;
            }
            StateRef::Value(v)
                if generated_attr
                    && v.as_bstr() == "false"
                    && self.generated == Attribute::Unspecified =>
            {
                self.generated = Attribute::NotGenerated;
            }
            StateRef::Set if name == "binary" => self.binary = true,
            StateRef::Unset if name == "diff" => self.binary = true,
            _ => {}
        }
    }
}

/// Adds sizes, language and the generated flag to one of git's entries.
fn enrich(
    objects: &Objects<'_>,
    entry: raw::Entry,
    attr: Attrs,
    head: Head,
    base: Option<&Path>,
) -> FileChange {
    let binary = entry.lines.is_none() && entry.status != Status::Unmerged;
    let kind_after = Kind::of_mode(entry.mode_after);
    let kind_before = Kind::of_mode(entry.mode_before);
    let size = |oid: &Option<String>, kind: Option<Kind>, side_is_worktree: bool| -> Option<u64> {
        match kind? {
            Kind::Submodule => None,
            _ => match oid {
                Some(oid) => objects.size(oid).ok(),
                None if side_is_worktree => base
                    .and_then(|b| {
                        std::fs::symlink_metadata(b.join(entry.path.to_path_lossy())).ok()
                    })
                    .map(|m| m.len()),
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
            (Some(oid), _, _) => objects.blob(oid).ok(),
            (None, _, _) if after_is_worktree => {
                base.and_then(|b| read_head(&b.join(entry.path.to_path_lossy())))
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
        untracked: false,
    }
}

fn entry_kind(entry: &raw::Entry) -> Kind {
    Kind::of_mode(entry.mode_after)
        .or_else(|| Kind::of_mode(entry.mode_before))
        .unwrap_or(Kind::File)
}

/// Reads the first bytes of a working-tree file.
fn read_head(path: &Path) -> Option<Vec<u8>> {
    let mut buf = vec![0u8; generated::MARKER_WINDOW.max(BINARY_SNIFF)];
    let mut file = std::fs::File::open(path).ok()?;
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
    let full = base.join(path.to_path_lossy());
    let meta = std::fs::symlink_metadata(&full).ok()?;
    let (mode, lines, binary, head) = if meta.file_type().is_symlink() {
        let target = std::fs::read_link(&full).ok()?;
        let count = line_count_bytes(target.as_os_str().as_bytes());
        (0o120000, Some((count, 0)), false, None)
    } else if meta.is_file() {
        let exec = meta.permissions().mode() & 0o111 != 0;
        let head = read_head(&full).unwrap_or_default();
        let binary = attr.binary || head[..head.len().min(BINARY_SNIFF)].contains(&0);
        let lines = if binary {
            None
        } else {
            count_lines(&full).map(|n| (n, 0))
        };
        (
            if exec { 0o100755 } else { 0o100644 },
            lines,
            binary,
            Some(head),
        )
    } else {
        return None;
    };
    let language =
        language::from_path(&path).or_else(|| head.as_deref().and_then(language::from_shebang));
    let generated = generated::classify(&path, attr.generated, head.as_deref());
    Some(FileChange {
        old_path: None,
        status: Status::Added,
        similarity: None,
        mode_before: 0,
        mode_after: mode,
        oid_before: None,
        oid_after: None,
        lines,
        binary,
        size_before: None,
        size_after: Some(meta.len()),
        language,
        generated,
        untracked: true,
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

/// Counts the lines of a file without holding it in memory.
fn count_lines(path: &Path) -> Option<u64> {
    let mut file = std::fs::File::open(path).ok()?;
    let mut buf = vec![0u8; 64 * 1024];
    let (mut newlines, mut last) = (0u64, None);
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

/// Parses the dependency files among the changes.
pub(crate) fn dependency_report(
    repo: &Repo,
    files: &[FileChange],
    base: Option<&Path>,
) -> deps::Report {
    let local = repo.local();
    let objects = Objects::new(&local);
    const LIMIT: u64 = 16 * 1024 * 1024;
    let read = |oid: &Option<String>,
                size: Option<u64>,
                path: &BString,
                worktree: bool|
     -> Option<Vec<u8>> {
        if size.is_some_and(|s| s > LIMIT) {
            return None;
        }
        match oid {
            Some(oid) => objects.blob(oid).ok(),
            None if worktree => base.and_then(|b| std::fs::read(b.join(path.to_path_lossy())).ok()),
            None => None,
        }
    };
    type Contents = (String, deps::Format, Option<Vec<u8>>, Option<Vec<u8>>);
    let mut contents: Vec<Contents> = Vec::new();
    for f in files {
        let Some(format) = deps::Format::of(&f.path) else {
            continue;
        };
        if f.kind() != Kind::File {
            continue;
        }
        let old_path = f.old_path.as_ref().unwrap_or(&f.path);
        let before = (f.mode_before != 0)
            .then(|| read(&f.oid_before, f.size_before, old_path, false))
            .flatten();
        let after = (f.mode_after != 0)
            .then(|| read(&f.oid_after, f.size_after, &f.path, f.oid_after.is_none()))
            .flatten();
        contents.push((f.path.to_str_lossy().into_owned(), format, before, after));
    }
    let changed: Vec<deps::ChangedFile<'_>> = contents
        .iter()
        .map(|(path, format, before, after)| deps::ChangedFile {
            path: path.clone(),
            format: *format,
            before: before.as_deref(),
            after: after.as_deref(),
        })
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
