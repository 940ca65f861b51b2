//! The one table of git's subcommand options and how each takes its value, and the tokenizer
//! every reader of a git command line uses: the shim's classifier for `diff`, `log`, `show` and
//! `blame` (whose options, with their roles, live in [`super`]'s tables and are looked up
//! through [`takes`] too), and the session guard's [`super::effect`] for every other
//! subcommand whose meaning depends on its options.
//!
//! [`TABLE`] was generated from git 2.47's own option lists (`git <command> --x-no-such-option`
//! prints every option with its value placeholder: `<x>` a value, `[=<x>]` or `[<x>]` an
//! optional attached value). A test checks, when the installed git is a 2.47, that every option
//! the table lists is in git's own list; it runs no check against another git, so an option a
//! later git adds is unknown here, which makes a command line [`Tokens::uncertain`] rather than
//! misread.
//!
//! How git's parse-options reads them: `--name=value`; `--name value` for an option that takes
//! a value (whatever the next word looks like: `git branch --format --list x` gives `--format`
//! the value `--list`); `-xvalue` and `-x value`; a cluster of short flags `-abc` whose first
//! option that takes a value takes the rest of the word; an optional value only attached.
//! Unique prefixes of long options and options the table does not list make a command line
//! [`Tokens::uncertain`]: which words are values is then unknown.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;

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

use Takes::{Attached, Flag, Value};

/// Options of the subcommands the guard reads, with how each takes its value (see the module
/// docs for where it comes from). A subcommand with subcommands of its own is listed under
/// both words (`"stash push"`).
pub const TABLE: &[(&str, &[(&str, Takes)])] = &[
    // git branch
    (
        "branch",
        &[
            ("-v", Flag),
            ("--verbose", Flag),
            ("--no-verbose", Flag),
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("-t", Attached),
            ("--track", Attached),
            ("--no-track", Flag),
            ("-u", Value),
            ("--set-upstream-to", Value),
            ("--no-set-upstream-to", Flag),
            ("--unset-upstream", Flag),
            ("--no-unset-upstream", Flag),
            ("--color", Attached),
            ("--no-color", Flag),
            ("-r", Flag),
            ("--remotes", Flag),
            ("--contains", Value),
            ("--no-contains", Value),
            ("--abbrev", Attached),
            ("--no-abbrev", Flag),
            ("-a", Flag),
            ("--all", Flag),
            ("-d", Flag),
            ("--delete", Flag),
            ("--no-delete", Flag),
            ("-D", Flag),
            ("-m", Flag),
            ("--move", Flag),
            ("--no-move", Flag),
            ("-M", Flag),
            ("--omit-empty", Flag),
            ("--no-omit-empty", Flag),
            ("-c", Flag),
            ("--copy", Flag),
            ("--no-copy", Flag),
            ("-C", Flag),
            ("-l", Flag),
            ("--list", Flag),
            ("--no-list", Flag),
            ("--show-current", Flag),
            ("--no-show-current", Flag),
            ("--create-reflog", Flag),
            ("--no-create-reflog", Flag),
            ("--edit-description", Flag),
            ("--no-edit-description", Flag),
            ("-f", Flag),
            ("--force", Flag),
            ("--no-force", Flag),
            ("--merged", Value),
            ("--no-merged", Value),
            ("--column", Attached),
            ("--no-column", Flag),
            ("--sort", Value),
            ("--no-sort", Flag),
            ("--points-at", Value),
            ("--no-points-at", Flag),
            ("-i", Flag),
            ("--ignore-case", Flag),
            ("--no-ignore-case", Flag),
            ("--recurse-submodules", Flag),
            ("--no-recurse-submodules", Flag),
            ("--format", Value),
            ("--no-format", Flag),
        ],
    ),
    // git tag
    (
        "tag",
        &[
            ("-l", Flag),
            ("--list", Flag),
            ("-n", Attached),
            ("-d", Flag),
            ("--delete", Flag),
            ("-v", Flag),
            ("--verify", Flag),
            ("-a", Flag),
            ("--annotate", Flag),
            ("--no-annotate", Flag),
            ("-m", Value),
            ("--message", Value),
            ("-F", Value),
            ("--file", Value),
            ("--no-file", Flag),
            ("--trailer", Value),
            ("-e", Flag),
            ("--edit", Flag),
            ("--no-edit", Flag),
            ("-s", Flag),
            ("--sign", Flag),
            ("--no-sign", Flag),
            ("--cleanup", Value),
            ("--no-cleanup", Flag),
            ("-u", Value),
            ("--local-user", Value),
            ("--no-local-user", Flag),
            ("-f", Flag),
            ("--force", Flag),
            ("--no-force", Flag),
            ("--create-reflog", Flag),
            ("--no-create-reflog", Flag),
            ("--column", Attached),
            ("--no-column", Flag),
            ("--contains", Value),
            ("--no-contains", Value),
            ("--merged", Value),
            ("--no-merged", Value),
            ("--omit-empty", Flag),
            ("--no-omit-empty", Flag),
            ("--sort", Value),
            ("--no-sort", Flag),
            ("--points-at", Value),
            ("--no-points-at", Flag),
            ("--format", Value),
            ("--no-format", Flag),
            ("--color", Attached),
            ("--no-color", Flag),
            ("-i", Flag),
            ("--ignore-case", Flag),
            ("--no-ignore-case", Flag),
        ],
    ),
    // git config
    (
        "config",
        &[
            ("--global", Flag),
            ("--no-global", Flag),
            ("--system", Flag),
            ("--no-system", Flag),
            ("--local", Flag),
            ("--no-local", Flag),
            ("--worktree", Flag),
            ("--no-worktree", Flag),
            ("-f", Value),
            ("--file", Value),
            ("--no-file", Flag),
            ("--blob", Value),
            ("--no-blob", Flag),
            ("--get", Flag),
            ("--get-all", Flag),
            ("--get-regexp", Flag),
            ("--get-urlmatch", Flag),
            ("--replace-all", Flag),
            ("--add", Flag),
            ("--unset", Flag),
            ("--unset-all", Flag),
            ("--rename-section", Flag),
            ("--remove-section", Flag),
            ("-l", Flag),
            ("--list", Flag),
            ("-e", Flag),
            ("--edit", Flag),
            ("--get-color", Flag),
            ("--get-colorbool", Flag),
            ("-z", Flag),
            ("--null", Flag),
            ("--no-null", Flag),
            ("--name-only", Flag),
            ("--no-name-only", Flag),
            ("--show-origin", Flag),
            ("--no-show-origin", Flag),
            ("--show-scope", Flag),
            ("--no-show-scope", Flag),
            ("--show-names", Flag),
            ("--no-show-names", Flag),
            ("-t", Value),
            ("--type", Value),
            ("--no-type", Flag),
            ("--bool", Flag),
            ("--int", Flag),
            ("--bool-or-int", Flag),
            ("--bool-or-str", Flag),
            ("--path", Flag),
            ("--expiry-date", Flag),
            ("--default", Value),
            ("--no-default", Flag),
            ("--comment", Value),
            ("--no-comment", Flag),
            ("--fixed-value", Flag),
            ("--no-fixed-value", Flag),
            ("--includes", Flag),
            ("--no-includes", Flag),
        ],
    ),
    // git config's subcommands (git 2.46 and later): their own options, besides the ones above
    (
        "config get",
        &[
            ("--all", Flag),
            ("--no-all", Flag),
            ("--regexp", Flag),
            ("--no-regexp", Flag),
            ("--value", Value),
            ("--no-value", Flag),
            ("--url", Value),
            ("--no-url", Flag),
        ],
    ),
    (
        "config set",
        &[
            ("--all", Flag),
            ("--no-all", Flag),
            ("--value", Value),
            ("--no-value", Flag),
            ("--append", Flag),
            ("--no-append", Flag),
        ],
    ),
    (
        "config unset",
        &[
            ("--all", Flag),
            ("--no-all", Flag),
            ("--value", Value),
            ("--no-value", Flag),
        ],
    ),
    // git stash
    (
        "stash",
        &[
            ("-k", Flag),
            ("--keep-index", Flag),
            ("--no-keep-index", Flag),
            ("-S", Flag),
            ("--staged", Flag),
            ("--no-staged", Flag),
            ("-p", Flag),
            ("--patch", Flag),
            ("--no-patch", Flag),
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("-u", Flag),
            ("--include-untracked", Flag),
            ("--no-include-untracked", Flag),
            ("-a", Flag),
            ("--all", Flag),
            ("--no-all", Flag),
            ("-m", Value),
            ("--message", Value),
            ("--no-message", Flag),
            ("--pathspec-from-file", Value),
            ("--no-pathspec-from-file", Flag),
            ("--pathspec-file-nul", Flag),
            ("--no-pathspec-file-nul", Flag),
        ],
    ),
    // git symbolic-ref
    (
        "symbolic-ref",
        &[
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("-d", Flag),
            ("--delete", Flag),
            ("--no-delete", Flag),
            ("--short", Flag),
            ("--no-short", Flag),
            ("--recurse", Flag),
            ("--no-recurse", Flag),
            ("-m", Value),
        ],
    ),
    // git clean
    (
        "clean",
        &[
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("-n", Flag),
            ("--dry-run", Flag),
            ("--no-dry-run", Flag),
            ("-f", Flag),
            ("--force", Flag),
            ("--no-force", Flag),
            ("-i", Flag),
            ("--interactive", Flag),
            ("--no-interactive", Flag),
            ("-d", Flag),
            ("-e", Value),
            ("--exclude", Value),
            ("-x", Flag),
            ("-X", Flag),
        ],
    ),
    // git apply
    (
        "apply",
        &[
            ("--exclude", Value),
            ("--include", Value),
            ("-p", Value),
            ("--no-add", Flag),
            ("--add", Flag),
            ("--stat", Flag),
            ("--no-stat", Flag),
            ("--numstat", Flag),
            ("--no-numstat", Flag),
            ("--summary", Flag),
            ("--no-summary", Flag),
            ("--check", Flag),
            ("--no-check", Flag),
            ("--index", Flag),
            ("--no-index", Flag),
            ("-N", Flag),
            ("--intent-to-add", Flag),
            ("--no-intent-to-add", Flag),
            ("--cached", Flag),
            ("--no-cached", Flag),
            ("--unsafe-paths", Flag),
            ("--no-unsafe-paths", Flag),
            ("--apply", Flag),
            ("--no-apply", Flag),
            ("-3", Flag),
            ("--3way", Flag),
            ("--no-3way", Flag),
            ("--ours", Flag),
            ("--theirs", Flag),
            ("--union", Flag),
            ("--build-fake-ancestor", Value),
            ("--no-build-fake-ancestor", Flag),
            ("-z", Flag),
            ("-C", Value),
            ("--whitespace", Value),
            ("--no-whitespace", Flag),
            ("--ignore-space-change", Flag),
            ("--no-ignore-space-change", Flag),
            ("--ignore-whitespace", Flag),
            ("--no-ignore-whitespace", Flag),
            ("-R", Flag),
            ("--reverse", Flag),
            ("--no-reverse", Flag),
            ("--unidiff-zero", Flag),
            ("--no-unidiff-zero", Flag),
            ("--reject", Flag),
            ("--no-reject", Flag),
            ("--allow-overlap", Flag),
            ("--no-allow-overlap", Flag),
            ("-v", Flag),
            ("--verbose", Flag),
            ("--no-verbose", Flag),
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("--inaccurate-eof", Flag),
            ("--no-inaccurate-eof", Flag),
            ("--recount", Flag),
            ("--no-recount", Flag),
            ("--directory", Value),
            ("--no-directory", Flag),
            ("--allow-empty", Flag),
            ("--no-allow-empty", Flag),
        ],
    ),
    // git hash-object
    (
        "hash-object",
        &[
            ("-t", Value),
            ("-w", Flag),
            ("--stdin", Flag),
            ("--no-stdin", Flag),
            ("--stdin-paths", Flag),
            ("--no-stdin-paths", Flag),
            ("--no-filters", Flag),
            ("--filters", Flag),
            ("--literally", Flag),
            ("--no-literally", Flag),
            ("--path", Value),
            ("--no-path", Flag),
        ],
    ),
    // git interpret-trailers
    (
        "interpret-trailers",
        &[
            ("--in-place", Flag),
            ("--no-in-place", Flag),
            ("--trim-empty", Flag),
            ("--no-trim-empty", Flag),
            ("--where", Value),
            ("--no-where", Flag),
            ("--if-exists", Value),
            ("--no-if-exists", Flag),
            ("--if-missing", Value),
            ("--no-if-missing", Flag),
            ("--only-trailers", Flag),
            ("--no-only-trailers", Flag),
            ("--only-input", Flag),
            ("--no-only-input", Flag),
            ("--unfold", Flag),
            ("--no-unfold", Flag),
            ("--parse", Flag),
            ("--no-divider", Flag),
            ("--divider", Flag),
            ("--trailer", Value),
            ("--no-trailer", Flag),
        ],
    ),
    // git replace
    (
        "replace",
        &[
            ("-l", Flag),
            ("--list", Flag),
            ("-d", Flag),
            ("--delete", Flag),
            ("-e", Flag),
            ("--edit", Flag),
            ("-g", Flag),
            ("--graft", Flag),
            ("--convert-graft-file", Flag),
            ("-f", Flag),
            ("--force", Flag),
            ("--no-force", Flag),
            ("--raw", Flag),
            ("--no-raw", Flag),
            ("--format", Value),
            ("--no-format", Flag),
        ],
    ),
    // git push
    (
        "push",
        &[
            ("-v", Flag),
            ("--verbose", Flag),
            ("--no-verbose", Flag),
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("--repo", Value),
            ("--no-repo", Flag),
            ("--all", Flag),
            ("--no-all", Flag),
            ("--branches", Flag),
            ("--no-branches", Flag),
            ("--mirror", Flag),
            ("--no-mirror", Flag),
            ("-d", Flag),
            ("--delete", Flag),
            ("--no-delete", Flag),
            ("--tags", Flag),
            ("--no-tags", Flag),
            ("-n", Flag),
            ("--dry-run", Flag),
            ("--no-dry-run", Flag),
            ("--porcelain", Flag),
            ("--no-porcelain", Flag),
            ("-f", Flag),
            ("--force", Flag),
            ("--no-force", Flag),
            ("--force-with-lease", Attached),
            ("--no-force-with-lease", Flag),
            ("--force-if-includes", Flag),
            ("--no-force-if-includes", Flag),
            ("--recurse-submodules", Value),
            ("--no-recurse-submodules", Flag),
            ("--thin", Flag),
            ("--no-thin", Flag),
            ("--receive-pack", Value),
            ("--no-receive-pack", Flag),
            ("--exec", Value),
            ("--no-exec", Flag),
            ("-u", Flag),
            ("--set-upstream", Flag),
            ("--no-set-upstream", Flag),
            ("--progress", Flag),
            ("--no-progress", Flag),
            ("--prune", Flag),
            ("--no-prune", Flag),
            ("--no-verify", Flag),
            ("--verify", Flag),
            ("--follow-tags", Flag),
            ("--no-follow-tags", Flag),
            ("--signed", Attached),
            ("--no-signed", Flag),
            ("--atomic", Flag),
            ("--no-atomic", Flag),
            ("-o", Value),
            ("--push-option", Value),
            ("--no-push-option", Flag),
            ("-4", Flag),
            ("--ipv4", Flag),
            ("-6", Flag),
            ("--ipv6", Flag),
        ],
    ),
    // git clone
    (
        "clone",
        &[
            ("-v", Flag),
            ("--verbose", Flag),
            ("--no-verbose", Flag),
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("--progress", Flag),
            ("--no-progress", Flag),
            ("--reject-shallow", Flag),
            ("--no-reject-shallow", Flag),
            ("-n", Flag),
            ("--no-checkout", Flag),
            ("--checkout", Flag),
            ("--bare", Flag),
            ("--no-bare", Flag),
            ("--mirror", Flag),
            ("--no-mirror", Flag),
            ("-l", Flag),
            ("--local", Flag),
            ("--no-local", Flag),
            ("--no-hardlinks", Flag),
            ("--hardlinks", Flag),
            ("-s", Flag),
            ("--shared", Flag),
            ("--no-shared", Flag),
            ("--recurse-submodules", Attached),
            ("--no-recurse-submodules", Flag),
            ("--recursive", Attached),
            ("--no-recursive", Flag),
            ("-j", Value),
            ("--jobs", Value),
            ("--no-jobs", Flag),
            ("--template", Value),
            ("--no-template", Flag),
            ("--reference", Value),
            ("--no-reference", Flag),
            ("--reference-if-able", Value),
            ("--no-reference-if-able", Flag),
            ("--dissociate", Flag),
            ("--no-dissociate", Flag),
            ("-o", Value),
            ("--origin", Value),
            ("--no-origin", Flag),
            ("-b", Value),
            ("--branch", Value),
            ("--no-branch", Flag),
            ("-u", Value),
            ("--upload-pack", Value),
            ("--no-upload-pack", Flag),
            ("--depth", Value),
            ("--no-depth", Flag),
            ("--shallow-since", Value),
            ("--no-shallow-since", Flag),
            ("--shallow-exclude", Value),
            ("--no-shallow-exclude", Flag),
            ("--single-branch", Flag),
            ("--no-single-branch", Flag),
            ("--no-tags", Flag),
            ("--tags", Flag),
            ("--shallow-submodules", Flag),
            ("--no-shallow-submodules", Flag),
            ("--separate-git-dir", Value),
            ("--no-separate-git-dir", Flag),
            ("--ref-format", Value),
            ("--no-ref-format", Flag),
            ("-c", Value),
            ("--config", Value),
            ("--no-config", Flag),
            ("--server-option", Value),
            ("--no-server-option", Flag),
            ("-4", Flag),
            ("--ipv4", Flag),
            ("-6", Flag),
            ("--ipv6", Flag),
            ("--filter", Value),
            ("--no-filter", Flag),
            ("--also-filter-submodules", Flag),
            ("--no-also-filter-submodules", Flag),
            ("--remote-submodules", Flag),
            ("--no-remote-submodules", Flag),
            ("--sparse", Flag),
            ("--no-sparse", Flag),
            ("--bundle-uri", Value),
            ("--no-bundle-uri", Flag),
        ],
    ),
    // git init
    (
        "init",
        &[
            ("--template", Value),
            ("--no-template", Flag),
            ("--bare", Flag),
            ("--no-bare", Flag),
            ("--shared", Attached),
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("--separate-git-dir", Value),
            ("--no-separate-git-dir", Flag),
            ("-b", Value),
            ("--initial-branch", Value),
            ("--no-initial-branch", Flag),
            ("--object-format", Value),
            ("--no-object-format", Flag),
            ("--ref-format", Value),
            ("--no-ref-format", Flag),
        ],
    ),
    // git commit
    (
        "commit",
        &[
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("-v", Flag),
            ("--verbose", Flag),
            ("--no-verbose", Flag),
            ("-F", Value),
            ("--file", Value),
            ("--no-file", Flag),
            ("--author", Value),
            ("--no-author", Flag),
            ("--date", Value),
            ("--no-date", Flag),
            ("-m", Value),
            ("--message", Value),
            ("--no-message", Flag),
            ("-c", Value),
            ("--reedit-message", Value),
            ("--no-reedit-message", Flag),
            ("-C", Value),
            ("--reuse-message", Value),
            ("--no-reuse-message", Flag),
            ("--fixup", Attached),
            ("--no-fixup", Flag),
            ("--squash", Value),
            ("--no-squash", Flag),
            ("--reset-author", Flag),
            ("--no-reset-author", Flag),
            ("--trailer", Value),
            ("-s", Flag),
            ("--signoff", Flag),
            ("--no-signoff", Flag),
            ("-t", Value),
            ("--template", Value),
            ("--no-template", Flag),
            ("-e", Flag),
            ("--edit", Flag),
            ("--no-edit", Flag),
            ("--cleanup", Value),
            ("--no-cleanup", Flag),
            ("--status", Flag),
            ("--no-status", Flag),
            ("-S", Attached),
            ("--gpg-sign", Attached),
            ("--no-gpg-sign", Flag),
            ("-a", Flag),
            ("--all", Flag),
            ("--no-all", Flag),
            ("-i", Flag),
            ("--include", Flag),
            ("--no-include", Flag),
            ("--interactive", Flag),
            ("--no-interactive", Flag),
            ("-p", Flag),
            ("--patch", Flag),
            ("--no-patch", Flag),
            ("-o", Flag),
            ("--only", Flag),
            ("--no-only", Flag),
            ("-n", Flag),
            ("--no-verify", Flag),
            ("--verify", Flag),
            ("--dry-run", Flag),
            ("--no-dry-run", Flag),
            ("--short", Flag),
            ("--no-short", Flag),
            ("--branch", Flag),
            ("--no-branch", Flag),
            ("--ahead-behind", Flag),
            ("--no-ahead-behind", Flag),
            ("--porcelain", Flag),
            ("--no-porcelain", Flag),
            ("--long", Flag),
            ("--no-long", Flag),
            ("-z", Flag),
            ("--null", Flag),
            ("--no-null", Flag),
            ("--amend", Flag),
            ("--no-amend", Flag),
            ("--no-post-rewrite", Flag),
            ("--post-rewrite", Flag),
            ("-u", Attached),
            ("--untracked-files", Attached),
            ("--no-untracked-files", Flag),
            ("--pathspec-from-file", Value),
            ("--no-pathspec-from-file", Flag),
            ("--pathspec-file-nul", Flag),
            ("--no-pathspec-file-nul", Flag),
        ],
    ),
    // git fsck
    (
        "fsck",
        &[
            ("-v", Flag),
            ("--verbose", Flag),
            ("--no-verbose", Flag),
            ("--unreachable", Flag),
            ("--no-unreachable", Flag),
            ("--dangling", Flag),
            ("--no-dangling", Flag),
            ("--tags", Flag),
            ("--no-tags", Flag),
            ("--root", Flag),
            ("--no-root", Flag),
            ("--cache", Flag),
            ("--no-cache", Flag),
            ("--reflogs", Flag),
            ("--no-reflogs", Flag),
            ("--full", Flag),
            ("--no-full", Flag),
            ("--connectivity-only", Flag),
            ("--no-connectivity-only", Flag),
            ("--strict", Flag),
            ("--no-strict", Flag),
            ("--lost-found", Flag),
            ("--no-lost-found", Flag),
            ("--progress", Flag),
            ("--no-progress", Flag),
            ("--name-objects", Flag),
            ("--no-name-objects", Flag),
        ],
    ),
    // git merge-tree
    (
        "merge-tree",
        &[
            ("--write-tree", Flag),
            ("--trivial-merge", Flag),
            ("--messages", Flag),
            ("--no-messages", Flag),
            ("-z", Flag),
            ("--name-only", Flag),
            ("--allow-unrelated-histories", Flag),
            ("--stdin", Flag),
            ("--merge-base", Value),
            ("--no-merge-base", Flag),
            ("-X", Value),
            ("--strategy-option", Value),
            ("--no-strategy-option", Flag),
        ],
    ),
    // git format-patch
    (
        "format-patch",
        &[
            ("-n", Flag),
            ("--numbered", Flag),
            ("--no-numbered", Flag),
            ("-N", Flag),
            ("-s", Flag),
            ("--signoff", Flag),
            ("--no-signoff", Flag),
            ("--stdout", Flag),
            ("--no-stdout", Flag),
            ("--cover-letter", Flag),
            ("--no-cover-letter", Flag),
            ("--numbered-files", Flag),
            ("--no-numbered-files", Flag),
            ("--suffix", Value),
            ("--no-suffix", Flag),
            ("--start-number", Value),
            ("--no-start-number", Flag),
            ("-v", Value),
            ("--reroll-count", Value),
            ("--no-reroll-count", Flag),
            ("--filename-max-length", Value),
            ("--no-filename-max-length", Flag),
            ("--rfc", Attached),
            ("--no-rfc", Flag),
            ("--cover-from-description", Value),
            ("--no-cover-from-description", Flag),
            ("--description-file", Value),
            ("--no-description-file", Flag),
            ("--subject-prefix", Value),
            ("-o", Value),
            ("--output-directory", Value),
            ("-k", Flag),
            ("--keep-subject", Flag),
            ("--no-binary", Flag),
            ("--binary", Flag),
            ("--zero-commit", Flag),
            ("--no-zero-commit", Flag),
            ("--ignore-if-in-upstream", Flag),
            ("--no-ignore-if-in-upstream", Flag),
            ("-p", Flag),
            ("--no-stat", Flag),
            ("--add-header", Value),
            ("--no-add-header", Flag),
            ("--to", Value),
            ("--no-to", Flag),
            ("--cc", Value),
            ("--no-cc", Flag),
            ("--from", Attached),
            ("--no-from", Flag),
            ("--in-reply-to", Value),
            ("--no-in-reply-to", Flag),
            ("--attach", Attached),
            ("--no-attach", Flag),
            ("--inline", Attached),
            ("--thread", Attached),
            ("--no-thread", Flag),
            ("--signature", Value),
            ("--no-signature", Flag),
            ("--base", Value),
            ("--no-base", Flag),
            ("--signature-file", Value),
            ("--no-signature-file", Flag),
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("--progress", Flag),
            ("--no-progress", Flag),
            ("--interdiff", Value),
            ("--no-interdiff", Flag),
            ("--range-diff", Value),
            ("--no-range-diff", Flag),
            ("--creation-factor", Value),
            ("--no-creation-factor", Flag),
            ("--force-in-body-from", Flag),
            ("--no-force-in-body-from", Flag),
        ],
    ),
    // git archive
    (
        "archive",
        &[
            ("--format", Value),
            ("--no-format", Flag),
            ("--prefix", Value),
            ("--no-prefix", Flag),
            ("--add-file", Value),
            ("--no-add-file", Flag),
            ("--add-virtual-file", Value),
            ("--no-add-virtual-file", Flag),
            ("-o", Value),
            ("--output", Value),
            ("--no-output", Flag),
            ("--worktree-attributes", Flag),
            ("--no-worktree-attributes", Flag),
            ("-v", Flag),
            ("--verbose", Flag),
            ("--no-verbose", Flag),
            ("--mtime", Value),
            ("-N", Flag),
            ("-l", Flag),
            ("--list", Flag),
            ("--no-list", Flag),
            ("--remote", Value),
            ("--no-remote", Flag),
            ("--exec", Value),
            ("--no-exec", Flag),
        ],
    ),
    // git checkout-index
    (
        "checkout-index",
        &[
            ("-a", Flag),
            ("--all", Flag),
            ("--no-all", Flag),
            ("--ignore-skip-worktree-bits", Flag),
            ("--no-ignore-skip-worktree-bits", Flag),
            ("-f", Flag),
            ("--force", Flag),
            ("--no-force", Flag),
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("-n", Flag),
            ("--no-create", Flag),
            ("--create", Flag),
            ("-u", Flag),
            ("--index", Flag),
            ("--no-index", Flag),
            ("-z", Flag),
            ("--stdin", Flag),
            ("--no-stdin", Flag),
            ("--temp", Flag),
            ("--no-temp", Flag),
            ("--prefix", Value),
            ("--no-prefix", Flag),
            ("--stage", Value),
        ],
    ),
    // git read-tree
    (
        "read-tree",
        &[
            ("--index-output", Value),
            ("--empty", Flag),
            ("--no-empty", Flag),
            ("-v", Flag),
            ("--verbose", Flag),
            ("--no-verbose", Flag),
            ("-m", Flag),
            ("--trivial", Flag),
            ("--no-trivial", Flag),
            ("--aggressive", Flag),
            ("--no-aggressive", Flag),
            ("--reset", Flag),
            ("--no-reset", Flag),
            ("--prefix", Value),
            ("-u", Flag),
            ("--exclude-per-directory", Value),
            ("-i", Flag),
            ("-n", Flag),
            ("--dry-run", Flag),
            ("--no-dry-run", Flag),
            ("--no-sparse-checkout", Flag),
            ("--sparse-checkout", Flag),
            ("--debug-unpack", Flag),
            ("--no-debug-unpack", Flag),
            ("--recurse-submodules", Attached),
            ("--no-recurse-submodules", Flag),
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
        ],
    ),
    // git worktree add
    (
        "worktree add",
        &[
            ("-f", Flag),
            ("--force", Flag),
            ("--no-force", Flag),
            ("-b", Value),
            ("-B", Value),
            ("--orphan", Flag),
            ("--no-orphan", Flag),
            ("-d", Flag),
            ("--detach", Flag),
            ("--no-detach", Flag),
            ("--checkout", Flag),
            ("--no-checkout", Flag),
            ("--lock", Flag),
            ("--no-lock", Flag),
            ("--reason", Value),
            ("--no-reason", Flag),
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("--track", Flag),
            ("--no-track", Flag),
            ("--guess-remote", Flag),
            ("--no-guess-remote", Flag),
        ],
    ),
    // git fetch
    (
        "fetch",
        &[
            ("-v", Flag),
            ("--verbose", Flag),
            ("--no-verbose", Flag),
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("--all", Flag),
            ("--no-all", Flag),
            ("--set-upstream", Flag),
            ("--no-set-upstream", Flag),
            ("-a", Flag),
            ("--append", Flag),
            ("--no-append", Flag),
            ("--atomic", Flag),
            ("--no-atomic", Flag),
            ("--upload-pack", Value),
            ("--no-upload-pack", Flag),
            ("-f", Flag),
            ("--force", Flag),
            ("--no-force", Flag),
            ("-m", Flag),
            ("--multiple", Flag),
            ("--no-multiple", Flag),
            ("-t", Flag),
            ("--tags", Flag),
            ("--no-tags", Flag),
            ("-n", Flag),
            ("-j", Value),
            ("--jobs", Value),
            ("--no-jobs", Flag),
            ("--prefetch", Flag),
            ("--no-prefetch", Flag),
            ("-p", Flag),
            ("--prune", Flag),
            ("--no-prune", Flag),
            ("-P", Flag),
            ("--prune-tags", Flag),
            ("--no-prune-tags", Flag),
            ("--recurse-submodules", Attached),
            ("--no-recurse-submodules", Flag),
            ("--dry-run", Flag),
            ("--no-dry-run", Flag),
            ("--porcelain", Flag),
            ("--no-porcelain", Flag),
            ("--write-fetch-head", Flag),
            ("--no-write-fetch-head", Flag),
            ("-k", Flag),
            ("--keep", Flag),
            ("--no-keep", Flag),
            ("-u", Flag),
            ("--update-head-ok", Flag),
            ("--no-update-head-ok", Flag),
            ("--progress", Flag),
            ("--no-progress", Flag),
            ("--depth", Value),
            ("--no-depth", Flag),
            ("--shallow-since", Value),
            ("--no-shallow-since", Flag),
            ("--shallow-exclude", Value),
            ("--no-shallow-exclude", Flag),
            ("--deepen", Value),
            ("--no-deepen", Flag),
            ("--unshallow", Flag),
            ("--refetch", Flag),
            ("--update-shallow", Flag),
            ("--no-update-shallow", Flag),
            ("--refmap", Value),
            ("-o", Value),
            ("--server-option", Value),
            ("--no-server-option", Flag),
            ("-4", Flag),
            ("--ipv4", Flag),
            ("-6", Flag),
            ("--ipv6", Flag),
            ("--negotiation-tip", Value),
            ("--no-negotiation-tip", Flag),
            ("--negotiate-only", Flag),
            ("--no-negotiate-only", Flag),
            ("--filter", Value),
            ("--no-filter", Flag),
            ("--auto-maintenance", Flag),
            ("--no-auto-maintenance", Flag),
            ("--auto-gc", Flag),
            ("--no-auto-gc", Flag),
            ("--show-forced-updates", Flag),
            ("--no-show-forced-updates", Flag),
            ("--write-commit-graph", Flag),
            ("--no-write-commit-graph", Flag),
            ("--stdin", Flag),
            ("--no-stdin", Flag),
        ],
    ),
    // git pull
    (
        "pull",
        &[
            ("-v", Flag),
            ("--verbose", Flag),
            ("--no-verbose", Flag),
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("--progress", Flag),
            ("--no-progress", Flag),
            ("--recurse-submodules", Attached),
            ("--no-recurse-submodules", Flag),
            ("-r", Attached),
            ("--rebase", Attached),
            ("--no-rebase", Flag),
            ("-n", Flag),
            ("--stat", Flag),
            ("--no-stat", Flag),
            ("--log", Attached),
            ("--no-log", Flag),
            ("--signoff", Attached),
            ("--no-signoff", Flag),
            ("--squash", Flag),
            ("--no-squash", Flag),
            ("--commit", Flag),
            ("--no-commit", Flag),
            ("--edit", Flag),
            ("--no-edit", Flag),
            ("--cleanup", Value),
            ("--no-cleanup", Flag),
            ("--ff", Flag),
            ("--no-ff", Flag),
            ("--ff-only", Flag),
            ("--verify", Flag),
            ("--no-verify", Flag),
            ("--verify-signatures", Flag),
            ("--no-verify-signatures", Flag),
            ("--autostash", Flag),
            ("--no-autostash", Flag),
            ("-s", Value),
            ("--strategy", Value),
            ("--no-strategy", Flag),
            ("-X", Value),
            ("--strategy-option", Value),
            ("--no-strategy-option", Flag),
            ("-S", Attached),
            ("--gpg-sign", Attached),
            ("--no-gpg-sign", Flag),
            ("--allow-unrelated-histories", Flag),
            ("--no-allow-unrelated-histories", Flag),
            ("--all", Flag),
            ("--no-all", Flag),
            ("-a", Flag),
            ("--append", Flag),
            ("--no-append", Flag),
            ("--upload-pack", Value),
            ("--no-upload-pack", Flag),
            ("-f", Flag),
            ("--force", Flag),
            ("--no-force", Flag),
            ("-t", Flag),
            ("--tags", Flag),
            ("--no-tags", Flag),
            ("-p", Flag),
            ("--prune", Flag),
            ("--no-prune", Flag),
            ("-j", Attached),
            ("--jobs", Attached),
            ("--no-jobs", Flag),
            ("--dry-run", Flag),
            ("--no-dry-run", Flag),
            ("-k", Flag),
            ("--keep", Flag),
            ("--no-keep", Flag),
            ("--depth", Value),
            ("--no-depth", Flag),
            ("--shallow-since", Value),
            ("--no-shallow-since", Flag),
            ("--shallow-exclude", Value),
            ("--no-shallow-exclude", Flag),
            ("--deepen", Value),
            ("--no-deepen", Flag),
            ("--unshallow", Flag),
            ("--update-shallow", Flag),
            ("--no-update-shallow", Flag),
            ("--refmap", Value),
            ("-o", Value),
            ("--server-option", Value),
            ("--no-server-option", Flag),
            ("-4", Flag),
            ("--ipv4", Flag),
            ("--no-ipv4", Flag),
            ("-6", Flag),
            ("--ipv6", Flag),
            ("--no-ipv6", Flag),
            ("--negotiation-tip", Value),
            ("--no-negotiation-tip", Flag),
            ("--show-forced-updates", Flag),
            ("--no-show-forced-updates", Flag),
            ("--set-upstream", Flag),
            ("--no-set-upstream", Flag),
        ],
    ),
    // git ls-remote
    (
        "ls-remote",
        &[
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("--upload-pack", Value),
            ("--no-upload-pack", Flag),
            ("-t", Flag),
            ("--tags", Flag),
            ("--no-tags", Flag),
            ("-b", Flag),
            ("--branches", Flag),
            ("--no-branches", Flag),
            ("--refs", Flag),
            ("--no-refs", Flag),
            ("--get-url", Flag),
            ("--no-get-url", Flag),
            ("--sort", Value),
            ("--no-sort", Flag),
            ("--exit-code", Flag),
            ("--no-exit-code", Flag),
            ("--symref", Flag),
            ("--no-symref", Flag),
            ("-o", Value),
            ("--server-option", Value),
            ("--no-server-option", Flag),
        ],
    ),
    // git bundle create
    (
        "bundle create",
        &[
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("--progress", Flag),
            ("--no-progress", Flag),
            ("--version", Value),
            ("--no-version", Flag),
        ],
    ),
    // git stash push
    (
        "stash push",
        &[
            ("-k", Flag),
            ("--keep-index", Flag),
            ("--no-keep-index", Flag),
            ("-S", Flag),
            ("--staged", Flag),
            ("--no-staged", Flag),
            ("-p", Flag),
            ("--patch", Flag),
            ("--no-patch", Flag),
            ("-q", Flag),
            ("--quiet", Flag),
            ("--no-quiet", Flag),
            ("-u", Flag),
            ("--include-untracked", Flag),
            ("--no-include-untracked", Flag),
            ("-a", Flag),
            ("--all", Flag),
            ("--no-all", Flag),
            ("-m", Value),
            ("--message", Value),
            ("--no-message", Flag),
            ("--pathspec-from-file", Value),
            ("--no-pathspec-from-file", Flag),
            ("--pathspec-file-nul", Flag),
            ("--no-pathspec-file-nul", Flag),
        ],
    ),
    // git notes add
    (
        "notes add",
        &[
            ("-m", Value),
            ("--message", Value),
            ("-F", Value),
            ("--file", Value),
            ("-c", Value),
            ("--reedit-message", Value),
            ("-C", Value),
            ("--reuse-message", Value),
            ("--allow-empty", Flag),
            ("--no-allow-empty", Flag),
            ("-f", Flag),
            ("--force", Flag),
            ("--no-force", Flag),
            ("--separator", Attached),
            ("--no-separator", Flag),
            ("--stripspace", Flag),
            ("--no-stripspace", Flag),
        ],
    ),
    // git remote add
    (
        "remote add",
        &[
            ("-f", Flag),
            ("--fetch", Flag),
            ("--no-fetch", Flag),
            ("--tags", Flag),
            ("--no-tags", Flag),
            ("-t", Value),
            ("--track", Value),
            ("--no-track", Flag),
            ("-m", Value),
            ("--master", Value),
            ("--no-master", Flag),
            ("--mirror", Attached),
            ("--no-mirror", Flag),
        ],
    ),
];

/// How `option` of `command` (one word, or two for a subcommand's own: `"worktree add"`)
/// takes its value, when the table knows it. The classifier's own tables answer for `diff`,
/// `log`, `show` and `blame`.
pub fn takes(command: &str, option: &[u8]) -> Option<Takes> {
    if let Some(t) = super::watched_takes(command, option) {
        return Some(t);
    }
    TABLE
        .iter()
        .find(|(c, _)| *c == command)
        .and_then(|(_, opts)| opts.iter().find(|(n, _)| n.as_bytes() == option))
        .map(|(_, t)| *t)
}

/// Whether the table lists `command`.
pub fn knows(command: &str) -> bool {
    super::watched_takes(command, b"").is_some() || TABLE.iter().any(|(c, _)| *c == command)
}

/// One word of a subcommand's arguments, read as git reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    /// An option (`--name`, or `-x` for each option of a short cluster) and its value.
    Option {
        /// The option's name as written (`--format`, `-n`).
        name: Vec<u8>,
        /// Its value, attached or the next word.
        value: Option<OsString>,
    },
    /// A word that is not an option (before `--`, or any word after it).
    Positional(OsString),
}

/// A subcommand's arguments, tokenized.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tokens {
    /// The words, in order (`--` itself left out).
    pub tokens: Vec<Token>,
    /// Whether an option the table does not know (or a prefix of one) was met: after it, which
    /// words are values is unknown.
    pub uncertain: bool,
    /// Whether `--` was given.
    pub separator: bool,
}

impl Tokens {
    /// The options' names, in order.
    pub fn options(&self) -> impl Iterator<Item = &[u8]> {
        self.tokens.iter().filter_map(|t| match t {
            Token::Option { name, .. } => Some(name.as_slice()),
            Token::Positional(_) => None,
        })
    }

    /// The positional words, in order.
    pub fn positionals(&self) -> impl Iterator<Item = &OsString> {
        self.tokens.iter().filter_map(|t| match t {
            Token::Positional(p) => Some(p),
            Token::Option { .. } => None,
        })
    }

    /// Whether one of `names` was given.
    pub fn has(&self, names: &[&str]) -> bool {
        self.options()
            .any(|o| names.iter().any(|n| n.as_bytes() == o))
    }

    /// Whether every option is one of `names` (and the line is certain).
    pub fn only(&self, names: &[&str]) -> bool {
        !self.uncertain
            && self
                .options()
                .all(|o| names.iter().any(|n| n.as_bytes() == o))
    }

    /// The last value given to one of `names`.
    pub fn value(&self, names: &[&str]) -> Option<&OsString> {
        self.tokens.iter().rev().find_map(|t| match t {
            Token::Option {
                name,
                value: Some(v),
            } if names.iter().any(|n| n.as_bytes() == name.as_slice()) => Some(v),
            _ => None,
        })
    }
}

/// Reads the arguments of `command` (after its name) as git's parse-options does, with the
/// option table of `command`.
pub fn tokenize(command: &str, args: &[OsString]) -> Tokens {
    // `git config get|set|unset` take options of their own besides `git config`'s.
    let sub = match (command, args.first().map(|a| a.as_bytes())) {
        ("config", Some(b"get")) => Some("config get"),
        ("config", Some(b"set")) => Some("config set"),
        ("config", Some(b"unset")) => Some("config unset"),
        _ => None,
    };
    let takes = |command: &str, name: &[u8]| {
        sub.and_then(|s| takes(s, name))
            .or_else(|| takes(command, name))
    };
    let mut out = Tokens::default();
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        i += 1;
        let b = arg.as_bytes();
        if out.separator || b == b"-" || !b.starts_with(b"-") {
            out.tokens.push(Token::Positional(arg.clone()));
            continue;
        }
        if b == b"--" {
            out.separator = true;
            continue;
        }
        if b == b"--end-of-options" {
            out.separator = true;
            continue;
        }
        if b.starts_with(b"--") {
            let (name, inline) = match b.iter().position(|c| *c == b'=') {
                Some(eq) => (&b[..eq], Some(&b[eq + 1..])),
                None => (b, None),
            };
            let value = match takes(command, name) {
                Some(Value) => match inline {
                    Some(v) => Some(std::ffi::OsStr::from_bytes(v).to_owned()),
                    None => {
                        i += 1;
                        args.get(i - 1).cloned()
                    }
                },
                Some(Attached) => inline.map(|v| std::ffi::OsStr::from_bytes(v).to_owned()),
                Some(Flag) => {
                    if inline.is_some() {
                        out.uncertain = true;
                    }
                    None
                }
                None => {
                    out.uncertain = true;
                    inline.map(|v| std::ffi::OsStr::from_bytes(v).to_owned())
                }
            };
            out.tokens.push(Token::Option {
                name: name.to_vec(),
                value,
            });
            continue;
        }
        // A short cluster: each letter an option, until one takes a value.
        let mut k = 1;
        while k < b.len() {
            let name = vec![b'-', b[k]];
            let rest = &b[k + 1..];
            match takes(command, &name) {
                Some(Flag) => {
                    out.tokens.push(Token::Option { name, value: None });
                    k += 1;
                }
                Some(Value) => {
                    let value = if rest.is_empty() {
                        i += 1;
                        args.get(i - 1).cloned()
                    } else {
                        Some(std::ffi::OsStr::from_bytes(rest).to_owned())
                    };
                    out.tokens.push(Token::Option { name, value });
                    break;
                }
                Some(Attached) => {
                    let value =
                        (!rest.is_empty()).then(|| std::ffi::OsStr::from_bytes(rest).to_owned());
                    out.tokens.push(Token::Option { name, value });
                    break;
                }
                None => {
                    // `-5` for a count, or a letter this table does not know.
                    out.uncertain = true;
                    out.tokens.push(Token::Option {
                        name: b[k..].to_vec(),
                        value: None,
                    });
                    break;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(line: &str) -> Vec<OsString> {
        line.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn values_are_taken_as_git_takes_them() {
        let t = tokenize("branch", &argv("--format --list x"));
        assert_eq!(t.positionals().collect::<Vec<_>>(), ["x"]);
        assert_eq!(t.value(&["--format"]).unwrap(), "--list");
        assert!(!t.has(&["--list"]));
        let t = tokenize("tag", &argv("-n5 -l"));
        assert!(t.has(&["-n"]) && t.has(&["-l"]) && !t.uncertain);
        let t = tokenize("branch", &argv("-vv --contains HEAD"));
        assert_eq!(t.positionals().count(), 0);
        let t = tokenize("branch", &argv("-uorigin/main x"));
        assert_eq!(t.value(&["-u"]).unwrap(), "origin/main");
        let t = tokenize("branch", &argv("--set-upstream-t=main"));
        assert!(t.uncertain, "a prefix is not a known option");
        let t = tokenize("push", &argv("origin -- --tags"));
        assert_eq!(t.positionals().count(), 2);
    }

    /// The table agrees with the installed git 2.47: every option the table lists for a command
    /// is in git's own list (another git is not compared).
    #[test]
    fn the_table_is_git_s_own() {
        let Ok(version) = std::process::Command::new("git").arg("--version").output() else {
            return;
        };
        let version = String::from_utf8_lossy(&version.stdout).into_owned();
        if !version.starts_with("git version 2.47") {
            // Generated from 2.47; another git may list other options.
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        // Some commands read the repository before their options.
        let init = std::process::Command::new("git")
            .args(["init", "-q"])
            .current_dir(dir.path())
            .status()
            .unwrap();
        assert!(init.success());
        for (command, options) in TABLE {
            let mut text = String::new();
            for probe in ["--x-no-such-option", "-h"] {
                let out = std::process::Command::new("git")
                    .args(command.split(' '))
                    .arg(probe)
                    .current_dir(dir.path())
                    .env("GIT_CONFIG_NOSYSTEM", "1")
                    .env("GIT_CONFIG_GLOBAL", "/dev/null")
                    .output()
                    .unwrap();
                text += &String::from_utf8_lossy(&out.stderr);
                text += &String::from_utf8_lossy(&out.stdout);
            }
            for (name, _) in *options {
                let bare = name.trim_start_matches("--no-");
                let listed = text.contains(name)
                    || text.contains(&format!("--[no-]{}", bare.trim_start_matches("--")));
                assert!(listed, "git {command}: {name} is not in git's list");
            }
        }
    }
}
