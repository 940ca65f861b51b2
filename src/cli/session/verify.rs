//! `git-prism session verify`: `git-prism verify`'s checks of each repository the session
//! could write, from what its record holds (HEAD as it started, the protected paths, the
//! remotes) and what the guard's record says of skipped hooks; inside a sandbox, the broker
//! runs it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::super::Out;
use super::session_scope;
use crate::cli::verify::Checks;
use crate::guard::{log, place, scope, session};
use crate::query::verify::{Since, SkippedHooks, Subject};

/// `session verify`: the checks of `git-prism verify`, from what the session recorded as it
/// started (each repository's HEAD, its protected paths) and what its record says of skipped
/// hooks.
pub(super) fn verify(
    session_id: Option<&str>,
    checks: &Checks,
    named: &[PathBuf],
    out: &mut Out<'_>,
) -> Result<i32> {
    // Inside a session's sandbox the broker verifies, outside it, with the user's credentials
    // (a `--pushed` check asks the remote).
    if let Some(socket) =
        crate::broker::socket().filter(|_| session_id.is_none() && !crate::broker::is_brokered())
    {
        return through_broker(&socket, out);
    }
    let file = session_scope(session_id)?;
    let record = session::load(&file)?.with_context(|| {
        format!(
            "{} is not the scope of a session `git-prism session` started (no record beside it): use `git-prism verify --since <rev>`",
            file.display()
        )
    })?;
    let repos = repos(&record, named)?;
    let log = log::read();
    let subjects = repos
        .into_iter()
        .map(|repo| subject(&record, repo, &log, checks))
        .collect::<Result<Vec<_>>>()?;
    crate::cli::verify::run_checks(subjects, checks, out)
}

/// Hands `session verify` (its arguments as given) to the session's broker at `socket`; ends
/// as the broker's run ended.
fn through_broker(socket: &Path, out: &mut Out<'_>) -> Result<i32> {
    let args: Vec<OsString> = std::env::args_os()
        .skip_while(|a| a != "session")
        .skip(1)
        .skip_while(|a| a != "verify")
        .skip(1)
        .collect();
    out.stdout.flush()?;
    let ended = crate::broker::client::call(socket, crate::broker::wire::Kind::Verify, &args)?;
    Ok(crate::shim::exec::end_as(ended))
}

/// The repositories to verify: those `named`, each one of the session's, else every one the
/// session could write that has a work tree.
fn repos<'a>(record: &'a session::Record, named: &[PathBuf]) -> Result<Vec<&'a session::Repo>> {
    if named.is_empty() {
        let writable: Vec<&session::Repo> = record
            .repos
            .iter()
            // A bare repository (a push's destination) holds no work of its own: the
            // `--pushed` check of the repositories that push to it asks about it.
            .filter(|r| r.permission >= scope::Permission::WriteLocal && r.work_tree.is_some())
            .collect();
        if writable.is_empty() {
            bail!(
                "the session's scope lets it write no repository with a work tree: name the repositories to verify"
            );
        }
        return Ok(writable);
    }
    let mut found = Vec::new();
    for path in named {
        let path = crate::paths::normal(path);
        let id = place::identify(&path)
            .with_context(|| format!("{} is not a git repository", path.display()))?;
        let repo = record
            .repos
            .iter()
            .find(|r| r.identity().common_dir == id.common_dir)
            .with_context(|| {
                format!(
                    "{} is not one of the session's repositories",
                    path.display()
                )
            })?;
        found.push(repo);
    }
    Ok(found)
}

/// What one repository is verified against: its HEAD as the session started, its protected
/// paths, the hooks the record says were skipped, and its remotes as they changed.
fn subject(
    record: &session::Record,
    repo: &session::Repo,
    log: &[log::Entry],
    checks: &Checks,
) -> Result<Subject> {
    let identity = repo.identity();
    let since = match &repo.head {
        Some(head) => Since::SessionStart(
            crate::git::Oid::parse(head)
                .context("the session record's HEAD is not an object id")?,
        ),
        None => Since::Unborn,
    };
    let mut skipped_hooks = skipped_hooks(record, &identity.shown().display().to_string(), log);
    // The configuration the session could write, as it is now: hooks pointed elsewhere skip
    // the repository's own, and a remote's address changed means `--pushed` would ask
    // another remote than the one the session started with.
    let own = crate::git::probe::own_config(&identity.shown(), &[]).unwrap_or_default();
    skipped_hooks.extend(hooks_path_changed(repo, &own));
    let remote_changes =
        crate::guard::config::remote_changes(&repo.remotes, &crate::guard::config::remotes(&own));
    let mut protected_paths = repo.protected_paths.clone();
    protected_paths.extend(crate::cli::verify::protected(checks).iter().cloned());
    Ok(Subject {
        location: crate::git::Location::at(&identity.shown())?,
        since,
        protected_paths,
        skipped_hooks: Some(skipped_hooks),
        remote_changes,
        pushes: Some(crate::cli::verify::session_pushes(
            repo.permission,
            &repo.protected,
        )),
    })
}

/// The session's writes in the repository shown as `shown` whose record says they skipped
/// hooks.
fn skipped_hooks(record: &session::Record, shown: &str, log: &[log::Entry]) -> Vec<SkippedHooks> {
    log.iter()
        .filter(|r| r.session.as_deref() == Some(record.id.as_str()))
        .filter(|r| r.repo.as_deref() == Some(shown))
        .filter_map(|r| {
            let how = r.effect.as_ref()?.hooks_skipped.clone()?;
            Some(SkippedHooks {
                time: r.time.clone(),
                command: r.command.clone(),
                how,
                undo: None,
            })
        })
        .collect()
}

/// `core.hooksPath` in the repository's configuration `own` as it is now, when it is not as
/// the session started: every later write skipped the repository's hooks.
fn hooks_path_changed(repo: &session::Repo, own: &[(String, Vec<u8>)]) -> Option<SkippedHooks> {
    let hooks_now: Vec<(String, session::Bytes)> = crate::guard::config::programs(own)
        .into_iter()
        .filter(|(k, _)| k == "core.hookspath")
        .collect();
    let hooks_then: Vec<(String, session::Bytes)> = repo
        .programs
        .iter()
        .filter(|(k, _)| k == "core.hookspath")
        .cloned()
        .collect();
    if hooks_now == hooks_then || crate::confine::test_rule_off("verify-hookspath") {
        return None;
    }
    let now = hooks_now.last().map_or_else(
        || "unset".to_owned(),
        |(_, v)| v.os().to_string_lossy().into_owned(),
    );
    let undo = match hooks_then.last() {
        None => "git config --unset-all core.hooksPath".to_owned(),
        Some((_, then)) => format!(
            "git config core.hooksPath {}",
            crate::shell::quote(&then.os())
        ),
    };
    Some(SkippedHooks {
        time: "now".into(),
        command: format!("core.hooksPath = {now}"),
        how: "core.hooksPath changed in the repository's configuration since the session started"
            .into(),
        undo: Some(undo),
    })
}
