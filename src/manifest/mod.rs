//! Change manifests: git's per-file facts for a range, enriched, summarised and paged.
//!
//! Pipeline: [`build`] (git facts → [`model`]) → [`page`] (budget, cursors) → [`schema`]
//! (the wire format). Languages come from [`language`], the generated flag from
//! [`generated`]. [`pager`] is the paging and budget fitting every paged answer shares (the
//! manifest's pages, [`history`], and the function context above this layer). Nothing here
//! prints; callers get values or JSON strings.

pub mod build;
pub mod generated;
pub mod history;
pub mod hunks;
pub mod language;
pub mod model;
pub mod page;
pub mod pager;
pub mod prefetch;
pub mod schema;
pub mod snapshot;

pub use build::{ManifestError, Options, build};
pub use model::{FileChange, Manifest};
