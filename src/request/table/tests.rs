use std::collections::BTreeMap;

use super::*;

/// Every group of every command, with the command's name.
fn all_groups() -> Vec<(&'static str, &'static [Group])> {
    let mut out: Vec<(&str, &[Group])> = vec![("(anywhere)", ANYWHERE), ("(output)", OUTPUT)];
    out.push(("gh", gh::FLAGS));
    out.push(("gh pr diff", gh::PR_DIFF));
    for cmd in COMMANDS {
        for g in cmd.options {
            out.push((cmd.name, g));
        }
    }
    out
}

#[test]
fn every_spelling_is_well_formed() {
    for (cmd, groups) in all_groups() {
        for (_, text) in groups {
            for (name, _) in spelled(text) {
                let base = name.strip_prefix("--[no-]").map(|b| format!("--{b}"));
                let name = base.as_deref().unwrap_or(name);
                let ok = if let Some(long) = name.strip_prefix("--") {
                    long.len() >= 2 && long.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                } else {
                    name.len() == 2 && name.starts_with('-')
                };
                assert!(ok, "{cmd}: `{name}` is not an option's spelling");
            }
        }
    }
}

#[test]
fn no_grammar_lists_a_name_twice() {
    let mut twice = Vec::new();
    for cmd in COMMANDS {
        let words: Vec<Option<&str>> = std::iter::once(None)
            .chain(
                COMMANDS
                    .iter()
                    .filter_map(|c| c.name.strip_prefix(&format!("{} ", cmd.name)))
                    .map(Some),
            )
            .collect();
        for first in words {
            let mut seen = BTreeMap::new();
            let sub = first.and_then(|w| command(&format!("{} {w}", cmd.name)));
            // A subcommand's own options may shadow its parent's (looked up first).
            for (layer, groups) in [(0, sub.map_or(&[][..], |s| s.options)), (1, cmd.options)] {
                for (_, text) in groups.iter().flat_map(|g| g.iter()) {
                    for (name, _) in spelled(text) {
                        let names = match name.strip_prefix("--[no-]") {
                            Some(b) => vec![format!("--{b}"), format!("--no-{b}")],
                            None => vec![name.to_owned()],
                        };
                        for n in names {
                            if let Some(prev) = seen.insert(n.clone(), layer) {
                                if prev == layer {
                                    twice.push(format!(
                                        "git {} {}: `{n}`",
                                        cmd.name,
                                        first.unwrap_or("")
                                    ));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(twice.is_empty(), "listed twice: {twice:#?}");
}

#[test]
fn lookups() {
    let branch = grammar(command("branch").unwrap(), None);
    let opt = find(&branch, b"--no-color").unwrap();
    assert_eq!((opt.takes, opt.means), (Takes::Flag, Means::Reads));
    let opt = find(&branch, b"--color").unwrap();
    assert_eq!(opt.takes, Takes::Attached);
    assert_eq!(find(&branch, b"--format").unwrap().takes, Takes::Value);
    assert!(find(&branch, b"--no-such").is_none());
    let config = grammar(command("config").unwrap(), Some(b"get"));
    assert_eq!(find(&config, b"--url").unwrap().means, Means::Reads);
    assert!(abbreviates(b"--upload-p=x", "--upload-pack"));
    assert!(!abbreviates(b"--u", "--upload-pack"));
    assert!(!abbreviates(b"-u", "--upload-pack"));
    let words: Vec<std::ffi::OsString> = ["-qu", "x"].iter().map(Into::into).collect();
    let clone = grammar(command("clone").unwrap(), None);
    assert_eq!(
        named_anywhere(&words, &clone, Means::Program).as_deref(),
        Some("-u")
    );
    let words: Vec<std::ffi::OsString> = ["--", "-u"].iter().map(Into::into).collect();
    assert_eq!(named_anywhere(&words, &clone, Means::Program), None);
}

/// `(name, takes)` of every option git's parse-options usage text lists (`git <cmd> -h`):
/// `-x, --long <arg>`, `--[no-]long[=<arg>]`, `-x[<n>]`; a negation takes no value.
fn git_lists(text: &str) -> Vec<(String, Takes)> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if !line.starts_with("    -") {
            continue;
        }
        let body = &line[4..];
        let next = lines.get(i + 1).copied().unwrap_or("");
        // The spelling ends where two spaces begin the help, or at column 25 where git
        // aligns it, or with the line when the help is on the next.
        let spec = if let Some(gap) = body.find("  ") {
            &body[..gap]
        } else if next.starts_with(&" ".repeat(26)) || line.len() <= 26 {
            body.trim()
        } else if line.as_bytes().get(25) == Some(&b' ') {
            line[4..25].trim()
        } else {
            body.trim()
        };
        let parts: Vec<&str> = spec.split(", ").map(str::trim).collect();
        let split = |part: &str| -> Option<(String, String, String)> {
            let (dash, rest) = if let Some(r) = part.strip_prefix("--[no-]") {
                ("--[no-]", r)
            } else if let Some(r) = part.strip_prefix("--") {
                ("--", r)
            } else {
                ("-", part.strip_prefix('-')?)
            };
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .unwrap_or(rest.len());
            let end = if dash == "-" { end.min(1) } else { end };
            (end > 0).then(|| {
                (
                    dash.to_owned(),
                    rest[..end].to_owned(),
                    rest[end..].trim().to_owned(),
                )
            })
        };
        let shared = parts
            .last()
            .and_then(|p| split(p))
            .map(|(_, _, argh)| argh)
            .unwrap_or_default();
        for part in &parts {
            if *part == "-NUM" {
                // `archive`'s compression levels.
                out.extend((0..=9).map(|n| (format!("-{n}"), Takes::Flag)));
                continue;
            }
            let Some((dash, name, argh)) = split(part) else {
                continue;
            };
            let argh = if argh.is_empty() {
                shared.clone()
            } else {
                argh
            };
            let takes = if argh.starts_with("[=") || (dash == "-" && argh.starts_with('[')) {
                Takes::Attached
            } else if argh.is_empty() {
                Takes::Flag
            } else {
                Takes::Value
            };
            if dash == "--[no-]" {
                out.push((format!("--{name}"), takes));
                out.push((format!("--no-{name}"), Takes::Flag));
            } else {
                out.push((format!("{dash}{name}"), takes));
            }
        }
    }
    out
}

/// The model agrees with the installed git, both ways, for every command whose options are
/// git's own list: each option git lists is in the model and takes its value as git says, and
/// each option the model lists for it is in git's list. Run against git 2.47, the model's
/// source; another git may list other options.
#[test]
fn the_model_is_git_s_own() {
    let Ok(version) = std::process::Command::new("git").arg("--version").output() else {
        return;
    };
    if !String::from_utf8_lossy(&version.stdout).starts_with("git version 2.47") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Some commands read the repository before their options.
    let init = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(init.success());
    let mut checked = 0;
    let mut wrong = Vec::new();
    for cmd in COMMANDS.iter().filter(|c| c.listed) {
        let mut text = String::new();
        for probe in ["--x-no-such-option", "-h"] {
            let out = std::process::Command::new("git")
                .args(cmd.name.split(' '))
                .arg(probe)
                .current_dir(dir.path())
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .output()
                .unwrap();
            text += &String::from_utf8_lossy(&out.stderr);
            text += &String::from_utf8_lossy(&out.stdout);
        }
        let listed = git_lists(&text);
        if listed.is_empty() {
            // Not parse-options (`diff`, `log`, `show` take the revision walk's options).
            continue;
        }
        checked += 1;
        // A subcommand's list (`worktree add`) is checked against its own and its parent's.
        let parent = cmd.name.split_once(' ').and_then(|(p, _)| command(p));
        let mut groups: Vec<&'static [Group]> = cmd.options.to_vec();
        if let Some(p) = parent {
            groups.extend_from_slice(p.options);
        }
        for (name, takes) in &listed {
            let found = find(&groups, name.as_bytes());
            assert!(
                found.is_some(),
                "git {}: git lists `{name}`, the model does not",
                cmd.name
            );
            assert_eq!(
                found.map(|o| o.takes),
                Some(*takes),
                "git {}: `{name}` takes its value otherwise",
                cmd.name
            );
        }
        for group in cmd.options {
            for (means, text) in group.iter() {
                for spelled_name in names(&[*group], *means) {
                    if !listed.iter().any(|(n, _)| *n == spelled_name) {
                        wrong.push(format!(
                            "git {}: the model lists `{spelled_name}` ({text}), git does not",
                            cmd.name
                        ));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(checked > 30, "only {checked} commands compared");
}
