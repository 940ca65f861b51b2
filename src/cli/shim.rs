//! `git-prism shim install | status | uninstall`: the edge over [`crate::install`]. It asks on
//! the terminal before editing shell start-up files or agents' instruction files (`--yes` and
//! `--no` answer for it; without a terminal the answer is no), and reports what was changed,
//! found or removed.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::Out;
use crate::exit_codes;
use crate::install::{self, Layout, LinkState, PathPosition};
use crate::locate::ResolveError;

/// Arguments of `shim`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Link git (and gh) to this binary in a directory first on PATH
    ///
    /// Links `git` (and `gh`, when a real gh is on PATH) to this binary in a directory to put
    /// first on PATH. Asks on the terminal before adding that directory to PATH in the shell
    /// start-up files and the agent note to agents' instruction files (`--yes` and `--no`
    /// answer for it; without a terminal the answer is no).
    Install {
        /// Directory for the links
        ///
        /// Default: $GIT_PRISM_HOME/bin, else $XDG_DATA_HOME/git-prism/bin or
        /// ~/.local/share/git-prism/bin.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Replace files and symlinks git-prism did not create
        #[arg(long)]
        force: bool,
        /// Edit start-up and instruction files without asking
        ///
        /// Add the directory to PATH in the shell start-up files, and the agent note to the
        /// instruction files of the agents found.
        #[arg(long, conflicts_with = "no")]
        yes: bool,
        /// Never edit shell start-up files or agents' instruction files
        #[arg(long)]
        no: bool,
        /// Print the agent note instead of adding it to agents' files
        #[arg(long)]
        no_note: bool,
        /// Also add the done-gate's hooks to the agent harnesses
        ///
        /// `git-prism hook stop` and `hook session-start`, in the settings of the harnesses found
        /// (Claude Code, Codex, Gemini CLI).
        #[arg(long)]
        hooks: bool,
    },
    /// Check the links, the real git and whether the shim comes first
    ///
    /// Reports the links, the real git, and whether the shim is first on PATH; run it where the
    /// agent runs. Each problem is a `problem:` line, and the exit status is 1.
    Status {
        /// Directory of the links
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Print the report as JSON
        #[arg(long)]
        json: bool,
    },
    /// Remove the links, the PATH blocks, the agent note and the hooks
    ///
    /// Removes the links git-prism owns, its PATH block from shell start-up files, its note from
    /// agents' instruction files and the done-gate's hooks from the harnesses' settings, and
    /// says what stays.
    Uninstall {
        /// Directory of the links
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// Adds the done-gate's hooks to the settings of the harnesses found (with consent, asked when
/// `consent` is `None`).
fn harness_hooks(layout: &Layout, consent: Option<bool>, out: &mut Out<'_>) -> anyhow::Result<()> {
    let found: Vec<PathBuf> = install::hooks::harness_files(layout)
        .into_iter()
        .filter(|h| h.found)
        .map(|h| h.file)
        .collect();
    if found.is_empty() {
        writeln!(
            out.stdout,
            "no agent harness found (~/.claude, ~/.codex, ~/.gemini): no hooks added"
        )?;
        return Ok(());
    }
    if !agreed(
        consent,
        out,
        "Add the done-gate's hooks (git-prism hook stop, hook session-start) to",
        &found,
    )? {
        return Ok(());
    }
    let changes = install::hooks::plan_add(layout)?;
    install::hooks::apply(layout, &changes, false)?;
    let changed: Vec<PathBuf> = changes.iter().map(|c| c.file.clone()).collect();
    report_edits(
        out,
        &found,
        &changed,
        "added the hooks to",
        "hooks already in",
    )?;
    if found.iter().any(|f| {
        install::hooks::harness_files(layout)
            .iter()
            .any(|h| h.harness == install::hooks::Harness::Codex && &h.file == f)
    }) {
        writeln!(
            out.stdout,
            "Codex runs hooks it has been told to trust: run /hooks in Codex and trust git-prism's two"
        )?;
    }
    Ok(())
}

/// Adds the note to the instruction files of the agents found (with consent, asked when
/// `consent` is `None`), or prints it for the user to paste.
fn agent_note(layout: &Layout, consent: Option<bool>, out: &mut Out<'_>) -> anyhow::Result<()> {
    let found: Vec<PathBuf> = install::note::agent_files(layout)
        .into_iter()
        .filter(|a| a.found)
        .map(|a| a.file)
        .collect();
    let consent =
        !found.is_empty() && agreed(consent, out, "Add a note on what git answers to", &found)?;
    if consent {
        let changed = install::add_note(layout)?;
        report_edits(
            out,
            &found,
            &changed,
            "added the agent note to",
            "agent note already in",
        )?;
        return Ok(());
    }
    writeln!(
        out.stdout,
        "\nTell your agent: paste these lines into your project's AGENTS.md or CLAUDE.md (or run `git-prism shim install --yes` to add them to the agents' own files):\n{}",
        install::AGENT_NOTE
    )?;
    Ok(())
}

pub(crate) fn run(args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    match args.action {
        Action::Install {
            dir,
            force,
            yes,
            no,
            no_note,
            hooks,
        } => {
            let consent = match (yes, no) {
                (true, _) => Some(true),
                (_, true) => Some(false),
                _ => None,
            };
            let layout = Layout::from_env(dir)?;
            let code = install_links(&layout, force, consent, out)?;
            agent_note(&layout, if no_note { Some(false) } else { consent }, out)?;
            if hooks {
                harness_hooks(&layout, consent, out)?;
            }
            Ok(code)
        }
        Action::Status { dir, json } => status(&Layout::from_env(dir)?, json, out),
        Action::Uninstall { dir } => uninstall(&Layout::from_env(dir)?, out),
    }
}

/// `shim install`: links, then (with consent, asked when `consent` is `None`) the PATH block.
fn install_links(
    layout: &Layout,
    force: bool,
    consent: Option<bool>,
    out: &mut Out<'_>,
) -> anyhow::Result<i32> {
    let report = install::install(layout, force)?;
    for name in &report.linked {
        writeln!(
            out.stdout,
            "linked {} -> {}",
            report.bin_dir.join(name).display(),
            layout.exe.display()
        )?;
    }
    for name in &report.unchanged {
        writeln!(
            out.stdout,
            "already linked: {}",
            report.bin_dir.join(name).display()
        )?;
    }
    match &report.gh {
        install::GhLink::Real { path } => {
            writeln!(
                out.stdout,
                "gh: calls reach the real gh at {}",
                path.display()
            )?;
        }
        install::GhLink::Absent { removed } => {
            if let Some(link) = removed {
                writeln!(
                    out.stdout,
                    "removed {}: no real gh is on PATH, so every gh call through it would fail",
                    link.display()
                )?;
            }
            writeln!(
                out.stdout,
                "gh not linked: no gh on PATH (install gh, then run `git-prism shim install` again to answer `gh pr diff`)"
            )?;
        }
    }
    if report.path_position == PathPosition::First {
        writeln!(out.stdout, "{} is first on PATH", report.bin_dir.display())?;
        return Ok(exit_codes::SUCCESS);
    }
    let files = install::rc::files_for(layout);
    let question = format!(
        "{} is not first on PATH. Add it to the front of PATH in",
        report.bin_dir.display()
    );
    if agreed(consent, out, &question, &files)? {
        let changed = install::add_to_path(layout)?;
        report_edits(
            out,
            &files,
            &changed,
            "added PATH block to",
            "PATH block already in",
        )?;
        writeln!(
            out.stdout,
            "restart your shell and your agent: agents read PATH once, when they start"
        )?;
    } else {
        writeln!(
            out.stdout,
            "PATH not changed; to use the shim, put {} first on PATH, for example:\n  export PATH=\"{}:$PATH\"\nthen restart your agent (agents read PATH once, when they start)",
            report.bin_dir.display(),
            report.bin_dir.display()
        )?;
    }
    Ok(exit_codes::SUCCESS)
}

/// `shim status`: the report, as text or JSON; failure when anything keeps the shim from
/// working.
fn status(layout: &Layout, json: bool, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let status = install::status(layout);
    let problems = status.problems();
    if json {
        let doc = StatusDoc {
            bin_dir: &status.bin_dir,
            hook_files: &status.hook_files,
            links: status
                .links
                .iter()
                .map(|(name, state)| LinkDoc {
                    link: state,
                    name,
                    path: status.bin_dir.join(name),
                })
                .collect(),
            ok: problems.is_empty(),
            path_position: status.path_position,
            note_files: &status.note_files,
            problems: &problems,
            rc_files: &status.rc_files,
            real_gh: status.real_gh.as_ref().ok(),
            real_git: status.real_git.as_ref().ok(),
            version: crate::version::VERSION,
        };
        writeln!(out.stdout, "{}", crate::json::to_string(&doc)?)?;
    } else {
        write_status(&status, &problems, out)?;
    }
    Ok(if problems.is_empty() {
        exit_codes::SUCCESS
    } else {
        exit_codes::FAILURE
    })
}

/// The status report for people.
fn write_status(
    status: &install::Status,
    problems: &[String],
    out: &mut Out<'_>,
) -> std::io::Result<()> {
    writeln!(
        out.stdout,
        "git-prism: {} ({})",
        crate::version::VERSION,
        std::env::current_exe()
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    )?;
    writeln!(out.stdout, "shim directory: {}", status.bin_dir.display())?;
    for (name, state) in &status.links {
        let shown = match state {
            LinkState::Installed => "installed (links to this binary)".to_owned(),
            LinkState::Missing => "missing".to_owned(),
            LinkState::Stale { target } => format!(
                "stale: links to {target}, not to this binary (`git-prism shim install` from the binary the shim should run relinks it)"
            ),
            LinkState::Broken { target } => format!("broken (links to {target})"),
            LinkState::Foreign { what } => format!("foreign ({what})"),
        };
        writeln!(out.stdout, "  {name}: {shown}")?;
    }
    let shown = |r: &Result<PathBuf, ResolveError>| match r {
        Ok(p) => p.display().to_string(),
        Err(e) => format!("not found ({e})"),
    };
    writeln!(out.stdout, "real git: {}", shown(&status.real_git))?;
    writeln!(out.stdout, "real gh: {}", shown(&status.real_gh))?;
    let position = match status.path_position {
        PathPosition::First => "first",
        PathPosition::Shadowed => "shadowed by an earlier git or gh",
        PathPosition::Absent => "absent",
    };
    writeln!(out.stdout, "on PATH: {position}")?;
    for file in &status.rc_files {
        writeln!(out.stdout, "PATH block in: {}", file.display())?;
    }
    for file in &status.note_files {
        writeln!(out.stdout, "agent note in: {}", file.display())?;
    }
    if status.note_files.is_empty() {
        writeln!(
            out.stdout,
            "agent note: in no agent's instruction file (`git-prism shim install --yes` adds it)"
        )?;
    }
    for file in &status.hook_files {
        writeln!(out.stdout, "done-gate hooks in: {}", file.display())?;
    }
    if status.hook_files.is_empty() {
        writeln!(
            out.stdout,
            "done-gate hooks: in no agent harness's settings (`git-prism shim install --hooks` adds them)"
        )?;
    }
    if problems.is_empty() {
        writeln!(out.stdout, "status: ok")?;
    } else {
        for p in problems {
            writeln!(out.stdout, "problem: {p}")?;
        }
    }
    Ok(())
}

/// `shim status --json` (fields in alphabetical order, as the output has always had them).
#[derive(Serialize)]
struct StatusDoc<'a> {
    bin_dir: &'a Path,
    hook_files: &'a [PathBuf],
    links: Vec<LinkDoc<'a>>,
    note_files: &'a [PathBuf],
    ok: bool,
    path_position: PathPosition,
    problems: &'a [String],
    rc_files: &'a [PathBuf],
    real_gh: Option<&'a PathBuf>,
    real_git: Option<&'a PathBuf>,
    version: &'a str,
}

/// One link of `shim status --json`.
#[derive(Serialize)]
struct LinkDoc<'a> {
    link: &'a LinkState,
    name: &'a str,
    path: PathBuf,
}

/// `shim uninstall`.
fn uninstall(layout: &Layout, out: &mut Out<'_>) -> anyhow::Result<i32> {
    let report = install::uninstall(layout)?;
    for p in &report.removed {
        writeln!(out.stdout, "removed {}", p.display())?;
    }
    for p in &report.kept {
        writeln!(
            out.stdout,
            "kept {} (not created by git-prism)",
            p.display()
        )?;
    }
    for p in &report.rc_cleaned {
        writeln!(out.stdout, "removed PATH block from {}", p.display())?;
    }
    for p in &report.notes_removed {
        writeln!(out.stdout, "removed the agent note from {}", p.display())?;
    }
    let hook_changes = install::hooks::plan_remove(layout)?;
    install::hooks::apply(layout, &hook_changes, true)?;
    for c in &hook_changes {
        writeln!(
            out.stdout,
            "removed the done-gate's hooks from {}",
            c.file.display()
        )?;
    }
    for dir in &report.dirs_removed {
        writeln!(out.stdout, "removed the empty directory {}", dir.display())?;
    }
    if report.removed.is_empty()
        && report.rc_cleaned.is_empty()
        && report.notes_removed.is_empty()
        && hook_changes.is_empty()
        && report.dirs_removed.is_empty()
    {
        writeln!(out.stdout, "nothing to remove")?;
    }
    // What stays: the binary itself, a directory something else lives in, the analysis cache
    // and the guard's record (never removed here: the cache may be shared with another
    // install, the record is the person's).
    writeln!(
        out.stdout,
        "the binary stays at {}: remove it to finish",
        layout.exe.display()
    )?;
    for dir in &report.dirs_kept {
        writeln!(
            out.stdout,
            "the directory {} stays: it holds files git-prism did not create",
            dir.display()
        )?;
    }
    if let Some(root) = crate::lang::cache::root().ok().filter(|r| r.exists()) {
        writeln!(
            out.stdout,
            "the analysis cache stays in {}: `rm -rf {}` removes it",
            root.display(),
            crate::shell::quote(root.as_os_str())
        )?;
    }
    if let Some(dir) = crate::guard::log::dir().filter(|d| d.exists()) {
        writeln!(
            out.stdout,
            "the session guard's record stays in {}",
            dir.display()
        )?;
    }
    Ok(exit_codes::SUCCESS)
}

/// The consent given (`--yes`/`--no`), or asked on the terminal: `question` and the files.
fn agreed(
    consent: Option<bool>,
    out: &mut Out<'_>,
    question: &str,
    files: &[PathBuf],
) -> anyhow::Result<bool> {
    match consent {
        Some(given) => Ok(given),
        None => {
            let listed: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            ask(out, &format!("{question} {}?", listed.join(" and ")))
        }
    }
}

/// Says, per file, whether an edit changed it (`changed`) or found its block already there.
fn report_edits(
    out: &mut Out<'_>,
    files: &[PathBuf],
    changed: &[PathBuf],
    added: &str,
    already: &str,
) -> std::io::Result<()> {
    for file in files {
        let verb = if changed.contains(file) {
            added
        } else {
            already
        };
        writeln!(out.stdout, "{verb} {}", file.display())?;
    }
    Ok(())
}

/// Asks a yes/no `question` on the terminal; no terminal means no.
fn ask(out: &mut Out<'_>, question: &str) -> anyhow::Result<bool> {
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Ok(false);
    }
    write!(out.stderr, "{question} [y/N] ")?;
    out.stderr.flush()?;
    let mut answer = String::new();
    stdin.read_line(&mut answer)?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes" | "Yes" | "YES"))
}
