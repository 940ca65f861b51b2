//! The agent's sandbox, derived from the session's scope (issue 34, ADR 19): the
//! [`crate::confine::sandbox::Sandbox`] `git-prism session` starts the agent in, and what it
//! says about it.
//!
//! - **Writes** (Landlock): the work trees of write-local and write-push repositories (never
//!   their git directories, which a read-only mount keeps as they are: git's writes go through
//!   the broker), the session's private temporary directory, the agent's own state directories
//!   ([`AGENTS`], and the scope's `writable`), and the terminal and the few devices every
//!   program writes (`/dev/null`, `/dev/tty`, a new pseudo-terminal, `/dev/shm`).
//! - **Reads**: everything but the unlisted repositories found beside the listed ones and in
//!   the directory the session starts in (unless the scope says `unlisted = "read"`), the
//!   credentials ([`CREDENTIALS`], the ssh agent's socket) and the scope's `hidden`; of the
//!   state directory, only the session's own record.
//! - **Connections** (Landlock): TCP only to the scope's `ports` (443 and 80 by default: an
//!   agent's API, package registries).
//! - **Environment**: the variables that carry credentials ([`WITHHELD_VARS`]) are not given to
//!   the agent; the broker gives them back to the git and gh calls it runs.
//!
//! Unlisted repositories are found by looking, not listed by the user: a repository is a
//! directory holding `.git` (a directory, or a file naming one) or a bare repository's
//! `HEAD`, `objects` and `refs`, one level below the directory that holds each listed
//! repository and below the session's directory. Repositories elsewhere are hidden only by the
//! scope's `hidden` (docs/security.md says so).
//!
//! This file holds what the sandbox is made of (the agents, the credentials, the variables
//! withheld, how a repository is told) and what is said about it; [`policy`] computes it,
//! stage by stage, in its own file.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::scope::Permission;
use super::session::Repo;

/// The variable naming the broker's socket, set for the agent (and so for every process of the
/// sandbox): a shim that sees it sends the calls the sandbox withholds to the broker.
pub const BROKER_VAR: &str = "GIT_PRISM_BROKER";

/// The variable the broker sets for the shim it starts, holding the broker's own process id:
/// a shim whose parent that is was started by the broker for one call (and a program git
/// starts, whose parent is git, was not).
pub const BROKERED_VAR: &str = "GIT_PRISM_BROKERED";

/// Whether this process is the shim the broker started for a call.
pub fn is_brokered() -> bool {
    let Some(value) = std::env::var_os(BROKERED_VAR) else {
        return false;
    };
    let parent = rustix::process::getppid().map(|p| p.as_raw_nonzero().get());
    value
        .to_str()
        .and_then(|v| v.parse::<i32>().ok())
        .is_some_and(|v| Some(v) == parent)
}

/// The broker's socket, when this process runs inside a session's sandbox.
pub fn socket() -> Option<PathBuf> {
    std::env::var_os(BROKER_VAR)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
}

/// The variables of a call that name a path git reads or writes.
const PATH_VARS: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
];

/// The first path among a brokered call's arguments (a whole argument, an option's attached
/// value, a `file://` address) and its path variables that lies in a place the agent may not
/// read (`hidden`): git would read it with the user's rights, outside the sandbox, and give
/// the agent what it holds (`git commit -F ~/.ssh/id_ed25519`, `git fetch ../unlisted`).
pub fn names_hidden(args: &[OsString], cwd: &Path, hidden: &[PathBuf]) -> Option<PathBuf> {
    if hidden.is_empty() {
        return None;
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut candidates: Vec<&[u8]> = Vec::new();
    for arg in args {
        let b = arg.as_bytes();
        candidates.push(b);
        if b.starts_with(b"-") {
            if let Some(eq) = b.iter().position(|c| *c == b'=') {
                candidates.push(&b[eq + 1..]);
            } else if b.len() > 2 && b[1] != b'-' {
                candidates.push(&b[2..]);
            }
        }
    }
    let vars: Vec<OsString> = PATH_VARS.iter().filter_map(std::env::var_os).collect();
    for v in &vars {
        candidates.extend(v.as_bytes().split(|b| *b == b':'));
    }
    for c in candidates {
        let c = c.strip_prefix(b"file://").unwrap_or(c);
        if c.is_empty() {
            continue;
        }
        let text = std::ffi::OsStr::from_bytes(c);
        let path = match (c.strip_prefix(b"~/"), &home) {
            (Some(rest), Some(h)) => h.join(std::ffi::OsStr::from_bytes(rest)),
            _ => cwd.join(text),
        };
        let resolved = resolve_existing(&path);
        if hidden.iter().any(|h| resolved.starts_with(h)) {
            return Some(path);
        }
    }
    None
}

/// `path` with its longest existing ancestor resolved as the kernel resolves it (links and
/// `..` alike), and the rest, which does not exist, as written.
fn resolve_existing(path: &Path) -> PathBuf {
    let mut existing = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            let mut out = real;
            for r in rest.iter().rev() {
                out.push(r);
            }
            return out;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                existing = parent;
            }
            _ => return path.to_owned(),
        }
    }
}

/// An agent's own state: what it writes wherever it runs (relative to the home directory,
/// unless absolute), and the programs that start it.
pub struct Agent {
    /// Its name.
    pub name: &'static str,
    /// The names its executable goes by.
    pub programs: &'static [&'static str],
    /// Directories it writes, relative to the home directory.
    pub dirs: &'static [&'static str],
    /// Files it writes in place, relative to the home directory.
    pub files: &'static [&'static str],
    /// A variable that moves its state directory, when set.
    pub home_var: Option<&'static str>,
}

/// The agents whose state directories a session lets the agent write by default.
pub const AGENTS: &[Agent] = &[
    Agent {
        name: "Claude Code",
        programs: &["claude"],
        dirs: &[
            ".claude",
            ".local/state/claude",
            ".local/share/claude",
            ".cache/claude",
            ".cache/claude-cli-nodejs",
        ],
        // Written in place when its atomic write (a temporary file beside it) is refused.
        files: &[".claude.json", ".claude.json.backup"],
        home_var: Some("CLAUDE_CONFIG_DIR"),
    },
    Agent {
        name: "Codex",
        programs: &["codex"],
        dirs: &[".codex"],
        files: &[],
        home_var: Some("CODEX_HOME"),
    },
    Agent {
        name: "Gemini CLI",
        programs: &["gemini"],
        dirs: &[".gemini"],
        files: &[],
        home_var: None,
    },
    Agent {
        name: "OpenCode",
        programs: &["opencode"],
        dirs: &[
            ".local/share/opencode",
            ".config/opencode",
            ".cache/opencode",
            ".local/state/opencode",
        ],
        files: &[],
        home_var: None,
    },
];

/// Credentials the agent may not read, relative to the home directory: ssh and gpg keys, git's
/// and the forges' stored tokens, `.netrc`, keyrings, and the cloud tools' credentials.
pub const CREDENTIALS: &[&str] = &[
    ".ssh",
    ".gnupg",
    ".git-credentials",
    ".netrc",
    ".config/gh",
    ".config/hub",
    ".config/glab-cli",
    ".config/git/credentials",
    ".local/share/keyrings",
    ".password-store",
    ".docker/config.json",
    ".aws",
    ".config/gcloud",
    ".kube",
];

/// Variables that carry credentials (or reach an agent holding them): not in the agent's
/// environment; the broker's git and gh calls get them from the session's.
pub const WITHHELD_VARS: &[&str] = &[
    "SSH_AUTH_SOCK",
    "SSH_AGENT_PID",
    "GPG_AGENT_INFO",
    "GH_TOKEN",
    "GITHUB_TOKEN",
    "GH_ENTERPRISE_TOKEN",
    "GITHUB_ENTERPRISE_TOKEN",
    "GITLAB_TOKEN",
    "GL_TOKEN",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
];

/// Devices and device directories every program may write.
const DEVICE_FILES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
    "/dev/ptmx",
];
const DEVICE_DIRS: &[&str] = &["/dev/pts", "/dev/shm"];

/// A path with its links resolved, when it exists.
fn real(path: &Path) -> Option<PathBuf> {
    path.canonicalize().ok()
}

/// The common git directory of the repository at `dir`, when `dir` is one's top: a `.git`
/// directory (or file naming one, through its `commondir`), or a bare repository.
pub fn repository_at(dir: &Path) -> Option<PathBuf> {
    let dot = dir.join(".git");
    let meta = std::fs::symlink_metadata(&dot).ok();
    let git_dir = match meta {
        Some(m) if m.is_dir() => dot,
        Some(m) if m.is_file() && m.len() < 4096 => {
            let text = std::fs::read(&dot).ok()?;
            let line = text.split(|b| *b == b'\n').next()?;
            let named = line.strip_prefix(b"gitdir: ")?;
            dir.join(std::ffi::OsStr::from_bytes(named.trim_ascii_end()))
        }
        _ => {
            let bare = dir.join("HEAD").is_file()
                && dir.join("objects").is_dir()
                && dir.join("refs").is_dir();
            if !bare {
                return None;
            }
            dir.to_owned()
        }
    };
    let common = match std::fs::read(git_dir.join("commondir")) {
        Ok(text) if text.len() < 4096 => {
            git_dir.join(std::ffi::OsStr::from_bytes(text.trim_ascii()))
        }
        _ => git_dir,
    };
    real(&common).or(Some(common))
}

mod policy;

pub use policy::{Inputs, Policy, PolicyError, policy};

impl Policy {
    /// What `git-prism session` prints about the sandbox as it starts (at most four lines;
    /// the caller adds the session's id and where its work leaves the machine).
    pub fn lines(&self, repos: &[Repo], home: Option<&Path>) -> Vec<String> {
        let short = |p: &Path| -> String {
            match home.and_then(|h| p.strip_prefix(h).ok()) {
                Some(rest) if !rest.as_os_str().is_empty() => format!("~/{}", rest.display()),
                _ => p.display().to_string(),
            }
        };
        let list = |items: Vec<String>, most: usize| -> String {
            let n = items.len();
            let mut shown: Vec<String> = items.into_iter().take(most).collect();
            if n > most {
                shown.push(format!("{} more", n - most));
            }
            shown.join(", ")
        };
        let trees: Vec<String> = repos
            .iter()
            .filter(|r| r.permission >= Permission::WriteLocal)
            .filter_map(|r| r.work_tree.as_ref().map(|w| short(&w.path())))
            .collect();
        let temp = self
            .sandbox
            .confinement
            .dirs
            .iter()
            .find(|d| {
                d.file_name()
                    .is_some_and(|n| n.as_bytes().starts_with(b"git-prism-session-"))
            })
            .map(|d| short(d));
        let mut writes = Vec::new();
        if !trees.is_empty() {
            writes.push(format!(
                "{} (work trees; their git directories only through git)",
                list(trees, 4)
            ));
        }
        writes.extend(temp);
        writes.push(list(self.agent_state.iter().map(|p| short(p)).collect(), 4));
        writes.retain(|w| !w.is_empty());
        let mut lines = vec![format!("the agent writes: {}", writes.join("; "))];
        let mut hidden: Vec<String> = Vec::new();
        if !self.unlisted.is_empty() {
            hidden.push(format!(
                "{} unlisted {} ({})",
                self.unlisted.len(),
                if self.unlisted.len() == 1 {
                    "repository"
                } else {
                    "repositories"
                },
                list(self.unlisted.iter().map(|p| short(p)).collect(), 3)
            ));
        }
        if !self.credentials.is_empty() {
            hidden.push(format!(
                "credentials ({})",
                list(self.credentials.iter().map(|p| short(p)).collect(), 4)
            ));
        }
        lines.push(format!(
            "the agent cannot read: {}",
            if hidden.is_empty() {
                "nothing hidden".to_owned()
            } else {
                hidden.join("; ")
            }
        ));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repositories_are_told_by_their_layout() {
        let root = tempfile::tempdir().unwrap();
        let root = root.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("a/.git")).unwrap();
        std::fs::create_dir_all(root.join("bare/objects")).unwrap();
        std::fs::create_dir_all(root.join("bare/refs")).unwrap();
        std::fs::write(root.join("bare/HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::create_dir_all(root.join("wt")).unwrap();
        std::fs::create_dir_all(root.join("a/.git/worktrees/wt")).unwrap();
        std::fs::write(root.join("a/.git/worktrees/wt/commondir"), "../..\n").unwrap();
        std::fs::write(
            root.join("wt/.git"),
            format!("gitdir: {}\n", root.join("a/.git/worktrees/wt").display()),
        )
        .unwrap();
        std::fs::create_dir_all(root.join("plain")).unwrap();
        assert_eq!(repository_at(&root.join("a")), Some(root.join("a/.git")));
        assert_eq!(repository_at(&root.join("bare")), Some(root.join("bare")));
        // A linked worktree is its repository's.
        assert_eq!(repository_at(&root.join("wt")), Some(root.join("a/.git")));
        assert_eq!(repository_at(&root.join("plain")), None);
    }
}
