//! `git-prism snapshot`: file contents before and after a range.

use serde_json::Value;

use crate::common::{Repo, TestEnv, bin};

fn snapshot(env: &TestEnv, repo: &Repo<'_>, args: &[&str]) -> Value {
    let out = env
        .command(bin(), &env.plain_path())
        .arg("snapshot")
        .args(args)
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "snapshot {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn before_and_after_content() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    let numbered: String = (1..=10).map(|i| format!("line {i}\n")).collect();
    repo.write("a.txt", &numbered)
        .write("old.rs", "fn x() {}\n".repeat(20))
        .write("bin.dat", b"\x00\x01");
    repo.write("big.txt", "x".repeat(5000))
        .write("same.txt", "same\n");
    repo.commit("one");
    repo.write("a.txt", numbered.replace("line 5", "line five"));
    std::fs::create_dir_all(repo.dir.join("new")).unwrap();
    repo.git(&["mv", "old.rs", "new/renamed.rs"]);
    repo.write("added.txt", "added\n");
    repo.commit("two");
    let doc = snapshot(
        &env,
        &repo,
        &[
            "HEAD~1..HEAD",
            "--paths",
            "a.txt",
            "new/renamed.rs",
            "added.txt",
            "bin.dat",
            "big.txt",
            "same.txt",
            "nope.txt",
            "--max-file-size",
            "1000",
        ],
    );
    let f = &doc["files"];
    assert_eq!(f[0]["change_type"], "modified");
    assert_eq!(f[0]["before"]["content"], numbered.as_str());
    assert_eq!(
        f[0]["after"]["content"],
        repo.git(&["show", "HEAD:a.txt"]).as_str()
    );
    assert_eq!(f[1]["change_type"], "renamed");
    assert_eq!(
        f[1]["before"]["path"], "old.rs",
        "a renamed file's before is its old path"
    );
    assert_eq!(f[1]["before"]["content"], "fn x() {}\n".repeat(20).as_str());
    assert_eq!(f[2]["before"]["exists"], false);
    assert_eq!(f[2]["after"]["content"], "added\n");
    assert_eq!(f[3]["after"]["reason"], "binary");
    assert!(f[3]["after"].get("content").is_none());
    assert!(
        f[4]["after"]["reason"]
            .as_str()
            .unwrap()
            .starts_with("too large")
    );
    assert!(
        f[5].get("change_type").is_none(),
        "unchanged files are read from both sides"
    );
    assert_eq!(f[5]["after"]["content"], "same\n");
    assert_eq!(f[6]["before"]["exists"], false);
    assert_eq!(f[6]["after"]["exists"], false);

    let doc = snapshot(
        &env,
        &repo,
        &[
            "HEAD~1..HEAD",
            "--paths",
            "a.txt",
            "--line-range",
            "4:6",
            "--after-only",
        ],
    );
    let after = &doc["files"][0]["after"];
    assert_eq!(after["content"], "line 4\nline five\nline 6\n");
    assert_eq!(
        (
            after["first_line"].as_u64(),
            after["last_line"].as_u64(),
            after["total_lines"].as_u64()
        ),
        (Some(4), Some(6), Some(10))
    );
    assert!(doc["files"][0].get("before").is_none());
}

#[test]
fn working_tree_side_and_limits() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    repo.write("a.txt", "committed\n").commit("one");
    repo.write("a.txt", "in the working tree\n");
    let doc = snapshot(&env, &repo, &["HEAD", "--paths", "a.txt"]);
    assert_eq!(doc["files"][0]["before"]["content"], "committed\n");
    assert_eq!(doc["files"][0]["after"]["content"], "in the working tree\n");
    let many: Vec<String> = (0..21).map(|i| format!("f{i}")).collect();
    let mut args = vec![
        "snapshot".to_owned(),
        "HEAD".to_owned(),
        "--paths".to_owned(),
    ];
    args.extend(many);
    let out = env
        .command(bin(), &env.plain_path())
        .args(&args)
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most 20 paths"));
}

#[test]
fn diff_hunks_are_gits_own() {
    let env = TestEnv::new();
    let repo = env.repo("hunks");
    let numbered: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    repo.write("a.txt", &numbered).write("same.txt", "same\n");
    repo.commit("one");
    repo.write(
        "a.txt",
        numbered
            .replace("line 2\n", "line two\n")
            .replace("line 25\n", ""),
    );
    repo.commit("two");
    let doc = snapshot(
        &env,
        &repo,
        &[
            "HEAD~1..HEAD",
            "--diff-hunks",
            "--paths",
            "a.txt",
            "same.txt",
        ],
    );
    let hunks = doc["files"][0]["diff_hunks"].as_array().unwrap();
    // Every line of git's own patch after its headers, in order.
    let patch = repo.git(&["diff", "--no-color", "HEAD~1..HEAD", "--", "a.txt"]);
    let want: Vec<&str> = patch
        .lines()
        .skip_while(|l| !l.starts_with("@@"))
        .filter(|l| !l.starts_with("@@"))
        .collect();
    let got: Vec<String> = hunks
        .iter()
        .flat_map(|h| h["lines"].as_array().unwrap().iter())
        .map(|l| l.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(got, want);
    assert_eq!(hunks.len(), 2);
    assert_eq!(hunks[0]["old_start"], 1);
    assert_eq!(hunks[1]["new_lines"], 6);
    assert_eq!(doc["files"][1]["diff_hunks"], serde_json::json!([]));
}

// Issue 22: twenty large files with their hunks were all held in memory (2.6 GB) whatever the
// answer could hold. What does not fit twice the budget is left out as soon as it is read.
#[test]
fn contents_and_hunks_are_kept_only_while_the_budget_can_hold_them() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    let big = |tag: &str| {
        (0..4000)
            .map(|i| format!("line {i} {tag} {}\n", "x".repeat(40)))
            .collect::<String>()
    };
    let names: Vec<String> = (0..6).map(|i| format!("f{i}.txt")).collect();
    for n in &names {
        repo.write(n, big("old"));
    }
    repo.commit("one");
    for n in &names {
        repo.write(n, big("new"));
    }
    repo.commit("two");
    let mut args = vec![
        "HEAD~1..HEAD",
        "--diff-hunks",
        "--max-tokens",
        "20000",
        "--max-file-size",
        "16777216",
        "--paths",
    ];
    args.extend(names.iter().map(String::as_str));
    let doc = snapshot(&env, &repo, &args);
    let text = doc.to_string();
    assert!(text.len() < 20_000 * 4, "{}", text.len());
    let files = doc["files"].as_array().unwrap();
    let left_out = files
        .iter()
        .flat_map(|f| {
            [
                &f["before"]["reason"],
                &f["after"]["reason"],
                &f["diff_hunks_reason"],
            ]
        })
        .filter(|r| r.as_str().is_some_and(|r| r.contains("room")))
        .count();
    assert!(left_out > 0, "{text}");
}
