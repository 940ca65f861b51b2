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
    let Effect::Push(p) = git(&argv("push -fu --repo=up origin main:release +x:y")).effect else {
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

/// What reading every command with git's own option lists fixed (issue 37): each of these was
/// read otherwise when the guard had a grammar of its own.
#[test]
fn the_model_reads_values_as_git_does() {
    let call = |line: &str| git(&argv(line));
    // `-L <label>` takes a value: the file written in place is the first after the labels.
    let c = call("merge-file -L mine -L base -L theirs a.txt b.txt c.txt");
    assert_eq!(c.targets.len(), 1);
    assert_eq!(c.targets[0].path, "a.txt");
    assert!(call("merge-file -p a b c").targets.is_empty());
    assert!(call("merge-file --stdout a b c").targets.is_empty());
    // `am -n` is `--no-verify`.
    let moves = call("am -n x.mbox").moves.unwrap();
    assert_eq!(moves.skips_hooks.as_deref(), Some("-n"));
    // `commit --fixup <commit>` takes a value: it is no path.
    let moves = call("commit --fixup HEAD~1").moves.unwrap();
    assert!(moves.commit.unwrap().paths.is_empty());
    // An abbreviation of an option that names a file cannot be placed.
    for line in [
        "read-tree --index-out=x HEAD",
        "checkout-index -a --pref=../o/",
        "fast-import --export-mark=../m",
    ] {
        assert_eq!(kind(line), "unknown", "{line}");
    }
    // Every `-o` names its target, attached or not.
    assert_eq!(call("bugreport -o../out").targets[0].path, "../out");
    assert_eq!(call("archive -o ../a.tar HEAD").targets[0].path, "../a.tar");
}

/// gh's command line read with the model of its flags.
#[test]
fn gh_flags_as_pflag_reads_them() {
    let gh_line = |line: &str| gh(&argv(line));
    let (repo, effect) = gh_line("api -iXPOST repos/o/r/issues/1/comments -f body=x");
    assert_eq!(repo, None);
    assert_eq!(effect, Effect::Send("`gh api -X POST`".into()));
    let (_, effect) = gh_line("api -H accept:x repos/o/r/git/refs -f sha=1");
    assert!(matches!(effect, Effect::Push(_)), "{effect:?}");
    let (_, effect) = gh_line("api graphql -f query=mutation{x}");
    assert!(matches!(effect, Effect::Push(_)), "{effect:?}");
    let (repo, effect) = gh_line("pr view 3 -R=o/r");
    assert_eq!(repo.as_deref(), Some(std::ffi::OsStr::new("o/r")));
    assert_eq!(effect, Effect::Read);
    let (repo, _) = gh_line("repo edit o/x --description d");
    assert_eq!(repo.as_deref(), Some(std::ffi::OsStr::new("o/x")));
    assert!(matches!(gh_line("repo create x --push").1, Effect::Push(_)));
    assert!(matches!(gh_line("frob x").1, Effect::Unknown(_)));
}

// Property: what a command line does is told for any command line, never by a panic — the
// model's spellings of every command, values and noise mixed in any order, for `git` and `gh`.
#[test]
fn random_command_lines_are_classified_without_panic() {
    use crate::request::table;
    let mut words: Vec<String> = table::COMMANDS
        .iter()
        .flat_map(|c| c.name.split(' '))
        .map(str::to_owned)
        .collect();
    for cmd in table::COMMANDS {
        for (_, text) in cmd.options.iter().flat_map(|g| g.iter()) {
            words.extend(table::spelled(text).map(|(n, _)| n.to_owned()));
        }
    }
    for (_, text) in table::gh::FLAGS.iter().chain(table::ANYWHERE) {
        words.extend(table::spelled(text).map(|(n, _)| n.to_owned()));
    }
    words.extend(
        [
            "--",
            "--end-of-options",
            "-",
            "api",
            "pr",
            "ext::x",
            "-c",
            "-C",
        ]
        .map(String::from),
    );
    for seed in 0..20_000u64 {
        let mut rng = crate::fuzz::Rng::new(seed);
        let len = rng.below(8);
        let args: Vec<OsString> = (0..len)
            .map(|_| {
                if rng.one_in(3) {
                    rng.arg()
                } else {
                    OsString::from(rng.pick(&words).as_str())
                }
            })
            .collect();
        let _ = git(&args);
        let _ = gh(&args);
    }
}
