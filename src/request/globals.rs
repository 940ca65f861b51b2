//! git's global options (those before the subcommand), read once, as git's `handle_options`
//! reads them, by the one parser both the classifier and the session guard use.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;

use super::{Globals, Reason, effect, lossy};

/// Every global option of a command line (those before the subcommand), read once by the one
/// parser both the classifier and the session guard use.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GlobalOptions {
    /// The option tokens, verbatim and in order.
    pub args: Vec<OsString>,
    /// `-C <dir>`, in order.
    pub chdir: Vec<OsString>,
    /// `--git-dir`.
    pub git_dir: Option<OsString>,
    /// `--work-tree`.
    pub work_tree: Option<OsString>,
    /// `-c name=value` (a name alone: `None`, which git reads as `true`), in order; the name's
    /// section and key lowered as git compares them.
    pub config: Vec<(String, Option<OsString>)>,
    /// `--config-env=<name>=<variable>` given.
    pub config_env: bool,
    /// `--bare`.
    pub bare: bool,
    /// `--exec-path=<dir>` (where git looks for its commands).
    pub exec_path: bool,
    /// An option that asks git about itself (`--version`, `--help`, `--exec-path`...).
    pub informational: Option<OsString>,
    /// An option git does not take here, or one missing its value.
    pub invalid: Option<OsString>,
    /// An option the classifier does not honour on the structured path.
    pub unsupported: Option<OsString>,
    /// Where the subcommand starts.
    pub end: usize,
}

/// Global options that take no value and change nothing the classifier or the guard weighs.
const HARMLESS: &[&[u8]] = &[
    b"-p",
    b"--paginate",
    b"-P",
    b"--no-pager",
    b"--no-advice",
    b"--no-lazy-fetch",
    b"--literal-pathspecs",
    b"--glob-pathspecs",
    b"--noglob-pathspecs",
    b"--icase-pathspecs",
];

/// Global options that ask git about itself.
const ASKS_GIT: &[&[u8]] = &[
    b"-v",
    b"--version",
    b"-h",
    b"--help",
    b"--exec-path",
    b"--html-path",
    b"--man-path",
    b"--info-path",
    b"--list-cmds",
];

/// Reads the global options of a git command line (without `argv[0]`), as git's
/// `handle_options` does. Reading stops at the subcommand, at an informational option, or at
/// an option it does not know.
pub fn global_options(args: &[OsString]) -> GlobalOptions {
    let mut g = GlobalOptions::default();
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let bytes = arg.as_bytes();
        if !bytes.starts_with(b"-") {
            break;
        }
        let (name, inline) = split_long(bytes);
        let start = i;
        let value = |i: &mut usize| -> Option<OsString> {
            if let Some(v) = inline {
                *i += 1;
                return Some(OsStr::from_bytes(v).to_owned());
            }
            let v = args.get(*i + 1).cloned();
            *i += 2;
            v
        };
        match name {
            b"-C" if inline.is_none() => match value(&mut i) {
                Some(dir) => g.chdir.push(dir),
                None => g.invalid = Some(arg.clone()),
            },
            b"-c" if inline.is_none() => match value(&mut i) {
                Some(setting) if !setting.is_empty() => g.config.push(effect::setting_of(&setting)),
                _ => g.invalid = Some(arg.clone()),
            },
            b"--config-env" => {
                g.config_env = true;
                if value(&mut i).is_none() {
                    g.invalid = Some(arg.clone());
                }
            }
            b"--git-dir" => match value(&mut i) {
                Some(v) => g.git_dir = Some(v),
                None => g.invalid = Some(arg.clone()),
            },
            b"--work-tree" => match value(&mut i) {
                Some(v) => g.work_tree = Some(v),
                None => g.invalid = Some(arg.clone()),
            },
            b"--namespace" | b"--super-prefix" => {
                g.unsupported.get_or_insert_with(|| arg.clone());
                if value(&mut i).is_none() {
                    g.invalid = Some(arg.clone());
                }
            }
            b"--attr-source" => {
                if value(&mut i).is_none() {
                    g.invalid = Some(arg.clone());
                }
            }
            b"--bare" if inline.is_none() => {
                g.bare = true;
                i += 1;
            }
            b"--no-replace-objects" | b"--no-optional-locks" if inline.is_none() => {
                g.unsupported.get_or_insert_with(|| arg.clone());
                i += 1;
            }
            n if HARMLESS.contains(&n) && inline.is_none() => i += 1,
            b"--exec-path" if inline.is_some() => {
                g.exec_path = true;
                i += 1;
            }
            n if ASKS_GIT.contains(&n) => {
                g.informational = Some(arg.clone());
                g.end = i;
                g.args.extend_from_slice(&args[..i.min(args.len())]);
                return g;
            }
            _ => {
                g.invalid = Some(arg.clone());
            }
        }
        if g.invalid.is_some() {
            g.end = start;
            g.args = args[..start].to_vec();
            return g;
        }
    }
    g.end = i.min(args.len());
    g.args = args[..g.end].to_vec();
    g
}

/// The command line `args` without the `-c` settings among its global options that `drop`
/// names (given the setting's name as git compares it, and its value), and the settings left
/// out, as written: the call a refusal offers in place of one that sets what it may not.
pub fn without_settings(
    args: &[OsString],
    drop: impl Fn(&str, Option<&OsStr>) -> bool,
) -> (Vec<OsString>, Vec<OsString>) {
    let end = global_options(args).end;
    let mut kept = Vec::with_capacity(args.len());
    let mut dropped = Vec::new();
    let mut i = 0;
    while i < end {
        let arg = &args[i];
        let bytes = arg.as_bytes();
        let (name, inline) = split_long(bytes);
        let takes_value = inline.is_none()
            && matches!(
                name,
                b"-C"
                    | b"-c"
                    | b"--config-env"
                    | b"--git-dir"
                    | b"--work-tree"
                    | b"--namespace"
                    | b"--super-prefix"
                    | b"--attr-source"
            );
        let width = if takes_value { 2 } else { 1 };
        let pair = &args[i..(i + width).min(end)];
        match (bytes, pair.get(1)) {
            (b"-c", Some(setting)) => {
                let (key, value) = effect::setting_of(setting);
                if drop(&key, value.as_deref()) {
                    dropped.push(setting.clone());
                } else {
                    kept.extend_from_slice(pair);
                }
            }
            _ => kept.extend_from_slice(pair),
        }
        i += width;
    }
    kept.extend_from_slice(&args[end.min(args.len())..]);
    (kept, dropped)
}

/// The global options of a request the shim answers, or why it passes through.
pub(super) fn parse_globals(args: &[OsString]) -> Result<(Globals, &[OsString]), Reason> {
    let g = global_options(args);
    if let Some(info) = &g.informational {
        return Err(Reason::Informational(lossy(info)));
    }
    if let Some(bad) = &g.invalid {
        let b = bad.as_bytes();
        let known_needing_value = matches!(
            split_long(b).0,
            b"-C"
                | b"-c"
                | b"--config-env"
                | b"--git-dir"
                | b"--work-tree"
                | b"--namespace"
                | b"--super-prefix"
                | b"--attr-source"
        );
        return Err(if known_needing_value && split_long(b).1.is_none() {
            Reason::MissingValue(lossy(bad))
        } else {
            Reason::GlobalOption(lossy(bad))
        });
    }
    if let Some(opt) = &g.unsupported {
        return Err(Reason::GlobalOption(lossy(opt)));
    }
    if g.exec_path {
        let arg = args[..g.end]
            .iter()
            .find(|a| a.as_bytes().starts_with(b"--exec-path="))
            .map_or_else(|| "--exec-path".to_owned(), |a| lossy(a));
        return Err(Reason::Informational(arg));
    }
    let globals = Globals {
        args: g.args,
        chdir: g.chdir,
        git_dir: g.git_dir,
        work_tree: g.work_tree,
        bare: g.bare,
    };
    Ok((globals, &args[g.end..]))
}

/// Splits `--name=value` into (`--name`, `value`); anything else is returned whole.
fn split_long(bytes: &[u8]) -> (&[u8], Option<&[u8]>) {
    if bytes.starts_with(b"--") {
        if let Some(eq) = bytes.iter().position(|b| *b == b'=') {
            return (&bytes[..eq], Some(&bytes[eq + 1..]));
        }
    }
    (bytes, None)
}
