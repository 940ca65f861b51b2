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
//!
//! Editing a user's start-up files must never lose a byte of them: that is [`super::block`]'s
//! (only a complete block exactly as install writes it, only its directory differing, is
//! ever removed or replaced).

use std::path::{Path, PathBuf};

use super::block::{self, Edit, Marks};
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

/// The rc block's marks.
pub const MARKS: Marks = Marks {
    begin: BEGIN,
    end: END,
    is_ours: is_our_block,
};

/// Returns whether `file` carries the block (or the start of one).
pub fn has_block(file: &Path) -> bool {
    block::has_block(file, &MARKS)
}

/// Whether the lines from BEGIN to END are a block install writes, for some directory.
fn is_our_block(body: &[&[u8]]) -> bool {
    const PLACEHOLDER: &str = "/git-prism-directory";
    [Shell::Posix, Shell::Fish].into_iter().any(|shell| {
        let quoted = quote(Path::new(PLACEHOLDER), shell);
        let template = block(Path::new(PLACEHOLDER), shell);
        let template: Vec<&str> = template.lines().collect();
        template.len() == body.len()
            && template
                .iter()
                .zip(body)
                .all(|(t, line)| match t.split_once(&quoted) {
                    // The directory line: the same text around any one-line directory.
                    Some((before, after)) => {
                        line.len() > before.len() + after.len()
                            && line.starts_with(before.as_bytes())
                            && line.ends_with(after.as_bytes())
                    }
                    None => t.as_bytes() == *line,
                })
    })
}

/// Plans adding the block for `dir` to `file`; `None` when it is already there. A block for
/// another directory (an earlier install with --dir) is replaced, not doubled.
pub fn plan_add(file: &Path, dir: &Path, shell: Shell) -> Result<Option<Edit>, InstallError> {
    block::plan_add(file, &MARKS, &block(dir, shell))
}

/// Plans removing the block from `file`; `None` when there is none. A fish file that held only
/// the block is deleted.
pub fn plan_remove(file: &Path) -> Result<Option<Edit>, InstallError> {
    block::plan_remove(file, &MARKS, Shell::for_file(file) == Shell::Fish)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plans and applies adding the block, as `shim install` does; returns whether the file
    /// changed.
    fn add_block(file: &Path, dir: &Path, shell: Shell) -> Result<bool, InstallError> {
        let edit = plan_add(file, dir, shell)?;
        if let Some(edit) = &edit {
            edit.apply()?;
        }
        Ok(edit.is_some())
    }

    /// Plans and applies removing the block, as `shim uninstall` does; returns whether the
    /// file changed.
    fn remove_block(file: &Path) -> Result<bool, InstallError> {
        let edit = plan_remove(file)?;
        if let Some(edit) = &edit {
            edit.apply()?;
        }
        Ok(edit.is_some())
    }

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

    fn with_block(before: &[u8], after: &[u8]) -> Vec<u8> {
        let mut c = before.to_vec();
        c.extend_from_slice(block(Path::new("/d"), Shell::Posix).as_bytes());
        c.extend_from_slice(after);
        c
    }

    #[test]
    fn rc_block_without_end_is_refused_and_nothing_is_removed() {
        // A BEGIN whose END line was deleted made uninstall delete everything after it.
        let tmp = tempfile::tempdir().unwrap();
        let rc = tmp.path().join(".bashrc");
        let content = format!("alias a=b\n{BEGIN}\nexport X=1\nalias keep=me\n");
        std::fs::write(&rc, &content).unwrap();
        let err = remove_block(&rc).unwrap_err();
        assert!(
            matches!(err, InstallError::UnterminatedBlock { line: 2, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("nothing was changed"), "{err}");
        assert!(add_block(&rc, Path::new("/d"), Shell::Posix).is_err());
        assert_eq!(std::fs::read_to_string(&rc).unwrap(), content);
    }

    #[test]
    fn rc_edited_block_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let rc = tmp.path().join(".bashrc");
        let mut content = String::from_utf8(with_block(b"a\n\n", b"")).unwrap();
        content = content.replace("export PATH\n", "export PATH\nalias mine=1\n");
        std::fs::write(&rc, &content).unwrap();
        assert!(matches!(
            remove_block(&rc),
            Err(InstallError::EditedBlock { .. })
        ));
        assert_eq!(std::fs::read_to_string(&rc).unwrap(), content);
    }

    #[test]
    fn rc_file_that_is_not_utf8_is_edited_as_bytes() {
        // Install half-applied and uninstall exited 0 leaving the block.
        let tmp = tempfile::tempdir().unwrap();
        let rc = tmp.path().join(".bashrc");
        let original = b"# caf\xe9 latin-1\nalias x=y\n".to_vec();
        std::fs::write(&rc, &original).unwrap();
        assert!(add_block(&rc, Path::new("/d"), Shell::Posix).unwrap());
        assert!(has_block(&rc));
        assert!(remove_block(&rc).unwrap());
        assert_eq!(std::fs::read(&rc).unwrap(), original);
    }

    #[test]
    fn rc_file_without_final_newline_keeps_its_end() {
        let tmp = tempfile::tempdir().unwrap();
        let rc = tmp.path().join(".profile");
        for original in [&b"export A=1"[..], b"a\n", b"a\n\n", b"", b"\n"] {
            std::fs::write(&rc, original).unwrap();
            add_block(&rc, Path::new("/d"), Shell::Posix).unwrap();
            remove_block(&rc).unwrap();
            assert_eq!(
                std::fs::read(&rc).unwrap(),
                original,
                "{:?}",
                String::from_utf8_lossy(original)
            );
        }
        // Text the user added after the block stays, with its own line.
        std::fs::write(&rc, with_block(b"a\n\n", b"b\n")).unwrap();
        remove_block(&rc).unwrap();
        assert_eq!(std::fs::read(&rc).unwrap(), b"a\nb\n");
    }

    #[test]
    fn rc_files_are_replaced_by_rename_keeping_mode_and_symlinks() {
        // They were rewritten in place: a full disk truncated a 12 KB .bashrc to 4 KB.
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let tmp = tempfile::tempdir().unwrap();
        let rc = tmp.path().join(".bashrc");
        std::fs::write(&rc, "alias a=b\n").unwrap();
        std::fs::set_permissions(&rc, std::fs::Permissions::from_mode(0o600)).unwrap();
        let before = std::fs::metadata(&rc).unwrap().ino();
        add_block(&rc, Path::new("/d"), Shell::Posix).unwrap();
        let meta = std::fs::metadata(&rc).unwrap();
        assert_ne!(meta.ino(), before, "a new file renamed over the old one");
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        // A symlinked start-up file (dotfiles) stays a symlink; its target is rewritten.
        let dotfiles = tmp.path().join("dotfiles");
        std::fs::create_dir(&dotfiles).unwrap();
        std::fs::write(dotfiles.join("zshenv"), "export Z=1\n").unwrap();
        let link = tmp.path().join(".zshenv");
        std::os::unix::fs::symlink("dotfiles/zshenv", &link).unwrap();
        add_block(&link, Path::new("/d"), Shell::Posix).unwrap();
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert!(has_block(&dotfiles.join("zshenv")));
        remove_block(&link).unwrap();
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(
            std::fs::read_to_string(dotfiles.join("zshenv")).unwrap(),
            "export Z=1\n"
        );
        // No temp file is left behind.
        let names: Vec<String> = std::fs::read_dir(tmp.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("git-prism"))
            .collect();
        assert!(names.is_empty(), "{names:?}");
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
