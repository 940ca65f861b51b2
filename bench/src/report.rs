//! The results report: each benchmark's section is printed to stdout as it is measured, and
//! written into `bench/RESULTS.md` in place of that benchmark's previous figure.
//!
//! The file holds one section per benchmark (`## <title>`), each the current figure with the
//! date, commit and machine of the run that measured it. A run replaces the sections of the
//! benchmarks it measured and keeps the others in their place; a benchmark measured for the
//! first time is added at the end. Older figures live in the file's git history.
//!
//! No section names a path of the machine that ran it: the corpus is named by the end of its
//! path, and any path of the run (the corpus, the work directory, the repository, the home
//! directory) left in a note or a table is replaced by its name before the text is kept.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result};

use crate::Options;

/// What a new results file starts with.
const PREAMBLE: &str = "# Benchmark results\n\nThe current figure of each benchmark `make bench` measures, with the date, commit and machine of the run that measured it: each run rewrites the sections of the benchmarks it measured and keeps the others. Older figures are in this file's git history (`git log -p bench/RESULTS.md`). Most figures compare two things measured side by side in one run.";

/// Markdown sections collected during a run.
pub struct Report {
    /// The line each section starts with: date, commit, machine, git, corpus.
    run: String,
    /// Paths of this machine and the names they are shown by, longest first.
    scrub: Vec<(String, String)>,
    /// The sections measured, in order: title and body.
    sections: Vec<(String, String)>,
}

impl Report {
    /// Starts a report of a run on this machine, at the current commit.
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
        let top = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let corpus = corpus_name(&options.corpus, &top);
        let run = format!(
            "{date} — commit {commit}{}. Machine: {cpu}, {cores} cores. {git_version}. Corpus: {corpus} ({corpus_commits} commits).",
            if dirty.is_empty() {
                ""
            } else {
                " (with uncommitted changes)"
            },
        );
        let mut paths = vec![
            (options.corpus.clone(), corpus.clone()),
            (options.work.clone(), "the work directory".to_owned()),
            (top, "the repository".to_owned()),
        ];
        if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty() && h != "/") {
            paths.push((PathBuf::from(home), "~".to_owned()));
        }
        Ok(Report {
            run,
            scrub: scrub_list(paths),
            sections: Vec::new(),
        })
    }

    /// Adds a section with a paragraph and a table, and prints it.
    pub fn section(&mut self, title: &str, note: &str, header: &[&str], rows: &[Vec<String>]) {
        let body = scrubbed(&section_body(&self.run, note, header, rows), &self.scrub);
        print!("## {title}\n\n{body}\n");
        self.sections.push((title.to_owned(), body));
    }

    /// Writes the sections into the results file, each in place of its benchmark's previous
    /// figure.
    pub fn finish(self, results: Option<&Path>) -> Result<()> {
        if let Some(path) = results {
            let existing = match std::fs::read_to_string(path) {
                Ok(text) => text,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
                Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
            };
            let merged = merge(&existing, &self.sections);
            // Written beside it and renamed, so an interrupted run leaves the old figures.
            let tmp = path.with_extension("md.tmp");
            std::fs::write(&tmp, merged).with_context(|| format!("writing {}", tmp.display()))?;
            std::fs::rename(&tmp, path)?;
            println!(
                "{} figure(s) written to {}",
                self.sections.len(),
                path.display()
            );
        }
        Ok(())
    }
}

/// The corpus by name: its path within the repository when it lies there, else the last two
/// components of its path (`bench-corpus/repo`).
fn corpus_name(corpus: &Path, top: &Path) -> String {
    if let Ok(inside) = corpus.strip_prefix(top)
        && !inside.as_os_str().is_empty()
    {
        return inside.display().to_string();
    }
    let parts: Vec<String> = corpus
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    parts[parts.len().saturating_sub(2)..].join("/")
}

/// The paths to replace, as text, longest first (so a path inside another is replaced whole);
/// the root and empty paths are left out.
fn scrub_list(paths: Vec<(PathBuf, String)>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (path, name) in paths {
        let mut forms = vec![path.clone()];
        if let Ok(real) = path.canonicalize() {
            forms.push(real);
        }
        for form in forms {
            let text = form.to_string_lossy().trim_end_matches('/').to_owned();
            if !text.is_empty() && !out.iter().any(|(t, _)| *t == text) {
                out.push((text, name.clone()));
            }
        }
    }
    out.sort_by_key(|(path, _)| std::cmp::Reverse(path.len()));
    out
}

/// `text` with each path of the list replaced by its name.
fn scrubbed(text: &str, scrub: &[(String, String)]) -> String {
    let mut text = text.to_owned();
    for (path, name) in scrub {
        text = text.replace(path.as_str(), name);
    }
    text
}

/// A section's text below its heading: the run, the note, the table.
fn section_body(run: &str, note: &str, header: &[&str], rows: &[Vec<String>]) -> String {
    let mut body = format!("{run}\n\n{note}\n\n");
    let _ = writeln!(body, "| {} |", header.join(" | "));
    let _ = writeln!(body, "|{}", "---|".repeat(header.len()));
    for row in rows {
        let _ = writeln!(body, "| {} |", row.join(" | "));
    }
    body
}

/// The results file with `sections` (title, body) in place of the sections of the same titles
/// in `existing`; the others are kept in their order, and new titles go at the end.
fn merge(existing: &str, sections: &[(String, String)]) -> String {
    let (preamble, mut kept) = split_sections(existing);
    for (title, body) in sections {
        let text = format!("## {title}\n\n{}", body.trim_end());
        match kept.iter_mut().find(|(t, _)| t == title) {
            Some(slot) => slot.1 = text,
            None => kept.push((title.clone(), text)),
        }
    }
    let preamble = if preamble.trim().is_empty() {
        PREAMBLE
    } else {
        preamble.trim_end()
    };
    let mut out = preamble.to_owned();
    for (_, text) in &kept {
        out.push_str("\n\n");
        out.push_str(text.trim_end());
    }
    out.push('\n');
    out
}

/// Splits a results file into the text before its first section and its sections (title, the
/// section's whole text from its `## ` heading).
fn split_sections(text: &str) -> (String, Vec<(String, String)>) {
    let mut preamble = String::new();
    let mut sections: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            sections.push((title.trim().to_owned(), String::new()));
        }
        let into = match sections.last_mut() {
            Some((_, section)) => section,
            None => &mut preamble,
        };
        into.push_str(line);
        into.push('\n');
    }
    (preamble, sections)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(title: &str, run: &str, value: &str) -> (String, String) {
        (
            title.to_owned(),
            section_body(
                run,
                "What it measures.",
                &["what", "ms"],
                &[vec!["a".into(), value.into()]],
            ),
        )
    }

    #[test]
    fn a_run_replaces_its_benchmarks_and_keeps_the_others() {
        let first = merge(
            "",
            &[
                section("Passthrough overhead", "day 1", "1.0"),
                section("Manifest speed", "day 1", "2.0"),
            ],
        );
        assert!(first.starts_with("# Benchmark results\n\n"));
        let second = merge(
            &first,
            &[
                section("Manifest speed", "day 2", "3.0"),
                section("Blame of a large file", "day 2", "4.0"),
            ],
        );
        let (preamble, sections) = split_sections(&second);
        assert_eq!(preamble.trim_end(), PREAMBLE);
        let titles: Vec<&str> = sections.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Passthrough overhead",
                "Manifest speed",
                "Blame of a large file"
            ]
        );
        assert!(sections[0].1.contains("day 1") && sections[0].1.contains("| a | 1.0 |"));
        assert!(sections[1].1.contains("day 2") && sections[1].1.contains("| a | 3.0 |"));
        assert!(!second.contains("| a | 2.0 |"), "{second}");
        assert_eq!(second.matches("## Manifest speed").count(), 1);
        // Written again with the same figures, nothing moves.
        assert_eq!(merge(&second, &[]), second);
        assert_eq!(
            merge(&second, &[section("Manifest speed", "day 2", "3.0")]),
            second
        );
    }

    #[test]
    fn a_hand_written_section_and_the_preamble_are_kept() {
        let existing = "# Benchmark results\n\nSaid by hand.\n\n## Formatters\n\nBy hand.\n\n| a |\n|---|\n| 1 |\n";
        let merged = merge(existing, &[section("verify", "now", "5")]);
        assert!(merged.starts_with("# Benchmark results\n\nSaid by hand.\n\n## Formatters\n"));
        assert!(merged.ends_with("| a | 5 |\n"), "{merged}");
    }

    #[test]
    fn no_path_of_the_machine_is_written() {
        let scrub = scrub_list(vec![
            (
                PathBuf::from("/srv/build/target/bench-corpus/repo"),
                "bench-corpus/repo".into(),
            ),
            (
                PathBuf::from("/srv/build/target/bench-work"),
                "the work directory".into(),
            ),
            (PathBuf::from("/srv/build"), "the repository".into()),
            (PathBuf::from("/"), "nothing".into()),
        ]);
        let text = "cloned /srv/build/target/bench-work/corpora/json from /srv/build/target/bench-corpus/repo in /srv/build/x";
        assert_eq!(
            scrubbed(text, &scrub),
            "cloned the work directory/corpora/json from bench-corpus/repo in the repository/x"
        );
        assert_eq!(
            corpus_name(
                Path::new("/srv/build/target/bench-corpus/repo"),
                Path::new("/elsewhere")
            ),
            "bench-corpus/repo"
        );
        assert_eq!(
            corpus_name(
                Path::new("/srv/build/target/bench-corpus/repo"),
                Path::new("/srv/build")
            ),
            "target/bench-corpus/repo"
        );
    }
}
