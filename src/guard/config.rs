//! A repository's configuration as a second command line (issue 34, ADR 19).
//!
//! A session can write its repositories' configuration (`git config`, `git remote add`), and a
//! configuration can include a file the agent may edit, so a setting that names a program —
//! `core.sshCommand`, `core.fsmonitor`, a credential helper, an upload pack — is a way to make
//! git run the agent's program with what the agent lacks (the user's credentials, the network).
//! Three rules close it:
//!
//! - **What `-c` and `git config` may set** ([`setting_refusal`]): only keys known to run
//!   nothing ([`HARMLESS_KEYS`], one allow-list for both), a pager or editor only when it is a
//!   harmless one, `core.hooksPath` only to switch hooks off, no transport that runs a program.
//! - **What changed since the session started** ([`drift`]): the settings that name a program
//!   ([`PROGRAM_KEYS`]) are recorded per repository as the session starts; a later call that
//!   finds one changed runs with it as it was (its value restored on the command line's
//!   configuration, which wins over the repository's), with a neutral value where one exists
//!   (`core.fsmonitor=false`), or is refused with the remedy.
//! - **Settings judged as if given on the command line**: `push.recurseSubmodules` and
//!   `submodule.recurse` (a push of other repositories) are read with the push's settings
//!   ([`super::push`]); `diff.ignoreSubmodules` and `submodule.<name>.ignore` never hide a path
//!   from the protected-path check (`git::state::commit_paths` asks with
//!   `--ignore-submodules=none`).

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::session::Bytes;
use crate::git::keys::{HARMLESS_KEYS, LIST_KEYS, PROGRAM_KEYS, harmless_program, key_matches};
use crate::request::effect;

/// A configuration key as git compares it: section and name lowered, a subsection as written.
pub fn normal_key(key: &str) -> String {
    effect::config_key(key)
}

/// Where a setting is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// `-c key=value` (or a `GIT_CONFIG_*` variable, or inside an alias).
    CommandLine,
    /// `git config key value`: the repository's own configuration.
    Config,
}

impl Via {
    /// The setting as the person wrote it, quoted.
    fn named(self, key: &str) -> String {
        match self {
            Via::CommandLine => format!("`-c {key}`"),
            Via::Config => format!("`git config {key}`"),
        }
    }
}

/// Why setting `key` to `value` (`-c key=value`, `git config key value`) would make git run a
/// program of the caller's choosing or write somewhere the guard cannot see, if it would.
/// `key` is lowered as git compares it ([`normal_key`]).
pub fn setting_refusal(key: &str, value: Option<&OsStr>, how: Via) -> Option<String> {
    if !HARMLESS_KEYS.iter().any(|p| key_matches(p, key)) {
        return Some(format!(
            "{} is not a setting this guard knows to run nothing",
            how.named(key)
        ));
    }
    if key.starts_with("alias.") {
        if value.is_some_and(|v| v.as_bytes().trim_ascii_start().starts_with(b"!")) {
            return Some(format!("{} runs a shell command", how.named(key)));
        }
    } else if key == "core.pager" || key.starts_with("pager.") || key == "core.editor" {
        if !value.is_none_or(harmless_program) {
            return Some(format!("{} names a program git would run", how.named(key)));
        }
    } else if key == "core.hookspath" {
        if value.is_none_or(|v| v.as_bytes() != b"/dev/null") {
            return Some(format!(
                "{} names programs git would run",
                how.named("core.hooksPath")
            ));
        }
    } else if key.starts_with("remote.")
        && value.is_some_and(|v| effect::runs_transport(v.as_bytes()))
    {
        return Some(format!(
            "{} names a transport that runs a program",
            how.named(key)
        ));
    } else if key == "core.fsmonitor" && value.is_none_or(|v| v.as_bytes() != b"false") {
        return Some(format!(
            "{} names a program git would run",
            how.named("core.fsmonitor")
        ));
    }
    None
}

/// Whether `key` (lowered) is one of the settings [`drift`] compares.
pub fn names_program(key: &str) -> bool {
    PROGRAM_KEYS.iter().any(|p| key_matches(p, key))
}

/// The settings of `config` (the repository's own, as [`crate::git::probe::own_config`] lists
/// it) that [`drift`] compares, in order.
pub fn programs(config: &[(String, Vec<u8>)]) -> Vec<(String, Bytes)> {
    config
        .iter()
        .filter(|(k, _)| names_program(&normal_key(k)))
        .map(|(k, v)| (normal_key(k), Bytes::of(OsStr::from_bytes(v))))
        .collect()
}

/// The remote addresses of `config` (`remote.<name>.url` and `.pushurl`), in order.
pub fn remotes(config: &[(String, Vec<u8>)]) -> Vec<(String, Bytes)> {
    config
        .iter()
        .filter(|(k, _)| {
            let k = normal_key(k);
            k.starts_with("remote.") && (k.ends_with(".url") || k.ends_with(".pushurl"))
        })
        .map(|(k, v)| (normal_key(k), Bytes::of(OsStr::from_bytes(v))))
        .collect()
}

/// The changes between the remote addresses a repository had as the session started and those
/// it has now, one description each (`origin.url: was A, now B`).
pub fn remote_changes(start: &[(String, Bytes)], now: &[(String, Bytes)]) -> Vec<String> {
    let mut keys: Vec<&str> = start.iter().chain(now).map(|(k, _)| k.as_str()).collect();
    keys.sort_unstable();
    keys.dedup();
    let value = |list: &[(String, Bytes)], key: &str| {
        let v: Vec<String> = list
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.os().to_string_lossy().into_owned())
            .collect();
        v.join(" ")
    };
    keys.into_iter()
        .filter_map(|key| {
            let (was, is) = (value(start, key), value(now, key));
            (was != is).then(|| {
                let name = key.strip_prefix("remote.").unwrap_or(key);
                match (was.is_empty(), is.is_empty()) {
                    (true, _) => format!("{name} added ({is})"),
                    (_, true) => format!("{name} removed (was {was})"),
                    _ => format!("{name} was {was}, now {is}"),
                }
            })
        })
        .collect()
}

/// What a call does about the program-naming settings that changed since the session started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Drift {
    /// Nothing changed.
    None,
    /// Run with these settings added to the command line's configuration (which git reads
    /// after the repository's): the values the session started with, or neutral ones.
    Restore(Vec<(String, OsString)>),
    /// A setting that names a program appeared and has no neutral value: the call is refused.
    Refuse(String),
}

/// A neutral value for a program-naming key that was not set as the session started, where
/// git has one (a value that runs nothing, or git's own default program).
fn neutral(key: &str, hooks: &Path) -> Option<OsString> {
    let value: &str = match key {
        "core.fsmonitor" => "false",
        "core.sshcommand" => "ssh",
        "core.pager" | "core.editor" | "sequence.editor" => "cat",
        "core.hookspath" => return Some(hooks.as_os_str().to_owned()),
        "gpg.program" => "gpg",
        "gpg.ssh.program" => "ssh-keygen",
        "gpg.x509.program" => "gpgsm",
        _ if key.starts_with("pager.") => "cat",
        _ if key.starts_with("remote.") && key.ends_with(".uploadpack") => "git-upload-pack",
        _ if key.starts_with("remote.") && key.ends_with(".receivepack") => "git-receive-pack",
        _ => return None,
    };
    Some(OsString::from(value))
}

/// Compares the program-naming settings a repository had as the session started (`start`,
/// from its record) with those it has now (`now`): what the call must add to run as if
/// nothing had changed, or why it cannot. `hooks` is the repository's own hooks directory (the
/// neutral `core.hooksPath`).
pub fn drift(start: &[(String, Bytes)], now: &[(String, Bytes)], hooks: &Path) -> Drift {
    let mut keys: Vec<&str> = start.iter().chain(now).map(|(k, _)| k.as_str()).collect();
    keys.sort_unstable();
    keys.dedup();
    let values = |list: &[(String, Bytes)], key: &str| -> Vec<OsString> {
        list.iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.os())
            .collect()
    };
    let mut restore = Vec::new();
    for key in keys {
        let (was, is) = (values(start, key), values(now, key));
        if was == is || is.is_empty() {
            // Unchanged, or removed: a program no longer named runs nowhere.
            continue;
        }
        if LIST_KEYS.iter().any(|p| key_matches(p, key)) {
            restore.push((key.to_owned(), OsString::new()));
            restore.extend(was.into_iter().map(|v| (key.to_owned(), v)));
        } else if let Some(last) = was.last() {
            restore.push((key.to_owned(), last.clone()));
        } else if let Some(value) = neutral(key, hooks) {
            restore.push((key.to_owned(), value));
        } else {
            return Drift::Refuse(key.to_owned());
        }
    }
    if restore.is_empty() {
        Drift::None
    } else {
        Drift::Restore(restore)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(pairs: &[(&str, &str)]) -> Vec<(String, Bytes)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), Bytes::Text((*v).to_owned())))
            .collect()
    }

    #[test]
    fn settings_that_run_programs_are_refused_whichever_way_they_are_set() {
        let refused =
            |k: &str, v: &str| setting_refusal(k, Some(OsStr::new(v)), Via::CommandLine).is_some();
        assert!(refused("core.sshcommand", "./p"));
        assert!(refused("credential.helper", "store"));
        assert!(refused("remote.origin.uploadpack", "./p"));
        assert!(refused("core.pager", "./p"));
        assert!(refused("core.fsmonitor", "./p"));
        assert!(refused("remote.origin.url", "ext::sh -c x"));
        assert!(refused("alias.x", "!sh"));
        assert!(!refused("user.name", "A"));
        assert!(!refused("core.pager", "less"));
        assert!(!refused("remote.origin.url", "https://example.com/r.git"));
        assert!(!refused("core.fsmonitor", "false"));
    }

    #[test]
    fn program_keys_are_recognised_by_pattern() {
        assert!(names_program("core.sshcommand"));
        assert!(names_program("filter.lfs.process"));
        assert!(names_program("remote.origin.uploadpack"));
        assert!(names_program("credential.https://example.com.helper"));
        assert!(!names_program("remote.origin.url"));
        assert!(!names_program("user.name"));
    }

    #[test]
    fn a_changed_program_runs_as_it_was_or_is_refused() {
        let hooks = Path::new("/r/.git/hooks");
        let start = list(&[
            ("core.sshcommand", "ssh -i key"),
            ("credential.helper", "a"),
        ]);
        assert_eq!(drift(&start, &start, hooks), Drift::None);
        // Changed: the start value comes back.
        let now = list(&[("core.sshcommand", "./p"), ("credential.helper", "a")]);
        assert_eq!(
            drift(&start, &now, hooks),
            Drift::Restore(vec![("core.sshcommand".into(), "ssh -i key".into())])
        );
        // A helper added: the list is emptied, then the start's helpers given again.
        let now = list(&[
            ("core.sshcommand", "ssh -i key"),
            ("credential.helper", "a"),
            ("credential.helper", "./steal"),
        ]);
        assert_eq!(
            drift(&start, &now, hooks),
            Drift::Restore(vec![
                ("credential.helper".into(), "".into()),
                ("credential.helper".into(), "a".into())
            ])
        );
        // New, with a neutral value.
        let now = list(&[("core.fsmonitor", "./p")]);
        assert_eq!(
            drift(&[], &now, hooks),
            Drift::Restore(vec![("core.fsmonitor".into(), "false".into())])
        );
        assert_eq!(
            drift(&[], &list(&[("core.hookspath", "tree/hooks")]), hooks),
            Drift::Restore(vec![("core.hookspath".into(), "/r/.git/hooks".into())])
        );
        // New, without one.
        assert_eq!(
            drift(&[], &list(&[("diff.external", "./p")]), hooks),
            Drift::Refuse("diff.external".into())
        );
        // Removed: nothing to do.
        assert_eq!(drift(&start, &[], hooks), Drift::None);
    }
}
