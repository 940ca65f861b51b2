//! What the README says about answers, read from the README and checked against the binary and
//! real git (issue 38): the Quick start block run as written in a temporary HOME, the example
//! answers with their sizes, the hunk header, the file lines, an empty change and untracked
//! files.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use crate::common::{Repo, SIZE_CHECK, TestEnv, bin, join};

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

/// The body of the first fenced block of `lang` after the line `heading`.
fn block_after(readme: &str, heading: &str, lang: &str) -> String {
    let at = readme
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("the README has no `{heading}`"));
    let fence = format!("```{lang}\n");
    let start = at + readme[at..].find(&fence).unwrap() + fence.len();
    let end = start + readme[start..].find("```").unwrap();
    readme[start..end].to_owned()
}

/// The body of the first fenced block of `lang` after the text `after`.
fn block_after_text(readme: &str, after: &str, lang: &str) -> String {
    let at = readme
        .find(after)
        .unwrap_or_else(|| panic!("the README does not say `{after}`"));
    let fence = format!("```{lang}\n");
    let start = at + readme[at..].find(&fence).unwrap() + fence.len();
    let end = start + readme[start..].find("```").unwrap();
    readme[start..end].to_owned()
}

/// Asserts the README says `text` (its line breaks as spaces).
fn says(readme: &str, text: &str) {
    let flat = readme.replace('\n', " ");
    assert!(flat.contains(text), "the README no longer says: {text}");
}

/// `git <args>` through the shim as an agent, in `dir`; `weighed`: with the weighing against
/// git's output on, as a release build always has it.
fn agent(env: &TestEnv, dir: &Path, args: &[&str], weighed: bool) -> Output {
    let mut cmd = env.shim_git(args);
    cmd.env("CLAUDECODE", "1").current_dir(dir);
    if weighed {
        cmd.env_remove(SIZE_CHECK);
    }
    cmd.output().unwrap()
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// The lines of an answer's `files`, whichever layout holds them (`{dir: {line: [...]}}`).
fn file_lines(doc: &Value) -> Vec<String> {
    let mut lines = Vec::new();
    match &doc["files"] {
        Value::Array(items) => {
            lines.extend(items.iter().filter_map(|l| l.as_str().map(str::to_owned)))
        }
        Value::Object(dirs) => {
            for (dir, entries) in dirs {
                match entries {
                    Value::Object(entries) => {
                        lines.extend(entries.keys().map(|l| format!("{dir}{l}")));
                    }
                    Value::Array(entries) => lines.extend(
                        entries
                            .iter()
                            .filter_map(|l| l.as_str().map(|l| format!("{dir}{l}"))),
                    ),
                    _ => {}
                }
            }
        }
        _ => {}
    }
    lines
}

fn plain(repo: &Repo<'_>, args: &[&str]) -> Output {
    repo.git_cmd(args).output().unwrap()
}

/// The Quick start, as a person types it: in a shell where `git-prism` is on PATH (as `cargo
/// install` leaves it, through `~/.profile`), each line in turn; `claude` is a stand-in that
/// runs what Claude Code's shell tool runs for `git diff`. The shim must answer it.
#[test]
fn the_quick_start_as_written_makes_the_shim_answer_an_agent() {
    let text = readme();
    let block = block_after(&text, "## Quick start", "sh");
    let lines: Vec<&str> = block.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(
        lines.len() <= 5,
        "the Quick start has {} lines",
        lines.len()
    );
    let env = TestEnv::new();
    let home = &env.home;
    let cargo_bin = home.join(".cargo/bin");
    std::fs::create_dir_all(&cargo_bin).unwrap();
    std::os::unix::fs::symlink(bin(), cargo_bin.join("git-prism")).unwrap();
    // What rustup's installer and an agent's installer leave in the login file.
    std::fs::write(
        home.join(".profile"),
        "export PATH=\"$HOME/.cargo/bin:$HOME/.local/bin:$PATH\"\n",
    )
    .unwrap();
    // The agent: its shell tool runs the command with the agent's marker, its output to the
    // agent (here the test's pipe).
    env.script(
        &home.join(".local/bin"),
        "claude",
        "#!/bin/sh\nCLAUDECODE=1 git diff\n",
    );
    let repo = env.repo("work");
    let body: String = (1..=30).map(|i| format!("x{i} = {i}\n")).collect();
    repo.write("conf.py", &body).commit("init");
    repo.write("conf.py", body.replace("x15 = 15\n", "x15 = 16\n"));
    let bash = ["/bin/bash", "/usr/bin/bash"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .expect("bash is installed");
    let path = join(&[
        cargo_bin.clone(),
        home.join(".local/bin"),
        env.real_dir(),
        "/usr/bin".into(),
        "/bin".into(),
    ]);
    let mut cmd = env.command(bash, &path);
    cmd.env("SHELL", bash)
        .env_remove(SIZE_CHECK)
        .current_dir(&repo.dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(block.as_bytes()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.contains("on PATH: first") && stdout.contains("status: ok"),
        "shim status after the Quick start:\n{stdout}\n{stderr}"
    );
    let answer = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("the agent's git diff got no JSON:\n{stdout}\n{stderr}"));
    let doc: Value = serde_json::from_str(answer).unwrap();
    let hunk = doc["hunks"]["conf.py"][0].as_str().unwrap_or_default();
    assert!(
        hunk.starts_with("@@ -15 +15 @@") && hunk.ends_with("\n-x15 = 15\n+x15 = 16"),
        "{doc}"
    );
    // The person's own git is git's.
    let own = env
        .command(bash, &path)
        .args(["-lc", "git diff"])
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&own.stdout).starts_with("diff --git"),
        "{}",
        String::from_utf8_lossy(&own.stdout)
    );
}

/// The one-line fix of "What an agent gets", built as the README shows it.
fn one_line_fix(env: &TestEnv) -> Repo<'_> {
    let repo = env.repo("fix");
    let ann = |cmd: &mut Command, date: &str| {
        cmd.env("GIT_AUTHOR_NAME", "Ann")
            .env("GIT_AUTHOR_EMAIL", "ann@example.com")
            .env("GIT_COMMITTER_NAME", "Ann")
            .env("GIT_COMMITTER_EMAIL", "ann@example.com")
            .env("GIT_AUTHOR_DATE", date)
            .env("GIT_COMMITTER_DATE", date);
    };
    let lib = "pub fn add(a: u32, b: u32) -> u32 {\n    a + b\n}\n\nfn main() {\n    println!(\"{}\", add(1, 2));\n}\n";
    repo.write("lib.rs", lib);
    repo.git(&["add", "-A"]);
    let mut commit = repo.git_cmd(&["commit", "-q", "-m", "init"]);
    ann(&mut commit, "2026-12-01T16:20:00+0000");
    assert!(commit.status().unwrap().success());
    repo.write("lib.rs", lib.replace("a + b", "a.saturating_add(b)"));
    repo.git(&["add", "-A"]);
    let mut commit = repo.git_cmd(&[
        "commit",
        "-q",
        "-m",
        "Saturate in add\n\nOverflow panicked in debug builds.",
    ]);
    ann(&mut commit, "2026-12-01T16:29:00+0000");
    assert!(commit.status().unwrap().success());
    repo
}

/// `(N bytes, about T tokens; git's own output ...: M bytes, about U)` as the README writes a
/// size, checked against the answer and git's output.
fn check_sizes(readme: &str, what: &str, answer: &[u8], git: &[u8]) {
    let sizes = format!(
        "({} bytes, about {} tokens; git's own output: {} bytes, about {})",
        answer.len(),
        git_prism::tokens::estimate(answer),
        git.len(),
        git_prism::tokens::estimate(git)
    );
    says(readme, &format!("{what} {sizes}"));
}

#[test]
fn the_example_answers_are_what_the_shim_prints() {
    let text = readme();
    let env = TestEnv::new();
    let repo = one_line_fix(&env);
    for (what, args) in [
        (
            "A one-line fix, as an agent's `git show` reads it",
            vec!["show"],
        ),
        ("and its `git log`", vec!["log"]),
    ] {
        let shown: Value = serde_json::from_str(&block_after_text(&text, what, "json"))
            .unwrap_or_else(|e| panic!("the README's JSON after `{what}`: {e}"));
        // As the agent gets it: weighed against git's own output.
        let out = agent(&env, &repo.dir, &args, true);
        let git = plain(&repo, &args);
        assert_eq!(json(&out), shown, "{what}");
        check_sizes(&text, what, &out.stdout, &git.stdout);
    }
}

/// A hunk header keeps git's start lines and drops its counts, as the README says.
#[test]
fn a_hunk_header_is_git_s_start_lines_without_the_counts() {
    let text = readme();
    let (git_header, answer_header) = ("@@ -234 +234,3 @@", "@@ -234 +234 @@");
    says(&text, &format!("git's `{git_header}` is `{answer_header}`"));
    let env = TestEnv::new();
    let repo = env.repo("long");
    let body: String = (1..=240).map(|i| format!("line {i}\n")).collect();
    repo.write("notes.txt", &body).commit("init");
    repo.write(
        "notes.txt",
        body.replace("line 234\n", "line 234a\nline 234b\nline 234c\n"),
    );
    let git = plain(&repo, &["diff", "-U0"]);
    assert!(
        String::from_utf8_lossy(&git.stdout).contains(&format!("\n{git_header}")),
        "{}",
        String::from_utf8_lossy(&git.stdout)
    );
    let doc = json(&agent(&env, &repo.dir, &["diff"], false));
    let hunk = doc["hunks"]["notes.txt"][0].as_str().unwrap();
    assert!(
        hunk.starts_with(&format!("{answer_header}\n"))
            || hunk.starts_with(&format!("{answer_header} ")),
        "{hunk}"
    );
    // What follows is the count: one line removed, three added.
    assert_eq!(hunk.lines().filter(|l| l.starts_with('-')).count(), 1);
    assert_eq!(hunk.lines().filter(|l| l.starts_with('+')).count(), 3);
}

/// The file lines the README shows are the answer's, for a change that has each.
#[test]
fn the_file_lines_the_readme_shows_are_the_answer_s() {
    let text = readme();
    let lines = [
        "A logo.png binary",
        "R097 new.rs <- old/path.rs +2 -1",
        "M Cargo.lock +14 -14 generated:lockfile",
        "? scratch.py +4 -0",
    ];
    for line in lines {
        says(&text, &format!("`{line}`"));
    }
    let env = TestEnv::new();
    let repo = env.repo("files");
    let source: String = (1..=90)
        .map(|i| format!("pub const C{i}: u32 = {i};\n"))
        .collect();
    let lock = |v: u32| -> String {
        (1..=14)
            .map(|i| format!("[[package]]\nname = \"p{i}\"\nversion = \"1.{v}.{i}\"\n\n"))
            .collect()
    };
    repo.write("old/path.rs", &source)
        .write("Cargo.lock", lock(0))
        .commit("init");
    repo.remove("old/path.rs");
    repo.write(
        "new.rs",
        source.replace("C7: u32 = 7;", "C7: u32 = 70;") + "pub const C91: u32 = 91;\n",
    )
    .write("Cargo.lock", lock(1))
    .write_bytes_path(b"logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    repo.git(&["add", "-A"]);
    repo.write("scratch.py", "a = 1\nb = 2\nc = 3\nd = 4\n");
    let doc = json(&agent(&env, &repo.dir, &["diff", "HEAD"], false));
    let files = file_lines(&doc);
    for line in lines {
        assert!(files.iter().any(|f| f == line), "`{line}` not in {files:?}");
    }
}

/// An empty change, and a work tree whose only change git's `git diff` does not show (an
/// untracked file), get git's own output: nothing, exit status 0.
#[test]
fn an_empty_change_gets_git_s_own_output() {
    let text = readme();
    says(
        &text,
        "an empty change, or a work tree whose only change is an untracked file",
    );
    let env = TestEnv::new();
    let repo = env.repo("empty");
    repo.write("a.py", "x = 1\n").commit("init");
    for case in ["nothing changed", "an untracked file"] {
        if case == "an untracked file" {
            repo.write("scratch.py", "a = 1\nb = 2\n");
        }
        let shim = agent(&env, &repo.dir, &["diff"], true);
        let git = plain(&repo, &["diff"]);
        assert_eq!(shim.status.code(), git.status.code(), "{case}");
        assert_eq!(shim.stdout, git.stdout, "{case}");
        assert!(shim.stdout.is_empty(), "{case}");
    }
}

// Issue 38: an empty untracked file got the hunk `@@ -0 +0 @@`, where git shows an empty new
// file without one; a non-empty one's hunk is git's for the file once added.
#[test]
fn an_untracked_file_s_hunk_is_git_s_for_it_added() {
    let env = TestEnv::new();
    let repo = env.repo("untracked");
    repo.write("a.py", "x = 1\n").commit("init");
    repo.write("a.py", "x = 2\n")
        .write("empty.txt", "")
        .write("scratch.py", "a = 1\nb = 2\n");
    let doc = json(&agent(&env, &repo.dir, &["diff"], false));
    assert!(doc["hunks"].get("empty.txt").is_none(), "{doc}");
    assert!(
        file_lines(&doc).iter().any(|l| l == "? empty.txt +0 -0"),
        "{doc}"
    );
    // git, told the files will be added (`add -N`), shows them so.
    repo.git(&["add", "-N", "empty.txt", "scratch.py"]);
    let git = String::from_utf8(plain(&repo, &["diff", "-U0"]).stdout).unwrap();
    let sections: Vec<&str> = git.split("diff --git ").collect();
    let of = |name: &str| {
        *sections
            .iter()
            .find(|s| s.starts_with(&format!("a/{name} ")))
            .unwrap()
    };
    assert!(!of("empty.txt").contains("\n@@"), "{git}");
    assert!(
        of("scratch.py").contains("\n@@ -0,0 +1,2 @@\n+a = 1\n+b = 2\n"),
        "{git}"
    );
    assert_eq!(
        doc["hunks"]["scratch.py"][0], "@@ -0 +1 @@\n+a = 1\n+b = 2",
        "{doc}"
    );
}

/// `shim uninstall` leaves no empty directory of its own and says what stays.
#[test]
fn uninstall_leaves_no_empty_directory_and_lists_what_stays() {
    let env = TestEnv::new();
    let data = env.home.join(".local/share/git-prism");
    let run = |args: &[&str]| {
        let out = env
            .command(bin(), &env.plain_path())
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    run(&["shim", "install", "--no"]);
    assert!(data.join("bin/git").exists());
    let said = run(&["shim", "uninstall"]);
    assert!(!data.exists(), "{said}");
    assert!(
        said.contains(&format!("removed the empty directory {}", data.display())),
        "{said}"
    );
    assert!(said.contains("the binary stays at "), "{said}");
    // A directory that holds something else stays, and uninstall says so.
    run(&["shim", "install", "--no"]);
    std::fs::write(data.join("bin/mine"), "x").unwrap();
    let said = run(&["shim", "uninstall"]);
    assert!(data.join("bin/mine").exists());
    assert!(
        said.contains(&format!(
            "the directory {} stays: it holds files git-prism did not create",
            data.join("bin").display()
        )),
        "{said}"
    );
}
