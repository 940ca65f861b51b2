//! Which repository a call acts on, found the way git finds it (ADR 15): from the directory it
//! runs in, after each `-C`, with `--git-dir`/`--work-tree` or `GIT_DIR`/`GIT_WORK_TREE`/
//! `GIT_COMMON_DIR`, walking up to a `.git` directory, a `.git` file (a linked worktree, a
//! submodule) or a bare repository. A repository is known by its common git directory with
//! every symlink resolved: a subdirectory, a symlinked path and a linked worktree of one
//! repository are the same repository. Only small files are read (`.git` files, `commondir`).

use std::ffi::OsString;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::request::effect::Place;

/// A repository, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// Its git directory (a linked worktree's own).
    pub git_dir: PathBuf,
    /// Its common git directory: what tells repositories apart.
    pub common_dir: PathBuf,
    /// The top of its work tree (`None` when bare).
    pub work_tree: Option<PathBuf>,
}

/// The environment variables that place a call, as the caller's environment has them.
#[derive(Clone, Debug, Default)]
pub struct Env {
    /// `GIT_DIR`.
    pub git_dir: Option<OsString>,
    /// `GIT_WORK_TREE`.
    pub work_tree: Option<OsString>,
    /// `GIT_COMMON_DIR`.
    pub common_dir: Option<OsString>,
    /// `GIT_INDEX_FILE`.
    pub index_file: Option<OsString>,
    /// `GIT_OBJECT_DIRECTORY`.
    pub object_dir: Option<OsString>,
}

impl Env {
    /// Reads them from this process's environment.
    pub fn current() -> Env {
        let var = |n: &str| std::env::var_os(n).filter(|v| !v.is_empty());
        Env {
            git_dir: var("GIT_DIR"),
            work_tree: var("GIT_WORK_TREE"),
            common_dir: var("GIT_COMMON_DIR"),
            index_file: var("GIT_INDEX_FILE"),
            object_dir: var("GIT_OBJECT_DIRECTORY"),
        }
    }
}

/// The repository a call run in `cwd` acts on (`None`: no repository there).
pub fn of_call(cwd: &Path, place: &Place, env: &Env) -> Option<Identity> {
    let mut dir = cwd.to_owned();
    for c in &place.chdir {
        if !c.is_empty() {
            dir = dir.join(c);
        }
    }
    let git_dir = place.git_dir.as_ref().or(env.git_dir.as_ref());
    let found = match git_dir {
        Some(gd) => {
            let named = dir.join(gd);
            // A `.git` file given as the git directory: git follows it.
            let named = match std::fs::metadata(&named) {
                Ok(m) if m.is_file() => {
                    let target = gitfile(&named)?;
                    named.parent()?.join(target)
                }
                _ => named,
            };
            let git_dir = named.canonicalize().ok()?;
            let work_tree = match place.work_tree.as_ref().or(env.work_tree.as_ref()) {
                Some(w) => dir.join(w).canonicalize().ok(),
                // git takes the directory it runs in as the top of the work tree.
                None => dir.canonicalize().ok(),
            };
            let common_dir = match &env.common_dir {
                Some(c) => dir.join(c).canonicalize().ok()?,
                None => common_dir(&git_dir)?,
            };
            Identity {
                git_dir,
                common_dir,
                work_tree,
            }
        }
        None => {
            let mut found = identify(&dir)?;
            if let Some(c) = &env.common_dir {
                found.common_dir = dir.join(c).canonicalize().ok()?;
            }
            found
        }
    };
    Some(found)
}

/// Why a write would land outside the repository found, if it would: an index file or object
/// directory named by the environment that is not the repository's own.
pub fn elsewhere(repo: &Identity, env: &Env) -> Option<String> {
    let inside = |v: &OsString| {
        let p = Path::new(v);
        let parent = p
            .parent()
            .filter(|x| !x.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        match parent.canonicalize() {
            Ok(d) => d.starts_with(&repo.git_dir) || d.starts_with(&repo.common_dir),
            Err(_) => false,
        }
    };
    if let Some(i) = env.index_file.as_ref().filter(|i| !inside(i)) {
        return Some(format!(
            "GIT_INDEX_FILE ({}) is not this repository's index",
            Path::new(i).display()
        ));
    }
    if let Some(o) = env.object_dir.as_ref() {
        let own = Path::new(o)
            .canonicalize()
            .is_ok_and(|d| d.starts_with(&repo.common_dir));
        if !own {
            return Some(format!(
                "GIT_OBJECT_DIRECTORY ({}) is not this repository's",
                Path::new(o).display()
            ));
        }
    }
    None
}

/// The repository found from `dir` upwards, as git discovers it.
pub fn identify(dir: &Path) -> Option<Identity> {
    let start = dir.canonicalize().ok()?;
    for top in start.ancestors() {
        let dot_git = top.join(".git");
        // Followed, as git follows it: a link to a directory or to a `.git` file.
        match std::fs::metadata(&dot_git) {
            Ok(m) if m.is_dir() && is_git_dir(&dot_git) => {
                let git_dir = dot_git.canonicalize().ok()?;
                return Some(Identity {
                    common_dir: common_dir(&git_dir)?,
                    git_dir,
                    work_tree: Some(top.to_owned()),
                });
            }
            Ok(m) if m.is_file() => {
                let target = gitfile(&dot_git)?;
                let git_dir = top.join(target).canonicalize().ok()?;
                return Some(Identity {
                    common_dir: common_dir(&git_dir)?,
                    git_dir,
                    work_tree: Some(top.to_owned()),
                });
            }
            _ => {}
        }
        if is_git_dir(top) && top.file_name().is_some_and(|n| n != ".git") {
            return Some(Identity {
                git_dir: top.to_owned(),
                common_dir: common_dir(top)?,
                work_tree: None,
            });
        }
    }
    None
}

/// Whether `dir` holds a repository's `HEAD`, `objects` and `refs` (or a `commondir` naming
/// where they are).
fn is_git_dir(dir: &Path) -> bool {
    dir.join("HEAD").is_file()
        && (dir.join("commondir").is_file()
            || (dir.join("objects").is_dir() && dir.join("refs").is_dir()))
}

/// The git directory a `.git` file names (`gitdir: <path>`).
fn gitfile(path: &Path) -> Option<PathBuf> {
    let text = small_file(path)?;
    let line = text.strip_prefix(b"gitdir: ")?;
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    Some(PathBuf::from(std::ffi::OsStr::from_bytes(line)))
}

/// The common directory of a git directory: what its `commondir` names, or itself.
fn common_dir(git_dir: &Path) -> Option<PathBuf> {
    match small_file(&git_dir.join("commondir")) {
        Some(text) => {
            let text = text.strip_suffix(b"\n").unwrap_or(&text);
            git_dir
                .join(std::ffi::OsStr::from_bytes(text))
                .canonicalize()
                .ok()
        }
        None => Some(git_dir.to_owned()),
    }
}

/// A regular file's content, when it is at most 4 KiB.
fn small_file(path: &Path) -> Option<Vec<u8>> {
    let file = std::fs::File::open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut out = Vec::new();
    file.take(4097).read_to_end(&mut out).ok()?;
    (out.len() <= 4096).then_some(out)
}
