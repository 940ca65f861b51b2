//! `.gitattributes`, read with gix as git reads them: from the working tree first, then the
//! index (from the index alone in a bare repository); from the index alone, or from a commit's
//! tree, for what a change's base said ([`Where`]). Attributes that cannot be read (an
//! unreadable index) are reported as unset, never as an error.

use bstr::BStr;

use super::Oid;
use super::repo::Objects;

/// Whose `.gitattributes` files are read.
#[derive(Clone, Copy, Debug)]
pub enum Where<'a> {
    /// The checkout's: the working tree's, then the index's (the index's alone when bare).
    Checkout,
    /// The index's alone.
    Index,
    /// Those of a commit's or tree's files.
    Tree(&'a Oid),
}

/// What `.gitattributes` assigns to one attribute of a path (unspecified attributes are not
/// reported).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State<'a> {
    /// `name`.
    Set,
    /// `-name`.
    Unset,
    /// `name=value`.
    Value(&'a BStr),
}

impl Objects {
    /// Looks up the attributes `names` of every path in `paths` and calls `each` with the
    /// path's position, the attribute's name and its state, for every attribute assigned.
    /// Reports nothing when the attributes cannot be read (an unreadable index): every path is
    /// then as if no attribute were set.
    pub fn attributes(
        &self,
        names: &[&str],
        paths: &[&BStr],
        each: impl FnMut(usize, &str, State<'_>),
    ) {
        self.attributes_in(Where::Checkout, names, paths, each);
    }

    /// Like [`Objects::attributes`], with the `.gitattributes` files of `place` (a commit's or
    /// tree's, the index's) instead of the checkout's: what a change's base says about a path.
    /// Reports nothing when they cannot be read.
    pub fn attributes_in(
        &self,
        place: Where<'_>,
        names: &[&str],
        paths: &[&BStr],
        mut each: impl FnMut(usize, &str, State<'_>),
    ) {
        use gix::attrs::StateRef;
        use gix::worktree::stack::state::attributes::Source;
        let (index, source) = match place {
            Where::Checkout => {
                let Ok(index) = self.repo.index_or_empty() else {
                    return;
                };
                let source = if self.repo.workdir().is_some() {
                    Source::WorktreeThenIdMapping
                } else {
                    Source::IdMapping
                };
                (
                    gix::worktree::IndexPersistedOrInMemory::Persisted(index),
                    source,
                )
            }
            Where::Index => {
                let Ok(index) = self.repo.index_or_empty() else {
                    return;
                };
                (
                    gix::worktree::IndexPersistedOrInMemory::Persisted(index),
                    Source::IdMapping,
                )
            }
            Where::Tree(oid) => {
                let Ok(id) = gix::ObjectId::from_hex(oid.as_bytes()) else {
                    return;
                };
                let Ok(tree) = self.repo.find_object(id).and_then(|o| o.peel_to_tree()) else {
                    return;
                };
                let Ok(index) = self.repo.index_from_tree(&tree.id) else {
                    return;
                };
                (
                    gix::worktree::IndexPersistedOrInMemory::InMemory(index),
                    Source::IdMapping,
                )
            }
        };
        let Ok(mut stack) = self.repo.attributes_only(&index, source) else {
            return;
        };
        let mut outcome = stack.selected_attribute_matches(names.iter().copied());
        for (i, path) in paths.iter().enumerate() {
            let Ok(platform) = stack.at_entry(*path, None) else {
                continue;
            };
            platform.matching_attributes(&mut outcome);
            for m in outcome.iter_selected() {
                let state = match m.assignment.state {
                    StateRef::Set => State::Set,
                    StateRef::Unset => State::Unset,
                    StateRef::Value(v) => State::Value(v.as_bstr()),
                    StateRef::Unspecified => continue,
                };
                each(i, m.assignment.name.as_str(), state);
            }
        }
    }
}
