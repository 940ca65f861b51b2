//! Function analysis speed per language: the time to parse and extract every source file of a
//! real project in that language (the tip of its corpus bundle), per KB of source, next to
//! Rust's on a Rust project measured in the same run.
//!
//! In process, through the library's own entry point (`lang::analyze`: the parse and the walk,
//! no cache); the languages' rounds are interleaved and each figure is the median of the rounds
//! after a first one that warms the parsers. One row per language in [`LANGUAGES`]: adding a
//! language is one line there.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use git_prism::lang::{self, Language};

use crate::Options;
use crate::report::Report;
use crate::timing::median;

/// The reference language: every other row is compared with it.
const REFERENCE: Language = Language::Rust;

/// `(language, corpus bundle, file extensions)`, the reference first.
const LANGUAGES: &[(Language, &str, &[&str])] = &[
    (Language::Rust, "json.bundle", &["rs"]),
    (Language::CSharp, "commandline.bundle", &["cs"]),
    (Language::Kotlin, "clikt.bundle", &["kt", "kts"]),
    (Language::Swift, "swift-argument-parser.bundle", &["swift"]),
    (Language::Scala, "scopt.bundle", &["scala", "sc"]),
];

/// Rounds measured (after one to warm up).
const ROUNDS: usize = 15;

/// One language's sources, read once.
struct Sources {
    language: Language,
    bundle: &'static str,
    files: Vec<Vec<u8>>,
    bytes: usize,
}

pub fn run(options: &Options, report: &mut Report) -> Result<()> {
    let mut all = Vec::new();
    for &(language, bundle, extensions) in LANGUAGES {
        let Some(source) = options
            .also
            .iter()
            .find(|p| p.file_name().is_some_and(|n| n == bundle))
        else {
            eprintln!("languages: {bundle} not given with --also: {language} left out");
            continue;
        };
        let dir = crate::tokens::checkout(options, source)?;
        let files = read_sources(options, &dir, extensions)?;
        let bytes = files.iter().map(Vec::len).sum();
        all.push(Sources {
            language,
            bundle,
            files,
            bytes,
        });
    }
    let mut samples: Vec<Vec<Duration>> = vec![Vec::new(); all.len()];
    for round in 0..=ROUNDS {
        for (i, sources) in all.iter().enumerate() {
            let started = Instant::now();
            for file in &sources.files {
                std::hint::black_box(lang::analyze(sources.language, file));
            }
            if round > 0 {
                samples[i].push(started.elapsed());
            }
        }
    }
    let per_kb =
        |i: usize| median(&samples[i]).as_secs_f64() * 1e6 / (all[i].bytes as f64 / 1024.0);
    let reference = all.iter().position(|s| s.language == REFERENCE).map(per_kb);
    let rows: Vec<Vec<String>> = (0..all.len())
        .map(|i| {
            let us = per_kb(i);
            vec![
                all[i].language.label().to_owned(),
                all[i].bundle.to_owned(),
                all[i].files.len().to_string(),
                format!("{:.0}", all[i].bytes as f64 / 1024.0),
                format!("{us:.1}"),
                reference.map_or_else(|| "-".to_owned(), |r| format!("{:.2}", us / r)),
            ]
        })
        .collect();
    report.section(
        "Function analysis per language",
        &format!(
            "Parse and extract (`lang::analyze`, no cache) of every source file at the tip of each \
             corpus bundle, in process; median of {ROUNDS} interleaved rounds. The target: each \
             language within 2x of {}'s time per KB.",
            REFERENCE.label()
        ),
        &["language", "project", "files", "KB", "µs per KB", "vs rust"],
        &rows,
    );
    Ok(())
}

/// The tracked files with one of the extensions, read from the checkout (analysable ones only:
/// files the analysis would refuse are left out, as they cost nothing).
fn read_sources(options: &Options, dir: &Path, extensions: &[&str]) -> Result<Vec<Vec<u8>>> {
    let out = Command::new(&options.git)
        .arg("-C")
        .arg(dir)
        .args(["ls-files", "-z"])
        .env("GIT_PRISM_PASSTHROUGH", "1")
        .output()
        .context("git ls-files")?;
    let mut files = Vec::new();
    for name in out.stdout.split(|b| *b == 0).filter(|n| !n.is_empty()) {
        let path = PathBuf::from(String::from_utf8_lossy(name).into_owned());
        if !path
            .extension()
            .is_some_and(|e| extensions.iter().any(|x| e == *x))
        {
            continue;
        }
        let content = std::fs::read(dir.join(&path))?;
        if lang::refuse(&content).is_none() {
            files.push(content);
        }
    }
    Ok(files)
}
