//! Work done while the real git computes the facts.
//!
//! `git diff --numstat` spends most of its time diffing blobs. Meanwhile this process has
//! cores to spare, so for commit-to-commit targets it runs its own quick tree diff (no rename
//! detection: renames only change how git pairs the same blobs) and works, by object id, on what
//! enrichment will ask for: the first bytes of every changed blob, the parsed declarations of
//! every changed dependency file, and the function analysis of every changed file in a supported
//! language. Results are keyed by object id, so git's pairing, which arrives later and is
//! authoritative, decides how they are used; an id the quick diff did not see is simply worked
//! on later.
//!
//! Scheduling: [`ReadAhead::start`] puts all but one core to work while git runs;
//! [`ReadAhead::finish`] adds the calling thread once git is done and collects the results.
//!
//! Bounds: a change of more than [`MAX_BLOBS`] blobs is not read ahead at all, only the first
//! [`KEEP_BYTES`] of each blob are kept, function analyses run only when the manifest asks for
//! functions and within the caller's analysis deadline, and nothing is read ahead for
//! pathspec-limited, index or working-tree targets. If git fails, [`ReadAhead::cancel`] stops
//! the workers.

use std::collections::HashMap;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::ScopedJoinHandle;

use bstr::ByteSlice;

use super::{generated, language};
use crate::deps;
use crate::git::repo::Objects;
use crate::git::revs::{Head, Target};
use crate::git::{Oid, Repo};
use crate::lang::{self, Analysis, Language};

/// At most this many changed blobs are read ahead.
pub const MAX_BLOBS: usize = 20_000;

/// How many bytes of each blob are kept (markers, shebangs, binary sniffing).
pub const KEEP_BYTES: usize = 8000;

/// Blobs larger than this are not read ahead (unless they are dependency files).
const SIZE_LIMIT: u64 = 2 * 1024 * 1024;

/// A dependency file's parsed declarations.
type Declarations = Result<Vec<deps::Declaration>, deps::ParseError>;

/// What was worked out ahead, by object id.
#[derive(Debug, Default)]
pub struct Prefetched {
    heads: HashMap<String, Vec<u8>>,
    declarations: HashMap<(String, deps::Format), Declarations>,
    analyses: HashMap<(String, Language), Analysis>,
}

impl Prefetched {
    /// Returns the first bytes of a blob, if read ahead.
    pub fn head(&self, oid: &str) -> Option<&[u8]> {
        self.heads.get(oid).map(Vec::as_slice)
    }

    /// Returns a dependency file's parsed declarations, if read ahead.
    pub fn declarations(&self, oid: &str, format: deps::Format) -> Option<&Declarations> {
        self.declarations.get(&(oid.to_owned(), format))
    }

    /// Returns a blob's function analysis for a language, if done ahead.
    pub fn analysis(&self, oid: &str, language: Language) -> Option<&Analysis> {
        self.analyses.get(&(oid.to_owned(), language))
    }
}

/// One changed path found by the quick tree diff: its blob before and after, and what to do
/// with them.
struct Job {
    old: Option<Oid>,
    new: Option<Oid>,
    dependency: Option<deps::Format>,
    analyzer: Option<Language>,
    generated_path: bool,
}

/// What was done for one blob.
#[derive(Default)]
struct Side {
    head: Option<Vec<u8>>,
    declarations: Option<(deps::Format, Declarations)>,
    analysis: Option<(Language, Analysis)>,
}

/// What was done for one job: a side per blob id.
type Done = Vec<(String, Side)>;

/// The jobs and their results, shared by the worker threads.
pub struct Queue {
    jobs: Vec<Job>,
    next: AtomicUsize,
    done: Vec<OnceLock<Done>>,
}

impl Queue {
    fn work(&self, repo: &Repo, deadline: Option<std::time::Instant>) {
        let objects = repo.objects();
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(job) = self.jobs.get(i) else { break };
            let _ = self.done[i].set(lang::within(deadline, || run_job(&objects, job)));
        }
    }
}

/// Read-ahead in progress.
pub struct ReadAhead<'scope> {
    queue: Option<std::sync::Arc<Queue>>,
    workers: Vec<ScopedJoinHandle<'scope, ()>>,
}

impl<'scope> ReadAhead<'scope> {
    /// Starts reading ahead for `target` on all cores but one.
    pub fn start<'env>(
        scope: &'scope std::thread::Scope<'scope, 'env>,
        repo: &'env Repo,
        target: &Target,
        limited: bool,
        functions: bool,
    ) -> ReadAhead<'scope> {
        let none = ReadAhead {
            queue: None,
            workers: Vec::new(),
        };
        if target.head != Head::Object || limited {
            return none;
        }
        let (Some(base), Some(head)) = (&target.base_sha, &target.head_sha) else {
            return none;
        };
        let jobs = match changed_blobs(repo, base, head, functions) {
            Some(jobs) if jobs.len() <= MAX_BLOBS && !jobs.is_empty() => jobs,
            _ => return none,
        };
        let queue = std::sync::Arc::new(Queue {
            done: (0..jobs.len()).map(|_| OnceLock::new()).collect(),
            jobs,
            next: AtomicUsize::new(0),
        });
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        // One worker that cannot start leaves its share to the others (and to enrichment,
        // which reads what is missing). They analyse within the caller's deadline.
        let deadline = lang::deadline();
        let workers = (0..cores.saturating_sub(1).max(1))
            .filter_map(|_| {
                let queue = std::sync::Arc::clone(&queue);
                std::thread::Builder::new()
                    .name("read-ahead".into())
                    .spawn_scoped(scope, move || queue.work(repo, deadline))
                    .ok()
            })
            .collect();
        ReadAhead {
            queue: Some(queue),
            workers,
        }
    }

    /// Stops the workers (git failed: nothing will be used) and waits for them.
    pub fn cancel(self) {
        if let Some(queue) = &self.queue {
            queue.next.store(usize::MAX / 2, Ordering::Relaxed);
        }
        for worker in self.workers {
            let _ = worker.join();
        }
    }

    /// Helps with what is left (git is done), waits for the workers, and collects.
    pub fn finish(self, repo: &Repo) -> Prefetched {
        let Some(queue) = self.queue else {
            return Prefetched::default();
        };
        queue.work(repo, lang::deadline());
        for worker in self.workers {
            let _ = worker.join();
        }
        let mut out = Prefetched::default();
        // Every worker has been joined, so this is the last handle on the queue.
        let Ok(queue) = std::sync::Arc::try_unwrap(queue) else {
            return out;
        };
        for done in queue.done.into_iter().filter_map(OnceLock::into_inner) {
            for (hex, side) in done {
                if let Some((format, parsed)) = side.declarations {
                    out.declarations.insert((hex.clone(), format), parsed);
                }
                if let Some((label, analysis)) = side.analysis {
                    out.analyses.insert((hex.clone(), label), analysis);
                }
                if let Some(head) = side.head {
                    out.heads.insert(hex, head);
                }
            }
        }
        out
    }
}

/// The input [`lang::analyze_versions`] takes for one side that was read.
fn as_input(
    side: &Result<Option<(String, Vec<u8>)>, Box<Analysis>>,
) -> Option<(Option<&str>, &[u8])> {
    match side {
        Ok(Some((oid, content))) => Some((Some(oid.as_str()), content.as_slice())),
        _ => None,
    }
}

fn run_job(objects: &Objects, job: &Job) -> Done {
    let read = |oid: &Option<Oid>| -> Option<(String, u64, Option<Vec<u8>>)> {
        let oid = oid.as_ref()?;
        let size = objects.size(oid).ok()?;
        let keep = size <= SIZE_LIMIT || job.dependency.is_some();
        Some((
            oid.to_string(),
            size,
            keep.then(|| objects.blob(oid).ok()).flatten(),
        ))
    };
    let (old, new) = (read(&job.old), read(&job.new));
    let mut sides: Vec<(String, Side)> = Vec::new();
    let mut analyses: Vec<Option<Analysis>> = vec![None, None];
    if let Some(label) = job.analyzer {
        let generated = job.generated_path
            || [&old, &new].iter().any(|s| {
                s.as_ref()
                    .and_then(|(_, _, c)| c.as_deref())
                    .is_some_and(generated::has_marker)
            });
        let too_large = |size: u64| {
            Analysis::skipped(format!(
                "file too large ({size} bytes, limit {})",
                lang::MAX_FILE_BYTES
            ))
        };
        // Generated files are not analysed (the manifest skips them): do not parse them.
        if !generated {
            let side = |s: &Option<(String, u64, Option<Vec<u8>>)>| -> Result<Option<(String, Vec<u8>)>, Box<Analysis>> {
                match s {
                    None => Ok(None),
                    Some((_, size, _)) if *size > lang::MAX_FILE_BYTES as u64 => Err(Box::new(too_large(*size))),
                    Some((oid, _, Some(content))) => Ok(Some((oid.clone(), content.clone()))),
                    Some(_) => Ok(None),
                }
            };
            let (a, b) = (side(&old), side(&new));
            let (x, y) = lang::analyze_versions(label, as_input(&a), as_input(&b));
            analyses = vec![a.err().map(|e| *e).or(x), b.err().map(|e| *e).or(y)];
        }
    }
    for (i, side) in [old, new].into_iter().enumerate() {
        let Some((oid, _, content)) = side else {
            continue;
        };
        let mut out = Side {
            analysis: job.analyzer.zip(analyses[i].take()),
            ..Side::default()
        };
        if let Some(content) = content {
            if let Some(format) = job.dependency {
                out.declarations = Some((format, deps::parse(format, &content)));
            }
            let mut head = content;
            head.truncate(KEEP_BYTES.max(generated::MARKER_WINDOW));
            out.head = Some(head);
        }
        sides.push((oid, out));
    }
    sides
}

/// Lists the blobs on either side of a quick, rename-free tree diff, and what to do with each.
fn changed_blobs(repo: &Repo, base: &Oid, head: &Oid, functions: bool) -> Option<Vec<Job>> {
    let mut jobs: Vec<Job> = repo
        .objects()
        .changed_blobs(base, head)?
        .into_iter()
        .map(|change| {
            let path = change.path.as_bstr();
            let analyzer = if functions {
                language::from_path(path).filter(|l| lang::for_language(*l).is_some())
            } else {
                None
            };
            Job {
                dependency: deps::Format::of(path),
                analyzer,
                generated_path: generated::by_path(path).is_some(),
                old: change.old,
                new: change.new,
            }
        })
        .collect();
    // Parse-heavy jobs first: they are the long pole.
    jobs.sort_by_key(|j| j.analyzer.is_none());
    Some(jobs)
}
