//! Change manifests: git's per-file facts for a range, enriched, summarised and paged.
//!
//! Pipeline: [`build`] (git facts → [`model`]) → [`page`] (budget, cursors) → [`schema`]
//! (the wire format). Language labels come from [`language`], the generated flag from
//! [`generated`]. Nothing here prints; callers get values or JSON strings.

pub mod build;
pub mod generated;
pub mod history;
pub mod language;
pub mod model;
pub mod page;
pub mod pager;
pub mod prefetch;
pub mod schema;
pub mod snapshot;

pub use build::{ManifestError, Options, build};
pub use model::{FileChange, Manifest};
