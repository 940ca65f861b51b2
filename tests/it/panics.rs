//! No panic ends a process: the shim runs the real git, the CLI prints one line.

use crate::common::TestEnv;

// `git diff HEAD~1 -- <25,000-character path>` and `git log -- <2,000 paths>` made the pager
// index an empty page: the shim exited 134 with no output (`panic = "abort"`). Now an answer
// that cannot be built, or cannot fit its budget, is git's own output.
#[test]
fn oversized_command_lines_get_git_s_bytes() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    repo.write("a.txt", "one\n");
    repo.commit("one");
    repo.write("a.txt", "one\ntwo\n");
    repo.commit("two");
    let long = "x".repeat(25_000);
    let paths: Vec<String> = (0..2_000).map(|i| format!("p{i}")).collect();
    let mut log: Vec<&str> = vec!["log", "--"];
    log.extend(paths.iter().map(String::as_str));
    for args in [vec!["diff", "HEAD~1", "--", long.as_str()], log] {
        let shim = env
            .shim_git(&args)
            .env("CLAUDECODE", "1")
            .current_dir(&repo.dir)
            .output()
            .unwrap();
        let plain = env
            .plain_git(&args)
            .current_dir(&repo.dir)
            .output()
            .unwrap();
        crate::common::assert_same_output(&args[0..2].join(" "), &shim, &plain);
    }
}

#[test]
fn the_cli_survives_oversized_pathspecs() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    repo.write("a.txt", "one\n");
    repo.commit("one");
    repo.write("a.txt", "one\ntwo\n");
    repo.commit("two");
    let long = "x".repeat(25_000);
    let out = env
        .command(crate::common::bin(), &env.plain_path())
        .args([
            "manifest",
            "--max-tokens",
            "1000",
            "HEAD~1",
            "HEAD",
            "--",
            &long,
        ])
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(doc["metadata"]["pathspecs"][0].as_str().unwrap().len() < 1000);
}
