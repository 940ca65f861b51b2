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

/// What the guard decided about one call: the outcome, the rule that decided it, where, and
/// what the kernel layer allows the call to do if it runs.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The command line, as shown (one line, clipped).
    pub command: String,
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
    },
    /// A push to a protected branch.
    Protected {
        /// The branch.
        branch: String,
        /// The entry's protected patterns.
        protected: Vec<String>,
    },
    /// A commit that takes a change to a protected path, or whose paths cannot be told.
    ProtectedPath(String),
    /// A push whose destinations cannot be told.
    Unplaceable(String),
    /// A call that runs a program the guard cannot see into.
    RunsProgram(String),
    /// A write whose repository cannot be told.
    NoRepository(String),
    /// A write that would land outside the repository found.
    Elsewhere(String),
    /// The scope (or the session's record) cannot be used.
    InvalidScope(String),
    /// The kernel cannot be made to hold the call (the shim's, after the guard allowed it).
    Unconfined(String),
    /// The guard failed (a panic).
    Failed(String),
    /// A setting of the repository's configuration that names a program appeared since the
    /// session started.
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
            } => match forge {
                Some(r) => format!(
                    "{what}, which needs {}, and `{r}` is a repository named on the forge, not one of the scope's (run gh from the repository's directory)",
                    needed.name()
                ),
                None if !listed => format!(
                    "{what}, which needs {}, and the scope ({scope}) does not list this repository (unlisted repositories are read-only)",
                    needed.name()
                ),
                None => format!("{what}, which needs {} (scope {scope})", needed.name()),
            },
            Rule::Protected { branch, protected } => format!(
                "`{branch}` is a protected branch (protected: {})",
                protected.join(", ")
            ),
            Rule::ProtectedPath(why) => why.clone(),
            Rule::Unplaceable(why) => format!("where the push goes cannot be told: {why}"),
            Rule::RunsProgram(why) => format!("{why}, whose git calls this guard would not see"),
            Rule::NoRepository(why) | Rule::Elsewhere(why) | Rule::Unconfined(why) => why.clone(),
            Rule::InvalidScope(why) => {
                format!("{why}; every write is refused until the scope is fixed")
            }
            Rule::Failed(why) => format!("the guard failed: {why}"),
            Rule::Sandbox(why) | Rule::Configured(why) => why.clone(),
        }
    }

    /// What the person can do.
    pub fn advice(&self) -> &'static str {
        match self {
            Rule::Protected { .. } => {
                "push another branch and open a pull request, or run it yourself"
            }
            Rule::Unplaceable(_) => {
                "name the branch (`git push origin <branch>`), or run it yourself"
            }
            Rule::ProtectedPath(_) => {
                "unstage it (`git restore --staged <path>`), commit it yourself outside the agent's session, or leave it out of the repository's protected_paths in the scope"
            }
            Rule::InvalidScope(_) => {
                "fix the file (`git-prism session check` says what is wrong) or run it yourself"
            }
            Rule::Sandbox(_) => "use paths inside the session's scope",
            Rule::Configured(_) => {
                "remove the setting, or run it yourself outside the agent's session"
            }
            _ => "run it yourself outside the agent's session, or change the session's scope",
        }
    }
}

impl Decision {
    pub(super) fn new(command: String, confinement: Option<Confinement>) -> Decision {
        Decision {
            command,
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
            Rule::InvalidScope(_) => Permitted::NoValidScope,
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
        Decision::new(command_line(tool, args), None).refuse(Rule::Failed(why))
    }

    /// The decision turned into a refusal because the kernel layer could not be put in place.
    pub fn unconfined(mut self, why: String) -> Decision {
        self.outcome = Outcome::Refuse;
        self.rule = Rule::Unconfined(why);
        self
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
            self.rule.advice()
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

/// The command line as one string (for the refusal line and the record).
pub(super) fn command_line(tool: Program, args: &[OsString]) -> String {
    let mut out = tool.name().to_owned();
    for a in args {
        out.push(' ');
        out.push_str(&crate::text::clip(
            &String::from_utf8_lossy(a.as_bytes()),
            200,
        ));
    }
    // One line whatever the arguments hold: control characters are shown, not written.
    let out: String = out
        .chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    crate::text::clip(&out, 1000).into_owned()
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
        let mut d = Decision::new("git push origin feature".into(), None);
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
        });
        assert_eq!(
            line(&refused),
            r#"{"time":"T","decision":"refused","repo":"/w/a","permission":"read","command":"git push origin feature","rule":"a push, which needs write-push (scope /s.toml)","session":"0123"}"#
        );
        assert!(refused.to_string().contains(" (read): "));
        let invalid = d.clone().refuse(Rule::InvalidScope("bad".into()));
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
        let d = Decision::new("git x\ny".into(), None).refuse(Rule::RunsProgram("a\nb".into()));
        assert_eq!(d.to_string().lines().count(), 1);
    }
}
