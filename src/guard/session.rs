//! The session's record: what `git-prism session` fixed as the session started, kept in a file
//! rather than in variables a call could set (ADR 16).
//!
//! A session lives in its own directory, `<state>/sessions/<id>/` (0700): `scope.toml`, a copy
//! of the scope the session was started with (what `GIT_PRISM_SCOPE` names for the agent),
//! `session.json`, this [`Record`], and `hooks/`, the hook wrapper's links (made when a call
//! first needs them, [`super::hook`]). The guard finds the record next to the scope file the
//! variable names, so a call that changes `HOME`, `XDG_STATE_HOME` or any other variable cannot
//! move it; a call that changes `GIT_PRISM_SCOPE` itself is outside what the guard can hold
//! (docs/security.md, level 3). A scope file without a record beside it is a scope set by hand:
//! the guard then holds the variables by fixed rules instead of by the recorded values.
//!
//! The record is written once, before the agent starts, and never changed: later tools (a
//! session's verification, `session verify`, ADR 17) read it as the statement of what the
//! session was allowed and where its work started (each repository's HEAD).

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::place::Identity;
use super::scope::{Entry, Permission, Scope};
use crate::paths::read_regular;

/// The record's file name, beside the session's copy of the scope.
pub const RECORD_FILE: &str = "session.json";
/// The scope copy's file name.
pub const SCOPE_FILE: &str = "scope.toml";
/// The record's format version (2: the agent's sandbox and each repository's programs; a
/// version 1 record is read as one without them).
pub const VERSION: u32 = 2;
/// The largest record read.
const MAX_BYTES: u64 = 4 * 1024 * 1024;

/// What a session fixed as it started.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The format's version ([`VERSION`]).
    pub version: u32,
    /// The session's id: 32 lower-case hex digits, also its directory's name.
    pub id: String,
    /// When it started (RFC 3339, UTC).
    pub started: String,
    /// The scope file the session was started with (the person's own; the session uses its
    /// copy, [`SCOPE_FILE`], so a later edit changes no running session).
    pub scope_file: Bytes,
    /// The agent's command line.
    pub command: Vec<Bytes>,
    /// The directory the session started in.
    pub cwd: Bytes,
    /// The temporary directory git may write in (`TMPDIR` as the session started, else
    /// `/tmp`): the kernel layer grants it to every call.
    pub temp_dir: Bytes,
    /// The variables that name programs git runs or configuration it reads, as they were
    /// (an absent variable was unset): a call where one differs is refused, unless it only
    /// names a harmless pager or editor.
    pub environment: BTreeMap<String, Bytes>,
    /// The scope's repositories, resolved by git as the session started.
    pub repos: Vec<Repo>,
    /// What the kernel could hold when the session started (`Support::line`).
    pub kernel: String,
    /// The agent's sandbox and the broker that runs its git writes, when the session started
    /// them (ADR 19).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<Sandbox>,
}

/// What a session's sandbox holds, as it started.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sandbox {
    /// The scope's settings for it.
    pub settings: super::scope::Settings,
    /// The broker's socket, which the shim inside the sandbox sends its writes to.
    pub socket: Bytes,
    /// The agent's private temporary directory (inside [`Record::temp_dir`]).
    pub temp_dir: Bytes,
    /// Every path the agent cannot read: a brokered call that names one is refused.
    pub hidden: Vec<Bytes>,
    /// Whether the user and mount namespace holds (false: Landlock alone, `--weaker`).
    pub namespaces: bool,
}

/// One repository of the session's scope.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Repo {
    /// The path as the scope gives it.
    pub path: Bytes,
    /// Its permission.
    pub permission: Permission,
    /// The branches never pushed to.
    pub protected: Vec<String>,
    /// Its git directory.
    pub git_dir: Bytes,
    /// Its common git directory (what tells repositories apart).
    pub common_dir: Bytes,
    /// The top of its work tree (absent when bare).
    pub work_tree: Option<Bytes>,
    /// Paths no commit of the session may change (the scope's `protected_paths`).
    pub protected_paths: Vec<String>,
    /// The commit HEAD was at as the session started (`None`: no commit yet); what
    /// `session verify` measures the session's work from.
    pub head: Option<String>,
    /// The settings of the repository's own configuration that name a program, as the session
    /// started (key, value, in git's order): a call that finds them changed is refused, or runs
    /// with them as they were ([`super::config`]).
    #[serde(default)]
    pub programs: Vec<(String, Bytes)>,
    /// The addresses of its remotes as the session started (`remote.<name>.url` and
    /// `.pushurl`, key and value): `session verify --pushed` asks only the remotes the session
    /// started with.
    #[serde(default)]
    pub remotes: Vec<(String, Bytes)>,
    /// The stamp of its own configuration files as [`Repo::programs`] was read, when it
    /// includes no other file ([`crate::git::probe::Stamp`]): a call that finds the same stamp
    /// finds the same settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_stamp: Option<crate::git::probe::Stamp>,
}

/// Bytes that are written as a string when they are UTF-8, else as their byte values (a path
/// or a variable's value need not be text).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Bytes {
    /// UTF-8.
    Text(String),
    /// Anything else.
    Raw {
        /// The bytes.
        bytes: Vec<u8>,
    },
}

impl Bytes {
    /// From an OS string, losslessly.
    pub fn of(value: &OsStr) -> Bytes {
        match value.to_str() {
            Some(s) => Bytes::Text(s.to_owned()),
            None => Bytes::Raw {
                bytes: value.as_bytes().to_vec(),
            },
        }
    }

    /// Back to an OS string.
    pub fn os(&self) -> OsString {
        match self {
            Bytes::Text(s) => OsString::from(s),
            Bytes::Raw { bytes } => OsString::from_vec(bytes.clone()),
        }
    }

    /// As a path.
    pub fn path(&self) -> PathBuf {
        PathBuf::from(self.os())
    }
}

impl Record {
    /// The scope the session fixed as it started (its repositories resolved then), for the
    /// scope file `file`.
    pub fn scope(&self, file: &Path) -> Scope {
        Scope {
            file: file.to_owned(),
            entries: self
                .repos
                .iter()
                .map(|r| Entry {
                    path: r.path.path(),
                    identity: r.identity(),
                    permission: r.permission,
                    protected: r.protected.clone(),
                    protected_paths: r.protected_paths.clone(),
                })
                .collect(),
            sandbox: self
                .sandbox
                .as_ref()
                .map(|s| s.settings.clone())
                .unwrap_or_default(),
            warnings: Vec::new(),
        }
    }
}

impl Repo {
    /// The repository's identity as recorded.
    pub fn identity(&self) -> Identity {
        Identity {
            git_dir: self.git_dir.path(),
            common_dir: self.common_dir.path(),
            work_tree: self.work_tree.as_ref().map(Bytes::path),
        }
    }
}

/// The error returned by [`load`] and [`create`].
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The record cannot be read.
    #[error("cannot read the session record {}", path.display())]
    Read {
        /// The record.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The record is not one.
    #[error("the session record {} is not valid: {reason}", path.display())]
    Invalid {
        /// The record.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The session's directory cannot be made.
    #[error("cannot write the session's record under {}", dir.display())]
    Write {
        /// The directory.
        dir: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

/// The record beside the scope file `scope` names, when there is one (`Ok(None)`: a scope set
/// by hand).
pub fn load(scope: &Path) -> Result<Option<Record>, SessionError> {
    let Some(dir) = scope.parent() else {
        return Ok(None);
    };
    let path = dir.join(RECORD_FILE);
    let read = |source| SessionError::Read {
        path: path.clone(),
        source,
    };
    let bytes = match read_regular(&path, MAX_BYTES) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(read(e)),
    };
    let invalid = |reason: String| SessionError::Invalid {
        path: path.clone(),
        reason,
    };
    let record: Record = serde_json::from_slice(&bytes).map_err(|e| invalid(e.to_string()))?;
    if !(1..=VERSION).contains(&record.version) {
        return Err(invalid(format!(
            "version {} is not {VERSION}",
            record.version
        )));
    }
    if scope.file_name() != Some(OsStr::new(SCOPE_FILE))
        || dir.file_name().and_then(OsStr::to_str) != Some(record.id.as_str())
    {
        return Err(invalid(
            "it is not the record of the session whose scope is named".into(),
        ));
    }
    Ok(Some(record))
}

/// Writes a new session's directory under `state` (the scope's copy and `record`, whose `id`
/// names the directory) and returns the scope copy's path, for `GIT_PRISM_SCOPE`.
pub fn create(state: &Path, scope_text: &[u8], record: &Record) -> Result<PathBuf, SessionError> {
    let sessions = state.join("sessions");
    let write = |source| SessionError::Write {
        dir: sessions.clone(),
        source,
    };
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&sessions)
        .map_err(write)?;
    let dir = sessions.join(&record.id);
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(&dir)
        .map_err(write)?;
    let json = crate::json::to_string(record).map_err(|e| write(std::io::Error::other(e)))?;
    for (name, bytes) in [(SCOPE_FILE, scope_text), (RECORD_FILE, json.as_bytes())] {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(dir.join(name))
            .map_err(write)?;
        std::io::Write::write_all(&mut file, bytes).map_err(write)?;
    }
    Ok(dir.join(SCOPE_FILE))
}

/// A new session id: 128 random bits as hex.
pub fn new_id() -> String {
    let mut bytes = [0u8; 16];
    let filled = std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .is_ok();
    if !filled {
        // No /dev/urandom: the clock and the process id still make a directory name that
        // `create` makes exclusively.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        bytes[..8].copy_from_slice(&(nanos as u64).to_le_bytes());
        bytes[8..12].copy_from_slice(&std::process::id().to_le_bytes());
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_whatever_they_hold() {
        for value in [&b"plain"[..], b"caf\xc3\xa9", b"\xff\xfe not utf-8"] {
            let b = Bytes::of(OsStr::from_bytes(value));
            let json = serde_json::to_string(&b).unwrap();
            let back: Bytes = serde_json::from_str(&json).unwrap();
            assert_eq!(back.os().as_bytes(), value);
        }
    }

    #[test]
    fn a_record_is_found_only_beside_its_own_scope() {
        let state = tempfile::tempdir().unwrap();
        let record = Record {
            version: VERSION,
            id: new_id(),
            started: "2026-01-01T00:00:00Z".into(),
            scope_file: Bytes::Text("/s.toml".into()),
            command: vec![Bytes::Text("agent".into())],
            cwd: Bytes::Text("/".into()),
            temp_dir: Bytes::Text("/tmp".into()),
            environment: BTreeMap::from([("HOME".to_owned(), Bytes::Text("/home/x".into()))]),
            repos: Vec::new(),
            kernel: String::new(),
            sandbox: None,
        };
        let scope = create(state.path(), b"", &record).unwrap();
        assert_eq!(load(&scope).unwrap(), Some(record.clone()));
        // Another file in the same directory is not the session's scope.
        assert!(load(&scope.with_file_name("other.toml")).is_err());
        // A scope elsewhere has no record: set by hand.
        assert_eq!(load(&state.path().join("mine.toml")).unwrap(), None);
        // Created once: a second session with the same id fails.
        assert!(create(state.path(), b"", &record).is_err());
    }
}
