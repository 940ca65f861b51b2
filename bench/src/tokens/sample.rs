//! The samples of one corpus ([`Bench::measure`]): single commits, logs, blames, line logs,
//! pull requests, pickaxes and ranges, each command line run by git and by the shim as an
//! agent, in a fixed order from one deterministic generator so that every run measures the
//! same command lines.

use std::process::{Command, Stdio};

use anyhow::Result;
use serde_json::Value;

use super::check::MapPages;
use super::{
    BLAMES, Bench, FAKE_GH, LINE_LOGS, LOGS, Lcg, PICKAXES, PULL_REQUESTS, Pair, SINGLES, Samples,
    WHOLE_LISTING, contents, run,
};

impl Bench<'_> {
    /// Every sample of the corpus: single commits, logs, blames, line logs, pull requests,
    /// pickaxes, then ranges (in this order: the samples after the single commits share one
    /// generator, so that they are the same on every run).
    pub(super) fn measure(&self) -> Result<Samples> {
        let mut s = Samples::default();
        let mut rng = Lcg(19);
        self.singles(&mut s)?;
        let recent = self.lines(&["rev-list", "-n", "600", "HEAD"])?;
        let files: Vec<String> = self
            .lines(&["ls-files"])?
            .into_iter()
            .filter(|f| {
                [
                    ".rs", ".py", ".go", ".c", ".h", ".cc", ".cpp", ".js", ".ts", ".rb", ".lua",
                    ".kt", ".swift", ".scala", ".cs", ".php", ".java", ".sh", ".bash", ".md",
                ]
                .iter()
                .any(|e| f.ends_with(e))
            })
            .collect();
        if files.is_empty() || recent.len() < 20 {
            return Ok(s);
        }
        self.logs(&mut s, &recent, &files, &mut rng)?;
        let sources: Vec<&String> = files.iter().filter(|f| !f.ends_with(".md")).collect();
        self.blames(&mut s, &sources, &mut rng)?;
        self.line_logs(&mut s, &sources, &mut rng)?;
        self.pull_requests(&mut s, &recent, &mut rng)?;
        self.pickaxes(&mut s, &recent, &mut rng)?;
        self.ranges(&mut s)?;
        Ok(s)
    }

    /// Single commits spread over the history, merges aside: `git diff A^..A`, `git show A`
    /// (the one-line changes apart) and `git show -s A`, and whether the diff's answer carries
    /// every changed line.
    fn singles(&self, s: &mut Samples) -> Result<()> {
        let all = self.lines(&["rev-list", "--no-merges", "HEAD"])?;
        let step = (all.len() / SINGLES).max(1);
        for sha in all.iter().step_by(step).take(SINGLES) {
            if self.lines(&["rev-list", "--parents", "-n1", sha])?[0]
                .split(' ')
                .count()
                < 2
            {
                continue; // a root commit has no `A^`
            }
            let range = format!("{sha}^..{sha}");
            let numstat = self.lines(&["diff", "--numstat", &range])?;
            let changed: u64 = numstat
                .iter()
                .flat_map(|l| l.split('\t').take(2))
                .filter_map(|n| n.parse::<u64>().ok())
                .sum();
            let one_line = numstat.len() == 1 && changed <= 2;
            if let Some((p, raw)) = self.pair(&["diff", &range])? {
                s.push("git diff A^..A", p);
                if one_line {
                    s.push("git diff A^..A, one-line changes", p);
                }
                if let Ok(doc) = serde_json::from_slice::<Value>(&raw) {
                    self.coverage(s, sha, &range, &doc)?;
                }
            }
            if let Some((p, _)) = self.pair(&["show", sha])? {
                s.push("git show A", p);
                if one_line {
                    s.push("git show A, one-line changes", p);
                }
            }
            if let Some((p, _)) = self.pair(&["show", "-s", sha])? {
                s.push("git show -s A", p);
            }
        }
        Ok(())
    }

    /// `git log -N` (N = 1-10) from recent commits, with and without `-- <path>`.
    fn logs(
        &self,
        s: &mut Samples,
        recent: &[String],
        files: &[String],
        rng: &mut Lcg,
    ) -> Result<()> {
        for _ in 0..LOGS {
            let start = &recent[rng.below(recent.len() - 10)];
            let n = format!("-{}", 1 + rng.below(10));
            if let Some((p, _)) = self.pair(&["log", &n, start])? {
                s.push("git log -N (1-10)", p);
            }
            let file = &files[rng.below(files.len())];
            if let Some((p, _)) = self.pair(&["log", &n, start, "--", file])? {
                s.push("git log -N -- <path>", p);
            }
        }
        Ok(())
    }

    /// `git blame -L a,b` over 5-200 lines of source files at HEAD.
    fn blames(&self, s: &mut Samples, sources: &[&String], rng: &mut Lcg) -> Result<()> {
        let mut blamed = 0;
        for _ in 0..BLAMES * 3 {
            if blamed == BLAMES || sources.is_empty() {
                break;
            }
            let file = sources[rng.below(sources.len())];
            let Ok(text) = std::fs::read(self.repo.join(file)) else {
                continue;
            };
            let lines = text.split(|&b| b == b'\n').count();
            let span = [5, 10, 20, 50, 100, 200][rng.below(6)];
            if lines < span + 2 {
                continue;
            }
            let from = 1 + rng.below(lines - span);
            let l = format!("{from},{}", from + span - 1);
            if let Some((p, _)) = self.pair(&["blame", "-L", &l, file])? {
                s.push("git blame -L (5-200 lines)", p);
                blamed += 1;
            }
        }
        Ok(())
    }

    /// `git log -S/-G <term>` for words a recent commit added, against the same command line
    /// (issue 36): git prints commits and messages, no lines; the answer's lines fill what it
    /// saves on those.
    fn pickaxes(&self, s: &mut Samples, recent: &[String], rng: &mut Lcg) -> Result<()> {
        for k in 0..PICKAXES {
            let sha = &recent[1 + rng.below(recent.len() - 1)];
            let patch = run(self.git(&["show", "--format=", "-U0", sha]))?;
            let patch = String::from_utf8_lossy(&patch);
            let terms: Vec<&str> = patch
                .lines()
                .filter(|l| l.starts_with('+') && !l.starts_with("+++"))
                .flat_map(|l| l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
                .filter(|w| w.len() >= 7 && !w.starts_with(|c: char| c.is_ascii_digit()))
                .collect();
            if terms.is_empty() {
                continue;
            }
            let term = terms[rng.below(terms.len())];
            let kind = if k % 2 == 0 { "-S" } else { "-G" };
            if let Some((p, _)) = self.pair(&["log", kind, term])? {
                s.push("git log -S/-G <term>", p);
            }
        }
        Ok(())
    }

    /// Ranges of 5, 20, 50 and 100 commits along the first-parent chain.
    fn ranges(&self, s: &mut Samples) -> Result<()> {
        // `HEAD~k` walks first parents: ranges stay within that chain.
        let total: usize = String::from_utf8(run(self.git(&[
            "rev-list",
            "--first-parent",
            "--count",
            "HEAD",
        ]))?)?
        .trim()
        .parse::<usize>()?
        .min(600);
        for n in [5usize, 20, 50, 100] {
            for k in (0..total.saturating_sub(n)).step_by((total / 6).max(1)) {
                self.range(s, n, &format!("HEAD~{}..HEAD~{k}", k + n))?;
            }
        }
        Ok(())
    }

    /// One range of `n` commits: the first answer's size against git's patch, the pages its
    /// map takes, and for 20-300 files what its first page holds.
    fn range(&self, s: &mut Samples, n: usize, range: &str) -> Result<()> {
        let files = self
            .lines(&["diff", "--name-only", range])
            .map_or(0, |l| l.len());
        // Once to warm the analysis cache: what is measured is the answer, not
        // whether a loaded machine finished its analyses within the answer's time.
        let _ = run(self.agent(&["diff", range], None));
        let Some((p, raw)) = self.pair(&["diff", range])? else {
            return Ok(());
        };
        s.push(
            match n {
                5 => "git diff over 5 commits (first answer)",
                20 => "git diff over 20 commits (first answer)",
                50 => "git diff over 50 commits (first answer)",
                _ => "git diff over 100 commits (first answer)",
            },
            p,
        );
        if !p.answered {
            // git's own bytes: there is no map to measure.
            return Ok(());
        }
        let (pages, map_tokens) = match self.map_pages(range, &raw) {
            Ok(found) => found,
            Err(e) => {
                // A page git-prism did not answer (git's bytes instead): a failure of
                // the answer, reported, not a reason to stop measuring.
                s.unanswered.push(format!("{range} ({files} files): {e:#}"));
                return Ok(());
            }
        };
        if (20..=WHOLE_LISTING).contains(&files) {
            let map = (!matches!(pages, MapPages::Whole)).then_some(map_tokens);
            let contents = self.first_page(range, files, p.answer, map, &raw)?;
            s.contents.push(contents);
        }
        let label = format!("{range} ({files} files): {}", pages.describe());
        match (files <= WHOLE_LISTING, pages) {
            (true, MapPages::Whole) => s.whole += 1,
            (true, MapPages::First) => s.map_first += 1,
            (true, _) => s.map_pages.push(label),
            (false, _) => s.big_ranges.push(label),
        }
        Ok(())
    }

    /// What a range's first page (`raw`, `page1` tokens) holds of the interface its `-U0`
    /// patch adds, deletes or re-signs, and what it and the whole map (`map` tokens, when the
    /// map is not whole on it) cost.
    fn first_page(
        &self,
        range: &str,
        files: usize,
        page1: usize,
        map: Option<usize>,
        raw: &[u8],
    ) -> Result<contents::Range> {
        let patch = run(self.git(&["diff", "-U0", range]))?;
        let patch_text = String::from_utf8_lossy(&patch);
        let (items, unread) = contents::interface(&patch_text);
        let doc: Value = serde_json::from_slice(raw)?;
        let text = contents::interface_text(&doc);
        let missing: Vec<String> = items
            .iter()
            .filter(|i| !contents::holds(&text, i))
            .map(|i| format!("{} {} ({})", i.keyword, i.name, i.file))
            .collect();
        Ok(contents::Range {
            label: format!("{range} ({files} files)"),
            files,
            items: items.len(),
            listed: contents::listed_items(&doc),
            missing,
            unread,
            page1,
            map,
            patch: self.count(&patch),
            interface_continues: doc["cut"].to_string().contains("the interface, continued"),
        })
    }

    /// `gh pr diff` of pull requests made of ranges of the history (a stand-in for `gh` names
    /// their commits and prints `git diff base...head`, as GitHub does): the answer against
    /// what `gh` prints.
    fn pull_requests(&self, s: &mut Samples, heads: &[String], rng: &mut Lcg) -> Result<()> {
        let gh = self.shim_dir.join(FAKE_GH).join("gh");
        for _ in 0..PULL_REQUESTS {
            if heads.len() < 30 {
                break;
            }
            let at = rng.below(heads.len() - 25);
            let (head, base) = (&heads[at], &heads[at + 1 + rng.below(20)]);
            let with = |mut c: Command| {
                c.env("BENCH_PR_BASE", base)
                    .env("BENCH_PR_HEAD", head)
                    .env("BENCH_GIT", &self.options.git);
                c
            };
            let mut own = Command::new(&gh);
            own.args(["pr", "diff", "1"])
                .current_dir(&self.repo)
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_CONFIG_GLOBAL", "/dev/null");
            let git = run(with(own))?;
            if git.is_empty() {
                continue;
            }
            let answer = run(with(self.agent_program("gh", &["pr", "diff", "1"], None)))?;
            s.push(
                "gh pr diff",
                Pair {
                    answer: self.count(&answer),
                    git: self.count(&git),
                    answer_bytes: answer.len(),
                    git_bytes: git.len(),
                    answered: answer != git,
                },
            );
        }
        Ok(())
    }

    /// `git log -L` over files of HEAD: half `:<function>:<file>` for a function defined at
    /// the start of a line (what git's default funcname lines are), half `<a>,<b>:<file>` over
    /// 5-40 lines.
    fn line_logs(&self, s: &mut Samples, sources: &[&String], rng: &mut Lcg) -> Result<()> {
        let definition = regex::Regex::new(
            r"(?m)^(?:pub(?:\([^)]*\))? )?(?:async )?(?:def|fn|func|fun|function|sub) ([A-Za-z_][A-Za-z0-9_]*)",
        )?;
        let mut done = 0;
        for k in 0..LINE_LOGS * 4 {
            if done == LINE_LOGS || sources.is_empty() {
                break;
            }
            let file = sources[rng.below(sources.len())];
            let Ok(text) = std::fs::read_to_string(self.repo.join(file)) else {
                continue;
            };
            let spec = if k % 2 == 0 {
                let names: Vec<&str> = definition
                    .captures_iter(&text)
                    .filter_map(|c| c.get(1).map(|m| m.as_str()))
                    .collect();
                if names.is_empty() {
                    continue;
                }
                format!(":{}:{file}", names[rng.below(names.len())])
            } else {
                let lines = text.lines().count();
                let span = 5 + rng.below(36);
                if lines < span + 2 {
                    continue;
                }
                let from = 1 + rng.below(lines - span);
                format!("{from},{}:{file}", from + span - 1)
            };
            let args = ["log", "-L", spec.as_str()];
            // A name git's funcname lines do not hold is git's error: not a sample.
            let ok = self
                .git(&args)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()?
                .success();
            if !ok {
                continue;
            }
            if let Some((p, _)) = self.pair(&args)? {
                s.push("git log -L <range>:<file>", p);
                done += 1;
            }
        }
        Ok(())
    }
}
