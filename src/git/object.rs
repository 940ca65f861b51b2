//! git's file kinds, [`Mode`] (a tree entry's mode), and the conversions between object ids
//! ([`Oid`], a leaf module below every layer that uses them) and gix's.
//!
//! Invariant: a [`Mode`] keeps every mode git reports, known or not.

use std::fmt;

use crate::oid::Oid;

/// The id of a gix object id.
pub(super) fn from_gix(id: gix::ObjectId) -> Oid {
    Oid::from_digest(id.as_bytes())
}

/// The gix object id of an id.
pub(super) fn to_gix(oid: &Oid) -> Option<gix::ObjectId> {
    gix::ObjectId::from_hex(oid.as_bytes()).ok()
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
