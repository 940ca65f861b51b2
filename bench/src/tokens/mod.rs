//! Figure 3: token economy. The shim's answers against git's own output for the same command
//! line, in cl100k_base tokens, over the bench corpus and every extra corpus (`--also`: the
//! real histories of `../shared/corpus/` and git-prism's own, which nothing was tuned on):
//! - single commits (40 spread over the history, merges aside): `git diff A^..A` against git's
//!   patch and `git show A` against `git show A`, the one-line changes among them apart; and
//!   whether every added and removed line of the non-generated files is inside the answer
//!   whenever git's patch of those files is at most 4,000 tokens; `git show -s A` (the
//!   commit's header and message);
//! - `git log -N` (N = 1-10) from points of the history, with and without `-- <path>`;
//! - `git blame -L a,b` over 5-200 lines of files at HEAD;
//! - `git log -S/-G <term>` against the same command line (git prints commits and messages;
//!   the answer's lines fill what it saves on those);
//! - `git log -L :<function>:<file>` and `-L <a>,<b>:<file>` over files of HEAD;
//! - ranges of 5, 20, 50 and 100 commits: the first answer's size against git's patch, and
//!   whether it holds the whole map (every file, every changed function) when the range has at
//!   most 300 files, or how many pages the map takes; for ranges of 20-300 files, what the first
//!   page holds and costs ([`crate::contents`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

use crate::Options;
use crate::contents;
use crate::report::Report;

mod check;
mod sample;

/// Budgets from issue 19, for single commits (median, p90, sum) and for log, blame and the
/// pickaxe (p90); and issue 36's ceiling, for every command line ([`CEILING`]).
const SINGLE_MEDIAN: f64 = 0.85;
const SINGLE_P90: f64 = 1.0;
const SINGLE_SUM: f64 = 0.75;
const HISTORY_P90: f64 = 1.0;
/// No answer may cost more than git's own output for the same command line (issue 36), in
/// tokens or in bytes: the largest ratio of every command line.
const CEILING: f64 = 1.0;
/// A patch of the non-generated files at most this large must be inside the answer whole.
const WHOLE_PATCH_TOKENS: usize = 4000;
/// Ranges with at most this many files should have their whole map on the first answer.
const WHOLE_LISTING: usize = 300;
/// Samples per corpus.
const SINGLES: usize = 40;
const LOGS: usize = 20;
const BLAMES: usize = 20;
const PICKAXES: usize = 10;
const LINE_LOGS: usize = 10;
const PULL_REQUESTS: usize = 5;

/// The directory (in the shim's) of the stand-in for `gh`: `pr view` names the commits of
/// `BENCH_PR_BASE` and `BENCH_PR_HEAD`, `pr diff` prints `git diff base...head` as GitHub does.
const FAKE_GH: &str = "fake-gh";

/// The stand-in for `gh`.
const FAKE_GH_SCRIPT: &str = r#"#!/bin/sh
case "$1 $2" in
  "pr view") printf '{"number":1,"title":"bench","url":"","baseRefOid":"%s","headRefOid":"%s","baseRefName":"main","headRefName":"topic"}\n' "$BENCH_PR_BASE" "$BENCH_PR_HEAD" ;;
  "pr diff") exec "$BENCH_GIT" diff "$BENCH_PR_BASE...$BENCH_PR_HEAD" ;;
  *) exit 1 ;;
esac
"#;

fn run(mut cmd: Command) -> Result<Vec<u8>> {
    let out = cmd.stdin(Stdio::null()).stderr(Stdio::null()).output()?;
    if !out.status.success() {
        bail!("{cmd:?} failed");
    }
    Ok(out.stdout)
}

/// A small deterministic generator (the samples must be the same on every run).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// One command line measured: what the shim printed and what git prints, in tokens and bytes.
#[derive(Clone, Copy, Debug)]
struct Pair {
    answer: usize,
    git: usize,
    answer_bytes: usize,
    git_bytes: usize,
    /// Whether the shim answered with JSON (else it printed git's own bytes).
    answered: bool,
}

/// What one corpus gives: a ratio list per kind of command line, and the counts behind the
/// coverage and map checks.
#[derive(Default)]
struct Samples {
    /// The measured command lines, by label.
    pairs: BTreeMap<&'static str, Vec<Pair>>,
    eligible: usize,
    covered: usize,
    uncovered: Vec<String>,
    /// Ranges of at most 300 files: whole on the first answer, map complete on the first
    /// page (hunks on the next), map over more pages.
    whole: usize,
    map_first: usize,
    map_pages: Vec<String>,
    /// Ranges of more files: the pages their map takes.
    big_ranges: Vec<String>,
    /// Ranges of 20-300 files: what their first page holds and costs.
    contents: Vec<contents::Range>,
    /// Ranges with a map page git-prism did not answer, and why.
    unanswered: Vec<String>,
}

impl Samples {
    fn push(&mut self, label: &'static str, pair: Pair) {
        self.pairs.entry(label).or_default().push(pair);
    }
}

/// Runs git and the shim in one corpus.
struct Bench<'a> {
    options: &'a Options,
    shim_dir: PathBuf,
    real_dir: PathBuf,
    repo: PathBuf,
    bpe: &'a tiktoken_rs::CoreBPE,
}

impl Bench<'_> {
    fn git(&self, args: &[&str]) -> Command {
        let mut c = Command::new(&self.options.git);
        c.args(args)
            .current_dir(&self.repo)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_PRISM_PASSTHROUGH", "1");
        c
    }

    fn agent(&self, args: &[&str], cursor: Option<&str>) -> Command {
        self.agent_program("git", args, cursor)
    }

    /// An agent's call of `program` (`git`, or `gh`: the shim's links come first on PATH, then
    /// the stand-in for `gh`, then the real git).
    fn agent_program(&self, program: &str, args: &[&str], cursor: Option<&str>) -> Command {
        let mut c = Command::new(program);
        let path = std::env::join_paths([
            self.shim_dir.clone(),
            self.shim_dir.join(FAKE_GH),
            self.real_dir.clone(),
            "/usr/bin".into(),
            "/bin".into(),
        ])
        .expect("paths without ':'");
        c.args(args)
            .current_dir(&self.repo)
            .env_clear()
            .env("PATH", path)
            .env("HOME", self.options.work.join("home"))
            .env(
                "GIT_PRISM_CACHE_DIR",
                self.options.work.join("analysis-cache"),
            )
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("CLAUDECODE", "1");
        if let Some(cursor) = cursor {
            c.env("GIT_PRISM_CURSOR", cursor);
        }
        c
    }

    fn count(&self, bytes: &[u8]) -> usize {
        self.bpe
            .encode_ordinary(&String::from_utf8_lossy(bytes))
            .len()
    }

    fn lines(&self, args: &[&str]) -> Result<Vec<String>> {
        Ok(String::from_utf8(run(self.git(args))?)?
            .lines()
            .map(str::to_owned)
            .collect())
    }

    /// Git's output and the shim's answer for one command line (`None` when git printed
    /// nothing), and the answer.
    fn pair(&self, args: &[&str]) -> Result<Option<(Pair, Vec<u8>)>> {
        let git = run(self.git(args))?;
        if git.is_empty() {
            return Ok(None);
        }
        let answer = run(self.agent(args, None))?;
        let pair = Pair {
            answer: self.count(&answer),
            git: self.count(&git),
            answer_bytes: answer.len(),
            git_bytes: git.len(),
            answered: answer != git,
        };
        Ok(Some((pair, answer)))
    }
}

/// The figures of a list of pairs: token ratios (median, p90, p100) and the ratio of the sums,
/// the largest byte ratio, and how many were answered with JSON.
#[derive(Clone, Copy)]
struct Stats {
    n: usize,
    answered: usize,
    median: f64,
    p90: f64,
    max: f64,
    max_bytes: f64,
    sum: f64,
}

/// The [`Stats`] of a list of pairs.
fn stats(pairs: &[Pair]) -> Option<Stats> {
    if pairs.is_empty() {
        return None;
    }
    let mut r: Vec<f64> = pairs
        .iter()
        .map(|p| p.answer as f64 / p.git as f64)
        .collect();
    r.sort_by(f64::total_cmp);
    let q = |p: f64| r[((r.len() - 1) as f64 * p).round() as usize];
    let (a, g) = pairs
        .iter()
        .fold((0usize, 0usize), |(x, y), p| (x + p.answer, y + p.git));
    let max_bytes = pairs
        .iter()
        .map(|p| p.answer_bytes as f64 / p.git_bytes as f64)
        .fold(0.0, f64::max);
    Some(Stats {
        n: r.len(),
        answered: pairs.iter().filter(|p| p.answered).count(),
        median: q(0.5),
        p90: q(0.9),
        max: r[r.len() - 1],
        max_bytes,
        sum: a as f64 / g as f64,
    })
}

/// One row of the table: corpus, command line, then [`stats`].
fn row(corpus: &str, label: &str, s: Stats) -> Vec<String> {
    vec![
        corpus.to_owned(),
        format!("`{label}`"),
        s.n.to_string(),
        s.answered.to_string(),
        format!("{:.3}", s.median),
        format!("{:.3}", s.p90),
        format!("{:.3}", s.max),
        format!("{:.3}", s.max_bytes),
        format!("{:.3}", s.sum),
    ]
}

/// Where an extra corpus is checked out: a bundle is cloned once under the work directory; a
/// repository is used as it is.
pub(crate) fn checkout(options: &Options, source: &Path) -> Result<PathBuf> {
    if source.extension().is_none_or(|e| e != "bundle") {
        return Ok(source.to_owned());
    }
    let name = source
        .file_stem()
        .context("bundle without a name")?
        .to_owned();
    let dest = options.work.join("corpora").join(name);
    if !dest.join(".git").exists() {
        std::fs::create_dir_all(dest.parent().context("no parent")?)?;
        let mut c = Command::new(&options.git);
        c.arg("clone")
            .arg("--quiet")
            .arg(source)
            .arg(&dest)
            .env("GIT_PRISM_PASSTHROUGH", "1");
        run(c).with_context(|| format!("cloning {}", source.display()))?;
    }
    Ok(dest)
}

pub fn run_figure(options: &Options, report: &mut Report) -> Result<()> {
    let bpe = tiktoken_rs::cl100k_base().context("loading cl100k_base")?;
    let shim_dir = shim_dir(options)?;
    let real_dir = options
        .git
        .parent()
        .context("git has no directory")?
        .to_owned();
    let corpora = corpora(options)?;
    let mut totals = Totals::default();
    for (name, repo) in &corpora {
        eprintln!("tokens: {name}");
        let bench = Bench {
            options,
            shim_dir: shim_dir.clone(),
            real_dir: real_dir.clone(),
            repo: repo.clone(),
            bpe: &bpe,
        };
        totals.add(name, bench.measure()?);
    }
    let names: Vec<&str> = corpora.iter().map(|(n, _)| n.as_str()).collect();
    totals.report(&names, report);
    let (rows, summary) = contents::rows(&totals.by_corpus);
    report.section(
        "Range tables of contents",
        &format!(
            "The first page of `git diff A..B` for every sampled range of 20-300 files (issue 27): every public item of production code the range adds, deletes or re-signs (found in git's `-U0` patch: Rust, Go and Python declarations) named on page 1 with its signature; page 1 of a range of at most {} files within {} tokens plus {} per such item; the whole map (every page before the first hunk) within {}x git's `-U0` patch. {summary}",
            contents::CAPPED_FILES,
            contents::CAP_BASE,
            contents::CAP_PER_ITEM,
            contents::MAP_RATIO,
        ),
        &["corpus", "measure", "n", "median", "p90", "max", "verdict"],
        &rows,
    );
    Ok(())
}

/// The directory the agent's PATH starts with: the shim linked as `git` and `gh`, and the
/// stand-in for `gh` in [`FAKE_GH`].
fn shim_dir(options: &Options) -> Result<PathBuf> {
    let shim_dir = options.work.join("shim");
    std::fs::create_dir_all(&shim_dir)?;
    for name in ["git", "gh"] {
        let link = shim_dir.join(name);
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&options.binary, &link)?;
    }
    let fake_gh = shim_dir.join(FAKE_GH);
    std::fs::create_dir_all(&fake_gh)?;
    std::fs::write(fake_gh.join("gh"), FAKE_GH_SCRIPT)?;
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(fake_gh.join("gh"), std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(shim_dir)
}

/// The corpora measured, by name: the bench corpus, then each extra one checked out.
fn corpora(options: &Options) -> Result<Vec<(String, PathBuf)>> {
    let mut corpora = vec![("bench corpus".to_owned(), options.corpus.clone())];
    for extra in &options.also {
        let repo = checkout(options, extra)?;
        let own = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .and_then(|p| p.canonicalize().ok());
        let name = if repo.canonicalize().ok() == own {
            "git-prism (own history)".to_owned()
        } else {
            extra.file_stem().map_or_else(
                || repo.display().to_string(),
                |n| n.to_string_lossy().into(),
            )
        };
        corpora.push((name, repo));
    }
    Ok(corpora)
}

/// Every corpus's samples added up.
#[derive(Default)]
struct Totals {
    /// Every corpus's command lines, by label.
    all: BTreeMap<&'static str, Vec<Pair>>,
    /// The ranges whose first page was measured, by corpus.
    by_corpus: BTreeMap<String, Vec<contents::Range>>,
    /// The table's rows: each corpus's, then (from [`Totals::report`]) every corpus's.
    rows: Vec<Vec<String>>,
    notes: Vec<String>,
    eligible: usize,
    covered: usize,
    whole: usize,
    map_first: usize,
    map_pages: Vec<String>,
}

impl Totals {
    /// Adds one corpus's samples.
    fn add(&mut self, name: &str, mut s: Samples) {
        self.by_corpus
            .insert(name.to_owned(), std::mem::take(&mut s.contents));
        for (label, pairs) in &s.pairs {
            if let Some(stats) = stats(pairs) {
                self.rows.push(row(name, label, stats));
            }
            self.all.entry(label).or_default().extend(pairs);
        }
        self.eligible += s.eligible;
        self.covered += s.covered;
        if !s.uncovered.is_empty() {
            self.notes.push(format!(
                "{name}: changed lines missing in {}",
                s.uncovered.join(", ")
            ));
        }
        self.whole += s.whole;
        self.map_first += s.map_first;
        self.map_pages
            .extend(s.map_pages.iter().map(|r| format!("{name} {r}")));
        if !s.unanswered.is_empty() {
            self.notes.push(format!(
                "{name}: map pages not answered: {}",
                s.unanswered.join("; ")
            ));
        }
        if !s.big_ranges.is_empty() {
            self.notes.push(format!(
                "{name}, ranges of more than {WHOLE_LISTING} files: {}",
                s.big_ranges.join("; ")
            ));
        }
    }

    /// Every corpus's rows, each command line's verdict against its budget, and whether every
    /// answer kept the ceiling.
    fn verdicts(&mut self) -> (Vec<String>, String) {
        let mut verdicts = Vec::new();
        let mut over = Vec::new();
        for (label, pairs) in &self.all {
            let Some(st) = stats(pairs) else {
                continue;
            };
            self.rows.push(row("**all**", label, st));
            let ok = match *label {
                "git diff A^..A" | "git show A" => {
                    Some(st.median <= SINGLE_MEDIAN && st.p90 <= SINGLE_P90 && st.sum <= SINGLE_SUM)
                }
                l if l.starts_with("git log") || l.starts_with("git blame") => {
                    Some(st.p90 <= HISTORY_P90)
                }
                _ => None,
            };
            if let Some(ok) = ok {
                verdicts.push(format!("`{label}` {}", if ok { "met" } else { "NOT MET" }));
            }
            if st.max > CEILING || st.max_bytes > CEILING {
                over.push(format!(
                    "`{label}` ({:.3} in tokens, {:.3} in bytes)",
                    st.max, st.max_bytes
                ));
            }
        }
        let ceiling = if over.is_empty() {
            format!(
                "met: no sampled answer above {CEILING}x git's own output, in tokens or in bytes"
            )
        } else {
            format!("NOT MET: {}", over.join(", "))
        };
        (verdicts, ceiling)
    }

    /// The token economy's section, over the corpora `names`.
    fn report(&mut self, names: &[&str], report: &mut Report) {
        let (verdicts, ceiling) = self.verdicts();
        let (covered, eligible) = (self.covered, self.eligible);
        let (whole, map_first, map_pages) = (self.whole, self.map_first, &self.map_pages);
        let ranges = whole + map_first + map_pages.len();
        report.section(
            "Token economy",
            &format!(
                "Tokens (tiktoken cl100k_base) of what the shim printed for an agent's command line divided by the tokens of git's own output for the same command line, default budget (20,000 bytes), over {} corpora: {}. The shim prints git's own bytes where its answer would cost more (issue 36): `answered` counts the JSON answers, the others are git's bytes (ratio 1). Ratios per command line: median, p90, max (p100) in tokens, max (p100) in bytes, and the ratio of the sums (tokens). Every answer at most git's own output (p100 <= {CEILING}, tokens and bytes, every command line): {ceiling}. Budgets (issue 19): single commits median <= {SINGLE_MEDIAN}, p90 <= {SINGLE_P90}, sum <= {SINGLE_SUM}; log, blame and pickaxe p90 <= {HISTORY_P90}: {}. Changed lines inside the answer: {covered} of {eligible} single commits whose patch of non-generated files is at most {WHOLE_PATCH_TOKENS} tokens carry every added and removed line. Ranges of at most {WHOLE_LISTING} files ({ranges}): {whole} whole in the first answer, {map_first} with the whole map in the first answer (hunks on the next pages), {} with the map over several pages{}.{}",
                names.len(),
                names.join(", "),
                verdicts.join(", "),
                map_pages.len(),
                if map_pages.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", map_pages.join("; "))
                },
                if self.notes.is_empty() {
                    String::new()
                } else {
                    format!(" {}.", self.notes.join(". "))
                },
            ),
            &[
                "corpus",
                "answers",
                "n",
                "answered",
                "median",
                "p90",
                "max",
                "max bytes",
                "sum",
            ],
            &self.rows,
        );
    }
}
