//! What the session guard asks the real git about a call, as the call would see it (its `-C`,
//! `-c`, `--git-dir`, its environment): which repository it acts on ([`discover`]); what a push
//! is decided by ([`push_settings`]: the configuration, `push.default`, `remote.*`, `branch.*`,
//! the branch `HEAD` names, and the local refs); which command names git would run itself, so
//! an alias is told from a command ([`git_commands`]); and single configuration values (an
//! alias's, and the hook wrapper's view of `core.hooksPath`). Only metadata is read: no file
//! content, no program the repository configures.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use bstr::ByteSlice;

use super::GitError;
use super::real::Invocation;

/// The settings a push's destinations follow.
#[derive(Clone, Debug, Default)]
pub struct PushSettings {
    /// Every configuration entry, keys as git prints them (section and name lowered).
    pub config: Vec<(String, String)>,
    /// The branch `HEAD` names (`None`: detached).
    pub head: Option<String>,
    /// Every local ref (full names), with the ref it names when it is a symbolic ref.
    pub refs: Vec<(String, Option<String>)>,
}

impl PushSettings {
    /// The last value of `key` (git's rule: the last one wins).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.config
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Every value of `key`, in order.
    pub fn all(&self, key: &str) -> Vec<&str> {
        self.config
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect()
    }
}

/// Reads the push settings of the repository a call in `cwd` with `globals` acts on.
pub fn push_settings(cwd: &Path, globals: &[OsString]) -> Result<PushSettings, GitError> {
    let git = Invocation::locate(cwd.to_owned(), globals.to_vec())?;
    let config = git
        .metadata(&["config", "--list", "-z"])?
        .split(|b| *b == 0)
        .filter(|r| !r.is_empty())
        .map(|r| match r.find_byte(b'\n') {
            Some(nl) => (
                r[..nl].to_str_lossy().into_owned(),
                r[nl + 1..].to_str_lossy().into_owned(),
            ),
            None => (r.to_str_lossy().into_owned(), "true".to_owned()),
        })
        .collect();
    // Detached: `symbolic-ref -q` exits 1 and prints nothing.
    let head = git
        .metadata(&["symbolic-ref", "-q", "HEAD"])
        .ok()
        .and_then(|out| {
            let name = out.trim().to_str_lossy().into_owned();
            name.strip_prefix("refs/heads/").map(str::to_owned)
        });
    let mut refs = Vec::new();
    for line in git
        .metadata(&["for-each-ref", "--format=%(refname)%00%(symref)"])?
        .lines()
    {
        let mut parts = line.splitn(2, |b| *b == 0);
        let name = parts.next().unwrap_or_default().to_str_lossy().into_owned();
        let target = parts.next().unwrap_or_default().to_str_lossy().into_owned();
        refs.push((name, (!target.is_empty()).then_some(target)));
    }
    Ok(PushSettings { config, head, refs })
}

/// Every command name git itself would run: its builtins, the commands in its own directory
/// and the `git-<name>` programs on PATH (`git --list-cmds`).
pub fn git_commands(cwd: &Path, globals: &[OsString]) -> Result<Vec<String>, GitError> {
    let git = Invocation::locate(cwd.to_owned(), globals.to_vec())?;
    Ok(git
        .metadata(&["--list-cmds=builtins,main,others,nohelpers"])?
        .lines()
        .map(|l| l.to_str_lossy().trim().to_owned())
        .filter(|l| !l.is_empty())
        .collect())
}

/// The last value of one configuration key as the call would see it (`None` when unset or
/// unreadable).
pub fn config_value(cwd: &Path, globals: &[OsString], key: &str) -> Option<String> {
    let git = Invocation::locate(cwd.to_owned(), globals.to_vec()).ok()?;
    let out = git.metadata(&["config", "--get", key]).ok()?;
    let value = out.strip_suffix(b"\n").unwrap_or(&out);
    Some(value.to_str_lossy().into_owned())
}

/// The repository's own configuration as a call in `cwd` with `globals` reads it: the
/// `local` and `worktree` scopes, includes followed, as (key as git prints it, value) in git's
/// order. The user's and the system's configuration, and the command line's, are left out.
pub fn own_config(cwd: &Path, globals: &[OsString]) -> Result<Vec<(String, Vec<u8>)>, GitError> {
    let git = Invocation::locate(cwd.to_owned(), globals.to_vec())?;
    let out = git.metadata(&["config", "--list", "-z", "--show-scope", "--includes"])?;
    let mut fields = out.split(|b| *b == 0);
    let mut entries = Vec::new();
    while let (Some(scope), Some(entry)) = (fields.next(), fields.next()) {
        if !matches!(scope, b"local" | b"worktree") {
            continue;
        }
        let (key, value) = match entry.find_byte(b'\n') {
            Some(nl) => (&entry[..nl], entry[nl + 1..].to_vec()),
            None => (entry, b"true".to_vec()),
        };
        entries.push((key.to_str_lossy().into_owned(), value));
    }
    Ok(entries)
}

/// The paths of the gitlinks (submodules) the index of the work tree `tree` records, relative
/// to it (empty when they cannot be read).
pub fn gitlinks(tree: &Path) -> Vec<PathBuf> {
    let Ok(git) = Invocation::locate(tree.to_owned(), Vec::new()) else {
        return Vec::new();
    };
    let Ok(out) = git.metadata(&["ls-files", "--stage", "-z"]) else {
        return Vec::new();
    };
    out.split(|b| *b == 0)
        .filter_map(|record| {
            let (meta, path) = record.split_once_str("\t")?;
            meta.starts_with(b"160000 ")
                .then(|| PathBuf::from(std::ffi::OsStr::from_bytes(path)))
        })
        .collect()
}

/// A repository as the real git finds it for a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Its git directory (a linked worktree's own), symlinks resolved.
    pub git_dir: PathBuf,
    /// Its common git directory, symlinks resolved.
    pub common_dir: PathBuf,
    /// The top of the work tree git would use (`None`: bare, or run inside the git directory).
    pub work_tree: Option<PathBuf>,
}

/// The repository a call in `cwd` with `globals` acts on, found by the real git itself (its
/// `rev-parse`, with the call's options and environment: `-C`, `--git-dir`, `--work-tree`, `-c
/// core.worktree`, `GIT_DIR`, `GIT_WORK_TREE`, `GIT_COMMON_DIR`, `GIT_CEILING_DIRECTORIES`,
/// `safe.directory`...), so discovery agrees with git's by construction. `Ok(None)`: git finds
/// no repository there.
/// With `plain`, the caller's repository variables are left out: the repository at `cwd`
/// itself (a scope's entry, where a new repository would go).
pub fn discover(cwd: &Path, globals: &[OsString], plain: bool) -> Result<Option<Found>, GitError> {
    let git = Invocation::locate(cwd.to_owned(), globals.to_vec())?;
    let out = git.rev_parse_printed(
        &[
            "--path-format=absolute",
            "--absolute-git-dir",
            "--git-common-dir",
            "--is-bare-repository",
            "--show-toplevel",
        ],
        plain,
    )?;
    let mut lines = out
        .split(|b| *b == b'\n')
        .map(|l| PathBuf::from(std::ffi::OsStr::from_bytes(l)));
    let (Some(git_dir), Some(common_dir)) = (lines.next(), lines.next()) else {
        return Ok(None);
    };
    if !git_dir.is_absolute() || !common_dir.is_absolute() {
        return Ok(None);
    }
    let _bare = lines.next();
    let work_tree = lines
        .next()
        .filter(|t| t.is_absolute())
        .map(|t| t.canonicalize().unwrap_or(t));
    let resolve = |p: PathBuf| p.canonicalize().unwrap_or(p);
    Ok(Some(Found {
        git_dir: resolve(git_dir),
        common_dir: resolve(common_dir),
        work_tree,
    }))
}

/// The value of `key` as the repository at `cwd` configures it, reading only the first `count`
/// entries of `GIT_CONFIG_COUNT` (`None` when unset).
pub fn config_value_with_count(cwd: &Path, key: &str, count: usize) -> Option<String> {
    let git = Invocation::locate(cwd.to_owned(), Vec::new()).ok()?;
    git.config_get_with_count(key, count)
        .map(|v| v.to_str_lossy().into_owned())
}
