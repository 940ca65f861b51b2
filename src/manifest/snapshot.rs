//! File snapshots: the content of files before and after a range, bounded.
//!
//! Each requested path (relative to the top of the working tree) is looked up in the range's
//! manifest first, so a renamed file's "before" is its old path's content; files the range did
//! not touch are read from both sides as they are. Content is never returned for binary files,
//! submodules or files over the size cap (the reason says which), and can be limited to a line
//! range. When asked, each changed file also gets git's own hunks (three lines of context).
//! Contents and hunks are kept while they fit the answer's room; what does not fit says why.
//!
//! Working-tree sides are read through [`crate::git::worktree`]: a path never leaves the
//! working tree (no absolute path, no `..`, no component that is a symlink), only regular
//! files are read and never more than the cap ([`MAX_FILE_SIZE_LIMIT`] at most), and a
//! symlink's content is its target text, as git stores it (`symlink: true`).

use std::path::Path;

use bstr::{BStr, BString, ByteSlice};
use schemars::JsonSchema;
use serde::Serialize;

use super::build::ManifestError;
use super::model::Manifest;
use crate::git::repo::Objects;
use crate::git::revs::Head;
use crate::git::tree;
use crate::git::{GitError, Mode, Oid, PatchPaths, PatchShape, Repo, worktree};

/// What to read.
#[derive(Clone, Debug)]
pub struct Selection {
    /// Paths relative to the top of the working tree.
    pub paths: Vec<BString>,
    /// 1-based inclusive line range to return.
    pub line_range: Option<(usize, usize)>,
    /// Larger files get no content.
    pub max_file_size: u64,
    /// Return the "before" side.
    pub before: bool,
    /// Return the "after" side.
    pub after: bool,
    /// Return git's diff hunks of each changed file.
    pub diff_hunks: bool,
}

/// Most paths one request may ask for.
pub const MAX_PATHS: usize = 20;

/// The largest `max_file_size` honoured: a larger request is lowered to this.
pub const MAX_FILE_SIZE_LIMIT: u64 = 16 * 1024 * 1024;

/// One side of one file.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Side {
    /// Whether the file exists on this side.
    pub exists: bool,
    /// The path on this side (differs from the requested one for a renamed file's "before").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Size in bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// The content (or the requested lines of it); absent when `reason` says why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// Why there is no content: `binary`, `too large`, `submodule`, `not a regular file`,
    /// or, for a side that does not exist, why the path cannot be read (outside the working
    /// tree, beyond a symbolic link).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Whether this side is a symbolic link; its content is then the link's target, as git
    /// stores it (the link is never followed).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub symlink: bool,
    /// Whether invalid UTF-8 was replaced with U+FFFD.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub lossy: bool,
    /// Lines in the whole file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_lines: Option<usize>,
    /// The first line returned (with a line range; absent when the range starts after the
    /// last line).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_line: Option<usize>,
    /// The last line returned (with a line range; never before `first_line`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_line: Option<usize>,
}

/// One file's snapshot.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct FileSnapshot {
    /// The path as requested.
    pub path: String,
    /// The change type if the range changed the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_type: Option<super::schema::ChangeType>,
    /// Before the range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<Side>,
    /// After the range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<Side>,
    /// git's unified diff hunks (3 lines of context) when asked for; empty for an unchanged
    /// or binary file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff_hunks: Option<Vec<crate::git::patch::Hunk>>,
    /// Why the hunks asked for are not here (too large for what the answer can hold).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff_hunks_reason: Option<String>,
}

/// The snapshots of a range.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SnapshotDoc {
    /// Where the data comes from (as in a manifest).
    pub metadata: super::schema::Metadata,
    /// One entry per requested path, in the order requested.
    pub files: Vec<FileSnapshot>,
}

impl SnapshotDoc {
    /// Wraps snapshots with the metadata of their manifest.
    pub fn new(manifest: &Manifest, files: Vec<FileSnapshot>, generated_at: String) -> SnapshotDoc {
        SnapshotDoc {
            metadata: super::render::metadata(manifest, &generated_at),
            files,
        }
    }
}

/// Where the bytes of one side come from.
enum Source {
    Blob(Oid, Mode),
    Worktree(BString),
    Missing,
}

/// Reads the snapshots of `selection.paths` for the range of `manifest`.
pub fn snapshots(
    repo: &Repo,
    manifest: &Manifest,
    selection: &Selection,
    keep: usize,
) -> Result<Vec<FileSnapshot>, ManifestError> {
    let sides = Sides::of(repo, manifest)?;
    // Contents and hunks are kept while they fit `keep` bytes in all; what does not fit is
    // left out with a reason as soon as it is read, so memory follows the answer's budget,
    // not the number and size of the files asked for.
    let room = Room {
        keep,
        left: std::cell::Cell::new(keep),
    };
    let mut out = Vec::with_capacity(selection.paths.len());
    for path in &selection.paths {
        // A path that cannot name a file inside the repository (absolute, `..`) is answered
        // as such on both sides, whatever the range.
        if let Err(e) = worktree::check_path(path) {
            out.push(outside(path, &e, selection));
            continue;
        }
        let changed = manifest
            .files
            .iter()
            .find(|f| f.path == *path || f.old_path.as_ref() == Some(path));
        let (before, after, change_type) = sides.of_path(manifest, changed, path)?;
        let read = |(side_path, source): (BString, Source)| {
            let side = read_side(
                &sides.objects,
                repo.workdir(),
                side_path.as_bstr(),
                path.as_bstr(),
                source,
                selection,
            );
            room.kept(side)
        };
        let before = selection.before.then(|| read(before));
        let after = selection.after.then(|| read(after));
        let (diff_hunks, diff_hunks_reason) = if selection.diff_hunks {
            diff_hunks(repo, manifest, changed, selection, &room)?
        } else {
            (None, None)
        };
        out.push(FileSnapshot {
            path: path.to_str_lossy().into_owned(),
            change_type,
            before,
            after,
            diff_hunks,
            diff_hunks_reason,
        });
    }
    Ok(out)
}

/// What is left of the answer's room for contents and hunks.
struct Room {
    keep: usize,
    left: std::cell::Cell<usize>,
}

impl Room {
    /// Takes `len` bytes when they fit.
    fn take(&self, len: usize) -> bool {
        let spare = self.left.get();
        let fits = len <= spare;
        if fits {
            self.left.set(spare - len);
        }
        fits
    }

    /// Why a content or hunks are left out.
    fn used_up(&self) -> String {
        format!(
            "not included: the answer's room ({} bytes) is used up; ask for a line_range or fewer paths",
            self.keep
        )
    }

    /// A side, its content kept when it fits.
    fn kept(&self, mut side: Side) -> Side {
        if let Some(content) = &side.content {
            if !self.take(content.len()) {
                side.content = None;
                side.first_line = None;
                side.last_line = None;
                side.reason = Some(self.used_up());
            }
        }
        side
    }
}

/// A path that cannot name a file inside the repository, answered as such on both sides.
fn outside(path: &BString, e: &worktree::WorktreeError, selection: &Selection) -> FileSnapshot {
    let side = || Side {
        reason: Some(crate::text::chain(e)),
        ..Side::missing()
    };
    FileSnapshot {
        path: path.to_str_lossy().into_owned(),
        change_type: None,
        before: selection.before.then(side),
        after: selection.after.then(side),
        diff_hunks: selection.diff_hunks.then(Vec::new),
        diff_hunks_reason: None,
    }
}

/// A path's two sides (each the path it has there, and where its content is) and its change.
type PathSides = (
    (BString, Source),
    (BString, Source),
    Option<super::schema::ChangeType>,
);

/// Where the two sides of a manifest's range are read from.
struct Sides {
    objects: Objects,
    base_tree: Option<Oid>,
    head_tree: Option<Oid>,
    index: tree::Index,
    base_is_index: bool,
}

impl Sides {
    fn of(repo: &Repo, manifest: &Manifest) -> Result<Sides, ManifestError> {
        let objects = repo.objects();
        let tree = |sha: &Option<Oid>| -> Result<Option<Oid>, GitError> {
            sha.as_ref().map(|sha| objects.tree_of(sha)).transpose()
        };
        let base_tree = tree(&manifest.target.base_sha)?;
        let head_tree = tree(&manifest.target.head_sha)?;
        let index = objects.index()?;
        Ok(Sides {
            base_tree,
            head_tree,
            index,
            base_is_index: manifest.target.base_sha.is_none()
                && manifest.target.base_ref == "INDEX",
            objects,
        })
    }

    /// The two sides of `path` (each with the path it has there) and its change, for a file the
    /// range changed (`changed`) or one it did not.
    fn of_path(
        &self,
        manifest: &Manifest,
        changed: Option<&super::model::FileChange>,
        path: &BString,
    ) -> Result<PathSides, GitError> {
        if let Some(f) = changed {
            let before_path = f.old_path.clone().unwrap_or_else(|| f.path.clone());
            let before = match (&f.oid_before, f.mode_before) {
                (_, mode) if !mode.exists() => (before_path, Source::Missing),
                (Some(oid), mode) => (before_path, Source::Blob(oid.clone(), mode)),
                (None, _) => (before_path, Source::Missing),
            };
            let after = match (&f.oid_after, f.mode_after) {
                (_, mode) if !mode.exists() => (f.path.clone(), Source::Missing),
                (Some(oid), mode) => (f.path.clone(), Source::Blob(oid.clone(), mode)),
                (None, _) if manifest.target.head == Head::Worktree => {
                    (f.path.clone(), Source::Worktree(f.path.clone()))
                }
                (None, _) => (f.path.clone(), Source::Missing),
            };
            return Ok((before, after, Some(super::render::change_type(f.status))));
        }
        let lookup = |tree: &Option<Oid>| -> Result<Source, GitError> {
            match tree {
                Some(tree) => Ok(self.objects.tree_entry(tree, path.as_bstr())?.into()),
                None => Ok(Source::Missing),
            }
        };
        let in_index = || self.index.entry(path.as_bstr()).into();
        let before = if self.base_is_index {
            in_index()
        } else {
            lookup(&self.base_tree)?
        };
        let after = match manifest.target.head {
            Head::Object => lookup(&self.head_tree)?,
            Head::Index => in_index(),
            Head::Worktree => Source::Worktree(path.clone()),
        };
        Ok(((path.clone(), before), (path.clone(), after), None))
    }
}

/// git's hunks of a changed file while they fit the room (else why not); none for a file
/// the range did not change.
fn diff_hunks(
    repo: &Repo,
    manifest: &Manifest,
    changed: Option<&super::model::FileChange>,
    selection: &Selection,
    room: &Room,
) -> Result<(Option<Vec<crate::git::patch::Hunk>>, Option<String>), ManifestError> {
    let Some(f) = changed else {
        return Ok((Some(Vec::new()), None));
    };
    Ok(
        match hunks_of(repo, manifest, f, selection.max_file_size, room.left.get()) {
            Ok(hunks) => {
                let size: usize = hunks
                    .iter()
                    .flat_map(|h| h.lines.iter())
                    .map(|l| l.len() + 4)
                    .sum();
                if room.take(size) {
                    (Some(hunks), None)
                } else {
                    (Some(Vec::new()), Some(room.used_up()))
                }
            }
            Err(GitError::TooLarge { .. }) => (Some(Vec::new()), Some(room.used_up())),
            Err(e) => return Err(e.into()),
        },
    )
}

/// git's own hunks for one changed file of the manifest's range.
fn hunks_of(
    repo: &Repo,
    manifest: &Manifest,
    file: &super::model::FileChange,
    max_file_size: u64,
    room: usize,
) -> Result<Vec<crate::git::patch::Hunk>, GitError> {
    if file.untracked {
        return Ok(super::hunks::untracked_hunk(
            repo,
            file,
            max_file_size.min(MAX_FILE_SIZE_LIMIT),
        ));
    }
    let pairs = vec![(
        file.path.as_slice(),
        file.old_path.as_ref().map(|p| p.as_slice()),
    )];
    let patch = repo.patch(
        &manifest.target,
        &[],
        &PatchShape {
            context: 3,
            shaping: &[],
        },
        &PatchPaths {
            pairs,
            caller: &[],
            all: false,
        },
        // git's patch is a little larger than its hunks' lines; past twice the room they
        // cannot fit.
        super::hunks::MAX_PATCH.min(room.saturating_mul(2).saturating_add(4096)),
    )?;
    Ok(patch.into_iter().flat_map(|f| f.hunks).collect())
}

impl From<Option<tree::Entry>> for Source {
    fn from(entry: Option<tree::Entry>) -> Source {
        match entry {
            Some(e) => Source::Blob(e.oid, e.mode),
            None => Source::Missing,
        }
    }
}

fn read_side(
    objects: &Objects,
    workdir: Option<&Path>,
    side_path: &BStr,
    requested: &BStr,
    source: Source,
    selection: &Selection,
) -> Side {
    let mut side = Side {
        exists: true,
        path: (side_path != requested).then(|| side_path.to_str_lossy().into_owned()),
        ..Side::missing()
    };
    let cap = selection.max_file_size.min(MAX_FILE_SIZE_LIMIT);
    let too_large = |size: u64| format!("too large ({size} bytes, cap {cap})");
    let bytes: Result<Vec<u8>, String> = match source {
        Source::Missing => {
            side.exists = false;
            return side;
        }
        Source::Blob(_, mode) if mode.is_gitlink() => Err("submodule".into()),
        Source::Blob(oid, mode) => {
            side.symlink = mode.is_symlink();
            match objects.size(&oid) {
                Ok(size) if size > cap => {
                    side.size = Some(size);
                    Err(too_large(size))
                }
                Ok(_) => objects.blob(&oid).map_err(|e| crate::text::chain(&e)),
                Err(e) => Err(crate::text::chain(&e)),
            }
        }
        Source::Worktree(path) => {
            let Some(workdir) = workdir else {
                side.exists = false;
                return side;
            };
            match worktree::read(workdir, &path, cap) {
                Ok(None) => {
                    side.exists = false;
                    return side;
                }
                Err(e @ worktree::WorktreeError::Io { .. }) => Err(crate::text::chain(&e)),
                Err(e) => {
                    side.exists = false;
                    side.reason = Some(crate::text::chain(&e));
                    return side;
                }
                Ok(Some(worktree::Content::File(bytes))) => Ok(bytes),
                Ok(Some(worktree::Content::Symlink(target))) => {
                    side.symlink = true;
                    Ok(target)
                }
                Ok(Some(worktree::Content::Directory)) => Err("submodule".into()),
                Ok(Some(worktree::Content::Special)) => Err("not a regular file".into()),
                Ok(Some(worktree::Content::TooLarge(size))) => {
                    side.size = Some(size);
                    Err(too_large(size))
                }
            }
        }
    };
    let bytes = match bytes {
        Ok(b) => b,
        Err(reason) => {
            side.reason = Some(reason);
            return side;
        }
    };
    side.size = Some(bytes.len() as u64);
    if bytes[..bytes.len().min(8000)].contains(&0) {
        side.reason = Some("binary".into());
        return side;
    }
    side.lossy = std::str::from_utf8(&bytes).is_err();
    let text = bytes.to_str_lossy();
    lines_of(&mut side, text, selection.line_range);
    side
}

/// A side's text, or the lines of it `range` asks for (1-based, inclusive).
fn lines_of(side: &mut Side, text: std::borrow::Cow<str>, range: Option<(usize, usize)>) {
    let total = text.lines().count();
    side.total_lines = Some(total);
    let Some((first, last)) = range else {
        side.content = Some(text.into_owned());
        return;
    };
    let first = first.max(1);
    let last = last.min(total);
    if first > last {
        // The range starts after the last line (or the file is empty): no lines, and no line
        // numbers that would run backwards.
        side.content = Some(String::new());
        return;
    }
    let content: String = text
        .split_inclusive('\n')
        .skip(first - 1)
        .take(last + 1 - first)
        .collect();
    side.content = Some(content);
    side.first_line = Some(first);
    side.last_line = Some(last);
}

impl Side {
    /// A side that does not exist (the base every side starts from).
    fn missing() -> Side {
        Side {
            exists: false,
            path: None,
            size: None,
            content: None,
            reason: None,
            symlink: false,
            lossy: false,
            total_lines: None,
            first_line: None,
            last_line: None,
        }
    }
}

/// Parses `START:END` (or `START-END`, 1-based, inclusive).
pub fn parse_line_range(text: &str) -> Option<(usize, usize)> {
    let (a, b) = text.split_once(':').or_else(|| text.split_once('-'))?;
    let (a, b) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
    (a >= 1 && b >= a).then_some((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ranges() {
        assert_eq!(parse_line_range("3:7"), Some((3, 7)));
        assert_eq!(parse_line_range("3-7"), Some((3, 7)));
        assert_eq!(parse_line_range("7:3"), None);
        assert_eq!(parse_line_range("0:3"), None);
        assert_eq!(parse_line_range("x"), None);
    }
}
