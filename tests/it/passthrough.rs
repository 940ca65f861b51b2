//! Passthrough fidelity: through the shim, git behaves byte for byte as git alone.

use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::process::ExitStatusExt;

use crate::common::{TestEnv, assert_same_output, join};

fn fixture(env: &TestEnv) -> crate::common::Repo<'_> {
    let repo = env.repo("repo");
    repo.write("a.txt", "one\ntwo\nthree\n")
        .write("src/lib.rs", "fn main() {}\n");
    repo.commit("first");
    repo.write("a.txt", "one\n2\nthree\nfour\n");
    repo.commit("second\n\nwith a body");
    repo.write("a.txt", "one\n2\nthree\nfour\nfive\n")
        .write("new.txt", "untracked\n");
    repo
}

#[test]
fn everyday_commands_are_byte_identical() {
    let env = TestEnv::new();
    let repo = fixture(&env);
    let cases: &[&[&str]] = &[
        &["status"],
        &["status", "--short"],
        &["log"],
        &["log", "--oneline"],
        &["diff"],
        &["diff", "HEAD~1"],
        &["diff", "--stat", "HEAD~1"],
        &["diff", "--exit-code"],
        &["show", "--stat", "HEAD"],
        &["blame", "a.txt"],
        &["rev-parse", "--verify", "nope"],
        &["nosuchcommand"],
        &["--version"],
        &["-C", "src", "log", "--format=%H %s", "--", "."],
        &["branch", "-a"],
        &["cat-file", "-p", "HEAD"],
        &["config", "--get", "no.such"],
    ];
    for args in cases {
        let shim = env.shim_git(args).current_dir(&repo.dir).output().unwrap();
        let plain = env.plain_git(args).current_dir(&repo.dir).output().unwrap();
        assert_same_output(&format!("git {args:?}"), &shim, &plain);
    }
}

#[test]
fn agent_calls_git_does_not_answer_with_structure_are_byte_identical() {
    let env = TestEnv::new();
    let repo = fixture(&env);
    let cases: &[&[&str]] = &[
        &["status", "--short"],
        &["diff", "--stat", "HEAD~1"],
        &["diff", "--name-only", "HEAD~1"],
        &["diff", "-p", "HEAD~1"],
        &["log", "--oneline"],
        &["log", "-p", "-1"],
        &["show", "HEAD:a.txt"],
        &["blame", "--porcelain", "a.txt"],
        &["rev-parse", "HEAD"],
    ];
    for args in cases {
        let shim = env
            .shim_git(args)
            .env("CLAUDECODE", "1")
            .current_dir(&repo.dir)
            .output()
            .unwrap();
        let plain = env.plain_git(args).current_dir(&repo.dir).output().unwrap();
        assert_same_output(&format!("agent git {args:?}"), &shim, &plain);
    }
}

#[test]
fn a_non_utf8_argument_reaches_git_unchanged() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    repo.write("keep.txt", "x").commit("init");
    let weird = OsString::from_vec(b"\xff.txt".to_vec());
    std::fs::write(repo.dir.join(&weird), "x").unwrap();
    std::fs::write(repo.dir.join("other.txt"), "x").unwrap();
    let out = env
        .shim_git(&["clean", "-f", "--"])
        .arg(&weird)
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !repo.dir.join(&weird).exists(),
        "the \\xff file must be deleted"
    );
    assert!(
        repo.dir.join("other.txt").exists(),
        "nothing else may be deleted"
    );
}

#[test]
fn arguments_and_environment_reach_the_program_unchanged() {
    let env = TestEnv::new();
    let fake_dir = env.root().join("fake");
    let out_dir = env.root().join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let fake = env.script(
        &fake_dir,
        "git",
        "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done > \"$OUT/argv\"\nenv | LC_ALL=C sort > \"$OUT/env\"\n",
    );
    let args: Vec<OsString> = vec![
        "diff".into(),
        OsString::from_vec(b"\xff\xfe".to_vec()),
        "".into(),
        "with space".into(),
        "new\nline".into(),
        "--".into(),
        "-x".into(),
    ];
    let run = |path: OsString, sub: &str| {
        let dir = out_dir.join(sub);
        std::fs::create_dir_all(&dir).unwrap();
        let status = env
            .command("git", &path)
            .args(&args)
            .env("OUT", &dir)
            .status()
            .unwrap();
        assert!(status.success());
        (
            std::fs::read(dir.join("argv")).unwrap(),
            std::fs::read_to_string(dir.join("env")).unwrap(),
        )
    };
    let (plain_argv, plain_env) = run(
        join(&[fake_dir.clone(), "/usr/bin".into(), "/bin".into()]),
        "plain",
    );
    let (shim_argv, shim_env) = run(
        join(&[
            env.shim_dir.clone(),
            fake_dir.clone(),
            "/usr/bin".into(),
            "/bin".into(),
        ]),
        "shim",
    );
    let mut expected = Vec::new();
    for a in &args {
        expected.extend_from_slice(a.as_bytes());
        expected.push(0);
    }
    assert_eq!(plain_argv, expected);
    assert_eq!(shim_argv, expected, "argv must arrive byte for byte");
    let differs_by_design = |l: &&str| l.starts_with("PATH=") || l.starts_with("OUT=");
    let plain: Vec<&str> = plain_env
        .lines()
        .filter(|l| !differs_by_design(l))
        .collect();
    let shim: Vec<&str> = shim_env.lines().filter(|l| !differs_by_design(l)).collect();
    let added: Vec<&&str> = shim.iter().filter(|l| !plain.contains(l)).collect();
    let removed: Vec<&&str> = plain.iter().filter(|l| !shim.contains(l)).collect();
    assert!(removed.is_empty(), "variables lost: {removed:?}");
    let pin = format!("GIT_PRISM_REAL_GIT={}", fake.display());
    assert_eq!(
        added,
        [&"GIT_PRISM_INSIDE_SHIM=1", &pin.as_str()],
        "only the two documented variables are added"
    );
}

#[test]
fn sigpipe_ends_git_as_it_would_alone() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    repo.write("big.txt", "line of text\n".repeat(200_000))
        .commit("big");
    let script = "git cat-file -p HEAD:big.txt | head -c 10 >/dev/null; echo \"${PIPESTATUS[0]}\"";
    let run = |path: OsString| {
        let out = env
            .command("/bin/bash", &path)
            .arg("-c")
            .arg(script)
            .current_dir(&repo.dir)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let plain = run(env.plain_path());
    assert_eq!(plain.trim(), "141", "git alone dies of SIGPIPE");
    assert_eq!(run(env.shim_path()), plain);
}

#[test]
fn signal_dispositions_and_mask_are_inherited_unchanged() {
    let env = TestEnv::new();
    let fake_dir = env.root().join("fake");
    env.script(
        &fake_dir,
        "git",
        // Builtins only: a forked `grep` would race with the shell, which blocks every
        // signal for a moment while it forks.
        "#!/bin/sh\nwhile IFS= read -r line; do case \"$line\" in SigBlk:*|SigIgn:*) printf '%s\\n' \"$line\";; esac; done < /proc/self/status\n",
    );
    // The caller ignores SIGPIPE and SIGINT: git alone inherits that, and so must git through
    // the shim (Rust's runtime would otherwise reset SIGPIPE and the signal mask).
    let script = "trap '' PIPE INT; exec git x";
    let run = |path: OsString| {
        let out = env.sh(script, &path).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let plain = run(join(&[fake_dir.clone(), "/usr/bin".into(), "/bin".into()]));
    let shim = run(join(&[
        env.shim_dir.clone(),
        fake_dir,
        "/usr/bin".into(),
        "/bin".into(),
    ]));
    assert!(plain.contains("SigIgn"), "{plain}");
    assert_eq!(shim, plain);
}

#[test]
fn a_closed_stdout_stays_closed() {
    let env = TestEnv::new();
    let script = "git --version >&-; echo \"status $?\" >&2";
    let plain = env.sh(script, &env.plain_path()).output().unwrap();
    let shim = env.sh(script, &env.shim_path()).output().unwrap();
    assert_same_output("git --version >&-", &shim, &plain);
}

#[test]
fn stdin_reaches_git() {
    let env = TestEnv::new();
    let repo = env.repo("repo");
    let script = "printf 'some data\\n' | git hash-object --stdin";
    let plain = env
        .sh(script, &env.plain_path())
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    let shim = env
        .sh(script, &env.shim_path())
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert_same_output("hash-object --stdin", &shim, &plain);
    assert_eq!(plain.stdout.len(), 41);
}

#[test]
fn exit_status_and_death_by_signal_are_preserved() {
    let env = TestEnv::new();
    let fake_dir = env.root().join("fake");
    env.script(
        &fake_dir,
        "git",
        "#!/bin/sh\ncase \"$1\" in term) kill -TERM $$;; *) exit \"$1\";; esac\n",
    );
    let path = join(&[
        env.shim_dir.clone(),
        fake_dir,
        "/usr/bin".into(),
        "/bin".into(),
    ]);
    for code in [0, 1, 3, 128, 255] {
        let status = env
            .command("git", &path)
            .arg(code.to_string())
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(code));
    }
    let status = env.command("git", &path).arg("term").status().unwrap();
    assert_eq!(
        status.signal(),
        Some(libc::SIGTERM),
        "the shim must be replaced, not wrap git"
    );
}

#[test]
fn a_terminal_stays_a_terminal() {
    let env = TestEnv::new();
    let repo = fixture(&env);
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipping: `script` is not installed");
        return;
    }
    // Under `script`, stdout is a pseudo-terminal: git colours its output for a terminal.
    let cmd = "git -c color.ui=auto status --short; test -t 1 && echo tty";
    let run = |path: OsString| {
        let out = env
            .command("script", &path)
            .args(["-q", "-e", "-c", cmd, "/dev/null"])
            .env("GIT_PAGER", "cat")
            .env("TERM", "xterm")
            .current_dir(&repo.dir)
            .output()
            .unwrap();
        assert!(out.status.success());
        out.stdout
    };
    let plain = run(env.plain_path());
    assert!(
        plain.windows(2).any(|w| w == b"\x1b["),
        "git colours a terminal"
    );
    assert_eq!(run(env.shim_path()), plain);
}
