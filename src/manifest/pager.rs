//! The pager every paged answer uses: which entries a page holds, the cursor to the next one,
//! and fitting a page into a byte budget.
//!
//! A document (a manifest, a history, a function context, the shim's pickaxe and blame
//! answers) pages a list of entries (files, commits, functions, hunks). A page is the window
//! `offset..end` of that list: the cursor gives the offset, the page size the end. When a byte
//! budget is given, the document first cuts its own detail, in its own stated order, and then
//! moves entries to the next page: [`largest_fitting`] finds the most entries that still fit,
//! and [`note`] records each cut, once, in the order applied.
//!
//! Invariants:
//! - A cursor is bound to a fingerprint of what is paged ([`encode_cursor`]): a cursor from
//!   before the range changed is refused as stale, never silently applied to other data.
//! - An entry is never dropped, only moved to a later page; a page holds at least one entry.
//! - Rendering never loses an error: JSON that cannot be written is a [`PageError`].

use serde::Serialize;

/// Bytes per token assumed when a budget is given in tokens: JSON averages a little over
/// three bytes per token, so this errs on the side of fitting.
pub const BYTES_PER_TOKEN: usize = 3;

/// The error returned for a cursor that cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CursorError {
    /// Not a cursor git-prism produced.
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
    #[error("cannot write the answer as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// How to page and bound the output.
#[derive(Clone, Debug, Default)]
pub struct Paging {
    /// Where to start (from a previous page's `next_cursor`).
    pub cursor: Option<String>,
    /// Entries per page.
    pub page_size: Option<usize>,
    /// The most bytes the JSON may take.
    pub max_bytes: Option<usize>,
    /// Pretty-print.
    pub pretty: bool,
    /// The command that gives git's own output (for shim answers).
    pub raw: Option<String>,
}

impl Paging {
    /// Returns the end of the page that starts at `offset` among `total` entries (the page
    /// size, or every entry left); an offset past the end is an invalid cursor.
    pub fn end(&self, offset: usize, total: usize) -> Result<usize, CursorError> {
        if offset > total {
            return Err(CursorError::Invalid(
                self.cursor.clone().unwrap_or_default(),
            ));
        }
        Ok(self
            .page_size
            .map_or(total, |n| offset.saturating_add(n.max(1)).min(total)))
    }

    /// Returns the offset the cursor names (0 without one), checked against `fingerprint`.
    pub fn offset(&self, fingerprint: u64) -> Result<usize, CursorError> {
        match &self.cursor {
            Some(cursor) => decode_cursor(cursor, fingerprint),
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
        serde_json::to_string_pretty(doc)
    } else {
        serde_json::to_string(doc)
    }
}

/// What a cursor is bound to: FNV-1a over what is paged, stable across runs and versions (not
/// the standard library's unspecified hasher), so a cursor from before the range changed is
/// refused.
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

/// Encodes a cursor: its kind, the fingerprint it is bound to, and a position
/// (`gp1-<fingerprint>-<position>`).
pub fn encode_tagged(tag: &str, fingerprint: u64, position: &str) -> String {
    format!("{tag}-{fingerprint:016x}-{position}")
}

/// Decodes a cursor of kind `tag`, checking it belongs to `fingerprint`; returns its position.
/// The cursor is quoted in errors cut to 80 characters (it is the caller's input).
pub fn decode_tagged<'c>(
    cursor: &'c str,
    tag: &str,
    fingerprint: u64,
) -> Result<&'c str, CursorError> {
    let quoted = || cursor.chars().take(80).collect::<String>();
    let invalid = || CursorError::Invalid(quoted());
    let rest = cursor
        .strip_prefix(tag)
        .and_then(|r| r.strip_prefix('-'))
        .ok_or_else(invalid)?;
    let (fp, position) = rest.split_once('-').ok_or_else(invalid)?;
    let fp = u64::from_str_radix(fp, 16).map_err(|_| invalid())?;
    if fp != fingerprint {
        return Err(CursorError::Stale(quoted()));
    }
    Ok(position)
}

/// Encodes a cursor to an offset.
pub fn encode_cursor(fingerprint: u64, offset: usize) -> String {
    encode_tagged("gp1", fingerprint, &offset.to_string())
}

/// Decodes a cursor, checking it belongs to `fingerprint`; returns the offset.
pub fn decode_cursor(cursor: &str, fingerprint: u64) -> Result<usize, CursorError> {
    let position = decode_tagged(cursor, "gp1", fingerprint)?;
    position
        .parse()
        .map_err(|_| CursorError::Invalid(cursor.chars().take(80).collect()))
}

/// Returns the largest `end` in `lo..=hi` for which `fits(end)` holds, by binary search (a page
/// with fewer entries never takes more room); `lo` when none larger does, `hi` when the range
/// is empty. `fits` is not asked about `lo` itself: a page holds at least one entry whether it
/// fits or not.
pub fn largest_fitting<E>(
    lo: usize,
    hi: usize,
    mut fits: impl FnMut(usize) -> Result<bool, E>,
) -> Result<usize, E> {
    let (mut lo, mut hi) = (lo, hi);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(mid)? {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Ok(lo.min(hi))
}

/// Records a cut as the last one applied, replacing an earlier note of the same kind (the
/// notes that start with `kind`): a cut made deeper is stated once, at its final depth.
pub fn note(cuts: &mut Vec<String>, kind: &str, text: String) {
    cuts.retain(|c| !c.starts_with(kind));
    cuts.push(text);
}

/// The note for entries moved to the next page: `<entries> moved to the next page to fit
/// <max> bytes (<shown> shown)`.
pub fn moved(entries: &str, max: usize, shown: usize) -> String {
    format!("{entries} moved to the next page to fit {max} bytes ({shown} shown)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_go_stale() {
        let c = encode_cursor(0xabc, 40);
        assert_eq!(decode_cursor(&c, 0xabc), Ok(40));
        assert_eq!(decode_cursor(&c, 0xabd), Err(CursorError::Stale(c.clone())));
        assert!(matches!(
            decode_cursor("nope", 1),
            Err(CursorError::Invalid(_))
        ));
        assert!(matches!(
            decode_cursor("gp1-zz-1", 1),
            Err(CursorError::Invalid(_))
        ));
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
    fn the_largest_fitting_page_is_found_without_asking_about_the_first() {
        let mut asked = Vec::new();
        let end = largest_fitting(1, 100, |n| {
            asked.push(n);
            Ok::<_, ()>(n * 10 <= 375)
        });
        assert_eq!(end, Ok(37));
        assert!(!asked.contains(&1), "{asked:?}");
        assert_eq!(largest_fitting(1, 100, |_| Ok::<_, ()>(false)), Ok(1));
        assert_eq!(largest_fitting(1, 100, |_| Ok::<_, ()>(true)), Ok(100));
        assert_eq!(largest_fitting(5, 5, |_| Ok::<_, ()>(false)), Ok(5));
        // An empty page (a cursor at the end) stays empty.
        assert_eq!(largest_fitting(5, 4, |_| Ok::<_, ()>(false)), Ok(4));
        assert_eq!(
            largest_fitting(1, 9, |n| if n > 4 { Err(n) } else { Ok(true) }),
            Err(5)
        );
    }

    #[test]
    fn a_deeper_cut_replaces_its_note() {
        let mut cuts = vec!["bodies".to_owned()];
        note(&mut cuts, "files beyond", "files beyond 10".into());
        note(&mut cuts, "files beyond", "files beyond 3".into());
        assert_eq!(cuts, ["bodies", "files beyond 3"]);
        assert_eq!(
            moved("files", 900, 2),
            "files moved to the next page to fit 900 bytes (2 shown)"
        );
    }
}
