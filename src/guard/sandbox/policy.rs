//! The agent's sandbox computed from the scope ([`policy`]), in stages: the places it is
//! computed around ([`Places`]: the listed repositories, the session's directory, the state
//! directory, links resolved); what it writes ([`Writes`]: the work trees of write
//! repositories with their git directories read-only, the agents' state, the scope's
//! `writable`, the temporary directory and the devices); what it cannot read (the credentials,
//! the unlisted repositories found beside the listed ones, the other sessions); the ports it
//! connects to. Each stage is a function of the [`Inputs`]; the value is applied once, by
//! [`crate::confine::sandbox`], as the agent starts.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::{AGENTS, CREDENTIALS, DEVICE_DIRS, DEVICE_FILES, real, repository_at};
use crate::confine::sandbox::{Hidden, Sandbox};
use crate::confine::{Confinement, Network};
use crate::guard::scope::{DEFAULT_PORTS, Permission, Ports, Settings, Unlisted};
use crate::guard::session::Repo;

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

/// `path` with its links resolved when it exists, else as given.
fn resolved_or_given(path: &Path) -> PathBuf {
    real(path).unwrap_or_else(|| path.to_owned())
}

/// The top of a recorded repository: its work tree, else its git directory.
fn top(repo: &Repo) -> PathBuf {
    repo.work_tree
        .as_ref()
        .map_or_else(|| repo.git_dir.path(), |w| w.path())
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

/// The places the sandbox is computed around, their links resolved.
struct Places {
    /// Each listed repository's common git directory.
    listed: Vec<PathBuf>,
    /// Each listed repository's top (its work tree, else its git directory).
    tops: Vec<PathBuf>,
    /// The directory the session starts in.
    cwd: PathBuf,
    /// The state directory.
    state: PathBuf,
}

impl Places {
    fn of(inputs: &Inputs<'_>) -> Places {
        Places {
            listed: inputs
                .repos
                .iter()
                .map(|r| resolved_or_given(&r.common_dir.path()))
                .collect(),
            tops: inputs
                .repos
                .iter()
                .map(|r| resolved_or_given(&top(r)))
                .collect(),
            cwd: resolved_or_given(&inputs.cwd),
            state: resolved_or_given(&inputs.state_dir),
        }
    }
}

/// What the agent may write, as it is gathered.
#[derive(Default)]
struct Writes {
    /// Directories it writes.
    writable: Vec<PathBuf>,
    /// Directories inside those that stay as they are.
    read_only: Vec<PathBuf>,
    /// Files it writes.
    files: Vec<PathBuf>,
    /// The agents' state directories and files.
    agent_state: Vec<PathBuf>,
    /// Directories to create before the agent starts.
    create: Vec<PathBuf>,
}

/// Computes the agent's sandbox.
pub fn policy(inputs: &Inputs<'_>) -> Result<Policy, PolicyError> {
    let places = Places::of(inputs);
    let mut w = Writes::default();
    work_trees(inputs, &mut w);
    agents(inputs, &mut w);
    scope_writable(inputs, &places, &mut w)?;
    w.writable.push(resolved_or_given(&inputs.temp_dir));
    w.writable
        .extend(w.agent_state.iter().filter(|p| !p.is_file()).cloned());
    w.writable.extend(DEVICE_DIRS.iter().map(PathBuf::from));
    w.files.extend(DEVICE_FILES.iter().map(PathBuf::from));

    let credentials = credentials(inputs);
    let unlisted = if inputs.settings.unlisted == Unlisted::Hidden {
        unlisted(&places, &w.writable)?
    } else {
        Vec::new()
    };
    let hidden = hidden(&unlisted, &credentials, &places.state, &inputs.session_dir);
    for list in [&mut w.writable, &mut w.read_only, &mut w.files] {
        list.sort();
        list.dedup();
    }
    Ok(Policy {
        sandbox: Sandbox {
            namespaces: true,
            hidden,
            read_only: w.read_only,
            empty_file: inputs.empty_file.clone(),
            confinement: Confinement {
                dirs: w.writable,
                files: w.files,
                network: network(inputs.settings.ports.as_ref()),
            },
        },
        unlisted,
        credentials,
        agent_state: w.agent_state,
        create: w.create,
    })
}

/// The work trees of write repositories, writable; their git directories (and their
/// submodules'), any listed repository's git directories and a read-only repository's whole
/// tree that a writable tree holds, read-only.
fn work_trees(inputs: &Inputs<'_>, w: &mut Writes) {
    for repo in inputs.repos {
        if repo.permission < Permission::WriteLocal {
            continue;
        }
        let Some(tree) = repo.work_tree.as_ref().map(|w| w.path()) else {
            continue;
        };
        let tree = real(&tree).unwrap_or(tree);
        w.read_only.push(tree.join(".git"));
        for link in (inputs.gitlinks)(&tree) {
            let dot = tree.join(link).join(".git");
            if dot.is_dir() {
                w.read_only.push(dot);
            }
        }
        w.writable.push(tree);
    }
    for repo in inputs.repos {
        let dirs = [repo.git_dir.path(), repo.common_dir.path()];
        for dir in dirs {
            let dir = real(&dir).unwrap_or(dir);
            if w.writable.iter().any(|t| dir.starts_with(t)) {
                w.read_only.push(dir);
            }
        }
        let t = resolved_or_given(&top(repo));
        if repo.permission < Permission::WriteLocal
            && w.writable
                .iter()
                .any(|tree| t.starts_with(tree) && &t != tree)
        {
            w.read_only.push(t);
        }
    }
}

/// The agents' own state ([`AGENTS`]): the directories and files that exist, and those of the
/// agent started, created.
fn agents(inputs: &Inputs<'_>, w: &mut Writes) {
    let home = inputs.home.as_deref();
    let program_name = Path::new(&inputs.program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
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
            .and_then(inputs.var)
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
                w.agent_state.push(dir);
            } else if started && !dir.exists() {
                w.create.push(dir.clone());
                w.agent_state.push(dir);
            }
        }
        for file in agent.files {
            if let Some(f) = home.map(|h| h.join(file)).filter(|f| f.is_file()) {
                w.files.push(f.clone());
                w.agent_state.push(f);
            }
        }
    }
}

/// The scope's `writable` entries: an error when one holds or lies in a listed repository or
/// the state directory; a missing one is created.
fn scope_writable(inputs: &Inputs<'_>, places: &Places, w: &mut Writes) -> Result<(), PolicyError> {
    for entry in &inputs.settings.writable {
        let Some(path) = expand(entry, inputs.home.as_deref()) else {
            continue;
        };
        let resolved = resolved_or_given(&path);
        for (t, l) in places.tops.iter().zip(&places.listed) {
            if resolved.starts_with(l) || l.starts_with(&resolved) || t.starts_with(&resolved) {
                return Err(PolicyError::Writable {
                    path,
                    what: format!("holds or lies in the repository {}", t.display()),
                });
            }
        }
        let state = &places.state;
        if resolved.starts_with(state) || state.starts_with(&resolved) {
            return Err(PolicyError::Writable {
                path,
                what: "holds or lies in git-prism's state directory".into(),
            });
        }
        if resolved.is_dir() {
            w.writable.push(resolved);
        } else if resolved.is_file() {
            w.files.push(resolved);
        } else {
            w.create.push(resolved.clone());
            w.writable.push(resolved);
        }
    }
    Ok(())
}

/// The credentials hidden ([`CREDENTIALS`], the tools' configuration under
/// `XDG_CONFIG_HOME`, the keyrings under `XDG_RUNTIME_DIR`, the ssh agent's socket) and the
/// scope's `hidden`: those that exist, links resolved.
fn credentials(inputs: &Inputs<'_>) -> Vec<PathBuf> {
    let home = inputs.home.as_deref();
    let var = inputs.var;
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
    credentials
}

/// The unlisted repositories beside the listed ones and in the session's directory, never one
/// that holds a listed repository, a writable place or the state directory; an error when the
/// session starts inside one.
fn unlisted(places: &Places, writable: &[PathBuf]) -> Result<Vec<PathBuf>, PolicyError> {
    let mut keep = places.tops.clone();
    keep.extend(writable.iter().cloned());
    keep.push(places.state.clone());
    let mut roots: Vec<PathBuf> = places
        .tops
        .iter()
        .filter_map(|t| t.parent().map(Path::to_owned))
        .collect();
    roots.push(places.cwd.clone());
    roots.sort();
    roots.dedup();
    let mut unlisted = Vec::new();
    for root in &roots {
        unlisted.extend(unlisted_below(root, &places.listed, &keep));
    }
    unlisted.sort();
    unlisted.dedup();
    // The session's own directory inside an unlisted repository would be emptied.
    if let Some(hidden) = unlisted.iter().find(|u| places.cwd.starts_with(u)) {
        return Err(PolicyError::StartsHidden(hidden.clone()));
    }
    Ok(unlisted)
}

/// What the mounts hide: the unlisted repositories and the credentials whole, and every
/// other session's record and broker socket (only this one's stays).
fn hidden(
    unlisted: &[PathBuf],
    credentials: &[PathBuf],
    state: &Path,
    session_dir: &Path,
) -> Vec<Hidden> {
    let mut hidden: Vec<Hidden> = unlisted
        .iter()
        .chain(credentials)
        .cloned()
        .map(Hidden::whole)
        .collect();
    let sessions = state.join("sessions");
    if let Some(own) = real(session_dir) {
        if own.starts_with(&sessions) {
            hidden.push(Hidden {
                path: sessions,
                reveal: vec![own],
            });
        }
    }
    hidden
}

/// The ports the agent may connect to: the scope's, else [`DEFAULT_PORTS`].
fn network(ports: Option<&Ports>) -> Network {
    match ports {
        Some(Ports::Any(_)) => Network::Any,
        Some(Ports::List(ports)) => Network::Ports(ports.clone()),
        None => Network::Ports(DEFAULT_PORTS.to_vec()),
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
            config_stamp: None,
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
}
