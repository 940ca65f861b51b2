//! Figure 3: token economy. The shim's answers against git's own output, in cl100k_base
//! tokens, over the corpus:
//! - single commits (every 10th): `git diff A^..A` against git's patch, and `git show A`
//!   against `git show A`; and whether every added and removed line of the non-generated files
//!   is inside the answer whenever git's patch of those files is at most 4,000 tokens;
//! - ranges of 5, 20 and 100 commits: `git diff` against git's patch, and whether the first
//!   answer names every changed file and function whenever there are at most 300 of each.

use std::collections::BTreeMap;
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::Options;
use crate::report::Report;

/// Budgets from the issue: single commits, median and 90th percentile; ranges, median.
const SINGLE_MEDIAN: f64 = 0.85;
const SINGLE_P90: f64 = 1.0;
const RANGE_MEDIAN: f64 = 0.25;
/// A patch of the non-generated files at most this large must be inside the answer whole.
const WHOLE_PATCH_TOKENS: usize = 4000;
/// Ranges whose files and functions are at most this many must be listed whole.
const WHOLE_LISTING: usize = 300;

fn run(mut cmd: Command) -> Result<Vec<u8>> {
    let out = cmd.stdin(Stdio::null()).stderr(Stdio::null()).output()?;
    if !out.status.success() {
        bail!("{cmd:?} failed");
    }
    Ok(out.stdout)
}

/// The changed lines of a patch, per file (`+x` and `-x`, as git prints them).
fn changed_lines(patch: &[u8]) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut file = String::new();
    let text = String::from_utf8_lossy(patch);
    let mut in_hunk = false;
    for line in text.split('\n') {
        if line.starts_with("diff --git ") {
            in_hunk = false;
            continue;
        }
        if let Some(p) = line.strip_prefix("+++ b/") {
            file = p.to_owned();
            continue;
        }
        if let Some(p) = line.strip_prefix("--- a/") {
            file = p.to_owned();
            continue;
        }
        if line.starts_with("@@") {
            in_hunk = true;
            continue;
        }
        if in_hunk && (line.starts_with('+') || line.starts_with('-')) {
            out.entry(file.clone()).or_default().push(line.to_owned());
        }
    }
    out
}

/// The paths an answer lists as generated or binary (facts, never hunks).
fn facts_only(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(files) = doc["files"].as_object() {
        for (dir, entries) in files {
            for e in entries.as_array().into_iter().flatten() {
                let e = e.as_str().unwrap_or("");
                if e.contains(" generated:") || e.contains(" binary") || e.contains(" symlink") {
                    let name = e.split(' ').nth(1).unwrap_or("");
                    out.push(format!("{dir}{name}"));
                }
            }
        }
    }
    out
}

/// Whether every changed line of `wanted` appears among the answer's hunk lines of its file.
fn covers(doc: &Value, wanted: &BTreeMap<String, Vec<String>>) -> bool {
    let hunks = &doc["hunks"];
    wanted.iter().all(|(file, lines)| {
        let mut have: BTreeMap<&str, usize> = BTreeMap::new();
        for h in hunks[file.as_str()].as_array().into_iter().flatten() {
            for l in h.as_str().unwrap_or("").split('\n').skip(1) {
                *have.entry(l).or_default() += 1;
            }
        }
        lines.iter().all(|l| {
            let n = have.entry(l.as_str()).or_default();
            let present = *n > 0;
            *n = n.saturating_sub(1);
            present
        })
    })
}

/// Quantiles of a list of ratios.
fn quantiles(mut r: Vec<f64>) -> Option<(usize, f64, f64, f64, f64)> {
    if r.is_empty() {
        return None;
    }
    r.sort_by(f64::total_cmp);
    let q = |p: f64| r[((r.len() - 1) as f64 * p).round() as usize];
    Some((r.len(), q(0.25), q(0.5), q(0.75), q(0.9)))
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
    let agent = |args: &[&str]| {
        let mut c = Command::new("git");
        let path = std::env::join_paths([
            shim_dir.clone(),
            real_dir.clone(),
            "/usr/bin".into(),
            "/bin".into(),
        ])
        .expect("paths without ':'");
        c.args(args)
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
    let answer = |args: &[&str]| -> Result<Value> {
        let out = run(agent(args))?;
        serde_json::from_slice(&out).with_context(|| format!("no JSON answer to git {args:?}"))
    };
    let total: usize = String::from_utf8(run(git(&["rev-list", "--count", "HEAD"]))?)?
        .trim()
        .parse()?;
    let commits: Vec<String> = String::from_utf8(run(git(&["rev-list", "HEAD"]))?)?
        .lines()
        .map(str::to_owned)
        .collect();

    // Single commits.
    let (mut diff_ratios, mut show_ratios) = (Vec::new(), Vec::new());
    let (mut eligible, mut covered) = (0usize, 0usize);
    let mut uncovered: Vec<String> = Vec::new();
    for sha in commits.iter().skip(1).step_by(10) {
        let range = format!("{sha}^..{sha}");
        let patch = run(git(&["diff", &range]))?;
        let patch_tokens = count(&patch);
        if patch_tokens == 0 {
            continue;
        }
        let raw = serde_json::to_vec(&answer(&["diff", &range])?)?;
        let doc: Value = serde_json::from_slice(&raw)?;
        diff_ratios.push(count(&run(agent(&["diff", &range]))?) as f64 / patch_tokens as f64);
        let show = run(git(&["show", sha]))?;
        show_ratios.push(count(&run(agent(&["show", sha]))?) as f64 / count(&show) as f64);
        // Coverage: git's patch of the files the answer gives hunks for (not generated, not
        // binary), when it is small enough to be shown whole.
        let excluded = facts_only(&doc);
        let mut args: Vec<String> = vec!["diff".into(), "-U0".into(), range.clone(), "--".into()];
        args.extend(
            excluded
                .iter()
                .map(|p| format!(":(exclude,top,literal){p}")),
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let wanted_patch = run(git(&args))?;
        if count(&wanted_patch) <= WHOLE_PATCH_TOKENS {
            eligible += 1;
            if covers(&doc, &changed_lines(&wanted_patch)) {
                covered += 1;
            } else {
                uncovered.push(sha.chars().take(10).collect());
            }
        }
    }

    // Ranges.
    let mut range_ratios: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    let (mut listable, mut listed) = (0usize, 0usize);
    for n in [5usize, 20, 100] {
        for k in (0..total.saturating_sub(n)).step_by((total / 12).max(1)) {
            let range = format!("HEAD~{}..HEAD~{k}", k + n);
            let patch_tokens = count(&run(git(&["diff", &range]))?);
            if patch_tokens == 0 {
                continue;
            }
            let raw = run(agent(&["diff", &range]))?;
            let doc: Value = serde_json::from_slice(&raw)
                .with_context(|| format!("no JSON answer to git diff {range}"))?;
            range_ratios
                .entry(n)
                .or_default()
                .push(count(&raw) as f64 / patch_tokens as f64);
            let files = String::from_utf8(run(git(&["diff", "--name-only", "-z", &range]))?)?
                .split('\0')
                .filter(|p| !p.is_empty())
                .count();
            let functions = function_total(&doc);
            if files <= WHOLE_LISTING && functions <= WHOLE_LISTING {
                listable += 1;
                let shown: usize = doc["files"].as_object().map_or(0, |f| {
                    f.values().map(|v| v.as_array().map_or(0, Vec::len)).sum()
                });
                listed += usize::from(shown == files && doc.get("directories").is_none());
            }
        }
    }

    let mut rows = Vec::new();
    let mut push = |label: String, r: Vec<f64>| {
        if let Some((n, p25, p50, p75, p90)) = quantiles(r) {
            rows.push(vec![
                label,
                n.to_string(),
                format!("{p25:.3}"),
                format!("{p50:.3}"),
                format!("{p75:.3}"),
                format!("{p90:.3}"),
            ]);
        }
    };
    let d = quantiles(diff_ratios.clone());
    let s = quantiles(show_ratios.clone());
    push("`git diff A^..A` (single commits)".into(), diff_ratios);
    push("`git show A` (single commits)".into(), show_ratios);
    let mut range_medians = Vec::new();
    for (n, r) in range_ratios {
        if let Some((_, _, m, _, _)) = quantiles(r.clone()) {
            range_medians.push((n, m));
        }
        push(format!("`git diff` over {n} commits"), r);
    }
    let single_ok = [d, s]
        .iter()
        .all(|q| q.is_some_and(|(_, _, m, _, p90)| m <= SINGLE_MEDIAN && p90 <= SINGLE_P90));
    let ranges_ok = range_medians.iter().all(|(_, m)| *m <= RANGE_MEDIAN);
    report.section(
        "Token economy",
        &format!(
            "Tokens (tiktoken cl100k_base) of the shim's answer divided by the tokens of git's own output for the same command (`git diff` patch; `git show` output), default budget (20,000 characters), hunks with one line of context. Budgets: single commits median <= {SINGLE_MEDIAN} and p90 <= {SINGLE_P90} ({}); ranges median <= {RANGE_MEDIAN} ({}). Changed lines inside the answer: {covered} of {eligible} single commits whose patch of non-generated files is at most {WHOLE_PATCH_TOKENS} tokens carry every added and removed line{}. Whole listing: {listed} of {listable} ranges with at most {WHOLE_LISTING} files and functions name every file and function on the first answer.",
            if single_ok { "met" } else { "NOT MET" },
            if ranges_ok { "met" } else { "NOT MET" },
            if uncovered.is_empty() {
                String::new()
            } else {
                format!(" (missing lines in {})", uncovered.join(", "))
            },
        ),
        &["answers", "n", "p25", "median", "p75", "p90"],
        &rows,
    );
    Ok(())
}

/// The number of changed functions an answer's summary line states.
fn function_total(doc: &Value) -> usize {
    let summary = doc["summary"].as_str().unwrap_or("");
    let Some(functions) = summary.split("functions: ").nth(1) else {
        return 0;
    };
    functions
        .split(';')
        .next()
        .unwrap_or("")
        .split(", ")
        .filter_map(|part| part.split(' ').next()?.parse::<usize>().ok())
        .sum()
}
