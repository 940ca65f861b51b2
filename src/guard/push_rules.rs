//! A push's rules ([`decide`]), once it is placed in its repository: git's push settings are
//! read (a push that would recurse into submodules cannot be placed); each address it goes to
//! is another machine (the network), a repository on this one (which needs its own
//! permission, and is then granted) or a transport that runs a program (refused); its hooks
//! run through the wrapper, which checks the refs against the protected branches; it needs
//! write-push, a listed repository, and destinations ([`super::push`]) none of which is
//! protected. A push let through is watched and recorded.

use std::path::PathBuf;

use super::decision::{Decision, Rule};
use super::placed::Placed;
use super::programs::hooks_path_set;
use super::scope::{self, Permission};
use super::{hook, kernel, observe, place, push};
use crate::git::push::PushSettings;
use crate::request::effect::{self, Push};

/// A push: where it goes, and whether the permission and the protected branches allow it.
pub(super) fn decide(mut d: Decision, w: &Placed<'_>, p: &Push) -> Decision {
    let settings = match settings(w, p) {
        Ok(s) => s,
        Err((why, fix)) => {
            return match w.needs(Permission::WritePush, "a push".into()) {
                None => d.refuse(Rule::Unplaceable { why, fix }),
                Some(rule) => d.refuse(rule),
            };
        }
    };
    let source_dirs = d
        .confinement
        .as_ref()
        .map(|c| c.dirs.clone())
        .unwrap_or_default();
    let local_refusal = reach(&mut d, w, p, &settings);
    d.hooks = Some(hooks(&d, w, p, source_dirs));
    if let Some(rule) = w.needs(Permission::WritePush, "a push".into()) {
        return d.refuse(rule);
    }
    let Some(entry) = w.entry else {
        return d.refuse(Rule::Unplaceable {
            why: "the repository is not listed".into(),
            fix: None,
        });
    };
    if let Some(rule) = local_refusal {
        return d.refuse(rule);
    }
    branches(d, w, p, &settings, entry)
}

/// git's settings for the push, or why where it goes cannot be told (and how to push so that
/// it can, where there is a way). The configuration's submodule recursion is judged as if
/// given on the command line: a push that pushes other repositories cannot be placed.
fn settings(w: &Placed<'_>, p: &Push) -> Result<PushSettings, (String, Option<String>)> {
    let settings = crate::git::push::push_settings(w.cwd, &w.place.globals)
        .map_err(|e| (crate::text::chain(&e), None))?;
    if !p.recursion_given && !crate::confine::test_rule_off("push-recurse") {
        if let Some(why) = push::recursion(&settings) {
            return Err((
                why,
                Some(
                    "push with `--no-recurse-submodules` (each submodule is pushed from its own work tree)"
                        .into(),
                ),
            ));
        }
    }
    Ok(settings)
}

/// How to push so that where the push goes can be told: each branch by name.
fn by_name(p: &Push, settings: &PushSettings, why: &str) -> String {
    let remote = crate::shell::quote(push::remote(p, settings).as_ref());
    if why.contains("detached") {
        format!("name the branch (`git push {remote} HEAD:refs/heads/<branch>`)")
    } else {
        format!("push each branch by name (`git push {remote} <branch>`)")
    }
}

/// Where the push goes, for the kernel: another machine (the network), or a repository on
/// this one, granted when the scope lets the session write it. Returns the rule that refuses
/// the first address the call may not reach.
fn reach(d: &mut Decision, w: &Placed<'_>, p: &Push, settings: &PushSettings) -> Option<Rule> {
    let mut remote_network = false;
    let mut refusal = None;
    for address in push::addresses(p, settings) {
        let bytes = address.as_bytes();
        if effect::runs_transport(bytes) {
            refusal.get_or_insert(Rule::RunsProgram {
                why: format!("the push goes to `{address}`, an address git hands to a program"),
                fix: None,
            });
        } else if effect::is_local_address(bytes) {
            let path = w.here.join(effect::local_path(bytes));
            if let Some(rule) = local_destination(d, w, path) {
                refusal.get_or_insert(rule);
            }
        } else {
            remote_network = true;
        }
    }
    d.network(remote_network);
    refusal
}

/// A repository on this machine the push writes into: granted when the scope gives it
/// write-local, else the rule that refuses the push.
fn local_destination(d: &mut Decision, w: &Placed<'_>, path: PathBuf) -> Option<Rule> {
    let dest = place::identify(&path);
    let dest_entry = dest.as_ref().and_then(|id| w.scope.entry_for(id));
    match dest_entry {
        Some(e) if e.permission >= Permission::WriteLocal => {
            if let Some(c) = d.confinement.as_mut() {
                kernel::grant(c, kernel::repository(e, None));
            }
            None
        }
        _ => {
            let path = crate::paths::normal(&path);
            Some(Rule::Needs {
                what: format!("the push writes into the repository at {}", path.display()),
                needed: Permission::WriteLocal,
                listed: dest_entry.is_some(),
                forge: None,
                repo: Some(dest.map_or(path, |id| id.shown())),
                names_place: false,
            })
        }
    }
}

/// The plan of the push's hooks: the source repository's places (`source_dirs`, not those of
/// a repository it writes into) and the protected branches its pre-push hook checks.
fn hooks(d: &Decision, w: &Placed<'_>, p: &Push, source_dirs: Vec<PathBuf>) -> hook::Plan {
    let mut plan = hook::Plan::new(d, source_dirs);
    // A dry run updates nothing: its pre-push hook runs, and may see `main` listed.
    if !p.dry_run {
        plan.protected = w.entry.map(|e| e.protected.clone()).unwrap_or_default();
    }
    plan
}

/// The branches the push changes: refused when one is protected or they cannot be told,
/// else recorded and watched.
fn branches(
    mut d: Decision,
    w: &Placed<'_>,
    p: &Push,
    settings: &PushSettings,
    entry: &scope::Entry,
) -> Decision {
    match push::destinations(p, settings) {
        Err(why) => {
            let fix = Some(by_name(p, settings, &why));
            d.refuse(Rule::Unplaceable { why, fix })
        }
        // A dry run sends nothing.
        Ok(_) if p.dry_run => d.allow(Rule::Within("a dry run".into())),
        Ok(branches) => match branches.iter().find(|b| entry.protects(b)) {
            Some(b) => d.refuse(Rule::Protected {
                branch: b.clone(),
                protected: entry.protected.clone(),
                remote: push::remote(p, settings),
            }),
            None => {
                d.watch = Some(observe::Watch {
                    store: w.identity.ref_store(),
                    command: "push".into(),
                    makes_commit: false,
                    hooks_skipped: p.skips_hooks().or_else(|| hooks_path_set(w.place)),
                    push: Some(push::watch(p, settings, &branches)),
                });
                d.record_it(Rule::Pushed(branches))
            }
        },
    }
}
