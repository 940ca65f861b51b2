//! `git-prism verify` (issue 28) against real repositories and a real bare remote: each false
//! "done" an unattended loop has reported is caught, by the check named for it, and removing
//! that check alone (`--skip`) lets it through — so each check is proven to be the one holding.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{Repo, TestEnv, bin};

/// A clone `work` of a bare `remote.git` whose `main` is at `base`.
struct Loop {
    env: TestEnv,
    remote: PathBuf,
    work: PathBuf,
    base: String,
}

impl Loop {
    fn new() -> Loop {
        let env = TestEnv::new();
        let root = env.root();
        let remote = root.join("remote.git");
        let seed = env.repo("seed");
        seed.write("src/app.py", "def main():\n    return 1\n")
            .write("migrations/001.sql", "create table t (id int);\n")
            .commit("init");
        seed.git(&[
            "init",
            "-q",
            "--bare",
            "-b",
            "main",
            remote.to_str().unwrap(),
        ]);
        seed.git(&["push", "-q", remote.to_str().unwrap(), "main"]);
        let work = root.join("work");
        seed.git(&[
            "clone",
            "-q",
            remote.to_str().unwrap(),
            work.to_str().unwrap(),
        ]);
        let base = env
            .repo_at(&work)
            .git(&["rev-parse", "HEAD"])
            .trim()
            .to_owned();
        Loop {
            env,
            remote,
            work,
            base,
        }
    }

    fn repo(&self) -> Repo<'_> {
        self.env.repo_at(&self.work)
    }

    /// `git-prism verify --since <base> <args>` in the work repository.
    fn verify(&self, args: &[&str]) -> Output {
        self.env
            .command(bin(), &self.env.plain_path())
            .current_dir(&self.work)
            .args(["verify", "--since", &self.base])
            .args(args)
            .output()
            .unwrap()
    }

    /// A hook script in `git_dir`'s hooks directory.
    fn hook(&self, git_dir: &Path, name: &str, body: &str) {
        self.env.script(&git_dir.join("hooks"), name, body);
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Asserts `verify` failed with exactly one line, for `check`, with its exit code, and that
/// the line says `says`.
fn fails_only(out: &Output, check: &str, code: i32, says: &str) {
    let text = stdout(out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "one failure expected, got: {text}\nstderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        lines[0].starts_with(&format!("git-prism verify: {check}: ")),
        "{text}"
    );
    assert!(lines[0].contains(says), "{text}");
    assert_eq!(out.status.code(), Some(code), "{text}");
}

/// Asserts `verify` passed silently.
fn passes(out: &Output) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(out),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty(), "{}", stdout(out));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_clean_pushed_merged_piece_of_work_passes_silently() {
    let l = Loop::new();
    let r = l.repo();
    r.write("src/app.py", "def main():\n    return 2\n")
        .commit("fix");
    r.git(&["push", "-q", "origin", "main"]);
    passes(&l.verify(&[
        "--pushed",
        "--merged-into",
        "main",
        "--protected",
        "migrations/",
    ]));
    passes(&l.verify(&["--pushed", "--offline", "--merged-into", "main"]));
    // --json says every check, passed ones included.
    let out = l.verify(&["--pushed", "--merged-into", "main", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["ok"], true);
    let checks: Vec<&str> = json["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["check"].as_str().unwrap())
        .collect();
    assert_eq!(checks, ["committed", "commit", "pushed", "merged"]);
}

// False "done" 1: the session wrote files and never committed them (a commit was made and
// pushed earlier, so only `committed` can tell).
#[test]
fn files_written_but_not_committed_are_caught_by_committed() {
    let l = Loop::new();
    let r = l.repo();
    r.write("src/app.py", "def main():\n    return 2\n")
        .commit("fix");
    r.git(&["push", "-q", "origin", "main"]);
    r.write("src/new.py", "x = 1\n");
    r.write("src/app.py", "def main():\n    return 3\n");
    let out = l.verify(&["--pushed"]);
    fails_only(
        &out,
        "committed",
        10,
        "2 changes not committed (1 not staged, 1 untracked): M src/app.py, ?? src/new.py",
    );
    passes(&l.verify(&["--pushed", "--skip", "committed"]));
}

// False "done" 2: a failing pre-commit hook made `git commit` a no-op, and `git log -1` still
// showed the base commit, which looked like success; 3: the caller masked git's exit status
// (`git commit ...; true`).
#[test]
fn a_failing_pre_commit_hook_with_a_masked_exit_status_is_caught() {
    let l = Loop::new();
    let r = l.repo();
    l.hook(&l.work.join(".git"), "pre-commit", "#!/bin/sh\nexit 1\n");
    r.write("src/app.py", "def main():\n    return 2\n");
    let masked = l
        .env
        .sh("git commit -qam fix; true", &l.env.plain_path())
        .current_dir(&l.work)
        .output()
        .unwrap();
    assert!(
        masked.status.success(),
        "the caller's `; true` hides the failure"
    );
    let out = l.verify(&[]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(10), "{text}");
    assert!(text.contains("git-prism verify: committed: "), "{text}");
    assert!(
        text.contains("1 change not committed (1 not staged): M src/app.py"),
        "{text}"
    );
    assert!(
        text.contains("git-prism verify: commit: HEAD is still at "),
        "{text}"
    );
    assert!(text.contains("nothing was committed"), "{text}");
    // Each of the two checks catches it alone.
    fails_only(
        &l.verify(&["--skip", "committed"]),
        "commit",
        11,
        "nothing was committed",
    );
    fails_only(
        &l.verify(&["--skip", "commit"]),
        "committed",
        10,
        "M src/app.py",
    );
    passes(&l.verify(&["--skip", "commit", "--skip", "committed"]));
}

// False "done" 4: the same ref was passed as the task branch and its base: the work tree is
// clean and HEAD is where it was, so only `commit` can tell.
#[test]
fn the_same_ref_as_branch_and_base_is_caught_by_commit() {
    let l = Loop::new();
    let out = l
        .env
        .command(bin(), &l.env.plain_path())
        .current_dir(&l.work)
        .args(["verify", "--since", "main", "--merged-into", "main"])
        .output()
        .unwrap();
    fails_only(&out, "commit", 11, "HEAD is still at main (");
    passes(
        &l.env
            .command(bin(), &l.env.plain_path())
            .current_dir(&l.work)
            .args([
                "verify",
                "--since",
                "main",
                "--merged-into",
                "main",
                "--skip",
                "commit",
            ])
            .output()
            .unwrap(),
    );
}

// `--commit` names the work: it must be in HEAD's history.
#[test]
fn a_named_commit_outside_head_s_history_is_caught_by_commit() {
    let l = Loop::new();
    let r = l.repo();
    r.git(&["checkout", "-q", "-b", "elsewhere"]);
    let other = r.write("x.txt", "x\n").commit("elsewhere");
    r.git(&["checkout", "-q", "main"]);
    r.write("y.txt", "y\n").commit("work");
    fails_only(
        &l.verify(&["--commit", &other]),
        "commit",
        11,
        "is not HEAD (",
    );
    passes(&l.verify(&["--commit", "HEAD~0"]));
}

// False "done" 5: the remote refused the push (its pre-receive hook), so the commits are only
// local; the remote-tracking ref did not move either.
#[test]
fn a_push_the_remote_refused_is_caught_by_pushed() {
    let l = Loop::new();
    l.hook(
        &l.remote,
        "pre-receive",
        "#!/bin/sh\necho refused >&2\nexit 1\n",
    );
    let r = l.repo();
    r.write("src/app.py", "def main():\n    return 2\n")
        .commit("fix");
    let push = r
        .git_cmd(&["push", "-q", "origin", "main"])
        .output()
        .unwrap();
    assert!(!push.status.success());
    fails_only(
        &l.verify(&["--pushed"]),
        "pushed",
        12,
        "origin refs/heads/main is ",
    );
    fails_only(
        &l.verify(&["--pushed", "--offline"]),
        "pushed",
        12,
        "(offline: as of the last fetch, refs/remotes/origin/main)",
    );
    passes(&l.verify(&["--pushed", "--skip", "pushed"]));
}

// A branch never pushed, and a detached HEAD: nothing to have pushed.
#[test]
fn a_branch_without_a_destination_and_a_detached_head_are_not_pushed() {
    let l = Loop::new();
    let r = l.repo();
    r.git(&["checkout", "-q", "-b", "topic"]);
    r.write("t.txt", "t\n").commit("topic");
    fails_only(
        &l.verify(&["--pushed"]),
        "pushed",
        12,
        "branch topic has no upstream and no push destination",
    );
    r.git(&["push", "-q", "-u", "origin", "topic"]);
    passes(&l.verify(&["--pushed"]));
    r.git(&["checkout", "-q", "--detach"]);
    fails_only(&l.verify(&["--pushed"]), "pushed", 12, "HEAD is detached");
}

// False "done" 6: the commit was pushed on its branch but never merged.
#[test]
fn a_commit_never_merged_is_caught_by_merged() {
    let l = Loop::new();
    let r = l.repo();
    r.git(&["checkout", "-q", "-b", "task"]);
    r.write("src/app.py", "def main():\n    return 2\n")
        .commit("fix");
    r.git(&["push", "-q", "-u", "origin", "task"]);
    fails_only(
        &l.verify(&["--pushed", "--merged-into", "main"]),
        "merged",
        13,
        "which does not contain HEAD (",
    );
    passes(&l.verify(&["--pushed", "--merged-into", "main", "--skip", "merged"]));
    // Merged locally but not pushed: the remote's main does not have it.
    r.git(&["checkout", "-q", "main"]);
    r.git(&["merge", "-q", "--ff-only", "task"]);
    r.git(&["checkout", "-q", "task"]);
    passes(&l.verify(&["--merged-into", "main"]));
    fails_only(
        &l.verify(&["--pushed", "--merged-into", "main"]),
        "merged",
        13,
        "origin refs/heads/main is ",
    );
    r.git(&["push", "-q", "origin", "main"]);
    passes(&l.verify(&["--pushed", "--merged-into", "main"]));
}

// False "done" 7: a protected file moved to a new path slipped past a check that used git's
// rename detection (which shows only the new path).
#[test]
fn a_protected_file_moved_out_of_its_path_is_caught_by_protected() {
    let l = Loop::new();
    let r = l.repo();
    std::fs::create_dir_all(l.work.join("db")).unwrap();
    r.git(&["mv", "migrations/001.sql", "db/001.sql"]);
    r.commit("move");
    r.git(&["push", "-q", "origin", "main"]);
    let renamed = r.git(&["diff", "--name-only", "-M", &l.base, "HEAD"]);
    assert_eq!(
        renamed.trim(),
        "db/001.sql",
        "rename detection hides the old path"
    );
    fails_only(
        &l.verify(&["--pushed", "--protected", "migrations/"]),
        "protected",
        15,
        "1 change is protected: migrations/001.sql (migrations/)",
    );
    passes(&l.verify(&[
        "--pushed",
        "--protected",
        "migrations/",
        "--skip",
        "protected",
    ]));
    // An uncommitted edit to a protected file counts too.
    r.write("migrations/002.sql", "drop table t;\n");
    let out = l.verify(&["--protected", "migrations/", "--skip", "committed"]);
    fails_only(&out, "protected", 15, "migrations/002.sql");
}

#[test]
fn bad_input_is_a_clear_error() {
    let l = Loop::new();
    let out = l
        .env
        .command(bin(), &l.env.plain_path())
        .current_dir(&l.work)
        .args(["verify", "--since", "no-such-rev"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-rev"));
    let out = l
        .env
        .command(bin(), &l.env.plain_path())
        .current_dir(&l.work)
        .args(["verify", "--since", "HEAD", "--skip", "nothing"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no check 'nothing'"));
    let out = l
        .env
        .command(bin(), &l.env.plain_path())
        .current_dir(l.env.root())
        .args(["verify", "--since", "HEAD"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a git repository"));
    // Without --since outside a session: a usage error, not a check silently left out.
    let out = l
        .env
        .command(bin(), &l.env.plain_path())
        .current_dir(&l.work)
        .args(["verify"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

// A repository that configures programs (fsmonitor, a clean filter) runs none of them.
#[test]
fn verify_runs_nothing_the_repository_configures() {
    let l = Loop::new();
    let r = l.repo();
    let marker = l.env.root().join("ran");
    let evil = l.env.script(
        &l.env.root(),
        "evil.sh",
        &format!("#!/bin/sh\ntouch {}\ncat\n", marker.display()),
    );
    r.write(".gitattributes", "*.py filter=x\n");
    r.commit("attrs");
    r.git(&["config", "core.fsmonitor", evil.to_str().unwrap()]);
    r.git(&["config", "filter.x.clean", evil.to_str().unwrap()]);
    // Touch a tracked file so status must look at its content.
    r.write("src/app.py", "def main():\n    return 9\n");
    let out = l.verify(&[]);
    assert_eq!(out.status.code(), Some(10), "{}", stdout(&out));
    assert!(!marker.exists(), "a configured program ran");
}

// Several repositories: each line names its repository.
#[test]
fn several_repositories_are_named_on_each_line() {
    let l = Loop::new();
    let other = l.env.repo("other");
    other.write("a", "a\n").commit("a");
    other.write("b", "b\n");
    let out = l
        .env
        .command(bin(), &l.env.plain_path())
        .current_dir(l.env.root())
        .args(["verify", "--since", "HEAD", "work", "other"])
        .output()
        .unwrap();
    let text = stdout(&out);
    assert!(
        text.contains(&format!(
            "git-prism verify: committed: {}: ",
            other.dir.display()
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("git-prism verify: commit: {}: ", l.work.display())),
        "{text}"
    );
}
