//! The fidelity contract end to end: JSON only on the stream the agent's harness holds.
//!
//! The test process plays the harness: it starts the command with the agent marker in the
//! child's environment only, as real harnesses do, and holds the read end of the child's
//! stdout (a pipe, a socket pair or a pseudo-terminal).

use std::path::Path;
use std::process::{Output, Stdio};

use crate::common::{Repo, TestEnv};

const DEBUG_REDIRECTED: &str = "git-prism: passthrough: stdout is redirected";
const DEBUG_STRUCTURED: &str = "git-prism: structured: ";

fn fixture(env: &TestEnv) -> Repo<'_> {
    let repo = env.repo("repo");
    repo.write("sub/a.py", "def a():\n    return 1\n");
    repo.commit("one");
    repo.write("sub/a.py", "def a():\n    return 2\n");
    repo.commit("two");
    repo
}

/// The shells on this machine: dash (Debian's `sh`), bash and zsh when installed.
fn shells() -> Vec<&'static str> {
    [
        "/usr/bin/dash",
        "/bin/dash",
        "/bin/bash",
        "/usr/bin/zsh",
        "/bin/zsh",
    ]
    .into_iter()
    .filter(|p| Path::new(p).exists())
    .fold(Vec::new(), |mut found, p| {
        let name = Path::new(p).file_name();
        if !found
            .iter()
            .any(|q: &&str| Path::new(q).file_name() == name)
        {
            found.push(p);
        }
        found
    })
}

/// Runs `program args...` as the agent's command, harness-style, with stdout on a pipe.
fn agent(env: &TestEnv, dir: &Path, program: &str, args: &[&str]) -> Output {
    let mut cmd = env.command(program, &env.shim_path());
    cmd.args(args)
        .env("CLAUDECODE", "1")
        .env("GIT_PRISM_DEBUG", "1")
        .current_dir(dir);
    cmd.output().unwrap()
}

fn git_bytes(repo: &Repo<'_>, args: &[&str]) -> Vec<u8> {
    let out = repo.git_cmd(args).output().unwrap();
    assert!(out.status.success());
    out.stdout
}

// dash applies `> file` and then execs the last command, so git was the command's top process
// and the old check accepted it without comparing streams: the file got JSON instead of the
// patch. Every shell and every redirect form must leave git's exact bytes in the file.
#[test]
fn a_redirect_under_any_shell_gets_git_s_bytes() {
    let env = TestEnv::new();
    let repo = fixture(&env);
    let patch = git_bytes(&repo, &["diff", "HEAD~1"]);
    let shells = shells();
    assert!(
        shells.iter().any(|s| s.ends_with("dash")),
        "dash is Debian's sh"
    );
    for shell in shells {
        for (script, file, appended) in [
            ("git diff HEAD~1 > o.txt", "o.txt", false),
            ("git diff HEAD~1 >> o.txt", "o.txt", true),
            ("cd sub && git diff HEAD~1 > ../o.txt", "o.txt", false),
            ("exec git diff HEAD~1 > o.txt", "o.txt", false),
            ("exec > o.txt; git diff HEAD~1", "o.txt", false),
            ("git diff HEAD~1 1> o.txt 2>&1", "o.txt", false),
        ] {
            let path = repo.dir.join(file);
            if appended {
                std::fs::write(&path, b"before\n").unwrap();
            } else {
                let _ = std::fs::remove_file(&path);
            }
            let out = agent(&env, &repo.dir, shell, &["-c", script]);
            assert!(out.status.success(), "{shell} -c {script:?}");
            let written = std::fs::read(&path).unwrap();
            let mut want = if appended {
                b"before\n".to_vec()
            } else {
                Vec::new()
            };
            want.extend_from_slice(&patch);
            if script.contains("2>&1") {
                // stderr went into the file too: the debug line, then git's bytes.
                let text = String::from_utf8_lossy(&written).into_owned();
                let (note, rest) = text.split_once('\n').unwrap();
                assert!(
                    note.starts_with(DEBUG_REDIRECTED),
                    "{shell} -c {script:?}: {text}"
                );
                assert_eq!(rest.as_bytes(), patch, "{shell} -c {script:?}");
            } else {
                assert_eq!(
                    String::from_utf8_lossy(&written),
                    String::from_utf8_lossy(&want),
                    "{shell} -c {script:?}"
                );
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert!(stderr.contains(DEBUG_REDIRECTED), "{shell}: {stderr}");
            }
        }
    }
}

#[test]
fn the_agent_s_own_stream_is_answered_under_any_shell() {
    let env = TestEnv::new();
    let repo = fixture(&env);
    for shell in shells() {
        for script in [
            "git diff HEAD~1",
            "exec git diff HEAD~1",
            "cd sub && git diff HEAD~1",
            "true; git diff HEAD~1",
        ] {
            let out = agent(&env, &repo.dir, shell, &["-c", script]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains(DEBUG_STRUCTURED),
                "{shell} -c {script:?}: {stderr}"
            );
            assert!(out.stdout.starts_with(b"{"), "{shell} -c {script:?}");
        }
    }
}

/// A harness written in Python that runs the agent's commands with `shell=True`: `/bin/sh` is
/// dash here, which applies the redirect and execs git.
#[test]
fn a_python_harness_with_shell_true() {
    let env = TestEnv::new();
    let repo = fixture(&env);
    let patch = git_bytes(&repo, &["diff", "HEAD~1"]);
    // Python is the harness (no marker in its own environment); the marker is set for the
    // command only.
    let script = "import os, subprocess, sys\n\
        env = dict(os.environ, CLAUDECODE='1', GIT_PRISM_DEBUG='1')\n\
        subprocess.run('git diff HEAD~1 > py.txt', shell=True, check=True, env=env)\n\
        r = subprocess.run('git diff HEAD~1', shell=True, capture_output=True, check=True, env=env)\n\
        sys.stdout.buffer.write(r.stdout)\n\
        sys.stderr.buffer.write(r.stderr)\n";
    let out = env
        .command("python3", &env.shim_path())
        .args(["-c", script])
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(std::fs::read(repo.dir.join("py.txt")).unwrap(), patch);
    assert!(stderr.contains(DEBUG_STRUCTURED), "{stderr}");
    assert!(
        out.stdout.starts_with(b"{"),
        "the harness's own capture is its stream"
    );
}

/// Node's `child_process` gives children socket pairs, not pipes: a Node harness reading its
/// child's output holds the other end of the pair.
#[test]
fn node_child_process_streams() {
    let env = TestEnv::new();
    let repo = fixture(&env);
    let Some(node) = ["/usr/bin/node", "/usr/local/bin/node"]
        .into_iter()
        .find(|p| Path::new(p).exists())
    else {
        eprintln!("skipped: node is not installed");
        return;
    };
    let patch = git_bytes(&repo, &["diff", "HEAD~1"]);
    // Node is the harness here (no marker in its own environment); the marker is set for the
    // child only.
    let script = "const cp = require('child_process');\n\
        const env = Object.assign({}, process.env, {CLAUDECODE: '1', GIT_PRISM_DEBUG: '1'});\n\
        cp.execSync('git diff HEAD~1 > node.txt', {env, stdio: 'ignore'});\n\
        const r = cp.spawnSync('git', ['diff', 'HEAD~1'], {env});\n\
        process.stdout.write(r.stdout);\n\
        process.stderr.write(r.stderr);\n";
    let out = env
        .command(node, &env.shim_path())
        .args(["-e", script])
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(std::fs::read(repo.dir.join("node.txt")).unwrap(), patch);
    assert!(stderr.contains(DEBUG_STRUCTURED), "{stderr}");
    assert!(
        out.stdout.starts_with(b"{"),
        "node read JSON from its socket pair"
    );
}

/// A harness that runs commands on a pseudo-terminal holds its master side.
#[allow(unsafe_code, reason = "openpty has no wrapper in std")]
#[test]
fn a_pseudo_terminal_held_by_the_harness_is_its_stream() {
    use std::io::Read;
    use std::os::fd::{FromRawFd, OwnedFd};

    let env = TestEnv::new();
    let repo = fixture(&env);
    let (mut master, slave) = {
        let (mut m, mut s) = (0, 0);
        // SAFETY: openpty writes two descriptors on success; the name/termios/winsize
        // arguments may be null.
        let rc = unsafe {
            libc::openpty(
                &mut m,
                &mut s,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        assert_eq!(rc, 0);
        // SAFETY: both descriptors were just opened and are owned here.
        unsafe { (std::fs::File::from_raw_fd(m), OwnedFd::from_raw_fd(s)) }
    };
    let run = |script: &str| -> String {
        let mut child = env
            .command("/bin/sh", &env.shim_path())
            .args(["-c", script])
            .env("CLAUDECODE", "1")
            .env("GIT_PRISM_DEBUG", "1")
            .current_dir(&repo.dir)
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert!(child.wait().unwrap().success());
        err
    };
    let stderr = run("git diff HEAD~1");
    assert!(stderr.contains(DEBUG_STRUCTURED), "{stderr}");
    let stderr = run("git diff HEAD~1 > tty.txt");
    assert!(stderr.contains(DEBUG_REDIRECTED), "{stderr}");
    drop(slave);
    // Drain what reached the terminal so the descriptors close cleanly.
    let mut buf = [0u8; 65536];
    let _ = master.read(&mut buf);
}

/// A harness whose own stdout is not the command's stream (a script running an agent command
/// into a file of its own) does not hold a redirect target the command opened itself.
#[test]
fn a_make_recipe_that_redirects_gets_git_s_bytes() {
    let env = TestEnv::new();
    let repo = fixture(&env);
    let patch = git_bytes(&repo, &["diff", "HEAD~1"]);
    repo.write("Makefile", "review:\n\tgit diff HEAD~1\n");
    let out = agent(
        &env,
        &repo.dir,
        "/bin/sh",
        &["-c", "make -s review > made.txt"],
    );
    assert!(out.status.success());
    assert_eq!(std::fs::read(repo.dir.join("made.txt")).unwrap(), patch);
    let out = agent(&env, &repo.dir, "/bin/sh", &["-c", "make -s review"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(DEBUG_STRUCTURED), "{stderr}");
}

// Agents end commands with `| cat` out of habit (to keep a pager away): trials showed every
// such call lost the answer. A plain `cat` copies its input unchanged to its output, so when
// that output is the harness's stream, the answer is given; any other reader gets git's bytes.
#[test]
fn a_pipe_into_a_plain_cat_on_the_harness_stream_is_answered() {
    let env = TestEnv::new();
    let repo = fixture(&env);
    let patch = git_bytes(&repo, &["diff", "HEAD~1"]);
    for shell in shells() {
        for script in [
            "git diff HEAD~1 | cat",
            "git diff HEAD~1 2>&1 | cat",
            "git diff HEAD~1 | cat -",
            "cd sub && git diff HEAD~1 | /bin/cat",
        ] {
            let out = agent(&env, &repo.dir, shell, &["-c", script]);
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                text.contains("\"hunks\":{"),
                "{shell} -c {script:?}: {text}"
            );
        }
        for script in [
            "git diff HEAD~1 | cat -n",
            "git diff HEAD~1 | head -n 400",
            "git diff HEAD~1 | cat | cat",
        ] {
            let out = agent(&env, &repo.dir, shell, &["-c", script]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains(DEBUG_REDIRECTED),
                "{shell} -c {script:?}: {stderr}"
            );
        }
        let _ = std::fs::remove_file(repo.dir.join("c.txt"));
        let out = agent(
            &env,
            &repo.dir,
            shell,
            &["-c", "git diff HEAD~1 | cat > c.txt"],
        );
        assert!(out.status.success());
        assert_eq!(
            std::fs::read(repo.dir.join("c.txt")).unwrap(),
            patch,
            "{shell}"
        );
    }
}

/// A reader the shell has forked but that becomes `cat` only later (a loaded machine, here a
/// subshell that sleeps first, longer than the wait for a reader that does nothing) is waited
/// for: the shim does not give up on it after 50 ms, nor after the 450 ms a forked reader
/// doing nothing gets.
#[test]
fn a_cat_that_starts_late_is_waited_for() {
    let env = TestEnv::new();
    let repo = fixture(&env);
    for shell in shells() {
        let script = "git diff HEAD~1 | (sleep 0.8; exec cat)";
        let out = agent(&env, &repo.dir, shell, &["-c", script]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("\"hunks\":{"),
            "{shell} -c {script:?}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A reader that reads the pipe before its `cat` (`| (read first; exec cat)`, a `while read`
/// loop) would not copy git's output unchanged: it gets git's bytes.
#[test]
fn a_reader_that_reads_before_its_cat_gets_git_s_bytes() {
    let env = TestEnv::new();
    let repo = fixture(&env);
    let patch = String::from_utf8(git_bytes(&repo, &["diff", "HEAD~1"])).unwrap();
    let rest = patch.split_once('\n').unwrap().1;
    for shell in shells() {
        for (script, expected) in [
            ("git diff HEAD~1 | (read first; exec cat)", rest.to_owned()),
            (
                "git diff HEAD~1 | (head -c 1 >/dev/null; exec cat)",
                patch[1..].to_owned(),
            ),
            (
                "git diff HEAD~1 | while IFS= read -r l; do printf '%s\\n' \"$l\"; done",
                patch.clone(),
            ),
        ] {
            let out = agent(&env, &repo.dir, shell, &["-c", script]);
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                expected,
                "{shell} -c {script:?}"
            );
        }
    }
}
