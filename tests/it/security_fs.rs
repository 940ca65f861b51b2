//! Hostile working trees and cache directories (issue 12, items 1 and 8): nothing outside the
//! working tree is ever read, a FIFO or an endless file never hangs a command, and the
//! analysis cache never trusts or changes a directory it did not create.
//!
//! Each test puts a marker in a file outside the repository; it must appear in no output.

use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{Mcp, Repo, TestEnv, bin, output_within};

/// What must never be printed.
const MARKER: &str = "MARKER-outside-the-repository-5f1c";

/// A repository whose working tree points outside itself in every way a path can, next to
/// `secret/` (a directory outside the repository holding the marker).
struct Hostile<'a> {
    repo: Repo<'a>,
    secret_file: PathBuf,
}

#[allow(unsafe_code, reason = "mkfifo has no wrapper in std")]
fn hostile(env: &TestEnv) -> Hostile<'_> {
    let secret_dir = env.root().join("secret");
    std::fs::create_dir_all(&secret_dir).unwrap();
    let secret_file = secret_dir.join("key.txt");
    std::fs::write(&secret_file, format!("{MARKER}\n")).unwrap();
    let repo = env.repo("hostile");
    repo.write("a.txt", "tracked\n").commit("one");
    // An untracked symlink to the secret, a symlinked directory, a link to an endless file
    // and a FIFO.
    symlink(&secret_file, repo.dir.join("leak")).unwrap();
    symlink(&secret_dir, repo.dir.join("linkdir")).unwrap();
    symlink("/dev/zero", repo.dir.join("zero")).unwrap();
    let fifo = std::ffi::CString::new(std::os::unix::ffi::OsStrExt::as_bytes(
        repo.dir.join("pipe").as_os_str(),
    ))
    .unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    Hostile { repo, secret_file }
}

/// The paths an attacker asks for, and what each side must say.
fn hostile_paths(h: &Hostile<'_>) -> Vec<String> {
    vec![
        h.secret_file.display().to_string(),
        "../secret/key.txt".into(),
        "linkdir/key.txt".into(),
        "leak".into(),
        "zero".into(),
        "/dev/zero".into(),
        "pipe".into(),
        "a.txt".into(),
    ]
}

fn check_hostile_snapshot(h: &Hostile<'_>, doc: &Value) {
    let files = doc["files"].as_array().unwrap();
    let after = |i: usize| &files[i]["after"];
    // Absolute and `..` paths name nothing inside the repository.
    for i in [0, 1, 5] {
        assert_eq!(after(i)["exists"], false, "{}", files[i]);
        assert!(
            after(i)["reason"]
                .as_str()
                .unwrap()
                .contains("not a path inside the working tree"),
            "{}",
            files[i]
        );
    }
    // A path through a symlinked directory is beyond a symbolic link, as git says.
    assert_eq!(after(2)["exists"], false);
    assert!(
        after(2)["reason"]
            .as_str()
            .unwrap()
            .contains("beyond a symbolic link")
    );
    // Symlinks are links: their content is their target text.
    assert_eq!(after(3)["symlink"], true);
    assert_eq!(
        after(3)["content"],
        h.secret_file.display().to_string().as_str()
    );
    assert_eq!(after(4)["symlink"], true);
    assert_eq!(after(4)["content"], "/dev/zero");
    // A FIFO is not read (and does not block).
    assert_eq!(after(6)["reason"], "not a regular file");
    assert_eq!(after(7)["content"], "tracked\n");
}

fn assert_no_marker(what: &str, bytes: &[u8]) {
    assert!(
        !String::from_utf8_lossy(bytes).contains(MARKER),
        "{what} printed the content of a file outside the repository"
    );
}

#[test]
fn snapshot_cli_never_reads_outside_the_worktree() {
    // `snapshot` read `workdir.join(path)`: absolute paths, `..`, symlinked directories and
    // untracked symlinks all returned the outside file; a FIFO blocked forever and /dev/zero
    // grew until memory ran out.
    let env = TestEnv::new();
    let h = hostile(&env);
    let mut cmd = env.command(bin(), &env.plain_path());
    cmd.arg("snapshot")
        .arg("HEAD")
        .arg("--diff-hunks")
        .arg("--paths")
        .args(hostile_paths(&h))
        .current_dir(&h.repo.dir);
    let out = output_within(&mut cmd, 60);
    assert_no_marker("snapshot", &out.stdout);
    assert_no_marker("snapshot", &out.stderr);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    check_hostile_snapshot(&h, &doc);
    // The untracked link's hunk is its target, as `git diff` shows a new link.
    let leak = &doc["files"][3]["diff_hunks"][0]["lines"];
    assert_eq!(
        leak[0],
        format!("+{}", h.secret_file.display()).as_str(),
        "{leak}"
    );
}

#[test]
fn snapshot_mcp_never_reads_outside_the_worktree() {
    // The same class through `get_file_snapshots` without head_ref, with diff hunks.
    let env = TestEnv::new();
    let h = hostile(&env);
    let mut mcp = Mcp::start(&env, &h.repo.dir, &[]);
    let started = std::time::Instant::now();
    let (error, text) = mcp.call(
        "get_file_snapshots",
        json!({
            "base_ref": "HEAD",
            "paths": hostile_paths(&h),
            "include_diff_hunks": true,
            "max_file_size_bytes": u64::MAX,
        }),
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    assert_no_marker("get_file_snapshots", text.as_bytes());
    assert!(!error, "{text}");
    check_hostile_snapshot(&h, &serde_json::from_str(&text).unwrap());
}

#[test]
fn context_never_reads_through_a_symlinked_directory() {
    // The context scan listed tracked files from the index and read `workdir.join(path)`: a
    // tracked directory replaced by a symlink made it parse the outside files and name their
    // functions as callers. Untracked links and dependency files are checked too.
    let env = TestEnv::new();
    let h = hostile(&env);
    let caller = MARKER.replace('-', "_");
    h.repo
        .write("main.py", "def main():\n    return 1\n")
        .write("sub/x.py", "def inner():\n    return main()\n");
    h.repo.commit("python");
    std::fs::write(
        env.root().join("secret/x.py"),
        format!("from main import main\n\ndef {caller}():\n    return main()\n"),
    )
    .unwrap();
    std::fs::remove_dir_all(h.repo.dir.join("sub")).unwrap();
    symlink(env.root().join("secret"), h.repo.dir.join("sub")).unwrap();
    symlink(env.root().join("secret/x.py"), h.repo.dir.join("mod.py")).unwrap();
    symlink(&h.secret_file, h.repo.dir.join("Cargo.toml")).unwrap();
    h.repo.write("main.py", "def main():\n    return 2\n");
    for args in [
        &["manifest", "HEAD"][..],
        &["context", "HEAD"],
        &["review", "HEAD"],
    ] {
        let mut cmd = env.command(bin(), &env.plain_path());
        cmd.args(args).current_dir(&h.repo.dir);
        let out = output_within(&mut cmd, 60);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for stream in [&out.stdout, &out.stderr] {
            let text = String::from_utf8_lossy(stream);
            assert!(!text.contains(MARKER), "{args:?}: {text}");
            assert!(!text.contains(&caller), "{args:?}: {text}");
        }
    }
}

/// A repository with one Python change between two commits (so a manifest analyses it).
fn python_change(env: &TestEnv) -> Repo<'_> {
    let repo = env.repo("py");
    repo.write("m.py", "def f():\n    return 1\n").commit("one");
    repo.write("m.py", "def f():\n    return 2\n").commit("two");
    repo
}

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .unwrap()
        .permissions()
        .mode()
        & 0o7777
}

#[test]
fn cache_never_chmods_the_directory_it_is_given() {
    // GIT_PRISM_CACHE_DIR=$HOME made the user's home directory 0700.
    let env = TestEnv::new();
    let repo = python_change(&env);
    std::fs::set_permissions(&env.home, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = env
        .command(bin(), &env.plain_path())
        .args(["manifest", "HEAD~1..HEAD"])
        .env("GIT_PRISM_CACHE_DIR", &env.home)
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(mode(&env.home), 0o755);
    let uid = std::fs::metadata(&env.home).unwrap().uid();
    let private = env.home.join(format!("user-{uid}"));
    assert_eq!(mode(&private), 0o700);
    let entries = walk(&private);
    assert!(!entries.is_empty(), "the analysis was cached");
    for e in entries {
        assert_eq!(mode(&e) & 0o077, 0, "{}", e.display());
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if e.file_type().unwrap().is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn cache_with_a_relative_directory_stays_out_of_the_repository() {
    // A relative GIT_PRISM_CACHE_DIR landed inside the inspected repository.
    let env = TestEnv::new();
    let repo = python_change(&env);
    let out = env
        .command(bin(), &env.plain_path())
        .args(["manifest", "HEAD~1..HEAD"])
        .env("GIT_PRISM_CACHE_DIR", "cache")
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!repo.dir.join("cache").exists());
    assert_eq!(repo.git(&["status", "--porcelain", "--ignored"]), "");
}

#[test]
fn cache_never_writes_through_planted_symlinks() {
    // On a shared cache root another user plants the cache's directory names as symlinks to
    // a directory of theirs: entries were written through them (and could be read back from
    // them). Now the cache is off rather than follow one.
    let env = TestEnv::new();
    let repo = python_change(&env);
    let shared = env.root().join("shared");
    let trap = env.root().join("trap");
    std::fs::create_dir_all(&shared).unwrap();
    std::fs::create_dir_all(&trap).unwrap();
    let uid = std::fs::metadata(&env.home).unwrap().uid();
    symlink(&trap, shared.join(format!("user-{uid}"))).unwrap();
    for format in 1..=32 {
        symlink(&trap, shared.join(format!("analysis-v{format}"))).unwrap();
    }
    let out = env
        .command(bin(), &env.plain_path())
        .args(["manifest", "HEAD~1..HEAD"])
        .env("GIT_PRISM_CACHE_DIR", &shared)
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(std::fs::read_dir(&trap).unwrap().count(), 0);
}

#[test]
fn blame_never_analyses_the_file_a_symlink_points_to() {
    // The blame answer read the working-tree file to find each hunk's function and followed a
    // tracked symlink: the outside file's function names appeared in the answer.
    let env = TestEnv::new();
    let repo = env.repo("blame");
    let caller = MARKER.replace('-', "_");
    let outside = env.root().join("outside.py");
    std::fs::write(&outside, format!("def {caller}():\n    pass\n")).unwrap();
    symlink(&outside, repo.dir.join("link.py")).unwrap();
    repo.write("real.py", "def real():\n    pass\n");
    repo.commit("link");
    for path in ["link.py", "real.py"] {
        let out = env
            .shim_git(&["blame", path])
            .env("CLAUDECODE", "1")
            .env("GIT_PRISM_DEBUG", "1")
            .current_dir(&repo.dir)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(stderr.contains("git-prism: structured: "), "{stderr}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(!stdout.contains(&caller), "{stdout}");
        if path == "real.py" {
            // The working tree's own files still get their functions.
            assert!(stdout.contains(" 1-2 real\\n"), "{stdout}");
        }
    }
}

// A FIFO named `.gitignore` blocked the listing of untracked files for ever: the shim hung
// where `git diff` itself does not, and the server never answered. Every git process of an
// answer now has a time limit.
#[test]
fn a_blocking_work_tree_ends_within_the_time_limit() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    repo.write("d/x.rs", "fn a() {}\n");
    repo.commit("one");
    repo.write("d/x.rs", "fn a() { 1 }\n");
    let fifo = repo.dir.join("d/.gitignore");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let started = std::time::Instant::now();
    let out = env
        .shim_git(&["diff"])
        .env("CLAUDECODE", "1")
        .env("GIT_PRISM_DEBUG", "1")
        .env("GIT_PRISM_GIT_TIMEOUT", "2")
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("passthrough") && stderr.contains("ran for more than 2 s"),
        "{stderr}"
    );
    // git's own patch (it never opens the FIFO).
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("diff --git a/d/x.rs"));
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    let out = env
        .command(crate::common::bin(), &env.plain_path())
        .args(["manifest", "HEAD"])
        .env("GIT_PRISM_GIT_TIMEOUT", "2")
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("ran for more than 2 s"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
