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
    /// `-c name=value` (a name alone: `None`, which git reads as `true`), in order.
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
    /// A new repository is made (`clone`): nothing existing changes.
    NewRepository,
    /// `git init [<dir>]`: a new repository, or a change to the one already there.
    Init {
        /// The directory named, if any.
        dir: Option<OsString>,
    },
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
            b"--config-env" => {
                // `name=ENVVAR`: the value is in the environment, where this grammar does not
                // look; a setting it cannot read could name a program.
                return (
                    place,
                    Effect::Unknown("`--config-env` takes a setting from the environment".into()),
                );
            }
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

/// Positional arguments and option names of a subcommand's arguments (up to `--`), and its
/// first argument as written.
struct Words<'a> {
    positionals: Vec<&'a [u8]>,
    options: Vec<&'a [u8]>,
    first: Option<&'a [u8]>,
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
        first: rest.first().map(|a| a.as_bytes()),
    }
}

/// Whether any option is one of `names` exactly, or a short option cluster holds one of
/// `shorts`.
fn has(words: &Words<'_>, names: &[&str], shorts: &[u8]) -> bool {
    words.options.iter().any(|o| {
        names.iter().any(|n| n.as_bytes() == *o)
            || (o.len() > 1
                && o[0] == b'-'
                && o[1] != b'-'
                && o[1..].iter().any(|c| shorts.contains(c)))
    })
}

/// Whether every option is one of `names` exactly (git also takes unique prefixes and
/// `--no-` forms: those count as unknown here, so a command is a read only when spelled as
/// one), or a short option cluster of `shorts` only.
fn only(words: &Words<'_>, names: &[&str], shorts: &[u8]) -> bool {
    words.options.iter().all(|o| {
        names.iter().any(|n| n.as_bytes() == *o)
            || (o.len() > 1
                && o[0] == b'-'
                && o[1] != b'-'
                && o[1..].iter().all(|c| shorts.contains(c)))
    })
}

/// Whether any long option is one of `names` or a prefix of one (at least `--` and two
/// letters): git takes unique prefixes, and a prefix shared with a harmless option is an
/// error git reports, so over-counting costs nothing.
fn has_prefix(words: &Words<'_>, names: &[&str]) -> bool {
    words.options.iter().any(|o| {
        o.starts_with(b"--") && o.len() >= 4 && names.iter().any(|n| n.as_bytes().starts_with(o))
    })
}

/// Whether an argument names a transport that runs a program: `ext::`/`fd::` and any
/// `<helper>::<address>` (git runs `git-remote-<helper>` from PATH), or a URL whose scheme git
/// hands to a helper (anything but `http`, `https`, `ssh`, `git`, `file`, `ftp`, `ftps`).
pub fn runs_transport(arg: &[u8]) -> bool {
    let value = match arg.iter().position(|b| *b == b'=') {
        Some(eq) if arg.starts_with(b"-") => &arg[eq + 1..],
        _ => arg,
    };
    if let Some(at) = value.windows(2).position(|w| w == b"::") {
        let helper = &value[..at];
        if !helper.is_empty()
            && helper
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'+'))
        {
            return true;
        }
    }
    if let Some(at) = value.windows(3).position(|w| w == b"://") {
        let scheme = &value[..at];
        let known = [
            &b"http"[..],
            b"https",
            b"ssh",
            b"git",
            b"file",
            b"ftp",
            b"ftps",
            b"git+ssh",
            b"ssh+git",
        ];
        if !scheme.is_empty()
            && scheme
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
            && !known.iter().any(|k| k.eq_ignore_ascii_case(scheme))
        {
            return true;
        }
    }
    false
}

/// Whether the first argument, as written, is one of `subs`: a read form of a command with
/// subcommands counts only when its word comes first (`git stash -m list` is a push).
fn first_is(words: &Words<'_>, subs: &[&str]) -> bool {
    words
        .first
        .is_some_and(|f| subs.iter().any(|s| s.as_bytes() == f))
}

/// Commands that never change a repository, whatever their options (those that write files
/// or run programs are handled before this list is consulted).
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
    "request-pull",
    "ls-remote",
    "help",
    "version",
    "var",
    "check-ref-format",
    "column",
    "fmt-merge-msg",
    "merge-tree",
    "show-index",
];

/// Commands that change the repository on this machine, and nothing else.
const LOCAL_WRITES: &[&str] = &[
    "add",
    "stage",
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
    "fast-import",
    "maintenance",
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
    "format-patch",
    "bundle",
    "init",
    "init-db",
    "bugreport",
    "diagnose",
    "merge-ours",
    "merge-recursive",
    "merge-recursive-ours",
    "merge-recursive-theirs",
    "merge-subtree",
    "merge-resolve",
    "merge-octopus",
    "notes",
    "stash",
    "worktree",
    "reflog",
    "sparse-checkout",
    "submodule",
    "symbolic-ref",
    "config",
    "remote",
    "branch",
    "tag",
];

/// Commands that run a program of the caller's choosing, or a tool git picks: git starts it
/// with its own directory first on PATH, so the `git` it calls would not come back here.
const RUN_PROGRAMS: &[&str] = &[
    "difftool",
    "mergetool",
    "instaweb",
    "web--browse",
    "filter-branch",
    "filter-repo",
    "for-each-repo",
    "hook",
    "submodule--helper",
    "remote-ext",
    "remote-fd",
    "daemon",
    "http-backend",
    "upload-pack",
    "upload-archive",
    "shell",
    "credential",
    "credential-cache",
    "credential-store",
    "send-email",
    "imap-send",
    "svn",
    "p4",
    "cvsimport",
    "cvsserver",
    "cvsexportcommit",
    "archimport",
    "quiltimport",
    "request-pull--helper",
];

/// Options (of any command) that run a program of the caller's choosing.
const PROGRAM_OPTIONS: &[&str] = &[
    "--upload-pack",
    "--receive-pack",
    "--exec",
    "--extcmd",
    "--tool",
    "--open-files-in-pager",
];

/// Commands whose arguments can be a remote's address (where `<helper>::` runs a program).
const TAKE_ADDRESSES: &[&str] = &[
    "clone",
    "fetch",
    "pull",
    "push",
    "ls-remote",
    "remote",
    "archive",
    "submodule",
    "send-pack",
    "fetch-pack",
];

/// Options that write a file wherever they point.
const FILE_OPTIONS: &[&str] = &["--output", "--output-directory"];

/// Classifies a subcommand and its arguments.
fn subcommand(sub: &OsString, rest: &[OsString]) -> Effect {
    let name = sub.to_string_lossy();
    let w = words(rest);
    let local = |what: &str| Effect::Local(what.to_owned());
    // Anything that names a program to run, or a transport that runs one (git takes any
    // unique prefix of a long option: `--upload-p` is `--upload-pack`).
    if has_prefix(&w, PROGRAM_OPTIONS)
        || (name == "grep" && has(&w, &[], b"O"))
        || (name == "clone" && has(&w, &[], b"u"))
        || (name == "rebase" && has(&w, &[], b"x"))
        || (name == "archive" && has_prefix(&w, &["--remote"]))
        || (name == "bisect" && w.first == Some(b"run"))
        || (name == "bisect" && matches!(w.first, Some(b"view" | b"visualize")) && rest.len() > 1)
        || (name == "submodule" && w.first == Some(b"foreach"))
        || (TAKE_ADDRESSES.contains(&name.as_ref())
            && rest.iter().any(|a| runs_transport(a.as_bytes())))
    {
        return Effect::Unknown(format!("`git {name}` with these options runs a program"));
    }
    if RUN_PROGRAMS.contains(&name.as_ref()) {
        return match name.as_ref() {
            "send-email" | "imap-send" => Effect::Send(format!("`git {name}`")),
            "svn" | "p4" | "cvsexportcommit" => Effect::Push(Push {
                unplaceable: Some(format!("`git {name}`")),
                ..Push::default()
            }),
            _ => Effect::Unknown(format!("`git {name}` runs programs")),
        };
    }
    // Reads that write a file where they are told to.
    if has_prefix(&w, FILE_OPTIONS) || (name == "archive" && has(&w, &[], b"o")) {
        return local(&format!("{name} --output (writes a file)"));
    }
    match name.as_ref() {
        "push" => return push(rest),
        "send-pack" => {
            return Effect::Push(Push {
                unplaceable: Some("`git send-pack`".into()),
                ..Push::default()
            });
        }
        "clone" => return Effect::NewRepository,
        "init" | "init-db" => {
            // Options that take a value as the next word (`--template <dir>`) make the
            // directory unknowable here: then the directory git would use is not named.
            let dir = (w.options.iter().all(|o| {
                o.contains(&b'=')
                    || !matches!(
                        *o,
                        b"--template"
                            | b"--separate-git-dir"
                            | b"--object-format"
                            | b"--ref-format"
                            | b"--initial-branch"
                            | b"-b"
                            | b"--shared"
                    )
            }))
            .then(|| {
                w.positionals
                    .last()
                    .map(|d| OsStr::from_bytes(d).to_owned())
            })
            .flatten();
            return Effect::Init { dir };
        }
        _ => {}
    }
    let read = match name.as_ref() {
        // `fsck --lost-found` writes into `.git/lost-found`; `merge-tree` writes objects.
        "fsck" => !has_prefix(&w, &["--lost-found"]),
        "merge-tree" => has(&w, &["--trivial-merge"], b""),
        n if READS.contains(&n) => true,
        "format-patch" => has(&w, &["--stdout"], b""),
        "clean" => {
            has(&w, &["--dry-run"], b"n")
                && only(&w, &["--dry-run", "--quiet", "--exclude"], b"ndqxXe")
        }
        "apply" => {
            has(&w, &["--check", "--stat", "--numstat", "--summary"], b"")
                && only(
                    &w,
                    &[
                        "--check",
                        "--stat",
                        "--numstat",
                        "--summary",
                        "--verbose",
                        "--quiet",
                        "--recount",
                        "--allow-empty",
                    ],
                    b"vpC",
                )
        }
        "hash-object" => only(
            &w,
            &[
                "--stdin",
                "--stdin-paths",
                "--no-filters",
                "--literally",
                "--path",
            ],
            b"t",
        ),
        "interpret-trailers" => only(
            &w,
            &[
                "--trim-empty",
                "--only-trailers",
                "--only-input",
                "--unfold",
                "--parse",
                "--no-divider",
                "--trailer",
                "--where",
                "--if-exists",
                "--if-missing",
            ],
            b"",
        ),
        "rerere" => first_is(&w, &["status", "diff", "remaining"]),
        "bisect" => first_is(&w, &["log", "view", "visualize", "help"]) && rest.len() <= 1,
        "replace" => {
            w.first.is_none()
                || (first_is(&w, &["-l", "--list"]) && only(&w, &["--list", "--format"], b"l"))
        }
        "branch" => {
            let listing = only(
                &w,
                &[
                    "--list",
                    "--all",
                    "--remotes",
                    "--verbose",
                    "--contains",
                    "--no-contains",
                    "--merged",
                    "--no-merged",
                    "--points-at",
                    "--sort",
                    "--format",
                    "--color",
                    "--no-color",
                    "--column",
                    "--no-column",
                    "--ignore-case",
                    "--abbrev",
                    "--no-abbrev",
                    "--omit-empty",
                    "--quiet",
                ],
                b"larvqi",
            );
            listing && (w.positionals.is_empty() || has(&w, &["--list"], b"l"))
        }
        "tag" => {
            let listing = only(
                &w,
                &[
                    "--list",
                    "--contains",
                    "--no-contains",
                    "--merged",
                    "--no-merged",
                    "--points-at",
                    "--sort",
                    "--format",
                    "--column",
                    "--no-column",
                    "--ignore-case",
                    "--color",
                    "--omit-empty",
                ],
                b"lni",
            );
            listing && (w.positionals.is_empty() || has(&w, &["--list"], b"l"))
        }
        "remote" => {
            w.first.is_none()
                || (first_is(&w, &["-v", "--verbose"]) && w.positionals.is_empty())
                || first_is(&w, &["show", "get-url"])
        }
        "config" => config_reads(&w),
        "stash" => first_is(&w, &["list", "show"]),
        "worktree" => first_is(&w, &["list"]),
        "reflog" => w.first.is_none() || first_is(&w, &["show", "exists", "list"]),
        "notes" => w.first.is_none() || first_is(&w, &["list", "show", "get-ref"]),
        "sparse-checkout" => first_is(&w, &["list", "check-rules"]),
        "submodule" => w.first.is_none() || first_is(&w, &["status", "summary"]),
        "symbolic-ref" => {
            w.positionals.len() <= 1
                && only(
                    &w,
                    &["--quiet", "--short", "--no-recurse", "--recurse"],
                    b"q",
                )
        }
        "bundle" => first_is(&w, &["verify", "list-heads"]),
        n if LOCAL_WRITES.contains(&n) => false,
        _ => {
            return Effect::Alias {
                name: name.into_owned(),
                rest: rest.to_vec(),
            };
        }
    };
    if read {
        Effect::Read
    } else if name == "config" && has(&w, &["--file", "--global", "--system", "--blob"], b"f") {
        // Another file than this repository's configuration: whose, this guard cannot tell.
        Effect::Unknown("`git config` writing another file than the repository's".into())
    } else {
        local(&name)
    }
}

/// `git config` reads: `--get*`/`--list` or the `get`/`list` subcommands, or one key alone,
/// with no option that names another file to write or a scope beyond the repository's.
fn config_reads(w: &Words<'_>) -> bool {
    let read_options = [
        "--get",
        "--get-all",
        "--get-regexp",
        "--get-urlmatch",
        "--list",
        "--get-color",
        "--get-colorbool",
        "--show-origin",
        "--show-scope",
        "--null",
        "--name-only",
        "--includes",
        "--no-includes",
        "--type",
        "--bool",
        "--int",
        "--bool-or-int",
        "--path",
        "--expiry-date",
        "--default",
        "--local",
        "--global",
        "--system",
        "--worktree",
        "--file",
        "--blob",
        "--fixed-value",
        "--all",
        "--regexp",
        "--value",
        "--url",
    ];
    if !only(w, &read_options, b"lzf") {
        return false;
    }
    let sub = w.positionals.first().copied();
    if matches!(sub, Some(b"get" | b"list")) {
        return true;
    }
    if matches!(
        sub,
        Some(b"set" | b"unset" | b"rename-section" | b"remove-section" | b"edit")
    ) {
        return false;
    }
    has(
        w,
        &[
            "--get",
            "--get-all",
            "--get-regexp",
            "--get-urlmatch",
            "--list",
            "--get-color",
            "--get-colorbool",
        ],
        b"l",
    ) || w.positionals.len() <= 1
}

/// `git push [<options>] [<repository> [<refspec>...]]`.
fn push(rest: &[OsString]) -> Effect {
    let mut p = Push::default();
    let mut repo_option: Option<OsString> = None;
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
            b"--repo" => repo_option = take(&mut i),
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
    // git's rule: a repository given as an argument wins over `--repo`.
    let mut positionals = positionals.into_iter();
    p.remote = positionals.next().or(repo_option);
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

/// What a `gh` command line does to the forge: `Read`, `Send` for what writes there, a `Push`
/// that cannot be placed for what moves a branch (`pr merge`, `repo sync`, the refs and merge
/// routes of `api`), `Local` for the few that only change this machine's repository, and
/// `Unknown` for anything else (an extension, an alias). A read is only ever its words first
/// (`gh pr view 3`): a flag before them could take the next word as its value. The repository
/// it acts on is named by `-R`/`--repo` when given.
pub fn gh(args: &[OsString]) -> (Option<OsString>, Effect) {
    let mut repo = None;
    let mut method: Option<Vec<u8>> = None;
    let mut fields = false;
    let mut mutation = false;
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let b = arg.as_bytes();
        i += 1;
        // pflag's forms: `--name=v`, `--name v`; a short cluster (`-iXPOST`) is its flags in
        // turn, the first one that takes a value taking the rest (`=` dropped) or the next word.
        let (name, inline): (&[u8], Option<&[u8]>) = if b.starts_with(b"--") {
            split_long(b)
        } else if b.len() > 1 && b[0] == b'-' {
            let cluster = &b[1..];
            match cluster.iter().position(|c| b"RXfFHqtp".contains(c)) {
                Some(k) => {
                    let rest = &cluster[k + 1..];
                    let rest = rest.strip_prefix(b"=").unwrap_or(rest);
                    let flag: &[u8] = match cluster[k] {
                        b'R' => b"-R",
                        b'X' => b"-X",
                        b'f' => b"-f",
                        b'F' => b"-F",
                        b'H' => b"-H",
                        b'q' => b"-q",
                        b't' => b"-t",
                        _ => b"-p",
                    };
                    (flag, (!rest.is_empty()).then_some(rest))
                }
                None => (b, None),
            }
        } else {
            (b, None)
        };
        let take = |i: &mut usize| -> Option<Vec<u8>> {
            match inline {
                Some(v) => Some(v.to_vec()),
                None => {
                    let v = args.get(*i).map(|a| a.as_bytes().to_vec());
                    *i += 1;
                    v
                }
            }
        };
        match name {
            b"-R" | b"--repo" => repo = take(&mut i).map(|v| OsStr::from_bytes(&v).to_owned()),
            b"-X" | b"--method" => method = take(&mut i).map(|m| m.to_ascii_uppercase()),
            b"-f" | b"-F" | b"--field" | b"--raw-field" | b"--input" => {
                fields = true;
                if let Some(v) = take(&mut i) {
                    // A query read from a file (`@file`) cannot be looked into.
                    mutation |= v.windows(8).any(|w| w.eq_ignore_ascii_case(b"mutation"))
                        || v.contains(&b'@')
                        || name == b"--input";
                }
            }
            _ => {}
        }
    }
    let word = |k: usize| args.get(k).map(|a| a.as_bytes());
    let first_two = (word(0), word(1));
    let send = |what: &str| Effect::Send(format!("`gh {what}`"));
    let moves_branch = |what: &str| {
        Effect::Push(Push {
            unplaceable: Some(format!("`gh {what}` moves a branch on the forge")),
            ..Push::default()
        })
    };
    // `gh api`'s endpoint: its first word that is neither a flag nor a flag's value.
    let api_route = || -> Option<&[u8]> {
        let mut k = 1;
        while let Some(a) = word(k) {
            k += 1;
            if a.starts_with(b"-") {
                let takes_value = matches!(
                    a,
                    b"-X"
                        | b"--method"
                        | b"-f"
                        | b"-F"
                        | b"--field"
                        | b"--raw-field"
                        | b"--input"
                        | b"-H"
                        | b"--header"
                        | b"-q"
                        | b"--jq"
                        | b"-t"
                        | b"--template"
                        | b"--hostname"
                        | b"-p"
                        | b"--preview"
                        | b"--cache"
                );
                if takes_value {
                    k += 1;
                }
                continue;
            }
            return Some(a);
        }
        None
    };
    let effect = match first_two {
        (Some(b"api"), _) => {
            let route = api_route().unwrap_or_default();
            let method = method.unwrap_or_else(|| {
                if fields {
                    b"POST".to_vec()
                } else {
                    b"GET".to_vec()
                }
            });
            let graphql = route == b"graphql";
            // The route's segments, `//` and a leading `/` aside.
            let segments: Vec<&[u8]> = route
                .split(|b| *b == b'/')
                .filter(|x| !x.is_empty())
                .collect();
            // What a write may touch without moving a branch: issues, comments, labels, pull
            // requests (not their merge), releases, reactions, milestones, statuses.
            let harmless = !segments.iter().any(|x| {
                matches!(
                    *x,
                    b"merge"
                        | b"merges"
                        | b"git"
                        | b"contents"
                        | b"branches"
                        | b"rename"
                        | b"merge-upstream"
                        | b"dispatches"
                        | b"forks"
                        | b"transfer"
                        | b"generate"
                )
            }) && segments.iter().any(|x| {
                matches!(
                    *x,
                    b"issues"
                        | b"comments"
                        | b"labels"
                        | b"pulls"
                        | b"releases"
                        | b"reactions"
                        | b"milestones"
                        | b"statuses"
                        | b"check-runs"
                )
            });
            if graphql && !mutation {
                Effect::Read
            } else if graphql {
                moves_branch("api graphql (a mutation this guard cannot place)")
            } else if method == b"GET" || method == b"HEAD" {
                Effect::Read
            } else if harmless {
                send(&format!("api -X {}", String::from_utf8_lossy(&method)))
            } else {
                moves_branch(&format!(
                    "api -X {} {}",
                    String::from_utf8_lossy(&method),
                    String::from_utf8_lossy(route)
                ))
            }
        }
        (Some(b"pr"), Some(b"merge")) => moves_branch("pr merge"),
        (Some(b"repo"), Some(b"sync")) => moves_branch("repo sync"),
        (
            Some(
                b"pr" | b"issue" | b"release" | b"run" | b"workflow" | b"gist" | b"cache"
                | b"project" | b"label" | b"ruleset" | b"repo" | b"search" | b"secret"
                | b"variable" | b"codespace" | b"org" | b"attestation",
            ),
            Some(
                b"view" | b"list" | b"diff" | b"checks" | b"status" | b"watch" | b"download"
                | b"verify" | b"code" | b"commits" | b"issues" | b"prs" | b"repos",
            ),
        )
        | (Some(b"status" | b"browse" | b"help" | b"version" | b"completion"), _)
        | (Some(b"auth"), Some(b"status" | b"token"))
        | (Some(b"config"), Some(b"get" | b"list"))
        | (Some(b"alias" | b"extension"), Some(b"list"))
        | (None, _) => Effect::Read,
        (Some(b"pr"), Some(b"checkout")) => Effect::Local("`gh pr checkout`".into()),
        (Some(b"repo"), Some(b"clone")) => Effect::NewRepository,
        (
            Some(
                b"pr" | b"issue" | b"release" | b"run" | b"workflow" | b"gist" | b"cache"
                | b"project" | b"label" | b"ruleset" | b"repo" | b"secret" | b"variable"
                | b"codespace" | b"org",
            ),
            Some(sub),
        ) if !sub.starts_with(b"-") => send(&format!(
            "{} {}",
            String::from_utf8_lossy(first_two.0.unwrap_or_default()),
            String::from_utf8_lossy(sub)
        )),
        _ => Effect::Unknown(format!(
            "`gh {}` is not a gh command this guard knows (an extension, an alias, a flag first)",
            args.iter()
                .take(2)
                .map(|a| a.to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join(" ")
        )),
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
            Effect::Init { .. } => "init",
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
        for line in [
            "clone -u x u d",
            "ls-remote --upload-pack=x o",
            "archive --remote=r main",
            "grep -Ox y",
            "difftool",
            "for-each-repo --config=x push",
            "fetch ext::sh",
            "config --file /tmp/c k v",
            "config --global k v",
            "hook run x",
        ] {
            assert_eq!(kind(line), "unknown", "{line}");
        }
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
        assert_eq!(kind("--config-env=core.pager=X log"), "unknown");
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
        let Effect::Push(p) = git(&argv("push -fu --repo=up origin main:release +x:y")).1 else {
            panic!()
        };
        assert_eq!(p.remote, Some("origin".into()));
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
        // A program of the caller's choosing, on the remote or here.
        assert_eq!(kind("push --receive-pack=x o"), "unknown");
        // git takes a positional repository over `--repo`.
        let Effect::Push(p) = git(&argv("push --repo=origin up main")).1 else {
            panic!()
        };
        assert_eq!(p.remote, Some("up".into()));
        assert_eq!(p.refspecs, [OsString::from("main")]);
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
            "api repos/o/r -X GET",
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
            "api repos/o/r/issues -f title=x",
            "repo create x",
            "repo delete x",
            "workflow run w",
            "api -XPOST repos/o/r/issues",
            "api -X=POST repos/o/r/issues",
            "api repos/o/r/issues -ftitle=y",
            "api -iXPOST repos/o/r/issues",
            "api --silent -iFtitle=x repos/o/r/issues",
            "pr review 3",
        ] {
            assert!(matches!(effect(line), Effect::Send(_)), "{line}");
        }
        // What could move a branch on the forge: refused as a push that cannot be placed.
        for line in [
            "pr merge 3",
            "repo sync --branch main",
            "api -X PATCH repos/o/r/git/refs/heads/main",
            "api -X PUT repos/o/r/pulls/1/merge",
            "api graphql -f query=mutation{x}",
            "api graphql -F query=@m.graphql",
            "api -iXPATCH repos/o/r/git/refs/heads/main",
            "api -X PUT repos/o/r/contents/README.md",
            "api -X POST repos/o/r/branches/main/rename",
            "api -X PUT repos/o/r/git//refs/heads/main",
            "api -X POST x",
            "api -iXDELETE repos/o/r",
        ] {
            assert!(matches!(effect(line), Effect::Push(_)), "{line}");
        }
        for line in [
            "frobnicate",
            "m 1",
            "pr --title view create",
            "extension exec x",
            "alias set m 'pr merge'",
            "auth setup-git",
        ] {
            assert!(matches!(effect(line), Effect::Unknown(_)), "{line}");
        }
        assert_eq!(gh(&argv("-R o/r pr create")).0, Some("o/r".into()));
    }
}
