//! Finding the real git: duplicates, copies, wrappers, relative entries, missing binaries.

use std::time::{Duration, Instant};

use crate::common::{TestEnv, bin, join};

fn version(env: &TestEnv) -> Vec<u8> {
    env.plain_git(&["--version"]).output().unwrap().stdout
}

#[test]
fn duplicate_and_symlinked_alias_entries_work() {
    let env = TestEnv::new();
    let alias = env.root().join("alias");
    std::os::unix::fs::symlink(&env.shim_dir, &alias).unwrap();
    let path = join(&[
        alias,
        env.shim_dir.clone(),
        env.shim_dir.clone(),
        env.real_dir(),
        "/usr/bin".into(),
        "/bin".into(),
    ]);
    let out = env.command("git", &path).arg("--version").output().unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, version(&env));
}

#[test]
fn two_copies_on_path_do_not_exec_each_other() {
    let env = TestEnv::new();
    let a = env.root().join("a");
    let b = env.root().join("b");
    for dir in [&a, &b] {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::copy(bin(), dir.join("git")).unwrap();
    }
    for order in [[&a, &b], [&b, &a]] {
        let path = join(&[
            order[0].clone(),
            order[1].clone(),
            env.real_dir(),
            "/bin".into(),
        ]);
        let started = Instant::now();
        let out = env.command("git", &path).arg("--version").output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.stdout, version(&env));
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}

#[test]
fn a_foreign_wrapper_that_runs_git_again_ends_with_one_clear_error() {
    let env = TestEnv::new();
    let wrap = env.root().join("wrap");
    env.script(&wrap, "git", "#!/bin/sh\nexec git \"$@\"\n");
    let path = join(&[
        env.shim_dir.clone(),
        wrap,
        env.real_dir(),
        "/usr/bin".into(),
        "/bin".into(),
    ]);
    let started = Instant::now();
    let out = env.command("git", &path).arg("--version").output().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "must not loop forever"
    );
    assert_eq!(out.status.code(), Some(127));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("GIT_PRISM_REAL_GIT"), "{stderr}");
}

#[test]
fn relative_and_empty_path_entries_are_never_run() {
    let env = TestEnv::new();
    let cwd = env.root().join("hostile");
    let trap = "#!/bin/sh\ntouch \"$(dirname \"$0\")/PWNED\"\necho pwned\n";
    env.script(&cwd, "git", trap);
    env.script(&cwd.join("bin"), "git", trap);
    let path = std::ffi::OsString::from(format!(
        ".:bin::{}:{}:/usr/bin:/bin",
        env.shim_dir.display(),
        env.real_dir().display()
    ));
    let out = env
        .command(env.shim_dir.join("git"), &path)
        .arg("--version")
        .current_dir(&cwd)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout, version(&env));
    assert!(!cwd.join("PWNED").exists() && !cwd.join("bin/PWNED").exists());
}

#[test]
fn no_real_git_is_127_with_one_line() {
    let env = TestEnv::new();
    let out = env
        .command(env.shim_dir.join("git"), env.shim_dir.as_os_str())
        .arg("status")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(127));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("git-prism: no real `git` found on PATH"),
        "{stderr}"
    );
}

#[test]
fn a_non_executable_git_is_126() {
    let env = TestEnv::new();
    let dir = env.root().join("noexec");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("git"), "#!/bin/sh\n").unwrap();
    let path = join(&[env.shim_dir.clone(), dir]);
    let out = env
        .command(env.shim_dir.join("git"), &path)
        .arg("status")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(126));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not executable"));
}

#[test]
fn a_pinned_real_git_is_used_and_reported() {
    let env = TestEnv::new();
    let out = env
        .shim_git(&["--version"])
        .env("GIT_PRISM_REAL_GIT", &env.real_git)
        .env("GIT_PRISM_DEBUG_RESOLVER", "1")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("git-prism: resolved git: {}\n", env.real_git.display())
    );
}

#[test]
fn gh_passes_through_to_the_real_gh() {
    let env = TestEnv::new();
    let fake = env.root().join("fakegh");
    env.script(&fake, "gh", "#!/bin/sh\necho \"gh $*\"\nexit 4\n");
    let path = join(&[env.shim_dir.clone(), fake, "/usr/bin".into(), "/bin".into()]);
    for (args, agent) in [
        (&["pr", "list"][..], false),
        (&["pr", "diff", "3"][..], false),
        (&["pr", "view", "1"][..], true),
    ] {
        let mut cmd = env.command("gh", &path);
        cmd.args(args);
        if agent {
            cmd.env("CLAUDECODE", "1");
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(4));
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("gh {}\n", args.join(" "))
        );
    }
}
