//! File contents before and after a range: `git-prism snapshot` and `get_file_snapshots`.

use bstr::{BString, ByteSlice};
use serde::Serialize;

use super::QueryError;
use crate::budget::{self, Budget, Cut, Stage};
use crate::git::Repo;
use crate::manifest::{self, snapshot};
use crate::paging::to_json;
use crate::request::Diff;

/// The content cap when a query gives none.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 256 * 1024;

/// The longest path a query may name (Linux's `PATH_MAX`).
const MAX_PATH_BYTES: usize = 4096;

/// What a snapshot query asks.
#[derive(Clone, Debug)]
pub struct SnapshotQuery {
    /// The range, as `git diff` takes it.
    pub range: Diff,
    /// The range is named from the caller's directory (see [`super::ManifestQuery`]).
    pub from_cwd: bool,
    /// The paths (at most [`snapshot::MAX_PATHS`]) and what to read of them.
    pub selection: snapshot::Selection,
    /// The most the answer may take.
    pub budget: Option<Budget>,
    /// Pretty-print.
    pub pretty: bool,
}

impl SnapshotQuery {
    /// Both sides of `paths` over `range`, whole, with the default cap and no budget.
    pub fn new(range: Diff, paths: Vec<BString>) -> SnapshotQuery {
        SnapshotQuery {
            range,
            from_cwd: true,
            selection: snapshot::Selection {
                paths,
                line_range: None,
                max_file_size: DEFAULT_MAX_FILE_SIZE,
                before: true,
                after: true,
                diff_hunks: false,
            },
            budget: None,
            pretty: false,
        }
    }
}

/// The answer: the snapshots, and what was left out to fit.
#[derive(Serialize)]
struct SnapshotAnswer<'a> {
    #[serde(flatten)]
    doc: snapshot::SnapshotDoc,
    #[serde(skip_serializing_if = "Option::is_none")]
    truncated: Option<SnapshotCuts<'a>>,
}

/// What was left out, in the order cut.
#[derive(Serialize)]
struct SnapshotCuts<'a> {
    cut: &'a [String],
}

/// The most content and hunk bytes one snapshot answer keeps in memory.
pub(crate) const MAX_KEPT: usize = 256 * 1024 * 1024;

/// Answers a snapshot query. Over the budget, the largest contents and hunk lists are left out
/// first, each replaced by why.
pub fn snapshots(repo: &Repo, q: &SnapshotQuery) -> Result<String, QueryError> {
    super::bounded(|| {
        let selection = &q.selection;
        if selection.paths.is_empty() {
            return Err(QueryError::Invalid("paths is empty".into()));
        }
        if selection.paths.len() > snapshot::MAX_PATHS {
            return Err(QueryError::Invalid(format!(
                "at most {} paths per call (got {})",
                snapshot::MAX_PATHS,
                selection.paths.len()
            )));
        }
        // A path longer than any the file system accepts is a caller's mistake (or an attempt to
        // make the answer echo it): refused before anything runs.
        if let Some(p) = selection.paths.iter().find(|p| p.len() > MAX_PATH_BYTES) {
            return Err(QueryError::Invalid(format!(
                "path '{}' is longer than {MAX_PATH_BYTES} bytes",
                crate::text::clip(&p.to_str_lossy(), 200)
            )));
        }
        if let Some((start, end)) = selection.line_range {
            if start == 0 || end < start {
                return Err(QueryError::Invalid(format!(
                    "line_range {start}..{end} is not 1 <= start <= end"
                )));
            }
        }
        let options = manifest::Options {
            functions: false,
            relative_config: q.from_cwd,
            ..manifest::Options::default()
        };
        let built = manifest::build(repo, &q.range, &options)?;
        // What the answer can hold bounds what is kept (twice the budget: JSON and the cuts
        // the fitter makes need some slack); without a budget, a fixed cap.
        let keep = q
            .budget
            .map_or(MAX_KEPT, |b| {
                b.as_bytes().saturating_mul(2).saturating_add(64 * 1024)
            })
            .min(MAX_KEPT);
        let files = snapshot::snapshots(repo, &built, selection, keep)?;
        let now = crate::time::now_rfc3339();
        // The largest parts first: each level of the one stage leaves out one more of them.
        let order = largest_first(&files);
        let stages = [Stage::Detail {
            deepest: order.len(),
            notes: Box::new(|level| {
                order[..level]
                    .iter()
                    .map(|part| {
                        Cut::Detail(format!(
                            "{} of {} left out (ask for fewer paths or a line_range)",
                            part.what(),
                            files[part.file].path
                        ))
                    })
                    .collect()
            }),
        }];
        let fitted = budget::fit(q.budget, &stages, |s| {
            let mut shown = files.clone();
            for part in &order[..s.get(0)] {
                part.leave_out(&mut shown[part.file]);
            }
            let notes = s.notes();
            let json = to_json(
                &SnapshotAnswer {
                    doc: snapshot::SnapshotDoc::new(&built, shown, now.clone()),
                    truncated: (!notes.is_empty()).then_some(SnapshotCuts { cut: &notes }),
                },
                q.pretty,
            )?;
            let len = json.len();
            Ok::<_, QueryError>((json, len))
        })?;
        Ok(fitted.doc)
    })
}

/// A part of an answer that can be left out: one side's content or one file's hunks.
#[derive(Clone, Copy, Debug)]
struct Part {
    file: usize,
    kind: PartKind,
}

#[derive(Clone, Copy, Debug)]
enum PartKind {
    Before,
    After,
    Hunks,
}

impl Part {
    fn what(self) -> &'static str {
        match self.kind {
            PartKind::Before => "before content",
            PartKind::After => "after content",
            PartKind::Hunks => "diff hunks",
        }
    }

    fn leave_out(self, f: &mut snapshot::FileSnapshot) {
        let reason = "omitted to fit the response budget";
        match self.kind {
            PartKind::Before | PartKind::After => {
                let side = match self.kind {
                    PartKind::Before => &mut f.before,
                    _ => &mut f.after,
                };
                if let Some(s) = side.as_mut() {
                    s.content = None;
                    s.reason = Some(reason.into());
                }
            }
            PartKind::Hunks => f.diff_hunks = Some(Vec::new()),
        }
    }
}

/// Every content and hunk list, largest first.
fn largest_first(files: &[snapshot::FileSnapshot]) -> Vec<Part> {
    let mut parts: Vec<(usize, Part)> = Vec::new();
    for (file, f) in files.iter().enumerate() {
        for (side, kind) in [(&f.before, PartKind::Before), (&f.after, PartKind::After)] {
            if let Some(len) = side
                .as_ref()
                .and_then(|s| s.content.as_ref())
                .map(String::len)
            {
                parts.push((len, Part { file, kind }));
            }
        }
        if let Some(h) = &f.diff_hunks {
            let len: usize = h.iter().flat_map(|h| &h.lines).map(String::len).sum();
            if len > 0 {
                parts.push((
                    len,
                    Part {
                        file,
                        kind: PartKind::Hunks,
                    },
                ));
            }
        }
    }
    // Largest first; equal sizes in the order of the files.
    parts.sort_by_key(|(len, p)| (std::cmp::Reverse(*len), p.file));
    parts.into_iter().map(|(_, p)| p).collect()
}
