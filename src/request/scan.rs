//! The one scanner of a subcommand's command line, over the one model of its options
//! ([`super::table`]). It reads words as git's parse-options does (and, in the [`Dialect::Gh`]
//! dialect, as gh's pflag does):
//!
//! - `--name=value`; `--name value` for an option that takes a value, whatever the next word
//!   looks like; an optional value only attached (`--abbrev=7`, `-M50`);
//! - `-xvalue` and `-x value`; a cluster of short flags `-abc`, whose first option that takes a
//!   value takes the rest of the word (in gh's dialect without a leading `=`);
//! - `--` ends the options: every word after it is a path ([`Token::Separator`]);
//!   `--end-of-options` makes every later word but `--` a positional;
//! - for `log`, `-<n>` is a count ([`Token::Count`]).
//!
//! **Strict** ([`strict`]), for the answer path: a word the model does not list, a flag given
//! a value, a cluster of short flags, or an option without its value is a [`Reason`] (git
//! answers itself). **Lenient** ([`lenient`]), for the session guard: nothing is refused; such
//! a word makes the line [`Line::uncertain`] (which words are values is then unknown), and the
//! guard treats an uncertain line as what it cannot see into.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;

use super::Reason;
use super::table::{self, Group, Means, Opt, Takes};

/// How words are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// git's parse-options.
    Git,
    /// gh's pflag: `-R=o/r` is `-R o/r`, and an option the model does not list takes no value.
    Gh,
}

/// One word (or one option of a cluster) of a command line, as the scanner read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// An option: its name as written (`--format`, or `-x` for each option of a cluster), what
    /// the model says of it (`None`: it does not list it), its value, and the words it spans.
    Option {
        /// Its name as written, without a value.
        name: Vec<u8>,
        /// The model's option, when it lists one by that name.
        opt: Option<Opt>,
        /// Its value, attached or the next word.
        value: Option<&'a OsStr>,
        /// The words it spans, verbatim (a cluster's options each span the whole word).
        words: &'a [OsString],
    },
    /// A word that is not an option (before `--`).
    Positional(&'a OsString),
    /// `--` and the words after it, every one a path.
    Separator(&'a [OsString]),
    /// `-<n>`: `log`'s short form of `--max-count`.
    Count(&'a OsString),
}

impl Token<'_> {
    /// What the model says the option means, for an option it lists.
    pub fn means(&self) -> Option<Means> {
        match self {
            Token::Option { opt: Some(o), .. } => Some(o.means),
            _ => None,
        }
    }
}

/// How a scan goes.
#[derive(Clone, Copy, Debug)]
struct Rules {
    strict: bool,
    counts: bool,
    dialect: Dialect,
}

/// Reads `args` strictly with `groups`: the tokens in order, the last an error when the line
/// leaves the model there (the words before it are read, so that what they ask is reported
/// first). `counts` reads `-<n>` as a count (`log`).
pub fn strict<'a>(
    args: &'a [OsString],
    groups: &[&'static [Group]],
    counts: bool,
    dialect: Dialect,
) -> Vec<Result<Token<'a>, Reason>> {
    let rules = Rules {
        strict: true,
        counts,
        dialect,
    };
    let scanned = scan(args, groups, rules);
    let mut out: Vec<Result<Token<'a>, Reason>> = scanned.tokens.into_iter().map(Ok).collect();
    out.extend(scanned.error.map(Err));
    out
}

/// Reads `args` leniently with `groups`: never refused, perhaps [`Line::uncertain`].
pub fn lenient<'a>(
    args: &'a [OsString],
    groups: &[&'static [Group]],
    dialect: Dialect,
) -> Line<'a> {
    let rules = Rules {
        strict: false,
        counts: false,
        dialect,
    };
    let scanned = scan(args, groups, rules);
    Line {
        tokens: scanned.tokens,
        // A lenient scan refuses nothing (an error is a bug: the line is then uncertain).
        uncertain: scanned.uncertain || scanned.error.is_some(),
    }
}

/// A command line read leniently.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line<'a> {
    /// The tokens, in order.
    pub tokens: Vec<Token<'a>>,
    /// Whether an option the model does not list (or a flag given a value) was met: after it,
    /// which words are values is unknown.
    pub uncertain: bool,
}

impl<'a> Line<'a> {
    /// The options, in order.
    pub fn options(&self) -> impl Iterator<Item = &Token<'a>> {
        self.tokens
            .iter()
            .filter(|t| matches!(t, Token::Option { .. }))
    }

    /// The positional words, in order: those before `--`, then those after it.
    pub fn positionals(&self) -> impl Iterator<Item = &'a OsString> + '_ {
        self.tokens.iter().flat_map(|t| -> &'a [OsString] {
            match t {
                Token::Positional(p) | Token::Count(p) => std::slice::from_ref(*p),
                Token::Separator(rest) => rest,
                Token::Option { .. } => &[],
            }
        })
    }

    /// Whether an option that means `means` was given.
    pub fn has(&self, means: Means) -> bool {
        self.options().any(|t| t.means() == Some(means))
    }

    /// The name (as written) of the first option that means `means`.
    pub fn first(&self, means: Means) -> Option<String> {
        self.tokens.iter().find_map(|t| match t {
            Token::Option {
                name, opt: Some(o), ..
            } if o.means == means => Some(String::from_utf8_lossy(name).into_owned()),
            _ => None,
        })
    }

    /// Whether every option means one of `allowed`, and the line is certain.
    pub fn only(&self, allowed: &[Means]) -> bool {
        !self.uncertain
            && self
                .options()
                .all(|t| t.means().is_some_and(|m| allowed.contains(&m)))
    }

    /// Every value given to an option that means `means`, in order.
    pub fn values(&self, means: Means) -> impl Iterator<Item = (&str, &'a OsStr)> + '_ {
        self.tokens.iter().filter_map(move |t| match t {
            Token::Option {
                opt: Some(o),
                value: Some(v),
                ..
            } if o.means == means => Some((o.name, *v)),
            _ => None,
        })
    }

    /// The last value given to an option that means `means`.
    pub fn value(&self, means: Means) -> Option<&'a OsStr> {
        self.values(means).last().map(|(_, v)| v)
    }
}

/// What the one scan read.
struct Scanned<'a> {
    tokens: Vec<Token<'a>>,
    uncertain: bool,
    /// Where a strict scan stopped.
    error: Option<Reason>,
}

/// The one scan: every token, up to an error (in strict mode only).
fn scan<'a>(args: &'a [OsString], groups: &[&'static [Group]], rules: Rules) -> Scanned<'a> {
    let mut tokens = Vec::new();
    let mut uncertain = false;
    let mut end_of_options = false;
    let mut pos = 0;
    while let Some(arg) = args.get(pos) {
        let bytes = arg.as_bytes();
        if bytes == b"--" {
            tokens.push(Token::Separator(&args[pos + 1..]));
            break;
        }
        if end_of_options || !bytes.starts_with(b"-") || bytes == b"-" {
            tokens.push(Token::Positional(arg));
            pos += 1;
            continue;
        }
        if bytes == b"--end-of-options" {
            end_of_options = true;
            pos += 1;
            continue;
        }
        if rules.counts && bytes[1..].iter().all(u8::is_ascii_digit) {
            tokens.push(Token::Count(arg));
            pos += 1;
            continue;
        }
        let read = if bytes.starts_with(b"--") {
            long(args, pos, groups, rules)
        } else {
            short(args, pos, groups, rules)
        };
        let read = match read {
            Ok(read) => read,
            Err(error) => {
                return Scanned {
                    tokens,
                    uncertain,
                    error: Some(error),
                };
            }
        };
        uncertain |= read.uncertain;
        tokens.extend(read.tokens);
        pos = read.next;
    }
    Scanned {
        tokens,
        uncertain,
        error: None,
    }
}

/// What one word (and the value it took) read as.
struct Read<'a> {
    tokens: Vec<Token<'a>>,
    uncertain: bool,
    /// The word after those it spans.
    next: usize,
}

/// The next word as a value: `Err` in strict mode when there is none.
fn next_value(args: &[OsString], pos: usize, rules: Rules) -> Result<Option<&OsStr>, Reason> {
    match args.get(pos + 1) {
        Some(v) => Ok(Some(v.as_os_str())),
        None if rules.strict => Err(Reason::MissingValue(lossy(&args[pos]))),
        None => Ok(None),
    }
}

/// `--name`, `--name=value`, `--name value`.
fn long<'a>(
    args: &'a [OsString],
    pos: usize,
    groups: &[&'static [Group]],
    rules: Rules,
) -> Result<Read<'a>, Reason> {
    let arg = &args[pos];
    let bytes = arg.as_bytes();
    let (name, inline) = match bytes.iter().position(|b| *b == b'=') {
        Some(eq) => (&bytes[..eq], Some(OsStr::from_bytes(&bytes[eq + 1..]))),
        None => (bytes, None),
    };
    let opt = table::find(groups, name);
    let unknown = || Reason::UnknownOption(lossy(arg));
    let mut uncertain = false;
    let (value, next) = match (opt.map(|o| o.takes), inline) {
        (Some(Takes::Value), None) => (next_value(args, pos, rules)?, pos + 2),
        (Some(Takes::Flag), Some(_)) if rules.strict => return Err(unknown()),
        (Some(Takes::Flag), Some(_)) => {
            uncertain = true;
            (None, pos + 1)
        }
        (Some(_), inline) => (inline, pos + 1),
        (None, _) if rules.strict => return Err(unknown()),
        (None, inline) => {
            // gh's pflag fails on an unknown flag rather than guess; git's parse-options may
            // take a prefix of one: which words are values is unknown.
            uncertain = rules.dialect == Dialect::Git;
            (inline, pos + 1)
        }
    };
    let next = next.min(args.len());
    Ok(Read {
        tokens: vec![Token::Option {
            name: name.to_vec(),
            opt,
            value,
            words: &args[pos..next],
        }],
        uncertain,
        next,
    })
}

/// `-x`, `-xvalue`, `-x value`, and clusters `-abc`.
fn short<'a>(
    args: &'a [OsString],
    pos: usize,
    groups: &[&'static [Group]],
    rules: Rules,
) -> Result<Read<'a>, Reason> {
    let arg = &args[pos];
    let bytes = arg.as_bytes();
    let unknown = || Reason::UnknownOption(lossy(arg));
    let mut read = Read {
        tokens: Vec::new(),
        uncertain: false,
        next: pos + 1,
    };
    let mut k = 1;
    while k < bytes.len() {
        let name = [b'-', bytes[k]];
        let mut rest = &bytes[k + 1..];
        if rules.dialect == Dialect::Gh {
            rest = rest.strip_prefix(b"=").unwrap_or(rest);
        }
        let Some(opt) = table::find(groups, &name) else {
            if rules.strict {
                return Err(unknown());
            }
            if rules.dialect == Dialect::Gh {
                // An unknown short flag of gh's: a flag, the cluster goes on.
                read.tokens
                    .push(option(&name, None, None, &args[pos..=pos]));
                k += 1;
                continue;
            }
            // `-5` for a count, or a letter the model does not list.
            read.uncertain = true;
            read.tokens
                .push(option(&bytes[k..], None, None, &args[pos..=pos]));
            break;
        };
        match opt.takes {
            // A cluster of short flags (`-wb`) is outside the strict grammar.
            Takes::Flag if rules.strict && !rest.is_empty() => return Err(unknown()),
            Takes::Flag => {
                read.tokens
                    .push(option(&name, Some(opt), None, &args[pos..=pos]));
                k += 1;
            }
            Takes::Value if rest.is_empty() => {
                let value = next_value(args, pos, rules)?;
                read.next = (pos + 2).min(args.len());
                read.tokens
                    .push(option(&name, Some(opt), value, &args[pos..read.next]));
                break;
            }
            Takes::Value | Takes::Attached => {
                let value = (!rest.is_empty()).then(|| OsStr::from_bytes(rest));
                read.tokens
                    .push(option(&name, Some(opt), value, &args[pos..=pos]));
                break;
            }
        }
    }
    Ok(read)
}

fn option<'a>(
    name: &[u8],
    opt: Option<Opt>,
    value: Option<&'a OsStr>,
    words: &'a [OsString],
) -> Token<'a> {
    Token::Option {
        name: name.to_vec(),
        opt,
        value,
        words,
    }
}

fn lossy(s: &OsStr) -> String {
    s.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const GROUPS: &[Group] = &[
        (Means::Forward, "-n= --format= -M? --stat? -a -b"),
        (Means::Reads, "--[no-]color"),
    ];

    fn argv(line: &str) -> Vec<OsString> {
        line.split_whitespace().map(OsString::from).collect()
    }

    fn names(line: &Line) -> Vec<String> {
        line.options()
            .map(|t| match t {
                Token::Option { name, value, .. } => format!(
                    "{}{}",
                    String::from_utf8_lossy(name),
                    value.map_or_else(String::new, |v| format!("={}", v.to_string_lossy()))
                ),
                _ => unreachable!(),
            })
            .collect()
    }

    #[test]
    fn values_attached_or_next_whatever_it_looks_like() {
        let args = argv("--format --stat -n5 -M -M30 --stat=4 -ab x");
        let line = lenient(&args, &[GROUPS], Dialect::Git);
        assert_eq!(
            names(&line),
            [
                "--format=--stat",
                "-n=5",
                "-M",
                "-M=30",
                "--stat=4",
                "-a",
                "-b"
            ]
        );
        assert!(!line.uncertain);
        assert_eq!(line.positionals().count(), 1);
    }

    #[test]
    fn negations_and_separators() {
        let args = argv("--no-color -- --format x");
        let line = lenient(&args, &[GROUPS], Dialect::Git);
        assert!(line.has(Means::Reads));
        assert_eq!(line.positionals().count(), 2);
        let args = argv("--end-of-options --format -- y");
        let line = lenient(&args, &[GROUPS], Dialect::Git);
        assert_eq!(line.positionals().count(), 2);
        assert!(line.options().next().is_none());
    }

    #[test]
    fn lenient_marks_what_it_cannot_read() {
        for l in [
            "--frob x",
            "-z",
            "-a5",
            "--stat-count=3",
            "-ab=1 --no-format",
        ] {
            let args = argv(l);
            assert!(lenient(&args, &[GROUPS], Dialect::Git).uncertain, "{l}");
        }
        let args = argv("-a=1");
        assert!(lenient(&args, &[GROUPS], Dialect::Git).uncertain);
    }

    #[test]
    fn strict_refuses_what_lenient_marks() {
        for l in [
            "--frob",
            "-ab",
            "-n",
            "--format",
            "-a=1",
            "--no-format",
            "-5",
        ] {
            let args = argv(l);
            let tokens = strict(&args, &[GROUPS], false, Dialect::Git);
            assert!(tokens.last().is_some_and(Result::is_err), "{l}");
        }
        let args = argv("-5 -n 3");
        let tokens: Vec<Token> = strict(&args, &[GROUPS], true, Dialect::Git)
            .into_iter()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(matches!(tokens[0], Token::Count(_)));
        assert_eq!(
            tokens[1],
            Token::Option {
                name: b"-n".to_vec(),
                opt: table::find(&[GROUPS], b"-n"),
                value: Some(OsStr::new("3")),
                words: &args[1..3],
            }
        );
    }

    #[test]
    fn gh_dialect() {
        const GH: &[Group] = &[(Means::Repo, "-R= --repo="), (Means::Method, "-X=")];
        let args = argv("-iXPOST -R=o/r --web x");
        let line = lenient(&args, &[GH], Dialect::Gh);
        assert_eq!(line.value(Means::Method), Some(OsStr::new("POST")));
        assert_eq!(line.value(Means::Repo), Some(OsStr::new("o/r")));
        assert!(!line.uncertain);
        assert_eq!(line.positionals().count(), 1);
    }

    /// With the model of real commands: values are taken as git takes them.
    #[test]
    fn real_grammars() {
        let read = |cmd: &str, line: &str| {
            let args = argv(line);
            let cmd = table::command(cmd).unwrap();
            let groups = table::grammar(cmd, args.first().map(|a| a.as_bytes()));
            let line = lenient(&args, &groups, Dialect::Git);
            (names(&line), line.positionals().count(), line.uncertain)
        };
        assert_eq!(
            read("branch", "--format --list x"),
            (vec!["--format=--list".into()], 1, false)
        );
        assert_eq!(
            read("tag", "-n5 -l"),
            (vec!["-n=5".into(), "-l".into()], 0, false)
        );
        assert_eq!(read("branch", "-vv --contains HEAD").1, 0);
        assert_eq!(
            read("branch", "-uorigin/main x"),
            (vec!["-u=origin/main".into()], 1, false)
        );
        assert!(
            read("branch", "--set-upstream-t=main").2,
            "a prefix is not a known option"
        );
        assert_eq!(read("push", "origin -- --tags").1, 2);
        assert_eq!(read("config", "get --url=u x").0, ["--url=u"]);
    }
}
