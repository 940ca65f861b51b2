//! Figure 3: token economy. The shim's answer to an agent's `git diff <range>` against git's
//! own patch for the same range, in cl100k_base tokens, over many ranges of the corpus.

use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use crate::Options;
use crate::report::Report;

/// The answer must cost at most this share of the patch's tokens at the median.
const BUDGET: f64 = 0.30;

fn run(mut cmd: Command) -> Result<Vec<u8>> {
    let out = cmd.stdin(Stdio::null()).stderr(Stdio::null()).output()?;
    if !out.status.success() {
        bail!("{cmd:?} failed");
    }
    Ok(out.stdout)
}

pub fn run_figure(options: &Options, report: &mut Report) -> Result<()> {
    let bpe = tiktoken_rs::cl100k_base().context("loading cl100k_base")?;
    let count = |bytes: &[u8]| bpe.encode_ordinary(&String::from_utf8_lossy(bytes)).len();
    let shim_dir = options.work.join("shim");
    std::fs::create_dir_all(&shim_dir)?;
    let link = shim_dir.join("git");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&options.binary, &link)?;
    let real_dir = options
        .git
        .parent()
        .context("git has no directory")?
        .to_owned();
    let git = |args: &[&str]| {
        let mut c = Command::new(&options.git);
        c.args(args)
            .current_dir(&options.corpus)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_PRISM_PASSTHROUGH", "1");
        c
    };
    let agent = |range: &str| {
        let mut c = Command::new("git");
        let path = std::env::join_paths([
            shim_dir.clone(),
            real_dir.clone(),
            "/usr/bin".into(),
            "/bin".into(),
        ])
        .expect("paths without ':'");
        c.args(["diff", range])
            .current_dir(&options.corpus)
            .env_clear()
            .env("PATH", path)
            .env("HOME", options.work.join("home"))
            .env("GIT_PRISM_CACHE_DIR", options.work.join("analysis-cache"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("CLAUDECODE", "1");
        c
    };
    let total: usize = String::from_utf8(run(git(&["rev-list", "--count", "HEAD"]))?)?
        .trim()
        .parse()?;
    // Every 10th single commit, and ranges of 5, 20 and 100 commits ending at spread points.
    let mut ranges: Vec<(usize, String)> = (0..total.saturating_sub(1))
        .step_by(10)
        .map(|k| (1, format!("HEAD~{}..HEAD~{k}", k + 1)))
        .collect();
    for n in [5, 20, 100] {
        for k in (0..total.saturating_sub(n)).step_by(total / 8) {
            ranges.push((n, format!("HEAD~{}..HEAD~{k}", k + n)));
        }
    }
    let mut ratios: Vec<(usize, f64)> = Vec::new();
    let (mut named, mut with_functions) = (0usize, 0usize);
    for (n, range) in &ranges {
        let patch = run(git(&["diff", range]))?;
        let patch_tokens = count(&patch);
        if patch_tokens == 0 {
            continue;
        }
        let answer = run(agent(range))?;
        let doc: serde_json::Value =
            serde_json::from_slice(&answer).context("the shim did not answer with JSON")?;
        let changed = doc["summary"]["functions"].as_object().map_or(0, |f| {
            [
                "added",
                "deleted",
                "modified",
                "signature_changed",
                "renamed",
                "moved",
            ]
            .iter()
            .map(|k| f.get(*k).and_then(serde_json::Value::as_u64).unwrap_or(0))
            .sum::<u64>()
        });
        if changed > 0 {
            with_functions += 1;
            let listed = doc["files"].as_array().is_some_and(|files| {
                files.iter().any(|f| {
                    f["functions_changed"]
                        .as_array()
                        .is_some_and(|l| !l.is_empty())
                })
            });
            named += usize::from(listed);
        }
        ratios.push((*n, count(&answer) as f64 / patch_tokens as f64));
    }
    let mut rows = Vec::new();
    for (label, filter) in [
        ("single commits", 1usize),
        ("multi-commit", 0usize),
        ("all", usize::MAX),
    ] {
        let mut r: Vec<f64> = ratios
            .iter()
            .filter(|(n, _)| match filter {
                1 => *n == 1,
                0 => *n > 1,
                _ => true,
            })
            .map(|(_, r)| *r)
            .collect();
        if r.is_empty() {
            continue;
        }
        r.sort_by(f64::total_cmp);
        let q = |p: f64| r[((r.len() - 1) as f64 * p).round() as usize];
        rows.push(vec![
            label.to_owned(),
            r.len().to_string(),
            format!("{:.3}", q(0.10)),
            format!("{:.3}", q(0.25)),
            format!("{:.3}", q(0.5)),
            format!("{:.3}", q(0.75)),
            format!("{:.3}", q(0.90)),
        ]);
    }
    let median_all = {
        let mut r: Vec<f64> = ratios.iter().map(|(_, r)| *r).collect();
        r.sort_by(f64::total_cmp);
        r.get(r.len() / 2).copied().unwrap_or(f64::NAN)
    };
    report.section(
        "Token economy",
        &format!(
            "Tokens (tiktoken cl100k_base) of the shim's answer to an agent's `git diff <range>` divided by the tokens of git's patch for the same range (default output budget, 20,000 characters). Budget: median <= {BUDGET}. Median over all ranges: {median_all:.3} ({}). Ranges where functions changed: {with_functions}; answers naming them: {named}.",
            if median_all <= BUDGET { "within budget" } else { "OVER BUDGET" }
        ),
        &["ranges", "n", "p10", "p25", "median", "p75", "p90"],
        &rows,
    );
    Ok(())
}
