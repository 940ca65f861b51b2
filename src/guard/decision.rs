//! What the guard decided about one call ([`Decision`]): the outcome, the [`Rule`] that decided
//! it and how the refusal line and the record ([`super::log`]) say it, where the call acts,
//! and what the kernel layer lets it do if it runs. The rules fill a decision in; the shim
//! prints, confines and records it.

use std::ffi::OsString;
use std::fmt;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::log::{self, Permitted, Ruling};
use super::scope::Permission;
use super::{hook, observe};
use crate::confine::{Confinement, Network};
use crate::locate::Program;
use crate::shell;

/// What the guard decided about one call: the outcome, the rule that decided it, where, and
/// what the kernel layer allows the call to do if it runs.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The command line, as shown: shell-quoted, one line, clipped.
    pub command: String,
    /// Whether [`Decision::command`] is the whole command line (not clipped), so that a
    /// person can run it as it is.
    pub exact: bool,
    /// `git` or `gh`.
    pub tool: Program,
    /// The directory the call runs in (`None`: it cannot be read).
    pub cwd: Option<PathBuf>,
    /// Run it or not.
    pub outcome: Outcome,
    /// Why.
    pub rule: Rule,
    /// The repository as a person knows it (its work tree, or git directory when bare).
    pub repo: Option<PathBuf>,
    /// The permission the scope gives it (`None`: unknown, or no valid scope).
    pub permission: Option<Permission>,
    /// The scope file the session was started with (for messages).
    pub scope_file: Option<PathBuf>,
    /// The session's id, when a session record was found.
    pub session: Option<String>,
    /// What the kernel layer lets the call do (`None`: not confined: `gh`, whose effects are
    /// requests to the forge the kernel cannot read).
    pub confinement: Option<Confinement>,
    /// Directories and files made before git runs so that the confinement can grant exactly
    /// them (a clone's or a new work tree's directory, an output file).
    pub prepare: Vec<Prepare>,
    /// For a call that needs the network: its hooks run through git-prism's wrapper, which
    /// takes the network away and checks a push's refs.
    pub hooks: Option<hook::Plan>,
    /// A read that takes the index's lock (`commit --dry-run`) in a repository it may not
    /// write: the index git reads, which the shim copies into the temporary directory and
    /// names with `GIT_INDEX_FILE`, so the read works and the index stays as it was.
    pub index_copy: Option<PathBuf>,
    /// For a write that makes or moves commits, or a push: the refs the shim reads before and
    /// after git runs, for the record of what it did (issue 28).
    pub watch: Option<observe::Watch>,
    /// Settings the shim adds to git's configuration (`GIT_CONFIG_COUNT`): the program-naming
    /// settings of the repository's configuration as the session started them, where they
    /// changed since ([`super::config::drift`]).
    pub config: Vec<(String, OsString)>,
}

/// Run the call or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Run it; nothing to record.
    Allow,
    /// Run it, and record it (a push, a send).
    Record,
    /// Do not run it: print the line, record it.
    Refuse,
}

/// A place made before git runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prepare {
    /// Where.
    pub path: PathBuf,
    /// A directory (with its parents), or a file.
    pub dir: bool,
}

/// The rule that decided a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// A read.
    Read,
    /// A write the permission covers.
    Within(String),
    /// A push the permission covers, to these branches.
    Pushed(Vec<String>),
    /// Something sent from this machine.
    Sent(String),
    /// A write that needs a permission the repository does not have.
    Needs {
        /// What the call does.
        what: String,
        /// The permission it needs.
        needed: Permission,
        /// Whether the scope lists the repository.
        listed: bool,
        /// A repository named on the forge (`gh -R`), not one of the scope's.
        forge: Option<String>,
        /// The repository that needs the permission, when it is not the one the call acts on
        /// (a repository on this machine a push writes into).
        repo: Option<PathBuf>,
        /// Whether the call writes a place it names (a clone's directory, an output file),
        /// which could be named inside the scope instead.
        names_place: bool,
    },
    /// A push to a protected branch.
    Protected {
        /// The branch.
        branch: String,
        /// The entry's protected patterns.
        protected: Vec<String>,
        /// The remote the push goes to.
        remote: String,
    },
    /// A commit that takes a change to a protected path, or whose paths cannot be told.
    ProtectedPath {
        /// Why.
        why: String,
        /// How to commit the rest without it, where that can be told.
        fix: Option<String>,
    },
    /// A push whose destinations cannot be told.
    Unplaceable {
        /// Why.
        why: String,
        /// How to name them, where that can be told.
        fix: Option<String>,
    },
    /// A call that runs a program the guard cannot see into.
    RunsProgram {
        /// What runs it.
        why: String,
        /// The call without what runs it, where that can be told.
        fix: Option<String>,
    },
    /// A write whose repository cannot be told.
    NoRepository(String),
    /// A write that would land outside the repository found.
    Elsewhere {
        /// Where, and why.
        why: String,
        /// How to keep it inside.
        fix: String,
        /// The variable that sends it elsewhere, which the call runs without.
        unset: Option<&'static str>,
    },
    /// The scope (or the session's record) cannot be used.
    InvalidScope {
        /// Why.
        why: String,
        /// Whether it is a session's record that cannot be used (a new session fixes it), not
        /// a scope file named by hand (fixing the file does).
        session: bool,
    },
    /// The kernel cannot be made to hold the call (the shim's, after the guard allowed it).
    Unconfined(String),
    /// The guard failed (a panic).
    Failed(String),
    /// A setting of the repository's configuration that names a program, and has no value
    /// that runs nothing, appeared since the session started: the key.
    Configured(String),
    /// A call the session's broker will not run for the sandbox: a read (which runs inside
    /// it), or one naming a path the agent may not read.
    Sandbox(String),
}

impl Rule {
    /// The rule as the refusal line and the record say it.
    pub fn text(&self, scope_file: Option<&Path>) -> String {
        let scope = scope_file.map_or_else(String::new, |f| f.display().to_string());
        match self {
            Rule::Read => "a read".into(),
            Rule::Within(what) => what.clone(),
            Rule::Pushed(branches) => format!(
                "push to {}",
                if branches.is_empty() {
                    "no branch (tags or other refs)".to_owned()
                } else {
                    branches.join(", ")
                }
            ),
            Rule::Sent(what) => what.clone(),
            Rule::Needs {
                what,
                needed,
                listed,
                forge,
                ..
            } => match forge {
                Some(r) => format!(
                    "{what}, which needs {}, and `{r}` is a repository named on the forge, not one of the scope's",
                    needed.name()
                ),
                None if !listed => format!(
                    "{what}, which needs {}, and the scope ({scope}) does not list this repository (unlisted repositories are read-only)",
                    needed.name()
                ),
                None => format!("{what}, which needs {} (scope {scope})", needed.name()),
            },
            Rule::Protected {
                branch, protected, ..
            } => format!(
                "`{branch}` is a protected branch (protected: {})",
                protected.join(", ")
            ),
            Rule::ProtectedPath { why, .. } => why.clone(),
            Rule::Unplaceable { why, .. } => format!("where the push goes cannot be told: {why}"),
            Rule::RunsProgram { why, .. } => {
                format!("{why}, whose git calls this guard would not see")
            }
            Rule::NoRepository(why) | Rule::Unconfined(why) => why.clone(),
            Rule::Elsewhere { why, .. } => why.clone(),
            Rule::InvalidScope { why, .. } => {
                format!("{why}; every write is refused until the scope is fixed")
            }
            Rule::Failed(why) => format!("the guard failed: {why}"),
            Rule::Configured(key) => format!(
                "`{key}` in the repository's configuration names a program and was set after the session started"
            ),
            Rule::Sandbox(why) => why.clone(),
        }
    }
}

impl Decision {
    pub(super) fn new(
        tool: Program,
        args: &[OsString],
        cwd: Option<&Path>,
        confinement: Option<Confinement>,
    ) -> Decision {
        let (command, exact) = command_line(tool, args);
        Decision {
            command,
            exact,
            tool,
            cwd: cwd.map(Path::to_owned),
            outcome: Outcome::Allow,
            rule: Rule::Read,
            repo: None,
            permission: None,
            scope_file: None,
            session: None,
            confinement,
            prepare: Vec::new(),
            hooks: None,
            index_copy: None,
            config: Vec::new(),
            watch: None,
        }
    }

    pub(super) fn refuse(mut self, rule: Rule) -> Decision {
        self.outcome = Outcome::Refuse;
        self.rule = rule;
        self
    }

    pub(super) fn allow(mut self, rule: Rule) -> Decision {
        self.outcome = Outcome::Allow;
        self.rule = rule;
        self
    }

    pub(super) fn record_it(mut self, rule: Rule) -> Decision {
        self.outcome = Outcome::Record;
        self.rule = rule;
        self
    }

    /// Gives the call the network, or none (when the kernel confines it).
    pub(super) fn network(&mut self, on: bool) {
        if let Some(c) = self.confinement.as_mut() {
            c.network = if on { Network::Any } else { Network::None };
        }
    }

    /// Whether the call runs inside the agent's sandbox as it is: a read the guard allows that
    /// needs nothing the sandbox withholds (no network, no write, nothing made or watched).
    /// Every other call of a sandboxed agent goes to the session's broker.
    pub fn runs_in_sandbox(&self) -> bool {
        self.outcome == Outcome::Allow
            && self.rule == Rule::Read
            && self
                .confinement
                .as_ref()
                .is_some_and(|c| c.network == Network::None)
            && self.prepare.is_empty()
            && self.hooks.is_none()
            && self.watch.is_none()
            && self.config.is_empty()
    }

    /// The decision turned into a refusal by the broker's own rules.
    pub fn refused_by_broker(mut self, why: String) -> Decision {
        self.outcome = Outcome::Refuse;
        self.rule = Rule::Sandbox(why);
        self.confinement = None;
        self
    }

    /// The permission as the line and the record name it.
    pub fn permitted(&self) -> Permitted {
        match self.rule {
            Rule::InvalidScope { .. } => Permitted::NoValidScope,
            _ => self.permission.into(),
        }
    }

    /// The guard's record of this decision.
    pub fn record(&self) -> log::Entry {
        log::Entry {
            time: crate::time::now_rfc3339(),
            decision: match self.outcome {
                Outcome::Refuse => Ruling::Refused,
                Outcome::Allow | Outcome::Record => Ruling::Allowed,
            },
            repo: self.repo.as_ref().map(|r| r.display().to_string()),
            permission: self.permitted(),
            command: self.command.clone(),
            rule: one_line(&self.rule.text(self.scope_file.as_deref())),
            session: self.session.clone(),
            effect: None,
        }
    }

    /// The decision when the guard itself failed: refused, with no confinement granted.
    pub fn failed(tool: Program, args: &[OsString], why: String) -> Decision {
        let cwd = std::env::current_dir().ok();
        Decision::new(tool, args, cwd.as_deref(), None).refuse(Rule::Failed(why))
    }

    /// The decision turned into a refusal because the kernel layer could not be put in place.
    pub fn unconfined(mut self, why: String) -> Decision {
        self.outcome = Outcome::Refuse;
        self.rule = Rule::Unconfined(why);
        self
    }
}

impl Decision {
    /// What the agent that made a refused call can do now, then what the person can do where
    /// something they can do would work: the refusal line's last part.
    pub fn advice(&self) -> String {
        let ask = self.ask_user();
        match &self.rule {
            Rule::Protected { branch, remote, .. } => format!(
                "push the work to a branch of your own instead (`git push {} HEAD:refs/heads/<new-branch>`) and open a pull request into `{branch}`, or {ask}",
                shell::quote(remote.as_ref())
            ),
            Rule::Needs {
                needed,
                listed,
                forge,
                repo,
                names_place,
                ..
            } => {
                if forge.is_some() {
                    return format!(
                        "run gh without -R (and without GH_REPO) in the work tree of a repository the scope lets you {}, or {ask}; no scope lists a repository by its name on the forge",
                        match needed {
                            Permission::WritePush => "push from",
                            _ => "write",
                        }
                    );
                }
                let repo = repo
                    .as_deref()
                    .or(self.repo.as_deref())
                    .map(|r| shell::quote(r.as_os_str()));
                let change = repo.and_then(|r| {
                    self.scope_change(&if *listed {
                        format!("give {r} `permission = \"{}\"`", needed.name())
                    } else {
                        format!(
                            "list {r} (`[[repo]]` with `permission = \"{}\"`)",
                            needed.name()
                        )
                    })
                });
                let mut advice = String::new();
                if *names_place {
                    advice.push_str("use a path inside the scope (a repository it lets you write, or the temporary directory), or ");
                }
                advice.push_str(&ask);
                if let Some(change) = change {
                    advice.push_str(", or to ");
                    advice.push_str(&change);
                }
                advice
            }
            Rule::ProtectedPath { why: _, fix } => {
                let mut advice = match fix {
                    Some(fix) => format!("{fix}; or {ask}"),
                    None => ask,
                };
                if let Some(change) =
                    self.scope_change("take the path out of the repository's `protected_paths`")
                {
                    advice.push_str(", or to ");
                    advice.push_str(&change);
                }
                advice
            }
            Rule::Unplaceable { fix, .. } => match (self.tool, fix) {
                (Program::Gh, _) => ask,
                (Program::Git, Some(fix)) => format!("{fix}, or {ask}"),
                (Program::Git, None) => {
                    format!("name the remote and the branch (`git push origin <branch>`), or {ask}")
                }
            },
            Rule::RunsProgram { fix, .. } => match fix {
                Some(fix) => format!("{fix}, or {ask}; no scope allows it"),
                None => format!("{ask}; no scope allows it"),
            },
            Rule::NoRepository(_) => format!(
                "run it in one of the scope's repositories (`git -C <repository> ...`), or {ask}"
            ),
            Rule::Elsewhere {
                unset: Some(var), ..
            } if self.exact => format!("run `env -u {var} {}` instead, or {ask}", self.command),
            Rule::Elsewhere { fix, .. } => format!("{fix}, or {ask}"),
            Rule::InvalidScope { session: true, .. } => {
                format!("{ask}, and to start a new session")
            }
            Rule::InvalidScope { session: false, .. } => match &self.scope_file {
                Some(file) => {
                    let file = shell::quote(file.as_os_str());
                    format!(
                        "ask the user to fix {file} (`git-prism session check --scope {file}` says what is wrong), or {}",
                        ask.trim_start_matches("ask the user ")
                    )
                }
                None => ask,
            },
            Rule::Configured(key) => {
                let unset = format!("git config --unset-all {}", shell::quote(key.as_ref()));
                let unset = match &self.repo {
                    Some(r) => format!("cd {} && {unset}", shell::quote(r.as_os_str())),
                    None => unset,
                };
                format!(
                    "ask the user to remove it (`{unset}`) and run the command again, or to run `{}` outside the session",
                    self.user_command().unwrap_or_else(|| "it".into())
                )
            }
            Rule::Sandbox(_) => format!("use paths inside the session's scope, or {ask}"),
            Rule::Unconfined(_) | Rule::Failed(_) => ask,
            Rule::Read | Rule::Within(_) | Rule::Pushed(_) | Rule::Sent(_) => String::new(),
        }
    }

    /// The command line for a person to run as it is: `cd <dir> && <command>`, when it is
    /// known whole.
    pub fn user_command(&self) -> Option<String> {
        if !self.exact {
            return None;
        }
        Some(match &self.cwd {
            Some(dir) => format!("cd {} && {}", shell::quote(dir.as_os_str()), self.command),
            None => self.command.clone(),
        })
    }

    /// Asking the user to run the call outside the session, in words the agent can pass on.
    fn ask_user(&self) -> String {
        match self.user_command() {
            Some(command) => format!("ask the user to run `{command}` outside the session"),
            None => "ask the user to run the command outside the session".into(),
        }
    }

    /// `change` made in the scope file, and a new session started where one runs (a running
    /// session keeps the scope it started with); `None` without a scope file.
    fn scope_change(&self, change: &str) -> Option<String> {
        let file = self.scope_file.as_ref()?;
        Some(format!(
            "{change} in {}{}",
            file.display(),
            if self.session.is_some() {
                " and start a new session"
            } else {
                ""
            }
        ))
    }
}

impl fmt::Display for Decision {
    /// The one line a refusal prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let repo = self
            .repo
            .as_ref()
            .map_or_else(|| "no repository".to_owned(), |r| r.display().to_string());
        write!(
            f,
            "git-prism guard: refused `{}` in {} ({}): {}; {}",
            self.command
                .chars()
                .map(|c| if c.is_control() { '\u{fffd}' } else { c })
                .collect::<String>(),
            one_line(&repo),
            self.permitted(),
            one_line(&self.rule.text(self.scope_file.as_deref())),
            one_line(&self.advice())
        )
    }
}

/// One line, whatever a text quotes (a parser's message, a path).
fn one_line(text: &str) -> String {
    text.split(|c: char| c.is_control())
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The command line as one string, for the refusal line and the record: each argument
/// shell-quoted (so it stays one line and can be run as it is), clipped; and whether nothing
/// was clipped.
pub(super) fn command_line(tool: Program, args: &[OsString]) -> (String, bool) {
    let mut out = tool.name().to_owned();
    let mut exact = true;
    for a in args {
        let text = String::from_utf8_lossy(a.as_bytes());
        let clipped = crate::text::clip(&text, 200);
        out.push(' ');
        if matches!(clipped, std::borrow::Cow::Owned(_)) {
            exact = false;
            out.push_str(&shell::quote(clipped.as_ref().as_ref()));
        } else {
            out.push_str(&shell::quote(a));
        }
    }
    let clipped = crate::text::clip(&out, 1000);
    exact &= matches!(clipped, std::borrow::Cow::Borrowed(_));
    (clipped.into_owned(), exact)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The record as the log holds it (the time aside), for each outcome and permission.
    #[test]
    fn records_keep_their_format() {
        let line = |d: &Decision| {
            let mut e = d.record();
            e.time = "T".into();
            crate::json::to_string(&e).unwrap()
        };
        let args: Vec<OsString> = ["push", "origin", "feature"].map(OsString::from).to_vec();
        let mut d = Decision::new(Program::Git, &args, Some(Path::new("/w/a")), None);
        d.repo = Some("/w/a".into());
        d.permission = Some(Permission::WritePush);
        d.session = Some("0123".into());
        assert_eq!(
            line(&d.clone().record_it(Rule::Pushed(vec!["feature".into()]))),
            r#"{"time":"T","decision":"allowed","repo":"/w/a","permission":"write-push","command":"git push origin feature","rule":"push to feature","session":"0123"}"#
        );
        d.permission = Some(Permission::WriteLocal);
        assert_eq!(
            line(&d.clone().allow(Rule::Within("commit".into()))),
            r#"{"time":"T","decision":"allowed","repo":"/w/a","permission":"write-local","command":"git push origin feature","rule":"commit","session":"0123"}"#
        );
        d.permission = Some(Permission::Read);
        d.scope_file = Some("/s.toml".into());
        let refused = d.clone().refuse(Rule::Needs {
            what: "a push".into(),
            needed: Permission::WritePush,
            listed: true,
            forge: None,
            repo: None,
            names_place: false,
        });
        assert_eq!(
            line(&refused),
            r#"{"time":"T","decision":"refused","repo":"/w/a","permission":"read","command":"git push origin feature","rule":"a push, which needs write-push (scope /s.toml)","session":"0123"}"#
        );
        assert!(refused.to_string().contains(" (read): "));
        let invalid = d.clone().refuse(Rule::InvalidScope {
            why: "bad".into(),
            session: false,
        });
        assert_eq!(
            line(&invalid),
            r#"{"time":"T","decision":"refused","repo":"/w/a","permission":"no valid scope","command":"git push origin feature","rule":"bad; every write is refused until the scope is fixed","session":"0123"}"#
        );
        assert!(invalid.to_string().contains(" (no valid scope): "));
        let failed = Decision::failed(Program::Git, &["x".into()], "boom".into());
        assert_eq!(
            line(&failed),
            r#"{"time":"T","decision":"refused","repo":null,"permission":"unknown","command":"git x","rule":"the guard failed: boom"}"#
        );
        assert!(failed.to_string().contains(" (unknown): "));
    }

    #[test]
    fn refusals_are_one_line() {
        let args = [OsString::from("x\ny")];
        let d = Decision::new(Program::Git, &args, None, None).refuse(Rule::RunsProgram {
            why: "a\nb".into(),
            fix: None,
        });
        assert_eq!(d.to_string().lines().count(), 1);
        assert!(d.to_string().contains(r"`git $'x\ny'`"), "{d}");
    }

    /// The command a refusal hands to the user is the call as it was made, quoted as a shell
    /// reads it, in the directory it ran in; a clipped one is not offered as runnable.
    #[test]
    fn the_command_for_the_user_is_exact_or_not_offered() {
        let args: Vec<OsString> = ["commit", "-m", "fix the parser's bug"]
            .map(OsString::from)
            .to_vec();
        let d = Decision::new(Program::Git, &args, Some(Path::new("/w/my app")), None);
        assert_eq!(d.command, r"git commit -m 'fix the parser'\''s bug'");
        assert_eq!(
            d.user_command().as_deref(),
            Some(r"cd '/w/my app' && git commit -m 'fix the parser'\''s bug'")
        );
        let long = [OsString::from("x".repeat(300))];
        let d = Decision::new(Program::Git, &long, None, None);
        assert!(!d.exact && d.user_command().is_none());
        assert!(
            d.refuse(Rule::Failed("boom".into()))
                .to_string()
                .ends_with("ask the user to run the command outside the session")
        );
    }
}
