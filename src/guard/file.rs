//! Reading the small files the guard trusts (the scope, the session's record, a worktree's
//! `gitdir`): regular files only, of bounded size, opened without blocking.

use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Reads a regular file of at most `max` bytes, without blocking on a FIFO or following a
/// device: anything but a regular file is an error, and so is a larger one.
pub fn read_regular(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    if meta.len() > max {
        return Err(std::io::Error::other(format!("larger than {max} bytes")));
    }
    let mut out = Vec::new();
    file.take(max + 1).read_to_end(&mut out)?;
    if out.len() as u64 > max {
        return Err(std::io::Error::other(format!("larger than {max} bytes")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn fifos_and_devices_are_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
        #[allow(unsafe_code)]
        // SAFETY: a valid NUL-terminated path.
        let made = unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
        assert_eq!(made, 0);
        assert!(read_regular(&fifo, 10).is_err());
        assert!(read_regular(Path::new("/dev/zero"), 10).is_err());
        let big = dir.path().join("big");
        std::fs::write(&big, [b'x'; 11]).unwrap();
        assert!(read_regular(&big, 10).is_err());
        std::fs::write(&big, [b'x'; 10]).unwrap();
        assert_eq!(read_regular(&big, 10).unwrap().len(), 10);
    }
}
