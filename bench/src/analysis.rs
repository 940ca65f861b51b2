//! Function analysis speed per language: parsing and extracting every source file of a real
//! project in that language at its HEAD, in time per KB of source, against Rust's. Budget
//! (issue 30): each language within 2x of Rust's time per KB.
//!
//! One row per entry of [`LANGUAGES`]: a language, the corpus bundle (`--also`) whose files are
//! measured, and the path patterns of its files. Adding a language to the figure is one line.
//! The rounds are interleaved (every language once per round, the order rotating), each round
//! analyses every file once without the cache, and the figure is the median round.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use git_prism::lang::{Language, analyze, refuse};

use crate::Options;
use crate::report::Report;
use crate::timing::median;

/// `(language, corpus bundle, path patterns)`; the first is the reference. Every language with
/// a real project in the shared corpus has a row (TypeScript, JavaScript, Java, C and C++ have
/// none there).
const LANGUAGES: &[(Language, &str, &[&str])] = &[
    (Language::Rust, "json", &["*.rs"]),
    (Language::Python, "click", &["*.py", "*.pyi"]),
    (Language::Go, "cobra", &["*.go"]),
    (Language::Ruby, "sinatra", &["*.rb"]),
    (Language::CSharp, "commandline", &["*.cs"]),
    (Language::Php, "slim", &["*.php"]),
    (Language::Kotlin, "clikt", &["*.kt", "*.kts"]),
    (Language::Swift, "swift-argument-parser", &["*.swift"]),
    (Language::Shell, "bats-core", &["*.bash", "*.bats"]),
    (Language::Scala, "scopt", &["*.scala", "*.sc"]),
    (Language::Lua, "busted", &["*.lua"]),
];

/// Rounds per language.
const ROUNDS: usize = 15;

/// The files of a checkout matching `patterns`, as committed at HEAD.
fn sources(options: &Options, repo: &Path, patterns: &[&str]) -> Result<Vec<Vec<u8>>> {
    let list = Command::new(&options.git)
        .current_dir(repo)
        .env("GIT_PRISM_PASSTHROUGH", "1")
        .args(["ls-files", "-z", "--"])
        .args(patterns)
        .output()?;
    if !list.status.success() {
        bail!("ls-files in {} failed", repo.display());
    }
    let mut out = Vec::new();
    for path in list.stdout.split(|b| *b == 0).filter(|p| !p.is_empty()) {
        let path = String::from_utf8_lossy(path);
        let blob = Command::new(&options.git)
            .current_dir(repo)
            .env("GIT_PRISM_PASSTHROUGH", "1")
            .args(["cat-file", "blob", &format!("HEAD:{path}")])
            .output()?;
        // Files the analysis refuses (too large, minified) cost nothing and are left out.
        if blob.status.success() && refuse(&blob.stdout).is_none() {
            out.push(blob.stdout);
        }
    }
    Ok(out)
}

/// Analyses every file once; returns the time taken and the functions found.
fn round(language: Language, files: &[Vec<u8>]) -> (Duration, usize) {
    let started = Instant::now();
    let mut functions = 0;
    for file in files {
        functions += analyze(language, file).map_or(0, |a| a.functions.len());
    }
    (started.elapsed(), functions)
}

pub fn run(options: &Options, report: &mut Report) -> Result<()> {
    let mut measured = Vec::new();
    for (language, bundle, patterns) in LANGUAGES {
        let Some(source) = options
            .also
            .iter()
            .find(|p| p.file_stem().is_some_and(|s| s == *bundle))
        else {
            eprintln!("analysis: no {bundle}.bundle among --also; {language} left out");
            continue;
        };
        let repo = crate::tokens::checkout(options, source)?;
        let files = sources(options, &repo, patterns)?;
        let bytes: usize = files.iter().map(Vec::len).sum();
        anyhow::ensure!(bytes > 0, "no {language} files in {bundle}");
        measured.push((*language, *bundle, patterns.join(" "), files, bytes));
    }
    let mut samples: Vec<Vec<Duration>> = vec![Vec::new(); measured.len()];
    let mut functions = vec![0; measured.len()];
    // Warm the parsers and the page cache.
    for (i, (language, _, _, files, _)) in measured.iter().enumerate() {
        functions[i] = round(*language, files).1;
    }
    for r in 0..ROUNDS {
        for k in 0..measured.len() {
            let i = (r + k) % measured.len();
            let (language, _, _, files, _) = &measured[i];
            samples[i].push(round(*language, files).0);
        }
    }
    let per_kb =
        |i: usize| median(&samples[i]).as_secs_f64() * 1e6 / (measured[i].4 as f64 / 1024.0);
    let reference = measured
        .iter()
        .position(|m| m.0 == Language::Rust)
        .context("no Rust corpus (json.bundle) to compare with")?;
    let mut rows = Vec::new();
    let mut worst: f64 = 0.0;
    for (i, (language, bundle, patterns, files, bytes)) in measured.iter().enumerate() {
        let ratio = per_kb(i) / per_kb(reference);
        if i != reference {
            worst = worst.max(ratio);
        }
        rows.push(vec![
            language.to_string(),
            format!("{bundle} (`{patterns}`)"),
            files.len().to_string(),
            format!("{:.0}", *bytes as f64 / 1024.0),
            functions[i].to_string(),
            format!("{:.1}", median(&samples[i]).as_secs_f64() * 1e3),
            format!("{:.1}", per_kb(i)),
            format!("{ratio:.2}"),
        ]);
    }
    report.section(
        "Function analysis per language",
        &format!(
            "Every file of a real project in each language at its HEAD parsed and extracted (`lang::analyze`, no cache), medians of {ROUNDS} interleaved rounds; time per KB of source against Rust's. Budget (issue 30): within 2x of Rust. Worst: {worst:.2}x ({}).",
            if worst <= 2.0 { "met" } else { "NOT met" }
        ),
        &[
            "language",
            "files of",
            "files",
            "KB",
            "functions",
            "round (ms)",
            "µs per KB",
            "vs Rust",
        ],
        &rows,
    );
    Ok(())
}
