//! What a `git` or `gh` command line does, for the session guard (ADR 15): only read, change a
//! repository on this machine, or send something away — and, for a push, what it sends where.
//!
//! Pure: nothing runs while classifying. Everything not known to be a read is a write: a
//! subcommand or option this grammar does not know, an alias (resolved by the guard, which can
//! read the configuration), a command git finds on PATH (`git-foo`).

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;

/// The global options that decide which repository a call acts on, and the `-c` settings
/// (aliases can be defined there).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// Every global option token, verbatim and in order (to run git as the call would).
    pub globals: Vec<OsString>,
    /// `-C <dir>`, in order (each relative to the previous one).
    pub chdir: Vec<OsString>,
    /// `--git-dir`.
    pub git_dir: Option<OsString>,
    /// `--work-tree`.
    pub work_tree: Option<OsString>,
    /// `-c name=value` (and `--config-env`'s names, with no value), in order.
    pub config: Vec<(String, Option<OsString>)>,
}

/// What a command line does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing in any repository changes (it may print, or write files outside the repository
    /// the way `format-patch` does).
    Read,
    /// The repository on this machine changes (its refs, index, work tree or configuration);
    /// nothing leaves the machine. The name says what.
    Local(String),
    /// A new repository is made (`clone`, `init`): nothing existing changes.
    NewRepository,
    /// Something leaves the machine that is not a push of refs (`send-email`).
    Send(String),
    /// A push: what it sends where.
    Push(Push),
    /// A subcommand git may take from an alias: the guard resolves it and classifies again.
    Alias {
        /// The alias's name.
        name: String,
        /// The arguments after it.
        rest: Vec<OsString>,
    },
    /// Something this grammar cannot see into (an external `git-foo`, a shell alias, an option
    /// it does not know where it matters): a write whose target is unknown.
    Unknown(String),
}

/// `git push [<options>] [<repository> [<refspec>...]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Push {
    /// The repository (remote name, URL or path), if given.
    pub remote: Option<OsString>,
    /// The refspecs, as given.
    pub refspecs: Vec<OsString>,
    /// `--all` / `--branches`.
    pub all: bool,
    /// `--mirror`.
    pub mirror: bool,
    /// `--delete` / `-d`: the refspecs name refs to delete.
    pub delete: bool,
    /// `--tags`: every tag, besides the refspecs.
    pub tags: bool,
    /// `--prune`: remote refs without a local counterpart are deleted.
    pub prune: bool,
    /// `--dry-run` / `-n`: nothing is sent.
    pub dry_run: bool,
    /// An option that makes the push's destinations unknowable here (`--receive-pack`,
    /// `--recurse-submodules=on-demand`...).
    pub unplaceable: Option<String>,
}

/// Classifies a `git` command line (without `argv[0]`).
pub fn git(args: &[OsString]) -> (Place, Effect) {
    let mut place = Place::default();
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let bytes = arg.as_bytes();
        if !bytes.starts_with(b"-") {
            break;
        }
        let (name, inline) = split_long(bytes);
        let value = |i: &mut usize| -> Option<OsString> {
            if let Some(v) = inline {
                *i += 1;
                return Some(OsStr::from_bytes(v).to_owned());
            }
            let v = args.get(*i + 1).cloned();
            *i += 2;
            v
        };
        match name {
            b"-C" if inline.is_none() => match value(&mut i) {
                Some(dir) => place.chdir.push(dir),
                None => return (place, Effect::Unknown("-C without a directory".into())),
            },
            b"-c" if inline.is_none() => match value(&mut i) {
                Some(setting) => place.config.push(setting_of(&setting)),
                None => return (place, Effect::Unknown("-c without a setting".into())),
            },
            b"--config-env" => match value(&mut i) {
                // `name=ENVVAR`: the value is in the environment; the name is what matters.
                Some(setting) => {
                    let (key, _) = setting_of(&setting);
                    place.config.push((key, None));
                }
                None => {
                    return (
                        place,
                        Effect::Unknown("--config-env without a setting".into()),
                    );
                }
            },
            b"--git-dir" => place.git_dir = value(&mut i),
            b"--work-tree" => place.work_tree = value(&mut i),
            b"--namespace" | b"--attr-source" | b"--super-prefix" => {
                value(&mut i);
            }
            b"--bare"
            | b"-p"
            | b"--paginate"
            | b"-P"
            | b"--no-pager"
            | b"--no-advice"
            | b"--no-lazy-fetch"
            | b"--no-optional-locks"
            | b"--no-replace-objects"
            | b"--literal-pathspecs"
            | b"--glob-pathspecs"
            | b"--noglob-pathspecs"
            | b"--icase-pathspecs"
                if inline.is_none() =>
            {
                i += 1;
            }
            b"--exec-path" if inline.is_some() => {
                // Where git looks for its commands: any program could stand in for one.
                return (place, Effect::Unknown("--exec-path=<dir>".into()));
            }
            b"-v" | b"--version" | b"-h" | b"--help" | b"--exec-path" | b"--html-path"
            | b"--man-path" | b"--info-path" | b"--list-cmds" => return (place, Effect::Read),
            _ => {
                return (
                    place,
                    Effect::Unknown(format!("global option {}", arg.to_string_lossy())),
                );
            }
        }
    }
    place.globals = args[..i.min(args.len())].to_vec();
    let Some(sub) = args.get(i) else {
        return (place, Effect::Read);
    };
    let rest = &args[i + 1..];
    (place, subcommand(sub, rest))
}

/// `name=value` of `-c` (a name alone means `true`); the name's section and key are
/// case-insensitive to git, so they are lowered (a subsection keeps its case).
fn setting_of(setting: &OsStr) -> (String, Option<OsString>) {
    let bytes = setting.as_bytes();
    let (name, value) = match bytes.iter().position(|b| *b == b'=') {
        Some(eq) => (
            &bytes[..eq],
            Some(OsStr::from_bytes(&bytes[eq + 1..]).to_owned()),
        ),
        None => (bytes, None),
    };
    (config_key(&String::from_utf8_lossy(name)), value)
}

/// A configuration key as git compares it: section and name lowered, subsection kept.
pub fn config_key(key: &str) -> String {
    match (key.find('.'), key.rfind('.')) {
        (Some(first), Some(last)) if first != last => format!(
            "{}{}{}",
            key[..first].to_ascii_lowercase(),
            &key[first..last],
            key[last..].to_ascii_lowercase()
        ),
        _ => key.to_ascii_lowercase(),
    }
}

/// Positional arguments and option names of a subcommand's arguments (up to `--`).
struct Words<'a> {
    positionals: Vec<&'a [u8]>,
    options: Vec<&'a [u8]>,
}

fn words(rest: &[OsString]) -> Words<'_> {
    let mut positionals = Vec::new();
    let mut options = Vec::new();
    let mut dashdash = false;
    for arg in rest {
        let b = arg.as_bytes();
        if dashdash {
            positionals.push(b);
        } else if b == b"--" {
            dashdash = true;
        } else if b.starts_with(b"-") && b.len() > 1 {
            options.push(split_long(b).0);
        } else {
            positionals.push(b);
        }
    }
    Words {
        positionals,
        options,
    }
}

/// Whether any option is one of `names`, or a short option cluster holds one of `shorts`.
fn has(words: &Words<'_>, names: &[&str], shorts: &[u8]) -> bool {
    words.options.iter().any(|o| {
        names.iter().any(|n| n.as_bytes() == *o)
            || (o.len() > 1
                && o[0] == b'-'
                && o[1] != b'-'
                && o[1..].iter().any(|c| shorts.contains(c)))
    })
}

/// Commands that never change a repository.
const READS: &[&str] = &[
    "status",
    "diff",
    "diff-files",
    "diff-index",
    "diff-tree",
    "log",
    "show",
    "shortlog",
    "whatchanged",
    "blame",
    "annotate",
    "grep",
    "ls-files",
    "ls-tree",
    "cat-file",
    "rev-parse",
    "rev-list",
    "describe",
    "name-rev",
    "merge-base",
    "for-each-ref",
    "show-ref",
    "show-branch",
    "count-objects",
    "verify-commit",
    "verify-tag",
    "verify-pack",
    "check-ignore",
    "check-attr",
    "check-mailmap",
    "cherry",
    "range-diff",
    "get-tar-commit-id",
    "patch-id",
    "stripspace",
    "fsck",
    "archive",
    "format-patch",
    "request-pull",
    "ls-remote",
    "help",
    "version",
    "var",
    "check-ref-format",
    "column",
    "fmt-merge-msg",
    "merge-tree",
    "upload-pack",
    "upload-archive",
    "show-index",
    "bugreport",
    "diagnose",
    "difftool",
    "instaweb",
];

/// Commands that change the repository on this machine, and nothing else.
const LOCAL_WRITES: &[&str] = &[
    "add",
    "rm",
    "mv",
    "restore",
    "checkout",
    "switch",
    "reset",
    "commit",
    "merge",
    "rebase",
    "cherry-pick",
    "revert",
    "pull",
    "fetch",
    "am",
    "clean",
    "gc",
    "repack",
    "prune",
    "prune-packed",
    "update-ref",
    "update-index",
    "read-tree",
    "write-tree",
    "commit-tree",
    "mktree",
    "mktag",
    "unpack-objects",
    "index-pack",
    "pack-objects",
    "pack-refs",
    "checkout-index",
    "merge-file",
    "merge-index",
    "merge-one-file",
    "bisect",
    "replace",
    "filter-branch",
    "fast-import",
    "maintenance",
    "mergetool",
    "receive-pack",
    "fetch-pack",
    "pack-redundant",
    "update-server-info",
    "rerere",
    "commit-graph",
    "multi-pack-index",
    "backfill",
    "refs",
    "replay",
    "unbundle",
    "apply",
    "hash-object",
    "interpret-trailers",
];

/// Classifies a subcommand and its arguments.
fn subcommand(sub: &OsString, rest: &[OsString]) -> Effect {
    let name = sub.to_string_lossy();
    let w = words(rest);
    let first = w.positionals.first().copied();
    let local = |what: &str| Effect::Local(what.to_owned());
    match name.as_ref() {
        "push" => push(rest),
        "send-pack" | "svn" | "p4" | "cvsexportcommit" => Effect::Push(Push {
            unplaceable: Some(format!("`git {name}`")),
            ..Push::default()
        }),
        "send-email" | "imap-send" => Effect::Send(format!("`git {name}`")),
        "clone" | "init" => Effect::NewRepository,
        "clean" if has(&w, &["--dry-run"], b"n") => Effect::Read,
        "apply"
            if has(&w, &["--check", "--stat", "--numstat", "--summary"], b"")
                && !has(&w, &["--apply", "--index", "--cached"], b"") =>
        {
            Effect::Read
        }
        "hash-object" if !has(&w, &[], b"w") => Effect::Read,
        "interpret-trailers" if !has(&w, &["--in-place"], b"") => Effect::Read,
        // Commands that run a program of the caller's choosing, which git starts with its own
        // directory first on PATH.
        "rebase" if has(&w, &["--exec"], b"x") => {
            Effect::Unknown("`git rebase --exec` runs a command".into())
        }
        "bisect" if first == Some(b"run") => {
            Effect::Unknown("`git bisect run` runs a command".into())
        }
        "filter-branch" | "filter-repo" => Effect::Unknown(format!("`git {name}` runs commands")),
        "rerere" if matches!(first, Some(b"status" | b"diff" | b"remaining")) => Effect::Read,
        "bisect" if matches!(first, Some(b"log" | b"view" | b"visualize" | b"help")) => {
            Effect::Read
        }
        "replace" if has(&w, &["--list"], b"l") || first.is_none() => Effect::Read,
        n if READS.contains(&n) => Effect::Read,
        n if LOCAL_WRITES.contains(&n) => local(n),
        "branch" => {
            let writes = has(
                &w,
                &[
                    "--delete",
                    "--move",
                    "--copy",
                    "--set-upstream-to",
                    "--unset-upstream",
                    "--edit-description",
                    "--force",
                    "--track",
                    "--no-track",
                    "--create-reflog",
                    "--recurse-submodules",
                    "--set-upstream",
                ],
                b"dDmMcCuft",
            );
            let lists = has(
                &w,
                &[
                    "--list",
                    "--contains",
                    "--no-contains",
                    "--merged",
                    "--no-merged",
                    "--points-at",
                    "--show-current",
                ],
                b"l",
            );
            if writes || (!lists && !w.positionals.is_empty()) {
                local("branch")
            } else {
                Effect::Read
            }
        }
        "tag" => {
            let writes = has(
                &w,
                &[
                    "--delete",
                    "--annotate",
                    "--sign",
                    "--local-user",
                    "--message",
                    "--file",
                    "--force",
                    "--create-reflog",
                    "--edit",
                ],
                b"dasumFfe",
            );
            let lists = has(
                &w,
                &[
                    "--list",
                    "--contains",
                    "--no-contains",
                    "--merged",
                    "--no-merged",
                    "--points-at",
                    "--verify",
                    "--column",
                    "--sort",
                    "--format",
                ],
                b"lnv",
            );
            if writes || (!lists && !w.positionals.is_empty()) {
                local("tag")
            } else {
                Effect::Read
            }
        }
        "remote" => match first {
            None | Some(b"show" | b"get-url") => Effect::Read,
            Some(b"update") => local("remote update (a fetch)"),
            Some(_) => local("remote"),
        },
        "config" => config(&w),
        "stash" => match first {
            Some(b"list" | b"show") => Effect::Read,
            _ => local("stash"),
        },
        "worktree" => match first {
            Some(b"list") => Effect::Read,
            _ => local("worktree"),
        },
        "reflog" => match first {
            None | Some(b"show" | b"exists" | b"list") => Effect::Read,
            _ => local("reflog"),
        },
        "notes" => match first {
            None | Some(b"list" | b"show" | b"get-ref") => Effect::Read,
            _ => local("notes"),
        },
        "sparse-checkout" => match first {
            Some(b"list" | b"check-rules") => Effect::Read,
            _ => local("sparse-checkout"),
        },
        "submodule" => match first {
            None | Some(b"status" | b"summary") => Effect::Read,
            Some(b"foreach") => {
                Effect::Unknown("`git submodule foreach` runs a shell command".into())
            }
            Some(_) => local("submodule"),
        },
        "symbolic-ref" => {
            if has(&w, &["--delete"], b"d") || w.positionals.len() >= 2 {
                local("symbolic-ref")
            } else {
                Effect::Read
            }
        }
        "bundle" => match first {
            Some(b"unbundle") => local("bundle unbundle"),
            _ => Effect::Read,
        },
        "credential" | "credential-cache" | "credential-store" => Effect::Read,
        _ => Effect::Alias {
            name: name.into_owned(),
            rest: rest.to_vec(),
        },
    }
}

/// `git config`: reads unless it sets, unsets, renames, removes or edits.
fn config(w: &Words<'_>) -> Effect {
    let writes = has(
        w,
        &[
            "--add",
            "--unset",
            "--unset-all",
            "--replace-all",
            "--rename-section",
            "--remove-section",
            "--edit",
        ],
        b"e",
    );
    let reads = has(
        w,
        &[
            "--get",
            "--get-all",
            "--get-regexp",
            "--get-urlmatch",
            "--list",
            "--get-color",
            "--get-colorbool",
            "--show-origin",
            "--show-scope",
        ],
        b"l",
    );
    let sub = w.positionals.first().copied();
    let write_sub = matches!(
        sub,
        Some(b"set" | b"unset" | b"rename-section" | b"remove-section" | b"edit")
    );
    let read_sub = matches!(sub, Some(b"get" | b"list"));
    if writes || write_sub {
        Effect::Local("config".into())
    } else if reads || read_sub || w.positionals.len() <= 1 {
        Effect::Read
    } else {
        Effect::Local("config".into())
    }
}

/// `git push [<options>] [<repository> [<refspec>...]]`.
fn push(rest: &[OsString]) -> Effect {
    let mut p = Push::default();
    let mut positionals: Vec<OsString> = Vec::new();
    let mut i = 0;
    let mut dashdash = false;
    while let Some(arg) = rest.get(i) {
        let b = arg.as_bytes();
        i += 1;
        if dashdash || !b.starts_with(b"-") || b == b"-" {
            positionals.push(arg.clone());
            continue;
        }
        if b == b"--" {
            dashdash = true;
            continue;
        }
        let (name, inline) = split_long(b);
        let take = |i: &mut usize| -> Option<OsString> {
            match inline {
                Some(v) => Some(OsStr::from_bytes(v).to_owned()),
                None => {
                    let v = rest.get(*i).cloned();
                    *i += 1;
                    v
                }
            }
        };
        match name {
            b"--all" | b"--branches" => p.all = true,
            b"--mirror" => p.mirror = true,
            b"--delete" => p.delete = true,
            b"--tags" => p.tags = true,
            b"--prune" => p.prune = true,
            b"--dry-run" => p.dry_run = true,
            b"--repo" => p.remote = take(&mut i),
            b"--receive-pack" | b"--exec" => {
                take(&mut i);
                p.unplaceable = Some("--receive-pack runs a program on the remote".into());
            }
            b"--recurse-submodules" => {
                let v = take(&mut i).unwrap_or_default();
                if !matches!(v.as_bytes(), b"no" | b"check") {
                    p.unplaceable = Some("--recurse-submodules pushes other repositories".into());
                }
            }
            b"--push-option" | b"--signed" | b"--force-with-lease" | b"--upload-pack" => {
                // Their values are attached or optional; a separate word would be a refspec
                // git also reads as one.
                if name == b"--push-option" && inline.is_none() {
                    take(&mut i);
                }
            }
            b"--force"
            | b"--force-if-includes"
            | b"--no-force-with-lease"
            | b"--atomic"
            | b"--no-atomic"
            | b"--verbose"
            | b"--quiet"
            | b"--progress"
            | b"--no-progress"
            | b"--porcelain"
            | b"--set-upstream"
            | b"--thin"
            | b"--no-thin"
            | b"--no-verify"
            | b"--verify"
            | b"--follow-tags"
            | b"--no-follow-tags"
            | b"--no-signed"
            | b"--ipv4"
            | b"--ipv6"
            | b"--no-recurse-submodules" => {}
            _ if !b.starts_with(b"--") => {
                // A cluster of short options: -f -u -n -d -v -q; -o takes a value.
                for (k, c) in b[1..].iter().enumerate() {
                    match c {
                        b'n' => p.dry_run = true,
                        b'd' => p.delete = true,
                        b'f' | b'u' | b'v' | b'q' | b'4' | b'6' => {}
                        b'o' => {
                            if k + 2 == b.len() {
                                take(&mut i);
                            }
                            break;
                        }
                        _ => {
                            p.unplaceable = Some(format!(
                                "an option this guard does not know: -{}",
                                *c as char
                            ));
                        }
                    }
                }
            }
            _ => {
                p.unplaceable = Some(format!(
                    "an option this guard does not know: {}",
                    String::from_utf8_lossy(name)
                ));
            }
        }
    }
    let mut positionals = positionals.into_iter();
    if p.remote.is_none() {
        p.remote = positionals.next();
    }
    p.refspecs = positionals.collect();
    Effect::Push(p)
}

/// Splits `--name=value` into (`--name`, `value`); anything else is returned whole.
fn split_long(bytes: &[u8]) -> (&[u8], Option<&[u8]>) {
    if bytes.starts_with(b"--") {
        if let Some(eq) = bytes.iter().position(|b| *b == b'=') {
            return (&bytes[..eq], Some(&bytes[eq + 1..]));
        }
    }
    (bytes, None)
}

/// What a `gh` command line does to the forge: `Read`, or `Send` for anything that writes
/// there (`Local` for the few that only change this machine's repository). The repository it
/// acts on is named by `-R`/`--repo` when given.
pub fn gh(args: &[OsString]) -> (Option<OsString>, Effect) {
    let mut repo = None;
    let mut words: Vec<&[u8]> = Vec::new();
    let mut method: Option<Vec<u8>> = None;
    let mut fields = false;
    let mut mutation = false;
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let b = arg.as_bytes();
        i += 1;
        let (name, inline) = split_long(b);
        let take = |i: &mut usize| -> Option<OsString> {
            match inline {
                Some(v) => Some(OsStr::from_bytes(v).to_owned()),
                None => {
                    let v = args.get(*i).cloned();
                    *i += 1;
                    v
                }
            }
        };
        match name {
            b"-R" | b"--repo" => repo = take(&mut i),
            b"-X" | b"--method" => method = take(&mut i).map(|m| m.as_bytes().to_ascii_uppercase()),
            b"-f" | b"-F" | b"--field" | b"--raw-field" | b"--input" => {
                fields = true;
                if let Some(v) = take(&mut i) {
                    mutation |= v
                        .as_bytes()
                        .windows(8)
                        .any(|w| w.eq_ignore_ascii_case(b"mutation"));
                }
            }
            _ if b.starts_with(b"-") => {}
            _ => words.push(b),
        }
    }
    let send = |what: &str| Effect::Send(format!("`gh {what}`"));
    let effect = match words.as_slice() {
        [b"api", ..] => {
            let method = method.unwrap_or_else(|| {
                if fields {
                    b"POST".to_vec()
                } else {
                    b"GET".to_vec()
                }
            });
            let graphql_read = words.get(1) == Some(&&b"graphql"[..]) && !mutation;
            if method == b"GET" || graphql_read {
                Effect::Read
            } else {
                send(&format!("api -X {}", String::from_utf8_lossy(&method)))
            }
        }
        [b"pr", b"merge", ..] => Effect::Push(Push {
            unplaceable: Some(
                "`gh pr merge` updates the pull request's base branch on the forge".into(),
            ),
            ..Push::default()
        }),
        [
            b"pr" | b"issue" | b"release" | b"run" | b"workflow" | b"gist" | b"cache" | b"project"
            | b"label" | b"ruleset" | b"repo" | b"search" | b"secret" | b"variable" | b"codespace"
            | b"org" | b"attestation",
            sub,
            ..,
        ] if matches!(
            *sub,
            b"view"
                | b"list"
                | b"diff"
                | b"checks"
                | b"status"
                | b"watch"
                | b"download"
                | b"verify"
                | b"code"
                | b"commits"
                | b"issues"
                | b"prs"
                | b"repos"
        ) =>
        {
            Effect::Read
        }
        [b"pr", b"checkout", ..] => Effect::Local("`gh pr checkout`".into()),
        [b"repo", b"clone", ..] => Effect::NewRepository,
        [
            b"status" | b"browse" | b"help" | b"version" | b"completion" | b"config" | b"alias"
            | b"extension" | b"auth",
            ..,
        ] if !matches!(
            words.get(1).copied(),
            Some(
                b"set"
                    | b"install"
                    | b"login"
                    | b"logout"
                    | b"refresh"
                    | b"delete"
                    | b"import"
                    | b"upgrade"
                    | b"remove"
            )
        ) =>
        {
            Effect::Read
        }
        [] => Effect::Read,
        _ => send(
            &words
                .iter()
                .take(2)
                .map(|w| String::from_utf8_lossy(w).into_owned())
                .collect::<Vec<_>>()
                .join(" "),
        ),
    };
    (repo, effect)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(line: &str) -> Vec<OsString> {
        line.split_whitespace().map(OsString::from).collect()
    }

    fn kind(line: &str) -> &'static str {
        match git(&argv(line)).1 {
            Effect::Read => "read",
            Effect::Local(_) => "local",
            Effect::NewRepository => "new",
            Effect::Send(_) => "send",
            Effect::Push(_) => "push",
            Effect::Alias { .. } => "alias",
            Effect::Unknown(_) => "unknown",
        }
    }

    #[test]
    fn reads_and_writes() {
        for line in [
            "status",
            "log -3",
            "diff HEAD",
            "branch",
            "branch -a",
            "branch --list x*",
            "tag",
            "tag -l v*",
            "remote -v",
            "remote show origin",
            "config user.name",
            "config --get a.b",
            "config --list",
            "stash list",
            "worktree list",
            "reflog",
            "symbolic-ref HEAD",
            "clean -n",
            "apply --check x.patch",
            "--version",
            "",
            "-C a -C b status",
            "submodule status",
            "hash-object f",
            "ls-remote origin",
        ] {
            assert_eq!(kind(line), "read", "{line}");
        }
        for line in [
            "commit -m x",
            "branch new",
            "branch -D old",
            "branch -m a b",
            "tag v1",
            "tag -d v1",
            "remote add o u",
            "config user.name x",
            "config --unset a.b",
            "stash",
            "stash pop",
            "worktree add ../x",
            "reset --hard",
            "checkout main",
            "checkout -- f",
            "fetch",
            "pull",
            "update-ref refs/heads/x HEAD",
            "symbolic-ref HEAD refs/heads/x",
            "clean -fd",
            "apply x.patch",
            "hash-object -w f",
            "-C sub commit -am x",
        ] {
            assert_eq!(kind(line), "local", "{line}");
        }
        assert_eq!(kind("clone u d"), "new");
        assert_eq!(kind("push"), "push");
        assert_eq!(kind("send-pack r main"), "push");
        assert_eq!(kind("send-email x"), "send");
        assert_eq!(kind("p"), "alias");
        assert_eq!(kind("submodule foreach git push"), "unknown");
        assert_eq!(kind("--exec-path=/tmp status"), "unknown");
        assert_eq!(kind("--frobnicate status"), "unknown");
    }

    #[test]
    fn the_place_and_settings_are_read() {
        let (place, effect) = git(&argv("-C a --git-dir=x/.git -c Alias.P=push -c core.x p"));
        assert_eq!(place.chdir, [OsString::from("a")]);
        assert_eq!(place.globals.len(), 7);
        assert_eq!(place.git_dir, Some("x/.git".into()));
        assert_eq!(
            place.config,
            [
                ("alias.p".to_owned(), Some("push".into())),
                ("core.x".to_owned(), None)
            ]
        );
        assert!(matches!(effect, Effect::Alias { name, .. } if name == "p"));
        assert_eq!(config_key("Branch.Main.Remote"), "branch.Main.remote");
    }

    #[test]
    fn pushes_say_what_they_send() {
        let Effect::Push(p) = git(&argv("push -fu --repo=up main:release +x:y")).1 else {
            panic!()
        };
        assert_eq!(p.remote, Some("up".into()));
        assert_eq!(p.refspecs, [OsString::from("main:release"), "+x:y".into()]);
        let Effect::Push(p) = git(&argv("push origin --delete main")).1 else {
            panic!()
        };
        assert!(p.delete);
        assert_eq!(p.refspecs, [OsString::from("main")]);
        let Effect::Push(p) = git(&argv("push -d --mirror --all --prune -n")).1 else {
            panic!()
        };
        assert!(p.delete && p.mirror && p.all && p.prune && p.dry_run);
        let Effect::Push(p) = git(&argv("push --receive-pack=x o")).1 else {
            panic!()
        };
        assert!(p.unplaceable.is_some());
        let Effect::Push(p) = git(&argv("push --frob o")).1 else {
            panic!()
        };
        assert!(p.unplaceable.is_some());
    }

    #[test]
    fn gh_reads_and_writes() {
        let effect = |line: &str| gh(&argv(line)).1;
        for line in [
            "pr view 3",
            "pr list",
            "pr diff",
            "issue view 4",
            "api repos/o/r",
            "api -X GET x",
            "run list",
            "release list",
            "repo view",
            "status",
            "api graphql -f query=query{viewer{login}}",
        ] {
            assert_eq!(effect(line), Effect::Read, "{line}");
        }
        for line in [
            "pr create",
            "pr comment 3",
            "issue create",
            "release create v1",
            "api -X POST x",
            "api repos/o/r/issues -f title=x",
            "repo create x",
            "repo delete x",
            "workflow run w",
            "api graphql -f query=mutation{x}",
            "frobnicate",
        ] {
            assert!(matches!(effect(line), Effect::Send(_)), "{line}");
        }
        assert!(matches!(effect("pr merge 3"), Effect::Push(_)));
        assert_eq!(gh(&argv("-R o/r pr create")).0, Some("o/r".into()));
    }
}
