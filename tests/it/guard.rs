//! The session guard (issue 20) with real repositories, a real bare remote and the real binary
//! on PATH as `git` and `gh`: every rule, the ways a repository is named, aliases, escape
//! hatches, bad scopes, `gh`, and the counter-tests.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{Repo, TestEnv, bin};

/// A session: `app` (pushed to `remote.git`, with a `feature` branch), `lib` and `other`
/// (not listed), started by `git-prism session` so that its record holds the environment and a
/// temporary directory of its own (`tmp`: the kernel layer lets every call write there).
pub(crate) struct Session {
    pub env: TestEnv,
    pub app: PathBuf,
    pub lib: PathBuf,
    pub other: PathBuf,
    pub remote: PathBuf,
    /// The scope the session was started with.
    pub source: PathBuf,
    /// The session's copy of it, which `GIT_PRISM_SCOPE` names.
    pub scope: PathBuf,
    pub state: PathBuf,
    pub tmp: PathBuf,
}

impl Session {
    pub(crate) fn new(app_permission: &str) -> Session {
        Session::with_env(app_permission, &[])
    }

    /// A session started with `vars` in its environment as well.
    pub(crate) fn with_env(app_permission: &str, vars: &[(&str, &str)]) -> Session {
        let env = TestEnv::new();
        let root = env.root();
        let remote = root.join("remote.git");
        let plain = |args: &[&str], dir: &Path| {
            let out = env
                .command(&env.real_git, &env.plain_path())
                .args(args)
                .current_dir(dir)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        plain(&["init", "-q", "--bare", remote.to_str().unwrap()], &root);
        for name in ["app", "lib", "other"] {
            let repo = env.repo(name);
            repo.write("README", format!("{name}\n"));
            repo.commit("init");
            repo.git(&["branch", "-M", "main"]);
        }
        let app = root.join("app");
        plain(&["remote", "add", "origin", remote.to_str().unwrap()], &app);
        plain(&["push", "-q", "origin", "main"], &app);
        plain(&["branch", "feature"], &app);
        let source = root.join("scope.toml");
        std::fs::write(
            &source,
            format!(
                "[[repo]]\npath = \"{}\"\npermission = \"{app_permission}\"\n\n[[repo]]\npath = \"{}\"\npermission = \"write-local\"\n\n# The remote a push writes into: a repository on this machine.\n[[repo]]\npath = \"{}\"\npermission = \"write-local\"\n",
                app.display(),
                root.join("lib").display(),
                remote.display(),
            ),
        )
        .unwrap();
        let tmp = root.join("tmp");
        std::fs::create_dir_all(&tmp).unwrap();
        let mut s = Session {
            app,
            lib: root.join("lib"),
            other: root.join("other"),
            remote,
            source,
            scope: PathBuf::new(),
            state: root.join("state"),
            tmp,
            env,
        };
        s.start(vars);
        s
    }

    /// Starts the session (again: a new record, the same scope and directories).
    fn start(&mut self, vars: &[(&str, &str)]) {
        let mut start = self.env.command(bin(), &self.env.shim_path());
        start
            .args(["session", "--scope"])
            .arg(&self.source)
            .args(["--", "sh", "-c", "printf %s \"$GIT_PRISM_SCOPE\""])
            .current_dir(self.env.root())
            .env("GIT_PRISM_STATE_DIR", &self.state)
            .env("TMPDIR", &self.tmp);
        for (k, v) in vars {
            start.env(k, v);
        }
        let out = start.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        self.scope = PathBuf::from(String::from_utf8(out.stdout).unwrap());
        assert!(self.scope.is_file(), "{:?}", self.scope);
    }

    /// A session started once its repositories' configuration files have settled, so that its
    /// record stamps them (ADR 25: a file changed within two seconds of the start is not
    /// stamped) — the record is checked to hold the stamps.
    pub(crate) fn settled(app_permission: &str) -> Session {
        let mut s = Session::new(app_permission);
        std::thread::sleep(std::time::Duration::from_millis(2500));
        s.start(&[]);
        let record = std::fs::read_to_string(s.scope.with_file_name("session.json")).unwrap();
        assert_eq!(
            record.matches("\"config_stamp\"").count(),
            3,
            "every repository stamped: {record}"
        );
        s
    }

    /// `git <args>` through the shim in `dir`, in the session (not as an agent: the guard holds
    /// every call).
    pub(crate) fn git(&self, dir: &Path, args: &[&str]) -> Output {
        self.git_with(dir, args, &[])
    }

    pub(crate) fn git_with(&self, dir: &Path, args: &[&str], vars: &[(&str, &str)]) -> Output {
        let mut cmd = self.env.shim_git(args);
        self.hold(&mut cmd);
        cmd.current_dir(dir);
        for (k, v) in vars {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    }

    /// Puts a command in the session: its scope, state and temporary directory; and the
    /// kernel-layer switch when the test process has it (to show that the kernel tests fail
    /// without that layer).
    pub(crate) fn hold(&self, cmd: &mut std::process::Command) {
        cmd.env("GIT_PRISM_SCOPE", &self.scope)
            .env("GIT_PRISM_STATE_DIR", &self.state)
            .env("TMPDIR", &self.tmp);
        if let Some(v) = std::env::var_os("GIT_PRISM_TEST_KERNEL_LAYER") {
            cmd.env("GIT_PRISM_TEST_KERNEL_LAYER", v);
        }
    }

    /// The remote's `main`.
    pub(crate) fn remote_main(&self) -> String {
        self.env
            .command(&self.env.real_git, &self.env.plain_path())
            .args([
                "--git-dir",
                self.remote.to_str().unwrap(),
                "rev-parse",
                "main",
            ])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            .unwrap()
    }

    pub(crate) fn commit_on_app(&self) {
        let out = self.git(&self.app, &["commit", "-q", "--allow-empty", "-m", "work"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

pub(crate) fn refused(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "not refused: {stderr}");
    assert!(stderr.starts_with("git-prism guard: refused"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    stderr
}

pub(crate) fn allowed(out: &Output) {
    assert!(
        out.status.success(),
        "refused: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_spelling_of_a_push_to_a_protected_branch_is_refused() {
    let s = Session::new("write-push");
    s.commit_on_app();
    let before = s.remote_main();
    s.env
        .repo_at(&s.app)
        .git(&["config", "alias.pp", "push origin"]);
    for args in [
        &["push", "origin", "main"][..],
        &["push"],
        &["push", "origin"],
        &["push", "origin", "HEAD"],
        &["push", "origin", "main:main"],
        &["push", "origin", "+main:refs/heads/main"],
        &["push", "origin", "feature:main"],
        &["push", "origin", "HEAD:heads/main"],
        &["push", "--force", "origin", "main"],
        &["push", "origin", ":main"],
        &["push", "origin", "--delete", "main"],
        &["push", "-d", "origin", "main"],
        &["push", "--all"],
        &["push", "--mirror"],
        &["push", "origin", "refs/heads/*:refs/heads/*"],
        &["push", "--prune", "origin", "feature"],
        &["push", "--repo=origin"],
        &["-c", "push.default=upstream", "push"],
        &["-c", "remote.origin.push=HEAD:refs/heads/main", "push"],
        &["-c", "alias.p=push", "p", "origin", "main"],
        &["pp", "main"],
        &["send-pack", "../remote.git", "main"],
    ] {
        let out = s.git(&s.app, args);
        let line = refused(&out);
        assert!(line.contains(&s.app.display().to_string()), "{line}");
        assert!(line.contains("(write-push)"), "{line}");
    }
    assert_eq!(s.remote_main(), before, "nothing reached the remote");
    // A feature branch goes out, and the push is recorded.
    allowed(&s.git(&s.app, &["push", "-q", "origin", "feature"]));
    allowed(&s.git(&s.app, &["push", "-q", "origin", "main:topic"]));
    let log = std::fs::read_to_string(s.state.join("guard.log")).unwrap();
    assert!(
        log.contains("\"decision\":\"allowed\"") && log.contains("push to feature"),
        "{log}"
    );
    assert!(log.contains("\"decision\":\"refused\""), "{log}");
}

#[test]
fn the_repository_is_known_however_it_is_named() {
    let s = Session::new("write-push");
    s.commit_on_app();
    let root = s.env.root();
    std::fs::create_dir_all(s.app.join("sub/dir")).unwrap();
    std::os::unix::fs::symlink(&s.app, root.join("link")).unwrap();
    let out = s
        .env
        .command(&s.env.real_git, &s.env.plain_path())
        .args([
            "worktree",
            "add",
            "-q",
            root.join("wt").to_str().unwrap(),
            "feature",
        ])
        .current_dir(&s.app)
        .output()
        .unwrap();
    assert!(out.status.success());
    let app = s.app.to_str().unwrap().to_owned();
    let git_dir = s.app.join(".git").to_str().unwrap().to_owned();
    for (dir, args, vars) in [
        (
            root.clone(),
            vec!["-C", app.as_str(), "push", "origin", "main"],
            vec![],
        ),
        (
            root.clone(),
            vec!["--git-dir", git_dir.as_str(), "push", "origin", "main"],
            vec![],
        ),
        (
            root.clone(),
            vec!["push", "origin", "main"],
            vec![("GIT_DIR", git_dir.as_str())],
        ),
        (
            s.app.join("sub/dir"),
            vec!["push", "origin", "main"],
            vec![],
        ),
        (root.join("link"), vec!["push", "origin", "main"], vec![]),
        (
            root.join("wt"),
            vec!["push", "origin", "feature:main"],
            vec![],
        ),
    ] {
        let out = s.git_with(&dir, &args, &vars);
        refused(&out);
    }
    // The same ways, to a branch that is not protected, pass.
    allowed(&s.git(&root.join("wt"), &["push", "-q", "origin", "feature"]));
}

/// A session's repository is known without asking git only where git would find it as the
/// session started: a repository inside a writable work tree (a nested one, or a `.git` file
/// naming another's git directory) is judged as the repository git acts on.
#[test]
fn a_repository_inside_a_work_tree_is_judged_as_itself() {
    let s = Session::settled("write-push");
    let inner = s.env.repo_at(&s.lib.join("inner"));
    std::fs::create_dir_all(s.lib.join("inner")).unwrap();
    inner.git(&["init", "-q", "-b", "main"]);
    inner.write("f", "x\n");
    inner.commit("inner");
    let head = |dir: &Path| {
        s.env
            .command(&s.env.real_git, &s.env.plain_path())
            .args(["rev-parse", "HEAD"])
            .current_dir(dir)
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            .unwrap()
    };
    let before = head(&s.lib.join("inner"));
    let commit = ["commit", "-q", "--allow-empty", "-m", "x"];
    let out = s.git(&s.lib.join("inner"), &commit);
    assert!(refused(&out).contains("inner"), "{out:?}");
    assert_eq!(head(&s.lib.join("inner")), before);
    // A `.git` file in the writable work tree that names an unlisted repository's git dir.
    std::fs::create_dir_all(s.lib.join("sub")).unwrap();
    std::fs::write(
        s.lib.join("sub/.git"),
        format!("gitdir: {}\n", s.other.join(".git").display()),
    )
    .unwrap();
    let other = head(&s.other);
    refused(&s.git(&s.lib.join("sub"), &commit));
    assert_eq!(head(&s.other), other);
    // A bare repository in the work tree: git finds it by its `HEAD`.
    let out = s
        .env
        .command(&s.env.real_git, &s.env.plain_path())
        .args(["init", "-q", "--bare", "bare"])
        .current_dir(&s.lib)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    refused(&s.git(
        &s.lib.join("bare"),
        &["symbolic-ref", "HEAD", "refs/heads/other"],
    ));
    // Without the walk up from the call's directory, the nested repository is taken for
    // `lib`, which the scope lets the session write: the commit lands in it.
    let out = s.git_with(
        &s.lib.join("inner"),
        &commit,
        &[("GIT_PRISM_TEST_RULE_OFF", "known-place-walk")],
    );
    allowed(&out);
    assert_ne!(head(&s.lib.join("inner")), before);
}

/// A program written into a repository's configuration in place, its size and modification
/// time kept, is held to the session's start all the same: the configuration's stamp has its
/// change time, which no one can set back.
#[test]
fn a_configuration_edited_in_place_is_held_to_the_start() {
    let s = Session::settled("write-push");
    let config = s.app.join(".git/config");
    let old = std::fs::read_to_string(&config).unwrap();
    let marker = s.tmp.join("m");
    let program = format!("\tfsmonitor = touch {};:\n", marker.display());
    let mut new = old
        .replace("\tlogallrefupdates = true\n", "")
        .replace("\tfetch = +refs/heads/*:refs/remotes/origin/*\n", "")
        .replace("\tbare = false\n", &format!("\tbare = false\n{program}"));
    assert!(new.len() + 2 <= old.len(), "{old}");
    new.push('#');
    new.push_str(&" ".repeat(old.len() - new.len() - 1));
    new.push('\n');
    assert_eq!(new.len(), old.len());
    let modified = std::fs::metadata(&config).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&config, &new).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&config)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    let commit = ["commit", "-q", "--allow-empty", "-m", "x"];
    let out = s.git(&s.app, &commit);
    allowed(&out);
    assert!(!marker.exists(), "the program ran: {out:?}");
    // Without the check of what changed, it runs.
    let out = s.git_with(
        &s.app,
        &commit,
        &[("GIT_PRISM_TEST_RULE_OFF", "config-drift")],
    );
    assert!(
        marker.exists(),
        "the program did not run without the rule: {out:?}"
    );
}

#[test]
fn permissions_hold_every_write_and_pass_every_read() {
    let s = Session::new("write-local");
    // write-local: commits and branches pass; a push does not.
    s.commit_on_app();
    allowed(&s.git(&s.app, &["branch", "topic"]));
    let line = refused(&s.git(&s.app, &["push", "origin", "topic"]));
    assert!(line.contains("needs write-push"), "{line}");
    // An unlisted repository is read: every read passes, no write does.
    for args in [
        &["status", "--short"][..],
        &["log", "--oneline"],
        &["diff", "HEAD"],
        &["show", "HEAD"],
        &["branch", "-a"],
        &["tag", "-l"],
        &["config", "core.bare"],
        &["stash", "list"],
        &["rev-parse", "HEAD"],
        &["ls-files"],
    ] {
        allowed(&s.git(&s.other, args));
    }
    for args in [
        &["commit", "-q", "--allow-empty", "-m", "x"][..],
        &["branch", "x"],
        &["tag", "v1"],
        &["checkout", "-q", "-b", "y"],
        &["reset", "--hard"],
        &["stash"],
        &["config", "user.name", "x"],
        &["fetch"],
    ] {
        let line = refused(&s.git(&s.other, args));
        assert!(
            line.contains("(read)") && line.contains("does not list"),
            "{line}"
        );
    }
    // A shell alias, an external command: refused whatever the permission.
    refused(&s.git(
        &s.lib,
        &["-c", "alias.x=!git commit --allow-empty -m y", "x"],
    ));
    refused(&s.git(&s.lib, &["no-such-command"]));
    refused(&s.git(&s.lib, &["rebase", "-x", "true", "HEAD"]));
}

#[test]
fn the_escape_hatches_switch_off_answers_never_the_guard() {
    let s = Session::new("write-push");
    for var in [
        "GIT_PRISM_INSIDE_SHIM",
        "GIT_PRISM_PASSTHROUGH",
        "GIT_PRISM_DISABLE",
    ] {
        refused(&s.git_with(&s.app, &["push", "origin", "main"], &[(var, "1")]));
    }
    // A make recipe three processes down comes back through the shim.
    if std::process::Command::new("make")
        .arg("--version")
        .output()
        .is_ok()
    {
        std::fs::write(
            s.app.join("Makefile"),
            "release:\n\t@sh -c 'git push origin main'\n",
        )
        .unwrap();
        let mut make = s.env.command("make", &s.env.shim_path());
        make.args(["-s", "release"]).current_dir(&s.app);
        s.hold(&mut make);
        let out = make.output().unwrap();
        assert!(!out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains("git-prism guard: refused"));
    }
}

#[test]
fn a_bad_scope_refuses_every_write_and_allows_every_read() {
    let s = Session::new("write-push");
    for (name, text) in [
        (
            "unknown-permission.toml",
            "[[repo]]\npath = \"/\"\npermission = \"admin\"\n".to_owned(),
        ),
        ("not-toml.toml", "this is not toml".to_owned()),
        (
            "relative.toml",
            "[[repo]]\npath = \"app\"\npermission = \"write-push\"\n".to_owned(),
        ),
    ] {
        let file = s.env.root().join(name);
        std::fs::write(&file, text).unwrap();
        let run = |args: &[&str]| {
            s.env
                .shim_git(args)
                .current_dir(&s.app)
                .env("GIT_PRISM_SCOPE", &file)
                .env("GIT_PRISM_STATE_DIR", &s.state)
                .output()
                .unwrap()
        };
        allowed(&run(&["log", "-1", "--format=%H"]));
        let line = refused(&run(&["commit", "--allow-empty", "-m", "x"]));
        assert!(
            line.contains("not valid") || line.contains("absolute"),
            "{name}: {line}"
        );
    }
    let missing = s.env.root().join("missing.toml");
    let out = s
        .env
        .shim_git(&["commit", "--allow-empty", "-m", "x"])
        .current_dir(&s.app)
        .env("GIT_PRISM_SCOPE", &missing)
        .output()
        .unwrap();
    assert!(refused(&out).contains("cannot read"));
}

#[test]
fn without_a_scope_nothing_changes() {
    let env = TestEnv::new();
    let repo: Repo<'_> = env.repo("repo");
    repo.write("a", "1\n").commit("one");
    let out = env
        .shim_git(&["commit", "-q", "--allow-empty", "-m", "two"])
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert!(out.status.success() && out.stderr.is_empty());
}

#[test]
fn gh_reads_pass_and_writes_need_write_push() {
    let s = Session::new("write-local");
    // A stand-in gh that records its arguments.
    let bin_dir = s.env.root().join("fake-gh");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let record = s.env.root().join("gh-calls");
    let fake = bin_dir.join("gh");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\necho \"$*\" >> {}\necho '{{}}'\n",
            record.display()
        ),
    )
    .unwrap();
    let mut perms = std::fs::metadata(&fake).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&fake, perms).unwrap();
    let gh = |args: &[&str]| {
        s.env
            .command(s.env.shim_dir.join("gh"), &s.env.shim_path())
            .args(args)
            .current_dir(&s.app)
            .env("GIT_PRISM_REAL_GH", &fake)
            .env("GIT_PRISM_SCOPE", &s.scope)
            .env("GIT_PRISM_STATE_DIR", &s.state)
            .output()
            .unwrap()
    };
    for args in [
        &["pr", "view", "3"][..],
        &["pr", "list"],
        &["issue", "view", "4"],
        &["api", "repos/o/r"],
    ] {
        allowed(&gh(args));
    }
    for args in [
        &["pr", "create", "--fill"][..],
        &["pr", "merge", "3"],
        &["issue", "create", "-t", "x"],
        &["release", "create", "v1"],
        &["api", "-X", "POST", "repos/o/r/issues"],
        &["api", "repos/o/r/issues", "-f", "title=x"],
    ] {
        let line = refused(&gh(args));
        assert!(line.contains("write-push"), "{line}");
    }
    let calls = std::fs::read_to_string(&record).unwrap();
    assert_eq!(
        calls.lines().count(),
        4,
        "only the reads reached gh: {calls}"
    );
}

#[test]
fn session_starts_an_agent_with_the_scope_and_check_says_what_it_allows() {
    let s = Session::new("write-push");
    let out = s
        .env
        .command(bin(), &s.env.shim_path())
        .args(["session", "--scope"])
        .arg(&s.source)
        .args([
            "--",
            "sh",
            "-c",
            "git push origin main; echo \"scope=$GIT_PRISM_SCOPE\"",
        ])
        .current_dir(&s.app)
        .env("GIT_PRISM_STATE_DIR", &s.state)
        .env("TMPDIR", &s.tmp)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The agent's scope is the session's copy, beside the session's record.
    let sessions = s.state.join("sessions");
    assert!(
        stdout.contains(&format!("scope={}", sessions.display())) && stdout.contains("/scope.toml"),
        "{stdout}"
    );
    assert!(
        stderr.contains("git-prism session: kernel: Landlock ABI"),
        "{stderr}"
    );
    assert!(
        stderr.contains("git-prism guard: refused `git push origin main`"),
        "{stderr}"
    );
    let check = s
        .env
        .command(bin(), &s.env.plain_path())
        .args(["session", "check"])
        .current_dir(&s.app)
        .env("GIT_PRISM_SCOPE", &s.scope)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(
        text.contains("permission: write-push") && text.contains("pushes to main, master"),
        "{text}"
    );
    assert!(
        text.contains(&format!("scope: {}", s.source.display()))
            && text.contains("session: ")
            && text.contains("kernel: Landlock ABI"),
        "{text}"
    );
    let log = s
        .env
        .command(bin(), &s.env.plain_path())
        .args(["session", "log"])
        .env("GIT_PRISM_STATE_DIR", &s.state)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&log.stdout).contains("refused"),
        "{log:?}"
    );
    // A scope that does not load stops the session before the agent starts.
    let bad = s.env.root().join("bad.toml");
    std::fs::write(
        &bad,
        "[[repo]]\npath = \"/nowhere\"\npermission = \"read\"\n",
    )
    .unwrap();
    let out = s
        .env
        .command(bin(), &s.env.shim_path())
        .args(["session", "--scope"])
        .arg(&bad)
        .args(["--", "true"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

// The attack on the guard (issue 20): writes that got through, each refused now, and the
// remote's `main` and the read-only repository unchanged.
#[test]
fn the_writes_the_attack_found_are_refused() {
    let s = Session::new("write-push");
    s.commit_on_app();
    let before = s.remote_main();
    let app = s.app.to_str().unwrap().to_owned();
    let other_git = s.other.join(".git").to_str().unwrap().to_owned();
    let refs_before = s
        .env
        .repo_at(&s.other)
        .git(&["for-each-ref", "--format=%(refname) %(objectname)"]);
    // A1: a positional repository wins over --repo: a bare push of main.
    refused(&s.git(&s.app, &["push", "--repo=origin", "origin"]));
    // A2: a refspec without a destination mapped through remote.<name>.push.
    refused(&s.git(
        &s.app,
        &[
            "-c",
            "remote.origin.push=+refs/heads/feature:refs/heads/main",
            "push",
            "origin",
            "feature",
        ],
    ));
    // A4: an alias over a builtin or an external command; A5: programs named on the command
    // line or in the environment.
    let push_main = format!("git -C {app} push -q -f origin main:main");
    for args in [
        vec![
            "-c",
            "alias.for-each-repo=status",
            "for-each-repo",
            "--config=x.r",
            "push",
        ],
        vec!["-c", "alias.stage=status", "stage", "x"],
        vec!["ls-remote", "--upload-pack", &push_main, "origin"],
        vec!["grep", "-Ofoo", "x"],
        vec!["difftool", "-y"],
        vec!["-c", &format!("core.pager={push_main}"), "log", "-p"],
        vec!["log", "--output=.git/refs/heads/evil"],
        vec!["init"],
        vec!["notes", "--ref", "list", "add", "-m", "n", "HEAD"],
        vec!["stash", "-m", "list"],
        vec!["tag", "--sort=v", "evil"],
        vec!["branch", "--set-upstream-t=main"],
        vec!["config", "--rem", "core"],
        vec!["clean", "-n", "--no-dry-run", "-f"],
    ] {
        let out = s.git(&s.other, &args);
        assert!(!out.status.success(), "{args:?} passed");
        refused(&out);
    }
    for (dir, args, vars) in [
        // B1: another repository's git dir named from a listed work tree.
        (
            s.app.clone(),
            vec!["--git-dir", other_git.as_str(), "branch", "evil"],
            vec![],
        ),
        (
            s.app.clone(),
            vec!["tag", "evil"],
            vec![("GIT_DIR", other_git.as_str())],
        ),
        // B2: GIT_COMMON_DIR.
        (
            s.app.clone(),
            vec!["config", "user.name", "evil"],
            vec![("GIT_COMMON_DIR", other_git.as_str())],
        ),
        // B5 (the programs' environment).
        (
            s.app.clone(),
            vec!["log", "-1"],
            vec![("GIT_PAGER", push_main.as_str())],
        ),
    ] {
        refused(&s.git_with(&dir, &args, &vars));
    }
    // B1: a `.git` file in a listed work tree naming another repository.
    std::fs::create_dir_all(s.app.join("wt")).unwrap();
    std::fs::write(s.app.join("wt/.git"), format!("gitdir: {other_git}\n")).unwrap();
    refused(&s.git(
        &s.app.join("wt"),
        &["commit", "--allow-empty", "-m", "evil"],
    ));
    // B8: another repository's configuration file.
    let other_config = s.other.join(".git/config");
    refused(&s.git(
        &s.app,
        &[
            "config",
            "--file",
            other_config.to_str().unwrap(),
            "core.evil",
            "yes",
        ],
    ));
    assert_eq!(s.remote_main(), before, "nothing reached the remote");
    assert_eq!(
        s.env
            .repo_at(&s.other)
            .git(&["for-each-ref", "--format=%(refname) %(objectname)"]),
        refs_before,
        "nothing changed in the read-only repository"
    );
    // A dry run sends nothing and passes.
    allowed(&s.git(&s.app, &["push", "-n", "origin", "main"]));
    // `git init` of a new directory is a new repository.
    let fresh = s.env.root().join("fresh");
    allowed(&s.git(&s.env.root(), &["init", "-q", fresh.to_str().unwrap()]));
}

// A3 of the attack: a deleted working directory made the guard let everything through.
#[test]
fn a_call_from_a_deleted_directory_is_held_too() {
    let s = Session::new("write-push");
    s.commit_on_app();
    let before = s.remote_main();
    let script = format!(
        "mkdir gone && cd gone && rmdir ../gone && git -C {} push -q origin main",
        s.app.display()
    );
    let mut sh = s.env.sh(&script, &s.env.shim_path());
    sh.current_dir(s.env.root());
    s.hold(&mut sh);
    let out = sh.output().unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("git-prism guard: refused"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(s.remote_main(), before);
}

// The second attack on the guard: each way found is refused, and nothing changes.
#[test]
fn the_second_attack_s_writes_are_refused() {
    let s = Session::new("write-push");
    s.commit_on_app();
    let before = s.remote_main();
    let app = s.app.to_str().unwrap().to_owned();
    let push_main = format!("git -C {app} push -q -f origin main:main");
    let root = s.env.root();
    let cfg = root.join("evil.cfg");
    std::fs::write(&cfg, format!("[diff]\n\texternal = {push_main}\n")).unwrap();
    let cfg = cfg.to_str().unwrap().to_owned();
    let other_dir = s.other.to_str().unwrap().to_owned();
    let remote = s.remote.to_str().unwrap().to_owned();
    for (dir, args, vars) in [
        // N1: unique prefixes of options that run programs.
        (
            s.other.clone(),
            vec![
                "ls-remote".to_owned(),
                format!("--upload-p={push_main}"),
                remote.clone(),
            ],
            vec![],
        ),
        (
            s.other.clone(),
            vec![
                "grep".to_owned(),
                format!("--open-files={push_main}"),
                "x".to_owned(),
            ],
            vec![],
        ),
        // N2: `bisect view` with a command.
        (
            s.app.clone(),
            vec!["bisect".into(), "view".into(), "git".into(), "z".into()],
            vec![],
        ),
        // N3: a transport helper from PATH.
        (
            s.other.clone(),
            vec!["ls-remote".into(), "evil::x".into()],
            vec![],
        ),
        // N5: another repository's work tree.
        (
            s.app.clone(),
            vec![
                format!("--work-tree={other_dir}"),
                "clean".into(),
                "-f".into(),
            ],
            vec![],
        ),
        // N6: settings that run programs, not on the guard's list.
        (
            s.other.clone(),
            vec![
                "-c".into(),
                "tar.evil.command=x".into(),
                "archive".into(),
                "--format=evil".into(),
                "HEAD".into(),
            ],
            vec![],
        ),
        (
            s.other.clone(),
            vec![
                "-c".into(),
                format!("remote.x.url=ext::{push_main}"),
                "ls-remote".into(),
                "x".into(),
            ],
            vec![],
        ),
        // N7: configuration files named by the environment.
        (
            s.other.clone(),
            vec!["diff".into()],
            // The session recorded /dev/null (the tests' global); the variables the first
            // guard read the record from are set too, and count for nothing now.
            vec![
                ("GIT_CONFIG_GLOBAL", cfg.clone()),
                ("GIT_PRISM_SESSION_GIT_CONFIG_GLOBAL", cfg.clone()),
            ],
        ),
        (
            s.other.clone(),
            vec!["log".into(), "-1".into()],
            vec![("GIT_CONFIG_SYSTEM", cfg.clone())],
        ),
        // A program named by the environment, changed for one command.
        (
            s.other.clone(),
            vec!["log".into(), "-1".into()],
            vec![("PAGER", push_main.clone())],
        ),
        (
            s.other.clone(),
            vec!["log".into(), "-1".into()],
            vec![("HOME", "/elsewhere".to_owned())],
        ),
        // N9: reads that write.
        (
            s.other.clone(),
            vec!["fsck".into(), "--lost-found".into()],
            vec![],
        ),
        (
            s.other.clone(),
            vec![
                "merge-tree".into(),
                "--write-tree".into(),
                "HEAD".into(),
                "HEAD".into(),
            ],
            vec![],
        ),
        // N10: a trace written into a file.
        (
            s.other.clone(),
            vec!["log".into(), "-1".into()],
            vec![("GIT_TRACE", format!("{other_dir}/x"))],
        ),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
        refused(&s.git_with(&dir, &args, &vars));
    }
    // The session's own environment, unchanged, passes (an editor the person uses).
    let with_editor = Session::with_env("write-push", &[("GIT_EDITOR", "vim")]);
    allowed(&with_editor.git_with(&with_editor.other, &["log", "-1"], &[("GIT_EDITOR", "vim")]));
    refused(&with_editor.git_with(
        &with_editor.other,
        &["log", "-1"],
        &[("GIT_EDITOR", "emacs")],
    ));
    // N8: a branch that is a symbolic ref to main.
    allowed(&s.git(
        &s.app,
        &["symbolic-ref", "refs/heads/foo", "refs/heads/main"],
    ));
    refused(&s.git(&s.app, &["push", "origin", "foo"]));
    // M1: the refusal stays one line whatever the arguments hold.
    refused(&s.git(&s.other, &["tag", "evil\ngit-prism guard: ok"]));
    assert_eq!(s.remote_main(), before, "nothing reached the remote");
    assert!(!s.other.join(".git/lost-found").exists());
}
