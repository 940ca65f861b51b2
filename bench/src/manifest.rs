//! Figures 2 and 4, and the fidelity measurements behind ADR 0004.
//!
//! - Manifest speed: `git-prism manifest` against `git diff --numstat -M` on 1-, 10-, 100- and
//!   1000-commit ranges of the corpus, interleaved, medians.
//! - Peak memory of the manifest on the largest range (max RSS of the git-prism process, and of
//!   git's own numstat for comparison).
//! - Fidelity: the manifest's per-file facts against git's `--numstat`/`--name-status` for every
//!   commit of the corpus and the large ranges.
//! - The measurement ADR 0004 rests on: how often imara-diff's Myers counts equal git's numstat.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};

use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use crate::Options;
use crate::report::Report;
use crate::timing::{interleaved, median, ms};

/// The ranges measured, as commit counts back from HEAD.
const RANGES: &[usize] = &[1, 10, 100, 1000];

fn git(options: &Options) -> Command {
    let mut cmd = Command::new(&options.git);
    cmd.current_dir(&options.corpus)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_PRISM_PASSTHROUGH", "1");
    cmd
}

fn prism(options: &Options) -> Command {
    let mut cmd = Command::new(&options.binary);
    cmd.current_dir(&options.corpus)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_PRISM_REAL_GIT", &options.git);
    cmd
}

/// A `git-prism manifest` variant to time: label, extra arguments, extra environment.
pub type Variant = (
    &'static str,
    &'static [&'static str],
    &'static [(&'static str, &'static str)],
);

/// Figure 2: manifest speed, and figure 4: peak memory.
pub fn speed(options: &Options, report: &mut Report, variants: &[Variant]) -> Result<()> {
    let mut rows = Vec::new();
    for &n in RANGES {
        let range = format!("HEAD~{n}");
        let runs = if n >= 1000 {
            7
        } else if n >= 100 {
            15
        } else {
            40
        };
        let numstat = || {
            let mut c = git(options);
            c.args(["diff", "--numstat", "-M", &range, "HEAD"]);
            c
        };
        let makers: Vec<Box<dyn Fn() -> Command>> = variants
            .iter()
            .map(|(_, extra, vars)| {
                let range = range.clone();
                let extra: Vec<&str> = extra.to_vec();
                let vars = vars.to_vec();
                let cache = options.work.join("analysis-cache");
                Box::new(move || {
                    let mut c = prism(options);
                    c.env("GIT_PRISM_CACHE_DIR", &cache);
                    for (k, v) in &vars {
                        c.env(k, v);
                    }
                    c.arg("manifest")
                        .args(&extra)
                        .args([range.as_str(), "HEAD"]);
                    c
                }) as Box<dyn Fn() -> Command>
            })
            .collect();
        let mut all: Vec<&dyn Fn() -> Command> = vec![&numstat];
        all.extend(makers.iter().map(|b| b.as_ref()));
        let samples = interleaved(runs, &all)?;
        let base = median(&samples[0]);
        let mut row = vec![format!("{n}"), ms(base)];
        for s in &samples[1..] {
            let m = median(s);
            row.push(format!(
                "{} ({:.2}x)",
                ms(m),
                m.as_secs_f64() / base.as_secs_f64()
            ));
        }
        rows.push(row);
    }
    let mut header = vec!["commits", "numstat (ms)"];
    header.extend(variants.iter().map(|(label, _, _)| *label));
    report.section(
        "Manifest speed",
        "`git diff --numstat -M HEAD~n HEAD` against `git-prism manifest HEAD~n HEAD` on the corpus, interleaved medians (40 runs up to 10 commits, 15 at 100, 7 at 1000). \"cold\" runs with the analysis cache off (`GIT_PRISM_CACHE=0`): every changed file parsed on every run; \"warm\" reuses the per-blob cache filled by the first run. Budgets: manifest without functions <= 1.5x numstat at 10/100/1000 commits; with function analysis <= 2x at 100.",
        &header,
        &rows,
    );

    let largest = format!("HEAD~{}", RANGES[RANGES.len() - 1]);
    let mut mem_rows = Vec::new();
    let mut c = git(options);
    c.args(["diff", "--numstat", "-M", &largest, "HEAD"]);
    mem_rows.push(vec![
        "git diff --numstat -M".to_owned(),
        format!("{:.1}", max_rss_mib(c)?),
    ]);
    for (label, extra, vars) in variants {
        let mut c = prism(options);
        c.env("GIT_PRISM_CACHE_DIR", options.work.join("analysis-cache"));
        for (k, v) in *vars {
            c.env(k, v);
        }
        c.arg("manifest")
            .args(*extra)
            .args([largest.as_str(), "HEAD"]);
        mem_rows.push(vec![
            format!("git-prism {label}"),
            format!("{:.1}", max_rss_mib(c)?),
        ]);
    }
    report.section(
        "Peak memory",
        &format!("Max resident set of the process itself (not its children) on `{largest}..HEAD`."),
        &["command", "max RSS (MiB)"],
        &mem_rows,
    );
    Ok(())
}

/// Runs a command to completion and returns its own peak resident set in MiB.
fn max_rss_mib(mut command: Command) -> Result<f64> {
    command.stdout(Stdio::null()).stderr(Stdio::null());
    let child = command.spawn()?;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: `wait4` writes a `rusage` for the child it reaps; the child is ours.
    let rc = unsafe { libc::wait4(pid, &mut status, 0, usage.as_mut_ptr()) };
    if rc != pid {
        bail!("wait4 failed");
    }
    // SAFETY: initialised by the successful `wait4`.
    let usage = unsafe { usage.assume_init() };
    Ok(usage.ru_maxrss as f64 / 1024.0)
}

/// git's facts: path → (status letter with score, old path, counts).
type Facts = BTreeMap<Vec<u8>, (String, Option<Vec<u8>>, Option<(u64, u64)>)>;

fn git_facts(options: &Options, args: &[String]) -> Result<Facts> {
    let run = |format: &str| -> Result<Vec<u8>> {
        let out = git(options)
            .args(["diff", format, "-z", "-M"])
            .args(args)
            .output()?;
        if !out.status.success() {
            bail!("git diff {format} {args:?} failed");
        }
        Ok(out.stdout)
    };
    let mut facts = Facts::new();
    let names = run("--name-status")?;
    let mut it = names.split(|b| *b == 0).filter(|t| !t.is_empty());
    while let Some(status) = it.next() {
        let status = String::from_utf8_lossy(status).into_owned();
        let first = it.next().context("name-status path")?.to_vec();
        let (old, path) = if status.starts_with('R') || status.starts_with('C') {
            (Some(first), it.next().context("name-status path")?.to_vec())
        } else {
            (None, first)
        };
        facts.insert(path, (status, old, None));
    }
    let nums = run("--numstat")?;
    let mut it = nums.split(|b| *b == 0).filter(|t| !t.is_empty());
    while let Some(record) = it.next() {
        let mut f = record.splitn(3, |b| *b == b'\t');
        let (a, r, p) = (
            f.next().context("added")?,
            f.next().context("removed")?,
            f.next().unwrap_or(b""),
        );
        let path = if p.is_empty() {
            it.next();
            it.next().context("rename destination")?.to_vec()
        } else {
            p.to_vec()
        };
        let n = |x: &[u8]| String::from_utf8_lossy(x).parse::<u64>().ok();
        let counts = n(a).zip(n(r));
        if let Some(entry) = facts.get_mut(&path) {
            entry.2 = counts;
        }
    }
    Ok(facts)
}

fn manifest_facts(options: &Options, args: &[String]) -> Result<Facts> {
    let out = prism(options).arg("manifest").args(args).output()?;
    if !out.status.success() {
        bail!(
            "git-prism manifest {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let mut facts = Facts::new();
    for f in doc["files"].as_array().context("files")? {
        if f["untracked"].as_bool() == Some(true) {
            continue;
        }
        let letter = match f["change_type"].as_str() {
            Some("added") => "A",
            Some("modified") => "M",
            Some("deleted") => "D",
            Some("renamed") => "R",
            Some("copied") => "C",
            Some("type_changed") => "T",
            _ => "?",
        };
        let score = f["similarity"].as_u64().or(f["dissimilarity"].as_u64());
        let status = score.map_or(letter.to_owned(), |s| format!("{letter}{s:03}"));
        let path = f["path"].as_str().context("path")?.as_bytes().to_vec();
        let old = f["old_path"].as_str().map(|p| p.as_bytes().to_vec());
        let counts = f["lines_added"].as_u64().zip(f["lines_removed"].as_u64());
        facts.insert(path, (status, old, counts));
    }
    Ok(facts)
}

/// Fidelity: the manifest against git for every commit and the large ranges.
pub fn fidelity(options: &Options, report: &mut Report) -> Result<()> {
    let out = git(options)
        .args(["rev-list", "--parents", "HEAD"])
        .output()?;
    let list = String::from_utf8(out.stdout)?;
    let mut ranges: Vec<Vec<String>> = list
        .lines()
        .filter_map(|l| {
            let mut it = l.split(' ');
            let commit = it.next()?;
            let parent = it.next()?;
            Some(vec![parent.to_owned(), commit.to_owned()])
        })
        .collect();
    for n in [10, 100, 1000] {
        ranges.push(vec![format!("HEAD~{n}"), "HEAD".into()]);
    }
    let (mut equal, mut files) = (0usize, 0usize);
    let mut mismatches = Vec::new();
    for args in &ranges {
        let want = git_facts(options, args)?;
        let got = manifest_facts(options, args)?;
        files += want.len();
        if want == got {
            equal += 1;
        } else if mismatches.len() < 5 {
            mismatches.push(args.join(".."));
        }
    }
    report.section(
        "Fidelity against git",
        &format!(
            "Every commit of the corpus against its parent, plus `HEAD~10`, `HEAD~100` and `HEAD~1000` to `HEAD`: paths, statuses (with rename scores), old paths and line counts compared with `git diff --name-status -z -M` and `--numstat -z -M`.{}",
            if mismatches.is_empty() { String::new() } else { format!(" First mismatches: {}", mismatches.join(", ")) }
        ),
        &["ranges", "identical", "file pairs compared"],
        &[vec![ranges.len().to_string(), equal.to_string(), files.to_string()]],
    );
    Ok(())
}

/// How often imara-diff's Myers line counts equal git's numstat on the corpus's modified text
/// files (the measurement behind ADR 0004).
pub fn imara_agreement(options: &Options, report: &mut Report) -> Result<()> {
    let list = git(options)
        .args(["rev-list", "--parents", "HEAD"])
        .output()?;
    let mut input = String::new();
    for line in String::from_utf8(list.stdout)?.lines() {
        let mut it = line.split(' ');
        if let (Some(c), Some(p)) = (it.next(), it.next()) {
            input.push_str(&format!("{c} {p}\n"));
        }
    }
    let mut child = git(options)
        .args([
            "diff-tree",
            "--stdin",
            "--always",
            "-r",
            "-z",
            "--raw",
            "--numstat",
            "--no-abbrev",
            "--no-renames",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut stdin = child.stdin.take().context("stdin")?;
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output()?;
    let _ = writer.join();
    let per_commit =
        git_prism::git::facts::parse_per_commit(&out.stdout).map_err(|e| anyhow::anyhow!("{e}"))?;
    let pairs: Vec<(String, String, (u64, u64))> = per_commit
        .into_iter()
        .flat_map(|(_, entries)| entries)
        .filter(|e| {
            e.status == git_prism::git::facts::Status::Modified
                && e.mode_before == git_prism::git::Mode::FILE
                && e.mode_after == git_prism::git::Mode::FILE
        })
        .filter_map(|e| {
            Some((
                e.oid_before?.to_string(),
                e.oid_after?.to_string(),
                e.lines?,
            ))
        })
        .collect();
    let mut batch = git(options)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut input = batch.stdin.take().context("stdin")?;
    let mut output = BufReader::new(batch.stdout.take().context("stdout")?);
    let mut read_blob = |id: &str| -> Result<Vec<u8>> {
        writeln!(input, "{id}")?;
        input.flush()?;
        let mut header = String::new();
        output.read_line(&mut header)?;
        let size: usize = header
            .split(' ')
            .nth(2)
            .context("cat-file header")?
            .trim()
            .parse()?;
        let mut data = vec![0; size + 1];
        output.read_exact(&mut data)?;
        data.truncate(size);
        Ok(data)
    };
    let (mut same, mut total, mut higher, mut diff_lines) = (0usize, 0usize, 0usize, 0u64);
    for (old, new, (added, removed)) in &pairs {
        let (a, b) = (read_blob(old)?, read_blob(new)?);
        if a[..a.len().min(8000)].contains(&0) || b[..b.len().min(8000)].contains(&0) {
            continue;
        }
        let input = imara_diff::InternedInput::new(
            imara_diff::sources::byte_lines(&a),
            imara_diff::sources::byte_lines(&b),
        );
        let diff = imara_diff::Diff::compute(imara_diff::Algorithm::Myers, &input);
        let counts = (
            u64::from(diff.count_additions()),
            u64::from(diff.count_removals()),
        );
        total += 1;
        if counts == (*added, *removed) {
            same += 1;
        } else {
            if added + removed > counts.0 + counts.1 {
                higher += 1;
            }
            diff_lines += (added + removed).abs_diff(counts.0 + counts.1);
        }
    }
    drop(batch.kill());
    let pct = if total > 0 {
        100.0 * same as f64 / total as f64
    } else {
        0.0
    };
    report.section(
        "imara-diff against git's numstat (ADR 0004)",
        "Every modified text file of the corpus history (no renames): imara-diff's Myers line counts compared with git's numstat.",
        &["file diffs", "identical counts", "agreement", "git counted more", "total lines off"],
        &[vec![total.to_string(), same.to_string(), format!("{pct:.2}%"), higher.to_string(), diff_lines.to_string()]],
    );
    Ok(())
}

/// Checks the corpus exists and is a repository.
pub fn check_corpus(corpus: &Path) -> Result<()> {
    if !corpus.join(".git").exists() {
        bail!("no corpus repository at {}", corpus.display());
    }
    Ok(())
}
