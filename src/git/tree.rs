//! Trees and the index: looking paths up on either side of a range, and the quick, rename-free
//! tree diff the manifest reads ahead with while the real git computes the facts.
//!
//! Object ids cross this boundary as [`Oid`]s, modes as [`Mode`]s.

use bstr::{BStr, BString, ByteSlice};

use super::GitError;
use super::object::Mode;
use super::repo::Objects;
use crate::oid::Oid;

/// A path's entry in a tree or the index: its blob (or commit, for a submodule) and its mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The object id.
    pub oid: Oid,
    /// The mode.
    pub mode: Mode,
}

/// The index (staging area), read once.
pub struct Index(gix::worktree::Index);

impl Index {
    /// Returns the stage-0 entry at `path` (from the top of the working tree).
    pub fn entry(&self, path: &BStr) -> Option<Entry> {
        self.0.entry_by_path(path).map(|e| Entry {
            oid: super::object::from_gix(e.id),
            mode: Mode::from_bits(e.mode.bits()),
        })
    }
}

/// One path a quick tree diff found changed: the blobs before and after (absent for an added
/// or deleted side, and for a side that is not a blob).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlobChange {
    /// The blob before.
    pub old: Option<Oid>,
    /// The blob after.
    pub new: Option<Oid>,
    /// The path from the top of the tree.
    pub path: BString,
}

impl Objects {
    /// Returns the id of the tree a commit or tree `oid` names.
    pub fn tree_of(&self, oid: &Oid) -> Result<Oid, GitError> {
        let id =
            super::object::to_gix(oid).ok_or_else(|| GitError::BadRevision(oid.to_string()))?;
        Ok(super::object::from_gix(self.find_tree(id)?.id))
    }

    fn find_tree(&self, id: gix::ObjectId) -> Result<gix::Tree<'_>, GitError> {
        self.repo
            .find_object(id)
            .and_then(|o| o.peel_to_tree())
            .map_err(GitError::gix("reading a tree"))
    }

    /// Returns the entry at `path` in the tree `tree` (a tree id from [`Objects::tree_of`]).
    pub fn tree_entry(&self, tree: &Oid, path: &BStr) -> Result<Option<Entry>, GitError> {
        let id =
            super::object::to_gix(tree).ok_or_else(|| GitError::BadRevision(tree.to_string()))?;
        let tree = self.find_tree(id)?;
        let entry = tree
            .lookup_entry_by_path(path.to_path_lossy())
            .map_err(GitError::gix("looking a path up in a tree"))?;
        Ok(entry.map(|e| Entry {
            oid: super::object::from_gix(e.object_id()),
            mode: Mode::from_bits(e.mode().value().into()),
        }))
    }

    /// Reads the index (an empty one when the repository has none).
    pub fn index(&self) -> Result<Index, GitError> {
        self.repo
            .index_or_empty()
            .map(Index)
            .map_err(GitError::gix("reading the index"))
    }

    /// Lists the blobs on either side of a quick tree diff between two commits or trees,
    /// without rename detection; `None` when either side cannot be read.
    pub fn changed_blobs(&self, base: &Oid, head: &Oid) -> Option<Vec<BlobChange>> {
        let tree = |oid: &Oid| -> Option<gix::Tree<'_>> {
            self.repo
                .find_object(super::object::to_gix(oid)?)
                .ok()?
                .peel_to_tree()
                .ok()
        };
        let (old, new) = (tree(base)?, tree(head)?);
        let mut recorder = gix::diff::tree::Recorder::default();
        gix::diff::tree(
            gix::objs::TreeRefIter::from_bytes(&old.data, old.id.kind()),
            gix::objs::TreeRefIter::from_bytes(&new.data, new.id.kind()),
            &mut gix::diff::tree::State::default(),
            &self.repo.objects,
            &mut recorder,
        )
        .ok()?;
        use gix::diff::tree::recorder::Change;
        let blob = |mode: &gix::objs::tree::EntryMode, oid: &gix::ObjectId| {
            mode.is_blob().then(|| super::object::from_gix(*oid))
        };
        let changes = recorder
            .records
            .into_iter()
            .map(|change| match change {
                Change::Addition {
                    entry_mode,
                    oid,
                    path,
                    ..
                } => BlobChange {
                    old: None,
                    new: blob(&entry_mode, &oid),
                    path,
                },
                Change::Deletion {
                    entry_mode,
                    oid,
                    path,
                    ..
                } => BlobChange {
                    old: blob(&entry_mode, &oid),
                    new: None,
                    path,
                },
                Change::Modification {
                    previous_entry_mode,
                    previous_oid,
                    entry_mode,
                    oid,
                    path,
                } => BlobChange {
                    old: blob(&previous_entry_mode, &previous_oid),
                    new: blob(&entry_mode, &oid),
                    path,
                },
            })
            .filter(|c| c.old.is_some() || c.new.is_some())
            .collect();
        Some(changes)
    }
}
