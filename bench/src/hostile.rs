//! Figure: hostile repositories (issue 22). Wall time and peak memory of whole processes
//! (`wait4`'s `ru_maxrss`) on repositories built to make answers slow or large:
//! - 300 TypeScript files just under 1 MiB whose parses take their whole time budget (a
//!   repository of a few MB): the shim's `git show`, cold and again (budgets: 60 s and 1 GiB,
//!   then 15 s), and the MCP server's `get_change_manifest`;
//! - one Python file of about 1 MiB declaring about 80,000 constants: the shim's `git show
//!   -s`, whose file line names them (budget: 5 s);
//! - twenty 16 MiB files changed in one commit: `get_file_snapshots` of all of them with
//!   `include_diff_hunks`, `max_file_size_bytes` at its 16 MiB limit and the largest
//!   `max_response_tokens` (budget: 1 GiB).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::Options;
use crate::report::Report;

/// Files of the time-eating repository, and their size.
const SLOW_FILES: usize = 300;
const SLOW_BYTES: usize = 1_040_000;
/// The size of the file that declares tens of thousands of names, and how long its answer
/// may take (a list built by scanning itself took 22 s on such a file).
const MANY_BYTES: usize = 1_000_000;
const MANY_SECONDS: u64 = 5;
/// Files of the large-blob repository, and their size.
const BIG_FILES: usize = 20;
const BIG_BYTES: usize = 16 * 1024 * 1024 - 4096;

/// Waits for `child`, returning its wall time since `started` and its peak memory in KiB.
fn wait_measured(child: Child, started: Instant) -> Result<(Duration, u64, i32)> {
    let pid = libc::pid_t::try_from(child.id())?;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill.
    #[allow(
        unsafe_code,
        reason = "wait4 is the only way to read a child's peak memory"
    )]
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not yet reaped; the pointers are valid for the call.
    #[allow(
        unsafe_code,
        reason = "wait4 is the only way to read a child's peak memory"
    )]
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if got != pid {
        bail!("wait4 failed: {}", std::io::Error::last_os_error());
    }
    std::mem::forget(child);
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -libc::WTERMSIG(status)
    };
    Ok((started.elapsed(), u64::try_from(usage.ru_maxrss)?, code))
}

/// Builds `dir` with one empty commit and then one commit of `files` written by `content`.
fn build_repo(
    git: &Path,
    dir: &Path,
    files: usize,
    extension: &str,
    content: &dyn Fn(usize) -> Vec<u8>,
) -> Result<()> {
    if dir.join(".git").exists() {
        return Ok(());
    }
    let tmp = dir.with_extension("tmp");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp)?;
    let run = |args: &[&str]| crate::scratch::run(git, &tmp, args).map(drop);
    run(&["init", "-q"])?;
    run(&["commit", "-q", "--allow-empty", "-m", "base"])?;
    for i in 0..files {
        std::fs::write(tmp.join(format!("f{i:03}.{extension}")), content(i))?;
    }
    run(&["add", "-A"])?;
    run(&["commit", "-q", "-m", "hostile"])?;
    std::fs::rename(&tmp, dir)?;
    Ok(())
}

/// Runs one MCP tool call against `git-prism serve` in `repo` and returns (wall, peak KiB,
/// reply bytes).
fn mcp_call(
    options: &Options,
    repo: &Path,
    env: &[(&str, &Path)],
    tool: &str,
    args: serde_json::Value,
) -> Result<(Duration, u64, usize)> {
    let mut cmd = Command::new(&options.binary);
    cmd.args(["serve", "--allow"])
        .arg(repo)
        .current_dir(repo)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let started = Instant::now();
    let mut child = cmd.spawn()?;
    let mut stdin = child.stdin.take().context("stdin")?;
    let stdout = child.stdout.take().context("stdout")?;
    let mut lines = BufReader::new(stdout);
    let mut send = |v: serde_json::Value| -> Result<()> {
        writeln!(stdin, "{v}")?;
        stdin.flush()?;
        Ok(())
    };
    send(
        serde_json::json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}),
    )?;
    let mut line = String::new();
    lines.read_line(&mut line)?;
    send(serde_json::json!({"jsonrpc":"2.0","method":"notifications/initialized"}))?;
    send(
        serde_json::json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":tool,"arguments":args}}),
    )?;
    let mut reply = String::new();
    loop {
        reply.clear();
        if lines.read_line(&mut reply)? == 0 {
            bail!("the server closed before answering {tool}");
        }
        if reply.contains("\"id\":2") {
            break;
        }
    }
    drop(stdin);
    let (wall, rss, _) = wait_measured(child, started)?;
    Ok((wall, rss, reply.len()))
}

pub fn run(options: &Options, report: &mut Report) -> Result<()> {
    let dir = options.work.join("hostile");
    std::fs::create_dir_all(&dir)?;
    let slow = dir.join("slow");
    build_repo(&options.git, &slow, SLOW_FILES, "ts", &|i| {
        // Each `<` may open type arguments or be a comparison: the parser keeps both readings
        // until its budget runs out. Each file its own blob.
        let unit = "let a = f<".repeat(8) + "\n";
        let mut text = format!("// {i}\n");
        while text.len() + unit.len() <= SLOW_BYTES {
            text.push_str(&unit);
        }
        text.into_bytes()
    })?;
    let big = dir.join("big");
    build_repo(&options.git, &big, BIG_FILES, "ts", &|i| {
        let line = format!("{i} {}\n", "y".repeat(70));
        line.repeat(BIG_BYTES / line.len()).into_bytes()
    })?;
    let many = dir.join("many");
    build_repo(&options.git, &many, 1, "py", &|_| {
        // One Python file of about 1 MiB that declares some 80,000 constants: every list of
        // names an answer builds must be linear in them.
        let mut text = String::new();
        let mut i = 0;
        while text.len() < MANY_BYTES {
            text.push_str(&format!("C{i:06} = 1\n"));
            i += 1;
        }
        text.into_bytes()
    })?;
    let cache = dir.join("cache");
    let _ = std::fs::remove_dir_all(&cache);
    let shim = dir.join("shim");
    std::fs::create_dir_all(&shim)?;
    let link = shim.join("git");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&options.binary, &link)?;
    let real_dir: PathBuf = options
        .git
        .parent()
        .context("git has no directory")?
        .to_owned();
    let path = std::env::join_paths([shim.clone(), real_dir, "/usr/bin".into(), "/bin".into()])?;

    let mut rows = Vec::new();
    let mut ok = true;
    let mut shim_show = |label: &str, repo: &Path, args: &[&str], limit: Duration| -> Result<()> {
        let started = Instant::now();
        // The bench holds the pipe the shim writes to, as an agent's harness does (a file it
        // opened for the child would not be the harness's stream: git would answer).
        let mut child = Command::new("git")
            .args(args)
            .current_dir(repo)
            .env("PATH", &path)
            .env("CLAUDECODE", "1")
            .env("GIT_PRISM_CACHE_DIR", &cache)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let mut stdout = child.stdout.take().context("stdout")?;
        let reader = std::thread::spawn(move || {
            let mut first = [0u8; 1];
            let got = std::io::Read::read(&mut stdout, &mut first).unwrap_or(0);
            let _ = std::io::copy(&mut stdout, &mut std::io::sink());
            got == 1 && first[0] == b'{'
        });
        let (wall, rss, code) = wait_measured(child, started)?;
        let json = reader.join().unwrap_or(false);
        let within = wall <= limit && rss <= 1024 * 1024 && code == 0;
        ok &= within;
        rows.push(vec![
            label.to_owned(),
            format!("{:.1}", wall.as_secs_f64()),
            format!("{}", rss / 1024),
            if json { "JSON" } else { "git's output" }.to_owned(),
            format!(
                "{} s, 1024 MiB: {}",
                limit.as_secs(),
                if within { "met" } else { "NOT MET" }
            ),
        ]);
        Ok(())
    };
    shim_show(
        "shim `git show HEAD`, 300 time-eating files, cold",
        &slow,
        &["show", "HEAD"],
        Duration::from_secs(60),
    )?;
    shim_show(
        "the same, again",
        &slow,
        &["show", "HEAD"],
        Duration::from_secs(15),
    )?;
    shim_show(
        "shim `git show -s HEAD`, one file declaring about 80,000 constants",
        &many,
        &["show", "-s", "HEAD"],
        Duration::from_secs(MANY_SECONDS),
    )?;
    let _ = std::fs::remove_dir_all(&cache);
    let cache_env = [("GIT_PRISM_CACHE_DIR", cache.as_path())];
    let (wall, rss, bytes) = mcp_call(
        options,
        &slow,
        &cache_env,
        "get_change_manifest",
        serde_json::json!({"repo_path": slow, "base_ref": "HEAD~1", "head_ref": "HEAD"}),
    )?;
    let within = wall <= Duration::from_secs(60) && rss <= 1024 * 1024;
    ok &= within;
    rows.push(vec![
        "MCP `get_change_manifest`, the same repository, cold".into(),
        format!("{:.1}", wall.as_secs_f64()),
        format!("{}", rss / 1024),
        format!("{bytes} bytes"),
        format!("60 s, 1024 MiB: {}", if within { "met" } else { "NOT MET" }),
    ]);
    let paths: Vec<String> = (0..BIG_FILES).map(|i| format!("f{i:03}.ts")).collect();
    let (wall, rss, bytes) = mcp_call(
        options,
        &big,
        &cache_env,
        "get_file_snapshots",
        serde_json::json!({
            "repo_path": big, "base_ref": "HEAD~1", "head_ref": "HEAD", "paths": paths,
            "include_diff_hunks": true, "max_file_size_bytes": 16 * 1024 * 1024,
            "max_response_tokens": 100_000_000u64,
        }),
    )?;
    let within = rss <= 1024 * 1024;
    ok &= within;
    rows.push(vec![
        "MCP `get_file_snapshots`, twenty 16 MiB files with hunks, largest budget".into(),
        format!("{:.1}", wall.as_secs_f64()),
        format!("{}", rss / 1024),
        format!("{bytes} bytes"),
        format!("1024 MiB: {}", if within { "met" } else { "NOT MET" }),
    ]);
    report.section(
        "Hostile repositories",
        &format!(
            "Whole processes, wall time and peak resident memory (`wait4`). The time-eating repository: {SLOW_FILES} TypeScript files of {SLOW_BYTES} bytes whose parses each take their whole budget. The many-named one: one Python file of {MANY_BYTES} bytes declaring some 80,000 constants. The large one: {BIG_FILES} files of 16 MiB changed in one commit. Budgets (issue 22): {}.",
            if ok { "met" } else { "NOT MET" }
        ),
        &["call", "wall (s)", "peak (MiB)", "answer", "budget"],
        &rows,
    );
    Ok(())
}
