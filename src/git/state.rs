//! The state of a repository as git reports it, for `git-prism verify` (ADR 17) and the
//! session guard: what is not committed, where HEAD and the current branch are, where that
//! branch is pushed, what a remote says a ref is. The commands `verify` runs are in
//! `git::commands`; this module holds their types and the pure parsers of their output, and
//! runs one command of its own for the guard: [`commit_paths`], the paths a `git commit`
//! would take (checked against a scope's protected paths before the commit runs).
//!
//! Invariants: every parser takes git's machine format (`-z` records, `%00`-separated fields)
//! and fails on what it does not understand rather than guessing; paths stay bytes.

use std::ffi::OsString;
use std::path::Path;

use bstr::{BString, ByteSlice};

use super::GitError;
use super::real::Invocation;
use crate::oid::Oid;
use crate::request::effect::CommitTakes;

/// One entry of `git status --porcelain -z --no-renames`: what is not committed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Uncommitted {
    /// git's two status letters (`M `, ` M`, `A `, `??`, `UU`, ...).
    pub code: [u8; 2],
    /// The path, relative to the top of the work tree.
    pub path: BString,
}

impl Uncommitted {
    /// Whether the entry is an untracked file (not ignored: ignored files are not listed).
    pub fn is_untracked(&self) -> bool {
        &self.code == b"??"
    }

    /// Whether the index holds a change to this path (staged).
    pub fn is_staged(&self) -> bool {
        !self.is_untracked() && self.code[0] != b' '
    }
}

/// Parses `git status --porcelain=v1 -z --no-renames` (one `XY path` record per entry).
pub fn parse_status(out: &[u8]) -> Result<Vec<Uncommitted>, String> {
    out.split(|b| *b == 0)
        .filter(|r| !r.is_empty())
        .map(|record| match record {
            [x, y, b' ', path @ ..] if !path.is_empty() => Ok(Uncommitted {
                code: [*x, *y],
                path: BString::from(path),
            }),
            _ => Err(format!(
                "not a status record: '{}'",
                crate::text::clip(&record.to_str_lossy(), 80)
            )),
        })
        .collect()
}

/// Where the current branch is pushed, as git would push it (`%(push:remotename)`,
/// `%(push:remoteref)`, honouring `branch.<name>.pushRemote`, `remote.pushDefault` and
/// `push.default`), else its upstream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushTarget {
    /// The remote's name (or URL, for a branch configured with one).
    pub remote: BString,
    /// The ref on the remote (`refs/heads/<name>`).
    pub remote_ref: BString,
    /// The local remote-tracking ref that mirrors it, when there is one.
    pub tracking: Option<BString>,
}

/// Parses one `for-each-ref` record of `%(push:remotename)%00%(push:remoteref)%00%(push)%00
/// %(upstream:remotename)%00%(upstream:remoteref)%00%(upstream)`.
pub fn parse_push_target(out: &[u8]) -> Result<Option<PushTarget>, String> {
    let line = out.strip_suffix(b"\n").unwrap_or(out);
    if line.is_empty() {
        return Ok(None);
    }
    let fields: Vec<&[u8]> = line.split(|b| *b == 0).collect();
    let [
        push_remote,
        push_ref,
        push_tracking,
        up_remote,
        up_ref,
        up_tracking,
    ] = fields[..]
    else {
        return Err(format!("{} fields, not 6", fields.len()));
    };
    let target = |remote: &[u8], remote_ref: &[u8], tracking: &[u8]| {
        (!remote.is_empty() && !remote_ref.is_empty()).then(|| PushTarget {
            remote: remote.into(),
            remote_ref: remote_ref.into(),
            tracking: (!tracking.is_empty()).then(|| tracking.into()),
        })
    };
    Ok(target(push_remote, push_ref, push_tracking)
        .or_else(|| target(up_remote, up_ref, up_tracking)))
}

/// Finds the id `git ls-remote <remote> <ref>` gives for exactly `wanted` (ls-remote matches
/// patterns by their tail, so `refs/heads/main` also matches `refs/heads/x/refs/heads/main`).
pub fn parse_ls_remote(out: &[u8], wanted: &[u8]) -> Result<Option<Oid>, String> {
    for line in out.lines() {
        let Some((oid, name)) = line.split_once_str("\t") else {
            return Err(format!(
                "not an ls-remote line: '{}'",
                crate::text::clip(&line.to_str_lossy(), 80)
            ));
        };
        if name == wanted {
            return Oid::parse_bytes(oid).map(Some).map_err(|e| e.to_string());
        }
    }
    Ok(None)
}

/// The paths a `git commit` could take ([`commit_paths`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommitPaths {
    /// Every one, sorted.
    pub all: Vec<BString>,
    /// Those staged, sorted.
    pub staged: Vec<BString>,
}

/// Every path a `git commit` run in `cwd` with `globals` could take into its commit, with
/// rename detection off (a move counts at its old path too): what is staged, and what `takes`
/// adds from the work tree (`-a`: every tracked change; pathspecs: those paths' changes against
/// HEAD; a command line whose choice cannot be told: every tracked change). Read with the
/// repository's programs neutralised (no filter driver, no fsmonitor, no hook).
pub fn commit_paths(
    cwd: &Path,
    globals: &[OsString],
    takes: &CommitTakes,
) -> Result<CommitPaths, GitError> {
    let git = Invocation::locate(cwd.to_owned(), globals.to_vec())?;
    let names = |args: Vec<OsString>| -> Result<Vec<BString>, GitError> {
        let mut full: Vec<OsString> =
            ["diff", "--name-only", "-z", "--no-renames", "--no-relative"]
                .iter()
                .map(OsString::from)
                .collect();
        full.extend(
            ["--no-ext-diff", "--no-textconv", "--no-color"]
                .iter()
                .map(OsString::from),
        );
        // A submodule's change is a change of its path, whatever `diff.ignoreSubmodules` or
        // `submodule.<name>.ignore` say (they hide it from diffs, not from the commit).
        if !crate::confine::test_rule_off("ignore-submodules") {
            full.push("--ignore-submodules=none".into());
        }
        full.extend(args);
        let out = git.output(&full)?;
        Ok(out
            .split(|b| *b == 0)
            .filter(|p| !p.is_empty())
            .map(BString::from)
            .collect())
    };
    let mut staged = names(vec!["--cached".into()])?;
    staged.sort();
    let mut paths = staged.clone();
    if takes.all || takes.unknown {
        paths.extend(names(Vec::new())?);
    }
    if !takes.paths.is_empty() && !takes.unknown {
        let mut args: Vec<OsString> = vec!["HEAD".into(), "--".into()];
        args.extend(takes.paths.iter().cloned());
        match names(args) {
            Ok(more) => paths.extend(more),
            // No HEAD yet: every path named is new.
            Err(GitError::Command { .. }) => paths.extend(names(Vec::new())?),
            Err(e) => return Err(e),
        }
    }
    paths.sort();
    paths.dedup();
    Ok(CommitPaths { all: paths, staged })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_records_are_parsed_with_their_codes() {
        let out = b"M  staged.rs\0 M edited.rs\0?? new dir/file\0D  gone.rs\0";
        let entries = parse_status(out).unwrap();
        assert_eq!(entries.len(), 4);
        assert!(entries[0].is_staged());
        assert!(!entries[1].is_staged());
        assert!(entries[2].is_untracked());
        assert_eq!(entries[2].path, "new dir/file");
        assert!(parse_status(b"").unwrap().is_empty());
        assert!(parse_status(b"M\0").is_err());
    }

    #[test]
    fn push_target_prefers_push_then_upstream() {
        let both = b"origin\0refs/heads/topic\0refs/remotes/origin/topic\0up\0refs/heads/main\0refs/remotes/up/main\n";
        let t = parse_push_target(both).unwrap().unwrap();
        assert_eq!(t.remote, "origin");
        assert_eq!(t.remote_ref, "refs/heads/topic");
        let upstream_only = b"\0\0\0up\0refs/heads/main\0\n";
        let t = parse_push_target(upstream_only).unwrap().unwrap();
        assert_eq!(t.remote, "up");
        assert_eq!(t.tracking, None);
        assert_eq!(parse_push_target(b"\0\0\0\0\0\n").unwrap(), None);
        assert!(parse_push_target(b"a\0b\n").is_err());
    }

    #[test]
    fn ls_remote_matches_the_whole_name() {
        let a = "a".repeat(40);
        let b = "b".repeat(40);
        let out = format!("{a}\trefs/heads/x/refs/heads/main\n{b}\trefs/heads/main\n");
        let got = parse_ls_remote(out.as_bytes(), b"refs/heads/main").unwrap();
        assert_eq!(got.unwrap().as_str(), b);
        assert_eq!(parse_ls_remote(b"", b"refs/heads/main").unwrap(), None);
        assert!(parse_ls_remote(b"garbage\n", b"refs/heads/main").is_err());
    }
}
