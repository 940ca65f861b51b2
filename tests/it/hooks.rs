//! The done-gate runs itself (issue 35): `git-prism hook stop` and `hook session-start` as the
//! agent harnesses run them — installed by `shim install --hooks` into each harness's settings,
//! fed the JSON each harness documents by a stand-in harness (a Python script that reads the
//! settings file, runs the hook's command through a shell and reads its exit status and
//! stderr as the harness does) — and `verify`, which a repository cannot talk into "done".

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use crate::common::{TestEnv, bin};

/// A repository `work` cloned from a bare `origin.git`, on `main`, tracking `origin/main`.
fn clone(env: &TestEnv) -> PathBuf {
    let root = env.root();
    let origin = env.repo("seed");
    origin.write("README", "seed\n");
    origin.commit("seed");
    let run = |args: &[&str], dir: &Path| {
        let out = env
            .command(&env.real_git, &env.plain_path())
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
    };
    run(&["clone", "-q", "--bare", "seed", "origin.git"], &root);
    run(&["clone", "-q", "origin.git", "work"], &root);
    root.join("work")
}

fn git(env: &TestEnv, dir: &Path, args: &[&str]) -> String {
    let out = env
        .command(&env.real_git, &env.plain_path())
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// The stand-in harness: runs the hooks the settings file `settings` registers for `event`,
/// with `payload` on stdin, through `sh -c` as the harnesses do; prints `BLOCK` and the
/// reason (stderr) on exit 2, `CONTEXT` and stdout on exit 0 with output, `END` otherwise.
const HARNESS: &str = r#"
import json, subprocess, sys
settings, event, payload = sys.argv[1], sys.argv[2], sys.argv[3]
with open(settings) as f:
    hooks = json.load(f).get("hooks", {}).get(event, [])
for group in hooks:
    for hook in group["hooks"]:
        r = subprocess.run(["sh", "-c", hook["command"]], input=payload.encode(), capture_output=True)
        if r.returncode == 2:
            print("BLOCK"); print(r.stderr.decode()); sys.exit(0)
        if r.stdout.strip():
            print("CONTEXT"); print(r.stdout.decode())
print("END")
"#;

struct Harnessed {
    env: TestEnv,
    work: PathBuf,
    script: PathBuf,
}

impl Harnessed {
    fn new() -> Harnessed {
        let env = TestEnv::new();
        let work = clone(&env);
        for dir in [".claude", ".codex", ".gemini"] {
            std::fs::create_dir_all(env.home.join(dir)).unwrap();
        }
        let script = env.root().join("harness.py");
        std::fs::write(&script, HARNESS).unwrap();
        Harnessed { env, work, script }
    }

    fn install(&self) -> Output {
        self.env
            .command(bin(), &self.env.shim_path())
            .args(["shim", "install", "--yes", "--hooks", "--dir"])
            .arg(self.env.root().join("bin"))
            .output()
            .unwrap()
    }

    /// The harness's payload for `event`, as its documentation gives it.
    fn payload(&self, harness: &str, event: &str, active: bool) -> String {
        let cwd = self.work.display();
        match harness {
            "claude" => format!(
                r#"{{"session_id":"c1","transcript_path":"/t.jsonl","cwd":"{cwd}","permission_mode":"default","hook_event_name":"{event}","stop_hook_active":{active},"source":"startup"}}"#
            ),
            "codex" => format!(
                r#"{{"session_id":"x1","turn_id":"t1","transcript_path":null,"cwd":"{cwd}","hook_event_name":"{event}","model":"gpt","permission_mode":"default","stop_hook_active":{active},"last_assistant_message":"done","source":"startup"}}"#
            ),
            _ => format!(
                r#"{{"session_id":"g1","transcript_path":"/t.json","cwd":"{cwd}","hook_event_name":"{event}","timestamp":"2026-01-01T00:00:00Z","prompt":"do it","prompt_response":"done","stop_hook_active":{active},"source":"startup"}}"#
            ),
        }
    }

    fn settings(&self, harness: &str) -> PathBuf {
        match harness {
            "claude" => self.env.home.join(".claude/settings.json"),
            "codex" => self.env.home.join(".codex/hooks.json"),
            _ => self.env.home.join(".gemini/settings.json"),
        }
    }

    /// Plays the harness: runs the hooks of `event`; returns what it printed.
    fn fire(&self, harness: &str, event: &str, active: bool) -> String {
        let out = self
            .env
            .command("/usr/bin/python3", &self.env.shim_path())
            .arg(&self.script)
            .arg(self.settings(harness))
            .arg(event)
            .arg(self.payload(harness, event, active))
            .current_dir(&self.work)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn git(&self, args: &[&str]) -> String {
        git(&self.env, &self.work, args)
    }
}

/// Each harness's documented protocol: the turn that left work unpushed is blocked with the
/// reason and the command to run; the same work pushed ends the turn; a turn that changed
/// nothing ends it at once.
#[test]
fn a_stand_in_harness_is_blocked_until_the_work_is_pushed() {
    for (harness, stop) in [
        ("claude", "Stop"),
        ("codex", "Stop"),
        ("gemini", "AfterAgent"),
    ] {
        let h = Harnessed::new();
        let out = h.install();
        assert!(out.status.success(), "{out:?}");
        let start = h.fire(harness, "SessionStart", false);
        assert!(
            start.contains("CONTEXT") && start.contains("on main"),
            "{harness}: {start}"
        );
        assert!(
            h.fire(harness, stop, false).trim() == "END",
            "{harness}: nothing changed"
        );
        // Work committed, not pushed.
        std::fs::write(h.work.join("new.txt"), "x\n").unwrap();
        let said = h.fire(harness, stop, false);
        assert!(
            said.starts_with("BLOCK") && said.contains("committed: "),
            "{harness}: {said}"
        );
        h.git(&["add", "new.txt"]);
        h.git(&["commit", "-q", "-m", "work"]);
        let said = h.fire(harness, stop, false);
        assert!(said.starts_with("BLOCK"), "{harness}: {said}");
        let reason = said.lines().find(|l| l.starts_with("pushed: ")).unwrap();
        // The remedy works as given.
        let command = reason
            .split("run `")
            .nth(1)
            .and_then(|r| r.split('`').next())
            .unwrap();
        let args: Vec<&str> = command.split(' ').skip(1).collect();
        h.git(&args);
        assert_eq!(h.fire(harness, stop, false).trim(), "END", "{harness}");
    }
}

/// A hook never loops: while the harness says a stop hook is already active, the same
/// failures are not given twice in a row.
#[test]
fn the_same_failures_are_not_given_twice_while_a_stop_hook_is_active() {
    let h = Harnessed::new();
    h.install();
    h.fire("claude", "SessionStart", false);
    std::fs::write(h.work.join("new.txt"), "x\n").unwrap();
    assert!(h.fire("claude", "Stop", false).starts_with("BLOCK"));
    assert_eq!(h.fire("claude", "Stop", true).trim(), "END");
    // Another failure is new: said again.
    std::fs::write(h.work.join("other.txt"), "y\n").unwrap();
    assert!(h.fire("claude", "Stop", true).starts_with("BLOCK"));
}

/// The hooks' memory is kept only where nobody else can write: a name in the shared temporary
/// directory that is not private (another user's, or open to others) is passed over for the
/// state directory, so what was planted there cannot make a stop pass.
#[test]
fn a_memory_others_can_write_is_not_believed() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let h = Harnessed::new();
    h.install();
    let uid = std::fs::metadata(&h.env.home).unwrap().uid();
    let squatted = h.env.temp.join(format!("git-prism-hooks-{uid}"));
    std::fs::create_dir_all(&squatted).unwrap();
    std::fs::set_permissions(&squatted, std::fs::Permissions::from_mode(0o777)).unwrap();
    // What a squatter would plant: as many blocks in a row as the hook ever gives.
    std::fs::write(squatted.join("c1.json"), r#"{"blocks":1000}"#).unwrap();
    std::fs::write(h.work.join("new.txt"), "x\n").unwrap();
    let said = h.fire("claude", "Stop", false);
    assert!(said.starts_with("BLOCK"), "{said}");
    assert!(
        h.env
            .home
            .join(".local/state/git-prism/hook-memory/c1.json")
            .is_file(),
        "the memory moved to the state directory"
    );
    // With no private place at all nothing is remembered, and a hook still never loops: the
    // harness's word that this stop is a hook's retry lets it end.
    let state = h.env.home.join(".local/state/git-prism/hook-memory");
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o777)).unwrap();
    assert!(h.fire("claude", "Stop", false).starts_with("BLOCK"));
    assert_eq!(h.fire("claude", "Stop", true).trim(), "END");
}

/// A blocked stop walks the work tree once: the status it asked to see whether the turn
/// changed anything is the one verify's checks read (a second walk doubled the hook's time on
/// a large repository).
#[test]
fn a_blocked_stop_walks_the_work_tree_once() {
    let env = TestEnv::new();
    let work = clone(&env);
    let log = env.root().join("git.log");
    let recorder = env.script(
        &env.root().join("recorder"),
        "git",
        &format!(
            "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{}'\nexec '{}' \"$@\"\n",
            log.display(),
            env.real_git.display()
        ),
    );
    std::fs::write(work.join("new.txt"), "x\n").unwrap();
    let mut hook = env.command(bin(), &env.plain_path());
    hook.args(["hook", "stop", "--harness", "claude"])
        .current_dir(&work)
        .env("GIT_PRISM_REAL_GIT", &recorder)
        .env("TMPDIR", env.root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = hook.spawn().unwrap();
    let payload = format!(
        r#"{{"session_id":"once","cwd":"{}","hook_event_name":"Stop","stop_hook_active":false}}"#,
        work.display()
    );
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), payload.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("committed: "),
        "{out:?}"
    );
    let calls = std::fs::read_to_string(&log).unwrap();
    let walks = calls.lines().filter(|l| l.contains(" status ")).count();
    assert_eq!(walks, 1, "{calls}");
}

/// Session start is short: about 200 tokens at most, JSON for Gemini CLI.
#[test]
fn session_start_says_where_the_work_stands_briefly() {
    let h = Harnessed::new();
    std::fs::write(h.work.join("a"), "1\n").unwrap();
    let out = h
        .env
        .command(bin(), &h.env.shim_path())
        .args(["hook", "session-start", "--harness", "gemini"])
        .current_dir(&h.work)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .unwrap()
                .write_all(h.payload("gemini", "SessionStart", false).as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = json["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        text.contains("on main (origin/main: 0 ahead, 0 behind)"),
        "{text}"
    );
    assert!(text.contains("1 uncommitted"), "{text}");
    assert!(text.chars().count() <= 800, "{text}");
}

/// Install with consent writes each harness's own file, keeping what the user had; uninstall
/// gives the files back byte for byte.
#[test]
fn hooks_install_beside_the_user_s_and_uninstall_byte_for_byte() {
    let h = Harnessed::new();
    let mine = "{\n    \"zeta\": 1,\n    \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"my-own\"}]}]},\n    \"alpha\": true\n}\n";
    std::fs::write(h.settings("claude"), mine).unwrap();
    let out = h.install();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("added the hooks to"), "{said}");
    assert!(said.contains("trust"), "{said}");
    let claude = std::fs::read_to_string(h.settings("claude")).unwrap();
    assert!(
        claude.contains("my-own") && claude.contains("hook stop --harness claude"),
        "{claude}"
    );
    assert!(claude.find("zeta").unwrap() < claude.find("alpha").unwrap());
    let gemini = std::fs::read_to_string(h.settings("gemini")).unwrap();
    assert!(
        gemini.contains("AfterAgent") && gemini.contains("60000"),
        "{gemini}"
    );
    // Installing again changes nothing.
    let again = h.install();
    assert!(String::from_utf8_lossy(&again.stdout).contains("hooks already in"));
    let status = h
        .env
        .command(bin(), &h.env.shim_path())
        .args(["shim", "status", "--dir"])
        .arg(h.env.root().join("bin"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&status.stdout).contains("done-gate hooks in:"));
    let out = h
        .env
        .command(bin(), &h.env.shim_path())
        .args(["shim", "uninstall", "--dir"])
        .arg(h.env.root().join("bin"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(std::fs::read_to_string(h.settings("claude")).unwrap(), mine);
    assert!(!h.settings("codex").exists() && !h.settings("gemini").exists());
}

/// `git-prism session` gives Claude Code the hooks for its run through `--settings`.
#[test]
fn a_session_gives_claude_code_its_hooks_for_the_run() {
    let env = TestEnv::new();
    let work = clone(&env);
    let scope = env.root().join("scope.toml");
    std::fs::write(
        &scope,
        format!(
            "[[repo]]\npath = \"{}\"\npermission = \"write-push\"\n",
            work.display()
        ),
    )
    .unwrap();
    let agents = env.root().join("agents");
    env.script(
        &agents,
        "claude",
        "#!/bin/sh\n[ \"$1\" = --settings ] && cat \"$2\"\n",
    );
    let path = format!("{}:{}", agents.display(), env.shim_path().to_string_lossy());
    std::fs::create_dir_all(env.root().join("tmp")).unwrap();
    let out = env
        .command(bin(), std::ffi::OsStr::new(&path))
        .args(["session", "--scope"])
        .arg(&scope)
        .args(["--", "claude"])
        .current_dir(&work)
        .env("GIT_PRISM_STATE_DIR", env.root().join("state"))
        .env("TMPDIR", env.root().join("tmp"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("hook stop --harness claude"), "{out:?}");
    assert!(text.contains("SessionStart"), "{text}");
}

/// Inside a session's sandbox the stop hook remembers what it said (in the session's private
/// temporary directory): the harness's retry with the same failures ends the turn instead of
/// looping, and a new failure is said again.
#[test]
fn the_stop_hook_remembers_inside_a_session() {
    let env = TestEnv::new();
    let work = clone(&env);
    let scope = env.root().join("scope.toml");
    std::fs::write(
        &scope,
        format!(
            "[[repo]]\npath = \"{}\"\npermission = \"write-push\"\n",
            work.display()
        ),
    )
    .unwrap();
    let agents = env.root().join("agents");
    std::fs::create_dir_all(&agents).unwrap();
    std::os::unix::fs::symlink(bin(), agents.join("git-prism")).unwrap();
    let payload = |active: bool| {
        format!(
            r#"{{"session_id":"s1","cwd":"{}","hook_event_name":"Stop","stop_hook_active":{active}}}"#,
            work.display()
        )
    };
    let script = format!(
        "#!/bin/sh\nstop() {{ printf '%s' \"$1\" | git-prism hook stop --harness claude 2>/dev/null; echo \"rc=$?\"; }}\n\
         echo x > new.txt\nstop '{}'\nstop '{}'\necho y > other.txt\nstop '{}'\n",
        payload(false),
        payload(true),
        payload(true)
    );
    env.script(&agents, "agent", &script);
    let path = format!("{}:{}", agents.display(), env.shim_path().to_string_lossy());
    let out = env
        .command(bin(), std::ffi::OsStr::new(&path))
        .args(["session", "--scope"])
        .arg(&scope)
        .args(["--", "agent"])
        .current_dir(&work)
        .env("GIT_PRISM_STATE_DIR", env.root().join("state"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let codes: Vec<&str> = text.lines().filter(|l| l.starts_with("rc=")).collect();
    assert_eq!(codes, ["rc=2", "rc=0", "rc=2"], "{out:?}");
}

// ---- verify cannot be talked into "done" ----

/// A repository whose work is committed and pushed to `origin.git`, then one more local
/// commit that is not pushed.
fn unpushed() -> (TestEnv, PathBuf, String) {
    let env = TestEnv::new();
    let work = clone(&env);
    let base = git(&env, &work, &["rev-parse", "HEAD"]);
    std::fs::write(work.join("f"), "1\n").unwrap();
    git(&env, &work, &["add", "f"]);
    git(&env, &work, &["commit", "-q", "-m", "local"]);
    (env, work, base)
}

fn verify(env: &TestEnv, dir: &Path, args: &[&str], vars: &[(&str, &str)]) -> Output {
    let mut cmd = env.command(bin(), &env.plain_path());
    cmd.arg("verify").args(args).current_dir(dir);
    for (k, v) in vars {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn off(rule: &str) -> [(&str, &str); 1] {
    [("GIT_PRISM_TEST_RULE_OFF", rule)]
}

/// `remote.origin.uploadpack` naming a program: verify --pushed runs it not (it asks the
/// remote from outside the repository, with git's own transport).
#[test]
fn an_upload_pack_in_the_configuration_is_not_run_by_verify() {
    let (env, work, base) = unpushed();
    let marker = env.root().join("ran");
    let evil = env.script(
        &env.root(),
        "evil",
        &format!(
            "#!/bin/sh\ntouch {}\nexec git-upload-pack \"$@\"\n",
            marker.display()
        ),
    );
    git(
        &env,
        &work,
        &["config", "remote.origin.uploadpack", evil.to_str().unwrap()],
    );
    let out = verify(&env, &work, &["--since", &base, "--pushed"], &[]);
    assert_eq!(out.status.code(), Some(12), "{out:?}");
    assert!(!marker.exists(), "the repository's upload pack ran");
    verify(
        &env,
        &work,
        &["--since", &base, "--pushed"],
        &off("verify-outside"),
    );
    assert!(marker.exists(), "without the rule it runs");
}

/// `git replace --graft <remote tip> HEAD` (the remote's tip made a child of HEAD) does not
/// make an unpushed commit look pushed, nor merged.
#[test]
fn replace_objects_do_not_make_work_pushed() {
    let (env, work, base) = unpushed();
    let head = git(&env, &work, &["rev-parse", "HEAD"]);
    git(&env, &work, &["replace", "--graft", &base, &head]);
    for (args, code) in [
        (
            vec!["--since", base.as_str(), "--skip", "commit", "--pushed"],
            12,
        ),
        (
            vec![
                "--since",
                base.as_str(),
                "--skip",
                "commit",
                "--merged-into",
                "origin/main",
            ],
            13,
        ),
    ] {
        let out = verify(&env, &work, &args, &[]);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {out:?}");
        let fooled = verify(&env, &work, &args, &off("verify-replace"));
        assert_eq!(
            fooled.status.code(),
            Some(0),
            "{args:?}: without the rule it passes"
        );
    }
}

/// Skip-worktree and assume-unchanged bits do not hide changes from `committed`.
#[test]
fn index_bits_do_not_hide_uncommitted_changes() {
    for bit in ["--skip-worktree", "--assume-unchanged"] {
        let (env, work, base) = unpushed();
        std::fs::write(work.join("f"), "changed\n").unwrap();
        git(&env, &work, &["update-index", bit, "f"]);
        let out = verify(&env, &work, &["--since", &base], &[]);
        assert_eq!(out.status.code(), Some(10), "{bit}: {out:?}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("f;"),
            "{out:?}"
        );
        let fooled = verify(&env, &work, &["--since", &base], &off("verify-index-bits"));
        assert_eq!(
            fooled.status.code(),
            Some(0),
            "{bit}: without the rule it passes"
        );
    }
}

/// `diff.ignoreSubmodules=all` does not hide a changed submodule from `protected`.
#[test]
fn ignored_submodules_do_not_hide_a_protected_path() {
    let env = TestEnv::new();
    let work = clone(&env);
    let origin = env.root().join("origin.git");
    git(
        &env,
        &work,
        &["clone", "-q", origin.to_str().unwrap(), "sub"],
    );
    let sub = work.join("sub");
    let a = git(&env, &sub, &["rev-parse", "HEAD"]);
    git(
        &env,
        &work,
        &[
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("160000,{a},sub"),
        ],
    );
    git(&env, &work, &["commit", "-q", "-m", "add sub"]);
    let base = git(&env, &work, &["rev-parse", "HEAD"]);
    git(&env, &sub, &["commit", "-q", "--allow-empty", "-m", "b"]);
    let b = git(&env, &sub, &["rev-parse", "HEAD"]);
    git(
        &env,
        &work,
        &["update-index", "--cacheinfo", &format!("160000,{b},sub")],
    );
    git(&env, &work, &["commit", "-q", "-m", "bump sub"]);
    git(&env, &work, &["config", "diff.ignoreSubmodules", "all"]);
    let args = ["--since", &base, "--protected", "sub"];
    let out = verify(&env, &work, &args, &[]);
    assert_eq!(out.status.code(), Some(15), "{out:?}");
    let fooled = verify(&env, &work, &args, &off("verify-submodules"));
    assert_eq!(
        fooled.status.code(),
        Some(0),
        "without the rule it passes: {fooled:?}"
    );
}
