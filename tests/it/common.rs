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
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_git-prism"))
}

/// The real git: the first `git` on the test process's PATH that is not git-prism.
pub fn real_git() -> PathBuf {
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
pub struct TestEnv {
    pub tmp: tempfile::TempDir,
    pub home: PathBuf,
    pub shim_dir: PathBuf,
    pub real_git: PathBuf,
}

impl TestEnv {
    pub fn new() -> TestEnv {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let home = root.join("home");
        let shim_dir = root.join("shim");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&shim_dir).unwrap();
        symlink(bin(), shim_dir.join("git")).unwrap();
        symlink(bin(), shim_dir.join("gh")).unwrap();
        TestEnv {
            tmp,
            home,
            shim_dir,
            real_git: real_git(),
        }
    }

    pub fn root(&self) -> PathBuf {
        self.tmp.path().canonicalize().unwrap()
    }

    /// The directory holding the real git.
    pub fn real_dir(&self) -> PathBuf {
        self.real_git.parent().unwrap().to_owned()
    }

    /// PATH with only the real git's directory and the system directories.
    pub fn plain_path(&self) -> OsString {
        join(&[self.real_dir(), "/usr/bin".into(), "/bin".into()])
    }

    /// PATH with the shim first.
    pub fn shim_path(&self) -> OsString {
        join(&[
            self.shim_dir.clone(),
            self.real_dir(),
            "/usr/bin".into(),
            "/bin".into(),
        ])
    }

    /// A command with the hermetic environment and the given PATH.
    pub fn command(&self, program: impl AsRef<OsStr>, path: &OsStr) -> Command {
        let mut cmd = Command::new(program);
        cmd.env_clear()
            .env("PATH", path)
            .env("HOME", &self.home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "A U Thor")
            .env("GIT_AUTHOR_EMAIL", "author@example.com")
            .env("GIT_COMMITTER_NAME", "C O Mitter")
            .env("GIT_COMMITTER_EMAIL", "committer@example.com")
            .env("GIT_AUTHOR_DATE", "2024-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2024-01-01T00:00:00Z")
            .env("LC_ALL", "C")
            .env("TZ", "UTC");
        cmd
    }

    /// `git <args>` through the shim (PATH lookup of `git`).
    pub fn shim_git(&self, args: &[&str]) -> Command {
        let mut cmd = self.command("git", &self.shim_path());
        cmd.args(args);
        cmd
    }

    /// `git <args>` with the real git alone (PATH lookup of `git`).
    pub fn plain_git(&self, args: &[&str]) -> Command {
        let mut cmd = self.command("git", &self.plain_path());
        cmd.args(args);
        cmd
    }

    /// `sh -c <script>` with the given PATH.
    pub fn sh(&self, script: &str, path: &OsStr) -> Command {
        let mut cmd = self.command("/bin/sh", path);
        cmd.arg("-c").arg(script);
        cmd
    }

    /// Creates an empty repository at `name` under the temp root.
    pub fn repo(&self, name: &str) -> Repo<'_> {
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
    pub fn repo_at(&self, dir: &Path) -> Repo<'_> {
        Repo {
            env: self,
            dir: dir.to_owned(),
            tick: std::cell::Cell::new(0),
        }
    }

    /// Writes an executable script `dir/name`.
    pub fn script(&self, dir: &Path, name: &str, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        std::fs::create_dir_all(dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, body).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }
}

pub fn join(dirs: &[PathBuf]) -> OsString {
    std::env::join_paths(dirs).unwrap()
}

/// A repository under construction, committed with the real git and fixed dates.
pub struct Repo<'a> {
    pub env: &'a TestEnv,
    pub dir: PathBuf,
    tick: std::cell::Cell<u32>,
}

impl Repo<'_> {
    /// Runs the real git in the repository and returns stdout; panics on failure.
    pub fn git(&self, args: &[&str]) -> String {
        let out = self.git_cmd(args).output().unwrap();
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A real-git command in the repository, dated by the repository's clock.
    pub fn git_cmd(&self, args: &[&str]) -> Command {
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

    pub fn write(&self, path: &str, content: impl AsRef<[u8]>) -> &Self {
        let full = self.dir.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, content).unwrap();
        self
    }

    /// Writes a file whose name is raw bytes (not necessarily UTF-8).
    pub fn write_bytes_path(&self, path: &[u8], content: impl AsRef<[u8]>) -> &Self {
        use std::os::unix::ffi::OsStrExt;
        std::fs::write(self.dir.join(OsStr::from_bytes(path)), content).unwrap();
        self
    }

    pub fn remove(&self, path: &str) -> &Self {
        std::fs::remove_file(self.dir.join(path)).unwrap();
        self
    }

    /// Stages everything and commits; returns the new commit id.
    pub fn commit(&self, message: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
        self.tick.set(self.tick.get() + 1);
        self.git(&["rev-parse", "HEAD"]).trim().to_owned()
    }
}

/// Asserts two outputs are byte-identical (status, stdout, stderr).
pub fn assert_same_output(what: &str, shim: &Output, plain: &Output) {
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
