//! The four commands the shim answers (`diff`, `log`, `show`, `blame`), parsed strictly with
//! the one model of git's command line ([`super::table`]) by the one scanner
//! ([`super::scan::strict`]): an option the model does not list, or one it lists as asking
//! for git's own output, passes the call through.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;

use super::scan::{self, Dialect, Token};
use super::table::{self, Means, Opt};
use super::{Blame, Diff, Log, Pickaxe, Reason, Show, line_range, lossy};

/// The grammar of a command the shim answers.
fn groups(name: &str) -> &'static [&'static [table::Group]] {
    table::command(name).map_or(&[], |c| c.options)
}

/// Handles the roles every subcommand treats alike; returns `Ok(true)` when the option's tokens
/// should be forwarded.
fn common_role(opt: &Opt) -> Result<bool, Reason> {
    match opt.means {
        Means::Forward => Ok(true),
        Means::Ignore => Ok(false),
        Means::Machine | Means::Format | Means::NoPatch => {
            Err(Reason::MachineFormat(opt.name.to_owned()))
        }
        Means::Unsupported => Err(Reason::Unsupported(format!(
            "`{}` has no structured answer",
            opt.name
        ))),
        Means::Help => Err(Reason::Informational(opt.name.to_owned())),
        _ => Err(Reason::UnknownOption(opt.name.to_owned())),
    }
}

/// The tokens of a strict scan of `args` with the grammar of `name`; `counts` for `log`.
fn tokens<'a>(
    name: &str,
    args: &'a [OsString],
    counts: bool,
) -> Vec<Result<(Token<'a>, Option<Opt>), Reason>> {
    scan::strict(args, groups(name), counts, Dialect::Git)
        .into_iter()
        .map(|t| {
            t.map(|t| {
                let opt = match &t {
                    Token::Option { opt, .. } => *opt,
                    _ => None,
                };
                (t, opt)
            })
        })
        .collect()
}

/// Parses the arguments of `git diff` (after the subcommand).
pub fn parse_diff(args: &[OsString]) -> Result<Diff, Reason> {
    let mut diff = Diff::default();
    for token in tokens("diff", args, false) {
        match token? {
            (Token::Option { value, words, .. }, Some(opt)) => match opt.means {
                Means::Cached => diff.cached = true,
                Means::MergeBase => diff.merge_base = true,
                Means::Patch => {
                    patch_value(&opt, value)?;
                    diff.patch.extend_from_slice(words);
                }
                _ => {
                    if common_role(&opt)? {
                        diff.options.extend_from_slice(words);
                    }
                }
            },
            (Token::Positional(arg), _) => diff.positional.push(arg.clone()),
            (Token::Option { name, .. }, None) => {
                return Err(Reason::UnknownOption(
                    String::from_utf8_lossy(&name).into_owned(),
                ));
            }
            (Token::Separator(rest), _) => {
                diff.separator = true;
                diff.paths = rest.to_vec();
            }
            (Token::Count(arg), _) => return Err(Reason::UnknownOption(lossy(arg))),
        }
    }
    let revs = diff.positional.len();
    if diff.cached && revs > 1 && diff.separator {
        return Err(Reason::Unsupported(
            "`diff --cached` takes at most one revision".to_owned(),
        ));
    }
    if diff.separator && revs > 2 && !diff.merge_base {
        return Err(Reason::Unsupported(
            "a combined diff of more than two revisions has no structured answer".to_owned(),
        ));
    }
    Ok(diff)
}

/// Parses the arguments of `git log` (after the subcommand).
pub fn parse_log(args: &[OsString]) -> Result<Log, Reason> {
    let mut log = Log::default();
    for token in tokens("log", args, true) {
        match token? {
            (Token::Option { value, words, .. }, Some(opt)) => match opt.means {
                Means::Pickaxe(kind) => {
                    if log.pickaxe.is_some() {
                        return Err(Reason::Unsupported(
                            "more than one pickaxe (-S/-G) has no structured answer".to_owned(),
                        ));
                    }
                    let term = value.ok_or_else(|| Reason::MissingValue(opt.name.to_owned()))?;
                    log.pickaxe = Some(Pickaxe {
                        kind,
                        term: term.to_owned(),
                    });
                    log.args.extend_from_slice(words);
                }
                Means::LineRange => {
                    let value = value.ok_or_else(|| Reason::MissingValue(opt.name.to_owned()))?;
                    let range = line_range(value).ok_or_else(|| {
                        Reason::Unsupported(format!(
                            "`-L {}` has no structured answer",
                            lossy(value)
                        ))
                    })?;
                    log.line_ranges.push(range);
                    log.args.extend_from_slice(words);
                }
                // Without `-p` (git's own output) they change nothing `log` prints.
                Means::Patch => {}
                _ => {
                    if common_role(&opt)? {
                        log.args.extend_from_slice(words);
                    }
                }
            },
            (Token::Positional(arg) | Token::Count(arg), _) => log.args.push(arg.clone()),
            (Token::Option { name, .. }, None) => {
                return Err(Reason::UnknownOption(
                    String::from_utf8_lossy(&name).into_owned(),
                ));
            }
            (Token::Separator(rest), _) => {
                log.separator = true;
                log.paths = rest.to_vec();
            }
        }
    }
    if !log.line_ranges.is_empty() {
        if log.pickaxe.is_some() {
            return Err(Reason::Unsupported(
                "`-L` with a pickaxe has no structured answer".to_owned(),
            ));
        }
        if !log.paths.is_empty() {
            return Err(Reason::Unsupported(
                "`-L` with paths has no structured answer".to_owned(),
            ));
        }
    }
    Ok(log)
}

/// Parses the arguments of `git show` (after the subcommand).
pub fn parse_show(args: &[OsString]) -> Result<Show, Reason> {
    let mut show = Show::default();
    for token in tokens("show", args, false) {
        match token? {
            (Token::Option { value, words, .. }, Some(opt)) => match opt.means {
                Means::Patch => {
                    patch_value(&opt, value)?;
                    show.patch.extend_from_slice(words);
                }
                Means::NoPatch => show.no_patch = true,
                Means::Format => match header_format(value) {
                    Some(suppressed) => show.no_header = suppressed,
                    None => return Err(Reason::MachineFormat(lossy(words[0].as_os_str()))),
                },
                _ => {
                    if common_role(&opt)? {
                        show.options.extend_from_slice(words);
                    }
                }
            },
            (Token::Positional(arg), _) => {
                if show.rev.is_some() {
                    return Err(Reason::Unsupported(
                        "`show` of several objects has no structured answer".to_owned(),
                    ));
                }
                let bytes = arg.as_bytes();
                if bytes.contains(&b':') {
                    return Err(Reason::Unsupported(format!(
                        "`show {}` prints a file, not a commit",
                        lossy(arg)
                    )));
                }
                if contains(bytes, b"..") || bytes.starts_with(b"^") || bytes.ends_with(b"^!") {
                    return Err(Reason::Unsupported(format!(
                        "`show {}` shows a range of commits",
                        lossy(arg)
                    )));
                }
                show.rev = Some(arg.clone());
            }
            (Token::Option { name, .. }, None) => {
                return Err(Reason::UnknownOption(
                    String::from_utf8_lossy(&name).into_owned(),
                ));
            }
            (Token::Separator(rest), _) => show.paths = rest.to_vec(),
            (Token::Count(arg), _) => return Err(Reason::UnknownOption(lossy(arg))),
        }
    }
    Ok(show)
}

/// The most lines of context an answer honours; git's own output past that.
const MAX_CONTEXT: u64 = 100_000;

/// Checks the number of a hunk option (`-U<n>`, `--unified=<n>`, `--inter-hunk-context=<n>`):
/// beyond [`MAX_CONTEXT`] git's own hunk headers overflow, so git answers itself.
fn patch_value(opt: &Opt, value: Option<&OsStr>) -> Result<(), Reason> {
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return Ok(());
    };
    match value.to_str().and_then(|v| v.parse::<u64>().ok()) {
        Some(n) if n <= MAX_CONTEXT => Ok(()),
        _ => Err(Reason::Unsupported(format!(
            "`{}{}{}` is past the {MAX_CONTEXT} lines of context an answer shows",
            opt.name,
            if opt.name.starts_with("--") { "=" } else { "" },
            lossy(value)
        ))),
    }
}

/// Reads a `--format`/`--pretty` value of `show`: `Some(true)` when it suppresses the commit's
/// header (an empty format), `Some(false)` when it only reshapes it (a built-in multi-line
/// format), `None` for a format of git's own (`oneline`, `format:...`, `%H`, `email`, ...).
fn header_format(value: Option<&OsStr>) -> Option<bool> {
    match value.map(OsStr::as_bytes) {
        None => Some(false),
        Some(b"" | b"format:" | b"tformat:") => Some(true),
        Some(b"medium" | b"short" | b"full" | b"fuller" | b"reference") => Some(false),
        Some(_) => None,
    }
}

/// Parses the arguments of `git blame` (after the subcommand).
pub fn parse_blame(args: &[OsString]) -> Result<Blame, Reason> {
    let mut blame = Blame::default();
    let mut positional = Vec::new();
    let mut after = None;
    for token in tokens("blame", args, false) {
        match token? {
            (Token::Option { value, words, .. }, Some(opt)) => {
                if opt.means == Means::LineRange {
                    let range = value.ok_or_else(|| Reason::MissingValue(opt.name.to_owned()))?;
                    blame.line_ranges.push(range.to_owned());
                    blame.options.extend_from_slice(words);
                } else if common_role(&opt)? {
                    blame.options.extend_from_slice(words);
                }
            }
            (Token::Positional(arg), _) => positional.push(arg.clone()),
            (Token::Option { name, .. }, None) => {
                return Err(Reason::UnknownOption(
                    String::from_utf8_lossy(&name).into_owned(),
                ));
            }
            (Token::Separator(rest), _) => after = Some(rest),
            (Token::Count(arg), _) => return Err(Reason::UnknownOption(lossy(arg))),
        }
    }
    let (rev, path) = match (after, positional.as_slice()) {
        (Some([path]), []) => (None, path.clone()),
        (Some([path]), [rev]) => (Some(rev.clone()), path.clone()),
        (None, [path]) => (None, path.clone()),
        (None, [rev, path]) => (Some(rev.clone()), path.clone()),
        (None, []) | (Some([]), _) => {
            return Err(Reason::Unsupported("`blame` needs a file".to_owned()));
        }
        _ => {
            return Err(Reason::Unsupported(
                "`blame` takes one revision and one file".to_owned(),
            ));
        }
    };
    blame.rev = rev;
    blame.path = path;
    Ok(blame)
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
