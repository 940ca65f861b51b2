//! The hermetic test environment and the repository builder every integration test uses.
//!
//! Commands run with a cleared environment: a temp HOME, `GIT_CONFIG_NOSYSTEM=1`,
//! `GIT_CONFIG_GLOBAL=/dev/null`, fixed author/committer names and dates (so object ids are
//! stable), `LC_ALL=C`, and a PATH chosen per test.

#![allow(dead_code)]

use std::ffi::{OsStr, OsString};
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The built binary under test.
pub(crate) fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_git-prism"))
}

/// The real git: the first `git` on the test process's PATH that is not git-prism.
pub(crate) fn real_git() -> PathBuf {
    let ours = std::fs::canonicalize(bin()).unwrap();
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        let candidate = dir.join("git");
        if dir.is_absolute()
            && candidate.is_file()
            && std::fs::canonicalize(&candidate).ok().as_ref() != Some(&ours)
        {
            return candidate;
        }
    }
    panic!("no real git on PATH");
}

/// A temp directory with a home, a shim directory and helpers to run commands hermetically.
pub(crate) struct TestEnv {
    pub tmp: tempfile::TempDir,
    pub home: PathBuf,
    /// The commands' own temporary directory (`TMPDIR`): what a program keeps in the shared
    /// one (the hooks' memory, say) would be seen by the other tests running at the same time.
    pub temp: PathBuf,
    pub shim_dir: PathBuf,
    pub real_git: PathBuf,
}

impl TestEnv {
    pub(crate) fn new() -> TestEnv {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let home = root.join("home");
        let shim_dir = root.join("shim");
        let temp = root.join("temp");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&temp).unwrap();
        std::fs::create_dir_all(&shim_dir).unwrap();
        symlink(bin(), shim_dir.join("git")).unwrap();
        symlink(bin(), shim_dir.join("gh")).unwrap();
        TestEnv {
            tmp,
            home,
            temp,
            shim_dir,
            real_git: real_git(),
        }
    }

    pub(crate) fn root(&self) -> PathBuf {
        self.tmp.path().canonicalize().unwrap()
    }

    /// The directory holding the real git.
    pub(crate) fn real_dir(&self) -> PathBuf {
        self.real_git.parent().unwrap().to_owned()
    }

    /// PATH with only the real git's directory and the system directories.
    pub(crate) fn plain_path(&self) -> OsString {
        join(&[self.real_dir(), "/usr/bin".into(), "/bin".into()])
    }

    /// PATH with the shim first.
    pub(crate) fn shim_path(&self) -> OsString {
        join(&[
            self.shim_dir.clone(),
            self.real_dir(),
            "/usr/bin".into(),
            "/bin".into(),
        ])
    }

    /// A command with the hermetic environment and the given PATH.
    pub(crate) fn command(&self, program: impl AsRef<OsStr>, path: &OsStr) -> Command {
        let mut cmd = Command::new(program);
        cmd.env_clear()
            .env("PATH", path)
            .env("HOME", &self.home)
            .env("TMPDIR", &self.temp)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "A U Thor")
            .env("GIT_AUTHOR_EMAIL", "author@example.com")
            .env("GIT_COMMITTER_NAME", "C O Mitter")
            .env("GIT_COMMITTER_EMAIL", "committer@example.com")
            .env("GIT_AUTHOR_DATE", "2024-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2024-01-01T00:00:00Z")
            .env("LC_ALL", "C")
            .env("TZ", "UTC")
            // The answers of these tests' small repositories are often larger than git's own
            // output, which the shim weighs every answer against (issue 36): the tests of what
            // answers hold switch the weighing off (a debug build only honours it), the tests
            // of the weighing remove this ([`SIZE_CHECK`]).
            .env(SIZE_CHECK, "off");
        cmd
    }

    /// `git <args>` through the shim (PATH lookup of `git`).
    pub(crate) fn shim_git(&self, args: &[&str]) -> Command {
        let mut cmd = self.command("git", &self.shim_path());
        cmd.args(args);
        cmd
    }

    /// `git <args>` with the real git alone (PATH lookup of `git`).
    pub(crate) fn plain_git(&self, args: &[&str]) -> Command {
        let mut cmd = self.command("git", &self.plain_path());
        cmd.args(args);
        cmd
    }

    /// `sh -c <script>` with the given PATH.
    pub(crate) fn sh(&self, script: &str, path: &OsStr) -> Command {
        let mut cmd = self.command("/bin/sh", path);
        cmd.arg("-c").arg(script);
        cmd
    }

    /// Creates an empty repository at `name` under the temp root.
    pub(crate) fn repo(&self, name: &str) -> Repo<'_> {
        let dir = self.root().join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let repo = Repo {
            env: self,
            dir,
            tick: std::cell::Cell::new(0),
        };
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }

    /// A repository that already exists at `dir` (a clone, a submodule).
    pub(crate) fn repo_at(&self, dir: &Path) -> Repo<'_> {
        Repo {
            env: self,
            dir: dir.to_owned(),
            tick: std::cell::Cell::new(0),
        }
    }

    /// Writes an executable script `dir/name`.
    pub(crate) fn script(&self, dir: &Path, name: &str, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        std::fs::create_dir_all(dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, body).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }
}

/// The switch that turns the weighing of answers against git's own output off in a debug
/// build.
pub(crate) const SIZE_CHECK: &str = "GIT_PRISM_TEST_SIZE_CHECK";

pub(crate) fn join(dirs: &[PathBuf]) -> OsString {
    std::env::join_paths(dirs).unwrap()
}

/// A repository under construction, committed with the real git and fixed dates.
pub(crate) struct Repo<'a> {
    pub env: &'a TestEnv,
    pub dir: PathBuf,
    tick: std::cell::Cell<u32>,
}

impl Repo<'_> {
    /// Runs the real git in the repository and returns stdout; panics on failure.
    pub(crate) fn git(&self, args: &[&str]) -> String {
        let out = self.git_cmd(args).output().unwrap();
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A real-git command in the repository, dated by the repository's clock.
    pub(crate) fn git_cmd(&self, args: &[&str]) -> Command {
        let mut cmd = self.env.command(&self.env.real_git, &self.env.plain_path());
        let date = format!(
            "2024-01-01T00:{:02}:{:02}Z",
            self.tick.get() / 60,
            self.tick.get() % 60
        );
        cmd.current_dir(&self.dir)
            .env("GIT_AUTHOR_DATE", &date)
            .env("GIT_COMMITTER_DATE", &date)
            .args(args);
        cmd
    }

    pub(crate) fn write(&self, path: &str, content: impl AsRef<[u8]>) -> &Self {
        let full = self.dir.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, content).unwrap();
        self
    }

    /// Writes a file whose name is raw bytes (not necessarily UTF-8).
    pub(crate) fn write_bytes_path(&self, path: &[u8], content: impl AsRef<[u8]>) -> &Self {
        use std::os::unix::ffi::OsStrExt;
        std::fs::write(self.dir.join(OsStr::from_bytes(path)), content).unwrap();
        self
    }

    pub(crate) fn remove(&self, path: &str) -> &Self {
        std::fs::remove_file(self.dir.join(path)).unwrap();
        self
    }

    /// Stages everything and commits; returns the new commit id.
    pub(crate) fn commit(&self, message: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
        self.tick.set(self.tick.get() + 1);
        self.git(&["rev-parse", "HEAD"]).trim().to_owned()
    }
}

/// Asserts two outputs are byte-identical (status, stdout, stderr).
pub(crate) fn assert_same_output(what: &str, shim: &Output, plain: &Output) {
    assert_eq!(
        shim.status.code(),
        plain.status.code(),
        "{what}: exit status differs\nshim stderr: {}\nplain stderr: {}",
        String::from_utf8_lossy(&shim.stderr),
        String::from_utf8_lossy(&plain.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&shim.stdout),
        String::from_utf8_lossy(&plain.stdout),
        "{what}: stdout differs"
    );
    assert_eq!(shim.stdout, plain.stdout, "{what}: stdout bytes differ");
    assert_eq!(
        String::from_utf8_lossy(&shim.stderr),
        String::from_utf8_lossy(&plain.stderr),
        "{what}: stderr differs"
    );
}

/// Runs `cmd` to completion or kills it after `secs` seconds (and fails): a hostile input
/// must never hang a command.
pub(crate) fn output_within(cmd: &mut Command, secs: u64) -> Output {
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "still running after {secs} s; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Limits the process `cmd` starts (and every process it starts) to `bytes` of address space,
/// as `ulimit -v` does.
pub(crate) fn limit_address_space(cmd: &mut Command, bytes: u64) {
    use rustix::process::{Resource, Rlimit, setrlimit};
    use std::os::unix::process::CommandExt;
    let limit = Rlimit {
        current: Some(bytes),
        maximum: Some(bytes),
    };
    #[allow(unsafe_code, reason = "setrlimit between fork and exec")]
    // SAFETY: the closure makes one system call, which is async-signal-safe, and allocates
    // nothing.
    unsafe {
        cmd.pre_exec(move || setrlimit(Resource::As, limit).map_err(Into::into));
    }
}

/// A `git-prism serve` process driven over raw JSON-RPC lines, initialized (without roots,
/// so the `--allow` directories are what is allowed). Every read has a deadline.
pub(crate) struct Mcp {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
    next_id: u64,
}

impl Mcp {
    /// Starts `git-prism serve <args>` in `cwd` with the hermetic environment.
    pub(crate) fn start(env: &TestEnv, cwd: &Path, args: &[&OsStr]) -> Mcp {
        Mcp::start_with(env, cwd, args, |_| {})
    }

    /// [`Mcp::start`], with `adjust` applied to the command first.
    pub(crate) fn start_with(
        env: &TestEnv,
        cwd: &Path,
        args: &[&OsStr],
        adjust: impl FnOnce(&mut Command),
    ) -> Mcp {
        use std::io::BufRead;
        use std::process::Stdio;
        let mut cmd = env.command(bin(), &env.plain_path());
        cmd.arg("serve").args(args).current_dir(cwd);
        adjust(&mut cmd);
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut mcp = Mcp {
            stdin: child.stdin.take(),
            child,
            lines,
            next_id: 1,
        };
        let init = mcp.request(
            "initialize",
            serde_json::json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "it", "version": "1"},
            }),
        );
        assert!(init.get("result").is_some(), "{init}");
        mcp.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        mcp
    }

    /// Writes one raw line to the server.
    pub(crate) fn send_line(&mut self, line: &str) {
        use std::io::Write;
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next message from the server (within 60 s).
    pub(crate) fn next_message(&mut self) -> serde_json::Value {
        let line = self
            .lines
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the server answered within 60 s");
        serde_json::from_str(&line).unwrap()
    }

    /// Sends a request and returns the response with its id (skipping other messages).
    pub(crate) fn request(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        let id = self.next_id;
        self.next_id += 1;
        let request =
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_line(&request.to_string());
        loop {
            let message = self.next_message();
            if message["id"] == id {
                return message;
            }
        }
    }

    /// Calls a tool; returns (is_error, the text of its content).
    pub(crate) fn call(&mut self, tool: &str, arguments: serde_json::Value) -> (bool, String) {
        let response = self.request(
            "tools/call",
            serde_json::json!({"name": tool, "arguments": arguments}),
        );
        let result = &response["result"];
        assert!(result.is_object(), "{response}");
        let text = result["content"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["text"].as_str())
            .collect::<String>();
        (result["isError"] == true, text)
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
