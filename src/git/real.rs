//! Running the real git for the facts git defines.
//!
//! Invariants:
//! - The binary is found like the shim finds it (pinned path, PATH walk without empty or
//!   relative entries, never git-prism itself), so this can never recurse into the shim.
//! - Every call runs with the caller's global options (`-C`, `-c`, `--git-dir`, ...) so git sees
//!   the same repository the caller's command would, followed by overrides that keep repository
//!   content from executing: fsmonitor off, hooks pointed at nothing, no pager, no lazy fetch of
//!   a partial clone's missing objects (`GIT_NO_LAZY_FETCH`), and every clean/smudge/process
//!   filter driver git itself would see neutralised (see [`Invocation::command`]); the callers
//!   add `--no-ext-diff` and `--no-textconv` to every diff and log (`--no-textconv` to blame).
//!   Settings that would change the text git-prism parses (`core.quotePath`, `diff.noprefix`,
//!   `i18n.logOutputEncoding`, `diff.orderFile`, colour...) are fixed too. `rev-parse` and the
//!   metadata commands ([`Invocation::metadata`]), which read no file content, run before the
//!   filter drivers are listed.
//! - Nothing writes the repository: optional locks are off, and a diff that reads the work tree
//!   (which would refresh the index and write it back) runs on a private copy of the index
//!   ([`Invocation::spawn_on_index_copy`]).
//! - Filter drivers are not guessed from names: the real git lists every configuration key it
//!   would read (every scope, includes, the caller's `-c`), and the repository's populated
//!   submodules are listed the same way, because git checks whether a submodule is dirty by
//!   running `git status` inside it with the submodule's own configuration. Each driver found
//!   gets `--config-env=filter.<name>.<key>=<empty>`: git splits that option at its last `=`,
//!   so a driver name containing `=` or bytes that are not UTF-8 is overridden exactly.
//! - Output is captured, never written to the caller's streams, and bounded: at most
//!   [`MAX_OUTPUT`] bytes (less where the caller says), within a time limit per process
//!   ([`super::deadline`]), read by threads so that nothing a killed git leaves behind can
//!   hold the answer.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

use super::GitError;
use super::deadline::{self, Ended};
use crate::locate;

/// How to run the real git against the caller's repository.
#[derive(Debug)]
pub(crate) struct Invocation {
    /// The real git.
    pub program: PathBuf,
    /// The directory the caller ran in (before any `-C`).
    pub cwd: PathBuf,
    /// The caller's global options, verbatim.
    pub globals: Vec<OsString>,
    /// The populated submodules' directories, whose own filter drivers must be neutralised too.
    submodules: Vec<PathBuf>,
    /// The `--config-env` arguments that neutralise every filter driver, once computed.
    guard: Mutex<Option<Vec<OsString>>>,
    /// Whether replace objects are ignored (`GIT_NO_REPLACE_OBJECTS`): for questions whose
    /// answer a repository's `refs/replace/` must not change (`verify`).
    no_replace: bool,
}

/// A git process started by [`Invocation::spawn`].
pub(crate) struct Running {
    child: std::process::Child,
    name: String,
    program: PathBuf,
    /// The private index the command reads, removed once it is done.
    _index: Option<IndexCopy>,
}

impl Running {
    fn new(
        child: std::process::Child,
        name: String,
        program: PathBuf,
        index: Option<IndexCopy>,
    ) -> Running {
        Running {
            child,
            name,
            program,
            _index: index,
        }
    }

    /// Like [`Running::finish`], but reads at most `max` bytes of standard output: past that,
    /// git is stopped and the call fails with [`GitError::TooLarge`].
    pub(crate) fn finish_capped(self, max: usize) -> Result<Vec<u8>, GitError> {
        self.collect(max)
    }

    /// Waits for git and returns its standard output, at most [`MAX_OUTPUT`] bytes (past
    /// that, [`GitError::TooLarge`]); a non-zero exit is an error carrying git's standard
    /// error.
    pub(crate) fn finish(self) -> Result<Vec<u8>, GitError> {
        self.collect(MAX_OUTPUT)
    }

    /// Runs git to its end within its time limit ([`deadline::run`]).
    fn collect(self, max: usize) -> Result<Vec<u8>, GitError> {
        let Running {
            child,
            name,
            program,
            _index,
        } = self;
        match deadline::run(child, max, deadline::timeout_from_env()) {
            Ok(out) => checked(name, out.status, &out.stderr, out.stdout),
            Err(Ended::TimedOut(limit)) => Err(GitError::TimedOut {
                command: name,
                seconds: limit.as_secs(),
            }),
            Err(Ended::TooLarge(limit)) => Err(GitError::TooLarge {
                command: name,
                limit,
            }),
            Err(Ended::LeftRunning) => Err(GitError::LeftRunning { command: name }),
            Err(Ended::Io(source)) => Err(GitError::Spawn { program, source }),
        }
    }
}

/// Blocks SIGPIPE in the calling thread only (a write to a closed pipe then fails with EPIPE;
/// the pending signal goes with the thread). The process's disposition, which the passthrough
/// hands to git, is left alone.
#[allow(unsafe_code, reason = "pthread_sigmask has no wrapper in std")]
fn block_sigpipe() {
    // SAFETY: the set is initialised by sigemptyset before use, and pthread_sigmask changes
    // only this thread's mask.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
}

/// The most bytes read from one git process unless the caller sets a smaller cap: a tiny,
/// well-compressed repository can make git print gigabytes (one huge commit message, a huge
/// blamed file), and an answer's memory must stay bounded.
pub(crate) const MAX_OUTPUT: usize = 128 << 20;

/// Returns git's standard output, or the error its exit status and standard error describe.
fn checked(
    name: String,
    status: std::process::ExitStatus,
    stderr: &[u8],
    stdout: Vec<u8>,
) -> Result<Vec<u8>, GitError> {
    if status.success() {
        return Ok(stdout);
    }
    let stderr = String::from_utf8_lossy(stderr).trim().to_owned();
    if stderr.contains("lazy fetching disabled") || stderr.contains("promisor remote") {
        return Err(GitError::MissingObjects { stderr });
    }
    Err(GitError::Command {
        command: name,
        stderr,
        code: status.code(),
    })
}

/// The environment variable whose (empty) value blanks a filter command (`--config-env`).
const EMPTY_VAR: &str = "GIT_PRISM_EMPTY";
/// The environment variable whose value `false` makes a filter optional (`--config-env`).
const FALSE_VAR: &str = "GIT_PRISM_FALSE";

/// The most filter drivers neutralised; a configuration with more is refused.
const MAX_DRIVERS: usize = 1024;

/// The configuration overrides every call gets.
const SAFE_OVERRIDES: &[&str] = &[
    "core.fsmonitor=false",
    // `diff.submodule=diff` runs a diff inside each submodule, without the caller's
    // `--no-ext-diff`/`--no-textconv`; a patch names a submodule's commits and nothing more.
    "diff.submodule=short",
    "core.hooksPath=/dev/null",
    "color.ui=never",
    "core.pager=cat",
    "log.showSignature=false",
    // Settings that change the text git-prism parses (ADR 13's answers are built from it): a
    // repository's configuration must not make them wrong while git exits 0.
    "i18n.logOutputEncoding=UTF-8",
    "diff.suppressBlankEmpty=false",
    "diff.noprefix=false",
    "diff.mnemonicPrefix=false",
    "core.quotePath=true",
    "color.diff=never",
    // An order file is read by git from wherever the configuration points (`/dev/zero`
    // never ends); the answers order files themselves.
    "diff.orderFile=/dev/null",
];

impl Invocation {
    /// Locates the real git and prepares calls from `cwd` with the caller's `globals`. The
    /// populated submodules are given with [`Invocation::set_submodules`] before the first
    /// [`Invocation::command`].
    pub(crate) fn locate(cwd: PathBuf, globals: Vec<OsString>) -> Result<Invocation, GitError> {
        let path_var = std::env::var_os("PATH");
        let pinned = std::env::var_os(locate::Program::Git.pin_variable());
        let program = locate::resolve(locate::Inputs {
            tool: locate::Program::Git,
            path_var: path_var.as_deref(),
            pinned: pinned.as_deref(),
            self_id: locate::FileId::current_exe(),
        })?;
        Ok(Invocation {
            program,
            cwd,
            globals,
            submodules: Vec::new(),
            guard: Mutex::new(None),
            no_replace: false,
        })
    }

    /// Ignores replace objects in every command from now on (`GIT_NO_REPLACE_OBJECTS=1`).
    pub(crate) fn ignore_replace_objects(&mut self) {
        self.no_replace = true;
    }

    /// Sets the populated submodules' directories, whose filter drivers are neutralised too.
    pub(crate) fn set_submodules(&mut self, submodules: Vec<PathBuf>) {
        self.submodules = submodules;
        *self
            .guard
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    }

    /// `git` as git itself runs in the submodule checked out at `dir`: from there, with the
    /// submodule's `.git` (never a repository found above it), without the caller's
    /// repository options.
    fn in_submodule(&self, dir: &Path) -> Command {
        let mut cmd = self.base(dir, &[]);
        for var in REPOSITORY_VARIABLES {
            cmd.env_remove(var);
        }
        cmd.env("GIT_DIR", dir.join(".git"));
        cmd
    }

    /// Returns the git dir the real git uses in the submodule checked out at `dir`, as git runs
    /// there (with the submodule's `.git`, without the caller's repository options).
    pub(crate) fn submodule_git_dir(&self, dir: &Path) -> Result<PathBuf, GitError> {
        let mut cmd = self.in_submodule(dir);
        cmd.args(["rev-parse", "--absolute-git-dir"]);
        let mut out = self.run(cmd, "rev-parse")?;
        if out.last() == Some(&b'\n') {
            out.pop();
        }
        Ok(PathBuf::from(std::ffi::OsString::from_vec(out)))
    }

    /// Runs `git rev-parse <args>` with the safe overrides but before any filter driver is
    /// listed (rev-parse reads no file content, so none can run): for finding the repository.
    pub(crate) fn rev_parse(&self, args: &[&str]) -> Result<Vec<u8>, GitError> {
        let mut cmd = self.base(&self.cwd, &self.globals);
        cmd.arg("rev-parse").args(args);
        self.run(cmd, "rev-parse")
    }

    /// Runs `git rev-parse <args>` like [`Invocation::rev_parse`] and returns what it printed
    /// whatever its exit status: `--show-toplevel` fails in a bare repository after the lines
    /// before it were printed.
    /// With `plain`, the repository variables (`GIT_DIR`, `GIT_WORK_TREE`, ...) are removed:
    /// the repository found is the one at `cwd`, whatever the caller's environment names.
    pub(crate) fn rev_parse_printed(
        &self,
        args: &[&str],
        plain: bool,
    ) -> Result<Vec<u8>, GitError> {
        let mut cmd = self.base(&self.cwd, &self.globals);
        if plain {
            for var in REPOSITORY_VARIABLES {
                cmd.env_remove(var);
            }
        }
        cmd.arg("rev-parse").args(args);
        let child = cmd.spawn().map_err(|source| self.spawn_error(source))?;
        match deadline::run(child, 1 << 20, deadline::timeout_from_env()) {
            Ok(out) => Ok(out.stdout),
            Err(Ended::TimedOut(limit)) => Err(GitError::TimedOut {
                command: "rev-parse".into(),
                seconds: limit.as_secs(),
            }),
            Err(Ended::TooLarge(limit)) => Err(GitError::TooLarge {
                command: "rev-parse".into(),
                limit,
            }),
            Err(Ended::LeftRunning) => Err(GitError::LeftRunning {
                command: "rev-parse".into(),
            }),
            Err(Ended::Io(source)) => Err(GitError::Spawn {
                program: self.program.clone(),
                source,
            }),
        }
    }

    /// The value of one configuration key as git reads it with only the first `count`
    /// entries of `GIT_CONFIG_COUNT` (the hook wrapper's view: the configuration without the
    /// shim's own `core.hooksPath`), without the safe overrides (which set that key).
    /// `None` when unset or unreadable.
    pub(crate) fn config_get_with_count(&self, key: &str, count: usize) -> Option<Vec<u8>> {
        let mut cmd = Command::new(&self.program);
        cmd.current_dir(&self.cwd)
            .args(&self.globals)
            .args(["config", "--get", key])
            .env("GIT_CONFIG_COUNT", count.to_string())
            .env("GIT_PRISM_INSIDE_SHIM", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let child = cmd.spawn().ok()?;
        let out = deadline::run(child, 1 << 16, deadline::timeout_from_env()).ok()?;
        if !out.status.success() {
            return None;
        }
        let mut v = out.stdout;
        if v.last() == Some(&b'\n') {
            v.pop();
        }
        Some(v)
    }

    /// Runs `git <args>` for a command that reads no file content (`config`, `symbolic-ref`,
    /// `for-each-ref`), so no filter driver can run: with the safe overrides, before any driver
    /// is listed.
    pub(crate) fn metadata(&self, args: &[&str]) -> Result<Vec<u8>, GitError> {
        let mut cmd = self.base(&self.cwd, &self.globals);
        cmd.args(args);
        self.run(cmd, args.first().copied().unwrap_or("git"))
    }

    /// Returns a command for `git <globals> <overrides> <args>` that cannot run a program the
    /// repository configures. The first call lists the configuration (see the module docs).
    pub(crate) fn command<I, S>(&self, args: I) -> Result<Command, GitError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let guard = self.guard()?;
        let mut cmd = self.base(&self.cwd, &self.globals);
        cmd.args(&guard).arg("--no-optional-locks").args(args);
        Ok(cmd)
    }

    /// `git <globals> <safe overrides>` from `dir`, with the environment every call gets.
    fn base(&self, dir: &Path, globals: &[OsString]) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.current_dir(dir).args(globals);
        for value in SAFE_OVERRIDES {
            cmd.arg("-c").arg(value);
        }
        if self.no_replace {
            cmd.env("GIT_NO_REPLACE_OBJECTS", "1");
        }
        cmd.env("GIT_PRISM_INSIDE_SHIM", "1")
            .env("GIT_OPTIONAL_LOCKS", "0")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_NO_LAZY_FETCH", "1")
            .env(EMPTY_VAR, "")
            .env(FALSE_VAR, "false")
            .env_remove("GIT_EXTERNAL_DIFF")
            .env_remove("GIT_PAGER")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    /// Returns the `--config-env` arguments that neutralise every filter driver of the
    /// repository and its populated submodules, listing them on first use.
    fn guard(&self) -> Result<Vec<OsString>, GitError> {
        // A thread that panicked while listing left either nothing or a complete list.
        let mut slot = self
            .guard
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(guard) = slot.as_ref() {
            return Ok(guard.clone());
        }
        let mut names = self.filter_names(&self.cwd, &self.globals, false)?;
        for dir in &self.submodules {
            // A submodule's own git runs without the caller's repository options (git clears
            // them for submodule processes), so it is listed without them too.
            names.extend(self.filter_names(dir, &[], true)?);
        }
        names.sort();
        names.dedup();
        if names.len() > MAX_DRIVERS {
            return Err(GitError::Parse {
                command: "config".into(),
                detail: format!(
                    "{} filter drivers are configured; at most {MAX_DRIVERS} are neutralised",
                    names.len()
                ),
            });
        }
        let guard = neutralising_args(&names);
        *slot = Some(guard.clone());
        Ok(guard)
    }

    /// Lists the filter driver names in every configuration key git reads in `dir` (as the
    /// caller's command, or as git's own process in a `submodule`).
    fn filter_names(
        &self,
        dir: &Path,
        globals: &[OsString],
        submodule: bool,
    ) -> Result<Vec<Vec<u8>>, GitError> {
        let mut cmd = if submodule {
            self.in_submodule(dir)
        } else {
            self.base(dir, globals)
        };
        cmd.args(["config", "--list", "-z", "--name-only"]);
        Ok(filter_drivers(&self.run(cmd, "config")?))
    }

    /// Runs git with `args` and returns its standard output; a non-zero exit is an error
    /// carrying git's standard error.
    pub(crate) fn output<I, S>(&self, args: I) -> Result<Vec<u8>, GitError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.spawn(args)?.finish()
    }

    /// Like [`Invocation::output`], reading at most `max` bytes ([`GitError::TooLarge`] past
    /// that).
    pub(crate) fn output_capped<I, S>(&self, args: I, max: usize) -> Result<Vec<u8>, GitError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.spawn(args)?.finish_capped(max)
    }

    /// Starts git with `args`; [`Running::finish`] collects its output.
    pub(crate) fn spawn<I, S>(&self, args: I) -> Result<Running, GitError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<OsString> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
        let name = args
            .first()
            .map(|a| a.to_string_lossy().into_owned())
            .unwrap_or_default();
        let child = self
            .command(&args)?
            .spawn()
            .map_err(|source| self.spawn_error(source))?;
        Ok(Running::new(child, name, self.program.clone(), None))
    }

    /// Runs `git <args>` outside any repository (from `/`, no repository variables, none of
    /// the caller's global options): only the user's and the system's configuration apply, so
    /// nothing a repository configures (its ssh command, upload pack, credential helper, URL
    /// rewriting) can run or redirect it. For asking a remote about a repository's work.
    pub(crate) fn output_outside<I, S>(&self, args: I) -> Result<Vec<u8>, GitError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<OsString> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
        let mut cmd = self.base(Path::new("/"), &[]);
        for var in REPOSITORY_VARIABLES {
            cmd.env_remove(var);
        }
        cmd.env("GIT_CEILING_DIRECTORIES", "/").args(&args);
        let name = args
            .first()
            .map(|a| a.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.run(cmd, &name)
    }

    /// Runs git on one private copy of `index`: each of `prepare` fed its input on its
    /// standard input, in order, then `then`, whose output is returned (what the first ones
    /// change stays in the copy).
    pub(crate) fn output_on_index_copy(
        &self,
        prepare: &[(Vec<OsString>, Vec<u8>)],
        then: &[OsString],
        index: &Path,
    ) -> Result<Vec<u8>, GitError> {
        let copy = IndexCopy::new(index)?;
        for (args, input) in prepare {
            let mut cmd = self.command(args)?;
            if let Some(copy) = &copy {
                cmd.env("GIT_INDEX_FILE", &copy.file);
            }
            let mut child = cmd
                .stdin(Stdio::piped())
                .spawn()
                .map_err(|source| self.spawn_error(source))?;
            if let Some(mut stdin) = child.stdin.take() {
                // update-index reads all of its input before it writes anything: no deadlock.
                block_sigpipe();
                let _ = stdin.write_all(input);
            }
            Running::new(
                child,
                args.first()
                    .map(|a| a.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                self.program.clone(),
                None,
            )
            .finish()?;
        }
        let mut cmd = self.command(then)?;
        if let Some(copy) = &copy {
            cmd.env("GIT_INDEX_FILE", &copy.file);
        }
        let child = cmd.spawn().map_err(|source| self.spawn_error(source))?;
        Running::new(
            child,
            then.first()
                .map(|a| a.to_string_lossy().into_owned())
                .unwrap_or_default(),
            self.program.clone(),
            copy,
        )
        .finish()
    }

    /// Runs git with `args`, writes `input` to its standard input (from a thread: git starts
    /// writing before it has read everything), and returns its standard output; a non-zero exit
    /// is an error carrying git's standard error.
    pub(crate) fn output_with_input<I, S>(
        &self,
        args: I,
        input: Vec<u8>,
    ) -> Result<Vec<u8>, GitError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<OsString> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
        let mut child = self
            .command(&args)?
            .stdin(Stdio::piped())
            .spawn()
            .map_err(|source| self.spawn_error(source))?;
        let Some(mut stdin) = child.stdin.take() else {
            return Err(self.spawn_error(std::io::Error::other("no pipe to git's stdin")));
        };
        let writer = std::thread::Builder::new()
            .name("git-stdin".into())
            .spawn(move || {
                // git may exit (or be stopped) before reading everything: the write then fails
                // with EPIPE instead of raising SIGPIPE, which would end this process.
                block_sigpipe();
                stdin.write_all(&input)
            });
        let writer = match writer {
            Ok(writer) => writer,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(self.spawn_error(std::io::Error::new(
                    e.kind(),
                    format!("cannot start a thread to write its input: {e}"),
                )));
            }
        };
        let running = Running::new(
            child,
            args.first()
                .map(|a| a.to_string_lossy().into_owned())
                .unwrap_or_default(),
            self.program.clone(),
            None,
        );
        let out = running.finish();
        // A write error means git exited early; its status and stderr say why.
        let _ = writer.join();
        out
    }

    /// Runs a prepared command to its end, within its deadline.
    fn run(&self, mut cmd: Command, name: &str) -> Result<Vec<u8>, GitError> {
        let child = cmd.spawn().map_err(|source| self.spawn_error(source))?;
        Running::new(child, name.into(), self.program.clone(), None).finish()
    }

    fn spawn_error(&self, source: std::io::Error) -> GitError {
        GitError::Spawn {
            program: self.program.clone(),
            source,
        }
    }

    /// Starts a `git diff` that reads the work tree, on a private copy of `index`: such a diff
    /// refreshes the index it reads and writes it back (`--no-optional-locks` does not stop
    /// that), which would rewrite the caller's `.git/index` and change what the next call
    /// sees.
    pub(crate) fn spawn_on_index_copy<I, S>(
        &self,
        args: I,
        index: &Path,
    ) -> Result<Running, GitError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let copy = IndexCopy::new(index)?;
        let args: Vec<OsString> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
        let mut cmd = self.command(&args)?;
        if let Some(copy) = &copy {
            cmd.env("GIT_INDEX_FILE", &copy.file);
        }
        let child = cmd.spawn().map_err(|source| self.spawn_error(source))?;
        Ok(Running::new(
            child,
            "diff".into(),
            self.program.clone(),
            copy,
        ))
    }
}

/// A copy of the index in a private temporary directory, removed when dropped.
#[derive(Debug)]
pub(crate) struct IndexCopy {
    dir: PathBuf,
    file: PathBuf,
}

impl IndexCopy {
    /// Copies `index` into a new private directory; `None` when there is no index to copy.
    fn new(index: &Path) -> Result<Option<IndexCopy>, GitError> {
        use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
        let mut source = match std::fs::File::open(index) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(GitError::Worktree {
                    path: index.to_owned(),
                    source,
                });
            }
        };
        let base = std::env::temp_dir();
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let mut attempt = 0u32;
        let dir = loop {
            // The directory is created exclusively and private: a name someone else took is
            // simply another attempt, never a directory we use.
            let dir = base.join(format!(
                "git-prism-index-{}-{stamp:x}-{attempt}",
                std::process::id()
            ));
            match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
                Ok(()) => break dir,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 16 => {
                    attempt += 1;
                }
                Err(source) => return Err(GitError::Worktree { path: dir, source }),
            }
        };
        let copy = IndexCopy {
            file: dir.join("index"),
            dir,
        };
        let mut target = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&copy.file)
            .map_err(|source| GitError::Worktree {
                path: copy.file.clone(),
                source,
            })?;
        std::io::copy(&mut source, &mut target).map_err(|source| GitError::Worktree {
            path: copy.file.clone(),
            source,
        })?;
        // git trusts an entry's cached stat only when the entry is older than the index file
        // ("racy git"): a file rewritten with the same size within the timestamp granularity
        // of its last `git add` is compared by content only because the index is no older.
        // The copy keeps the index's time, or such a change would be missed.
        let modified = source
            .metadata()
            .and_then(|m| m.modified())
            .and_then(|t| target.set_modified(t))
            .map_err(|source| GitError::Worktree {
                path: copy.file.clone(),
                source,
            });
        modified?;
        Ok(Some(copy))
    }
}

impl Drop for IndexCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The variables that point git at a repository, an index or objects elsewhere than the
/// directory it runs in: a submodule's git must not inherit them, and the MCP server drops them.
pub const REPOSITORY_VARIABLES: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_PREFIX",
];

/// Returns the driver names of the `filter.<name>.<key>` keys in `git config --list -z
/// --name-only` output. Section and key names are lower case there; the name between them is
/// kept byte for byte (it may contain dots, `=`, and bytes that are not UTF-8).
pub(crate) fn filter_drivers(listing: &[u8]) -> Vec<Vec<u8>> {
    let mut names: Vec<Vec<u8>> = listing
        .split(|b| *b == 0)
        .filter_map(|key| {
            let rest = key.strip_prefix(b"filter.")?;
            let dot = rest.iter().rposition(|b| *b == b'.')?;
            Some(rest[..dot].to_vec())
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Returns the `--config-env` arguments that blank every command of the drivers `names` and
/// make them optional.
pub(crate) fn neutralising_args(names: &[Vec<u8>]) -> Vec<OsString> {
    let mut args = Vec::with_capacity(names.len() * 4);
    for name in names {
        for (key, var) in [
            ("clean", EMPTY_VAR),
            ("smudge", EMPTY_VAR),
            ("process", EMPTY_VAR),
            ("required", FALSE_VAR),
        ] {
            let mut arg = b"--config-env=filter.".to_vec();
            arg.extend_from_slice(name);
            arg.push(b'.');
            arg.extend_from_slice(key.as_bytes());
            arg.push(b'=');
            arg.extend_from_slice(var.as_bytes());
            args.push(OsString::from_vec(arg));
        }
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_past_its_cap_is_an_error_not_memory() {
        let git = Invocation::locate(std::env::temp_dir(), Vec::new()).unwrap();
        assert!(matches!(
            git.output_capped(["version"], 4),
            Err(GitError::TooLarge { limit: 4, .. })
        ));
        assert!(
            git.output_capped(["version"], 4096)
                .unwrap()
                .starts_with(b"git version")
        );
    }

    #[test]
    fn an_index_copy_is_private_and_removed_when_dropped() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("gp-index-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let index = dir.join("index");
        std::fs::write(&index, b"DIRC...").unwrap();
        let copy = IndexCopy::new(&index).unwrap().unwrap();
        assert_eq!(std::fs::read(&copy.file).unwrap(), b"DIRC...");
        let mode = std::fs::metadata(&copy.dir).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        let private = copy.dir.clone();
        drop(copy);
        assert!(!private.exists());
        assert!(IndexCopy::new(&dir.join("absent")).unwrap().is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn driver_names_are_kept_byte_for_byte() {
        let listing = b"core.bare\0filter.lfs.clean\0filter.lfs.smudge\0filter.a=b.clean\0\
filter.x.y.process\0filter.\xff\xfe.clean\0filter.nodot\0diff.t.textconv\0";
        let names = filter_drivers(listing);
        assert_eq!(
            names,
            vec![
                b"a=b".to_vec(),
                b"lfs".to_vec(),
                b"x.y".to_vec(),
                b"\xff\xfe".to_vec()
            ]
        );
    }

    #[test]
    fn neutralising_arguments_end_with_the_variable_after_the_last_equals_sign() {
        let args = neutralising_args(&[b"a=b".to_vec()]);
        assert_eq!(args.len(), 4);
        use std::os::unix::ffi::OsStrExt;
        assert_eq!(
            args[0].as_bytes(),
            b"--config-env=filter.a=b.clean=GIT_PRISM_EMPTY"
        );
        assert_eq!(
            args[3].as_bytes(),
            b"--config-env=filter.a=b.required=GIT_PRISM_FALSE"
        );
    }
}
