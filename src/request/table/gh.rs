//! The model of `gh`'s command line: its commands by what they do to the forge, and the flags
//! the shim and the session guard read (gh parses with pflag: [`super::super::scan::Dialect::Gh`]).
//! A command this table does not list (an extension, an alias, a command of a later gh) is one
//! the guard cannot see into.

use super::Group;
use super::Means::{Field, Help, Machine, Method, Other, Repo};

/// The flags that matter anywhere in a `gh` command line: the repository it acts on, an API
/// call's method and fields, and the other flags of `gh api` that take a value (so that the
/// route is the first word that is neither a flag nor a flag's value). Every flag not listed
/// takes no value.
pub const FLAGS: &[Group] = &[
    (Repo, "-R= --repo="),
    (Method, "-X= --method="),
    (Field, "-f= -F= --field= --raw-field= --input="),
    (
        Other,
        "-H= --header= -q= --jq= -t= --template= --hostname= -p= --preview= --cache=",
    ),
];

/// `gh pr diff`'s flags: those that ask for gh's own output, help, and another repository.
pub const PR_DIFF: &[Group] = &[
    (Machine, "--patch --name-only --color= -w --web"),
    (Help, "-h --help"),
    (Repo, "-R= --repo="),
];

/// What a `gh` command does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Does {
    /// Reads (the forge, or this machine's state).
    Read,
    /// Writes to the forge without moving a branch.
    Send,
    /// The same, on the repository its first argument names (`gh repo edit o/r`).
    SendToNamed,
    /// Moves (or deletes) a branch on the forge.
    MovesBranch,
    /// A new repository on the forge, pushed to with `--push`.
    Creates,
    /// Changes the repository on this machine only (`gh pr checkout`).
    Local,
    /// Makes a new repository on this machine (`gh repo clone`).
    NewRepository,
    /// `gh api`: what the route and method say.
    Api,
}

/// A row of the table: commands whose first word is one of `groups` and whose second is one of
/// `subs` (any, or none, when `subs` is empty).
#[derive(Clone, Copy, Debug)]
pub struct Command {
    /// The first words.
    pub groups: &'static [&'static str],
    /// The second words; empty: any.
    pub subs: &'static [&'static str],
    /// What they do.
    pub does: Does,
}

const fn row(
    groups: &'static [&'static str],
    subs: &'static [&'static str],
    does: Does,
) -> Command {
    Command { groups, subs, does }
}

/// Groups whose reading subcommands are [`READ_SUBS`].
const READ_GROUPS: &[&str] = &[
    "pr",
    "issue",
    "release",
    "run",
    "workflow",
    "gist",
    "cache",
    "project",
    "label",
    "ruleset",
    "repo",
    "search",
    "secret",
    "variable",
    "codespace",
    "org",
    "attestation",
];

/// The subcommands that read, in [`READ_GROUPS`].
const READ_SUBS: &[&str] = &[
    "view", "list", "diff", "checks", "status", "watch", "download", "verify", "code", "commits",
    "issues", "prs", "repos",
];

/// Every `gh` command the guard knows, the first row that matches deciding.
pub const COMMANDS: &[Command] = &[
    row(&["api"], &[], Does::Api),
    row(&["pr"], &["merge", "update-branch"], Does::MovesBranch),
    // Deleting a repository deletes every branch, the protected ones included.
    row(&["repo"], &["sync", "delete"], Does::MovesBranch),
    row(READ_GROUPS, READ_SUBS, Does::Read),
    row(
        &["status", "browse", "help", "version", "completion"],
        &[],
        Does::Read,
    ),
    row(&["auth"], &["status", "token"], Does::Read),
    row(&["config"], &["get", "list"], Does::Read),
    row(&["alias", "extension"], &["list"], Does::Read),
    row(&["pr"], &["checkout"], Does::Local),
    row(&["repo"], &["clone"], Does::NewRepository),
    row(&["repo"], &["create"], Does::Creates),
    row(
        &["repo"],
        &["archive", "unarchive", "edit", "fork"],
        Does::SendToNamed,
    ),
    row(&["repo"], &["rename"], Does::Send),
    row(
        &["pr"],
        &[
            "create", "comment", "edit", "close", "reopen", "ready", "review", "lock", "unlock",
        ],
        Does::Send,
    ),
    row(
        &["issue"],
        &[
            "create", "comment", "edit", "close", "reopen", "delete", "transfer", "pin", "unpin",
            "lock", "unlock", "develop",
        ],
        Does::Send,
    ),
    row(
        &["release"],
        &["create", "edit", "delete", "upload", "delete-asset"],
        Does::Send,
    ),
    row(&["run"], &["cancel", "rerun", "delete"], Does::Send),
    row(&["workflow"], &["run", "enable", "disable"], Does::Send),
    row(
        &["gist"],
        &["create", "edit", "delete", "rename"],
        Does::Send,
    ),
    row(&["cache"], &["delete"], Does::Send),
    row(
        &["label"],
        &["create", "edit", "delete", "clone"],
        Does::Send,
    ),
    row(&["secret", "variable"], &["set", "delete"], Does::Send),
    row(
        &["project"],
        &[
            "create",
            "edit",
            "delete",
            "close",
            "copy",
            "item-add",
            "item-create",
            "item-edit",
            "item-delete",
            "item-archive",
            "field-create",
            "field-delete",
            "link",
            "unlink",
            "mark-template",
        ],
        Does::Send,
    ),
];

/// The row for a command whose first words are `group` and `sub`.
pub fn command(group: &[u8], sub: Option<&[u8]>) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| {
        c.groups.iter().any(|g| g.as_bytes() == group)
            && (c.subs.is_empty() || sub.is_some_and(|s| c.subs.iter().any(|x| x.as_bytes() == s)))
    })
}
