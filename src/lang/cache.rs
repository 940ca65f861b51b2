//! A persistent cache of analyses, keyed by blob id.
//!
//! A blob's content never changes, so its analysis by a given analyzer version never does
//! either: repeated manifests of the same commits (an agent asking `git diff main..HEAD` again
//! and again) skip parsing entirely. `GIT_PRISM_CACHE=0` (or `false`) turns the cache off.
//!
//! Where: the cache root is `$GIT_PRISM_CACHE_DIR`, else `$XDG_CACHE_HOME/git-prism`, else
//! `~/.cache/git-prism`; it must be an absolute path (a relative one would land in whatever
//! repository the command runs in), or the cache is off. Inside the root, git-prism creates
//! a private directory of its own, `user-<uid>` (mode 0700, made with `mkdir`), and uses it
//! only after checking, on the open directory, that it is a directory (not a symlink) owned by
//! the current user and closed to everyone else; otherwise the cache is off. The root itself
//! is created if missing but its mode is never changed: it may be `$HOME` or a shared
//! directory. Entries live in `user-<uid>/analysis-v<FORMAT>/<language>/<xx>/<rest of id>`.
//!
//! Invariants:
//! - Every file operation is relative to the private directory's open descriptor; entries
//!   are opened with `O_NOFOLLOW` and written to a temp file with an unpredictable name created
//!   with `O_CREAT | O_EXCL | O_NOFOLLOW` (mode 0600), then renamed into place.
//! - Each entry ends with a checksum (64-bit FNV-1a) of its content; a missing, truncated,
//!   oversized or corrupt entry is a miss, never an error, and a corrupt one is removed.
//! - The total size is kept under [`MAX_BYTES`] by deleting the oldest entries now and then.
//! - Keys are blob ids: git's (SHA-1 with collision detection) for committed content, checked
//!   against the content analysed before anything is stored (an object store can hold a file
//!   whose content is not what its name says), and the same id computed for working-tree
//!   content. No repository can make its entry stand for other content.
//! - A parse that ran out of time is stored too, and trusted for [`TIMEOUT_REMEMBERED`].

use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

use super::{Analysis, Call, CallSite, Declared, Function, FunctionKind, Opaque, Visibility};

/// Bumped whenever extraction changes what it produces.
pub const FORMAT: u32 = 15;

/// The cache is pruned back under this many bytes.
pub const MAX_BYTES: u64 = 512 * 1024 * 1024;

/// The largest entry read or written.
const MAX_ENTRY_BYTES: u64 = 64 * 1024 * 1024;

/// Why the cache is not used.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// `GIT_PRISM_CACHE` turns it off.
    #[error("the cache is off (GIT_PRISM_CACHE)")]
    Off,
    /// Neither a cache directory nor a home directory is known.
    #[error("no cache directory: set GIT_PRISM_CACHE_DIR, XDG_CACHE_HOME or HOME")]
    NoDirectory,
    /// The configured directory is relative.
    #[error("the cache directory '{}' is not an absolute path", .0.display())]
    Relative(PathBuf),
    /// The private directory exists but is not safe to use.
    #[error("the cache directory '{}' is not private to this user ({reason})", path.display())]
    NotPrivate {
        /// The private directory.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A file operation failed.
    #[error("cannot use the cache directory '{}'", path.display())]
    Io {
        /// The directory.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

/// The private directory of this format, open.
struct Store {
    dir: OwnedFd,
    path: PathBuf,
}

/// Returns the cache root the environment names (see the module documentation).
pub fn root() -> Result<PathBuf, CacheError> {
    root_from(|name| std::env::var_os(name))
}

fn root_from(env: impl Fn(&str) -> Option<std::ffi::OsString>) -> Result<PathBuf, CacheError> {
    let var = |name: &str| env(name).filter(|v| !v.is_empty());
    if var("GIT_PRISM_CACHE").is_some_and(|v| v == "0" || v.eq_ignore_ascii_case("false")) {
        return Err(CacheError::Off);
    }
    let root = match var("GIT_PRISM_CACHE_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => var("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".cache")))
            .map(|p| p.join("git-prism"))
            .ok_or(CacheError::NoDirectory)?,
    };
    if !root.is_absolute() {
        return Err(CacheError::Relative(root));
    }
    Ok(root)
}

/// Opens (creating it if needed) the private directory `user-<uid>/analysis-v<FORMAT>` under
/// `root`, checking it is this user's alone.
fn open_store(root: &Path) -> Result<Store, CacheError> {
    let io = |path: &Path| {
        let path = path.to_owned();
        move |e: Errno| CacheError::Io {
            path,
            source: e.into(),
        }
    };
    std::fs::create_dir_all(root).map_err(|source| CacheError::Io {
        path: root.to_owned(),
        source,
    })?;
    let root_fd = rustix::fs::open(
        root,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(io(root))?;
    let uid = rustix::process::geteuid();
    let private_name = format!("user-{}", uid.as_raw());
    let private = root.join(&private_name);
    let private_fd = subdirectory(&root_fd, &private_name).map_err(io(&private))?;
    let st = rustix::fs::fstat(&private_fd).map_err(io(&private))?;
    let not_private = |reason: String| CacheError::NotPrivate {
        path: private.clone(),
        reason,
    };
    if st.st_uid != uid.as_raw() {
        return Err(not_private(format!("owned by uid {}", st.st_uid)));
    }
    if st.st_mode & 0o077 != 0 {
        return Err(not_private(format!("mode {:o}", st.st_mode & 0o7777)));
    }
    let name = format!("analysis-v{FORMAT}");
    let path = private.join(&name);
    let dir = subdirectory(&private_fd, &name).map_err(io(&path))?;
    Ok(Store { dir, path })
}

/// Creates `name` in `parent` (mode 0700) unless it exists, and opens it without following a
/// symlink.
fn subdirectory(parent: &OwnedFd, name: &str) -> Result<OwnedFd, Errno> {
    match rustix::fs::mkdirat(parent, name, Mode::from_raw_mode(0o700)) {
        Ok(()) | Err(Errno::EXIST) => {}
        Err(e) => return Err(e),
    }
    rustix::fs::openat(
        parent,
        name,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
}

/// The store, opened once per process; `None` when the cache is off or unusable.
fn store() -> Option<&'static Store> {
    static STORE: OnceLock<Option<Store>> = OnceLock::new();
    STORE
        .get_or_init(|| open_store(&root().ok()?).ok())
        .as_ref()
}

/// Returns the directory entries are stored in, or why there is none.
pub fn dir() -> Result<PathBuf, CacheError> {
    match store() {
        Some(store) => Ok(store.path.clone()),
        // Opened again only to say why: the store itself stays off for this process.
        None => open_store(&root()?).map(|s| s.path),
    }
}

/// The entry's path relative to the store: `<label>/<xx>/<rest>`.
fn entry(oid: &str, label: &str) -> Option<(String, String)> {
    let valid_label = !label.is_empty()
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !valid_label || oid.len() < 4 || !oid.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Some((format!("{label}/{}", &oid[..2]), oid[2..].to_owned()))
}

/// Returns the cached analysis of a blob, if any.
pub fn get(oid: &str, label: &str) -> Option<Analysis> {
    let store = store()?;
    let (dir, name) = entry(oid, label)?;
    get_in(&store.dir, &format!("{dir}/{name}"))
}

fn get_in(dir: &OwnedFd, rel: &str) -> Option<Analysis> {
    let fd = rustix::fs::openat(
        dir,
        rel,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .ok()?;
    let st = rustix::fs::fstat(&fd).ok()?;
    if FileType::from_raw_mode(st.st_mode) != FileType::RegularFile {
        return None;
    }
    let mut bytes = Vec::new();
    std::fs::File::from(fd)
        .take(MAX_ENTRY_BYTES + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    let decoded = (bytes.len() as u64 <= MAX_ENTRY_BYTES)
        .then(|| decode(&bytes))
        .flatten();
    if decoded.is_none() {
        // Corrupt or foreign: remove it so the next write can replace it.
        let _ = rustix::fs::unlinkat(dir, rel, AtFlags::empty());
    }
    // A parse that ran out of time is remembered (a hostile file would take its time again
    // on every call), but only for a while: the machine may just have been busy.
    let timed_out = decoded.as_ref().is_some_and(|a| {
        a.skipped
            .as_deref()
            .is_some_and(|r| r.contains(super::OVER_BUDGET))
    });
    if timed_out {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        if now.saturating_sub(st.st_mtime) > TIMEOUT_REMEMBERED.as_secs() as i64 {
            return None;
        }
    }
    decoded
}

/// How long a parse that ran out of time is remembered before it is tried again.
pub const TIMEOUT_REMEMBERED: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// Stores the analysis of a blob (best effort: a failure only costs a future parse).
pub fn put(oid: &str, label: &str, analysis: &Analysis) {
    let Some(store) = store() else { return };
    let Some((dir, name)) = entry(oid, label) else {
        return;
    };
    if put_in(&store.dir, &dir, &name, &encode(analysis)) {
        maybe_prune(store);
    }
}

fn put_in(store: &OwnedFd, dir: &str, name: &str, bytes: &[u8]) -> bool {
    if bytes.len() as u64 > MAX_ENTRY_BYTES {
        return false;
    }
    let Some((label, _)) = dir.split_once('/') else {
        return false;
    };
    for d in [label, dir] {
        match rustix::fs::mkdirat(store, d, Mode::from_raw_mode(0o700)) {
            Ok(()) | Err(Errno::EXIST) => {}
            Err(_) => return false,
        }
    }
    let tmp = format!("{dir}/.tmp-{:016x}", unpredictable());
    let Ok(fd) = rustix::fs::openat(
        store,
        tmp.as_str(),
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o600),
    ) else {
        return false;
    };
    let written = std::fs::File::from(fd).write_all(bytes).is_ok()
        && rustix::fs::renameat(store, tmp.as_str(), store, format!("{dir}/{name}")).is_ok();
    if !written {
        let _ = rustix::fs::unlinkat(store, tmp.as_str(), AtFlags::empty());
    }
    written
}

/// A number no other process can guess: the standard library's per-process random hash keys
/// (seeded from the operating system) over the process id, a counter and the time.
fn unpredictable() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    h.write_u64(COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    h.finish()
}

/// Now and then (about one write in 500), deletes the oldest entries if the cache is too big.
fn maybe_prune(store: &Store) {
    static COUNT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let seed = std::process::id().wrapping_add(n);
    if seed % 500 != 0 {
        return;
    }
    prune_in(&store.dir, MAX_BYTES);
}

/// Deletes the oldest entries until the cache holds at most three quarters of `limit` bytes
/// (when it holds more than `limit`). Returns the bytes removed.
pub fn prune(dir: &Path, limit: u64) -> u64 {
    match rustix::fs::open(
        dir,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    ) {
        Ok(fd) => prune_in(&fd, limit),
        Err(_) => 0,
    }
}

/// [`prune`] below an open directory: everything is found and removed relative to it, never
/// through a symlink (a link is removed as an entry, not followed).
fn prune_in(dir: &OwnedFd, limit: u64) -> u64 {
    // (modified, size, path relative to `dir`)
    let mut files: Vec<(i64, u64, std::ffi::CString)> = Vec::new();
    let mut stack: Vec<Vec<u8>> = vec![Vec::new()];
    while let Some(prefix) = stack.pop() {
        let sub = if prefix.is_empty() {
            rustix::fs::openat(
                dir,
                ".",
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )
        } else {
            rustix::fs::openat(
                dir,
                std::ffi::OsStr::from_bytes(&prefix),
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::empty(),
            )
        };
        let Ok(sub) = sub else { continue };
        let Ok(mut entries) = rustix::fs::Dir::read_from(&sub) else {
            continue;
        };
        while let Some(Ok(e)) = entries.read() {
            let name = e.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            let Ok(st) = rustix::fs::statat(&sub, e.file_name(), AtFlags::SYMLINK_NOFOLLOW) else {
                continue;
            };
            let mut rel = prefix.clone();
            if !rel.is_empty() {
                rel.push(b'/');
            }
            rel.extend_from_slice(name);
            if FileType::from_raw_mode(st.st_mode) == FileType::Directory {
                stack.push(rel);
            } else if let Ok(rel) = std::ffi::CString::new(rel) {
                files.push((st.st_mtime, u64::try_from(st.st_size).unwrap_or(0), rel));
            }
        }
    }
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    if total <= limit {
        return 0;
    }
    files.sort();
    let mut removed = 0;
    for (_, len, rel) in files {
        if total <= limit / 4 * 3 {
            break;
        }
        if rustix::fs::unlinkat(dir, rel.as_c_str(), AtFlags::empty()).is_ok() {
            total -= len;
            removed += len;
        }
    }
    removed
}

const MAGIC: &[u8; 4] = b"GPA\x02";

/// 64-bit FNV-1a: a change of any single byte always changes it (each step is a bijection of
/// the state), so a flipped bit is never served as data.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h: u64, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A visibility as two bits of an entry's flags.
fn visibility_bits(v: Visibility) -> u8 {
    match v {
        Visibility::Private => 0,
        Visibility::Implementation => 1,
        Visibility::Public => 2,
    }
}

/// Reads [`visibility_bits`]; `None` for bits it never writes.
fn visibility_of(bits: u8) -> Option<Visibility> {
    match bits {
        0 => Some(Visibility::Private),
        1 => Some(Visibility::Implementation),
        2 => Some(Visibility::Public),
        _ => None,
    }
}

fn encode(a: &Analysis) -> Vec<u8> {
    let mut out = Vec::with_capacity(
        256 + a
            .functions
            .iter()
            .map(|f| f.tokens.len() * 4 + 128)
            .sum::<usize>(),
    );
    out.extend_from_slice(MAGIC);
    let put_u32 = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
    let put_u64 = |out: &mut Vec<u8>, v: u64| out.extend_from_slice(&v.to_le_bytes());
    let put_str = |out: &mut Vec<u8>, s: &str| {
        out.extend_from_slice(&(s.len() as u32).to_le_bytes());
        out.extend_from_slice(s.as_bytes());
    };
    out.push(u8::from(a.parse_errors));
    match &a.skipped {
        Some(reason) => {
            out.push(1);
            put_str(&mut out, reason);
        }
        None => out.push(0),
    }
    put_u32(&mut out, a.imports.len() as u32);
    for i in &a.imports {
        put_str(&mut out, i);
    }
    put_u32(&mut out, a.functions.len() as u32);
    for f in &a.functions {
        put_str(&mut out, &f.name);
        put_str(&mut out, &f.leaf);
        out.push(
            u8::from(f.kind == FunctionKind::Method)
                | (u8::from(f.test) << 1)
                | (visibility_bits(f.visibility) << 2),
        );
        put_u32(&mut out, f.start_line);
        put_u32(&mut out, f.end_line);
        put_str(&mut out, &f.signature);
        put_u64(&mut out, f.signature_hash);
        put_u64(&mut out, f.body_hash);
        put_u64(&mut out, f.shape_hash);
        put_u64(&mut out, f.text_hash);
        put_u32(&mut out, f.tokens.len() as u32);
        for t in &f.tokens {
            put_u32(&mut out, *t);
        }
    }
    put_u32(&mut out, a.declarations.len() as u32);
    for d in &a.declarations {
        put_str(&mut out, &d.name);
        put_str(&mut out, &d.kind);
        put_str(&mut out, &d.signature);
        out.push(u8::from(d.test) | (visibility_bits(d.visibility) << 2));
        put_u32(&mut out, d.start_line);
        put_u32(&mut out, d.end_line);
    }
    put_u32(&mut out, a.calls.len() as u32);
    for c in &a.calls {
        put_str(&mut out, &c.site.name);
        put_str(&mut out, &c.site.qualifier);
        out.push(u8::from(c.site.member) | (u8::from(c.test) << 1));
        put_u32(&mut out, c.line);
        put_u32(&mut out, c.caller.unwrap_or(u32::MAX));
    }
    put_u32(&mut out, a.opaque.len() as u32);
    for o in &a.opaque {
        put_str(&mut out, &o.name);
        put_u32(&mut out, o.start_line);
        put_u32(&mut out, o.end_line);
        put_u64(&mut out, o.hash);
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Reads what [`encode`] wrote; `None` for anything malformed or whose checksum differs.
fn decode(bytes: &[u8]) -> Option<Analysis> {
    let (bytes, sum) = bytes.split_last_chunk::<8>()?;
    if checksum(bytes) != u64::from_le_bytes(*sum) {
        return None;
    }
    let mut r = Reader { bytes, at: 0 };
    if r.take(4)? != MAGIC {
        return None;
    }
    let parse_errors = r.u8()? != 0;
    let skipped = match r.u8()? {
        0 => None,
        _ => Some(r.string()?),
    };
    let imports = (0..r.u32()?)
        .map(|_| r.string())
        .collect::<Option<Vec<_>>>()?;
    let count = r.u32()?;
    let mut functions = Vec::with_capacity(count.min(65_536) as usize);
    for _ in 0..count {
        let name = r.string()?;
        let leaf = r.string()?;
        let flags = r.u8()?;
        let kind = if flags & 1 != 0 {
            FunctionKind::Method
        } else {
            FunctionKind::Function
        };
        let test = flags & 2 != 0;
        let visibility = visibility_of(flags >> 2)?;
        let start_line = r.u32()?;
        let end_line = r.u32()?;
        let signature = r.string()?;
        let signature_hash = r.u64()?;
        let body_hash = r.u64()?;
        let shape_hash = r.u64()?;
        let text_hash = r.u64()?;
        let n = r.u32()? as usize;
        let raw = r.take(n.checked_mul(4)?)?;
        let tokens = raw
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        functions.push(Function {
            name,
            leaf,
            kind,
            test,
            start_line,
            end_line,
            signature,
            signature_hash,
            body_hash,
            shape_hash,
            text_hash,
            tokens,
            visibility,
        });
    }
    let count = r.u32()?;
    let mut declarations = Vec::with_capacity(count.min(65_536) as usize);
    for _ in 0..count {
        let name = r.string()?;
        let kind = r.string()?;
        let signature = r.string()?;
        let flags = r.u8()?;
        declarations.push(Declared {
            name,
            kind,
            signature,
            test: flags & 1 != 0,
            visibility: visibility_of(flags >> 2)?,
            start_line: r.u32()?,
            end_line: r.u32()?,
        });
    }
    let count = r.u32()?;
    let mut calls = Vec::with_capacity(count.min(65_536) as usize);
    for _ in 0..count {
        let name = r.string()?;
        let qualifier = r.string()?;
        let flags = r.u8()?;
        let member = flags & 1 != 0;
        let test = flags & 2 != 0;
        let line = r.u32()?;
        let caller = Some(r.u32()?).filter(|c| *c != u32::MAX);
        if caller.is_some_and(|c| c as usize >= functions.len()) {
            return None;
        }
        calls.push(Call {
            site: CallSite {
                name,
                qualifier,
                member,
            },
            line,
            caller,
            test,
        });
    }
    let count = r.u32()?;
    let mut opaque = Vec::with_capacity(count.min(65_536) as usize);
    for _ in 0..count {
        opaque.push(Opaque {
            name: r.string()?,
            start_line: r.u32()?,
            end_line: r.u32()?,
            hash: r.u64()?,
        });
    }
    (r.at == bytes.len()).then_some(Analysis {
        functions,
        declarations,
        imports,
        calls,
        opaque,
        parse_errors,
        skipped,
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let out = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(out)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Option<u64> {
        let b = self.take(8)?;
        Some(u64::from_le_bytes([
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
        ]))
    }
    fn string(&mut self) -> Option<String> {
        let n = self.u32()? as usize;
        String::from_utf8(self.take(n)?.to_vec()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Language;

    #[test]
    fn entries_round_trip_and_corruption_is_a_miss() {
        let analysis = crate::lang::analyze(
            Language::Python,
            b"import os\n\nclass A:\n    def m(self):\n        return os.sep\n",
        )
        .unwrap();
        let bytes = encode(&analysis);
        assert_eq!(decode(&bytes), Some(analysis));
        for cut in [0, 3, 5, bytes.len() - 1] {
            assert_eq!(decode(&bytes[..cut]), None, "truncated at {cut}");
        }
        let mut extra = bytes.clone();
        extra.push(0);
        assert_eq!(decode(&extra), None);
        let skipped = Analysis::skipped("why".into());
        assert_eq!(decode(&encode(&skipped)), Some(skipped));
    }

    #[test]
    fn cache_entry_with_a_flipped_bit_is_a_miss() {
        // Before entries carried a checksum, a same-length change (a letter of a function
        // name) decoded as a valid analysis and was served as data.
        let analysis = crate::lang::analyze(
            crate::lang::Language::Python,
            b"def name():\n    return 1\n",
        )
        .unwrap();
        let bytes = encode(&analysis);
        for i in 0..bytes.len() {
            for bit in [0, 5] {
                let mut flipped = bytes.clone();
                flipped[i] ^= 1 << bit;
                assert_eq!(decode(&flipped), None, "bit {bit} of byte {i} flipped");
            }
        }
    }

    #[test]
    fn cache_root_must_be_absolute() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            }
        };
        assert!(matches!(
            root_from(env(&[("GIT_PRISM_CACHE_DIR", "cache"), ("HOME", "/h")])),
            Err(CacheError::Relative(_))
        ));
        assert!(matches!(
            root_from(env(&[("HOME", "relative-home")])),
            Err(CacheError::Relative(_))
        ));
        assert_eq!(
            root_from(env(&[("GIT_PRISM_CACHE_DIR", "/c"), ("HOME", "/h")])).unwrap(),
            Path::new("/c")
        );
        assert_eq!(
            root_from(env(&[("XDG_CACHE_HOME", "rel"), ("HOME", "/h")])).unwrap(),
            Path::new("/h/.cache/git-prism")
        );
        assert!(matches!(
            root_from(env(&[("GIT_PRISM_CACHE", "0"), ("HOME", "/h")])),
            Err(CacheError::Off)
        ));
    }

    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::symlink_metadata(path)
            .unwrap()
            .permissions()
            .mode()
            & 0o7777
    }

    #[test]
    fn cache_never_changes_the_mode_of_its_root() {
        // It used to chmod GIT_PRISM_CACHE_DIR itself to 0700 (a user's $HOME, once).
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("home");
        std::fs::create_dir(&root).unwrap();
        std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o755)).unwrap();
        let store = open_store(&root).unwrap();
        assert_eq!(mode(&root), 0o755);
        let private = root.join(format!("user-{}", rustix::process::geteuid().as_raw()));
        assert_eq!(mode(&private), 0o700);
        assert_eq!(store.path, private.join(format!("analysis-v{FORMAT}")));
    }

    #[test]
    fn cache_refuses_a_private_directory_it_cannot_trust() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let name = format!("user-{}", rustix::process::geteuid().as_raw());
        // A symlink planted where the private directory goes is never followed.
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::fs::set_permissions(&elsewhere, std::fs::Permissions::from_mode(0o755)).unwrap();
        let root = tmp.path().join("a");
        std::fs::create_dir(&root).unwrap();
        std::os::unix::fs::symlink(&elsewhere, root.join(&name)).unwrap();
        assert!(open_store(&root).is_err());
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
        assert_eq!(mode(&elsewhere), 0o755);
        // A directory others can enter is not private.
        let root = tmp.path().join("b");
        std::fs::create_dir_all(root.join(&name)).unwrap();
        std::fs::set_permissions(root.join(&name), std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(matches!(
            open_store(&root),
            Err(CacheError::NotPrivate { .. })
        ));
    }

    #[test]
    fn cache_entries_never_follow_symlinks() {
        let tmp = tempfile::tempdir().unwrap();
        let store = open_store(&tmp.path().join("root")).unwrap();
        let victim = tmp.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let analysis =
            crate::lang::analyze(crate::lang::Language::Python, b"def f():\n    pass\n").unwrap();
        std::fs::create_dir_all(store.path.join("python/ab")).unwrap();
        std::os::unix::fs::symlink(&victim, store.path.join("python/ab/cdef")).unwrap();
        // Reading through the link is a miss; writing replaces the link, not its target.
        assert_eq!(get_in(&store.dir, "python/ab/cdef"), None);
        assert!(put_in(&store.dir, "python/ab", "cdef", &encode(&analysis)));
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        assert_eq!(get_in(&store.dir, "python/ab/cdef"), Some(analysis));
        // A corrupt entry is a miss and is removed.
        let entry = store.path.join("python/ab/cdef");
        let mut bytes = std::fs::read(&entry).unwrap();
        let last = bytes.len() - 9;
        bytes[last] ^= 1;
        std::fs::write(&entry, bytes).unwrap();
        assert_eq!(get_in(&store.dir, "python/ab/cdef"), None);
        assert!(!entry.exists());
        // No temp file is left behind.
        let left: Vec<_> = std::fs::read_dir(store.path.join("python/ab"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn pruning_keeps_the_newest() {
        let tmp = tempfile::tempdir().unwrap();
        for i in 0..10 {
            let p = tmp.path().join(format!("f{i}"));
            std::fs::write(&p, vec![0u8; 100]).unwrap();
            let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000 + i);
            std::fs::File::options()
                .write(true)
                .open(&p)
                .unwrap()
                .set_modified(t)
                .unwrap();
        }
        assert_eq!(prune(tmp.path(), 2000), 0, "under the limit: nothing to do");
        let removed = prune(tmp.path(), 800);
        assert_eq!(removed, 400, "down to three quarters of the limit");
        assert!(!tmp.path().join("f0").exists() && tmp.path().join("f9").exists());
    }
}
