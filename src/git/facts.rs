//! Parsing git's `--raw --numstat -z --no-abbrev` output: of `git diff` ([`parse`]), and of
//! `git diff-tree --stdin`, commit by commit ([`parse_per_commit`]).
//!
//! With `-z`, git prints every raw record first (`:<mode> <mode> <oid> <oid> <status>` then
//! one path, or two for renames and copies), then every numstat record (`<added>\t<removed>\t`
//! then the path, or an empty path followed by the two paths of a rename), all NUL-terminated.
//! Paths are raw bytes: never unquoted, never re-encoded. Binary files have `-` counts.

use bstr::{BString, ByteSlice};

use super::object::Mode;
use crate::oid::Oid;

/// The change status git reports for a file pair (the letter of `--name-status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// `A`.
    Added,
    /// `M`.
    Modified,
    /// `D`.
    Deleted,
    /// `R`, with a similarity score.
    Renamed,
    /// `C`, with a similarity score.
    Copied,
    /// `T`: the kind of file changed (regular file, symlink, submodule).
    TypeChanged,
    /// `U`: an unmerged path.
    Unmerged,
    /// `X` or anything else git may add.
    Unknown,
}

impl Status {
    fn from_letter(letter: u8) -> Status {
        match letter {
            b'A' => Status::Added,
            b'M' => Status::Modified,
            b'D' => Status::Deleted,
            b'R' => Status::Renamed,
            b'C' => Status::Copied,
            b'T' => Status::TypeChanged,
            b'U' => Status::Unmerged,
            _ => Status::Unknown,
        }
    }

    /// Returns the `--name-status` letter.
    pub fn letter(self) -> char {
        match self {
            Status::Added => 'A',
            Status::Modified => 'M',
            Status::Deleted => 'D',
            Status::Renamed => 'R',
            Status::Copied => 'C',
            Status::TypeChanged => 'T',
            Status::Unmerged => 'U',
            Status::Unknown => 'X',
        }
    }
}

/// One file pair as git reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Mode before ([`Mode::ABSENT`] when the file did not exist).
    pub mode_before: Mode,
    /// Mode after ([`Mode::ABSENT`] when the file no longer exists).
    pub mode_after: Mode,
    /// Object id before (`None` for the null id).
    pub oid_before: Option<Oid>,
    /// Object id after (`None` for the null id, also for unhashed worktree files).
    pub oid_after: Option<Oid>,
    /// The status.
    pub status: Status,
    /// The similarity score of renames and copies (0-100).
    pub score: Option<u8>,
    /// The path (the destination of a rename or copy).
    pub path: BString,
    /// The source path of a rename or copy.
    pub old_path: Option<BString>,
    /// Lines added and removed; `None` for a binary file.
    pub lines: Option<(u64, u64)>,
}

/// The error returned by [`parse`]: what was malformed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct ParseError(pub String);

fn err(msg: impl Into<String>) -> ParseError {
    ParseError(msg.into())
}

/// Parses the output of `git diff --raw --numstat -z --no-abbrev ...`.
pub fn parse(out: &[u8]) -> Result<Vec<Entry>, ParseError> {
    let mut tokens = out.split(|b| *b == 0).peekable();
    let mut entries = Vec::new();
    let mut numstats: Vec<(Option<(u64, u64)>, BString)> = Vec::new();
    while let Some(token) = tokens.next() {
        if token.is_empty() {
            continue;
        }
        if token[0] == b':' {
            entries.push(parse_raw(token, &mut tokens)?);
        } else {
            numstats.push(parse_numstat(token, &mut tokens)?);
        }
    }
    attach_numstats(&mut entries, numstats)?;
    Ok(entries)
}

/// Parses the output of `git diff-tree --stdin --always -z --raw --numstat --no-abbrev`: for
/// every commit, its id, then its raw records, then its numstat records.
pub fn parse_per_commit(out: &[u8]) -> Result<Vec<(String, Vec<Entry>)>, ParseError> {
    let mut tokens = out.split(|b| *b == 0);
    let mut commits: Vec<(String, Vec<Entry>)> = Vec::new();
    let mut numstats: Vec<(Option<(u64, u64)>, BString)> = Vec::new();
    let finish = |commits: &mut Vec<(String, Vec<Entry>)>, numstats: &mut Vec<_>| {
        if let Some((_, entries)) = commits.last_mut() {
            attach_numstats(entries, std::mem::take(numstats))
        } else if numstats.is_empty() {
            Ok(())
        } else {
            Err(err("records before the first commit id"))
        }
    };
    while let Some(token) = tokens.next() {
        if token.is_empty() {
            continue;
        }
        if token[0] == b':' {
            let entry = parse_raw(token, &mut tokens)?;
            commits
                .last_mut()
                .ok_or_else(|| err("raw record before the first commit id"))?
                .1
                .push(entry);
        } else if token.contains(&b'\t') {
            numstats.push(parse_numstat(token, &mut tokens)?);
        } else if token.iter().all(u8::is_ascii_hexdigit)
            && (token.len() == 40 || token.len() == 64)
        {
            finish(&mut commits, &mut numstats)?;
            commits.push((String::from_utf8_lossy(token).into_owned(), Vec::new()));
        } else {
            return Err(err(format!("unexpected token {:?}", token.as_bstr())));
        }
    }
    finish(&mut commits, &mut numstats)?;
    Ok(commits)
}

/// Parses one raw record: the header token and its one or two path tokens.
pub fn parse_raw<'a>(
    header: &[u8],
    tokens: &mut impl Iterator<Item = &'a [u8]>,
) -> Result<Entry, ParseError> {
    let text = header
        .get(1..)
        .and_then(|h| h.to_str().ok())
        .ok_or_else(|| err(format!("bad raw header {:?}", header.as_bstr())))?;
    let fields: Vec<&str> = text.split(' ').collect();
    let [mode_before, mode_after, oid_before, oid_after, status] = fields[..] else {
        return Err(err(format!("bad raw header {text:?}")));
    };
    let mode = |m: &str| Mode::parse(m.as_bytes()).ok_or_else(|| err(format!("bad mode {m:?}")));
    let oid = |o: &str| -> Result<Option<Oid>, ParseError> {
        let oid = Oid::parse(o).map_err(|_| err(format!("bad object id {o:?}")))?;
        Ok((!oid.is_null()).then_some(oid))
    };
    let letter = *status
        .as_bytes()
        .first()
        .ok_or_else(|| err("empty status"))?;
    let status_kind = Status::from_letter(letter);
    let score = match &status[1..] {
        "" => None,
        digits => Some(
            digits
                .parse::<u8>()
                .map_err(|_| err(format!("bad score {status:?}")))?,
        ),
    };
    let mut next_path = || {
        tokens
            .next()
            .map(BString::from)
            .ok_or_else(|| err("raw record without a path"))
    };
    let (old_path, path) = match status_kind {
        Status::Renamed | Status::Copied => {
            let src = next_path()?;
            (Some(src), next_path()?)
        }
        _ => (None, next_path()?),
    };
    Ok(Entry {
        mode_before: mode(mode_before)?,
        mode_after: mode(mode_after)?,
        oid_before: oid(oid_before)?,
        oid_after: oid(oid_after)?,
        status: status_kind,
        score,
        path,
        old_path,
        lines: None,
    })
}

/// Parses one numstat record: `added\tremoved\tpath` or, for a rename, `added\tremoved\t`
/// followed by the two path tokens. Returns the counts and the destination path.
pub fn parse_numstat<'a>(
    token: &[u8],
    tokens: &mut impl Iterator<Item = &'a [u8]>,
) -> Result<(Option<(u64, u64)>, BString), ParseError> {
    let mut parts = token.splitn(3, |b| *b == b'\t');
    let (Some(added), Some(removed), Some(path)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(err(format!("bad numstat record {:?}", token.as_bstr())));
    };
    let count = |c: &[u8]| -> Result<Option<u64>, ParseError> {
        if c == b"-" {
            return Ok(None);
        }
        c.to_str()
            .ok()
            .and_then(|s| s.parse().ok())
            .map(Some)
            .ok_or_else(|| err(format!("bad count {:?}", c.as_bstr())))
    };
    let lines = match (count(added)?, count(removed)?) {
        (Some(a), Some(r)) => Some((a, r)),
        _ => None,
    };
    let path = if path.is_empty() {
        let _src = tokens
            .next()
            .ok_or_else(|| err("numstat rename without source"))?;
        BString::from(
            tokens
                .next()
                .ok_or_else(|| err("numstat rename without destination"))?,
        )
    } else {
        BString::from(path)
    };
    Ok((lines, path))
}

/// Attaches numstat counts to raw entries: in order when the two lists line up (they do, git
/// prints both in the same order), by path otherwise.
pub fn attach_numstats(
    entries: &mut [Entry],
    numstats: Vec<(Option<(u64, u64)>, BString)>,
) -> Result<(), ParseError> {
    let aligned = numstats.len() == entries.len()
        && entries
            .iter()
            .zip(&numstats)
            .all(|(e, (_, p))| e.path == *p);
    if aligned {
        for (entry, (lines, _)) in entries.iter_mut().zip(numstats) {
            entry.lines = lines;
        }
        return Ok(());
    }
    let mut by_path: std::collections::HashMap<BString, Vec<Option<(u64, u64)>>> =
        std::collections::HashMap::new();
    for (lines, path) in numstats {
        by_path.entry(path).or_default().push(lines);
    }
    for entry in entries.iter_mut() {
        if let Some(list) = by_path.get_mut(&entry.path) {
            if !list.is_empty() {
                entry.lines = list.remove(0);
                continue;
            }
        }
        // Unmerged paths have no numstat record of their own.
        if entry.status != Status::Unmerged {
            return Err(err(format!("no line counts for '{}'", entry.path)));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "1c5a36f0000000000000000000000000000000ab";
    const B: &str = "96cc558000000000000000000000000000000012";
    const Z: &str = "0000000000000000000000000000000000000000";

    fn z(parts: &[&str]) -> Vec<u8> {
        let mut out = Vec::new();
        for p in parts {
            out.extend_from_slice(p.as_bytes());
            out.push(0);
        }
        out
    }

    #[test]
    fn parses_every_kind_of_record() {
        let out = z(&[
            &format!(":100644 100644 {A} {B} M"),
            "a.txt",
            &format!(":000000 100644 {Z} {B} A"),
            "new file.txt",
            &format!(":100644 000000 {A} {Z} D"),
            "gone.txt",
            &format!(":100644 100644 {A} {B} R097"),
            "old.txt",
            "new.txt",
            &format!(":100644 120000 {A} {B} T"),
            "tc",
            &format!(":160000 160000 {A} {B} M"),
            "sub",
            "1\t0\ta.txt",
            "3\t0\tnew file.txt",
            "0\t7\tgone.txt",
            "1\t0\t",
            "old.txt",
            "new.txt",
            "1\t1\ttc",
            "1\t1\tsub",
        ]);
        let entries = parse(&out).unwrap();
        assert_eq!(entries.len(), 6);
        assert_eq!(entries[0].status, Status::Modified);
        assert_eq!(entries[0].lines, Some((1, 0)));
        assert_eq!(entries[1].path, "new file.txt");
        assert_eq!(entries[1].oid_before, None);
        assert_eq!(entries[1].mode_after, Mode::FILE);
        assert_eq!(entries[2].lines, Some((0, 7)));
        assert_eq!(entries[3].status, Status::Renamed);
        assert_eq!(entries[3].score, Some(97));
        assert_eq!(entries[3].old_path, Some(BString::from("old.txt")));
        assert_eq!(entries[3].path, "new.txt");
        assert_eq!(entries[4].status, Status::TypeChanged);
        assert_eq!(entries[4].mode_after, Mode::SYMLINK);
        assert_eq!(entries[5].mode_before, Mode::GITLINK);
    }

    #[test]
    fn binary_counts_are_none_and_paths_are_bytes() {
        let mut out = z(&[&format!(":100644 100644 {A} {B} M")]);
        out.extend_from_slice(b"\xff.bin\0-\t-\t\xff.bin\0");
        let entries = parse(&out).unwrap();
        assert_eq!(entries[0].lines, None);
        assert_eq!(entries[0].path.as_slice(), b"\xff.bin");
    }

    #[test]
    fn per_commit_output() {
        let c1 = "a".repeat(40);
        let c2 = "b".repeat(40);
        let out = z(&[
            &c1,
            &format!(":100644 100644 {A} {B} M"),
            "x",
            "1\t1\tx",
            &c2,
            &c1.replace('a', "c"),
            &format!(":000000 100644 {Z} {B} A"),
            "y",
            "3\t0\ty",
        ]);
        let commits = parse_per_commit(&out).unwrap();
        assert_eq!(commits.len(), 3, "an empty commit keeps its place");
        assert_eq!(commits[0].1[0].lines, Some((1, 1)));
        assert!(commits[1].1.is_empty());
        assert_eq!(commits[2].1[0].path, "y");
    }

    #[test]
    fn empty_output_is_no_changes() {
        assert_eq!(parse(b"").unwrap(), vec![]);
    }

    #[test]
    fn malformed_output_is_an_error() {
        assert!(parse(b":100644 100644 xyz\0a\0").is_err());
        assert!(parse(&z(&[&format!(":100644 100644 {A} {B} M")])).is_err());
        assert!(parse(b"1\t2\0").is_err());
        assert!(parse(&z(&[&format!(":100644 100644 {A} {B} M"), "a", "x\t1\ta"])).is_err());
    }

    #[test]
    fn counts_are_matched_by_path_when_lists_differ() {
        let out = z(&[
            &format!(":100644 100644 {A} {B} M"),
            "a",
            &format!(":000000 000000 {Z} {Z} U"),
            "conflict",
            "2\t1\ta",
        ]);
        let entries = parse(&out).unwrap();
        assert_eq!(entries[0].lines, Some((2, 1)));
        assert_eq!(entries[1].status, Status::Unmerged);
        assert_eq!(entries[1].lines, None);
    }
}
