//! Parsing `git blame --porcelain`, and grouping its lines into runs of consecutive lines
//! from one commit ([`hunks`]).
//!
//! Each line of the file comes as a header (`<sha> <orig line> <final line> [<group size>]`),
//! the commit's details the first time that commit appears (`author`, `author-mail`,
//! `author-time`, `author-tz`, `summary`, `previous`, `boundary`, `filename`, ...), and the
//! line's content after a tab.

use std::collections::BTreeMap;

use bstr::ByteSlice;

use crate::oid::Oid;

/// One blamed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line number in the blamed version (1-based).
    pub number: u32,
    /// The commit that last changed it (all zeros: not committed yet).
    pub sha: Oid,
    /// The line's text, without its newline (invalid UTF-8 replaced).
    pub text: String,
}

/// What porcelain says about a commit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommitDetails {
    /// Author name.
    pub author: String,
    /// Author email, without angle brackets.
    pub email: String,
    /// Author time, seconds since the epoch.
    pub time: i64,
    /// Author time zone, as `+hhmm`.
    pub tz: String,
    /// The commit's subject.
    pub summary: String,
    /// Whether the commit is a boundary of the blame (`^` in git's output).
    pub boundary: bool,
}

/// A parsed blame.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Blame {
    /// Every blamed line, in order.
    pub lines: Vec<Line>,
    /// Details of each commit that appears.
    pub commits: BTreeMap<Oid, CommitDetails>,
}

/// The error returned by [`parse`].
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct ParseError(pub String);

/// Parses `git blame --porcelain` output.
pub fn parse(out: &[u8]) -> Result<Blame, ParseError> {
    let mut blame = Blame::default();
    let mut current: Option<Oid> = None;
    for line in out.lines() {
        if let Some(content) = line.strip_prefix(b"\t") {
            if let Some(last) = blame.lines.last_mut() {
                last.text = content.to_str_lossy().into_owned();
            }
            current = None;
            continue;
        }
        match &current {
            None => {
                let mut fields = line.fields();
                let sha = fields
                    .next()
                    .and_then(|s| Oid::parse_bytes(s).ok())
                    .ok_or_else(|| ParseError(format!("bad header {:?}", line.as_bstr())))?;
                let _orig = fields.next();
                let number = fields
                    .next()
                    .and_then(|n| n.to_str().ok())
                    .and_then(|n| n.parse().ok())
                    .ok_or_else(|| ParseError(format!("bad header {:?}", line.as_bstr())))?;
                if !blame.commits.contains_key(&sha) {
                    blame.commits.insert(sha.clone(), CommitDetails::default());
                }
                blame.lines.push(Line {
                    number,
                    sha: sha.clone(),
                    text: String::new(),
                });
                current = Some(sha);
            }
            Some(sha) => {
                let (key, value) = match line.find_byte(b' ') {
                    Some(i) => (&line[..i], line[i + 1..].to_str_lossy().into_owned()),
                    None => (line, String::new()),
                };
                let Some(details) = blame.commits.get_mut(sha) else {
                    continue;
                };
                match key {
                    b"author" => details.author = value,
                    b"author-mail" => {
                        details.email = value
                            .trim_start_matches('<')
                            .trim_end_matches('>')
                            .to_owned();
                    }
                    b"author-time" => details.time = value.parse().unwrap_or(0),
                    b"author-tz" => details.tz = value,
                    b"summary" => details.summary = value,
                    b"boundary" => details.boundary = true,
                    _ => {}
                }
            }
        }
    }
    Ok(blame)
}

/// One run of consecutive lines last changed by the same commit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hunk {
    /// First line (1-based).
    pub start: u32,
    /// Last line.
    pub end: u32,
    /// The commit.
    pub sha: Oid,
    /// Where its lines are in the slice given to [`hunks`].
    pub lines: std::ops::Range<usize>,
}

/// Groups consecutive lines from the same commit, in one pass.
pub fn hunks(lines: &[Line]) -> Vec<Hunk> {
    let mut out: Vec<Hunk> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        match out.last_mut() {
            Some(h) if h.sha == line.sha && h.end + 1 == line.number => {
                h.end = line.number;
                h.lines.end = i + 1;
            }
            _ => out.push(Hunk {
                start: line.number,
                end: line.number,
                sha: line.sha.clone(),
                lines: i..i + 1,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn porcelain() {
        let a = "a".repeat(40);
        let b = "b".repeat(40);
        let out = format!(
            "{a} 1 1 2\nauthor Ann\nauthor-mail <ann@x>\nauthor-time 1704067200\nauthor-tz +0100\nsummary first\nfilename f\n\tline one\n{a} 2 2\n\tline two\n{b} 3 3 1\nauthor Bob\nauthor-mail <bob@x>\nauthor-time 1704153600\nauthor-tz -0500\nsummary second\nboundary\nfilename f\n\tline three\n{a} 4 4 1\n\tline four\n"
        );
        let blame = parse(out.as_bytes()).unwrap();
        let (a, b) = (Oid::parse(&a).unwrap(), Oid::parse(&b).unwrap());
        assert_eq!(blame.lines.len(), 4);
        assert_eq!(blame.lines[2].text, "line three");
        assert_eq!(blame.commits[&a].author, "Ann");
        assert_eq!(blame.commits[&a].email, "ann@x");
        assert!(blame.commits[&b].boundary);
        let h = hunks(&blame.lines);
        assert_eq!(
            h.iter()
                .map(|h| (h.start, h.end, h.sha.short(1)))
                .collect::<Vec<_>>(),
            vec![(1, 2, "a"), (3, 3, "b"), (4, 4, "a")]
        );
        assert!(parse(b"garbage\n").is_err());
    }
}
