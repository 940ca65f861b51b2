//! The repository's own housekeeping: every test file is compiled into this binary, and no
//! committed file carries a path of the machine it was written on.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's top (this crate's directory).
fn top() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file under `tests/it` that `main.rs` does not declare is never compiled, so its tests
/// silently never run (the check of jj's `test_no_forgotten_test_files`).
#[test]
fn every_test_file_is_a_module_of_the_test_binary() {
    let dir = top().join("tests/it");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    let declared: BTreeSet<&str> = main
        .lines()
        .filter_map(|l| l.trim().strip_prefix("mod ")?.strip_suffix(';'))
        .collect();
    let mut forgotten = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let is_module = path.extension().is_some_and(|e| e == "rs")
            || path.is_dir() && path.join("mod.rs").is_file();
        if is_module && stem != "main" && !declared.contains(stem) {
            forgotten.push(stem.to_owned());
        }
    }
    assert!(
        forgotten.is_empty(),
        "tests/it/main.rs does not declare `mod {};`: these tests never run",
        forgotten.join(";`, `mod ")
    );
}

/// Files that must name a machine's paths, and why.
const MACHINE_PATHS_ALLOWED: &[(&str, &str)] = &[(
    ".ci/run",
    "the CI machine's script: it looks for the shared corpus where that machine keeps it",
)];

/// The names a deliberate example gives a user's home (`/home/me/src/app` in the README).
const EXAMPLE_USERS: &[&str] = &["me", "u", "a", "x", "user", "you", "alice", "bob"];

/// The starts of a path that only exists on one machine: a checkout's or a user's directory.
/// Spelled in pieces, so this file does not match itself.
fn machine_roots() -> [String; 4] {
    [
        ["/wo", "rk/"].concat(),
        ["/ro", "ot/"].concat(),
        ["/ho", "me/"].concat(),
        ["/Us", "ers/"].concat(),
    ]
}

/// The machine paths in `text`: each start of [`machine_roots`] at the beginning of a path
/// (not inside another, like `src/root/`, nor under `~`), with a user's name that is no
/// example's for the home directories.
fn machine_paths(text: &str) -> Vec<String> {
    let roots = machine_roots();
    let mut found = Vec::new();
    for root in &roots {
        for (at, _) in text.match_indices(root.as_str()) {
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || "~._-$}".contains(c)) {
                continue;
            }
            let rest = &text[at + root.len()..];
            let end = rest
                .find(|c: char| c.is_whitespace() || "`'\")]>,;".contains(c))
                .unwrap_or(rest.len());
            let path = &rest[..end];
            let homes = root.ends_with("me/") || root.ends_with("ers/");
            if homes {
                let user = path.split('/').next().unwrap_or("");
                if user.is_empty() || EXAMPLE_USERS.contains(&user) {
                    continue;
                }
            }
            found.push(format!("{root}{path}"));
        }
    }
    found
}

#[test]
fn machine_paths_are_found_and_examples_are_not() {
    let w = ["/wo", "rk/"].concat();
    let r = ["/ro", "ot/"].concat();
    let h = ["/ho", "me/"].concat();
    let cases = [
        (format!("Corpus: {w}main/target/repo (1111 commits)"), 1),
        (
            format!("B={r}.cache/git-prism/ci-target/debug/git-prism"),
            1,
        ),
        (format!("see {h}jdoe/src/x"), 1),
        (format!("path = \"{h}me/src/app\""), 0),
        (format!("hidden = [\"~{w}secret\"]"), 0),
        (format!("in src{r}mod.rs and $HOME{w}x"), 0),
        ("nothing here".to_owned(), 0),
    ];
    for (text, want) in cases {
        assert_eq!(machine_paths(&text).len(), want, "{text}");
    }
}

/// The files git tracks here.
fn committed_files(top: &Path) -> Vec<PathBuf> {
    let out = Command::new(crate::common::real_git())
        .args(["ls-files", "-z"])
        .current_dir(top)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_PRISM_PASSTHROUGH", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git ls-files in {}: {}",
        top.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| top.join(String::from_utf8_lossy(p).as_ref()))
        .collect()
}

/// A path of the machine that wrote a file says nothing to another reader and tells the world
/// how that machine is laid out: results, docs and code name paths relative to the repository
/// or by name (issue 37).
#[test]
fn no_committed_file_names_a_path_of_this_machine() {
    let top = top();
    let mut found = Vec::new();
    for file in committed_files(&top) {
        let shown = file
            .strip_prefix(&top)
            .unwrap_or(&file)
            .display()
            .to_string();
        if MACHINE_PATHS_ALLOWED.iter().any(|(f, _)| *f == shown) {
            continue;
        }
        // Deleted but not yet committed, or not text: nothing to read.
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        for (n, line) in text.lines().enumerate() {
            for path in machine_paths(line) {
                found.push(format!("{shown}:{}: {path}", n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "machine paths in committed files (name them relative to the repository, or by \
         name):\n{}",
        found.join("\n")
    );
}
