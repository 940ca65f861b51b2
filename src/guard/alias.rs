//! git's aliases, followed as git follows them ([`resolve_aliases`]): a command of git's own
//! first, then the call's `-c alias.*` settings, then the configuration; each value split as
//! git splits it, its global options joining the call's, until a command the grammar
//! ([`crate::request::effect`]) knows. A shell alias, a loop or a value that cannot be read is
//! a call the guard cannot see into.

use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::request::effect::{self, Effect, Outline};

/// The most aliases followed in a row (git stops loops the same way).
const MAX_ALIASES: usize = 16;

/// Follows aliases until a command this grammar knows: from the call's `-c` settings first,
/// then the configuration git reads (a `!` alias is a shell command: unknown). Each alias's
/// value is split as git splits it, and the global options it holds (`-c` settings included)
/// join the call's.
pub(super) fn resolve_aliases(cwd: &Path, mut call: Outline) -> Outline {
    let mut seen: Vec<String> = Vec::new();
    while let Effect::Alias { name, rest } = &call.effect {
        let (name, rest) = (name.clone(), rest.clone());
        let unknown = |mut call: Outline, why: String| {
            call.effect = Effect::Unknown(why);
            call
        };
        if seen.contains(&name) || seen.len() >= MAX_ALIASES {
            return unknown(call, format!("the alias `{name}` loops"));
        }
        seen.push(name.clone());
        // git runs a command of its own (a builtin this grammar does not list, a `git-<name>`
        // in its directory or on PATH) before it looks for an alias of that name.
        match crate::git::probe::git_commands(cwd, &call.place.globals) {
            Ok(commands) if commands.contains(&name) => {
                return unknown(
                    call,
                    format!("`git {name}` is a command this guard does not know"),
                );
            }
            Ok(_) => {}
            Err(_) => {
                return unknown(
                    call,
                    format!("`git {name}`: git's commands cannot be listed"),
                );
            }
        }
        let key = format!("alias.{}", name.to_ascii_lowercase());
        let inline = call
            .place
            .config
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone().unwrap_or_default());
        let value = match inline {
            Some(v) => Some(v.as_bytes().to_vec()),
            None => crate::git::probe::config_value(cwd, &call.place.globals, &key)
                .map(String::into_bytes),
        };
        let Some(value) = value else {
            return unknown(
                call,
                format!("`git {name}` is neither a git command nor an alias"),
            );
        };
        if value.trim_ascii_start().starts_with(b"!") {
            return unknown(call, format!("the alias `{name}` runs a shell command"));
        }
        let Some(words) = effect::split_cmdline(&value) else {
            return unknown(call, format!("the alias `{name}` cannot be read"));
        };
        let mut args = words;
        args.extend(rest);
        let inner = effect::git(&args);
        let mut place = call.place;
        place.chdir.extend(inner.place.chdir);
        place.config.extend(inner.place.config);
        place.globals.extend(inner.place.globals);
        if inner.place.git_dir.is_some() {
            place.git_dir = inner.place.git_dir;
        }
        if inner.place.work_tree.is_some() {
            place.work_tree = inner.place.work_tree;
        }
        call = Outline {
            place,
            effect: inner.effect,
            network: inner.network,
            targets: inner.targets,
            locks_index: inner.locks_index,
            moves: inner.moves,
            settings: inner.settings,
        };
    }
    call
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(value: &str) -> Vec<String> {
        effect::split_cmdline(value.as_bytes())
            .unwrap()
            .into_iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn alias_values_split_like_git() {
        assert_eq!(split("push origin main"), ["push", "origin", "main"]);
        assert_eq!(
            split("commit -m 'two words'"),
            ["commit", "-m", "two words"]
        );
        assert_eq!(split("log \"a b\" c\\ d"), ["log", "a b", "c d"]);
        // A no-break space is not a separator to git.
        assert_eq!(split("branch x\u{a0}--list"), ["branch", "x\u{a0}--list"]);
        // Leading and trailing separators make empty words, as in git.
        assert_eq!(split(" log"), ["", "log"]);
        assert_eq!(split("log "), ["log", ""]);
        assert_eq!(split("a\t\r\nb"), ["a", "b"]);
        assert_eq!(split("a\u{0b}b"), ["a\u{0b}b"]);
        assert_eq!(split("'a\\b'"), ["a\\b"]);
        assert!(effect::split_cmdline(b"log 'open").is_none());
        assert!(effect::split_cmdline(b"log \\").is_none());
    }
}
