//! The `git-prism` CLI personality and the multi-call dispatch.

use assert_cmd::Command;

use crate::common::{TestEnv, bin, join};

#[test]
fn any_other_name_is_the_cli() {
    let env = TestEnv::new();
    let out = env
        .command(bin(), &env.plain_path())
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("git-prism "));
    let out = env
        .command(bin(), &env.plain_path())
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for cmd in ["shim", "agent-detect"] {
        assert!(help.contains(cmd), "{help}");
    }
    let out = env
        .command(bin(), &env.plain_path())
        .arg("frobnicate")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn hardlinks_copies_and_exe_names_are_the_git_shim() {
    let env = TestEnv::new();
    let dir = env.root().join("names");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::hard_link(bin(), dir.join("git"))
        .or_else(|_| std::fs::copy(bin(), dir.join("git")).map(|_| ()))
        .unwrap();
    std::fs::copy(bin(), dir.join("git-copy")).unwrap();
    std::fs::create_dir_all(dir.join("copy")).unwrap();
    std::fs::rename(dir.join("git-copy"), dir.join("copy/git")).unwrap();
    std::os::unix::fs::symlink(bin(), dir.join("git.exe")).unwrap();
    let expected = env.plain_git(&["--version"]).output().unwrap().stdout;
    for program in [dir.join("git"), dir.join("copy/git"), dir.join("git.exe")] {
        let path = join(&[env.real_dir(), "/usr/bin".into(), "/bin".into()]);
        let out = env
            .command(&program, &path)
            .arg("--version")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}: {}",
            program.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.stdout, expected, "{}", program.display());
    }
}

#[test]
fn agent_detect_prints_json() {
    let cases = [
        (vec![], r#"{"agent":null,"signal":null}"#),
        (
            vec![("CLAUDECODE", "1")],
            r#"{"agent":"claude-code","signal":"CLAUDECODE"}"#,
        ),
        (
            vec![("AGENT", "goose")],
            r#"{"agent":"goose","signal":"AGENT"}"#,
        ),
        (vec![("AGENT", "1")], r#"{"agent":null,"signal":null}"#),
        (
            vec![("CLAUDECODE", "1"), ("CI", "true")],
            r#"{"agent":null,"signal":null}"#,
        ),
    ];
    for (vars, want) in cases {
        let mut cmd = Command::new(bin());
        cmd.env_clear().arg("agent-detect");
        for (k, v) in &vars {
            cmd.env(k, v);
        }
        cmd.assert().success().stdout(format!("{want}\n"));
    }
}
