//! The `gh` classifier: which `gh` calls the shim answers.
//!
//! Only `gh pr diff [<number> | <url> | <branch>]` is answered (with the pull request's change,
//! as `git diff` is answered); its `--patch`, `--name-only`, `--color` and `--web` forms ask for
//! gh's own output, `--repo` names another repository, and every other `gh` call is exec'd
//! unchanged. Pure: nothing runs while parsing. (What a `gh` call does, for the session guard,
//! is [`super::effect::gh`]'s.)

use std::ffi::OsString;

use super::Reason;
use super::scan::{self, Dialect, Token};
use super::table::{Means, gh::PR_DIFF};

/// `gh pr diff [<selector>]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrDiff {
    /// The pull request number, URL or branch; `None` means the current branch's pull request.
    pub selector: Option<OsString>,
}

/// Classifies the arguments of a `gh` call (without `argv[0]`).
pub fn classify(args: &[OsString]) -> Result<PrDiff, Reason> {
    let lossy = |s: &OsString| s.to_string_lossy().into_owned();
    match args {
        [pr, diff, rest @ ..] if pr == "pr" && diff == "diff" => {
            let mut selector = None;
            for token in scan::strict(rest, &[PR_DIFF], false, Dialect::Gh) {
                match token? {
                    Token::Option {
                        opt: Some(opt),
                        words,
                        ..
                    } => {
                        let word = lossy(&words[0]);
                        return Err(match opt.means {
                            Means::Machine => Reason::MachineFormat(word),
                            Means::Help => Reason::Informational(word),
                            Means::Repo => Reason::Unsupported(
                                "`gh pr diff --repo` names another repository".to_owned(),
                            ),
                            _ => Reason::UnknownOption(word),
                        });
                    }
                    Token::Option { words, .. } => {
                        return Err(Reason::UnknownOption(lossy(&words[0])));
                    }
                    Token::Positional(arg) if selector.is_none() => selector = Some(arg.clone()),
                    Token::Positional(_) | Token::Count(_) | Token::Separator(_) => {
                        return Err(Reason::Unsupported(
                            "`gh pr diff` takes one pull request".to_owned(),
                        ));
                    }
                }
            }
            Ok(PrDiff { selector })
        }
        [first, ..] => Err(Reason::NotWatched(lossy(first))),
        [] => Err(Reason::NoSubcommand),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(line: &str) -> Result<Option<String>, String> {
        let args: Vec<OsString> = line.split_whitespace().map(OsString::from).collect();
        classify(&args)
            .map(|p| p.selector.map(|s| s.to_string_lossy().into_owned()))
            .map_err(|r| r.to_string())
    }

    #[test]
    fn table() {
        assert_eq!(run("pr diff"), Ok(None));
        assert_eq!(run("pr diff 12"), Ok(Some("12".into())));
        assert_eq!(run("pr diff feature/x"), Ok(Some("feature/x".into())));
        assert_eq!(
            run("pr diff https://github.com/o/r/pull/3"),
            Ok(Some("https://github.com/o/r/pull/3".into()))
        );
        for line in [
            "pr diff 12 --patch",
            "pr diff --name-only",
            "pr diff --color always 12",
            "pr diff --color=never",
            "pr diff --web",
            "pr diff -w 3",
            "pr diff -R o/r 12",
            "pr diff --repo=o/r",
            "pr diff 1 2",
            "pr diff --frob",
            "pr diff -h",
            "pr view 12",
            "pr list",
            "issue list",
            "api repos/o/r",
            "",
        ] {
            assert!(run(line).is_err(), "{line:?} should pass through");
        }
    }
}
