//! Whether work said to be done is done in git: `git-prism verify` and `git-prism session
//! verify` (ADR 17).
//!
//! Each check asks git itself and nothing else; none trusts what the session says it did (its
//! record gives only where the work started, fixed before the agent ran, and what git cannot
//! answer: whether a commit or push skipped its hooks).
//! The checks are independent: each reports on its own, so one that is skipped or wrong never
//! hides another's failure.
//!
//! | check | what git is asked |
//! |---|---|
//! | `committed` | `status --porcelain --no-renames --untracked-files=all --ignore-submodules=none`: nothing staged, unstaged or untracked (ignored files aside, submodules included) |
//! | `commit` | `rev-list --count <since>..HEAD` > 0; with `--commit`, `merge-base --is-ancestor <id> HEAD` |
//! | `pushed` | `ls-remote` of the branch's push destination (else its upstream) contains HEAD; offline, the remote-tracking ref does |
//! | `merged` | the commit is an ancestor of the branch named, locally; with `--pushed`, of that branch on the remote too |
//! | `hooks` | the session's record: commits and pushes run with hooks skipped |
//! | `protected` | `diff --name-only --no-renames <since> HEAD` and the uncommitted paths touch no protected path |

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use bstr::{BStr, BString, ByteSlice};
use serde::Serialize;

use super::QueryError;
use crate::exit_codes;
use crate::git::state::{PushTarget, Uncommitted};
use crate::git::{GitError, Location, Oid, Repo};

/// One of the questions `verify` asks git.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Check {
    /// Nothing is left uncommitted.
    Committed,
    /// A commit was made since the start (and the one named is in HEAD's history).
    Commit,
    /// The branch's commits are on its remote.
    Pushed,
    /// The commit is reachable from the branch it should be merged into.
    Merged,
    /// No commit or push skipped its hooks.
    Hooks,
    /// No protected path was changed.
    Protected,
}

impl Check {
    /// Every check, in the order they are asked and reported.
    pub const ALL: [Check; 6] = [
        Check::Committed,
        Check::Commit,
        Check::Pushed,
        Check::Merged,
        Check::Hooks,
        Check::Protected,
    ];

    /// The check's name, as printed and as `--skip` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Check::Committed => "committed",
            Check::Commit => "commit",
            Check::Pushed => "pushed",
            Check::Merged => "merged",
            Check::Hooks => "hooks",
            Check::Protected => "protected",
        }
    }

    /// The check named `name`.
    pub fn from_name(name: &str) -> Option<Check> {
        Check::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The exit status of a `verify` whose first failure is this check.
    pub fn exit_code(self) -> i32 {
        match self {
            Check::Committed => exit_codes::VERIFY_COMMITTED,
            Check::Commit => exit_codes::VERIFY_COMMIT,
            Check::Pushed => exit_codes::VERIFY_PUSHED,
            Check::Merged => exit_codes::VERIFY_MERGED,
            Check::Hooks => exit_codes::VERIFY_HOOKS,
            Check::Protected => exit_codes::VERIFY_PROTECTED,
        }
    }
}

/// Where the work started, for the `commit` and `protected` checks.
#[derive(Clone, Debug)]
pub enum Since {
    /// A revision the caller names (`--since`), resolved when `verify` runs.
    Rev(OsString),
    /// The commit HEAD was at when the session started (from the session's record).
    SessionStart(Oid),
    /// The session started in a repository without commits: every commit is new.
    Unborn,
}

/// A commit or push run with its hooks skipped, as the session's record has it.
#[derive(Clone, Debug)]
pub struct SkippedHooks {
    /// When (RFC 3339).
    pub time: String,
    /// The command line.
    pub command: String,
    /// How the hooks were skipped (`--no-verify`, `core.hooksPath`, ...).
    pub how: String,
    /// The command that undoes it, where one does (a `core.hooksPath` set in the
    /// repository's configuration since the session started).
    pub undo: Option<String>,
}

/// What a session's scope lets a repository push, for the remedies of a failed check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionPushes {
    /// No push (`read`, `write-local`): the user pushes.
    Nothing,
    /// Pushes, never to these protected branches (`write-push`).
    Except(Vec<String>),
}

/// One repository to verify.
#[derive(Clone, Debug)]
pub struct Subject {
    /// Where the repository is.
    pub location: Location,
    /// Where the work started.
    pub since: Since,
    /// Paths no change may touch (a directory with a trailing `/`, else a file or directory).
    pub protected_paths: Vec<String>,
    /// What the session's record says about skipped hooks (`None` without a session: git
    /// keeps no trace of them, so the check is not asked).
    pub skipped_hooks: Option<Vec<SkippedHooks>>,
    /// How the remotes' addresses changed since the session started (one description each):
    /// a remote the session pointed elsewhere is not the one its work was to reach.
    pub remote_changes: Vec<String>,
    /// What the session's scope lets the repository push (`None`: not in a session), so that
    /// a remedy is one the session allows.
    pub pushes: Option<SessionPushes>,
}

/// How to ask whether the work is pushed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemoteAsk {
    /// Ask the remote (`git ls-remote`).
    Online,
    /// Trust the remote-tracking refs of the last fetch or push.
    Offline,
}

/// What a verify query asks.
#[derive(Clone, Debug, Default)]
pub struct VerifyQuery {
    /// The repositories.
    pub subjects: Vec<Subject>,
    /// `--commit`: the commit the work is, which must be in HEAD's history.
    pub commit: Option<OsString>,
    /// `--pushed` (and `--offline`).
    pub pushed: Option<RemoteAsk>,
    /// `--merged-into`: the branch the commit must be reachable from.
    pub merged_into: Option<OsString>,
    /// Checks not asked.
    pub skip: Vec<Check>,
}

/// The answer to one check in one repository.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// The check.
    pub check: Check,
    /// The repository (its work tree, or git dir when bare).
    pub repo: PathBuf,
    /// Whether it holds.
    pub ok: bool,
    /// What git says, in one line.
    pub detail: String,
    /// What to do next, for a check that failed: the command that makes it hold, where there
    /// is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remedy: Option<String>,
}

/// Asks every check of `q` in every repository; the findings of passing checks are included
/// (the edges print only failures unless asked for JSON).
pub fn verify(q: &VerifyQuery) -> Result<Vec<Finding>, QueryError> {
    let mut findings = Vec::new();
    for subject in &q.subjects {
        let repo = Repo::open_ignoring_replacements(&subject.location)?;
        findings.extend(verify_open(q, subject, &repo, None)?);
    }
    Ok(findings)
}

/// Asks every check of `q` of one repository the caller has open (with
/// [`Repo::open_ignoring_replacements`]); `uncommitted` is what [`Repo::uncommitted`] said a
/// moment ago when the caller asked it already (the stop hook does, to see whether a turn
/// changed anything), so that a large work tree is not walked twice.
pub fn verify_open(
    q: &VerifyQuery,
    subject: &Subject,
    repo: &Repo,
    uncommitted: Option<Vec<Uncommitted>>,
) -> Result<Vec<Finding>, QueryError> {
    let mut findings = Vec::new();
    Verifier {
        repo,
        q,
        subject,
        shown: repo.display_path().to_owned(),
        findings: &mut findings,
    }
    .run(uncommitted)?;
    Ok(findings)
}

/// The exit status for `findings`: success, or the first failing check's code.
pub fn exit_code(findings: &[Finding]) -> i32 {
    findings
        .iter()
        .filter(|f| !f.ok)
        .map(|f| f.check)
        .min()
        .map_or(exit_codes::SUCCESS, Check::exit_code)
}

struct Verifier<'a> {
    repo: &'a Repo,
    q: &'a VerifyQuery,
    subject: &'a Subject,
    shown: PathBuf,
    findings: &'a mut Vec<Finding>,
}

/// The first 12 digits of an id, as the lines show them.
fn short(oid: &Oid) -> &str {
    &oid.as_str()[..12]
}

/// Lists at most five paths, and how many more.
fn some_paths(paths: impl Iterator<Item = String>) -> String {
    let all: Vec<String> = paths.collect();
    let mut text = all.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
    if all.len() > 5 {
        text.push_str(&format!(" and {} more", all.len() - 5));
    }
    text
}

pub use crate::paths::shown_path;

impl Verifier<'_> {
    fn asks(&self, check: Check) -> bool {
        !self.q.skip.contains(&check)
    }

    fn report(&mut self, check: Check, result: Result<String, Failure>) {
        let (ok, detail, remedy) = match result {
            Ok(d) => (true, d, None),
            Err(f) => {
                let remedy = f.remedy.unwrap_or_else(|| self.remedy(check));
                (false, f.detail, Some(remedy))
            }
        };
        self.findings.push(Finding {
            check,
            repo: self.shown.clone(),
            ok,
            detail,
            remedy,
        });
    }

    /// What makes a failed check hold, when its failure does not say better.
    fn remedy(&self, check: Check) -> String {
        match check {
            Check::Committed => {
                "commit it (`git add -A && git commit -m <message>`) or discard it".into()
            }
            Check::Commit => "commit the work (`git add -A && git commit -m <message>`); with nothing to commit, the work is not done".into(),
            Check::Pushed => self.push_remedy(),
            Check::Merged => "merge it (open a pull request), then verify again".into(),
            Check::Hooks => "a hook that did not run cannot be run for it afterwards: make commits and pushes with their hooks from now on, and tell the user, who can accept these (`--skip hooks`)".into(),
            Check::Protected => "take the change to the protected path back".into(),
        }
    }

    /// The repository, quoted, for a command the user runs elsewhere.
    fn cd(&self) -> String {
        format!("cd {}", crate::shell::quote(self.shown.as_os_str()))
    }

    /// Whether the session lets the repository push to the remote branch `name`.
    fn may_push(&self, name: &str) -> bool {
        match &self.subject.pushes {
            None => true,
            Some(SessionPushes::Nothing) => false,
            Some(SessionPushes::Except(protected)) => !protected
                .iter()
                .any(|p| crate::paths::star_matches(p, name)),
        }
    }

    /// The remote a branch without an upstream would be pushed to: `origin`, else the first
    /// the repository has (`None`: it has none).
    fn a_remote(&self) -> Option<String> {
        let names = self.repo.remote_names().ok()?;
        let name = names
            .iter()
            .find(|n| n.as_slice() == b"origin")
            .or_else(|| names.first())?;
        Some(name.to_str_lossy().into_owned())
    }

    /// How to push the current branch where `verify --pushed` looks for it, in a way the
    /// session allows.
    fn push_remedy(&self) -> String {
        if !self.subject.remote_changes.is_empty() {
            return "point the remote back where it was (`git remote set-url <name> <address>`), then push".into();
        }
        let quote = |s: &str| crate::shell::quote(std::ffi::OsStr::new(s));
        let branch = self.repo.current_branch().ok().flatten();
        let (remote, remote_branch, command) = match (&branch, self.branch_and_target()) {
            (Some(_), Ok(Ok((name, target)))) => {
                let remote_branch = target
                    .remote_ref
                    .strip_prefix(b"refs/heads/")
                    .unwrap_or(&target.remote_ref)
                    .to_str_lossy()
                    .into_owned();
                let local = name.to_str_lossy().into_owned();
                // `git push <remote> <branch>` pushes to the same name; an upstream of
                // another name is named.
                let refspec = if remote_branch == local {
                    local
                } else {
                    format!("HEAD:{remote_branch}")
                };
                let remote = target.remote.to_str_lossy().into_owned();
                let command = format!("git push {} {}", quote(&remote), quote(&refspec));
                (remote, remote_branch, command)
            }
            (Some(b), _) => {
                let Some(remote) = self.a_remote() else {
                    return no_remote(self.subject.pushes.as_ref());
                };
                let name = branch_name(b.as_ref()).to_str_lossy().into_owned();
                let command = format!("git push -u {} {}", quote(&remote), quote(&name));
                (remote, name, command)
            }
            (None, _) => {
                let Some(remote) = self.a_remote() else {
                    return no_remote(self.subject.pushes.as_ref());
                };
                let push = format!("git push -u {} <new-branch>", quote(&remote));
                return if self.subject.pushes == Some(SessionPushes::Nothing) {
                    format!(
                        "make a branch (`git switch -c <new-branch>`) and ask the user to push it (`{push}`): the session's scope lets this repository push nothing"
                    )
                } else {
                    format!("make a branch (`git switch -c <new-branch>`) and push it (`{push}`)")
                };
            }
        };
        if self.subject.pushes == Some(SessionPushes::Nothing) {
            return format!(
                "ask the user to push it (`{} && {command}`): the session's scope lets this repository push nothing",
                self.cd()
            );
        }
        if !self.may_push(&remote_branch) {
            return format!(
                "`{remote_branch}` is a protected branch: make a branch of your own (`git switch -c <new-branch>`), push it (`git push -u {} <new-branch>`) and open a pull request into `{remote_branch}`",
                quote(&remote)
            );
        }
        format!("run `{command}`")
    }

    fn run(mut self, known: Option<Vec<Uncommitted>>) -> Result<(), QueryError> {
        let head = self.head()?;
        // A bare repository has no work tree: nothing can be left uncommitted in it.
        let bare = self.repo.workdir().is_none();
        let uncommitted = match known {
            _ if bare => Vec::new(),
            Some(known) => known,
            None => self.repo.uncommitted()?,
        };
        if self.asks(Check::Committed) && !bare {
            let result = committed(&uncommitted).map_err(Failure::from);
            self.report(Check::Committed, result);
        }
        let since = self.since()?;
        if self.asks(Check::Commit) {
            let result = self.commit(since.as_ref(), head.as_ref())?;
            self.report(Check::Commit, result);
        }
        if let Some(how) = self.q.pushed.filter(|_| self.asks(Check::Pushed)) {
            let result = self.pushed(how, head.as_ref())?;
            self.report(Check::Pushed, result);
        }
        if let Some(into) = self
            .q
            .merged_into
            .clone()
            .filter(|_| self.asks(Check::Merged))
        {
            let result = self.merged(&into, head.as_ref())?;
            self.report(Check::Merged, result);
        }
        if let Some(skipped) = self
            .subject
            .skipped_hooks
            .as_ref()
            .filter(|_| self.asks(Check::Hooks))
        {
            let result = hooks(skipped, &self.cd());
            self.report(Check::Hooks, result);
        }
        if !self.subject.protected_paths.is_empty() && self.asks(Check::Protected) {
            let result = self.protected(since.as_ref(), head.as_ref(), &uncommitted)?;
            self.report(Check::Protected, result);
        }
        Ok(())
    }

    /// HEAD's commit, `None` before the first commit.
    fn head(&self) -> Result<Option<Oid>, QueryError> {
        match self.repo.resolve_commit("HEAD".as_ref()) {
            Ok(oid) => Ok(Some(oid)),
            Err(GitError::BadRevision(_)) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// The commit the work started from (`None`: before the first commit).
    fn since(&self) -> Result<Option<Oid>, QueryError> {
        match &self.subject.since {
            Since::Rev(rev) => Ok(Some(self.repo.resolve_commit(rev)?)),
            Since::SessionStart(oid) => Ok(Some(oid.clone())),
            Since::Unborn => Ok(None),
        }
    }

    fn since_text(&self, since: &Oid) -> String {
        match &self.subject.since {
            Since::Rev(rev) if rev.as_encoded_bytes() != since.as_bytes() => {
                format!("{} ({})", rev.to_string_lossy(), short(since))
            }
            Since::SessionStart(_) => format!("the session's start ({})", short(since)),
            _ => short(since).to_owned(),
        }
    }

    fn commit(
        &self,
        since: Option<&Oid>,
        head: Option<&Oid>,
    ) -> Result<Result<String, Failure>, QueryError> {
        let Some(head) = head else {
            return Ok(Err(Failure::from(
                "the repository has no commit yet".to_owned(),
            )));
        };
        if let Some(since) = since {
            let count = self.repo.count_commits(since, head)?;
            if count == 0 {
                return Ok(Err(Failure::from(if head == since {
                    format!(
                        "HEAD is still at {}: nothing was committed",
                        self.since_text(since)
                    )
                } else {
                    format!(
                        "HEAD ({}) has no commit that {} has not: nothing was committed",
                        short(head),
                        self.since_text(since)
                    )
                })));
            }
        }
        if let Some(named) = &self.q.commit {
            let commit = self.repo.resolve_commit(named)?;
            if !self.repo.is_ancestor(&commit, head)? {
                return Ok(Err(Failure {
                    detail: format!(
                        "{} is not HEAD ({}) nor in its history",
                        commit_text(named, &commit),
                        short(head)
                    ),
                    remedy: Some(format!(
                        "bring it into HEAD's history (`git merge {}`), or name the commit the work is",
                        crate::shell::quote(named)
                    )),
                }));
            }
        }
        Ok(Ok(format!("HEAD is {}", short(head))))
    }

    /// Where the current branch goes, or why that cannot be told.
    fn branch_and_target(&self) -> Result<Result<(BString, PushTarget), String>, QueryError> {
        let Some(branch) = self.repo.current_branch()? else {
            return Ok(Err("HEAD is detached: no branch to have pushed".into()));
        };
        let name = branch_name(branch.as_ref()).to_owned();
        match self.repo.push_target(branch.as_ref())? {
            Some(target) => Ok(Ok((name, target))),
            None => Ok(Err(format!(
                "branch {} has no upstream and no push destination",
                name.to_str_lossy()
            ))),
        }
    }

    fn pushed(
        &self,
        how: RemoteAsk,
        head: Option<&Oid>,
    ) -> Result<Result<String, Failure>, QueryError> {
        let Some(head) = head else {
            return Ok(Err(Failure {
                detail: "the repository has no commit yet".into(),
                remedy: Some("commit the work, then push it".into()),
            }));
        };
        if !self.subject.remote_changes.is_empty() {
            return Ok(Err(Failure::from(format!(
                "the remotes changed since the session started ({}): the work was not asked of the remotes it started with",
                self.subject.remote_changes.join("; ")
            ))));
        }
        let (branch, target) = match self.branch_and_target()? {
            Ok(t) => t,
            Err(why) => return Ok(Err(Failure::from(why))),
        };
        let place = format!(
            "{} {}",
            target.remote.to_str_lossy(),
            target.remote_ref.to_str_lossy()
        );
        let (remote_tip, source) = match how {
            RemoteAsk::Online => (
                self.repo
                    .ls_remote(target.remote.as_ref(), target.remote_ref.as_ref())?,
                String::new(),
            ),
            RemoteAsk::Offline => {
                let Some(tracking) = &target.tracking else {
                    return Ok(Err(Failure::from(format!(
                        "offline: branch {} has no remote-tracking ref for {place}",
                        branch.to_str_lossy()
                    ))));
                };
                (
                    self.tip_of(tracking.as_ref())?,
                    format!(
                        " (offline: as of the last fetch, {})",
                        tracking.to_str_lossy()
                    ),
                )
            }
        };
        let remote = target.remote.to_str_lossy().into_owned();
        Ok(self
            .contains(&remote_tip, head, &place, &source, "HEAD")?
            .map_err(|miss| {
                let remedy = match miss.kind {
                    Miss::Unfetched => Some(fetch(&remote)),
                    Miss::Diverged => Some(format!(
                        "{place} has commits HEAD has not: bring them in (`git pull --rebase {} {}`), then {}",
                        crate::shell::quote(remote.as_ref()),
                        crate::shell::quote(
                            target
                                .remote_ref
                                .strip_prefix(b"refs/heads/")
                                .unwrap_or(&target.remote_ref)
                                .to_os_str_lossy()
                                .as_ref()
                        ),
                        self.push_remedy().trim_start_matches("run ")
                    )),
                    Miss::Absent | Miss::Behind => None,
                };
                Failure {
                    detail: miss.detail,
                    remedy,
                }
            }))
    }

    /// Whether `tip` (a ref's id as a remote or a ref reports it) has `commit` in its history,
    /// or how it misses it.
    fn contains(
        &self,
        tip: &Option<Oid>,
        commit: &Oid,
        place: &str,
        source: &str,
        what: &str,
    ) -> Result<Result<String, Missed>, QueryError> {
        let Some(tip) = tip else {
            return Ok(Err(Missed {
                detail: format!("{place} does not exist{source}"),
                kind: Miss::Absent,
            }));
        };
        if tip == commit {
            return Ok(Ok(format!("{place} is {}{source}", short(tip))));
        }
        if !self.repo.has_object(tip) {
            return Ok(Err(Missed {
                detail: format!(
                    "{place} is {}{source}, a commit this repository does not have",
                    short(tip)
                ),
                kind: Miss::Unfetched,
            }));
        }
        if self.repo.is_ancestor(commit, tip)? {
            return Ok(Ok(format!(
                "{place} is {}, which contains {what}{source}",
                short(tip)
            )));
        }
        Ok(Err(Missed {
            detail: format!(
                "{place} is {}{source}, which does not contain {what} ({})",
                short(tip),
                short(commit)
            ),
            kind: if self.repo.is_ancestor(tip, commit)? {
                Miss::Behind
            } else {
                Miss::Diverged
            },
        }))
    }

    /// `<remote>/<branch>` (or `refs/remotes/<remote>/<branch>`) when it names an existing
    /// remote-tracking ref: that branch on that remote.
    fn remote_tracking(&self, name: &str) -> Result<Option<PushTarget>, QueryError> {
        let short = name.strip_prefix("refs/remotes/").unwrap_or(name);
        let Some((remote, branch)) = short.split_once('/') else {
            return Ok(None);
        };
        let tracking = BString::from(format!("refs/remotes/{short}"));
        if self.tip_of(tracking.as_ref())?.is_none() {
            return Ok(None);
        }
        Ok(Some(PushTarget {
            remote: remote.into(),
            remote_ref: format!("refs/heads/{branch}").into(),
            tracking: Some(tracking),
        }))
    }

    /// A ref's commit here (`None`: no such ref).
    fn tip_of(&self, full_ref: &BStr) -> Result<Option<Oid>, QueryError> {
        let spec = OsString::from(full_ref.to_str_lossy().into_owned());
        match self.repo.resolve_commit(&spec) {
            Ok(oid) => Ok(Some(oid)),
            Err(GitError::BadRevision(_)) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    fn merged(
        &self,
        into: &OsString,
        head: Option<&Oid>,
    ) -> Result<Result<String, Failure>, QueryError> {
        let (commit, what) = match &self.q.commit {
            Some(named) => {
                let c = self.repo.resolve_commit(named)?;
                let what = commit_text(named, &c);
                (c, what)
            }
            None => match head {
                Some(h) => (h.clone(), "HEAD".to_owned()),
                None => {
                    return Ok(Err(Failure::from(
                        "the repository has no commit yet".to_owned(),
                    )));
                }
            },
        };
        // What the remedy merges: the commit named, else the current branch (HEAD's id when
        // it is detached).
        let merge_what = match &self.q.commit {
            Some(named) => named.to_string_lossy().into_owned(),
            None => match self.repo.current_branch().ok().flatten() {
                Some(b) => branch_name(b.as_ref()).to_str_lossy().into_owned(),
                None => short(&commit).to_owned(),
            },
        };
        let into_text = into.to_string_lossy();
        // The branch as git reads the name (`main`, `origin/main`, a full ref).
        let local_tip = match self.repo.resolve_commit(into) {
            Ok(oid) => Some(oid),
            Err(GitError::BadRevision(_)) => None,
            Err(e) => return Err(e.into()),
        };
        let quote = |s: &str| crate::shell::quote(std::ffi::OsStr::new(s));
        let into_branch = into_text
            .strip_prefix("refs/heads/")
            .unwrap_or(&into_text)
            .to_owned();
        let local = self
            .contains(&local_tip, &commit, &into_text, "", &what)?
            .map_err(|miss| Failure {
                detail: miss.detail,
                remedy: Some(format!(
                    "merge it (`git switch {} && git merge {}`, or through a pull request into `{into_branch}`), then verify again",
                    quote(&into_branch),
                    quote(&merge_what)
                )),
            });
        if local.is_err() || self.q.pushed.is_none() {
            return Ok(local);
        }
        // On the remote: a local branch's push destination; a remote-tracking name's own
        // remote branch; else the same name on the current branch's remote.
        let local_ref = local_branch_ref(&into_text);
        let target = match self.repo.push_target(local_ref.as_ref())? {
            Some(t) if self.tip_of(local_ref.as_ref())?.is_some() => t,
            _ => match self.remote_tracking(&into_text)? {
                Some(t) => t,
                None => match self.branch_and_target()? {
                    Ok((_, t)) => PushTarget {
                        remote: t.remote,
                        remote_ref: local_ref.clone(),
                        tracking: None,
                    },
                    Err(why) => {
                        // Where the branch goes tells which remote to ask: push it first.
                        return Ok(Err(Failure {
                            detail: format!("{into_text} on the remote: {why}"),
                            remedy: Some(self.push_remedy()),
                        }));
                    }
                },
            },
        };
        let place = format!(
            "{} {}",
            target.remote.to_str_lossy(),
            target.remote_ref.to_str_lossy()
        );
        let (tip, source) = match self.q.pushed {
            Some(RemoteAsk::Offline) => match &target.tracking {
                Some(tracking) => (
                    self.tip_of(tracking.as_ref())?,
                    format!(
                        " (offline: as of the last fetch, {})",
                        tracking.to_str_lossy()
                    ),
                ),
                None => {
                    return Ok(Err(Failure::from(format!(
                        "offline: {into_text} has no remote-tracking ref for {place}"
                    ))));
                }
            },
            _ => (
                self.repo
                    .ls_remote(target.remote.as_ref(), target.remote_ref.as_ref())?,
                String::new(),
            ),
        };
        let remote = target.remote.to_str_lossy().into_owned();
        let remote_branch = target
            .remote_ref
            .strip_prefix(b"refs/heads/")
            .unwrap_or(&target.remote_ref)
            .to_str_lossy()
            .into_owned();
        Ok(self
            .contains(&tip, &commit, &place, &source, &what)?
            .map_err(|miss| {
                let remedy = match miss.kind {
                    Miss::Unfetched => fetch(&remote),
                    _ if !self.may_push(&remote_branch) => format!(
                        "open a pull request into `{remote_branch}` and ask the user to merge it, then verify again"
                    ),
                    _ => format!(
                        "push it (`git push {} {}`), or merge the pull request, then verify again",
                        quote(&remote),
                        quote(&format!("{into_branch}:{remote_branch}"))
                    ),
                };
                Failure {
                    detail: miss.detail,
                    remedy: Some(remedy),
                }
            }))
    }

    fn protected(
        &self,
        since: Option<&Oid>,
        head: Option<&Oid>,
        uncommitted: &[Uncommitted],
    ) -> Result<Result<String, Failure>, QueryError> {
        let committed: Vec<BString> = match (since, head) {
            (Some(since), Some(head)) => self.repo.changed_paths(since, head)?,
            (None, Some(head)) => self.repo.changed_paths(&Oid::empty_tree(), head)?,
            _ => Vec::new(),
        };
        let mut changed = committed.clone();
        changed.extend(uncommitted.iter().map(|u| u.path.clone()));
        changed.sort();
        changed.dedup();
        let touched: Vec<(&BString, &str)> = changed
            .iter()
            .filter_map(|p| {
                self.subject
                    .protected_paths
                    .iter()
                    .find(|rule| is_under(p, rule))
                    .map(|rule| (p, rule.as_str()))
            })
            .collect();
        if touched.is_empty() {
            return Ok(Ok(format!(
                "{} changed paths, none protected",
                changed.len()
            )));
        }
        let detail = format!(
            "{} protected: {}",
            if touched.len() == 1 {
                "1 change is"
            } else {
                "changes are"
            },
            some_paths(
                touched
                    .iter()
                    .map(|(p, rule)| format!("{} ({rule})", shown_path(p.as_ref())))
            )
        );
        let paths = touched
            .iter()
            .map(|(p, _)| crate::shell::quote(std::ffi::OsStr::from_bytes(p)))
            .collect::<Vec<_>>()
            .join(" ");
        let start = since.map_or_else(|| "the first commit".to_owned(), |s| short(s).to_owned());
        let remedy = if touched.iter().any(|(p, _)| committed.contains(p)) {
            let find = format!("`git log --oneline {start}..HEAD -- {paths}` names it");
            if self.subject.pushes.is_some() {
                format!(
                    "a commit since {start} changed it, and a commit that takes it back changes the protected path too, which the session refuses: ask the user to revert it ({find})"
                )
            } else {
                format!("revert the commit that changed it ({find})")
            }
        } else {
            match since {
                Some(_) => format!(
                    "take it back as it was at {start} (`git restore --source={start} --staged --worktree -- {paths}`; a file that did not exist then: `git rm -q --cached --ignore-unmatch -- <path>` and delete it)"
                ),
                None => format!(
                    "take it back (`git rm -q --cached --ignore-unmatch -- {paths}`, and delete it)"
                ),
            }
        };
        Ok(Err(Failure {
            detail,
            remedy: Some(remedy),
        }))
    }
}

/// The `hooks` check: `cd` is the command that goes to the repository (for an undo the user
/// runs).
fn hooks(skipped: &[SkippedHooks], cd: &str) -> Result<String, Failure> {
    if skipped.is_empty() {
        return Ok("no commit or push skipped its hooks".into());
    }
    let detail = skipped
        .iter()
        .map(|s| format!("`{}` at {} ({})", s.command, s.time, s.how))
        .collect::<Vec<_>>()
        .join("; ")
        + " ran with hooks skipped";
    // A setting that skips the hooks from now on is undone; a call that skipped them is not.
    let remedy = skipped
        .iter()
        .find_map(|s| s.undo.as_ref())
        .map(|undo| format!("ask the user to run `{cd} && {undo}`, then verify again"));
    Err(Failure { detail, remedy })
}

/// A failed check: what git says, and what makes it hold where that is not the check's usual
/// remedy ([`Verifier::remedy`]).
struct Failure {
    detail: String,
    remedy: Option<String>,
}

impl From<String> for Failure {
    fn from(detail: String) -> Failure {
        Failure {
            detail,
            remedy: None,
        }
    }
}

/// How a ref misses a commit ([`Verifier::contains`]).
struct Missed {
    detail: String,
    kind: Miss,
}

enum Miss {
    /// The ref does not exist.
    Absent,
    /// Its commit is not in this repository (fetch it).
    Unfetched,
    /// It is behind the commit (a push fast-forwards it).
    Behind,
    /// It has commits the commit has not.
    Diverged,
}

/// The remedy when the repository has no remote to push to (`pushes`: what the session lets
/// it push).
fn no_remote(pushes: Option<&SessionPushes>) -> String {
    match pushes {
        Some(SessionPushes::Nothing) => "the repository has no remote, and the session's scope lets it push nothing: ask the user to push the work".into(),
        _ => "the repository has no remote: add the one the work goes to (`git remote add origin <address>`), then push the branch (`git push -u origin <branch>`)".into(),
    }
}

/// The remedy when the remote has a commit this repository does not.
fn fetch(remote: &str) -> String {
    format!(
        "fetch (`git fetch {}`), then verify again",
        crate::shell::quote(std::ffi::OsStr::new(remote))
    )
}

fn committed(uncommitted: &[Uncommitted]) -> Result<String, String> {
    if uncommitted.is_empty() {
        return Ok("nothing to commit".into());
    }
    let staged = uncommitted.iter().filter(|u| u.is_staged()).count();
    let untracked = uncommitted.iter().filter(|u| u.is_untracked()).count();
    let unstaged = uncommitted.len() - staged - untracked;
    let counts: Vec<String> = [
        (staged, "staged"),
        (unstaged, "not staged"),
        (untracked, "untracked"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    Err(format!(
        "{} not committed ({}): {}",
        if uncommitted.len() == 1 {
            "1 change".to_owned()
        } else {
            format!("{} changes", uncommitted.len())
        },
        counts.join(", "),
        some_paths(uncommitted.iter().map(|u| format!(
            "{} {}",
            String::from_utf8_lossy(&u.code).trim(),
            shown_path(u.path.as_ref())
        )))
    ))
}

pub use crate::paths::is_under;

/// `refs/heads/<name>` → `<name>`.
fn branch_name(full: &BStr) -> &BStr {
    full.strip_prefix(b"refs/heads/").unwrap_or(full).as_bstr()
}

/// A branch name as a full local ref (a full ref is kept).
fn local_branch_ref(name: &str) -> BString {
    if name.starts_with("refs/") {
        BString::from(name)
    } else {
        BString::from(format!("refs/heads/{name}"))
    }
}

fn commit_text(named: &OsString, oid: &Oid) -> String {
    let named = named.to_string_lossy();
    if named.as_bytes() == oid.as_bytes() {
        format!("commit {}", short(oid))
    } else {
        format!("{named} ({})", short(oid))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protected_rules_match_directories_and_files() {
        assert!(is_under(b"migrations/001.sql", "migrations/"));
        assert!(is_under(b"migrations", "migrations/"));
        assert!(!is_under(b"migrations2/x", "migrations/"));
        assert!(is_under(b".github/workflows/ci.yml", ".github"));
        assert!(!is_under(b".githubx", ".github"));
        assert!(is_under(b"Cargo.lock", "./Cargo.lock"));
        assert!(!is_under(b"a", ""));
        assert!(!is_under(b"a", "/"));
    }

    #[test]
    fn the_first_failing_check_names_the_exit_code() {
        let f = |check, ok| Finding {
            remedy: None,
            check,
            repo: PathBuf::new(),
            ok,
            detail: String::new(),
        };
        assert_eq!(exit_code(&[f(Check::Committed, true)]), exit_codes::SUCCESS);
        assert_eq!(
            exit_code(&[f(Check::Pushed, false), f(Check::Committed, false)]),
            exit_codes::VERIFY_COMMITTED
        );
        let codes: std::collections::HashSet<i32> =
            Check::ALL.iter().map(|c| c.exit_code()).collect();
        assert_eq!(codes.len(), Check::ALL.len(), "one exit code per check");
        for c in Check::ALL {
            assert_eq!(Check::from_name(c.name()), Some(c));
        }
    }

    #[test]
    fn uncommitted_changes_are_counted_by_kind() {
        let u = |code: &[u8; 2], path: &str| Uncommitted {
            code: *code,
            path: path.into(),
        };
        let line = committed(&[u(b"M ", "a.rs"), u(b" M", "b.rs"), u(b"??", "c.txt")]).unwrap_err();
        assert_eq!(
            line,
            "3 changes not committed (1 staged, 1 not staged, 1 untracked): M a.rs, M b.rs, ?? c.txt"
        );
    }
}
