//! The structured path never runs a program the repository configures.
//!
//! Each test plants a configured program that would create a marker file if it ran, asks for a
//! structured answer, and checks that the answer was structured (so the real git never ran the
//! caller's command itself) and that the marker does not exist.

use std::path::{Path, PathBuf};

use crate::common::{Repo, TestEnv};

/// A shell command that leaves `marker` behind and otherwise behaves like `cat`.
fn marking(marker: &Path) -> String {
    format!("sh -c 'touch {}; cat'", marker.display())
}

/// Runs `git <args>` through the shim as an agent; asserts the answer was structured.
fn structured(env: &TestEnv, dir: &Path, args: &[&str]) -> serde_json::Value {
    let out = env
        .shim_git(args)
        .env("CLAUDECODE", "1")
        .env("GIT_PRISM_DEBUG", "1")
        .current_dir(dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("git-prism: structured: "),
        "git {args:?} was not answered with structure: {stderr}"
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn marker(env: &TestEnv, name: &str) -> PathBuf {
    env.root().join(format!("{name}.ran"))
}

/// A repository whose `.txt` files go through the filter driver `driver` (raw bytes: the name
/// may hold `=` or bytes that are not UTF-8), with a committed file then modified in the work
/// tree so git has to clean it to compare.
fn filtered_repo<'e>(env: &'e TestEnv, driver: &[u8], marker: &Path) -> Repo<'e> {
    use std::os::unix::ffi::OsStrExt;
    let repo = env.repo("repo");
    let mut attributes = b"*.txt filter=".to_vec();
    attributes.extend_from_slice(driver);
    attributes.push(b'\n');
    repo.write(".gitattributes", attributes)
        .write("a.txt", "one\n");
    repo.commit("one");
    for key in ["clean", "smudge"] {
        let mut name = b"filter.".to_vec();
        name.extend_from_slice(driver);
        name.push(b'.');
        name.extend_from_slice(key.as_bytes());
        let out = repo
            .git_cmd(&[])
            .arg("config")
            .arg(std::ffi::OsStr::from_bytes(&name))
            .arg(marking(marker))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    repo.write("a.txt", "one\ntwo\n");
    repo
}

// The drivers were neutralised with `-c filter.<name>.clean=`, which git reads as the key
// `filter.a` when the name contains `=`, and names that are not UTF-8 were dropped: the clean
// filter ran while the structured path diffed the work tree.
#[test]
fn filter_drivers_with_odd_names_never_run() {
    for (label, driver) in [
        ("plain", b"plain".as_slice()),
        ("equals", b"a=b".as_slice()),
        ("dotted", b"x.y".as_slice()),
        ("latin1", b"\xe9t\xe9".as_slice()),
    ] {
        let env = TestEnv::new();
        let marker = marker(&env, label);
        let repo = filtered_repo(&env, driver, &marker);
        let doc = structured(&env, &repo.dir, &["diff"]);
        assert!(doc.to_string().contains("a.txt"), "{label}: {doc}");
        let doc = structured(&env, &repo.dir, &["diff", "HEAD"]);
        assert!(doc.to_string().contains("a.txt"), "{label}: {doc}");
        assert!(!marker.exists(), "{label}: the filter driver ran");
    }
}

// Git checks whether a submodule is dirty by running `git status` inside it, with the
// submodule's own configuration: its filter driver ran although the parent's were neutralised.
#[test]
fn a_submodule_s_own_filter_driver_never_runs() {
    let env = TestEnv::new();
    let marker = marker(&env, "submodule");
    let repo = with_filtered_submodule(&env, &marker);
    let doc = structured(&env, &repo.dir, &["diff"]);
    assert!(doc.to_string().contains("sub"), "{doc}");
    assert!(!marker.exists(), "the submodule's filter driver ran");
    // git itself reports the dirty submodule: the structured answer must say the same.
    let plain = repo.git(&["diff", "--name-only"]);
    assert!(plain.lines().any(|l| l == "sub"), "{plain}");
}

// `git blame` and the pickaxe apply textconv drivers by default: the structured path ran them.
#[test]
fn textconv_never_runs_in_blame_or_the_pickaxe() {
    let env = TestEnv::new();
    let marker = marker(&env, "textconv");
    let repo = env.repo("repo");
    repo.write(".gitattributes", "*.txt diff=tc\n")
        .write("a.txt", "alpha\n");
    repo.commit("one");
    repo.write("a.txt", "alpha\nbeta\n");
    repo.commit("two");
    repo.git(&["config", "diff.tc.textconv", &marking(&marker)]);
    repo.git(&["config", "diff.tc.command", &marking(&marker)]);
    structured(&env, &repo.dir, &["blame", "a.txt"]);
    structured(&env, &repo.dir, &["blame", "HEAD~1", "--", "a.txt"]);
    structured(&env, &repo.dir, &["log", "-S", "beta"]);
    structured(&env, &repo.dir, &["log", "-G", "alpha"]);
    structured(&env, &repo.dir, &["log", "--", "a.txt"]);
    structured(&env, &repo.dir, &["show", "HEAD"]);
    structured(&env, &repo.dir, &["diff", "HEAD~1"]);
    assert!(!marker.exists(), "a textconv or external diff driver ran");
}

// A partial clone fetches missing objects on demand through its promisor remote, which runs
// `remote.origin.uploadpack`: the structured path must report the objects missing instead.
#[test]
fn a_partial_clone_never_fetches_missing_objects() {
    let env = TestEnv::new();
    let marker = marker(&env, "lazy-fetch");
    let origin = env.repo("origin");
    origin.write("a.txt", "one\n");
    origin.commit("one");
    origin.write("a.txt", "one\ntwo\n");
    origin.commit("two");
    origin.git(&["config", "uploadpack.allowFilter", "true"]);
    let clone_dir = env.root().join("clone");
    let url = format!("file://{}", origin.dir.display());
    let out = env
        .plain_git(&[
            "clone",
            "-q",
            "--no-checkout",
            "--filter=blob:none",
            &url,
            clone_dir.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let clone = env.repo_at(&clone_dir);
    // From now on, any fetch runs the marker.
    let upload = env.script(
        &env.root(),
        "upload-pack",
        &format!(
            "#!/bin/sh\ntouch {}\nexec git-upload-pack \"$@\"\n",
            marker.display()
        ),
    );
    clone.git(&[
        "config",
        "remote.origin.uploadpack",
        upload.to_str().unwrap(),
    ]);
    let out = env
        .command(crate::common::bin(), &env.plain_path())
        .args(["manifest", "HEAD~1", "HEAD"])
        .current_dir(&clone_dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the blobs are missing");
    assert!(
        stderr.contains("objects are missing from this partial clone"),
        "{stderr}"
    );
    assert!(!marker.exists(), "the structured path fetched");
}

/// Runs `git <args>` through the shim as an agent; returns (stdout, stderr).
fn as_agent(env: &TestEnv, dir: &Path, args: &[&str]) -> (String, String) {
    let out = env
        .shim_git(args)
        .env("CLAUDECODE", "1")
        .env("GIT_PRISM_DEBUG", "1")
        .current_dir(dir)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Adds `inner` to `repo` as the submodule `sub`, and commits.
fn add_submodule(repo: &Repo<'_>, inner: &Repo<'_>) {
    repo.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        inner.dir.to_str().unwrap(),
        "sub",
    ]);
    repo.commit("add the submodule");
}

/// A repository with a populated submodule `sub` (from `inner`) whose `.txt` files go through
/// the submodule's own filter driver, which leaves `marker` behind.
fn with_filtered_submodule<'e>(env: &'e TestEnv, marker: &Path) -> Repo<'e> {
    let inner = env.repo("inner");
    inner
        .write(".gitattributes", "*.txt filter=sub\n")
        .write("s.txt", "one\n");
    inner.commit("inner");
    let repo = env.repo("repo");
    repo.write("top.rs", "fn a() {}\n");
    repo.commit("top");
    add_submodule(&repo, &inner);
    let sub = env.repo_at(&repo.dir.join("sub"));
    sub.git(&["config", "filter.sub.clean", &marking(marker)]);
    // The same size, so git must read (and clean) the file to know it changed.
    sub.write("s.txt", "owe\n");
    repo.write("top.rs", "fn a() { 1 }\n");
    repo
}

// gix accepted a `.git` directory that git rejects (`HEAD` of `ref: main`), so git walked up to
// the enclosing repository: the checks guarded one repository while git read another, whose
// submodule's filter driver then ran.
#[test]
fn git_and_the_checks_see_the_same_repository() {
    let env = TestEnv::new();
    let marker = marker(&env, "enclosing");
    let repo = with_filtered_submodule(&env, &marker);
    let decoy = repo.dir.join("decoy");
    std::fs::create_dir_all(decoy.join(".git/objects")).unwrap();
    std::fs::create_dir_all(decoy.join(".git/refs")).unwrap();
    std::fs::write(decoy.join(".git/HEAD"), "ref: main\n").unwrap();
    // The CLI, which never passes through: whatever runs, runs on git-prism's account.
    let stderr = cli_fails(&env, &decoy, &["manifest"]);
    assert!(
        !marker.exists(),
        "the enclosing repository's submodule filter ran"
    );
    assert!(stderr.contains("git finds another repository"), "{stderr}");
    // The shim gives the agent git's own answer instead.
    let (_, stderr) = as_agent(&env, &decoy, &["diff"]);
    assert!(
        stderr.contains("git-prism: passthrough: ")
            && stderr.contains("git finds another repository"),
        "{stderr}"
    );
}

/// Runs `git-prism <args>`, which must fail; returns its standard error.
fn cli_fails(env: &TestEnv, dir: &Path, args: &[&str]) -> String {
    let out = env
        .command(crate::common::bin(), &env.plain_path())
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(!out.status.success(), "git-prism {args:?} answered");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

// `git diff -C` (and `--relative`, `--find-copies`) made the hunks come from a `git diff -p` over
// every path; with `diff.submodule=diff` git ran a diff inside the submodule without
// `--no-ext-diff`, and the submodule's external diff driver ran.
#[test]
fn a_submodule_s_external_diff_never_runs() {
    let env = TestEnv::new();
    let marker = marker(&env, "submodule-diff");
    let inner = env.repo("inner");
    inner.write("x.rs", "fn a() {}\n");
    inner.commit("one");
    let repo = env.repo("repo");
    repo.write("m.rs", "fn main() {}\n");
    repo.commit("top");
    add_submodule(&repo, &inner);
    let sub = env.repo_at(&repo.dir.join("sub"));
    sub.write("x.rs", "fn a() { 1; }\n");
    sub.commit("two");
    repo.write("m.rs", "fn main() { 2; }\n");
    repo.git(&["add", "-A"]);
    repo.commit("bump");
    repo.git(&["config", "diff.submodule", "diff"]);
    sub.git(&[
        "config",
        "diff.evil.command",
        &format!("sh -c 'touch {}' --", marker.display()),
    ]);
    let modules = repo.dir.join(".git/modules/sub/info");
    std::fs::create_dir_all(&modules).unwrap();
    std::fs::write(modules.join("attributes"), "*.rs diff=evil\n").unwrap();
    for args in [
        &["diff", "-C", "HEAD~1", "HEAD"][..],
        &["diff", "--relative", "HEAD~1", "HEAD"],
        &["show", "-C", "HEAD"],
    ] {
        let doc = structured(&env, &repo.dir, args);
        assert!(doc.to_string().contains("m.rs"), "{args:?}: {doc}");
        assert!(
            !marker.exists(),
            "{args:?}: the submodule's diff driver ran"
        );
    }
}

// Submodules were followed 8 levels deep and no further, silently: a filter driver in a
// submodule nested deeper ran while git checked whether it was dirty.
#[test]
fn submodules_nested_too_deep_are_refused() {
    let env = TestEnv::new();
    let marker = marker(&env, "deep");
    let depth = 10;
    let names: Vec<String> = (0..=depth)
        .map(|level| format!("top{}", "/s".repeat(level)))
        .collect();
    let dirs: Vec<PathBuf> = names.iter().map(|n| env.root().join(n)).collect();
    for (level, name) in names.iter().enumerate().rev() {
        let repo = env.repo(name);
        if level == depth {
            repo.write(".gitattributes", "* filter=evil\n");
        }
        repo.write("f.txt", format!("level {level}\n"));
        repo.git(&["add", "."]);
        if level < depth {
            let head = env.repo_at(&dirs[level + 1]).git(&["rev-parse", "HEAD"]);
            repo.git(&[
                "update-index",
                "--add",
                "--cacheinfo",
                &format!("160000,{},s", head.trim()),
            ]);
        }
        repo.commit(&format!("level {level}"));
    }
    // Configured last: building the outer repositories checks the nested ones.
    env.repo_at(&dirs[depth])
        .git(&["config", "filter.evil.clean", &marking(&marker)]);
    std::fs::write(dirs[depth].join("f.txt"), "changed\n").unwrap();
    std::fs::write(dirs[0].join("f.txt"), "changed at the top\n").unwrap();
    assert!(
        !marker.exists(),
        "the filter ran while the repositories were built"
    );
    let stderr = cli_fails(&env, &dirs[0], &["manifest"]);
    assert!(!marker.exists(), "a deeply nested submodule's filter ran");
    assert!(stderr.contains("nested more than 8 deep"), "{stderr}");
}

// gix trims trailing spaces from a `.git` file's path and git does not: a submodule whose
// `.git` reads `gitdir: <decoy> ` had its nested submodules listed from the decoy's index, and
// the real nested submodule's filter driver ran.
#[test]
fn a_submodule_s_git_dir_is_the_one_git_reads() {
    let env = TestEnv::new();
    let marker = marker(&env, "nested-behind-decoy");
    let top = env.repo("top");
    top.write("t.txt", "t\n");
    top.commit("t");
    let sub = env.repo("top/sub");
    sub.write("s.txt", "s\n");
    sub.commit("s");
    let decoy = env.root().join("subgit");
    let copied = std::process::Command::new("cp")
        .args(["-a"])
        .arg(sub.dir.join(".git"))
        .arg(&decoy)
        .status()
        .unwrap();
    assert!(copied.success());
    let nested = env.repo("top/sub/nested");
    nested
        .write(".gitattributes", "* filter=x\n")
        .write("f", "hi\n");
    nested.commit("n");
    let head = nested.git(&["rev-parse", "HEAD"]);
    sub.git(&[
        "update-index",
        "--add",
        "--cacheinfo",
        &format!("160000,{},nested", head.trim()),
    ]);
    sub.commit("with nested");
    let real = env.root().join("subgit ");
    std::fs::rename(sub.dir.join(".git"), &real).unwrap();
    std::fs::write(
        sub.dir.join(".git"),
        format!("gitdir: {} \n", decoy.display()),
    )
    .unwrap();
    let head = sub.git(&["rev-parse", "HEAD"]);
    top.git(&[
        "update-index",
        "--add",
        "--cacheinfo",
        &format!("160000,{},sub", head.trim()),
    ]);
    top.commit("add sub");
    nested.git(&["config", "filter.x.clean", &marking(&marker)]);
    nested.write("f", "changed\n");
    let stderr = cli_fails(&env, &top.dir, &["manifest", "HEAD"]);
    assert!(!marker.exists(), "the nested submodule's filter ran");
    assert!(stderr.contains("git finds another repository"), "{stderr}");
}
