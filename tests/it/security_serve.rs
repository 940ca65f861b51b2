//! The MCP server against a hostile client and hostile repositories (issue 12, items 5 and
//! 9): confinement covers every directory a repository is read from, a line that is not JSON
//! gets a JSON-RPC parse error, echoed values are clipped, and line numbers never run
//! backwards.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{Mcp, TestEnv, bin};

/// What must never be printed: it is only in the repository outside the allowed directory.
const MARKER: &str = "MARKER-outside-the-allowed-root-9b2e";

/// `allowed/` (the one `--allow` directory) and `outside/main` (a repository with the marker
/// in a file and in its commit message).
fn roots(env: &TestEnv) -> (PathBuf, PathBuf) {
    let allowed = env.root().join("allowed");
    std::fs::create_dir_all(&allowed).unwrap();
    let outside = env.repo("outside/main");
    outside.write("secret.txt", format!("{MARKER}\n"));
    outside.commit(&format!("add {MARKER}"));
    outside.write("secret.txt", format!("{MARKER} again\n"));
    outside.commit("second");
    (allowed, outside.dir.clone())
}

fn serve(env: &TestEnv, allowed: &Path) -> Mcp {
    Mcp::start(env, allowed, &[OsStr::new("--allow"), allowed.as_os_str()])
}

/// Asks for the outside repository's content through `repo_path` every way the tools allow;
/// every call must be refused with `what` in its message.
fn assert_refused(mcp: &mut Mcp, repo_path: &Path, what: &str) {
    let repo_path = repo_path.display().to_string();
    let calls = [
        (
            "get_commit_history",
            json!({"repo_path": repo_path, "base_ref": "HEAD~1", "head_ref": "HEAD"}),
        ),
        (
            "get_file_snapshots",
            json!({"repo_path": repo_path, "base_ref": "HEAD~1", "head_ref": "HEAD", "paths": ["secret.txt"]}),
        ),
        (
            "get_change_manifest",
            json!({"repo_path": repo_path, "base_ref": "HEAD~1", "head_ref": "HEAD"}),
        ),
    ];
    for (tool, args) in calls {
        let (error, text) = mcp.call(tool, args);
        assert!(
            !text.contains(MARKER),
            "{tool} served the outside repository"
        );
        assert!(error, "{tool}: {text}");
        assert!(text.contains(what), "{tool}: {text}");
    }
}

#[test]
fn mcp_refuses_a_gitfile_pointing_outside_the_roots() {
    // Only the working tree was confined: a repository inside the allowed root whose `.git`
    // is a file naming a git dir outside served the outside repository.
    let env = TestEnv::new();
    let (allowed, outside) = roots(&env);
    let repo = allowed.join("gitfile");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::write(
        repo.join(".git"),
        format!("gitdir: {}\n", outside.join(".git").display()),
    )
    .unwrap();
    let mut mcp = serve(&env, &allowed);
    assert_refused(&mut mcp, &repo, "reads its git directory from");
}

#[test]
fn mcp_refuses_a_git_dir_git_itself_rejects() {
    // gix accepted `allowed/.git` (its HEAD is `ref: main`, which git rejects); git walked up to
    // the enclosing repository outside the root and its working tree was served.
    let env = TestEnv::new();
    let (_, outside) = roots(&env);
    std::fs::write(
        outside.join("secret.txt"),
        format!("{MARKER} in the work tree\n"),
    )
    .unwrap();
    let allowed = outside.join("inner");
    std::fs::create_dir_all(allowed.join(".git/objects")).unwrap();
    std::fs::create_dir_all(allowed.join(".git/refs")).unwrap();
    std::fs::write(allowed.join(".git/HEAD"), "ref: main\n").unwrap();
    let mut mcp = serve(&env, &allowed);
    assert_refused(&mut mcp, &allowed, "git finds another repository");
    let (error, text) = mcp.call(
        "get_change_manifest",
        json!({"repo_path": allowed.display().to_string(), "base_ref": "4b825dc642cb6eb9a060e54bf8d69288fbee4904"}),
    );
    assert!(error && !text.contains(MARKER), "{text}");
}

#[test]
fn mcp_refuses_alternates_pointing_outside_the_roots() {
    // `objects/info/alternates` naming another repository's objects served them.
    let env = TestEnv::new();
    let (allowed, outside) = roots(&env);
    let repo = allowed.join("shared");
    let out = env
        .command(&env.real_git, &env.plain_path())
        .args(["clone", "-q", "--shared"])
        .arg(&outside)
        .arg(&repo)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(repo.join(".git/objects/info/alternates").exists());
    let mut mcp = serve(&env, &allowed);
    assert_refused(&mut mcp, &repo, "reads its alternate objects from");
}

#[test]
fn mcp_refuses_a_common_dir_outside_the_roots() {
    // A linked worktree whose private git dir is inside but whose `commondir` (refs,
    // objects, config) is outside.
    let env = TestEnv::new();
    let (allowed, outside) = roots(&env);
    let wt = allowed.join("wt");
    let git = |args: &[&OsStr]| {
        let out = env
            .command(&env.real_git, &env.plain_path())
            .current_dir(&outside)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    git(&[
        OsStr::new("worktree"),
        OsStr::new("add"),
        OsStr::new("-q"),
        wt.as_os_str(),
    ]);
    let meta = allowed.join("wt-meta");
    std::fs::rename(outside.join(".git/worktrees/wt"), &meta).unwrap();
    std::fs::write(
        meta.join("commondir"),
        format!("{}\n", outside.join(".git").display()),
    )
    .unwrap();
    std::fs::write(wt.join(".git"), format!("gitdir: {}\n", meta.display())).unwrap();
    let mut mcp = serve(&env, &allowed);
    assert_refused(&mut mcp, &wt, "reads its common directory from");
}

#[test]
fn mcp_allows_a_gitfile_into_another_allowed_root() {
    // Confinement is per directory: a worktree in one allowed root whose git dir is in
    // another allowed root is served.
    let env = TestEnv::new();
    let (allowed, outside) = roots(&env);
    let repo = allowed.join("gitfile");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::write(
        repo.join(".git"),
        format!("gitdir: {}\n", outside.join(".git").display()),
    )
    .unwrap();
    let mut mcp = Mcp::start(
        &env,
        &allowed,
        &[
            OsStr::new("--allow"),
            allowed.as_os_str(),
            OsStr::new("--allow"),
            outside.as_os_str(),
        ],
    );
    let (error, text) = mcp.call(
        "get_commit_history",
        json!({"repo_path": repo.display().to_string(), "base_ref": "HEAD~1", "head_ref": "HEAD"}),
    );
    assert!(!error, "{text}");
}

#[test]
fn mcp_answers_invalid_json_with_a_parse_error_and_keeps_serving() {
    // A line that is not JSON got no answer at all (the client waited forever).
    let env = TestEnv::new();
    let (allowed, _) = roots(&env);
    let mut mcp = serve(&env, &allowed);
    for bad in [
        "this is not json",
        "{\"jsonrpc\": \"2.0\", \"id\": 7,",
        "\u{1}",
    ] {
        mcp.send_line(bad);
        let answer = mcp.next_message();
        assert_eq!(answer["error"]["code"], -32700, "{bad}: {answer}");
        assert!(answer["id"].is_null(), "{answer}");
        assert_eq!(answer["jsonrpc"], "2.0");
    }
    let pong = mcp.request("ping", json!({}));
    assert!(pong.get("result").is_some(), "{pong}");
}

#[test]
fn mcp_errors_quote_a_huge_repo_path_clipped() {
    // The error echoed a 100 KB repo_path in full.
    let env = TestEnv::new();
    let (allowed, _) = roots(&env);
    let mut mcp = serve(&env, &allowed);
    let huge = format!("/nowhere/{}", "x".repeat(100 * 1024));
    for args in [
        json!({"repo_path": huge, "base_ref": "HEAD"}),
        json!({"base_ref": format!("-{}", "y".repeat(100 * 1024))}),
        json!({"base_ref": "HEAD", "include_patterns": [format!("{}\u{0}", "z".repeat(100 * 1024))]}),
        json!({"base_ref": "z".repeat(100 * 1024)}),
    ] {
        let (error, text) = mcp.call("get_change_manifest", args);
        assert!(error, "{text}");
        assert!(text.len() < 3000, "{} bytes: {}", text.len(), &text[..200]);
    }
    let repo = env.repo("allowed/r");
    repo.write("a.txt", "a\n").commit("one");
    let (error, text) = mcp.call(
        "get_file_snapshots",
        json!({"repo_path": repo.dir.display().to_string(), "base_ref": "HEAD",
               "paths": [huge.trim_start_matches('/')]}),
    );
    assert!(error, "{text}");
    assert!(
        text.contains("is longer than 4096 bytes"),
        "{}",
        &text[..300]
    );
    assert!(text.len() < 3000, "{} bytes", text.len());
}

#[test]
fn snapshot_line_numbers_never_run_backwards() {
    // A huge line_range gave first_line > last_line.
    let env = TestEnv::new();
    let repo = env.repo("lines");
    repo.write("a.txt", "1\n2\n3\n").commit("one");
    let check = |side: &Value| {
        assert_eq!(side["total_lines"], 3);
        match (side["first_line"].as_u64(), side["last_line"].as_u64()) {
            (Some(first), Some(last)) => assert!(first <= last, "{side}"),
            (None, None) => assert_eq!(side["content"], ""),
            _ => panic!("{side}"),
        }
    };
    let mut mcp = Mcp::start(&env, &repo.dir, &[]);
    for (start, end) in [
        (1_000_000_000_000_u64, 1_000_000_000_005_u64),
        (4, u64::MAX),
        (2, u64::MAX),
        (3, 3),
    ] {
        let (error, text) = mcp.call(
            "get_file_snapshots",
            json!({"base_ref": "HEAD", "paths": ["a.txt"], "line_range": {"start": start, "end": end}}),
        );
        assert!(!error, "{text}");
        let doc: Value = serde_json::from_str(&text).unwrap();
        check(&doc["files"][0]["before"]);
        check(&doc["files"][0]["after"]);
    }
    let out = env
        .command(bin(), &env.plain_path())
        .args(["snapshot", "HEAD", "--paths", "a.txt", "--line-range"])
        .arg("1000000000000:1000000000005")
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    check(&doc["files"][0]["after"]);
}

#[test]
fn mcp_refuses_a_common_dir_git_reads_elsewhere() {
    // gix trims a linked worktree's `commondir` of trailing spaces, git does not: with
    // `<root>/main/.git ` (a link to a repository outside) git read the outside repository's
    // refs and history while confinement checked the one inside.
    let env = TestEnv::new();
    let (allowed, outside) = roots(&env);
    let main = env.repo("allowed/main");
    main.write("a.txt", "innocent\n");
    main.commit("inside");
    let wt = allowed.join("wt");
    main.git(&["worktree", "add", "-q", wt.to_str().unwrap(), "-b", "wtb"]);
    let spaced = allowed.join("main/.git ");
    std::os::unix::fs::symlink(outside.join(".git"), &spaced).unwrap();
    let admin = main.dir.join(".git/worktrees/wt");
    std::fs::write(
        admin.join("commondir"),
        format!("{} ", main.dir.join(".git").display()),
    )
    .unwrap();
    std::fs::write(admin.join("HEAD"), "ref: refs/heads/main\n").unwrap();
    let mut mcp = serve(&env, &allowed);
    let (error, text) = mcp.call(
        "get_commit_history",
        json!({"repo_path": wt.display().to_string(), "base_ref": "4b825dc642cb6eb9a060e54bf8d69288fbee4904", "head_ref": "main", "format": "full"}),
    );
    assert!(!text.contains(MARKER), "{text}");
    assert!(
        error && text.contains("git finds another repository"),
        "{text}"
    );
}

#[test]
fn mcp_refuses_a_submodule_whose_git_dir_is_outside_the_roots() {
    // A populated submodule's `.git` file may name any repository; git runs `status` in it and
    // its HEAD showed in the answer.
    let env = TestEnv::new();
    let (allowed, outside) = roots(&env);
    let repo = env.repo("allowed/leak");
    repo.write("f", "x\n");
    repo.commit("one");
    let head = repo.git(&["rev-parse", "HEAD"]);
    repo.git(&[
        "update-index",
        "--add",
        "--cacheinfo",
        &format!("160000,{},sub", head.trim()),
    ]);
    repo.git(&["commit", "-q", "-m", "sub"]);
    std::fs::create_dir_all(repo.dir.join("sub")).unwrap();
    std::fs::write(
        repo.dir.join("sub/.git"),
        format!("gitdir: {}\n", outside.join(".git").display()),
    )
    .unwrap();
    let mut mcp = serve(&env, &allowed);
    assert_refused(&mut mcp, &repo.dir, "a submodule's git directory");
}

/// A repository inside the allowed directory whose `.git` is a copy of `outside`'s with `part`
/// (a path under `.git`) replaced by a symlink to the same part of `outside`'s.
fn with_linked_part(
    env: &TestEnv,
    allowed: &Path,
    outside: &Path,
    name: &str,
    part: &str,
) -> PathBuf {
    let repo = allowed.join(name);
    let out = env
        .command(&env.real_git, &env.plain_path())
        .args(["clone", "-q", "--no-local"])
        .arg(outside)
        .arg(&repo)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ours = repo.join(".git").join(part);
    if ours.is_dir() {
        std::fs::remove_dir_all(&ours).unwrap();
    } else if ours.exists() {
        std::fs::remove_file(&ours).unwrap();
    }
    std::os::unix::fs::symlink(outside.join(".git").join(part), &ours).unwrap();
    repo
}

// Issue 22: `.git/objects/pack` (or a fan-out directory, `packed-refs`, a ref) symlinked to
// another repository outside the allowed directories served that repository's content.
#[test]
fn mcp_refuses_symlinks_inside_the_git_directory_that_lead_outside() {
    let env = TestEnv::new();
    let (allowed, outside) = roots(&env);
    // The outside repository's objects packed, its refs packed, so each part holds them.
    for args in [&["gc", "-q"][..], &["pack-refs", "--all"]] {
        let out = env
            .command(&env.real_git, &env.plain_path())
            .args(args)
            .current_dir(&outside)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let mut mcp = serve(&env, &allowed);
    for (name, part) in [
        ("pack", "objects/pack"),
        ("packed-refs", "packed-refs"),
        ("refs", "refs"),
    ] {
        let repo = with_linked_part(&env, &allowed, &outside, name, part);
        assert_refused(
            &mut mcp,
            &repo,
            "outside the directories this server may read",
        );
    }
    // A loose object's fan-out directory.
    let loose = env.repo("outside/loose");
    loose
        .write("secret.txt", format!("{MARKER}\n"))
        .commit("one");
    loose
        .write("secret.txt", format!("{MARKER} 2\n"))
        .commit("two");
    let repo = allowed.join("fanout");
    std::fs::create_dir_all(&repo).unwrap();
    let copy = env
        .command("cp", &env.plain_path())
        .args(["-a"])
        .arg(loose.dir.join(".git"))
        .arg(repo.join(".git"))
        .output()
        .unwrap();
    assert!(copy.status.success());
    let objects = repo.join(".git/objects");
    let fanout = std::fs::read_dir(&objects)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .find(|n| n.len() == 2)
        .unwrap();
    std::fs::remove_dir_all(objects.join(&fanout)).unwrap();
    std::os::unix::fs::symlink(
        loose.dir.join(".git/objects").join(&fanout),
        objects.join(&fanout),
    )
    .unwrap();
    assert_refused(
        &mut mcp,
        &repo,
        "outside the directories this server may read",
    );
}

/// Copies `from`'s `.git` to a new repository `allowed/<name>` and returns it.
fn copy_of(env: &TestEnv, from: &Path, allowed: &Path, name: &str) -> PathBuf {
    let repo = allowed.join(name);
    std::fs::create_dir_all(&repo).unwrap();
    let copy = env
        .command("cp", &env.plain_path())
        .arg("-a")
        .arg(from.join(".git"))
        .arg(repo.join(".git"))
        .output()
        .unwrap();
    assert!(copy.status.success());
    repo
}

/// Replaces `dir` by a symlink to a new directory `stash` (inside the allowed directory) whose
/// entries are symlinks to the same entries of `outside`: the first hop stays inside, the
/// second leaves.
fn link_two_hops(dir: &Path, stash: &Path, outside: &Path) {
    std::fs::create_dir_all(stash).unwrap();
    for entry in std::fs::read_dir(outside).unwrap().flatten() {
        std::os::unix::fs::symlink(entry.path(), stash.join(entry.file_name())).unwrap();
    }
    std::fs::remove_dir_all(dir).unwrap();
    std::os::unix::fs::symlink(stash, dir).unwrap();
}

// Issue 29: a fan-out directory (or the pack directory) linked to a directory inside the
// allowed directory whose files link to another repository's objects outside: the check
// followed the first link and not the ones within, and get_change_manifest and
// get_file_snapshots returned the outside file's content (get_commit_history listed the
// outside commit through the pack directory).
#[test]
fn mcp_refuses_symlinks_two_hops_away_from_the_git_directory() {
    let env = TestEnv::new();
    let (allowed, outside) = roots(&env);
    let mut mcp = serve(&env, &allowed);
    // Loose objects: every fan-out directory of a copy linked through a stash inside.
    let loose = env.repo("outside/loose");
    loose
        .write("secret.txt", format!("{MARKER}\n"))
        .commit(&format!("one {MARKER}"));
    loose
        .write("secret.txt", format!("{MARKER} 2\n"))
        .commit(&format!("two {MARKER}"));
    let repo = copy_of(&env, &loose.dir, &allowed, "fanout");
    let objects = repo.join(".git/objects");
    for entry in std::fs::read_dir(&objects).unwrap().flatten() {
        let name = entry.file_name();
        if name.len() != 2 {
            continue;
        }
        link_two_hops(
            &objects.join(&name),
            &allowed.join("stash/objects").join(&name),
            &loose.dir.join(".git/objects").join(&name),
        );
    }
    assert_refused(
        &mut mcp,
        &repo,
        "outside the directories this server may read",
    );
    // Packs: the pack directory linked through a stash inside.
    let out = env
        .command(&env.real_git, &env.plain_path())
        .args(["gc", "-q"])
        .current_dir(&outside)
        .output()
        .unwrap();
    assert!(out.status.success());
    let repo = copy_of(&env, &outside, &allowed, "packed");
    link_two_hops(
        &repo.join(".git/objects/pack"),
        &allowed.join("stash/pack"),
        &outside.join(".git/objects/pack"),
    );
    assert_refused(
        &mut mcp,
        &repo,
        "outside the directories this server may read",
    );
    // The same layouts with the stash's files copied, not linked, are served: the refusal is
    // about where the files are.
    let stash = allowed.join("stash/pack");
    for entry in std::fs::read_dir(&stash).unwrap().flatten() {
        let target = std::fs::read_link(entry.path()).unwrap();
        std::fs::remove_file(entry.path()).unwrap();
        std::fs::copy(target, entry.path()).unwrap();
    }
    let (error, text) = mcp.call(
        "get_commit_history",
        json!({"repo_path": repo.display().to_string(), "base_ref": "HEAD~1", "head_ref": "HEAD"}),
    );
    assert!(!error, "{text}");
}
