//! What git's configuration keys and environment variables mean, for the session guard and
//! `git-prism session`: the keys known to name no program ([`HARMLESS_KEYS`]), the keys of a
//! repository's own configuration that name a program or send git elsewhere ([`PROGRAM_KEYS`]),
//! the variables that name programs git runs or configuration it reads ([`PROGRAM_VARS`],
//! [`USER_VARS`], [`PAGER_VARS`]), and the pagers and editors that run nothing
//! ([`harmless_program`]). Knowledge of git, not policy: the guard decides what to do with it.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

/// `-c` keys known to name no program and no file git would write (`*` matches a
/// subsection or a name). Any other key makes the call one the guard cannot see into: the
/// list of keys that run something (`tar.<fmt>.command`, `man.<tool>.path`,
/// `gpg.ssh.defaultKeyCommand`, `core.sshCommand`, ...) is long and grows with git.
pub const HARMLESS_KEYS: &[&str] = &[
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
    "core.hookspath",
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
    "commit.gpgsign",
    "tag.gpgsign",
    "tag.sort",
    "versionsort.suffix",
    "i18n.*",
    "protocol.version",
    "safe.directory",
    "grep.*",
    "column.*",
    "alias.*",
];

/// Settings of a repository's own configuration that name a program git (or a program it
/// starts) runs, or that send git's work or credentials elsewhere: recorded as a session starts
/// and compared on every later write (`crate::guard::config::drift`). `*` matches a
/// subsection or a name.
pub const PROGRAM_KEYS: &[&str] = &[
    "core.sshcommand",
    "core.fsmonitor",
    "core.editor",
    "core.pager",
    "core.askpass",
    "core.hookspath",
    "core.gitproxy",
    "core.alternaterefscommand",
    "core.worktree",
    "sequence.editor",
    "pager.*",
    "diff.external",
    "diff.*.command",
    "diff.*.textconv",
    "difftool.*.cmd",
    "difftool.*.path",
    "mergetool.*.cmd",
    "mergetool.*.path",
    "merge.*.driver",
    "filter.*.clean",
    "filter.*.smudge",
    "filter.*.process",
    "credential.helper",
    "credential.*.helper",
    "gpg.program",
    "gpg.*.program",
    "gpg.ssh.defaultkeycommand",
    "remote.*.uploadpack",
    "remote.*.receivepack",
    "remote.*.vcs",
    "url.*.insteadof",
    "url.*.pushinsteadof",
    "protocol.allow",
    "protocol.*.allow",
    "uploadpack.packobjectshook",
    "init.templatedir",
    "submodule.*.update",
    "trailer.*.command",
    "trailer.*.cmd",
    "sendemail.smtpserver",
    "sendemail.*.smtpserver",
    "tar.*.command",
    "man.*.cmd",
    "man.*.path",
    "web.browser",
    "browser.*.cmd",
    "browser.*.path",
    "guitool.*.cmd",
    "include.path",
    "includeif.*.path",
];

/// Keys whose values form a list (an empty value empties it), rather than the last one winning.
pub const LIST_KEYS: &[&str] = &["credential.helper", "credential.*.helper"];

/// Whether a lowered configuration key matches a pattern (`*` is one or more characters: a
/// subsection, or a name).
pub fn key_matches(pattern: &str, key: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == key,
        Some((head, tail)) => {
            key.len() > head.len() + tail.len() && key.starts_with(head) && key.ends_with(tail)
        }
    }
}

/// A pager or editor that runs nothing that could call git.
pub fn harmless_program(v: &OsStr) -> bool {
    matches!(
        v.as_bytes(),
        b"" | b"cat" | b"less" | b"more" | b"true" | b"false" | b":" | b"less -R" | b"less -FRX"
    )
}

/// Variables whose value is a program git (or a program it starts) runs, or configuration it
/// reads: with a scope set by hand they must be unset, or name a harmless pager or editor.
pub const PROGRAM_VARS: &[&str] = &[
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
    "GIT_TEMPLATE_DIR",
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
    "LD_AUDIT",
];

/// Variables that say where git reads the user's configuration, or which programs it and its
/// pager fall back to: part of the environment a session starts with, trusted as such, and
/// recorded by `git-prism session` with every [`PROGRAM_VARS`] one. (`TMPDIR` is recorded as
/// the session's temporary directory, the one the kernel layer grants; a call that names
/// another is not refused, its temporary files there are.)
pub const USER_VARS: &[&str] = &[
    "HOME",
    "XDG_CONFIG_HOME",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "PAGER",
    "EDITOR",
    "VISUAL",
    "SSH_ASKPASS",
    "LESSOPEN",
    "LESSCLOSE",
    "LESSKEY",
    "LESSSECURE",
    "MANPAGER",
    "BROWSER",
];

/// Variables naming a pager or an editor: one that names a harmless program may differ from
/// the session's (`GIT_PAGER=cat git log`).
pub const PAGER_VARS: &[&str] = &[
    "GIT_PAGER",
    "PAGER",
    "GIT_EDITOR",
    "EDITOR",
    "VISUAL",
    "GIT_SEQUENCE_EDITOR",
    "MANPAGER",
];
