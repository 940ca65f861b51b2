//! `git-prism shim install | status | uninstall`.

use std::io::IsTerminal;
use std::path::PathBuf;

use super::Out;
use crate::exit_codes;
use crate::install::{self, Layout, LinkState, PathPosition};

/// Arguments of `shim`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Link `git` and `gh` to this binary in a directory to put first on PATH
    Install {
        /// Directory for the links [default: $GIT_PRISM_HOME/bin or ~/.local/share/git-prism/bin]
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Replace files and symlinks git-prism did not create
        #[arg(long)]
        force: bool,
        /// Add the directory to PATH in the shell start-up files without asking
        #[arg(long, conflicts_with = "no")]
        yes: bool,
        /// Never edit shell start-up files
        #[arg(long)]
        no: bool,
    },
    /// Report the links, the real git, and whether the shim is first on PATH
    Status {
        /// Directory of the links
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Print the report as JSON
        #[arg(long)]
        json: bool,
    },
    /// Remove the links git-prism owns and its PATH block from shell start-up files
    Uninstall {
        /// Directory of the links
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// Prints the note to paste into a project's `AGENTS.md` / `CLAUDE.md`.
fn agent_note(out: &mut Out<'_>) -> anyhow::Result<()> {
    writeln!(
        out.stdout,
        "\nTell your agent: paste these lines into your project's AGENTS.md or CLAUDE.md:\n{}",
        install::AGENT_NOTE
    )?;
    Ok(())
}

pub fn run(args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    match args.action {
        Action::Install {
            dir,
            force,
            yes,
            no,
        } => {
            let layout = Layout::from_env(dir)?;
            let report = install::install(&layout, force)?;
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
            if report.path_position == PathPosition::First {
                writeln!(out.stdout, "{} is first on PATH", report.bin_dir.display())?;
                agent_note(out)?;
                return Ok(exit_codes::SUCCESS);
            }
            let files = install::rc::files_for(&layout);
            let consent = if yes {
                true
            } else if no {
                false
            } else {
                ask(out, &report.bin_dir, &files)?
            };
            if consent {
                let changed = install::add_to_path(&layout)?;
                for file in &files {
                    let verb = if changed.contains(file) {
                        "added PATH block to"
                    } else {
                        "PATH block already in"
                    };
                    writeln!(out.stdout, "{verb} {}", file.display())?;
                }
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
            agent_note(out)?;
            Ok(exit_codes::SUCCESS)
        }
        Action::Status { dir, json } => {
            let layout = Layout::from_env(dir)?;
            let status = install::status(&layout);
            let problems = status.problems();
            if json {
                let value = serde_json::json!({
                    "bin_dir": status.bin_dir,
                    "links": status.links.iter().map(|(name, state)| {
                        serde_json::json!({"name": name, "path": status.bin_dir.join(name), "link": state})
                    }).collect::<Vec<_>>(),
                    "real_git": status.real_git.as_ref().ok(),
                    "real_gh": status.real_gh.as_ref().ok(),
                    "path_position": status.path_position,
                    "rc_files": status.rc_files,
                    "problems": problems,
                    "ok": problems.is_empty(),
                });
                writeln!(out.stdout, "{value}")?;
            } else {
                writeln!(out.stdout, "shim directory: {}", status.bin_dir.display())?;
                for (name, state) in &status.links {
                    let shown = match state {
                        LinkState::Installed => "installed".to_owned(),
                        LinkState::Missing => "missing".to_owned(),
                        LinkState::Stale { target } => format!("stale (links to {target})"),
                        LinkState::Broken { target } => format!("broken (links to {target})"),
                        LinkState::Foreign { what } => format!("foreign ({what})"),
                    };
                    writeln!(out.stdout, "  {name}: {shown}")?;
                }
                let shown = |r: &Result<PathBuf, String>| match r {
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
                if problems.is_empty() {
                    writeln!(out.stdout, "status: ok")?;
                } else {
                    for p in &problems {
                        writeln!(out.stdout, "problem: {p}")?;
                    }
                }
            }
            Ok(if problems.is_empty() {
                exit_codes::SUCCESS
            } else {
                exit_codes::FAILURE
            })
        }
        Action::Uninstall { dir } => {
            let layout = Layout::from_env(dir)?;
            let report = install::uninstall(&layout)?;
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
            if report.removed.is_empty() && report.rc_cleaned.is_empty() {
                writeln!(out.stdout, "nothing to remove")?;
            }
            Ok(exit_codes::SUCCESS)
        }
    }
}

/// Asks on the terminal whether to edit the start-up files; no terminal means no.
fn ask(out: &mut Out<'_>, dir: &std::path::Path, files: &[PathBuf]) -> anyhow::Result<bool> {
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Ok(false);
    }
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    write!(
        out.stderr,
        "{} is not first on PATH. Add it to the front of PATH in {}? [y/N] ",
        dir.display(),
        names.join(" and ")
    )?;
    out.stderr.flush()?;
    let mut answer = String::new();
    stdin.read_line(&mut answer)?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes" | "Yes" | "YES"))
}
