//! The kernel layer's rules for one call (ADR 16): from what the guard established about it —
//! the repository, the permission the scope gives it, where a push goes, what it writes
//! outside — the [`Confinement`] the shim applies before it execs git. Computed for every
//! `git` call, refused or not, and granting only what the facts positively allow: a call whose
//! repository or effect cannot be told gets no repository at all and no network, so with the
//! command-line layer switched off (a switch for tests only) the kernel still holds.
//!
//! What every call gets ([`base`]): the temporary directory (the session's, recorded as it
//! started; none when it lies inside a repository), `/dev/null` and the terminal. What a write
//! gets ([`repository`]): the git directory, the common directory and the work tree of the
//! scope's entry, as the session resolved them (never a work tree the call names:
//! `--work-tree=.` over a directory of repositories grants nothing more), and the call's own
//! linked worktree of that repository; a push into a repository on this machine, that
//! repository's when its own permission allows. What a network call gets: outbound TCP (a
//! `send-email`: only the SMTP ports), and for its hooks a narrower domain without it
//! ([`super::hook`]).

use std::path::{Path, PathBuf};

use crate::confine::{Confinement, Network};

use super::place::Identity;
use super::scope::Entry;

/// Everything every confined call may write: the temporary directory (when there is one that
/// lies in no repository), `/dev/null` and the terminal.
pub fn base(temp_dir: Option<&Path>) -> Confinement {
    Confinement {
        dirs: temp_dir.into_iter().map(Path::to_owned).collect(),
        files: vec![PathBuf::from("/dev/null"), PathBuf::from("/dev/tty")],
        network: Network::None,
    }
}

/// The places a write to the repository `entry` lists may change, for a call that found it as
/// `found`: the entry's own directories, and the call's linked worktree of it.
pub fn repository(entry: &Entry, found: Option<&Identity>) -> Vec<PathBuf> {
    let id = &entry.identity;
    let mut dirs = vec![id.common_dir.clone(), id.git_dir.clone()];
    dirs.extend(id.work_tree.clone());
    if let Some(found) = found.filter(|f| f.common_dir == id.common_dir) {
        dirs.push(found.git_dir.clone());
        if found.is_linked_worktree() {
            dirs.extend(found.work_tree.clone());
        }
    }
    dirs.sort();
    dirs.dedup();
    dirs
}

/// Adds `dirs` to what `confinement` may write.
pub fn grant(confinement: &mut Confinement, dirs: impl IntoIterator<Item = PathBuf>) {
    for d in dirs {
        if !confinement.dirs.contains(&d) {
            confinement.dirs.push(d);
        }
    }
}

/// The SMTP ports `send-email` may reach (submission, SMTPS, SMTP).
pub const SMTP_PORTS: &[u16] = &[25, 465, 587];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::scope::Permission;

    fn id(root: &str, tree: Option<&str>) -> Identity {
        Identity {
            git_dir: PathBuf::from(format!("{root}/.git")),
            common_dir: PathBuf::from(format!("{root}/.git")),
            work_tree: tree.map(PathBuf::from),
        }
    }

    #[test]
    fn a_write_gets_the_listed_places_never_the_work_tree_named() {
        let entry = Entry {
            path: "/r/wl".into(),
            identity: id("/r/wl", Some("/r/wl")),
            permission: Permission::WriteLocal,
            protected: Vec::new(),
            protected_paths: Vec::new(),
        };
        // `--git-dir=wl/.git --work-tree=/r`: git would use /r as the work tree.
        let found = id("/r/wl", Some("/r"));
        let dirs = repository(&entry, Some(&found));
        assert!(dirs.contains(&PathBuf::from("/r/wl")));
        assert!(!dirs.contains(&PathBuf::from("/r")), "{dirs:?}");
    }
}
