//! Figure 1: the passthrough overhead.
//!
//! Three ways to run the same git command, side by side: git directly; through the git-prism
//! shim (first on PATH); through the floor, a static C program that only `execv`s the real
//! git. The shim's added latency is compared with the floor's: the budget is 1.5x.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::Options;
use crate::report::Report;
use crate::timing::{interleaved, median, ms, ms_signed};

/// The commands measured: (arguments, run in an agent's environment).
const COMMANDS: &[(&[&str], bool)] = &[
    (&["rev-parse", "HEAD"], false),
    (&["status", "--short"], true),
    (&["diff", "--stat", "HEAD~1"], true),
];

/// The shim's added latency may be at most this multiple of the floor's.
const BUDGET: f64 = 1.5;

pub fn run(options: &Options, report: &mut Report) -> Result<()> {
    let dirs = Dirs::prepare(options)?;
    let mut rows = Vec::new();
    let mut worst: f64 = 0.0;
    for (args, agent) in COMMANDS {
        let make = |dir: Option<&Path>| {
            let dir = dir.map(Path::to_path_buf);
            let real_dir = dirs.real_dir.clone();
            let corpus = options.corpus.clone();
            let home = dirs.home.clone();
            let agent = *agent;
            move || {
                let mut path = Vec::new();
                if let Some(d) = &dir {
                    path.push(d.clone());
                }
                path.push(real_dir.clone());
                path.push(PathBuf::from("/usr/bin"));
                path.push(PathBuf::from("/bin"));
                let mut cmd = Command::new("git");
                cmd.args(*args)
                    .current_dir(&corpus)
                    .env_clear()
                    .env(
                        "PATH",
                        std::env::join_paths(path).expect("paths without ':'"),
                    )
                    .env("HOME", &home)
                    .env("GIT_CONFIG_NOSYSTEM", "1")
                    .env("GIT_CONFIG_GLOBAL", "/dev/null");
                if agent {
                    cmd.env("CLAUDECODE", "1");
                }
                cmd
            }
        };
        let direct = make(None);
        let shim = make(Some(&dirs.shim_dir));
        let floor = make(Some(&dirs.floor_dir));
        let samples = interleaved(options.runs, &[&direct, &shim, &floor])?;
        let (d, s, f) = (
            median(&samples[0]),
            median(&samples[1]),
            median(&samples[2]),
        );
        let shim_added = s.as_secs_f64() - d.as_secs_f64();
        let floor_added = f.as_secs_f64() - d.as_secs_f64();
        let ratio = if floor_added > 0.0 {
            shim_added / floor_added
        } else {
            f64::NAN
        };
        worst = worst.max(ratio);
        rows.push(vec![
            format!(
                "`git {}`{}",
                args.join(" "),
                if *agent { " (agent)" } else { "" }
            ),
            ms(d),
            ms(s),
            ms(f),
            ms_signed(s, d),
            ms_signed(f, d),
            format!("{ratio:.2}"),
        ]);
    }
    let decide_us = decision_cost(options)?;
    report.section(
        "Passthrough overhead",
        &format!(
            "Median wall time of {} runs per variant, interleaved. Budget: shim-added / floor-added <= {BUDGET}. Worst ratio: {worst:.2} ({}). The whole decision for an agent's `git diff HEAD~1..HEAD` (detection, classifier, /proc fidelity check) takes {decide_us} µs (median of 2000, `git-prism explain --repeat`).",
            options.runs,
            if worst <= BUDGET { "within budget" } else { "OVER BUDGET" }
        ),
        &["command", "git (ms)", "shim (ms)", "floor (ms)", "shim added", "floor added", "ratio"],
        &rows,
    );
    Ok(())
}

/// Returns the median time of one shim decision for an agent's watched call, in microseconds.
fn decision_cost(options: &Options) -> Result<String> {
    let out = Command::new("bash")
        .arg("-c")
        .arg(r#""$0" explain --repeat 2000 -- diff HEAD~1..HEAD"#)
        .arg(&options.binary)
        .env("CLAUDECODE", "1")
        .current_dir(&options.corpus)
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let value = text
        .split("\"decide_us\":")
        .nth(1)
        .and_then(|rest| rest.split([',', '}']).next())
        .context("explain printed no decide_us")?;
    if !text.contains("\"structured\"") {
        bail!("explain did not decide `structured`: {text}");
    }
    Ok(value.to_owned())
}

/// The directories that put each variant first on PATH.
struct Dirs {
    real_dir: PathBuf,
    shim_dir: PathBuf,
    floor_dir: PathBuf,
    home: PathBuf,
}

impl Dirs {
    fn prepare(options: &Options) -> Result<Dirs> {
        let real_dir = options
            .git
            .parent()
            .context("git has no directory")?
            .to_owned();
        let shim_dir = options.work.join("shim");
        let floor_dir = options.work.join("floor");
        let home = options.work.join("home");
        for d in [&shim_dir, &floor_dir, &home] {
            std::fs::create_dir_all(d)?;
        }
        let link = shim_dir.join("git");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&options.binary, &link)?;
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("floor.c");
        let status = Command::new("cc")
            .args(["-O2", "-static", "-o"])
            .arg(floor_dir.join("git"))
            .arg(format!("-DREAL_GIT=\"{}\"", options.git.display()))
            .arg(&source)
            .status()
            .context("running the C compiler for the floor program")?;
        if !status.success() {
            bail!("compiling {} failed", source.display());
        }
        Ok(Dirs {
            real_dir,
            shim_dir,
            floor_dir,
            home,
        })
    }
}
