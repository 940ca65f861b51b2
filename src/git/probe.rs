//! What the session guard and `git-prism session` ask the real git about a repository, as a
//! call would see it (its `-C`, `-c`, `--git-dir`, its environment), so that they and git agree
//! by construction: which repository a call acts on ([`discover`], the one place that asks git
//! where a repository is); which command names git would run itself, so an alias is told from
//! a command ([`git_commands`]); single configuration values (an alias's, and the hook
//! wrapper's view of `core.hooksPath`); the repository's own configuration ([`own_config`]);
//! the gitlinks of a work tree ([`gitlinks`]); and what a repository's directories and own
//! configuration files are as a session starts ([`Stamp`], ADR 25). Only metadata is read: no
//! file content, no program the repository configures. What git's configuration keys and variables mean is in
//! [`super::keys`].

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use bstr::ByteSlice;

use super::GitError;
use super::real::Invocation;

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

/// How long before a stamp is recorded its files must have last changed: a change within the
/// file system's timestamp granularity of the recorded one would leave the stamp as it was (the
/// "racy" case git's index knows). Two seconds covers file systems that keep whole seconds.
pub const SETTLED: std::time::Duration = std::time::Duration::from_secs(2);

/// What the metadata of a repository's directories and own configuration files says of what
/// git reads there to find it and its settings: the git directory and the common directory
/// (device and inode: the same directories, not others put in their place), the common
/// directory's `config` and the git directory's `config.worktree` (each absent or not, with
/// device, inode, size, modification and change time). Any write to a file changes its stamp
/// (a replacement, as `git config` makes, its inode; an edit in place its change time, which no
/// caller can set back) once the file has settled ([`SETTLED`]). A session records it as it
/// starts when the configuration includes no other file; a call that finds it unchanged knows
/// the settings the guard's drift check compares, and where git finds the repository
/// (`guard::place::of_call`), as they were (ADR 25).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stamp(Vec<Option<[i64; 7]>>);

impl Stamp {
    /// The stamp of the repository with these directories now; `None` when a directory is not
    /// one, a file is a symbolic link (its target could change under an unchanged link) or
    /// metadata cannot be read.
    pub fn of(git_dir: &Path, common_dir: &Path) -> Option<Stamp> {
        use std::os::unix::fs::MetadataExt;
        let mut stamps = Vec::with_capacity(4);
        for dir in [git_dir, common_dir] {
            let m = std::fs::symlink_metadata(dir).ok()?;
            if !m.is_dir() {
                return None;
            }
            stamps.push(Some([m.dev() as i64, m.ino() as i64, 0, 0, 0, 0, 0]));
        }
        for file in [common_dir.join("config"), git_dir.join("config.worktree")] {
            match std::fs::symlink_metadata(&file) {
                Ok(m) if m.file_type().is_file() => stamps.push(Some([
                    m.dev() as i64,
                    m.ino() as i64,
                    m.size() as i64,
                    m.mtime(),
                    m.mtime_nsec(),
                    m.ctime(),
                    m.ctime_nsec(),
                ])),
                Ok(_) => return None,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => stamps.push(None),
                Err(_) => return None,
            }
        }
        Some(Stamp(stamps))
    }

    /// The stamp to record at `now` for a configuration read as `config` between the stamps
    /// `before` and `after`: `None` when it changed meanwhile, changed less than [`SETTLED`]
    /// before `now`, or includes other files (`include.path`, `includeIf.<condition>.path`),
    /// which the stamp does not cover.
    pub fn recorded(
        before: Option<Stamp>,
        after: Option<Stamp>,
        config: &[(String, Vec<u8>)],
        now: std::time::SystemTime,
    ) -> Option<Stamp> {
        let includes = config.iter().any(|(k, _)| {
            let k = k.to_ascii_lowercase();
            k.starts_with("include.") || k.starts_with("includeif.")
        });
        let cutoff = now
            .checked_sub(SETTLED)
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .unwrap_or_default();
        let settled = after.as_ref().is_some_and(|a| {
            a.0.iter().flatten().all(|[.., secs, nanos]| {
                // Before the epoch (or a directory's zeros) is long settled.
                u64::try_from(*secs).map_or(true, |secs| {
                    std::time::Duration::new(secs, u32::try_from(*nanos).unwrap_or(0)) < cutoff
                })
            })
        });
        (before == after && settled && !includes)
            .then_some(after)
            .flatten()
    }
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

/// A repository, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// Its git directory (a linked worktree's own).
    pub git_dir: PathBuf,
    /// Its common git directory: what tells repositories apart.
    pub common_dir: PathBuf,
    /// The top of its work tree as git uses it for the call (`None` when bare).
    pub work_tree: Option<PathBuf>,
}

impl Identity {
    /// Where its refs are.
    pub fn ref_store(&self) -> super::refs::RefStore {
        super::refs::RefStore {
            git_dir: self.git_dir.clone(),
            common_dir: self.common_dir.clone(),
        }
    }

    /// The repository as a person knows it: the work tree git uses, else (bare) its git
    /// directory.
    pub fn shown(&self) -> PathBuf {
        self.work_tree
            .clone()
            .unwrap_or_else(|| self.git_dir.clone())
    }

    /// Whether the work tree git uses for the call is a linked worktree of this repository:
    /// its git directory is `<common>/worktrees/<name>`, whose `gitdir` file names the work
    /// tree's `.git`.
    pub fn is_linked_worktree(&self) -> bool {
        let Some(tree) = &self.work_tree else {
            return false;
        };
        if self.git_dir.parent() != Some(&self.common_dir.join("worktrees")) {
            return false;
        }
        let Ok(text) = crate::paths::read_regular(&self.git_dir.join("gitdir"), 4096) else {
            return false;
        };
        let line = text.strip_suffix(b"\n").unwrap_or(&text);
        let named =
            PathBuf::from(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(line));
        named
            .parent()
            .and_then(|p| p.canonicalize().ok())
            .is_some_and(|p| &p == tree)
    }
}

/// Where git says a repository's directories are, as it printed them (absolute, links not
/// resolved).
pub struct Locations {
    /// `--absolute-git-dir`.
    pub git_dir: PathBuf,
    /// `--git-common-dir`.
    pub common_dir: PathBuf,
    /// `--show-toplevel` (`None`: bare, or run inside the git directory).
    pub toplevel: Option<PathBuf>,
}

/// Asks git where the repository `git` runs in is: the one place git-prism asks (`rev-parse`
/// with the call's options and environment; with `plain`, without the caller's repository
/// variables). `Ok(None)`: git finds no repository there.
pub(crate) fn locations(git: &Invocation, plain: bool) -> Result<Option<Locations>, GitError> {
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
    // Paths as bytes: a repository under a directory whose name is not UTF-8 is still one.
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
    let toplevel = lines.next().filter(|t| t.is_absolute());
    Ok(Some(Locations {
        git_dir,
        common_dir,
        toplevel,
    }))
}

/// The repository a call in `cwd` with `globals` acts on, found by the real git itself (its
/// `rev-parse`, with the call's options and environment: `-C`, `--git-dir`, `--work-tree`, `-c
/// core.worktree`, `GIT_DIR`, `GIT_WORK_TREE`, `GIT_COMMON_DIR`, `GIT_CEILING_DIRECTORIES`,
/// `safe.directory`...), so discovery agrees with git's by construction; links resolved.
/// `Ok(None)`: git finds no repository there. With `plain`, the caller's repository variables
/// are left out: the repository at `cwd` itself (a scope's entry, where a new repository would
/// go).
pub fn discover(
    cwd: &Path,
    globals: &[OsString],
    plain: bool,
) -> Result<Option<Identity>, GitError> {
    let git = Invocation::locate(cwd.to_owned(), globals.to_vec())?;
    let resolve = |p: PathBuf| p.canonicalize().unwrap_or(p);
    Ok(locations(&git, plain)?.map(|l| Identity {
        git_dir: resolve(l.git_dir),
        common_dir: resolve(l.common_dir),
        work_tree: l.toplevel.map(resolve),
    }))
}

/// The value of `key` as the repository at `cwd` configures it, reading only the first `count`
/// entries of `GIT_CONFIG_COUNT` (`None` when unset).
pub fn config_value_with_count(cwd: &Path, key: &str, count: usize) -> Option<String> {
    let git = Invocation::locate(cwd.to_owned(), Vec::new()).ok()?;
    git.config_get_with_count(key, count)
        .map(|v| v.to_str_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let git = dir.path().join(".git");
        std::fs::create_dir_all(&git).unwrap();
        std::fs::write(git.join("config"), "[core]\n\tbare = false\n").unwrap();
        (dir, git)
    }

    #[test]
    fn a_stamp_changes_with_any_write_to_the_configuration() {
        let (_dir, git) = repo();
        let start = Stamp::of(&git, &git).unwrap();
        assert_eq!(Stamp::of(&git, &git), Some(start.clone()));
        // The same bytes written again: its change time moves (past the clock's tick).
        std::thread::sleep(std::time::Duration::from_millis(50));
        std::fs::write(git.join("config"), "[core]\n\tbare = false\n").unwrap();
        assert_ne!(Stamp::of(&git, &git), Some(start.clone()));
        // A worktree configuration appearing.
        let now = Stamp::of(&git, &git).unwrap();
        std::fs::write(git.join("config.worktree"), "").unwrap();
        assert_ne!(Stamp::of(&git, &git), Some(now));
    }

    #[test]
    fn no_stamp_for_a_linked_configuration_one_that_includes_another_or_one_just_changed() {
        let (dir, git) = repo();
        let later = std::time::SystemTime::now() + SETTLED + std::time::Duration::from_secs(1);
        let config: Vec<(String, Vec<u8>)> = vec![("core.bare".into(), b"false".to_vec())];
        let s = || Stamp::of(&git, &git);
        assert!(Stamp::recorded(s(), s(), &config, later).is_some());
        // Written a moment ago: a write within the clock's tick would not show.
        assert!(Stamp::recorded(s(), s(), &config, std::time::SystemTime::now()).is_none());
        let included = vec![("include.path".into(), b"x".to_vec())];
        assert!(Stamp::recorded(s(), s(), &included, later).is_none());
        let conditional = vec![("includeIf.gitdir:/x/.path".into(), b"x".to_vec())];
        assert!(Stamp::recorded(s(), s(), &conditional, later).is_none());
        let before = s();
        std::thread::sleep(std::time::Duration::from_millis(50));
        std::fs::write(git.join("config"), "[core]\n").unwrap();
        assert!(Stamp::recorded(before, s(), &config, later).is_none());
        std::fs::rename(git.join("config"), dir.path().join("real")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("real"), git.join("config")).unwrap();
        assert_eq!(Stamp::of(&git, &git), None);
    }
}
