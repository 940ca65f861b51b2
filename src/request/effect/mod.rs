//! What a `git` or `gh` command line does, for the session guard (ADR 15, ADR 16): only read,
//! change a repository on this machine, make a new one, or send something away — and, for a
//! push, what it sends where; whether it needs the network; which files or directories it
//! writes outside the repository it acts on; and, for a write that makes commits or moves
//! HEAD, what the record of its effects watches ([`Moves`]: whether it must make a commit,
//! how it skips hooks, which changes a commit takes; ADR 17). [`git`] reads a `git` command
//! line, [`gh`] a `gh` one.
//!
//! Pure: nothing runs while classifying. The global options are read by the one parser the
//! classifier uses too ([`super::global_options`]); each subcommand is weighed with the one
//! model of git's command line ([`super::table`]), read by the one scanner
//! ([`super::scan`], lenient) — data, and the small functions of `effect::subcommand` that read
//! it. Everything not known to be a read is a write: a subcommand or option the model does
//! not know, an alias (resolved by the guard, which can read the configuration, and whose
//! value is split here exactly as git splits it: [`split_cmdline`]), a command git finds on
//! PATH (`git-foo`).

mod address;
mod config;
mod gh;
mod push;
mod subcommand;

use std::ffi::OsString;

pub use address::{clone_dir, is_local_address, local_path, runs_transport, split_cmdline};
pub use config::config_key;
pub(crate) use config::setting_of;
pub use gh::gh;
pub use push::Push;

/// The global options that decide which repository a call acts on, and the `-c` settings
/// (aliases can be defined there).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// Every global option token, verbatim and in order (to run git as the call would).
    pub globals: Vec<OsString>,
    /// `-C <dir>`, in order (each relative to the previous one).
    pub chdir: Vec<OsString>,
    /// `--git-dir`.
    pub git_dir: Option<OsString>,
    /// `--work-tree`.
    pub work_tree: Option<OsString>,
    /// `-c name=value` (a name alone: `None`, which git reads as `true`), in order: the call's
    /// own, then those of each alias it goes through.
    pub config: Vec<(String, Option<OsString>)>,
}

impl Place {
    /// The `-c core.hooksPath=<dir>` the call (or an alias it goes through) sets, as written:
    /// git then runs the hooks there, not the repository's own.
    pub fn hooks_path_setting(&self) -> Option<String> {
        let (_, value) = self
            .config
            .iter()
            .rev()
            .find(|(k, _)| k.eq_ignore_ascii_case("core.hookspath"))?;
        Some(format!(
            "-c core.hooksPath={}",
            value
                .as_deref()
                .map_or_else(String::new, |v| v.to_string_lossy().into_owned())
        ))
    }
}

/// What a command line does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing in any repository changes (it may print).
    Read,
    /// The repository on this machine changes (its refs, index, work tree or configuration);
    /// nothing leaves the machine. The name says what.
    Local(String),
    /// A new repository is made (`clone`): nothing existing changes. Where is in the call's
    /// targets.
    NewRepository,
    /// `git init [<dir>]`: a new repository, or a change to the one already there.
    Init {
        /// The directory named, if any.
        dir: Option<OsString>,
    },
    /// Something leaves the machine that is not a push of refs (`send-email`).
    Send(String),
    /// A push: what it sends where.
    Push(Push),
    /// A subcommand git may take from an alias: the guard resolves it and classifies again.
    Alias {
        /// The alias's name.
        name: String,
        /// The arguments after it.
        rest: Vec<OsString>,
    },
    /// Something this grammar cannot see into (an external `git-foo`, a shell alias, an option
    /// it does not know where it matters): a write whose target is unknown.
    Unknown(String),
}

/// A file or directory a call writes outside the repository it acts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The path as given (relative to the directory the call runs in, after its `-C`).
    pub path: OsString,
    /// What is written there.
    pub kind: TargetKind,
    /// The option or argument that names it (for messages).
    pub named_by: String,
}

/// What a [`Target`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetKind {
    /// A file written in place (`--output`, `archive -o`, `read-tree --index-output`).
    File,
    /// A directory written into (`format-patch -o`, `checkout-index --prefix`).
    Dir,
    /// A new repository or work tree (`clone <dir>`, `init <dir>`, `worktree add <path>`).
    Repository,
}

/// Everything the guard needs to know about a git command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outline {
    /// The global options.
    pub place: Place,
    /// What it does.
    pub effect: Effect,
    /// Whether it contacts another machine (a fetch, a clone, a push, `ls-remote`).
    pub network: bool,
    /// What it writes outside the repository it acts on.
    pub targets: Vec<Target>,
    /// A read that still takes the index's lock (`commit --dry-run`).
    pub locks_index: bool,
    /// For a write that makes or moves commits: what the session's record of its effects
    /// watches (issue 28).
    pub moves: Option<Moves>,
    /// For `git config`: the settings it writes (key as git compares it, value), which the
    /// guard holds to the same rule as `-c`.
    pub settings: Vec<(String, Option<OsString>)>,
}

/// A write that makes commits or moves HEAD (`commit`, `merge`, `rebase`, `reset`,
/// `cherry-pick`, `revert`, `am`, `pull`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moves {
    /// The subcommand.
    pub command: String,
    /// Whether it exists to make a new commit (`commit`, `cherry-pick`, `revert`, `am`): one
    /// that exits 0 with HEAD where it was did not do what it names.
    pub makes_commit: bool,
    /// How the command line skips the hooks git would run for it (`--no-verify`, `-n`).
    pub skips_hooks: Option<String>,
    /// For `commit`: which changes it takes.
    pub commit: Option<CommitTakes>,
}

/// The changes a `git commit` command line takes into the commit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommitTakes {
    /// `-a`/`--all`: every change to a tracked file, besides what is staged.
    pub all: bool,
    /// The pathspecs given: the work tree's content of those paths (besides what is staged,
    /// with `--include`).
    pub paths: Vec<OsString>,
    /// Which changes it takes cannot be told from the command line (`--patch`,
    /// `--interactive`, `--pathspec-from-file`): any staged or unstaged change may be taken.
    pub unknown: bool,
}

impl Outline {
    /// An outline of nothing yet: a read, with nothing to watch.
    fn empty() -> Outline {
        Outline {
            place: Place::default(),
            effect: Effect::Read,
            network: false,
            targets: Vec::new(),
            locks_index: false,
            moves: None,
            settings: Vec::new(),
        }
    }

    /// The same, doing `effect`.
    fn with(mut self, effect: Effect) -> Outline {
        self.effect = effect;
        self
    }
}

/// Classifies a `git` command line (without `argv[0]`).
pub fn git(args: &[OsString]) -> Outline {
    let g = super::global_options(args);
    let place = Place {
        globals: g.args.clone(),
        chdir: g.chdir.clone(),
        git_dir: g.git_dir.clone(),
        work_tree: g.work_tree.clone(),
        config: g.config.clone(),
    };
    let call = |place: Place, effect: Effect| Outline {
        place,
        ..Outline::empty().with(effect)
    };
    if g.informational.is_some() {
        return call(place, Effect::Read);
    }
    if let Some(bad) = &g.invalid {
        return call(
            place,
            Effect::Unknown(format!("global option {}", bad.to_string_lossy())),
        );
    }
    if g.config_env {
        // `name=ENVVAR`: the value is in the environment, where this grammar does not look;
        // a setting it cannot read could name a program.
        return call(
            place,
            Effect::Unknown("`--config-env` takes a setting from the environment".into()),
        );
    }
    if g.exec_path {
        // Where git looks for its commands: any program could stand in for one.
        return call(place, Effect::Unknown("--exec-path=<dir>".into()));
    }
    let Some(sub) = args.get(g.end) else {
        return call(place, Effect::Read);
    };
    let rest = &args[g.end + 1..];
    let mut out = subcommand::subcommand(sub, rest);
    let extra = std::mem::take(&mut out.place.config);
    out.place = place;
    out.place.config.extend(extra);
    out
}

#[cfg(test)]
mod tests;
