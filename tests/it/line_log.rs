//! `git log -L`: a function's or a range's history, answered (issue 36).

use serde_json::Value;

use crate::common::{Repo, SIZE_CHECK, TestEnv};

/// The shim's output for an agent's `git <args>` (weighed against git's own), and whether it
/// was answered.
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

/// A function's life: written, changed, reformatted, annotated, commented, changed again; and
/// commits that leave it alone.
fn history(env: &TestEnv) -> Repo<'_> {
    let repo = env.repo("repo");
    let file = |body: &str| {
        format!(
            "import sys\n\n\ndef other():\n    return 0\n\n\n{body}\n\ndef tail():\n    return 'the end of the module, which is long enough to matter'\n"
        )
    };
    repo.write("src/utils.py", file("def make_str(value):\n    if isinstance(value, bytes):\n        return value.decode('utf-8', 'replace')\n    return str(value)\n"));
    repo.commit("add make_str");
    repo.write("src/utils.py", file("def make_str(value):\n    if isinstance(value, bytes):\n        return value.decode(sys.getfilesystemencoding(), 'replace')\n    return str(value)\n"));
    repo.commit("decode with the file system's encoding");
    repo.write("src/utils.py", file("def make_str(value):\n    if isinstance(value, bytes):\n        return value.decode(\n            sys.getfilesystemencoding(), \"replace\"\n        )\n    return str(value)\n"));
    repo.commit("apply black");
    repo.write("src/utils.py", file("def make_str(value: object) -> str:\n    if isinstance(value, bytes):\n        return value.decode(\n            sys.getfilesystemencoding(), \"replace\"\n        )\n    return str(value)\n"));
    repo.commit("add type annotations");
    repo.write("src/utils.py", file("def make_str(value: object) -> str:\n    \"\"\"Converts a value into a string.\"\"\"\n    if isinstance(value, bytes):\n        # Bytes are decoded as the file system would.\n        return value.decode(\n            sys.getfilesystemencoding(), \"replace\"\n        )\n    return str(value)\n"));
    repo.commit("document make_str");
    repo.write("other.txt", "unrelated\n");
    repo.commit("unrelated");
    repo.write("src/utils.py", file("def make_str(value: object) -> str:\n    \"\"\"Converts a value into a string.\"\"\"\n    if isinstance(value, bytes):\n        # Bytes are decoded as the file system would.\n        return value.decode(\n            sys.getfilesystemencoding(), \"surrogateescape\"\n        )\n    return repr(value)\n"));
    repo.commit("keep undecodable bytes");
    repo
}

/// git's own `log -L` per commit: (short id, the `+`/`-` lines of the range).
fn git_line_log(repo: &Repo<'_>, spec: &str) -> Vec<(String, Vec<String>)> {
    let out = repo.git(&["log", "-L", spec, "--format=commit %H"]);
    let mut commits: Vec<(String, Vec<String>)> = Vec::new();
    for line in out.lines() {
        if let Some(sha) = line.strip_prefix("commit ") {
            commits.push((sha[..12].to_owned(), Vec::new()));
        } else if (line.starts_with('+') && !line.starts_with("+++"))
            || (line.starts_with('-') && !line.starts_with("---"))
        {
            commits.last_mut().unwrap().1.push(line.to_owned());
        }
    }
    commits
}

// Issue 36: `git log -L` passed through: git prints every version of the range with its
// context (1,953 tokens on one Flask function). The answer is each commit's id, day, author and
// subject with the lines it changed; formatting, comments and annotations are marked.
#[test]
fn a_function_s_history_is_answered_with_what_each_commit_changed() {
    let env = TestEnv::new();
    let repo = history(&env);
    for spec in [":make_str:src/utils.py", "8,15:src/utils.py"] {
        let (out, answered) = agent(&env, &repo, &["log", "-L", spec]);
        assert!(answered, "git log -L {spec} was not answered");
        let git = repo.git_cmd(&["log", "-L", spec]).output().unwrap().stdout;
        assert!(out.len() <= git.len(), "{} > {}", out.len(), git.len());
        let doc: Value = serde_json::from_slice(&out).unwrap();
        let commits: Vec<&str> = doc["commits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        let want = git_line_log(&repo, spec);
        assert_eq!(commits.len(), want.len(), "{spec}: {doc}");
        for (text, (id, lines)) in commits.iter().zip(&want) {
            assert!(
                text.starts_with(&format!("{id} 2024-01-01 A U Thor: ")),
                "{text}"
            );
            let subject = text.lines().next().unwrap();
            let shown: Vec<&str> = text
                .lines()
                .skip(1)
                .filter(|l| !l.starts_with("@@ "))
                .collect();
            if subject.ends_with(" [formatting or comments only]")
                || subject.ends_with(" [type annotations only]")
            {
                assert!(shown.is_empty(), "{text}");
            } else {
                // Exactly git's changed lines of the range, no context.
                assert_eq!(&shown, lines, "{spec} {id}");
            }
        }
        let marked = |subject: &str| {
            commits
                .iter()
                .find(|c| c.lines().next().unwrap().contains(subject))
                .map(|c| c.lines().next().unwrap().to_owned())
                .unwrap_or_else(|| panic!("{subject} not listed: {doc}"))
        };
        assert!(marked("apply black").ends_with("[formatting or comments only]"));
        assert!(marked("document make_str").ends_with("[formatting or comments only]"));
        assert!(marked("add type annotations").ends_with("[type annotations only]"));
        for code in [
            "keep undecodable bytes",
            "decode with the file",
            "add make_str",
        ] {
            assert!(!marked(code).ends_with(']'), "{code}");
        }
    }
    let (out, _) = agent(&env, &repo, &["log", "-L", ":make_str:src/utils.py"]);
    let doc: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        doc["commits"][0]
            .as_str()
            .unwrap()
            .split_once('\n')
            .unwrap()
            .1,
        "@@ -13 +13 @@\n-            sys.getfilesystemencoding(), \"replace\"\n+            sys.getfilesystemencoding(), \"surrogateescape\"\n@@ -15 +15 @@\n-    return str(value)\n+    return repr(value)"
    );
}

// What the grammar does not read, and what asks for git's own format, is git's.
#[test]
fn other_line_range_forms_get_git_s_bytes() {
    let env = TestEnv::new();
    let repo = history(&env);
    for args in [
        vec!["log", "-L", "/def make_str/,+3:src/utils.py"],
        vec!["log", "-L", ":make_str:src/utils.py", "-p"],
        vec!["log", "-L", ":make_str:src/utils.py", "--oneline"],
    ] {
        let (out, answered) = agent(&env, &repo, &args);
        assert!(!answered, "{args:?}");
        let git = repo.git_cmd(&args).output().unwrap().stdout;
        assert_eq!(out, git, "{args:?}");
    }
    // A function git does not find: git's error and exit status.
    let args = ["log", "-L", ":no_such_function:src/utils.py"];
    let shim = env
        .shim_git(&args)
        .env("CLAUDECODE", "1")
        .env_remove(SIZE_CHECK)
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    let git = repo.git_cmd(&args).output().unwrap();
    crate::common::assert_same_output("git log -L :no_such_function", &shim, &git);
}
