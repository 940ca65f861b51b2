//! The rules, once a call is classified ([`decide`]): a read runs (on a copy of the index when
//! it would take the index's lock in a repository it may not write, held to the session's
//! configuration when it goes to the network); a write is placed — the places it makes
//! outside repositories ([`targets`]), the repository it acts on ([`placed`]) — passes the
//! checks every write in a repository passes ([`PLACED_CHECKS`]: the work tree is the
//! repository's own, the index and objects are its own, its configuration is as the session
//! started it), then its effect's own rule: the permission it needs, the protected paths of a
//! commit, a push's ([`super::push_rules`]). Each rule also says what the kernel grants.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::context::{Context, drifted};
use super::decision::{Decision, Prepare, Rule};
use super::placed::Placed;
use super::programs::hooks_path_set;
use super::scope::{self, Permission, Scope};
use super::{hook, kernel, observe, place, push_rules, sandbox};
use crate::confine::Network;
use crate::request::effect::{self, Effect, Outline, Place, Target, TargetKind};

/// A check every write placed in a repository passes before its effect's own rule.
type PlacedCheck = fn(&mut Decision, &Placed<'_>) -> Option<Rule>;

/// The checks every write in a repository passes, in order; the first rule found refuses it.
const PLACED_CHECKS: [PlacedCheck; 3] = [foreign_work_tree, stores_elsewhere, config_drift];

/// The decision once the call is classified (`gh_repo`: the repository a `gh` call names on
/// the forge, if it names one).
pub(super) fn decide(
    mut d: Decision,
    ctx: &Context,
    call: Outline,
    cwd: Option<&Path>,
    gh_repo: Option<OsString>,
) -> Decision {
    if call.effect == Effect::Read && call.targets.is_empty() {
        return read(d, ctx, &call, cwd);
    }
    let Some(cwd) = cwd else {
        return d.refuse(Rule::NoRepository(
            "the directory this runs in cannot be read, so the repository it acts on cannot be told"
                .into(),
        ));
    };
    let scope = match ctx.scope() {
        Ok(s) => s,
        Err(e) => {
            let session = ctx.has_record();
            return d.refuse(Rule::InvalidScope { why: e, session });
        }
    };
    let here = cwd.join(call.place.chdir.iter().collect::<PathBuf>());
    // Places outside the repository: new repositories, output files and directories.
    if let Some(rule) = targets(&mut d, &scope, &here, &call) {
        return d.refuse(rule);
    }
    match &call.effect {
        Effect::NewRepository => return new_repository(d, call.network),
        Effect::Init { .. } => return d.allow(Rule::Within("a new repository".into())),
        Effect::Read => return d.allow(Rule::Within("a read that writes a file".into())),
        _ => {}
    }
    let Some(identity) = place::of_call(cwd, &call.place, &ctx.stamped()) else {
        return d.refuse(Rule::NoRepository(
            "the repository this write acts on cannot be told".into(),
        ));
    };
    let w = placed(
        &mut d,
        ctx,
        &scope,
        (cwd, here),
        &call.place,
        identity,
        gh_repo,
    );
    if let Some(rule) = PLACED_CHECKS.iter().find_map(|check| check(&mut d, &w)) {
        return d.refuse(rule);
    }
    match &call.effect {
        Effect::Read | Effect::NewRepository | Effect::Init { .. } => d,
        Effect::Alias { name: alias, .. } => d.refuse(Rule::RunsProgram {
            why: format!("`{alias}` is neither a git command nor an alias this guard can read"),
            fix: None,
        }),
        Effect::Local(what) => local(d, &w, &call, what.clone()),
        Effect::Send(what) => send(d, &w, what.clone()),
        Effect::Unknown(why) => unknown(d, ctx, why.clone()),
        Effect::Push(p) => push_rules::decide(d, &w, p),
    }
}

/// A read that writes nothing outside git's own: it runs.
fn read(mut d: Decision, ctx: &Context, call: &Outline, cwd: Option<&Path>) -> Decision {
    d.network(call.network);
    if call.locks_index {
        if let Some(found) = cwd.and_then(|cwd| place::of_call(cwd, &call.place, &ctx.stamped())) {
            d.index_copy = index_copy(ctx, &found);
        }
    }
    // A read that goes to the network runs git's transport (an ssh command, an upload
    // pack) with the user's credentials: the repository's configuration is held to the
    // session's start for it too.
    if call.network && d.confinement.is_some() {
        if let Some((cwd, found)) =
            cwd.and_then(|cwd| place::of_call(cwd, &call.place, &ctx.stamped()).map(|f| (cwd, f)))
        {
            let here = cwd.join(call.place.chdir.iter().collect::<PathBuf>());
            if let Some(rule) = drifted(&mut d, ctx, &found, &here, &call.place) {
                d.repo = Some(found.shown());
                return d.refuse(rule);
            }
        }
    }
    d.allow(Rule::Read)
}

/// For a read that takes the index's lock in `found`: the index to copy, when the call may
/// not write the repository.
fn index_copy(ctx: &Context, found: &place::Identity) -> Option<PathBuf> {
    let permission = ctx
        .scope()
        .ok()
        .and_then(|s| s.entry_for(found).map(|e| e.permission))
        .unwrap_or(Permission::Read);
    // In a session's sandbox no git directory is writable (git's writes go through the
    // broker): the read works on a copy there too.
    (permission < Permission::WriteLocal || sandbox::socket().is_some())
        .then(|| found.git_dir.join("index"))
}

/// A clone (the places it makes were checked): its hooks run through the wrapper.
fn new_repository(mut d: Decision, on_network: bool) -> Decision {
    d.network(on_network);
    if on_network {
        d.hooks = Some(hook::Plan::new(&d, Vec::new()));
    }
    d.allow(Rule::Within("a new repository".into()))
}

/// Places a write in `identity`: the repository and permission it records, and what the
/// kernel grants for it whatever the rules say next.
fn placed<'a>(
    d: &mut Decision,
    ctx: &'a Context,
    scope: &'a Scope,
    (cwd, here): (&'a Path, PathBuf),
    place: &'a Place,
    identity: place::Identity,
    gh_repo: Option<OsString>,
) -> Placed<'a> {
    d.repo = Some(identity.shown());
    let entry = match gh_repo {
        // gh acting on a repository named on the forge: not one of the scope's.
        Some(_) => None,
        None => scope.entry_for(&identity),
    };
    let permission = entry.map_or(Permission::Read, |e| e.permission);
    d.permission = Some(permission);
    if let (Some(entry), Some(c)) = (entry, d.confinement.as_mut()) {
        if permission >= Permission::WriteLocal {
            kernel::grant(c, kernel::repository(entry, Some(&identity)));
        }
    }
    Placed {
        ctx,
        scope,
        cwd,
        here,
        place,
        identity,
        entry,
        permission,
        forge: gh_repo.map(|r| r.to_string_lossy().into_owned()),
    }
}

/// A work tree other than the repository's own: git would write there, and a tree that
/// holds (or lies inside) other repositories cannot be carved out by the kernel.
fn foreign_work_tree(_: &mut Decision, w: &Placed<'_>) -> Option<Rule> {
    if w.permission < Permission::WriteLocal {
        return None;
    }
    let own = w.entry?.identity.work_tree.as_ref();
    let tree = w.identity.work_tree.as_ref()?;
    (Some(tree) != own && !w.identity.is_linked_worktree()).then(|| Rule::Elsewhere {
        why: format!(
            "git would use {} as the work tree, which is not this repository's own",
            tree.display()
        ),
        fix: match own {
            Some(own) => format!(
                "run it in the repository's own work tree ({}) without --work-tree, GIT_WORK_TREE or core.worktree",
                own.display()
            ),
            None => "run it without --work-tree, GIT_WORK_TREE or core.worktree".into(),
        },
        unset: None,
    })
}

/// An index or object store elsewhere makes the write land elsewhere.
fn stores_elsewhere(_: &mut Decision, w: &Placed<'_>) -> Option<Rule> {
    let (var, why) = place::elsewhere(&w.identity, &place::Env::current())?;
    Some(Rule::Elsewhere {
        why,
        fix: format!("run it with `{var}` unset"),
        unset: Some(var),
    })
}

/// The repository's configuration is a second command line: a program named in it since the
/// session started does not run with what this call is given (issue 34).
fn config_drift(d: &mut Decision, w: &Placed<'_>) -> Option<Rule> {
    drifted(d, w.ctx, &w.identity, &w.here, w.place)
}

/// A write that stays on this machine: it needs write-local; a commit is held to the
/// protected paths, and what it made is watched.
fn local(mut d: Decision, w: &Placed<'_>, call: &Outline, what: String) -> Decision {
    if let (Some(moves), Some(entry)) = (&call.moves, w.entry) {
        if w.permission >= Permission::WriteLocal {
            if let Some(rule) = protected_paths(w.cwd, w.place, moves, entry) {
                return d.refuse(rule);
            }
            d.watch = Some(observe::Watch {
                store: w.identity.ref_store(),
                command: moves.command.clone(),
                makes_commit: moves.makes_commit,
                hooks_skipped: moves
                    .skips_hooks
                    .clone()
                    .or_else(|| hooks_path_set(w.place)),
                push: None,
            });
        }
    }
    d.network(call.network);
    if call.network {
        let writable = d.confinement.as_ref().map(|c| c.dirs.clone());
        d.hooks = Some(hook::Plan::new(&d, writable.unwrap_or_default()));
    }
    match w.needs(
        Permission::WriteLocal,
        format!("`{what}` changes the repository"),
    ) {
        None => d.allow(Rule::Within(what)),
        Some(rule) => d.refuse(rule),
    }
}

/// Something sent from this machine (`send-email`): it needs write-push, reaches only the
/// mail ports, and is recorded.
fn send(mut d: Decision, w: &Placed<'_>, what: String) -> Decision {
    if let Some(c) = d.confinement.as_mut() {
        c.network = Network::Ports(kernel::SMTP_PORTS.to_vec());
    }
    match w.needs(
        Permission::WritePush,
        format!("{what} sends from this machine"),
    ) {
        None => d.record_it(Rule::Sent(what)),
        Some(rule) => d.refuse(rule),
    }
}

/// A program the guard cannot see into (an external `git-foo`, a shell alias, a command git
/// runs for `rebase -x` or `bisect run`): git starts it with its own directory first on PATH,
/// so the `git` it calls would not come back here. Refused whatever the permission; the kernel
/// grants it nothing beyond what every call gets.
fn unknown(mut d: Decision, ctx: &Context, why: String) -> Decision {
    if let Some(c) = d.confinement.as_mut() {
        *c = kernel::base(ctx.temp_dir().as_deref());
    }
    d.refuse(Rule::RunsProgram { why, fix: None })
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
            return Some(Rule::ProtectedPath {
                why: format!(
                    "the paths this commit takes cannot be told ({}), and the repository has protected paths",
                    crate::text::chain(&e)
                ),
                fix: None,
            });
        }
    };
    let (path, rule) = paths
        .all
        .iter()
        .find_map(|p| entry.protected_path(p).map(|rule| (p, rule)))?;
    let staged = paths.staged.contains(path);
    // The path as the agent's next command names it: from the top of the work tree when the
    // call runs elsewhere.
    let at_top = entry
        .identity
        .work_tree
        .as_deref()
        .is_some_and(|top| top.canonicalize().ok() == cwd.canonicalize().ok());
    let mut spec = if at_top { Vec::new() } else { b":/".to_vec() };
    spec.extend_from_slice(path);
    let spec = crate::shell::quote(std::ffi::OsStr::from_bytes(&spec));
    Some(Rule::ProtectedPath {
        why: format!(
            "the commit changes {}, under the protected path `{rule}`",
            crate::paths::shown_path(path.as_ref()),
        ),
        fix: Some(protected_path_fix(takes, staged, &spec, rule)),
    })
}

/// How to make a commit that leaves out `spec` (a change under the protected path `rule`,
/// `staged` or not) when the commit took it as `takes` says.
fn protected_path_fix(takes: &effect::CommitTakes, staged: bool, spec: &str, rule: &str) -> String {
    let mut steps = Vec::new();
    if staged {
        steps.push(format!("unstage it (`git restore --staged -- {spec}`)"));
    }
    let stage =
        format!("stage only paths outside `{rule}` (`git add -- <path>`), then `git commit`");
    if takes.all {
        steps.push(format!("commit without -a: {stage}"));
    } else if takes.unknown {
        steps.push(format!(
            "commit without --patch, --interactive or --pathspec-from-file: {stage}"
        ));
    } else {
        if !takes.paths.is_empty() {
            steps.push(format!("leave {spec} out of the paths the commit names"));
        }
        steps.push("commit the rest".into());
    }
    steps.join(", then ")
}

/// Checks the places a call writes outside its repository (new repositories, output files),
/// adds what the kernel may grant for them, and returns the rule that refuses the call when
/// one is not allowed (with the repository it would change, and its permission, in `d`).
fn targets(d: &mut Decision, scope: &Scope, here: &Path, call: &Outline) -> Option<Rule> {
    call.targets.iter().find_map(|t| target(d, scope, here, t))
}

/// One place of [`targets`].
fn target(d: &mut Decision, scope: &Scope, here: &Path, target: &Target) -> Option<Rule> {
    let Target {
        path,
        kind,
        named_by,
    } = target;
    let full = here.join(path);
    let shown = crate::paths::normal(&full).display().to_string();
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
                return Some(Rule::Elsewhere {
                    why: format!(
                        "{named_by} writes {shown}, inside the git directory of {}",
                        repo.shown().display()
                    ),
                    fix: "write it outside every git directory (in a work tree the scope lets you write, or the temporary directory)".into(),
                    unset: None,
                });
            }
        }
        Some((repo, false)) => {
            let entry = scope.entry_for(&repo);
            let permission = entry.map_or(Permission::Read, |e| e.permission);
            // `git init` on the repository itself, or anything inside its work tree.
            if permission < Permission::WriteLocal {
                d.repo = Some(repo.shown());
                d.permission = Some(permission);
                return Some(Rule::Needs {
                    what: format!("{named_by} writes {shown}"),
                    needed: Permission::WriteLocal,
                    listed: entry.is_some(),
                    forge: None,
                    repo: None,
                    names_place: true,
                });
            }
            if let (Some(e), Some(c)) = (entry, d.confinement.as_mut()) {
                kernel::grant(c, kernel::repository(e, None));
            }
        }
        None => {}
    }
    // Outside every repository, or in one the permission covers: made before git runs, and
    // granted exactly.
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
    None
}
