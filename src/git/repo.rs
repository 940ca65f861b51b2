//! Opening the repository a command refers to, as git would find it.
//!
//! Discovery follows git: start from the working directory after every `-C`, honour
//! `--git-dir` / `GIT_DIR`, `--work-tree` / `GIT_WORK_TREE`, `--bare`,
//! `GIT_CEILING_DIRECTORIES`, linked worktrees and bare repositories. gix discovers and opens
//! the repository (its default permissions do not read the git installation's configuration
//! through the binary); then the real git is asked (`rev-parse`) which git dir, common dir and
//! work tree it reads there, and any disagreement is an error, since every check made on gix's
//! repository must hold for the one git reads. Each populated submodule's git dir is found the
//! same way (at most `MAX_SUBMODULES`, nested at most `MAX_SUBMODULE_DEPTH` deep), so its
//! filter drivers can be neutralised too. Nothing from the repository is executed.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use std::os::unix::ffi::OsStrExt;

use super::real::Invocation;
use super::{BoxedError, GitError};
use crate::oid::Oid;

/// Where a command looks for its repository.
#[derive(Clone, Debug, Default)]
pub struct Location {
    /// The process's working directory.
    pub cwd: PathBuf,
    /// `-C` arguments in order.
    pub chdir: Vec<OsString>,
    /// `--git-dir`.
    pub git_dir: Option<OsString>,
    /// `--work-tree`.
    pub work_tree: Option<OsString>,
    /// `--bare`.
    pub bare: bool,
    /// The global options to give the real git, verbatim.
    pub globals: Vec<OsString>,
}

impl Location {
    /// The current directory with no global options.
    pub fn current() -> Result<Location, GitError> {
        Ok(Location {
            cwd: std::env::current_dir().map_err(GitError::NoCurrentDir)?,
            ..Location::default()
        })
    }

    /// A repository at or above `path` (like `git -C <path>`).
    pub fn at(path: &Path) -> Result<Location, GitError> {
        let mut loc = Location::current()?;
        loc.chdir.push(path.as_os_str().to_owned());
        loc.globals.push("-C".into());
        loc.globals.push(path.as_os_str().to_owned());
        Ok(loc)
    }

    /// Returns the directory git would be in after every `-C`.
    pub fn effective_dir(&self) -> PathBuf {
        let mut dir = self.cwd.clone();
        for c in &self.chdir {
            if !c.is_empty() {
                dir = dir.join(c);
            }
        }
        dir
    }
}

/// The reason a directory that does not exist is no repository.
#[derive(Debug, thiserror::Error)]
#[error("no such directory")]
struct NoSuchDirectory;

/// An open repository and the means to ask the real git about it.
pub struct Repo {
    inner: gix::ThreadSafeRepository,
    /// How to run the real git against this repository (through [`super::commands`] and the
    /// modules of `src/git/` that ask git for metadata).
    pub(super) git: Invocation,
    /// The directory the caller's relative paths are relative to.
    pub dir: PathBuf,
    /// The working tree, as the real git sees it.
    workdir: Option<PathBuf>,
    /// The git dirs of the populated submodules (git runs in each of them).
    submodule_git_dirs: Vec<PathBuf>,
}

/// The configuration override that switches replace objects off, when asked for.
fn no_replace_override(no_replace: bool) -> Vec<bstr::BString> {
    if no_replace {
        vec!["core.useReplaceRefs=false".into()]
    } else {
        Vec::new()
    }
}

/// A checked-out submodule: where git runs in it, and the git dir it reads there.
struct Submodule {
    workdir: PathBuf,
    git_dir: PathBuf,
}

impl Repo {
    /// Opens the repository described by `location`.
    pub fn open(location: &Location) -> Result<Repo, GitError> {
        Repo::open_with(location, false)
    }

    /// Opens the repository at `location` for a question its replace objects must not change
    /// (`verify`: `git replace --graft <remote tip> HEAD` would make an unpushed commit look
    /// pushed): gix and every git command it runs ignore `refs/replace/`.
    pub fn open_ignoring_replacements(location: &Location) -> Result<Repo, GitError> {
        Repo::open_with(location, !crate::confine::test_rule_off("verify-replace"))
    }

    fn open_with(location: &Location, no_replace: bool) -> Result<Repo, GitError> {
        let dir = location.effective_dir();
        if !dir.is_dir() {
            return Err(GitError::NotARepository {
                path: dir,
                source: Box::new(NoSuchDirectory),
            });
        }
        let env_dir = |var: &str| std::env::var_os(var).filter(|v| !v.is_empty());
        let git_dir = location
            .git_dir
            .clone()
            .or_else(|| env_dir("GIT_DIR"))
            .or_else(|| location.bare.then(|| ".".into()));
        let work_tree = location
            .work_tree
            .clone()
            .or_else(|| env_dir("GIT_WORK_TREE"));
        let not_a_repo = |source: BoxedError| GitError::NotARepository {
            path: dir.clone(),
            source,
        };
        let inner = match git_dir {
            Some(git_dir) => {
                let git_dir = dir.join(git_dir);
                let mut overrides = Vec::new();
                if let Some(tree) = &work_tree {
                    let tree = dir.join(tree);
                    let mut value = bstr::BString::from("core.worktree=");
                    value.extend_from_slice(tree.as_os_str().as_encoded_bytes());
                    overrides.push(value);
                }
                if location.bare {
                    overrides.push("core.bare=true".into());
                }
                if no_replace {
                    overrides.push("core.useReplaceRefs=false".into());
                }
                let options = gix::open::Options::default().cli_overrides(overrides);
                gix::open_opts(git_dir, options)
                    .map(gix::Repository::into_sync)
                    .map_err(|e| not_a_repo(super::error::boxed(e)))?
            }
            None => {
                let mut trust: gix::sec::trust::Mapping<gix::open::Options> = Default::default();
                trust
                    .full
                    .modify(|o| o.cli_overrides(no_replace_override(no_replace)));
                trust
                    .reduced
                    .modify(|o| o.cli_overrides(no_replace_override(no_replace)));
                gix::ThreadSafeRepository::discover_opts(
                    &dir,
                    gix::discover::upwards::Options::default().apply_environment(),
                    trust,
                )
                .map_err(|e| not_a_repo(super::error::boxed(e)))?
            }
        };
        let mut git = Invocation::locate(location.cwd.clone(), location.globals.clone())?;
        if no_replace {
            git.ignore_replace_objects();
        }
        let workdir = agree_with_git(&inner, &git)?;
        let submodules = populated_submodules(&inner.to_thread_local(), workdir.as_deref(), &git)?;
        git.set_submodules(submodules.iter().map(|s| s.workdir.clone()).collect());
        Ok(Repo {
            inner,
            git,
            dir,
            workdir,
            submodule_git_dirs: submodules.into_iter().map(|s| s.git_dir).collect(),
        })
    }

    /// Returns a gix handle for the calling thread (gix stays inside `src/git/`).
    pub(in crate::git) fn local(&self) -> gix::Repository {
        self.inner.to_thread_local()
    }

    /// Returns an object reader for the calling thread (one per thread, as gix handles are).
    pub fn objects(&self) -> Objects {
        Objects { repo: self.local() }
    }

    /// Returns the git dirs of the populated submodules, nested ones included.
    pub fn submodule_git_dirs(&self) -> &[PathBuf] {
        &self.submodule_git_dirs
    }

    /// Returns the working tree as the real git sees it, if the repository has one.
    pub fn workdir(&self) -> Option<&Path> {
        self.workdir.as_deref()
    }

    /// Returns the index file git reads (`GIT_INDEX_FILE` or the git dir's `index`), if the
    /// repository has a working tree.
    pub fn index_path(&self) -> Option<PathBuf> {
        self.workdir()?;
        match std::env::var_os("GIT_INDEX_FILE").filter(|v| !v.is_empty()) {
            // git reads a relative GIT_INDEX_FILE from the directory it ends up in after `-C`.
            Some(file) => Some(self.dir.join(file)),
            None => Some(self.local().index_path()),
        }
    }

    /// Returns the `.git` directory.
    pub fn git_dir(&self) -> &Path {
        self.inner.git_dir()
    }

    /// Returns the common directory: in a linked worktree, the main repository's git dir
    /// (named by the `commondir` file); otherwise the git dir.
    pub fn common_dir(&self) -> PathBuf {
        self.local().common_dir().to_owned()
    }

    /// Returns the directory objects are read from.
    pub fn objects_dir(&self) -> &Path {
        self.inner.objects_dir()
    }

    /// Returns every alternate object directory objects may also be read from
    /// (`objects/info/alternates`, followed recursively, as git follows it).
    pub fn alternates(&self) -> Result<Vec<PathBuf>, GitError> {
        let local = self.local();
        gix::odb::alternate::resolve(self.objects_dir().to_owned(), local.current_dir()).map_err(
            |e| GitError::Gix {
                context: "reading objects/info/alternates",
                source: super::error::boxed(e),
            },
        )
    }

    /// Returns the path to show for the repository: its working tree, or its git dir if bare.
    pub fn display_path(&self) -> &Path {
        self.workdir().unwrap_or_else(|| self.git_dir())
    }
}

/// Checks that the real git reads the repository gix opened (its git dir, its common dir, a
/// work tree where gix sees one, asked of git through [`super::probe::locations`]) and returns
/// the work tree as git names it.
fn agree_with_git(
    inner: &gix::ThreadSafeRepository,
    git: &Invocation,
) -> Result<Option<PathBuf>, GitError> {
    let disagreement = |git: String| GitError::Disagreement {
        ours: inner.work_dir().unwrap_or_else(|| inner.path()).to_owned(),
        git,
    };
    let Some(found) = super::probe::locations(git, false)? else {
        return Err(disagreement("git finds no repository here".into()));
    };
    // The common dir too: gix trims a linked worktree's `commondir` of trailing spaces, git
    // does not, and refs, config and objects come from it.
    let local = inner.to_thread_local();
    if !same_dir(inner.path(), &found.git_dir)
        || !same_dir(local.common_dir(), &found.common_dir)
        || inner.work_dir().is_some() != found.toplevel.is_some()
    {
        return Err(disagreement(format!(
            "{} (common dir {}{})",
            found.git_dir.display(),
            found.common_dir.display(),
            found
                .toplevel
                .as_ref()
                .map(|t| format!(", work tree {}", t.display()))
                .unwrap_or_default()
        )));
    }
    Ok(found.toplevel)
}

/// Whether two paths name the same existing directory once every link is resolved.
fn same_dir(ours: &Path, theirs: &Path) -> bool {
    match (std::fs::canonicalize(ours), std::fs::canonicalize(theirs)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// How deep nested submodules are followed; a repository with deeper ones is refused.
const MAX_SUBMODULE_DEPTH: usize = 8;
/// The most populated submodules followed; a repository with more is refused.
const MAX_SUBMODULES: usize = 256;

/// Returns the work-tree directories of the repository's populated submodules, nested ones
/// included: git runs `git status` in each to see whether it is dirty, with the submodule's
/// own configuration, so their filter drivers must be known too.
fn populated_submodules(
    repo: &gix::Repository,
    workdir: Option<&Path>,
    git: &Invocation,
) -> Result<Vec<Submodule>, GitError> {
    let mut found = Vec::new();
    let mut pending = vec![(repo.clone(), workdir.map(Path::to_path_buf), 0)];
    while let Some((repo, workdir, depth)) = pending.pop() {
        let Some(workdir) = workdir else {
            continue;
        };
        let index = repo.index_or_empty().map_err(|e| GitError::Gix {
            context: "reading the index",
            source: super::error::boxed(e),
        })?;
        for entry in index.entries() {
            if entry.mode != gix::index::entry::Mode::COMMIT {
                continue;
            }
            let path = workdir.join(std::ffi::OsStr::from_bytes(entry.path(&index)));
            // Only a checked-out submodule has a git of its own to run.
            if std::fs::symlink_metadata(path.join(".git")).is_err() {
                continue;
            }
            if found.len() == MAX_SUBMODULES {
                return Err(GitError::UnsupportedRange(format!(
                    "more than {MAX_SUBMODULES} populated submodules"
                )));
            }
            // Nothing below is left unlisted: a submodule nested too deep, or one whose own
            // submodules cannot be read, refuses the answer (git would still run in it).
            if depth + 1 > MAX_SUBMODULE_DEPTH {
                return Err(GitError::UnsupportedRange(format!(
                    "submodules nested more than {MAX_SUBMODULE_DEPTH} deep"
                )));
            }
            let sub = gix::open(&path).map_err(|e| GitError::Gix {
                context: "opening a populated submodule",
                source: super::error::boxed(e),
            })?;
            // The index read for nested submodules must be the one git reads: gix and git
            // parse a `.git` file differently (gix trims trailing spaces from its path).
            let theirs = git.submodule_git_dir(&path)?;
            if !same_dir(sub.path(), &theirs) {
                return Err(GitError::Disagreement {
                    ours: path,
                    git: theirs.display().to_string(),
                });
            }
            found.push(Submodule {
                workdir: path.clone(),
                git_dir: theirs,
            });
            let sub_workdir = sub.workdir().map(Path::to_path_buf);
            pending.push((sub, sub_workdir, depth + 1));
        }
    }
    Ok(found)
}

/// Reads the objects, trees, index and attributes of a repository, through a handle for the
/// calling thread ([`Repo::objects`]).
pub struct Objects {
    pub(in crate::git) repo: gix::Repository,
}

impl Objects {
    fn id(oid: &Oid) -> Result<gix::ObjectId, GitError> {
        super::object::to_gix(oid).ok_or_else(|| GitError::Object {
            id: oid.to_string(),
            source: Box::new(crate::oid::InvalidOid(oid.to_string())),
        })
    }

    /// Returns the size of the object `oid` without reading its content.
    pub fn size(&self, oid: &Oid) -> Result<u64, GitError> {
        self.repo
            .find_header(Self::id(oid)?)
            .map(|h| h.size())
            .map_err(|e| GitError::Object {
                id: oid.to_string(),
                source: super::error::boxed(e),
            })
    }

    /// Returns the content of the blob `oid`.
    pub fn blob(&self, oid: &Oid) -> Result<Vec<u8>, GitError> {
        self.repo
            .find_blob(Self::id(oid)?)
            .map(|mut b| b.take_data())
            .map_err(|e| GitError::Object {
                id: oid.to_string(),
                source: super::error::boxed(e),
            })
    }
}
