//! Reading files of the working tree without ever leaving it.
//!
//! Every working-tree file git-prism reads itself goes through here (the `.gitattributes`
//! files gix reads for [`super::attributes`] aside). The paths come from requests
//! (an MCP client's `paths`, a command line) or from git's listings, and the working tree
//! itself is untrusted content: it may hold symlinks to anywhere, FIFOs, or files that never
//! end. So, for a path relative to a directory (the top of the working tree):
//!
//! - the path must be relative and plain: no leading `/`, no empty, `.` or `..` component,
//!   no NUL byte ([`WorktreeError::InvalidPath`]);
//! - no component may be a symlink: every component is resolved below the directory without
//!   following any link (`openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`, or, where the
//!   kernel lacks it, one `openat(O_NOFOLLOW)` per component from the directory's descriptor),
//!   so a swap of a component for a link between a check and the open cannot lead out;
//!   a leading component that is a symlink is [`WorktreeError::BeyondSymlink`] (git treats
//!   such paths as absent from the working tree);
//! - a final component that is a symlink is reported as one, with its target text, which is
//!   what git stores as a link's content; it is never followed;
//! - only regular files are read: the file is opened non-blocking (a FIFO never blocks) and
//!   its type is taken from `fstat` on the open descriptor; FIFOs, sockets and devices are
//!   [`Entry::Special`] and never read;
//! - reads are capped: [`read`] takes at most `cap + 1` bytes, so a file that grows while it
//!   is read, or lies about its size, is reported too large instead of filling memory.

use std::ffi::OsStr;
use std::io::Read as _;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use bstr::{BString, ByteSlice};
use rustix::fs::{AtFlags, FileType, Mode, OFlags, ResolveFlags};
use rustix::io::Errno;

/// The error returned when a working-tree path cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum WorktreeError {
    /// The path is absolute, empty, or has an empty, `.` or `..` component.
    #[error("'{}' is not a path inside the working tree", crate::text::clip(&path.to_str_lossy(), 200))]
    InvalidPath {
        /// The path as given.
        path: BString,
    },
    /// A leading component of the path is a symlink.
    #[error("'{}' is beyond a symbolic link", crate::text::clip(&path.to_str_lossy(), 200))]
    BeyondSymlink {
        /// The path as given.
        path: BString,
    },
    /// The file system refused an operation.
    #[error("cannot read '{}'", crate::text::clip(&path.to_string_lossy(), 200))]
    Io {
        /// The full path.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

/// What a path of the working tree holds, without anything read yet.
#[derive(Debug)]
pub enum Entry {
    /// A regular file, open for reading.
    File {
        /// The open file.
        file: std::fs::File,
        /// Its size when it was opened.
        size: u64,
        /// Whether any execute bit is set (git's `100755`).
        executable: bool,
    },
    /// A symbolic link, never followed: its target, which is what git stores as its content.
    Symlink(Vec<u8>),
    /// A directory (for git: a submodule or a nested repository).
    Directory,
    /// A FIFO, socket or device: never read.
    Special,
}

impl Entry {
    /// The size git would report: the file's length, or the length of a link's target.
    pub fn size(&self) -> Option<u64> {
        match self {
            Entry::File { size, .. } => Some(*size),
            Entry::Symlink(target) => Some(target.len() as u64),
            Entry::Directory | Entry::Special => None,
        }
    }
}

/// What [`read`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Content {
    /// A regular file's bytes (at most the cap).
    File(Vec<u8>),
    /// A symbolic link's target.
    Symlink(Vec<u8>),
    /// A directory.
    Directory,
    /// A FIFO, socket or device.
    Special,
    /// A regular file over the cap; at least this many bytes.
    TooLarge(u64),
}

/// Checks that `rel` is a plain relative path and returns its components.
fn components(rel: &[u8]) -> Result<Vec<&[u8]>, WorktreeError> {
    let invalid = || WorktreeError::InvalidPath {
        path: BString::from(rel),
    };
    if rel.is_empty() || rel.contains(&0) {
        return Err(invalid());
    }
    let parts: Vec<&[u8]> = rel.split(|b| *b == b'/').collect();
    if parts
        .iter()
        .any(|p| p.is_empty() || *p == b"." || *p == b"..")
    {
        return Err(invalid());
    }
    Ok(parts)
}

/// Checks that `rel` is a plain relative path that [`open`] accepts.
pub fn check_path(rel: &[u8]) -> Result<(), WorktreeError> {
    components(rel).map(drop)
}

/// Opens `rel` below `root` without following any symlink; `Ok(None)` when it does not exist
/// (or a leading component is not a directory, as git sees it).
pub fn open(root: &Path, rel: &[u8]) -> Result<Option<Entry>, WorktreeError> {
    open_with(root, rel, true)
}

fn open_with(root: &Path, rel: &[u8], fast: bool) -> Result<Option<Entry>, WorktreeError> {
    let parts = components(rel)?;
    let io = |e: Errno| WorktreeError::Io {
        path: root.join(OsStr::from_bytes(rel)),
        source: e.into(),
    };
    let root_fd = match rustix::fs::open(
        root,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    ) {
        Ok(fd) => fd,
        Err(Errno::NOENT | Errno::NOTDIR) => return Ok(None),
        Err(e) => {
            return Err(WorktreeError::Io {
                path: root.to_owned(),
                source: e.into(),
            });
        }
    };
    let file_flags =
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY;
    if fast {
        let resolve =
            ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
        match rustix::fs::openat2(
            &root_fd,
            OsStr::from_bytes(rel),
            file_flags,
            Mode::empty(),
            resolve,
        ) {
            Ok(fd) => return classify(fd).map(Some).map_err(io),
            Err(Errno::NOENT | Errno::NOTDIR) => return Ok(None),
            // A symlink somewhere on the way (ELOOP), or no openat2 here (an old kernel or a
            // seccomp filter): the walk below tells which and reads a final link's target.
            Err(Errno::LOOP | Errno::NOSYS | Errno::PERM | Errno::INVAL | Errno::XDEV) => {}
            Err(e) => return Err(io(e)),
        }
    }
    let (last, leading) = parts
        .split_last()
        .expect("components() returns at least one part");
    let beyond = || WorktreeError::BeyondSymlink {
        path: BString::from(rel),
    };
    let mut dir = root_fd;
    for part in leading {
        let part = OsStr::from_bytes(part);
        match rustix::fs::openat(
            &dir,
            part,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        ) {
            Ok(fd) => dir = fd,
            Err(Errno::NOENT) => return Ok(None),
            Err(Errno::LOOP | Errno::NOTDIR) => {
                // O_NOFOLLOW on a link fails; so does O_DIRECTORY on a file. Which one?
                return match rustix::fs::statat(&dir, part, AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(st) if FileType::from_raw_mode(st.st_mode) == FileType::Symlink => {
                        Err(beyond())
                    }
                    Ok(_) | Err(Errno::NOENT) => Ok(None),
                    Err(e) => Err(io(e)),
                };
            }
            Err(e) => return Err(io(e)),
        }
    }
    let last = OsStr::from_bytes(last);
    let st = match rustix::fs::statat(&dir, last, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) => st,
        Err(Errno::NOENT | Errno::NOTDIR) => return Ok(None),
        Err(e) => return Err(io(e)),
    };
    match FileType::from_raw_mode(st.st_mode) {
        FileType::Symlink => {
            let target = rustix::fs::readlinkat(&dir, last, Vec::new()).map_err(io)?;
            Ok(Some(Entry::Symlink(target.into_bytes())))
        }
        FileType::RegularFile | FileType::Directory => {
            // Opened without following: if the name became a link since the stat, this fails.
            let fd = rustix::fs::openat(&dir, last, file_flags, Mode::empty()).map_err(io)?;
            classify(fd).map(Some).map_err(io)
        }
        _ => Ok(Some(Entry::Special)),
    }
}

/// Tells what an open descriptor is, from `fstat` on the descriptor itself.
fn classify(fd: OwnedFd) -> Result<Entry, Errno> {
    let st = rustix::fs::fstat(&fd)?;
    Ok(match FileType::from_raw_mode(st.st_mode) {
        FileType::RegularFile => Entry::File {
            size: u64::try_from(st.st_size).unwrap_or(0),
            executable: st.st_mode & 0o111 != 0,
            file: std::fs::File::from(fd),
        },
        FileType::Directory => Entry::Directory,
        _ => Entry::Special,
    })
}

/// Reads `rel` below `root` as [`open`] resolves it, taking at most `cap` bytes of a regular
/// file; `Ok(None)` when it does not exist.
pub fn read(root: &Path, rel: &[u8], cap: u64) -> Result<Option<Content>, WorktreeError> {
    read_entry(root, rel, cap, open(root, rel)?)
}

/// Reads what [`open`] returned (see [`read`]).
pub fn read_entry(
    root: &Path,
    rel: &[u8],
    cap: u64,
    entry: Option<Entry>,
) -> Result<Option<Content>, WorktreeError> {
    let Some(entry) = entry else {
        return Ok(None);
    };
    Ok(Some(match entry {
        Entry::File { file, size, .. } => {
            if size > cap {
                return Ok(Some(Content::TooLarge(size)));
            }
            let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
            file.take(cap.saturating_add(1))
                .read_to_end(&mut bytes)
                .map_err(|source| WorktreeError::Io {
                    path: root.join(OsStr::from_bytes(rel)),
                    source,
                })?;
            if bytes.len() as u64 > cap {
                Content::TooLarge(bytes.len() as u64)
            } else {
                Content::File(bytes)
            }
        }
        Entry::Symlink(target) => Content::Symlink(target),
        Entry::Directory => Content::Directory,
        Entry::Special => Content::Special,
    }))
}

/// Joins a path relative to `base` (which is itself `prefix` below the top of the working
/// tree) into a path from the top, resolving `.` and `..` by name; `None` when it leaves the
/// working tree. Resolving by name is safe because the result is then opened without
/// following any link.
pub fn normalize(prefix: &[u8], rel: &[u8]) -> Option<BString> {
    let mut out: Vec<&[u8]> = prefix
        .split(|b| *b == b'/')
        .filter(|p| !p.is_empty() && *p != b".")
        .collect();
    if rel.starts_with(b"/") {
        return None;
    }
    for part in rel.split(|b| *b == b'/') {
        match part {
            b"" | b"." => {}
            b".." => {
                out.pop()?;
            }
            p => out.push(p),
        }
    }
    (!out.is_empty()).then(|| BString::from(out.join(&b'/')))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// A work tree with a secret outside it and every kind of hostile entry inside.
    fn hostile() -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("repo");
        std::fs::create_dir_all(root.join("dir/sub")).unwrap();
        std::fs::write(tmp.path().join("secret"), "SECRET").unwrap();
        std::fs::create_dir_all(tmp.path().join("outside")).unwrap();
        std::fs::write(tmp.path().join("outside/f"), "SECRET").unwrap();
        std::fs::write(root.join("dir/sub/ok.txt"), "fine\n").unwrap();
        std::fs::write(root.join("big"), vec![b'x'; 100]).unwrap();
        symlink("../secret", root.join("link")).unwrap();
        symlink(tmp.path().join("outside"), root.join("linkdir")).unwrap();
        symlink("sub", root.join("dir/inner")).unwrap();
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            root.join("fifo"),
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .unwrap();
        (tmp, root)
    }

    fn both(root: &Path, rel: &str, cap: u64) -> Result<Option<Content>, String> {
        let run = |fast: bool| {
            open_with(root, rel.as_bytes(), fast)
                .and_then(|entry| read_entry(root, rel.as_bytes(), cap, entry))
                .map_err(|e| e.to_string())
        };
        let (fast, slow) = (run(true), run(false));
        assert_eq!(fast, slow, "openat2 and the component walk agree on {rel}");
        fast
    }

    #[test]
    fn worktree_reads_never_leave_the_tree() {
        let (_tmp, root) = hostile();
        assert_eq!(
            both(&root, "dir/sub/ok.txt", 1000),
            Ok(Some(Content::File(b"fine\n".to_vec())))
        );
        // A symlink is its target text, never the file it names.
        assert_eq!(
            both(&root, "link", 1000),
            Ok(Some(Content::Symlink(b"../secret".to_vec())))
        );
        // Through a symlinked directory: refused, whether it leads out or stays inside.
        for rel in ["linkdir/f", "dir/inner/ok.txt"] {
            let got = both(&root, rel, 1000);
            assert!(
                matches!(&got, Err(e) if e.contains("beyond a symbolic link")),
                "{rel}: {got:?}"
            );
        }
        for rel in [
            "/etc/hostname",
            "../secret",
            "dir/../../secret",
            "./link",
            "a//b",
            "",
        ] {
            let got = both(&root, rel, 1000);
            assert!(
                matches!(&got, Err(e) if e.contains("not a path inside")),
                "{rel}: {got:?}"
            );
        }
        assert_eq!(both(&root, "nope", 1000), Ok(None));
        assert_eq!(both(&root, "big/x", 1000), Ok(None));
        assert_eq!(both(&root, "dir", 1000), Ok(Some(Content::Directory)));
    }

    #[test]
    fn worktree_fifo_is_special_and_never_blocks() {
        let (_tmp, root) = hostile();
        let started = std::time::Instant::now();
        assert_eq!(both(&root, "fifo", 1000), Ok(Some(Content::Special)));
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn worktree_reads_are_capped() {
        let (_tmp, root) = hostile();
        assert_eq!(both(&root, "big", 99), Ok(Some(Content::TooLarge(100))));
        assert!(matches!(both(&root, "big", 100), Ok(Some(Content::File(b))) if b.len() == 100));
    }

    #[test]
    fn paths_are_normalized_by_name_inside_the_tree() {
        let n = |p: &str, r: &str| normalize(p.as_bytes(), r.as_bytes()).map(|b| b.to_string());
        assert_eq!(n("src", "main.rs"), Some("src/main.rs".into()));
        assert_eq!(n("src/a", "../b/./c.rs"), Some("src/b/c.rs".into()));
        assert_eq!(n("", "x"), Some("x".into()));
        assert_eq!(n("src", "../../etc/passwd"), None);
        assert_eq!(n("src", "/etc/passwd"), None);
        assert_eq!(n("src", ".."), None);
    }
}
