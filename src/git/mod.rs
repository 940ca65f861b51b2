//! Repository access: the one boundary between git-prism and git.
//!
//! Two sources of truth, each used for what it is exact at:
//! - **gix** opens the repository in-process (no `git` spawned, nothing in the repository
//!   executed) to resolve revisions, compute merge bases, read objects and attributes;
//! - **the real git** (resolved like the shim resolves it, never git-prism itself) computes what
//!   git defines: which files changed, renames and copies, and line counts, so per-file facts
//!   equal `git diff --numstat -M` by construction (see `docs/adr/0004-per-file-facts-from-git.md`).
//!   It runs with fsmonitor, hooks, external diff, textconv and (on the working tree) filter
//!   drivers switched off, and with optional locks off so it never writes the index; each of
//!   its processes is bounded in time and output ([`deadline`]).
//! - The two must agree on the repository (git dir, common dir, work tree, each submodule's
//!   git dir) before anything else runs ([`repo`]).
//!
//! Every git command line is built in one place, `commands` (one function per command, the
//! safety flags added there, the output parsed into types such as [`Oid`] and [`Mode`]);
//! gix's errors are wrapped here, in [`GitError`], and nowhere else.

pub mod attributes;
pub mod blame;
mod commands;
pub mod deadline;
mod error;
pub mod facts;
pub mod gh;
pub mod log;
pub mod object;
pub mod patch;
pub mod push;
mod real;
pub mod refs;
pub mod repo;
pub mod revs;
pub mod state;
pub mod tree;
pub mod worktree;

pub use crate::oid::Oid;
pub use commands::{PatchPaths, PatchShape, Pending};
pub use error::{BoxedError, GitError};
pub use object::Mode;
pub use real::REPOSITORY_VARIABLES;
pub use repo::{Location, Repo};
