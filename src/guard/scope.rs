//! The session's scope: which repositories it may read, change on this machine, or push from,
//! and which branches are never pushed to (`GIT_PRISM_SCOPE`, a TOML file).
//!
//! ```toml
//! protected_paths = ["migrations/"] # optional: paths no commit of the session may change
//! unlisted = "hidden"               # optional: "read" lets the agent read unlisted repositories
//! writable = ["~/.cache/pip"]       # optional: more places the agent itself may write
//! hidden = ["~/work/secret"]        # optional: more places the agent may not read
//! ports = [443, 80]                 # optional: the agent's own TCP ports ("any": every port)
//!
//! [[repo]]
//! path = "/home/me/src/app"      # a repository's top (or a bare repository)
//! permission = "write-push"      # read | write-local | write-push
//! protected = ["main", "master"] # optional; this is the default
//! protected_paths = [".github/"] # optional; replaces the file's list for this repository
//! ```
//!
//! A file that cannot be read or parsed, an unknown key or permission, or a path that is not an
//! absolute path to a repository is an error: the guard then refuses every write (ADR 15).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::place::{self, Identity};

/// The variable naming the scope file.
pub const SCOPE_VAR: &str = "GIT_PRISM_SCOPE";

/// The largest scope file read.
const MAX_BYTES: u64 = 1024 * 1024;

/// Branches protected when an entry names none.
pub const DEFAULT_PROTECTED: [&str; 2] = ["main", "master"];

/// What a session may do in a repository, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Permission {
    /// Nothing in the repository changes through git.
    Read,
    /// Everything on this machine; nothing leaves it.
    WriteLocal,
    /// Pushes too, never to a protected branch.
    WritePush,
}

impl Permission {
    /// The name the scope file uses.
    pub fn name(self) -> &'static str {
        match self {
            Permission::Read => "read",
            Permission::WriteLocal => "write-local",
            Permission::WritePush => "write-push",
        }
    }
}

/// One repository of the scope, resolved.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The path as the file gives it.
    pub path: PathBuf,
    /// The repository at it.
    pub identity: Identity,
    /// What the session may do there.
    pub permission: Permission,
    /// Branches never pushed to (names, `*` matching any run of characters).
    pub protected: Vec<String>,
    /// Paths no commit may change (`dir/`, or a file or directory), rename detection off.
    pub protected_paths: Vec<String>,
}

/// A loaded scope.
#[derive(Clone, Debug)]
pub struct Scope {
    /// The file it came from.
    pub file: PathBuf,
    /// Its repositories.
    pub entries: Vec<Entry>,
    /// What the agent's sandbox adds to or takes from the defaults (`git-prism session`).
    pub sandbox: Settings,
    /// What the file says that does nothing, one line each ([`load`]).
    pub warnings: Vec<String>,
}

/// The scope's settings for the agent's sandbox (ADR 19).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Whether the agent may read repositories the scope does not list.
    #[serde(default)]
    pub unlisted: Unlisted,
    /// More places the agent itself may write (`~/` is the home directory).
    #[serde(default)]
    pub writable: Vec<String>,
    /// More places the agent may not read (`~/` is the home directory).
    #[serde(default)]
    pub hidden: Vec<String>,
    /// The TCP ports the agent's own processes may connect to (default 443 and 80).
    #[serde(default)]
    pub ports: Option<Ports>,
}

/// Whether unlisted repositories are visible to the agent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unlisted {
    /// Not readable (the default): the scope is an allow-list.
    #[default]
    Hidden,
    /// Readable, as outside a session (never writable).
    Read,
}

/// The agent's own TCP ports.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(untagged)]
pub enum Ports {
    /// These ports only.
    List(Vec<u16>),
    /// `"any"`: every port.
    Any(AnyPort),
}

/// The word `any`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AnyPort {
    /// Every port.
    Any,
}

/// The agent's TCP ports when the scope names none: the web's (HTTPS, HTTP), where an agent's
/// API and package registries are.
pub const DEFAULT_PORTS: [u16; 2] = [443, 80];

/// Why a scope cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ScopeError {
    /// `GIT_PRISM_SCOPE` names a relative path.
    #[error("{SCOPE_VAR} is not an absolute path: {}", .0.display())]
    Relative(PathBuf),
    /// The file cannot be read.
    #[error("cannot read the scope file {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The file is too large.
    #[error("the scope file {} is larger than {MAX_BYTES} bytes", .0.display())]
    TooLarge(PathBuf),
    /// The file is not valid TOML of the scope's form.
    #[error("the scope file {} is not valid", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: toml::de::Error,
    },
    /// An entry's path is not usable.
    #[error("the scope file {} names {}: {reason}", file.display(), path.display())]
    Path {
        /// The file.
        file: PathBuf,
        /// The entry's path.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    protected_paths: Vec<String>,
    #[serde(default)]
    repo: Vec<RawEntry>,
    #[serde(default)]
    unlisted: Unlisted,
    #[serde(default)]
    writable: Vec<String>,
    #[serde(default)]
    hidden: Vec<String>,
    #[serde(default)]
    ports: Option<Ports>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    path: PathBuf,
    permission: Permission,
    protected: Option<Vec<String>>,
    protected_paths: Option<Vec<String>>,
}

/// Loads the scope file at `file`.
pub fn load(file: &Path) -> Result<Scope, ScopeError> {
    if !file.is_absolute() {
        return Err(ScopeError::Relative(file.to_owned()));
    }
    let read = |source| ScopeError::Read {
        path: file.to_owned(),
        source,
    };
    // A regular file of bounded size, opened without blocking: a FIFO or `/dev/zero` named as
    // the scope must not hang every call or fill the memory.
    let bytes = crate::paths::read_regular(file, MAX_BYTES).map_err(|e| {
        if e.to_string().starts_with("larger than") {
            ScopeError::TooLarge(file.to_owned())
        } else {
            read(e)
        }
    })?;
    let text = String::from_utf8(bytes)
        .map_err(|e| read(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))?;
    let parsed: File = toml::from_str(&text).map_err(|source| ScopeError::Parse {
        path: file.to_owned(),
        source,
    })?;
    let mut entries: Vec<Entry> = Vec::with_capacity(parsed.repo.len());
    let mut warnings = Vec::new();
    for raw in parsed.repo {
        let bad = |reason: String| ScopeError::Path {
            file: file.to_owned(),
            path: raw.path.clone(),
            reason,
        };
        if !raw.path.is_absolute() {
            return Err(bad("not an absolute path".into()));
        }
        let identity = place::identify(&raw.path)
            .ok_or_else(|| bad("not a git repository (or not readable)".into()))?;
        warnings.extend(idle(&raw, &identity, &entries));
        entries.push(Entry {
            identity,
            permission: raw.permission,
            protected: raw
                .protected
                .unwrap_or_else(|| DEFAULT_PROTECTED.iter().map(|s| (*s).to_owned()).collect()),
            protected_paths: raw
                .protected_paths
                .unwrap_or_else(|| parsed.protected_paths.clone()),
            path: raw.path,
        });
    }
    Ok(Scope {
        file: file.to_owned(),
        entries,
        sandbox: Settings {
            unlisted: parsed.unlisted,
            writable: parsed.writable,
            hidden: parsed.hidden,
            ports: parsed.ports,
        },
        warnings,
    })
}

/// What the entry `raw` (the repository `identity`) says that does nothing, given the
/// entries before it: `protected` branches without write-push (they hold pushes, which it
/// refuses anyway), `protected_paths` with read (they hold commits, which it refuses anyway),
/// a repository listed again (the first entry is the one that holds).
fn idle(raw: &RawEntry, identity: &Identity, before: &[Entry]) -> Vec<String> {
    let path = crate::paths::normal(&raw.path);
    let mut out = Vec::new();
    if let Some(first) = before
        .iter()
        .find(|e| e.identity.common_dir == identity.common_dir)
    {
        out.push(format!(
            "warning: the scope lists {} twice (also as {}): the first entry holds, this one does nothing",
            path.display(),
            crate::paths::normal(&first.path).display()
        ));
        return out;
    }
    if raw.protected.is_some() && raw.permission < Permission::WritePush {
        out.push(format!(
            "warning: `protected` of {} does nothing: protected branches hold pushes, and {} allows none (give it `permission = \"write-push\"`, or remove `protected`)",
            path.display(),
            raw.permission.name()
        ));
    }
    if raw.protected_paths.as_ref().is_some_and(|p| !p.is_empty())
        && raw.permission < Permission::WriteLocal
    {
        out.push(format!(
            "warning: `protected_paths` of {} does nothing: protected paths hold commits, and read allows none (give it `permission = \"write-local\"` or more, or remove `protected_paths`)",
            path.display()
        ));
    }
    out
}

impl Scope {
    /// The entry a repository falls under: the same repository, known by its common git
    /// directory (a submodule or a repository nested in a listed work tree is another
    /// repository: list it to give it a permission). `None`: not listed, so `read`.
    pub fn entry_for(&self, repo: &Identity) -> Option<&Entry> {
        self.entries
            .iter()
            .find(|e| e.identity.common_dir == repo.common_dir)
    }
}

impl Entry {
    /// Whether pushing to `branch` is refused.
    pub fn protects(&self, branch: &str) -> bool {
        self.protected.iter().any(|p| glob(p, branch))
    }

    /// The protected path rule `path` (relative to the top of the work tree) falls under.
    pub fn protected_path(&self, path: &[u8]) -> Option<&str> {
        self.protected_paths
            .iter()
            .find(|rule| crate::paths::is_under(path, rule))
            .map(String::as_str)
    }
}

/// Whether `name` matches `pattern`, where `*` matches any run of characters.
pub fn glob_matches(pattern: &str, name: &str) -> bool {
    glob(pattern, name)
}

fn glob(pattern: &str, name: &str) -> bool {
    crate::paths::star_matches(pattern, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protected_names_match_exactly_or_by_star() {
        assert!(glob("main", "main"));
        assert!(!glob("main", "main2"));
        assert!(glob("release/*", "release/1.0"));
        assert!(!glob("release/*", "releases/1.0"));
        assert!(glob("*", "anything"));
        assert!(glob("a*b*c", "aXbYc"));
    }

    #[test]
    fn bad_files_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("scope.toml");
        for (text, want) in [
            (
                "[[repo]]\npath = \"/x\"\npermission = \"admin\"\n",
                "not valid",
            ),
            (
                "[[repo]]\npath = \"rel\"\npermission = \"read\"\n",
                "absolute",
            ),
            (
                "[[repo]]\npath = \"/\"\npermission = \"read\"\nextra = 1\n",
                "not valid",
            ),
            ("nonsense", "not valid"),
        ] {
            std::fs::write(&file, text).unwrap();
            let err = load(&file).unwrap_err().to_string();
            assert!(err.contains(want), "{text}: {err}");
        }
        assert!(
            load(&dir.path().join("missing.toml"))
                .unwrap_err()
                .to_string()
                .contains("cannot read")
        );
        assert!(load(Path::new("relative.toml")).is_err());
    }

    /// An entry that does nothing is said, in one line, and still loads.
    #[test]
    fn entries_that_do_nothing_are_warned_of() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("r");
        let out = std::process::Command::new("git")
            .args(["init", "-q"])
            .arg(&repo)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output();
        if !out.is_ok_and(|o| o.status.success()) {
            return; // no git here: the integration tests cover it
        }
        let file = dir.path().join("scope.toml");
        let entry = |permission: &str, more: &str| {
            format!(
                "[[repo]]\npath = \"{}\"\npermission = \"{permission}\"\n{more}\n",
                repo.display()
            )
        };
        for (text, want) in [
            (
                entry("write-local", "protected = [\"main\"]"),
                Some("`protected` of"),
            ),
            (
                entry("read", "protected_paths = [\"a/\"]"),
                Some("`protected_paths` of"),
            ),
            (entry("write-push", "protected = [\"main\"]"), None),
            (entry("write-local", "protected_paths = [\"a/\"]"), None),
            (
                entry("write-local", "") + &entry("write-push", ""),
                Some("lists"),
            ),
        ] {
            std::fs::write(&file, &text).unwrap();
            let warnings = load(&file).unwrap().warnings;
            match want {
                Some(want) => {
                    assert_eq!(warnings.len(), 1, "{text}: {warnings:?}");
                    assert!(warnings[0].contains(want), "{text}: {warnings:?}");
                }
                None => assert!(warnings.is_empty(), "{text}: {warnings:?}"),
            }
        }
    }
}
