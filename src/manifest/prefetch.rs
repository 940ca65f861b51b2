//! Work done while the real git computes the facts.
//!
//! `git diff --numstat` spends most of its time diffing blobs. Meanwhile this process has a
//! core to spare, so for commit-to-commit targets it runs its own quick tree diff (no rename
//! detection: renames only change how git pairs the same blobs) and reads, by object id, what
//! enrichment will ask for: the first bytes of every changed text blob, and the parsed
//! declarations of every changed dependency file. Results are keyed by object id, so git's
//! pairing, which arrives later and is authoritative, decides how they are used; an id the
//! quick diff did not see is simply read on demand.
//!
//! Bounds: at most [`MAX_BLOBS`] blobs, only their first [`super::generated::MARKER_WINDOW`]
//! bytes are kept, and nothing is prefetched for pathspec-limited or working-tree targets.

use std::collections::HashMap;

use super::generated;
use crate::deps;
use crate::git::Repo;
use crate::git::repo::Objects;
use crate::git::revs::{Head, Target};

/// At most this many changed blobs are prefetched.
pub const MAX_BLOBS: usize = 20_000;

/// Blobs larger than this are not read ahead.
const SIZE_LIMIT: u64 = 2 * 1024 * 1024;

/// What was read ahead, by object id.
#[derive(Debug, Default)]
pub struct Prefetched {
    heads: HashMap<String, Vec<u8>>,
    declarations: HashMap<(String, deps::Format), Declarations>,
}

impl Prefetched {
    /// Returns the first bytes of a blob, if read ahead.
    pub fn head(&self, oid: &str) -> Option<&[u8]> {
        self.heads.get(oid).map(Vec::as_slice)
    }

    /// Returns a dependency file's parsed declarations, if read ahead.
    pub fn declarations(
        &self,
        oid: &str,
        format: deps::Format,
    ) -> Option<&Result<Vec<deps::Declaration>, deps::ParseError>> {
        self.declarations.get(&(oid.to_owned(), format))
    }
}

/// A dependency file's parsed declarations.
type Declarations = Result<Vec<deps::Declaration>, deps::ParseError>;

/// What was read for one blob: its id, its first bytes, its declarations.
type Read = (
    String,
    Option<Vec<u8>>,
    Option<(deps::Format, Declarations)>,
);

/// One side of a changed blob found by the quick tree diff.
struct Blob {
    oid: gix::ObjectId,
    dependency: Option<deps::Format>,
}

/// Reads ahead for `target`; returns nothing to read for targets it does not cover.
pub fn run(repo: &Repo, target: &Target, limited: bool) -> Prefetched {
    if target.head != Head::Object || limited {
        return Prefetched::default();
    }
    let (Some(base), Some(head)) = (&target.base_sha, &target.head_sha) else {
        return Prefetched::default();
    };
    let blobs = match changed_blobs(repo, base, head) {
        Some(b) if b.len() <= MAX_BLOBS => b,
        _ => return Prefetched::default(),
    };
    // One thread: git is using the other core.
    let local = repo.local();
    let read: Vec<Read> = blobs
        .iter()
        .map(|blob| {
            let objects = Objects::new(&local);
            let hex = blob.oid.to_string();
            let content = match objects.size(&hex) {
                Ok(size) if size <= SIZE_LIMIT || blob.dependency.is_some() => {
                    objects.blob(&hex).ok()
                }
                _ => None,
            };
            let Some(content) = content else {
                return (hex, None, None);
            };
            let parsed = blob
                .dependency
                .map(|format| (format, deps::parse(format, &content)));
            let mut head = content;
            head.truncate(generated::MARKER_WINDOW.max(8000));
            (hex, Some(head), parsed)
        })
        .collect();
    let mut out = Prefetched::default();
    for (hex, head, parsed) in read {
        if let Some((format, result)) = parsed {
            out.declarations.insert((hex.clone(), format), result);
        }
        if let Some(head) = head {
            out.heads.insert(hex, head);
        }
    }
    out
}

/// Lists the blobs on either side of a quick, rename-free tree diff.
fn changed_blobs(repo: &Repo, base: &str, head: &str) -> Option<Vec<Blob>> {
    let local = repo.local();
    let tree = |sha: &str| -> Option<gix::Tree<'_>> {
        let id = gix::ObjectId::from_hex(sha.as_bytes()).ok()?;
        local.find_object(id).ok()?.peel_to_tree().ok()
    };
    let (old, new) = (tree(base)?, tree(head)?);
    let mut recorder = gix::diff::tree::Recorder::default();
    gix::diff::tree(
        gix::objs::TreeRefIter::from_bytes(&old.data, old.id.kind()),
        gix::objs::TreeRefIter::from_bytes(&new.data, new.id.kind()),
        &mut gix::diff::tree::State::default(),
        &local.objects,
        &mut recorder,
    )
    .ok()?;
    use gix::diff::tree::recorder::Change;
    let mut blobs = Vec::new();
    for change in recorder.records {
        let mut push = |mode: gix::objs::tree::EntryMode, oid: gix::ObjectId, path: &bstr::BStr| {
            if mode.is_blob() {
                blobs.push(Blob {
                    oid,
                    dependency: deps::Format::of(path),
                });
            }
        };
        match &change {
            Change::Addition {
                entry_mode,
                oid,
                path,
                ..
            }
            | Change::Deletion {
                entry_mode,
                oid,
                path,
                ..
            } => {
                push(*entry_mode, *oid, path.as_ref());
            }
            Change::Modification {
                previous_entry_mode,
                previous_oid,
                entry_mode,
                oid,
                path,
            } => {
                push(*previous_entry_mode, *previous_oid, path.as_ref());
                push(*entry_mode, *oid, path.as_ref());
            }
        }
    }
    Some(blobs)
}
