//! The bench's own repositories: one way to run git in them, hermetic (no system or user
//! configuration, a fixed identity, the shim bypassed should it be first on PATH) and checked
//! (a failed git command is an error that says which, with its stderr).

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, ensure};

/// `git` in `dir`, as the bench runs it to build and read its repositories.
pub fn git(git: &Path, dir: &Path) -> Command {
    let mut c = Command::new(git);
    c.current_dir(dir)
        .env("GIT_PRISM_PASSTHROUGH", "1")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "bench")
        .env("GIT_AUTHOR_EMAIL", "bench@example.com")
        .env("GIT_COMMITTER_NAME", "bench")
        .env("GIT_COMMITTER_EMAIL", "bench@example.com");
    c
}

/// Runs `git <args>` in `dir` and returns its stdout; a failure is an error.
pub fn run(git_path: &Path, dir: &Path, args: &[&str]) -> Result<Vec<u8>> {
    let mut c = git(git_path, dir);
    c.args(args);
    let out = c.output().with_context(|| format!("{c:?}"))?;
    ensure!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(out.stdout)
}
