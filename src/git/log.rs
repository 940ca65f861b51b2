//! Parsing `git log -z --format=...` into commit records ([`CommitInfo`]); the command itself
//! is [`super::Repo::log`]'s.

use bstr::ByteSlice;

use crate::oid::Oid;

/// One commit as `git log` describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommitInfo {
    /// Full id.
    pub sha: Oid,
    /// Parent ids, first parent first.
    pub parents: Vec<Oid>,
    /// Author name (mailmap applied, as `git log` shows it).
    pub author_name: String,
    /// Author email.
    pub author_email: String,
    /// Author date, strict ISO 8601.
    pub author_date: String,
    /// Committer date, strict ISO 8601.
    pub committer_date: String,
    /// The subject line (the first paragraph, joined like git's `%s`).
    pub subject: String,
    /// The rest of the message.
    pub body: String,
    /// The whole message as written (git's `%B`, trailing newlines removed).
    pub message: String,
}

impl CommitInfo {
    /// Returns whether the commit is a merge.
    pub fn is_merge(&self) -> bool {
        self.parents.len() > 1
    }
}

/// The `--format` that makes `git log` output parseable: fields separated by US (0x1f), the
/// raw message last so a stray separator in it cannot shift the other fields.
pub(super) const FORMAT: &str = "--format=%H%x1f%P%x1f%aN%x1f%aE%x1f%aI%x1f%cI%x1f%B";

/// Parses the NUL-separated records of `git log -z` with `FORMAT`.
pub fn parse(out: &[u8]) -> Result<Vec<CommitInfo>, String> {
    out.split(|b| *b == 0)
        .filter(|r| !r.is_empty())
        .map(parse_record)
        .collect()
}

fn parse_record(record: &[u8]) -> Result<CommitInfo, String> {
    let bad = || format!("bad record {:?}", record.as_bstr());
    let mut fields = record.splitn(7, |b| *b == 0x1f);
    let mut next = || {
        fields
            .next()
            .map(|f| f.to_str_lossy().into_owned())
            .ok_or_else(bad)
    };
    let sha = Oid::parse(&next()?).map_err(|_| bad())?;
    let parents = next()?;
    let author_name = next()?;
    let author_email = next()?;
    let author_date = next()?;
    let committer_date = next()?;
    let message = next()?;
    let (subject, body) = split_message(&message);
    let message = message.trim_end_matches('\n').to_owned();
    Ok(CommitInfo {
        sha,
        parents: parents
            .split_whitespace()
            .map(Oid::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| bad())?,
        author_name,
        author_email,
        author_date,
        committer_date,
        subject,
        body,
        message,
    })
}

/// One commit of a line range's history (`git log -L`): who, when, why, and git's diff of the
/// range (every line of the range, the changed ones with `+`/`-`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineCommit {
    /// Full id.
    pub sha: Oid,
    /// Parent ids, first parent first.
    pub parents: Vec<Oid>,
    /// Author name (mailmap applied).
    pub author_name: String,
    /// Author date, strict ISO 8601.
    pub author_date: String,
    /// The subject (git's `%s`).
    pub subject: String,
    /// The range's diff, per file.
    pub files: Vec<super::patch::FilePatch>,
}

/// What starts each commit of a line range's history: NUL and SOH, which a text file's diff
/// cannot hold (git counts a file with a NUL as binary, and a line range needs text).
const LINE_LOG_MARK: &[u8] = b"\0\x01";

/// The `--format` of a line range's history: the mark, then the fields separated by US (0x1f),
/// the subject last (one line), then git's diff.
pub(super) const LINE_LOG_FORMAT: &str = "--format=%x00%x01%H%x1f%P%x1f%aN%x1f%aI%x1f%s";

/// Parses `git log -L ... --format=LINE_LOG_FORMAT`.
pub fn parse_line_log(out: &[u8]) -> Result<Vec<LineCommit>, String> {
    let mut commits = Vec::new();
    let mut rest = out;
    if !rest.is_empty() && !rest.starts_with(LINE_LOG_MARK) {
        return Err("output does not start with a commit".into());
    }
    while let Some(body) = rest.strip_prefix(LINE_LOG_MARK) {
        let end = body.find(LINE_LOG_MARK).unwrap_or(body.len());
        let (record, next) = body.split_at(end);
        rest = next;
        let bad = || {
            format!(
                "bad record {:?}",
                record.get(..200).unwrap_or(record).as_bstr()
            )
        };
        let line_end = record.find_byte(b'\n').unwrap_or(record.len());
        let (head, patch) = record.split_at(line_end);
        let mut fields = head.splitn(5, |b| *b == 0x1f);
        let mut next_field = || {
            fields
                .next()
                .map(|f| f.to_str_lossy().into_owned())
                .ok_or_else(bad)
        };
        let sha = Oid::parse(&next_field()?).map_err(|_| bad())?;
        let parents = next_field()?
            .split_whitespace()
            .map(Oid::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| bad())?;
        let author_name = next_field()?;
        let author_date = next_field()?;
        let subject = next_field()?;
        commits.push(LineCommit {
            sha,
            parents,
            author_name,
            author_date,
            subject,
            files: super::patch::file_patches(patch),
        });
    }
    Ok(commits)
}

/// Splits a commit message like git's `%s` and `%b`: blank lines (empty or whitespace only)
/// before the subject are skipped; the subject is the first paragraph, each line without its
/// trailing whitespace, joined by spaces; the body follows the blank lines after it.
pub fn split_message(message: &str) -> (String, String) {
    let space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
    let blank = |line: &&str| line.trim_matches(space).is_empty();
    let mut lines = message.split_inclusive('\n').peekable();
    while lines.next_if(blank).is_some() {}
    let mut subject = String::new();
    while let Some(line) = lines.next_if(|l| !blank(l)) {
        if !subject.is_empty() {
            subject.push(' ');
        }
        subject.push_str(line.trim_end_matches(space));
    }
    while lines.next_if(blank).is_some() {}
    let body: String = lines.collect();
    (subject, body.trim_end_matches('\n').to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_split_like_git() {
        assert_eq!(
            split_message("subject\n"),
            ("subject".into(), String::new())
        );
        assert_eq!(
            split_message("subject\n\nbody line 1\nline 2\n"),
            ("subject".into(), "body line 1\nline 2".into())
        );
        assert_eq!(
            split_message("wrapped\nsubject\n\n\nbody\n"),
            ("wrapped subject".into(), "body".into())
        );
        assert_eq!(split_message(""), (String::new(), String::new()));
        // What `git log --format=%s` prints for messages no `git commit` cleaned up.
        assert_eq!(
            split_message("subj line   \n  \t\nbody after ws line\n").0,
            "subj line"
        );
        assert_eq!(
            split_message("  lead\nsecond  \n \nbody\n"),
            ("  lead second".into(), "body".into())
        );
        assert_eq!(
            split_message("\n\n  \nreal subject\n\nbody\n"),
            ("real subject".into(), "body".into())
        );
    }

    #[test]
    fn line_logs_parse_into_commits_and_their_diffs() {
        let a = "a".repeat(40);
        let b = "b".repeat(40);
        let out = format!(
            "\0\x01{a}\x1f{b}\x1fAnn\x1f2024-01-01T00:00:00Z\x1ffix: it\n\ndiff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n\0\x01{b}\x1f\x1fBo\x1f2023-01-01T00:00:00Z\x1finit\n\ndiff --git a/x.py b/x.py\nnew file mode 100644\n--- /dev/null\n+++ b/x.py\n@@ -0,0 +1,2 @@\n+def f():\n+    return 1\n"
        );
        let commits = parse_line_log(out.as_bytes()).unwrap();
        assert_eq!(commits.len(), 2);
        assert_eq!(commits[0].subject, "fix: it");
        assert_eq!(commits[0].parents, [Oid::parse(&b).unwrap()]);
        assert_eq!(commits[0].files[0].hunks[0].lines.len(), 3);
        assert!(commits[1].parents.is_empty());
        assert_eq!(commits[1].files[0].old_path, None);
        assert_eq!(parse_line_log(b"").unwrap(), []);
        assert!(parse_line_log(b"commit x").is_err());
    }

    #[test]
    fn records_parse() {
        let (abc, p1, p2) = ("a".repeat(40), "1".repeat(40), "2".repeat(40));
        let rec = format!(
            "{abc}\x1f{p1} {p2}\x1fA U\x1fa@x\x1f2024-01-01T00:00:00Z\x1f2024-01-02T00:00:00Z\x1fsubj\x1fwith sep\n\nbody\n"
        );
        let c = parse_record(rec.as_bytes()).unwrap();
        assert_eq!(c.parents[1].as_str(), p2);
        assert!(c.is_merge());
        assert_eq!(c.subject, "subj\x1fwith sep");
        assert_eq!(c.body, "body");
        assert!(parse_record(b"abc\x1fonly").is_err());
        assert!(parse_record(b"abc\x1f\x1fn\x1fe\x1fd\x1fd\x1fm").is_err());
    }
}
