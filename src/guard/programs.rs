//! What makes git run a program the guard cannot see into, or read configuration the session
//! did not start with, before any subcommand is looked at: the call's `-c` settings (held to
//! [`super::config`]'s allow-list), the variables that name a pager, an editor or an ssh
//! command, the settings `GIT_CONFIG_COUNT` carries, a trace file ([`programs`]); and the
//! call's own hooks directory, which would win over the guard's hook wrapper
//! ([`hooks_path_set`], [`names_hooks`]).

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;

use super::context::Context;
use super::{config, hook, session};
use crate::request::effect::Place;

/// The `GIT_CONFIG_KEY_<n>` and `GIT_CONFIG_VALUE_<n>` variables `GIT_CONFIG_COUNT` counts in
/// this process's environment (at most 1,000).
pub fn config_env_vars() -> Vec<String> {
    let count = std::env::var("GIT_CONFIG_COUNT")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(0)
        .min(1000);
    (0..count)
        .flat_map(|n| {
            [
                format!("GIT_CONFIG_KEY_{n}"),
                format!("GIT_CONFIG_VALUE_{n}"),
            ]
        })
        .collect()
}

/// The variables `git-prism session` records as the session starts.
pub fn session_vars() -> impl Iterator<Item = &'static str> {
    crate::git::keys::USER_VARS
        .iter()
        .chain(crate::git::keys::PROGRAM_VARS)
        .copied()
}

/// What makes a call run a program the guard cannot see into, or read configuration the
/// session did not start with ([`programs`]): why, and what the call would drop to run
/// without it.
#[derive(Debug)]
pub(super) struct Found {
    /// Why, as the refusal says it.
    pub why: String,
    /// What the call would drop.
    cause: Cause,
}

#[derive(Debug)]
enum Cause {
    /// A `-c` setting (lowered as git compares it).
    Setting,
    /// A variable to run without (unset, as the session started).
    Unset(String),
    /// A variable the session started with another value.
    AsStarted(String),
}

impl Found {
    /// The call `args` without what runs the program, where its command line says how: the
    /// `-c` settings this guard refuses left out, or a variable unset (`env -u`).
    pub fn fix(&self, args: &[OsString]) -> Option<String> {
        match &self.cause {
            Cause::Setting => {
                let (kept, dropped) = without_refused_settings(args);
                // An alias defined by the setting is the command itself: without it there is
                // no call to offer.
                let defines_alias = dropped
                    .iter()
                    .any(|d| d.as_bytes().to_ascii_lowercase().starts_with(b"alias."));
                (!dropped.is_empty() && !defines_alias).then(|| {
                    format!(
                        "run `git {}` instead (without {})",
                        crate::shell::join(kept.iter().map(|a| a.as_os_str())),
                        dropped
                            .iter()
                            .map(|d| format!("`-c {}`", crate::shell::quote(d)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
            }
            Cause::Unset(var) => Some(format!(
                "run `env -u {var} git {}` instead",
                crate::shell::join(args.iter().map(|a| a.as_os_str()))
            )),
            Cause::AsStarted(var) => Some(format!("run it with `{var}` as the session started it")),
        }
    }
}

/// `args` without the `-c` settings among git's global options that
/// [`config::setting_refusal`] refuses, and the settings left out.
fn without_refused_settings(args: &[OsString]) -> (Vec<OsString>, Vec<OsString>) {
    crate::request::without_settings(args, |key, value| {
        // Lowered whole, as `programs` judges it.
        config::setting_refusal(&key.to_ascii_lowercase(), value, config::Via::CommandLine)
            .is_some()
    })
}

/// Why a call's `-c` settings or environment make git run a program of the caller's choosing
/// (whose `git` calls would not come back here) or read configuration the session did not
/// start with, if they do. A pager or editor that is `cat`, `less`, `more` or `true` runs
/// nothing that could call git; `-c alias.*` is resolved instead, unless it runs a shell;
/// `-c core.hooksPath` may only switch hooks off.
pub(super) fn programs(place: &Place, ctx: &Context) -> Option<Found> {
    for (key, value) in &place.config {
        let key = key.to_ascii_lowercase();
        if let Some(why) = config::setting_refusal(&key, value.as_deref(), config::Via::CommandLine)
        {
            return Some(Found {
                why,
                cause: Cause::Setting,
            });
        }
    }
    // The environment: as the session started when `git-prism session` recorded it (a change
    // for one command is what an accident looks like); else the variables that name programs
    // must name none, or a harmless one.
    for var in session_vars() {
        let now = std::env::var_os(var);
        let pager_like = crate::git::keys::PAGER_VARS.contains(&var);
        let harmless_now = pager_like
            && now
                .as_deref()
                .is_some_and(crate::git::keys::harmless_program);
        if let Some(record) = &ctx.record {
            let recorded = record.environment.get(var).map(session::Bytes::os);
            if now != recorded && !harmless_now {
                return Some(Found {
                    why: format!(
                        "`{var}` differs from the session's, so git would run or read something else"
                    ),
                    cause: match recorded {
                        None => Cause::Unset(var.to_owned()),
                        Some(_) => Cause::AsStarted(var.to_owned()),
                    },
                });
            }
            continue;
        }
        let Some(now) = now.filter(|v| !v.is_empty()) else {
            continue;
        };
        if !crate::git::keys::PROGRAM_VARS.contains(&var) || harmless_now {
            continue;
        }
        let fine = var == "GIT_CONFIG_COUNT" && now == "0";
        if !fine {
            return Some(Found {
                why: format!("`{var}` is set, and names what git runs or reads"),
                cause: Cause::Unset(var.to_owned()),
            });
        }
    }
    // The settings `GIT_CONFIG_COUNT` counts: each as the session started (a count equal to
    // the session's does not make its entries the session's).
    if let Some(record) = &ctx.record {
        for var in config_env_vars() {
            let now = std::env::var_os(&var);
            let recorded = record.environment.get(&var).map(session::Bytes::os);
            if now != recorded {
                return Some(Found {
                    why: format!(
                        "`{var}` differs from the session's, so git would read another setting"
                    ),
                    cause: match recorded {
                        None => Cause::Unset(var),
                        Some(_) => Cause::AsStarted(var),
                    },
                });
            }
        }
    }
    // A trace written to a file can be written into a repository.
    for (name, value) in std::env::vars_os() {
        if name.as_bytes().starts_with(b"GIT_TRACE") && value.as_bytes().contains(&b'/') {
            let name = name.to_string_lossy().into_owned();
            return Some(Found {
                why: format!("`{name}` names a file git would write"),
                cause: Cause::Unset(name),
            });
        }
    }
    None
}

/// How the call's configuration points git's hooks elsewhere (which skips the repository's
/// own), if it does: `-c core.hooksPath=...` on the command line or through an alias, or
/// `core.hooksPath` in the configuration the environment carries (`GIT_CONFIG_PARAMETERS`,
/// `GIT_CONFIG_KEY_<n>`; the entry the shim adds for its own hook wrapper aside).
pub fn hooks_path_set(place: &Place) -> Option<String> {
    place.hooks_path_setting().or_else(|| {
        hooks_path_in_env(std::env::var(hook::INDEX_VAR).ok().as_deref())
            .then(|| "core.hooksPath set in the environment".to_owned())
    })
}

/// Whether the configuration the environment carries (`GIT_CONFIG_PARAMETERS`,
/// `GIT_CONFIG_KEY_<n>`) sets `core.hooksPath`, leaving out the entry numbered `ours` (the one
/// the shim adds for its own hook wrapper).
fn hooks_path_in_env(ours: Option<&str>) -> bool {
    let named = |v: &OsStr| {
        v.as_bytes()
            .to_ascii_lowercase()
            .windows(b"core.hookspath".len())
            .any(|w| w == b"core.hookspath")
    };
    std::env::var_os("GIT_CONFIG_PARAMETERS").is_some_and(|v| named(&v))
        || std::env::vars_os().any(|(k, v)| {
            k.to_str()
                .and_then(|k| k.strip_prefix("GIT_CONFIG_KEY_"))
                .is_some_and(|n| Some(n) != ours && named(&v))
        })
}

/// Whether the call names its own hooks directory (`-c core.hooksPath`, or in the
/// configuration the environment carries), other than switching hooks off.
pub(super) fn names_hooks(place: &Place) -> bool {
    let own = place.config.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("core.hookspath")
            && v.as_deref().is_none_or(|v| v.as_bytes() != b"/dev/null")
    });
    own || hooks_path_in_env(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<OsString> {
        line.split(' ').map(OsString::from).collect()
    }

    /// A refused `-c` setting is left out of the call the refusal offers; the other global
    /// options, and everything from the subcommand on, stay as they were.
    #[test]
    fn the_call_without_its_refused_settings() {
        let (kept, dropped) =
            without_refused_settings(&words("-C app -c diff.external=./x -c user.name=A diff -c"));
        assert_eq!(kept, words("-C app -c user.name=A diff -c"));
        assert_eq!(dropped, words("diff.external=./x"));
        // A value that looks like an option is a value.
        let (kept, dropped) =
            without_refused_settings(&words("-C -c -c core.pager=./p log -c core.pager=x"));
        assert_eq!(kept, words("-C -c log -c core.pager=x"));
        assert_eq!(dropped, words("core.pager=./p"));
    }
}
