//! Repository access: the one boundary between git-prism and git (and the real `gh`).
//!
//! Two sources of truth, each used for what it is exact at:
//! - **gix** opens the repository in-process (nothing in the repository executed) to discover
//!   it, resolve revisions (asking the real git's `rev-parse` for a form gix does not know),
//!   compute merge bases, and read objects, trees, the index and attributes;
//! - **the real git** (resolved like the shim resolves it, never git-prism itself) computes what
//!   git defines: which files changed, renames and copies, line counts, patches, logs, blame and
//!   status, so per-file facts equal `git diff --numstat -M` by construction (see
//!   `docs/adr/0004-per-file-facts-from-git.md`). Every call runs with fsmonitor, hooks, the
//!   pager and lazy fetch off and every filter driver neutralised (`real`), external diff and
//!   textconv off wherever it can diff, optional locks off and a working-tree diff on a private
//!   copy of the index, so it never writes the repository; each of its processes is bounded in
//!   time and output ([`deadline`]).
//! - The two must agree on the repository (git dir, common dir, work tree, each populated
//!   submodule's git dir) before anything else runs ([`repo`]).
//!
//! The command lines of the answers, the manifests and `verify` are built in one place,
//! `commands` (one function per command, the safety flags added there, the output parsed into
//! types such as [`Oid`] and [`Mode`]); the few that find a repository or read metadata for the
//! session guard stay beside their parsers ([`push`], [`refs`], [`state::commit_paths`]).
//! [`worktree`] is the one reader of working-tree files, [`refs`] reads refs straight from a
//! repository's files (the record of a write's effects), [`gh`] asks the real `gh` which commits
//! a pull request compares. gix is named nowhere outside `src/git/` (`tests/it/layers.rs`), and
//! its errors are wrapped here, in [`GitError`], and nowhere else.

pub mod attributes;
pub mod blame;
mod commands;
pub mod deadline;
mod error;
pub mod facts;
pub mod gh;
pub mod keys;
pub mod log;
pub mod object;
pub mod patch;
pub mod probe;
pub mod push;
mod real;
pub mod refs;
pub mod repo;
pub mod revs;
pub mod state;
pub mod tree;
pub mod worktree;

pub use crate::oid::Oid;
pub use commands::{AsTyped, PatchPaths, PatchShape, Printed};
pub use error::{BoxedError, GitError};
pub use object::Mode;
pub use real::REPOSITORY_VARIABLES;
pub use repo::{Location, Repo};
