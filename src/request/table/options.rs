//! The options of the model's subcommands ([`super`]), by meaning: for `diff`, `log`, `show`
//! and `blame`, the groups the answer path weighs; for every other command whose options the
//! model reads, git 2.47's own list (`git <command> -h`), each option in the group of what it
//! means to the guard.

use super::Group;
use super::Means::*;
use super::PickaxeKind::{Occurrences, Regex};
use super::PushOption::{All, Delete, DryRun, Mirror, NoRecursion, Prune, Recursion, Repo, Tags};

/// Options of git's diff machinery that change which files or lines count as changed.
pub(super) const DIFF_FACTS: &[Group] = &[
    (
        Forward,
        "-M? --find-renames? -C? --find-copies? --find-copies-harder --no-renames -B?",
    ),
    (
        Forward,
        "--break-rewrites? -l? --rename-empty --no-rename-empty -w --ignore-all-space -b",
    ),
    (
        Forward,
        "--ignore-space-change --ignore-space-at-eol --ignore-cr-at-eol",
    ),
    (
        Forward,
        "--ignore-blank-lines -I= --ignore-matching-lines= --diff-algorithm= --histogram",
    ),
    (
        Forward,
        "--patience --minimal --anchored= --indent-heuristic --no-indent-heuristic -R",
    ),
    (
        Forward,
        "--diff-filter= --relative? --no-relative --ignore-submodules? -a --text",
    ),
    (Forward, "--ita-invisible-in-index --ita-visible-in-index"),
    (Ignore, "--no-ext-diff --no-textconv"),
    (Machine, "--ext-diff"),
    (Unsupported, "--textconv --find-object="),
];

/// Options that only change how git's own output looks.
pub(super) const DIFF_PRESENTATION: &[Group] = &[
    (
        Ignore,
        "--color? --no-color --color-moved? --no-color-moved --color-moved-ws=",
    ),
    (
        Ignore,
        "--no-color-moved-ws --submodule? --ws-error-highlight= --full-index --abbrev?",
    ),
    (
        Ignore,
        "--no-prefix --default-prefix --src-prefix= --dst-prefix=",
    ),
    (
        Patch,
        "-W --function-context --no-function-context --inter-hunk-context=",
    ),
];

/// Options that ask for git's own (machine or patch) output.
pub(super) const DIFF_MACHINE: &[Group] = &[
    (
        Machine,
        "-p -u --patch --raw --patch-with-raw --patch-with-stat --numstat --shortstat",
    ),
    (
        Machine,
        "--stat? --compact-summary --dirstat? -X? --cumulative --dirstat-by-file?",
    ),
    (
        Machine,
        "--summary --name-only --name-status -z --output= --binary --check --quiet",
    ),
    (
        Machine,
        "--exit-code --word-diff? --word-diff-regex= --color-words? --line-prefix=",
    ),
    (
        Machine,
        "--output-indicator-new= --output-indicator-old= --output-indicator-context=",
    ),
    (
        Machine,
        "--stat-width= --stat-name-width= --stat-graph-width= --stat-count= --skip-to=",
    ),
    (Machine, "--rotate-to="),
    (Patch, "-U? --unified="),
    (NoPatch, "-s --no-patch"),
    (Help, "-h"),
];

/// Options only `git diff` has.
pub(super) const DIFF_ONLY: &[Group] = &[
    (Cached, "--cached --staged"),
    (MergeBase, "--merge-base"),
    (Unsupported, "--no-index -0 -1 -2 -3 --base --ours --theirs"),
];

/// Commit-selection options of git's revision walk (`log`).
pub(super) const LOG_SELECTION: &[Group] = &[
    (
        Forward,
        "-n= --max-count= --skip= --since= --after= --until= --before=",
    ),
    (
        Forward,
        "--since-as-filter= --author= --committer= --grep= --all-match --invert-grep -i",
    ),
    (
        Forward,
        "--regexp-ignore-case --basic-regexp -E --extended-regexp -F --fixed-strings -P",
    ),
    (
        Forward,
        "--perl-regexp --merges --no-merges --min-parents= --max-parents=",
    ),
    (
        Forward,
        "--no-min-parents --no-max-parents --first-parent --exclude-first-parent-only",
    ),
    (
        Forward,
        "--not --all --branches? --tags? --remotes? --glob= --exclude= --ancestry-path?",
    ),
    (
        Forward,
        "--simplify-by-decoration --full-history --dense --sparse --simplify-merges",
    ),
    (
        Forward,
        "--show-pulls --topo-order --date-order --author-date-order --reverse --follow",
    ),
    (
        Forward,
        "--cherry-pick --left-only --right-only --remove-empty --pickaxe-regex",
    ),
    (Forward, "--pickaxe-all"),
    (Pickaxe(Occurrences), "-S="),
    (Pickaxe(Regex), "-G="),
];

/// How `log` and `show` print commits: ignorable, machine, or without a structured answer.
pub(super) const LOG_PRESENTATION: &[Group] = &[
    (
        Ignore,
        "--decorate? --no-decorate --decorate-refs= --decorate-refs-exclude=",
    ),
    (
        Ignore,
        "--clear-decorations --abbrev-commit --no-abbrev-commit --date= --mailmap",
    ),
    (
        Ignore,
        "--use-mailmap --no-mailmap --no-use-mailmap --no-notes",
    ),
    (
        Machine,
        "--oneline --graph --log-size --parents --children --left-right --boundary",
    ),
    (
        Machine,
        "--source --show-signature --notes? --show-notes? --cherry-mark --cherry",
    ),
    (
        Machine,
        "--show-linear-break? -m -c --cc --dd --diff-merges= --remerge-diff --count",
    ),
    (Format, "--format= --pretty?"),
    (LineRange, "-L="),
    (
        Unsupported,
        "-g --walk-reflogs --bisect --no-walk? --stdin --merge",
    ),
];

/// `git blame`'s options.
pub(super) const BLAME: &[Group] = &[
    (LineRange, "-L="),
    (
        Forward,
        "-w -M? -C? --first-parent --ignore-rev= --ignore-revs-file= --minimal",
    ),
    (Forward, "--diff-algorithm= --since= --contents="),
    (
        Ignore,
        "-c -l -t -s -e --show-email -f --show-name -n --show-number -b --root --date=",
    ),
    (
        Ignore,
        "--abbrev? --color-lines --color-by-age --progress --no-progress",
    ),
    (
        Machine,
        "-p --porcelain --line-porcelain --incremental --score-debug --show-stats",
    ),
    (Machine, "--encoding="),
    (Unsupported, "--reverse= -S="),
    (Help, "-h"),
];

/// `git branch`.
pub(super) const BRANCH: &[Group] = &[
    (
        Reads,
        "-v --verbose -q --quiet --[no-]color? --[no-]abbrev? --omit-empty",
    ),
    (
        Reads,
        "--show-current --[no-]column? --sort= -i --ignore-case --format=",
    ),
    (
        Mode,
        "-r --remotes --contains= --no-contains= -a --all -l --list --merged=",
    ),
    (Mode, "--no-merged= --points-at="),
    (
        Other,
        "--no-verbose --no-quiet -t? --[no-]track? -u= --[no-]set-upstream-to=",
    ),
    (
        Other,
        "--[no-]unset-upstream -d --[no-]delete -D -m --[no-]move -M --no-omit-empty -c",
    ),
    (
        Other,
        "--[no-]copy -C --no-list --no-show-current --[no-]create-reflog",
    ),
    (
        Other,
        "--[no-]edit-description -f --[no-]force --no-sort --no-points-at",
    ),
    (
        Other,
        "--no-ignore-case --[no-]recurse-submodules --no-format",
    ),
];

/// `git tag`.
pub(super) const TAG: &[Group] = &[
    (
        Reads,
        "--[no-]column? --omit-empty --sort= --format= --color? -i --ignore-case",
    ),
    (
        Mode,
        "-l --list -n? -v --verify --contains= --no-contains= --merged= --no-merged=",
    ),
    (Mode, "--points-at="),
    (
        Other,
        "-d --delete -a --[no-]annotate -m= --message= -F= --[no-]file= --trailer= -e",
    ),
    (
        Other,
        "--[no-]edit -s --[no-]sign --[no-]cleanup= -u= --[no-]local-user= -f",
    ),
    (
        Other,
        "--[no-]force --[no-]create-reflog --no-omit-empty --no-sort --no-points-at",
    ),
    (Other, "--no-format --no-color --no-ignore-case"),
];

/// `git config`.
pub(super) const CONFIG: &[Group] = &[
    (
        Reads,
        "--local --worktree -z --null --name-only --show-origin --show-scope",
    ),
    (
        Reads,
        "--show-names -t= --type= --bool --int --bool-or-int --bool-or-str --path",
    ),
    (
        Reads,
        "--expiry-date --default= --fixed-value --[no-]includes",
    ),
    (
        Mode,
        "--get --get-all --get-regexp --get-urlmatch -l --list --get-color",
    ),
    (Mode, "--get-colorbool"),
    (Elsewhere, "--global --system -f= --file= --blob="),
    (Editor, "--rename-section -e --edit"),
    (Removes, "--unset --unset-all --remove-section"),
    (
        Other,
        "--no-global --no-system --no-local --no-worktree --no-file --no-blob",
    ),
    (
        Other,
        "--replace-all --add --no-null --no-name-only --no-show-origin --no-show-scope",
    ),
    (
        Other,
        "--no-show-names --no-type --no-default --[no-]comment= --no-fixed-value",
    ),
];

/// `git config get`.
pub(super) const CONFIG_GET: &[Group] = &[
    (Reads, "--all --regexp --value= --url="),
    (Other, "--no-all --no-regexp --no-value --no-url"),
];

/// `git config set`.
pub(super) const CONFIG_SET: &[Group] = &[
    (Reads, "--all --value="),
    (Other, "--no-all --no-value --[no-]append"),
];

/// `git config unset`.
pub(super) const CONFIG_UNSET: &[Group] =
    &[(Reads, "--all --value="), (Other, "--no-all --no-value")];

/// `git stash`.
pub(super) const STASH: &[Group] = &[
    (
        Other,
        "-k --[no-]keep-index -S --[no-]staged -p --[no-]patch -q --[no-]quiet -u",
    ),
    (
        Other,
        "--[no-]include-untracked -a --[no-]all -m= --[no-]message=",
    ),
    (Other, "--[no-]pathspec-from-file= --[no-]pathspec-file-nul"),
];

/// `git symbolic-ref`.
pub(super) const SYMBOLIC_REF: &[Group] = &[
    (Reads, "-q --quiet --short --[no-]recurse"),
    (Other, "--no-quiet -d --[no-]delete --no-short -m="),
];

/// `git clean`.
pub(super) const CLEAN: &[Group] = &[
    (Reads, "-q --quiet -d -e= --exclude= -x -X"),
    (Mode, "-n --dry-run"),
    (
        Other,
        "--no-quiet --no-dry-run -f --[no-]force -i --[no-]interactive",
    ),
];

/// `git apply`.
pub(super) const APPLY: &[Group] = &[
    (
        Reads,
        "--exclude= --include= -p= -z -C= --whitespace= --ignore-space-change",
    ),
    (
        Reads,
        "--ignore-whitespace -R --reverse --unidiff-zero -v --verbose -q --quiet",
    ),
    (
        Reads,
        "--inaccurate-eof --recount --directory= --allow-empty",
    ),
    (Mode, "--stat --numstat --summary --check"),
    (
        Other,
        "--[no-]add --no-stat --no-numstat --no-summary --no-check --[no-]index",
    ),
    (
        Other,
        "-N --[no-]intent-to-add --[no-]cached --[no-]unsafe-paths --[no-]apply -3",
    ),
    (
        Other,
        "--[no-]3way --ours --theirs --union --[no-]build-fake-ancestor= --no-whitespace",
    ),
    (
        Other,
        "--no-ignore-space-change --no-ignore-whitespace --no-reverse --no-unidiff-zero",
    ),
    (
        Other,
        "--[no-]reject --[no-]allow-overlap --no-verbose --no-quiet --no-inaccurate-eof",
    ),
    (Other, "--no-recount --no-directory --no-allow-empty"),
];

/// `git hash-object`.
pub(super) const HASH_OBJECT: &[Group] = &[
    (
        Reads,
        "-t= --stdin --stdin-paths --no-filters --literally --path=",
    ),
    (
        Other,
        "-w --no-stdin --no-stdin-paths --filters --no-literally --no-path",
    ),
];

/// `git interpret-trailers`.
pub(super) const INTERPRET_TRAILERS: &[Group] = &[
    (
        Reads,
        "--trim-empty --where= --if-exists= --if-missing= --only-trailers --only-input",
    ),
    (Reads, "--unfold --parse --no-divider --trailer="),
    (
        Other,
        "--[no-]in-place --no-trim-empty --no-where --no-if-exists --no-if-missing",
    ),
    (
        Other,
        "--no-only-trailers --no-only-input --no-unfold --divider --no-trailer",
    ),
];

/// `git replace`.
pub(super) const REPLACE: &[Group] = &[
    (Reads, "--format="),
    (Mode, "-l --list"),
    (
        Other,
        "-d --delete -e --edit -g --graft --convert-graft-file -f --[no-]force",
    ),
    (Other, "--[no-]raw --no-format"),
];

/// `git push`.
pub(super) const PUSH: &[Group] = &[
    (Program, "--receive-pack= --exec="),
    (SkipsHooks, "--no-verify"),
    (
        Other,
        "-v --[no-]verbose -q --[no-]quiet --no-repo --no-all --no-branches --no-mirror",
    ),
    (
        Other,
        "--no-delete --no-tags --no-dry-run --[no-]porcelain -f --[no-]force",
    ),
    (
        Other,
        "--[no-]force-with-lease? --[no-]force-if-includes --[no-]thin --no-receive-pack",
    ),
    (
        Other,
        "--no-exec -u --[no-]set-upstream --[no-]progress --no-prune --verify",
    ),
    (
        Other,
        "--[no-]follow-tags --[no-]signed? --[no-]atomic -o= --[no-]push-option= -4",
    ),
    (Other, "--ipv4 -6 --ipv6"),
    (Push(All), "--all --branches"),
    (Push(Delete), "-d --delete"),
    (Push(DryRun), "-n --dry-run"),
    (Push(Mirror), "--mirror"),
    (Push(NoRecursion), "--no-recurse-submodules"),
    (Push(Prune), "--prune"),
    (Push(Recursion), "--recurse-submodules="),
    (Push(Repo), "--repo="),
    (Push(Tags), "--tags"),
];

/// `git clone`.
pub(super) const CLONE: &[Group] = &[
    (Program, "-u="),
    (Bare, "--bare --mirror"),
    (Setting, "-c= --config="),
    (
        Other,
        "-v --[no-]verbose -q --[no-]quiet --[no-]progress --[no-]reject-shallow -n",
    ),
    (
        Other,
        "--[no-]checkout --no-bare --no-mirror -l --[no-]local",
    ),
    (
        Other,
        "--[no-]hardlinks -s --[no-]shared --[no-]recurse-submodules?",
    ),
    (
        Other,
        "--[no-]recursive? -j= --[no-]jobs= --[no-]template= --[no-]reference=",
    ),
    (
        Other,
        "--[no-]reference-if-able= --[no-]dissociate -o= --[no-]origin= -b=",
    ),
    (
        Other,
        "--[no-]branch= --[no-]upload-pack= --[no-]depth= --[no-]shallow-since=",
    ),
    (
        Other,
        "--[no-]shallow-exclude= --[no-]single-branch --[no-]tags",
    ),
    (
        Other,
        "--[no-]shallow-submodules --[no-]separate-git-dir= --[no-]ref-format=",
    ),
    (
        Other,
        "--no-config --[no-]server-option= -4 --ipv4 -6 --ipv6 --[no-]filter=",
    ),
    (
        Other,
        "--[no-]also-filter-submodules --[no-]remote-submodules --[no-]sparse",
    ),
    (Other, "--[no-]bundle-uri="),
];

/// `git init`.
pub(super) const INIT: &[Group] = &[
    (
        Other,
        "--[no-]template= --[no-]bare --shared? -q --[no-]quiet --[no-]separate-git-dir=",
    ),
    (
        Other,
        "-b= --[no-]initial-branch= --[no-]object-format= --[no-]ref-format=",
    ),
];

/// `git commit`.
pub(super) const COMMIT: &[Group] = &[
    (Mode, "--dry-run"),
    (SkipsHooks, "-n --no-verify"),
    (TakesAll, "-a --all"),
    (
        TakesUnknown,
        "--interactive -p --patch --pathspec-from-file= --pathspec-file-nul",
    ),
    (
        Other,
        "-q --[no-]quiet -v --[no-]verbose -F= --[no-]file= --[no-]author= --[no-]date=",
    ),
    (
        Other,
        "-m= --[no-]message= -c= --[no-]reedit-message= -C= --[no-]reuse-message=",
    ),
    (
        Other,
        "--[no-]fixup= --[no-]squash= --[no-]reset-author --trailer= -s --[no-]signoff",
    ),
    (
        Other,
        "-t= --[no-]template= -e --[no-]edit --[no-]cleanup= --[no-]status -S?",
    ),
    (
        Other,
        "--[no-]gpg-sign? --no-all -i --[no-]include --no-interactive --no-patch -o",
    ),
    (
        Other,
        "--[no-]only --verify --no-dry-run --[no-]short --[no-]branch",
    ),
    (
        Other,
        "--[no-]ahead-behind --[no-]porcelain --[no-]long -z --[no-]null --[no-]amend",
    ),
    (Other, "--[no-]post-rewrite -u? --[no-]untracked-files?"),
    (Other, "--no-pathspec-from-file --no-pathspec-file-nul"),
];

/// `git fsck`.
pub(super) const FSCK: &[Group] = &[
    (Writes, "--lost-found"),
    (
        Other,
        "-v --[no-]verbose --[no-]unreachable --[no-]dangling --[no-]tags --[no-]root",
    ),
    (
        Other,
        "--[no-]cache --[no-]reflogs --[no-]full --[no-]connectivity-only --[no-]strict",
    ),
    (Other, "--no-lost-found --[no-]progress --[no-]name-objects"),
];

/// `git merge-tree`.
pub(super) const MERGE_TREE: &[Group] = &[
    (Mode, "--trivial-merge"),
    (
        Other,
        "--write-tree --[no-]messages -z --name-only --allow-unrelated-histories --stdin",
    ),
    (Other, "--[no-]merge-base= -X= --[no-]strategy-option="),
];

/// `git format-patch`.
pub(super) const FORMAT_PATCH: &[Group] = &[
    (Mode, "--stdout"),
    (Dir, "-o="),
    (
        Other,
        "-n --[no-]numbered -N -s --[no-]signoff --no-stdout --[no-]cover-letter",
    ),
    (
        Other,
        "--[no-]numbered-files --[no-]suffix= --[no-]start-number= -v=",
    ),
    (
        Other,
        "--[no-]reroll-count= --[no-]filename-max-length= --[no-]rfc?",
    ),
    (
        Other,
        "--[no-]cover-from-description= --[no-]description-file= --subject-prefix=",
    ),
    (Other, "--output-directory= -k --keep-subject --[no-]binary"),
    (
        Other,
        "--[no-]zero-commit --[no-]ignore-if-in-upstream -p --no-stat --[no-]add-header=",
    ),
    (
        Other,
        "--[no-]to= --[no-]cc= --[no-]from? --[no-]in-reply-to= --[no-]attach? --inline?",
    ),
    (
        Other,
        "--[no-]thread? --[no-]signature= --[no-]base= --[no-]signature-file= -q",
    ),
    (
        Other,
        "--[no-]quiet --[no-]progress --[no-]interdiff= --[no-]range-diff=",
    ),
    (Other, "--[no-]creation-factor= --[no-]force-in-body-from"),
];

/// `git archive`.
pub(super) const ARCHIVE: &[Group] = &[
    (Program, "--remote="),
    (File, "-o="),
    (
        Other,
        "--[no-]format= --[no-]prefix= --[no-]add-file= --[no-]add-virtual-file=",
    ),
    (
        Other,
        "--[no-]output= --[no-]worktree-attributes -v --[no-]verbose --mtime= -l",
    ),
    (
        Other,
        "--[no-]list --no-remote --[no-]exec= -0 -1 -2 -3 -4 -5 -6 -7 -8 -9",
    ),
];

/// `git checkout-index`.
pub(super) const CHECKOUT_INDEX: &[Group] = &[
    (Prefix, "--prefix="),
    (
        Other,
        "-a --[no-]all --[no-]ignore-skip-worktree-bits -f --[no-]force -q --[no-]quiet",
    ),
    (
        Other,
        "-n --[no-]create -u --[no-]index -z --[no-]stdin --[no-]temp",
    ),
    (Other, "--no-prefix --stage="),
];

/// `git read-tree`.
pub(super) const READ_TREE: &[Group] = &[
    (File, "--index-output="),
    (
        Other,
        "--[no-]empty -v --[no-]verbose -m --[no-]trivial --[no-]aggressive --[no-]reset",
    ),
    (
        Other,
        "--prefix= -u --exclude-per-directory= -i -n --[no-]dry-run",
    ),
    (
        Other,
        "--[no-]sparse-checkout --[no-]debug-unpack --[no-]recurse-submodules? -q",
    ),
    (Other, "--[no-]quiet"),
];

/// `git worktree add`.
pub(super) const WORKTREE_ADD: &[Group] = &[
    (
        Other,
        "-f --[no-]force -b= -B= --[no-]orphan -d --[no-]detach --[no-]checkout",
    ),
    (
        Other,
        "--[no-]lock --[no-]reason= -q --[no-]quiet --[no-]track --[no-]guess-remote",
    ),
];

/// `git fetch`.
pub(super) const FETCH: &[Group] = &[
    (
        Other,
        "-v --[no-]verbose -q --[no-]quiet --[no-]all --[no-]set-upstream -a",
    ),
    (
        Other,
        "--[no-]append --[no-]atomic --[no-]upload-pack= -f --[no-]force -m",
    ),
    (
        Other,
        "--[no-]multiple -t --[no-]tags -n -j= --[no-]jobs= --[no-]prefetch -p",
    ),
    (
        Other,
        "--[no-]prune -P --[no-]prune-tags --[no-]recurse-submodules? --[no-]dry-run",
    ),
    (
        Other,
        "--[no-]porcelain --[no-]write-fetch-head -k --[no-]keep -u",
    ),
    (
        Other,
        "--[no-]update-head-ok --[no-]progress --[no-]depth= --[no-]shallow-since=",
    ),
    (
        Other,
        "--[no-]shallow-exclude= --[no-]deepen= --unshallow --refetch",
    ),
    (
        Other,
        "--[no-]update-shallow --refmap= -o= --[no-]server-option= -4 --ipv4 -6 --ipv6",
    ),
    (
        Other,
        "--[no-]negotiation-tip= --[no-]negotiate-only --[no-]filter=",
    ),
    (
        Other,
        "--[no-]auto-maintenance --[no-]auto-gc --[no-]show-forced-updates",
    ),
    (Other, "--[no-]write-commit-graph --[no-]stdin"),
];

/// `git pull`.
pub(super) const PULL: &[Group] = &[
    (SkipsHooks, "--no-verify"),
    (
        Other,
        "-v --[no-]verbose -q --[no-]quiet --[no-]progress --[no-]recurse-submodules?",
    ),
    (
        Other,
        "-r? --[no-]rebase? -n --[no-]stat --[no-]log? --[no-]signoff? --[no-]squash",
    ),
    (
        Other,
        "--[no-]commit --[no-]edit --[no-]cleanup= --[no-]ff --ff-only --verify",
    ),
    (
        Other,
        "--[no-]verify-signatures --[no-]autostash -s= --[no-]strategy= -X=",
    ),
    (
        Other,
        "--[no-]strategy-option= -S? --[no-]gpg-sign? --[no-]allow-unrelated-histories",
    ),
    (
        Other,
        "--[no-]all -a --[no-]append --[no-]upload-pack= -f --[no-]force -t --[no-]tags",
    ),
    (
        Other,
        "-p --[no-]prune -j? --[no-]jobs? --[no-]dry-run -k --[no-]keep --[no-]depth=",
    ),
    (
        Other,
        "--[no-]shallow-since= --[no-]shallow-exclude= --[no-]deepen= --unshallow",
    ),
    (
        Other,
        "--[no-]update-shallow --refmap= -o= --[no-]server-option= -4 --[no-]ipv4 -6",
    ),
    (
        Other,
        "--[no-]ipv6 --[no-]negotiation-tip= --[no-]show-forced-updates",
    ),
    (Other, "--[no-]set-upstream"),
];

/// `git ls-remote`.
pub(super) const LS_REMOTE: &[Group] = &[
    (
        Other,
        "-q --[no-]quiet --[no-]upload-pack= -t --[no-]tags -b --[no-]branches",
    ),
    (
        Other,
        "--[no-]refs --[no-]get-url --[no-]sort= --[no-]exit-code --[no-]symref -o=",
    ),
    (Other, "--[no-]server-option="),
];

/// `git bundle create`.
pub(super) const BUNDLE_CREATE: &[Group] =
    &[(Other, "-q --[no-]quiet --[no-]progress --[no-]version=")];

/// `git remote add`.
pub(super) const REMOTE_ADD: &[Group] = &[
    (Network, "-f --fetch"),
    (
        Other,
        "--no-fetch --[no-]tags -t= --[no-]track= -m= --[no-]master= --[no-]mirror?",
    ),
];

/// `git am`.
pub(super) const AM: &[Group] = &[
    (SkipsHooks, "-n --no-verify"),
    (
        Other,
        "-i --[no-]interactive --verify -3 --[no-]3way -q --[no-]quiet -s --[no-]signoff",
    ),
    (
        Other,
        "-u --[no-]utf8 -k --[no-]keep --[no-]keep-non-patch -m --[no-]message-id",
    ),
    (
        Other,
        "--[no-]keep-cr -c --[no-]scissors --quoted-cr= --[no-]whitespace=",
    ),
    (
        Other,
        "--[no-]ignore-space-change --[no-]ignore-whitespace --[no-]directory=",
    ),
    (
        Other,
        "--[no-]exclude= --[no-]include= -C= -p= --[no-]patch-format= --[no-]reject",
    ),
    (
        Other,
        "--[no-]resolvemsg= --continue -r --resolved --skip --abort --quit",
    ),
    (Other, "--show-current-patch? --retry --allow-empty"),
    (
        Other,
        "--[no-]committer-date-is-author-date --[no-]ignore-date",
    ),
    (
        Other,
        "--[no-]rerere-autoupdate -S? --[no-]gpg-sign? --empty=",
    ),
];

/// `git merge`.
pub(super) const MERGE: &[Group] = &[
    (SkipsHooks, "--no-verify"),
    (
        Other,
        "-n --[no-]stat --[no-]summary --[no-]log? --[no-]squash --[no-]commit -e",
    ),
    (
        Other,
        "--[no-]edit --[no-]cleanup= --[no-]ff --ff-only --[no-]rerere-autoupdate",
    ),
    (
        Other,
        "--[no-]verify-signatures -s= --[no-]strategy= -X= --[no-]strategy-option= -m=",
    ),
    (
        Other,
        "--[no-]message= -F= --file= --[no-]into-name= -v --[no-]verbose -q --[no-]quiet",
    ),
    (
        Other,
        "--[no-]abort --[no-]quit --[no-]continue --[no-]allow-unrelated-histories",
    ),
    (
        Other,
        "--[no-]progress -S? --[no-]gpg-sign? --[no-]autostash --[no-]overwrite-ignore",
    ),
    (Other, "--[no-]signoff --verify"),
];

/// `git rebase`.
pub(super) const REBASE: &[Group] = &[
    (Program, "-x="),
    (SkipsHooks, "--no-verify"),
    (
        Other,
        "--[no-]onto= --[no-]keep-base --verify -q --[no-]quiet -v --[no-]verbose -n",
    ),
    (
        Other,
        "--[no-]stat --[no-]signoff --[no-]committer-date-is-author-date",
    ),
    (
        Other,
        "--[no-]reset-author-date -C= --[no-]ignore-whitespace --[no-]whitespace= -f",
    ),
    (
        Other,
        "--[no-]force-rebase --[no-]ff --continue --skip --abort --quit",
    ),
    (
        Other,
        "--edit-todo --show-current-patch --apply -m --merge -i --interactive",
    ),
    (
        Other,
        "--[no-]rerere-autoupdate --empty= --[no-]autosquash --[no-]update-refs -S?",
    ),
    (
        Other,
        "--[no-]gpg-sign? --[no-]autostash --[no-]exec= -r? --[no-]rebase-merges?",
    ),
    (
        Other,
        "--[no-]fork-point -s= --[no-]strategy= -X= --[no-]strategy-option= --[no-]root",
    ),
    (
        Other,
        "--[no-]reschedule-failed-exec --[no-]reapply-cherry-picks",
    ),
];

/// `git remote show`.
pub(super) const REMOTE_SHOW: &[Group] = &[(Offline, "-n")];

/// `git remote set-head`.
pub(super) const REMOTE_SET_HEAD: &[Group] = &[
    (Network, "-a --auto"),
    (Other, "--no-auto -d --[no-]delete"),
];

/// `git merge-file`.
pub(super) const MERGE_FILE: &[Group] = &[
    (Mode, "-p --stdout"),
    (
        Other,
        "--no-stdout --[no-]object-id --[no-]diff3 --[no-]zdiff3 --[no-]ours",
    ),
    (
        Other,
        "--[no-]theirs --[no-]union --diff-algorithm= --[no-]marker-size= -q",
    ),
    (Other, "--[no-]quiet -L="),
];

/// `git bugreport`.
pub(super) const BUGREPORT: &[Group] = &[
    (Dir, "-o="),
    (
        Other,
        "--[no-]diagnose? --[no-]output-directory= -s= --[no-]suffix=",
    ),
];

/// `git diagnose`.
pub(super) const DIAGNOSE: &[Group] = &[
    (Dir, "-o="),
    (Other, "--[no-]output-directory= -s= --[no-]suffix= --mode="),
];
