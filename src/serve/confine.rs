//! Which repositories the server may answer for.
//!
//! A repository is allowed when the path asked for and every directory git reads the repository
//! from lie under an allowed directory (a root the client declared — MCP roots, `file://` URIs — or
//! a `--allow` directory given at start): its working tree, its git directory (a `.git` *file* can
//! name one anywhere), its common directory (a linked worktree's `commondir`), its object
//! directory, every alternate object directory (`objects/info/alternates`, followed recursively)
//! and each populated submodule's git directory. Each is compared after resolving symlinks, so
//! neither a symlink, git's upward discovery, a gitfile nor an alternates file can lead outside;
//! and every symlink inside those directories (a pack directory, a loose object's fan-out
//! directory, a ref, `packed-refs`) must resolve inside too, since git opens them by name, and so
//! must every symlink inside a directory such a link leads to, however many hops away (the walk is
//! bounded, `MAX_DEPTH` levels and `MAX_WALKED` entries: past either, the repository is
//! refused). Each directory may lie under any allowed directory: a worktree in one root whose git
//! directory is in another root is allowed. With no roots and no `--allow`, the server's working
//! directory is the one allowed directory.
//!
//! The repository variables the server inherited (`GIT_DIR`, `GIT_WORK_TREE`, ...) are
//! removed as it starts ([`clear_inherited_repository`]): each call's `repo_path` decides.
//!
//! Values quoted in errors are clipped: a caller can send a 100 KB `repo_path`.

use std::path::{Path, PathBuf};

use crate::git::Repo;
use crate::text::clip;

/// Characters of a caller's value quoted in an error.
const QUOTED: usize = 200;

/// The most entries of a repository's git directories checked for symlinks.
const MAX_WALKED: usize = 2_000_000;

/// The deepest directory checked for symlinks below a git directory.
const MAX_DEPTH: usize = 32;

/// The error returned when a path may not be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConfineError {
    /// The path does not exist or cannot be resolved.
    #[error("repo_path '{path}' cannot be used: {reason}")]
    Unresolvable {
        /// The path as given.
        path: String,
        /// Why.
        reason: String,
    },
    /// The path is outside every allowed directory.
    #[error(
        "repo_path '{path}' is outside the directories this server may read ({allowed}); use a repository under one of them, declare it as an MCP root, or start the server with --allow <dir>"
    )]
    Outside {
        /// The path as resolved.
        path: String,
        /// The allowed directories, listed.
        allowed: String,
    },
    /// A directory the repository is read from is outside every allowed directory.
    #[error(
        "the repository at '{repo}' reads its {what} from '{path}', which is outside the directories this server may read ({allowed}); allow that directory too (an MCP root or --allow <dir>) or use another repository"
    )]
    RepositoryOutside {
        /// The repository (working tree or git dir), as resolved.
        repo: String,
        /// Which of its directories (`git directory`, `common directory`, `objects`,
        /// `alternate objects`).
        what: &'static str,
        /// That directory, as resolved.
        path: String,
        /// The allowed directories, listed.
        allowed: String,
    },
}

/// The allowed directories, resolved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Allowed {
    dirs: Vec<PathBuf>,
}

impl Allowed {
    /// Resolves `dirs` (roots and `--allow` directories; ones that do not exist are dropped).
    pub fn new(dirs: impl IntoIterator<Item = PathBuf>) -> Allowed {
        let mut resolved: Vec<PathBuf> = dirs
            .into_iter()
            .filter_map(|d| d.canonicalize().ok())
            .collect();
        resolved.sort();
        resolved.dedup();
        Allowed { dirs: resolved }
    }

    /// The directories.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Resolves `path` and checks it lies under an allowed directory.
    pub fn check(&self, path: &Path) -> Result<PathBuf, ConfineError> {
        let resolved = self.resolve(path)?;
        if self.contains(&resolved) {
            Ok(resolved)
        } else {
            Err(ConfineError::Outside {
                path: clip(&resolved.display().to_string(), QUOTED).into_owned(),
                allowed: self.listing(),
            })
        }
    }

    /// Checks every directory `repo` is read from: its working tree (or git dir when bare),
    /// git dir, common dir, object directory, alternate object directories, and the git dir
    /// of every populated submodule (git runs in each).
    pub fn check_repository(&self, repo: &Repo) -> Result<(), ConfineError> {
        let top = self.check(repo.display_path())?;
        let parts = [
            ("git directory", repo.git_dir().to_owned()),
            ("common directory", repo.common_dir()),
            ("objects", repo.objects_dir().to_owned()),
        ];
        // The object directory is checked before its alternates file is trusted.
        for (what, dir) in &parts {
            self.check_part(&top, what, dir)?;
        }
        let alternates = repo.alternates().map_err(|e| ConfineError::Unresolvable {
            path: clip(&top.display().to_string(), QUOTED).into_owned(),
            reason: crate::text::chain(&e),
        })?;
        for dir in &alternates {
            self.check_part(&top, "alternate objects", dir)?;
        }
        for dir in repo.submodule_git_dirs() {
            self.check_part(&top, "a submodule's git directory", dir)?;
        }
        // Inside them, git opens packs, loose objects, refs and `packed-refs` by name: a
        // symlink among them (`objects/pack`, a fan-out directory, a ref file) would read
        // another repository. Every symlink in these directories must resolve inside.
        let mut walked = Vec::new();
        let mut walk = Walk {
            budget: MAX_WALKED,
            visited: std::collections::HashSet::new(),
        };
        for (what, dir) in parts
            .iter()
            .map(|(w, d)| (*w, d.clone()))
            .chain(alternates.iter().map(|d| ("alternate objects", d.clone())))
            .chain(
                repo.submodule_git_dirs()
                    .iter()
                    .map(|d| ("a submodule's git directory", d.clone())),
            )
        {
            let Ok(resolved) = dir.canonicalize() else {
                continue;
            };
            // The objects directory usually lies in the git directory: walked once.
            if walked.iter().any(|w: &PathBuf| resolved.starts_with(w)) {
                continue;
            }
            self.check_links(&top, what, &resolved, 0, &mut walk)?;
            walked.push(resolved);
        }
        Ok(())
    }

    /// Checks that every symlink under `dir` resolves inside an allowed directory, and walks
    /// on into each directory a symlink leads to: git opens what is in it by name too, so a
    /// fan-out or pack directory linked to a directory inside the roots whose files link
    /// outside is refused (issue 29: the check stopped at the first link). At most
    /// [`MAX_WALKED`] entries in all and [`MAX_DEPTH`] levels deep, each directory once; the
    /// file type comes from the directory listing, so a large object store costs its listing
    /// only.
    fn check_links(
        &self,
        top: &Path,
        what: &'static str,
        dir: &Path,
        depth: usize,
        walk: &mut Walk,
    ) -> Result<(), ConfineError> {
        let unresolvable = |reason: String| ConfineError::Unresolvable {
            path: clip(&top.display().to_string(), QUOTED).into_owned(),
            reason,
        };
        if depth > MAX_DEPTH {
            return Err(unresolvable(format!(
                "'{}' is nested more than {MAX_DEPTH} directories deep",
                clip(&dir.display().to_string(), QUOTED)
            )));
        }
        if !walk.visited.insert(dir.to_owned()) {
            return Ok(());
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            // Unreadable: git cannot read it either.
            return Ok(());
        };
        for entry in entries.flatten() {
            walk.budget = walk.budget.checked_sub(1).ok_or_else(|| {
                unresolvable(format!(
                    "its git directories hold more than {MAX_WALKED} entries to check"
                ))
            })?;
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_symlink() {
                // A dangling link leads nowhere: git cannot read through it either.
                let Ok(target) = path.canonicalize() else {
                    continue;
                };
                self.check_part(top, what, &target)?;
                if target.is_dir() {
                    self.check_links(top, what, &target, depth + 1, walk)?;
                }
            } else if kind.is_dir() {
                self.check_links(top, what, &path, depth + 1, walk)?;
            }
        }
        Ok(())
    }

    fn check_part(&self, top: &Path, what: &'static str, dir: &Path) -> Result<(), ConfineError> {
        let resolved = self.resolve(dir)?;
        if self.contains(&resolved) {
            Ok(())
        } else {
            Err(ConfineError::RepositoryOutside {
                repo: clip(&top.display().to_string(), QUOTED).into_owned(),
                what,
                path: clip(&resolved.display().to_string(), QUOTED).into_owned(),
                allowed: self.listing(),
            })
        }
    }

    fn resolve(&self, path: &Path) -> Result<PathBuf, ConfineError> {
        path.canonicalize().map_err(|e| ConfineError::Unresolvable {
            path: clip(&path.display().to_string(), QUOTED).into_owned(),
            reason: e.to_string(),
        })
    }

    fn contains(&self, resolved: &Path) -> bool {
        self.dirs.iter().any(|d| resolved.starts_with(d))
    }

    fn listing(&self) -> String {
        if self.dirs.is_empty() {
            return "none".into();
        }
        self.dirs
            .iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// What the symlink walk of one repository has left: entries it may still list, and the
/// directories it has walked (resolved), each walked once whatever links lead to it.
struct Walk {
    budget: usize,
    visited: std::collections::HashSet<PathBuf>,
}

/// The local path of a `file://` root URI (percent-decoded); `None` for other schemes.
pub fn root_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file:///x` or `file://localhost/x`.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    use std::os::unix::ffi::OsStringExt;
    Some(PathBuf::from(std::ffi::OsString::from_vec(out)))
}

/// Removes the repository variables (`GIT_DIR`, `GIT_WORK_TREE`, ...) the server inherited:
/// each call's `repo_path` decides the repository and confinement checks every directory it is
/// read from, and one of these would make every call read somewhere confinement never sees.
/// Returns the names removed. Must run before any other thread exists (the server's edge calls
/// it first).
pub fn clear_inherited_repository() -> Vec<&'static str> {
    let mut removed = Vec::new();
    for name in crate::git::REPOSITORY_VARIABLES {
        if std::env::var_os(name).is_some() {
            #[allow(
                unsafe_code,
                reason = "the environment is changed before any thread starts"
            )]
            // SAFETY: called before the server starts any thread (see the doc comment); no
            // other thread exists to read the environment concurrently.
            unsafe {
                std::env::remove_var(name)
            };
            removed.push(*name);
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_uris() {
        assert_eq!(
            root_path("file:///home/a/repo"),
            Some(PathBuf::from("/home/a/repo"))
        );
        assert_eq!(
            root_path("file://localhost/x%20y"),
            Some(PathBuf::from("/x y"))
        );
        assert_eq!(root_path("https://example.com/x"), None);
        assert_eq!(root_path("file://host/x"), None);
        assert_eq!(root_path("file:///bad%zz"), None);
    }

    #[test]
    fn paths_are_checked_after_resolving_symlinks() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let inside = root.join("allowed/repo");
        let outside = root.join("secret");
        std::fs::create_dir_all(&inside).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("allowed/link")).unwrap();
        let allowed = Allowed::new([root.join("allowed"), root.join("missing")]);
        assert_eq!(allowed.dirs(), [root.join("allowed")]);
        assert_eq!(allowed.check(&inside), Ok(inside.clone()));
        assert!(matches!(
            allowed.check(&root.join("allowed/link")),
            Err(ConfineError::Outside { .. })
        ));
        assert!(matches!(
            allowed.check(&root.join("allowed/../secret")),
            Err(ConfineError::Outside { .. })
        ));
        assert!(matches!(
            allowed.check(&root.join("nope")),
            Err(ConfineError::Unresolvable { .. })
        ));
        // A sibling whose name extends an allowed one is not inside it.
        std::fs::create_dir_all(root.join("allowed-not")).unwrap();
        assert!(allowed.check(&root.join("allowed-not")).is_err());
        assert!(Allowed::new([]).check(&inside).is_err());
    }
}
