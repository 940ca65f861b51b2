//! The error type of the git boundary, [`GitError`]: what failed, with its cause kept as the
//! source (gix's error, an I/O error) or quoted (the real git's stderr). gix's errors are
//! boxed ([`BoxedError`]) inside `src/git/` and nowhere else, so a change in gix's error types
//! touches this layer alone.

use std::path::PathBuf;

/// The error returned by repository access and by the real git.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// No repository at or above the directory.
    #[error("not a git repository: '{}'", path.display())]
    NotARepository {
        /// Where the search started.
        path: PathBuf,
        /// What gix reported (or that the directory does not exist).
        #[source]
        source: BoxedError,
    },
    /// The working directory no longer exists.
    #[error("cannot read the current directory")]
    NoCurrentDir(#[source] std::io::Error),
    /// A revision does not resolve.
    #[error("bad revision '{0}'")]
    BadRevision(String),
    /// A revision resolves to an object of the wrong kind.
    #[error("'{spec}' is a {kind}, not a commit")]
    NotACommit {
        /// The revision as given.
        spec: String,
        /// What it names.
        kind: String,
    },
    /// An argument is both a revision and a file, as git reports it.
    #[error("ambiguous argument '{0}': both revision and filename (use '--' to separate them)")]
    Ambiguous(String),
    /// An argument is neither a revision nor a path in the working tree.
    #[error("ambiguous argument '{0}': unknown revision or path not in the working tree")]
    UnknownArgument(String),
    /// The range form has no structured answer (combined diffs, blob diffs).
    #[error("unsupported range: {0}")]
    UnsupportedRange(String),
    /// Two commits share no history.
    #[error("no merge base between '{0}' and '{1}'")]
    NoMergeBase(String, String),
    /// An object could not be read.
    #[error("cannot read object {id}")]
    Object {
        /// The object id.
        id: String,
        /// What gix reported.
        #[source]
        source: BoxedError,
    },
    /// Reading a file of the working tree failed.
    #[error("cannot read '{}'", path.display())]
    Worktree {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The real git finds another repository than the one opened.
    #[error(
        "git finds another repository than '{}' here ({git}); git-prism answers only where both agree",
        ours.display()
    )]
    Disagreement {
        /// The repository opened (its working tree, or git dir if bare).
        ours: PathBuf,
        /// What git said: `rev-parse`'s git dir, common dir and top level (or its error), or
        /// a submodule's git dir.
        git: String,
    },
    /// The real git could not be found.
    #[error("cannot run git")]
    Locate(#[from] crate::locate::ResolveError),
    /// The real git could not be started, fed or waited for.
    #[error("cannot run git ({})", program.display())]
    Spawn {
        /// The real git.
        program: PathBuf,
        /// What the operating system reported.
        #[source]
        source: std::io::Error,
    },
    /// The real git failed.
    #[error("git {command} failed: {stderr}")]
    Command {
        /// The subcommand.
        command: String,
        /// Its standard error, trimmed.
        stderr: String,
        /// Its exit code, if it exited.
        code: Option<i32>,
    },
    /// Objects the answer needs are missing from a partial clone; git-prism never fetches them.
    #[error(
        "objects are missing from this partial clone and git-prism never fetches (run `git fetch` or the command with GIT_PRISM_INSIDE_SHIM=1): {stderr}"
    )]
    MissingObjects {
        /// git's standard error, trimmed.
        stderr: String,
    },
    /// The real git ran past its time limit and was stopped.
    #[error(
        "git {command} ran for more than {seconds} s and was stopped (GIT_PRISM_GIT_TIMEOUT sets the limit)"
    )]
    TimedOut {
        /// The subcommand.
        command: String,
        /// The limit.
        seconds: u64,
    },
    /// The real git exited, but a process it started still holds its output open.
    #[error("git {command} exited but a process it started still holds its output")]
    LeftRunning {
        /// The subcommand.
        command: String,
    },
    /// The real git printed more than the caller reads.
    #[error("git {command} printed more than {limit} bytes")]
    TooLarge {
        /// The subcommand.
        command: String,
        /// The most bytes read.
        limit: usize,
    },
    /// The real git printed something this parser does not understand.
    #[error("unexpected output from git {command}: {detail}")]
    Parse {
        /// The subcommand.
        command: String,
        /// What was wrong.
        detail: String,
    },
    /// Any other failure reported by gix.
    #[error("{context}")]
    Gix {
        /// What was being done.
        context: &'static str,
        /// What gix reported.
        #[source]
        source: BoxedError,
    },
}

/// A gix error, kept whole as the source of a [`GitError`] (boxed: gix has many error types,
/// and their refactors should not reach past this module).
pub type BoxedError = Box<dyn std::error::Error + Send + Sync + 'static>;

impl GitError {
    /// Wraps a gix error with what was being done.
    pub(crate) fn gix<E>(context: &'static str) -> impl FnOnce(E) -> GitError
    where
        E: std::error::Error + Send + Sync + 'static,
    {
        move |err| GitError::Gix {
            context,
            source: boxed(err),
        }
    }
}

/// A gix error, boxed as a [`GitError`]'s source, as the chain of causes says it to a person:
/// each cause's text, an I/O error in words ([`crate::text::io_words`]), and none of gix's
/// classification markers (a cause that prints only its class's name, `NotFound`).
pub(crate) fn boxed<E>(err: E) -> BoxedError
where
    E: std::error::Error + Send + Sync + 'static,
{
    let mut parts: Vec<String> = Vec::new();
    let mut next: Option<&(dyn std::error::Error + 'static)> = Some(&err);
    while let Some(cause) = next {
        if !cause.is::<gix::error::ClassificationMarker>() {
            let text = match cause.downcast_ref::<std::io::Error>() {
                Some(io) => crate::text::io_words(io),
                None => cause.to_string(),
            };
            // A wrapper that says the same as what it wraps adds nothing.
            if !parts.last().is_some_and(|p| p.ends_with(&text)) {
                parts.push(text);
            }
        }
        next = cause.source();
    }
    Box::new(Said(parts.join(": ")))
}

/// What [`boxed`] keeps of a gix error: its chain, said.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Said(String);

#[cfg(test)]
mod tests {
    use super::*;

    /// A repository that is not found is said in words, never by gix's class name.
    #[test]
    fn gix_s_classification_is_not_said() {
        let dir = tempfile::tempdir().unwrap();
        let err = gix::discover(dir.path()).err();
        if let Some(err) = err {
            let said = crate::text::chain(&GitError::NotARepository {
                path: dir.path().to_owned(),
                source: boxed(err),
            });
            assert!(!said.contains("NotFound"), "{said}");
        }
    }
}
