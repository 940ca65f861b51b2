//! Records the commit the binary is built from, for `--version`, `shim status`, the MCP
//! server's `serverInfo` and error reports: `GIT_PRISM_COMMIT` (12 hex digits, `-dirty` when
//! tracked files differ from it; empty outside a git checkout, as in a crates.io package).
//! git runs with `GIT_PRISM_PASSTHROUGH` so an installed shim stays out of the way.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .env("GIT_PRISM_PASSTHROUGH", "1")
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn main() {
    // Rerun when the commit or the tracked files may have changed (paths that exist only: a
    // missing one would rerun every build).
    for path in [
        ".git/HEAD",
        ".git/refs",
        ".git/packed-refs",
        ".git/index",
        "src",
    ] {
        if Path::new(path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_default();
    let dirty = !commit.is_empty()
        && git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    let commit = if dirty {
        format!("{commit}-dirty")
    } else {
        commit
    };
    println!("cargo:rustc-env=GIT_PRISM_COMMIT={commit}");
    // The commit's date (the man page's date): the same for every build of a commit.
    let date = git(&["log", "-1", "--format=%cs"]).unwrap_or_default();
    println!("cargo:rustc-env=GIT_PRISM_DATE={date}");
    let version = env!("CARGO_PKG_VERSION");
    let line = if commit.is_empty() {
        version.to_owned()
    } else {
        format!("{version} ({commit})")
    };
    println!("cargo:rustc-env=GIT_PRISM_VERSION={line}");
}
