//! The session guard (ADR 15): with `GIT_PRISM_SCOPE` set, every `git` and `gh` call of the
//! session — the agent's own, a hook's, a `make` recipe's — is held to the declared scope
//! before the real program runs. Reads pass without the scope being read (unless the call
//! names a program git would run, which makes it a call the guard cannot see into); a write is
//! placed (which repository, which remote branches) and checked against the permission the
//! scope gives that repository; what cannot be placed is refused. A refusal changes nothing:
//! the caller prints one `git-prism guard:` line and exits non-zero.
//!
//! Pure but for reading the scope file, small files of the repository's `.git` (to find it),
//! and for a push the repository's configuration through the real git.

pub mod log;
pub mod place;
pub mod push;
pub mod scope;

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::locate::Program;
use crate::request::effect::{self, Effect, Place};
use scope::{Permission, Scope};

/// The most aliases followed in a row (git stops loops the same way).
const MAX_ALIASES: usize = 16;

/// What the guard decided.
#[derive(Debug)]
pub enum Verdict {
    /// Run it; nothing to record.
    Allow,
    /// Run it, and record it (a push).
    Record(log::Record),
    /// Do not run it: the line to print, and the record.
    Refuse(String, log::Record),
}

/// Decides a call of `tool` with `args`, run in `cwd` (`None`: the directory cannot be read),
/// under the scope file `scope_file`.
pub fn check(tool: Program, args: &[OsString], cwd: Option<&Path>, scope_file: &OsStr) -> Verdict {
    let command = command_line(tool, args);
    let (place, effect, gh_repo) = match tool {
        Program::Git => {
            let (place, effect) = effect::git(args);
            // Settings and variables that make git run a program of the caller's choosing
            // (a pager, an editor, an ssh command) turn even a read into one.
            let effect = match programs(&place) {
                Some(why) => Effect::Unknown(why),
                None => effect,
            };
            let (place, effect) = match cwd {
                Some(cwd) => resolve_aliases(cwd, (place, effect)),
                None => (place, effect),
            };
            (place, effect, None)
        }
        Program::Gh => {
            let (repo, effect) = effect::gh(args);
            let repo = repo.or_else(|| std::env::var_os("GH_REPO").filter(|v| !v.is_empty()));
            (Place::default(), effect, repo)
        }
    };
    if effect == Effect::Read || effect == Effect::NewRepository {
        return Verdict::Allow;
    }
    let refuse = |repo: Option<&Path>, permission: &str, rule: String, advice: &str| {
        // One line, whatever the rule quotes (a parser's message, a path).
        let rule = rule
            .split(|c: char| c.is_control())
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let repo_text =
            repo.map_or_else(|| "no repository".to_owned(), |r| r.display().to_string());
        let line = format!(
            "git-prism guard: refused `{command}` in {repo_text} ({permission}): {rule}; {advice}"
        );
        let record = record("refused", repo, permission, &command, &rule);
        Verdict::Refuse(line, record)
    };
    let change_scope = "run it yourself outside the agent's session, or change the session's scope";
    let Some(cwd) = cwd else {
        return refuse(
            None,
            "unknown",
            "the directory this runs in cannot be read, so the repository it acts on cannot be told".into(),
            change_scope,
        );
    };
    // `git init <dir>` where no repository is: a new one.
    if let Effect::Init { dir: Some(dir) } = &effect {
        let target = cwd
            .join(place.chdir.iter().collect::<std::path::PathBuf>())
            .join(dir);
        if place::identify(&target).is_none() && place.git_dir.is_none() {
            return Verdict::Allow;
        }
    }
    let env = place::Env::current();
    let identity = place::of_call(cwd, &place, &env);
    let Some(identity) = identity else {
        return refuse(
            None,
            "unknown",
            "the repository this write acts on cannot be told".into(),
            change_scope,
        );
    };
    // The repository as a person knows it: its work tree when its git directory is in it.
    let shown = match &identity.work_tree {
        Some(w) if identity.git_dir.starts_with(w) || identity.common_dir.starts_with(w) => {
            w.clone()
        }
        _ => identity.git_dir.clone(),
    };
    // A work tree named for another repository: git would write there.
    if let Some(tree) = place.work_tree.as_ref().or(env.work_tree.as_ref()) {
        let named = cwd
            .join(place.chdir.iter().collect::<std::path::PathBuf>())
            .join(tree);
        if place::identify(&named).is_some_and(|other| other.common_dir != identity.common_dir) {
            return refuse(
                Some(&shown),
                "unknown",
                format!(
                    "the work tree named ({}) belongs to another repository",
                    named.display()
                ),
                change_scope,
            );
        }
    }
    // An index or object store elsewhere makes the write land elsewhere.
    if let Some(why) = place::elsewhere(&identity, &env) {
        return refuse(Some(&shown), "unknown", why, change_scope);
    }
    let scope: Scope = match scope::load(Path::new(scope_file)) {
        Ok(s) => s,
        Err(e) => {
            return refuse(
                Some(&shown),
                "no valid scope",
                format!(
                    "{}; every write is refused until the scope is fixed",
                    crate::text::chain(&e)
                ),
                "fix the file (`git-prism session check` says what is wrong) or run it yourself",
            );
        }
    };
    let entry = match gh_repo {
        // gh acting on a repository named on the forge: not one of the scope's.
        Some(_) => None,
        None => scope.entry_for(&identity),
    };
    let permission = entry.map_or(Permission::Read, |e| e.permission);
    let name = permission.name();
    let needs = |wanted: Permission, what: &str| -> Option<Verdict> {
        (permission < wanted).then(|| {
            let rule = match gh_repo.as_ref() {
                Some(r) => format!(
                    "{what}, which needs {}, and `{}` is a repository named on the forge, not one of the scope's (run gh from the repository's directory)",
                    wanted.name(),
                    r.to_string_lossy()
                ),
                None if entry.is_none() => format!(
                    "{what}, which needs {}, and the scope ({}) does not list this repository (unlisted repositories are read-only)",
                    wanted.name(),
                    scope.file.display()
                ),
                None => format!(
                    "{what}, which needs {} (scope {})",
                    wanted.name(),
                    scope.file.display()
                ),
            };
            refuse(Some(&shown), name, rule, change_scope)
        })
    };
    match effect {
        Effect::Read | Effect::NewRepository => Verdict::Allow,
        Effect::Init { .. } => needs(
            Permission::WriteLocal,
            "`git init` on an existing repository changes it",
        )
        .unwrap_or(Verdict::Allow),
        Effect::Alias { name: alias, .. } => refuse(
            Some(&shown),
            name,
            format!("`{alias}` is neither a git command nor an alias this guard can read"),
            change_scope,
        ),
        Effect::Local(what) => needs(
            Permission::WriteLocal,
            &format!("`{what}` changes the repository"),
        )
        .unwrap_or(Verdict::Allow),
        Effect::Send(what) => needs(
            Permission::WritePush,
            &format!("{what} sends from this machine"),
        )
        .unwrap_or_else(|| Verdict::Record(record("allowed", Some(&shown), name, &command, &what))),
        // A program the guard cannot see into (an external `git-foo`, a shell alias, a command
        // git runs for `rebase -x` or `bisect run`): git starts it with its own directory first
        // on PATH, so the `git` it calls would not come back here. Refused whatever the
        // permission: failing open would be worse than no guard.
        Effect::Unknown(why) => refuse(
            Some(&shown),
            name,
            format!("{why}, whose git calls this guard would not see"),
            change_scope,
        ),
        Effect::Push(p) => {
            if let Some(v) = needs(Permission::WritePush, "a push") {
                return v;
            }
            let Some(entry) = entry else {
                return Verdict::Allow; // unreachable: write-push comes from an entry
            };
            let settings = match crate::git::push::push_settings(cwd, &place.globals) {
                Ok(s) => s,
                Err(e) => {
                    return refuse(
                        Some(&shown),
                        name,
                        format!(
                            "where the push goes cannot be told: {}",
                            crate::text::chain(&e)
                        ),
                        change_scope,
                    );
                }
            };
            match push::destinations(&p, &settings) {
                Err(why) => refuse(
                    Some(&shown),
                    name,
                    format!("where the push goes cannot be told: {why}"),
                    "name the branch (`git push origin <branch>`), or run it yourself",
                ),
                // A dry run sends nothing.
                Ok(_) if p.dry_run => Verdict::Allow,
                Ok(branches) => match branches.iter().find(|b| entry.protects(b)) {
                    Some(b) => refuse(
                        Some(&shown),
                        name,
                        format!(
                            "`{b}` is a protected branch (protected: {})",
                            entry.protected.join(", ")
                        ),
                        "push another branch and open a pull request, or run it yourself",
                    ),
                    None => Verdict::Record(record(
                        "allowed",
                        Some(&shown),
                        name,
                        &command,
                        &format!(
                            "push to {}",
                            if branches.is_empty() {
                                "no branch (tags or other refs)".to_owned()
                            } else {
                                branches.join(", ")
                            }
                        ),
                    )),
                },
            }
        }
    }
}

/// Follows aliases until a command this grammar knows: from the call's `-c` settings first,
/// then the configuration git reads (a `!` alias is a shell command: unknown).
fn resolve_aliases(cwd: &Path, (mut place, mut effect): (Place, Effect)) -> (Place, Effect) {
    let mut seen: Vec<String> = Vec::new();
    while let Effect::Alias { name, rest } = &effect {
        if seen.contains(name) || seen.len() >= MAX_ALIASES {
            return (place, Effect::Unknown(format!("the alias `{name}` loops")));
        }
        seen.push(name.clone());
        // git runs a command of its own (a builtin this grammar does not list, a `git-<name>`
        // in its directory or on PATH) before it looks for an alias of that name.
        match crate::git::push::git_commands(cwd, &place.globals) {
            Ok(commands) if commands.iter().any(|c| c == name) => {
                return (
                    place,
                    Effect::Unknown(format!(
                        "`git {name}` is a command this guard does not know"
                    )),
                );
            }
            Ok(_) => {}
            Err(_) => {
                return (
                    place,
                    Effect::Unknown(format!("`git {name}`: git's commands cannot be listed")),
                );
            }
        }
        let key = format!("alias.{}", name.to_ascii_lowercase());
        let inline = place
            .config
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone().unwrap_or_default());
        let value = match inline {
            Some(v) => Some(v.to_string_lossy().into_owned()),
            None => crate::git::push::config_value(cwd, &place.globals, &key),
        };
        let Some(value) = value else {
            return (
                place,
                Effect::Unknown(format!(
                    "`git {name}` is neither a git command nor an alias"
                )),
            );
        };
        if value.trim_start().starts_with('!') {
            return (
                place,
                Effect::Unknown(format!("the alias `{name}` runs a shell command")),
            );
        }
        let Some(words) = split_words(&value) else {
            return (
                place,
                Effect::Unknown(format!("the alias `{name}` cannot be read")),
            );
        };
        let mut args: Vec<OsString> = words.into_iter().map(OsString::from).collect();
        args.extend(rest.iter().cloned());
        let (inner, next) = effect::git(&args);
        place.chdir.extend(inner.chdir);
        place.config.extend(inner.config);
        place.globals.extend(inner.globals);
        if inner.git_dir.is_some() {
            place.git_dir = inner.git_dir;
        }
        if inner.work_tree.is_some() {
            place.work_tree = inner.work_tree;
        }
        effect = next;
    }
    (place, effect)
}

/// `-c` keys known to name no program and no file git would write (`*` matches a
/// subsection or a name). Any other key makes the call one the guard cannot see into: the
/// list of keys that run something (`tar.<fmt>.command`, `man.<tool>.path`,
/// `gpg.ssh.defaultKeyCommand`, `core.sshCommand`, ...) is long and grows with git.
const HARMLESS_KEYS: &[&str] = &[
    "user.*",
    "author.*",
    "committer.*",
    "color.*",
    "advice.*",
    "log.*",
    "format.pretty",
    "diff.renames",
    "diff.algorithm",
    "diff.context",
    "diff.interhunkcontext",
    "diff.noprefix",
    "diff.mnemonicprefix",
    "diff.relative",
    "diff.indentheuristic",
    "diff.colormoved",
    "diff.suppressblankempty",
    "diff.ignoresubmodules",
    "diff.statgraphwidth",
    "diff.renamelimit",
    "core.quotepath",
    "core.abbrev",
    "core.autocrlf",
    "core.eol",
    "core.safecrlf",
    "core.filemode",
    "core.ignorecase",
    "core.precomposeunicode",
    "core.untrackedcache",
    "core.commentchar",
    "core.commentstring",
    "core.pager",
    "core.editor",
    "core.fsmonitor",
    "pager.*",
    "init.defaultbranch",
    "push.default",
    "push.autosetupremote",
    "push.followtags",
    "remote.*.push",
    "remote.*.url",
    "remote.*.pushurl",
    "remote.*.fetch",
    "remote.pushdefault",
    "branch.*.merge",
    "branch.*.remote",
    "branch.*.pushremote",
    "branch.*.rebase",
    "pull.rebase",
    "pull.ff",
    "merge.ff",
    "merge.conflictstyle",
    "rebase.autosquash",
    "rebase.autostash",
    "rebase.updaterefs",
    "fetch.prune",
    "fetch.prunetags",
    "gc.auto",
    "maintenance.auto",
    "status.*",
    "commit.verbose",
    "commit.cleanup",
    "commit.status",
    "tag.sort",
    "versionsort.suffix",
    "i18n.*",
    "protocol.version",
    "safe.directory",
    "grep.*",
    "column.*",
    "alias.*",
];

/// Variables whose value is a program git runs, or configuration it reads.
const PROGRAM_VARS: &[&str] = &[
    "GIT_PAGER",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_EXTERNAL_DIFF",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_ASKPASS",
    "GIT_PROXY_COMMAND",
    "GIT_EXEC_PATH",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_ALLOW_PROTOCOL",
    "GIT_CONFIG",
];

/// Variables that say where git reads the user's configuration, or which programs it falls
/// back to (`PAGER`, `EDITOR`): part of the environment a session starts with, trusted as
/// such, and recorded by `git-prism session` with every [`PROGRAM_VARS`] one.
const USER_VARS: &[&str] = &[
    "HOME",
    "XDG_CONFIG_HOME",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "PAGER",
    "EDITOR",
    "VISUAL",
    "SSH_ASKPASS",
];

/// The variables `git-prism session` records as the session starts (each under
/// `GIT_PRISM_SESSION_<name>`): a call whose value differs is refused.
pub fn session_vars() -> impl Iterator<Item = (&'static str, String)> {
    USER_VARS
        .iter()
        .chain(PROGRAM_VARS)
        .map(|v| (*v, format!("GIT_PRISM_SESSION_{v}")))
}

/// Why a call's `-c` settings or environment make git run a program of the caller's choosing
/// (whose `git` calls would not come back here) or read configuration the session did not
/// start with, if they do. A pager or editor that is `cat`, `less`, `more` or `true` runs
/// nothing that could call git; `-c alias.*` is resolved instead, unless it runs a shell.
fn programs(place: &Place) -> Option<String> {
    let harmless = |v: &OsStr| {
        matches!(
            v.as_bytes(),
            b"" | b"cat" | b"less" | b"more" | b"true" | b"false" | b"less -R" | b"less -FRX"
        )
    };
    for (key, value) in &place.config {
        let key = key.to_ascii_lowercase();
        if !HARMLESS_KEYS.iter().any(|p| key_matches(p, &key)) {
            return Some(format!(
                "`-c {key}` is not a setting this guard knows to run nothing"
            ));
        }
        let value = value.as_deref();
        if key.starts_with("alias.") {
            if value.is_some_and(|v| v.as_bytes().trim_ascii_start().starts_with(b"!")) {
                return Some(format!("`-c {key}` runs a shell command"));
            }
        } else if key == "core.pager" || key.starts_with("pager.") || key == "core.editor" {
            if !value.is_none_or(harmless) {
                return Some(format!("`-c {key}` names a program git would run"));
            }
        } else if key.starts_with("remote.")
            && value.is_some_and(|v| crate::request::effect::runs_transport(v.as_bytes()))
        {
            return Some(format!("`-c {key}` names a transport that runs a program"));
        } else if key == "core.fsmonitor" && value.is_none_or(|v| v.as_bytes() != b"false") {
            return Some("`-c core.fsmonitor` names a program git would run".into());
        }
    }
    // The environment: as the session started when `git-prism session` recorded it (a
    // change for one command is what an accident looks like); else the variables that name
    // programs must name none, or a harmless one.
    let recorded = std::env::var_os("GIT_PRISM_SESSION_HOME").is_some();
    for (var, record) in session_vars() {
        let now = std::env::var_os(var).unwrap_or_default();
        if recorded {
            if now != std::env::var_os(&record).unwrap_or_default() {
                return Some(format!(
                    "`{var}` differs from the session's, so git would run or read something else"
                ));
            }
            continue;
        }
        if now.is_empty() || !PROGRAM_VARS.contains(&var) {
            continue;
        }
        let pager_like = matches!(var, "GIT_PAGER" | "GIT_EDITOR" | "GIT_SEQUENCE_EDITOR");
        if !((pager_like && harmless(&now)) || (var == "GIT_CONFIG_COUNT" && now == "0")) {
            return Some(format!("`{var}` is set, and names what git runs or reads"));
        }
    }
    // A trace written to a file can be written into a repository.
    for (name, value) in std::env::vars_os() {
        if name.as_bytes().starts_with(b"GIT_TRACE") && value.as_bytes().contains(&b'/') {
            return Some(format!(
                "`{}` names a file git would write",
                name.to_string_lossy()
            ));
        }
    }
    None
}

/// Whether a lowered configuration key matches a [`HARMLESS_KEYS`] pattern (`*` is one or
/// more characters: a subsection, or a name).
fn key_matches(pattern: &str, key: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == key,
        Some((head, tail)) => {
            key.len() > head.len() + tail.len() && key.starts_with(head) && key.ends_with(tail)
        }
    }
}

/// Splits an alias's value into words as git does: whitespace separates, quotes group, a
/// backslash escapes. `None` for an unclosed quote.
fn split_words(value: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (_, '\\') => {
                word.push(chars.next()?);
                started = true;
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            (None, c) => {
                word.push(c);
                started = true;
            }
        }
    }
    if quote.is_some() {
        return None;
    }
    if started {
        words.push(word);
    }
    Some(words)
}

/// The command line as one string (for the refusal line and the record).
fn command_line(tool: Program, args: &[OsString]) -> String {
    let mut out = tool.name().to_owned();
    for a in args {
        out.push(' ');
        out.push_str(&crate::text::clip(
            &String::from_utf8_lossy(a.as_bytes()),
            200,
        ));
    }
    // One line whatever the arguments hold: control characters are shown, not written.
    let out: String = out
        .chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    crate::text::clip(&out, 1000).into_owned()
}

fn record(
    decision: &str,
    repo: Option<&Path>,
    permission: &str,
    command: &str,
    rule: &str,
) -> log::Record {
    log::Record {
        time: crate::time::now_rfc3339(),
        decision: decision.to_owned(),
        repo: repo.map(|r| r.display().to_string()),
        permission: permission.to_owned(),
        command: command.to_owned(),
        rule: rule.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alias_values_split_like_git() {
        assert_eq!(
            split_words("push origin main").unwrap(),
            ["push", "origin", "main"]
        );
        assert_eq!(
            split_words("commit -m 'two words'").unwrap(),
            ["commit", "-m", "two words"]
        );
        assert_eq!(
            split_words("log \"a b\" c\\ d").unwrap(),
            ["log", "a b", "c d"]
        );
        assert!(split_words("log 'open").is_none());
    }
}
