//! The shim's structured answers, parsed and checked against real git's facts.

use serde_json::Value;

use crate::common::{Repo, TestEnv, join};
use crate::oracle::{compact_facts, git_facts};

/// Runs `git <args>` through the shim as an agent (the test process plays the harness).
fn agent(env: &TestEnv, dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    env.shim_git(args)
        .env("CLAUDECODE", "1")
        .env("GIT_PRISM_DEBUG", "1")
        .current_dir(dir)
        .output()
        .unwrap()
}

/// The JSON answer of `git <args>` run by an agent.
fn answer(env: &TestEnv, dir: &std::path::Path, args: &[&str]) -> Value {
    let out = agent(env, dir, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "git {args:?}: {stderr}");
    assert!(
        stderr.contains("git-prism: structured: "),
        "git {args:?} was not answered: {stderr}"
    );
    assert!(out.stdout.ends_with(b"}\n"), "one object and a newline");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("git {args:?}: {e}"))
}

fn branchy(env: &TestEnv) -> Repo<'_> {
    let repo = env.repo("repo");
    repo.write("src/app.py", "def hello():\n    return 'hi'\n")
        .write(
            "src/lib.rs",
            "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
        )
        .write("docs/readme.md", "# docs\n");
    repo.commit("root");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write(
        "src/app.py",
        "def hello(name):\n    return 'hi ' + name\n\n\ndef bye():\n    return 'bye'\n",
    );
    repo.commit("feature work");
    repo.git(&["checkout", "-q", "main"]);
    repo.write(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a.saturating_add(b)\n}\n",
    );
    repo.commit("main work");
    repo.git(&["merge", "-q", "--no-ff", "-m", "merge feature", "feature"]);
    repo.write("docs/readme.md", "# docs\n\nmore\n");
    repo.commit("docs");
    repo
}

#[test]
fn diff_answers_carry_git_s_facts() {
    let env = TestEnv::new();
    let repo = branchy(&env);
    for args in [
        vec!["diff", "HEAD~2..HEAD"],
        vec!["diff", "HEAD~3", "HEAD"],
        vec!["diff", "HEAD~2...feature"],
        vec!["diff", "HEAD^!"],
        vec!["diff", "^HEAD~2", "HEAD"],
        vec!["diff", "HEAD~3..HEAD", "--", "src"],
    ] {
        let doc = answer(&env, &repo.dir, &args);
        let git_args: Vec<&str> = args[1..].to_vec();
        assert_eq!(
            compact_facts(&doc),
            git_facts(&repo, &repo.dir, &git_args),
            "{args:?}"
        );
        // A change that fits one answer is whole: no `raw`, no summary, nothing cut.
        assert!(doc.get("raw").is_none(), "{doc}");
        assert!(
            doc.get("summary").is_none() && doc.get("next").is_none(),
            "{doc}"
        );
    }
    // A range with no change has git's own (empty) output: nothing said in no bytes.
    let out = agent(&env, &repo.dir, &["diff", "main~1...feature"]);
    assert!(out.status.success() && out.stdout.is_empty());
    // The changed code is inside, each hunk headed by the function it changes.
    let doc = answer(&env, &repo.dir, &["diff", "HEAD~3..HEAD"]);
    let hunk = doc["hunks"]["src/lib.rs"][0].as_str().unwrap();
    assert_eq!(
        hunk, "@@ -2 +2 @@ add\n-    a + b\n+    a.saturating_add(b)",
        "{doc}"
    );
    // A function whose signature changed says so in its hunk's header.
    let hunk = doc["hunks"]["src/app.py"][0].as_str().unwrap();
    assert!(
        hunk.starts_with("@@ -1 +1 @@ signature hello (edited)"),
        "{hunk}"
    );
    // From a subdirectory, with -C, and with GIT_DIR.
    let sub = repo.dir.join("src");
    let doc = answer(&env, &sub, &["diff", "HEAD~3..HEAD", "--", "."]);
    assert_eq!(
        compact_facts(&doc),
        git_facts(&repo, &sub, &["HEAD~3..HEAD", "--", "."])
    );
    let doc = answer(
        &env,
        &env.root(),
        &["-C", repo.dir.to_str().unwrap(), "diff", "HEAD~1..HEAD"],
    );
    assert_eq!(doc["hunks"]["docs/readme.md"][0], "@@ -1 +2 @@\n+\n+more");
    let out = env
        .shim_git(&["diff", "HEAD~1..HEAD"])
        .env("CLAUDECODE", "1")
        .env("GIT_DIR", repo.dir.join(".git"))
        .env("GIT_WORK_TREE", &repo.dir)
        .current_dir(env.root())
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(doc["hunks"]["docs/readme.md"].is_array(), "{doc}");
    // The working tree, with an untracked file: listed, its function in its hunk's header.
    repo.write("src/new.py", "def fresh():\n    pass\n");
    let doc = answer(&env, &repo.dir, &["diff", "HEAD"]);
    assert_eq!(
        doc["files"]["src/"]["? new.py +2 -0"],
        serde_json::json!([]),
        "{doc}"
    );
    assert_eq!(
        doc["hunks"]["src/new.py"][0],
        "@@ -0 +1 @@ added fresh\n+def fresh():\n+    pass"
    );
}

#[test]
fn a_bad_revision_gets_git_s_own_error() {
    let env = TestEnv::new();
    let repo = branchy(&env);
    for args in [
        &["diff", "nope..HEAD"][..],
        &["show", "nope"],
        &["log", "nope..HEAD"],
        &["blame", "nope", "--", "src/app.py"],
    ] {
        let shim = agent(&env, &repo.dir, args);
        let plain = env.plain_git(args).current_dir(&repo.dir).output().unwrap();
        assert_eq!(shim.status.code(), plain.status.code(), "{args:?}");
        assert_eq!(shim.stdout, plain.stdout, "{args:?}");
        let stderr = String::from_utf8_lossy(&shim.stderr);
        assert!(
            stderr.contains("git-prism: passthrough: no structured answer"),
            "{stderr}"
        );
        assert!(
            stderr.ends_with(String::from_utf8_lossy(&plain.stderr).as_ref()),
            "git's own error: {stderr}"
        );
    }
}

#[test]
fn log_lists_what_git_log_lists() {
    let env = TestEnv::new();
    let repo = branchy(&env);
    for args in [
        vec!["log"],
        vec!["log", "HEAD~2..HEAD"],
        vec!["log", "^feature", "main"],
        vec!["log", "main", "--not", "feature"],
        vec!["log", "-n", "2"],
        vec!["log", "--author", "A U Thor"],
        vec!["log", "--since", "2024-01-01T00:00:02Z"],
        vec!["log", "--", "src/app.py"],
    ] {
        let doc = answer(&env, &repo.dir, &args);
        let mut git_args = vec!["log", "--format=%H"];
        git_args.extend_from_slice(&args[1..]);
        let want: Vec<String> = repo
            .git(&git_args)
            .lines()
            .map(|l| l[..12].to_owned())
            .collect();
        let got: Vec<String> = doc["commits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap()[..12].to_owned())
            .collect();
        assert_eq!(got, want, "{args:?}");
        // Everything fits: no `raw`, nothing cut.
        assert!(
            doc.get("raw").is_none() && doc.get("next").is_none(),
            "{doc}"
        );
    }
    // Each commit: its id, day and author, what it changed (functions by name), its message.
    let doc = answer(&env, &repo.dir, &["log"]);
    let merge = doc["commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .find(|c| c.contains("merge feature"))
        .unwrap();
    let sha = repo.git(&["rev-parse", "HEAD~1"]).trim().to_owned();
    assert_eq!(
        merge,
        format!(
            "{} 2024-01-01 A U Thor [merge; M src/app.py +6 -2 (signature hello; added bye)]\nmerge feature",
            &sha[..12]
        ),
        "{doc}"
    );
}

#[test]
fn show_is_the_commit_against_its_first_parent() {
    let env = TestEnv::new();
    let repo = branchy(&env);
    let doc = answer(&env, &repo.dir, &["show", "HEAD~1"]);
    let sha = repo.git(&["rev-parse", "HEAD~1"]).trim().to_owned();
    assert_eq!(doc["commit"], &sha[..12]);
    let parents: Vec<String> = repo
        .git(&["rev-parse", "HEAD~1^1", "HEAD~1^2"])
        .lines()
        .map(|p| p[..12].to_owned())
        .collect();
    assert_eq!(
        doc["parents"],
        serde_json::json!(parents),
        "a merge names its parents"
    );
    assert_eq!(doc["date"], "2024-01-01 00:00 +0000");
    assert_eq!(doc["compared_with"], "its first parent (merge commit)");
    assert_eq!(doc["message"], "merge feature");
    assert_eq!(doc["author"], "A U Thor <author@example.com>");
    assert_eq!(
        compact_facts(&doc),
        git_facts(&repo, &repo.dir, &["HEAD~1^1", "HEAD~1"])
    );
    let root = repo
        .git(&["rev-list", "--max-parents=0", "HEAD"])
        .trim()
        .to_owned();
    let doc = answer(&env, &repo.dir, &["show", &root]);
    assert_eq!(
        compact_facts(&doc).len(),
        3,
        "a root commit adds everything: {doc}"
    );
    assert!(
        doc.get("parents").is_none(),
        "a commit that is no merge: {doc}"
    );
    assert_eq!(doc["compared_with"], "the empty tree (root commit)");
    // The header options that only reshape or suppress the header, and -s.
    let doc = answer(&env, &repo.dir, &["show", "HEAD", "--format=", "-U1"]);
    assert_eq!(
        doc["commit"],
        &repo.git(&["rev-parse", "HEAD"]).trim()[..12]
    );
    assert!(doc.get("message").is_none() && doc.get("author").is_none());
    assert_eq!(
        doc["hunks"]["docs/readme.md"][0],
        "@@ -1 +1 @@\n # docs\n+\n+more"
    );
    let doc = answer(&env, &repo.dir, &["show", "-s", "HEAD"]);
    assert!(doc.get("hunks").is_none());
    assert_eq!(doc["message"], "docs");
    // What it changed, as a log line says it, while that stays within git's own output.
    assert_eq!(doc["changed"], "M docs/readme.md +2 -0", "{doc}");
    // Trees, blobs and `rev:path` go to git.
    for args in [&["show", "HEAD:src/app.py"][..], &["show", "HEAD^{tree}"]] {
        let out = agent(&env, &repo.dir, args);
        let plain = env.plain_git(args).current_dir(&repo.dir).output().unwrap();
        assert_eq!(out.stdout, plain.stdout, "{args:?}");
    }
}

#[test]
fn blame_is_git_s_blame_grouped() {
    let env = TestEnv::new();
    let repo = branchy(&env);
    let doc = answer(&env, &repo.dir, &["blame", "src/app.py"]);
    let porcelain = repo.git(&["blame", "--line-porcelain", "src/app.py"]);
    let shas: Vec<&str> = porcelain
        .lines()
        .filter(|l| l.len() > 40 && l.as_bytes()[40] == b' ')
        .map(|l| &l[..40])
        .collect();
    let content: Vec<&str> = porcelain
        .lines()
        .filter_map(|l| l.strip_prefix('\t'))
        .collect();
    // Each run: `<id> <first>-<last> <function>` and then its lines, git's own.
    let (mut expanded, mut lines, mut functions) = (Vec::new(), Vec::new(), Vec::new());
    for run in doc["lines"].as_array().unwrap() {
        let run = run.as_str().unwrap();
        let (head, text) = run.split_once('\n').unwrap_or((run, ""));
        let mut words = head.split(' ');
        let id = words.next().unwrap().trim_start_matches('^');
        let span = words.next().unwrap();
        let (first, last) = span.split_once('-').unwrap_or((span, span));
        let (first, last): (u32, u32) = (first.parse().unwrap(), last.parse().unwrap());
        for _ in first..=last {
            expanded.push(id.to_owned());
        }
        functions.extend(words.map(|w| w.trim_end_matches(',').to_owned()));
        lines.extend(text.split('\n'));
        assert!(
            doc["commits"][head.split(' ').next().unwrap()].is_string(),
            "{doc}"
        );
    }
    assert_eq!(expanded.len(), shas.len());
    for (got, want) in expanded.iter().zip(&shas) {
        assert!(want.starts_with(got.as_str()));
    }
    assert_eq!(lines, content);
    assert!(
        functions.contains(&"hello".to_owned()) && functions.contains(&"bye".to_owned()),
        "{functions:?}"
    );
    let commit = doc["commits"].as_object().unwrap().values().next().unwrap();
    assert!(
        commit
            .as_str()
            .unwrap()
            .starts_with("A U Thor 2024-01-01: "),
        "{commit}"
    );
    let doc = answer(
        &env,
        &repo.dir,
        &["blame", "-L", "5,6", "HEAD", "--", "src/app.py"],
    );
    let run = doc["lines"][0].as_str().unwrap();
    assert!(run.split(' ').nth(1).unwrap().starts_with("5-6"), "{run}");
    assert!(run.ends_with("\n    return 'bye'"), "{run}");
}

#[test]
fn the_pickaxe_honours_the_term() {
    let env = TestEnv::new();
    let repo = branchy(&env);
    for args in [
        vec!["log", "-S", "bye"],
        vec!["log", "-G", "saturating_add"],
        vec!["log", "-S", "hi", "HEAD~3..HEAD"],
    ] {
        let doc = answer(&env, &repo.dir, &args);
        let mut git_args = vec!["log", "--format=%H"];
        git_args.extend_from_slice(&args[1..]);
        let want: Vec<String> = repo
            .git(&git_args)
            .lines()
            .map(|l| l[..12].to_owned())
            .collect();
        let got: Vec<String> = doc["commits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap()[..12].to_owned())
            .collect();
        assert_eq!(got, want, "{args:?}");
    }
    // Each commit: who, when, the whole message, and the changed lines holding the term, each
    // placed in its function.
    let doc = answer(&env, &repo.dir, &["log", "-S", "bye"]);
    let commit = doc["commits"][0].as_str().unwrap();
    let sha = repo.git(&["log", "-S", "bye", "--format=%h", "--abbrev=12"]);
    assert_eq!(
        commit,
        format!(
            "{} 2024-01-01 A U Thor\nfeature work\nsrc/app.py:5 bye\n+def bye():\n+    return 'bye'",
            sha.trim()
        ),
        "{doc}"
    );
}

#[test]
fn answers_stay_within_the_budget_and_say_how_to_get_the_rest() {
    let env = TestEnv::new();
    let repo = env.repo("big");
    repo.write("seed", "x\n").commit("seed");
    for i in 0..120 {
        repo.write(
            &format!("pkg/module_number_{i:03}.py"),
            format!("def f{i}():\n    return {i}\n"),
        );
    }
    repo.commit("many");
    for i in 0..120 {
        repo.write(
            &format!("pkg/module_number_{i:03}.py"),
            format!("def f{i}():\n    return {i} + {i}\n\n\ndef g{i}():\n    return 0\n"),
        );
    }
    repo.commit("change every module");
    let run = |cursor: Option<&str>| {
        let mut cmd = env.shim_git(&["diff", "HEAD~1..HEAD"]);
        cmd.env("CLAUDECODE", "1")
            .env("GIT_PRISM_MAX_OUTPUT", "4000")
            .current_dir(&repo.dir);
        if let Some(c) = cursor {
            cmd.env("GIT_PRISM_CURSOR", c);
        }
        let out = cmd.output().unwrap();
        assert!(out.stdout.len() <= 4000, "{}", out.stdout.len());
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let doc = run(None);
    // Every file is counted on the first page even though not every one is listed.
    assert!(
        doc["summary"]
            .as_str()
            .unwrap()
            .starts_with("120 files changed")
    );
    assert_eq!(
        doc["directories"]["pkg/"],
        // module 0 returned 0 already: its `return 0` line is context.
        "120 files +599 -119",
        "{doc}"
    );
    // The map comes first, over as many pages as it takes, then the hunks.
    assert!(doc.get("hunks").is_none(), "{doc}");
    assert!(doc["raw"].is_string());
    let next = doc["next"].as_str().unwrap();
    assert!(next.starts_with("GIT_PRISM_CURSOR=gp2-"), "{next}");
    assert!(next.ends_with(" git diff HEAD~1..HEAD"), "{next}");
    // Following the cursor returns the whole map before any hunk (every file once, with its
    // functions), then every file's hunks, each exactly once.
    let mut seen: Vec<String> = Vec::new();
    let mut mapped: Vec<(String, Vec<String>)> = Vec::new();
    let mut interface: Vec<(String, Vec<String>)> = Vec::new();
    let mut hunks_began = false;
    let mut page = doc;
    loop {
        if let Some(api) = page["api"].as_object() {
            assert!(
                !hunks_began,
                "the map went on after the hunks began: {page}"
            );
            assert!(mapped.is_empty(), "the interface comes first: {page}");
            for (path, lines) in api {
                let lines = lines.as_array().unwrap();
                interface.push((
                    path.clone(),
                    lines
                        .iter()
                        .map(|l| l.as_str().unwrap().to_owned())
                        .collect(),
                ));
            }
        }
        if let Some(dirs) = page["files"].as_object() {
            for (dir, files) in dirs {
                let Some(files) = files.as_object() else {
                    continue;
                };
                assert!(
                    !hunks_began,
                    "the map went on after the hunks began: {page}"
                );
                for (line, functions) in files {
                    let functions = functions.as_array().unwrap();
                    mapped.push((
                        format!("{dir}{line}"),
                        functions
                            .iter()
                            .map(|f| f.as_str().unwrap().to_owned())
                            .collect(),
                    ));
                }
            }
        }
        if let Some(hunks) = page["hunks"].as_object() {
            hunks_began = true;
            for (path, list) in hunks {
                for h in list.as_array().unwrap() {
                    seen.push(format!("{path}: {}", h.as_str().unwrap()));
                }
            }
        }
        let Some(next) = page["next"].as_str() else {
            break;
        };
        let cursor = next
            .strip_prefix("GIT_PRISM_CURSOR=")
            .unwrap()
            .split_once(' ')
            .unwrap()
            .0
            .to_owned();
        page = run(Some(&cursor));
    }
    let files: std::collections::BTreeSet<&str> =
        seen.iter().map(|s| s.split_once(':').unwrap().0).collect();
    assert_eq!(files.len(), 120);
    let unique: std::collections::BTreeSet<&String> = seen.iter().collect();
    assert_eq!(unique.len(), seen.len(), "a hunk was shown twice");
    assert_eq!(mapped.len(), 120, "every file is in the map once");
    // The new public functions are the interface, each with its signature, file by file.
    assert_eq!(interface.len(), 120, "{interface:?}");
    for (i, (path, lines)) in interface.iter().enumerate() {
        assert_eq!(path, &format!("pkg/module_number_{i:03}.py"));
        assert_eq!(lines, &[format!("added def g{i}()")]);
    }
    for (i, (line, functions)) in mapped.iter().enumerate() {
        assert_eq!(
            line,
            // Module 0's old `return 0` is the new g0's line to git: nothing removed.
            &if i == 0 {
                "pkg/M module_number_000.py +4 -0".to_owned()
            } else {
                format!("pkg/M module_number_{i:03}.py +5 -1")
            },
            "{functions:?}"
        );
        assert_eq!(functions, &[format!("modified f{i}")], "{line}");
    }
}

#[test]
fn gh_pr_diff_answers_with_the_pull_request_manifest() {
    let env = TestEnv::new();
    let repo = branchy(&env);
    let base = repo.git(&["rev-parse", "main~2"]).trim().to_owned();
    let head = repo.git(&["rev-parse", "feature"]).trim().to_owned();
    let fake = env.root().join("fakegh");
    let log = env.root().join("gh.log");
    env.script(
        &fake,
        "gh",
        &format!(
            "#!/bin/sh\necho \"$@\" >> {log}\ncase \"$1 $2\" in\n  'pr view') echo '{{\"number\":7,\"title\":\"Say hi by name\",\"url\":\"https://example.com/pr/7\",\"baseRefOid\":\"{base}\",\"headRefOid\":\"{head}\",\"baseRefName\":\"main\",\"headRefName\":\"feature\"}}' ;;\n  *) echo \"real gh: $*\" ;;\nesac\n",
            log = log.display()
        ),
    );
    let path = gh_path(&env, fake);
    let run = |args: &[&str], agent: bool| {
        let mut cmd = env.command("gh", &path);
        cmd.args(args)
            .current_dir(&repo.dir)
            .env("GIT_PRISM_DEBUG", "1");
        if agent {
            cmd.env("CLAUDECODE", "1");
        }
        cmd.output().unwrap()
    };
    let out = run(&["pr", "diff", "7"], true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["pull_request"]["number"], 7);
    assert_eq!(doc["pull_request"]["title"], "Say hi by name");
    let merge_base = repo.git(&["merge-base", &base, &head]).trim().to_owned();
    assert_eq!(
        compact_facts(&doc),
        git_facts(&repo, &repo.dir, &[&merge_base, &head])
    );
    assert!(doc.get("raw").is_none(), "a whole answer: {doc}");
    assert_eq!(doc["pull_request"]["merge_base"], &merge_base[..12]);
    let calls = std::fs::read_to_string(&log).unwrap();
    assert!(
        calls.contains(
            "pr view --json number,title,url,baseRefOid,headRefOid,baseRefName,headRefName -- 7"
        ),
        "{calls}"
    );
    // Everything else goes to the real gh untouched.
    for (args, agent) in [
        (&["pr", "diff", "7", "--patch"][..], true),
        (&["pr", "list"], true),
        (&["pr", "diff", "7"], false),
    ] {
        let out = run(args, agent);
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("real gh: {}\n", args.join(" "))
        );
    }
}

// `gh pr diff` answers fetched missing commits with `git fetch origin <oid>` (network, writes to
// the repository, runs `remote.origin.uploadpack`), and passed gh's object ids to git unchecked:
// a `baseRefOid` of `--upload-pack=...` ran a program. Real `gh pr diff` never fetches.
#[test]
fn gh_pr_diff_never_fetches_and_checks_object_ids() {
    let env = TestEnv::new();
    let repo = branchy(&env);
    let marker = env.root().join("fetched");
    let upload = env.script(
        &env.root(),
        "upload-pack",
        &format!(
            "#!/bin/sh\ntouch {}\nexec git-upload-pack \"$@\"\n",
            marker.display()
        ),
    );
    let origin = env.repo("origin");
    origin.write("x", "x\n");
    origin.commit("x");
    repo.git(&["remote", "add", "origin", origin.dir.to_str().unwrap()]);
    repo.git(&[
        "config",
        "remote.origin.uploadpack",
        upload.to_str().unwrap(),
    ]);
    let head = repo.git(&["rev-parse", "feature"]).trim().to_owned();
    let missing = "1234567890abcdef1234567890abcdef12345678";
    let injected = format!("--upload-pack=touch {}", marker.display());
    for (base, head, reason) in [
        (
            missing,
            head.as_str(),
            "of pull request 7 is not in the repository",
        ),
        (
            head.as_str(),
            missing,
            "of pull request 7 is not in the repository",
        ),
        (
            injected.as_str(),
            head.as_str(),
            "gave an invalid object id '--upload-pack=",
        ),
        ("HEAD", head.as_str(), "gave an invalid object id 'HEAD'"),
    ] {
        let fake = env.root().join("fakegh");
        let _ = std::fs::remove_dir_all(&fake);
        env.script(
            &fake,
            "gh",
            &format!(
                "#!/bin/sh\ncase \"$1 $2\" in\n  'pr view') echo '{{\"number\":7,\"baseRefOid\":\"{base}\",\"headRefOid\":\"{head}\"}}' ;;\n  *) echo \"real gh: $*\" ;;\nesac\n"
            ),
        );
        let path = gh_path(&env, fake);
        let out = env
            .command("gh", &path)
            .args(["pr", "diff", "7"])
            .current_dir(&repo.dir)
            .env("CLAUDECODE", "1")
            .env("GIT_PRISM_DEBUG", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "real gh: pr diff 7\n",
            "{base} {head}: {stderr}"
        );
        assert!(
            stderr.contains("git-prism: passthrough: no structured answer: ")
                && stderr.contains(reason),
            "{base} {head}: {stderr}"
        );
        assert!(!marker.exists(), "{base} {head}: something fetched");
    }
}

#[test]
fn show_limited_to_paths_answers_for_those_paths() {
    let env = TestEnv::new();
    let repo = branchy(&env);
    let doc = answer(&env, &repo.dir, &["show", "HEAD~1", "--", "src/app.py"]);
    assert_eq!(
        compact_facts(&doc),
        git_facts(
            &repo,
            &repo.dir,
            &["HEAD~1^1", "HEAD~1", "--", "src/app.py"]
        )
    );
    assert!(doc["hunks"]["src/app.py"].is_array(), "{doc}");
}

// A 2,000-character line under the smallest budget did not fit any page: following `next`
// returned the same cursor again and again.
#[test]
fn paging_always_advances_under_the_smallest_budget() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    repo.write("a.py", format!("x = '{}'\n", "a".repeat(3000)));
    repo.write("b.py", "y = 1\n");
    repo.commit("one");
    repo.write("a.py", format!("x = '{}'\n", "b".repeat(3000)));
    repo.write("b.py", "y = 2\n");
    repo.commit("two");
    let mut cursor: Option<String> = None;
    let mut seen = Vec::new();
    for _ in 0..20 {
        let mut cmd = env.shim_git(&["diff", "HEAD~1..HEAD"]);
        cmd.env("CLAUDECODE", "1")
            .env("GIT_PRISM_MAX_OUTPUT", "1000")
            .current_dir(&repo.dir);
        if let Some(c) = &cursor {
            cmd.env("GIT_PRISM_CURSOR", c);
        }
        let out = cmd.output().unwrap();
        assert!(out.stdout.len() <= 1000, "{}", out.stdout.len());
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        if let Some(h) = doc["hunks"].as_object() {
            seen.extend(h.keys().cloned());
        }
        let next = doc["next"].as_str().map(|n| {
            n.strip_prefix("GIT_PRISM_CURSOR=")
                .unwrap()
                .split_once(' ')
                .unwrap()
                .0
                .to_owned()
        });
        assert!(next.is_none() || next != cursor, "the same page again");
        cursor = next;
        if cursor.is_none() {
            break;
        }
    }
    assert!(cursor.is_none(), "paging never ended");
    assert!(
        seen.contains(&"a.py".to_owned()) && seen.contains(&"b.py".to_owned()),
        "{seen:?}"
    );
}

/// The added and removed lines of git's own `-U1` patch of `path` (headers left out).
fn git_changed_lines(repo: &Repo<'_>, range: &str, path: &str) -> Vec<String> {
    let out = repo
        .git_cmd(&["diff", "-U1", "--no-color", range, "--", path])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut in_hunk = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.starts_with("diff --git ") {
            in_hunk = false;
        } else if line.starts_with("@@ ") {
            in_hunk = true;
        } else if in_hunk && (line.starts_with('+') || line.starts_with('-')) {
            lines.push(line.to_owned());
        }
    }
    lines
}

// Paths with a space lost their hunks (git ends their `---`/`+++` lines with a tab), and a
// link replaced by a file kept only the removal of the link.
#[test]
fn every_changed_line_is_inside_whatever_the_path() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    let names = [
        "a b.txt",
        "ab.txt",
        " lead",
        "trail ",
        "x\ty z",
        "ünï cødé.txt",
        "-- x",
        "q\"uote b.txt",
    ];
    for name in names {
        repo.write(name, "1\n2\n3\n");
    }
    std::os::unix::fs::symlink("ab.txt", repo.dir.join("lnk")).unwrap();
    repo.commit("one");
    for name in names {
        repo.write(name, "1\nX\n3\n");
    }
    std::fs::remove_file(repo.dir.join("lnk")).unwrap();
    repo.write("lnk", "now a file\n");
    repo.write("new dir/with space.txt", "fresh\n");
    repo.git(&["add", "-A"]);
    repo.commit("two");
    for args in [&["diff", "HEAD~1..HEAD"][..], &["show", "HEAD"]] {
        let doc = answer(&env, &repo.dir, args);
        for path in names
            .iter()
            .copied()
            .chain(["lnk", "new dir/with space.txt"])
        {
            // A name with a quote, a backslash or a control character is written as git
            // quotes it (so no two paths print the same).
            let key = if path.contains(['"', '\\', '\t', '\n']) {
                let escaped = path
                    .replace('\\', "\\\\")
                    .replace('"', "\\\"")
                    .replace('\t', "\\t")
                    .replace('\n', "\\n");
                format!("\"{escaped}\"")
            } else {
                path.to_owned()
            };
            let ours: Vec<String> = doc["hunks"][key.as_str()]
                .as_array()
                .unwrap_or_else(|| panic!("{args:?}: no hunks for {path:?}: {doc}"))
                .iter()
                .flat_map(|h| h.as_str().unwrap().lines().skip(1).map(str::to_owned))
                .filter(|l| l.starts_with('+') || l.starts_with('-'))
                .collect();
            assert_eq!(
                ours,
                git_changed_lines(&repo, "HEAD~1..HEAD", path),
                "{args:?} {path:?}"
            );
        }
    }
}

// The cut note listed up to 20 file names whatever their length, past the room kept for it:
// with long paths the first page came out over budget and the agent got git's whole patch.
#[test]
fn every_budget_is_kept_with_long_paths_on_later_pages() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    let dir = format!("src/{}", "deeply_nested_module_directory/".repeat(3));
    let name = |i: usize| format!("{dir}file_with_a_rather_long_name_number_{i:02}.py");
    for i in 0..30 {
        repo.write(&name(i), "def f():\n    return 1\n");
    }
    repo.commit("one");
    for i in 0..30 {
        repo.write(&name(i), "def f():\n    return 2\n");
    }
    repo.commit("two");
    for budget in (2_000..=12_000).step_by(250) {
        let out = env
            .shim_git(&["diff", "HEAD~1..HEAD"])
            .env("CLAUDECODE", "1")
            .env("GIT_PRISM_DEBUG", "1")
            .env("GIT_PRISM_MAX_OUTPUT", budget.to_string())
            .current_dir(&repo.dir)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("git-prism: structured: "),
            "budget {budget}: {stderr}"
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.chars().count() <= budget, "budget {budget}");
    }
}

// `gh pr view` ran without a time limit or an output cap: a hung or endless `gh` held the
// agent's call for ever. Either now gives way to the real `gh`.
#[test]
fn a_hung_or_endless_gh_gives_way_to_the_real_gh() {
    let env = TestEnv::new();
    let repo = branchy(&env);
    for (label, view) in [("hung", "sleep 600"), ("endless", "yes '{\"number\":7,'")] {
        let fake = env.root().join(format!("fakegh-{label}"));
        env.script(
            &fake,
            "gh",
            &format!(
                "#!/bin/sh\ncase \"$1 $2\" in\n  'pr view') exec {view} ;;\n  *) echo \"real gh: $*\" ;;\nesac\n"
            ),
        );
        let path = gh_path(&env, fake);
        let started = std::time::Instant::now();
        let out = env
            .command("gh", &path)
            .args(["pr", "diff", "7"])
            .current_dir(&repo.dir)
            .env("CLAUDECODE", "1")
            .env("GIT_PRISM_DEBUG", "1")
            .env("GIT_PRISM_GIT_TIMEOUT", "2")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "real gh: pr diff 7\n",
            "{label}: {stderr}"
        );
        assert!(
            stderr.contains("ran for more than 2 s") || stderr.contains("printed more than"),
            "{label}: {stderr}"
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "{label}"
        );
    }
}

// The pickaxe's next page was the command with `--skip=<shown>` in front: an earlier `--skip`
// won, so page 3 was page 2 for ever; `-n` and `--reverse` gave other commits than git's.
// `-i` was dropped from the file filter, so every commit came with no files.
#[test]
fn pickaxe_pages_walk_git_s_own_list() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    for i in 0..30 {
        let lines: String = (0..40)
            .map(|k| format!("XTERM {i} {k} {}\n", "padding ".repeat(6)))
            .collect();
        repo.write(&format!("d{i}/f.txt"), lines);
        repo.commit(&format!("c{i}"));
    }
    for extra in [
        &[][..],
        &["-n", "7"],
        &["--skip=3"],
        &["--reverse"],
        &["--skip=2", "-n", "9", "--reverse"],
        &["-i"],
    ] {
        let term = if extra == ["-i"] {
            "-Sxterm"
        } else {
            "-SXTERM"
        };
        let mut args = vec!["log", term];
        args.extend_from_slice(extra);
        let mut git_args = vec!["log", "--format=%H"];
        git_args.extend_from_slice(&args[1..]);
        let want: Vec<String> = repo
            .git(&git_args)
            .lines()
            .map(|l| l[..12].to_owned())
            .collect();
        let mut got: Vec<String> = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..40 {
            let mut cmd = env.shim_git(&args);
            cmd.env("CLAUDECODE", "1")
                .env("GIT_PRISM_MAX_OUTPUT", "3000")
                .current_dir(&repo.dir);
            if let Some(c) = &cursor {
                cmd.env("GIT_PRISM_CURSOR", c);
            }
            let out = cmd.output().unwrap();
            let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
                panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stderr))
            });
            for c in doc["commits"].as_array().unwrap() {
                let c = c.as_str().unwrap();
                assert!(
                    c.to_lowercase().contains("xterm"),
                    "{args:?}: a commit without the term's lines: {c}"
                );
                got.push(c[..12].to_owned());
            }
            cursor = doc["next"].as_str().map(|n| {
                n.strip_prefix("GIT_PRISM_CURSOR=")
                    .unwrap()
                    .split_once(' ')
                    .unwrap()
                    .0
                    .to_owned()
            });
            if cursor.is_none() {
                break;
            }
        }
        assert!(cursor.is_none(), "{args:?}: paging never ended");
        assert_eq!(got, want, "{args:?}");
    }
}

// With several `-L` ranges, the next page asked for one range from the first line not shown to
// the last line, so it blamed the lines between the ranges too.
#[test]
fn blame_pages_keep_several_ranges_apart() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    for i in 0..40 {
        let text: String = (0..60)
            .map(|k| {
                if k % 40 == i {
                    format!("line {k} edited in {i}\n")
                } else {
                    format!("line {k}\n")
                }
            })
            .collect();
        repo.write("f.txt", text);
        repo.commit(&format!("edit {i}"));
    }
    let want = repo.git(&["blame", "--porcelain", "-L", "3,20", "-L", "41,50", "f.txt"]);
    let want_lines: Vec<u64> = want
        .lines()
        .filter(|l| l.len() > 41 && l.as_bytes()[40] == b' ')
        .filter_map(|l| l.split(' ').nth(2)?.parse().ok())
        .collect();
    let mut got_lines: Vec<u64> = Vec::new();
    let mut command = "git blame -L 3,20 -L 41,50 f.txt".to_owned();
    for _ in 0..40 {
        let out = env
            .command("sh", &env.shim_path())
            .args(["-c", &command])
            .env("CLAUDECODE", "1")
            .env("GIT_PRISM_MAX_OUTPUT", "1200")
            .current_dir(&repo.dir)
            .output()
            .unwrap();
        let doc: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{command}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
        for run in doc["lines"].as_array().unwrap() {
            let head = run.as_str().unwrap().lines().next().unwrap();
            let span = head.split(' ').nth(1).unwrap();
            let (first, last) = span.split_once('-').unwrap_or((span, span));
            got_lines.extend(first.parse::<u64>().unwrap()..=last.parse::<u64>().unwrap());
        }
        match doc["next"].as_str() {
            Some(next) => command = next.to_owned(),
            None => break,
        }
    }
    assert_eq!(got_lines, want_lines);
}

// `-R` answers had no hunks (git swaps the `a/` and `b/` prefixes between the sides) and kept
// untracked files as additions; `diff.relative = true` was overridden with `--no-relative`.
#[test]
fn reversed_and_configured_relative_diffs_are_git_s() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    repo.write("sub/a.txt", "1\n2\n3\n").write("top.txt", "t\n");
    repo.commit("one");
    repo.write("sub/a.txt", "1\nX\n3\n").write("top.txt", "u\n");
    repo.commit("two");
    repo.write("sub/scratch.txt", "new\n");
    // A reversed working-tree diff with nothing changed lists no untracked file: it is
    // git's own (empty) output.
    let out = agent(&env, &repo.dir, &["diff", "-R"]);
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    for args in [
        &["diff", "-R", "HEAD~1", "HEAD"][..],
        &["show", "-R", "HEAD"],
    ] {
        let doc = answer(&env, &repo.dir, args);
        let git_args: Vec<&str> = if args[0] == "show" {
            vec!["-R", "HEAD~1", "HEAD"]
        } else {
            args[1..].to_vec()
        };
        assert_eq!(
            compact_facts(&doc),
            git_facts(&repo, &repo.dir, &git_args),
            "{args:?}"
        );
        if args.len() > 2 {
            let ours = doc["hunks"]["sub/a.txt"][0]
                .as_str()
                .unwrap_or_else(|| panic!("{args:?}: {doc}"));
            assert!(ours.contains("\n-X\n+2"), "{args:?}: {ours}");
        }
        assert!(!doc.to_string().contains("scratch"), "{args:?}: {doc}");
    }
    repo.git(&["config", "diff.relative", "true"]);
    let sub = repo.dir.join("sub");
    let doc = answer(&env, &sub, &["diff", "HEAD~1", "HEAD"]);
    assert_eq!(
        compact_facts(&doc),
        git_facts(&repo, &sub, &["HEAD~1", "HEAD"])
    );
    assert!(doc["hunks"]["a.txt"].is_array(), "{doc}");
    assert!(
        doc["hunks"]["a.txt"][0].as_str().unwrap().contains("+X"),
        "{doc}"
    );
    // --no-relative on the command line wins over the configuration, as in git.
    let doc = answer(&env, &sub, &["diff", "--no-relative", "HEAD~1", "HEAD"]);
    assert_eq!(
        compact_facts(&doc),
        git_facts(&repo, &sub, &["--no-relative", "HEAD~1", "HEAD"])
    );
}

/// PATH for a `gh` call: the shim, then the fake `gh` in `fake`, then the real git.
fn gh_path(env: &TestEnv, fake: std::path::PathBuf) -> std::ffi::OsString {
    join(&[
        env.shim_dir.clone(),
        fake,
        env.real_dir(),
        "/usr/bin".into(),
        "/bin".into(),
    ])
}

// A log bigger than one answer: pages walk git's own list, each commit once with its whole
// message, under every page's budget; only paged answers carry `raw`.
#[test]
fn log_pages_walk_git_s_own_list_with_whole_messages() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    for i in 0..25 {
        repo.write("lib.rs", format!("fn f{i}() {{}}\n"));
        repo.commit(&format!(
            "change {i}\n\n{}",
            format!("body line {i} explaining why.\n").repeat(8)
        ));
    }
    let want: Vec<String> = repo
        .git(&["log", "--format=%H"])
        .lines()
        .map(|l| l[..12].to_owned())
        .collect();
    let mut got: Vec<String> = Vec::new();
    let mut cursor: Option<String> = None;
    for page in 0.. {
        assert!(page < 40, "the pages never ended");
        let mut cmd = env.shim_git(&["log"]);
        cmd.env("CLAUDECODE", "1")
            .env("GIT_PRISM_MAX_OUTPUT", "2500")
            .current_dir(&repo.dir);
        if let Some(c) = &cursor {
            cmd.env("GIT_PRISM_CURSOR", c);
        }
        let out = cmd.output().unwrap();
        assert!(out.stdout.len() <= 2500, "{}", out.stdout.len());
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(
            doc["raw"].is_string(),
            "a paged answer says git's command: {doc}"
        );
        for c in doc["commits"].as_array().unwrap() {
            let c = c.as_str().unwrap();
            let i = 24 - got.len();
            assert!(
                c.ends_with(
                    &format!(
                        "\nchange {i}\n\n{}",
                        format!("body line {i} explaining why.\n").repeat(8)
                    )
                    .trim_end()
                ),
                "{c}"
            );
            got.push(c[..12].to_owned());
        }
        match doc["next"].as_str() {
            Some(next) => {
                let c = next
                    .strip_prefix("GIT_PRISM_CURSOR=")
                    .unwrap()
                    .split_once(' ')
                    .unwrap()
                    .0
                    .to_owned();
                assert_ne!(Some(&c), cursor.as_ref(), "the same page again");
                cursor = Some(c);
            }
            None => break,
        }
    }
    assert_eq!(got, want);
}
