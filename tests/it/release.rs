//! Installing and shipping (issue 23): `cargo install --locked --path .` gives a working
//! binary and shim; the completions and man page are valid; the release archive unpacks and
//! its SHA256SUMS verifies; `--version` names the build.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{TestEnv, bin};

/// The repository's top.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The target directory the tests were built in (so `cargo install --debug` reuses it).
fn target_dir() -> PathBuf {
    bin().parent().and_then(Path::parent).unwrap().to_owned()
}

/// Runs `cmd`, failing the test with its stderr unless it succeeds; returns its stdout.
fn ok(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn have(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok()
}

#[test]
fn cargo_install_gives_a_working_binary_and_shim() {
    let env = TestEnv::new();
    let install_root = env.root().join("install");
    // `--debug` reuses this build's artifacts (a release install is the same command, slower).
    ok(
        Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(["install", "--locked", "--debug", "--quiet", "--path"])
            .arg(root())
            .arg("--root")
            .arg(&install_root)
            .env("CARGO_TARGET_DIR", target_dir())
            .env_remove("RUSTFLAGS"),
    );
    let installed = install_root.join("bin/git-prism");
    let version = ok(env.command(&installed, &env.plain_path()).arg("--version"));
    assert!(String::from_utf8_lossy(&version).starts_with("git-prism 0.1.0"));
    // The installed binary as `git`, through the shim it installs.
    let shim = env.root().join("shim-bin");
    ok(env
        .command(&installed, &env.plain_path())
        .args(["shim", "install", "--no", "--dir"])
        .arg(&shim));
    let repo = env.repo("repo");
    repo.write("a.py", "def f():\n    return 1\n").commit("one");
    repo.write("a.py", "def f():\n    return 2\n").commit("two");
    let path =
        std::env::join_paths([shim, env.real_dir(), "/usr/bin".into(), "/bin".into()]).unwrap();
    let out = env
        .command("git", &path)
        .args(["diff", "HEAD~1..HEAD"])
        .env("CLAUDECODE", "1")
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    assert!(doc["hunks"]["a.py"].is_array(), "{doc}");
}

#[test]
fn completions_and_the_man_page_are_valid() {
    let env = TestEnv::new();
    let run = |args: &[&str]| {
        let out = env
            .command(bin(), &env.plain_path())
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        out.stdout
    };
    let dir = env.root();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let text = run(&["completions", shell]);
        assert!(
            String::from_utf8_lossy(&text).contains("git-prism"),
            "{shell}"
        );
        if shell == "bash" {
            let file = dir.join("git-prism.bash");
            std::fs::write(&file, &text).unwrap();
            let check = Command::new("bash").arg("-n").arg(&file).output().unwrap();
            assert!(
                check.status.success(),
                "{}",
                String::from_utf8_lossy(&check.stderr)
            );
            // Every subcommand completes.
            for sub in ["shim", "session", "manifest", "serve", "completions", "man"] {
                assert!(String::from_utf8_lossy(&text).contains(sub), "{sub}");
            }
        }
    }
    let man = run(&["man"]);
    let text = String::from_utf8_lossy(&man);
    assert!(
        text.contains(".TH git-prism 1"),
        "{}",
        &text[..200.min(text.len())]
    );
    if have("mandoc") {
        let file = dir.join("git-prism.1");
        std::fs::write(&file, &man).unwrap();
        let lint = Command::new("mandoc")
            .args(["-T", "lint", "-W", "warning"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            lint.status.success(),
            "{}{}",
            String::from_utf8_lossy(&lint.stdout),
            String::from_utf8_lossy(&lint.stderr)
        );
    }
}

#[test]
fn the_release_archive_unpacks_and_its_checksums_verify() {
    let env = TestEnv::new();
    let out_dir = env.root().join("dist");
    let out = Command::new(root().join("scripts/dist.sh"))
        .arg(bin())
        .arg("x86_64-unknown-linux-gnu")
        .arg(&out_dir)
        .env("GIT_PRISM_PASSTHROUGH", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let check = Command::new("sha256sum")
        .args(["-c", "SHA256SUMS"])
        .current_dir(&out_dir)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let archive = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    let unpack = env.root().join("unpacked");
    std::fs::create_dir_all(&unpack).unwrap();
    let tar = Command::new("tar")
        .args(["-xzf", &archive, "-C"])
        .arg(&unpack)
        .output()
        .unwrap();
    assert!(tar.status.success());
    let name = Path::new(&archive)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .trim_end_matches(".tar.gz")
        .to_owned();
    let top = unpack.join(&name);
    for file in [
        "git-prism",
        "README.md",
        "CHANGELOG.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "man/git-prism.1",
        "man/git-prism-shim-install.1",
        "man/git-prism-session-verify.1",
        "completions/git-prism.bash",
        "completions/_git-prism",
        "completions/git-prism.fish",
    ] {
        assert!(top.join(file).is_file(), "{file} missing from {name}");
    }
    let version = Command::new(top.join("git-prism"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("git-prism "));
    // A damaged archive fails the check.
    let mut bytes = std::fs::read(&archive).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&archive, bytes).unwrap();
    let check = Command::new("sha256sum")
        .args(["-c", "SHA256SUMS"])
        .current_dir(&out_dir)
        .output()
        .unwrap();
    assert!(!check.status.success());
}

#[test]
fn the_version_names_the_build_everywhere() {
    let env = TestEnv::new();
    let version = env
        .command(bin(), &env.plain_path())
        .arg("--version")
        .output()
        .unwrap();
    let line = String::from_utf8(version.stdout).unwrap();
    // `git-prism 0.1.0 (<12 hex>[-dirty])` in a checkout.
    assert!(line.starts_with("git-prism 0.1.0"), "{line}");
    if root().join(".git").exists() {
        let commit = line
            .split('(')
            .nth(1)
            .unwrap()
            .trim_end()
            .trim_end_matches(')');
        assert!(commit.trim_end_matches("-dirty").len() == 12, "{line}");
    }
    let status = env
        .command(bin(), &env.plain_path())
        .args(["shim", "status", "--json", "--dir"])
        .arg(env.root().join("none"))
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(
        doc["version"].as_str().unwrap(),
        line.trim().trim_start_matches("git-prism ")
    );
}

/// The manual (issue 38): one page per command, each rendering without a warning and holding
/// EXIT STATUS, ENVIRONMENT, FILES and EXAMPLES; git-prism(1) names every subcommand's page,
/// and each of those exists.
#[test]
fn every_manual_page_renders_with_its_four_sections() {
    let env = TestEnv::new();
    let dir = env.root().join("man1");
    let out = env
        .command(bin(), &env.plain_path())
        .arg("man")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    pages.sort();
    assert!(pages.len() >= 20, "{pages:?}");
    let main = std::fs::read_to_string(dir.join("git-prism.1"))
        .unwrap()
        .replace("\\-", "-");
    for name in [
        "git-prism-shim",
        "git-prism-session",
        "git-prism-verify",
        "git-prism-man",
    ] {
        assert!(main.contains(&format!("{name}(1)")), "{name}");
        assert!(dir.join(format!("{name}.1")).is_file(), "{name}.1");
    }
    for page in &pages {
        let roff = std::fs::read_to_string(page).unwrap();
        // The roff itself, whatever renders it.
        for section in ["EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"] {
            assert!(
                roff.contains(&format!(".SH \"{section}\""))
                    || roff.contains(&format!(".SH {section}")),
                "{}: no {section}",
                page.display()
            );
        }
        // Rendered as a reader sees it.
        let rendered = if have("man") {
            Command::new("man")
                .args(["--warnings", "-l"])
                .arg(page)
                .env("MANWIDTH", "80")
                .env("MAN_KEEP_FORMATTING", "0")
                .env("LC_ALL", "C")
                .env("PAGER", "cat")
                .env("MANPAGER", "cat")
                .output()
                .ok()
        } else if have("mandoc") {
            Command::new("mandoc")
                .args(["-T", "ascii", "-W", "warning"])
                .arg(page)
                .output()
                .ok()
        } else {
            None
        };
        let Some(rendered) = rendered else { continue };
        // Bold and underline as a terminal's overstrikes (`E\bE`): the letters alone.
        let mut text = String::new();
        for c in String::from_utf8_lossy(&rendered.stdout).chars() {
            if c == '\u{8}' {
                text.pop();
            } else {
                text.push(c);
            }
        }
        let warnings = String::from_utf8_lossy(&rendered.stderr);
        assert!(
            rendered.status.success() && warnings.trim().is_empty(),
            "{}: {warnings}",
            page.display()
        );
        for section in ["EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"] {
            assert!(
                text.contains(section),
                "{} renders without {section}:\n{text}",
                page.display()
            );
        }
    }
}
