//! Which repository a call acts on (ADR 15, ADR 16): found by the real git itself, with the
//! call's options and environment ([`crate::git::probe::discover`]), so the guard and git agree
//! by construction on every way a repository can be named (`-C`, `--git-dir`, `--work-tree`,
//! `GIT_DIR`, `GIT_WORK_TREE`, `GIT_COMMON_DIR`, `core.worktree`, `.git` files, `commondir`,
//! a `HEAD` that is a symbolic link, safe.directory...), except where a session's record says
//! git would find one of its repositories as it did when the session started (ADR 25:
//! [`of_call`]'s stamped shortcut, which the kernel layer backs). A repository is known by its common
//! git directory with every symlink resolved: a subdirectory, a symlinked path and a linked
//! worktree of one repository are the same repository. A write whose index or objects the
//! environment sends elsewhere (`GIT_INDEX_FILE`, `GIT_OBJECT_DIRECTORY` outside the
//! repository) is told apart ([`elsewhere`]), and so is the repository a path outside the call's
//! own would land in ([`containing`]).

use std::ffi::OsString;
use std::path::Path;

use crate::git::probe::Stamp;
use crate::request::effect::Place;

pub use crate::git::probe::Identity;

/// The environment variables that send a call's writes elsewhere, as the caller's environment
/// has them.
#[derive(Clone, Debug, Default)]
pub struct Env {
    /// `GIT_WORK_TREE`.
    pub work_tree: Option<OsString>,
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
            work_tree: var("GIT_WORK_TREE"),
            index_file: var("GIT_INDEX_FILE"),
            object_dir: var("GIT_OBJECT_DIRECTORY"),
        }
    }
}

/// The repository a call run in `cwd` acts on, as git finds it (`None`: no repository there,
/// or git cannot tell). One of a session's repositories (`recorded`: each with the stamp it
/// had as the session started) that git's discovery would find as it did then is known
/// without asking git (`as_recorded`).
pub fn of_call(cwd: &Path, place: &Place, recorded: &[(Identity, Stamp)]) -> Option<Identity> {
    if let Some(known) = as_recorded(recorded, cwd, place) {
        return Some(known);
    }
    crate::git::probe::discover(cwd, &place.globals, false)
        .ok()
        .flatten()
}

/// The variables that change where git's discovery looks or what it reads on the way.
const DISCOVERY_VARS: [&str; 7] = [
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
];

/// The session's repository a call in `cwd` acts on, when nothing git's discovery reads can
/// make it find another: the call names no place (no global option, none of
/// [`DISCOVERY_VARS`]); `cwd` is in a recorded work tree whose `.git` is its git directory;
/// no directory from `cwd` up to the work tree has a `.git` entry or a `HEAD` (where git would
/// find a repository first) or is on another file system; and the repository's
/// [`Stamp`] is the one the session started with (the same directories,
/// `core.worktree` and `core.bare` unchanged). `None`: git is asked. Saves a `git rev-parse`
/// (1.5 ms) on a write; the kernel layer confines the call to the repository found either way.
fn as_recorded(recorded: &[(Identity, Stamp)], cwd: &Path, place: &Place) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    if crate::confine::test_rule_off("known-place")
        || !place.globals.is_empty()
        || DISCOVERY_VARS
            .iter()
            .any(|v| std::env::var_os(v).is_some_and(|v| !v.is_empty()))
    {
        return None;
    }
    let walk = !crate::confine::test_rule_off("known-place-walk");
    recorded.iter().find_map(|(identity, stamp)| {
        let top = identity.work_tree.as_deref()?;
        if identity.git_dir != top.join(".git")
            || !cwd.starts_with(top)
            || cwd.starts_with(&identity.git_dir)
        {
            return None;
        }
        let device = std::fs::symlink_metadata(top).ok()?.dev();
        for dir in cwd.ancestors().take_while(|d| *d != top).filter(|_| walk) {
            let meta = std::fs::symlink_metadata(dir).ok()?;
            if !meta.is_dir()
                || meta.dev() != device
                || !absent(dir, ".git")
                || !absent(dir, "HEAD")
            {
                return None;
            }
        }
        (Stamp::of(&identity.git_dir, &identity.common_dir).as_ref() == Some(stamp))
            .then(|| identity.clone())
    })
}

/// Whether `dir` has no entry `name` (of any kind).
fn absent(dir: &Path, name: &str) -> bool {
    matches!(
        std::fs::symlink_metadata(dir.join(name)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound
    )
}

/// The repository at `dir` itself (a scope's entry), as git finds it there, whatever the
/// caller's environment names.
pub fn identify(dir: &Path) -> Option<Identity> {
    crate::git::probe::discover(dir, &[], true).ok().flatten()
}

/// The repository that would hold `path` (which need not exist): found from its nearest
/// existing directory, as git would find it there. `Some((identity, inside_git_dir))`.
pub fn containing(path: &Path) -> Option<(Identity, bool)> {
    let mut dir = path;
    let existing = loop {
        if dir.is_dir() {
            break dir.canonicalize().ok()?;
        }
        dir = dir.parent()?;
    };
    let found = identify(&existing)?;
    let inside_git_dir =
        existing.starts_with(&found.git_dir) || existing.starts_with(&found.common_dir);
    Some((found, inside_git_dir))
}

/// Why a write would land outside the repository found, if it would: an index file or object
/// directory named by the environment that is not the repository's own (the variable that
/// names it, and why).
pub fn elsewhere(repo: &Identity, env: &Env) -> Option<(&'static str, String)> {
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
        return Some((
            "GIT_INDEX_FILE",
            format!(
                "GIT_INDEX_FILE ({}) is not this repository's index",
                Path::new(i).display()
            ),
        ));
    }
    if let Some(o) = env.object_dir.as_ref() {
        let own = Path::new(o)
            .canonicalize()
            .is_ok_and(|d| d.starts_with(&repo.common_dir));
        if !own {
            return Some((
                "GIT_OBJECT_DIRECTORY",
                format!(
                    "GIT_OBJECT_DIRECTORY ({}) is not this repository's",
                    Path::new(o).display()
                ),
            ));
        }
    }
    None
}
