//! `git-prism hook stop` and `git-prism hook session-start`: the done-gate run by an agent
//! harness's own hooks (issue 35), so that nobody has to remember to ask.
//!
//! Both read the harness's JSON on stdin (`session_id`, `cwd`, `stop_hook_active`; Claude
//! Code's `Stop`, Codex's `Stop`, Gemini CLI's `AfterAgent` and `SessionStart` send them).
//!
//! - **stop** asks git ([`crate::query::verify`]) whether the work of the turn is done, in
//!   every repository a `git-prism session` lets the agent write (else the repository the
//!   harness runs in): nothing left uncommitted; the branch's commits on its remote where
//!   the work is to be pushed (a write-push repository of a session, a branch with an
//!   upstream otherwise; as the remote-tracking ref has it, for speed: `session verify
//!   --pushed` asks the remote); in a session, no hook skipped and no protected path changed. A
//!   repository that did not change since the session (or the harness's session) started, or
//!   since the last stop that passed, is not asked: a turn that changed nothing passes.
//!   Silent, exit 0, when all holds; else exit 2 with one line per failure and what to run on
//!   stderr, which the harnesses give the model. The same failures are not given twice in a
//!   row while the harness says a stop hook is already active (`stop_hook_active`): a hook
//!   never loops.
//! - **session-start** prints at most about 200 tokens: each repository's branch, how far it
//!   is ahead of or behind its upstream, what is uncommitted, and the session's scope in one
//!   line; as plain text (Claude Code, Codex) or as the JSON Gemini CLI reads. It also notes
//!   where the work starts, for stop.
//!
//! What the hooks remember between calls (where the work started, the last failures) lives in
//! a private directory in the temporary directory (the session's own, inside a sandbox), or in
//! the state directory when another user holds that name; with neither, nothing is
//! remembered and a stop the harness says is already a hook's retry is let through.

use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::Out;
use crate::exit_codes;
use crate::git::state::Uncommitted;
use crate::git::{Location, Oid, Repo};
use crate::guard::scope::Permission;
use crate::guard::session;
use crate::install::hooks::Harness;
use crate::query::verify::{self, Check, RemoteAsk, Since, SkippedHooks, Subject, VerifyQuery};

/// The exit status that makes the harnesses keep the turn going (Claude Code's and Codex's
/// `Stop`, Gemini CLI's `AfterAgent`), with stderr given to the model.
pub const BLOCK: i32 = 2;

/// Arguments of `hook`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    event: Event,
}

#[derive(Debug, clap::Subcommand)]
enum Event {
    /// Block the end of a turn until its work is committed and pushed
    ///
    /// Exits 2 with one line per failure on stderr, which the harness gives the model, so the
    /// turn goes on; silent when the work is done.
    Stop {
        /// The harness that runs the hook (claude, codex, gemini)
        #[arg(long, value_name = "HARNESS", value_parser = parse_harness)]
        harness: Option<Harness>,
    },
    /// Print where the work stands as the harness's session starts
    ///
    /// The branch, its upstream, what is uncommitted and the session's scope, for the model to
    /// read.
    SessionStart {
        /// The harness that runs the hook (claude, codex, gemini: JSON for Gemini CLI)
        #[arg(long, value_name = "HARNESS", value_parser = parse_harness)]
        harness: Option<Harness>,
    },
}

fn parse_harness(word: &str) -> Result<Harness, String> {
    Harness::from_flag(word).ok_or_else(|| format!("no harness '{word}' (claude, codex, gemini)"))
}

/// What the harnesses send on stdin (fields a harness does not send are absent).
#[derive(Debug, Default, Deserialize)]
struct Input {
    #[serde(default)]
    session_id: Option<String>,
    #[serde(default)]
    cwd: Option<PathBuf>,
    #[serde(default)]
    stop_hook_active: Option<bool>,
}

/// The largest input read.
const MAX_INPUT: u64 = 1 << 20;

fn read_input() -> Input {
    use std::io::IsTerminal;
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Input::default();
    }
    let mut bytes = Vec::new();
    let _ = stdin.lock().take(MAX_INPUT).read_to_end(&mut bytes);
    serde_json::from_slice(&bytes).unwrap_or_default()
}

pub fn run(args: Args, out: &mut Out<'_>) -> Result<i32> {
    let input = read_input();
    match args.event {
        Event::Stop { harness } => stop(&input, harness, out),
        Event::SessionStart { harness } => session_start(&input, harness, out),
    }
}

/// What the hooks remember for one harness session.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Memory {
    /// Where the work stood when it last counted as done (or the session started), per
    /// repository.
    #[serde(default)]
    baselines: BTreeMap<String, Baseline>,
    /// The failures the last block gave, and how many blocks in a row.
    #[serde(default)]
    last_block: Option<String>,
    #[serde(default)]
    blocks: u32,
}

/// A repository's state: HEAD and what is uncommitted.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Baseline {
    head: Option<String>,
    uncommitted: Vec<String>,
}

/// The most blocks in a row for one harness session, whatever changes between them.
const MAX_BLOCKS: u32 = 8;

/// The file the hooks remember a harness session in.
fn memory_file(input: &Input) -> Option<PathBuf> {
    let uid = rustix::process::getuid().as_raw();
    let id: String = input
        .session_id
        .as_deref()
        .unwrap_or("no-session")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(128)
        .collect();
    let temp = std::env::temp_dir().join(format!("git-prism-hooks-{uid}"));
    let state = crate::guard::log::dir().map(|d| d.join("hook-memory"));
    [Some(temp), state]
        .into_iter()
        .flatten()
        .find(|dir| private_dir(dir, uid))
        .map(|dir| dir.join(format!("{id}.json")))
}

/// Whether `dir` is (made, if missing) a directory of this user's that nobody else may write
/// or list: a name in a shared temporary directory another user took first is not ours, and
/// what is in it could make a stop pass.
fn private_dir(dir: &Path, uid: u32) -> bool {
    use std::os::unix::fs::MetadataExt;
    if std::fs::symlink_metadata(dir).is_err() {
        if let Some(parent) = dir.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = std::fs::DirBuilder::new().mode(0o700).create(dir);
    }
    std::fs::symlink_metadata(dir)
        .is_ok_and(|m| m.is_dir() && m.uid() == uid && m.mode() & 0o077 == 0)
}

fn recall(file: Option<&Path>) -> Memory {
    file.and_then(|f| crate::paths::read_regular(f, 1 << 20).ok())
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

fn remember(file: Option<&Path>, memory: &Memory) {
    if let (Some(f), Ok(text)) = (file, serde_json::to_vec(memory)) {
        let _ = crate::install::block::replace_file(f, Some(&text));
    }
}

/// A repository the hooks look at: where it is, and what the session says of it.
struct Target {
    location: Location,
    shown: PathBuf,
    /// The session's record of it (`None`: no session).
    record: Option<(session::Record, session::Repo)>,
}

/// The repositories to look at: the session's writable ones, else the one at `cwd`.
fn targets(cwd: &Path) -> Vec<Target> {
    let record = std::env::var_os(crate::guard::scope::SCOPE_VAR)
        .filter(|v| !v.is_empty())
        .and_then(|scope| session::load(Path::new(&scope)).ok().flatten());
    if let Some(record) = record {
        return record
            .repos
            .iter()
            .filter(|r| r.permission >= Permission::WriteLocal && r.work_tree.is_some())
            .filter_map(|r| {
                let shown = r.identity().shown();
                Some(Target {
                    location: Location::at(&shown).ok()?,
                    shown,
                    record: Some((record.clone(), r.clone())),
                })
            })
            .collect();
    }
    match Location::at(cwd) {
        Ok(location) if Repo::open(&location).is_ok() => vec![Target {
            shown: cwd.to_owned(),
            location,
            record: None,
        }],
        _ => Vec::new(),
    }
}

/// A repository's state now, and what git said is uncommitted (for verify, which would
/// otherwise walk the work tree again).
fn state_of(repo: &Repo) -> Result<(Baseline, Vec<Uncommitted>)> {
    let head = match repo.resolve_commit("HEAD".as_ref()) {
        Ok(oid) => Some(oid.as_str().to_owned()),
        Err(crate::git::GitError::BadRevision(_)) => None,
        Err(e) => return Err(e.into()),
    };
    let all = if repo.workdir().is_some() {
        repo.uncommitted()?
    } else {
        Vec::new()
    };
    let uncommitted = all
        .iter()
        .take(1000)
        .map(|u| format!("{} {}", String::from_utf8_lossy(&u.code), u.path))
        .collect();
    Ok((Baseline { head, uncommitted }, all))
}

/// The done-gate (see the module docs): asks each repository whose work changed, and blocks
/// the turn with the failures, unless they were said already.
fn stop(input: &Input, _harness: Option<Harness>, out: &mut Out<'_>) -> Result<i32> {
    let cwd = input
        .cwd
        .clone()
        .filter(|c| c.is_absolute())
        .map_or_else(std::env::current_dir, Ok)?;
    let file = memory_file(input);
    let mut memory = recall(file.as_deref());
    let log = crate::guard::log::read();
    let mut asks = Vec::new();
    let mut states = Vec::new();
    for target in targets(&cwd) {
        let looked = look(target, &memory, &log)?;
        states.push((looked.key, looked.now));
        asks.extend(looked.ask);
    }
    let lines = failures(asks)?;
    if lines.is_empty() {
        for (key, now) in states {
            memory.baselines.insert(key, now);
        }
        memory.last_block = None;
        memory.blocks = 0;
        remember(file.as_deref(), &memory);
        return Ok(exit_codes::SUCCESS);
    }
    block(input, &mut memory, file.as_deref(), &lines, out)
}

/// Where one repository stands, for stop.
struct Looked {
    /// The repository, as the memory keys it.
    key: String,
    /// Its state now.
    now: Baseline,
    /// When its work changed: what to ask of it.
    ask: Option<Question>,
}

/// What stop asks verify of one repository whose work changed.
struct Question {
    subject: Subject,
    /// Whether its push is asked.
    push: bool,
    /// The repository, open.
    repo: Repo,
    /// What git said is uncommitted a moment ago.
    uncommitted: Vec<Uncommitted>,
}

/// What stop asks of one repository, before it is a [`Subject`].
struct Ask {
    since: Since,
    changed: bool,
    push: bool,
    skipped: Option<Vec<SkippedHooks>>,
    protected: Vec<String>,
}

/// Looks at one repository: its state now and, when it changed, what to ask of it.
fn look(target: Target, memory: &Memory, log: &[crate::guard::log::Entry]) -> Result<Looked> {
    let repo = Repo::open_ignoring_replacements(&target.location)?;
    let (now, uncommitted) = state_of(&repo)?;
    let key = target.shown.display().to_string();
    let ask = match &target.record {
        Some((record, r)) => in_session(record, r, &now, &key, log)?,
        None => outside_session(&repo, memory.baselines.get(&key), &now)?,
    };
    let pushes = target
        .record
        .as_ref()
        .map(|(_, r)| super::verify::session_pushes(r.permission, &r.protected));
    let ask = ask.changed.then(|| {
        let subject = Subject {
            location: target.location,
            since: ask.since,
            protected_paths: ask.protected,
            skipped_hooks: ask.skipped,
            remote_changes: Vec::new(),
            pushes,
        };
        Question {
            subject,
            push: ask.push,
            repo,
            uncommitted,
        }
    });
    Ok(Looked { key, now, ask })
}

/// In a session: the work since the session started (changed when HEAD moved or something
/// is uncommitted), pushed when the repository is write-push and HEAD moved, with the hooks
/// the guard's record says were skipped and the protected paths.
fn in_session(
    record: &session::Record,
    r: &session::Repo,
    now: &Baseline,
    key: &str,
    log: &[crate::guard::log::Entry],
) -> Result<Ask> {
    let moved = now.head != r.head;
    let since = match &r.head {
        Some(h) => Since::SessionStart(Oid::parse(h)?),
        None => Since::Unborn,
    };
    let skipped: Vec<SkippedHooks> = log
        .iter()
        .filter(|l| l.session.as_deref() == Some(record.id.as_str()))
        .filter(|l| l.repo.as_deref() == Some(key))
        .filter_map(|l| {
            Some(SkippedHooks {
                time: l.time.clone(),
                command: l.command.clone(),
                how: l.effect.as_ref()?.hooks_skipped.clone()?,
                undo: None,
            })
        })
        .collect();
    Ok(Ask {
        since,
        changed: moved || !now.uncommitted.is_empty(),
        push: r.permission == Permission::WritePush && moved,
        skipped: Some(skipped),
        protected: r.protected_paths.clone(),
    })
}

/// Outside a session: the work since the last stop that passed (`base`), pushed when the
/// branch has an upstream and HEAD moved.
fn outside_session(repo: &Repo, base: Option<&Baseline>, now: &Baseline) -> Result<Ask> {
    let changed = base != Some(now);
    let since = match now.head.as_deref().map(Oid::parse) {
        Some(Ok(h)) => Since::SessionStart(h),
        _ => Since::Unborn,
    };
    let branch = repo.current_branch()?;
    let has_upstream = match &branch {
        Some(b) => repo.push_target(b.as_ref())?.is_some(),
        None => false,
    };
    let moved = base.is_none_or(|b| b.head != now.head);
    Ok(Ask {
        since,
        changed,
        push: has_upstream && moved,
        skipped: None,
        protected: Vec::new(),
    })
}

/// The checks that fail, one line each with what to run: one query per repository (whether
/// its push is asked differs).
fn failures(asks: Vec<Question>) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    for ask in asks {
        let query = VerifyQuery {
            subjects: Vec::new(),
            commit: None,
            pushed: ask.push.then_some(RemoteAsk::Offline),
            merged_into: None,
            skip: vec![Check::Commit, Check::Merged],
        };
        let findings = verify::verify_open(&query, &ask.subject, &ask.repo, Some(ask.uncommitted))?;
        for f in findings.into_iter().filter(|f| !f.ok) {
            let mut line = format!("{}: {}", f.check.name(), one_line(&f.detail));
            if let Some(remedy) = &f.remedy {
                line = format!("{line}; {remedy}");
            }
            lines.push(line);
        }
    }
    Ok(lines)
}

/// Blocks the turn with `lines`, unless they were said already and the harness is stopping
/// anyway, or the turn was blocked [`MAX_BLOCKS`] times in a row (a hook never loops).
fn block(
    input: &Input,
    memory: &mut Memory,
    file: Option<&Path>,
    lines: &[String],
    out: &mut Out<'_>,
) -> Result<i32> {
    let text = lines.join("\n");
    // Without a memory, every retry would look new: the harness's word that this is one ends it.
    let again = file.is_none() || memory.last_block.as_deref() == Some(text.as_str());
    if (input.stop_hook_active == Some(true) && again) || memory.blocks >= MAX_BLOCKS {
        // Said already, and the harness is stopping anyway: let it (a hook never loops).
        memory.blocks = 0;
        remember(file, memory);
        return Ok(exit_codes::SUCCESS);
    }
    memory.last_block = Some(text);
    memory.blocks += 1;
    remember(file, memory);
    writeln!(out.stderr, "git-prism: the work is not done yet:")?;
    for line in lines {
        writeln!(out.stderr, "{line}")?;
    }
    Ok(BLOCK)
}

fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The most characters session-start prints (about 200 tokens).
const MAX_START: usize = 800;

fn session_start(input: &Input, harness: Option<Harness>, out: &mut Out<'_>) -> Result<i32> {
    let cwd = input
        .cwd
        .clone()
        .filter(|c| c.is_absolute())
        .map_or_else(std::env::current_dir, Ok)?;
    let file = memory_file(input);
    let mut memory = recall(file.as_deref());
    let mut lines = Vec::new();
    let mut scope_line = None;
    for target in targets(&cwd) {
        let Ok(repo) = Repo::open(&target.location) else {
            continue;
        };
        let (now, _) = state_of(&repo)?;
        lines.push(format!(
            "{}: {}",
            target.shown.display(),
            describe(&repo, &now)?
        ));
        if let Some((record, _)) = &target.record {
            scope_line.get_or_insert_with(|| scope_text(record));
        }
        memory
            .baselines
            .insert(target.shown.display().to_string(), now);
    }
    remember(file.as_deref(), &memory);
    lines.extend(scope_line);
    if lines.is_empty() {
        return Ok(exit_codes::SUCCESS);
    }
    let mut text = format!("git-prism: {}", lines.join("\n"));
    if text.chars().count() > MAX_START {
        text = text.chars().take(MAX_START - 1).collect::<String>() + "…";
    }
    match harness {
        Some(Harness::Gemini) => {
            let json = serde_json::json!({
                "hookSpecificOutput": {
                    "hookEventName": "SessionStart",
                    "additionalContext": text,
                }
            });
            writeln!(out.stdout, "{}", crate::json::to_string(&json)?)?;
        }
        _ => writeln!(out.stdout, "{text}")?,
    }
    Ok(exit_codes::SUCCESS)
}

/// `on feature (origin/feature: 2 ahead, 1 behind); 3 uncommitted (1 staged, 2 untracked)`.
fn describe(repo: &Repo, now: &Baseline) -> Result<String> {
    let branch = repo.current_branch()?;
    let mut text = match &branch {
        None => match &now.head {
            Some(h) => format!("HEAD detached at {}", &h[..12.min(h.len())]),
            None => "no commit yet".to_owned(),
        },
        Some(b) => {
            let name = b.to_string();
            let name = name.strip_prefix("refs/heads/").unwrap_or(&name).to_owned();
            let upstream = repo
                .push_target(b.as_ref())?
                .and_then(|t| t.tracking)
                .and_then(|tracking| {
                    let tip = repo.resolve_commit(tracking.to_string().as_ref()).ok()?;
                    let head = Oid::parse(now.head.as_deref()?).ok()?;
                    let ahead = repo.count_commits(&tip, &head).ok()?;
                    let behind = repo.count_commits(&head, &tip).ok()?;
                    let short = tracking.to_string();
                    let short = short
                        .strip_prefix("refs/remotes/")
                        .unwrap_or(&short)
                        .to_owned();
                    Some(format!("{short}: {ahead} ahead, {behind} behind"))
                });
            match upstream {
                Some(u) => format!("on {name} ({u})"),
                None => format!("on {name} (no upstream)"),
            }
        }
    };
    let n = now.uncommitted.len();
    if n == 0 {
        text.push_str("; nothing uncommitted");
    } else {
        let untracked = now
            .uncommitted
            .iter()
            .filter(|u| u.starts_with("??"))
            .count();
        let staged = now
            .uncommitted
            .iter()
            .filter(|u| !u.starts_with("??") && !u.starts_with(' '))
            .count();
        text.push_str(&format!(
            "; {n} uncommitted ({staged} staged, {} not staged, {untracked} untracked)",
            n - staged - untracked
        ));
    }
    Ok(text)
}

/// The session's scope in one line.
fn scope_text(record: &session::Record) -> String {
    let repos: Vec<String> = record
        .repos
        .iter()
        .map(|r| {
            let name = r
                .path
                .path()
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match r.permission {
                Permission::WritePush => {
                    format!("{name} write-push (never {})", r.protected.join(", "))
                }
                p => format!("{name} {}", p.name()),
            }
        })
        .collect();
    let unlisted = match record.sandbox.as_ref().map(|s| s.settings.unlisted) {
        Some(crate::guard::scope::Unlisted::Hidden) => "hidden",
        _ => "read-only",
    };
    format!(
        "session {}: {}; other repositories {unlisted}; done means committed and pushed (`git-prism session verify --pushed`)",
        &record.id[..8],
        repos.join(", ")
    )
}
