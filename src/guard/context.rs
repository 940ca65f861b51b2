//! The session a call belongs to ([`Context`]): the record `git-prism session` left beside
//! the scope file, the scope it holds (or the file's, without a session), the temporary
//! directory git may write in, and the configuration the session's repositories started with,
//! which a write is held to ([`drifted`], issue 34).

use std::path::{Path, PathBuf};

use super::decision::{Decision, Rule};
use super::scope::{self, Scope};
use super::{config, place, session};
use crate::request::effect::Place;

/// The session a call belongs to: the record beside the scope file, if any.
pub(super) struct Context {
    /// The scope file the call names (`GIT_PRISM_SCOPE`).
    pub scope_file: PathBuf,
    /// The session's record, when one was found beside the scope file.
    pub record: Option<session::Record>,
    /// Why the record found cannot be read.
    record_error: Option<String>,
}

impl Context {
    /// The session of the scope file `scope_file`.
    pub(super) fn load(scope_file: &Path) -> Context {
        match session::load(scope_file) {
            Ok(record) => Context {
                scope_file: scope_file.to_owned(),
                record,
                record_error: None,
            },
            Err(e) => Context {
                scope_file: scope_file.to_owned(),
                record: None,
                record_error: Some(crate::text::chain(&e)),
            },
        }
    }

    /// The scope file to name in messages: the person's own when a session copied it.
    pub(super) fn shown_file(&self) -> PathBuf {
        self.record
            .as_ref()
            .map_or_else(|| self.scope_file.clone(), |r| r.scope_file.path())
    }

    /// Whether the call belongs to a session `git-prism session` started (its record was
    /// found, whether or not it can be read).
    pub(super) fn has_record(&self) -> bool {
        self.record.is_some() || self.record_error.is_some()
    }

    /// The temporary directory git may write in: the session's, else this call's — unless it
    /// lies inside a repository (`TMPDIR=../other/.git` would make that repository writable):
    /// then none.
    pub(super) fn temp_dir(&self) -> Option<PathBuf> {
        let dir = match &self.record {
            Some(r) => r.temp_dir.path(),
            None => std::env::var_os("TMPDIR")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .unwrap_or_else(|| PathBuf::from("/tmp")),
        };
        (!inside_a_repository(&dir)).then_some(dir)
    }

    /// The session's repositories that have a stamp of their start, with it
    /// ([`place::of_call`]).
    pub(super) fn stamped(&self) -> Vec<(place::Identity, crate::git::probe::Stamp)> {
        self.record
            .iter()
            .flat_map(|r| &r.repos)
            .filter_map(|r| Some((r.identity(), r.config_stamp.clone()?)))
            .collect()
    }

    /// The scope: the session's as it started, else the file's.
    pub(super) fn scope(&self) -> Result<Scope, String> {
        if let Some(e) = &self.record_error {
            return Err(e.clone());
        }
        match &self.record {
            Some(r) => Ok(r.scope(&r.scope_file.path())),
            None => scope::load(&self.scope_file).map_err(|e| crate::text::chain(&e)),
        }
    }
}

/// Whether `dir` or a directory above it looks like a repository's (a `.git` entry, or a git
/// directory's `HEAD` with `objects` or `commondir`): a cheap, conservative test for the one
/// directory the kernel layer grants outside repositories, never used to tell which repository.
fn inside_a_repository(dir: &Path) -> bool {
    let Ok(dir) = dir.canonicalize() else {
        return false;
    };
    dir.ancestors().any(|d| {
        std::fs::symlink_metadata(d.join(".git")).is_ok()
            || (std::fs::symlink_metadata(d.join("HEAD")).is_ok()
                && (d.join("objects").is_dir() || d.join("commondir").is_file()))
    })
}

/// For a write in one of the session's repositories: the settings that name a program and
/// changed since the session started are given back as they were (into `d.config`), or the
/// rule that refuses the call when one appeared that has no neutral value.
pub(super) fn drifted(
    d: &mut Decision,
    ctx: &Context,
    identity: &place::Identity,
    here: &Path,
    place: &Place,
) -> Option<Rule> {
    if crate::confine::test_rule_off("config-drift") {
        return None;
    }
    let record = ctx.record.as_ref()?;
    let repo = record
        .repos
        .iter()
        .find(|r| r.identity().common_dir == identity.common_dir)?;
    // The same files, unchanged since the session started: the same settings.
    if repo.config_stamp.is_some()
        && repo.identity().git_dir == identity.git_dir
        && crate::git::probe::Stamp::of(&identity.git_dir, &identity.common_dir)
            == repo.config_stamp
    {
        return None;
    }
    let now = match crate::git::probe::own_config(here, &place.globals) {
        Ok(c) => config::programs(&c),
        Err(e) => {
            return Some(Rule::RunsProgram {
                why: format!(
                    "the repository's configuration cannot be read ({})",
                    crate::text::chain(&e)
                ),
                fix: None,
            });
        }
    };
    match config::drift(&repo.programs, &now, &identity.common_dir.join("hooks")) {
        config::Drift::None => None,
        config::Drift::Restore(settings) => {
            d.config = settings;
            None
        }
        config::Drift::Refuse(key) => Some(Rule::Configured(key)),
    }
}
