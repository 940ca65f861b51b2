//! Shell start-up files: the marked block that puts the shim directory first on PATH.
//!
//! The block sits between two marker lines and is written at most once per file. Its code
//! removes every other occurrence of the directory from PATH and puts it first, so sourcing
//! the file any number of times (nested shells, login and interactive files both read) leaves
//! PATH with the directory exactly once, in front.
//!
//! Which files: bash reads `.bashrc` in interactive shells and, in login shells, the first of
//! `.bash_profile`, `.bash_login`, `.profile` that exists, so the block goes into `.bashrc`
//! and into that login file (creating `.bash_profile` only when none exists: creating it next
//! to an existing `.profile` would silently stop bash from reading `.profile`). zsh reads
//! `$ZDOTDIR/.zshenv` in every shell; fish reads `conf.d/*.fish`; other shells `.profile`.

use std::io;
use std::path::{Path, PathBuf};

use super::{InstallError, Layout};

/// The first line of the block.
pub const BEGIN: &str = "# >>> git-prism shim >>>";
/// The last line of the block.
pub const END: &str = "# <<< git-prism shim <<<";

/// The user's login shell family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shell {
    /// bash.
    Bash,
    /// zsh.
    Zsh,
    /// fish.
    Fish,
    /// Any other POSIX shell (`.profile`).
    Posix,
}

impl Shell {
    /// Returns the shell named by `$SHELL`.
    pub fn from_var(shell: Option<&std::ffi::OsStr>) -> Shell {
        let name = shell
            .map(Path::new)
            .and_then(Path::file_name)
            .and_then(|n| n.to_str())
            .unwrap_or("");
        match name {
            "bash" => Shell::Bash,
            "zsh" => Shell::Zsh,
            "fish" => Shell::Fish,
            _ => Shell::Posix,
        }
    }

    /// Returns the syntax to use for a given start-up file.
    pub fn for_file(file: &Path) -> Shell {
        if file.extension().is_some_and(|e| e == "fish") {
            Shell::Fish
        } else {
            Shell::Posix
        }
    }
}

/// Returns the start-up files to edit for the layout's shell.
pub fn files_for(layout: &Layout) -> Vec<PathBuf> {
    let home = &layout.home;
    match layout.shell {
        Shell::Bash => {
            let login = [".bash_profile", ".bash_login", ".profile"]
                .iter()
                .map(|n| home.join(n))
                .find(|p| p.exists())
                .unwrap_or_else(|| home.join(".bash_profile"));
            vec![login, home.join(".bashrc")]
        }
        Shell::Zsh => vec![zdotdir(layout).join(".zshenv")],
        Shell::Fish => vec![fish_file(layout)],
        Shell::Posix => vec![home.join(".profile")],
    }
}

/// Returns every start-up file git-prism may have written, whatever the shell.
pub fn all_files(layout: &Layout) -> Vec<PathBuf> {
    let home = &layout.home;
    let mut files: Vec<PathBuf> = [".bash_profile", ".bash_login", ".profile", ".bashrc"]
        .iter()
        .map(|n| home.join(n))
        .collect();
    files.push(zdotdir(layout).join(".zshenv"));
    files.push(home.join(".zshenv"));
    files.push(fish_file(layout));
    files.dedup();
    files
}

fn zdotdir(layout: &Layout) -> PathBuf {
    layout
        .zdotdir
        .clone()
        .unwrap_or_else(|| layout.home.clone())
}

fn fish_file(layout: &Layout) -> PathBuf {
    layout
        .config_home
        .clone()
        .unwrap_or_else(|| layout.home.join(".config"))
        .join("fish/conf.d/git-prism.fish")
}

/// Quotes a path for POSIX shells and fish (single quotes, `'` escaped).
fn quote(path: &Path, shell: Shell) -> String {
    let s = path.to_string_lossy();
    match shell {
        Shell::Fish => format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'")),
        _ => format!("'{}'", s.replace('\'', r"'\''")),
    }
}

/// Returns the block for `dir` in the syntax of `shell`.
pub fn block(dir: &Path, shell: Shell) -> String {
    let d = quote(dir, shell);
    let body = match shell {
        Shell::Fish => format!(
            "set -l __git_prism_dir {d}\n\
             set -gx PATH $__git_prism_dir (string match -v -- $__git_prism_dir $PATH)\n"
        ),
        _ => format!(
            "__git_prism_dir={d}\n\
             __git_prism_path=\":${{PATH}}:\"\n\
             while :; do\n\
             \x20 case \"$__git_prism_path\" in\n\
             \x20   *\":${{__git_prism_dir}}:\"*) __git_prism_path=\"${{__git_prism_path%%:\"${{__git_prism_dir}}\":*}}:${{__git_prism_path#*:\"${{__git_prism_dir}}\":}}\" ;;\n\
             \x20   *) break ;;\n\
             \x20 esac\n\
             done\n\
             __git_prism_path=\"${{__git_prism_path#:}}\"\n\
             __git_prism_path=\"${{__git_prism_path%:}}\"\n\
             PATH=\"${{__git_prism_dir}}${{__git_prism_path:+:${{__git_prism_path}}}}\"\n\
             export PATH\n\
             unset __git_prism_dir __git_prism_path\n"
        ),
    };
    format!(
        "{BEGIN}\n# Added by `git-prism shim install`; `git-prism shim uninstall` removes it.\n{body}{END}\n"
    )
}

/// Returns whether `file` carries the block.
pub fn has_block(file: &Path) -> bool {
    std::fs::read_to_string(file).is_ok_and(|s| s.lines().any(|l| l == BEGIN))
}

/// Appends the block for `dir` to `file` unless it is already there; returns whether the file
/// changed.
pub fn add_block(file: &Path, dir: &Path, shell: Shell) -> Result<bool, InstallError> {
    let existing = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
        Err(source) => {
            return Err(InstallError::Io {
                action: "read",
                path: file.to_owned(),
                source,
            });
        }
    };
    let wanted = block(dir, shell);
    if existing.contains(&wanted) {
        return Ok(false);
    }
    // A block for another directory (an earlier install with --dir) is replaced, not doubled.
    let mut content = strip_block(&existing).unwrap_or(existing);
    if !content.is_empty() && !content.ends_with('\n') {
        content.push('\n');
    }
    if !content.is_empty() {
        content.push('\n');
    }
    content.push_str(&wanted);
    write(file, &content)?;
    Ok(true)
}

/// Removes the block from `file`; returns whether the file changed. A fish file that held
/// only the block is deleted.
pub fn remove_block(file: &Path) -> Result<bool, InstallError> {
    let Ok(existing) = std::fs::read_to_string(file) else {
        return Ok(false);
    };
    let Some(stripped) = strip_block(&existing) else {
        return Ok(false);
    };
    if stripped.trim().is_empty() && Shell::for_file(file) == Shell::Fish {
        std::fs::remove_file(file).map_err(|source| InstallError::Io {
            action: "remove",
            path: file.to_owned(),
            source,
        })?;
    } else {
        write(file, &stripped)?;
    }
    Ok(true)
}

/// Returns `content` without any marked block (and the blank line install put before it), or
/// `None` when there is none.
fn strip_block(content: &str) -> Option<String> {
    let mut out = String::with_capacity(content.len());
    let mut inside = false;
    let mut found = false;
    for line in content.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        if bare == BEGIN {
            inside = true;
            found = true;
            if out.ends_with("\n\n") {
                out.pop();
            } else if out == "\n" {
                out.clear();
            }
            continue;
        }
        if inside {
            if bare == END {
                inside = false;
            }
            continue;
        }
        out.push_str(line);
    }
    found.then_some(out)
}

fn write(file: &Path, content: &str) -> Result<(), InstallError> {
    let io_err = |action| {
        move |source| InstallError::Io {
            action,
            path: file.to_owned(),
            source,
        }
    };
    if let Some(parent) = file.parent() {
        std::fs::create_dir_all(parent).map_err(io_err("create the directory of"))?;
    }
    std::fs::write(file, content).map_err(io_err("write"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_is_added_once_and_removed_cleanly() {
        let tmp = tempfile::tempdir().unwrap();
        let rc = tmp.path().join(".bashrc");
        std::fs::write(&rc, "alias ll='ls -l'\n").unwrap();
        let dir = Path::new("/home/u/.local/share/git-prism/bin");
        assert!(add_block(&rc, dir, Shell::Posix).unwrap());
        assert!(!add_block(&rc, dir, Shell::Posix).unwrap());
        let content = std::fs::read_to_string(&rc).unwrap();
        assert_eq!(content.matches(BEGIN).count(), 1);
        assert!(has_block(&rc));
        assert!(remove_block(&rc).unwrap());
        assert_eq!(std::fs::read_to_string(&rc).unwrap(), "alias ll='ls -l'\n");
        assert!(!remove_block(&rc).unwrap());
    }

    #[test]
    fn a_block_for_another_directory_is_replaced() {
        let tmp = tempfile::tempdir().unwrap();
        let rc = tmp.path().join(".zshenv");
        add_block(&rc, Path::new("/a"), Shell::Posix).unwrap();
        add_block(&rc, Path::new("/b"), Shell::Posix).unwrap();
        let content = std::fs::read_to_string(&rc).unwrap();
        assert_eq!(content.matches(BEGIN).count(), 1);
        assert!(content.contains("'/b'") && !content.contains("'/a'"));
    }

    #[test]
    fn fish_file_holding_only_the_block_is_deleted() {
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("conf.d/git-prism.fish");
        add_block(&f, Path::new("/d"), Shell::Fish).unwrap();
        assert!(remove_block(&f).unwrap());
        assert!(!f.exists());
    }

    /// Runs the block in `sh` with a starting PATH and returns the resulting PATH.
    fn path_after(shell: &str, dir: &str, start: &str, times: usize) -> String {
        let mut script = format!("PATH='{start}'\n");
        for _ in 0..times {
            script.push_str(&block(Path::new(dir), Shell::Posix));
        }
        script.push_str("printf '%s' \"$PATH\"\n");
        let out = std::process::Command::new(shell)
            .arg("-c")
            .arg(&script)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    #[test]
    fn the_posix_block_puts_the_directory_first_exactly_once() {
        for shell in ["/bin/sh", "bash"] {
            let d = "/x y/bin";
            assert_eq!(
                path_after(shell, d, "/usr/bin:/bin", 1),
                "/x y/bin:/usr/bin:/bin"
            );
            assert_eq!(
                path_after(shell, d, "/usr/bin:/bin", 3),
                "/x y/bin:/usr/bin:/bin"
            );
            assert_eq!(
                path_after(shell, d, "/usr/bin:/x y/bin:/bin:/x y/bin", 1),
                "/x y/bin:/usr/bin:/bin"
            );
            assert_eq!(path_after(shell, d, "", 1), "/x y/bin");
            assert_eq!(path_after(shell, d, "/x y/bin", 2), "/x y/bin");
            // Other entries, even empty ones, are kept as they were.
            assert_eq!(path_after(shell, d, "/a::/b", 1), "/x y/bin:/a::/b");
            // A glob character in the directory is matched literally.
            assert_eq!(
                path_after(shell, "/b*", "/bin:/b*:/usr", 1),
                "/b*:/bin:/usr"
            );
        }
    }
}
