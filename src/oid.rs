//! Object ids: [`Oid`], a full object id as git names blobs, trees and commits.
//!
//! A leaf below every layer: the analyses key what they cache by the id of the bytes they read
//! ([`Oid::of_blob`]) without knowing of repositories, and the git layer names what it reads
//! with the same type.
//!
//! Invariant: an [`Oid`] is always a full, lower-case hexadecimal id of 40 (SHA-1) or 64
//! (SHA-256) digits, so it can be passed to git as a revision without ever being read as an
//! option or a revision expression.

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

    /// The id whose digest is `digest`: 20 bytes for SHA-1, 32 for SHA-256 (what a hash
    /// gives; other lengths are not digests git makes).
    pub fn from_digest(digest: &[u8]) -> Oid {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut text = String::with_capacity(digest.len() * 2);
        for b in digest {
            text.push(char::from(HEX[usize::from(b >> 4)]));
            text.push(char::from(HEX[usize::from(b & 15)]));
        }
        Oid(text)
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
        let mut hasher = sha1dc::Hasher::new();
        hasher.update(format!("blob {}\0", content.len()).as_bytes());
        hasher.update(content);
        hasher
            .finalize()
            .ok()
            .map(|digest| Oid::from_digest(digest.as_ref()))
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
    fn a_blob_s_id_is_git_s() {
        // `printf 'hello\n' | git hash-object --stdin`, and the empty blob.
        assert_eq!(
            Oid::of_blob(b"hello\n").unwrap().as_str(),
            "ce013625030ba8dba906f756967f9e9ca394464a"
        );
        assert_eq!(
            Oid::of_blob(b"").unwrap().as_str(),
            "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
        );
        assert!(Oid::of_blob(b"hello\n").unwrap().names_blob(b"hello\n"));
        assert!(!Oid::of_blob(b"hello\n").unwrap().names_blob(b"hello"));
        let digest: Vec<u8> = (0..20).map(|i| i * 13).collect();
        let id = Oid::from_digest(&digest);
        assert_eq!(Oid::parse(&id), Ok(id.clone()));
        assert!(id.starts_with("000d1a27"), "{id}");
    }
}
