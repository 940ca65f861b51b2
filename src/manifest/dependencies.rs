//! Step 5 of building a manifest ([`super::build`]): the dependency files among the changes,
//! parsed before and after (in parallel: lockfiles are big and often deep in delta chains),
//! what [`super::prefetch`] parsed ahead of time taken as it is. A side larger than 16 MiB is
//! not read; a working-tree side is read through [`crate::git::worktree`].

use std::path::Path;

use bstr::{BString, ByteSlice};
use rayon::prelude::*;

use super::model::{FileChange, Kind};
use super::prefetch::Prefetched;
use crate::deps;
use crate::git::facts;
use crate::git::repo::Objects;
use crate::git::{Oid, Repo, worktree};

/// A dependency file among the changes: where its two versions are.
pub(super) struct DepSource {
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
    pub(super) fn from_entry(e: &facts::Entry) -> DepSource {
        DepSource {
            path: e.path.clone(),
            old_path: e.old_path.clone(),
            format: deps::Format::of(&e.path),
            oid_before: e.oid_before.clone(),
            oid_after: e.oid_after.clone(),
            before: e.mode_before.exists(),
            after: e.mode_after.exists(),
            regular: Kind::of_modes(e.mode_before, e.mode_after) == Kind::File,
        }
    }

    /// From an untracked file.
    pub(super) fn untracked(path: &BString) -> DepSource {
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

    /// Whether it is a file the dependency parsers read (a manifest or a lockfile).
    pub(super) fn is_dependency_file(&self) -> bool {
        self.format.is_some()
    }

    /// From a file change.
    pub(super) fn from_change(f: &FileChange) -> DepSource {
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
pub(super) fn dependency_report(
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
