//! A persistent cache of analyses, keyed by blob id.
//!
//! A blob's content never changes, so its analysis by a given analyzer version never does
//! either: repeated manifests of the same commits (an agent asking `git diff main..HEAD` again
//! and again) skip parsing entirely. Entries live in `$GIT_PRISM_CACHE_DIR` or
//! `$XDG_CACHE_HOME/git-prism` (default `~/.cache/git-prism`), one file per blob and language,
//! written atomically. `GIT_PRISM_CACHE=0` turns the cache off.
//!
//! Invariants: a missing, truncated or corrupt entry is a miss, never an error; the directory is
//! created private to the user; the total size is kept under [`MAX_BYTES`] by deleting the
//! oldest entries now and then.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::{Analysis, Call, CallSite, Function, FunctionKind};

/// Bumped whenever extraction changes what it produces.
pub const FORMAT: u32 = 5;

/// The cache is pruned back under this many bytes.
pub const MAX_BYTES: u64 = 512 * 1024 * 1024;

/// Returns the cache directory, or `None` when caching is off or there is no home.
pub fn dir() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        if var("GIT_PRISM_CACHE").is_some_and(|v| v == "0" || v.eq_ignore_ascii_case("false")) {
            return None;
        }
        let base = var("GIT_PRISM_CACHE_DIR").map(PathBuf::from).or_else(|| {
            var("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".cache")))
                .map(|p| p.join("git-prism"))
        })?;
        Some(base.join(format!("analysis-v{FORMAT}")))
    })
    .as_deref()
}

fn entry(dir: &Path, oid: &str, label: &str) -> Option<PathBuf> {
    if oid.len() < 4 || !oid.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Some(dir.join(label).join(&oid[..2]).join(&oid[2..]))
}

/// Returns the cached analysis of a blob, if any.
pub fn get(oid: &str, label: &str) -> Option<Analysis> {
    let path = entry(dir()?, oid, label)?;
    let bytes = std::fs::read(path).ok()?;
    decode(&bytes)
}

/// Stores the analysis of a blob (best effort: a failure only costs a future parse).
pub fn put(oid: &str, label: &str, analysis: &Analysis) {
    let Some(dir) = dir() else { return };
    let Some(path) = entry(dir, oid, label) else {
        return;
    };
    let Some(parent) = path.parent() else { return };
    if std::fs::create_dir_all(parent).is_err() {
        return;
    }
    restrict(dir);
    let tmp = parent.join(format!(".{}.{}.tmp", &oid[2..], std::process::id()));
    let written = std::fs::File::create(&tmp).and_then(|mut f| f.write_all(&encode(analysis)));
    if written.is_err() || std::fs::rename(&tmp, &path).is_err() {
        let _ = std::fs::remove_file(&tmp);
        return;
    }
    maybe_prune(dir);
}

/// Makes the cache's root private to the user, once per process.
fn restrict(dir: &Path) {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        use std::os::unix::fs::PermissionsExt;
        if let Some(root) = dir.parent() {
            let _ = std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o700));
        }
    });
}

/// Now and then (about one write in 500), deletes the oldest entries if the cache is too big.
fn maybe_prune(dir: &Path) {
    static COUNT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let seed = std::process::id().wrapping_add(n);
    if seed % 500 != 0 {
        return;
    }
    prune(dir, MAX_BYTES);
}

/// Deletes the oldest entries until the cache holds at most three quarters of `limit` bytes
/// (when it holds more than `limit`). Returns the bytes removed.
pub fn prune(dir: &Path, limit: u64) -> u64 {
    let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let Ok(meta) = e.metadata() else { continue };
            if meta.is_dir() {
                stack.push(e.path());
            } else {
                files.push((
                    meta.modified().unwrap_or(std::time::UNIX_EPOCH),
                    meta.len(),
                    e.path(),
                ));
            }
        }
    }
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    if total <= limit {
        return 0;
    }
    files.sort();
    let mut removed = 0;
    for (_, len, path) in files {
        if total <= limit / 4 * 3 {
            break;
        }
        if std::fs::remove_file(path).is_ok() {
            total -= len;
            removed += len;
        }
    }
    removed
}

const MAGIC: &[u8; 4] = b"GPA\x01";

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
        out.push(u8::from(f.kind == FunctionKind::Method) | (u8::from(f.test) << 1));
        put_u32(&mut out, f.start_line);
        put_u32(&mut out, f.end_line);
        put_str(&mut out, &f.signature);
        put_u64(&mut out, f.signature_hash);
        put_u64(&mut out, f.body_hash);
        put_u64(&mut out, f.text_hash);
        put_u32(&mut out, f.tokens.len() as u32);
        for t in &f.tokens {
            put_u32(&mut out, *t);
        }
    }
    put_u32(&mut out, a.calls.len() as u32);
    for c in &a.calls {
        put_str(&mut out, &c.site.name);
        put_str(&mut out, &c.site.qualifier);
        out.push(u8::from(c.site.member));
        put_u32(&mut out, c.line);
        put_u32(&mut out, c.caller.unwrap_or(u32::MAX));
    }
    out
}

/// Reads what [`encode`] wrote; `None` for anything malformed.
fn decode(bytes: &[u8]) -> Option<Analysis> {
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
        let start_line = r.u32()?;
        let end_line = r.u32()?;
        let signature = r.string()?;
        let signature_hash = r.u64()?;
        let body_hash = r.u64()?;
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
            text_hash,
            tokens,
        });
    }
    let count = r.u32()?;
    let mut calls = Vec::with_capacity(count.min(65_536) as usize);
    for _ in 0..count {
        let name = r.string()?;
        let qualifier = r.string()?;
        let member = r.u8()? != 0;
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
        });
    }
    (r.at == bytes.len()).then_some(Analysis {
        functions,
        imports,
        calls,
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
