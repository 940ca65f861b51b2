//! The session guard (ADR 15, ADR 16): with `GIT_PRISM_SCOPE` set, every `git` and `gh` call
//! of the session — the agent's own, a hook's, a `make` recipe's — is held to the declared
//! scope, in two layers.
//!
//! 1. The command line, read before git runs ([`check`]): what it does
//!    ([`crate::request::effect`], aliases resolved through the configuration); a write is
//!    placed (which repository, [`place`]; which remote branches, [`push`]; which files
//!    outside) and checked against the permission the scope gives, a push against the
//!    protected branches, a commit against the protected paths. What cannot be placed is
//!    refused, and so is a call that makes git run a program the guard cannot see into (a
//!    `-c` setting it does not know to be harmless, or a variable naming a pager, an editor or
//!    an ssh command; a shell alias; a command this grammar does not know) or read
//!    configuration the session did not start with. A refusal changes nothing: the shim
//!    prints the [`Decision`] as one `git-prism guard:` line and exits non-zero.
//! 2. The kernel ([`kernel`], applied by the shim with [`crate::confine`]): every `git` call
//!    that runs gets a [`Decision::confinement`] computed from the facts alone (the same had the
//!    first layer been switched off), which git and everything it starts cannot leave; the
//!    hooks of a call that needs the network run through [`hook`]'s narrower wrapper. `gh`
//!    calls are not confined: their effects are requests to the forge.
//!
//! A commit, merge, rebase, reset, cherry-pick, revert, am, pull or push that is let through
//! carries an [`observe::Watch`]: the shim reads the refs before and after git runs, and the
//! record ([`log`]) says what git did (ADR 17).
//!
//! Pure but for reading the scope and the session's record ([`scope`], [`session`], through
//! [`crate::paths::read_regular`]) and asking the real git where the repository is ([`place`]), which
//! commands and aliases it knows, which paths a commit would take, and, for a push, the
//! repository's configuration.

pub mod config;
pub mod hook;
pub mod kernel;
pub mod log;
pub mod observe;
pub mod place;
pub mod push;
pub mod sandbox;
pub mod scope;
pub mod session;

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::confine::{Confinement, Network};
use crate::locate::Program;
use crate::request::effect::{self, Effect, Outline, Place, Target, TargetKind};
use scope::{Permission, Scope};

/// The most aliases followed in a row (git stops loops the same way).
const MAX_ALIASES: usize = 16;

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
    /// changed since ([`config::drift`]).
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
    fn new(command: String, confinement: Option<Confinement>) -> Decision {
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

    fn refuse(mut self, rule: Rule) -> Decision {
        self.outcome = Outcome::Refuse;
        self.rule = rule;
        self
    }

    fn allow(mut self, rule: Rule) -> Decision {
        self.outcome = Outcome::Allow;
        self.rule = rule;
        self
    }

    fn record_it(mut self, rule: Rule) -> Decision {
        self.outcome = Outcome::Record;
        self.rule = rule;
        self
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
    pub fn permission_name(&self) -> &'static str {
        match (&self.rule, self.permission) {
            (Rule::InvalidScope(_), _) => "no valid scope",
            (_, Some(p)) => p.name(),
            (_, None) => "unknown",
        }
    }

    /// The guard's record of this decision.
    pub fn record(&self) -> log::Entry {
        log::Entry {
            time: crate::time::now_rfc3339(),
            decision: match self.outcome {
                Outcome::Refuse => "refused",
                Outcome::Allow | Outcome::Record => "allowed",
            }
            .to_owned(),
            repo: self.repo.as_ref().map(|r| r.display().to_string()),
            permission: self.permission_name().to_owned(),
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
            self.permission_name(),
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

/// The session a call belongs to: the record beside the scope file, if any.
struct Context {
    scope_file: PathBuf,
    record: Option<session::Record>,
    record_error: Option<String>,
}

impl Context {
    fn load(scope_file: &Path) -> Context {
        match session::load(scope_file) {
            Ok(record) => Context {
                scope_file: scope_file.to_owned(),
                record,
                record_error: None,
            },
            Err(e) => Context {
                scope_file: scope_file.to_owned(),
                record: None,
                record_error: Some(crate::text::chain(&e)),
            },
        }
    }

    /// The scope file to name in messages: the person's own when a session copied it.
    fn shown_file(&self) -> PathBuf {
        self.record
            .as_ref()
            .map_or_else(|| self.scope_file.clone(), |r| r.scope_file.path())
    }

    /// The temporary directory git may write in: the session's, else this call's — unless it
    /// lies inside a repository (`TMPDIR=../other/.git` would make that repository writable):
    /// then none.
    fn temp_dir(&self) -> Option<PathBuf> {
        let dir = match &self.record {
            Some(r) => r.temp_dir.path(),
            None => std::env::var_os("TMPDIR")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .unwrap_or_else(|| PathBuf::from("/tmp")),
        };
        (!inside_a_repository(&dir)).then_some(dir)
    }

    fn scope(&self) -> Result<Scope, String> {
        if let Some(e) = &self.record_error {
            return Err(e.clone());
        }
        match &self.record {
            Some(r) => Ok(r.scope(&r.scope_file.path())),
            None => scope::load(&self.scope_file).map_err(|e| crate::text::chain(&e)),
        }
    }
}

/// Whether `dir` or a directory above it looks like a repository's (a `.git` entry, or a git
/// directory's `HEAD` with `objects` or `commondir`): a cheap, conservative test for the one
/// directory the kernel layer grants outside repositories, never used to tell which repository.
fn inside_a_repository(dir: &Path) -> bool {
    let Ok(dir) = dir.canonicalize() else {
        return false;
    };
    dir.ancestors().any(|d| {
        std::fs::symlink_metadata(d.join(".git")).is_ok()
            || (std::fs::symlink_metadata(d.join("HEAD")).is_ok()
                && (d.join("objects").is_dir() || d.join("commondir").is_file()))
    })
}

/// Decides a call of `tool` with `args`, run in `cwd` (`None`: the directory cannot be read),
/// under the scope file `scope_file`.
pub fn check(tool: Program, args: &[OsString], cwd: Option<&Path>, scope_file: &OsStr) -> Decision {
    let ctx = Context::load(Path::new(scope_file));
    let command = command_line(tool, args);
    let base = kernel::base(ctx.temp_dir().as_deref());
    let mut d = Decision::new(command, Some(base));
    d.scope_file = Some(ctx.shown_file());
    d.session = ctx.record.as_ref().map(|r| r.id.clone());
    match tool {
        Program::Gh => {
            d.confinement = None;
            let (repo, effect) = effect::gh(args);
            let repo = repo.or_else(|| std::env::var_os("GH_REPO").filter(|v| !v.is_empty()));
            let call = Outline {
                place: Place::default(),
                effect,
                network: true,
                targets: Vec::new(),
                locks_index: false,
                moves: None,
                settings: Vec::new(),
            };
            decide(d, &ctx, call, cwd, repo)
        }
        Program::Git => {
            let mut call = effect::git(args);
            if let Some(cwd) = cwd {
                call = resolve_aliases(cwd, call);
            }
            // Settings and variables that make git run a program of the caller's choosing (a
            // pager, an editor, an ssh command) turn even a read into a call the guard cannot
            // see into: checked after every alias, whose value can hold `-c` settings too.
            if let Some(why) = programs(&call.place, &ctx) {
                call.effect = Effect::Unknown(why);
            }
            // A repository's configuration is a second command line: `git config` sets only
            // what `-c` may (issue 34).
            let settings = if crate::confine::test_rule_off("config-writes") {
                &[][..]
            } else {
                &call.settings[..]
            };
            if let Some(why) = settings.iter().find_map(|(key, value)| {
                config::setting_refusal(key, value.as_deref(), config::Via::Config)
            }) {
                call.effect = Effect::Unknown(why);
            }
            let hooks_named = names_hooks(&call.place);
            let mut d = decide(d, &ctx, call, cwd, None);
            if hooks_named && d.hooks.is_some() {
                // The call's own `core.hooksPath` would win over the wrapper's: its hooks would
                // run with the network. The kernel gives the call none, and nothing of a
                // repository a push writes into.
                d.hooks = None;
                if let Some(c) = d.confinement.as_mut() {
                    c.network = Network::None;
                }
            }
            d
        }
    }
}

/// The refusal of a commit that takes a change to one of the entry's protected paths (rename
/// detection off: a move out of a protected path changes it), or whose paths cannot be told.
fn protected_paths(
    cwd: &Path,
    place: &Place,
    moves: &effect::Moves,
    entry: &scope::Entry,
) -> Option<Rule> {
    let takes = moves.commit.as_ref()?;
    if entry.protected_paths.is_empty() {
        return None;
    }
    let here = cwd.join(place.chdir.iter().collect::<PathBuf>());
    let paths = match crate::git::state::commit_paths(&here, &place.globals, takes) {
        Ok(p) => p,
        Err(e) => {
            return Some(Rule::ProtectedPath(format!(
                "the paths this commit takes cannot be told ({e}), and the repository has protected paths"
            )));
        }
    };
    let hit = paths
        .iter()
        .find_map(|p| entry.protected_path(p).map(|rule| (p, rule)))?;
    Some(Rule::ProtectedPath(format!(
        "the commit changes {}, under the protected path `{}`",
        crate::paths::shown_path(hit.0.as_ref()),
        hit.1
    )))
}

/// How the call's configuration points git's hooks elsewhere (which skips the repository's
/// own), if it does: `-c core.hooksPath=...` on the command line or through an alias, or
/// `core.hooksPath` in the configuration the environment carries (`GIT_CONFIG_PARAMETERS`,
/// `GIT_CONFIG_KEY_<n>`; the entry the shim adds for its own hook wrapper aside).
pub fn hooks_path_set(place: &Place) -> Option<String> {
    place.hooks_path_setting().or_else(|| {
        hooks_path_in_env(std::env::var(hook::INDEX_VAR).ok().as_deref())
            .then(|| "core.hooksPath set in the environment".to_owned())
    })
}

/// Whether the configuration the environment carries (`GIT_CONFIG_PARAMETERS`,
/// `GIT_CONFIG_KEY_<n>`) sets `core.hooksPath`, leaving out the entry numbered `ours` (the one
/// the shim adds for its own hook wrapper).
fn hooks_path_in_env(ours: Option<&str>) -> bool {
    let named = |v: &OsStr| {
        v.as_bytes()
            .to_ascii_lowercase()
            .windows(b"core.hookspath".len())
            .any(|w| w == b"core.hookspath")
    };
    std::env::var_os("GIT_CONFIG_PARAMETERS").is_some_and(|v| named(&v))
        || std::env::vars_os().any(|(k, v)| {
            k.to_str()
                .and_then(|k| k.strip_prefix("GIT_CONFIG_KEY_"))
                .is_some_and(|n| Some(n) != ours && named(&v))
        })
}

/// Whether the call names its own hooks directory (`-c core.hooksPath`, or in the
/// configuration the environment carries), other than switching hooks off.
fn names_hooks(place: &Place) -> bool {
    let own = place.config.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("core.hookspath")
            && v.as_deref().is_none_or(|v| v.as_bytes() != b"/dev/null")
    });
    own || hooks_path_in_env(None)
}

/// The decision once the call is classified.
fn decide(
    mut d: Decision,
    ctx: &Context,
    call: Outline,
    cwd: Option<&Path>,
    gh_repo: Option<OsString>,
) -> Decision {
    let network = |d: &mut Decision, on: bool| {
        if let Some(c) = d.confinement.as_mut() {
            c.network = if on { Network::Any } else { Network::None };
        }
    };
    if call.effect == Effect::Read && call.targets.is_empty() {
        network(&mut d, call.network);
        if call.locks_index {
            if let Some(found) = cwd.and_then(|cwd| place::of_call(cwd, &call.place)) {
                let permission = ctx
                    .scope()
                    .ok()
                    .and_then(|s| s.entry_for(&found).map(|e| e.permission))
                    .unwrap_or(Permission::Read);
                // In a session's sandbox no git directory is writable (git's writes go
                // through the broker): the read works on a copy there too.
                if permission < Permission::WriteLocal || sandbox::socket().is_some() {
                    d.index_copy = Some(found.git_dir.join("index"));
                }
            }
        }
        // A read that goes to the network runs git's transport (an ssh command, an upload
        // pack) with the user's credentials: the repository's configuration is held to the
        // session's start for it too.
        if call.network && d.confinement.is_some() {
            if let Some((cwd, found)) =
                cwd.and_then(|cwd| place::of_call(cwd, &call.place).map(|f| (cwd, f)))
            {
                let here = cwd.join(call.place.chdir.iter().collect::<PathBuf>());
                if let Some(rule) = drifted(&mut d, ctx, &found, &here, &call.place) {
                    d.repo = Some(found.shown());
                    return d.refuse(rule);
                }
            }
        }
        return d.allow(Rule::Read);
    }
    let Some(cwd) = cwd else {
        return d.refuse(Rule::NoRepository(
            "the directory this runs in cannot be read, so the repository it acts on cannot be told"
                .into(),
        ));
    };
    let here = cwd.join(call.place.chdir.iter().collect::<PathBuf>());
    let scope = match ctx.scope() {
        Ok(s) => Some(s),
        Err(e) => {
            d.permission = None;
            if call.effect == Effect::Read && call.targets.is_empty() {
                return d.allow(Rule::Read);
            }
            return d.refuse(Rule::InvalidScope(e));
        }
    };
    let scope = scope.unwrap_or(Scope {
        file: ctx.scope_file.clone(),
        entries: Vec::new(),
        sandbox: Default::default(),
    });
    // Places outside the repository: new repositories, output files and directories.
    if let Some(refused) = targets(&mut d, &scope, &here, &call) {
        return refused;
    }
    match &call.effect {
        Effect::NewRepository => {
            network(&mut d, call.network);
            if call.network {
                d.hooks = Some(hook::Plan::new(&d, Vec::new()));
            }
            return d.allow(Rule::Within("a new repository".into()));
        }
        Effect::Init { .. } => return d.allow(Rule::Within("a new repository".into())),
        Effect::Read => return d.allow(Rule::Within("a read that writes a file".into())),
        _ => {}
    }
    let Some(identity) = place::of_call(cwd, &call.place) else {
        return d.refuse(Rule::NoRepository(
            "the repository this write acts on cannot be told".into(),
        ));
    };
    d.repo = Some(identity.shown());
    let entry = match gh_repo {
        // gh acting on a repository named on the forge: not one of the scope's.
        Some(_) => None,
        None => scope.entry_for(&identity),
    };
    let permission = entry.map_or(Permission::Read, |e| e.permission);
    d.permission = Some(permission);
    // What the kernel grants, whatever the command-line layer says next.
    if let (Some(entry), Some(c)) = (entry, d.confinement.as_mut()) {
        if permission >= Permission::WriteLocal {
            kernel::grant(c, kernel::repository(entry, Some(&identity)));
        }
    }
    let forge = gh_repo.as_ref().map(|r| r.to_string_lossy().into_owned());
    // The rule that refuses a call needing more than the permission, if it does.
    let needs = |wanted: Permission, what: String| -> Option<Rule> {
        (permission < wanted).then(|| Rule::Needs {
            what,
            needed: wanted,
            listed: entry.is_some(),
            forge: forge.clone(),
        })
    };
    // A work tree other than the repository's own: git would write there, and a tree that
    // holds (or lies inside) other repositories cannot be carved out by the kernel.
    if permission >= Permission::WriteLocal {
        if let Some(entry) = entry {
            let own = entry.identity.work_tree.as_ref();
            if let Some(tree) = &identity.work_tree {
                if Some(tree) != own && !identity.is_linked_worktree() {
                    return d.refuse(Rule::Elsewhere(format!(
                        "git would use {} as the work tree, which is not this repository's own",
                        tree.display()
                    )));
                }
            }
        }
    }
    // An index or object store elsewhere makes the write land elsewhere.
    if let Some(why) = place::elsewhere(&identity, &place::Env::current()) {
        return d.refuse(Rule::Elsewhere(why));
    }
    // The repository's configuration is a second command line: a program named in it since
    // the session started does not run with what this call is given (issue 34).
    if let Some(rule) = drifted(&mut d, ctx, &identity, &here, &call.place) {
        return d.refuse(rule);
    }
    match call.effect {
        Effect::Read | Effect::NewRepository | Effect::Init { .. } => d,
        Effect::Alias { name: alias, .. } => d.refuse(Rule::RunsProgram(format!(
            "`{alias}` is neither a git command nor an alias this guard can read"
        ))),
        Effect::Local(what) => {
            if let (Some(moves), Some(entry)) = (&call.moves, entry) {
                if permission >= Permission::WriteLocal {
                    if let Some(rule) = protected_paths(cwd, &call.place, moves, entry) {
                        return d.refuse(rule);
                    }
                    d.watch = Some(observe::Watch {
                        store: identity.ref_store(),
                        command: moves.command.clone(),
                        makes_commit: moves.makes_commit,
                        hooks_skipped: moves
                            .skips_hooks
                            .clone()
                            .or_else(|| hooks_path_set(&call.place)),
                        push: None,
                    });
                }
            }
            network(&mut d, call.network);
            if call.network {
                let writable = d.confinement.as_ref().map(|c| c.dirs.clone());
                d.hooks = Some(hook::Plan::new(&d, writable.unwrap_or_default()));
            }
            match needs(
                Permission::WriteLocal,
                format!("`{what}` changes the repository"),
            ) {
                None => d.allow(Rule::Within(what)),
                Some(rule) => d.refuse(rule),
            }
        }
        Effect::Send(what) => {
            if let Some(c) = d.confinement.as_mut() {
                c.network = Network::Ports(kernel::SMTP_PORTS.to_vec());
            }
            match needs(
                Permission::WritePush,
                format!("{what} sends from this machine"),
            ) {
                None => d.record_it(Rule::Sent(what)),
                Some(rule) => d.refuse(rule),
            }
        }
        // A program the guard cannot see into (an external `git-foo`, a shell alias, a command
        // git runs for `rebase -x` or `bisect run`): git starts it with its own directory first
        // on PATH, so the `git` it calls would not come back here. Refused whatever the
        // permission; the kernel grants it nothing beyond what every call gets.
        Effect::Unknown(why) => {
            if let Some(c) = d.confinement.as_mut() {
                *c = kernel::base(ctx.temp_dir().as_deref());
            }
            d.refuse(Rule::RunsProgram(why))
        }
        Effect::Push(p) => push_decision(d, ctx, cwd, &call.place, (entry, &identity), &p, needs),
    }
}

/// For a write in one of the session's repositories: the settings that name a program and
/// changed since the session started are given back as they were (into `d.config`), or the
/// rule that refuses the call when one appeared that has no neutral value.
fn drifted(
    d: &mut Decision,
    ctx: &Context,
    identity: &place::Identity,
    here: &Path,
    place: &Place,
) -> Option<Rule> {
    if crate::confine::test_rule_off("config-drift") {
        return None;
    }
    let record = ctx.record.as_ref()?;
    let repo = record
        .repos
        .iter()
        .find(|r| r.identity().common_dir == identity.common_dir)?;
    let now = match crate::git::probe::own_config(here, &place.globals) {
        Ok(c) => config::programs(&c),
        Err(e) => {
            return Some(Rule::RunsProgram(format!(
                "the repository's configuration cannot be read ({})",
                crate::text::chain(&e)
            )));
        }
    };
    match config::drift(&repo.programs, &now, &identity.common_dir.join("hooks")) {
        config::Drift::None => None,
        config::Drift::Restore(settings) => {
            d.config = settings;
            None
        }
        config::Drift::Refuse(key) => Some(Rule::Configured(format!(
            "`{key}` in the repository's configuration names a program and was set after the session started (`git config --unset {key}` removes it)"
        ))),
    }
}

/// A push: where it goes, and whether the permission and the protected branches allow it.
fn push_decision(
    mut d: Decision,
    ctx: &Context,
    cwd: &Path,
    place: &Place,
    (entry, identity): (Option<&scope::Entry>, &place::Identity),
    p: &effect::Push,
    needs: impl Fn(Permission, String) -> Option<Rule>,
) -> Decision {
    let settings = match crate::git::push::push_settings(cwd, &place.globals) {
        Ok(s) => Some(s),
        Err(e) => {
            return match needs(Permission::WritePush, "a push".into()) {
                None => d.refuse(Rule::Unplaceable(crate::text::chain(&e))),
                Some(rule) => d.refuse(rule),
            };
        }
    };
    let settings = settings.unwrap_or_default();
    // The configuration's submodule recursion is judged as if given on the command line: a
    // push that pushes other repositories cannot be placed.
    if !p.recursion_given && !crate::confine::test_rule_off("push-recurse") {
        if let Some(why) = push::recursion(&settings) {
            return match needs(Permission::WritePush, "a push".into()) {
                None => d.refuse(Rule::Unplaceable(why)),
                Some(rule) => d.refuse(rule),
            };
        }
    }
    let source_dirs = d
        .confinement
        .as_ref()
        .map(|c| c.dirs.clone())
        .unwrap_or_default();
    // Where the push goes, for the kernel: another machine (the network), or a repository on
    // this one, which then needs its own permission.
    let scope = ctx.scope().ok();
    let mut remote_network = false;
    let mut local_refusal = None;
    for address in push::addresses(p, &settings) {
        let bytes = address.as_bytes();
        if effect::runs_transport(bytes) {
            local_refusal.get_or_insert(Rule::RunsProgram(format!(
                "the push goes to `{address}`, an address git hands to a program"
            )));
        } else if effect::is_local_address(bytes) {
            let path = cwd
                .join(place.chdir.iter().collect::<PathBuf>())
                .join(effect::local_path(bytes));
            let dest = place::identify(&path);
            let dest_entry = dest
                .as_ref()
                .and_then(|id| scope.as_ref().and_then(|s| s.entry_for(id)));
            match dest_entry {
                Some(e) if e.permission >= Permission::WriteLocal => {
                    if let Some(c) = d.confinement.as_mut() {
                        kernel::grant(c, kernel::repository(e, None));
                    }
                }
                _ => {
                    local_refusal.get_or_insert(Rule::Needs {
                        what: format!("the push writes into the repository at {}", path.display()),
                        needed: Permission::WriteLocal,
                        listed: dest_entry.is_some(),
                        forge: None,
                    });
                }
            }
        } else {
            remote_network = true;
        }
    }
    if let Some(c) = d.confinement.as_mut() {
        c.network = if remote_network {
            Network::Any
        } else {
            Network::None
        };
    }
    let d_hooks = {
        let mut plan = hook::Plan::new(&d, source_dirs);
        // A dry run updates nothing: its pre-push hook runs, and may see `main` listed.
        if !p.dry_run {
            plan.protected = entry.map(|e| e.protected.clone()).unwrap_or_default();
        }
        plan
    };
    d.hooks = Some(d_hooks);
    if let Some(rule) = needs(Permission::WritePush, "a push".into()) {
        return d.refuse(rule);
    }
    let Some(entry) = entry else {
        return d.refuse(Rule::Unplaceable("the repository is not listed".into()));
    };
    if let Some(rule) = local_refusal {
        return d.refuse(rule);
    }
    match push::destinations(p, &settings) {
        Err(why) => d.refuse(Rule::Unplaceable(why)),
        // A dry run sends nothing.
        Ok(_) if p.dry_run => d.allow(Rule::Within("a dry run".into())),
        Ok(branches) => match branches.iter().find(|b| entry.protects(b)) {
            Some(b) => d.refuse(Rule::Protected {
                branch: b.clone(),
                protected: entry.protected.clone(),
            }),
            None => {
                d.watch = Some(observe::Watch {
                    store: identity.ref_store(),
                    command: "push".into(),
                    makes_commit: false,
                    hooks_skipped: p.skips_hooks().or_else(|| hooks_path_set(place)),
                    push: Some(push::watch(p, &settings, &branches)),
                });
                d.record_it(Rule::Pushed(branches))
            }
        },
    }
}

/// Checks the places a call writes outside its repository (new repositories, output files),
/// adds what the kernel may grant for them, and returns the refusal when one is not allowed.
fn targets(d: &mut Decision, scope: &Scope, here: &Path, call: &Outline) -> Option<Decision> {
    for Target {
        path,
        kind,
        named_by,
    } in &call.targets
    {
        let full = here.join(path);
        let shown = full.display().to_string();
        match place::containing(&full) {
            Some((repo, true)) => {
                // Inside a git directory: a repository made there, or a file written there,
                // changes that repository behind git's back.
                let entry = scope.entry_for(&repo);
                let allowed = *kind != TargetKind::Repository
                    && entry.is_some_and(|e| e.permission >= Permission::WriteLocal);
                if !allowed {
                    d.repo = Some(repo.shown());
                    d.permission = Some(entry.map_or(Permission::Read, |e| e.permission));
                    return Some(d.clone().refuse(Rule::Elsewhere(format!(
                        "{named_by} writes {shown}, inside the git directory of {}",
                        repo.shown().display()
                    ))));
                }
            }
            Some((repo, false)) => {
                let entry = scope.entry_for(&repo);
                let permission = entry.map_or(Permission::Read, |e| e.permission);
                // `git init` on the repository itself, or anything inside its work tree.
                if permission < Permission::WriteLocal {
                    d.repo = Some(repo.shown());
                    d.permission = Some(permission);
                    return Some(d.clone().refuse(Rule::Needs {
                        what: format!("{named_by} writes {shown}"),
                        needed: Permission::WriteLocal,
                        listed: entry.is_some(),
                        forge: None,
                    }));
                }
                if let (Some(e), Some(c)) = (entry, d.confinement.as_mut()) {
                    kernel::grant(c, kernel::repository(e, None));
                }
            }
            None => {}
        }
        // Outside every repository, or in one the permission covers: made before git runs,
        // and granted exactly.
        let dir = *kind != TargetKind::File;
        d.prepare.push(Prepare {
            path: full.clone(),
            dir,
        });
        if let Some(c) = d.confinement.as_mut() {
            if dir {
                kernel::grant(c, [full]);
            } else if !c.files.contains(&full) {
                c.files.push(full);
            }
        }
    }
    None
}

/// Follows aliases until a command this grammar knows: from the call's `-c` settings first,
/// then the configuration git reads (a `!` alias is a shell command: unknown). Each alias's
/// value is split as git splits it, and the global options it holds (`-c` settings included)
/// join the call's.
fn resolve_aliases(cwd: &Path, mut call: Outline) -> Outline {
    let mut seen: Vec<String> = Vec::new();
    while let Effect::Alias { name, rest } = &call.effect {
        let (name, rest) = (name.clone(), rest.clone());
        let unknown = |mut call: Outline, why: String| {
            call.effect = Effect::Unknown(why);
            call
        };
        if seen.contains(&name) || seen.len() >= MAX_ALIASES {
            return unknown(call, format!("the alias `{name}` loops"));
        }
        seen.push(name.clone());
        // git runs a command of its own (a builtin this grammar does not list, a `git-<name>`
        // in its directory or on PATH) before it looks for an alias of that name.
        match crate::git::probe::git_commands(cwd, &call.place.globals) {
            Ok(commands) if commands.contains(&name) => {
                return unknown(
                    call,
                    format!("`git {name}` is a command this guard does not know"),
                );
            }
            Ok(_) => {}
            Err(_) => {
                return unknown(
                    call,
                    format!("`git {name}`: git's commands cannot be listed"),
                );
            }
        }
        let key = format!("alias.{}", name.to_ascii_lowercase());
        let inline = call
            .place
            .config
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone().unwrap_or_default());
        let value = match inline {
            Some(v) => Some(v.as_bytes().to_vec()),
            None => crate::git::probe::config_value(cwd, &call.place.globals, &key)
                .map(String::into_bytes),
        };
        let Some(value) = value else {
            return unknown(
                call,
                format!("`git {name}` is neither a git command nor an alias"),
            );
        };
        if value.trim_ascii_start().starts_with(b"!") {
            return unknown(call, format!("the alias `{name}` runs a shell command"));
        }
        let Some(words) = effect::split_cmdline(&value) else {
            return unknown(call, format!("the alias `{name}` cannot be read"));
        };
        let mut args = words;
        args.extend(rest);
        let inner = effect::git(&args);
        let mut place = call.place;
        place.chdir.extend(inner.place.chdir);
        place.config.extend(inner.place.config);
        place.globals.extend(inner.place.globals);
        if inner.place.git_dir.is_some() {
            place.git_dir = inner.place.git_dir;
        }
        if inner.place.work_tree.is_some() {
            place.work_tree = inner.place.work_tree;
        }
        call = Outline {
            place,
            effect: inner.effect,
            network: inner.network,
            targets: inner.targets,
            locks_index: inner.locks_index,
            moves: inner.moves,
            settings: inner.settings,
        };
    }
    call
}

/// The `GIT_CONFIG_KEY_<n>` and `GIT_CONFIG_VALUE_<n>` variables `GIT_CONFIG_COUNT` counts in
/// this process's environment (at most 1,000).
pub fn config_env_vars() -> Vec<String> {
    let count = std::env::var("GIT_CONFIG_COUNT")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(0)
        .min(1000);
    (0..count)
        .flat_map(|n| {
            [
                format!("GIT_CONFIG_KEY_{n}"),
                format!("GIT_CONFIG_VALUE_{n}"),
            ]
        })
        .collect()
}

/// The variables `git-prism session` records as the session starts.
pub fn session_vars() -> impl Iterator<Item = &'static str> {
    crate::git::keys::USER_VARS
        .iter()
        .chain(crate::git::keys::PROGRAM_VARS)
        .copied()
}

/// Why a call's `-c` settings or environment make git run a program of the caller's choosing
/// (whose `git` calls would not come back here) or read configuration the session did not
/// start with, if they do. A pager or editor that is `cat`, `less`, `more` or `true` runs
/// nothing that could call git; `-c alias.*` is resolved instead, unless it runs a shell;
/// `-c core.hooksPath` may only switch hooks off.
fn programs(place: &Place, ctx: &Context) -> Option<String> {
    for (key, value) in &place.config {
        let key = key.to_ascii_lowercase();
        if let Some(why) = config::setting_refusal(&key, value.as_deref(), config::Via::CommandLine)
        {
            return Some(why);
        }
    }
    // The environment: as the session started when `git-prism session` recorded it (a change
    // for one command is what an accident looks like); else the variables that name programs
    // must name none, or a harmless one.
    for var in session_vars() {
        let now = std::env::var_os(var);
        let pager_like = crate::git::keys::PAGER_VARS.contains(&var);
        let harmless_now = pager_like
            && now
                .as_deref()
                .is_some_and(crate::git::keys::harmless_program);
        if let Some(record) = &ctx.record {
            let recorded = record.environment.get(var).map(session::Bytes::os);
            if now != recorded && !harmless_now {
                return Some(format!(
                    "`{var}` differs from the session's, so git would run or read something else"
                ));
            }
            continue;
        }
        let Some(now) = now.filter(|v| !v.is_empty()) else {
            continue;
        };
        if !crate::git::keys::PROGRAM_VARS.contains(&var) || harmless_now {
            continue;
        }
        let fine = var == "GIT_CONFIG_COUNT" && now == "0";
        if !fine {
            return Some(format!("`{var}` is set, and names what git runs or reads"));
        }
    }
    // The settings `GIT_CONFIG_COUNT` counts: each as the session started (a count equal to
    // the session's does not make its entries the session's).
    if let Some(record) = &ctx.record {
        for var in config_env_vars() {
            let now = std::env::var_os(&var);
            if now != record.environment.get(&var).map(session::Bytes::os) {
                return Some(format!(
                    "`{var}` differs from the session's, so git would read another setting"
                ));
            }
        }
    }
    // A trace written to a file can be written into a repository.
    for (name, value) in std::env::vars_os() {
        if name.as_bytes().starts_with(b"GIT_TRACE") && value.as_bytes().contains(&b'/') {
            return Some(format!(
                "`{}` names a file git would write",
                name.to_string_lossy()
            ));
        }
    }
    None
}

/// The command line as one string (for the refusal line and the record).
fn command_line(tool: Program, args: &[OsString]) -> String {
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

    fn split(value: &str) -> Vec<String> {
        effect::split_cmdline(value.as_bytes())
            .unwrap()
            .into_iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn alias_values_split_like_git() {
        assert_eq!(split("push origin main"), ["push", "origin", "main"]);
        assert_eq!(
            split("commit -m 'two words'"),
            ["commit", "-m", "two words"]
        );
        assert_eq!(split("log \"a b\" c\\ d"), ["log", "a b", "c d"]);
        // A no-break space is not a separator to git.
        assert_eq!(split("branch x\u{a0}--list"), ["branch", "x\u{a0}--list"]);
        // Leading and trailing separators make empty words, as in git.
        assert_eq!(split(" log"), ["", "log"]);
        assert_eq!(split("log "), ["log", ""]);
        assert_eq!(split("a\t\r\nb"), ["a", "b"]);
        assert_eq!(split("a\u{0b}b"), ["a\u{0b}b"]);
        assert_eq!(split("'a\\b'"), ["a\\b"]);
        assert!(effect::split_cmdline(b"log 'open").is_none());
        assert!(effect::split_cmdline(b"log \\").is_none());
    }

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
