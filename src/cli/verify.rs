//! `git-prism verify` (and the options `session verify` shares): asks git whether work said to
//! be done is done ([`crate::query::verify`]'s six checks: committed, commit, pushed, merged,
//! hooks, protected). Silent on success; one `git-prism verify:` line per failure, the first
//! failing check's exit code; `--json` for drivers.

use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::{Result, bail};

use super::Out;
use crate::git::Location;
use crate::query::verify::{
    self, Check, Finding, RemoteAsk, SessionPushes, Since, Subject, VerifyQuery,
};

/// The options every form of `verify` takes.
#[derive(Debug, clap::Args)]
pub(crate) struct Checks {
    /// The commit the work is
    ///
    /// It must be HEAD or in HEAD's history (and, with --merged-into, reachable from that
    /// branch).
    #[arg(long, value_name = "REV")]
    commit: Option<OsString>,
    /// Check that the branch's commits are on its remote
    ///
    /// Asks the remote with `git ls-remote` (see --offline).
    #[arg(long)]
    pushed: bool,
    /// With --pushed: trust the remote-tracking refs
    ///
    /// Those of the last fetch or push, instead of asking the remote.
    #[arg(long, requires = "pushed")]
    offline: bool,
    /// Check that the commit is reachable from BRANCH
    ///
    /// With --pushed, also from that branch on the remote.
    #[arg(long, value_name = "BRANCH")]
    merged_into: Option<OsString>,
    /// A path no change may touch (repeatable)
    ///
    /// A directory (`dir/`) or a file.
    #[arg(long = "protected", value_name = "PATH")]
    protected: Vec<String>,
    /// Do not ask this check (repeatable)
    ///
    /// One of committed, commit, pushed, merged, hooks, protected.
    #[arg(long, value_name = "CHECK", value_parser = parse_check)]
    skip: Vec<Check>,
    /// Print every check as one JSON object
    ///
    /// Passed checks too, not only the failing ones.
    #[arg(long)]
    json: bool,
}

fn parse_check(name: &str) -> Result<Check, String> {
    Check::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Check::ALL.iter().map(|c| c.name()).collect();
        format!("no check '{name}' (checks: {})", names.join(", "))
    })
}

/// Arguments of `verify`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The commit the work started from
    ///
    /// HEAD must have moved past it. Required outside a session; within one, use `git-prism
    /// session verify`.
    #[arg(long, value_name = "REV")]
    since: OsString,
    #[command(flatten)]
    checks: Checks,
    /// The repositories to verify [default: the one here]
    #[arg(value_name = "REPO")]
    repos: Vec<PathBuf>,
}

pub(crate) fn run(args: Args, out: &mut Out<'_>) -> Result<i32> {
    let locations = if args.repos.is_empty() {
        vec![Location::current()?]
    } else {
        args.repos
            .iter()
            .map(|r| Location::at(r))
            .collect::<Result<_, _>>()?
    };
    let subjects = locations
        .into_iter()
        .map(|location| Subject {
            location,
            since: Since::Rev(args.since.clone()),
            protected_paths: args.checks.protected.clone(),
            skipped_hooks: None,
            remote_changes: Vec::new(),
            pushes: None,
        })
        .collect();
    run_checks(subjects, &args.checks, out)
}

/// Builds the query for `subjects` with `checks`, runs it and prints what failed.
pub(crate) fn run_checks(
    subjects: Vec<Subject>,
    checks: &Checks,
    out: &mut Out<'_>,
) -> Result<i32> {
    if subjects.is_empty() {
        bail!("nothing to verify: no repository");
    }
    let query = VerifyQuery {
        subjects,
        commit: checks.commit.clone(),
        pushed: checks.pushed.then_some(if checks.offline {
            RemoteAsk::Offline
        } else {
            RemoteAsk::Online
        }),
        merged_into: checks.merged_into.clone(),
        skip: checks.skip.clone(),
    };
    let findings = verify::verify(&query)?;
    print(&findings, checks.json, out)?;
    Ok(verify::exit_code(&findings))
}

/// What a session's repository with `permission` and the `protected` branches may push, for
/// the remedies of its failed checks.
pub(crate) fn session_pushes(
    permission: crate::guard::scope::Permission,
    protected: &[String],
) -> SessionPushes {
    match permission {
        crate::guard::scope::Permission::WritePush => SessionPushes::Except(protected.to_vec()),
        _ => SessionPushes::Nothing,
    }
}

/// The protected paths given on the command line (added to a session's own).
pub(crate) fn protected(checks: &Checks) -> &[String] {
    &checks.protected
}

fn print(findings: &[Finding], json: bool, out: &mut Out<'_>) -> Result<()> {
    if json {
        #[derive(serde::Serialize)]
        struct Report<'a> {
            ok: bool,
            checks: &'a [Finding],
        }
        let report = Report {
            ok: findings.iter().all(|f| f.ok),
            checks: findings,
        };
        writeln!(out.stdout, "{}", crate::json::to_string(&report)?)?;
        return Ok(());
    }
    let several = {
        let mut repos: Vec<&PathBuf> = findings.iter().map(|f| &f.repo).collect();
        repos.dedup();
        repos.len() > 1
    };
    for f in findings.iter().filter(|f| !f.ok) {
        let mut detail: String = f
            .detail
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        if let Some(remedy) = &f.remedy {
            detail = format!("{detail}; {remedy}");
        }
        if several {
            writeln!(
                out.stdout,
                "git-prism verify: {}: {}: {detail}",
                f.check.name(),
                f.repo.display()
            )?;
        } else {
            writeln!(out.stdout, "git-prism verify: {}: {detail}", f.check.name())?;
        }
    }
    Ok(())
}
