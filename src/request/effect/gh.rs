//! What a `gh` command line does to the forge, from the model of gh's commands and flags
//! ([`crate::request::table::gh`]).

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;

use super::super::scan::{self, Dialect};
use super::super::table::Means;
use super::super::table::gh::{self as model, Does};
use super::{Effect, Push};

/// What a `gh` command line does to the forge: `Read`, `Send` for what writes there, a `Push`
/// that cannot be placed for what moves a branch (`pr merge`, `repo sync`, the refs and merge
/// routes of `api`), `Local` for the few that only change this machine's repository, and
/// `Unknown` for anything else (an extension, an alias). A read is only ever its words first
/// (`gh pr view 3`): a flag before them could take the next word as its value. The repository
/// it acts on is named by `-R`/`--repo` when given.
pub fn gh(args: &[OsString]) -> (Option<OsString>, Effect) {
    let line = scan::lenient(args, &[model::FLAGS], Dialect::Gh);
    let mut repo = line.value(Means::Repo).map(ToOwned::to_owned);
    let word = |k: usize| args.get(k).map(|a| a.as_bytes());
    let (Some(group), sub) = (word(0), word(1)) else {
        return (repo, Effect::Read);
    };
    let Some(row) = model::command(group, sub) else {
        return (
            repo,
            Effect::Unknown(format!(
                "`gh {}` is not a gh command this guard knows (an extension, an alias, a flag first)",
                args.iter()
                    .take(2)
                    .map(|a| a.to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join(" ")
            )),
        );
    };
    let what = format!(
        "{} {}",
        String::from_utf8_lossy(group),
        String::from_utf8_lossy(sub.unwrap_or_default())
    );
    let effect = match row.does {
        Does::Read => Effect::Read,
        Does::Api => api(&line),
        Does::MovesBranch => moves_branch(&what),
        Does::Creates if args.iter().any(|a| a == "--push") => {
            moves_branch(&format!("{what} --push"))
        }
        Does::Send | Does::Creates => send(&what),
        Does::SendToNamed => {
            // A repository named as the argument is one on the forge, like `-R`.
            if let Some(named) = args[2..].iter().find(|a| !a.as_bytes().starts_with(b"-")) {
                repo = Some(named.clone());
            }
            send(&what)
        }
        Does::Local => Effect::Local(format!("`gh {what}`")),
        Does::NewRepository => Effect::NewRepository,
    };
    (repo, effect)
}

fn send(what: &str) -> Effect {
    Effect::Send(format!("`gh {what}`"))
}

fn moves_branch(what: &str) -> Effect {
    Effect::Push(Push {
        unplaceable: Some(format!("`gh {what}` moves a branch on the forge")),
        ..Push::default()
    })
}

/// Route segments a write may touch without moving a branch: issues, comments, labels, pull
/// requests (not their merge), releases, reactions, milestones, statuses.
const HARMLESS: &[&[u8]] = &[
    b"issues",
    b"comments",
    b"labels",
    b"pulls",
    b"releases",
    b"reactions",
    b"milestones",
    b"statuses",
    b"check-runs",
];

/// Route segments that move, make or rename branches, or move the repository.
const MOVES: &[&[u8]] = &[
    b"merge",
    b"merges",
    b"git",
    b"contents",
    b"branches",
    b"rename",
    b"merge-upstream",
    b"dispatches",
    b"forks",
    b"transfer",
    b"generate",
];

/// `gh api [<flags>] <route>`: what its method and route say.
fn api(line: &scan::Line) -> Effect {
    // The route: the first word after `api` that is neither a flag nor a flag's value.
    let route = line
        .positionals()
        .nth(1)
        .map(|r| r.as_bytes())
        .unwrap_or_default();
    let fields: Vec<(&str, &std::ffi::OsStr)> = line.values(Means::Field).collect();
    // A query read from a file (`@file`) or from `--input` cannot be looked into.
    let mutation = fields.iter().any(|(name, v)| {
        let v = v.as_bytes();
        v.windows(8).any(|w| w.eq_ignore_ascii_case(b"mutation"))
            || v.contains(&b'@')
            || *name == "--input"
    });
    let method = match line.value(Means::Method) {
        Some(m) => m.as_bytes().to_ascii_uppercase(),
        None if fields.is_empty() && !line.has(Means::Field) => b"GET".to_vec(),
        None => b"POST".to_vec(),
    };
    // The route's path: without a query or a fragment (`graphql?x=/issues` is the GraphQL
    // endpoint), and without a scheme and host when a full URL is given.
    let mut path = route
        .split(|b| *b == b'?' || *b == b'#')
        .next()
        .unwrap_or_default();
    for scheme in [&b"https://"[..], b"http://"] {
        if let Some(rest) = path.strip_prefix(scheme) {
            path = rest
                .iter()
                .position(|b| *b == b'/')
                .map_or(&b""[..], |p| &rest[p..]);
        }
    }
    // The route's segments, `//` and a leading `/` aside.
    let segments: Vec<&[u8]> = path
        .split(|b| *b == b'/')
        .filter(|x| !x.is_empty())
        .collect();
    let graphql = segments.last() == Some(&&b"graphql"[..]);
    let harmless = !segments.iter().any(|x| MOVES.contains(x))
        && segments.iter().any(|x| HARMLESS.contains(x));
    let method_text = String::from_utf8_lossy(&method);
    if graphql && !mutation {
        Effect::Read
    } else if graphql {
        moves_branch("api graphql (a mutation this guard cannot place)")
    } else if method == b"GET" || method == b"HEAD" {
        Effect::Read
    } else if harmless {
        send(&format!("api -X {method_text}"))
    } else {
        moves_branch(&format!(
            "api -X {method_text} {}",
            String::from_utf8_lossy(route)
        ))
    }
}
