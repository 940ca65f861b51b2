//! A write placed in its repository ([`Placed`]): what the rules of [`super::decide`] and
//! [`super::push_rules`] read once the repository a write acts on, its scope entry and its
//! permission are known.

use std::path::{Path, PathBuf};

use super::context::Context;
use super::decision::Rule;
use super::place;
use super::scope::{self, Permission, Scope};
use crate::request::effect::Place;

/// A write placed in its repository: what the rules that follow read.
pub(super) struct Placed<'a> {
    /// The session.
    pub ctx: &'a Context,
    /// The session's scope.
    pub scope: &'a Scope,
    /// The directory the call runs in.
    pub cwd: &'a Path,
    /// Where git starts (`cwd` with the call's `-C` directories).
    pub here: PathBuf,
    /// The call's global options.
    pub place: &'a Place,
    /// The repository it acts on.
    pub identity: place::Identity,
    /// The scope's entry for it (`None`: not listed, or a repository named on the forge).
    pub entry: Option<&'a scope::Entry>,
    /// The permission the scope gives it.
    pub permission: Permission,
    /// A repository named on the forge (`gh -R`), not one of the scope's.
    pub forge: Option<String>,
}

impl Placed<'_> {
    /// The rule that refuses a call needing `wanted` when the permission is less.
    pub fn needs(&self, wanted: Permission, what: String) -> Option<Rule> {
        (self.permission < wanted).then(|| Rule::Needs {
            what,
            needed: wanted,
            listed: self.entry.is_some(),
            forge: self.forge.clone(),
            repo: None,
            names_place: false,
        })
    }
}
