//! git's own output for the command line an answer stands in for, and the rule that weighs the
//! two: an answer is given only when it costs no more than what git prints for the same command
//! line, in bytes and in tokens (issue 36; ADR 21). Otherwise git answers, with its own bytes.
//!
//! git runs from the start of the answer, beside it (the same command line, to a pipe, without
//! the programs a repository can configure: [`Repo::start_as_typed`]), and at most
//! [`READ_FACTOR`] times the budget of its output is read. An answer that shapes itself to the
//! room (`git show -s` names the files it changed only as far as git's header and message
//! leave room) asks [`Own::room`]; every answer passes [`Own::admit`] last.
//!
//! Tokens are estimated ([`crate::tokens`]), so the rule keeps a margin: an answer's estimate
//! must be at most [`TOKEN_MARGIN`] per cent of git's. Measured over 528 answers of four corpora
//! against cl100k_base, the real ratio was never more than 6.4% above the estimate's; `make
//! bench` checks the result over its whole corpus (bench/RESULTS.md, "Token economy"; ADR 21).

use std::cell::{OnceCell, RefCell};
use std::ffi::OsString;

use super::AnswerError;
use crate::budget::Budget;
use crate::git::{AsTyped, GitError, Printed, Repo};

/// How much of git's output is read, in budgets: an answer is at most one budget, so git's
/// output past this is larger in bytes by this factor, and in tokens too by far more than any
/// difference in how densely the two spend tokens.
pub const READ_FACTOR: usize = 3;

/// The most an answer's estimated tokens may be, in per cent of git's.
pub const TOKEN_MARGIN: usize = 92;

/// How many smaller budgets [`Own::fit`] tries.
const FIT_TRIES: usize = 6;

/// git's own output for the command line, started beside the answer.
pub struct Own {
    started: RefCell<Option<Result<AsTyped, GitError>>>,
    printed: OnceCell<Result<Printed, String>>,
}

/// How much an answer may still take: what git's output leaves over a part already written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Room {
    /// Bytes.
    pub bytes: usize,
    /// Estimated tokens (already within the margin).
    pub tokens: usize,
}

impl Own {
    /// Starts git on `argv` (the subcommand and its arguments, as the caller typed them);
    /// `budget` is the answer's.
    pub fn start(repo: &Repo, argv: &[OsString], budget: Budget) -> Own {
        Own::started(repo.start_as_typed(argv, read_cap(budget)))
    }

    /// What git prints for a pull request's change: `gh pr diff`'s output is the patch of the
    /// merge base against the head.
    pub fn start_patch(
        repo: &Repo,
        base: &crate::git::Oid,
        head: &crate::git::Oid,
        budget: Budget,
    ) -> Own {
        Own::started(repo.start_patch_as_printed(base, head, read_cap(budget)))
    }

    fn started(started: Result<AsTyped, GitError>) -> Own {
        Own {
            started: RefCell::new(Some(started)),
            printed: OnceCell::new(),
        }
    }

    /// What git printed (waiting for it the first time).
    fn printed(&self) -> Result<&Printed, AnswerError> {
        let printed = self.printed.get_or_init(|| {
            match self.started.borrow_mut().take() {
                Some(Ok(running)) => running.finish(),
                Some(Err(e)) => Err(e),
                None => Err(GitError::Parse {
                    command: "git".into(),
                    detail: "git's own output was not started".into(),
                }),
            }
            .map_err(|e| crate::text::chain(&e))
        });
        printed
            .as_ref()
            .map_err(|e| AnswerError::Unsupported(format!("git's own output: {e}")))
    }

    /// How much an answer may take besides what it has `written` already; `None` when git's
    /// output is larger than anything an answer can be.
    pub fn room(&self, written: &[u8]) -> Result<Option<Room>, AnswerError> {
        if switched_off() {
            return Ok(None);
        }
        Ok(match self.printed()? {
            Printed::Whole(git) => Some(Room {
                bytes: git.len().saturating_sub(written.len()),
                tokens: (crate::tokens::estimate(git) * TOKEN_MARGIN / 100)
                    .saturating_sub(crate::tokens::estimate(written)),
            }),
            Printed::MoreThan(_) => None,
        })
    }

    /// Whether `answer` (the bytes the shim would print) costs no more than git's own output.
    pub fn admits(&self, answer: &[u8]) -> Result<bool, AnswerError> {
        if switched_off() {
            return Ok(true);
        }
        Ok(match self.printed()? {
            Printed::Whole(git) => within(answer, git),
            Printed::MoreThan(cap) => answer.len() <= *cap,
        })
    }

    /// Renders an answer at the largest budget whose rendering git's own output admits: the
    /// answer's own `budget` cut to git's bytes first, then smaller ones, since tokens are only
    /// known once written. An answer that declares what gives way (`budget::fit`) thus shrinks
    /// to git's size instead of giving way to git.
    pub fn fit(
        &self,
        budget: Budget,
        render: &dyn Fn(Budget) -> Result<String, AnswerError>,
    ) -> Result<String, AnswerError> {
        if switched_off() {
            return render(budget);
        }
        let mut budget = match self.printed()? {
            // The answer ends with a newline.
            Printed::Whole(git) => budget.min(Budget::bytes(git.len().saturating_sub(1))),
            Printed::MoreThan(_) => budget,
        };
        for _ in 0..FIT_TRIES {
            let doc = render(budget)?;
            if self.admits(format!("{doc}\n").as_bytes())? {
                return Ok(doc);
            }
            budget = budget.share(85);
        }
        // The last rendering; the final check refuses it, and git answers.
        render(budget)
    }

    /// Refuses an answer that costs more than git's own output (git answers instead).
    pub fn admit(&self, answer: &[u8]) -> Result<(), AnswerError> {
        if self.admits(answer)? {
            return Ok(());
        }
        let (git_bytes, git_tokens) = match self.printed()? {
            Printed::Whole(git) => (git.len(), crate::tokens::estimate(git)),
            Printed::MoreThan(cap) => (*cap, 0),
        };
        Err(AnswerError::Unsupported(format!(
            "the answer ({} bytes, about {} tokens) costs more than git's own output ({git_bytes} bytes, about {git_tokens} tokens)",
            answer.len(),
            crate::tokens::estimate(answer),
        )))
    }
}

/// The rule: at most git's bytes, and at most [`TOKEN_MARGIN`] per cent of its estimated tokens.
pub fn within(answer: &[u8], git: &[u8]) -> bool {
    answer.len() <= git.len()
        && crate::tokens::estimate(answer) * 100 <= crate::tokens::estimate(git) * TOKEN_MARGIN
}

/// The variable that switches the weighing off for tests (debug builds only).
pub const TEST_SWITCH: &str = "GIT_PRISM_TEST_SIZE_CHECK";

/// Whether the weighing is switched off (`GIT_PRISM_TEST_SIZE_CHECK=off`), which a release
/// build never honours: the tests of what an answer holds build repositories so small that
/// git's own output for them is smaller still; the tests of the weighing, the features that
/// describe it and `make bench` run with it on.
fn switched_off() -> bool {
    #[cfg(debug_assertions)]
    {
        std::env::var_os(TEST_SWITCH).is_some_and(|v| v == "off")
    }
    #[cfg(not(debug_assertions))]
    {
        false
    }
}

/// How many bytes of git's output are read for an answer of `budget`.
fn read_cap(budget: Budget) -> usize {
    budget.as_bytes().saturating_mul(READ_FACTOR)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_must_be_smaller_in_bytes_and_in_tokens() {
        let git = b"commit 3f9a0b12c4d5e6f708192a3b4c5d6e7f80912a3b\nAuthor: Ann <ann@example.com>\nDate:   Mon Dec 1 16:29:00 2026 +0000\n\n    Saturate in add\n";
        assert!(within(
            br#"{"commit":"3f9a0b12c4d5","author":"Ann <ann@example.com>","date":"2026-12-01 16:29 +0000","message":"Saturate in add"}"#,
            git
        ));
        assert!(!within(&git[..], &git[..git.len() - 1]));
        // As many bytes, but JSON's escapes cost more tokens than git's whitespace.
        let tabs = b"\t\t\t\tx\n".repeat(20);
        let escaped = br"\t\t\t\tx\n".repeat(20);
        assert!(!within(&escaped[..tabs.len()], &tabs));
    }
}
