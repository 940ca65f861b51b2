//! The guard's record: every refusal, every push and `send-email` it let through, and what
//! each commit, merge, rebase, reset, cherry-pick, revert, am, pull and push did (`effect`,
//! [`super::observe`]), one JSON object per line, in `$GIT_PRISM_STATE_DIR`, else
//! `$XDG_STATE_HOME/git-prism`, else `~/.local/state/git-prism` (`guard.log`; an absolute path
//! only, or nothing is written). The directory git-prism creates is 0700 and is used
//! only if it is a directory (not a link) owned by this user; the file is opened for appending
//! with `O_NOFOLLOW` and created 0600. Writing it is best effort: a record that cannot be
//! written never turns a refusal into a pass, nor a pass into a failure.

use std::fmt;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::scope::Permission;

/// One decision.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Entry {
    /// When (RFC 3339, UTC).
    pub time: String,
    /// Whether the call ran.
    pub decision: Ruling,
    /// The repository (its work tree, or git directory when bare), if known.
    pub repo: Option<String>,
    /// The permission the scope gives it.
    pub permission: Permitted,
    /// The command line.
    pub command: String,
    /// The rule that decided.
    pub rule: String,
    /// The session's id, when the call belongs to a session `git-prism session` started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// What git did, for a write the record of effects watched (written once git has ended).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<super::observe::Observed>,
}

/// Whether a call ran, as its record says it (`refused` or `allowed`; a push let through is
/// `allowed` like any other call).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ruling {
    /// Not run.
    Refused,
    /// Run.
    Allowed,
}

impl Ruling {
    /// The word the record uses.
    pub fn name(self) -> &'static str {
        match self {
            Ruling::Refused => "refused",
            Ruling::Allowed => "allowed",
        }
    }
}

impl fmt::Display for Ruling {
    /// The record's word (padded as the format asks: `session log` aligns it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// The permission a record names: the scope's (its file's words), or why there is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Permitted {
    /// [`Permission::Read`].
    #[serde(rename = "read")]
    Read,
    /// [`Permission::WriteLocal`].
    #[serde(rename = "write-local")]
    WriteLocal,
    /// [`Permission::WritePush`].
    #[serde(rename = "write-push")]
    WritePush,
    /// Not told (the call was decided before its repository was placed, or the guard failed).
    #[serde(rename = "unknown")]
    Unknown,
    /// The scope, or the session's record, cannot be used.
    #[serde(rename = "no valid scope")]
    NoValidScope,
}

impl Permitted {
    /// The word the record and the refusal line use.
    pub fn name(self) -> &'static str {
        match self {
            Permitted::Read => Permission::Read.name(),
            Permitted::WriteLocal => Permission::WriteLocal.name(),
            Permitted::WritePush => Permission::WritePush.name(),
            Permitted::Unknown => "unknown",
            Permitted::NoValidScope => "no valid scope",
        }
    }
}

impl From<Option<Permission>> for Permitted {
    fn from(permission: Option<Permission>) -> Permitted {
        match permission {
            Some(Permission::Read) => Permitted::Read,
            Some(Permission::WriteLocal) => Permitted::WriteLocal,
            Some(Permission::WritePush) => Permitted::WritePush,
            None => Permitted::Unknown,
        }
    }
}

impl fmt::Display for Permitted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// The log's directory (see the module docs).
pub fn dir() -> Option<PathBuf> {
    let var = |n: &str| {
        std::env::var_os(n)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    var("GIT_PRISM_STATE_DIR")
        .or_else(|| {
            var("XDG_STATE_HOME")
                .filter(|p| p.is_absolute())
                .map(|p| p.join("git-prism"))
        })
        .or_else(|| var("HOME").map(|h| h.join(".local/state/git-prism")))
        .filter(|p| p.is_absolute())
}

/// The log file.
pub fn file() -> Option<PathBuf> {
    dir().map(|d| d.join("guard.log"))
}

/// Appends `record`; false when it could not be written.
pub fn append(record: &Entry) -> bool {
    let Some(dir) = dir() else { return false };
    if std::fs::symlink_metadata(&dir).is_err() {
        if let Some(parent) = dir.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = std::fs::DirBuilder::new().mode(0o700).create(&dir);
    }
    let Ok(meta) = std::fs::symlink_metadata(&dir) else {
        return false;
    };
    let uid = rustix::process::getuid().as_raw();
    if !meta.is_dir() || meta.uid() != uid {
        return false;
    }
    let Ok(mut line) = crate::json::to_string(record) else {
        return false;
    };
    line.push('\n');
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(dir.join("guard.log"))
        .and_then(|mut f| f.write_all(line.as_bytes()))
        .is_ok()
}

/// Reads every record (lines that are not records are skipped).
pub fn read() -> Vec<Entry> {
    let Some(path) = file() else {
        return Vec::new();
    };
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines as the guard has written them since issue 20: every `decision` and `permission`
    /// word, with and without the optional fields.
    const LINES: &[&str] = &[
        r#"{"time":"2025-01-01T00:00:00Z","decision":"refused","repo":"/w/a","permission":"read","command":"git commit -m x","rule":"`commit` changes the repository, which needs write-local (scope /s.toml)"}"#,
        r#"{"time":"2025-01-01T00:00:01Z","decision":"allowed","repo":"/w/a","permission":"write-local","command":"git commit -m x","rule":"commit","session":"0123456789abcdef","effect":{"exit":0,"head_before":"aaaa","head_after":"bbbb","branch":"refs/heads/main"}}"#,
        r#"{"time":"2025-01-01T00:00:02Z","decision":"allowed","repo":"/w/a","permission":"write-push","command":"git push origin feature","rule":"push to feature","effect":{"signal":9,"pushed":[{"branch":"feature","before":"aaaa"}],"hooks_skipped":"--no-verify","note":"a note"}}"#,
        r#"{"time":"2025-01-01T00:00:03Z","decision":"refused","repo":null,"permission":"unknown","command":"git x","rule":"the guard failed: boom"}"#,
        r#"{"time":"2025-01-01T00:00:04Z","decision":"refused","repo":null,"permission":"no valid scope","command":"git commit","rule":"bad toml; every write is refused until the scope is fixed"}"#,
    ];

    /// Each word parses to its variant and is written back as the same word.
    #[test]
    fn words_are_the_records() {
        for (word, permitted) in [
            ("read", Permitted::Read),
            ("write-local", Permitted::WriteLocal),
            ("write-push", Permitted::WritePush),
            ("unknown", Permitted::Unknown),
            ("no valid scope", Permitted::NoValidScope),
        ] {
            let json = format!("\"{word}\"");
            assert_eq!(serde_json::from_str::<Permitted>(&json).unwrap(), permitted);
            assert_eq!(serde_json::to_string(&permitted).unwrap(), json);
            assert_eq!(permitted.to_string(), word);
        }
        for (word, ruling) in [("refused", Ruling::Refused), ("allowed", Ruling::Allowed)] {
            let json = format!("\"{word}\"");
            assert_eq!(serde_json::from_str::<Ruling>(&json).unwrap(), ruling);
            assert_eq!(serde_json::to_string(&ruling).unwrap(), json);
        }
        assert_eq!(format!("{:<7}|", Ruling::Allowed), "allowed|");
        assert_eq!(format!("{:<7}|", Permitted::Read), "read   |");
    }

    #[test]
    fn todays_lines_round_trip_byte_for_byte() {
        for line in LINES {
            let entry: Entry = serde_json::from_str(line).unwrap();
            assert_eq!(crate::json::to_string(&entry).unwrap(), *line);
        }
    }
}
