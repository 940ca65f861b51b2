//! Finding the real `git` (or `gh`): the program the shim execs, the git the `git` module
//! runs for facts, and what `shim status` reports.
//!
//! Invariants:
//! - PATH is walked once, in order. Empty and relative entries are skipped: an empty entry
//!   means the current directory, and running a `git` from the repository being inspected
//!   would run repository content.
//! - A candidate that is this very binary (same device and inode, which covers symlinks,
//!   hardlinks and symlinked aliases of a PATH directory) is skipped.
//! - A path pinned in `GIT_PRISM_REAL_GIT` / `GIT_PRISM_REAL_GH` (set by the shim for its
//!   children, or by the user) is used directly when it is absolute, executable and not this
//!   binary (a pin that is missing or not executable is ignored: PATH is walked). When it *is*
//!   this binary, another copy of git-prism chose us as "the real git"; the walk then takes
//!   the first candidate after our last entry on PATH (the first on PATH when none follows),
//!   so two copies on PATH move forward instead of exec'ing each other.
//! - Nothing here executes anything; the result is an absolute path. An unset PATH is
//!   `/bin:/usr/bin`, as `execvp` takes it.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// A program git-prism stands in front of: what the shim execs, and what it is named on PATH.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Program {
    /// `git`.
    Git,
    /// The GitHub CLI, `gh`.
    Gh,
}

impl Program {
    /// The program's name on PATH.
    pub fn name(self) -> &'static str {
        match self {
            Program::Git => "git",
            Program::Gh => "gh",
        }
    }

    /// The variable that pins the real binary (`GIT_PRISM_REAL_GIT` / `GIT_PRISM_REAL_GH`).
    pub fn pin_variable(self) -> &'static str {
        match self {
            Program::Git => "GIT_PRISM_REAL_GIT",
            Program::Gh => "GIT_PRISM_REAL_GH",
        }
    }
}

/// The identity of a file on disk: device and inode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileId {
    dev: u64,
    ino: u64,
}

impl FileId {
    /// Returns the identity of the file `path` points to (following symlinks).
    pub fn of(path: &Path) -> Option<FileId> {
        std::fs::metadata(path).ok().map(|m| FileId {
            dev: m.dev(),
            ino: m.ino(),
        })
    }

    /// Returns the identity of the running executable.
    pub fn current_exe() -> Option<FileId> {
        // `/proc/self/exe` resolves without allocating a path on Linux.
        FileId::of(Path::new("/proc/self/exe"))
            .or_else(|| std::env::current_exe().ok().and_then(|p| FileId::of(&p)))
    }
}

/// The error returned by [`resolve`] when no real binary can be run.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ResolveError {
    /// No candidate exists on PATH (other than git-prism itself).
    #[error(
        "no real `{tool}` found on PATH (git-prism skips itself and empty or relative PATH entries)"
    )]
    NotFound {
        /// `git` or `gh`.
        tool: String,
    },
    /// A candidate exists but is not executable.
    #[error("the real `{tool}` at '{}' is not executable", path.display())]
    NotExecutable {
        /// `git` or `gh`.
        tool: String,
        /// The first non-executable candidate.
        path: PathBuf,
    },
}

/// What the resolver needs to know about the process.
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'a> {
    /// The program to look for.
    pub tool: Program,
    /// The value of `PATH` (`None` when unset).
    pub path_var: Option<&'a OsStr>,
    /// The value of the pinning variable (`GIT_PRISM_REAL_GIT` / `GIT_PRISM_REAL_GH`).
    pub pinned: Option<&'a OsStr>,
    /// The identity of this binary.
    pub self_id: Option<FileId>,
}

/// The default search path when `PATH` is unset, as the C library's `execvp` uses.
const DEFAULT_PATH: &[u8] = b"/bin:/usr/bin";

/// Returns the absolute path of the real binary to exec.
pub fn resolve(inputs: Inputs<'_>) -> Result<PathBuf, ResolveError> {
    let mut after_self = false;
    if let Some(pinned) = inputs.pinned.filter(|p| !p.is_empty()) {
        let path = Path::new(pinned);
        if path.is_absolute() {
            match Candidate::inspect(path, inputs.self_id) {
                Candidate::Runnable => return Ok(path.to_owned()),
                Candidate::IsSelf => after_self = true,
                Candidate::Missing | Candidate::NotExecutable => {}
            }
        }
    }

    let path_var = inputs.path_var.map_or(DEFAULT_PATH, |p| p.as_bytes());
    let mut first: Option<PathBuf> = None;
    let mut after_last_self: Option<PathBuf> = None;
    let mut not_executable: Option<PathBuf> = None;
    for dir in path_var.split(|b| *b == b':') {
        let dir = Path::new(OsStr::from_bytes(dir));
        if dir.as_os_str().is_empty() || !dir.is_absolute() {
            continue;
        }
        let candidate = dir.join(inputs.tool.name());
        match Candidate::inspect(&candidate, inputs.self_id) {
            Candidate::Missing => {}
            Candidate::IsSelf => after_last_self = None,
            Candidate::NotExecutable => {
                not_executable.get_or_insert(candidate);
            }
            Candidate::Runnable => {
                if !after_self {
                    return Ok(candidate);
                }
                if after_last_self.is_none() {
                    after_last_self = Some(candidate.clone());
                }
                first.get_or_insert(candidate);
            }
        }
    }
    if let Some(found) = after_last_self.or(first) {
        return Ok(found);
    }
    match not_executable {
        Some(path) => Err(ResolveError::NotExecutable {
            tool: inputs.tool.name().to_owned(),
            path,
        }),
        None => Err(ResolveError::NotFound {
            tool: inputs.tool.name().to_owned(),
        }),
    }
}

/// What a PATH candidate turned out to be.
enum Candidate {
    Missing,
    IsSelf,
    NotExecutable,
    Runnable,
}

impl Candidate {
    fn inspect(path: &Path, self_id: Option<FileId>) -> Candidate {
        let Ok(meta) = std::fs::metadata(path) else {
            return Candidate::Missing;
        };
        if !meta.is_file() {
            return Candidate::Missing;
        }
        let id = FileId {
            dev: meta.dev(),
            ino: meta.ino(),
        };
        if Some(id) == self_id {
            Candidate::IsSelf
        } else if meta.mode() & 0o111 == 0 {
            Candidate::NotExecutable
        } else {
            Candidate::Runnable
        }
    }
}

/// Joins directories into a PATH value (for the tests of this module and the installer's).
#[cfg(test)]
pub(crate) fn join_path<I: IntoIterator<Item = P>, P: AsRef<OsStr>>(dirs: I) -> std::ffi::OsString {
    let mut out = std::ffi::OsString::new();
    for (i, d) in dirs.into_iter().enumerate() {
        if i > 0 {
            out.push(":");
        }
        out.push(d.as_ref());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;
    use std::os::unix::fs::{PermissionsExt, symlink};

    struct Fixture {
        tmp: tempfile::TempDir,
    }

    impl Fixture {
        fn new() -> Self {
            Fixture {
                tmp: tempfile::tempdir().unwrap(),
            }
        }
        fn dir(&self, name: &str) -> PathBuf {
            let d = self.tmp.path().join(name);
            std::fs::create_dir_all(&d).unwrap();
            d
        }
        /// Writes an executable file `name/git` with `content`.
        fn exe(&self, dir: &str, content: &str, mode: u32) -> PathBuf {
            let p = self.dir(dir).join("git");
            std::fs::write(&p, content).unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
            p
        }
    }

    fn run(
        path: &OsStr,
        pinned: Option<&OsStr>,
        self_id: Option<FileId>,
    ) -> Result<PathBuf, ResolveError> {
        resolve(Inputs {
            tool: Program::Git,
            path_var: Some(path),
            pinned,
            self_id,
        })
    }

    #[test]
    fn first_runnable_candidate_wins() {
        let f = Fixture::new();
        let a = f.exe("a", "a", 0o755);
        let _b = f.exe("b", "b", 0o755);
        let path = join_path([f.dir("empty"), f.dir("a"), f.dir("b")]);
        assert_eq!(run(&path, None, None), Ok(a));
    }

    #[test]
    fn empty_and_relative_entries_are_never_used() {
        let f = Fixture::new();
        let real = f.exe("real", "real", 0o755);
        // A `git` in the current directory and in a relative `bin`: must be skipped.
        let cwd = std::env::current_dir().unwrap();
        let path = join_path([
            OsString::from(""),
            OsString::from("."),
            OsString::from("bin"),
            cwd.into_os_string(),
            f.dir("real").into_os_string(),
        ]);
        let got = run(&path, None, None).unwrap();
        assert!(got.is_absolute());
        assert_eq!(got, real);
        let path = OsString::from("::.:bin:");
        assert!(matches!(
            run(&path, None, None),
            Err(ResolveError::NotFound { .. })
        ));
    }

    #[test]
    fn this_binary_is_skipped_through_duplicates_and_symlinked_dirs() {
        let f = Fixture::new();
        let shim = f.exe("shim", "shim", 0o755);
        let shim_id = FileId::of(&shim);
        symlink(f.dir("shim"), f.tmp.path().join("alias")).unwrap();
        let real = f.exe("real", "real", 0o755);
        let path = join_path([
            f.dir("shim"),
            f.tmp.path().join("alias"),
            f.dir("shim"),
            f.dir("real"),
        ]);
        assert_eq!(run(&path, None, shim_id), Ok(real));
    }

    #[test]
    fn a_symlink_to_this_binary_is_this_binary() {
        let f = Fixture::new();
        let shim = f.exe("opt", "shim", 0o755);
        let link_dir = f.dir("links");
        symlink(&shim, link_dir.join("git")).unwrap();
        let real = f.exe("real", "real", 0o755);
        let path = join_path([link_dir, f.dir("real")]);
        assert_eq!(run(&path, None, FileId::of(&shim)), Ok(real));
    }

    #[test]
    fn pinned_path_is_used_when_valid() {
        let f = Fixture::new();
        let _first = f.exe("first", "first", 0o755);
        let pinned = f.exe("pinned", "pinned", 0o755);
        let path = join_path([f.dir("first")]);
        assert_eq!(run(&path, Some(pinned.as_os_str()), None), Ok(pinned));
        // Relative or missing pins are ignored.
        let first = f.dir("first").join("git");
        assert_eq!(run(&path, Some(OsStr::new("git")), None), Ok(first.clone()));
        assert_eq!(
            run(&path, Some(OsStr::new("/nonexistent/git")), None),
            Ok(first)
        );
    }

    #[test]
    fn two_copies_walk_forward_instead_of_looping() {
        let f = Fixture::new();
        let copy_a = f.exe("a", "git-prism", 0o755);
        let copy_b = f.exe("b", "git-prism", 0o755);
        let real = f.exe("real", "real", 0o755);
        let path = join_path([f.dir("a"), f.dir("b"), f.dir("real")]);
        // Copy A skips itself and picks B (it cannot tell B is a copy).
        assert_eq!(run(&path, None, FileId::of(&copy_a)), Ok(copy_b.clone()));
        // B, pinned as "the real git" by A, walks on past its own entry.
        assert_eq!(
            run(&path, Some(copy_b.as_os_str()), FileId::of(&copy_b)),
            Ok(real.clone())
        );
        // The same when B comes first on PATH.
        let path = join_path([f.dir("b"), f.dir("a"), f.dir("real")]);
        assert_eq!(
            run(&path, Some(copy_a.as_os_str()), FileId::of(&copy_a)),
            Ok(real)
        );
    }

    #[test]
    fn not_found_and_not_executable() {
        let f = Fixture::new();
        let path = join_path([f.dir("empty")]);
        assert_eq!(
            run(&path, None, None),
            Err(ResolveError::NotFound { tool: "git".into() })
        );
        let plain = f.exe("plain", "x", 0o644);
        let path = join_path([f.dir("plain")]);
        assert_eq!(
            run(&path, None, None),
            Err(ResolveError::NotExecutable {
                tool: "git".into(),
                path: plain
            })
        );
        // A directory named `git` is not a candidate.
        std::fs::create_dir_all(f.dir("d").join("git")).unwrap();
        let path = join_path([f.dir("d")]);
        assert!(matches!(
            run(&path, None, None),
            Err(ResolveError::NotFound { .. })
        ));
    }

    #[test]
    fn executable_later_on_path_beats_an_earlier_non_executable() {
        let f = Fixture::new();
        f.exe("plain", "x", 0o644);
        let real = f.exe("real", "real", 0o755);
        let path = join_path([f.dir("plain"), f.dir("real")]);
        assert_eq!(run(&path, None, None), Ok(real));
    }
}
