//! Reading a few refs straight from a repository's files, for the session's record of what a
//! write did (the shim reads them before and after git runs, so they must cost microseconds,
//! not a git process): `HEAD` and the refs it and a push name, in the files-backend layout
//! (loose refs, then `packed-refs`). A repository whose refs this cannot read plainly (the
//! reftable backend, a link, an oversized file) is asked through the real git instead.
//!
//! Invariants: only regular files are read, never through a symbolic link, each at most
//! `MAX_LOOSE` bytes (`packed-refs`: `MAX_PACKED`); a symbolic ref is followed at most
//! `MAX_DEPTH` times; nothing is written.

use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use bstr::ByteSlice;

use crate::oid::Oid;

/// The largest loose ref read.
const MAX_LOOSE: u64 = 4096;
/// The largest `packed-refs` read (larger: git is asked).
const MAX_PACKED: u64 = 64 << 20;
/// The most symbolic refs followed in a row (git stops at 5 too).
const MAX_DEPTH: usize = 5;

/// Where a repository's refs live: `HEAD` and other per-worktree refs in `git_dir`, the rest in
/// `common_dir`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefStore {
    /// The git directory (a linked worktree's own).
    pub git_dir: PathBuf,
    /// The common git directory.
    pub common_dir: PathBuf,
}

/// What a ref names: the branch HEAD is on (when it is symbolic) and the commit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resolved {
    /// The full name of the ref it points to (`refs/heads/main`), when it is symbolic.
    pub target: Option<String>,
    /// The object id it resolves to (`None`: a branch without commits yet, or no such ref).
    pub oid: Option<Oid>,
}

/// Why the files could not be read plainly (the caller asks git).
#[derive(Debug)]
pub struct NotPlain;

impl RefStore {
    /// Resolves `name` (`HEAD`, or a full ref name) from the files.
    pub fn resolve(&self, name: &str) -> Result<Resolved, NotPlain> {
        if self.common_dir.join("reftable").exists() {
            return Err(NotPlain);
        }
        let mut name = name.to_owned();
        let mut target = None;
        for _ in 0..=MAX_DEPTH {
            match self.read_one(&name)? {
                Some(Value::Symbolic(next)) => {
                    if target.is_none() {
                        target = Some(next.clone());
                    }
                    name = next;
                }
                Some(Value::Direct(oid)) => {
                    return Ok(Resolved {
                        target,
                        oid: Some(oid),
                    });
                }
                None => return Ok(Resolved { target, oid: None }),
            }
        }
        Err(NotPlain)
    }

    /// One ref's value: its loose file, else its `packed-refs` line.
    fn read_one(&self, name: &str) -> Result<Option<Value>, NotPlain> {
        if !valid_name(name) {
            return Err(NotPlain);
        }
        let per_worktree = name == "HEAD"
            || name.starts_with("refs/bisect/")
            || name.starts_with("refs/worktree/");
        let dir = if per_worktree {
            &self.git_dir
        } else {
            &self.common_dir
        };
        if let Some(bytes) = read_capped(&dir.join(name), MAX_LOOSE)? {
            let text = bytes.trim_ascii();
            return match text.strip_prefix(b"ref: ") {
                Some(target) => Ok(Some(Value::Symbolic(
                    target
                        .trim_ascii()
                        .to_str()
                        .map_err(|_| NotPlain)?
                        .to_owned(),
                ))),
                None => Oid::parse_bytes(text)
                    .map(|o| Some(Value::Direct(o)))
                    .map_err(|_| NotPlain),
            };
        }
        if per_worktree {
            return Ok(None);
        }
        let Some(packed) = read_capped(&self.common_dir.join("packed-refs"), MAX_PACKED)? else {
            return Ok(None);
        };
        for line in packed.lines() {
            if line.starts_with(b"#") || line.starts_with(b"^") {
                continue;
            }
            if let Some((oid, refname)) = line.split_once_str(" ") {
                if refname == name.as_bytes() {
                    return Oid::parse_bytes(oid)
                        .map(|o| Some(Value::Direct(o)))
                        .map_err(|_| NotPlain);
                }
            }
        }
        Ok(None)
    }
}

enum Value {
    Symbolic(String),
    Direct(Oid),
}

/// A ref name that stays inside its directory (no `..`, no absolute path, no empty part).
fn valid_name(name: &str) -> bool {
    (name == "HEAD" || name.starts_with("refs/"))
        && !name
            .split('/')
            .any(|part| part.is_empty() || part == "." || part == "..")
        && !name.bytes().any(|b| b < 0x20 || b == b'\\')
}

/// A regular file's bytes, opened without following a link; `None` when it does not exist.
fn read_capped(path: &Path, max: u64) -> Result<Option<Vec<u8>>, NotPlain> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path);
    let file = match file {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        // A directory (`refs/heads/a` when `a/b` exists), a link, no permission: not plain.
        Err(_) => return Err(NotPlain),
    };
    let meta = file.metadata().map_err(|_| NotPlain)?;
    if !meta.is_file() {
        // A directory at a ref's place is no ref.
        return if meta.is_dir() {
            Ok(None)
        } else {
            Err(NotPlain)
        };
    }
    if meta.len() > max {
        return Err(NotPlain);
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|_| NotPlain)?;
    if bytes.len() as u64 > max {
        return Err(NotPlain);
    }
    Ok(Some(bytes))
}

/// Resolves `name` in the repository at `git_dir` with the real git (`rev-parse`,
/// `symbolic-ref`), for a ref store [`RefStore::resolve`] cannot read plainly.
pub fn resolve_with_git(git_dir: &Path, name: &str) -> Option<Resolved> {
    let mut globals = vec![std::ffi::OsString::from("--git-dir")];
    globals.push(git_dir.as_os_str().to_owned());
    let git = super::real::Invocation::locate(git_dir.to_owned(), globals).ok()?;
    let target = git
        .metadata(&["symbolic-ref", "-q", name])
        .ok()
        .and_then(|o| o.trim_ascii().to_str().ok().map(str::to_owned));
    let oid = git
        .rev_parse(&["--verify", "-q", &format!("{name}^{{commit}}")])
        .ok()
        .and_then(|o| Oid::parse_bytes(o.trim_ascii()).ok());
    Some(Resolved { target, oid })
}

/// Resolves `name` from the files, else with git.
pub fn resolve(store: &RefStore, name: &str) -> Option<Resolved> {
    match store.resolve(name) {
        Ok(r) => Some(r),
        Err(NotPlain) => resolve_with_git(&store.git_dir, name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, RefStore) {
        let tmp = tempfile::tempdir().unwrap();
        let git = tmp.path().join(".git");
        std::fs::create_dir_all(git.join("refs/heads")).unwrap();
        let store = RefStore {
            git_dir: git.clone(),
            common_dir: git,
        };
        (tmp, store)
    }

    #[test]
    fn head_follows_a_branch_loose_or_packed() {
        let (_tmp, s) = store();
        let a = "a".repeat(40);
        let b = "b".repeat(40);
        std::fs::write(s.git_dir.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        assert_eq!(
            s.resolve("HEAD").unwrap(),
            Resolved {
                target: Some("refs/heads/main".into()),
                oid: None
            }
        );
        std::fs::write(
            s.common_dir.join("packed-refs"),
            format!("# pack-refs with: peeled\n{b} refs/heads/main\n^{a}\n"),
        )
        .unwrap();
        assert_eq!(s.resolve("HEAD").unwrap().oid.unwrap().as_str(), b);
        std::fs::write(s.common_dir.join("refs/heads/main"), format!("{a}\n")).unwrap();
        assert_eq!(s.resolve("HEAD").unwrap().oid.unwrap().as_str(), a);
        std::fs::write(s.git_dir.join("HEAD"), format!("{b}\n")).unwrap();
        assert_eq!(
            s.resolve("HEAD").unwrap(),
            Resolved {
                target: None,
                oid: Some(Oid::parse(&b).unwrap())
            }
        );
    }

    #[test]
    fn odd_stores_are_not_read_plainly() {
        let (_tmp, s) = store();
        std::fs::write(s.git_dir.join("HEAD"), "ref: refs/heads/../../x\n").unwrap();
        assert!(s.resolve("HEAD").is_err());
        std::fs::write(s.git_dir.join("HEAD"), "ref: refs/heads/a\n").unwrap();
        std::fs::write(s.common_dir.join("refs/heads/a"), "ref: refs/heads/a\n").unwrap();
        assert!(s.resolve("HEAD").is_err(), "a loop ends");
        std::fs::write(s.common_dir.join("refs/heads/a"), "x".repeat(5000)).unwrap();
        assert!(s.resolve("HEAD").is_err(), "oversized");
        std::fs::remove_file(s.common_dir.join("refs/heads/a")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", s.common_dir.join("refs/heads/a")).unwrap();
        assert!(s.resolve("HEAD").is_err(), "a link is not followed");
        std::fs::create_dir_all(s.common_dir.join("reftable")).unwrap();
        assert!(s.resolve("HEAD").is_err(), "reftable");
    }
}
