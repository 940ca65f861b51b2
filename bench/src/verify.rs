//! Figure: `git-prism verify` on a repository of 100,000 files (issue 28: at most 1 s warm,
//! `--pushed` aside), beside the `git status` it cannot do without, interleaved. The repository
//! is built once in the work directory: 1,000 directories of 100 files, one commit on top of the
//! base; every check but `pushed` asked.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Result, ensure};

use crate::Options;
use crate::report::Report;
use crate::timing::{interleaved, median, ms};

const DIRS: usize = 1_000;
const PER_DIR: usize = 100;

fn git(options: &Options, dir: &Path) -> Command {
    crate::scratch::git(&options.git, dir)
}

/// The 100,000-file repository, built on first use.
fn big_repo(options: &Options) -> Result<PathBuf> {
    let dir = options.work.join("verify-100k");
    if dir.join(".git/bench-ready").exists() {
        return Ok(dir);
    }
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    crate::scratch::run(&options.git, &dir, &["init", "-q", "-b", "main"])?;
    for d in 0..DIRS {
        let sub = dir.join(format!("d{d:04}"));
        std::fs::create_dir_all(&sub)?;
        for f in 0..PER_DIR {
            std::fs::write(sub.join(format!("f{f:03}.txt")), format!("{d} {f}\n"))?;
        }
    }
    for args in [
        &["add", "-A"][..],
        &["commit", "-q", "-m", "base"],
        &["tag", "base"],
    ] {
        crate::scratch::run(&options.git, &dir, args)?;
    }
    std::fs::write(dir.join("d0000/f000.txt"), "changed\n")?;
    crate::scratch::run(&options.git, &dir, &["commit", "-q", "-am", "work"])?;
    std::fs::write(dir.join(".git/bench-ready"), "")?;
    Ok(dir)
}

/// Numbers the blocked case's sessions.
static RUN: AtomicUsize = AtomicUsize::new(0);

pub fn run(options: &Options, report: &mut Report) -> Result<()> {
    let dir = big_repo(options)?;
    // The file the hook's blocked case changes, as committed (a run stopped midway leaves it
    // changed).
    crate::scratch::run(&options.git, &dir, &["checkout", "--", "d0500/f050.txt"])?;
    let files = crate::scratch::run(&options.git, &dir, &["ls-files", "-z"])?
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .count();
    let verify = || {
        let mut c = Command::new(&options.binary);
        c.current_dir(&dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_PRISM_REAL_GIT", &options.git)
            .args([
                "verify",
                "--since",
                "base",
                "--merged-into",
                "main",
                "--protected",
                "d0999/",
            ]);
        c
    };
    let status = || {
        let mut c = git(options, &dir);
        c.args(["status", "--porcelain", "-z", "--untracked-files=all"]);
        c
    };
    let out = verify().output()?;
    ensure!(
        out.status.success() && out.stdout.is_empty(),
        "verify failed: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    let samples = interleaved(9, &[&verify, &status])?;
    let (v, s) = (median(&samples[0]), median(&samples[1]));
    // The done-gate's stop hook (issue 35: at most 300 ms warm), as Claude Code runs it: its
    // JSON on stdin, once where nothing changed since the session started, once with a file
    // changed (a block, exit 2).
    let hook = |changed: bool| {
        let dir = dir.clone();
        let binary = options.binary.clone();
        let git = options.git.clone();
        let tmp = options.work.join("hook-tmp");
        let _ = std::fs::create_dir_all(&tmp);
        move || {
            let mut c = Command::new("sh");
            // The blocked case: a new session each run, as the hook lets a turn end after
            // `MAX_BLOCKS` blocks in a row of one session (it never loops).
            let session = if changed {
                format!("bench-changed-{}", RUN.fetch_add(1, Ordering::Relaxed))
            } else {
                "bench-same".to_owned()
            };
            // A block is the hook's success there: exit 2, which the timing takes as 0.
            let blocks = if changed { "; test $? -eq 2" } else { "" };
            c.arg("-c")
                .arg(format!(
                    r#"printf '%s' '{{"session_id":"{session}","cwd":"{}","hook_event_name":"Stop","stop_hook_active":false}}' | "$0" hook stop --harness claude{blocks}"#,
                    dir.display()
                ))
                .arg(&binary)
                .current_dir(&dir)
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .env("GIT_PRISM_REAL_GIT", &git)
                .env("TMPDIR", &tmp);
            c
        }
    };
    // Where the work started, for the unchanged case: the session-start hook notes it.
    let start = Command::new("sh")
        .arg("-c")
        .arg(format!(
            r#"printf '%s' '{{"session_id":"bench-same","cwd":"{}"}}' | "$0" hook session-start --harness claude >/dev/null"#,
            dir.display()
        ))
        .arg(&options.binary)
        .current_dir(&dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("TMPDIR", options.work.join("hook-tmp"))
        .status()?;
    ensure!(start.success(), "hook session-start failed");
    let same = hook(false);
    let hook_samples = interleaved(9, &[&same])?;
    std::fs::write(dir.join("d0500/f050.txt"), "changed by the bench\n")?;
    let changed = hook(true);
    let blocked = changed().output()?;
    // The command succeeds only when the hook exits 2 (it blocked).
    ensure!(
        blocked.status.success(),
        "the hook did not block a changed work tree: {blocked:?}"
    );
    let changed_samples = interleaved(9, &[&changed])?;
    crate::scratch::run(&options.git, &dir, &["checkout", "--", "d0500/f050.txt"])?;
    let (same_ms, changed_ms) = (median(&hook_samples[0]), median(&changed_samples[0]));
    report.section(
        "hook stop",
        &format!(
            "`git-prism hook stop --harness claude` with Claude Code's JSON on stdin, on the same repository of {files} files: where nothing changed since session start, and with one file changed (a block, exit 2); medians of 9 warm runs. Budget (issue 35): 300 ms warm."
        ),
        &["case", "hook stop (ms)", "within budget"],
        &[
            vec![
                "nothing changed".into(),
                ms(same_ms),
                if same_ms.as_secs_f64() <= 0.3 { "yes" } else { "no" }.into(),
            ],
            vec![
                "a file changed (blocked)".into(),
                ms(changed_ms),
                if changed_ms.as_secs_f64() <= 0.3 { "yes" } else { "no" }.into(),
            ],
        ],
    );
    report.section(
        "verify",
        &format!(
            "`git-prism verify --since base --merged-into main --protected d0999/` on a repository of {files} files (one commit since base), beside `git status --porcelain --untracked-files=all`, medians of 9 interleaved warm runs. Budget: 1 s warm."
        ),
        &["files", "verify (ms)", "git status (ms)", "within budget"],
        &[vec![
            files.to_string(),
            ms(v),
            ms(s),
            if v.as_secs_f64() <= 1.0 { "yes" } else { "no" }.into(),
        ]],
    );
    Ok(())
}
