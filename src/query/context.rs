//! The function context of a range, alone (`git-prism context`, `get_function_context`) or
//! with its manifest (`git-prism review`, `review_change`).

use super::{Answered, QueryError, check_page_size};
use crate::context::{self, render};
use crate::git::Repo;
use crate::manifest;
use crate::paging::Paging;
use crate::request::Diff;

/// What a context query asks.
#[derive(Clone, Debug)]
pub struct ContextQuery {
    /// The range, as `git diff` takes it.
    pub range: Diff,
    /// Add untracked, not ignored files to working-tree ranges.
    pub untracked: bool,
    /// The range is named from the caller's directory (see [`super::ManifestQuery`]).
    pub from_cwd: bool,
    /// Only these functions (qualified or bare names); empty names are ignored.
    pub function_names: Vec<String>,
    /// Cursor, page size, budget.
    pub paging: Paging,
}

impl ContextQuery {
    /// The context of every function `range` changes, unpaged.
    pub fn new(range: Diff) -> ContextQuery {
        ContextQuery {
            range,
            untracked: true,
            from_cwd: true,
            function_names: Vec::new(),
            paging: Paging::default(),
        }
    }
}

/// What a review query asks: a context query whose manifest part is paged too.
#[derive(Clone, Debug)]
pub struct ReviewQuery {
    /// The range, the functions, and the context part's cursor in `paging.cursor`.
    pub context: ContextQuery,
    /// Where the manifest part continues.
    pub manifest_cursor: Option<String>,
}

/// Builds the manifest and the context of the query's range.
fn build(
    repo: &Repo,
    q: &ContextQuery,
) -> Result<(manifest::Manifest, context::Context, Vec<String>), QueryError> {
    check_page_size(q.paging.page_size)?;
    let names: Vec<String> = q
        .function_names
        .iter()
        .filter(|n| !n.trim().is_empty())
        .cloned()
        .collect();
    let options = manifest::Options {
        untracked: q.untracked,
        functions: true,
        relative_config: q.from_cwd,
    };
    let started = std::time::Instant::now();
    let mut built = manifest::build(repo, &q.range, &options)?;
    let manifest_time = started.elapsed();
    let ctx = context::build(repo, &built, &names)?;
    built.timings = std::iter::once(("manifest", manifest_time))
        .chain(ctx.timings.iter().copied())
        .collect();
    Ok((built, ctx, names))
}

/// Answers a context query; `next` names the call that fetches the page at a cursor.
pub fn context(
    repo: &Repo,
    q: &ContextQuery,
    next: &dyn Fn(&str) -> String,
) -> Result<Answered, QueryError> {
    super::bounded(|| {
        let (built, ctx, names) = build(repo, q)?;
        let json = render::render(
            &built,
            &ctx,
            &names,
            &q.paging,
            &crate::time::now_rfc3339(),
            next,
        )?;
        Ok(Answered {
            json,
            timings: built.timings,
        })
    })
}

/// Answers a review query: the manifest and the context in one answer, one budget shared; each
/// part pages with its own cursor (`next_manifest`, `next_context` name the calls).
pub fn review(
    repo: &Repo,
    q: &ReviewQuery,
    next_manifest: &dyn Fn(&str) -> String,
    next_context: &dyn Fn(&str) -> String,
) -> Result<Answered, QueryError> {
    super::bounded(|| {
        let (built, ctx, names) = build(repo, &q.context)?;
        let part = |cursor: &Option<String>| Paging {
            cursor: cursor.clone(),
            page_size: q.context.paging.page_size,
            ..Paging::default()
        };
        let paging = render::ReviewPaging {
            manifest: part(&q.manifest_cursor),
            context: part(&q.context.paging.cursor),
            budget: q.context.paging.budget,
            pretty: q.context.paging.pretty,
        };
        let json = render::render_review(
            &built,
            &ctx,
            &names,
            &paging,
            &crate::time::now_rfc3339(),
            next_manifest,
            next_context,
        )?;
        Ok(Answered {
            json,
            timings: built.timings,
        })
    })
}
