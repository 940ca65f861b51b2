//! git's names for objects and file kinds: [`Oid`] (a full object id) and [`Mode`] (a tree
//! entry's mode).
//!
//! Invariants: an [`Oid`] is always a full, lower-case hexadecimal id of 40 (SHA-1) or 64
//! (SHA-256) digits, so it can be passed to git as a revision without ever being read as an
//! option or a revision expression. A [`Mode`] keeps every mode git reports, known or not.

use std::fmt;

use schemars::JsonSchema;
use serde::Serialize;

/// A full object id, as lower-case hex.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(transparent)]
pub struct Oid(String);

/// The error returned for text that is not a full object id (its first 80 characters).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("not a full object id: '{0}'")]
pub struct InvalidOid(pub String);

/// The id of the empty tree in a SHA-1 repository (what a root commit is compared with).
pub const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

impl Oid {
    /// The empty tree's id.
    pub fn empty_tree() -> Oid {
        Oid(EMPTY_TREE.to_owned())
    }

    /// The id of a gix object id.
    pub(super) fn from_gix(id: gix::ObjectId) -> Oid {
        Oid(id.to_string())
    }

    /// The gix object id of this id.
    pub(super) fn to_gix(&self) -> Option<gix::ObjectId> {
        gix::ObjectId::from_hex(self.0.as_bytes()).ok()
    }

    /// Parses a full object id: 40 or 64 lower-case hexadecimal digits.
    pub fn parse(text: &str) -> Result<Oid, InvalidOid> {
        if matches!(text.len(), 40 | 64)
            && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        {
            Ok(Oid(text.to_owned()))
        } else {
            Err(InvalidOid(text.chars().take(80).collect()))
        }
    }

    /// Parses the bytes of a full object id.
    pub fn parse_bytes(bytes: &[u8]) -> Result<Oid, InvalidOid> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Oid::parse(text),
            Err(_) => Err(InvalidOid(
                String::from_utf8_lossy(bytes).chars().take(80).collect(),
            )),
        }
    }

    /// The id git gives a blob with this content (SHA-1 with collision detection, as git
    /// computes it): a key for content that no repository can make collide with other
    /// content. `None` when the content is a known collision attack.
    pub fn of_blob(content: &[u8]) -> Option<Oid> {
        gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::objs::Kind::Blob, content)
            .ok()
            .map(|id| Oid(id.to_string()))
    }

    /// Whether `content` is the blob this id names (a repository's object store can hold a
    /// file whose content is not what its name says; only ids git computes are checked, a
    /// SHA-256 id never matches).
    pub fn names_blob(&self, content: &[u8]) -> bool {
        self.0.len() == 40 && Oid::of_blob(content).is_some_and(|id| id == *self)
    }

    /// The null id (all zeros) of the same length: what git prints for "no object".
    pub fn is_null(&self) -> bool {
        self.0.bytes().all(|b| b == b'0')
    }

    /// The id as hex.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The id as hex bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }

    /// The first `n` digits.
    pub fn short(&self, n: usize) -> &str {
        &self.0[..n.min(self.0.len())]
    }
}

impl fmt::Display for Oid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An object id reads as its hex text wherever text is wanted (a cache key, a message).
impl std::ops::Deref for Oid {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl From<Oid> for std::ffi::OsString {
    fn from(oid: Oid) -> Self {
        oid.0.into()
    }
}

impl AsRef<std::ffi::OsStr> for Oid {
    fn as_ref(&self) -> &std::ffi::OsStr {
        std::ffi::OsStr::new(&self.0)
    }
}

/// A tree entry's mode as git reports it (`0` for a side where the path does not exist).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Mode(u32);

impl Mode {
    /// No entry on this side.
    pub const ABSENT: Mode = Mode(0);
    /// A regular file.
    pub const FILE: Mode = Mode(0o100644);
    /// An executable file.
    pub const EXECUTABLE: Mode = Mode(0o100755);
    /// A symbolic link.
    pub const SYMLINK: Mode = Mode(0o120000);
    /// A submodule (a gitlink).
    pub const GITLINK: Mode = Mode(0o160000);
    /// A directory.
    pub const TREE: Mode = Mode(0o040000);

    /// The mode of an octal number.
    pub const fn from_bits(bits: u32) -> Mode {
        Mode(bits)
    }

    /// Parses git's octal text (`100644`).
    pub fn parse(octal: &[u8]) -> Option<Mode> {
        let text = std::str::from_utf8(octal).ok()?;
        u32::from_str_radix(text, 8).ok().map(Mode)
    }

    /// The number.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Whether the path exists on this side.
    pub const fn exists(self) -> bool {
        self.0 != 0
    }

    /// Whether it is a symbolic link.
    pub const fn is_symlink(self) -> bool {
        self.0 & 0o170000 == 0o120000
    }

    /// Whether it is a submodule.
    pub const fn is_gitlink(self) -> bool {
        self.0 & 0o170000 == 0o160000
    }

    /// Whether it is a regular (possibly executable) file.
    pub const fn is_file(self) -> bool {
        self.0 & 0o170000 == 0o100000
    }
}

impl fmt::Display for Mode {
    /// git's six-digit octal form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:06o}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_ids_are_full_lower_case_hex() {
        assert!(Oid::parse(&"a".repeat(40)).is_ok());
        assert!(Oid::parse(&"0123456789abcdef".repeat(4)).is_ok());
        for bad in [
            "--upload-pack=touch /tmp/x",
            "HEAD",
            "",
            &"A".repeat(40),
            &"a".repeat(39),
            &"g".repeat(40),
            &"a".repeat(41),
        ] {
            assert!(Oid::parse(bad).is_err(), "{bad}");
        }
        assert!(Oid::parse(&"0".repeat(40)).unwrap().is_null());
        assert_eq!(Oid::parse(&"ab".repeat(20)).unwrap().short(4), "abab");
    }

    #[test]
    fn modes_say_what_kind_of_entry() {
        assert_eq!(Mode::parse(b"100644"), Some(Mode::FILE));
        assert!(Mode::parse(b"120000").unwrap().is_symlink());
        assert!(Mode::parse(b"160000").unwrap().is_gitlink());
        assert!(Mode::EXECUTABLE.is_file());
        assert!(!Mode::ABSENT.exists());
        assert_eq!(Mode::FILE.to_string(), "100644");
        assert_eq!(Mode::parse(b"9"), None);
    }
}
