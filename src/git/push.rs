//! What git decides a push by, read with the real git as the call would see it (its `-C`,
//! `-c`, `--git-dir`): the configuration (`push.default`, `remote.*`, `branch.*`), the branch
//! `HEAD` names, and the local branches. Only metadata is read: no file content, no program
//! the repository configures.

use std::ffi::OsString;
use std::path::Path;

use bstr::ByteSlice;

use super::GitError;
use super::real::Invocation;

/// The settings a push's destinations follow.
#[derive(Clone, Debug, Default)]
pub struct PushSettings {
    /// Every configuration entry, keys as git prints them (section and name lowered).
    pub config: Vec<(String, String)>,
    /// The branch `HEAD` names (`None`: detached).
    pub head: Option<String>,
    /// The local branches' short names.
    pub branches: Vec<String>,
    /// Local branches that are symbolic refs, with the ref each names (`foo` → `refs/heads/main`).
    pub symrefs: Vec<(String, String)>,
}

impl PushSettings {
    /// The last value of `key` (git's rule: the last one wins).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.config
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Every value of `key`, in order.
    pub fn all(&self, key: &str) -> Vec<&str> {
        self.config
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect()
    }
}

/// Reads the push settings of the repository a call in `cwd` with `globals` acts on.
pub fn push_settings(cwd: &Path, globals: &[OsString]) -> Result<PushSettings, GitError> {
    let git = Invocation::locate(cwd.to_owned(), globals.to_vec())?;
    let config = git
        .metadata(&["config", "--list", "-z"])?
        .split(|b| *b == 0)
        .filter(|r| !r.is_empty())
        .map(|r| match r.find_byte(b'\n') {
            Some(nl) => (
                r[..nl].to_str_lossy().into_owned(),
                r[nl + 1..].to_str_lossy().into_owned(),
            ),
            None => (r.to_str_lossy().into_owned(), "true".to_owned()),
        })
        .collect();
    // Detached: `symbolic-ref -q` exits 1 and prints nothing.
    let head = git
        .metadata(&["symbolic-ref", "-q", "HEAD"])
        .ok()
        .and_then(|out| {
            let name = out.trim().to_str_lossy().into_owned();
            name.strip_prefix("refs/heads/").map(str::to_owned)
        });
    let mut branches = Vec::new();
    let mut symrefs = Vec::new();
    for line in git
        .metadata(&[
            "for-each-ref",
            "--format=%(refname:short)%00%(symref)",
            "refs/heads",
        ])?
        .lines()
    {
        let mut parts = line.splitn(2, |b| *b == 0);
        let name = parts.next().unwrap_or_default().to_str_lossy().into_owned();
        let target = parts.next().unwrap_or_default().to_str_lossy().into_owned();
        if !target.is_empty() {
            symrefs.push((name.clone(), target));
        }
        branches.push(name);
    }
    Ok(PushSettings {
        config,
        head,
        branches,
        symrefs,
    })
}

/// Every command name git itself would run: its builtins, the commands in its own directory
/// and the `git-<name>` programs on PATH (`git --list-cmds`).
pub fn git_commands(cwd: &Path, globals: &[OsString]) -> Result<Vec<String>, GitError> {
    let git = Invocation::locate(cwd.to_owned(), globals.to_vec())?;
    Ok(git
        .metadata(&["--list-cmds=builtins,main,others,nohelpers"])?
        .lines()
        .map(|l| l.to_str_lossy().trim().to_owned())
        .filter(|l| !l.is_empty())
        .collect())
}

/// The last value of one configuration key as the call would see it (`None` when unset or
/// unreadable).
pub fn config_value(cwd: &Path, globals: &[OsString], key: &str) -> Option<String> {
    let git = Invocation::locate(cwd.to_owned(), globals.to_vec()).ok()?;
    let out = git.metadata(&["config", "--get", key]).ok()?;
    let value = out.strip_suffix(b"\n").unwrap_or(&out);
    Some(value.to_str_lossy().into_owned())
}
