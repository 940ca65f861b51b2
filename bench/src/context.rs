//! Figure 6: function context (`git-prism context`) on 1- and 10-commit ranges of the corpus,
//! cold (analysis cache off: every changed file and every file that mentions a changed name is
//! parsed on every run) and warm (the per-blob cache filled by an earlier run). The budget is
//! under one second warm for 10 commits on a repository of about 1,000 source files.

use std::process::Command;

use anyhow::{Context, Result};

use crate::Options;
use crate::report::Report;
use crate::timing::{interleaved, median, ms};

fn prism(options: &Options, range: &str, cache: Option<&std::path::Path>) -> Command {
    let mut c = Command::new(&options.binary);
    c.current_dir(&options.corpus)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_PRISM_REAL_GIT", &options.git)
        .args(["context", range]);
    match cache {
        Some(dir) => c.env("GIT_PRISM_CACHE_DIR", dir),
        None => c.env("GIT_PRISM_CACHE", "0"),
    };
    c
}

/// Source files (Rust and Python) at the corpus's HEAD.
fn source_files(options: &Options) -> Result<usize> {
    let out = Command::new(&options.git)
        .current_dir(&options.corpus)
        .args(["ls-files", "--", "*.rs", "*.py"])
        .output()?;
    Ok(out
        .stdout
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .count())
}

pub fn run(options: &Options, report: &mut Report) -> Result<()> {
    let sources = source_files(options)?;
    let cache = options.work.join("context-cache");
    let mut rows = Vec::new();
    for n in [1usize, 10] {
        let range = format!("HEAD~{n}..HEAD");
        let out = prism(options, &range, Some(&cache))
            .output()
            .context("git-prism context")?;
        anyhow::ensure!(
            out.status.success(),
            "context failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout)?;
        let summary = &doc["summary"];
        let cold = || prism(options, &range, None);
        let warm = || prism(options, &range, Some(&cache));
        let samples = interleaved(9, &[&cold, &warm])?;
        let (c, w) = (median(&samples[0]), median(&samples[1]));
        rows.push(vec![
            format!("{n}"),
            summary["functions"].to_string(),
            format!(
                "{}/{}",
                summary["files_analysed"], summary["files_in_scope"]
            ),
            ms(c),
            format!(
                "{}{}",
                ms(w),
                if w.as_secs_f64() < 1.0 {
                    ""
                } else {
                    " (over budget)"
                }
            ),
        ]);
    }
    report.section(
        "Function context",
        &format!(
            "`git-prism context HEAD~n..HEAD` on the corpus ({sources} Rust and Python files at HEAD), medians of 9 interleaved runs. Cold: analysis cache off. Warm: per-blob cache filled by a previous run. Budget: 10 commits under 1 s warm."
        ),
        &["commits", "functions", "files analysed / in scope", "cold (ms)", "warm (ms)"],
        &rows,
    );
    Ok(())
}
