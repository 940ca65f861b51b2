//! The data of the model ([`super`]): every git subcommand the model knows, with its options.
//! The options of a subcommand [`Cmd::options`] lists are git 2.47's own (generated once from
//! `git <command> -h`, kept by hand since, and compared with the installed git by a test); a
//! subcommand's options of [`Cmd::some_options`] are those the model weighs.

use super::Means::*;
use super::options::*;
use super::{Cmd, Commits, Group, Kind, Network, Reading};

/// Options that run a program for a command that takes them, looked for in every word of
/// every command line whichever command it is (git takes unique prefixes: `--upload-p` is
/// `--upload-pack`).
pub const ANYWHERE: &[Group] = &[
    (
        Program,
        "--upload-pack= --receive-pack= --exec= --extcmd= --tool= --template=",
    ),
    (
        Program,
        "--open-files-in-pager? --separate-git-dir= --unsafe-paths",
    ),
];

/// Options that name a file any command writes (`log --output`, `format-patch
/// --output-directory`); an abbreviation of one is refused, as its value cannot be placed.
pub const OUTPUT: &[Group] = &[(File, "--output="), (Dir, "--output-directory=")];

/// Every subcommand the model knows; a word that is none of them is an alias or a command of
/// git's this model does not know.
pub const COMMANDS: &[Cmd] = &[
    // The four the shim answers.
    Cmd::read("diff").some_options(&[DIFF_ONLY, DIFF_FACTS, DIFF_PRESENTATION, DIFF_MACHINE]),
    Cmd::read("log").some_options(&[
        LOG_SELECTION,
        DIFF_FACTS,
        LOG_PRESENTATION,
        DIFF_PRESENTATION,
        DIFF_MACHINE,
    ]),
    Cmd::read("show").some_options(&[
        DIFF_FACTS,
        LOG_PRESENTATION,
        DIFF_PRESENTATION,
        DIFF_MACHINE,
        SHOW_ONLY,
    ]),
    Cmd::read("blame").some_options(&[BLAME]),
    // Reads.
    Cmd::read("status"),
    Cmd::read("diff-files"),
    Cmd::read("diff-index"),
    Cmd::read("diff-tree"),
    Cmd::read("shortlog"),
    Cmd::read("whatchanged"),
    Cmd::read("annotate"),
    Cmd::read("grep").some_options(&[&[(Program, "-O? --open-files-in-pager?")]]),
    Cmd::read("ls-files"),
    Cmd::read("ls-tree"),
    Cmd::read("cat-file"),
    Cmd::read("rev-parse"),
    Cmd::read("rev-list"),
    Cmd::read("describe"),
    Cmd::read("name-rev"),
    Cmd::read("merge-base"),
    Cmd::read("for-each-ref"),
    Cmd::read("show-ref"),
    Cmd::read("show-branch"),
    Cmd::read("count-objects"),
    Cmd::read("verify-commit"),
    Cmd::read("verify-tag"),
    Cmd::read("verify-pack"),
    Cmd::read("check-ignore"),
    Cmd::read("check-attr"),
    Cmd::read("check-mailmap"),
    Cmd::read("cherry"),
    Cmd::read("range-diff"),
    Cmd::read("get-tar-commit-id"),
    Cmd::read("patch-id"),
    Cmd::read("stripspace"),
    Cmd::read("fsck").options(&[FSCK]),
    Cmd::read("archive").options(&[ARCHIVE]).addresses(),
    Cmd::read("request-pull").network(Network::Always),
    Cmd::read("ls-remote")
        .options(&[LS_REMOTE])
        .network(Network::Always)
        .addresses(),
    Cmd::read("help"),
    Cmd::read("version"),
    Cmd::read("var"),
    Cmd::read("check-ref-format"),
    Cmd::read("column"),
    Cmd::read("fmt-merge-msg"),
    Cmd::read("show-index"),
    // Changes to the repository on this machine, some of which only read in a form of theirs.
    Cmd::local("add"),
    Cmd::local("stage"),
    Cmd::local("rm"),
    Cmd::local("mv"),
    Cmd::local("restore"),
    Cmd::local("checkout"),
    Cmd::local("switch"),
    Cmd::local("reset").commits(Commits::Moves),
    Cmd::local("commit")
        .options(&[COMMIT])
        .reads_when(Reading::ModeCertain)
        .commits(Commits::Makes)
        .locks_index(),
    Cmd::local("merge")
        .options(&[MERGE])
        .commits(Commits::Moves),
    Cmd::local("rebase")
        .options(&[REBASE])
        .commits(Commits::Moves),
    Cmd::local("cherry-pick").commits(Commits::Makes),
    Cmd::local("revert").commits(Commits::Makes),
    Cmd::local("pull")
        .options(&[PULL])
        .network(Network::Always)
        .addresses()
        .commits(Commits::Moves),
    Cmd::local("fetch")
        .options(&[FETCH])
        .network(Network::Always)
        .addresses(),
    Cmd::local("am").options(&[AM]).commits(Commits::Makes),
    Cmd::local("clean")
        .options(&[CLEAN])
        .reads_when(Reading::ModeOnly),
    Cmd::local("gc"),
    Cmd::local("repack"),
    Cmd::local("prune"),
    Cmd::local("prune-packed"),
    Cmd::local("update-ref").commits(Commits::Plumbing),
    Cmd::local("update-index"),
    Cmd::local("read-tree").options(&[READ_TREE]),
    Cmd::local("write-tree"),
    Cmd::local("commit-tree").commits(Commits::Plumbing),
    Cmd::local("mktree"),
    Cmd::local("mktag"),
    Cmd::local("unpack-objects"),
    Cmd::local("index-pack"),
    Cmd::local("pack-objects"),
    Cmd::local("pack-refs"),
    Cmd::local("checkout-index").options(&[CHECKOUT_INDEX]),
    Cmd::local("merge-file").options(&[MERGE_FILE]),
    Cmd::local("merge-index"),
    Cmd::local("merge-one-file"),
    Cmd::local("merge-tree")
        .options(&[MERGE_TREE])
        .reads_when(Reading::Mode),
    Cmd::local("bisect").reads_when(Reading::Own),
    Cmd::local("replace")
        .options(&[REPLACE])
        .reads_when(Reading::Own),
    Cmd::local("fast-import").some_options(&[&[(File, "--export-marks=")]]),
    Cmd::local("maintenance").network(Network::Always),
    Cmd::local("receive-pack"),
    Cmd::local("fetch-pack")
        .network(Network::Always)
        .addresses(),
    Cmd::local("pack-redundant"),
    Cmd::local("update-server-info"),
    Cmd::local("rerere").reads_when(Reading::Subs(&["status", "diff", "remaining"])),
    Cmd::local("commit-graph"),
    Cmd::local("multi-pack-index"),
    Cmd::local("backfill"),
    Cmd::local("refs"),
    Cmd::local("replay"),
    Cmd::local("unbundle"),
    Cmd::local("apply")
        .options(&[APPLY])
        .reads_when(Reading::ModeOnly),
    Cmd::local("hash-object")
        .options(&[HASH_OBJECT])
        .reads_when(Reading::Only),
    Cmd::local("interpret-trailers")
        .options(&[INTERPRET_TRAILERS])
        .reads_when(Reading::Only),
    Cmd::local("format-patch")
        .options(&[FORMAT_PATCH])
        .reads_when(Reading::Mode),
    Cmd::local("bundle").reads_when(Reading::Subs(&["verify", "list-heads"])),
    Cmd::local("bundle create").options(&[BUNDLE_CREATE]),
    Cmd::of("init-db", Kind::Init).options(&[INIT]),
    Cmd::local("bugreport").options(&[BUGREPORT]),
    Cmd::local("diagnose").options(&[DIAGNOSE]),
    Cmd::local("merge-ours"),
    Cmd::local("merge-recursive"),
    Cmd::local("merge-recursive-ours"),
    Cmd::local("merge-recursive-theirs"),
    Cmd::local("merge-subtree"),
    Cmd::local("merge-resolve"),
    Cmd::local("merge-octopus"),
    Cmd::local("notes").reads_when(Reading::NoneOrSubs(&["list", "show", "get-ref"])),
    Cmd::local("stash")
        .options(&[STASH])
        .reads_when(Reading::Subs(&["list", "show"])),
    Cmd::local("worktree").reads_when(Reading::Subs(&["list"])),
    Cmd::local("worktree add").options(&[WORKTREE_ADD]),
    // `git reflog <anything>` is `reflog show <anything>` unless it names a subcommand.
    Cmd::local("reflog").reads_when(Reading::NotSubs(&["expire", "delete", "drop"])),
    Cmd::local("sparse-checkout").reads_when(Reading::Subs(&["list", "check-rules"])),
    Cmd::local("submodule")
        .reads_when(Reading::NoneOrSubs(&["status", "summary"]))
        .network(Network::Subs(&["update", "add", "sync"]))
        .addresses(),
    Cmd::local("symbolic-ref")
        .options(&[SYMBOLIC_REF])
        .reads_when(Reading::Own),
    Cmd::local("config")
        .options(&[CONFIG])
        .reads_when(Reading::Own),
    Cmd::local("config get").options(&[CONFIG_GET]),
    Cmd::local("config set").options(&[CONFIG_SET]),
    Cmd::local("config unset").options(&[CONFIG_UNSET]),
    Cmd::local("remote")
        .reads_when(Reading::Own)
        .network(Network::Own)
        .addresses(),
    Cmd::local("remote add").options(&[REMOTE_ADD]),
    Cmd::local("remote show").options(&[REMOTE_SHOW]),
    Cmd::local("remote set-head").options(&[REMOTE_SET_HEAD]),
    Cmd::local("branch")
        .options(&[BRANCH])
        .reads_when(Reading::Listing),
    Cmd::local("tag")
        .options(&[TAG])
        .reads_when(Reading::Listing),
    // New repositories, pushes, and what sends elsewhere.
    Cmd::of("clone", Kind::Clone).options(&[CLONE]).addresses(),
    Cmd::of("init", Kind::Init).options(&[INIT]),
    Cmd::of("push", Kind::Push)
        .options(&[PUSH])
        .network(Network::Always)
        .addresses(),
    Cmd::of("send-pack", Kind::Elsewhere)
        .network(Network::Always)
        .addresses(),
    Cmd::of("svn", Kind::Elsewhere),
    Cmd::of("p4", Kind::Elsewhere),
    Cmd::of("cvsexportcommit", Kind::Elsewhere),
    Cmd::of("send-email", Kind::Sends)
        .some_options(&[SEND_EMAIL])
        .network(Network::Always),
    Cmd::of("imap-send", Kind::Sends).network(Network::Always),
    // Programs of the caller's choosing, or a tool git picks: git starts it with its own
    // directory first on PATH, so the `git` it calls would not come back here.
    Cmd::of("difftool", Kind::Runs),
    Cmd::of("mergetool", Kind::Runs),
    Cmd::of("instaweb", Kind::Runs),
    Cmd::of("web--browse", Kind::Runs),
    Cmd::of("filter-branch", Kind::Runs),
    Cmd::of("filter-repo", Kind::Runs),
    Cmd::of("for-each-repo", Kind::Runs),
    Cmd::of("hook", Kind::Runs),
    Cmd::of("submodule--helper", Kind::Runs),
    Cmd::of("remote-ext", Kind::Runs),
    Cmd::of("remote-fd", Kind::Runs),
    Cmd::of("daemon", Kind::Runs),
    Cmd::of("http-backend", Kind::Runs),
    Cmd::of("upload-pack", Kind::Runs),
    Cmd::of("upload-archive", Kind::Runs),
    Cmd::of("shell", Kind::Runs),
    Cmd::of("credential", Kind::Runs),
    Cmd::of("credential-cache", Kind::Runs),
    Cmd::of("credential-store", Kind::Runs),
    Cmd::of("cvsimport", Kind::Runs),
    Cmd::of("cvsserver", Kind::Runs),
    Cmd::of("archimport", Kind::Runs),
    Cmd::of("quiltimport", Kind::Runs),
    Cmd::of("request-pull--helper", Kind::Runs),
];

/// `send-email`'s options that name a program it runs (a Perl script's own options: not
/// parse-options); `--smtp-server` runs one when its value is a path.
const SEND_EMAIL: &[Group] = &[
    (Program, "--cc-cmd= --to-cmd= --header-cmd= --sendmail-cmd="),
    (ProgramIfPath, "--smtp-server="),
];

/// `show`'s own: a merge shown against its first parent is what the answer always gives.
const SHOW_ONLY: &[Group] = &[(Ignore, "--first-parent")];
