//! Running the real git for the facts git defines.
//!
//! Invariants:
//! - The binary is found like the shim finds it (pinned path, PATH walk without empty or
//!   relative entries, never git-prism itself), so this can never recurse into the shim.
//! - Every call runs with the caller's global options (`-C`, `-c`, `--git-dir`, ...) so git sees
//!   the same repository the caller's command would, followed by overrides that keep repository
//!   content from executing: fsmonitor off, hooks pointed at nothing, no external diff, no
//!   textconv, no clean/smudge filter drivers (see [`Invocation::disable_filters`]), and optional
//!   locks off so a diff never rewrites the index.
//! - Output is captured whole; nothing is written to the caller's streams.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::GitError;
use crate::locate;

/// How to run the real git against the caller's repository.
#[derive(Clone, Debug)]
pub struct Invocation {
    /// The real git.
    pub program: PathBuf,
    /// The directory the caller ran in (before any `-C`).
    pub cwd: PathBuf,
    /// The caller's global options, verbatim.
    pub globals: Vec<OsString>,
    /// Extra `-c` overrides added after the caller's.
    overrides: Vec<OsString>,
}

/// A git process started by [`Invocation::spawn`].
pub struct Running {
    child: std::process::Child,
    name: String,
    program: PathBuf,
}

impl Running {
    /// Waits for git and returns its standard output; a non-zero exit is an error carrying
    /// git's standard error.
    pub fn finish(self) -> Result<Vec<u8>, GitError> {
        let program = self.program;
        let out = self
            .child
            .wait_with_output()
            .map_err(|source| GitError::Spawn { program, source })?;
        if !out.status.success() {
            return Err(GitError::Command {
                command: self.name,
                stderr: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
                code: out.status.code(),
            });
        }
        Ok(out.stdout)
    }
}

/// The configuration overrides every call gets.
const SAFE_OVERRIDES: &[&str] = &[
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "color.ui=never",
    "core.pager=cat",
    "log.showSignature=false",
];

impl Invocation {
    /// Locates the real git and prepares calls from `cwd` with the caller's `globals`.
    pub fn locate(cwd: PathBuf, globals: Vec<OsString>) -> Result<Invocation, GitError> {
        let path_var = std::env::var_os("PATH");
        let pinned = std::env::var_os(locate::pin_variable("git"));
        let program = locate::resolve(locate::Inputs {
            tool: "git",
            path_var: path_var.as_deref(),
            pinned: pinned.as_deref(),
            self_id: locate::FileId::current_exe(),
        })?;
        Ok(Invocation {
            program,
            cwd,
            globals,
            overrides: Vec::new(),
        })
    }

    /// Neutralises the clean/smudge filter drivers named in the repository's configuration
    /// (git would run them when it reads the working tree).
    pub fn disable_filters(&mut self, drivers: impl IntoIterator<Item = String>) {
        for driver in drivers {
            for key in ["clean", "smudge", "process"] {
                self.overrides
                    .push(format!("filter.{driver}.{key}=").into());
            }
            self.overrides
                .push(format!("filter.{driver}.required=false").into());
        }
    }

    /// Returns a command for `git <globals> <overrides> <args>`.
    pub fn command<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = Command::new(&self.program);
        cmd.current_dir(&self.cwd).args(&self.globals);
        for value in SAFE_OVERRIDES {
            cmd.arg("-c").arg(value);
        }
        for value in &self.overrides {
            cmd.arg("-c").arg(value);
        }
        cmd.arg("--no-optional-locks")
            .args(args)
            .env("GIT_PRISM_INSIDE_SHIM", "1")
            .env("GIT_OPTIONAL_LOCKS", "0")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env_remove("GIT_EXTERNAL_DIFF")
            .env_remove("GIT_PAGER")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        cmd
    }

    /// Runs git with `args` and returns its standard output; a non-zero exit is an error
    /// carrying git's standard error.
    pub fn output<I, S>(&self, args: I) -> Result<Vec<u8>, GitError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.spawn(args)?.finish()
    }

    /// Starts git with `args`; [`Running::finish`] collects its output.
    pub fn spawn<I, S>(&self, args: I) -> Result<Running, GitError>
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
            .command(&args)
            .spawn()
            .map_err(|source| self.spawn_error(source))?;
        Ok(Running {
            child,
            name,
            program: self.program.clone(),
        })
    }

    /// Runs git with `args`, writes `input` to its standard input (from a thread: git starts
    /// writing before it has read everything), and returns its standard output; a non-zero exit
    /// is an error carrying git's standard error.
    pub fn output_with_input<I, S>(&self, args: I, input: Vec<u8>) -> Result<Vec<u8>, GitError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<OsString> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
        let mut child = self
            .command(&args)
            .stdin(Stdio::piped())
            .spawn()
            .map_err(|source| self.spawn_error(source))?;
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let writer = std::thread::spawn(move || stdin.write_all(&input));
        let running = Running {
            child,
            name: args
                .first()
                .map(|a| a.to_string_lossy().into_owned())
                .unwrap_or_default(),
            program: self.program.clone(),
        };
        let out = running.finish();
        // A write error means git exited early; its status and stderr say why.
        let _ = writer.join();
        out
    }

    fn spawn_error(&self, source: std::io::Error) -> GitError {
        GitError::Spawn {
            program: self.program.clone(),
            source,
        }
    }

    /// Returns the real git's path.
    pub fn program(&self) -> &Path {
        &self.program
    }
}
