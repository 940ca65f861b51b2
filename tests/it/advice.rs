//! Issue 38: every refusal and every failed `verify` check says what to do, and the advice
//! works when it is followed. Each test takes the command a message offers out of the message
//! itself, runs it where the message says (in the session, as the agent would; outside it, as
//! the user would) and checks that it does what the message promised: the push lands, the
//! commit is made, the check holds.

use std::path::Path;
use std::process::Output;

use crate::common::bin;
use crate::guard::{Session, refused};
use crate::session_verify::Work;

/// The commands a message quotes (between backticks), in order.
fn quoted(line: &str) -> Vec<String> {
    line.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The first quoted command that starts with `start`.
fn offered(line: &str, start: &str) -> String {
    quoted(line)
        .into_iter()
        .find(|q| q.starts_with(start))
        .unwrap_or_else(|| panic!("no `{start}...` in: {line}"))
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn succeeds(out: &Output, what: &str) {
    assert!(out.status.success(), "{what}: {}", text(out));
}

impl Session {
    /// `sh -c <script>` in `dir`, in the session (the agent following the advice).
    fn agent_sh(&self, dir: &Path, script: &str) -> Output {
        let mut cmd = self.env.sh(script, &self.env.shim_path());
        self.hold(&mut cmd);
        cmd.current_dir(dir).output().unwrap()
    }

    /// `sh -c <script>` outside the session, with the real git (the user following it).
    fn user_sh(&self, script: &str) -> Output {
        self.env
            .sh(script, &self.env.plain_path())
            .current_dir(self.env.root())
            .output()
            .unwrap()
    }

    /// The id of `rev` in the bare remote (empty when it does not exist).
    fn remote_rev(&self, rev: &str) -> String {
        let out = self
            .env
            .command(&self.env.real_git, &self.env.plain_path())
            .arg("--git-dir")
            .arg(&self.remote)
            .args(["rev-parse", "--verify", "-q", rev])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    fn head(&self, dir: &Path) -> String {
        self.env
            .repo_at(dir)
            .git(&["rev-parse", "HEAD"])
            .trim()
            .to_owned()
    }
}

// A push to a protected branch: the agent is offered a push of its own branch, which lands on
// the remote; the user is offered the push as it was, which lands too when they run it.
#[test]
fn a_protected_branch_refusal_offers_a_push_that_lands() {
    let s = Session::new("write-push");
    s.commit_on_app();
    let line = refused(&s.git(&s.app, &["push", "origin", "main"]));
    assert!(line.contains("open a pull request into `main`"), "{line}");
    // The agent's way: its own branch.
    let push = offered(&line, "git push origin HEAD:refs/heads/<new-branch>");
    let push = push.replace("<new-branch>", "work");
    succeeds(&s.agent_sh(&s.app, &push), &push);
    assert_eq!(s.remote_rev("refs/heads/work"), s.head(&s.app));
    // The user's way: the command as the agent ran it, where it ran it.
    let user = offered(&line, "cd ");
    assert!(user.ends_with("&& git push origin main"), "{line}");
    succeeds(&s.user_sh(&user), &user);
    assert_eq!(s.remote_rev("refs/heads/main"), s.head(&s.app));
}

// The pre-push hook's refusal (the layer under the command line's) offers the same push.
#[test]
fn the_pre_push_refusal_offers_a_push_that_lands() {
    let s = Session::new("write-push");
    s.commit_on_app();
    let out = s.git_with(
        &s.app,
        &["push", "origin", "main"],
        &[("GIT_PRISM_TEST_ARGV_LAYER", "off")],
    );
    assert!(!out.status.success(), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let line = err
        .lines()
        .find(|l| l.starts_with("git-prism guard: refused the push of `main`"))
        .unwrap_or_else(|| panic!("{err}"));
    let push = offered(line, "git push origin HEAD:refs/heads/<new-branch>");
    let push = push.replace("<new-branch>", "hooked");
    succeeds(&s.agent_sh(&s.app, &push), &push);
    assert_eq!(s.remote_rev("refs/heads/hooked"), s.head(&s.app));
}

// A push whose branches cannot be told (`--all`): naming the branch is offered, and works.
#[test]
fn an_unplaceable_push_refusal_offers_a_push_by_name() {
    let s = Session::new("write-push");
    s.commit_on_app();
    let line = refused(&s.git(&s.app, &["push", "--all"]));
    let push = offered(&line, "git push origin <branch>").replace("<branch>", "feature");
    succeeds(&s.agent_sh(&s.app, &push), &push);
    assert!(!s.remote_rev("refs/heads/feature").is_empty());
}

// A write the permission does not cover: the user is handed the exact command, quoted as the
// shell reads it, and the change of the scope file that would allow it from a new session.
#[test]
fn a_permission_refusal_hands_the_user_the_exact_command() {
    let s = Session::new("write-push");
    // lib is write-local: a push from it is refused.
    let line = refused(&s.git(&s.app, &["-C", "../lib", "push", "origin", "main"]));
    assert!(
        line.contains(&format!(
            "give {} `permission = \"write-push\"` in {} and start a new session",
            s.lib.display(),
            s.source.display()
        )),
        "{line}"
    );
    assert!(!line.contains("change the session's scope"), "{line}");
    let user = offered(&line, "cd ");
    assert_eq!(
        user,
        format!("cd {} && git -C ../lib push origin main", s.app.display())
    );
    // Run outside the session, it does what the agent asked (lib has no remote named origin,
    // so git's own error comes back: the command reached git as written).
    let out = s.user_sh(&user);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("origin"),
        "{}",
        text(&out)
    );
    // `other` is not listed: listing it is the scope's remedy. Arguments with spaces and
    // quotes keep them in the command handed over.
    let message = "other: the parser's fix";
    let line = refused(&s.git(&s.other, &["commit", "-q", "--allow-empty", "-m", message]));
    assert!(
        line.contains(&format!(
            "list {} (`[[repo]]` with `permission = \"write-local\"`) in {}",
            s.other.display(),
            s.source.display()
        )),
        "{line}"
    );
    let user = offered(&line, "cd ");
    assert!(user.ends_with(r"-m 'other: the parser'\''s fix'"), "{line}");
    succeeds(&s.user_sh(&user), &user);
    let subject = s.env.repo_at(&s.other).git(&["log", "-1", "--format=%s"]);
    assert_eq!(subject.trim(), message);
}

// A commit that takes a protected path: the refusal says how to commit the rest, for each way
// the commit took it (staged, `-a`, a pathspec); following it makes the commit.
#[test]
fn a_protected_path_refusal_says_how_to_commit_the_rest() {
    let w = Work::new();
    let protected = "migrations/001.sql";
    // Staged: unstage it, commit the rest.
    w.write(protected, "drop table t;\n");
    w.write("src/app.py", "def main():\n    return 2\n");
    w.ok(&["add", "-A"]);
    let line = refused(&w.git(&["commit", "-qm", "both"]));
    let unstage = offered(&line, "git restore --staged");
    assert_eq!(unstage, format!("git restore --staged -- {protected}"));
    assert!(!line.contains("-a"), "{line}");
    succeeds(&w.sh(&unstage), &unstage);
    w.ok(&["commit", "-qm", "app only"]);
    // `-a`: commit without it, staging the other paths.
    w.write("src/app.py", "def main():\n    return 3\n");
    let line = refused(&w.git(&["commit", "-qam", "all"]));
    assert!(line.contains("commit without -a"), "{line}");
    assert!(!line.contains("restore --staged"), "{line}");
    let add = offered(&line, "git add -- ").replace("<path>", "src/app.py");
    succeeds(&w.sh(&add), &add);
    w.ok(&["commit", "-qm", "app again"]);
    // A pathspec: leave the path out of it.
    w.write("src/app.py", "def main():\n    return 4\n");
    let line = refused(&w.git(&["commit", "-qm", "named", "--", "src/app.py", protected]));
    assert!(
        line.contains(&format!(
            "leave {protected} out of the paths the commit names"
        )),
        "{line}"
    );
    w.ok(&["commit", "-qm", "named", "--", "src/app.py"]);
    // From a subdirectory, the path is named from the top of the work tree.
    w.ok(&["add", protected]);
    let out = w.git_in("src", &["commit", "-qm", "from below"]);
    let line = refused(&out);
    let unstage = offered(&line, "git restore --staged");
    assert_eq!(unstage, format!("git restore --staged -- :/{protected}"));
    succeeds(&w.sh_in("src", &unstage), &unstage);
    // The user's remedy in the scope file is offered, for a new session.
    assert!(line.contains("protected_paths"), "{line}");
    assert!(line.contains("start a new session"), "{line}");
}

// A `-c` setting that runs a program: the call without it is offered (and runs), a variable
// is unset with `env -u`, and no change of the scope is offered: none would allow it.
#[test]
fn a_program_running_option_refusal_offers_the_call_without_it() {
    let s = Session::new("write-push");
    let line = refused(&s.git(&s.app, &["-c", "diff.external=./x", "diff", "--stat"]));
    assert!(line.contains("no scope allows it"), "{line}");
    assert!(!line.contains("scope.toml"), "{line}");
    assert!(!line.contains("change the"), "{line}");
    let instead = offered(&line, "git diff");
    assert_eq!(instead, "git diff --stat");
    succeeds(&s.agent_sh(&s.app, &instead), &instead);
    // An alias the setting defines is the call itself: nothing is offered in its place.
    let line = refused(&s.git(&s.app, &["-c", "alias.x=!true", "x"]));
    assert!(!line.contains("instead"), "{line}");
    // A variable that names a program: unset for the call.
    let out = s.git_with(&s.app, &["log", "-1"], &[("GIT_PAGER", "./pager")]);
    let line = refused(&out);
    let instead = offered(&line, "env -u GIT_PAGER");
    let mut cmd = s.env.sh(&instead, &s.env.shim_path());
    s.hold(&mut cmd);
    let out = cmd
        .current_dir(&s.app)
        .env("GIT_PAGER", "./pager")
        .output()
        .unwrap();
    succeeds(&out, &instead);
}

// A place outside the scope: the refusal says to use one inside it, and one inside works.
#[test]
fn a_path_outside_the_scope_refusal_names_a_path_inside() {
    let s = Session::new("write-push");
    let into = s.other.join("copy");
    let line = refused(&s.git(
        &s.app,
        &[
            "clone",
            "-q",
            s.remote.to_str().unwrap(),
            into.to_str().unwrap(),
        ],
    ));
    assert!(line.contains("use a path inside the scope"), "{line}");
    assert!(line.contains("the temporary directory"), "{line}");
    let inside = s.tmp.join("copy");
    let out = s.git(
        &s.app,
        &[
            "clone",
            "-q",
            s.remote.to_str().unwrap(),
            inside.to_str().unwrap(),
        ],
    );
    succeeds(&out, "clone into the temporary directory");
    assert!(inside.join(".git").is_dir());
    // An index named outside the repository: the call without the variable is offered.
    let index = s.tmp.join("index");
    let out = s.git_with(
        &s.app,
        &["commit", "-q", "--allow-empty", "-m", "w"],
        &[("GIT_INDEX_FILE", index.to_str().unwrap())],
    );
    let line = refused(&out);
    let instead = offered(&line, "env -u GIT_INDEX_FILE");
    let mut cmd = s.env.sh(&instead, &s.env.shim_path());
    s.hold(&mut cmd);
    let out = cmd
        .current_dir(&s.app)
        .env("GIT_INDEX_FILE", &index)
        .output()
        .unwrap();
    succeeds(&out, &instead);
}

// A setting that names a program, set in the repository's configuration after the session
// started: the user is handed the command that removes it, and the call then runs.
#[test]
fn a_configured_program_refusal_hands_the_user_its_removal() {
    let s = Session::new("write-push");
    s.env
        .repo_at(&s.app)
        .git(&["config", "diff.external", "./x"]);
    let line = refused(&s.git(&s.app, &["commit", "-q", "--allow-empty", "-m", "w"]));
    let unset = quoted(&line)
        .into_iter()
        .find(|q| q.contains("git config"))
        .unwrap_or_else(|| panic!("{line}"));
    assert_eq!(
        unset,
        format!(
            "cd {} && git config --unset-all diff.external",
            s.app.display()
        )
    );
    succeeds(&s.user_sh(&unset), "the removal");
    s.commit_on_app();
}

// `verify`'s committed, commit and pushed failures in a session: each remedy, run by the
// agent in the session, makes the check hold.
#[test]
fn verify_remedies_make_the_checks_hold() {
    let w = Work::new();
    // Nothing done: the commit check says to commit.
    let out = w.session(&["verify"]);
    assert_eq!(out.status.code(), Some(11), "{}", text(&out));
    assert!(
        text(&out).contains("git add -A && git commit -m <message>"),
        "{}",
        text(&out)
    );
    // Uncommitted work.
    w.write("src/app.py", "def main():\n    return 2\n");
    w.write("src/new.py", "x = 1\n");
    let out = w.session(&["verify"]);
    assert_eq!(out.status.code(), Some(10), "{}", text(&out));
    let commit = offered(&text(&out), "git add -A && git commit");
    let commit = commit.replace("<message>", "work");
    succeeds(&w.sh(&commit), &commit);
    // Committed, not pushed.
    let out = w.session(&["verify", "--pushed"]);
    assert_eq!(out.status.code(), Some(12), "{}", text(&out));
    let push = offered(&text(&out), "git push");
    assert_eq!(push, "git push origin feature");
    succeeds(&w.sh(&push), &push);
    let out = w.session(&["verify", "--pushed"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

// On a protected branch, `verify --pushed` does not offer the push the session refuses: it
// offers a branch of the agent's own, which lands and makes the check hold.
#[test]
fn verify_on_a_protected_branch_offers_a_branch_of_its_own() {
    let w = Work::new();
    w.ok(&["checkout", "-q", "main"]);
    w.write("src/app.py", "def main():\n    return 2\n");
    w.ok(&["commit", "-qam", "on main"]);
    let out = w.session(&["verify", "--pushed"]);
    assert_eq!(out.status.code(), Some(12), "{}", text(&out));
    let t = text(&out);
    assert!(!t.contains("git push origin main"), "{t}");
    let branch = offered(&t, "git switch -c").replace("<new-branch>", "fix");
    let push = offered(&t, "git push -u origin").replace("<new-branch>", "fix");
    succeeds(&w.sh(&branch), &branch);
    succeeds(&w.sh(&push), &push);
    let out = w.session(&["verify", "--pushed"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // Merged into main on the remote: the session may not push main, so the user merges.
    let out = w.session(&["verify", "--pushed", "--merged-into", "main"]);
    assert_eq!(out.status.code(), Some(13), "{}", text(&out));
    assert!(
        text(&out).contains("open a pull request into `main` and ask the user to merge it"),
        "{}",
        text(&out)
    );
    w.plain(&w.app, &["push", "-q", "origin", "fix:main"]);
    w.plain(&w.app, &["fetch", "-q", "origin"]);
    w.plain(&w.app, &["branch", "-f", "main", "origin/main"]);
    let out = w.session(&["verify", "--pushed", "--merged-into", "main"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

// `verify --merged-into` outside a session: the merge it offers makes the check hold.
#[test]
fn verify_merged_offers_a_merge_that_holds() {
    let env = crate::common::TestEnv::new();
    let repo = env.repo("r");
    repo.write("a.txt", "a\n");
    let base = repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("a.txt", "b\n");
    repo.commit("work");
    let verify = |extra: &[&str]| {
        env.command(bin(), &env.plain_path())
            .args(["verify", "--since", base.trim(), "--merged-into", "main"])
            .args(extra)
            .current_dir(&repo.dir)
            .output()
            .unwrap()
    };
    let out = verify(&[]);
    assert_eq!(out.status.code(), Some(13), "{}", text(&out));
    let merge = offered(&text(&out), "git switch");
    assert_eq!(merge, "git switch main && git merge feature");
    let done = env
        .sh(&merge, &env.plain_path())
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    succeeds(&done, &merge);
    let out = verify(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

// The hooks and protected checks in a session: a skipped hook is said to be the user's to
// accept (and `--skip hooks` accepts it); an uncommitted protected change is taken back by the
// command offered.
#[test]
fn verify_hooks_and_protected_remedies_work() {
    let w = Work::new();
    w.write("src/app.py", "def main():\n    return 2\n");
    w.ok(&["commit", "-qam", "fix", "--no-verify"]);
    let out = w.session(&["verify"]);
    assert_eq!(out.status.code(), Some(14), "{}", text(&out));
    assert!(text(&out).contains("`--skip hooks`"), "{}", text(&out));
    let out = w.session(&["verify", "--skip", "hooks"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // A protected path changed, not committed (and a new file beside it).
    w.write("migrations/001.sql", "drop table t;\n");
    let out = w.session(&["verify", "--skip", "hooks", "--skip", "committed"]);
    assert_eq!(out.status.code(), Some(15), "{}", text(&out));
    let restore = offered(&text(&out), "git restore --source=");
    succeeds(&w.sh(&restore), &restore);
    let out = w.session(&["verify", "--skip", "hooks"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

// A scope entry that does nothing is said as the session starts and by `session check`; the
// scope file is named without `..`.
#[test]
fn a_scope_entry_that_does_nothing_is_said_and_paths_are_normal() {
    let env = crate::common::TestEnv::new();
    let root = env.root();
    let repo = env.repo("app");
    repo.write("a", "a\n");
    repo.commit("init");
    let file = root.join("scope.toml");
    std::fs::write(
        &file,
        format!(
            "[[repo]]\npath = \"{}\"\npermission = \"write-local\"\nprotected = [\"main\"]\n",
            repo.dir.display()
        ),
    )
    .unwrap();
    let named = root.join("app/../scope.toml");
    let tmp = root.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let out = env
        .command(bin(), &env.shim_path())
        .args(["session", "--scope"])
        .arg(&named)
        .args(["--weaker", "--", "true"])
        .current_dir(&root)
        .env("GIT_PRISM_STATE_DIR", root.join("state"))
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let warning: Vec<&str> = err.lines().filter(|l| l.contains("warning:")).collect();
    assert_eq!(warning.len(), 1, "{err}");
    assert!(
        warning[0].starts_with("git-prism session: warning: `protected` of")
            && warning[0].contains("does nothing"),
        "{err}"
    );
    let out = env
        .command(bin(), &env.plain_path())
        .args(["session", "check", "--scope"])
        .arg(&named)
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(said.contains("warning: `protected` of"), "{said}");
    let canonical = file.canonicalize().unwrap();
    assert!(
        said.lines().next() == Some(&format!("scope: {}", canonical.display())),
        "{said}"
    );
    assert!(!said.contains("/../"), "{said}");
}

// `session log` shows each command as the shell would read it.
#[test]
fn the_log_quotes_commands_as_a_shell_would() {
    let s = Session::new("write-push");
    refused(&s.git(&s.other, &["commit", "--allow-empty", "-m", "two words"]));
    let mut cmd = s.env.command(bin(), &s.env.shim_path());
    cmd.args(["session", "log"]);
    s.hold(&mut cmd);
    let out = cmd.output().unwrap();
    let log = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        log.contains("git commit --allow-empty -m 'two words'"),
        "{log}"
    );
}
