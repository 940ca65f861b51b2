//! Issue 28 within a session: `git-prism session verify` from what the session recorded as it
//! started, the guard refusing commits that change a protected path, and the record of what
//! each write did (HEAD before and after, what a push moved, skipped hooks), with the one line
//! the shim prints when git exits 0 without doing what the command names.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{TestEnv, bin};

/// A session with `app` (write-push, protected path `migrations/`, pushed to `remote.git`
/// with `main` and a `feature` branch tracking `origin/feature`).
pub(crate) struct Work {
    pub env: TestEnv,
    pub app: PathBuf,
    pub remote: PathBuf,
    scope: PathBuf,
    state: PathBuf,
    tmp: PathBuf,
}

impl Work {
    pub(crate) fn new() -> Work {
        let env = TestEnv::new();
        let root = env.root();
        let remote = root.join("remote.git");
        let app = env.repo("app");
        app.write("src/app.py", "def main():\n    return 1\n")
            .write("migrations/001.sql", "create table t (id int);\n")
            .commit("init");
        app.git(&[
            "init",
            "-q",
            "--bare",
            "-b",
            "main",
            remote.to_str().unwrap(),
        ]);
        app.git(&["remote", "add", "origin", remote.to_str().unwrap()]);
        app.git(&["push", "-q", "origin", "main"]);
        app.git(&["checkout", "-q", "-b", "feature"]);
        app.git(&["push", "-q", "-u", "origin", "feature"]);
        let source = root.join("scope.toml");
        std::fs::write(
            &source,
            format!(
                "protected_paths = [\"migrations/\"]\n\n[[repo]]\npath = \"{}\"\npermission = \"write-push\"\n\n[[repo]]\npath = \"{}\"\npermission = \"write-local\"\nprotected_paths = []\n",
                app.dir.display(),
                remote.display()
            ),
        )
        .unwrap();
        let tmp = root.join("tmp");
        std::fs::create_dir_all(&tmp).unwrap();
        let state = root.join("state");
        let out = env
            .command(bin(), &env.shim_path())
            .args(["session", "--scope"])
            .arg(&source)
            .args(["--", "sh", "-c", "printf %s \"$GIT_PRISM_SCOPE\""])
            .current_dir(&root)
            .env("GIT_PRISM_STATE_DIR", &state)
            .env("TMPDIR", &tmp)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let scope = PathBuf::from(String::from_utf8(out.stdout).unwrap());
        Work {
            app: app.dir.clone(),
            env,
            remote,
            scope,
            state,
            tmp,
        }
    }

    fn hold(&self, cmd: &mut std::process::Command) {
        cmd.env("GIT_PRISM_SCOPE", &self.scope)
            .env("GIT_PRISM_STATE_DIR", &self.state)
            .env("TMPDIR", &self.tmp)
            .current_dir(&self.app);
    }

    /// `git <args>` through the shim, in the session.
    pub(crate) fn git(&self, args: &[&str]) -> Output {
        let mut cmd = self.env.shim_git(args);
        self.hold(&mut cmd);
        cmd.output().unwrap()
    }

    /// `git <args>` through the shim, in the session, in `sub` of the work tree.
    pub(crate) fn git_in(&self, sub: &str, args: &[&str]) -> Output {
        let mut cmd = self.env.shim_git(args);
        self.hold(&mut cmd);
        cmd.current_dir(self.app.join(sub)).output().unwrap()
    }

    /// `sh -c <script>` in the session (the agent running a command it was offered).
    pub(crate) fn sh(&self, script: &str) -> Output {
        self.sh_in(".", script)
    }

    /// `sh -c <script>` in the session, in `sub` of the work tree.
    pub(crate) fn sh_in(&self, sub: &str, script: &str) -> Output {
        let mut cmd = self.env.sh(script, &self.env.shim_path());
        self.hold(&mut cmd);
        cmd.current_dir(self.app.join(sub)).output().unwrap()
    }

    /// `git <args>` in the session, which must succeed; returns stderr.
    pub(crate) fn ok(&self, args: &[&str]) -> String {
        let out = self.git(args);
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    }

    /// The real git outside the session (what a person, or a process that never reaches the
    /// shim, does).
    pub(crate) fn plain(&self, dir: &Path, args: &[&str]) -> String {
        let out = self
            .env
            .command(&self.env.real_git, &self.env.plain_path())
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `git-prism session <args>` in the session.
    pub(crate) fn session(&self, args: &[&str]) -> Output {
        let mut cmd = self.env.command(bin(), &self.env.shim_path());
        cmd.arg("session").args(args);
        self.hold(&mut cmd);
        cmd.output().unwrap()
    }

    pub(crate) fn write(&self, path: &str, text: &str) {
        let full = self.app.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }

    fn log(&self) -> String {
        String::from_utf8_lossy(&self.session(&["log"]).stdout).into_owned()
    }
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn session_verify_of_done_work_is_silent() {
    let w = Work::new();
    w.write("src/app.py", "def main():\n    return 2\n");
    w.ok(&["commit", "-qam", "fix"]);
    w.ok(&["push", "-q"]);
    // The pull request is merged on the forge (here: by a person, outside the session).
    w.plain(&w.app, &["push", "-q", "origin", "feature:main"]);
    w.plain(&w.app, &["fetch", "-q"]);
    let out = w.session(&["verify", "--pushed", "--merged-into", "origin/main"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "{}",
        text(&out)
    );
}

#[test]
fn session_verify_measures_from_the_session_s_start() {
    let w = Work::new();
    // Nothing done: no commit since the session started.
    let out = w.session(&["verify"]);
    assert_eq!(out.status.code(), Some(11), "{}", text(&out));
    assert!(
        text(&out).contains("git-prism verify: commit: HEAD is still at the session's start ("),
        "{}",
        text(&out)
    );
    // The bare remote is writable too (a push writes it), and is verified when named: its
    // HEAD (`main`) has not moved either.
    let out = w.session(&["verify", w.remote.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(11), "{}", text(&out));
    assert!(!text(&out).contains("verify: committed:"), "{}", text(&out));
    w.write("src/app.py", "def main():\n    return 2\n");
    w.ok(&["commit", "-qam", "fix"]);
    let out = w.session(&["verify", w.app.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // Outside a recorded session: the standalone form is named.
    let out = w
        .env
        .command(bin(), &w.env.plain_path())
        .args(["session", "verify"])
        .env("GIT_PRISM_SCOPE", w.env.root().join("scope.toml"))
        .current_dir(&w.app)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains("git-prism verify --since"),
        "{}",
        text(&out)
    );
}

// False "done": hooks skipped. git keeps no trace of it; the session's record does, and
// `verify` lists it — a loop may allow it, but it is never silent.
#[test]
fn commits_and_pushes_that_skip_hooks_are_listed_by_hooks() {
    let w = Work::new();
    w.write("src/app.py", "def main():\n    return 2\n");
    w.ok(&["commit", "-qam", "fix", "--no-verify"]);
    w.write("src/app.py", "def main():\n    return 3\n");
    w.ok(&["-c", "core.hooksPath=/dev/null", "commit", "-qam", "again"]);
    w.ok(&["push", "-q", "--no-verify"]);
    let out = w.session(&["verify", "--pushed"]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(14), "{t}");
    assert_eq!(t.lines().count(), 1, "{t}");
    assert!(t.starts_with("git-prism verify: hooks: "), "{t}");
    assert!(t.contains("`git commit -qam fix --no-verify`"), "{t}");
    assert!(t.contains("(--no-verify)"), "{t}");
    assert!(t.contains("(-c core.hooksPath=/dev/null)"), "{t}");
    assert!(t.contains("`git push -q --no-verify`"), "{t}");
    // That check alone catches it.
    let out = w.session(&["verify", "--pushed", "--skip", "hooks"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // `session log` says it too.
    assert!(
        w.log().contains("hooks skipped (--no-verify)"),
        "{}",
        w.log()
    );
}

// A protected file moved to a new path: the guard refuses the commit (rename detection off,
// so the move changes `migrations/001.sql`); done outside the session, `verify` catches it.
#[test]
fn a_commit_that_changes_a_protected_path_is_refused_and_verify_catches_one_made_elsewhere() {
    let w = Work::new();
    std::fs::create_dir_all(w.app.join("db")).unwrap();
    w.ok(&["mv", "migrations/001.sql", "db/001.sql"]);
    let out = w.git(&["commit", "-qm", "move"]);
    assert_eq!(out.status.code(), Some(1));
    let line = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(
        line.starts_with("git-prism guard: refused `git commit -qm move`"),
        "{line}"
    );
    assert!(
        line.contains(
            "the commit changes migrations/001.sql, under the protected path `migrations/`"
        ),
        "{line}"
    );
    // `commit -a` takes a tracked change from the work tree: refused too.
    w.ok(&["reset", "-q", "--hard"]);
    w.write("migrations/001.sql", "drop table t;\n");
    let out = w.git(&["commit", "-qam", "edit"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    // A pathspec commit of the file: refused.
    let out = w.git(&["commit", "-qm", "edit", "--", "migrations/001.sql"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    // Another file's commit passes while the protected change stays unstaged.
    w.write("src/app.py", "def main():\n    return 2\n");
    w.ok(&["add", "src/app.py"]);
    w.ok(&["commit", "-qm", "app only"]);
    // Made outside the session (a process that never reached the shim): verify catches it.
    w.plain(&w.app, &["commit", "-qam", "edit outside"]);
    let out = w.session(&["verify"]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(15), "{t}");
    assert!(
        t.contains(
            "git-prism verify: protected: 1 change is protected: migrations/001.sql (migrations/)"
        ),
        "{t}"
    );
    let out = w.session(&["verify", "--skip", "protected"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

// The record says what each write did; a commit that made no commit is said on stderr.
#[test]
fn a_commit_that_exits_0_without_a_commit_is_said_and_recorded() {
    let w = Work::new();
    w.write("src/app.py", "def main():\n    return 2\n");
    w.ok(&["commit", "-qam", "fix"]);
    let head = w.plain(&w.app, &["rev-parse", "HEAD"]).trim().to_owned();
    // With the dates fixed, amending without a change makes the very same commit.
    let stderr = w.ok(&["commit", "--amend", "--no-edit", "-q"]);
    assert_eq!(
        stderr.trim(),
        format!(
            "git-prism session: `git commit` exited 0 but made no commit: HEAD is still {}",
            &head[..12]
        )
    );
    let log = w.log();
    assert!(log.contains("allowed"), "{log}");
    assert!(
        log.contains(&format!("HEAD unchanged at {}", &head[..12])),
        "{log}"
    );
    assert!(log.contains("made no commit"), "{log}");
    // A commit that moved HEAD: before and after in the record, nothing said.
    w.write("src/app.py", "def main():\n    return 3\n");
    let stderr = w.ok(&["commit", "-qam", "more"]);
    assert!(stderr.is_empty(), "{stderr}");
    let after = w.plain(&w.app, &["rev-parse", "HEAD"]).trim().to_owned();
    assert!(
        w.log()
            .contains(&format!("HEAD {} -> {}", &head[..12], &after[..12])),
        "{}",
        w.log()
    );
}

// A pre-commit hook that refuses: git's status passes through, the record keeps it.
#[test]
fn a_hook_s_refusal_is_recorded_and_git_s_status_kept() {
    let w = Work::new();
    w.env.script(
        &w.app.join(".git/hooks"),
        "pre-commit",
        "#!/bin/sh\necho no >&2\nexit 1\n",
    );
    w.write("src/app.py", "def main():\n    return 2\n");
    let out = w.git(&["commit", "-qam", "fix"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "no\n");
    let log = w.log();
    assert!(log.contains("exit 1"), "{log}");
    assert!(log.contains("no commit: git exited 1"), "{log}");
    assert!(log.contains("a hook may have refused it"), "{log}");
    // The caller masked the status: verify is not fooled.
    let out = w.session(&["verify"]);
    assert_eq!(out.status.code(), Some(10), "{}", text(&out));
}

// A push that exited 0 but left the current branch ahead of its upstream; and one the remote
// refused: the record shows the tracking ref did not move.
#[test]
fn pushes_that_sent_nothing_for_the_current_branch_are_said() {
    let w = Work::new();
    w.write("src/app.py", "def main():\n    return 2\n");
    w.ok(&["commit", "-qam", "fix"]);
    w.plain(&w.app, &["branch", "other", "origin/feature"]);
    w.plain(&w.app, &["push", "-q", "origin", "other"]);
    let out = w.git(&["push", "-q", "origin", "other"]);
    assert!(out.status.success(), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("git-prism session: `git push` exited 0 but feature ("),
        "{stderr}"
    );
    assert!(stderr.contains("is not on origin/feature ("), "{stderr}");
    // Refused by the remote.
    w.env.script(
        &w.remote.join("hooks"),
        "pre-receive",
        "#!/bin/sh\nexit 1\n",
    );
    let out = w.git(&["push", "-q"]);
    assert!(!out.status.success());
    let log = w.log();
    assert!(log.contains("exit 1; feature: not updated"), "{log}");
    // Accepted: the tracking ref moved, nothing said.
    std::fs::remove_file(w.remote.join("hooks/pre-receive")).unwrap();
    let stderr = w.ok(&["push", "-q"]);
    assert!(!stderr.contains("git-prism"), "{stderr}");
    assert!(
        w.log().lines().last().unwrap().contains("feature: "),
        "{}",
        w.log()
    );
}

// git run as a child keeps what exec gave it: standard input, the exit status.
#[test]
fn a_watched_write_keeps_stdin_and_the_exit_status() {
    let w = Work::new();
    w.write("src/app.py", "def main():\n    return 2\n");
    let mut cmd = w.env.shim_git(&["commit", "-q", "-a", "-F", "-"]);
    w.hold(&mut cmd);
    let mut child = cmd.stdin(std::process::Stdio::piped()).spawn().unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"message from stdin\n")
        .unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(
        w.plain(&w.app, &["log", "-1", "--format=%s"]).trim(),
        "message from stdin"
    );
    // Nothing to commit: git's own status (1) comes back.
    let out = w.git(&["commit", "-qm", "nothing"]);
    assert_eq!(out.status.code(), Some(1));
}
