//! Figure 1: the passthrough overhead.
//!
//! Three ways to run the same git command, side by side: git directly; through the git-prism
//! shim (first on PATH); through the floor, a static C program that only `execv`s the real
//! git. The shim's added latency is compared with the floor's: the budget is 1.5x.
//!
//! Beside it, the `guard` figure ([`guard_cost`]): what the session guard adds to a call it
//! lets through.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::Options;
use crate::report::Report;
use crate::timing::{interleaved, median, ms, time_once};

/// The commands measured: (arguments, run in an agent's environment).
const COMMANDS: &[(&[&str], bool)] = &[
    (&["rev-parse", "HEAD"], false),
    (&["status", "--short"], true),
    (&["diff", "--stat", "HEAD~1"], true),
];

/// The shim's added latency may be at most this multiple of the floor's.
const BUDGET: f64 = 1.5;

/// Wall time one row may take at most before its run count stops growing. A slow command
/// (a 40 ms `diff --stat` of a big release) needs many more runs than a 1 ms `rev-parse` for
/// a sub-millisecond difference to rise above its jitter.
const ROW_SECONDS: f64 = 60.0;

/// The most runs per variant for one row.
const MAX_RUNS: usize = 1500;

pub fn run(options: &Options, report: &mut Report) -> Result<()> {
    let dirs = Dirs::prepare(options)?;
    let mut rows = Vec::new();
    let mut worst: f64 = 0.0;
    // The lowest ratio the noise allows for the worst row (infinite once a row is over budget
    // even at the low end of its interval).
    let mut worst_plausible: f64 = 0.0;
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
        let runs = runs_for(options.runs, &direct)?;
        let samples = interleaved(runs, &[&direct, &shim, &floor])?;
        let (d, s, f) = (
            median(&samples[0]),
            median(&samples[1]),
            median(&samples[2]),
        );
        // The added latency is the median of per-round differences: each round runs the three
        // variants back to back, so slow drift (page cache, frequency scaling) cancels out.
        let shim_added = paired_median(&samples[1], &samples[0]);
        let floor_added = paired_median(&samples[2], &samples[0]);
        let ratio = ratio_of(shim_added, floor_added);
        let (low, high) = bootstrap_ratio(&samples);
        worst = worst.max(ratio);
        if low <= BUDGET {
            worst_plausible = worst_plausible.max(low);
        } else {
            worst_plausible = f64::INFINITY;
        }
        rows.push(vec![
            format!(
                "`git {}`{}",
                args.join(" "),
                if *agent { " (agent)" } else { "" }
            ),
            ms(d),
            ms(s),
            ms(f),
            format!("{:+.3}", shim_added * 1e3),
            format!("{:+.3}", floor_added * 1e3),
            format!("{ratio:.2}"),
            format!("{low:.2}–{high:.2}"),
            runs.to_string(),
        ]);
    }
    let decide_us = decision_cost(options)?;
    report.section(
        "Passthrough overhead",
        &format!(
            "Median wall time per variant, interleaved; the added columns are medians of per-round differences against git (at least {} runs, more for slow commands until a row takes about {ROW_SECONDS} s). The interval resamples the rounds ({RESAMPLES} bootstrap resamples): on a slow command a tenth of a millisecond is within the jitter. Budget: shim-added / floor-added <= {BUDGET}. Worst ratio: {worst:.2} ({}). The whole decision for an agent's `git diff HEAD~1..HEAD` (detection, classifier, /proc fidelity check) takes {decide_us} µs (median of 2000, `git-prism explain --repeat`).",
            options.runs,
            if worst <= BUDGET {
                "within budget"
            } else if worst_plausible <= BUDGET {
                "over the budget, but within its row's noise"
            } else {
                "OVER BUDGET"
            }
        ),
        &[
            "command",
            "git (ms)",
            "shim (ms)",
            "floor (ms)",
            "shim added",
            "floor added",
            "ratio",
            "95% interval",
            "runs",
        ],
        &rows,
    );
    Ok(())
}

/// Figure: what the session guard adds to a call it lets through (issue 20: a few hundred
/// microseconds; issue 26: a read at most +0.3 ms, with the kernel layer). The shim without a
/// scope against the shim in a session `git-prism session` started (its record read, the
/// Landlock rules applied before git runs), interleaved: a read (the guard classifies the
/// command line, reads the record and confines git), and a write the scope allows (the guard
/// also finds the repository: from the session's stamp, ADR 25, else by asking git).
pub fn guard_cost(options: &Options, report: &mut Report) -> Result<()> {
    let dirs = Dirs::prepare(options)?;
    let scope = options.work.join("guard-scope.toml");
    std::fs::write(
        &scope,
        format!(
            "[[repo]]\npath = \"{}\"\npermission = \"write-local\"\n",
            options.corpus.canonicalize()?.display()
        ),
    )?;
    let state = options.work.join("guard-state");
    let tmp = options.work.join("guard-tmp");
    std::fs::create_dir_all(&tmp)?;
    let path = std::env::join_paths([
        dirs.shim_dir.clone(),
        dirs.real_dir.clone(),
        PathBuf::from("/usr/bin"),
        PathBuf::from("/bin"),
    ])
    .expect("paths without ':'");
    // The session's record, as an agent's session has it.
    let started = Command::new(&options.binary)
        .args(["session", "--scope"])
        .arg(&scope)
        .args(["--", "sh", "-c", "printf %s \"$GIT_PRISM_SCOPE\""])
        .current_dir(&options.corpus)
        .env_clear()
        .env("PATH", &path)
        .env("HOME", &dirs.home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_PRISM_STATE_DIR", &state)
        .env("TMPDIR", &tmp)
        .output()?;
    if !started.status.success() {
        bail!(
            "git-prism session failed: {}",
            String::from_utf8_lossy(&started.stderr)
        );
    }
    let session_scope = PathBuf::from(String::from_utf8(started.stdout)?);
    let head = {
        let out = Command::new(&options.git)
            .args(["symbolic-ref", "HEAD"])
            .current_dir(&options.corpus)
            .env("GIT_PRISM_PASSTHROUGH", "1")
            .output()?;
        String::from_utf8(out.stdout)?.trim().to_owned()
    };
    let mut rows = Vec::new();
    let write: Vec<&str> = vec!["symbolic-ref", "HEAD", head.as_str()];
    for (label, args) in [
        ("`git rev-parse HEAD` (a read)", vec!["rev-parse", "HEAD"]),
        ("`git status --short` (a read)", vec!["status", "--short"]),
        (
            "`git symbolic-ref HEAD <itself>` (a write the scope allows)",
            write,
        ),
        (
            "`git reset -q --soft HEAD` (a write whose effect is recorded)",
            vec!["reset", "-q", "--soft", "HEAD"],
        ),
    ] {
        let make = |with_scope: bool| {
            let args = args.clone();
            let (corpus, home, scope, state, tmp, path) = (
                options.corpus.clone(),
                dirs.home.clone(),
                session_scope.clone(),
                state.clone(),
                tmp.clone(),
                path.clone(),
            );
            move || {
                let mut cmd = Command::new("git");
                cmd.args(&args)
                    .current_dir(&corpus)
                    .env_clear()
                    .env("PATH", &path)
                    .env("HOME", &home)
                    .env("GIT_CONFIG_NOSYSTEM", "1")
                    .env("GIT_CONFIG_GLOBAL", "/dev/null")
                    .env("GIT_PRISM_STATE_DIR", &state)
                    .env("TMPDIR", &tmp);
                if with_scope {
                    cmd.env("GIT_PRISM_SCOPE", &scope);
                }
                cmd
            }
        };
        let without = make(false);
        let with = make(true);
        let samples = interleaved(options.runs.max(300), &[&without, &with])?;
        let added = paired_median(&samples[1], &samples[0]);
        rows.push(vec![
            label.to_owned(),
            ms(median(&samples[0])),
            ms(median(&samples[1])),
            format!("{:+.0}", added * 1e6),
        ]);
    }
    // What the record of a write's effects adds (issue 28: at most +2 ms): the watched write's
    // added time less the unwatched write's (both pay the guard's decision).
    let added_of = |row: &Vec<String>| row[3].parse::<f64>().unwrap_or(f64::NAN);
    if let [.., unwatched, watched] = rows.as_slice() {
        let extra = added_of(watched) - added_of(unwatched);
        rows.push(vec![
            format!(
                "record of effects (the last row's added less the write's above){}",
                if extra <= 2000.0 {
                    ""
                } else {
                    " — over budget"
                }
            ),
            "—".into(),
            "—".into(),
            format!("{extra:+.0}"),
        ]);
    }
    report.section(
        "Session guard cost",
        &format!(
            "The shim without `GIT_PRISM_SCOPE` against the shim in a session started by `git-prism session` with the corpus as write-local (the record read, the kernel layer's Landlock rules applied before git runs; a write also finds the repository: from the session's stamp where nothing git's discovery reads changed, ADR 25, else by git's `rev-parse`), interleaved, medians of {} runs each; the added column is the median of per-round differences, in microseconds. Budget (issue 26): a read at most +300 µs; nothing added without a scope (the passthrough figure). Issue 28: the record of a write's effects at most +2,000 µs.",
            options.runs.max(300)
        ),
        &["call", "no scope (ms)", "session (ms)", "added (µs)"],
        &rows,
    );
    Ok(())
}

/// Returns how many runs a row needs: at least `minimum`, more when the command is slow enough
/// that its jitter would swamp a sub-millisecond difference, bounded by [`ROW_SECONDS`].
fn runs_for(minimum: usize, direct: &dyn Fn() -> Command) -> Result<usize> {
    let probe: Vec<Duration> = (0..5).map(|_| time_once(direct())).collect::<Result<_>>()?;
    let one = median(&probe).as_secs_f64().max(1e-4);
    let affordable = (ROW_SECONDS / (3.0 * one)) as usize;
    Ok(affordable.clamp(minimum, MAX_RUNS.max(minimum)))
}

/// How many bootstrap resamples estimate a ratio's interval.
const RESAMPLES: usize = 1000;

fn ratio_of(shim_added: f64, floor_added: f64) -> f64 {
    if floor_added > 0.0 {
        shim_added / floor_added
    } else {
        f64::NAN
    }
}

/// Returns the 2.5th and 97.5th percentiles of the ratio over bootstrap resamples of the
/// rounds (each round keeps its three samples together, as they were measured).
fn bootstrap_ratio(samples: &[Vec<Duration>]) -> (f64, f64) {
    let rounds = samples[0].len();
    if rounds == 0 {
        return (f64::NAN, f64::NAN);
    }
    // A fixed-seed xorshift: the interval is reproducible for the same samples.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % rounds as u64) as usize
    };
    let mut ratios = Vec::with_capacity(RESAMPLES);
    let pick = |v: &[Duration], idx: &[usize]| idx.iter().map(|&i| v[i]).collect::<Vec<_>>();
    for _ in 0..RESAMPLES {
        let idx: Vec<usize> = (0..rounds).map(|_| next()).collect();
        let direct = pick(&samples[0], &idx);
        let shim = paired_median(&pick(&samples[1], &idx), &direct);
        let floor = paired_median(&pick(&samples[2], &idx), &direct);
        ratios.push(ratio_of(shim, floor));
    }
    ratios.sort_by(f64::total_cmp);
    let at = |q: f64| ratios[((RESAMPLES - 1) as f64 * q).round() as usize];
    (at(0.025), at(0.975))
}

/// Returns the median over rounds of `a[i] - b[i]`, in seconds.
fn paired_median(a: &[Duration], b: &[Duration]) -> f64 {
    let mut diffs: Vec<f64> = a
        .iter()
        .zip(b)
        .map(|(x, y)| x.as_secs_f64() - y.as_secs_f64())
        .collect();
    diffs.sort_by(f64::total_cmp);
    match diffs.len() {
        0 => 0.0,
        n if n % 2 == 1 => diffs[n / 2],
        n => (diffs[n / 2 - 1] + diffs[n / 2]) / 2.0,
    }
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
pub struct Dirs {
    pub real_dir: PathBuf,
    pub shim_dir: PathBuf,
    pub floor_dir: PathBuf,
    pub home: PathBuf,
}

impl Dirs {
    pub fn prepare(options: &Options) -> Result<Dirs> {
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
