//! `git push`: what it sends where, read from its command line.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;

use super::super::scan::{Line, Token};
use super::super::table::{Means, PushOption};

/// `git push [<options>] [<repository> [<refspec>...]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Push {
    /// The repository (remote name, URL or path), if given.
    pub remote: Option<OsString>,
    /// The refspecs, as given.
    pub refspecs: Vec<OsString>,
    /// `--all` / `--branches`.
    pub all: bool,
    /// `--mirror`.
    pub mirror: bool,
    /// `--delete` / `-d`: the refspecs name refs to delete.
    pub delete: bool,
    /// `--tags`: every tag, besides the refspecs.
    pub tags: bool,
    /// `--prune`: remote refs without a local counterpart are deleted.
    pub prune: bool,
    /// `--dry-run` / `-n`: nothing is sent.
    pub dry_run: bool,
    /// `--no-verify`: the pre-push hook does not run.
    pub no_verify: bool,
    /// An option that makes the push's destinations unknowable here (`--receive-pack`,
    /// `--recurse-submodules=on-demand`...).
    pub unplaceable: Option<String>,
    /// Whether the command line says whether submodules are pushed too
    /// (`--recurse-submodules=<how>`, `--no-recurse-submodules`): it wins over the
    /// configuration's `push.recurseSubmodules` and `submodule.recurse`.
    pub recursion_given: bool,
}

impl Push {
    /// How the command line skips the `pre-push` hook, if it does.
    pub fn skips_hooks(&self) -> Option<String> {
        self.no_verify.then(|| "--no-verify".to_owned())
    }
}

/// `git push [<options>] [<repository> [<refspec>...]]`, read with `push`'s grammar.
pub(super) fn push(line: &Line) -> Push {
    let mut p = Push::default();
    for token in &line.tokens {
        let Token::Option {
            name, opt, value, ..
        } = token
        else {
            continue;
        };
        let Some(opt) = opt else {
            p.unplaceable = Some(format!(
                "an option this guard does not know: {}",
                String::from_utf8_lossy(name)
            ));
            continue;
        };
        match opt.means {
            Means::Push(PushOption::All) => p.all = true,
            Means::Push(PushOption::Mirror) => p.mirror = true,
            Means::Push(PushOption::Delete) => p.delete = true,
            Means::Push(PushOption::Tags) => p.tags = true,
            Means::Push(PushOption::Prune) => p.prune = true,
            Means::Push(PushOption::DryRun) => p.dry_run = true,
            Means::Push(PushOption::NoRecursion) => p.recursion_given = true,
            Means::Push(PushOption::Recursion) => {
                p.recursion_given = true;
                if !matches!(value.map(|v| v.as_bytes()), Some(b"no" | b"check")) {
                    p.unplaceable = Some("--recurse-submodules pushes other repositories".into());
                }
            }
            Means::SkipsHooks => p.no_verify = true,
            Means::Program => {
                p.unplaceable = Some("--receive-pack runs a program on the remote".into());
            }
            _ => {}
        }
    }
    if line.uncertain && p.unplaceable.is_none() {
        p.unplaceable = Some("an option this guard does not know".into());
    }
    // git's rule: a repository given as an argument wins over `--repo`.
    let mut positionals = line.positionals().cloned();
    p.remote = positionals.next().or_else(|| {
        line.value(Means::Push(PushOption::Repo))
            .map(ToOwned::to_owned)
    });
    p.refspecs = positionals.collect::<Vec<OsString>>();
    p
}
