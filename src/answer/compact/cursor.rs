//! Where a page of a change answer starts, and the cursor that carries it: a position in the
//! map or in the hunks, bound to the range's facts and the hunk options so that a cursor from
//! before the branch moved is refused.

use std::ffi::OsString;

use crate::manifest::Manifest;
use crate::manifest::render::fingerprint;
use crate::paging::{Cursor, CursorError, Fingerprint};

/// Where a hunk page starts: the position in the hunk order, the hunk, and the part of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Position {
    /// The position in the hunk order.
    pub(super) file: usize,
    /// The hunk within the file.
    pub(super) hunk: usize,
    /// The part within the hunk (a hunk too large for a page is split).
    pub(super) part: usize,
}

/// Where a page starts: in the map (at a part of the table of contents and the page's number,
/// when known), or in the hunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum At {
    /// In the map: the part of the table of contents, and the page's number when known.
    Map(usize, Option<usize>),
    /// In the hunks.
    Hunks(Position),
}

/// The fingerprint a cursor carries: the range's facts and the hunk options.
pub(super) fn cursor_fingerprint(m: &Manifest, context: u32, shaping: &[OsString]) -> u64 {
    let mut h = Fingerprint::extend(fingerprint(m));
    h.eat(&context.to_le_bytes());
    for arg in shaping {
        h.eat(arg.as_encoded_bytes());
    }
    h.value()
}

/// The kind of a change answer's cursor.
const CURSOR: Cursor = Cursor("gp2");

/// The cursor of a page starting `at`, bound to the fingerprint `fp`.
pub(super) fn encode(fp: u64, at: At) -> String {
    let position = match at {
        At::Map(n, None) => format!("m{n}"),
        At::Map(n, Some(page)) => format!("m{n}.{page}"),
        At::Hunks(p) => format!("{}.{}.{}", p.file, p.hunk, p.part),
    };
    CURSOR.encode_position(fp, &position)
}

/// Where a cursor's page starts: refused when it is not one of [`encode`]'s, or when its
/// fingerprint is not `fp` (the range or the hunk options changed since).
pub(super) fn decode(cursor: &str, fp: u64) -> Result<At, CursorError> {
    let position = CURSOR.decode_position(cursor, fp)?;
    let invalid = || CursorError::Invalid(cursor.chars().take(80).collect());
    if let Some(n) = position.strip_prefix('m') {
        let (n, page) = match n.split_once('.') {
            Some((n, page)) => (n, Some(page.parse().map_err(|_| invalid())?)),
            None => (n, None),
        };
        return n.parse().map(|n| At::Map(n, page)).map_err(|_| invalid());
    }
    let mut numbers = position.split('.').map(str::parse::<usize>);
    match (
        numbers.next(),
        numbers.next(),
        numbers.next(),
        numbers.next(),
    ) {
        (Some(Ok(file)), Some(Ok(hunk)), Some(Ok(part)), None) => {
            Ok(At::Hunks(Position { file, hunk, part }))
        }
        _ => Err(invalid()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_go_stale() {
        let at = Position {
            file: 3,
            hunk: 1,
            part: 2,
        };
        let c = encode(0xabc, At::Hunks(at));
        assert_eq!(decode(&c, 0xabc), Ok(At::Hunks(at)));
        let m = encode(0xabc, At::Map(7, None));
        assert_eq!(decode(&m, 0xabc), Ok(At::Map(7, None)));
        let m = encode(0xabc, At::Map(7, Some(3)));
        assert_eq!(decode(&m, 0xabc), Ok(At::Map(7, Some(3))));
        assert!(matches!(decode(&c, 0xabd), Err(CursorError::Stale(_))));
        for bad in [
            "",
            "gp2-",
            "gp2-zz-1.1.1",
            "gp2-0abc-1.1",
            "gp2-0abc-1.1.1.1",
            "gp1-0abc-1",
        ] {
            assert!(
                matches!(decode(bad, 0xabc), Err(CursorError::Invalid(_))),
                "{bad}"
            );
        }
    }
}
