//! Change manifests: git's per-file facts for a range, enriched, summarised and paged.
//!
//! Pipeline: [`build()`] (git facts → [`model`], with what [`prefetch`] read ahead while git
//! ran) → [`render`] (pages and budget, through [`crate::paging`] and [`crate::budget`]) →
//! [`schema`] (the wire format). Languages come from [`language`], the generated flag from
//! [`generated`], functions from [`crate::lang`]; [`history`] does the same per commit.
//! Beside the manifest: [`hunks`], git's own patch for its files with each hunk placed in its
//! functions (what the shim's answers show), and [`snapshot`], file contents before and after.
//! Nothing here prints; callers get values or JSON strings.

mod analysis;
pub mod build;
mod dependencies;
pub mod generated;
pub mod history;
pub mod hunks;
pub mod language;
pub mod model;
pub mod prefetch;
pub mod render;
pub mod schema;
pub mod snapshot;

pub use build::{ManifestError, Options, build};
pub use model::Manifest;
