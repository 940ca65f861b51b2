//! The one model of git's command line (and of `gh`'s, in [`gh`]): for each subcommand, its
//! options, how each takes its value, and what it means; for each subcommand, what it does
//! before its options are read. Pure data and lookups: the one scanner that reads a command
//! line with it is [`super::scan`]; the answer path ([`super::parse_diff`] and its siblings),
//! the classifier and the session guard ([`super::effect`]) all read this model and no other.
//!
//! An option is written as git's own usage text writes it, in a [`Group`] of options that mean
//! the same: `-v` or `--verbose` takes no value, `--format=` takes one (attached, `--format=x`,
//! or the next word, whatever it is: `git branch --format --list x` gives `--format` the value
//! `--list`), `--track?` takes an optional value that can only be attached (`--track=direct`,
//! `-n5`), and `--[no-]verbose` is `--verbose` and its negation `--no-verbose` (which never
//! takes a value). A negation that means something else than its option is listed apart
//! (`--no-list` makes `git branch` create a branch; `--list` lists them).
//!
//! The options of the commands git parses with its parse-options ([`Cmd::listed`]) are git
//! 2.47's own lists (`git <command> -h`); a test compares them with the installed git's, both
//! ways, when it is a 2.47. An option git adds later is unknown here, which makes a command
//! line uncertain rather than misread ([`super::scan::Line::uncertain`]).

mod commands;
pub mod gh;
mod options;

use std::os::unix::ffi::OsStrExt;

use super::PickaxeKind;

pub use commands::{ANYWHERE, COMMANDS, OUTPUT};

/// How an option takes its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Takes {
    /// No value.
    Flag,
    /// A value: attached (`--x=v`, `-xv`) or the next word, whatever it is.
    Value,
    /// An optional value, attached only (`--x[=v]`, `-x[v]`).
    Attached,
}

/// What an option means. The first group is how an answer treats an option of the four
/// commands the shim answers (`diff`, `log`, `show`, `blame`); the second is what the session
/// guard weighs in every other command; the third is `gh`'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Means {
    /// Changes the facts: forwarded verbatim to the git that computes them.
    Forward,
    /// Presentation only: no effect on a structured answer.
    Ignore,
    /// Asks for git's (or gh's) own output format: passed through.
    Machine,
    /// Understood, but without a structured answer: passed through.
    Unsupported,
    /// `diff --cached` / `--staged`.
    Cached,
    /// `diff --merge-base`.
    MergeBase,
    /// `log -S` / `-G`.
    Pickaxe(PickaxeKind),
    /// `-L`: `blame`'s lines, `log`'s line range.
    LineRange,
    /// Shapes the hunks only (context lines, function context): honoured in the answer.
    Patch,
    /// `--format` / `--pretty`: for `show`, a header only reshaped or suppressed is honoured.
    Format,
    /// `-s` / `--no-patch`: for `show`, the commit without hunks.
    NoPatch,
    /// `-h`, `--help`.
    Help,

    /// Listed for how it takes its value; nothing the guard weighs (where a command is a read
    /// only with some options, this one makes it a write).
    Other,
    /// Keeps a command that reads a read (`branch --sort`).
    Reads,
    /// Puts a command in its reading form (`branch --list`, `clean --dry-run`, `commit
    /// --dry-run`, `merge-file --stdout`).
    Mode,
    /// Makes a command that reads write (`fsck --lost-found`); looked for in every word.
    Writes,
    /// Runs a program of the caller's choosing (`clone -u`, `rebase -x`); looked for in every
    /// word.
    Program,
    /// Runs a program when its value is a path (`send-email --smtp-server=/usr/bin/msmtp`).
    ProgramIfPath,
    /// Its value is a file written in place (`archive -o`, `read-tree --index-output`).
    File,
    /// Its value is a directory written into (`format-patch -o`).
    Dir,
    /// Its value is a prefix of the paths written (`checkout-index --prefix`).
    Prefix,
    /// Makes the command contact another machine (`remote add -f`).
    Network,
    /// Keeps it from contacting another machine (`remote show -n`).
    Offline,
    /// Skips the hooks git would run (`commit --no-verify`).
    SkipsHooks,
    /// `commit -a`: every change to a tracked file.
    TakesAll,
    /// Which changes a commit takes cannot be told (`commit --patch`).
    TakesUnknown,
    /// `clone --bare` / `--mirror`.
    Bare,
    /// `clone -c <name>=<value>`: a setting the clone runs with.
    Setting,
    /// `git config`: another file or scope than the repository's.
    Elsewhere,
    /// `git config`: an edit or a renamed section, which can write any setting.
    Editor,
    /// `git config`: removes settings (writes none).
    Removes,
    /// What a `push` option says about what it sends.
    Push(PushOption),

    /// `gh -R`: the repository on the forge.
    Repo,
    /// `gh api -X`: the request's method.
    Method,
    /// `gh api -f`: a field of the request (a POST unless a method is given).
    Field,
}

/// The `push` options the guard reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PushOption {
    /// `--all`, `--branches`.
    All,
    /// `--mirror`.
    Mirror,
    /// `--delete`.
    Delete,
    /// `--tags`.
    Tags,
    /// `--prune`.
    Prune,
    /// `--dry-run`.
    DryRun,
    /// `--recurse-submodules=<how>`.
    Recursion,
    /// `--no-recurse-submodules`.
    NoRecursion,
    /// `--repo=<repository>`.
    Repo,
}

/// Options that mean the same, written as git's usage text writes them (see the module docs).
pub type Group = (Means, &'static str);

/// What a subcommand does before its options are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Reads or changes the repository on this machine, as [`Cmd::reading`] says.
    Git,
    /// Runs programs of the caller's choosing, or a tool git picks.
    Runs,
    /// Sends something away that is not a push of refs (`send-email`).
    Sends,
    /// Sends commits somewhere the guard cannot place (`svn`, `p4`, `send-pack`).
    Elsewhere,
    /// `push`.
    Push,
    /// `clone`.
    Clone,
    /// `init`.
    Init,
}

/// When a subcommand of [`Kind::Git`] only reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Always (unless an option that [`Means::Writes`] is named).
    Always,
    /// Never: it changes the repository.
    Never,
    /// When an option of [`Means::Mode`] is given.
    Mode,
    /// When an option of [`Means::Mode`] is given and every option is known.
    ModeCertain,
    /// When an option of [`Means::Mode`] is given and every option [`Means::Reads`] or is one.
    ModeOnly,
    /// When every option [`Means::Reads`].
    Only,
    /// When every option [`Means::Reads`] or is a [`Means::Mode`], and either no name is
    /// given or a [`Means::Mode`] makes the names patterns (`branch --list 'x*'`).
    Listing,
    /// When its first word is one of these.
    Subs(&'static [&'static str]),
    /// When it has no words, or its first is one of these.
    NoneOrSubs(&'static [&'static str]),
    /// Unless its first word is one of these.
    NotSubs(&'static [&'static str]),
    /// As a rule of its own says ([`super::effect`]).
    Own,
}

/// When a subcommand contacts another machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Network {
    /// Never.
    Never,
    /// Always.
    Always,
    /// When its first word is one of these.
    Subs(&'static [&'static str]),
    /// As a rule of its own says.
    Own,
}

/// What the record of a session's effects watches for a subcommand that makes commits or
/// moves HEAD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Commits {
    /// Nothing.
    No,
    /// It exists to make a new commit (`commit`, `cherry-pick`): one that leaves HEAD where
    /// it was did not do what it names.
    Makes,
    /// It may move HEAD (`merge`, `reset`).
    Moves,
    /// Plumbing that makes a commit or moves a ref and runs no hook (`commit-tree`).
    Plumbing,
}

/// One subcommand of the model.
#[derive(Clone, Copy, Debug)]
pub struct Cmd {
    /// Its name: one word, or two for a subcommand's own (`"worktree add"`), whose options
    /// are read besides the command's.
    pub name: &'static str,
    /// What it does.
    pub kind: Kind,
    /// When it only reads.
    pub reading: Reading,
    /// When it contacts another machine.
    pub network: Network,
    /// Whether its words can be a remote's address (where `<helper>::` runs a program).
    pub addresses: bool,
    /// What the record of effects watches.
    pub commits: Commits,
    /// Its options, by meaning.
    pub options: &'static [&'static [Group]],
    /// Whether its options is git's own list (compared with the installed git's).
    pub listed: bool,
    /// Whether it takes the index's lock even where it only reads (`commit --dry-run`).
    pub locks_index: bool,
}

impl Cmd {
    const fn new(name: &'static str, kind: Kind, reading: Reading) -> Cmd {
        Cmd {
            name,
            kind,
            reading,
            network: Network::Never,
            addresses: false,
            commits: Commits::No,
            options: &[],
            listed: false,
            locks_index: false,
        }
    }

    /// A subcommand that never changes a repository.
    pub(crate) const fn read(name: &'static str) -> Cmd {
        Cmd::new(name, Kind::Git, Reading::Always)
    }

    /// A subcommand that changes the repository on this machine.
    pub(crate) const fn local(name: &'static str) -> Cmd {
        Cmd::new(name, Kind::Git, Reading::Never)
    }

    /// A subcommand of another kind.
    pub(crate) const fn of(name: &'static str, kind: Kind) -> Cmd {
        Cmd::new(name, kind, Reading::Never)
    }

    /// The same, reading when `reading` says.
    pub(crate) const fn reads_when(self, reading: Reading) -> Cmd {
        Cmd { reading, ..self }
    }

    /// The same, contacting another machine when `network` says.
    pub(crate) const fn network(self, network: Network) -> Cmd {
        Cmd { network, ..self }
    }

    /// The same, taking addresses.
    pub(crate) const fn addresses(self) -> Cmd {
        Cmd {
            addresses: true,
            ..self
        }
    }

    /// The same, watched by the record of effects.
    pub(crate) const fn commits(self, commits: Commits) -> Cmd {
        Cmd { commits, ..self }
    }

    /// The same, with git's own list of options.
    pub(crate) const fn options(self, options: &'static [&'static [Group]]) -> Cmd {
        Cmd {
            options,
            listed: true,
            ..self
        }
    }

    /// The same, taking the index's lock.
    pub(crate) const fn locks_index(self) -> Cmd {
        Cmd {
            locks_index: true,
            ..self
        }
    }

    /// The same, with the options the model weighs (not git's whole list).
    pub(crate) const fn some_options(self, options: &'static [&'static [Group]]) -> Cmd {
        Cmd {
            options,
            listed: false,
            ..self
        }
    }
}

/// One option found in the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opt {
    /// Its name as the model spells it (`-u`, `--format`, `--[no-]verbose`).
    pub name: &'static str,
    /// How it takes its value.
    pub takes: Takes,
    /// What it means.
    pub means: Means,
}

/// The subcommand `name` (one word, or two: `"worktree add"`).
pub fn command(name: &str) -> Option<&'static Cmd> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// The grammar of `name` with the words after it: its subcommand's options first when the
/// first word names one the model lists (`config get`), then its own.
pub fn grammar(cmd: &'static Cmd, first: Option<&[u8]>) -> Vec<&'static [Group]> {
    let mut groups = Vec::new();
    if let Some(word) = first.and_then(|w| std::str::from_utf8(w).ok()) {
        if let Some(sub) = command(&format!("{} {word}", cmd.name)) {
            groups.extend_from_slice(sub.options);
        }
    }
    groups.extend_from_slice(cmd.options);
    groups
}

/// Each option a [`Group`]'s text writes: its name (for `--[no-]x`, the two names), how it
/// takes its value, and the text as written.
pub fn spelled(text: &'static str) -> impl Iterator<Item = (&'static str, Takes)> {
    text.split(' ').filter(|w| !w.is_empty()).map(|word| {
        let (name, takes) = if let Some(n) = word.strip_suffix('=') {
            (n, Takes::Value)
        } else if let Some(n) = word.strip_suffix('?') {
            (n, Takes::Attached)
        } else {
            (word, Takes::Flag)
        };
        (name, takes)
    })
}

/// How `name` matches a spelled option: its takes, when it is the option or its negation.
fn matches(spelled: &str, takes: Takes, name: &[u8]) -> Option<Takes> {
    match spelled.strip_prefix("--[no-]") {
        Some(base) => {
            let rest = name.strip_prefix(b"--")?;
            if rest == base.as_bytes() {
                Some(takes)
            } else if rest.strip_prefix(b"no-") == Some(base.as_bytes()) {
                Some(Takes::Flag)
            } else {
                None
            }
        }
        None => (spelled.as_bytes() == name).then_some(takes),
    }
}

/// The option `name` (`--format`, `-u`) in `groups`, the first that lists it.
pub fn find(groups: &[&'static [Group]], name: &[u8]) -> Option<Opt> {
    groups
        .iter()
        .flat_map(|g| g.iter())
        .find_map(|(means, text)| {
            spelled(text).find_map(|(spelled, takes)| {
                let takes = matches(spelled, takes, name)?;
                Some(Opt {
                    name: spelled,
                    takes,
                    means: *means,
                })
            })
        })
}

/// Every name `groups` lists with `means` (both names of a `--[no-]x`), as git spells them.
pub fn names(groups: &[&'static [Group]], means: Means) -> Vec<String> {
    let mut out = Vec::new();
    for (m, text) in groups.iter().flat_map(|g| g.iter()) {
        if *m != means {
            continue;
        }
        for (spelled, _) in spelled(text) {
            match spelled.strip_prefix("--[no-]") {
                Some(base) => {
                    out.push(format!("--{base}"));
                    out.push(format!("--no-{base}"));
                }
                None => out.push(spelled.to_owned()),
            }
        }
    }
    out
}

/// Whether `word` (an option as written, `--name=value` or `--name`) names `option` or an
/// abbreviation of it git would take (at least `--` and two letters): git takes unique
/// prefixes of long options, and a prefix shared with another option is an error git
/// reports, so counting one too many costs nothing.
pub fn abbreviates(word: &[u8], option: &str) -> bool {
    let name = word.split(|b| *b == b'=').next().unwrap_or(word);
    name.starts_with(b"--") && name.len() >= 4 && option.as_bytes().starts_with(name)
}

/// Whether any word names an option of `means` in `groups`: a long one or an abbreviation of
/// it in any word, a short one in any cluster of short options before `--`. What makes a read
/// write or runs a program is looked for so, not scanned: a value that looks like one is
/// counted too, and no abbreviation slips by.
pub fn named_anywhere(
    words: &[std::ffi::OsString],
    groups: &[&'static [Group]],
    means: Means,
) -> Option<String> {
    let names = names(groups, means);
    for name in &names {
        if let Some(letter) = name.strip_prefix('-').filter(|l| l.len() == 1) {
            let letter = letter.as_bytes()[0];
            let in_cluster = words.iter().take_while(|a| a.as_bytes() != b"--").any(|a| {
                let b = a.as_bytes();
                b.len() > 1 && b[0] == b'-' && b[1] != b'-' && b[1..].contains(&letter)
            });
            if in_cluster {
                return Some(name.clone());
            }
        } else if words.iter().any(|a| abbreviates(a.as_bytes(), name)) {
            return Some(name.clone());
        }
    }
    None
}

#[cfg(test)]
mod tests;
