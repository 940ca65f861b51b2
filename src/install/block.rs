//! Marked blocks in a user's files (shell start-up files, agents' instruction files): found,
//! added and removed without ever losing a byte of what is around them.
//!
//! A block sits between two marker lines, and a file holds at most one. Invariants:
//! - files are handled as bytes (a file that is not UTF-8 is edited like any other);
//! - only a complete block exactly as install writes it ([`Marks::is_ours`]) is ever removed or
//!   replaced; a BEGIN line without its END line, or an edited block, is an error that changes
//!   nothing;
//! - every change is computed first ([`plan_add`], [`plan_remove`]) so that callers can check
//!   every file before writing any, and written atomically (temp file with `O_EXCL`, synced,
//!   mode kept, renamed over the old file; a symlinked file's target is rewritten and the link
//!   stays a link);
//! - a file without a final newline gets it back when the block is removed.

use std::io;
use std::path::{Path, PathBuf};

use super::InstallError;

/// What a kind of block looks like.
#[derive(Clone, Copy, Debug)]
pub struct Marks {
    /// The first line.
    pub begin: &'static str,
    /// The last line.
    pub end: &'static str,
    /// Whether the lines from BEGIN to END (both included) are a block install writes.
    pub is_ours: fn(&[&[u8]]) -> bool,
}

/// Returns whether `file` carries a block of this kind (or the start of one).
pub fn has_block(file: &Path, marks: &Marks) -> bool {
    std::fs::read(file).is_ok_and(|s| lines(&s).any(|(_, _, l)| l == marks.begin.as_bytes()))
}

/// The lines of `content`: (start offset, end offset including the newline, the line without
/// its `\n` or `\r\n`).
fn lines(content: &[u8]) -> impl Iterator<Item = (usize, usize, &[u8])> {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= content.len() {
            return None;
        }
        let start = at;
        let end = content[start..]
            .iter()
            .position(|b| *b == b'\n')
            .map_or(content.len(), |i| start + i + 1);
        at = end;
        let line = &content[start..end];
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        Some((start, end, line))
    })
}

/// Where the blocks of `file`'s `content` are (byte ranges, from the start of the BEGIN line
/// to the end of the END line). Every block must be complete and exactly as install writes it
/// (only the directory may differ); anything else is an error, so text that is not the block
/// is never removed.
fn blocks(
    file: &Path,
    content: &[u8],
    marks: &Marks,
) -> Result<Vec<std::ops::Range<usize>>, InstallError> {
    let mut found = Vec::new();
    let mut open: Option<(usize, usize, Vec<&[u8]>)> = None;
    for (number, (start, end, line)) in lines(content).enumerate() {
        let number = number + 1;
        if let Some((_, _, body)) = open.as_mut() {
            body.push(line);
        }
        if line == marks.begin.as_bytes() {
            if let Some((_, first, _)) = open {
                return Err(InstallError::UnterminatedBlock {
                    path: file.to_owned(),
                    line: first,
                    end: marks.end,
                });
            }
            open = Some((start, number, vec![line]));
        } else if line == marks.end.as_bytes() {
            let Some((from, first, body)) = open.take() else {
                continue;
            };
            if !(marks.is_ours)(&body) {
                return Err(InstallError::EditedBlock {
                    path: file.to_owned(),
                    line: first,
                });
            }
            found.push(from..end);
        }
    }
    if let Some((_, first, _)) = open {
        return Err(InstallError::UnterminatedBlock {
            path: file.to_owned(),
            line: first,
            end: marks.end,
        });
    }
    Ok(found)
}

/// Returns `content` without its blocks (and the separator install put before each), or
/// `None` when there is none.
fn strip_blocks(
    file: &Path,
    content: &[u8],
    marks: &Marks,
) -> Result<Option<Vec<u8>>, InstallError> {
    let found = blocks(file, content, marks)?;
    if found.is_empty() {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(content.len());
    let mut at = 0;
    for range in found {
        out.extend_from_slice(&content[at..range.start]);
        at = range.end;
        let at_end = range.end == content.len();
        if out.ends_with(b"\n\n") || out == b"\n" {
            // The blank line install puts before the block.
            out.pop();
        } else if at_end && out.ends_with(b"\n") {
            // Install ended a last line that had no newline; the file gets its old end back.
            out.pop();
        }
    }
    out.extend_from_slice(&content[at..]);
    Ok(Some(out))
}

/// Reads a file's bytes; a missing file is empty.
fn read(file: &Path) -> Result<Option<Vec<u8>>, InstallError> {
    match std::fs::read(file) {
        Ok(s) => Ok(Some(s)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(InstallError::Io {
            action: "read",
            path: file.to_owned(),
            source,
        }),
    }
}

/// A change to one file, computed before any file is touched.
#[derive(Debug)]
pub struct Edit {
    /// The file.
    pub file: PathBuf,
    /// Its new content; `None` removes the file.
    content: Option<Vec<u8>>,
}

impl Edit {
    /// Writes the change (atomically: a temp file renamed over the old one).
    pub fn apply(&self) -> Result<(), InstallError> {
        match &self.content {
            Some(content) => write_atomic(&self.file, content),
            None => std::fs::remove_file(&self.file).map_err(|source| InstallError::Io {
                action: "remove",
                path: self.file.clone(),
                source,
            }),
        }
    }
}

/// Writes `content` as `file` atomically (as [`Edit::apply`] does), or removes the file.
pub fn replace_file(file: &Path, content: Option<&[u8]>) -> Result<(), InstallError> {
    match content {
        Some(content) => write_atomic(file, content),
        None => std::fs::remove_file(file).map_err(|source| InstallError::Io {
            action: "remove",
            path: file.to_owned(),
            source,
        }),
    }
}

/// Plans adding the block `wanted` to `file`; `None` when it is already there. Another block
/// of the kind (an earlier install's) is replaced, not doubled.
pub fn plan_add(file: &Path, marks: &Marks, wanted: &str) -> Result<Option<Edit>, InstallError> {
    let existing = read(file)?.unwrap_or_default();
    let found = blocks(file, &existing, marks)?;
    if let [only] = found.as_slice() {
        if existing[only.clone()] == *wanted.as_bytes() {
            return Ok(None);
        }
    }
    let mut content = strip_blocks(file, &existing, marks)?.unwrap_or(existing);
    if !content.is_empty() {
        // After a final newline this is the blank line before the block; without one it only
        // ends the last line (and removal takes it away again).
        content.push(b'\n');
    }
    content.extend_from_slice(wanted.as_bytes());
    Ok(Some(Edit {
        file: file.to_owned(),
        content: Some(content),
    }))
}

/// Plans removing the block from `file`; `None` when there is none. A file that held only the
/// block is deleted when `delete_if_only_block` says so (a file install created for it).
pub fn plan_remove(
    file: &Path,
    marks: &Marks,
    delete_if_only_block: bool,
) -> Result<Option<Edit>, InstallError> {
    let Some(existing) = read(file)? else {
        return Ok(None);
    };
    let Some(stripped) = strip_blocks(file, &existing, marks)? else {
        return Ok(None);
    };
    let only_block = stripped.iter().all(u8::is_ascii_whitespace);
    Ok(Some(Edit {
        file: file.to_owned(),
        content: (!(only_block && delete_if_only_block)).then_some(stripped),
    }))
}

/// Follows `file` through symlinks to the file that holds the content (a start-up file kept
/// in a dotfiles repository stays a symlink: its target is rewritten).
fn resolve(file: &Path) -> Result<PathBuf, InstallError> {
    let mut path = file.to_owned();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&path).map_err(|source| InstallError::Io {
                    action: "read the link",
                    path: path.clone(),
                    source,
                })?;
                path = match path.parent() {
                    Some(parent) => parent.join(target),
                    None => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(InstallError::Io {
        action: "resolve",
        path: file.to_owned(),
        source: io::Error::other("too many levels of symbolic links"),
    })
}

/// Replaces `file`'s content atomically: a temp file created with `O_EXCL` next to the real
/// file (after symlinks), given the old file's mode, written, synced and renamed over it. A
/// failure (a full disk) leaves the old file whole.
fn write_atomic(file: &Path, content: &[u8]) -> Result<(), InstallError> {
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;
    let target = resolve(file)?;
    let io_err = |action: &'static str, path: &Path| {
        let path = path.to_owned();
        move |source| InstallError::Io {
            action,
            path,
            source,
        }
    };
    let parent = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(io_err("create the directory of", &target))?;
    let mode = match std::fs::metadata(&target) {
        Ok(meta) if meta.is_file() => meta.permissions().mode() & 0o7777,
        Ok(_) => {
            return Err(InstallError::Io {
                action: "write",
                path: target,
                source: io::Error::other("not a regular file"),
            });
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => 0o644,
        Err(source) => {
            return Err(InstallError::Io {
                action: "read",
                path: target,
                source,
            });
        }
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}.git-prism-"))
        .suffix(".tmp")
        .tempfile_in(&parent)
        .map_err(io_err("create a temp file in", &parent))?;
    tmp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(mode))
        .map_err(io_err("write", tmp.path()))?;
    tmp.write_all(content)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(io_err("write", &target))?;
    tmp.persist(&target)
        .map_err(|e| io_err("replace", &target)(e.error))?;
    // The rename itself is durable once the directory is synced.
    if let Ok(dir) = std::fs::File::open(&parent) {
        let _ = dir.sync_all();
    }
    Ok(())
}
