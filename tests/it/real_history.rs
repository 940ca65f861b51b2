//! A larger history built from real code: the sources of crates this project depends on
//! (present in cargo's registry because building the tests needed them), committed as a
//! sequence of big refactors: directory moves with edits, deletions, replacements, copies,
//! mode changes and line-ending rewrites. Every step and the whole range must match git.

use std::path::{Path, PathBuf};

use crate::common::{Repo, TestEnv};
use crate::oracle::assert_matches_git;

/// Returns the unpacked sources of a locked dependency.
fn crate_source(name: &str) -> PathBuf {
    let lock =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock")).unwrap();
    let mut version = None;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == format!("name = \"{name}\"") {
            let v = lines.next().unwrap();
            version = v
                .strip_prefix("version = \"")
                .map(|v| v.trim_end_matches('"').to_owned());
            break;
        }
    }
    let version = version.unwrap_or_else(|| panic!("{name} is not in Cargo.lock"));
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cargo"));
    for index in std::fs::read_dir(home.join("registry/src")).unwrap() {
        let dir = index.unwrap().path().join(format!("{name}-{version}"));
        if dir.is_dir() {
            return dir;
        }
    }
    panic!(
        "the sources of {name} {version} are not in {}",
        home.display()
    );
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let kind = entry.file_type().unwrap();
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).unwrap();
            let mut perms = std::fs::metadata(&target).unwrap().permissions();
            std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o644);
            std::fs::set_permissions(&target, perms).unwrap();
        }
    }
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn build(repo: &Repo<'_>) {
    let d = &repo.dir;
    copy_tree(
        &crate_source("gix-object").join("src"),
        &d.join("lib/object"),
    );
    copy_tree(&crate_source("gix-hash").join("src"), &d.join("lib/hash"));
    copy_tree(&crate_source("clap_lex").join("src"), &d.join("lib/lex"));
    repo.commit("c1: three crates");
    repo.git(&["tag", "r1"]);

    // Move a directory and edit some of the moved files; delete one crate, add another.
    repo.git(&["mv", "lib/object", "lib/obj"]);
    for (i, file) in rust_files(&d.join("lib/obj")).iter().enumerate() {
        if i % 3 == 0 {
            let mut text = std::fs::read_to_string(file).unwrap();
            text = text.replacen("fn ", "pub(crate) fn ", 2);
            text.push_str("\n// edited after the move\n");
            std::fs::write(file, text).unwrap();
        }
    }
    std::fs::remove_dir_all(d.join("lib/lex")).unwrap();
    copy_tree(&crate_source("gix-date").join("src"), &d.join("lib/date"));
    repo.commit("c2: move with edits, delete, add");
    repo.git(&["tag", "r2"]);

    // Replace a crate's sources wholesale; vendor another.
    std::fs::remove_dir_all(d.join("lib/hash")).unwrap();
    copy_tree(
        &crate_source("gix-hashtable").join("src"),
        &d.join("lib/hash"),
    );
    copy_tree(
        &crate_source("bitflags").join("src"),
        &d.join("vendor/bitflags"),
    );
    repo.commit("c3: replace and vendor");
    repo.git(&["tag", "r3"]);

    // Copies, a mode change, CRLF line endings, a file without its last newline.
    copy_tree(&d.join("lib/date"), &d.join("lib/date_copy"));
    let files = rust_files(&d.join("lib/date"));
    let crlf = &files[0];
    let text = std::fs::read_to_string(crlf).unwrap().replace('\n', "\r\n");
    std::fs::write(crlf, text).unwrap();
    let noeol = &files[1];
    let text = std::fs::read_to_string(noeol).unwrap();
    std::fs::write(noeol, text.trim_end()).unwrap();
    let mut perms = std::fs::metadata(&files[2]).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&files[2], perms).unwrap();
    repo.commit("c4: copies, CRLF, no EOL, mode");
    repo.git(&["tag", "r4"]);

    // Bring a deleted crate back with edits, drop the copy, interleave small edits everywhere.
    std::fs::remove_dir_all(d.join("lib/date_copy")).unwrap();
    copy_tree(&crate_source("clap_lex").join("src"), &d.join("lib/lex"));
    for (i, file) in rust_files(d).iter().enumerate() {
        if i % 5 == 0 {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            let edited: String = text
                .lines()
                .enumerate()
                .filter(|(n, _)| n % 7 != 3)
                .map(|(_, l)| format!("{l}\n"))
                .collect();
            std::fs::write(file, edited).unwrap();
        }
    }
    repo.commit("c5: resurrect with edits, sprinkle deletions");
    repo.git(&["tag", "r5"]);
}

#[test]
fn a_history_of_real_code_matches_git() {
    let env = TestEnv::new();
    let repo = env.repo("real");
    build(&repo);
    let tags = ["r1", "r2", "r3", "r4", "r5"];
    let mut renames = 0;
    for pair in tags.windows(2) {
        let doc = assert_matches_git(
            &env,
            &repo,
            &repo.dir,
            &[&format!("{}..{}", pair[0], pair[1])],
        );
        renames += doc["summary"]["renamed"].as_u64().unwrap_or(0);
    }
    assert!(
        renames > 10,
        "the history must exercise renames ({renames})"
    );
    for args in [
        &["r1..r5"][..],
        &["r5..r1"],
        &["-C", "--find-copies-harder", "r3..r4"],
        &["-B", "r2..r3"],
        &["--no-renames", "r1..r2"],
        &["-M30%", "r2..r3"],
        &["r1..r5", "--", "lib/obj", "vendor"],
    ] {
        assert_matches_git(&env, &repo, &repo.dir, args);
    }
}
