//! `git-prism shim install | status | uninstall`: the links, the shell start-up blocks
//! ([`rc`]) and the note that tells agents what their git now answers ([`note`]), each block
//! written and removed by [`block`].
//!
//! Invariants:
//! - Every name is validated before any is changed: a foreign file or a user's own symlink
//!   is refused (without `force`), a directory always is (it is never deleted), and nothing
//!   is touched when anything is refused.
//! - Install is idempotent: links that already point at this binary are left alone, and the
//!   start-up block is written once per file, between fixed markers, whatever the number of
//!   runs.
//! - Uninstall removes only what install creates: symlinks to a `git-prism` binary (or
//!   hardlinks of this one) and the marked blocks, start-up and note alike ([`block`] says when
//!   a block counts as one). Every file is checked before anything is removed.
//! - Nothing here prints or prompts; the CLI asks for consent and reports.

pub mod block;
pub mod hooks;
pub mod note;
pub mod rc;

pub use note::NOTE as AGENT_NOTE;

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::locate::{self, FileId, ResolveError};

/// The names linked to the binary.
pub const NAMES: [&str; 2] = ["git", "gh"];

/// The error returned by [`install`] and [`uninstall`].
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// Some names are taken by files git-prism does not own.
    #[error("refusing to replace files git-prism does not own (use --force to replace them):\n{}", .0.join("\n"))]
    Foreign(Vec<String>),
    /// Some names are taken by directories, which are never replaced.
    #[error("refusing to replace directories, even with --force (git-prism never deletes a directory; move it away first):\n{}", .0.join("\n"))]
    Directories(Vec<String>),
    /// A start-up file has a block that starts but never ends.
    #[error("'{}' has a git-prism block starting at line {line} without its end line ('{end}'); nothing was changed: complete or remove the block by hand", path.display())]
    UnterminatedBlock {
        /// The file.
        path: PathBuf,
        /// The line of the BEGIN marker (1-based).
        line: usize,
        /// The END marker it lacks.
        end: &'static str,
    },
    /// A start-up file has a block that is not exactly what install wrote.
    #[error("the git-prism block at line {line} of '{}' was edited; nothing was changed: remove the block by hand", path.display())]
    EditedBlock {
        /// The start-up file.
        path: PathBuf,
        /// The line of the BEGIN marker (1-based).
        line: usize,
    },
    /// A filesystem operation failed.
    #[error("cannot {action} '{}'", path.display())]
    Io {
        /// What was being done.
        action: &'static str,
        /// The path involved.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The home directory is unknown.
    #[error("cannot find the home directory: set HOME or pass --dir")]
    NoHome,
}

fn io_err<'a>(action: &'static str, path: &'a Path) -> impl FnOnce(io::Error) -> InstallError + 'a {
    move |source| InstallError::Io {
        action,
        path: path.to_owned(),
        source,
    }
}

/// Where things live, resolved from flags and the environment.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The directory holding the `git` and `gh` links.
    pub bin_dir: PathBuf,
    /// git-prism's data directory when the links are in its `bin` (no `--dir`): uninstall
    /// removes it too once nothing is left in it.
    pub data_dir: Option<PathBuf>,
    /// The running git-prism binary (canonical path).
    pub exe: PathBuf,
    /// The user's home directory (for start-up files).
    pub home: PathBuf,
    /// The login shell (`$SHELL`).
    pub shell: rc::Shell,
    /// `$ZDOTDIR`, where zsh reads its start-up files.
    pub zdotdir: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME`.
    pub config_home: Option<PathBuf>,
    /// `$CLAUDE_CONFIG_DIR`, where Claude Code keeps its user-level files.
    pub claude_home: Option<PathBuf>,
    /// `$CODEX_HOME`, where Codex keeps its user-level files.
    pub codex_home: Option<PathBuf>,
    /// The `PATH` to judge "first on PATH" by.
    pub path_var: Option<OsString>,
}

impl Layout {
    /// Resolves the layout from the process environment; `dir` overrides the link directory.
    pub fn from_env(dir: Option<PathBuf>) -> Result<Layout, InstallError> {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        let home = var("HOME").map(PathBuf::from).ok_or(InstallError::NoHome)?;
        let (bin_dir, own_dir) = match dir {
            Some(dir) => (absolute(dir)?, None),
            None => {
                let data = data_dir(&home, var("GIT_PRISM_HOME"), var("XDG_DATA_HOME"));
                (data.join("bin"), Some(data))
            }
        };
        let exe = std::env::current_exe()
            .and_then(|p| p.canonicalize())
            .map_err(io_err("locate", Path::new("the running binary")))?;
        Ok(Layout {
            bin_dir,
            data_dir: own_dir,
            exe,
            home,
            shell: rc::Shell::from_var(var("SHELL").as_deref()),
            zdotdir: var("ZDOTDIR").map(PathBuf::from),
            config_home: var("XDG_CONFIG_HOME").map(PathBuf::from),
            claude_home: var("CLAUDE_CONFIG_DIR").map(PathBuf::from),
            codex_home: var("CODEX_HOME").map(PathBuf::from),
            path_var: std::env::var_os("PATH"),
        })
    }
}

fn absolute(dir: PathBuf) -> Result<PathBuf, InstallError> {
    if dir.is_absolute() {
        return Ok(dir);
    }
    let cwd = std::env::current_dir().map_err(io_err("read", Path::new(".")))?;
    Ok(cwd.join(dir))
}

/// Returns git-prism's data directory: `$GIT_PRISM_HOME`, else `$XDG_DATA_HOME/git-prism`,
/// else `~/.local/share/git-prism`.
pub fn data_dir(home: &Path, gp_home: Option<OsString>, xdg_data: Option<OsString>) -> PathBuf {
    if let Some(dir) = gp_home {
        return PathBuf::from(dir);
    }
    match xdg_data.map(PathBuf::from).filter(|p| p.is_absolute()) {
        Some(xdg) => xdg.join("git-prism"),
        None => home.join(".local/share/git-prism"),
    }
}

/// What occupies one link name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum LinkState {
    /// A link to this binary.
    Installed,
    /// Nothing there.
    Missing,
    /// A link to another git-prism binary (an older install): ours to replace.
    Stale {
        /// Where it points.
        target: String,
    },
    /// A git-prism link whose target no longer exists.
    Broken {
        /// Where it points.
        target: String,
    },
    /// Something git-prism did not create.
    Foreign {
        /// What it is.
        what: String,
    },
}

impl LinkState {
    /// Returns whether git-prism owns what is there (and may replace or remove it).
    pub fn owned(&self) -> bool {
        matches!(
            self,
            LinkState::Installed | LinkState::Stale { .. } | LinkState::Broken { .. }
        )
    }
}

/// Inspects `path` as a link to `exe`.
pub fn inspect(path: &Path, exe: &Path) -> LinkState {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return LinkState::Missing;
    };
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(path).unwrap_or_default();
        let shown = target.display().to_string();
        let names_git_prism = target.file_name().is_some_and(|n| n == "git-prism");
        return match path.canonicalize() {
            Ok(real) if real == exe => LinkState::Installed,
            Ok(real) if same_file(&real, exe) => LinkState::Installed,
            Ok(_) if names_git_prism => LinkState::Stale { target: shown },
            Ok(_) => LinkState::Foreign {
                what: format!("a symlink to {shown}"),
            },
            Err(_) if names_git_prism => LinkState::Broken { target: shown },
            Err(_) => LinkState::Foreign {
                what: format!("a dangling symlink to {shown}"),
            },
        };
    }
    if meta.is_file() && same_file(path, exe) {
        return LinkState::Installed;
    }
    let what = if meta.is_dir() {
        "a directory"
    } else {
        "a file"
    };
    LinkState::Foreign { what: what.into() }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (FileId::of(a), FileId::of(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// Where the link directory stands on PATH.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PathPosition {
    /// No directory before it provides `git` or `gh`: the shim is what runs.
    First,
    /// On PATH, but a directory before it provides `git` or `gh`.
    Shadowed,
    /// Not on PATH.
    Absent,
}

/// Returns where `dir` stands on `path_var`.
pub fn path_position(dir: &Path, path_var: Option<&std::ffi::OsStr>) -> PathPosition {
    let Some(path_var) = path_var else {
        return PathPosition::Absent;
    };
    let dir_id = FileId::of(dir);
    let mut shadowed = false;
    for entry in std::env::split_paths(path_var) {
        if entry.as_os_str().is_empty() || !entry.is_absolute() {
            continue;
        }
        if entry == dir || (dir_id.is_some() && FileId::of(&entry) == dir_id) {
            return if shadowed {
                PathPosition::Shadowed
            } else {
                PathPosition::First
            };
        }
        if NAMES.iter().any(|n| entry.join(n).is_file()) {
            shadowed = true;
        }
    }
    PathPosition::Absent
}

/// What [`install`] did about `gh`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "gh", rename_all = "snake_case")]
pub enum GhLink {
    /// A real `gh` is on PATH: the link is made (or was there), and calls reach it.
    Real {
        /// Where the real `gh` is.
        path: PathBuf,
    },
    /// No real `gh` is on PATH: no link, since one would make `command -v gh` succeed and every
    /// call fail; a link of an earlier install is removed.
    Absent {
        /// The link removed, if there was one of git-prism's.
        removed: Option<PathBuf>,
    },
}

/// What [`install`] did.
#[derive(Debug, Serialize)]
pub struct InstallReport {
    /// The link directory.
    pub bin_dir: PathBuf,
    /// Whether `gh` is linked, and why.
    pub gh: GhLink,
    /// Names that were created or replaced.
    pub linked: Vec<String>,
    /// Names that already pointed at this binary.
    pub unchanged: Vec<String>,
    /// Where the directory stands on the current PATH.
    pub path_position: PathPosition,
}

/// Where the real `gh` is on the layout's PATH (git-prism's own links skipped).
fn real_gh(layout: &Layout) -> Result<PathBuf, ResolveError> {
    locate::resolve(locate::Inputs {
        tool: locate::Program::Gh,
        path_var: layout.path_var.as_deref(),
        pinned: None,
        self_id: FileId::of(&layout.exe),
    })
}

/// Links `git` in the layout's directory to the running binary, and `gh` when a real `gh` is on
/// PATH (issue 36: a `gh` link without one made every `gh` call exit 127); an earlier install's
/// `gh` link is removed when no real `gh` is left.
pub fn install(layout: &Layout, force: bool) -> Result<InstallReport, InstallError> {
    let real_gh = real_gh(layout).ok();
    let names: Vec<&str> = NAMES
        .iter()
        .copied()
        .filter(|n| *n != "gh" || real_gh.is_some())
        .collect();
    let states: Vec<(&str, LinkState)> = names
        .iter()
        .map(|n| (*n, inspect(&layout.bin_dir.join(n), &layout.exe)))
        .collect();
    let directories: Vec<String> = names
        .iter()
        .map(|n| layout.bin_dir.join(n))
        .filter(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()))
        .map(|p| format!("  {}", p.display()))
        .collect();
    if !directories.is_empty() {
        return Err(InstallError::Directories(directories));
    }
    let refused: Vec<String> = states
        .iter()
        .filter_map(|(name, state)| match state {
            LinkState::Foreign { what } if !force => {
                Some(format!("  {}: {what}", layout.bin_dir.join(name).display()))
            }
            _ => None,
        })
        .collect();
    if !refused.is_empty() {
        return Err(InstallError::Foreign(refused));
    }
    std::fs::create_dir_all(&layout.bin_dir).map_err(io_err("create", &layout.bin_dir))?;
    let mut report = InstallReport {
        bin_dir: layout.bin_dir.clone(),
        gh: GhLink::Absent { removed: None },
        linked: Vec::new(),
        unchanged: Vec::new(),
        path_position: PathPosition::Absent,
    };
    for (name, state) in states {
        if state == LinkState::Installed {
            report.unchanged.push(name.to_owned());
            continue;
        }
        let link = layout.bin_dir.join(name);
        replace_with_symlink(&layout.exe, &link)?;
        report.linked.push(name.to_owned());
    }
    report.gh = match real_gh {
        Some(path) => GhLink::Real { path },
        None => {
            let link = layout.bin_dir.join("gh");
            let removed = if inspect(&link, &layout.exe).owned() {
                std::fs::remove_file(&link).map_err(io_err("remove", &link))?;
                Some(link)
            } else {
                None
            };
            GhLink::Absent { removed }
        }
    };
    report.path_position = path_position(&layout.bin_dir, layout.path_var.as_deref());
    Ok(report)
}

/// Creates `link -> target`, replacing whatever is at `link` atomically.
fn replace_with_symlink(target: &Path, link: &Path) -> Result<(), InstallError> {
    let mut tmp_name = link.as_os_str().to_owned();
    tmp_name.push(format!(".git-prism-tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp_name);
    let _ = std::fs::remove_file(&tmp);
    std::os::unix::fs::symlink(target, &tmp).map_err(io_err("create", &tmp))?;
    std::fs::rename(&tmp, link).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io_err("replace", link)(e)
    })
}

/// The state of an installation, for `status`.
#[derive(Debug)]
pub struct Status {
    /// The link directory.
    pub bin_dir: PathBuf,
    /// Each name and its state.
    pub links: Vec<(String, LinkState)>,
    /// Where the real git resolves (skipping git-prism), or why it does not.
    pub real_git: Result<PathBuf, ResolveError>,
    /// Where the real gh resolves, or why it does not (gh is optional).
    pub real_gh: Result<PathBuf, ResolveError>,
    /// Where the directory stands on PATH.
    pub path_position: PathPosition,
    /// Start-up files that carry git-prism's block.
    pub rc_files: Vec<PathBuf>,
    /// Agents' instruction files that hold the note.
    pub note_files: Vec<PathBuf>,
    /// Agent harnesses' settings that hold the done-gate's hooks.
    pub hook_files: Vec<PathBuf>,
}

impl Status {
    /// Returns the problems that keep the shim from working; empty means healthy.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let no_gh = self.real_gh.is_err();
        for (name, state) in &self.links {
            match state {
                // Without a real gh there is nothing for a gh link to answer for.
                LinkState::Missing if name == "gh" && no_gh => {}
                state if name == "gh" && no_gh && state.owned() => problems.push(
                    "`gh` is linked but no real gh is on PATH: every gh call fails (`git-prism shim install` removes the link)".to_owned(),
                ),
                LinkState::Installed => {}
                LinkState::Missing => problems.push(format!("`{name}` is not linked")),
                LinkState::Stale { target } => {
                    problems.push(format!("`{name}` links to another git-prism ({target})"));
                }
                LinkState::Broken { target } => {
                    problems.push(format!("`{name}` is a broken link to {target}"));
                }
                LinkState::Foreign { what } => {
                    problems.push(format!("`{name}` is {what}, not git-prism"));
                }
            }
        }
        if let Err(e) = &self.real_git {
            problems.push(crate::text::chain(e));
        }
        match self.path_position {
            PathPosition::First => {}
            PathPosition::Shadowed => problems.push(format!(
                "{} is on PATH after another directory with git or gh",
                self.bin_dir.display()
            )),
            PathPosition::Absent => problems.push(format!(
                "{} is not on PATH (restart the shell or agent after install)",
                self.bin_dir.display()
            )),
        }
        problems
    }
}

/// Inspects the installation described by `layout`.
pub fn status(layout: &Layout) -> Status {
    let links = NAMES
        .iter()
        .map(|n| (n.to_string(), inspect(&layout.bin_dir.join(n), &layout.exe)))
        .collect();
    let self_id = FileId::of(&layout.exe);
    let real = |tool: locate::Program| {
        locate::resolve(locate::Inputs {
            tool,
            path_var: layout.path_var.as_deref(),
            pinned: None,
            self_id,
        })
    };
    Status {
        bin_dir: layout.bin_dir.clone(),
        links,
        real_git: real(locate::Program::Git),
        real_gh: real(locate::Program::Gh),
        path_position: path_position(&layout.bin_dir, layout.path_var.as_deref()),
        rc_files: rc::all_files(layout)
            .into_iter()
            .filter(|f| rc::has_block(f))
            .collect(),
        note_files: note::files_with_note(layout),
        hook_files: hooks::files_with_hooks(layout)
            .into_iter()
            .map(|(_, f)| f)
            .collect(),
    }
}

/// What [`uninstall`] did.
#[derive(Debug, Serialize)]
pub struct UninstallReport {
    /// Links removed.
    pub removed: Vec<PathBuf>,
    /// Names left alone because git-prism does not own them.
    pub kept: Vec<PathBuf>,
    /// Start-up files whose block was removed.
    pub rc_cleaned: Vec<PathBuf>,
    /// Agents' instruction files whose note was removed.
    pub notes_removed: Vec<PathBuf>,
    /// The link directory and the data directory, removed because nothing else was in them.
    pub dirs_removed: Vec<PathBuf>,
    /// The link directory or the data directory, kept because something else is in it.
    pub dirs_kept: Vec<PathBuf>,
}

/// Removes the links git-prism owns and its start-up blocks.
pub fn uninstall(layout: &Layout) -> Result<UninstallReport, InstallError> {
    let mut report = UninstallReport {
        removed: Vec::new(),
        kept: Vec::new(),
        rc_cleaned: Vec::new(),
        notes_removed: Vec::new(),
        dirs_removed: Vec::new(),
        dirs_kept: Vec::new(),
    };
    // Every start-up file and agent file is checked before anything is removed: a broken
    // block stops the whole uninstall, links included.
    let mut edits = Vec::new();
    for file in rc::all_files(layout) {
        if let Some(edit) = rc::plan_remove(&file)? {
            edits.push(edit);
        }
    }
    let notes = note::plan_remove(layout)?;
    for name in NAMES {
        let link = layout.bin_dir.join(name);
        match inspect(&link, &layout.exe) {
            LinkState::Missing => {}
            state if state.owned() => {
                std::fs::remove_file(&link).map_err(io_err("remove", &link))?;
                report.removed.push(link);
            }
            _ => report.kept.push(link),
        }
    }
    // The directories go once they are empty (`remove_dir` removes nothing else); one that
    // still holds something is reported, so that nothing is left without a word.
    for dir in std::iter::once(&layout.bin_dir).chain(&layout.data_dir) {
        match std::fs::remove_dir(dir) {
            Ok(()) => report.dirs_removed.push(dir.clone()),
            Err(_) if std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) => {
                report.dirs_kept.push(dir.clone());
            }
            Err(_) => {}
        }
    }
    for edit in edits {
        edit.apply()?;
        report.rc_cleaned.push(edit.file);
    }
    for edit in notes {
        edit.apply()?;
        report.notes_removed.push(edit.file);
    }
    Ok(report)
}

/// Adds the agent note to the instruction file of every agent found; returns the files
/// changed. Every file is checked before any is written.
pub fn add_note(layout: &Layout) -> Result<Vec<PathBuf>, InstallError> {
    let edits = note::plan_add(layout)?;
    let mut changed = Vec::new();
    for edit in edits {
        edit.apply()?;
        changed.push(edit.file);
    }
    Ok(changed)
}

/// Adds the PATH block to the start-up files of the layout's shell; returns the files changed.
pub fn add_to_path(layout: &Layout) -> Result<Vec<PathBuf>, InstallError> {
    // Planned for every file before any is written: one unreadable or broken file leaves all
    // of them as they were.
    let mut edits = Vec::new();
    for file in rc::files_for(layout) {
        if let Some(edit) = rc::plan_add(&file, &layout.bin_dir, rc::Shell::for_file(&file))? {
            edits.push(edit);
        }
    }
    let mut changed = Vec::new();
    for edit in edits {
        edit.apply()?;
        changed.push(edit.file);
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(tmp: &Path) -> Layout {
        let exe = tmp.join("opt/git-prism");
        std::fs::create_dir_all(exe.parent().unwrap()).unwrap();
        std::fs::write(&exe, "binary").unwrap();
        Layout {
            bin_dir: tmp.join("bin"),
            data_dir: None,
            exe: exe.canonicalize().unwrap(),
            home: tmp.join("home"),
            shell: rc::Shell::Bash,
            zdotdir: None,
            config_home: None,
            claude_home: None,
            codex_home: None,
            path_var: Some(locate::join_path(
                [tmp.join("bin"), tmp.join("real")].iter(),
            )),
        }
    }

    /// Puts an executable `gh` in the layout's second PATH directory.
    fn real_gh_on_path(tmp: &Path) {
        use std::os::unix::fs::PermissionsExt;
        let gh = tmp.join("real/gh");
        std::fs::create_dir_all(gh.parent().unwrap()).unwrap();
        std::fs::write(&gh, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&gh, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    // Issue 36: `gh` was linked where no gh is installed, so `command -v gh` succeeded and every
    // call exited 127.
    #[test]
    fn gh_is_linked_only_where_a_real_gh_is_on_path() {
        let tmp = tempfile::tempdir().unwrap();
        let l = layout(tmp.path());
        let r = install(&l, false).unwrap();
        assert_eq!(r.linked, ["git"]);
        assert_eq!(r.gh, GhLink::Absent { removed: None });
        assert_eq!(inspect(&l.bin_dir.join("gh"), &l.exe), LinkState::Missing);
        assert!(
            status(&l).problems().iter().all(|p| !p.contains("gh")),
            "{:?}",
            status(&l).problems()
        );
        real_gh_on_path(tmp.path());
        let r = install(&l, false).unwrap();
        assert_eq!(r.linked, ["gh"]);
        assert_eq!(
            r.gh,
            GhLink::Real {
                path: tmp.path().join("real/gh")
            }
        );
        // gh uninstalled since: the link goes, and a link left behind is a problem.
        std::fs::remove_file(tmp.path().join("real/gh")).unwrap();
        assert!(
            status(&l)
                .problems()
                .iter()
                .any(|p| p.contains("no real gh is on PATH")),
            "{:?}",
            status(&l).problems()
        );
        let r = install(&l, false).unwrap();
        assert_eq!(
            r.gh,
            GhLink::Absent {
                removed: Some(l.bin_dir.join("gh"))
            }
        );
        assert_eq!(inspect(&l.bin_dir.join("gh"), &l.exe), LinkState::Missing);
    }

    #[test]
    fn install_is_idempotent_and_uninstall_reverses_it() {
        let tmp = tempfile::tempdir().unwrap();
        real_gh_on_path(tmp.path());
        let l = layout(tmp.path());
        let r = install(&l, false).unwrap();
        assert_eq!(r.linked, ["git", "gh"]);
        assert_eq!(r.path_position, PathPosition::First);
        let r = install(&l, false).unwrap();
        assert!(r.linked.is_empty());
        assert_eq!(r.unchanged, ["git", "gh"]);
        assert_eq!(
            inspect(&l.bin_dir.join("git"), &l.exe),
            LinkState::Installed
        );
        let u = uninstall(&l).unwrap();
        assert_eq!(u.removed.len(), 2);
        assert!(!l.bin_dir.exists());
    }

    #[test]
    fn foreign_files_are_refused_before_anything_changes() {
        let tmp = tempfile::tempdir().unwrap();
        real_gh_on_path(tmp.path());
        let l = layout(tmp.path());
        std::fs::create_dir_all(&l.bin_dir).unwrap();
        std::fs::write(l.bin_dir.join("gh"), "#!/bin/sh\n").unwrap();
        let err = install(&l, false).unwrap_err();
        assert!(
            matches!(err, InstallError::Foreign(ref v) if v.len() == 1),
            "{err}"
        );
        assert_eq!(inspect(&l.bin_dir.join("git"), &l.exe), LinkState::Missing);
        // With force, it is replaced.
        install(&l, true).unwrap();
        assert_eq!(inspect(&l.bin_dir.join("gh"), &l.exe), LinkState::Installed);
    }

    #[test]
    fn install_force_never_deletes_a_directory() {
        // `--force` ran remove_dir_all on a directory named `git`.
        let tmp = tempfile::tempdir().unwrap();
        let l = layout(tmp.path());
        std::fs::create_dir_all(l.bin_dir.join("git/src")).unwrap();
        std::fs::write(l.bin_dir.join("git/src/work.c"), "precious").unwrap();
        for force in [false, true] {
            let err = install(&l, force).unwrap_err();
            assert!(
                matches!(err, InstallError::Directories(ref v) if v.len() == 1),
                "{err}"
            );
        }
        assert_eq!(
            std::fs::read_to_string(l.bin_dir.join("git/src/work.c")).unwrap(),
            "precious"
        );
        assert_eq!(inspect(&l.bin_dir.join("gh"), &l.exe), LinkState::Missing);
    }

    #[test]
    fn uninstall_stops_before_anything_on_a_broken_block() {
        let tmp = tempfile::tempdir().unwrap();
        let l = layout(tmp.path());
        install(&l, false).unwrap();
        std::fs::create_dir_all(&l.home).unwrap();
        let bashrc = l.home.join(".bashrc");
        let content = format!("{}\nkeep me\n", rc::BEGIN);
        std::fs::write(&bashrc, &content).unwrap();
        assert!(matches!(
            uninstall(&l),
            Err(InstallError::UnterminatedBlock { .. })
        ));
        assert_eq!(std::fs::read_to_string(&bashrc).unwrap(), content);
        assert_eq!(
            inspect(&l.bin_dir.join("git"), &l.exe),
            LinkState::Installed
        );
    }

    #[test]
    fn user_symlinks_are_foreign_and_kept_by_uninstall() {
        let tmp = tempfile::tempdir().unwrap();
        let l = layout(tmp.path());
        std::fs::create_dir_all(&l.bin_dir).unwrap();
        std::os::unix::fs::symlink("/usr/bin/git", l.bin_dir.join("git")).unwrap();
        assert!(matches!(
            inspect(&l.bin_dir.join("git"), &l.exe),
            LinkState::Foreign { .. }
        ));
        assert!(install(&l, false).is_err());
        let u = uninstall(&l).unwrap();
        assert_eq!(u.kept, [l.bin_dir.join("git")]);
        assert!(l.bin_dir.join("git").symlink_metadata().is_ok());
    }

    #[test]
    fn links_to_a_moved_binary_are_broken_and_repaired() {
        let tmp = tempfile::tempdir().unwrap();
        real_gh_on_path(tmp.path());
        let l = layout(tmp.path());
        std::fs::create_dir_all(&l.bin_dir).unwrap();
        std::os::unix::fs::symlink(tmp.path().join("gone/git-prism"), l.bin_dir.join("git"))
            .unwrap();
        assert!(matches!(
            inspect(&l.bin_dir.join("git"), &l.exe),
            LinkState::Broken { .. }
        ));
        let r = install(&l, false).unwrap();
        assert_eq!(r.linked, ["git", "gh"]);
    }

    #[test]
    fn path_positions() {
        let tmp = tempfile::tempdir().unwrap();
        let ours = tmp.path().join("ours");
        let other = tmp.path().join("other");
        std::fs::create_dir_all(&ours).unwrap();
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(other.join("git"), "").unwrap();
        let p = |dirs: &[&Path]| Some(locate::join_path(dirs.iter()));
        assert_eq!(
            path_position(&ours, p(&[&ours, &other]).as_deref()),
            PathPosition::First
        );
        assert_eq!(
            path_position(&ours, p(&[&other, &ours]).as_deref()),
            PathPosition::Shadowed
        );
        assert_eq!(
            path_position(&ours, p(&[&other]).as_deref()),
            PathPosition::Absent
        );
        assert_eq!(path_position(&ours, None), PathPosition::Absent);
    }

    #[test]
    fn data_dir_precedence() {
        let home = Path::new("/h");
        assert_eq!(
            data_dir(home, None, None),
            Path::new("/h/.local/share/git-prism")
        );
        assert_eq!(
            data_dir(home, None, Some("/x".into())),
            Path::new("/x/git-prism")
        );
        assert_eq!(
            data_dir(home, Some("/gp".into()), Some("/x".into())),
            Path::new("/gp")
        );
        assert_eq!(
            data_dir(home, None, Some("rel".into())),
            Path::new("/h/.local/share/git-prism")
        );
    }
}
