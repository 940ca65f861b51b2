//! `git-prism session check`: what the scope allows in the repository here, which session
//! it belongs to, and what the kernel holds.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::super::Out;
use super::scope_file;
use crate::exit_codes;
use crate::guard::{log, place, scope, session};

/// Prints what the scope allows in the repository of the current directory.
pub(super) fn check(named: Option<PathBuf>, out: &mut Out<'_>) -> Result<i32> {
    let file = scope_file(named)?;
    let loaded = match scope::load(&file) {
        Ok(s) => s,
        Err(e) => return invalid(&file, &crate::text::chain(&e), out),
    };
    let record = session::load(&file).ok().flatten();
    match &record {
        Some(r) => {
            writeln!(out.stdout, "scope: {}", r.scope_file.path().display())?;
            writeln!(
                out.stdout,
                "session: {} (started {}; its copy of the scope: {})",
                r.id,
                r.started,
                file.display()
            )?;
        }
        None => writeln!(out.stdout, "scope: {}", file.display())?,
    }
    writeln!(out.stdout, "{}", crate::confine::support().line())?;
    let temp_dir = record.as_ref().map_or_else(
        || {
            std::env::var_os("TMPDIR")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .unwrap_or_else(|| PathBuf::from("/tmp"))
        },
        |r| r.temp_dir.path(),
    );
    for line in temp_warnings(&loaded, &temp_dir)
        .iter()
        .chain(&loaded.warnings)
    {
        writeln!(out.stdout, "{line}")?;
    }
    let cwd = std::env::current_dir()?;
    let Some(repo) = place::of_call(&cwd, &Default::default(), &[]) else {
        writeln!(out.stdout, "repository: none here")?;
        return Ok(exit_codes::SUCCESS);
    };
    let shown = repo
        .work_tree
        .clone()
        .unwrap_or_else(|| repo.git_dir.clone());
    writeln!(out.stdout, "repository: {}", shown.display())?;
    match loaded.entry_for(&repo) {
        None => unlisted(out)?,
        Some(e) => listed(e, out)?,
    }
    if let Some(f) = log::file() {
        writeln!(out.stdout, "record: {}", f.display())?;
    }
    Ok(exit_codes::SUCCESS)
}

/// Says that the scope file `file` cannot be used, and why; fails.
fn invalid(file: &Path, why: &str, out: &mut Out<'_>) -> Result<i32> {
    writeln!(out.stdout, "scope: {}", file.display())?;
    writeln!(out.stdout, "invalid: {why}")?;
    writeln!(
        out.stdout,
        "every repository: read (every write is refused until the file is fixed)"
    )?;
    writeln!(out.stdout, "{}", crate::confine::support().line())?;
    Ok(exit_codes::FAILURE)
}

/// What a repository the scope does not list allows.
fn unlisted(out: &mut Out<'_>) -> Result<()> {
    writeln!(out.stdout, "permission: read (not listed)")?;
    writeln!(
        out.stdout,
        "allowed: every read (status, diff, log, show, blame, grep, ls-remote)"
    )?;
    writeln!(
        out.stdout,
        "refused: commits, branches, tags, checkouts, resets, stashes, fetches, pushes, gh writes"
    )?;
    Ok(())
}

/// What the scope's entry `e` allows.
fn listed(e: &scope::Entry, out: &mut Out<'_>) -> Result<()> {
    writeln!(out.stdout, "listed as: {}", e.path.display())?;
    writeln!(out.stdout, "permission: {}", e.permission.name())?;
    let (allowed, refused) = match e.permission {
        scope::Permission::Read => (
            "every read".to_owned(),
            "anything that changes the repository, pushes, gh writes".to_owned(),
        ),
        scope::Permission::WriteLocal => (
            "every read and every change on this machine (commit, branch, fetch, ...)".to_owned(),
            "pushes, gh writes, anything else that leaves the machine".to_owned(),
        ),
        scope::Permission::WritePush => (
            "everything, pushes to branches that are not protected".to_owned(),
            format!(
                "pushes to {} (and --all, --mirror, --prune, patterns, pushes whose destination cannot be told, gh pr merge)",
                e.protected.join(", ")
            ),
        ),
    };
    writeln!(out.stdout, "allowed: {allowed}")?;
    writeln!(out.stdout, "refused: {refused}")?;
    Ok(())
}

/// One line per repository of the scope the kernel layer cannot hold because the temporary
/// directory, which every call may write, holds it (or lies inside it).
pub(super) fn temp_warnings(scope: &scope::Scope, temp_dir: &Path) -> Vec<String> {
    let temp = temp_dir
        .canonicalize()
        .unwrap_or_else(|_| temp_dir.to_owned());
    scope
        .entries
        .iter()
        .filter(|e| {
            let top = e
                .identity
                .work_tree
                .clone()
                .unwrap_or_else(|| e.identity.git_dir.clone());
            top.starts_with(&temp) || temp.starts_with(&top)
        })
        .map(|e| {
            format!(
                "warning: {} and the temporary directory {} overlap: the kernel layer lets every call write there (set TMPDIR elsewhere)",
                crate::paths::normal(&e.path).display(),
                temp.display()
            )
        })
        .collect()
}
