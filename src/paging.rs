//! Pages of a list: where a page starts (the cursor), where it ends (the page size), and what
//! the cursor is bound to (a fingerprint); and the page's JSON ([`to_json`], [`json_len`],
//! written through [`crate::json`]). The budget a page must fit is [`crate::budget`]'s.
//!
//! A paged answer (a manifest, a history, a function context, the shim's answers) lists
//! entries (files, commits, functions, hunks). A page is the window `offset..end` of that list:
//! the cursor gives the offset, the page size the end, and the budget may end it earlier.
//!
//! Invariants:
//! - A cursor is bound to a fingerprint of what is paged ([`Cursor::encode`]): a cursor from
//!   before the range changed is refused as stale, never silently applied to other data.
//! - A cursor of one kind of answer is refused by another (each kind has its own tag).
//! - Cursors are the caller's input: an error quotes at most 80 characters of one.

use serde::Serialize;

use crate::budget::Budget;

/// The error returned for a cursor that cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CursorError {
    /// Not a cursor git-prism produced (or one of another kind of answer).
    #[error("invalid cursor '{0}'")]
    Invalid(String),
    /// The range changed since the cursor was produced.
    #[error(
        "stale cursor '{0}': the range has changed since it was produced (a branch moved or the working tree changed); start again without --cursor"
    )]
    Stale(String),
}

/// The error returned when a page cannot be rendered.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The cursor cannot be used.
    #[error(transparent)]
    Cursor(#[from] CursorError),
    /// The document could not be written as JSON.
    #[error("cannot write the answer as JSON")]
    Json(#[from] serde_json::Error),
}

/// How to page and bound an answer.
#[derive(Clone, Debug, Default)]
pub struct Paging {
    /// Where to start (from a previous page's cursor).
    pub cursor: Option<String>,
    /// Entries per page.
    pub page_size: Option<usize>,
    /// The most the rendered answer may take.
    pub budget: Option<Budget>,
    /// Pretty-print.
    pub pretty: bool,
}

impl Paging {
    /// Returns the end of the page that starts at `offset` among `total` entries (the page
    /// size, or every entry left); an offset past the end is an invalid cursor.
    pub fn end(&self, offset: usize, total: usize) -> Result<usize, CursorError> {
        if offset > total {
            return Err(CursorError::Invalid(quoted(
                self.cursor.as_deref().unwrap_or_default(),
            )));
        }
        Ok(self
            .page_size
            .map_or(total, |n| offset.saturating_add(n.max(1)).min(total)))
    }

    /// Returns the offset the cursor names (0 without one), checked against `fingerprint`.
    pub fn offset(&self, cursor: Cursor, fingerprint: u64) -> Result<usize, CursorError> {
        match &self.cursor {
            Some(c) => cursor.decode(c, fingerprint),
            None => Ok(0),
        }
    }

    /// Writes a document as JSON, pretty-printed when asked.
    pub fn to_json<T: Serialize + ?Sized>(&self, doc: &T) -> Result<String, serde_json::Error> {
        to_json(doc, self.pretty)
    }
}

/// Writes a document as JSON, compact or pretty-printed.
pub fn to_json<T: Serialize + ?Sized>(doc: &T, pretty: bool) -> Result<String, serde_json::Error> {
    if pretty {
        crate::json::to_string_pretty(doc)
    } else {
        crate::json::to_string(doc)
    }
}

/// Returns the length of a value's compact JSON form (`usize::MAX` if it cannot be written, so
/// that it never fits).
pub fn json_len<T: Serialize + ?Sized>(value: &T) -> usize {
    crate::json::to_string(value).map_or(usize::MAX, |s| s.len())
}

/// What a cursor is bound to: FNV-1a over what is paged, stable across runs and versions (not
/// the standard library's unspecified hasher), so a cursor from before the range changed is
/// refused. Not a defence against a chosen collision: a cursor only selects a page of data the
/// caller may read anyway.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint(u64);

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint(0xcbf2_9ce4_8422_2325)
    }
}

impl Fingerprint {
    /// A fingerprint of nothing yet.
    pub fn new() -> Self {
        Fingerprint::default()
    }

    /// Continues from an earlier fingerprint's value (to bind a cursor to more than it).
    pub fn extend(value: u64) -> Self {
        Fingerprint(value)
    }

    /// Adds `bytes`, then a separator (so `ab`,`c` and `a`,`bc` differ).
    pub fn eat(&mut self, bytes: &[u8]) -> &mut Self {
        for b in bytes.iter().chain(std::iter::once(&0xff)) {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
        self
    }

    /// The value.
    pub fn value(&self) -> u64 {
        self.0
    }
}

/// A kind of cursor: `<tag>-<fingerprint>-<position>`, where the position is an offset or, for
/// answers that page inside their entries, the answer's own position text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor(pub &'static str);

impl Cursor {
    /// The cursor of manifests, histories and function contexts (`gp1`).
    pub const LIST: Cursor = Cursor("gp1");

    /// Encodes the cursor of the page starting at `offset`.
    pub fn encode(self, fingerprint: u64, offset: usize) -> String {
        self.encode_position(fingerprint, &offset.to_string())
    }

    /// Encodes a cursor with a position of the answer's own making.
    pub fn encode_position(self, fingerprint: u64, position: &str) -> String {
        format!("{}-{fingerprint:016x}-{position}", self.0)
    }

    /// Decodes a cursor of this kind into the offset it names, checking it belongs to
    /// `fingerprint`.
    pub fn decode(self, cursor: &str, fingerprint: u64) -> Result<usize, CursorError> {
        self.decode_position(cursor, fingerprint)?
            .parse()
            .map_err(|_| CursorError::Invalid(quoted(cursor)))
    }

    /// Decodes a cursor of this kind into its position text, checking it belongs to
    /// `fingerprint`.
    pub fn decode_position(self, cursor: &str, fingerprint: u64) -> Result<&str, CursorError> {
        let invalid = || CursorError::Invalid(quoted(cursor));
        let rest = cursor
            .strip_prefix(self.0)
            .and_then(|r| r.strip_prefix('-'))
            .ok_or_else(invalid)?;
        let (fp, position) = rest.split_once('-').ok_or_else(invalid)?;
        let fp = u64::from_str_radix(fp, 16).map_err(|_| invalid())?;
        if fp != fingerprint {
            return Err(CursorError::Stale(quoted(cursor)));
        }
        Ok(position)
    }
}

/// A cursor as quoted back in an error: at most 80 characters.
fn quoted(cursor: &str) -> String {
    cursor.chars().take(80).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_go_stale() {
        let c = Cursor::LIST.encode(0xabc, 40);
        assert_eq!(Cursor::LIST.decode(&c, 0xabc), Ok(40));
        assert_eq!(
            Cursor::LIST.decode(&c, 0xabd),
            Err(CursorError::Stale(c.clone()))
        );
        for bad in [
            "nope",
            "gp1-zz-1",
            "gp1-",
            "gp1-0000000000000abc-x",
            "gl1-0000000000000abc-1",
        ] {
            assert!(
                matches!(
                    Cursor::LIST.decode(bad, 0xabc),
                    Err(CursorError::Invalid(_))
                ),
                "{bad}"
            );
        }
        let long = "x".repeat(500);
        assert_eq!(
            Cursor::LIST.decode(&long, 1),
            Err(CursorError::Invalid("x".repeat(80)))
        );
    }

    #[test]
    fn pages_end_at_the_page_size_and_refuse_offsets_past_the_end() {
        let paging = |page_size| Paging {
            cursor: Some("c".into()),
            page_size,
            ..Paging::default()
        };
        assert_eq!(paging(None).end(3, 10), Ok(10));
        assert_eq!(paging(Some(4)).end(3, 10), Ok(7));
        assert_eq!(paging(Some(4)).end(8, 10), Ok(10));
        // A page size of 0 still shows one entry.
        assert_eq!(paging(Some(0)).end(3, 10), Ok(4));
        assert_eq!(paging(None).end(10, 10), Ok(10));
        assert_eq!(
            paging(None).end(11, 10),
            Err(CursorError::Invalid("c".into()))
        );
    }

    #[test]
    fn fingerprints_separate_their_parts() {
        let one = Fingerprint::new().eat(b"ab").eat(b"c").value();
        let two = Fingerprint::new().eat(b"a").eat(b"bc").value();
        assert_ne!(one, two);
    }
}
