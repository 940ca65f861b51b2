//! The git command lines of the answers, the manifests and `verify`: one function per command
//! (methods of [`Repo`]), each building its arguments, adding the flags that keep repository
//! configuration from running a program or changing the output it parses, and parsing that
//! output into types ([`Entry`], [`CommitInfo`], [`FilePatch`], [`Blame`], [`Uncommitted`]...).
//!
//! Invariants:
//! - No git argument is spelled outside `src/git/` (the request grammar, which parses them,
//!   aside): the other layers ask for facts, and `tests/it/layers.rs` fails when one spells a
//!   git option or subcommand. Inside `src/git/`, the commands that find a repository or read
//!   metadata stay beside their parsers: `rev-parse` in [`super::repo`], [`super::revs`] and
//!   [`super::refs`]; `config`, `for-each-ref` and `rev-parse` in [`super::push`] (for the
//!   session guard); the filter-driver listing in `real`; the paths a commit would take in
//!   [`super::state::commit_paths`]; `gh pr view` in [`super::gh`].
//! - Every command that can diff file contents gets [`NO_PROGRAMS`] after the caller's
//!   options, so they win: no external diff driver, no textconv, no colour (`blame`, which
//!   only runs textconv, gets `--no-textconv`).
//! - `-M` and `--no-relative` are added unless the caller chose how renames are found or asked
//!   for `--relative`, so the facts do not depend on the user's `diff.renames` or
//!   `diff.relative`.
//! - The caller's own options (`-M50%`, `-R`, `--relative`, a pickaxe, `-L`) come from the
//!   request grammar as data and are passed through unchanged, before the flags that must win.
//! - A diff of the working tree reads a private copy of the index (`real`), so the caller's
//!   index is never rewritten.
//! - Only [`Repo::ls_remote`] (`verify --pushed`) contacts another machine: with the transports
//!   the repository configures, never `ext::`, never prompting.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use bstr::{BStr, BString, ByteSlice};

use super::GitError;
use super::blame::{self, Blame};
use super::facts::{self, Entry};
use super::log::{self, CommitInfo, LineCommit};
use super::object::Mode;
use super::patch::{self, FilePatch};
use super::real::Running;
use super::repo::Repo;
use super::revs::{Head, Target};
use super::state::{self, PushTarget, Uncommitted};
use crate::oid::Oid;
use crate::request;

/// The flags every command that can diff file contents gets, after the caller's options.
const NO_PROGRAMS: [&str; 3] = ["--no-ext-diff", "--no-textconv", "--no-color"];

/// The most pathspecs passed to git to narrow a patch; more files are diffed without narrowing.
const MAX_PATHSPECS: usize = 1000;

/// A git command started in the background: [`Pending::finish`] waits for it and parses its
/// output (so that this process can work while git does).
pub struct Pending<T> {
    running: Running,
    command: &'static str,
    parse: fn(&[u8]) -> Result<T, String>,
}

impl<T> Pending<T> {
    /// Waits for git and parses what it printed.
    pub fn finish(self) -> Result<T, GitError> {
        let out = self.running.finish()?;
        (self.parse)(&out).map_err(|detail| GitError::Parse {
            command: self.command.into(),
            detail,
        })
    }
}

/// What the caller's diff options decide for the commands built here.
struct CallerOptions<'a>(&'a [OsString]);

impl CallerOptions<'_> {
    fn any(&self, prefixes: &[&str]) -> bool {
        self.0.iter().any(|o| {
            prefixes
                .iter()
                .any(|p| o.as_bytes().starts_with(p.as_bytes()))
        })
    }

    /// Whether the caller chose how renames are found (else git-prism asks for `-M`).
    fn chooses_renames(&self) -> bool {
        self.any(&[
            "-M",
            "-C",
            "--find-renames",
            "--find-copies",
            "--no-renames",
            "-B",
            "--break-rewrites",
        ])
    }

    /// Whether paths are relative to a directory (else `--no-relative`, whatever the config).
    fn relative(&self) -> bool {
        self.any(&["--relative"])
    }

    /// Whether copies are looked for (a narrower pathspec would hide their sources).
    fn finds_copies(&self) -> bool {
        self.any(&["-C", "--find-copies"])
    }

    /// `-M` and `--no-relative` where the caller did not choose otherwise, then the options.
    fn push_into(&self, args: &mut Vec<OsString>) {
        if !self.chooses_renames() {
            args.push("-M".into());
        }
        if !self.relative() {
            args.push("--no-relative".into());
        }
        args.extend(self.0.iter().cloned());
    }
}

/// A literal, top-relative pathspec for one path (no glob or magic in the name applies).
fn literal(path: &[u8]) -> OsString {
    let mut spec = b":(top,literal)".to_vec();
    spec.extend_from_slice(path);
    OsString::from(OsStr::from_bytes(&spec))
}

/// Which files a patch is about: these file pairs of the range (path, and the source of a
/// rename or copy), narrowed to when git's answer for them cannot change by narrowing;
/// otherwise the caller's pathspecs.
pub struct PatchPaths<'a> {
    /// The pairs.
    pub pairs: Vec<(&'a [u8], Option<&'a [u8]>)>,
    /// The caller's pathspecs, used when narrowing could change the answer.
    pub caller: &'a [OsString],
    /// Whether the pairs are every file of the range.
    pub all: bool,
}

/// What a patch should look like.
pub struct PatchShape<'a> {
    /// Lines of context when the caller's shaping gives none.
    pub context: u32,
    /// The caller's hunk-shaping options (`-U<n>`, `-W`, `--inter-hunk-context`), verbatim;
    /// they come after [`PatchShape::context`], so they win.
    pub shaping: &'a [OsString],
}

/// What git printed for the caller's own command line ([`Repo::start_as_typed`]), as far as it
/// was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Printed {
    /// All of it.
    Whole(Vec<u8>),
    /// More than this many bytes (git was stopped there).
    MoreThan(usize),
}

/// The caller's command line, started ([`Repo::start_as_typed`]).
pub struct AsTyped {
    running: Running,
    cap: usize,
}

impl AsTyped {
    /// Waits for git: what it printed, or that it printed more than the cap.
    pub fn finish(self) -> Result<Printed, GitError> {
        match self.running.finish_capped(self.cap) {
            Ok(out) => Ok(Printed::Whole(out)),
            Err(GitError::TooLarge { .. }) => Ok(Printed::MoreThan(self.cap)),
            Err(e) => Err(e),
        }
    }
}

impl Repo {
    /// Starts git on the caller's own command line (`argv`: the subcommand and its arguments,
    /// verbatim): what the shim would print by passing the call through, as git prints it to a
    /// pipe (no colour, no pager) and without the programs a repository can configure (an
    /// external diff, textconv; given right after the subcommand, which the request grammar lets
    /// no caller's option undo). At most `cap` bytes are read. A `diff` reads a private copy of
    /// the index, as the answers' own diffs do.
    pub fn start_as_typed(&self, argv: &[OsString], cap: usize) -> Result<AsTyped, GitError> {
        let Some((sub, rest)) = argv.split_first() else {
            return Err(GitError::Parse {
                command: "git".into(),
                detail: "no subcommand".into(),
            });
        };
        let mut args: Vec<OsString> = vec![sub.clone()];
        if sub == "blame" {
            // blame takes no diff options; it runs textconv drivers by default.
            args.push("--no-textconv".into());
        } else {
            args.extend(NO_PROGRAMS.iter().map(OsString::from));
        }
        args.extend(rest.iter().cloned());
        let head = if sub == "diff" {
            Head::Worktree
        } else {
            Head::Object
        };
        Ok(AsTyped {
            running: self.start_on(head, args)?,
            cap,
        })
    }

    /// Starts `git diff <base> <head>` as git prints it to a pipe (`gh pr diff` prints a pull
    /// request's change so): at most `cap` bytes are read.
    pub fn start_patch_as_printed(
        &self,
        base: &Oid,
        head: &Oid,
        cap: usize,
    ) -> Result<AsTyped, GitError> {
        let mut args: Vec<OsString> = vec!["diff".into()];
        args.extend(NO_PROGRAMS.iter().map(OsString::from));
        args.extend([base.as_str().into(), head.as_str().into(), "--".into()]);
        Ok(AsTyped {
            running: self.git.spawn(args)?,
            cap,
        })
    }

    /// Starts `git diff --raw --numstat -z -M`: git's per-file facts for the target, with the
    /// caller's diff options and pathspecs.
    pub fn start_diff_facts(
        &self,
        target: &Target,
        options: &[OsString],
        paths: &[OsString],
    ) -> Result<Pending<Vec<Entry>>, GitError> {
        let mut args: Vec<OsString> = ["diff", "--raw", "--numstat", "-z", "--no-abbrev"]
            .iter()
            .map(OsString::from)
            .collect();
        CallerOptions(options).push_into(&mut args);
        args.extend(NO_PROGRAMS.iter().map(OsString::from));
        args.extend(target.diff_args.iter().cloned());
        args.push("--".into());
        args.extend(paths.iter().cloned());
        Ok(Pending {
            running: self.start_on(target.head, args)?,
            command: "diff",
            parse: |out| facts::parse(out).map_err(|e| e.0),
        })
    }

    /// Starts `git ls-files --others --exclude-standard`: the untracked files that are not
    /// ignored, relative to the top of the working tree (directories of nested repositories
    /// left out).
    pub fn start_untracked(&self, paths: &[OsString]) -> Result<Pending<Vec<BString>>, GitError> {
        let mut args: Vec<OsString> = [
            "ls-files",
            "--others",
            "--exclude-standard",
            "-z",
            "--full-name",
            "--",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        args.extend(paths.iter().cloned());
        Ok(Pending {
            running: self.git.spawn(args)?,
            command: "ls-files",
            parse: |out| {
                Ok(out
                    .split(|b| *b == 0)
                    // A nested repository is listed as a directory: never a file entry.
                    .filter(|p| !p.is_empty() && !p.ends_with(b"/"))
                    .map(BString::from)
                    .collect())
            },
        })
    }

    /// `git diff -p` for the target: the unified patch of the files asked for, split per file,
    /// with the caller's diff options, the hunk shape, and the default `a/`/`b/` prefixes
    /// (whatever the configuration says). At most `cap` bytes of patch are read
    /// ([`GitError::TooLarge`] past that).
    pub fn patch(
        &self,
        target: &Target,
        options: &[OsString],
        shape: &PatchShape<'_>,
        paths: &PatchPaths<'_>,
        cap: usize,
    ) -> Result<Vec<FilePatch>, GitError> {
        let caller = CallerOptions(options);
        let mut args: Vec<OsString> = ["diff", "-p", "--src-prefix=a/", "--dst-prefix=b/"]
            .iter()
            .map(OsString::from)
            .collect();
        caller.push_into(&mut args);
        args.push(format!("-U{}", shape.context).into());
        args.extend(shape.shaping.iter().cloned());
        args.extend(NO_PROGRAMS.iter().map(OsString::from));
        args.extend(target.diff_args.iter().cloned());
        args.push("--".into());
        // Narrowing is safe unless paths are relative to a directory, copies are looked for (a
        // source outside the pathspec would vanish), or it would not narrow anything.
        if caller.relative()
            || caller.finds_copies()
            || paths.all
            || paths.pairs.len() > MAX_PATHSPECS
        {
            args.extend(paths.caller.iter().cloned());
        } else {
            for (path, old) in &paths.pairs {
                args.push(literal(path));
                if let Some(old) = old {
                    args.push(literal(old));
                }
            }
        }
        let out = self.start_on(target.head, args)?.finish_capped(cap)?;
        Ok(patch::file_patches(&out))
    }

    /// `git log -z --format=...`: the commits a `git log` command line lists, in its order,
    /// with every selection and ordering option git knows applied by git itself.
    pub fn log(&self, log: &request::Log) -> Result<Vec<CommitInfo>, GitError> {
        let mut args: Vec<OsString> = vec!["log".into(), "-z".into(), log::FORMAT.into()];
        args.extend(log.args.iter().cloned());
        // After the caller's options, so they win: the pickaxe (`-S`/`-G`) and path-limited
        // walks diff blobs, where a textconv or external diff driver would run a configured
        // program.
        args.extend(NO_PROGRAMS.iter().map(OsString::from));
        args.push("--".into());
        args.extend(log.paths.iter().cloned());
        let out = self.git.output(&args)?;
        log::parse(&out).map_err(|detail| GitError::Parse {
            command: "log".into(),
            detail,
        })
    }

    /// `git log -L ...`: a line range's history, each commit with git's diff of the range, with
    /// every selection and ordering option of the command line applied by git itself.
    pub fn line_log(&self, log: &request::Log) -> Result<Vec<LineCommit>, GitError> {
        let mut args: Vec<OsString> = vec!["log".into(), log::LINE_LOG_FORMAT.into()];
        args.extend(log.args.iter().cloned());
        // After the caller's options, so they win.
        args.extend(["--src-prefix=a/", "--dst-prefix=b/"].map(OsString::from));
        args.extend(NO_PROGRAMS.iter().map(OsString::from));
        args.push("--".into());
        let out = self.git.output(&args)?;
        log::parse_line_log(&out).map_err(|detail| GitError::Parse {
            command: "log".into(),
            detail,
        })
    }

    /// `git log -1 --no-walk <commit>`: one commit's record.
    pub fn commit_info(&self, commit: &Oid) -> Result<CommitInfo, GitError> {
        let log = request::Log {
            args: vec!["-1".into(), "--no-walk".into(), commit.as_str().into()],
            ..request::Log::default()
        };
        self.log(&log)?
            .into_iter()
            .next()
            .ok_or_else(|| GitError::Parse {
                command: "log".into(),
                detail: format!("no record of commit {commit}"),
            })
    }

    /// `git diff-tree --stdin`: every commit's file pairs against its first parent (a root
    /// commit against the empty tree), in one process, with extra diff options (a pickaxe keeps
    /// only the pairs whose occurrences changed) and the caller's pathspecs.
    pub fn diff_tree(
        &self,
        commits: &[(Oid, Option<Oid>)],
        options: &[OsString],
        paths: &[OsString],
    ) -> Result<Vec<Vec<Entry>>, GitError> {
        if commits.is_empty() {
            return Ok(Vec::new());
        }
        let mut args: Vec<OsString> = [
            "diff-tree",
            "--stdin",
            "--always",
            "--root",
            "-r",
            "-z",
            "--raw",
            "--numstat",
            "--no-abbrev",
            "-M",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        args.extend(options.iter().cloned());
        args.extend(NO_PROGRAMS.iter().map(OsString::from));
        args.push("--".into());
        args.extend(paths.iter().cloned());
        let mut input = String::new();
        for (commit, parent) in commits {
            match parent {
                Some(parent) => input.push_str(&format!("{commit} {parent}\n")),
                None => input.push_str(&format!("{commit}\n")),
            }
        }
        let out = self.git.output_with_input(&args, input.into_bytes())?;
        let bad = |detail: String| GitError::Parse {
            command: "diff-tree".into(),
            detail,
        };
        let per_commit = facts::parse_per_commit(&out).map_err(|e| bad(e.0))?;
        if per_commit.len() != commits.len() {
            return Err(bad(format!(
                "{} commits in, {} out",
                commits.len(),
                per_commit.len()
            )));
        }
        Ok(per_commit.into_iter().map(|(_, entries)| entries).collect())
    }

    /// `git blame --porcelain`: who last changed each line, with the caller's options (`-L`,
    /// `-w`, `-M`, ...), at a revision or in the working tree.
    pub fn blame(&self, b: &request::Blame) -> Result<Blame, GitError> {
        let mut args: Vec<OsString> = vec!["blame".into(), "--porcelain".into()];
        args.extend(b.options.iter().cloned());
        // After the caller's options, so it wins: blame runs textconv drivers by default.
        args.push("--no-textconv".into());
        if let Some(rev) = &b.rev {
            args.push(rev.clone());
        }
        args.push("--".into());
        args.push(b.path.clone());
        let out = self.git.output(&args)?;
        blame::parse(&out).map_err(|e| GitError::Parse {
            command: "blame".into(),
            detail: e.0,
        })
    }

    /// `git cat-file blob <rev>:<path>`: a file's content at a revision, at most `cap` bytes
    /// ([`GitError::TooLarge`] past that). `path` is relative to the top of the work tree.
    pub fn blob_at(&self, rev: &OsStr, path: &Path, cap: usize) -> Result<Vec<u8>, GitError> {
        let mut spec = rev.to_owned();
        spec.push(":");
        spec.push(path.as_os_str());
        self.git.output_capped(
            [OsStr::new("cat-file"), OsStr::new("blob"), spec.as_os_str()],
            cap,
        )
    }

    /// `git ls-tree -r`: every blob of a commit or tree (links left out), with its id.
    pub fn blobs_of_tree(&self, tree: &Oid) -> Result<Vec<(BString, Oid)>, GitError> {
        let out = self
            .git
            .output(["ls-tree", "-r", "-z", "--full-tree", tree.as_str()])?;
        Ok(records(&out)
            .filter_map(|r| {
                // `<mode> <type> <oid>\t<path>`
                let (meta, path) = split_meta(r)?;
                let mut parts = meta.split(|b| *b == b' ');
                let (mode, kind, oid) = (parts.next()?, parts.next()?, parts.next()?);
                let mode = Mode::parse(mode)?;
                (kind == b"blob" && !mode.is_symlink())
                    .then(|| Some((BString::from(path), Oid::parse_bytes(oid).ok()?)))
                    .flatten()
            })
            .collect())
    }

    /// `git ls-files -s`: every file of the index (links and submodules left out), with its
    /// id.
    pub fn blobs_of_index(&self) -> Result<Vec<(BString, Oid)>, GitError> {
        let out = self
            .git
            .output(["ls-files", "-s", "-z", "--full-name", ":(top)"])?;
        Ok(records(&out)
            .filter_map(|r| {
                // `<mode> <oid> <stage>\t<path>`
                let (meta, path) = split_meta(r)?;
                let mut parts = meta.split(|b| *b == b' ');
                let (mode, oid) = (Mode::parse(parts.next()?)?, parts.next()?);
                (!mode.is_symlink() && !mode.is_gitlink())
                    .then(|| Some((BString::from(path), Oid::parse_bytes(oid).ok()?)))
                    .flatten()
            })
            .collect())
    }

    /// `git ls-files --cached --others --exclude-standard`: every path of the working tree
    /// git would show (tracked, and untracked but not ignored).
    pub fn worktree_paths(&self) -> Result<Vec<BString>, GitError> {
        let out = self.git.output([
            "ls-files",
            "-z",
            "--full-name",
            "--cached",
            "--others",
            "--exclude-standard",
            ":(top)",
        ])?;
        Ok(records(&out).map(BString::from).collect())
    }

    /// `git config --type=bool --get <key>`: a boolean setting as git reads it (every scope,
    /// includes, the caller's `-c`), false when unset.
    pub fn config_bool(&self, key: &str) -> Result<bool, GitError> {
        let out = self
            .git
            .output(["config", "--type=bool", "--default=false", "--get", key])?;
        Ok(out.trim_ascii() == b"true")
    }

    /// `git status --porcelain -z --no-renames --untracked-files=all`: every change that is
    /// not committed (staged, unstaged, untracked and not ignored; submodules included), each
    /// path once (a rename is its deletion and its addition). A path the index marks
    /// skip-worktree or assume-unchanged, which git's status does not look at, is looked at
    /// anyway where the work tree has it: the bits are cleared on a private copy of the index
    /// first (a sparse checkout's absent files stay absent, not deleted).
    pub fn uncommitted(&self) -> Result<Vec<Uncommitted>, GitError> {
        let status: Vec<OsString> = [
            "status",
            "--porcelain=v1",
            "-z",
            "--no-renames",
            "--untracked-files=all",
            "--ignore-submodules=none",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        let hidden = if crate::confine::test_rule_off("verify-index-bits") {
            Vec::new()
        } else {
            self.hidden_from_status()?
        };
        let out = match (hidden.is_empty(), self.index_path()) {
            (false, Some(index)) => {
                let mut input = Vec::new();
                for path in &hidden {
                    input.extend_from_slice(path);
                    input.push(0);
                }
                // One mark per run: update-index applies only the last of several.
                let clear = |mark: &str| -> (Vec<OsString>, Vec<u8>) {
                    (
                        ["update-index", mark, "-z", "--stdin"]
                            .iter()
                            .map(OsString::from)
                            .collect(),
                        input.clone(),
                    )
                };
                self.git.output_on_index_copy(
                    &[clear("--no-skip-worktree"), clear("--no-assume-unchanged")],
                    &status,
                    &index,
                )?
            }
            _ => self.git.output(&status)?,
        };
        state::parse_status(&out).map_err(|detail| GitError::Parse {
            command: "status".into(),
            detail,
        })
    }

    /// The paths the index marks skip-worktree or assume-unchanged that the work tree has (as a
    /// file or a link): read from the index in-process (the flags of 100,000 entries in a few
    /// milliseconds).
    fn hidden_from_status(&self) -> Result<Vec<BString>, GitError> {
        let Some(top) = self.workdir() else {
            return Ok(Vec::new());
        };
        let Some(path) = self.index_path() else {
            return Ok(Vec::new());
        };
        // The checksum is not verified: a flag is all that is read, and hashing the index of
        // 100,000 entries (8 MB) took longer than reading it. A missing index has no entries.
        let index = gix::index::File::at_or_default(
            path,
            self.local().object_hash(),
            true,
            Default::default(),
        )
        .map_err(|e| GitError::Gix {
            context: "reading the index",
            source: super::error::boxed(e),
        })?;
        let hidden =
            gix::index::entry::Flags::SKIP_WORKTREE | gix::index::entry::Flags::ASSUME_VALID;
        Ok(index
            .entries()
            .iter()
            .filter(|e| e.flags.intersects(hidden))
            .map(|e| e.path(&index))
            .filter(|path| {
                std::fs::symlink_metadata(top.join(std::ffi::OsStr::from_bytes(path))).is_ok()
            })
            .map(BString::from)
            .collect())
    }

    /// `git rev-list --count <from>..<to>`: how many commits `to` has that `from` has not.
    pub fn count_commits(&self, from: &Oid, to: &Oid) -> Result<u64, GitError> {
        let range = format!("{from}..{to}");
        let out = self.git.output(["rev-list", "--count", range.as_str()])?;
        out.trim_ascii()
            .to_str()
            .ok()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| GitError::Parse {
                command: "rev-list".into(),
                detail: format!("not a count: '{}'", out.trim_ascii().to_str_lossy()),
            })
    }

    /// `git merge-base --is-ancestor <a> <b>`: whether `a` is `b` or one of its ancestors.
    pub fn is_ancestor(&self, a: &Oid, b: &Oid) -> Result<bool, GitError> {
        match self
            .git
            .output(["merge-base", "--is-ancestor", a.as_str(), b.as_str()])
        {
            Ok(_) => Ok(true),
            Err(GitError::Command { code: Some(1), .. }) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// `git symbolic-ref -q HEAD`: the branch HEAD is on (`refs/heads/<name>`), `None` when
    /// HEAD is detached.
    pub fn current_branch(&self) -> Result<Option<BString>, GitError> {
        match self.git.metadata(&["symbolic-ref", "-q", "HEAD"]) {
            Ok(out) => Ok(Some(BString::from(out.trim_ascii_end()))),
            Err(GitError::Command { code: Some(1), .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// `git remote`: the names of the repository's remotes, in git's order.
    pub fn remote_names(&self) -> Result<Vec<BString>, GitError> {
        let out = self.git.metadata(&["remote"])?;
        Ok(out
            .lines()
            .filter(|l| !l.is_empty())
            .map(BString::from)
            .collect())
    }

    /// `git for-each-ref` of a local branch: where `git push` would send it (push remote and
    /// remote ref, from `pushRemote`/`pushDefault`/`push.default`), else its upstream.
    pub fn push_target(&self, branch: &BStr) -> Result<Option<PushTarget>, GitError> {
        let format = concat!(
            "--format=%(push:remotename)%00%(push:remoteref)%00%(push)%00",
            "%(upstream:remotename)%00%(upstream:remoteref)%00%(upstream)"
        );
        let branch = branch.to_str().map_err(|_| GitError::Parse {
            command: "for-each-ref".into(),
            detail: format!("branch name is not UTF-8: '{}'", branch.to_str_lossy()),
        })?;
        let out = self.git.metadata(&["for-each-ref", format, branch])?;
        state::parse_push_target(&out).map_err(|detail| GitError::Parse {
            command: "for-each-ref".into(),
            detail,
        })
    }

    /// `git ls-remote <remote> <ref>`: the id the remote reports for exactly `remote_ref`
    /// (`None`: the remote has no such ref). The remote's address is what the repository's
    /// configuration names (`ls-remote --get-url`, URL rewriting applied); the question itself
    /// is asked from outside the repository, so only git's own transports and the user's
    /// configuration take part: none of the repository's programs (an ssh command, an upload
    /// pack, a credential helper), never the `ext::` transport, never a password prompt.
    pub fn ls_remote(&self, remote: &BStr, remote_ref: &BStr) -> Result<Option<Oid>, GitError> {
        if crate::confine::test_rule_off("verify-outside") {
            let out = self.git.output([
                OsStr::new("ls-remote"),
                OsStr::new("--end-of-options"),
                OsStr::from_bytes(remote),
                OsStr::from_bytes(remote_ref),
            ])?;
            return state::parse_ls_remote(&out, remote_ref).map_err(|detail| GitError::Parse {
                command: "ls-remote".into(),
                detail,
            });
        }
        let url = self.remote_url(remote)?;
        let out = self.git.output_outside([
            OsStr::new("-c"),
            OsStr::new("protocol.ext.allow=never"),
            OsStr::new("ls-remote"),
            OsStr::new("--end-of-options"),
            url.as_os_str(),
            OsStr::from_bytes(remote_ref),
        ])?;
        state::parse_ls_remote(&out, remote_ref).map_err(|detail| GitError::Parse {
            command: "ls-remote".into(),
            detail,
        })
    }

    /// The address `git ls-remote <remote>` would contact, as an absolute path for a
    /// repository on this machine named relatively.
    pub fn remote_url(&self, remote: &BStr) -> Result<OsString, GitError> {
        let out = self.git.metadata(&[
            "ls-remote",
            "--get-url",
            "--end-of-options",
            remote.to_str().map_err(|_| GitError::Parse {
                command: "ls-remote".into(),
                detail: format!("remote name is not UTF-8: '{}'", remote.to_str_lossy()),
            })?,
        ])?;
        let url = out.trim_ascii_end();
        let is_path = !url.contains_str("://") && {
            // `host:path` (scp-like) has a colon before any slash.
            let colon = url.find_byte(b':');
            let slash = url.find_byte(b'/');
            colon.is_none_or(|c| slash.is_some_and(|s| s < c))
        };
        let path = Path::new(OsStr::from_bytes(url));
        if is_path && path.is_relative() {
            let base = self
                .workdir()
                .map_or_else(|| self.git_dir().to_owned(), Path::to_owned);
            return Ok(base.join(path).into_os_string());
        }
        Ok(path.as_os_str().to_owned())
    }

    /// `git diff --name-only --no-renames <from> <to>`: every path the commits between change,
    /// a move counted at both its old and its new path.
    pub fn changed_paths(&self, from: &Oid, to: &Oid) -> Result<Vec<BString>, GitError> {
        let mut args: Vec<OsString> =
            ["diff", "--name-only", "-z", "--no-renames", "--no-relative"]
                .iter()
                .map(OsString::from)
                .collect();
        // A submodule's new commit changes its path, whatever the configuration ignores.
        if !crate::confine::test_rule_off("verify-submodules") {
            args.push("--ignore-submodules=none".into());
        }
        args.extend(NO_PROGRAMS.iter().map(OsString::from));
        args.push(from.as_str().into());
        args.push(to.as_str().into());
        args.push("--".into());
        let out = self.git.output(args)?;
        Ok(records(&out).map(BString::from).collect())
    }

    /// Starts a command that reads the side `head` names: on a private index copy for the
    /// working tree.
    fn start_on(&self, head: Head, args: Vec<OsString>) -> Result<Running, GitError> {
        match (head, self.index_path()) {
            (Head::Worktree, Some(index)) => self.git.spawn_on_index_copy(args, &index),
            _ => self.git.spawn(args),
        }
    }
}

/// The NUL-terminated records of `-z` output.
fn records(out: &[u8]) -> impl Iterator<Item = &[u8]> {
    out.split(|b| *b == 0).filter(|r| !r.is_empty())
}

/// Splits `<meta>\t<path>`.
fn split_meta(record: &[u8]) -> Option<(&[u8], &[u8])> {
    let tab = record.find_byte(b'\t')?;
    Some((&record[..tab], &record[tab + 1..]))
}
