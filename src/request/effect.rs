//! What a `git` or `gh` command line does, for the session guard (ADR 15, ADR 16): only read,
//! change a repository on this machine, make a new one, or send something away — and, for a
//! push, what it sends where; whether it needs the network; which files or directories it
//! writes outside the repository it acts on; and, for a write that makes commits or moves
//! HEAD, what the record of its effects watches ([`Moves`]: whether it must make a commit,
//! how it skips hooks, which changes a commit takes; ADR 17). [`git`] reads a `git` command
//! line, [`gh`] a `gh` one.
//!
//! Pure: nothing runs while classifying. The global options are read by the one parser the
//! classifier uses too ([`super::global_options`]), each subcommand's options by the one table
//! of options that take a value ([`super::options`]). Everything not known to be a read is a
//! write: a subcommand or option this grammar does not know, an alias (resolved by the guard,
//! which can read the configuration, and whose value is split here exactly as git splits it:
//! [`split_cmdline`]), a command git finds on PATH (`git-foo`).

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;

use super::options::{self, Token, Tokens};

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
    /// `-c name=value` (a name alone: `None`, which git reads as `true`), in order: the call's
    /// own, then those of each alias it goes through.
    pub config: Vec<(String, Option<OsString>)>,
}

impl Place {
    /// The `-c core.hooksPath=<dir>` the call (or an alias it goes through) sets, as written:
    /// git then runs the hooks there, not the repository's own.
    pub fn hooks_path_setting(&self) -> Option<String> {
        let (_, value) = self
            .config
            .iter()
            .rev()
            .find(|(k, _)| k.eq_ignore_ascii_case("core.hookspath"))?;
        Some(format!(
            "-c core.hooksPath={}",
            value
                .as_deref()
                .map_or_else(String::new, |v| v.to_string_lossy().into_owned())
        ))
    }
}

/// What a command line does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing in any repository changes (it may print).
    Read,
    /// The repository on this machine changes (its refs, index, work tree or configuration);
    /// nothing leaves the machine. The name says what.
    Local(String),
    /// A new repository is made (`clone`): nothing existing changes. Where is in the call's
    /// targets.
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

/// A file or directory a call writes outside the repository it acts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The path as given (relative to the directory the call runs in, after its `-C`).
    pub path: OsString,
    /// What is written there.
    pub kind: TargetKind,
    /// The option or argument that names it (for messages).
    pub named_by: String,
}

/// What a [`Target`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetKind {
    /// A file written in place (`--output`, `archive -o`, `read-tree --index-output`).
    File,
    /// A directory written into (`format-patch -o`, `checkout-index --prefix`).
    Dir,
    /// A new repository or work tree (`clone <dir>`, `init <dir>`, `worktree add <path>`).
    Repository,
}

/// Everything the guard needs to know about a git command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outline {
    /// The global options.
    pub place: Place,
    /// What it does.
    pub effect: Effect,
    /// Whether it contacts another machine (a fetch, a clone, a push, `ls-remote`).
    pub network: bool,
    /// What it writes outside the repository it acts on.
    pub targets: Vec<Target>,
    /// A read that still takes the index's lock (`commit --dry-run`).
    pub locks_index: bool,
    /// For a write that makes or moves commits: what the session's record of its effects
    /// watches (issue 28).
    pub moves: Option<Moves>,
    /// For `git config`: the settings it writes (key as git compares it, value), which the
    /// guard holds to the same rule as `-c`.
    pub settings: Vec<(String, Option<OsString>)>,
}

/// A write that makes commits or moves HEAD (`commit`, `merge`, `rebase`, `reset`,
/// `cherry-pick`, `revert`, `am`, `pull`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moves {
    /// The subcommand.
    pub command: String,
    /// Whether it exists to make a new commit (`commit`, `cherry-pick`, `revert`, `am`): one
    /// that exits 0 with HEAD where it was did not do what it names.
    pub makes_commit: bool,
    /// How the command line skips the hooks git would run for it (`--no-verify`, `-n`).
    pub skips_hooks: Option<String>,
    /// For `commit`: which changes it takes.
    pub commit: Option<CommitTakes>,
}

/// The changes a `git commit` command line takes into the commit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommitTakes {
    /// `-a`/`--all`: every change to a tracked file, besides what is staged.
    pub all: bool,
    /// The pathspecs given: the work tree's content of those paths (besides what is staged,
    /// with `--include`).
    pub paths: Vec<OsString>,
    /// Which changes it takes cannot be told from the command line (`--patch`,
    /// `--interactive`, `--pathspec-from-file`): any staged or unstaged change may be taken.
    pub unknown: bool,
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
    /// `--no-verify`: the pre-push hook does not run.
    pub no_verify: bool,
    /// An option that makes the push's destinations unknowable here (`--receive-pack`,
    /// `--recurse-submodules=on-demand`...).
    pub unplaceable: Option<String>,
    /// Whether the command line says whether submodules are pushed too
    /// (`--recurse-submodules=<how>`, `--no-recurse-submodules`): it wins over the
    /// configuration's `push.recurseSubmodules` and `submodule.recurse`.
    pub recursion_given: bool,
}

impl Push {
    /// How the command line skips the `pre-push` hook, if it does.
    pub fn skips_hooks(&self) -> Option<String> {
        self.no_verify.then(|| "--no-verify".to_owned())
    }
}

/// Classifies a `git` command line (without `argv[0]`).
pub fn git(args: &[OsString]) -> Outline {
    let g = super::global_options(args);
    let place = Place {
        globals: g.args.clone(),
        chdir: g.chdir.clone(),
        git_dir: g.git_dir.clone(),
        work_tree: g.work_tree.clone(),
        config: g.config.clone(),
    };
    let call = |place: Place, effect: Effect| Outline {
        place,
        effect,
        network: false,
        targets: Vec::new(),
        locks_index: false,
        moves: None,
        settings: Vec::new(),
    };
    if g.informational.is_some() {
        return call(place, Effect::Read);
    }
    if let Some(bad) = &g.invalid {
        return call(
            place,
            Effect::Unknown(format!("global option {}", bad.to_string_lossy())),
        );
    }
    if g.config_env {
        // `name=ENVVAR`: the value is in the environment, where this grammar does not look;
        // a setting it cannot read could name a program.
        return call(
            place,
            Effect::Unknown("`--config-env` takes a setting from the environment".into()),
        );
    }
    if g.exec_path {
        // Where git looks for its commands: any program could stand in for one.
        return call(place, Effect::Unknown("--exec-path=<dir>".into()));
    }
    let Some(sub) = args.get(g.end) else {
        return call(place, Effect::Read);
    };
    let rest = &args[g.end + 1..];
    let mut out = subcommand(sub, rest);
    let extra = std::mem::take(&mut out.place.config);
    out.place = place;
    out.place.config.extend(extra);
    out
}

/// `name=value` of `-c` (a name alone means `true`); the name's section and key are
/// case-insensitive to git, so they are lowered (a subsection keeps its case).
pub(crate) fn setting_of(setting: &OsStr) -> (String, Option<OsString>) {
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

/// Splits an alias's value into words exactly as git's `split_cmdline` does: only space, tab,
/// line feed and carriage return separate (not a no-break space, nor any other byte); single
/// and double quotes group; a backslash outside single quotes takes the next byte as it is;
/// leading and trailing separators make empty words, as in git. `None` where git refuses the
/// value (an unclosed quote, a backslash at the end).
pub fn split_cmdline(value: &[u8]) -> Option<Vec<OsString>> {
    let space = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r');
    let mut words = Vec::new();
    let mut word = Vec::new();
    let mut quoted: Option<u8> = None;
    let mut i = 0;
    while i < value.len() {
        let c = value[i];
        if quoted.is_none() && space(c) {
            words.push(OsString::from_vec(std::mem::take(&mut word)));
            while i + 1 < value.len() && space(value[i + 1]) {
                i += 1;
            }
            i += 1;
        } else if quoted.is_none() && (c == b'\'' || c == b'"') {
            quoted = Some(c);
            i += 1;
        } else if Some(c) == quoted {
            quoted = None;
            i += 1;
        } else {
            let mut c = c;
            if c == b'\\' && quoted != Some(b'\'') {
                i += 1;
                c = *value.get(i)?;
            }
            word.push(c);
            i += 1;
        }
    }
    if quoted.is_some() {
        return None;
    }
    words.push(OsString::from_vec(word));
    Some(words)
}

use std::os::unix::ffi::OsStringExt;

/// Whether any word (an option, or any option's value: the check is on every word, so a value
/// that looks like one is counted too) is one of `names` or a unique-looking prefix of one (at
/// least `--` and two letters): git takes unique prefixes of long options, and a prefix shared
/// with a harmless option is an error git reports, so over-counting costs nothing.
fn any_word_prefix(rest: &[OsString], names: &[&str]) -> bool {
    rest.iter().any(|a| {
        let b = a.as_bytes();
        let o = match b.iter().position(|c| *c == b'=') {
            Some(eq) => &b[..eq],
            None => b,
        };
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

/// Whether an address names a repository on this machine (a path or a `file://` URL) rather
/// than another machine, as git's `url_is_local_not_ssh` decides: no `:` before the first `/`.
pub fn is_local_address(address: &[u8]) -> bool {
    if address.starts_with(b"file://") {
        return true;
    }
    if address.windows(3).any(|w| w == b"://") {
        return false;
    }
    match (
        address.iter().position(|b| *b == b':'),
        address.iter().position(|b| *b == b'/'),
    ) {
        (None, _) => true,
        (Some(colon), Some(slash)) => slash < colon,
        (Some(_), None) => false,
    }
}

/// The path of a local address (`file://` stripped).
pub fn local_path(address: &[u8]) -> &OsStr {
    OsStr::from_bytes(address.strip_prefix(b"file://").unwrap_or(address))
}

/// The directory `git clone <url>` makes when none is named: the last part of the address,
/// without a trailing `/`, `/.git`, `.git` or `.bundle` (with `.git` added for a bare clone),
/// as git's `git_url_basename` works it out.
pub fn clone_dir(url: &[u8], bare: bool) -> OsString {
    let mut u = url;
    while u.len() > 1 && (u.ends_with(b"/") || u.ends_with(b"/.git")) {
        u = u
            .strip_suffix(b"/")
            .or_else(|| u.strip_suffix(b"/.git"))
            .unwrap_or(u);
    }
    let start = u
        .iter()
        .rposition(|b| *b == b'/' || *b == b':')
        .map_or(0, |p| p + 1);
    let mut name = &u[start..];
    for suffix in [&b".bundle"[..], b".git"] {
        if let Some(s) = name.strip_suffix(suffix) {
            name = s;
            break;
        }
    }
    let mut out = name.to_vec();
    if bare {
        out.extend_from_slice(b".git");
    }
    OsString::from_vec(out)
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

/// Options (of any command) that run a program of the caller's choosing.
const PROGRAM_OPTIONS: &[&str] = &[
    "--upload-pack",
    "--receive-pack",
    "--exec",
    "--extcmd",
    "--tool",
    "--open-files-in-pager",
    "--template",
    "--separate-git-dir",
    "--unsafe-paths",
];

/// `send-email`'s options that name a program it runs.
const SEND_EMAIL_PROGRAMS: &[&str] = &["--cc-cmd", "--to-cmd", "--header-cmd", "--sendmail-cmd"];

/// Whether any word is a cluster of short options (`-abc`) holding `letter`.
fn short_in_words(rest: &[OsString], letter: u8) -> bool {
    rest.iter().take_while(|a| a.as_bytes() != b"--").any(|a| {
        let b = a.as_bytes();
        b.len() > 1 && b[0] == b'-' && b[1] != b'-' && b[1..].contains(&letter)
    })
}

/// The value of the file-writing option `option` (`--output`, `--output-directory`) however
/// it is spelled: `Ok(Some(value))`, `Ok(None)` when absent, `Err` for an abbreviation (git
/// takes unique prefixes for some commands, whose value this grammar would then misplace).
fn output_option(rest: &[OsString], option: &str) -> Result<Option<OsString>, String> {
    let mut found = None;
    let mut i = 0;
    while let Some(a) = rest.get(i) {
        i += 1;
        let b = a.as_bytes();
        if b == b"--" {
            break;
        }
        let (name, inline) = match b.iter().position(|c| *c == b'=') {
            Some(eq) => (&b[..eq], Some(&b[eq + 1..])),
            None => (b, None),
        };
        if name == option.as_bytes() {
            found = match inline {
                Some(v) => Some(OsStr::from_bytes(v).to_owned()),
                None => {
                    i += 1;
                    rest.get(i - 1).cloned()
                }
            };
        } else if name.starts_with(b"--")
            && name.len() >= 4
            && option.as_bytes().starts_with(name)
            && !matches!(name, b"--output" | b"--output-directory")
        {
            return Err(format!(
                "`{}` (an abbreviation of {option})",
                a.to_string_lossy()
            ));
        }
    }
    Ok(found)
}

/// Classifies a subcommand and its arguments.
fn subcommand(sub: &OsString, rest: &[OsString]) -> Outline {
    let name = sub.to_string_lossy().into_owned();
    let t = options::tokenize(&name, rest);
    let first = rest.first().map(|a| a.as_bytes());
    let first_word = |subs: &[&str]| first.is_some_and(|f| subs.iter().any(|s| s.as_bytes() == f));
    let mut call = Outline {
        place: Place::default(),
        effect: Effect::Read,
        network: false,
        targets: Vec::new(),
        locks_index: false,
        moves: None,
        settings: Vec::new(),
    };
    let done = |mut call: Outline, effect: Effect| {
        call.effect = effect;
        call
    };
    let local = |what: &str| Effect::Local(what.to_owned());
    // Anything that names a program to run, or a transport that runs one (git takes any
    // unique prefix of a long option: `--upload-p` is `--upload-pack`).
    if any_word_prefix(rest, PROGRAM_OPTIONS)
        || (name == "grep" && short_in_words(rest, b'O'))
        || (name == "clone" && t.has(&["-u"]))
        || (name == "rebase" && short_in_words(rest, b'x'))
        || (name == "archive" && any_word_prefix(rest, &["--remote"]))
        || (name == "bisect" && first_word(&["run"]))
        || (name == "bisect" && first_word(&["view", "visualize"]) && rest.len() > 1)
        || (name == "submodule" && first_word(&["foreach"]))
        || (name == "send-email"
            && (any_word_prefix(rest, SEND_EMAIL_PROGRAMS)
                || rest.iter().any(|a| {
                    let b = a.as_bytes();
                    b.starts_with(b"--smtp-server=/") || b.starts_with(b"--smtp-s=/")
                })
                || rest.windows(2).any(|w| {
                    w[0].as_bytes().starts_with(b"--smtp-s") && w[1].as_bytes().starts_with(b"/")
                })))
        || (TAKE_ADDRESSES.contains(&name.as_str())
            && rest.iter().any(|a| runs_transport(a.as_bytes())))
    {
        return done(
            call,
            Effect::Unknown(format!("`git {name}` with these options runs a program")),
        );
    }
    if RUN_PROGRAMS.contains(&name.as_str()) {
        return match name.as_str() {
            "send-email" | "imap-send" => {
                call.network = true;
                done(call, Effect::Send(format!("`git {name}`")))
            }
            "svn" | "p4" | "cvsexportcommit" => done(
                call,
                Effect::Push(Push {
                    unplaceable: Some(format!("`git {name}`")),
                    ..Push::default()
                }),
            ),
            _ => done(call, Effect::Unknown(format!("`git {name}` runs programs"))),
        };
    }
    // Files written where an option points.
    for option in ["--output", "--output-directory"] {
        match output_option(rest, option) {
            Ok(Some(path)) => call.targets.push(Target {
                path,
                kind: if option == "--output" {
                    TargetKind::File
                } else {
                    TargetKind::Dir
                },
                named_by: option.to_owned(),
            }),
            Ok(None) => {}
            Err(why) => {
                return done(call, Effect::Unknown(format!("{why} writes a file")));
            }
        }
    }
    let short_target = |call: &mut Outline, letter: &str, kind: TargetKind| {
        if let Some(v) = t.value(&[letter]) {
            call.targets.push(Target {
                path: v.clone(),
                kind,
                named_by: letter.to_owned(),
            });
        }
    };
    match name.as_str() {
        "archive" => short_target(&mut call, "-o", TargetKind::File),
        "format-patch" => short_target(&mut call, "-o", TargetKind::Dir),
        "bugreport" | "diagnose" => {
            if let Some(v) = rest
                .windows(2)
                .find(|w| w[0].as_bytes() == b"-o")
                .map(|w| w[1].clone())
            {
                call.targets.push(Target {
                    path: v,
                    kind: TargetKind::Dir,
                    named_by: "-o".into(),
                });
            }
        }
        "read-tree" => {
            if let Some(v) = t.value(&["--index-output"]) {
                call.targets.push(Target {
                    path: v.clone(),
                    kind: TargetKind::File,
                    named_by: "--index-output".into(),
                });
            }
        }
        "checkout-index" => {
            if let Some(v) = t.value(&["--prefix"]) {
                let b = v.as_bytes();
                let dir = if b.ends_with(b"/") {
                    v.clone()
                } else {
                    std::path::Path::new(v)
                        .parent()
                        .map(|p| p.as_os_str().to_owned())
                        .filter(|p| !p.is_empty())
                        .unwrap_or_else(|| OsString::from("."))
                };
                call.targets.push(Target {
                    path: dir,
                    kind: TargetKind::Dir,
                    named_by: "--prefix".into(),
                });
            }
        }
        "fast-export" | "fast-import" => {
            for a in rest {
                if let Some(v) = a.as_bytes().strip_prefix(b"--export-marks=") {
                    call.targets.push(Target {
                        path: OsStr::from_bytes(v).to_owned(),
                        kind: TargetKind::File,
                        named_by: "--export-marks".into(),
                    });
                }
            }
        }
        "bundle" if first_word(&["create"]) => {
            let t = options::tokenize("bundle create", &rest[1..]);
            if let Some(file) = t.positionals().next() {
                call.targets.push(Target {
                    path: file.clone(),
                    kind: TargetKind::File,
                    named_by: "bundle create".into(),
                });
            }
        }
        "merge-file" if !short_in_words(rest, b'p') && !any_word_prefix(rest, &["--stdout"]) => {
            // The first file is written in place.
            if let Some(file) = rest
                .iter()
                .find(|a| !a.as_bytes().starts_with(b"-"))
                .cloned()
            {
                call.targets.push(Target {
                    path: file,
                    kind: TargetKind::File,
                    named_by: "merge-file".into(),
                });
            }
        }
        _ => {}
    }
    match name.as_str() {
        "push" => {
            call.network = true;
            return done(call, push(&t));
        }
        "send-pack" => {
            call.network = true;
            return done(
                call,
                Effect::Push(Push {
                    unplaceable: Some("`git send-pack`".into()),
                    ..Push::default()
                }),
            );
        }
        "clone" => {
            if t.uncertain {
                return done(
                    call,
                    Effect::Unknown("`git clone` with an option this guard does not know".into()),
                );
            }
            let mut positionals = t.positionals();
            let url = positionals.next().cloned().unwrap_or_default();
            let bare = t.has(&["--bare", "--mirror"]);
            let dir = positionals
                .next()
                .cloned()
                .unwrap_or_else(|| clone_dir(url.as_bytes(), bare));
            call.network = !is_local_address(url.as_bytes());
            // clone's own `-c` settings take effect during the clone: held like global ones.
            for token in &t.tokens {
                if let Token::Option {
                    name,
                    value: Some(v),
                } = token
                {
                    if name == b"-c" || name == b"--config" {
                        call.place.config.push(setting_of(v));
                    }
                }
            }
            call.targets.push(Target {
                path: dir,
                kind: TargetKind::Repository,
                named_by: "clone".into(),
            });
            return done(call, Effect::NewRepository);
        }
        "init" | "init-db" => {
            if t.uncertain {
                return done(
                    call,
                    Effect::Unknown("`git init` with an option this guard does not know".into()),
                );
            }
            let dir = t.positionals().last().cloned();
            call.targets.push(Target {
                path: dir.clone().unwrap_or_else(|| OsString::from(".")),
                kind: TargetKind::Repository,
                named_by: "init".into(),
            });
            return done(call, Effect::Init { dir });
        }
        "worktree" if first_word(&["add"]) => {
            let t = options::tokenize("worktree add", &rest[1..]);
            if t.uncertain {
                return done(
                    call,
                    Effect::Unknown(
                        "`git worktree add` with an option this guard does not know".into(),
                    ),
                );
            }
            if let Some(path) = t.positionals().next() {
                call.targets.push(Target {
                    path: path.clone(),
                    kind: TargetKind::Repository,
                    named_by: "worktree add".into(),
                });
            }
            return done(call, local("worktree add"));
        }
        "fetch" | "pull" | "ls-remote" | "request-pull" | "fetch-pack" => call.network = true,
        "remote" => {
            let sub = first.unwrap_or_default();
            call.network = match sub {
                b"update" | b"prune" => true,
                b"show" => !t.has(&["-n"]) && !short_in_words(&rest[1..], b'n'),
                b"set-head" => {
                    short_in_words(&rest[1..], b'a') || any_word_prefix(rest, &["--auto"])
                }
                b"add" => short_in_words(&rest[1..], b'f') || any_word_prefix(rest, &["--fetch"]),
                _ => false,
            };
        }
        "submodule" => call.network = first_word(&["update", "add", "sync"]),
        "maintenance" => call.network = true,
        _ => {}
    }
    let list_mode = |names: &[&str]| t.has(names);
    let read = match name.as_str() {
        // `fsck --lost-found` writes into `.git/lost-found`; `merge-tree` writes objects.
        "fsck" => !any_word_prefix(rest, &["--lost-found"]),
        "merge-tree" => t.has(&["--trivial-merge"]),
        n if READS.contains(&n) => true,
        "format-patch" => t.has(&["--stdout"]),
        "commit" => {
            call.locks_index = true;
            t.has(&["--dry-run"]) && !t.uncertain
        }
        "clean" => {
            t.has(&["--dry-run", "-n"])
                && t.only(&[
                    "--dry-run",
                    "-n",
                    "--quiet",
                    "-q",
                    "--exclude",
                    "-e",
                    "-x",
                    "-X",
                    "-d",
                ])
        }
        "apply" => {
            t.has(&["--check", "--stat", "--numstat", "--summary"])
                && t.only(&[
                    "--check",
                    "--stat",
                    "--numstat",
                    "--summary",
                    "--verbose",
                    "-v",
                    "--quiet",
                    "-q",
                    "--recount",
                    "--allow-empty",
                    "-p",
                    "-C",
                    "--exclude",
                    "--include",
                    "--directory",
                    "-R",
                    "--reverse",
                    "--ignore-whitespace",
                    "--ignore-space-change",
                    "--whitespace",
                    "--inaccurate-eof",
                    "--unidiff-zero",
                    "-z",
                ])
        }
        "hash-object" => t.only(&[
            "--stdin",
            "--stdin-paths",
            "--no-filters",
            "--literally",
            "--path",
            "-t",
        ]),
        "interpret-trailers" => t.only(&[
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
        ]),
        "rerere" => first_word(&["status", "diff", "remaining"]),
        "bisect" => first_word(&["log", "view", "visualize", "help"]) && rest.len() <= 1,
        "replace" => {
            rest.is_empty()
                || (first_word(&["-l", "--list"]) && t.only(&["--list", "-l", "--format"]))
        }
        "branch" => {
            let read_options = [
                "--list",
                "-l",
                "--all",
                "-a",
                "--remotes",
                "-r",
                "--verbose",
                "-v",
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
                "-i",
                "--abbrev",
                "--no-abbrev",
                "--omit-empty",
                "--quiet",
                "-q",
                "--show-current",
            ];
            t.only(&read_options)
                && (t.positionals().next().is_none()
                    || list_mode(&[
                        "--list",
                        "-l",
                        "--all",
                        "-a",
                        "--remotes",
                        "-r",
                        "--contains",
                        "--no-contains",
                        "--merged",
                        "--no-merged",
                        "--points-at",
                    ]))
        }
        "tag" => {
            let read_options = [
                "--list",
                "-l",
                "-n",
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
                "-i",
                "--color",
                "--omit-empty",
                "--verify",
                "-v",
            ];
            t.only(&read_options)
                && (t.positionals().next().is_none()
                    || list_mode(&[
                        "--list",
                        "-l",
                        "-n",
                        "--contains",
                        "--no-contains",
                        "--merged",
                        "--no-merged",
                        "--points-at",
                        "--verify",
                        "-v",
                    ]))
        }
        "remote" => {
            rest.is_empty()
                || (first_word(&["-v", "--verbose"]) && rest.len() == 1)
                || first_word(&["show", "get-url"])
        }
        "config" => config_reads(&t),
        "stash" => first_word(&["list", "show"]),
        "worktree" => first_word(&["list"]),
        // `git reflog <anything>` is `reflog show <anything>` unless it names a subcommand.
        "reflog" => !first_word(&["expire", "delete", "drop"]),
        "notes" => rest.is_empty() || first_word(&["list", "show", "get-ref"]),
        "sparse-checkout" => first_word(&["list", "check-rules"]),
        "submodule" => rest.is_empty() || first_word(&["status", "summary"]),
        "symbolic-ref" => {
            t.positionals().count() <= 1
                && t.only(&["--quiet", "-q", "--short", "--no-recurse", "--recurse"])
        }
        "bundle" => first_word(&["verify", "list-heads"]),
        n if LOCAL_WRITES.contains(&n) => false,
        _ => {
            return done(
                call,
                Effect::Alias {
                    name,
                    rest: rest.to_vec(),
                },
            );
        }
    };
    let effect = if read {
        Effect::Read
    } else if name == "config" && config_elsewhere(&t) {
        // Another file than this repository's configuration: whose, this guard cannot tell.
        Effect::Unknown("`git config` writing another file than the repository's".into())
    } else if name == "config" && t.has(&["--edit", "-e", "--rename-section"]) {
        Effect::Unknown(
            "`git config` with an editor or a renamed section can write any setting".into(),
        )
    } else {
        call.moves = moves(&name, &t);
        if name == "config" {
            call.settings = config_writes(rest);
        }
        local(&name)
    };
    done(call, effect)
}

/// What the record of effects watches for a write that makes or moves commits.
fn moves(name: &str, t: &Tokens) -> Option<Moves> {
    let skipped = |names: &[&str]| {
        t.options()
            .find(|o| names.iter().any(|n| n.as_bytes() == *o))
            .map(|o| String::from_utf8_lossy(o).into_owned())
    };
    let (makes_commit, skips_hooks) = match name {
        "commit" => (true, skipped(&["--no-verify", "-n"])),
        "am" => (true, skipped(&["--no-verify", "-n"])),
        "cherry-pick" | "revert" => (true, None),
        "merge" | "pull" | "rebase" => (false, skipped(&["--no-verify"])),
        "reset" => (false, None),
        // Plumbing that makes a commit or moves a ref runs no hook: what it made is a commit
        // no pre-commit hook saw (issue 35).
        "commit-tree" | "update-ref" if crate::confine::test_rule_off("plumbing-hooks") => {
            return None;
        }
        "commit-tree" => (false, Some("commit-tree, which runs no hooks".to_owned())),
        "update-ref" => (false, Some("update-ref, which runs no hooks".to_owned())),
        _ => return None,
    };
    let commit = (name == "commit").then(|| CommitTakes {
        all: t.has(&["-a", "--all"]),
        paths: t.positionals().cloned().collect(),
        unknown: t.uncertain
            || t.has(&[
                "-p",
                "--patch",
                "--interactive",
                "--pathspec-from-file",
                "--pathspec-file-nul",
            ]),
    });
    Some(Moves {
        command: name.to_owned(),
        makes_commit,
        skips_hooks,
        commit,
    })
}

/// Whether `git config` names another file or scope than the repository's own.
fn config_elsewhere(t: &Tokens) -> bool {
    t.has(&["--file", "-f", "--global", "--system", "--blob"])
}

/// `git config` reads: `--get*`/`--list` or the `get`/`list` subcommands, or one key alone,
/// with no option that names another file to write or a scope beyond the repository's.
fn config_reads(t: &Tokens) -> bool {
    let read_options = [
        "--get",
        "--get-all",
        "--get-regexp",
        "--get-urlmatch",
        "--list",
        "-l",
        "--get-color",
        "--get-colorbool",
        "--show-origin",
        "--show-scope",
        "--show-names",
        "--null",
        "-z",
        "--name-only",
        "--includes",
        "--no-includes",
        "--type",
        "-t",
        "--bool",
        "--int",
        "--bool-or-int",
        "--bool-or-str",
        "--path",
        "--expiry-date",
        "--default",
        "--local",
        "--global",
        "--system",
        "--worktree",
        "--file",
        "-f",
        "--blob",
        "--fixed-value",
        "--all",
        "--regexp",
        "--value",
        "--url",
    ];
    if !t.only(&read_options) {
        return false;
    }
    let mut positionals = t.positionals();
    let sub = positionals.next().map(|p| p.as_bytes());
    if matches!(sub, Some(b"get" | b"list")) {
        return true;
    }
    if matches!(
        sub,
        Some(b"set" | b"unset" | b"rename-section" | b"remove-section" | b"edit")
    ) {
        return false;
    }
    t.has(&[
        "--get",
        "--get-all",
        "--get-regexp",
        "--get-urlmatch",
        "--list",
        "-l",
        "--get-color",
        "--get-colorbool",
    ]) || t.positionals().count() <= 1
}

/// The settings a `git config` command line writes (key, value), as far as they can be told:
/// `Err` when it writes something this grammar cannot name (a renamed section, an edit).
pub fn config_writes(args: &[OsString]) -> Vec<(String, Option<OsString>)> {
    let t = options::tokenize("config", args);
    let mut positionals: Vec<&OsString> = t.positionals().collect();
    match positionals.first().map(|p| p.as_bytes()) {
        Some(b"set") => {
            positionals.remove(0);
        }
        Some(b"get" | b"list" | b"unset" | b"remove-section") => return Vec::new(),
        _ if t.has(&["--unset", "--unset-all", "--remove-section"]) => return Vec::new(),
        _ => {}
    }
    match positionals.as_slice() {
        [key, value, ..] => vec![(config_key(&key.to_string_lossy()), Some((*value).clone()))],
        _ => Vec::new(),
    }
}

/// `git push [<options>] [<repository> [<refspec>...]]`.
fn push(t: &Tokens) -> Effect {
    let mut p = Push::default();
    for token in &t.tokens {
        let Token::Option { name, value } = token else {
            continue;
        };
        match name.as_slice() {
            b"--all" | b"--branches" => p.all = true,
            b"--mirror" => p.mirror = true,
            b"--delete" | b"-d" => p.delete = true,
            b"--tags" => p.tags = true,
            b"--prune" => p.prune = true,
            b"--dry-run" | b"-n" => p.dry_run = true,
            b"--no-recurse-submodules" => p.recursion_given = true,
            b"--no-verify" => p.no_verify = true,
            b"--receive-pack" | b"--exec" => {
                p.unplaceable = Some("--receive-pack runs a program on the remote".into());
            }
            b"--recurse-submodules" => {
                p.recursion_given = true;
                let v = value.clone().unwrap_or_default();
                if !matches!(v.as_bytes(), b"no" | b"check") {
                    p.unplaceable = Some("--recurse-submodules pushes other repositories".into());
                }
            }
            b"--repo"
            | b"--push-option"
            | b"-o"
            | b"--signed"
            | b"--no-signed"
            | b"--force-with-lease"
            | b"--no-force-with-lease"
            | b"--force"
            | b"-f"
            | b"--force-if-includes"
            | b"--no-force-if-includes"
            | b"--atomic"
            | b"--no-atomic"
            | b"--verbose"
            | b"-v"
            | b"--quiet"
            | b"-q"
            | b"--progress"
            | b"--no-progress"
            | b"--porcelain"
            | b"--no-porcelain"
            | b"--set-upstream"
            | b"-u"
            | b"--thin"
            | b"--no-thin"
            | b"--verify"
            | b"--follow-tags"
            | b"--no-follow-tags"
            | b"--ipv4"
            | b"-4"
            | b"--ipv6"
            | b"-6"
            | b"--no-dry-run"
            | b"--no-tags"
            | b"--no-all"
            | b"--no-branches"
            | b"--no-mirror"
            | b"--no-delete"
            | b"--no-prune"
            | b"--no-force"
            | b"--no-set-upstream"
            | b"--no-verbose"
            | b"--no-quiet"
            | b"--no-repo"
            | b"--no-push-option"
            | b"--no-receive-pack"
            | b"--no-exec" => {}
            other => {
                p.unplaceable = Some(format!(
                    "an option this guard does not know: {}",
                    String::from_utf8_lossy(other)
                ));
            }
        }
    }
    if t.uncertain && p.unplaceable.is_none() {
        p.unplaceable = Some("an option this guard does not know".into());
    }
    // git's rule: a repository given as an argument wins over `--repo`.
    let mut positionals = t.positionals().cloned();
    p.remote = positionals.next().or_else(|| t.value(&["--repo"]).cloned());
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

/// The gh commands that write to the forge without moving a branch, by group: anything else
/// (an extension, an alias, a command this list does not know) is refused.
fn gh_write(group: &[u8], sub: &[u8]) -> bool {
    let subs: &[&[u8]] = match group {
        b"pr" => &[
            b"create", b"comment", b"edit", b"close", b"reopen", b"ready", b"review", b"lock",
            b"unlock",
        ],
        b"issue" => &[
            b"create",
            b"comment",
            b"edit",
            b"close",
            b"reopen",
            b"delete",
            b"transfer",
            b"pin",
            b"unpin",
            b"lock",
            b"unlock",
            b"develop",
        ],
        b"release" => &[b"create", b"edit", b"delete", b"upload", b"delete-asset"],
        b"run" => &[b"cancel", b"rerun", b"delete"],
        b"workflow" => &[b"run", b"enable", b"disable"],
        b"gist" => &[b"create", b"edit", b"delete", b"rename"],
        b"cache" => &[b"delete"],
        b"label" => &[b"create", b"edit", b"delete", b"clone"],
        b"secret" | b"variable" => &[b"set", b"delete"],
        b"repo" => &[
            b"create",
            b"fork",
            b"edit",
            b"rename",
            b"archive",
            b"unarchive",
        ],
        b"project" => &[
            b"create",
            b"edit",
            b"delete",
            b"close",
            b"copy",
            b"item-add",
            b"item-create",
            b"item-edit",
            b"item-delete",
            b"item-archive",
            b"field-create",
            b"field-delete",
            b"link",
            b"unlink",
            b"mark-template",
        ],
        _ => &[],
    };
    subs.contains(&sub)
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
            // The route's path: without a query or a fragment (`graphql?x=/issues` is the GraphQL
            // endpoint), and without a scheme and host when a full URL is given.
            let mut path = route
                .split(|b| *b == b'?' || *b == b'#')
                .next()
                .unwrap_or_default();
            for scheme in [&b"https://"[..], b"http://"] {
                if let Some(rest) = path.strip_prefix(scheme) {
                    path = rest
                        .iter()
                        .position(|b| *b == b'/')
                        .map_or(&b""[..], |p| &rest[p..]);
                }
            }
            // The route's segments, `//` and a leading `/` aside.
            let segments: Vec<&[u8]> = path
                .split(|b| *b == b'/')
                .filter(|x| !x.is_empty())
                .collect();
            let graphql = segments.last() == Some(&&b"graphql"[..]);
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
        // Deleting a repository deletes every branch, the protected ones included.
        (Some(b"repo"), Some(b"delete")) => moves_branch("repo delete"),
        (Some(b"pr"), Some(b"update-branch")) => moves_branch("pr update-branch"),
        (Some(b"repo"), Some(b"create")) if args.iter().any(|a| a == "--push") => {
            moves_branch("repo create --push")
        }
        (Some(group), Some(sub)) if gh_write(group, sub) => {
            // A repository named as the argument is one on the forge, like `-R`.
            if matches!(
                (group, sub),
                (b"repo", b"archive" | b"unarchive" | b"edit" | b"fork")
            ) {
                if let Some(named) = args[2..].iter().find(|a| !a.as_bytes().starts_with(b"-")) {
                    repo = Some(named.clone());
                }
            }
            send(&format!(
                "{} {}",
                String::from_utf8_lossy(group),
                String::from_utf8_lossy(sub)
            ))
        }
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
        match git(&argv(line)).effect {
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
        let Outline { place, effect, .. } =
            git(&argv("-C a --git-dir=x/.git -c Alias.P=push -c core.x p"));
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
        let Effect::Push(p) = git(&argv("push -fu --repo=up origin main:release +x:y")).effect
        else {
            panic!()
        };
        assert_eq!(p.remote, Some("origin".into()));
        assert_eq!(p.refspecs, [OsString::from("main:release"), "+x:y".into()]);
        let Effect::Push(p) = git(&argv("push origin --delete main")).effect else {
            panic!()
        };
        assert!(p.delete);
        assert_eq!(p.refspecs, [OsString::from("main")]);
        let Effect::Push(p) = git(&argv("push -d --mirror --all --prune -n")).effect else {
            panic!()
        };
        assert!(p.delete && p.mirror && p.all && p.prune && p.dry_run);
        // A program of the caller's choosing, on the remote or here.
        assert_eq!(kind("push --receive-pack=x o"), "unknown");
        // git takes a positional repository over `--repo`.
        let Effect::Push(p) = git(&argv("push --repo=origin up main")).effect else {
            panic!()
        };
        assert_eq!(p.remote, Some("up".into()));
        assert_eq!(p.refspecs, [OsString::from("main")]);
        let Effect::Push(p) = git(&argv("push --frob o")).effect else {
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
            // Issue 26: a repository deleted, a mutation behind a query string.
            "repo delete x --yes",
            "repo delete --yes",
            "api graphql?x=/issues -f query=mutation{x}",
            "api https://api.github.com/graphql -f query=mutation{x}",
            "repo create x --push",
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
            "repo frobnicate",
            "pr frobnicate",
        ] {
            assert!(matches!(effect(line), Effect::Unknown(_)), "{line}");
        }
        assert_eq!(gh(&argv("-R o/r pr create")).0, Some("o/r".into()));
        // A repository named as the argument is one on the forge.
        assert_eq!(gh(&argv("repo archive o/r --yes")).0, Some("o/r".into()));
        assert_eq!(gh(&argv("repo rename newname")).0, None);
    }

    #[test]
    fn reads_the_guard_refused_before() {
        for line in [
            "branch --show-current",
            "branch --contains HEAD",
            "branch --merged HEAD",
            "branch --points-at HEAD",
            "branch -vv --contains HEAD x*",
            "tag --contains HEAD",
            "tag -n5",
            "tag -n5 v*",
            "reflog -5",
            "reflog main",
            "reflog show --all",
            "commit --dry-run",
        ] {
            assert_eq!(kind(line), "read", "{line}");
        }
        for line in [
            // Option values that swallow the word after them.
            "branch --format --list x",
            "tag --sort --list y",
            "branch --sort=refname w",
            "branch -v x",
            "reflog expire --all",
            "reflog delete main@{1}",
        ] {
            assert_eq!(kind(line), "local", "{line}");
        }
        assert_eq!(kind("config --edit"), "unknown");
        assert_eq!(kind("config --rename-section a core"), "unknown");
        assert_eq!(kind("clone --template=t u d"), "unknown");
        assert_eq!(kind("init --separate-git-dir=x d"), "unknown");
        assert_eq!(kind("apply --unsafe-paths x.patch"), "unknown");
        assert_eq!(kind("send-email --to-cmd=x p"), "unknown");
        assert_eq!(kind("send-email --smtp-server=/bin/evil p"), "unknown");
        assert_eq!(kind("log --outp=x"), "unknown");
    }

    #[test]
    fn targets_network_and_new_repositories() {
        let call = |line: &str| git(&argv(line));
        let c = call("clone -q -c core.hooksPath=h https://example.com/a/b.git");
        assert_eq!(c.effect, Effect::NewRepository);
        assert!(c.network);
        assert_eq!(c.targets[0].path, "b");
        assert_eq!(c.place.config[0].0, "core.hookspath");
        let c = call("clone --bare ../remote.git");
        assert!(!c.network);
        assert_eq!(c.targets[0].path, "remote.git");
        assert_eq!(call("clone u dir").targets[0].path, "dir");
        assert_eq!(call("init").targets[0].path, ".");
        let c = call("worktree add -b x ../wt HEAD");
        assert_eq!(c.targets[0].path, "../wt");
        assert_eq!(c.targets[0].kind, TargetKind::Repository);
        let c = call("log --output=../o.txt -1");
        assert_eq!(c.effect, Effect::Read);
        assert_eq!(c.targets[0].kind, TargetKind::File);
        assert_eq!(call("format-patch -o out HEAD~1").targets[0].path, "out");
        assert_eq!(call("read-tree --index-output=x HEAD").targets[0].path, "x");
        assert_eq!(
            call("checkout-index -a --prefix=../o/").targets[0].path,
            "../o/"
        );
        for line in [
            "fetch",
            "pull",
            "push",
            "ls-remote o",
            "remote update",
            "remote show o",
        ] {
            assert!(call(line).network, "{line}");
        }
        for line in ["commit -m x", "remote show -n o", "log", "status"] {
            assert!(!call(line).network, "{line}");
        }
        assert!(call("push --no-verify origin x").effect != Effect::Read);
        assert!(is_local_address(b"../other") && is_local_address(b"/srv/r.git"));
        assert!(is_local_address(b"file:///srv/r.git") && is_local_address(b"./a:b"));
        assert!(!is_local_address(b"host:path") && !is_local_address(b"https://h/r"));
        assert_eq!(clone_dir(b"host:a/repo.git/", false), "repo");
        assert_eq!(clone_dir(b"/srv/repo/.git", true), "repo.git");
    }
}
