//! Under the limits a user's sandbox or CI sets (issue 29): with 1 GiB of address space
//! (`ulimit -v 1048576`) the shim still answers, a large file included, and `git-prism serve`
//! starts and answers. Every thread used to reserve a 512 MiB stack for tree-sitter's
//! recursion: under 2 GiB the server could not start and under 1.5 GiB the shim gave git's
//! bytes without a word.

use std::ffi::OsStr;

use serde_json::{Value, json};

use crate::common::{Mcp, Repo, TestEnv, limit_address_space};

/// `ulimit -v 1048576`.
const ONE_GIB: u64 = 1 << 30;

/// A change to Python, Rust and TypeScript files, and one large TypeScript file (parsed on a
/// stack segment of its own; several workers analyse the others).
fn repo(env: &TestEnv) -> Repo<'_> {
    let repo = env.repo("repo");
    repo.write("a.py", "def f():\n    return 1\n")
        .write("b.rs", "fn g() -> u8 {\n    1\n}\n")
        .write("c.ts", "export function h(): number {\n  return 1;\n}\n")
        .commit("one");
    let big: String = (0..6_000)
        .map(|i| format!("export function f{i}(x: number): number {{\n  return x + {i};\n}}\n"))
        .collect();
    assert!(big.len() > 256 * 1024);
    repo.write("a.py", "def f():\n    return 2\n\n\ndef f2():\n    pass\n")
        .write("b.rs", "fn g() -> u8 {\n    2\n}\n\nfn g2() {}\n")
        .write("c.ts", "export function h(): number {\n  return 2;\n}\n")
        .write("big.ts", &big)
        .commit("two");
    repo
}

#[test]
fn the_shim_answers_under_a_one_gib_address_space_limit() {
    let env = TestEnv::new();
    let repo = repo(&env);
    for args in [
        &["show", "HEAD"][..],
        &["diff", "HEAD~1", "HEAD"],
        &["log", "-2"],
        &["blame", "a.py"],
    ] {
        let mut cmd = env.shim_git(args);
        cmd.env("CLAUDECODE", "1")
            .env("GIT_PRISM_DEBUG", "1")
            .env("GIT_PRISM_CACHE", "0")
            .current_dir(&repo.dir);
        limit_address_space(&mut cmd, ONE_GIB);
        let out = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {stderr}");
        assert!(
            stderr.contains("git-prism: structured"),
            "{args:?} gave git's bytes: {stderr}"
        );
        let doc: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {stderr}"));
        if args[0] == "show" {
            // The large file was analysed (its 6,000 functions), not skipped for want of room.
            let summary = doc["summary"].as_str().unwrap_or_default();
            assert!(summary.contains("6002 added"), "{doc}");
        }
    }
}

#[test]
fn the_server_starts_and_answers_under_a_one_gib_address_space_limit() {
    let env = TestEnv::new();
    let repo = repo(&env);
    let mut mcp = Mcp::start_with(
        &env,
        &repo.dir,
        &[OsStr::new("--allow"), repo.dir.as_os_str()],
        |cmd| limit_address_space(cmd, ONE_GIB),
    );
    let path = repo.dir.display().to_string();
    for (tool, args) in [
        (
            "get_change_manifest",
            json!({"repo_path": path, "base_ref": "HEAD~1", "head_ref": "HEAD"}),
        ),
        (
            "get_file_snapshots",
            json!({"repo_path": path, "base_ref": "HEAD~1", "head_ref": "HEAD", "paths": ["big.ts"]}),
        ),
        (
            "get_commit_history",
            json!({"repo_path": path, "base_ref": "HEAD~1", "head_ref": "HEAD"}),
        ),
    ] {
        let (error, text) = mcp.call(tool, args);
        assert!(!error, "{tool}: {text}");
        assert!(!text.contains("no room"), "{tool}: {text:.2000}");
    }
}
