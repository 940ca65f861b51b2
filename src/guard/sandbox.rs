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

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::confine::sandbox::{Hidden, Sandbox};
use crate::confine::{Confinement, Network};

use super::scope::{Permission, Ports, Settings, Unlisted};
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

/// Where the session stands, as the sandbox is computed from it.
pub struct Inputs<'a> {
    /// The scope's repositories, as the session's record holds them.
    pub repos: &'a [Repo],
    /// The scope's settings for the sandbox.
    pub settings: &'a Settings,
    /// The home directory.
    pub home: Option<PathBuf>,
    /// The directory the session starts in.
    pub cwd: PathBuf,
    /// The session's private temporary directory.
    pub temp_dir: PathBuf,
    /// The state directory (`sessions/` below it holds every session's record).
    pub state_dir: PathBuf,
    /// This session's directory.
    pub session_dir: PathBuf,
    /// An empty file that hides files.
    pub empty_file: PathBuf,
    /// The agent's program (its file name picks its state directories to create).
    pub program: OsString,
    /// A variable of the session's environment.
    pub var: &'a dyn Fn(&str) -> Option<OsString>,
    /// The gitlinks (submodules) of a work tree, as paths relative to it.
    pub gitlinks: &'a dyn Fn(&Path) -> Vec<PathBuf>,
}

/// The sandbox, and what `git-prism session` says about it.
#[derive(Clone, Debug)]
pub struct Policy {
    /// What the kernel puts around the agent.
    pub sandbox: Sandbox,
    /// The unlisted repositories hidden.
    pub unlisted: Vec<PathBuf>,
    /// The credentials and other places hidden (the scope's `hidden` included).
    pub credentials: Vec<PathBuf>,
    /// The agent state directories and files it may write (created where missing, for the
    /// agent started).
    pub agent_state: Vec<PathBuf>,
    /// Directories to create before the agent starts.
    pub create: Vec<PathBuf>,
}

/// The error returned by [`policy`].
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    /// A `writable` entry holds or lies in a repository's git directory or a hidden place.
    #[error("the scope's writable entry {} {what}", .path.display())]
    Writable {
        /// The entry.
        path: PathBuf,
        /// What it overlaps.
        what: String,
    },
    /// The session starts inside an unlisted repository, which the sandbox hides.
    #[error("the session starts in {}, inside a repository the scope does not list (list it, or set unlisted = \"read\")", .0.display())]
    StartsHidden(PathBuf),
}

/// Resolves `path` (`~/` is the home directory); `None` for a relative path or without a home.
fn expand(path: &str, home: Option<&Path>) -> Option<PathBuf> {
    let p = match path.strip_prefix("~/") {
        Some(rest) => home?.join(rest),
        None if path == "~" => home?.to_owned(),
        None => PathBuf::from(path),
    };
    p.is_absolute().then_some(p)
}

/// A path with its links resolved, when it exists.
fn real(path: &Path) -> Option<PathBuf> {
    path.canonicalize().ok()
}

/// The top of a recorded repository: its work tree, else its git directory.
fn top(repo: &Repo) -> PathBuf {
    repo.work_tree
        .as_ref()
        .map_or_else(|| repo.git_dir.path(), |w| w.path())
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

/// The most entries looked at in one directory when looking for unlisted repositories.
const MAX_ENTRIES: usize = 4096;

/// The unlisted repositories one level below `root` (and `root`'s own children only: a
/// repository is not searched inside).
fn unlisted_below(root: &Path, listed: &[PathBuf], keep: &[PathBuf]) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten().take(MAX_ENTRIES) {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if !kind.is_dir() {
            continue;
        }
        let dir = entry.path();
        let Some(common) = repository_at(&dir) else {
            continue;
        };
        if listed.contains(&common) {
            continue;
        }
        // Never hide what must stay: a listed repository, the session's directory or its
        // state inside this one.
        if keep.iter().any(|k| k.starts_with(&dir)) {
            continue;
        }
        found.push(dir);
    }
    found.sort();
    found
}

/// Computes the agent's sandbox.
pub fn policy(inputs: &Inputs<'_>) -> Result<Policy, PolicyError> {
    let home = inputs.home.as_deref();
    let var = inputs.var;
    let listed: Vec<PathBuf> = inputs
        .repos
        .iter()
        .map(|r| real(&r.common_dir.path()).unwrap_or_else(|| r.common_dir.path()))
        .collect();
    let tops: Vec<PathBuf> = inputs
        .repos
        .iter()
        .map(|r| real(&top(r)).unwrap_or_else(|| top(r)))
        .collect();
    let cwd = real(&inputs.cwd).unwrap_or_else(|| inputs.cwd.clone());
    let state = real(&inputs.state_dir).unwrap_or_else(|| inputs.state_dir.clone());

    // Writes.
    let mut writable: Vec<PathBuf> = Vec::new();
    let mut read_only: Vec<PathBuf> = Vec::new();
    for repo in inputs.repos {
        if repo.permission < Permission::WriteLocal {
            continue;
        }
        let Some(tree) = repo.work_tree.as_ref().map(|w| w.path()) else {
            continue;
        };
        let tree = real(&tree).unwrap_or(tree);
        read_only.push(tree.join(".git"));
        for link in (inputs.gitlinks)(&tree) {
            let dot = tree.join(link).join(".git");
            if dot.is_dir() {
                read_only.push(dot);
            }
        }
        writable.push(tree);
    }
    // Any listed repository's git directories, and a read-only repository's whole tree, that a
    // writable tree holds.
    for repo in inputs.repos {
        let dirs = [repo.git_dir.path(), repo.common_dir.path()];
        for dir in dirs {
            let dir = real(&dir).unwrap_or(dir);
            if writable.iter().any(|w| dir.starts_with(w)) {
                read_only.push(dir);
            }
        }
        let t = real(&top(repo)).unwrap_or_else(|| top(repo));
        if repo.permission < Permission::WriteLocal
            && writable.iter().any(|w| t.starts_with(w) && &t != w)
        {
            read_only.push(t);
        }
    }
    let program_name = Path::new(&inputs.program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut agent_state = Vec::new();
    let mut create = Vec::new();
    let mut files = Vec::new();
    let uid = rustix::process::getuid().as_raw();
    for agent in AGENTS {
        let started = agent.programs.contains(&program_name.as_str());
        let mut dirs: Vec<PathBuf> = agent
            .dirs
            .iter()
            .filter_map(|d| home.map(|h| h.join(d)))
            .collect();
        if let Some(moved) = agent
            .home_var
            .and_then(var)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
        {
            dirs.push(moved);
        }
        if agent.name == "Claude Code" {
            // Claude Code keeps its shell's working files here whatever TMPDIR says.
            dirs.push(PathBuf::from(format!("/tmp/claude-{uid}")));
        }
        for dir in dirs {
            if dir.is_dir() {
                agent_state.push(dir);
            } else if started && !dir.exists() {
                create.push(dir.clone());
                agent_state.push(dir);
            }
        }
        for file in agent.files {
            if let Some(f) = home.map(|h| h.join(file)).filter(|f| f.is_file()) {
                files.push(f.clone());
                agent_state.push(f);
            }
        }
    }
    for entry in &inputs.settings.writable {
        let Some(path) = expand(entry, home) else {
            continue;
        };
        let resolved = real(&path).unwrap_or_else(|| path.clone());
        for (t, l) in tops.iter().zip(&listed) {
            if resolved.starts_with(l) || l.starts_with(&resolved) || t.starts_with(&resolved) {
                return Err(PolicyError::Writable {
                    path,
                    what: format!("holds or lies in the repository {}", t.display()),
                });
            }
        }
        if resolved.starts_with(&state) || state.starts_with(&resolved) {
            return Err(PolicyError::Writable {
                path,
                what: "holds or lies in git-prism's state directory".into(),
            });
        }
        if resolved.is_dir() {
            writable.push(resolved);
        } else if resolved.is_file() {
            files.push(resolved);
        } else {
            create.push(resolved.clone());
            writable.push(resolved);
        }
    }
    let temp = real(&inputs.temp_dir).unwrap_or_else(|| inputs.temp_dir.clone());
    writable.push(temp.clone());
    writable.extend(agent_state.iter().filter(|p| !p.is_file()).cloned());
    writable.extend(DEVICE_DIRS.iter().map(PathBuf::from));
    files.extend(DEVICE_FILES.iter().map(PathBuf::from));

    // Reads.
    let mut credentials: Vec<PathBuf> = CREDENTIALS
        .iter()
        .filter_map(|c| home.map(|h| h.join(c)))
        .collect();
    if let Some(config) = var("XDG_CONFIG_HOME").map(PathBuf::from) {
        for c in ["gh", "hub", "glab-cli", "git/credentials", "gcloud"] {
            credentials.push(config.join(c));
        }
    }
    if let Some(runtime) = var("XDG_RUNTIME_DIR").map(PathBuf::from) {
        for c in ["gnupg", "keyring", "gcr"] {
            credentials.push(runtime.join(c));
        }
    }
    if let Some(sock) = var("SSH_AUTH_SOCK").map(PathBuf::from) {
        credentials.push(sock);
    }
    credentials.extend(
        inputs
            .settings
            .hidden
            .iter()
            .filter_map(|h| expand(h, home)),
    );
    let mut credentials: Vec<PathBuf> = credentials.into_iter().filter_map(|p| real(&p)).collect();
    credentials.sort();
    credentials.dedup();
    let mut unlisted = Vec::new();
    if inputs.settings.unlisted == Unlisted::Hidden {
        let mut keep = tops.clone();
        keep.extend(writable.iter().cloned());
        keep.push(state.clone());
        let mut roots: Vec<PathBuf> = tops
            .iter()
            .filter_map(|t| t.parent().map(Path::to_owned))
            .collect();
        roots.push(cwd.clone());
        roots.sort();
        roots.dedup();
        for root in &roots {
            unlisted.extend(unlisted_below(root, &listed, &keep));
        }
        unlisted.sort();
        unlisted.dedup();
        // The session's own directory inside an unlisted repository would be emptied.
        if let Some(hidden) = unlisted.iter().find(|u| cwd.starts_with(u)) {
            return Err(PolicyError::StartsHidden(hidden.clone()));
        }
    }
    let mut hidden: Vec<Hidden> = unlisted
        .iter()
        .chain(&credentials)
        .cloned()
        .map(Hidden::whole)
        .collect();
    // Every other session's record and broker socket: only this one's stays.
    let sessions = state.join("sessions");
    if let Some(own) = real(&inputs.session_dir) {
        if own.starts_with(&sessions) {
            hidden.push(Hidden {
                path: sessions,
                reveal: vec![own],
            });
        }
    }

    let network = match &inputs.settings.ports {
        Some(Ports::Any(_)) => Network::Any,
        Some(Ports::List(ports)) => Network::Ports(ports.clone()),
        None => Network::Ports(super::scope::DEFAULT_PORTS.to_vec()),
    };
    writable.sort();
    writable.dedup();
    read_only.sort();
    read_only.dedup();
    files.sort();
    files.dedup();
    Ok(Policy {
        sandbox: Sandbox {
            namespaces: true,
            hidden,
            read_only,
            empty_file: inputs.empty_file.clone(),
            confinement: Confinement {
                dirs: writable,
                files,
                network,
            },
        },
        unlisted,
        credentials,
        agent_state,
        create,
    })
}

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
    use crate::guard::session::Bytes;

    fn repo(path: &Path, permission: Permission) -> Repo {
        Repo {
            path: Bytes::of(path.as_os_str()),
            permission,
            protected: vec!["main".into()],
            git_dir: Bytes::of(path.join(".git").as_os_str()),
            common_dir: Bytes::of(path.join(".git").as_os_str()),
            work_tree: Some(Bytes::of(path.as_os_str())),
            protected_paths: Vec::new(),
            head: None,
            programs: Vec::new(),
            remotes: Vec::new(),
        }
    }

    #[test]
    fn the_policy_writes_work_trees_hides_unlisted_and_credentials() {
        let root = tempfile::tempdir().unwrap();
        let root = root.path().canonicalize().unwrap();
        for name in ["app", "ref", "other"] {
            std::fs::create_dir_all(root.join(name).join(".git")).unwrap();
        }
        let home = root.join("home");
        std::fs::create_dir_all(home.join(".ssh")).unwrap();
        std::fs::create_dir_all(home.join(".codex")).unwrap();
        let state = root.join("state");
        let session = state.join("sessions").join("abc");
        std::fs::create_dir_all(&session).unwrap();
        let tmp = root.join("tmp");
        std::fs::create_dir_all(&tmp).unwrap();
        let repos = vec![
            repo(&root.join("app"), Permission::WritePush),
            repo(&root.join("ref"), Permission::Read),
        ];
        let settings = Settings::default();
        let no_vars = |_: &str| None;
        let no_links = |_: &Path| Vec::new();
        let inputs = Inputs {
            repos: &repos,
            settings: &settings,
            home: Some(home.clone()),
            cwd: root.clone(),
            temp_dir: tmp.clone(),
            state_dir: state.clone(),
            session_dir: session.clone(),
            empty_file: session.join("empty"),
            program: "claude".into(),
            var: &no_vars,
            gitlinks: &no_links,
        };
        let p = policy(&inputs).unwrap();
        let c = &p.sandbox.confinement;
        assert!(c.dirs.contains(&root.join("app")));
        assert!(!c.dirs.contains(&root.join("ref")));
        assert!(c.dirs.contains(&tmp));
        assert!(c.dirs.contains(&home.join(".codex")));
        // The started agent's directories are made.
        assert!(p.create.contains(&home.join(".claude")));
        assert!(p.sandbox.read_only.contains(&root.join("app/.git")));
        assert_eq!(p.unlisted, vec![root.join("other")]);
        assert!(p.credentials.contains(&home.join(".ssh")));
        assert!(
            p.sandbox
                .hidden
                .iter()
                .any(|h| h.path == state.join("sessions") && h.reveal == vec![session.clone()])
        );
        assert_eq!(c.network, Network::Ports(vec![443, 80]));
        assert!(p.lines(&repos, Some(&home)).len() <= 4);

        // `unlisted = "read"` hides no repository.
        let read = Settings {
            unlisted: Unlisted::Read,
            ..Settings::default()
        };
        let p = policy(&Inputs {
            settings: &read,
            ..inputs
        })
        .unwrap();
        assert!(p.unlisted.is_empty());
    }

    #[test]
    fn a_writable_entry_over_a_repository_is_an_error() {
        let root = tempfile::tempdir().unwrap();
        let root = root.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("app/.git")).unwrap();
        let repos = vec![repo(&root.join("app"), Permission::WriteLocal)];
        let settings = Settings {
            writable: vec![root.display().to_string()],
            ..Settings::default()
        };
        let no_vars = |_: &str| None;
        let no_links = |_: &Path| Vec::new();
        let err = policy(&Inputs {
            repos: &repos,
            settings: &settings,
            home: None,
            cwd: root.clone(),
            temp_dir: root.join("tmp"),
            state_dir: root.join("state"),
            session_dir: root.join("state/sessions/x"),
            empty_file: root.join("empty"),
            program: "sh".into(),
            var: &no_vars,
            gitlinks: &no_links,
        })
        .unwrap_err();
        assert!(
            err.to_string().contains("holds or lies in the repository"),
            "{err}"
        );
    }

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
