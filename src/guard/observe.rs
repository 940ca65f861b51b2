//! The record of what a write did (issue 28, ADR 17): for a commit, merge, rebase, reset,
//! cherry-pick, revert, am, pull or push the guard lets through, the shim notes the refs before
//! git runs and after it exits, and the record says what git did — HEAD before and after, the
//! remote-tracking refs a push moved, git's exit status, whether hooks were skipped — rather
//! than only what was asked. When git exits 0 but did not do what the command names (a commit
//! that made no commit; a push after which the current branch's tip is not on the
//! remote-tracking ref of where it is pushed),
//! [`Watch::finish`] returns the one line the shim prints.
//!
//! Refs are read from the repository's files ([`crate::git::refs`]): microseconds, not a git
//! process, so a write pays little; a repository whose refs are not plain files is asked
//! through git.

use serde::{Deserialize, Serialize};

use crate::git::refs::{self, RefStore};

/// What to watch around one write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Watch {
    /// Where the repository's refs are.
    pub store: RefStore,
    /// The subcommand (`commit`, `push`, ...).
    pub command: String,
    /// Whether the command exists to make a commit.
    pub makes_commit: bool,
    /// How hooks were skipped, if they were (`--no-verify`, `-c core.hooksPath=...`).
    pub hooks_skipped: Option<String>,
    /// For a push: the remote-tracking refs of the branches it sends (full names), and the
    /// current branch with the tracking ref of where it is pushed, when it has one.
    pub push: Option<PushWatch>,
}

/// The refs a push is watched by.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PushWatch {
    /// `(destination branch, its remote-tracking ref)`.
    pub sent: Vec<(String, String)>,
    /// `(current branch ref, the remote-tracking ref it is pushed to)`.
    pub current: Option<(String, String)>,
}

/// The refs before git ran.
#[derive(Clone, Debug, Default)]
pub struct Before {
    head: Option<String>,
    branch: Option<String>,
    tracking: Vec<Option<String>>,
}

/// What a write did, as its record keeps it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observed {
    /// git's exit code (absent when a signal ended it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<i32>,
    /// The signal that ended git, if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    /// HEAD's commit before (`None`: no commit yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_before: Option<String>,
    /// HEAD's commit after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_after: Option<String>,
    /// The branch HEAD was on before (`None`: detached).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// For a push: each branch sent, with its remote-tracking ref before and after.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pushed: Vec<SentBranch>,
    /// How hooks were skipped, if they were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hooks_skipped: Option<String>,
    /// What git did not do that the command names (the line the shim printed), or why it
    /// failed as far as the refs tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One branch a push sent, as its remote-tracking ref tells.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SentBranch {
    /// The branch on the remote.
    pub branch: String,
    /// Its remote-tracking ref's commit before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    /// After (git updates it when the remote accepted the push).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
}

/// How git ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It exited with this code.
    Exited(i32),
    /// A signal ended it.
    Signaled(i32),
}

fn oid_of(store: &RefStore, name: &str) -> Option<String> {
    refs::resolve(store, name)
        .and_then(|r| r.oid)
        .map(|o| o.as_str().to_owned())
}

fn short(oid: &Option<String>) -> String {
    oid.as_deref()
        .map_or_else(|| "nothing".to_owned(), |o| o.chars().take(12).collect())
}

impl Watch {
    /// Reads the refs before git runs.
    pub fn before(&self) -> Before {
        let head = refs::resolve(&self.store, "HEAD");
        Before {
            head: head
                .as_ref()
                .and_then(|r| r.oid.as_ref())
                .map(|o| o.as_str().to_owned()),
            branch: head.and_then(|r| r.target),
            tracking: self
                .push
                .iter()
                .flat_map(|p| p.sent.iter())
                .map(|(_, tracking)| oid_of(&self.store, tracking))
                .collect(),
        }
    }

    /// Reads the refs after git ended, and says what the write did: its record, and the line
    /// to print when git exited 0 but did not do what the command names.
    pub fn finish(&self, before: &Before, ended: Ended) -> (Observed, Option<String>) {
        let head_after = oid_of(&self.store, "HEAD");
        // A push moves no HEAD: its record is what it sent.
        let pushing = self.push.is_some();
        let mut effect = Observed {
            head_before: before.head.clone().filter(|_| !pushing),
            head_after: head_after.clone().filter(|_| !pushing),
            branch: before.branch.clone(),
            hooks_skipped: self.hooks_skipped.clone(),
            ..Observed::default()
        };
        match ended {
            Ended::Exited(code) => effect.exit = Some(code),
            Ended::Signaled(sig) => effect.signal = Some(sig),
        }
        let ok = ended == Ended::Exited(0);
        let mut line = None;
        if self.makes_commit {
            let moved = head_after != before.head;
            if ok && !moved {
                line = Some(format!(
                    "`git {}` exited 0 but made no commit: HEAD is still {}",
                    self.command,
                    short(&before.head)
                ));
            } else if !ok && !moved {
                effect.note = Some(format!(
                    "no commit: git {} (HEAD is still {}); a hook may have refused it",
                    match ended {
                        Ended::Exited(code) => format!("exited {code}"),
                        Ended::Signaled(sig) => format!("was ended by signal {sig}"),
                    },
                    short(&before.head)
                ));
            }
        }
        if let Some(push) = &self.push {
            effect.pushed = push
                .sent
                .iter()
                .zip(&before.tracking)
                .map(|((branch, tracking), was)| SentBranch {
                    branch: branch.clone(),
                    before: was.clone(),
                    after: oid_of(&self.store, tracking),
                })
                .collect();
            if ok {
                if let Some((local, tracking)) = &push.current {
                    let tip = oid_of(&self.store, local);
                    let remote = oid_of(&self.store, tracking);
                    if tip.is_some() && tip != remote {
                        let name = local.strip_prefix("refs/heads/").unwrap_or(local);
                        let upstream = tracking.strip_prefix("refs/remotes/").unwrap_or(tracking);
                        line = Some(format!(
                            "`git push` exited 0 but {name} ({}) is not on {upstream} ({}): its commits were not pushed",
                            short(&tip),
                            short(&remote)
                        ));
                    }
                }
            }
        }
        if line.is_some() {
            effect.note = line.clone();
        }
        (effect, line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo() -> (tempfile::TempDir, RefStore) {
        let tmp = tempfile::tempdir().unwrap();
        let git = tmp.path().join(".git");
        std::fs::create_dir_all(git.join("refs/heads")).unwrap();
        std::fs::create_dir_all(git.join("refs/remotes/origin")).unwrap();
        std::fs::write(git.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        (
            tmp,
            RefStore {
                git_dir: git.clone(),
                common_dir: git,
            },
        )
    }

    fn set(store: &RefStore, name: &str, c: char) {
        std::fs::write(
            store.common_dir.join(name),
            format!("{}\n", c.to_string().repeat(40)),
        )
        .unwrap();
    }

    fn watch(store: &RefStore, command: &str, makes_commit: bool) -> Watch {
        Watch {
            store: store.clone(),
            command: command.into(),
            makes_commit,
            hooks_skipped: None,
            push: None,
        }
    }

    #[test]
    fn a_commit_that_made_no_commit_is_said() {
        let (_t, store) = repo();
        set(&store, "refs/heads/main", 'a');
        let w = watch(&store, "commit", true);
        let before = w.before();
        let (effect, line) = w.finish(&before, Ended::Exited(0));
        assert_eq!(
            line.unwrap(),
            "`git commit` exited 0 but made no commit: HEAD is still aaaaaaaaaaaa"
        );
        assert_eq!(effect.head_before, effect.head_after);
        assert_eq!(effect.branch.as_deref(), Some("refs/heads/main"));
        // A commit that moved HEAD says nothing.
        let before = w.before();
        set(&store, "refs/heads/main", 'b');
        let (effect, line) = w.finish(&before, Ended::Exited(0));
        assert!(line.is_none());
        assert_eq!(effect.head_after.unwrap(), "b".repeat(40));
        // A failed one is noted in the record, not printed (git said why).
        let before = w.before();
        let (effect, line) = w.finish(&before, Ended::Exited(1));
        assert!(line.is_none());
        assert!(effect.note.unwrap().starts_with("no commit: git exited 1"));
        // A reset that moves nothing is no news.
        let r = watch(&store, "reset", false);
        let before = r.before();
        assert_eq!(r.finish(&before, Ended::Exited(0)).1, None);
    }

    #[test]
    fn a_push_that_left_the_branch_ahead_is_said() {
        let (_t, store) = repo();
        set(&store, "refs/heads/main", 'a');
        set(&store, "refs/remotes/origin/main", 'b');
        let mut w = watch(&store, "push", false);
        w.push = Some(PushWatch {
            sent: vec![("other".into(), "refs/remotes/origin/other".into())],
            current: Some(("refs/heads/main".into(), "refs/remotes/origin/main".into())),
        });
        let before = w.before();
        set(&store, "refs/remotes/origin/other", 'c');
        let (effect, line) = w.finish(&before, Ended::Exited(0));
        assert_eq!(
            line.unwrap(),
            "`git push` exited 0 but main (aaaaaaaaaaaa) is not on origin/main (bbbbbbbbbbbb): its commits were not pushed"
        );
        assert_eq!(
            effect.pushed,
            vec![SentBranch {
                branch: "other".into(),
                before: None,
                after: Some("c".repeat(40)),
            }]
        );
        set(&store, "refs/remotes/origin/main", 'a');
        let before = w.before();
        assert_eq!(w.finish(&before, Ended::Exited(0)).1, None);
    }
}
