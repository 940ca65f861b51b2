//! Every answer costs no more than git's own output for the same command line (issue 36, the
//! project's first promise): the shim weighs each answer against git's and gives git's bytes
//! when the answer would be larger. These tests run with the weighing on (the other tests of
//! answers switch it off: their repositories are too small for JSON to win).

use serde_json::Value;

use crate::common::{Repo, SIZE_CHECK, TestEnv};

/// The shim's output for an agent's `git <args>`, weighed, and whether it was answered.
fn agent(env: &TestEnv, repo: &Repo<'_>, args: &[&str]) -> (Vec<u8>, bool) {
    let out = env
        .shim_git(args)
        .env("CLAUDECODE", "1")
        .env("GIT_PRISM_DEBUG", "1")
        .env_remove(SIZE_CHECK)
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "git {args:?}: {stderr}");
    (out.stdout, stderr.contains("git-prism: structured: "))
}

/// A module of many functions, and a commit that deletes most of them with a one-line message
/// (Flask's "remove previously deprecated code" read 631 tokens where git prints 61).
fn deprecations(env: &TestEnv) -> Repo<'_> {
    let repo = env.repo("repo");
    let mut module = String::new();
    for i in 0..24 {
        module.push_str(&format!(
            "def deprecated_helper_number_{i}(value, *, strict=False):\n    \"\"\"Old.\"\"\"\n    return value + {i}\n\n\n"
        ));
    }
    module.push_str("def keep(value):\n    return value\n");
    repo.write("src/helpers.py", &module);
    repo.write("src/app.py", "def main():\n    return 1\n");
    repo.commit("add helpers");
    repo.write("src/helpers.py", "def keep(value):\n    return value\n");
    repo.commit("remove previously deprecated code");
    repo.write("src/app.py", "def main():\n    return 2\n");
    repo.commit("return two");
    repo
}

// Issue 36: `git show -s` carried every file, function and type and cost more than git's
// header and message for 27 of 30 sampled commits (up to 5.8x). It answers git's header and
// message, in the answer's words, and what the commit changed only within git's own size.
#[test]
fn show_s_answers_git_s_header_and_message_within_git_s_size() {
    let env = TestEnv::new();
    let repo = deprecations(&env);
    for rev in ["HEAD~1", "HEAD"] {
        let git = repo.git(&["show", "-s", rev]);
        let (out, answered) = agent(&env, &repo, &["show", "-s", rev]);
        assert!(answered, "git show -s {rev} was not answered");
        assert!(
            out.len() <= git.len(),
            "show -s {rev}: {} bytes, git's {}: {}",
            out.len(),
            git.len(),
            String::from_utf8_lossy(&out)
        );
        let doc: Value = serde_json::from_slice(&out).unwrap();
        let sha = repo.git(&["rev-parse", rev]);
        assert_eq!(doc["commit"], sha.trim()[..12]);
        assert_eq!(doc["author"], "A U Thor <author@example.com>");
        assert!(doc["date"].as_str().unwrap().starts_with("2024-01-01 00:0"));
        assert!(
            doc.get("files").is_none() && doc.get("hunks").is_none(),
            "{doc}"
        );
    }
    let (out, _) = agent(&env, &repo, &["show", "-s", "HEAD~1"]);
    let doc: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(doc["message"], "remove previously deprecated code");
}

// Issue 36: every form the shim answers stays within git's own output; where the answer would
// be larger, git's own bytes are printed instead, unchanged.
#[test]
fn no_answer_is_larger_than_git_s_own_output() {
    let env = TestEnv::new();
    let repo = deprecations(&env);
    repo.write("notes.txt", "x\n");
    repo.commit("n");
    let mut answered = 0;
    for args in [
        vec!["show", "-s", "HEAD~2"],
        vec!["show", "HEAD~2"],
        vec!["show", "HEAD"],
        vec!["show", "-s", "--format=", "HEAD"],
        vec!["diff", "HEAD~3..HEAD"],
        vec!["diff", "HEAD~1..HEAD"],
        vec!["log"],
        vec!["log", "-1"],
        vec!["log", "-S", "deprecated_helper_number_3"],
        vec!["log", "-G", "return"],
        vec!["blame", "src/app.py"],
        vec!["blame", "-L", "1,1", "notes.txt"],
    ] {
        let git = repo.git_cmd(&args).output().unwrap().stdout;
        let (out, structured) = agent(&env, &repo, &args);
        if structured {
            answered += 1;
            assert!(
                out.len() <= git.len(),
                "git {args:?}: the answer takes {} bytes, git's own output {}",
                out.len(),
                git.len()
            );
        } else {
            assert_eq!(out, git, "git {args:?}: not answered, so git's bytes");
        }
    }
    // The forms where JSON wins are still answered.
    assert!(answered >= 4, "{answered} answered");
    // A one-line file's blame is smaller in git's words: git's own bytes.
    let (_, structured) = agent(&env, &repo, &["blame", "notes.txt"]);
    assert!(!structured);
}
