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
//!
//! The first layer, file by file: `decision` (the [`Decision`], its [`Rule`], the refusal
//! line and the record), `context` (the session a call belongs to, and the configuration its
//! repositories started with), `alias` and `programs` (what git would run besides the
//! subcommand), `placed` (a write placed in its repository), `decide` (the rules of reads and
//! writes, as a table of the checks every write in a repository passes) and `push_rules` (a
//! push's); this file only turns a `git` or `gh` command line into the call they decide.

mod alias;
pub mod config;
mod context;
mod decide;
mod decision;
pub mod hook;
pub mod kernel;
pub mod log;
pub mod observe;
pub mod place;
mod placed;
mod programs;
pub mod push;
mod push_rules;
pub mod sandbox;
pub mod scope;
pub mod session;

use std::ffi::{OsStr, OsString};
use std::path::Path;

use crate::confine::Network;
use crate::locate::Program;
use crate::request::effect::{self, Effect, Outline, Place};
use context::Context;
pub use decision::{Decision, Outcome, Prepare, Rule};
pub use programs::{config_env_vars, hooks_path_set, session_vars};

/// Decides a call of `tool` with `args`, run in `cwd` (`None`: the directory cannot be read),
/// under the scope file `scope_file`.
pub fn check(tool: Program, args: &[OsString], cwd: Option<&Path>, scope_file: &OsStr) -> Decision {
    let ctx = Context::load(Path::new(scope_file));
    let base = kernel::base(ctx.temp_dir().as_deref());
    let mut d = Decision::new(tool, args, cwd, Some(base));
    d.scope_file = Some(ctx.shown_file());
    d.session = ctx.record.as_ref().map(|r| r.id.clone());
    match tool {
        Program::Gh => gh(d, &ctx, args, cwd),
        Program::Git => git(d, &ctx, args, cwd),
    }
}

/// A `gh` call: not confined (its effects are requests to the forge); it acts on the
/// repository it names on the forge (`-R`, `GH_REPO`), else on the one it runs in.
fn gh(mut d: Decision, ctx: &Context, args: &[OsString], cwd: Option<&Path>) -> Decision {
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
    decide::decide(d, ctx, call, cwd, repo)
}

/// A `git` call: its aliases followed, what it would run judged, then decided; a call that
/// names its own hooks directory gets no network where the hook wrapper would have held it.
fn git(d: Decision, ctx: &Context, args: &[OsString], cwd: Option<&Path>) -> Decision {
    let (call, fix) = outline(ctx, args, cwd);
    let hooks_named = programs::names_hooks(&call.place);
    let mut d = decide::decide(d, ctx, call, cwd, None);
    // What makes git run a program, said on the command line: the call without it.
    if let (Rule::RunsProgram { fix: slot, .. }, Some(fix)) = (&mut d.rule, fix) {
        *slot = Some(fix);
    }
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

/// What a `git` call does, its aliases followed; unknown when it would make git run a
/// program of the caller's choosing or set what `-c` may not, with how to make the call
/// without it where the command line says how.
fn outline(ctx: &Context, args: &[OsString], cwd: Option<&Path>) -> (Outline, Option<String>) {
    let mut call = effect::git(args);
    if let Some(cwd) = cwd {
        call = alias::resolve_aliases(cwd, call);
    }
    let mut fix = None;
    // Settings and variables that make git run a program of the caller's choosing (a
    // pager, an editor, an ssh command) turn even a read into a call the guard cannot
    // see into: checked after every alias, whose value can hold `-c` settings too.
    if let Some(found) = programs::programs(&call.place, ctx) {
        fix = found.fix(args);
        call.effect = Effect::Unknown(found.why);
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
    (call, fix)
}
