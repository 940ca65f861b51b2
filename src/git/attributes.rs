//! `.gitattributes`, read as git reads them: from the working tree first, then the index
//! (from the index alone in a bare repository).

use bstr::BStr;

use super::repo::Objects;

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
        mut each: impl FnMut(usize, &str, State<'_>),
    ) {
        use gix::attrs::StateRef;
        use gix::worktree::stack::state::attributes::Source;
        let Ok(index) = self.repo.index_or_empty() else {
            return;
        };
        let source = if self.repo.workdir().is_some() {
            Source::WorktreeThenIdMapping
        } else {
            Source::IdMapping
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
