//! The results report: printed to stdout and appended to `bench/RESULTS.md`.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::Command;

use anyhow::Result;

use crate::Options;

/// Markdown sections collected during a run.
pub struct Report {
    text: String,
}

impl Report {
    /// Starts a report headed by the date, commit and machine.
    pub fn new(options: &Options) -> Result<Report> {
        let capture = |cmd: &mut Command| {
            cmd.output()
                .ok()
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
                .unwrap_or_default()
        };
        let date = capture(Command::new("date").args(["-u", "+%Y-%m-%d %H:%M UTC"]));
        let commit = capture(
            Command::new(&options.git)
                .args(["rev-parse", "--short", "HEAD"])
                .env("GIT_PRISM_PASSTHROUGH", "1")
                .current_dir(env!("CARGO_MANIFEST_DIR")),
        );
        let dirty = capture(
            Command::new(&options.git)
                .args(["status", "--porcelain", "--untracked-files=no"])
                .env("GIT_PRISM_PASSTHROUGH", "1")
                .current_dir(env!("CARGO_MANIFEST_DIR")),
        );
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split(':').nth(1))
                    .map(|m| m.trim().to_owned())
            })
            .unwrap_or_else(|| "unknown CPU".to_owned());
        let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
        let git_version = capture(Command::new(&options.git).arg("--version"));
        let corpus_commits = capture(
            Command::new(&options.git)
                .args(["rev-list", "--count", "HEAD"])
                .current_dir(&options.corpus),
        );
        let mut text = String::new();
        let _ = writeln!(
            text,
            "## {date} — commit {commit}{}\n\nMachine: {cpu}, {cores} cores. {git_version}. Corpus: {} ({corpus_commits} commits).\n",
            if dirty.is_empty() {
                ""
            } else {
                " (with uncommitted changes)"
            },
            options.corpus.display()
        );
        Ok(Report { text })
    }

    /// Adds a section with a paragraph and a table.
    pub fn section(&mut self, title: &str, note: &str, header: &[&str], rows: &[Vec<String>]) {
        let _ = writeln!(self.text, "### {title}\n\n{note}\n");
        let _ = writeln!(self.text, "| {} |", header.join(" | "));
        let _ = writeln!(self.text, "|{}", "---|".repeat(header.len()));
        for row in rows {
            let _ = writeln!(self.text, "| {} |", row.join(" | "));
        }
        self.text.push('\n');
        print!("{}", self.text_tail(title));
    }

    fn text_tail(&self, title: &str) -> &str {
        let start = self.text.rfind(&format!("### {title}")).unwrap_or(0);
        &self.text[start..]
    }

    /// Appends the report to the results file (newest last).
    pub fn finish(self, results: Option<&Path>) -> Result<()> {
        if let Some(path) = results {
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)?;
            if file.metadata()?.len() == 0 {
                writeln!(
                    file,
                    "# Benchmark results\n\nAppended by `make bench`, newest last. Each figure is a side-by-side ratio measured in one run.\n"
                )?;
            }
            file.write_all(self.text.as_bytes())?;
            println!("results appended to {}", path.display());
        }
        Ok(())
    }
}
