//! Paging's bounds (issue 36): a page cursor that cannot be used gets one line, never git's
//! whole output; the range commands of the command line page by default as the shim does.

use crate::common::{Repo, TestEnv};

/// A repository whose last commit changes 60 Python files: git's patch is far larger than one
/// answer, so the answer pages.
fn large_change(env: &TestEnv) -> Repo<'_> {
    let repo = env.repo("repo");
    for i in 0..60 {
        repo.write(
            &format!("pkg/m{i:02}.py"),
            format!("def f{i}():\n    return {i}\n"),
        );
    }
    repo.commit("root");
    for i in 0..60 {
        repo.write(
            &format!("pkg/m{i:02}.py"),
            format!("def f{i}():\n    return {i} + 1\n\n\ndef g{i}(x):\n    return x * {i}\n"),
        );
    }
    repo.commit("more");
    repo
}

// Issue 36: a stale or foreign GIT_PRISM_CURSOR made the shim run git instead, which printed
// its whole output (3.4 MB on a large range) with exit 0 and no word why. Now: one line that
// says what to run, exit 1, nothing on stdout.
#[test]
fn a_cursor_that_cannot_be_used_gets_one_line_never_git_s_whole_output() {
    let env = TestEnv::new();
    let repo = large_change(&env);
    let run = |args: &[&str], cursor: &str| {
        env.shim_git(args)
            .env("CLAUDECODE", "1")
            .env("GIT_PRISM_MAX_OUTPUT", "3000")
            .env("GIT_PRISM_CURSOR", cursor)
            .current_dir(&repo.dir)
            .output()
            .unwrap()
    };
    // A cursor of this very answer, printed before the range changed.
    let first = env
        .shim_git(&["diff", "HEAD~1..HEAD"])
        .env("CLAUDECODE", "1")
        .env("GIT_PRISM_MAX_OUTPUT", "3000")
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    let next = doc["next"].as_str().expect("a paged answer");
    let cursor = next
        .strip_prefix("GIT_PRISM_CURSOR=")
        .and_then(|n| n.split_once(' '))
        .unwrap()
        .0
        .to_owned();
    repo.write("pkg/m00.py", "def f0():\n    return -1\n");
    repo.commit("moved on");
    for (args, cursor, says) in [
        // HEAD~1..HEAD is another change now.
        (vec!["diff", "HEAD~1..HEAD"], cursor.as_str(), "is stale"),
        (vec!["diff", "HEAD~2..HEAD~1"], "gp2-xyz", "is not one"),
        (vec!["log"], cursor.as_str(), "is not one"),
        (vec!["log", "-S", "return"], "junk", "is not one"),
    ] {
        let out = run(&args, cursor);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: git's output printed");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with("git-prism: the page cursor (GIT_PRISM_CURSOR) ")
                && stderr.contains(says)
                && stderr.contains(&format!("run `git {}` again", args.join(" "))),
            "{stderr}"
        );
    }
    // A call that is not answered keeps git's bytes, cursor or not.
    let out = env
        .shim_git(&["diff", "--stat", "HEAD~2..HEAD~1"])
        .env("CLAUDECODE", "1")
        .env("GIT_PRISM_CURSOR", "junk")
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        out.stdout,
        repo.git(&["diff", "--stat", "HEAD~2..HEAD~1"]).as_bytes()
    );
}

/// A repository of 40 commits over 150 Python files: every range command's whole answer is far
/// larger than one page.
fn long_history(env: &TestEnv) -> Repo<'_> {
    let repo = env.repo("history");
    for i in 0..150 {
        repo.write(
            &format!("pkg/mod_{i:03}.py"),
            format!("def f{i}():\n    return {i}\n"),
        );
    }
    repo.commit("root");
    for c in 0..40 {
        for i in (c % 3..150).step_by(3) {
            repo.write(
                &format!("pkg/mod_{i:03}.py"),
                format!("def f{i}():\n    return {i} + {c}\n\n\ndef g{i}_{c}(x):\n    return x\n"),
            );
        }
        repo.commit(&format!("change {c}"));
    }
    repo
}

// Issue 36: `review`, `context`, `history` and `manifest` had no default budget (1.1 MB,
// 866 KB, 436 KB, 233 KB on one tokio range). They page by default as the shim does (20,000
// bytes), `--max-tokens` sets the page, `--all` prints everything.
#[test]
fn the_range_commands_page_by_default_as_the_shim_does() {
    let env = TestEnv::new();
    let repo = long_history(&env);
    let run = |args: &[&str]| {
        let out = env
            .command(crate::common::bin(), &env.plain_path())
            .args(args)
            .current_dir(&repo.dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    for command in [
        vec!["manifest", "HEAD~40..HEAD"],
        vec!["history", "HEAD~40..HEAD"],
        vec!["context", "HEAD~40..HEAD"],
        vec!["review", "HEAD~40..HEAD"],
    ] {
        let page = run(&command);
        assert!(
            page.len() <= 20_001,
            "{command:?}: {} bytes by default",
            page.len()
        );
        // What did not fit is said (a next page, or detail cut).
        let doc: serde_json::Value = serde_json::from_slice(&page).unwrap();
        let said = doc.to_string();
        assert!(
            said.contains("next_cursor") || said.contains("\"cut\""),
            "{command:?}: {said}"
        );
        let mut all = command.clone();
        all.push("--all");
        let whole = run(&all);
        assert!(
            whole.len() > 20_001,
            "{command:?} --all: {} bytes",
            whole.len()
        );
        let mut small = command.clone();
        small.extend(["--max-tokens", "2000"]);
        let page = run(&small);
        assert!(page.len() <= 6_001, "{command:?}: {} bytes", page.len());
    }
    // The shim's own setting is the default's.
    let out = env
        .command(crate::common::bin(), &env.plain_path())
        .args(["manifest", "HEAD~40..HEAD"])
        .env("GIT_PRISM_MAX_OUTPUT", "5000")
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert!(out.stdout.len() <= 5_001, "{}", out.stdout.len());
}
