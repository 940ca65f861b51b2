//! What a push is decided by, as the real git reads it for a call (its `-C`, `-c`,
//! `--git-dir`, its environment): [`push_settings`] (the configuration, `push.default`,
//! `remote.*`, `branch.*`, the branch `HEAD` names, and the local refs). Only metadata is read:
//! no file content, no program the repository configures. The rest of what the session guard
//! asks git is in [`super::probe`].

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
    /// Every local ref (full names), with the ref it names when it is a symbolic ref.
    pub refs: Vec<(String, Option<String>)>,
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
    let mut refs = Vec::new();
    for line in git
        .metadata(&["for-each-ref", "--format=%(refname)%00%(symref)"])?
        .lines()
    {
        let mut parts = line.splitn(2, |b| *b == 0);
        let name = parts.next().unwrap_or_default().to_str_lossy().into_owned();
        let target = parts.next().unwrap_or_default().to_str_lossy().into_owned();
        refs.push((name, (!target.is_empty()).then_some(target)));
    }
    Ok(PushSettings { config, head, refs })
}
