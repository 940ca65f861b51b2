//! `git log -S <term>` / `git log -G <regex>`: the commits git's pickaxe lists, each with the
//! files whose occurrences changed (git's own filtering) and the functions in them whose
//! occurrences of the term changed.
//!
//! Occurrences are attributed to the innermost function containing their line. With `-S`
//! (string, or regex with `--pickaxe-regex`) a function is reported when its count changes;
//! with `-G` when the lines matching the regex in it change. Regular expressions are Rust's
//! `regex` syntax, close to the POSIX extended syntax git uses; a term the crate cannot compile
//! makes the call pass through to git. `-i` / `--regexp-ignore-case` makes both git's filter and
//! the counts ignore case.
//!
//! Long lists are paged by commit over the list git gives (its `-n`, `--skip` and `--reverse`
//! applied once): `next_page` is the same command with `GIT_PRISM_CURSOR`, bound to the listed
//! commits. Only the commits of a page are analysed.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};

use bstr::{BString, ByteSlice};
use serde::Serialize;

use super::{AnswerError, Call, next_page};
use crate::budget::{self, Budget, Cut, Stage};
use crate::git::Oid;
use crate::git::repo::Objects;
use crate::lang::Language;
use crate::manifest::model::{FileChange, Kind};
use crate::manifest::{history, language, render};
use crate::paging::Cursor;
use crate::request::{Log, PickaxeKind};
use crate::shell;

/// How the term matches.
enum Matcher {
    Literal(Vec<u8>),
    Regex(regex::bytes::Regex),
}

impl Matcher {
    /// Occurrences in one line.
    fn count(&self, line: &[u8]) -> usize {
        match self {
            Matcher::Literal(t) if t.is_empty() => 0,
            Matcher::Literal(t) => line.find_iter(t).count(),
            Matcher::Regex(r) => r.find_iter(line).count(),
        }
    }
}

#[derive(Serialize)]
struct Doc<'a> {
    raw: &'a str,
    pickaxe: PickaxeDoc<'a>,
    repo_path: String,
    range: String,
    generated_at: &'a str,
    commits_listed: usize,
    commits: Vec<CommitDoc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    truncated: Option<Truncated>,
}

#[derive(Serialize)]
struct PickaxeDoc<'a> {
    /// `occurrences` (`-S`) or `regex` (`-G`).
    kind: &'static str,
    term: &'a str,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    regex: bool,
}

#[derive(Clone, Serialize)]
struct CommitDoc {
    sha: Oid,
    parents: Vec<Oid>,
    author: String,
    date: String,
    subject: String,
    files: Vec<FileDoc>,
}

#[derive(Clone, Serialize)]
struct FileDoc {
    path: String,
    change_type: crate::manifest::schema::ChangeType,
    occurrences_before: usize,
    occurrences_after: usize,
    /// Functions whose occurrences changed (absent when the language is not analysed).
    #[serde(skip_serializing_if = "Option::is_none")]
    functions: Option<Vec<FunctionDoc>>,
}

#[derive(Clone, Serialize)]
struct FunctionDoc {
    name: String,
    occurrences_before: usize,
    occurrences_after: usize,
}

#[derive(Serialize)]
struct Truncated {
    commits_not_shown: usize,
    next_page: String,
}

/// The most commits analysed for one page.
const MAX_PAGE: usize = 100;

/// How many commits are analysed in one `git diff-tree` while a page fills.
const ANALYSED_TOGETHER: usize = 8;

/// The cursor of a pickaxe page.
const CURSOR: Cursor = Cursor("gk1");

/// Builds the answer to `git log -S/-G`.
pub fn answer(log: &Log, argv: &[OsString], ctx: &Call) -> Result<String, AnswerError> {
    let pickaxe = log
        .pickaxe
        .as_ref()
        .ok_or_else(|| AnswerError::Unsupported("no pickaxe".into()))?;
    let term = pickaxe.term.to_string_lossy().into_owned();
    let ignore_case = log.ignores_case();
    let is_regex = log.pickaxe_is_regex();
    let matcher = if is_regex || ignore_case {
        let pattern = if is_regex {
            term.clone()
        } else {
            regex::escape(&term)
        };
        Matcher::Regex(
            regex::bytes::RegexBuilder::new(&pattern)
                .case_insensitive(ignore_case)
                .build()
                .map_err(|e| AnswerError::Unsupported(format!("regex {term:?}: {e}")))?,
        )
    } else {
        Matcher::Literal(pickaxe.term.as_encoded_bytes().to_vec())
    };
    let repo = ctx.repo()?;
    let listed = repo.log(log)?;
    let fp = super::log::fingerprint(&listed);
    let offset = match ctx.cursor.as_deref() {
        Some(c) => CURSOR.decode(c, fp)?,
        None => 0,
    };
    let total = listed.len();
    let page_commits: Vec<_> = listed.into_iter().skip(offset).take(MAX_PAGE).collect();
    // git's pickaxe also filters each commit's file pairs: ask for exactly those.
    let diff_options = log.pickaxe_options();
    let objects = repo.objects();
    let budget = ctx.budget.less(1).as_bytes();
    // Commits are analysed a few at a time until the page is full: a page of large commits
    // holds only a handful, and analysing the rest would be wasted.
    let mut commits: Vec<CommitDoc> = Vec::new();
    let mut size = 0usize;
    for chunk in page_commits.chunks(ANALYSED_TOGETHER) {
        let changes =
            history::changes_with(&repo, chunk.to_vec(), &log.paths, false, &diff_options)?;
        for c in &changes {
            let doc = CommitDoc {
                sha: c.info.sha.clone(),
                parents: c.info.parents.clone(),
                author: format!("{} <{}>", c.info.author_name, c.info.author_email),
                date: c.info.author_date.clone(),
                subject: c.info.subject.clone(),
                files: c
                    .files
                    .iter()
                    .map(|f| file_doc(&objects, f, &matcher, pickaxe.kind))
                    .collect(),
            };
            size = size.saturating_add(serde_json::to_string(&doc)?.len() + 1);
            commits.push(doc);
        }
        if size > budget {
            break;
        }
    }
    let rest: Vec<&OsStr> = argv.iter().skip(1).map(OsString::as_os_str).collect();
    let mut doc = Doc {
        raw: &ctx.raw_command,
        pickaxe: PickaxeDoc {
            kind: match pickaxe.kind {
                PickaxeKind::Occurrences => "occurrences",
                PickaxeKind::Regex => "regex",
            },
            term: &term,
            regex: is_regex && pickaxe.kind == PickaxeKind::Occurrences,
        },
        repo_path: repo.display_path().display().to_string(),
        range: shell::join(rest.iter().copied()),
        generated_at: &ctx.now,
        commits_listed: total,
        commits: Vec::new(),
        truncated: None,
    };
    let page = Page {
        offset,
        total,
        next: &|at| next_page(ctx, &CURSOR.encode(fp, at)),
    };
    fit(&mut doc, commits, &page, ctx.budget.less(1))?;
    Ok(serde_json::to_string(&doc)?)
}

/// Where a page sits in the listed commits.
struct Page<'a> {
    offset: usize,
    total: usize,
    next: &'a dyn Fn(usize) -> String,
}

/// Shows as many of the page's commits as fit the budget (at least one); the rest are on the
/// next page, which `truncated` names.
fn fit(
    doc: &mut Doc<'_>,
    commits: Vec<CommitDoc>,
    page: &Page<'_>,
    budget: Budget,
) -> Result<(), serde_json::Error> {
    let truncated = |shown: usize| {
        let end = page.offset + shown;
        (end < page.total).then(|| Truncated {
            commits_not_shown: page.total - end,
            next_page: (page.next)(end),
        })
    };
    let count = commits.len();
    // The commits not on this page are stated in `truncated`, which every rendering carries.
    let stages = [Stage::Window {
        least: 1.min(count),
        most: count,
        total: page.total - page.offset,
        holds: "one commit",
        note: Box::new(|shown, budget| Cut::Moved {
            entries: "commits",
            shown,
            budget,
        }),
    }];
    let fitted = budget::fit(Some(budget), &stages, |s| {
        doc.commits = commits[..s.get(0)].to_vec();
        doc.truncated = truncated(s.get(0));
        let len = serde_json::to_string(&*doc)?.len();
        Ok::<_, serde_json::Error>((s.get(0), len))
    })?;
    doc.commits = commits[..fitted.doc].to_vec();
    doc.truncated = truncated(fitted.doc);
    Ok(())
}

fn file_doc(objects: &Objects, f: &FileChange, matcher: &Matcher, kind: PickaxeKind) -> FileDoc {
    let read = |oid: &Option<Oid>| -> Option<Vec<u8>> {
        let oid = oid.as_ref()?;
        (objects.size(oid).ok()? <= crate::lang::MAX_FILE_BYTES as u64)
            .then(|| objects.blob(oid).ok())
            .flatten()
    };
    let regular = f.kind() == Kind::File && !f.binary;
    let (before, after) = if regular {
        (read(&f.oid_before), read(&f.oid_after))
    } else {
        (None, None)
    };
    let count = |content: &Option<Vec<u8>>| {
        content
            .as_ref()
            .map_or(0, |c| c.lines().map(|l| matcher.count(l)).sum())
    };
    let label = language::from_path(&f.path).filter(|l| crate::lang::for_language(*l).is_some());
    let functions = label.filter(|_| regular).map(|label| {
        let per = |content: &Option<Vec<u8>>| per_function(label, content.as_deref(), matcher);
        let (old, new) = (per(&before), per(&after));
        let names: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
        names
            .into_iter()
            .filter_map(|name| {
                let (a, b) = (old.get(name), new.get(name));
                let changed = match kind {
                    PickaxeKind::Occurrences => a.map_or(0, |x| x.0) != b.map_or(0, |x| x.0),
                    PickaxeKind::Regex => a.map(|x| &x.1) != b.map(|x| &x.1),
                };
                changed.then(|| FunctionDoc {
                    name: name.clone(),
                    occurrences_before: a.map_or(0, |x| x.0),
                    occurrences_after: b.map_or(0, |x| x.0),
                })
            })
            .collect()
    });
    FileDoc {
        path: f.path.to_str_lossy().into_owned(),
        change_type: render::change_type(f.status),
        occurrences_before: count(&before),
        occurrences_after: count(&after),
        functions,
    }
}

/// Per function (innermost): the number of occurrences and the matching lines (sorted).
fn per_function(
    language: Language,
    content: Option<&[u8]>,
    matcher: &Matcher,
) -> BTreeMap<String, (usize, Vec<BString>)> {
    let mut out: BTreeMap<String, (usize, Vec<BString>)> = BTreeMap::new();
    let Some(content) = content else { return out };
    let Some(analysis) = crate::lang::analyze(language, content) else {
        return out;
    };
    for (i, line) in content.lines().enumerate() {
        let n = matcher.count(line);
        if n == 0 {
            continue;
        }
        let number = i as u32 + 1;
        let innermost = analysis
            .functions
            .iter()
            .filter(|f| f.start_line <= number && number <= f.end_line)
            .min_by_key(|f| f.end_line - f.start_line);
        if let Some(f) = innermost {
            let entry = out.entry(f.name.clone()).or_default();
            entry.0 += n;
            entry.1.push(BString::from(line.trim()));
        }
    }
    for (_, lines) in out.values_mut() {
        lines.sort();
    }
    out
}
