//! `git-prism session log`: the guard's record, of every session or one, as lines or JSON.

use anyhow::{Context, Result};

use super::super::Out;
use super::session_dir;
use crate::exit_codes;
use crate::guard::{log, session};

/// Prints the guard's record (of one session, when one is named).
pub(super) fn show_log(
    session_id: Option<&str>,
    json: bool,
    last: Option<usize>,
    out: &mut Out<'_>,
) -> Result<i32> {
    let id = match session_id {
        Some(id) => Some(
            session::load(&session_dir(id)?.join(session::SCOPE_FILE))?
                .context("the session's record cannot be read")?
                .id,
        ),
        None => None,
    };
    let records: Vec<log::Entry> = log::read()
        .into_iter()
        .filter(|r| id.is_none() || r.session == id)
        .collect();
    let skip = last.map_or(0, |n| records.len().saturating_sub(n));
    if records.is_empty() && !json {
        writeln!(
            out.stdout,
            "no records yet ({})",
            log::file().map_or_else(
                || "no state directory".to_owned(),
                |f| f.display().to_string()
            )
        )?;
    }
    for r in &records[skip..] {
        if json {
            writeln!(out.stdout, "{}", crate::json::to_string(r)?)?;
        } else {
            writeln!(
                out.stdout,
                "{}  {:<7}  {}  [{}]  {}  — {}",
                r.time,
                r.decision,
                r.repo.as_deref().unwrap_or("-"),
                r.permission,
                r.command,
                r.rule
            )?;
            if let Some(effect) = &r.effect {
                writeln!(out.stdout, "    {}", effect_text(effect))?;
            }
        }
    }
    Ok(exit_codes::SUCCESS)
}

/// What a write did, on one line: the exit, HEAD's move, what a push sent, skipped hooks and
/// what git did not do.
fn effect_text(e: &crate::guard::observe::Observed) -> String {
    let short = |o: &Option<String>| {
        o.as_deref()
            .map_or_else(|| "nothing".to_owned(), |o| o.chars().take(12).collect())
    };
    let mut parts = vec![match (e.exit, e.signal) {
        (Some(code), _) => format!("exit {code}"),
        (None, Some(sig)) => format!("signal {sig}"),
        (None, None) => "ended".to_owned(),
    }];
    if e.head_before != e.head_after {
        parts.push(format!(
            "HEAD {} -> {}",
            short(&e.head_before),
            short(&e.head_after)
        ));
    } else if e.head_before.is_some() {
        parts.push(format!("HEAD unchanged at {}", short(&e.head_before)));
    }
    for p in &e.pushed {
        if p.before == p.after {
            parts.push(format!("{}: not updated", p.branch));
        } else {
            parts.push(format!(
                "{}: {} -> {}",
                p.branch,
                short(&p.before),
                short(&p.after)
            ));
        }
    }
    if let Some(how) = &e.hooks_skipped {
        parts.push(format!("hooks skipped ({how})"));
    }
    if let Some(note) = &e.note {
        parts.push(note.clone());
    }
    parts.join("; ")
}
