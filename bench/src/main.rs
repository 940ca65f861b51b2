//! `make bench`: git-prism measured side by side with git on a real history.
//!
//! Most figures compare two things measured in the same run, interleaved, as medians of many
//! runs, so machine noise hits both sides alike; the others hold absolute budgets (hostile
//! repositories' time and memory, function context's second) or count agreement with git
//! (fidelity, imara). `BENCH_FIGURES` picks them by name, comma-separated (`passthrough`,
//! `guard`, `sandbox`, `manifest`, `tokens`, `context`, `fidelity`, `hostile`, `verify`, `blame`,
//! `analysis`, `imara`; `all` by default). Results are printed, and each benchmark's figure is
//! written into `bench/RESULTS.md` in place of its previous one, with the date, commit and
//! machine ([`report`]). Nothing here runs in CI.

mod analysis;
mod blame;
mod contents;
mod context;
mod hostile;
mod manifest;
mod passthrough;
mod report;
mod sandbox;
mod scratch;
mod timing;
mod tokens;
mod verify;

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

/// Command-line options (`bench --help` is deliberately minimal: the Makefile drives it).
struct Options {
    /// The release git-prism binary.
    binary: PathBuf,
    /// The real git.
    git: PathBuf,
    /// The corpus repository.
    corpus: PathBuf,
    /// Where the floor program and scratch files go.
    work: PathBuf,
    /// Runs per measurement.
    runs: usize,
    /// The results file, whose measured benchmarks' sections are rewritten (none: print only).
    results: Option<PathBuf>,
    /// More histories for the token figure: repositories or git bundles (`--also`, repeated).
    also: Vec<PathBuf>,
}

fn parse_args() -> Result<Options> {
    let mut args = std::env::args_os().skip(1);
    let mut binary = None;
    let mut git = None;
    let mut corpus = None;
    let mut work = None;
    let mut runs = 200;
    let mut results = None;
    let mut also = Vec::new();
    while let Some(arg) = args.next() {
        let mut value = || args.next().context("option needs a value");
        match arg.to_str() {
            Some("--binary") => binary = Some(PathBuf::from(value()?)),
            Some("--git") => git = Some(PathBuf::from(value()?)),
            Some("--corpus") => corpus = Some(PathBuf::from(value()?)),
            Some("--work") => work = Some(PathBuf::from(value()?)),
            Some("--runs") => runs = value()?.to_string_lossy().parse()?,
            Some("--results") => results = Some(PathBuf::from(value()?)),
            Some("--also") => also.push(PathBuf::from(value()?)),
            _ => bail!("unknown argument {arg:?}"),
        }
    }
    Ok(Options {
        binary: binary.context("--binary is required")?,
        git: git.context("--git is required")?,
        corpus: corpus.context("--corpus is required")?,
        work: work.context("--work is required")?,
        runs,
        results,
        also,
    })
}

fn main() -> Result<()> {
    let raw: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if raw.first().is_some_and(|a| a == "--inner") {
        return sandbox::inner(&raw[1..]);
    }
    let options = parse_args()?;
    std::fs::create_dir_all(&options.work)?;
    manifest::check_corpus(&options.corpus)?;
    let mut report = report::Report::new(&options)?;
    let figures = std::env::var("BENCH_FIGURES").unwrap_or_else(|_| "all".into());
    let wants = |name: &str| figures == "all" || figures.split(',').any(|f| f == name);
    if wants("passthrough") {
        passthrough::run(&options, &mut report)?;
    }
    if wants("guard") {
        passthrough::guard_cost(&options, &mut report)?;
    }
    if wants("sandbox") {
        sandbox::run(&options, &mut report)?;
    }
    if wants("manifest") {
        manifest::speed(
            &options,
            &mut report,
            &[
                ("--no-functions", &["--no-functions"], &[]),
                ("functions, cold", &[], &[("GIT_PRISM_CACHE", "0")]),
                ("functions, warm cache", &[], &[]),
            ],
        )?;
    }
    if wants("tokens") {
        tokens::run_figure(&options, &mut report)?;
    }
    if wants("context") {
        context::run(&options, &mut report)?;
    }
    if wants("fidelity") {
        manifest::fidelity(&options, &mut report)?;
    }
    if wants("hostile") {
        hostile::run(&options, &mut report)?;
    }
    if wants("verify") {
        verify::run(&options, &mut report)?;
    }
    if wants("blame") {
        blame::run(&options, &mut report)?;
    }
    if wants("analysis") {
        analysis::run(&options, &mut report)?;
    }
    if wants("imara") {
        manifest::imara_agreement(&options, &mut report)?;
    }
    report.finish(options.results.as_deref())
}
