//! Turning a [`Context`] into JSON: pages, cursors and the output budget, as for manifests.
//!
//! Invariants:
//! - Functions are listed riskiest first (manifest order within a grade); the summary always
//!   covers every function.
//! - A cursor is bound to the manifest's fingerprint and the names asked for: a cursor from
//!   before the branch moved is refused.
//! - Fitting a budget cuts detail in a stated order (long caller, callee and test lists are
//!   shortened to 10 entries, then to 3, with the counts of what is not shown; then functions
//!   move to the next page) and says what it cut; blast-radius counts are never cut.

use schemars::JsonSchema;
use serde::Serialize;

use super::{Callee, Caller, Context, FunctionContext, Risk, TestReference};
use crate::budget::{self, Budget, Cut, Stage};
use crate::manifest::model::Manifest;
use crate::manifest::render as manifest_render;
use crate::manifest::schema::{self, ManifestDoc};
use crate::paging::{self, Cursor, Fingerprint, PageError, Paging};

/// The function context of a range.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ContextDoc {
    /// The range, as for the manifest.
    pub metadata: schema::Metadata,
    /// Totals over every function.
    pub summary: ContextSummary,
    /// One entry per function on this page, riskiest first.
    pub functions: Vec<FunctionDoc>,
    /// Present when the functions span several pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pagination: Option<ContextPagination>,
    /// Present when the output budget cut anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<ContextTruncation>,
}

/// Totals over every function of the range.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ContextSummary {
    /// Functions with a context.
    pub functions: usize,
    /// Functions per risk grade (absent grades have none).
    pub risk: RiskCounts,
    /// Files on the head side in the functions' languages.
    pub files_in_scope: usize,
    /// Files that mention one of the names and were analysed (the rest cannot call them).
    pub files_analysed: usize,
    /// Names asked for that no function on the head side has.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_found: Vec<String>,
}

/// Functions per risk grade.
#[derive(Debug, Default, Serialize, JsonSchema)]
pub struct RiskCounts {
    /// High.
    #[serde(skip_serializing_if = "is_zero")]
    pub high: usize,
    /// Medium.
    #[serde(skip_serializing_if = "is_zero")]
    pub medium: usize,
    /// Low.
    #[serde(skip_serializing_if = "is_zero")]
    pub low: usize,
    /// None.
    #[serde(skip_serializing_if = "is_zero")]
    pub none: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The context of one function.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FunctionDoc {
    /// Qualified name.
    pub name: String,
    /// Its file (the base side's for a deletion).
    pub file: String,
    /// `added`, `deleted`, `modified`, `signature_changed`, `renamed`, `moved`, or
    /// `unchanged` for a function asked for by name.
    pub change_type: &'static str,
    /// `function` or `method`.
    pub kind: &'static str,
    /// Language label.
    pub language: &'static str,
    /// `scoped`: callers were filtered by what their files import; `full_scan`: matched by
    /// name alone (languages without import resolution).
    pub scoping: &'static str,
    /// Who depends on it and how risky a change is.
    pub blast_radius: BlastRadiusDoc,
    /// Call sites, by file and line.
    pub callers: Vec<CallerDoc>,
    /// Callers left out to fit the budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub callers_not_shown: Option<usize>,
    /// What it calls, in source order.
    pub callees: Vec<CalleeDoc>,
    /// Callees left out to fit the budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub callees_not_shown: Option<usize>,
    /// Test functions that call it.
    pub test_references: Vec<TestReferenceDoc>,
    /// Test references left out to fit the budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test_references_not_shown: Option<usize>,
}

/// Who depends on a function.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BlastRadiusDoc {
    /// Call sites in production code.
    pub production_callers: usize,
    /// Call sites in test code.
    pub test_callers: usize,
    /// Call sites on receivers of unknown type (not counted above).
    #[serde(skip_serializing_if = "is_zero")]
    pub candidate_callers: usize,
    /// Whether any test calls it.
    pub has_tests: bool,
    /// `none`, `low`, `medium` or `high`.
    pub risk: &'static str,
}

/// One call site.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CallerDoc {
    /// The calling file.
    pub file: String,
    /// The line.
    pub line: u32,
    /// The calling function (absent at module level).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caller: Option<String>,
    /// Whether it is test code.
    pub is_test: bool,
    /// A method call on a receiver whose type could not be known: it may call another
    /// method of the same name.
    #[serde(skip_serializing_if = "is_false")]
    pub candidate: bool,
}

/// One call a function makes.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CalleeDoc {
    /// The call as written.
    pub callee: String,
    /// The line.
    pub line: u32,
    /// The file defining what is called, when resolved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolved_file: Option<String>,
}

/// A test that calls a function.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TestReferenceDoc {
    /// The test's file.
    pub file: String,
    /// The test function (absent for module-level test code).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// The line of its first call.
    pub line: u32,
}

/// Where this page sits.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ContextPagination {
    /// Index of this page's first function.
    pub offset: usize,
    /// Functions on this page.
    pub returned: usize,
    /// Functions in all.
    pub total_functions: usize,
    /// Cursor for the next page (absent on the last page).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// What was cut to fit the output budget.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ContextTruncation {
    /// Each cut, in the order applied.
    pub cut: Vec<String>,
    /// Functions not on this page (they are on the next pages, never dropped).
    pub functions_not_shown: usize,
    /// The command that returns the next page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page: Option<String>,
}

/// The fingerprint a context cursor is bound to.
pub fn fingerprint(m: &Manifest, names: &[String]) -> u64 {
    let mut h = Fingerprint::extend(manifest_render::fingerprint(m) ^ 0x636f_6e74_6578_7421);
    for n in names {
        h.eat(n.as_bytes());
    }
    h.value()
}

/// The functions in page order: riskiest first, manifest order within a grade.
fn ordered(c: &Context) -> Vec<&FunctionContext> {
    let mut out: Vec<&FunctionContext> = c.functions.iter().collect();
    out.sort_by_key(|f| std::cmp::Reverse(f.blast_radius.risk));
    out
}

/// Renders a context within the paging and budget constraints; `next_page` turns a cursor
/// into the command that fetches the next page.
pub fn render(
    m: &Manifest,
    c: &Context,
    names: &[String],
    paging: &Paging,
    generated_at: &str,
    next_page: &dyn Fn(&str) -> String,
) -> Result<String, PageError> {
    let doc = document(m, c, names, paging, generated_at, next_page)?;
    Ok(paging.to_json(&doc)?)
}

/// Builds the document of one page (for callers that embed it, as `review` does). Cut stages:
/// caller, callee and test lists shortened to 10, then 3 entries (counts kept), then functions
/// move to the next page; blast-radius counts are never cut.
pub fn document(
    m: &Manifest,
    c: &Context,
    names: &[String],
    paging: &Paging,
    generated_at: &str,
    next_page: &dyn Fn(&str) -> String,
) -> Result<ContextDoc, PageError> {
    let fp = fingerprint(m, names);
    let total = c.functions.len();
    let offset = paging.offset(Cursor::LIST, fp)?;
    let end = paging.end(offset, total)?;
    let whole = end - offset;
    let caps = [10, 3];
    let stages = [
        Stage::detail(
            caps.iter()
                .map(|cap| {
                    Cut::Detail(format!(
                        "lists shortened to {cap} callers, callees and test references per function (counts kept)"
                    ))
                })
                .collect(),
        ),
        Stage::moving(
            "functions",
            "one function",
            1.min(whole),
            whole,
        ),
    ];
    let fitted = budget::fit(paging.budget, &stages, |s| {
        let view = View {
            offset,
            end: offset + s.get(1),
            cap: s.get(0).checked_sub(1).map(|i| caps[i]),
            cuts: s.notes(),
        };
        let doc = to_doc(m, c, names, &view, generated_at, next_page);
        let len = paging.to_json(&doc)?.len();
        Ok::<_, PageError>((doc, len))
    })?;
    Ok(fitted.doc)
}

/// What one rendering shows.
#[derive(Clone, Debug)]
struct View {
    offset: usize,
    end: usize,
    /// The most callers, callees and test references listed per function.
    cap: Option<usize>,
    cuts: Vec<String>,
}

fn to_doc(
    m: &Manifest,
    c: &Context,
    names: &[String],
    view: &View,
    generated_at: &str,
    next_page: &dyn Fn(&str) -> String,
) -> ContextDoc {
    let fp = fingerprint(m, names);
    let total = c.functions.len();
    let next_cursor = (view.end < total).then(|| Cursor::LIST.encode(fp, view.end));
    let mut risk = RiskCounts::default();
    for f in &c.functions {
        match f.blast_radius.risk {
            Risk::High => risk.high += 1,
            Risk::Medium => risk.medium += 1,
            Risk::Low => risk.low += 1,
            Risk::None => risk.none += 1,
        }
    }
    let functions = ordered(c)[view.offset..view.end]
        .iter()
        .map(|f| function_doc(f, view.cap))
        .collect();
    ContextDoc {
        metadata: manifest_render::metadata(m, generated_at),
        summary: ContextSummary {
            functions: total,
            risk,
            files_in_scope: c.files_in_scope,
            files_analysed: c.files_analysed,
            not_found: c.not_found.clone(),
        },
        functions,
        pagination: (view.offset > 0 || view.end < total).then(|| ContextPagination {
            offset: view.offset,
            returned: view.end - view.offset,
            total_functions: total,
            next_cursor: next_cursor.clone(),
        }),
        truncated: (!view.cuts.is_empty()).then(|| ContextTruncation {
            cut: view.cuts.clone(),
            functions_not_shown: total - (view.end - view.offset),
            next_page: next_cursor.as_deref().map(next_page),
        }),
    }
}

/// Keeps at most `cap` items; returns them and how many were left out.
fn capped<T, U>(items: &[T], cap: Option<usize>, map: impl Fn(&T) -> U) -> (Vec<U>, Option<usize>) {
    let n = cap.unwrap_or(usize::MAX).min(items.len());
    let out = items[..n].iter().map(map).collect();
    (out, (n < items.len()).then_some(items.len() - n))
}

fn function_doc(f: &FunctionContext, cap: Option<usize>) -> FunctionDoc {
    // Production callers first when the list is shortened: they decide the risk.
    let mut callers: Vec<&Caller> = f.callers.iter().collect();
    if cap.is_some() {
        callers.sort_by_key(|c| (c.is_test, c.candidate));
    }
    let (callers, callers_not_shown) = capped(&callers, cap, |c| CallerDoc {
        file: c.file.clone(),
        line: c.line,
        caller: c.caller.clone(),
        is_test: c.is_test,
        candidate: c.candidate,
    });
    let (callees, callees_not_shown) = capped(&f.callees, cap, |c: &Callee| CalleeDoc {
        callee: c.callee.clone(),
        line: c.line,
        resolved_file: c.resolved_file.clone(),
    });
    let (test_references, test_references_not_shown) =
        capped(&f.test_references, cap, |t: &TestReference| {
            TestReferenceDoc {
                file: t.file.clone(),
                function: t.function.clone(),
                line: t.line,
            }
        });
    let b = &f.blast_radius;
    FunctionDoc {
        name: f.name.clone(),
        file: f.file.clone(),
        change_type: f.change_type.label(),
        kind: f.kind.label(),
        language: f.language.label(),
        scoping: f.scoping.label(),
        blast_radius: BlastRadiusDoc {
            production_callers: b.production_callers,
            test_callers: b.test_callers,
            candidate_callers: b.candidate_callers,
            has_tests: b.has_tests,
            risk: b.risk.label(),
        },
        callers,
        callers_not_shown,
        callees,
        callees_not_shown,
        test_references,
        test_references_not_shown,
    }
}

/// How a review pages and bounds its two parts.
#[derive(Clone, Debug, Default)]
pub struct ReviewPaging {
    /// The manifest's cursor and page size.
    pub manifest: Paging,
    /// The context's cursor and page size.
    pub context: Paging,
    /// The most the whole answer may take, split between the parts.
    pub budget: Option<Budget>,
    /// Pretty-print.
    pub pretty: bool,
}

/// Bytes the review's wrapper object takes around its two parts.
const REVIEW_OVERHEAD: usize = 32;

/// A review: the manifest and the function context of one range.
#[derive(Debug, Serialize)]
pub struct ReviewDoc {
    /// The change manifest.
    pub manifest: ManifestDoc,
    /// The function context.
    pub context: ContextDoc,
}

/// Renders a review: the manifest and the function context of one range in one object, with
/// one budget (three fifths for the manifest, the rest for the context; a part that needs less
/// leaves the rest to the other) and a cursor for each part.
#[allow(clippy::too_many_arguments, reason = "the two parts' inputs")]
pub fn render_review(
    m: &Manifest,
    c: &Context,
    names: &[String],
    paging: &ReviewPaging,
    generated_at: &str,
    next_manifest: &dyn Fn(&str) -> String,
    next_context: &dyn Fn(&str) -> String,
) -> Result<String, PageError> {
    let with_budget = |p: &Paging, budget: Option<Budget>| Paging {
        budget,
        pretty: paging.pretty,
        ..p.clone()
    };
    // Each part with its size as JSON on its own.
    let manifest_part = |max| -> Result<(ManifestDoc, usize), PageError> {
        let doc = manifest_render::document(
            m,
            &with_budget(&paging.manifest, max),
            generated_at,
            next_manifest,
        )?;
        let len = paging::to_json(&doc, paging.pretty)?.len();
        Ok((doc, len))
    };
    let context_part = |max| -> Result<(ContextDoc, usize), PageError> {
        let doc = document(
            m,
            c,
            names,
            &with_budget(&paging.context, max),
            generated_at,
            next_context,
        )?;
        let len = paging::to_json(&doc, paging.pretty)?.len();
        Ok((doc, len))
    };
    let (full_m, full_c) = (manifest_part(None)?, context_part(None)?);
    let ((manifest, _), (context, _)) = match paging.budget {
        Some(budget) if !budget.fits(full_m.1 + full_c.1 + REVIEW_OVERHEAD) => {
            let room = budget.less(REVIEW_OVERHEAD);
            let share = room.share(60);
            if share.fits(full_m.1) {
                let rest = room.less(full_m.1);
                (full_m, context_part(Some(rest))?)
            } else if room.less(share.as_bytes()).fits(full_c.1) {
                let rest = room.less(full_c.1);
                (manifest_part(Some(rest))?, full_c)
            } else {
                (
                    manifest_part(Some(share))?,
                    context_part(Some(room.less(share.as_bytes())))?,
                )
            }
        }
        _ => (full_m, full_c),
    };
    Ok(paging::to_json(
        &ReviewDoc { manifest, context },
        paging.pretty,
    )?)
}
