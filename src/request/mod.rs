//! The request vocabulary: a pure, typed parse of git's command line (and of `gh pr diff`,
//! in [`gh`]), the bottom layer every other module speaks.
//!
//! [`classify`] turns the arguments of a `git` call into a [`Verdict`]: pass the call through
//! to the real git (with a [`Reason`]), or answer it with structure (a [`Request`]). Nothing runs
//! while parsing: no file is read, no repository is opened, no environment is consulted. The
//! shim classifies whole command lines; the CLI parses its range arguments with the same
//! grammar through [`parse_diff`] and [`parse_log`], so `git-prism manifest A..B` means what
//! `git diff A..B` means. The manifest, history and answers take the parsed [`Diff`], [`Log`],
//! [`Show`] and [`Blame`] requests.
//!
//! One model of git's command line serves every reader: [`table`] holds, for each subcommand,
//! its options, how each takes its value and what it means, and [`scan`] is the one scanner
//! that reads a command line with it — strictly for the answer path ([`parse_diff`] and its
//! siblings), leniently for the session guard ([`effect`], which says what a `git` or `gh` call
//! does). The global options are read by one parser ([`global_options`]).
//!
//! The grammar follows git's own: global options before the subcommand (`-C <dir>`,
//! `-c k=v`, `--git-dir`, ...), then the subcommand, its options (knowing which take a separate
//! value: `-n 5`, `-S term`, `-L 1,5`, `--author x`), positional revisions-or-paths, and paths
//! after `--`.
//!
//! Invariants:
//! - Anything the grammar does not fully understand passes through: an unknown global option,
//!   subcommand or option, a bundle of short options, an abbreviated long option.
//! - Anything that asks git for its own output format (`--stat`, `-p`, `--format`, `-z`,
//!   `--porcelain`, ...) passes through: somebody wants git's bytes.
//! - Arguments are never re-encoded: a [`Request`] carries the original `OsString`s, and the
//!   options it forwards are the caller's tokens, verbatim and in order.
//! - Positional arguments before `--` are kept as written; whether each one is a revision or a
//!   path is git's question to answer against the repository (see [`Diff::positional`]). After
//!   `--` everything is a path, so `git log -- x..y` never becomes a range.

pub mod effect;
pub mod gh;
mod globals;
mod parse;
pub mod scan;
pub mod table;

pub use globals::{GlobalOptions, global_options, without_settings};
pub use parse::{parse_blame, parse_diff, parse_log, parse_show};

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::os::unix::ffi::OsStrExt;

/// What the shim does with a `git` call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exec the real git untouched.
    Passthrough(Reason),
    /// Answer with structured data (or, if that fails, exec the real git).
    Structured(Box<Request>),
}

/// Why a call passes through to the real git.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// No subcommand was given (`git`, `git -C dir`).
    NoSubcommand,
    /// The call asks git about itself (`--version`, `--help`, `-h`, `--exec-path`).
    Informational(String),
    /// A global option the structured path does not honour.
    GlobalOption(String),
    /// The subcommand is not on the watch list (or is an alias).
    NotWatched(String),
    /// An option asks for git's own output format.
    MachineFormat(String),
    /// An option the grammar does not know.
    UnknownOption(String),
    /// An option that needs a value was given none; git itself reports the error.
    MissingValue(String),
    /// A form the grammar understands but has no structured answer for.
    Unsupported(String),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NoSubcommand => write!(f, "no subcommand"),
            Reason::Informational(o) => write!(f, "`{o}` asks git about itself"),
            Reason::GlobalOption(o) => {
                write!(
                    f,
                    "global option `{o}` is not supported on the structured path"
                )
            }
            Reason::NotWatched(c) => write!(f, "`{c}` is not on the watch list"),
            Reason::MachineFormat(o) => write!(f, "`{o}` asks for git's own output format"),
            Reason::UnknownOption(o) => write!(f, "option `{o}` is not understood"),
            Reason::MissingValue(o) => write!(f, "option `{o}` is missing its value"),
            Reason::Unsupported(s) => f.write_str(s),
        }
    }
}

/// A call the shim can answer with structure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Global options given before the subcommand.
    pub globals: Globals,
    /// The subcommand and what it asks for.
    pub command: Command,
    /// The subcommand and its arguments exactly as given (for messages and the `raw` hint).
    pub argv: Vec<OsString>,
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, arg) in self.argv.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}", arg.to_string_lossy())?;
        }
        Ok(())
    }
}

/// Global options (those before the subcommand) of a structured request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Globals {
    /// Every global option token, verbatim and in order, to forward to git subprocesses.
    pub args: Vec<OsString>,
    /// `-C <dir>` arguments in order (each relative to the previous one).
    pub chdir: Vec<OsString>,
    /// `--git-dir`.
    pub git_dir: Option<OsString>,
    /// `--work-tree`.
    pub work_tree: Option<OsString>,
    /// `--bare`.
    pub bare: bool,
}

/// A watched subcommand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `git diff`.
    Diff(Diff),
    /// `git log`, including the pickaxe (`-S`/`-G`).
    Log(Log),
    /// `git show <commit>`.
    Show(Show),
    /// `git blame`.
    Blame(Blame),
}

/// `git diff [<options>] [<revisions-or-paths>...] [-- <paths>...]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diff {
    /// `--cached` / `--staged`.
    pub cached: bool,
    /// `--merge-base`.
    pub merge_base: bool,
    /// Positional arguments before `--`: revisions, or paths when no `--` is given. Which is
    /// which is decided against the repository, as git does.
    pub positional: Vec<OsString>,
    /// Paths after `--`.
    pub paths: Vec<OsString>,
    /// Whether `--` was given.
    pub separator: bool,
    /// Options that change the facts (`-M`, `-w`, `-R`, `--diff-filter`...), verbatim.
    pub options: Vec<OsString>,
    /// Options that only shape the hunks (`-U<n>`, `-W`, `--inter-hunk-context`), verbatim:
    /// honoured in the hunks the answer carries.
    pub patch: Vec<OsString>,
}

impl Diff {
    /// Whether the sides are swapped (`-R`).
    pub fn reversed(&self) -> bool {
        self.options.iter().any(|o| o == "-R")
    }

    /// Whether paths are relative to a directory (`--relative[=<dir>]`).
    pub fn relative(&self) -> bool {
        self.options
            .iter()
            .any(|o| o.as_encoded_bytes().starts_with(b"--relative"))
    }

    /// Whether the command line decides relativity itself (`--relative[=<dir>]` or
    /// `--no-relative`), so that `diff.relative` does not apply.
    pub fn decides_relative(&self) -> bool {
        self.relative() || self.options.iter().any(|o| o == "--no-relative")
    }

    /// The same diff relative to the current directory, as `diff.relative = true` makes it.
    pub fn made_relative(&self) -> Diff {
        let mut relative = self.clone();
        relative.options.push("--relative".into());
        relative
    }

    /// The `git diff` of a base, an optional head and top-level path globs to include and to
    /// exclude (what the MCP tools take); the revisions must not look like options.
    pub fn between(
        base: OsString,
        head: Option<OsString>,
        include: &[String],
        exclude: &[String],
    ) -> Diff {
        let mut paths: Vec<OsString> = Vec::new();
        for (patterns, magic) in [(include, "top,glob"), (exclude, "top,glob,exclude")] {
            paths.extend(patterns.iter().map(|p| format!(":({magic}){p}").into()));
        }
        Diff {
            positional: std::iter::once(base).chain(head).collect(),
            separator: true,
            paths,
            ..Diff::default()
        }
    }
}

impl Log {
    /// A log of the commits reachable from `head` and not from `base` (`base..head`).
    pub fn range(base: &OsStr, head: &OsStr) -> Log {
        let mut range = base.to_owned();
        range.push("..");
        range.push(head);
        Log {
            args: vec![range],
            ..Log::default()
        }
    }

    /// The options that make git's pickaxe filter a commit's file pairs (`-S`/`-G` with their
    /// term, `--pickaxe-regex`, `--pickaxe-all`, `-i`), in order: what a diff of the commit
    /// needs to keep exactly the pairs git's log selected it for.
    pub fn pickaxe_options(&self) -> Vec<OsString> {
        let mut out = Vec::new();
        let mut tokens = self.args.iter();
        while let Some(a) = tokens.next() {
            let b = a.as_encoded_bytes();
            if b == b"-S" || b == b"-G" {
                out.push(a.clone());
                out.extend(tokens.next().cloned());
            } else if b.starts_with(b"-S")
                || b.starts_with(b"-G")
                || b == b"--pickaxe-regex"
                || b == b"--pickaxe-all"
                || b == b"-i"
                || b == b"--regexp-ignore-case"
            {
                out.push(a.clone());
            }
        }
        out
    }

    /// Whether the pickaxe term is a regular expression (`-G`, or `-S` with
    /// `--pickaxe-regex`).
    pub fn pickaxe_is_regex(&self) -> bool {
        self.pickaxe
            .as_ref()
            .is_some_and(|p| p.kind == PickaxeKind::Regex)
            || self.args.iter().any(|a| a == "--pickaxe-regex")
    }

    /// Whether the pickaxe ignores case (`-i`, `--regexp-ignore-case`).
    pub fn ignores_case(&self) -> bool {
        self.args
            .iter()
            .any(|a| a == "-i" || a == "--regexp-ignore-case")
    }
}

impl Blame {
    /// The same blame limited to the given line runs, one `-L <start>,<end>` each (replacing
    /// the caller's `-L` options): the argument list after `blame`, for the command that
    /// shows the lines an answer left out.
    pub fn limited_to(&self, argv: &[OsString], runs: &[(u32, u32)]) -> Vec<OsString> {
        let mut out: Vec<OsString> = runs
            .iter()
            .flat_map(|(a, b)| ["-L".into(), format!("{a},{b}").into()])
            .collect();
        let mut skip = false;
        let mut paths = false;
        for a in argv.iter().skip(1) {
            // After `--` every argument is a path, whatever it looks like.
            if paths {
                out.push(a.clone());
                continue;
            }
            if skip {
                skip = false;
                continue;
            }
            let bytes = a.as_encoded_bytes();
            if bytes == b"--" {
                paths = true;
                out.push(a.clone());
                continue;
            }
            if bytes == b"-L" {
                skip = true;
                continue;
            }
            if bytes.starts_with(b"-L") {
                continue;
            }
            out.push(a.clone());
        }
        out
    }
}

/// `git log [<options>] [<revision-range>] [[--] <paths>...]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Log {
    /// Selection options and revisions, verbatim and in order (`--not` applies to what
    /// follows it), to forward to git's own revision walk.
    pub args: Vec<OsString>,
    /// Paths after `--`.
    pub paths: Vec<OsString>,
    /// Whether `--` was given.
    pub separator: bool,
    /// `-S <term>` or `-G <regex>`.
    pub pickaxe: Option<Pickaxe>,
    /// `-L <range>:<file>` (a function's or a range of lines' history), in order; their tokens
    /// are in [`Log::args`] too.
    pub line_ranges: Vec<LineRange>,
}

/// One `-L` of `git log`: the lines whose history is asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineRange {
    /// The value as given (`:name:file`, `10,20:file`).
    pub spec: OsString,
    /// What it names in the file.
    pub lines: Lines,
    /// The file, as given.
    pub file: OsString,
}

/// What a `-L` names in its file: the two forms the grammar reads (a regular expression as a
/// start or an end, `^:name`, and the forms without an end are git's own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lines {
    /// `:<name>:`: the function whose header matches (git's own funcname matching).
    Function(OsString),
    /// `<start>,<end>:`, the end as a line number or an offset (`+n`, `-n`) from the start.
    Numbers(OsString),
}

/// Reads the value of a `log -L`: `:<name>:<file>` or `<start>,<end>:<file>` with a line number
/// for the start and a line number or an offset for the end. `None` for anything else (git's
/// own output).
pub fn line_range(value: &OsStr) -> Option<LineRange> {
    let bytes = value.as_bytes();
    let (lines, file) = if let Some(rest) = bytes.strip_prefix(b":") {
        // git's funcname ends at the next `:`; the rest is the file.
        let colon = rest.iter().position(|b| *b == b':')?;
        let (name, file) = (&rest[..colon], &rest[colon + 1..]);
        if name.is_empty() {
            return None;
        }
        (Lines::Function(OsStr::from_bytes(name).to_owned()), file)
    } else {
        let colon = bytes.iter().position(|b| *b == b':')?;
        let (numbers, file) = (&bytes[..colon], &bytes[colon + 1..]);
        let (start, end) = numbers.split_at(numbers.iter().position(|b| *b == b',')?);
        let end = &end[1..];
        let end = end
            .strip_prefix(b"+")
            .or_else(|| end.strip_prefix(b"-"))
            .unwrap_or(end);
        let number = |n: &[u8]| !n.is_empty() && n.len() <= 9 && n.iter().all(u8::is_ascii_digit);
        if !number(start) || !number(end) || start.iter().all(|b| *b == b'0') {
            return None;
        }
        (Lines::Numbers(OsStr::from_bytes(numbers).to_owned()), file)
    };
    if file.is_empty() {
        return None;
    }
    Some(LineRange {
        spec: value.to_owned(),
        lines,
        file: OsStr::from_bytes(file).to_owned(),
    })
}

/// The pickaxe of `git log -S` / `-G`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pickaxe {
    /// `-S` (occurrence count changes) or `-G` (added/removed lines match).
    pub kind: PickaxeKind,
    /// The term or regular expression.
    pub term: OsString,
}

/// The two pickaxe flavours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickaxeKind {
    /// `-S <string>`: commits that change the number of occurrences.
    Occurrences,
    /// `-G <regex>`: commits whose added or removed lines match.
    Regex,
}

/// `git show [<options>] [<commit>]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Show {
    /// The object to show (`HEAD` when absent). Whether it is a commit is checked against the
    /// repository; trees, blobs and tags of non-commits pass through.
    pub rev: Option<OsString>,
    /// Options that change the facts, verbatim.
    pub options: Vec<OsString>,
    /// Options that only shape the hunks (`-U<n>`, `-W`), verbatim.
    pub patch: Vec<OsString>,
    /// `--format=` / `--pretty=` (empty): the commit's header is not wanted.
    pub no_header: bool,
    /// `-s` / `--no-patch`: the commit without its hunks.
    pub no_patch: bool,
    /// Paths after `--`: the change limited to them.
    pub paths: Vec<OsString>,
}

/// `git blame [<options>] [<rev>] [--] <path>`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Blame {
    /// Options that change the result (`-L`, `-w`, `-M`, `-C`, ...), verbatim.
    pub options: Vec<OsString>,
    /// `-L` values in order.
    pub line_ranges: Vec<OsString>,
    /// The revision, if one was given.
    pub rev: Option<OsString>,
    /// The file to blame.
    pub path: OsString,
}

/// Classifies the arguments of a `git` call (without `argv[0]`).
pub fn classify(args: &[OsString]) -> Verdict {
    match classify_inner(args) {
        Ok(request) => Verdict::Structured(Box::new(request)),
        Err(reason) => Verdict::Passthrough(reason),
    }
}

fn classify_inner(args: &[OsString]) -> Result<Request, Reason> {
    let (globals, rest) = globals::parse_globals(args)?;
    let Some((sub, sub_args)) = rest.split_first() else {
        return Err(Reason::NoSubcommand);
    };
    let command = match sub.as_bytes() {
        b"diff" => Command::Diff(parse_diff(sub_args)?),
        b"log" => Command::Log(parse_log(sub_args)?),
        b"show" => Command::Show(parse_show(sub_args)?),
        b"blame" => Command::Blame(parse_blame(sub_args)?),
        _ => return Err(Reason::NotWatched(lossy(sub))),
    };
    Ok(Request {
        globals,
        command,
        argv: rest.to_vec(),
    })
}

fn lossy(s: &OsStr) -> String {
    s.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests;
