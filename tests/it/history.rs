//! `git-prism history`: every commit `git log` lists, each against its first parent.

use serde_json::Value;

use crate::common::{Repo, TestEnv, bin};
use crate::oracle::{git_facts, manifest_facts};

fn history(env: &TestEnv, repo: &Repo<'_>, args: &[&str]) -> Value {
    let out = env
        .command(bin(), &env.plain_path())
        .arg("history")
        .args(args)
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "history {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn branchy(env: &TestEnv) -> Repo<'_> {
    let repo = env.repo("repo");
    repo.write("a.txt", "a\n").write("lib.rs", "fn a() {}\n");
    repo.commit("root");
    repo.git(&["checkout", "-q", "-b", "side"]);
    repo.write("side.txt", "side 1\n");
    repo.commit("side one\n\nwith a body\nof two lines");
    repo.write("side.txt", "side 2\n");
    repo.commit("side two");
    repo.git(&["checkout", "-q", "main"]);
    repo.write("a.txt", "a\nb\n");
    repo.commit("main edit");
    repo.git(&["merge", "-q", "--no-ff", "-m", "merge side", "side"]);
    repo.write("lib.rs", "fn a() {}\nfn b() {}\n");
    let out = repo
        .git_cmd(&["commit", "-q", "-am", "by someone else"])
        .env("GIT_AUTHOR_NAME", "Other Person")
        .env("GIT_AUTHOR_EMAIL", "other@example.com")
        .status()
        .unwrap();
    assert!(out.success());
    repo
}

fn shas(doc: &Value) -> Vec<String> {
    doc["commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["sha"].as_str().unwrap().to_owned())
        .collect()
}

fn rev_list(repo: &Repo<'_>, args: &[&str]) -> Vec<String> {
    let mut full = vec!["log", "--format=%H"];
    full.extend_from_slice(args);
    repo.git(&full).lines().map(str::to_owned).collect()
}

#[test]
fn every_listed_commit_with_git_facts_against_its_first_parent() {
    let env = TestEnv::new();
    let repo = branchy(&env);
    let doc = history(&env, &repo, &["main"]);
    assert_eq!(
        shas(&doc),
        rev_list(&repo, &["main"]),
        "merges and side branches included, newest first"
    );
    assert_eq!(doc["summary"]["commits"], 6);
    assert_eq!(doc["summary"]["merges"], 1);
    for commit in doc["commits"].as_array().unwrap() {
        let sha = commit["sha"].as_str().unwrap();
        let parents: Vec<&str> = commit["parents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        let base = parents
            .first()
            .copied()
            .unwrap_or("4b825dc642cb6eb9a060e54bf8d69288fbee4904");
        let want = git_facts(&repo, &repo.dir, &[base, sha]);
        assert_eq!(manifest_facts(commit), want, "commit {sha}");
        assert_eq!(
            commit["is_merge"].as_bool().unwrap_or(false),
            parents.len() > 1
        );
        assert_eq!(
            commit["files_changed"].as_u64().unwrap() as usize,
            want.len()
        );
    }
    let side_one = doc["commits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["subject"] == "side one")
        .unwrap();
    assert_eq!(side_one["body"], "with a body\nof two lines");
    assert_eq!(side_one["author"], "A U Thor <author@example.com>");
    assert!(
        side_one["date"]
            .as_str()
            .unwrap()
            .starts_with("2024-01-01T00:")
    );
    assert_eq!(doc["summary"]["authors"].as_array().unwrap().len(), 2);
}

#[test]
fn selection_options_are_git_s() {
    let env = TestEnv::new();
    let repo = branchy(&env);
    for args in [
        &["-n", "2"][..],
        &["-3"],
        &["main~2..main"],
        &["^side", "main"],
        &["main", "--not", "side"],
        &["--author", "Other"],
        &["--first-parent", "main"],
        &["--no-merges"],
        &["--", "side.txt"],
        &["--reverse", "-n", "3"],
        &["--since", "2024-01-01T00:00:02Z"],
    ] {
        let doc = history(&env, &repo, args);
        assert_eq!(shas(&doc), rev_list(&repo, args), "{args:?}");
    }
    // A pathspec limits the files shown too.
    let doc = history(&env, &repo, &["--", "side.txt"]);
    for commit in doc["commits"].as_array().unwrap() {
        for f in commit["files"].as_array().unwrap() {
            assert_eq!(f["path"], "side.txt");
        }
    }
}

#[test]
fn history_pages_and_budgets() {
    let env = TestEnv::new();
    let repo = branchy(&env);
    let first = history(&env, &repo, &["--page-size", "4", "main"]);
    assert_eq!(first["commits"].as_array().unwrap().len(), 4);
    let cursor = first["pagination"]["next_cursor"].as_str().unwrap();
    let second = history(
        &env,
        &repo,
        &["--page-size", "4", "--cursor", cursor, "main"],
    );
    let mut all = shas(&first);
    all.extend(shas(&second));
    assert_eq!(all, rev_list(&repo, &["main"]));
    let small = history(&env, &repo, &["--max-tokens", "600", "main"]);
    assert!(serde_json::to_string(&small).unwrap().len() <= 1800);
    assert!(small["commits"].as_array().unwrap().len() < 6);
    assert!(small["truncated"]["cut"].as_array().unwrap().len() >= 2);
}

/// The cursor an MCP answer's `next` names (`... cursor "<cursor>"`).
fn named_cursor(next: &str) -> String {
    let start = next.rfind("cursor \"").expect("next names a cursor") + "cursor \"".len();
    next[start..].trim_end_matches('"').to_owned()
}

// MCP's `get_commit_history` answers as the shim's `git log` does: every commit on a line,
// paged by a cursor bound to the listed commits; the full form stays available.
#[test]
fn mcp_history_lists_every_commit_compactly_across_pages() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    for i in 0..150 {
        repo.write("n.txt", format!("{i}\n"));
        repo.commit(&format!(
            "commit number {i} with a subject long enough to need pages"
        ));
    }
    let want: Vec<String> = rev_list(&repo, &["HEAD~140..HEAD"])
        .iter()
        .map(|sha| sha[..12].to_owned())
        .collect();
    let mut mcp = crate::common::Mcp::start(&env, &repo.dir, &[]);
    let args = |cursor: Option<&str>| {
        let mut a = serde_json::json!({
            "base_ref": "HEAD~140",
            "head_ref": "HEAD",
            "max_response_tokens": 1000,
        });
        if let Some(c) = cursor {
            a["cursor"] = c.into();
        }
        a
    };
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let (error, text) = mcp.call("get_commit_history", args(cursor.as_deref()));
        assert!(!error, "{text}");
        assert!(
            text.len() <= 4_000,
            "{} bytes over a 1,000-token budget",
            text.len()
        );
        let doc: Value = serde_json::from_str(&text).unwrap();
        assert!(doc.get("raw").is_none(), "{doc}");
        for line in doc["commits"].as_array().unwrap() {
            seen.push(line.as_str().unwrap()[..12].to_owned());
        }
        pages += 1;
        match doc["next"].as_str() {
            Some(next) => {
                assert!(next.starts_with("call get_commit_history again"), "{next}");
                cursor = Some(named_cursor(next));
            }
            None => break,
        }
        assert!(pages < 100, "paging does not end");
    }
    assert!(
        pages > 1,
        "a 1,000-token budget holds 140 commits on one page"
    );
    assert_eq!(seen, want, "pages overlap or lose commits");
    // Each commit says what it changed.
    let (_, text) = mcp.call("get_commit_history", args(None));
    let doc: Value = serde_json::from_str(&text).unwrap();
    let newest = doc["commits"][0].as_str().unwrap();
    assert!(newest.starts_with(&want[0]), "{doc}");
    assert!(newest.contains(" [M n.txt +1 -1]\n"), "{newest}");
    assert!(
        doc["cut"]
            .to_string()
            .contains("more commits are on the next pages"),
        "{doc}"
    );
    // A cursor of a history that has moved on is refused.
    let stale = cursor_of_first_page(&mut mcp, &args);
    repo.write("n.txt", "moved on\n");
    repo.commit("moved on");
    let (error, text) = mcp.call("get_commit_history", args(Some(&stale)));
    assert!(error && text.contains("stale"), "{text}");
    // The full form is still there; page_size belongs to it.
    let (error, text) = mcp.call(
        "get_commit_history",
        serde_json::json!({"base_ref": "HEAD~2", "head_ref": "HEAD", "format": "full", "page_size": 1}),
    );
    assert!(!error, "{text}");
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["commits"].as_array().unwrap().len(), 1);
    assert!(doc["commits"][0]["files"].is_array(), "{doc}");
    let (error, text) = mcp.call(
        "get_commit_history",
        serde_json::json!({"base_ref": "HEAD~2", "head_ref": "HEAD", "page_size": 1}),
    );
    assert!(
        error && text.contains("page_size applies to format"),
        "{text}"
    );
}

fn cursor_of_first_page(
    mcp: &mut crate::common::Mcp,
    args: &dyn Fn(Option<&str>) -> Value,
) -> String {
    let (_, text) = mcp.call("get_commit_history", args(None));
    let doc: Value = serde_json::from_str(&text).unwrap();
    named_cursor(doc["next"].as_str().unwrap())
}

// Subjects split only at "\n\n" and trimmed on both sides; git ends the first paragraph at any
// whitespace-only line, skips leading blank lines and keeps leading spaces.
#[test]
fn subjects_are_git_s_subjects() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    repo.write("a.txt", "a\n");
    repo.commit("root");
    let tree = repo.git(&["rev-parse", "HEAD^{tree}"]).trim().to_owned();
    let mut parent = repo.git(&["rev-parse", "HEAD"]).trim().to_owned();
    for message in [
        "subj line   \n  \t\nbody after ws line\n",
        "  lead\nsecond  \n \nbody\n",
        "\n\n  \nreal subject\n\nbody\n",
        "one line, no newline",
        "tab\tinside\r\nand crlf\r\n\r\nbody\r\n",
    ] {
        use std::io::Write;
        let mut child = repo
            .git_cmd(&["commit-tree", &tree, "-p", &parent])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(message.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        parent = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    }
    repo.git(&["update-ref", "refs/heads/main", &parent]);
    let want: Vec<String> = repo
        .git(&["log", "-z", "--format=%s"])
        .split('\0')
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_start_matches('\n').to_owned())
        .collect();
    let doc = history(&env, &repo, &["main"]);
    let got: Vec<String> = doc["commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["subject"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(got, want);
}

// git exiting before it read its input (or stopped at its deadline) raised SIGPIPE in the
// thread feeding it, and the process died with no message: the server for every client, the
// shim before it could run git.
#[test]
fn a_git_that_stops_reading_its_input_is_an_error_not_a_signal() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    // More ids than a pipe holds (about 80 bytes each, 64 KiB), so the writer blocks.
    for i in 0..1000 {
        repo.git(&["commit", "-q", "--allow-empty", "-m", &format!("c{i}")]);
    }
    let real = String::from_utf8(
        env.command("sh", &env.plain_path())
            .args(["-c", "command -v git"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap()
    .trim()
    .to_owned();
    let wrapper = env.script(
        &env.root().join("wrap"),
        "git",
        &format!(
            "#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = diff-tree ] && exit 3; done\nexec {real} \"$@\"\n"
        ),
    );
    let out = env
        .command(bin(), &env.plain_path())
        .args(["history", "main"])
        .env("GIT_PRISM_REAL_GIT", &wrapper)
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), None, "killed by a signal");
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("diff-tree"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
