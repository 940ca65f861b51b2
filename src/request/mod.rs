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
//! The session guard reads every other command line with the same grammar: [`effect`] says
//! what a `git` or `gh` call does, with the one parser of git's global options
//! ([`global_options`]) and the one table of how git's subcommand options take their values
//! ([`options`]; for `diff`, `log`, `show` and `blame` it reads the classifier's own tables).
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
pub mod options;

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
    let (globals, rest) = parse_globals(args)?;
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
            b"-p"
            | b"--paginate"
            | b"-P"
            | b"--no-pager"
            | b"--no-advice"
            | b"--no-lazy-fetch"
            | b"--literal-pathspecs"
            | b"--glob-pathspecs"
            | b"--noglob-pathspecs"
            | b"--icase-pathspecs"
                if inline.is_none() =>
            {
                i += 1;
            }
            b"--exec-path" if inline.is_some() => {
                g.exec_path = true;
                i += 1;
            }
            b"-v" | b"--version" | b"-h" | b"--help" | b"--exec-path" | b"--html-path"
            | b"--man-path" | b"--info-path" | b"--list-cmds" => {
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
        let _ = start;
    }
    g.end = i.min(args.len());
    g.args = args[..g.end].to_vec();
    g
}

fn parse_globals(args: &[OsString]) -> Result<(Globals, &[OsString]), Reason> {
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

/// How `option` of a watched subcommand (`diff`, `log`, `show`, `blame`) takes its value,
/// from the classifier's tables (`Some` for an empty option when the command is watched).
pub(crate) fn watched_takes(command: &str, option: &[u8]) -> Option<options::Takes> {
    let tables: &[&[Opt]] = match command {
        "diff" => &[DIFF_ONLY, DIFF_FACTS, DIFF_PRESENTATION, DIFF_MACHINE],
        "log" => &[
            LOG_SELECTION,
            DIFF_FACTS,
            LOG_PRESENTATION,
            DIFF_PRESENTATION,
            DIFF_MACHINE,
        ],
        "show" => &[
            DIFF_FACTS,
            LOG_PRESENTATION,
            DIFF_PRESENTATION,
            DIFF_MACHINE,
        ],
        "blame" => &[BLAME],
        _ => return None,
    };
    if option.is_empty() {
        return Some(options::Takes::Flag);
    }
    let opt = tables
        .iter()
        .flat_map(|t| t.iter())
        .find(|o| o.name.as_bytes() == option)?;
    Some(match opt.arity {
        Flag => options::Takes::Flag,
        Value => options::Takes::Value,
        Attached => options::Takes::Attached,
    })
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

/// How an option takes its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arity {
    /// No value.
    Flag,
    /// A required value: `--opt=v`, `--opt v`, `-Xv`, `-X v`.
    Value,
    /// An optional value that can only be attached: `--opt[=v]`, `-X[v]`.
    Attached,
}

/// What an option means for the structured answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Changes the facts: forwarded verbatim to the git subprocess that computes them.
    Forward,
    /// Presentation only: no effect on a structured answer.
    Ignore,
    /// Asks for git's own output format: pass through.
    Machine,
    /// Understood, but without a structured answer: pass through.
    Unsupported,
    /// `--cached` / `--staged`.
    Cached,
    /// `--merge-base`.
    MergeBase,
    /// `-S` / `-G`.
    Pickaxe(PickaxeKind),
    /// `-L`: `blame`'s lines, `log`'s line range.
    LineRange,
    /// Shapes the hunks only (context lines, function context): honoured in the answer.
    Patch,
    /// `--format` / `--pretty`: for `show`, a header that is only reshaped or suppressed is
    /// honoured; any other format is git's own.
    Format,
    /// `-s` / `--no-patch`: for `show`, the commit without hunks; elsewhere git's own output.
    NoPatch,
    /// `-h`.
    Help,
}

/// One option of a subcommand's grammar.
struct Opt {
    name: &'static str,
    arity: Arity,
    role: Role,
}

const fn o(name: &'static str, arity: Arity, role: Role) -> Opt {
    Opt { name, arity, role }
}

use Arity::{Attached, Flag, Value};
use Role::{Forward, Ignore, Machine, Unsupported};

/// Options of git's diff machinery that change which files or lines count as changed.
const DIFF_FACTS: &[Opt] = &[
    o("-M", Attached, Forward),
    o("--find-renames", Attached, Forward),
    o("-C", Attached, Forward),
    o("--find-copies", Attached, Forward),
    o("--find-copies-harder", Flag, Forward),
    o("--no-renames", Flag, Forward),
    o("-B", Attached, Forward),
    o("--break-rewrites", Attached, Forward),
    o("-l", Attached, Forward),
    o("--rename-empty", Flag, Forward),
    o("--no-rename-empty", Flag, Forward),
    o("-w", Flag, Forward),
    o("--ignore-all-space", Flag, Forward),
    o("-b", Flag, Forward),
    o("--ignore-space-change", Flag, Forward),
    o("--ignore-space-at-eol", Flag, Forward),
    o("--ignore-cr-at-eol", Flag, Forward),
    o("--ignore-blank-lines", Flag, Forward),
    o("-I", Value, Forward),
    o("--ignore-matching-lines", Value, Forward),
    o("--diff-algorithm", Value, Forward),
    o("--histogram", Flag, Forward),
    o("--patience", Flag, Forward),
    o("--minimal", Flag, Forward),
    o("--anchored", Value, Forward),
    o("--indent-heuristic", Flag, Forward),
    o("--no-indent-heuristic", Flag, Forward),
    o("-R", Flag, Forward),
    o("--diff-filter", Value, Forward),
    o("--relative", Attached, Forward),
    o("--no-relative", Flag, Forward),
    o("--ignore-submodules", Attached, Forward),
    o("-a", Flag, Forward),
    o("--text", Flag, Forward),
    o("--ita-invisible-in-index", Flag, Forward),
    o("--ita-visible-in-index", Flag, Forward),
    // The structured path never runs external diff programs or textconv filters anyway.
    o("--no-ext-diff", Flag, Ignore),
    o("--no-textconv", Flag, Ignore),
    o("--ext-diff", Flag, Machine),
    o("--textconv", Flag, Unsupported),
    o("--find-object", Value, Unsupported),
];

/// Options that only change how git's own output looks.
const DIFF_PRESENTATION: &[Opt] = &[
    o("--color", Attached, Ignore),
    o("--no-color", Flag, Ignore),
    o("--color-moved", Attached, Ignore),
    o("--no-color-moved", Flag, Ignore),
    o("--color-moved-ws", Value, Ignore),
    o("--no-color-moved-ws", Flag, Ignore),
    o("--submodule", Attached, Ignore),
    o("-W", Flag, Role::Patch),
    o("--function-context", Flag, Role::Patch),
    o("--no-function-context", Flag, Role::Patch),
    o("--inter-hunk-context", Value, Role::Patch),
    o("--ws-error-highlight", Value, Ignore),
    // How a patch names files and blobs: the answer's hunks carry no such headers.
    o("--full-index", Flag, Ignore),
    o("--abbrev", Attached, Ignore),
    o("--no-prefix", Flag, Ignore),
    o("--default-prefix", Flag, Ignore),
    o("--src-prefix", Value, Ignore),
    o("--dst-prefix", Value, Ignore),
];

/// Options that ask for git's own (machine or patch) output.
const DIFF_MACHINE: &[Opt] = &[
    o("-p", Flag, Machine),
    o("-u", Flag, Machine),
    o("--patch", Flag, Machine),
    o("-U", Attached, Role::Patch),
    o("--unified", Value, Role::Patch),
    o("--raw", Flag, Machine),
    o("--patch-with-raw", Flag, Machine),
    o("--patch-with-stat", Flag, Machine),
    o("--numstat", Flag, Machine),
    o("--shortstat", Flag, Machine),
    o("--stat", Attached, Machine),
    o("--compact-summary", Flag, Machine),
    o("--dirstat", Attached, Machine),
    o("-X", Attached, Machine),
    o("--cumulative", Flag, Machine),
    o("--dirstat-by-file", Attached, Machine),
    o("--summary", Flag, Machine),
    o("--name-only", Flag, Machine),
    o("--name-status", Flag, Machine),
    o("-z", Flag, Machine),
    o("--output", Value, Machine),
    o("--binary", Flag, Machine),
    o("--check", Flag, Machine),
    o("--quiet", Flag, Machine),
    o("--exit-code", Flag, Machine),
    o("--word-diff", Attached, Machine),
    o("--word-diff-regex", Value, Machine),
    o("--color-words", Attached, Machine),
    o("-s", Flag, Role::NoPatch),
    o("--no-patch", Flag, Role::NoPatch),
    o("--line-prefix", Value, Machine),
    o("--output-indicator-new", Value, Machine),
    o("--output-indicator-old", Value, Machine),
    o("--output-indicator-context", Value, Machine),
    o("--stat-width", Value, Machine),
    o("--stat-name-width", Value, Machine),
    o("--stat-graph-width", Value, Machine),
    o("--stat-count", Value, Machine),
    o("--skip-to", Value, Machine),
    o("--rotate-to", Value, Machine),
    o("-h", Flag, Role::Help),
];

/// Options only `git diff` has.
const DIFF_ONLY: &[Opt] = &[
    o("--cached", Flag, Role::Cached),
    o("--staged", Flag, Role::Cached),
    o("--merge-base", Flag, Role::MergeBase),
    o("--no-index", Flag, Unsupported),
    o("-0", Flag, Unsupported),
    o("-1", Flag, Unsupported),
    o("-2", Flag, Unsupported),
    o("-3", Flag, Unsupported),
    o("--base", Flag, Unsupported),
    o("--ours", Flag, Unsupported),
    o("--theirs", Flag, Unsupported),
];

/// Commit-selection options of git's revision walk (`log`).
const LOG_SELECTION: &[Opt] = &[
    o("-n", Value, Forward),
    o("--max-count", Value, Forward),
    o("--skip", Value, Forward),
    o("--since", Value, Forward),
    o("--after", Value, Forward),
    o("--until", Value, Forward),
    o("--before", Value, Forward),
    o("--since-as-filter", Value, Forward),
    o("--author", Value, Forward),
    o("--committer", Value, Forward),
    o("--grep", Value, Forward),
    o("--all-match", Flag, Forward),
    o("--invert-grep", Flag, Forward),
    o("-i", Flag, Forward),
    o("--regexp-ignore-case", Flag, Forward),
    o("--basic-regexp", Flag, Forward),
    o("-E", Flag, Forward),
    o("--extended-regexp", Flag, Forward),
    o("-F", Flag, Forward),
    o("--fixed-strings", Flag, Forward),
    o("-P", Flag, Forward),
    o("--perl-regexp", Flag, Forward),
    o("--merges", Flag, Forward),
    o("--no-merges", Flag, Forward),
    o("--min-parents", Value, Forward),
    o("--max-parents", Value, Forward),
    o("--no-min-parents", Flag, Forward),
    o("--no-max-parents", Flag, Forward),
    o("--first-parent", Flag, Forward),
    o("--exclude-first-parent-only", Flag, Forward),
    o("--not", Flag, Forward),
    o("--all", Flag, Forward),
    o("--branches", Attached, Forward),
    o("--tags", Attached, Forward),
    o("--remotes", Attached, Forward),
    o("--glob", Value, Forward),
    o("--exclude", Value, Forward),
    o("--ancestry-path", Attached, Forward),
    o("--simplify-by-decoration", Flag, Forward),
    o("--full-history", Flag, Forward),
    o("--dense", Flag, Forward),
    o("--sparse", Flag, Forward),
    o("--simplify-merges", Flag, Forward),
    o("--show-pulls", Flag, Forward),
    o("--topo-order", Flag, Forward),
    o("--date-order", Flag, Forward),
    o("--author-date-order", Flag, Forward),
    o("--reverse", Flag, Forward),
    o("--follow", Flag, Forward),
    o("--cherry-pick", Flag, Forward),
    o("--left-only", Flag, Forward),
    o("--right-only", Flag, Forward),
    o("--remove-empty", Flag, Forward),
    o("--pickaxe-regex", Flag, Forward),
    o("--pickaxe-all", Flag, Forward),
    o("-S", Value, Role::Pickaxe(PickaxeKind::Occurrences)),
    o("-G", Value, Role::Pickaxe(PickaxeKind::Regex)),
];

/// How `log` and `show` print commits: ignorable, machine, or without a structured answer.
const LOG_PRESENTATION: &[Opt] = &[
    o("--decorate", Attached, Ignore),
    o("--no-decorate", Flag, Ignore),
    o("--decorate-refs", Value, Ignore),
    o("--decorate-refs-exclude", Value, Ignore),
    o("--clear-decorations", Flag, Ignore),
    o("--abbrev-commit", Flag, Ignore),
    o("--no-abbrev-commit", Flag, Ignore),
    o("--date", Value, Ignore),
    o("--mailmap", Flag, Ignore),
    o("--use-mailmap", Flag, Ignore),
    o("--no-mailmap", Flag, Ignore),
    o("--no-use-mailmap", Flag, Ignore),
    o("--no-notes", Flag, Ignore),
    o("--oneline", Flag, Machine),
    o("--format", Value, Role::Format),
    o("--pretty", Attached, Role::Format),
    o("--graph", Flag, Machine),
    o("--log-size", Flag, Machine),
    o("--parents", Flag, Machine),
    o("--children", Flag, Machine),
    o("--left-right", Flag, Machine),
    o("--boundary", Flag, Machine),
    o("--source", Flag, Machine),
    o("--show-signature", Flag, Machine),
    o("--notes", Attached, Machine),
    o("--show-notes", Attached, Machine),
    o("--cherry-mark", Flag, Machine),
    o("--cherry", Flag, Machine),
    o("--show-linear-break", Attached, Machine),
    o("-m", Flag, Machine),
    o("-c", Flag, Machine),
    o("--cc", Flag, Machine),
    o("--dd", Flag, Machine),
    o("--diff-merges", Value, Machine),
    o("--remerge-diff", Flag, Machine),
    o("--count", Flag, Machine),
    // `log -L` (a line range's history); other subcommands that read this table refuse it.
    o("-L", Value, Role::LineRange),
    o("-g", Flag, Unsupported),
    o("--walk-reflogs", Flag, Unsupported),
    o("--bisect", Flag, Unsupported),
    o("--no-walk", Attached, Unsupported),
    o("--stdin", Flag, Unsupported),
    o("--merge", Flag, Unsupported),
];

/// `git blame`'s options.
const BLAME: &[Opt] = &[
    o("-L", Value, Role::LineRange),
    o("-w", Flag, Forward),
    o("-M", Attached, Forward),
    o("-C", Attached, Forward),
    o("--first-parent", Flag, Forward),
    o("--ignore-rev", Value, Forward),
    o("--ignore-revs-file", Value, Forward),
    o("--minimal", Flag, Forward),
    o("--diff-algorithm", Value, Forward),
    o("--since", Value, Forward),
    o("--contents", Value, Forward),
    o("-c", Flag, Ignore),
    o("-l", Flag, Ignore),
    o("-t", Flag, Ignore),
    o("-s", Flag, Ignore),
    o("-e", Flag, Ignore),
    o("--show-email", Flag, Ignore),
    o("-f", Flag, Ignore),
    o("--show-name", Flag, Ignore),
    o("-n", Flag, Ignore),
    o("--show-number", Flag, Ignore),
    o("-b", Flag, Ignore),
    o("--root", Flag, Ignore),
    o("--date", Value, Ignore),
    o("--abbrev", Attached, Ignore),
    o("--color-lines", Flag, Ignore),
    o("--color-by-age", Flag, Ignore),
    o("--progress", Flag, Ignore),
    o("--no-progress", Flag, Ignore),
    o("-p", Flag, Machine),
    o("--porcelain", Flag, Machine),
    o("--line-porcelain", Flag, Machine),
    o("--incremental", Flag, Machine),
    o("--score-debug", Flag, Machine),
    o("--show-stats", Flag, Machine),
    o("--encoding", Value, Machine),
    o("--reverse", Value, Unsupported),
    o("-S", Value, Unsupported),
    o("-h", Flag, Role::Help),
];

/// One argument of a subcommand's command line, as the scanner sees it.
enum Token<'a> {
    /// A known option, its value, and the tokens it spans (verbatim).
    Option {
        opt: &'static Opt,
        value: Option<&'a OsStr>,
        tokens: &'a [OsString],
    },
    /// A positional argument (revision or path, before `--`).
    Positional(&'a OsString),
    /// `--`: everything after it is a path.
    Separator(&'a [OsString]),
    /// `-<n>`: `log`'s short form of `--max-count`.
    Count(&'a OsString),
}

/// Walks a subcommand's arguments with a grammar made of option tables.
struct Scanner<'a> {
    args: &'a [OsString],
    pos: usize,
    tables: &'static [&'static [Opt]],
    end_of_options: bool,
    counts: bool,
}

impl<'a> Scanner<'a> {
    fn new(args: &'a [OsString], tables: &'static [&'static [Opt]]) -> Self {
        Scanner {
            args,
            pos: 0,
            tables,
            end_of_options: false,
            counts: false,
        }
    }

    fn lookup(&self, name: &[u8]) -> Option<&'static Opt> {
        self.tables
            .iter()
            .flat_map(|t| t.iter())
            .find(|opt| opt.name.as_bytes() == name)
    }

    fn next_token(&mut self) -> Option<Result<Token<'a>, Reason>> {
        let arg = self.args.get(self.pos)?;
        let bytes = arg.as_bytes();
        if bytes == b"--" {
            let rest = &self.args[self.pos + 1..];
            self.pos = self.args.len();
            return Some(Ok(Token::Separator(rest)));
        }
        if self.end_of_options || !bytes.starts_with(b"-") || bytes == b"-" {
            self.pos += 1;
            return Some(Ok(Token::Positional(arg)));
        }
        if bytes == b"--end-of-options" {
            self.end_of_options = true;
            self.pos += 1;
            return self.next_token();
        }
        if self.counts && bytes.len() > 1 && bytes[1..].iter().all(u8::is_ascii_digit) {
            self.pos += 1;
            return Some(Ok(Token::Count(arg)));
        }
        Some(self.option(arg, bytes))
    }

    fn option(&mut self, arg: &'a OsString, bytes: &'a [u8]) -> Result<Token<'a>, Reason> {
        let start = self.pos;
        let unknown = || Reason::UnknownOption(lossy(arg));
        let (opt, value): (&'static Opt, Option<&'a [u8]>) = if bytes.starts_with(b"--") {
            let (name, inline) = split_long(bytes);
            let opt = self.lookup(name).ok_or_else(unknown)?;
            match (opt.arity, inline) {
                (Flag, Some(_)) => return Err(unknown()),
                (Value, None) => {
                    let next = self
                        .args
                        .get(start + 1)
                        .ok_or_else(|| Reason::MissingValue(lossy(arg)))?;
                    self.pos += 1;
                    (opt, Some(next.as_bytes()))
                }
                (_, inline) => (opt, inline),
            }
        } else {
            let opt = self.lookup(&bytes[..2]).ok_or_else(unknown)?;
            let attached = &bytes[2..];
            match opt.arity {
                // A bundle of short flags (`-wb`) is outside the grammar.
                Flag if !attached.is_empty() => return Err(unknown()),
                Flag => (opt, None),
                Value if attached.is_empty() => {
                    let next = self
                        .args
                        .get(start + 1)
                        .ok_or_else(|| Reason::MissingValue(lossy(arg)))?;
                    self.pos += 1;
                    (opt, Some(next.as_bytes()))
                }
                Value | Attached => (opt, Some(attached).filter(|a| !a.is_empty())),
            }
        };
        self.pos += 1;
        Ok(Token::Option {
            opt,
            value: value.map(OsStr::from_bytes),
            tokens: &self.args[start..self.pos],
        })
    }
}

/// Handles the roles every subcommand treats alike; returns `Ok(true)` when the option's tokens
/// should be forwarded.
fn common_role(opt: &Opt) -> Result<bool, Reason> {
    match opt.role {
        Forward => Ok(true),
        Ignore => Ok(false),
        Machine => Err(Reason::MachineFormat(opt.name.to_owned())),
        Unsupported => Err(Reason::Unsupported(format!(
            "`{}` has no structured answer",
            opt.name
        ))),
        Role::Help => Err(Reason::Informational(opt.name.to_owned())),
        Role::Format | Role::NoPatch => Err(Reason::MachineFormat(opt.name.to_owned())),
        Role::Cached | Role::MergeBase | Role::Pickaxe(_) | Role::LineRange | Role::Patch => {
            Err(Reason::UnknownOption(opt.name.to_owned()))
        }
    }
}

/// Parses the arguments of `git diff` (after the subcommand).
pub fn parse_diff(args: &[OsString]) -> Result<Diff, Reason> {
    const TABLES: &[&[Opt]] = &[DIFF_ONLY, DIFF_FACTS, DIFF_PRESENTATION, DIFF_MACHINE];
    let mut diff = Diff::default();
    let mut scanner = Scanner::new(args, TABLES);
    while let Some(token) = scanner.next_token() {
        match token? {
            Token::Option { opt, value, tokens } => match opt.role {
                Role::Cached => diff.cached = true,
                Role::MergeBase => diff.merge_base = true,
                Role::Patch => {
                    patch_value(opt, value)?;
                    diff.patch.extend_from_slice(tokens);
                }
                _ => {
                    if common_role(opt)? {
                        diff.options.extend_from_slice(tokens);
                    }
                }
            },
            Token::Positional(arg) => diff.positional.push(arg.clone()),
            Token::Separator(rest) => {
                diff.separator = true;
                diff.paths = rest.to_vec();
            }
            Token::Count(arg) => return Err(Reason::UnknownOption(lossy(arg))),
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
    const TABLES: &[&[Opt]] = &[
        LOG_SELECTION,
        DIFF_FACTS,
        LOG_PRESENTATION,
        DIFF_PRESENTATION,
        DIFF_MACHINE,
    ];
    let mut log = Log::default();
    let mut scanner = Scanner::new(args, TABLES);
    scanner.counts = true;
    while let Some(token) = scanner.next_token() {
        match token? {
            Token::Option { opt, value, tokens } => match opt.role {
                Role::Pickaxe(kind) => {
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
                    log.args.extend_from_slice(tokens);
                }
                Role::LineRange => {
                    let value = value.ok_or_else(|| Reason::MissingValue(opt.name.to_owned()))?;
                    let range = line_range(value).ok_or_else(|| {
                        Reason::Unsupported(format!(
                            "`-L {}` has no structured answer",
                            lossy(value)
                        ))
                    })?;
                    log.line_ranges.push(range);
                    log.args.extend_from_slice(tokens);
                }
                // Without `-p` (git's own output) they change nothing `log` prints.
                Role::Patch => {}
                _ => {
                    if common_role(opt)? {
                        log.args.extend_from_slice(tokens);
                    }
                }
            },
            Token::Positional(arg) | Token::Count(arg) => log.args.push(arg.clone()),
            Token::Separator(rest) => {
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
    /// `show`'s own: a merge shown against its first parent is what the answer always gives.
    const SHOW_ONLY: &[Opt] = &[o("--first-parent", Flag, Ignore)];
    const TABLES: &[&[Opt]] = &[
        DIFF_FACTS,
        LOG_PRESENTATION,
        DIFF_PRESENTATION,
        DIFF_MACHINE,
        SHOW_ONLY,
    ];
    let mut show = Show::default();
    let mut scanner = Scanner::new(args, TABLES);
    while let Some(token) = scanner.next_token() {
        match token? {
            Token::Option { opt, value, tokens } => match opt.role {
                Role::Patch => {
                    patch_value(opt, value)?;
                    show.patch.extend_from_slice(tokens);
                }
                Role::NoPatch => show.no_patch = true,
                Role::Format => match header_format(value) {
                    Some(suppressed) => show.no_header = suppressed,
                    None => return Err(Reason::MachineFormat(lossy(tokens[0].as_os_str()))),
                },
                _ => {
                    if common_role(opt)? {
                        show.options.extend_from_slice(tokens);
                    }
                }
            },
            Token::Positional(arg) => {
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
            Token::Separator(rest) => show.paths = rest.to_vec(),
            Token::Count(arg) => return Err(Reason::UnknownOption(lossy(arg))),
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
    const TABLES: &[&[Opt]] = &[BLAME];
    let mut blame = Blame::default();
    let mut positional = Vec::new();
    let mut after = None;
    let mut scanner = Scanner::new(args, TABLES);
    while let Some(token) = scanner.next_token() {
        match token? {
            Token::Option { opt, value, tokens } => {
                if opt.role == Role::LineRange {
                    let range = value.ok_or_else(|| Reason::MissingValue(opt.name.to_owned()))?;
                    blame.line_ranges.push(range.to_owned());
                    blame.options.extend_from_slice(tokens);
                } else if common_role(opt)? {
                    blame.options.extend_from_slice(tokens);
                }
            }
            Token::Positional(arg) => positional.push(arg.clone()),
            Token::Separator(rest) => after = Some(rest),
            Token::Count(arg) => return Err(Reason::UnknownOption(lossy(arg))),
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

#[cfg(test)]
mod tests;
