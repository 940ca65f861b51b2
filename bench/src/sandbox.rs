//! Figure: what the agent's sandbox and the broker cost (issue 34, ADR 19).
//!
//! - **Session start**: `git-prism session --scope <s> -- /bin/true` against `/bin/true`
//!   alone, interleaved (the scope read, the namespace probe, the policy, the record, the
//!   sandbox's namespace and Landlock, the broker's view, the agent's exit). Budget: 50 ms.
//! - **A read inside a session**: `git rev-parse HEAD` through the shim, timed by a copy of
//!   this program running as the agent inside a session, against the same program timing the
//!   same call outside any session, in alternating blocks. Budget: +0.3 ms.
//! - **A brokered write**: `git update-ref` of a branch the scope lets the session write,
//!   inside a session (the broker's round trip, the shim run again, the guard, git) against
//!   the same write outside any session. Budget: +5 ms.
//!
//! The inner timing is [`inner`]: `git-prism-bench --inner <runs> <program> <args>...` prints
//! each run's wall time in nanoseconds, one per line.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::Options;
use crate::report::Report;
use crate::timing::{interleaved, median, ms};

/// Blocks the inner measurements alternate in.
const BLOCKS: usize = 6;

/// `--inner <runs> <program> <args>...`: times `runs` runs of the program (standard streams
/// to /dev/null) and prints each in nanoseconds.
pub fn inner(args: &[std::ffi::OsString]) -> Result<()> {
    let (runs, rest) = args.split_first().context("--inner needs a count")?;
    let runs: usize = runs.to_string_lossy().parse()?;
    let (program, rest) = rest.split_first().context("--inner needs a program")?;
    let mut out = String::new();
    for _ in 0..runs {
        let start = Instant::now();
        let status = Command::new(program)
            .args(rest)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()?;
        let took = start.elapsed();
        if !status.success() {
            bail!("{} failed: {status}", program.to_string_lossy());
        }
        out.push_str(&format!("{}\n", took.as_nanos()));
    }
    print!("{out}");
    Ok(())
}

struct Setup {
    scope: PathBuf,
    path: std::ffi::OsString,
    home: PathBuf,
    state: PathBuf,
    tmp: PathBuf,
    me: PathBuf,
}

impl Setup {
    fn command(&self, program: &std::path::Path) -> Command {
        let mut cmd = Command::new(program);
        cmd.env_clear()
            .env("PATH", &self.path)
            .env("HOME", &self.home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_PRISM_STATE_DIR", &self.state)
            .env("TMPDIR", &self.tmp);
        cmd
    }
}

/// Runs the inner timing of `git <args>` `runs` times, inside a session (or not), from the
/// corpus; returns the durations.
fn timed(
    options: &Options,
    s: &Setup,
    in_session: bool,
    runs: usize,
    args: &[&str],
) -> Result<Vec<Duration>> {
    let mut cmd = if in_session {
        let mut c = s.command(&options.binary);
        c.args(["session", "--scope"]).arg(&s.scope).arg("--");
        c.arg(&s.me);
        c
    } else {
        s.command(&s.me)
    };
    cmd.arg("--inner")
        .arg(runs.to_string())
        .arg("git")
        .args(args);
    let out = cmd.current_dir(&options.corpus).output()?;
    if !out.status.success() {
        bail!(
            "the inner timing failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    String::from_utf8(out.stdout)?
        .lines()
        .map(|l| Ok(Duration::from_nanos(l.trim().parse()?)))
        .collect()
}

/// The figure.
pub fn run(options: &Options, report: &mut Report) -> Result<()> {
    let dirs = crate::passthrough::Dirs::prepare(options)?;
    let corpus = options.corpus.canonicalize()?;
    let scope = options.work.join("sandbox-scope.toml");
    std::fs::write(
        &scope,
        format!(
            "[[repo]]\npath = \"{}\"\npermission = \"write-local\"\n",
            corpus.display()
        ),
    )?;
    let state = options.work.join("sandbox-state");
    let tmp = options.work.join("sandbox-tmp");
    std::fs::create_dir_all(&tmp)?;
    let setup = Setup {
        scope,
        path: std::env::join_paths([
            dirs.shim_dir.clone(),
            dirs.real_dir.clone(),
            PathBuf::from("/usr/bin"),
            PathBuf::from("/bin"),
        ])?,
        home: dirs.home.clone(),
        state,
        tmp,
        me: std::env::current_exe()?,
    };
    let mut rows = Vec::new();

    // Session start.
    let start_runs = 40;
    let session = || {
        let mut c = setup.command(&options.binary);
        c.args(["session", "--scope"])
            .arg(&setup.scope)
            .args(["--", "/bin/true"])
            .current_dir(&options.corpus);
        c
    };
    let alone = || {
        let mut c = setup.command(std::path::Path::new("/bin/true"));
        c.current_dir(&options.corpus);
        c
    };
    let samples = interleaved(start_runs, &[&alone, &session])?;
    let start = median(&samples[1]).saturating_sub(median(&samples[0]));
    rows.push(vec![
        "session start (`git-prism session -- /bin/true` less `/bin/true`)".to_owned(),
        ms(median(&samples[0])),
        ms(median(&samples[1])),
        format!("{:+.2}", start.as_secs_f64() * 1e3),
        verdict(start, Duration::from_millis(50)),
    ]);

    // A read, and a brokered write, inside a session against outside any.
    let branch = "refs/heads/git-prism-bench-sandbox";
    for (label, args, budget) in [
        (
            "`git rev-parse HEAD` (a read: in the sandbox)",
            vec!["rev-parse", "HEAD"],
            Duration::from_micros(300),
        ),
        (
            "`git update-ref <branch> HEAD` (a write: through the broker)",
            vec!["update-ref", branch, "HEAD"],
            Duration::from_millis(5),
        ),
    ] {
        let per_block = (options.runs / BLOCKS).max(20);
        let (mut outside, mut inside) = (Vec::new(), Vec::new());
        for _ in 0..BLOCKS {
            outside.extend(timed(options, &setup, false, per_block, &args)?);
            inside.extend(timed(options, &setup, true, per_block, &args)?);
        }
        let added = median(&inside).saturating_sub(median(&outside));
        rows.push(vec![
            label.to_owned(),
            ms(median(&outside)),
            ms(median(&inside)),
            format!("{:+.2}", added.as_secs_f64() * 1e3),
            verdict(added, budget),
        ]);
    }
    let _ = Command::new(&options.git)
        .args(["update-ref", "-d", branch])
        .current_dir(&options.corpus)
        .env("GIT_PRISM_PASSTHROUGH", "1")
        .status();
    report.section(
        "Session sandbox",
        &format!(
            "What the agent's sandbox and the broker add (issue 34, ADR 19), on the corpus listed write-local. Session start: interleaved medians of {start_runs} runs. The read and the write: timed by this program running as the agent inside a session, against the same program outside any session (no scope), in {BLOCKS} alternating blocks, medians. Budgets: start at most 50 ms; a read at most +0.3 ms; a brokered write at most +5 ms."
        ),
        &["what", "without (ms)", "session (ms)", "added (ms)", "budget"],
        &rows,
    );
    Ok(())
}

fn verdict(added: Duration, budget: Duration) -> String {
    if added <= budget {
        format!("within {}", ms(budget))
    } else {
        format!("OVER {}", ms(budget))
    }
}
