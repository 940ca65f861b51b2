//! A session holds the agent, not only its git (issue 34, ADR 19): real sessions started with
//! `git-prism session`, a shell script standing in for the agent, against `app` (write-push,
//! with a bare remote on this machine and a `git daemon` on 127.0.0.1), `lib` (write-local),
//! `ref` (read), `other` (not listed) and a home holding credentials.
//!
//! Every route the issue lists is tried as the agent would try it, and each test shows the
//! rule that holds it alone: with that rule switched off (`GIT_PRISM_TEST_RULE_OFF`, debug
//! builds only) the same script gets through.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{TestEnv, bin};

/// A git daemon serving the test's root, pushes enabled, killed when dropped.
struct Daemon {
    child: std::process::Child,
    port: u16,
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Sandboxed {
    env: TestEnv,
    root: PathBuf,
    app: PathBuf,
    lib: PathBuf,
    reference: PathBuf,
    other: PathBuf,
    remote: PathBuf,
    state: PathBuf,
    tmp: PathBuf,
    scope: PathBuf,
}

impl Sandboxed {
    fn new() -> Sandboxed {
        Sandboxed::with_scope_extra("")
    }

    /// The fixture, with `extra` appended to the scope file's top-level keys.
    fn with_scope_extra(extra: &str) -> Sandboxed {
        let env = TestEnv::new();
        let root = env.root();
        let remote = root.join("remote.git");
        let plain = |args: &[&str], dir: &Path| {
            let out = env
                .command(&env.real_git, &env.plain_path())
                .args(args)
                .current_dir(dir)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        plain(&["init", "-q", "--bare", remote.to_str().unwrap()], &root);
        for name in ["app", "lib", "ref", "other"] {
            let repo = env.repo(name);
            repo.write("README", format!("{name}\n"));
            repo.commit("init");
        }
        let app = root.join("app");
        plain(&["remote", "add", "origin", remote.to_str().unwrap()], &app);
        plain(&["push", "-q", "origin", "main"], &app);
        // Credentials the agent must not read.
        std::fs::create_dir_all(env.home.join(".ssh")).unwrap();
        std::fs::write(env.home.join(".ssh/id_ed25519"), "PRIVATE KEY\n").unwrap();
        std::fs::write(
            env.home.join(".git-credentials"),
            "https://u:TOKEN@example.com\n",
        )
        .unwrap();
        let scope = root.join("scope.toml");
        std::fs::write(
            &scope,
            format!(
                "{extra}\n[[repo]]\npath = \"{}\"\npermission = \"write-push\"\nprotected_paths = [\"sub\"]\n\n[[repo]]\npath = \"{}\"\npermission = \"write-local\"\n\n[[repo]]\npath = \"{}\"\npermission = \"read\"\n\n[[repo]]\npath = \"{}\"\npermission = \"write-local\"\n",
                app.display(),
                root.join("lib").display(),
                root.join("ref").display(),
                remote.display(),
            ),
        )
        .unwrap();
        let tmp = root.join("tmp");
        std::fs::create_dir_all(&tmp).unwrap();
        Sandboxed {
            lib: root.join("lib"),
            reference: root.join("ref"),
            other: root.join("other"),
            state: root.join("state"),
            tmp,
            scope,
            app,
            remote,
            root,
            env,
        }
    }

    /// `git-prism session --scope scope.toml -- sh -c <script>`, from the root, with `vars`
    /// in the session's environment.
    fn run(&self, script: &str, vars: &[(&str, &str)]) -> Output {
        self.run_agent(&["sh", "-c", script], vars)
    }

    fn run_agent(&self, agent: &[&str], vars: &[(&str, &str)]) -> Output {
        let mut cmd = self.env.command(bin(), &self.env.shim_path());
        cmd.args(["session", "--scope"])
            .arg(&self.scope)
            .arg("--")
            .args(agent)
            .current_dir(&self.root)
            .env("GIT_PRISM_STATE_DIR", &self.state)
            .env("TMPDIR", &self.tmp)
            .env("REAL_GIT", &self.env.real_git)
            .env("GIT_PRISM", bin());
        for (k, v) in vars {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    }

    /// The same script with one rule of the sandbox or the guard switched off.
    fn run_without(&self, rule: &str, script: &str) -> Output {
        self.run(script, &[("GIT_PRISM_TEST_RULE_OFF", rule)])
    }

    fn git(&self, dir: &Path, args: &[&str]) -> String {
        let out = self
            .env
            .command(&self.env.real_git, &self.env.plain_path())
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    fn head(&self, dir: &Path) -> String {
        self.git(dir, &["rev-parse", "HEAD"])
    }

    fn remote_main(&self) -> String {
        self.git(&self.remote, &["rev-parse", "main"])
    }

    fn daemon(&self) -> Daemon {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = self
            .env
            .command(&self.env.real_git, &self.env.plain_path())
            .args([
                "daemon",
                "--reuseaddr",
                "--listen=127.0.0.1",
                &format!("--port={port}"),
                &format!("--base-path={}", self.root.display()),
                "--export-all",
                "--enable=receive-pack",
                &self.root.display().to_string(),
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let daemon = Daemon { child, port };
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return daemon;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("the git daemon did not start");
    }
}

fn text(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_read_repository_cannot_be_written_by_the_agent_s_own_tools() {
    let s = Sandboxed::new();
    let readme = s.reference.join("README");
    let script = "echo x >> ref/README; python3 -c \"open('ref/.git/config','a').write('[core]\\n\\tsshCommand = ./p\\n')\"; true";
    let out = s.run(script, &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(std::fs::read_to_string(&readme).unwrap(), "ref\n");
    let config = std::fs::read_to_string(s.reference.join(".git/config")).unwrap();
    assert!(!config.contains("sshCommand"), "{config}");
    // Landlock is what holds it.
    s.run_without("landlock", script);
    assert_eq!(std::fs::read_to_string(&readme).unwrap(), "ref\nx\n");
    let config = std::fs::read_to_string(s.reference.join(".git/config")).unwrap();
    assert!(config.contains("sshCommand"), "{config}");
}

#[test]
fn git_by_its_full_path_cannot_commit_in_a_read_repository() {
    let s = Sandboxed::new();
    let before = s.head(&s.reference);
    let script = "\"$REAL_GIT\" -C ref commit -q --allow-empty -m hack; echo rc=$?";
    let out = s.run(script, &[]);
    assert!(stdout(&out).contains("rc=128"), "{}", text(&out));
    assert_eq!(s.head(&s.reference), before);
    s.run_without("landlock", script);
    assert_ne!(
        s.head(&s.reference),
        before,
        "without Landlock the commit lands"
    );
}

#[test]
fn a_write_repository_s_git_directory_is_read_only_to_the_agent() {
    let s = Sandboxed::new();
    let before = s.head(&s.lib);
    let script = "cd lib && echo new > file && echo rc=$? && \"$REAL_GIT\" add file; \"$REAL_GIT\" commit -q -m direct; echo git=$?; echo '[core]' >> .git/config; echo cfg=$?";
    let out = s.run(script, &[]);
    let o = stdout(&out);
    // The work tree is the agent's; its git directory is not.
    assert!(
        o.contains("rc=0") && o.contains("git=128") && !o.contains("cfg=0"),
        "{}",
        text(&out)
    );
    assert_eq!(s.head(&s.lib), before);
    s.run_without("read-only", script);
    assert_ne!(
        s.head(&s.lib),
        before,
        "without the read-only mount git writes it"
    );
}

#[test]
fn git_by_its_full_path_cannot_push_a_protected_branch() {
    let s = Sandboxed::new();
    let before = s.remote_main();
    // Into the bare repository on this machine: not writable by the agent.
    // A new commit (made through the broker), pushed by git's own binary.
    let script = "cd app && git commit -q --allow-empty -m x && \"$REAL_GIT\" push -q -f origin HEAD:refs/heads/main 2>&1; echo rc=$?";
    let out = s.run(script, &[]);
    assert!(!stdout(&out).contains("rc=0"), "{}", text(&out));
    assert_eq!(s.remote_main(), before);
    // Over the network: a daemon that takes anonymous pushes is not on the agent's ports.
    let d = s.daemon();
    let url = format!("git://127.0.0.1:{}/remote.git", d.port);
    let script = format!(
        "cd app && \"$REAL_GIT\" push -q -f {url} HEAD:refs/heads/net-main 2>&1; echo rc=$?"
    );
    let out = s.run(&script, &[]);
    assert!(!stdout(&out).contains("rc=0"), "{}", text(&out));
    assert!(
        s.git(&s.remote, &["rev-parse", "-q", "--verify", "net-main"])
            .is_empty()
    );
    let out = s.run_without("tcp", &script);
    assert!(stdout(&out).contains("rc=0"), "{}", text(&out));
    assert!(
        !s.git(&s.remote, &["rev-parse", "-q", "--verify", "net-main"])
            .is_empty()
    );
}

#[test]
fn unlisted_repositories_are_invisible() {
    let s = Sandboxed::new();
    let script = "cat other/README; echo rc=$?; ls other | wc -l";
    let out = s.run(script, &[]);
    let o = stdout(&out);
    assert!(
        !o.contains("other\n") && o.contains("rc=1"),
        "{}",
        text(&out)
    );
    let out = s.run_without("hide-unlisted", script);
    assert!(stdout(&out).contains("other\n"), "{}", text(&out));
    // A scope that says so lets the agent read them (never write them).
    let s = Sandboxed::with_scope_extra("unlisted = \"read\"");
    let out = s.run("cat other/README; echo x >> other/README; echo rc=$?", &[]);
    let o = stdout(&out);
    assert!(
        o.contains("other\n") && o.contains("rc=") && !o.contains("rc=0"),
        "{}",
        text(&out)
    );
    assert_eq!(
        std::fs::read_to_string(s.other.join("README")).unwrap(),
        "other\n"
    );
}

#[test]
fn credentials_are_neither_readable_nor_in_the_environment() {
    let s = Sandboxed::new();
    let script =
        "cat ~/.git-credentials ~/.ssh/id_ed25519 2>/dev/null; echo \"token=${GH_TOKEN:-none}\"";
    let vars = [("GH_TOKEN", "gho_SECRET")];
    let out = s.run(script, &vars);
    let o = stdout(&out);
    assert!(
        !o.contains("TOKEN@") && !o.contains("PRIVATE") && o.contains("token=none"),
        "{}",
        text(&out)
    );
    let out = s.run(
        script,
        &[vars[0], ("GIT_PRISM_TEST_RULE_OFF", "hide-credentials")],
    );
    let o = stdout(&out);
    assert!(
        o.contains("TOKEN@") && o.contains("PRIVATE"),
        "{}",
        text(&out)
    );
    let out = s.run(script, &[vars[0], ("GIT_PRISM_TEST_RULE_OFF", "env")]);
    assert!(stdout(&out).contains("token=gho_SECRET"), "{}", text(&out));
}

#[test]
fn a_configuration_key_that_names_a_program_cannot_be_set() {
    let s = Sandboxed::new();
    let script = "cd lib && git config core.sshCommand ./p; echo rc=$?; git config push.recurseSubmodules on-demand; echo rc2=$?";
    let out = s.run(script, &[]);
    let o = stdout(&out);
    assert!(o.contains("rc=1") && o.contains("rc2=1"), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("is not a setting this guard knows to run nothing"),
        "{}",
        text(&out)
    );
    assert!(
        s.git(&s.lib, &["config", "--get", "core.sshCommand"])
            .is_empty()
    );
    s.run_without("config-writes", script);
    assert_eq!(
        s.git(&s.lib, &["config", "--get", "core.sshCommand"]),
        "./p"
    );
}

/// A program named in a configuration file the agent can edit (an include in the work tree)
/// never runs with what the broker's calls are given: the fetch runs with the start's setting.
#[test]
fn a_program_set_through_an_included_file_does_not_run() {
    let s = Sandboxed::new();
    s.git(&s.lib, &["config", "include.path", "../team.gitconfig"]);
    // Where the broker's git may write (the temporary directory every call gets).
    let marker = s.tmp.join("pwned");
    let script = format!(
        "cd lib && printf '#!/bin/sh\\ntouch {m}\\nexit 1\\n' > p && chmod +x p && printf '[core]\\n\\tsshCommand = {lib}/p\\n' > team.gitconfig && git ls-remote ssh://127.0.0.1:9/x >/dev/null 2>&1; echo done",
        m = marker.display(),
        lib = s.lib.display()
    );
    let out = s.run(&script, &[]);
    assert!(stdout(&out).contains("done"), "{}", text(&out));
    assert!(
        !marker.exists(),
        "the agent's ssh command ran: {}",
        text(&out)
    );
    s.run_without("config-drift", &script);
    assert!(marker.exists(), "without the rule the program runs");
}

/// The environment's configuration entries are the session's: a call that keeps the count and
/// changes an entry is refused; and the broker's git never finds a program in a directory the
/// agent writes, even where the session's PATH names one.
#[test]
fn the_broker_s_git_runs_only_the_session_s_programs() {
    let s = Sandboxed::new();
    let marker = s.tmp.join("pwned");
    let script = format!(
        "cd lib && GIT_CONFIG_KEY_0=core.sshCommand GIT_CONFIG_VALUE_0='touch {m}' git ls-remote ssh://127.0.0.1:9/x >/dev/null 2>&1; echo rc=$?",
        m = marker.display()
    );
    let out = s.run(
        &script,
        &[
            ("GIT_CONFIG_COUNT", "1"),
            ("GIT_CONFIG_KEY_0", "user.name"),
            ("GIT_CONFIG_VALUE_0", "Me"),
        ],
    );
    assert!(stdout(&out).contains("rc=1"), "{}", text(&out));
    assert!(!marker.exists(), "{}", text(&out));
    // A directory of the agent's on the session's PATH.
    let bin_dir = s.lib.join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        s.env.shim_path().to_string_lossy()
    );
    let mut cmd = s.env.command(bin(), std::ffi::OsStr::new(&path));
    cmd.args(["session", "--scope"])
        .arg(&s.scope)
        .args([
            "--",
            "sh",
            "-c",
            &format!(
                "cd lib && printf '#!/bin/sh\\ntouch {m}\\nexit 1\\n' > bin/ssh && chmod +x bin/ssh && git ls-remote ssh://127.0.0.1:9/x >/dev/null 2>&1; echo done",
                m = marker.display()
            ),
        ])
        .current_dir(&s.root)
        .env("GIT_PRISM_STATE_DIR", &s.state)
        .env("TMPDIR", &s.tmp);
    let out = cmd.output().unwrap();
    assert!(stdout(&out).contains("done"), "{}", text(&out));
    assert!(!marker.exists(), "the agent's ssh ran: {}", text(&out));
}

/// `push.recurseSubmodules` from the configuration is judged as `--recurse-submodules` on the
/// command line would be.
#[test]
fn submodule_recursion_from_the_configuration_is_judged() {
    let s = Sandboxed::new();
    s.git(&s.app, &["config", "include.path", "../team.gitconfig"]);
    let script = "cd app && git switch -q -C feature && printf '[push]\\n\\trecurseSubmodules = on-demand\\n' > team.gitconfig && git push -q origin feature 2>&1; echo rc=$?";
    let out = s.run(script, &[]);
    assert!(stdout(&out).contains("rc=1"), "{}", text(&out));
    assert!(
        stdout(&out).contains("push.recurseSubmodules=on-demand in the configuration"),
        "{}",
        text(&out)
    );
    assert!(
        s.git(&s.remote, &["rev-parse", "-q", "--verify", "feature"])
            .is_empty()
    );
    let out = s.run_without("push-recurse", script);
    assert!(stdout(&out).contains("rc=0"), "{}", text(&out));
}

/// `diff.ignoreSubmodules=all` does not hide a protected submodule path from the guard.
#[test]
fn ignoring_submodules_does_not_hide_a_protected_path() {
    let s = Sandboxed::new();
    let a = s.head(&s.lib);
    s.git(
        &s.app,
        &[
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("160000,{a},sub"),
        ],
    );
    s.git(&s.app, &["commit", "-q", "-m", "add sub"]);
    let before = s.head(&s.app);
    let b = s.head(&s.reference);
    let script = format!(
        "cd app && git config diff.ignoreSubmodules all && git update-index --cacheinfo 160000,{b},sub && git commit -q -m bump; echo rc=$?"
    );
    let out = s.run(&script, &[]);
    assert!(stdout(&out).contains("rc=1"), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("under the protected path `sub`"),
        "{}",
        text(&out)
    );
    assert_eq!(s.head(&s.app), before);
    s.run_without("ignore-submodules", &script);
    assert_ne!(s.head(&s.app), before);
}

/// A brokered call may not make git read, with the user's rights, what the agent cannot.
#[test]
fn the_broker_reads_nothing_hidden_for_the_agent() {
    let s = Sandboxed::new();
    let before = s.head(&s.lib);
    let script = "cd lib && git commit -q --allow-empty -F ~/.ssh/id_ed25519; echo rc=$?; git log -1 --format=%B";
    let out = s.run(script, &[]);
    assert!(
        stdout(&out).contains("rc=1") && !stdout(&out).contains("PRIVATE"),
        "{}",
        text(&out)
    );
    assert_eq!(s.head(&s.lib), before);
    let out = s.run_without("hidden-args,hide-credentials", script);
    assert!(stdout(&out).contains("PRIVATE"), "{}", text(&out));
    // Another repository hidden from the agent cannot be fetched into a visible one.
    let script = "cd lib && git fetch -q ../other main:from-other 2>&1; echo rc=$?";
    let out = s.run(script, &[]);
    assert!(stdout(&out).contains("rc=1"), "{}", text(&out));
    assert!(
        s.git(&s.lib, &["rev-parse", "-q", "--verify", "from-other"])
            .is_empty()
    );
}

/// A hook the agent can edit (a hooks directory in the work tree, set before the session, as
/// husky does) runs for a brokered commit in the broker's view: what the agent cannot read is
/// hidden from it too.
#[test]
fn a_brokered_commit_s_hook_cannot_read_what_the_agent_cannot() {
    let s = Sandboxed::new();
    s.git(&s.lib, &["config", "core.hooksPath", ".hooks"]);
    std::fs::create_dir_all(s.lib.join(".hooks")).unwrap();
    let script = "cd lib && printf '#!/bin/sh\\ncat ~/.ssh/id_ed25519 > stolen 2>/dev/null\\nexit 0\\n' > .hooks/pre-commit && chmod +x .hooks/pre-commit && git commit -q --allow-empty -m x; echo rc=$?; cat stolen";
    let out = s.run(script, &[]);
    assert!(stdout(&out).contains("rc=0"), "{}", text(&out));
    assert!(!stdout(&out).contains("PRIVATE"), "{}", text(&out));
    let out = s.run_without("broker-view", script);
    assert!(stdout(&out).contains("PRIVATE"), "{}", text(&out));
}

/// The socket is the session's: a process that is not in the sandbox is refused.
#[test]
fn the_broker_serves_only_the_session_s_processes() {
    let s = Sandboxed::new();
    // The agent hands its broker's address to a process outside the session.
    let mut cmd = s.env.command(bin(), &s.env.shim_path());
    cmd.args(["session", "--scope"])
        .arg(&s.scope)
        .args(["--", "sh", "-c", "echo \"$GIT_PRISM_BROKER\"; sleep 3"])
        .current_dir(&s.root)
        .env("GIT_PRISM_STATE_DIR", &s.state)
        .env("TMPDIR", &s.tmp)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    let mut session = cmd.spawn().unwrap();
    let mut socket = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(session.stdout.take().unwrap()),
        &mut socket,
    )
    .unwrap();
    assert!(socket.trim().ends_with("broker.sock"), "{socket}");
    let before = s.head(&s.lib);
    let out = s
        .env
        .shim_git(&["commit", "-q", "--allow-empty", "-m", "outsider"])
        .current_dir(&s.lib)
        .env("GIT_PRISM_BROKER", socket.trim())
        .env("GIT_PRISM_SCOPE", &s.scope)
        .output()
        .unwrap();
    let _ = session.wait();
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not one of the session's processes"),
        "{}",
        text(&out)
    );
    assert_eq!(s.head(&s.lib), before);
}

/// A whole task, as an agent does it: edit, commit, push a feature branch to a network
/// remote, verify, write its own state and temporary files, read the read repository.
#[test]
fn a_stand_in_agent_does_a_whole_task() {
    let s = Sandboxed::new();
    let d = s.daemon();
    let url = format!("git://127.0.0.1:{}/remote.git", d.port);
    s.git(&s.app, &["remote", "set-url", "origin", &url]);
    std::fs::create_dir_all(s.env.home.join(".codex")).unwrap();
    let script = "set -e
cd app
git switch -q -c feature
echo 'fn main() {}' > main.rs
git add main.rs
git commit -q -m 'add main'
git push -q -u origin feature
\"$GIT_PRISM\" session verify --pushed .
echo verified
echo state > ~/.codex/state.json
echo scratch > \"$TMPDIR/scratch\"
cat \"$TMPDIR/scratch\"
git -C ../ref log -1 --format=%s
cat ../ref/README
echo done";
    let out = s.run(script, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let o = stdout(&out);
    for want in ["verified", "scratch", "init", "ref", "done"] {
        assert!(o.contains(want), "{want}: {}", text(&out));
    }
    assert_eq!(s.git(&s.remote, &["rev-parse", "feature"]), s.head(&s.app));
    assert_eq!(
        std::fs::read_to_string(s.env.home.join(".codex/state.json")).unwrap(),
        "state\n"
    );
    // The session said what holds, in at most six lines, with its id.
    let err = String::from_utf8_lossy(&out.stderr);
    let said: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("git-prism session: "))
        .collect();
    assert!(said.len() <= 6, "{err}");
    assert!(said[0].contains("session verify --session "), "{err}");
    assert!(
        err.contains("the agent cannot read: 1 unlisted repository"),
        "{err}"
    );
}

/// Each agent's own state directories are writable in the sandbox: a stand-in for each
/// executable name writes what the real one writes.
#[test]
fn each_agent_can_write_its_own_state() {
    let s = Sandboxed::new();
    let bin_dir = s.root.join("agents");
    let uid = rustix::process::getuid().as_raw();
    let agents: [(&str, Vec<String>); 4] = [
        (
            "claude",
            vec![
                "$HOME/.claude/projects/x.jsonl".into(),
                "$HOME/.claude.json".into(),
                format!("/tmp/claude-{uid}/cwd"),
            ],
        ),
        ("codex", vec!["$HOME/.codex/sessions/x.jsonl".into()]),
        ("gemini", vec!["$HOME/.gemini/tmp/x".into()]),
        (
            "opencode",
            vec![
                "$HOME/.local/share/opencode/x".into(),
                "$HOME/.config/opencode/x".into(),
            ],
        ),
    ];
    std::fs::write(s.env.home.join(".claude.json"), "{}\n").unwrap();
    for (name, files) in &agents {
        let mut body = String::from("#!/bin/sh\nset -e\n");
        for f in files {
            body.push_str(&format!(
                "mkdir -p \"$(dirname \"{f}\")\"\necho ok > \"{f}\"\n"
            ));
        }
        body.push_str("echo \"$TMPDIR\" > /dev/null\necho wrote\n");
        s.env.script(&bin_dir, name, &body);
    }
    for (name, _) in &agents {
        let path = format!(
            "{}:{}",
            bin_dir.display(),
            s.env.shim_path().to_string_lossy()
        );
        let mut cmd = s.env.command(bin(), std::ffi::OsStr::new(&path));
        cmd.args(["session", "--scope"])
            .arg(&s.scope)
            .args(["--", name])
            .current_dir(&s.root)
            .env("GIT_PRISM_STATE_DIR", &s.state)
            .env("TMPDIR", &s.tmp);
        let out = cmd.output().unwrap();
        assert!(
            out.status.success() && stdout(&out).contains("wrote"),
            "{name}: {}",
            text(&out)
        );
    }
    // What is not an agent's own is still not writable.
    let out = s.run("echo x > ~/.bashrc; echo rc=$?", &[]);
    assert!(
        stdout(&out).contains("rc=") && !stdout(&out).contains("rc=0"),
        "{}",
        text(&out)
    );
}

/// Where the kernel cannot hold the sandbox the session does not start, unless told to run
/// weaker; then it says what does not hold.
#[test]
fn without_namespaces_the_session_starts_only_when_told_to_run_weaker() {
    let s = Sandboxed::new();
    let out = s.run("echo started", &[("GIT_PRISM_TEST_NO_NAMESPACES", "1")]);
    assert!(!out.status.success(), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot hold the agent's sandbox") && err.contains("--weaker"),
        "{err}"
    );
    assert!(!stdout(&out).contains("started"));
    let mut cmd = s.env.command(bin(), &s.env.shim_path());
    cmd.args(["session", "--weaker", "--scope"])
        .arg(&s.scope)
        .args(["--", "sh", "-c", "echo x >> ref/README; echo started"])
        .current_dir(&s.root)
        .env("GIT_PRISM_STATE_DIR", &s.state)
        .env("TMPDIR", &s.tmp)
        .env("GIT_PRISM_TEST_NO_NAMESPACES", "1");
    let out = cmd.output().unwrap();
    assert!(stdout(&out).contains("started"), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("weaker (--weaker): no user namespaces"),
        "{err}"
    );
    // Landlock still holds the read repository.
    assert_eq!(
        std::fs::read_to_string(s.reference.join("README")).unwrap(),
        "ref\n"
    );
}

/// Commits made by plumbing (`commit-tree` + `update-ref`), which runs no hook, and a hooks
/// path set in the repository's configuration: `session verify`'s `hooks` check reports both.
#[test]
fn session_verify_sees_hooks_no_porcelain_ran() {
    let s = Sandboxed::new();
    let plumbing = "cd lib && c=$(git commit-tree 'HEAD^{tree}' -p HEAD -m sneaky) && git update-ref refs/heads/main $c && \"$GIT_PRISM\" session verify --skip committed .; echo rc=$?";
    let out = s.run(plumbing, &[]);
    assert!(
        stdout(&out).contains("rc=14") && stdout(&out).contains("which runs no hooks"),
        "{}",
        text(&out)
    );
    let out = s.run_without("plumbing-hooks", plumbing);
    assert!(stdout(&out).contains("rc=0"), "{}", text(&out));
    let s = Sandboxed::new();
    let hooks_path = "cd lib && git config core.hooksPath /dev/null && git commit -q --allow-empty -m x && \"$GIT_PRISM\" session verify --skip committed .; echo rc=$?";
    let out = s.run(hooks_path, &[]);
    assert!(
        stdout(&out).contains("rc=14") && stdout(&out).contains("core.hooksPath changed"),
        "{}",
        text(&out)
    );
    let out = s.run_without("verify-hookspath", hooks_path);
    assert!(stdout(&out).contains("rc=0"), "{}", text(&out));
}

/// gh runs through the broker with the user's token; the agent never holds it, and gh's
/// writes are judged as outside a sandbox.
#[test]
fn gh_gets_the_user_s_token_and_the_agent_does_not() {
    let s = Sandboxed::new();
    let fake = s.root.join("fake-gh");
    s.env.script(
        &fake,
        "gh",
        "#!/bin/sh\necho \"gh $* token=${GH_TOKEN:-none}\"\n",
    );
    let path = format!("{}:{}", s.env.shim_path().to_string_lossy(), fake.display());
    let mut cmd = s.env.command(bin(), std::ffi::OsStr::new(&path));
    cmd.args(["session", "--scope"])
        .arg(&s.scope)
        .args([
            "--",
            "sh",
            "-c",
            "cd app; echo \"agent token=${GH_TOKEN:-none}\"; gh pr list; gh pr merge 1; echo merge=$?",
        ])
        .current_dir(&s.root)
        .env("GIT_PRISM_STATE_DIR", &s.state)
        .env("TMPDIR", &s.tmp)
        .env("GH_TOKEN", "gho_SECRET");
    let out = cmd.output().unwrap();
    let o = stdout(&out);
    assert!(o.contains("agent token=none"), "{}", text(&out));
    assert!(o.contains("gh pr list token=gho_SECRET"), "{}", text(&out));
    assert!(
        o.contains("merge=1") && !o.contains("gh pr merge"),
        "{}",
        text(&out)
    );
}

/// git ≥ 2.46's read forms of `git config get` are reads, in a session as anywhere.
#[test]
fn config_get_forms_are_reads() {
    let s = Sandboxed::new();
    s.git(&s.reference, &["config", "x.y", "1"]);
    let out = s.run(
        "cd ref && git config get --all x.y && git config get --regexp 'x\\..*' && git config get --value=1 x.y && git config get --url=https://example.com x.y; echo rc=$?",
        &[],
    );
    assert!(stdout(&out).contains("rc=0"), "{}", text(&out));
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("refused"),
        "{}",
        text(&out)
    );
}
