//! A git subcommand and its words, weighed with the model ([`crate::request::table`]): each
//! step below reads one column of a subcommand's row, in the order the guard needs them.
//!
//! 1. [`runs_program`]: an option that runs a program of the caller's choosing, in any word
//!    ([`table::ANYWHERE`], the command's own [`Means::Program`]), a transport that runs one,
//!    or a form of the command that runs one (`bisect run`, `submodule foreach`);
//! 2. the command's [`Kind`]: programs, sending, pushing elsewhere;
//! 3. [`targets`]: files and directories written outside the repository;
//! 4. a push, a clone, an `init`, a `worktree add`: their own readers;
//! 5. [`network`], then whether it only [`reads`], then what it [`moves`].
//!
//! A word that is not a command the model knows is an alias for the guard to resolve.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;

use super::super::scan::{self, Dialect, Line};
use super::super::table::{self, Cmd, Commits, Group, Kind, Means, Network, Reading};
use super::address::{clone_dir, is_local_address, runs_transport};
use super::config::{self, setting_of};
use super::{CommitTakes, Effect, Moves, Outline, Push, Target, TargetKind};

/// Classifies a subcommand and its arguments.
pub(super) fn subcommand(sub: &OsStr, rest: &[OsString]) -> Outline {
    let name = sub.to_string_lossy().into_owned();
    let cmd = table::command(&name).filter(|c| !c.name.contains(' '));
    let first = rest.first().map(|a| a.as_bytes());
    let groups = cmd.map_or_else(Vec::new, |c| table::grammar(c, first));
    let mut out = Outline::empty();
    if runs_program(cmd, &groups, rest) {
        return out.with(Effect::Unknown(format!(
            "`git {name}` with these options runs a program"
        )));
    }
    if let Some(effect) = cmd.and_then(|c| by_kind(c, &mut out)) {
        return out.with(effect);
    }
    if let Err(why) = targets(cmd, &groups, rest, &mut out) {
        return out.with(Effect::Unknown(format!("{why} writes a file")));
    }
    let Some(cmd) = cmd else {
        return out.with(Effect::Alias {
            name,
            rest: rest.to_vec(),
        });
    };
    // A subcommand's own word (`config get`) is the line's first positional.
    let line = scan::lenient(rest, &groups, Dialect::Git);
    match cmd.kind {
        Kind::Push => {
            out.network = true;
            return out.with(Effect::Push(super::push::push(&line)));
        }
        Kind::Clone => return clone(&line, out),
        Kind::Init => return init(&line, out),
        _ => {}
    }
    if cmd.name == "worktree" && first == Some(b"add") {
        return worktree_add(&line, out);
    }
    out.network = network(cmd, &groups, rest);
    out.locks_index = cmd.locks_index;
    if reads(cmd, rest, &line) {
        return out.with(Effect::Read);
    }
    if line.has(Means::Elsewhere) {
        // Another file than this repository's configuration: whose, this guard cannot tell.
        return out.with(Effect::Unknown(
            "`git config` writing another file than the repository's".into(),
        ));
    }
    if line.has(Means::Editor) {
        return out.with(Effect::Unknown(
            "`git config` with an editor or a renamed section can write any setting".into(),
        ));
    }
    out.moves = moves(cmd, &line);
    if cmd.name == "config" {
        out.settings = config::writes(&line);
    }
    out.with(Effect::Local(name))
}

/// Whether the command line runs a program of the caller's choosing.
fn runs_program(cmd: Option<&Cmd>, groups: &[&'static [Group]], rest: &[OsString]) -> bool {
    if table::named_anywhere(rest, &[table::ANYWHERE], Means::Program).is_some() {
        return true;
    }
    let Some(cmd) = cmd else {
        return false;
    };
    let first = rest.first().map(|a| a.as_bytes());
    table::named_anywhere(rest, groups, Means::Program).is_some()
        || program_path(rest, groups)
        || (cmd.addresses && rest.iter().any(|a| runs_transport(a.as_bytes())))
        || match cmd.name {
            "bisect" => {
                first == Some(b"run")
                    || (matches!(first, Some(b"view" | b"visualize")) && rest.len() > 1)
            }
            "submodule" => first == Some(b"foreach"),
            _ => false,
        }
}

/// Whether an option that runs a program when its value is a path is given one
/// (`--smtp-server=/usr/bin/msmtp`, or the path as the next word), however abbreviated.
fn program_path(rest: &[OsString], groups: &[&'static [Group]]) -> bool {
    let names = table::names(groups, Means::ProgramIfPath);
    rest.iter().enumerate().any(|(i, a)| {
        let b = a.as_bytes();
        names.iter().any(|n| {
            if !table::abbreviates(b, n) {
                return false;
            }
            match b.iter().position(|c| *c == b'=') {
                Some(eq) => b[eq + 1..].starts_with(b"/"),
                None => rest
                    .get(i + 1)
                    .is_some_and(|v| v.as_bytes().starts_with(b"/")),
            }
        })
    })
}

/// What a command of a kind of its own does, before its options are read.
fn by_kind(cmd: &Cmd, out: &mut Outline) -> Option<Effect> {
    let what = format!("`git {}`", cmd.name);
    match cmd.kind {
        Kind::Runs => Some(Effect::Unknown(format!("{what} runs programs"))),
        Kind::Sends => {
            out.network = true;
            Some(Effect::Send(what))
        }
        Kind::Elsewhere => {
            out.network = cmd.network == Network::Always;
            Some(Effect::Push(Push {
                unplaceable: Some(what),
                ..Push::default()
            }))
        }
        Kind::Git | Kind::Push | Kind::Clone | Kind::Init => None,
    }
}

/// The files and directories the command line writes outside the repository: `Err` for an
/// abbreviation of an option that names one, whose value cannot be placed.
fn targets(
    cmd: Option<&Cmd>,
    groups: &[&'static [Group]],
    rest: &[OsString],
    out: &mut Outline,
) -> Result<(), String> {
    // `--output` and `--output-directory`, whatever the command: found word by word.
    for (means, text) in table::OUTPUT {
        for (option, _) in table::spelled(text) {
            for path in output_option(rest, option)? {
                out.targets.push(target(path, kind_of(*means), option));
            }
        }
    }
    let Some(cmd) = cmd else {
        return Ok(());
    };
    let words = match cmd.name {
        "bundle" if rest.first().is_some_and(|w| w == "create") => &rest[1..],
        _ => rest,
    };
    abbreviated_target(words, groups)?;
    let line = scan::lenient(words, groups, Dialect::Git);
    for means in [Means::File, Means::Dir, Means::Prefix] {
        for (option, value) in line.values(means) {
            let path = if means == Means::Prefix {
                prefix_dir(value)
            } else {
                value.to_owned()
            };
            out.targets.push(target(path, kind_of(means), option));
        }
    }
    match cmd.name {
        "bundle" if words.len() < rest.len() => {
            if let Some(file) = line.positionals().next() {
                out.targets
                    .push(target(file.clone(), TargetKind::File, "bundle create"));
            }
        }
        // The first file is written in place, unless the result goes to stdout.
        "merge-file" if table::named_anywhere(rest, groups, Means::Mode).is_none() => {
            if let Some(file) = line.positionals().next() {
                out.targets
                    .push(target(file.clone(), TargetKind::File, "merge-file"));
            }
        }
        _ => {}
    }
    Ok(())
}

/// `Err` for a word before `--` that abbreviates an option naming a file or directory
/// (`read-tree --index-out=x`): git takes it, and its value would not be placed.
fn abbreviated_target(words: &[OsString], groups: &[&'static [Group]]) -> Result<(), String> {
    let options: Vec<String> = [Means::File, Means::Dir, Means::Prefix]
        .into_iter()
        .flat_map(|m| table::names(groups, m))
        .filter(|n| n.starts_with("--"))
        .collect();
    for word in words.iter().take_while(|w| *w != "--") {
        let b = word.as_bytes();
        let name = b.split(|c| *c == b'=').next().unwrap_or(b);
        if table::find(groups, name).is_some() {
            continue;
        }
        if let Some(option) = options.iter().find(|o| table::abbreviates(b, o)) {
            return Err(format!(
                "`{}` (an abbreviation of {option})",
                word.to_string_lossy()
            ));
        }
    }
    Ok(())
}

fn kind_of(means: Means) -> TargetKind {
    match means {
        Means::Dir | Means::Prefix => TargetKind::Dir,
        _ => TargetKind::File,
    }
}

fn target(path: OsString, kind: TargetKind, named_by: &str) -> Target {
    Target {
        path,
        kind,
        named_by: named_by.to_owned(),
    }
}

/// The directory `checkout-index --prefix=<p>` writes into: `<p>` itself when it ends with a
/// `/`, else its parent (the prefix is a prefix of file names).
fn prefix_dir(value: &OsStr) -> OsString {
    if value.as_bytes().ends_with(b"/") {
        return value.to_owned();
    }
    std::path::Path::new(value)
        .parent()
        .map(|p| p.as_os_str().to_owned())
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| OsString::from("."))
}

/// The values of the file-writing option `option` (`--output`, `--output-directory`) however
/// it is spelled, word by word up to `--`: `Err` for an abbreviation (git takes unique
/// prefixes for some commands, whose value this reading would then misplace).
fn output_option(rest: &[OsString], option: &str) -> Result<Vec<OsString>, String> {
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(a) = rest.get(i) {
        i += 1;
        let b = a.as_bytes();
        if b == b"--" {
            break;
        }
        let (name, inline) = match b.iter().position(|c| *c == b'=') {
            Some(eq) => (&b[..eq], Some(&b[eq + 1..])),
            None => (b, None),
        };
        let exact = table::OUTPUT
            .iter()
            .flat_map(|(_, t)| table::spelled(t))
            .any(|(n, _)| n.as_bytes() == name);
        if name == option.as_bytes() {
            match inline {
                Some(v) => found.push(OsStr::from_bytes(v).to_owned()),
                None => {
                    found.extend(rest.get(i).cloned());
                    i += 1;
                }
            }
        } else if !exact && table::abbreviates(b, option) {
            return Err(format!(
                "`{}` (an abbreviation of {option})",
                a.to_string_lossy()
            ));
        }
    }
    Ok(found)
}

/// `git clone`: a new repository where its words say, with the settings it runs with.
fn clone(line: &Line, mut out: Outline) -> Outline {
    if line.uncertain {
        return out.with(Effect::Unknown(
            "`git clone` with an option this guard does not know".into(),
        ));
    }
    let mut positionals = line.positionals();
    let url = positionals.next().cloned().unwrap_or_default();
    let dir = positionals
        .next()
        .cloned()
        .unwrap_or_else(|| clone_dir(url.as_bytes(), line.has(Means::Bare)));
    out.network = !is_local_address(url.as_bytes());
    // clone's own `-c` settings take effect during the clone: held like global ones.
    for (_, v) in line.values(Means::Setting) {
        out.place.config.push(setting_of(v));
    }
    out.targets
        .push(target(dir, TargetKind::Repository, "clone"));
    out.with(Effect::NewRepository)
}

/// `git init [<dir>]`.
fn init(line: &Line, mut out: Outline) -> Outline {
    if line.uncertain {
        return out.with(Effect::Unknown(
            "`git init` with an option this guard does not know".into(),
        ));
    }
    let dir = line.positionals().last().cloned();
    out.targets.push(target(
        dir.clone().unwrap_or_else(|| OsString::from(".")),
        TargetKind::Repository,
        "init",
    ));
    out.with(Effect::Init { dir })
}

/// `git worktree add [<options>] <path> [<commit>]`.
fn worktree_add(line: &Line, mut out: Outline) -> Outline {
    if line.uncertain {
        return out.with(Effect::Unknown(
            "`git worktree add` with an option this guard does not know".into(),
        ));
    }
    // The first positional is `add` itself.
    if let Some(path) = line.positionals().nth(1) {
        out.targets
            .push(target(path.clone(), TargetKind::Repository, "worktree add"));
    }
    out.with(Effect::Local("worktree add".into()))
}

/// Whether the command line contacts another machine.
fn network(cmd: &Cmd, groups: &[&'static [Group]], rest: &[OsString]) -> bool {
    let first = rest.first().map(|a| a.as_bytes());
    let first_is = |subs: &[&str]| first.is_some_and(|f| subs.iter().any(|s| s.as_bytes() == f));
    match cmd.network {
        Network::Never => false,
        Network::Always => true,
        Network::Subs(subs) => first_is(subs),
        // `remote`: its subcommands, and the options that make them fetch or keep them off
        // the network, in any word after the subcommand's.
        Network::Own => {
            let after = rest.get(1..).unwrap_or_default();
            match first.unwrap_or_default() {
                b"update" | b"prune" => true,
                b"show" => table::named_anywhere(after, groups, Means::Offline).is_none(),
                b"set-head" | b"add" => {
                    table::named_anywhere(after, groups, Means::Network).is_some()
                }
                _ => false,
            }
        }
    }
}

/// Whether the command line only reads.
fn reads(cmd: &Cmd, rest: &[OsString], line: &Line) -> bool {
    let first = rest.first().map(|a| a.as_bytes());
    let first_is = |subs: &[&str]| first.is_some_and(|f| subs.iter().any(|s| s.as_bytes() == f));
    match cmd.reading {
        Reading::Always => table::named_anywhere(rest, cmd.options, Means::Writes).is_none(),
        Reading::Never => false,
        Reading::Mode => line.has(Means::Mode),
        Reading::ModeCertain => line.has(Means::Mode) && !line.uncertain,
        Reading::ModeOnly => line.has(Means::Mode) && line.only(&[Means::Reads, Means::Mode]),
        Reading::Only => line.only(&[Means::Reads]),
        Reading::Listing => {
            line.only(&[Means::Reads, Means::Mode])
                && (line.positionals().next().is_none() || line.has(Means::Mode))
        }
        Reading::Subs(subs) => first_is(subs),
        Reading::NoneOrSubs(subs) => rest.is_empty() || first_is(subs),
        Reading::NotSubs(subs) => !first_is(subs),
        Reading::Own => own_reading(cmd.name, rest, line),
    }
}

/// The commands whose reading form is a rule of their own.
fn own_reading(name: &str, rest: &[OsString], line: &Line) -> bool {
    let first = rest.first().map(|a| a.as_bytes());
    match name {
        "bisect" => {
            matches!(first, Some(b"log" | b"view" | b"visualize" | b"help")) && rest.len() <= 1
        }
        // `git replace` alone, or `-l`/`--list` first with nothing that writes.
        "replace" => {
            rest.is_empty()
                || (matches!(first, Some(b"-l" | b"--list"))
                    && line.only(&[Means::Mode, Means::Reads]))
        }
        "remote" => {
            rest.is_empty()
                || (matches!(first, Some(b"-v" | b"--verbose")) && rest.len() == 1)
                || matches!(first, Some(b"show" | b"get-url"))
        }
        "config" => config::reads(line),
        "symbolic-ref" => line.positionals().count() <= 1 && line.only(&[Means::Reads]),
        _ => false,
    }
}

/// What the record of effects watches for a write that makes or moves commits.
fn moves(cmd: &Cmd, line: &Line) -> Option<Moves> {
    let skipped = line.first(Means::SkipsHooks);
    let (makes_commit, skips_hooks) = match cmd.commits {
        Commits::No => return None,
        Commits::Makes => (true, skipped),
        Commits::Moves => (false, skipped),
        // Plumbing that makes a commit or moves a ref runs no hook: what it made is a commit
        // no pre-commit hook saw (issue 35).
        Commits::Plumbing if crate::confine::test_rule_off("plumbing-hooks") => return None,
        Commits::Plumbing => (false, Some(format!("{}, which runs no hooks", cmd.name))),
    };
    let commit = (cmd.name == "commit").then(|| CommitTakes {
        all: line.has(Means::TakesAll),
        paths: line.positionals().cloned().collect(),
        unknown: line.uncertain || line.has(Means::TakesUnknown),
    });
    Some(Moves {
        command: cmd.name.to_owned(),
        makes_commit,
        skips_hooks,
        commit,
    })
}
