//! Figure: `git blame` of a large file (issue 29). The shim's answer to an agent's
//! `git blame big.txt` against git's own `git blame big.txt`, for files of 20,000, 100,000
//! and 200,000 lines with a history of 20 commits each changing 1% of the lines at random
//! (one run of lines per change, as a long-lived file has). Whole processes, wall time,
//! interleaved, medians; beside them the `git blame --porcelain` the shim runs, so that the
//! shim's own part shows. The budget: at most 1.5 times git's own time at every size, and the
//! shim's own part about the same per line at every size (linear).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::Options;
use crate::report::Report;
use crate::timing::{median, ms};

/// Lines of the blamed files.
const SIZES: [usize; 3] = [20_000, 100_000, 200_000];
/// Commits of each file's history.
const COMMITS: usize = 20;
/// Timed runs of each side at each size.
const RUNS: usize = 5;
/// The budget against git's own time.
const MOST: f64 = 1.5;

/// A small deterministic generator (no dependency for a shuffle).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from((self.0 >> 33) % (n as u64)).unwrap_or(0)
    }
}

/// Builds `dir`: `big.txt` of `lines` lines over [`COMMITS`] commits.
fn build(git: &Path, dir: &Path, lines: usize) -> Result<()> {
    if dir.join(".git").exists() {
        return Ok(());
    }
    let tmp = dir.with_extension("tmp");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp)?;
    let run = |args: &[&str]| crate::scratch::run(git, &tmp, args).map(drop);
    run(&["init", "-q"])?;
    let mut text: Vec<String> = (0..lines).map(|i| format!("l{i:07} c0\n")).collect();
    let mut rng = Lcg(lines as u64);
    for commit in 0..COMMITS {
        if commit > 0 {
            for _ in 0..lines / 100 {
                let i = rng.below(lines);
                text[i] = format!("l{i:07} c{commit}\n");
            }
        }
        std::fs::write(tmp.join("big.txt"), text.concat())?;
        run(&["add", "big.txt"])?;
        run(&["commit", "-q", "-m", &format!("commit {commit}")])?;
    }
    std::fs::rename(&tmp, dir)?;
    Ok(())
}

/// One `git blame <options> big.txt` in `repo` with `path`; as an agent when `agent` (the bench holds
/// the pipe the shim writes to, as an agent's harness does). Returns the wall time and
/// whether the output was a JSON answer.
fn blame_once(
    git: &Path,
    repo: &Path,
    path: &std::ffi::OsStr,
    options: &[&str],
    agent: bool,
) -> Result<(Duration, bool)> {
    let mut cmd = Command::new(git);
    cmd.arg("blame")
        .args(options)
        .arg("big.txt")
        .current_dir(repo)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if agent {
        cmd.env("CLAUDECODE", "1")
            .env("GIT_PRISM_ANSWER_TIMEOUT", "600");
    } else {
        cmd.env("GIT_PRISM_PASSTHROUGH", "1");
    }
    let started = Instant::now();
    let out = cmd.output()?;
    let wall = started.elapsed();
    if !out.status.success() {
        bail!("git blame in {} failed", repo.display());
    }
    Ok((wall, out.stdout.first() == Some(&b'{')))
}

pub fn run(options: &Options, report: &mut Report) -> Result<()> {
    let dir = options.work.join("blame");
    std::fs::create_dir_all(&dir)?;
    let shim = dir.join("shim");
    std::fs::create_dir_all(&shim)?;
    let link = shim.join("git");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&options.binary, &link)?;
    let real_dir: PathBuf = options
        .git
        .parent()
        .context("git has no directory")?
        .to_owned();
    let shim_path = std::env::join_paths([
        shim.clone(),
        real_dir.clone(),
        "/usr/bin".into(),
        "/bin".into(),
    ])?;
    let plain_path = std::env::join_paths([real_dir, "/usr/bin".into(), "/bin".into()])?;

    let mut rows = Vec::new();
    let mut ok = true;
    let mut per_line = Vec::new();
    for lines in SIZES {
        let repo = dir.join(format!("lines-{lines}"));
        build(&options.git, &repo, lines)?;
        let (mut git_times, mut porcelain_times, mut shim_times) =
            (Vec::new(), Vec::new(), Vec::new());
        let mut answered = true;
        // Warm the page cache; then interleaved, the order rotating.
        blame_once(&options.git, &repo, &plain_path, &[], false)?;
        for round in 0..RUNS {
            for k in 0..3 {
                match (round + k) % 3 {
                    0 => {
                        let (wall, json) = blame_once(&link, &repo, &shim_path, &[], true)?;
                        answered &= json;
                        shim_times.push(wall);
                    }
                    1 => {
                        git_times.push(blame_once(&options.git, &repo, &plain_path, &[], false)?.0)
                    }
                    _ => porcelain_times.push(
                        blame_once(&options.git, &repo, &plain_path, &["--porcelain"], false)?.0,
                    ),
                }
            }
        }
        let (g, p, s) = (
            median(&git_times),
            median(&porcelain_times),
            median(&shim_times),
        );
        let ratio = s.as_secs_f64() / g.as_secs_f64();
        let met = ratio <= MOST && answered;
        ok &= met;
        // git-prism's own part: what the shim adds to the git run it makes, per line.
        let own = (s.as_secs_f64() - p.as_secs_f64()) * 1e6 / lines as f64;
        per_line.push(own);
        rows.push(vec![
            format!("{lines}"),
            ms(g),
            ms(p),
            ms(s),
            format!("{ratio:.2}x"),
            format!("{own:.1}"),
            if answered { "JSON" } else { "git's output" }.to_owned(),
            if met { "met" } else { "NOT MET" }.to_owned(),
        ]);
    }
    let (least, most) = per_line
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, m), &x| (l.min(x), m.max(x)));
    report.section(
        "Blame of a large file",
        &format!(
            "`git blame big.txt`: git's own against the shim's answer to an agent, whole processes, medians of {RUNS} interleaved runs. Each file has {COMMITS} commits, each changing 1% of its lines. Budget (issue 29): at most {MOST}x git's time at every size: {}; what the shim adds to the `git blame --porcelain` it runs, per line, from {least:.1} to {most:.1} us (linear when these are alike; git's own time grows faster than its lines, with the runs; git's default output costs more than porcelain, which prints full ids instead of finding the shortest unique ones).",
            if ok { "met" } else { "NOT MET" }
        ),
        &[
            "lines",
            "git (ms)",
            "git --porcelain (ms)",
            "shim (ms)",
            "shim / git",
            "shim's own us per line",
            "answer",
            "budget",
        ],
        &rows,
    );
    Ok(())
}
