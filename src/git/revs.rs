//! Revisions and ranges, read as git reads them.
//!
//! A `git diff` command line's positional arguments are revisions or paths; which is which
//! is decided against the repository exactly as git decides it: before `--`, an argument that
//! resolves is a revision (and must not also be a file, or git calls it ambiguous); the first
//! one that does not resolve starts the paths, which must then exist (or look like a pathspec).
//! Range forms (`A..B`, `A...B`, `A^!`, `^A B`, one revision, none, `--cached`,
//! `--merge-base`) become a [`Target`]: the two sides to compare, resolved to object ids, and
//! the revision arguments to give the real git, so the facts git computes are for exactly the
//! objects named in the metadata. Revisions are resolved with gix; a form gix does not know
//! (an upstream of a local branch, for one) is asked of the real git (`rev-parse --verify`)
//! before it is called bad.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;

use bstr::ByteSlice;

use super::{GitError, Repo};
use crate::oid::Oid;
use crate::request::Diff;

pub use crate::oid::EMPTY_TREE;

/// What the right-hand side of a diff is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Head {
    /// A commit or tree.
    Object,
    /// The index (`--cached`).
    Index,
    /// The working tree.
    Worktree,
}

/// Two resolved sides of a diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The base as the caller named it (`main`, `merge-base(main, HEAD)`, `INDEX`).
    pub base_ref: String,
    /// The base object (`None` when the base is the index, or an unborn `HEAD`).
    pub base_sha: Option<Oid>,
    /// The head as the caller named it (`HEAD`, `WORKTREE`, `INDEX`).
    pub head_ref: String,
    /// The head object, when the head is a commit or tree.
    pub head_sha: Option<Oid>,
    /// What the head is.
    pub head: Head,
    /// The revision arguments for `git diff` (resolved ids, `--cached`).
    pub diff_args: Vec<OsString>,
}

/// A resolved object: its id and whether it is a commit (else a tree).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// Its id.
    pub sha: Oid,
    /// Whether it is a commit (trees are allowed on both sides of a diff).
    pub is_commit: bool,
}

impl Repo {
    /// Resolves a revision to a commit or tree, peeling tags.
    pub fn resolve(&self, spec: &OsStr) -> Result<Resolved, GitError> {
        if spec.as_bytes() == EMPTY_TREE.as_bytes() {
            // git knows the empty tree without storing it; so do we.
            return Ok(Resolved {
                sha: Oid::empty_tree(),
                is_commit: false,
            });
        }
        let repo = self.local();
        let text = spec.as_bytes();
        let bad = || GitError::BadRevision(spec.to_string_lossy().into_owned());
        if text.is_empty() || text.starts_with(b"-") {
            return Err(bad());
        }
        let id = match repo.rev_parse_single(text.as_bstr()) {
            Ok(id) => id.detach(),
            // gix does not know every revision form git does (an upstream on a local branch,
            // for one): ask the real git before calling the revision bad.
            Err(_) => self.rev_parse_with_git(spec).ok_or_else(bad)?,
        };
        let object = repo
            .find_object(id)
            .and_then(|o| o.peel_tags_to_end())
            .map_err(|_| bad())?;
        match object.kind {
            gix::object::Kind::Commit => Ok(Resolved {
                sha: super::object::from_gix(object.id),
                is_commit: true,
            }),
            gix::object::Kind::Tree => Ok(Resolved {
                sha: super::object::from_gix(object.id),
                is_commit: false,
            }),
            kind => Err(GitError::NotACommit {
                spec: spec.to_string_lossy().into_owned(),
                kind: kind.to_string(),
            }),
        }
    }

    /// Resolves `spec` with `git rev-parse --verify`.
    fn rev_parse_with_git(&self, spec: &OsStr) -> Option<gix::ObjectId> {
        let out = self
            .git
            .output([
                OsStr::new("rev-parse"),
                OsStr::new("--verify"),
                OsStr::new("--quiet"),
                OsStr::new("--end-of-options"),
                spec,
            ])
            .ok()?;
        gix::ObjectId::from_hex(out.trim_ascii()).ok()
    }

    /// Resolves a revision that must be a commit.
    pub fn resolve_commit(&self, spec: &OsStr) -> Result<Oid, GitError> {
        let resolved = self.resolve(spec)?;
        if !resolved.is_commit {
            return Err(GitError::NotACommit {
                spec: spec.to_string_lossy().into_owned(),
                kind: "tree".into(),
            });
        }
        Ok(resolved.sha)
    }

    /// Returns the best merge base of two commits.
    pub fn merge_base(&self, a: &Oid, b: &Oid) -> Result<Oid, GitError> {
        let repo = self.local();
        let id = |oid: &Oid| {
            super::object::to_gix(oid).ok_or_else(|| GitError::BadRevision(oid.to_string()))
        };
        repo.merge_base(id(a)?, id(b)?)
            .map_err(GitError::gix("computing a merge base"))?
            .map(|id| super::object::from_gix(id.detach()))
            .ok_or_else(|| GitError::NoMergeBase(a.to_string(), b.to_string()))
    }

    /// Returns whether the repository has the object `oid`.
    pub fn has_object(&self, oid: &Oid) -> bool {
        super::object::to_gix(oid).is_some_and(|id| self.local().has_object(id))
    }

    /// Returns the parents of a commit.
    pub fn parents(&self, commit: &Oid) -> Result<Vec<Oid>, GitError> {
        let repo = self.local();
        let id = super::object::to_gix(commit)
            .ok_or_else(|| GitError::BadRevision(commit.to_string()))?;
        let commit = repo
            .find_commit(id)
            .map_err(GitError::gix("reading a commit"))?;
        Ok(commit
            .parent_ids()
            .map(|p| super::object::from_gix(p.detach()))
            .collect())
    }

    /// Returns whether `arg` names something in the working directory (for git's ambiguity
    /// rules).
    fn exists_here(&self, arg: &OsStr) -> bool {
        std::fs::symlink_metadata(self.dir.join(arg)).is_ok()
    }

    /// Splits a `git diff` command line into its target and pathspecs, as git would.
    pub fn diff_target(&self, diff: &Diff) -> Result<(Target, Vec<OsString>), GitError> {
        let mut revs: Vec<RevArg> = Vec::new();
        let mut paths: Vec<OsString> = Vec::new();
        for arg in &diff.positional {
            if paths.is_empty() {
                match self.rev_arg(arg) {
                    Ok(rev) => {
                        if !diff.separator && self.exists_here(arg) {
                            return Err(GitError::Ambiguous(arg.to_string_lossy().into_owned()));
                        }
                        revs.push(rev);
                        continue;
                    }
                    Err(err) if diff.separator => return Err(err),
                    Err(_) => {}
                }
            }
            if !diff.separator && !looks_like_pathspec(arg) && !self.exists_here(arg) {
                return Err(GitError::UnknownArgument(
                    arg.to_string_lossy().into_owned(),
                ));
            }
            paths.push(arg.clone());
        }
        paths.extend(diff.paths.iter().cloned());
        let target = self.target(&revs, diff.cached, diff.merge_base)?;
        Ok((target, paths))
    }

    fn rev_arg(&self, arg: &OsStr) -> Result<RevArg, GitError> {
        let bytes = arg.as_bytes();
        let side = |b: &[u8]| -> Result<(String, Resolved), GitError> {
            let spec: &[u8] = if b.is_empty() { b"HEAD" } else { b };
            let name = String::from_utf8_lossy(spec).into_owned();
            Ok((name, self.resolve(OsStr::from_bytes(spec))?))
        };
        if let Some(at) = bytes.find("...") {
            let (a, b) = (&bytes[..at], &bytes[at + 3..]);
            return Ok(RevArg::Symmetric(side(a)?, side(b)?));
        }
        if let Some(at) = bytes.find("..") {
            let (a, b) = (&bytes[..at], &bytes[at + 2..]);
            return Ok(RevArg::Range(side(a)?, side(b)?));
        }
        if let Some(base) = bytes.strip_suffix(b"^!") {
            return Ok(RevArg::ParentOf(side(base)?));
        }
        if let Some(neg) = bytes.strip_prefix(b"^") {
            return Ok(RevArg::Negative(side(neg)?));
        }
        if bytes.ends_with(b"^@") || bytes.contains_str("^-") {
            return Err(GitError::UnsupportedRange(
                arg.to_string_lossy().into_owned(),
            ));
        }
        Ok(RevArg::Single(side(bytes)?))
    }

    fn target(&self, revs: &[RevArg], cached: bool, merge_base: bool) -> Result<Target, GitError> {
        let unsupported = |what: &str| Err(GitError::UnsupportedRange(what.to_owned()));
        let objects = |base: (String, Oid), head: (String, Oid)| Target {
            base_ref: base.0,
            diff_args: vec![base.1.as_str().into(), head.1.as_str().into()],
            base_sha: Some(base.1),
            head_ref: head.0,
            head_sha: Some(head.1),
            head: Head::Object,
        };
        let against_tree = |(name, sha): (String, Oid), cached: bool| Target {
            base_ref: name,
            diff_args: if cached {
                vec!["--cached".into(), sha.as_str().into()]
            } else {
                vec![sha.as_str().into()]
            },
            base_sha: Some(sha),
            head_ref: if cached { "INDEX" } else { "WORKTREE" }.into(),
            head_sha: None,
            head: if cached { Head::Index } else { Head::Worktree },
        };
        match (revs, cached, merge_base) {
            ([], false, false) => Ok(Target {
                base_ref: "INDEX".into(),
                base_sha: None,
                head_ref: "WORKTREE".into(),
                head_sha: None,
                head: Head::Worktree,
                diff_args: Vec::new(),
            }),
            ([], true, false) => match self.resolve(OsStr::new("HEAD")) {
                Ok(head) => Ok(against_tree(("HEAD".into(), head.sha), true)),
                // An unborn branch: the index against the empty tree, as git does.
                Err(_) => Ok(Target {
                    base_ref: "HEAD".into(),
                    base_sha: None,
                    head_ref: "INDEX".into(),
                    head_sha: None,
                    head: Head::Index,
                    diff_args: vec!["--cached".into()],
                }),
            },
            ([], _, true) => unsupported("--merge-base needs a revision"),
            ([RevArg::Single((name, r))], cached, false) => {
                Ok(against_tree((name.clone(), r.sha.clone()), cached))
            }
            ([RevArg::Single((name, r))], cached, true) => {
                let head = self.resolve_commit(OsStr::new("HEAD"))?;
                let base = self.merge_base(&self.commit_of(name, r)?, &head)?;
                Ok(against_tree(
                    (format!("merge-base({name}, HEAD)"), base),
                    cached,
                ))
            }
            (_, true, _) if !revs.is_empty() && revs.len() > 1 => {
                unsupported("--cached takes at most one revision")
            }
            ([RevArg::Range(a, b)], false, false) => Ok(objects(
                (a.0.clone(), a.1.sha.clone()),
                (b.0.clone(), b.1.sha.clone()),
            )),
            ([RevArg::Symmetric(a, b)], false, false)
            | ([RevArg::Single(a), RevArg::Single(b)], false, true) => {
                let base =
                    self.merge_base(&self.commit_of(&a.0, &a.1)?, &self.commit_of(&b.0, &b.1)?)?;
                Ok(objects(
                    (format!("merge-base({}, {})", a.0, b.0), base),
                    (b.0.clone(), b.1.sha.clone()),
                ))
            }
            ([RevArg::ParentOf((name, r))], false, false) => {
                let sha = self.commit_of(name, r)?;
                let parents = self.parents(&sha)?;
                match parents.as_slice() {
                    [parent] => Ok(objects(
                        (format!("{name}^"), parent.clone()),
                        (name.clone(), sha),
                    )),
                    [] => unsupported("a root commit has no parent to diff against"),
                    _ => unsupported("the combined diff of a merge has no structured answer"),
                }
            }
            ([RevArg::Single(a), RevArg::Single(b)], false, false) => Ok(objects(
                (a.0.clone(), a.1.sha.clone()),
                (b.0.clone(), b.1.sha.clone()),
            )),
            ([RevArg::Negative(a), RevArg::Single(b)], false, false)
            | ([RevArg::Single(b), RevArg::Negative(a)], false, false) => Ok(objects(
                (a.0.clone(), a.1.sha.clone()),
                (b.0.clone(), b.1.sha.clone()),
            )),
            _ => unsupported("this combination of revisions"),
        }
    }

    fn commit_of(&self, name: &str, r: &Resolved) -> Result<Oid, GitError> {
        if r.is_commit {
            Ok(r.sha.clone())
        } else {
            Err(GitError::NotACommit {
                spec: name.to_owned(),
                kind: "tree".into(),
            })
        }
    }
}

/// One revision argument of a diff.
#[derive(Debug)]
enum RevArg {
    Single((String, Resolved)),
    Negative((String, Resolved)),
    Range((String, Resolved), (String, Resolved)),
    Symmetric((String, Resolved), (String, Resolved)),
    ParentOf((String, Resolved)),
}

/// Returns whether git would accept `arg` as a pathspec without the file existing: pathspec
/// magic (`:(glob)...`, `:!x`) or a wildcard.
fn looks_like_pathspec(arg: &OsStr) -> bool {
    let b = arg.as_bytes();
    b.starts_with(b":") || b.iter().any(|c| matches!(c, b'*' | b'?' | b'[' | b'\\'))
}
