//! `git-prism man [DIR]`: the manual, one page per command (ADR 23).
//!
//! What clap knows (NAME, SYNOPSIS, DESCRIPTION, OPTIONS, the subcommands) is rendered by
//! `clap_mangen` from the same definitions as `--help`; what it does not know is data here:
//! each command's exit statuses and examples ([`PAGES`]), and one table each of the environment
//! variables ([`VARIABLES`]) and the files ([`FILES`]) git-prism reads, every entry tagged with
//! the [`Topic`]s it belongs to. A page lists the entries of its command's topics;
//! `git-prism(1)` lists them all.
//!
//! The examples and the exit statuses are also the end of each command's `--help`
//! ([`with_help_tails`]), so the help and the manual say the same.
//!
//! Invariants (tested): every command has a page and every page a command; every `GIT_PRISM_*`
//! name in `src/` is in [`VARIABLES`]; every example that runs `git-prism` parses.

use std::path::PathBuf;

use anyhow::Context;
use clap::CommandFactory;
use clap_mangen::roff::{Roff, bold, italic, roman};

use super::{Cli, Out};
use crate::exit_codes;

/// Arguments of `man`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Write one page per command into DIR
    ///
    /// The pages are git-prism.1, git-prism-shim.1, ...; without DIR, git-prism(1) is
    /// printed.
    #[arg(value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// What a variable or a file concerns; a page shows the entries of its command's topics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Topic {
    /// The shim's decision: opt-outs, the agent, which git it runs.
    Shim,
    /// Structured answers: their page budget, paging and time limits.
    Answers,
    /// Every git process git-prism starts.
    Git,
    /// Function analysis and its cache.
    Analysis,
    /// The shim's links and the files install edits.
    Install,
    /// Sessions: the scope, the record, the broker.
    Session,
    /// The harness hooks' own state.
    Hooks,
    /// Timing traces of the range commands.
    Trace,
    /// Set by git-prism for the programs it starts; never for a person to set.
    Internal,
}

/// One environment variable.
struct Variable {
    /// Its name (a `*` ends a family of names).
    name: &'static str,
    /// What it concerns.
    topics: &'static [Topic],
    /// What it does.
    text: &'static str,
}

/// Every `GIT_PRISM_*` variable git-prism reads, and the other variables that change where its
/// files are.
const VARIABLES: &[Variable] = &[
    Variable {
        name: "GIT_PRISM_PASSTHROUGH",
        topics: &[Topic::Shim],
        text: "Set to 1 or true (any case): every git and gh call goes straight to the real program, unanswered. The session guard still judges the call.",
    },
    Variable {
        name: "GIT_PRISM_DISABLE",
        topics: &[Topic::Shim],
        text: "The same as GIT_PRISM_PASSTHROUGH.",
    },
    Variable {
        name: "GIT_PRISM_INSIDE_SHIM",
        topics: &[Topic::Shim, Topic::Internal],
        text: "Set to anything: the call goes straight to the real git (GIT_PRISM_INSIDE_SHIM=1 git diff prints git's own output). git-prism sets it, to the number of hops, for every git it runs, so that a nested call is never answered twice; after 20 hops it stops with an error.",
    },
    Variable {
        name: "GIT_PRISM_DEBUG",
        topics: &[Topic::Shim],
        text: "Set to 1: one git-prism: line on stderr says what the shim decided for the call and why.",
    },
    Variable {
        name: "GIT_PRISM_DEBUG_RESOLVER",
        topics: &[Topic::Shim],
        text: "Set to 1: one line on stderr names the real git (or gh) the shim runs.",
    },
    Variable {
        name: "GIT_PRISM_REAL_GIT",
        topics: &[Topic::Shim, Topic::Git],
        text: "The real git, by absolute path, instead of the first git on PATH that is not git-prism. git-prism sets it for the programs it starts, so nested calls run it directly.",
    },
    Variable {
        name: "GIT_PRISM_REAL_GH",
        topics: &[Topic::Shim],
        text: "The real gh, by absolute path.",
    },
    Variable {
        name: "GIT_PRISM_MAX_OUTPUT",
        topics: &[Topic::Answers],
        text: "The most bytes of one answer page (at least 1000; default 20000, about 6000 tokens). Also the default page of manifest, history, context and review.",
    },
    Variable {
        name: "GIT_PRISM_CURSOR",
        topics: &[Topic::Answers],
        text: "The page of a paged shim answer to print: the answer's next field is the same command with GIT_PRISM_CURSOR=<cursor> in front. A cursor that does not fit the command (the range changed since, or another command printed it) gets one line on stderr and exit status 1.",
    },
    Variable {
        name: "GIT_PRISM_ANSWER_TIMEOUT",
        topics: &[Topic::Answers],
        text: "Seconds one answer may take in all (default 30; a third of it for function analysis). Past it the shim runs git itself.",
    },
    Variable {
        name: "GIT_PRISM_GIT_TIMEOUT",
        topics: &[Topic::Answers, Topic::Git],
        text: "Seconds each git process of an answer may run (default 60). Past it the process is stopped: the shim runs git itself, the commands and the MCP server report the error.",
    },
    Variable {
        name: "GIT_PRISM_CACHE",
        topics: &[Topic::Analysis],
        text: "Set to 0 or false: no analysis cache is read or written.",
    },
    Variable {
        name: "GIT_PRISM_CACHE_DIR",
        topics: &[Topic::Analysis],
        text: "The analysis cache's directory (absolute; a relative one turns the cache off). Default: $XDG_CACHE_HOME/git-prism, else ~/.cache/git-prism.",
    },
    Variable {
        name: "GIT_PRISM_TRACE",
        topics: &[Topic::Trace],
        text: "Set to anything: manifest, history, context and review print how long each phase took, on stderr.",
    },
    Variable {
        name: "GIT_PRISM_HOME",
        topics: &[Topic::Install],
        text: "git-prism's data directory; the shim's links are in its bin directory. Default: $XDG_DATA_HOME/git-prism, else ~/.local/share/git-prism.",
    },
    Variable {
        name: "GIT_PRISM_STATE_DIR",
        topics: &[Topic::Session],
        text: "The directory of the sessions' records and the guard's log (absolute). Default: $XDG_STATE_HOME/git-prism, else ~/.local/state/git-prism.",
    },
    Variable {
        name: "GIT_PRISM_SCOPE",
        topics: &[Topic::Session, Topic::Shim],
        text: "The scope file of the session a process runs in (absolute). git-prism session sets it for the agent, naming the session's copy of the scope; while it is set, every git and gh call is judged by the guard, whatever the other variables say.",
    },
    Variable {
        name: "XDG_CACHE_HOME, XDG_DATA_HOME, XDG_STATE_HOME, HOME",
        topics: &[Topic::Analysis, Topic::Install, Topic::Session],
        text: "Where the cache, data and state directories are when GIT_PRISM_CACHE_DIR, GIT_PRISM_HOME and GIT_PRISM_STATE_DIR do not say (absolute XDG paths only).",
    },
    Variable {
        name: "SHELL, ZDOTDIR, XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR, CODEX_HOME",
        topics: &[Topic::Install],
        text: "Which start-up files shim install edits, and where the agents keep their instruction files and settings.",
    },
    Variable {
        name: "TMPDIR",
        topics: &[Topic::Hooks],
        text: "Where the hooks keep what they remember between calls.",
    },
    Variable {
        name: "GIT_PRISM_BROKER",
        topics: &[Topic::Internal],
        text: "The session broker's socket, set for the agent: a shim that sees it sends the calls the sandbox withholds to the broker.",
    },
    Variable {
        name: "GIT_PRISM_BROKERED",
        topics: &[Topic::Internal],
        text: "Set by the broker for the shim it starts for one call (the broker's process id).",
    },
    Variable {
        name: "GIT_PRISM_VIEW",
        topics: &[Topic::Internal],
        text: "The descriptors of the sandbox's namespaces, for the broker's child.",
    },
    Variable {
        name: "GIT_PRISM_HOOK_DIRS, GIT_PRISM_HOOK_FILES, GIT_PRISM_HOOK_PROTECTED, GIT_PRISM_HOOK_INDEX",
        topics: &[Topic::Internal],
        text: "What the git hooks of a network call in a session may write, the protected branches a pre-push hook checks, and where the shim's core.hooksPath is among GIT_CONFIG_KEY_<n>.",
    },
    Variable {
        name: "GIT_PRISM_EMPTY, GIT_PRISM_FALSE",
        topics: &[Topic::Internal],
        text: "The values (empty, false) that blank the repository's clean, smudge and process filters in the git commands git-prism runs (git --config-env).",
    },
    Variable {
        name: "GIT_PRISM_TEST_*",
        topics: &[Topic::Internal],
        text: "Switches of the test suite (GIT_PRISM_TEST_SIZE_CHECK, GIT_PRISM_TEST_RULE_OFF, ...), read only by debug builds; a release build contains no code that reads them.",
    },
];

/// One file or directory.
struct File {
    /// Where it is, as a person would type it.
    path: &'static str,
    /// What it concerns.
    topics: &'static [Topic],
    /// What it holds.
    text: &'static str,
}

/// The files and directories git-prism reads or writes outside repositories.
const FILES: &[File] = &[
    File {
        path: "~/.cache/git-prism/user-<uid>/",
        topics: &[Topic::Analysis],
        text: "The analysis cache ($GIT_PRISM_CACHE_DIR, else $XDG_CACHE_HOME/git-prism): functions and imports per blob, checksummed, in a directory of mode 0700 used only if it is yours and no link. Safe to delete; shim uninstall leaves it and says how to remove it.",
    },
    File {
        path: "~/.local/share/git-prism/bin/",
        topics: &[Topic::Install, Topic::Shim],
        text: "The shim's links, git and gh, to the git-prism binary ($GIT_PRISM_HOME/bin, else $XDG_DATA_HOME/git-prism/bin, or shim install --dir). shim uninstall removes the links and the directories when nothing else is in them.",
    },
    File {
        path: "~/.bashrc, ~/.bash_profile, ~/.zshenv, ~/.config/fish/conf.d/git-prism.fish, ~/.profile",
        topics: &[Topic::Install],
        text: "The start-up files of your $SHELL that shim install adds one marked block to (with consent), putting the links' directory first on PATH.",
    },
    File {
        path: "~/.claude/CLAUDE.md, ~/.codex/AGENTS.md, ~/.gemini/GEMINI.md, ~/.config/opencode/AGENTS.md",
        topics: &[Topic::Install],
        text: "The agents' instruction files that shim install adds the agent note to, as one marked block (with consent).",
    },
    File {
        path: "~/.claude/settings.json, ~/.codex/hooks.json, ~/.gemini/settings.json",
        topics: &[Topic::Install, Topic::Hooks],
        text: "The harness settings that shim install --hooks adds the done-gate's hooks to; shim uninstall gives each back byte for byte when nothing else changed it.",
    },
    File {
        path: "~/.local/state/git-prism/guard.log",
        topics: &[Topic::Session],
        text: "The guard's record, one JSON object per line: every refusal, every push it let through, what each write did ($GIT_PRISM_STATE_DIR, else $XDG_STATE_HOME/git-prism).",
    },
    File {
        path: "~/.local/state/git-prism/sessions/<id>/",
        topics: &[Topic::Session],
        text: "A session's record: the copy of its scope (scope.toml, what GIT_PRISM_SCOPE names for the agent), the variables that named programs and configuration as it started, each repository as git resolved it and its HEAD.",
    },
    File {
        path: "$TMPDIR/git-prism-hooks-<uid>/, ~/.local/state/git-prism/hook-memory/",
        topics: &[Topic::Hooks],
        text: "What the hooks remember between calls: where the work started, the last failures given (the session's own temporary directory inside a session). Used only when it is your directory and closed to others; the state directory's when the temporary one is not.",
    },
];

/// One example: a command line and what it does.
struct Example {
    /// What it does, as a sentence.
    text: &'static str,
    /// The command line.
    command: &'static str,
}

/// The sections of one command's page that clap does not know.
struct Page {
    /// The command under `git-prism` (`[]`: git-prism(1) itself).
    path: &'static [&'static str],
    /// Exit statuses of its own, beyond 0, 1 and 2 (`None`: those three as every command
    /// has them).
    exit: Option<&'static [(i32, &'static str)]>,
    /// What it reads of [`VARIABLES`] and [`FILES`].
    topics: &'static [Topic],
    /// Its examples.
    examples: &'static [Example],
}

/// The exit statuses of `verify` and `session verify`.
const VERIFY_EXIT: &[(i32, &str)] = &[
    (
        exit_codes::SUCCESS,
        "Every check holds; nothing is printed.",
    ),
    (
        exit_codes::FAILURE,
        "The checks could not be asked: a bad revision, a directory that is no repository.",
    ),
    (exit_codes::USAGE, "The command line could not be parsed."),
    (
        exit_codes::VERIFY_COMMITTED,
        "committed: something is staged, unstaged or untracked.",
    ),
    (
        exit_codes::VERIFY_COMMIT,
        "commit: no commit since --since, or the --commit named is not in HEAD's history.",
    ),
    (
        exit_codes::VERIFY_PUSHED,
        "pushed: the branch's commits are not on its remote.",
    ),
    (
        exit_codes::VERIFY_MERGED,
        "merged: the commit is not reachable from the --merged-into branch.",
    ),
    (
        exit_codes::VERIFY_HOOKS,
        "hooks: a commit or push of the session skipped its hooks.",
    ),
    (
        exit_codes::VERIFY_PROTECTED,
        "protected: a change touches a protected path. With several failing checks, the status is the first one's.",
    ),
];

/// What the range commands read.
const RANGE_TOPICS: &[Topic] = &[Topic::Answers, Topic::Git, Topic::Analysis, Topic::Trace];

/// Every command's page.
const PAGES: &[Page] = &[
    Page {
        path: &[],
        exit: Some(&[
            (exit_codes::SUCCESS, "Success."),
            (
                exit_codes::FAILURE,
                "A command failed (a bad revision, not a repository, a broken install found by shim status); as git, a call the session guard refused (its git-prism guard: line says why).",
            ),
            (exit_codes::USAGE, "The command line could not be parsed."),
            (
                exit_codes::NOT_EXECUTABLE,
                "As git or gh: the real program was found but cannot be executed.",
            ),
            (
                exit_codes::NOT_FOUND,
                "As git or gh: no real program was found on PATH (or calls kept coming back to git-prism). Every other call exits with the real program's status.",
            ),
        ]),
        topics: &[
            Topic::Shim,
            Topic::Answers,
            Topic::Git,
            Topic::Analysis,
            Topic::Install,
            Topic::Session,
            Topic::Hooks,
            Topic::Trace,
            Topic::Internal,
        ],
        examples: &[
            Example {
                text: "Install the shim (then restart the agent, and run git-prism shim status where it runs):",
                command: "git-prism shim install",
            },
            Example {
                text: "What an agent's git diff gets, and git's own output for it:",
                command: "CLAUDECODE=1 git diff main..HEAD | cat; GIT_PRISM_INSIDE_SHIM=1 git diff main..HEAD",
            },
            Example {
                text: "What the shim would decide for a command line here, and why:",
                command: "git-prism explain -- diff --stat main..HEAD",
            },
        ],
    },
    Page {
        path: &["shim"],
        exit: None,
        topics: &[Topic::Install, Topic::Shim],
        examples: &[
            Example {
                text: "Install, then check after restarting the agent:",
                command: "git-prism shim install",
            },
            Example {
                text: "Check the installation (exit status 1 names each problem):",
                command: "git-prism shim status",
            },
        ],
    },
    Page {
        path: &["shim", "install"],
        exit: None,
        topics: &[Topic::Install],
        examples: &[
            Example {
                text: "Link git (and gh), asking before editing start-up and instruction files:",
                command: "git-prism shim install",
            },
            Example {
                text: "The same in a script, with the done-gate's hooks for Claude Code, Codex and Gemini CLI:",
                command: "git-prism shim install --yes --hooks",
            },
            Example {
                text: "Links only, in a directory of your own (put it first on PATH yourself):",
                command: "git-prism shim install --no --dir ~/bin/git-prism",
            },
        ],
    },
    Page {
        path: &["shim", "status"],
        exit: Some(&[
            (
                exit_codes::SUCCESS,
                "The shim is installed, first on PATH and finds a real git.",
            ),
            (
                exit_codes::FAILURE,
                "Something keeps the shim from working; each problem is a problem: line.",
            ),
            (exit_codes::USAGE, "The command line could not be parsed."),
        ]),
        topics: &[Topic::Install, Topic::Shim],
        examples: &[
            Example {
                text: "Run it in the agent's environment to see what the agent's git is:",
                command: "git-prism shim status",
            },
            Example {
                text: "As JSON, for a script:",
                command: "git-prism shim status --json",
            },
        ],
    },
    Page {
        path: &["shim", "uninstall"],
        exit: None,
        topics: &[Topic::Install, Topic::Analysis, Topic::Session],
        examples: &[Example {
            text: "Remove the links, the PATH blocks, the agent note and the hooks; it lists what stays:",
            command: "git-prism shim uninstall",
        }],
    },
    Page {
        path: &["agent-detect"],
        exit: None,
        topics: &[Topic::Shim],
        examples: &[Example {
            text: "Which agent this environment names, and by which variable:",
            command: "git-prism agent-detect",
        }],
    },
    Page {
        path: &["manifest"],
        exit: None,
        topics: RANGE_TOPICS,
        examples: &[
            Example {
                text: "What a branch changed: files, change types, line counts, functions, dependencies:",
                command: "git-prism manifest main..HEAD",
            },
            Example {
                text: "What is staged, for people:",
                command: "git-prism manifest --cached --pretty",
            },
            Example {
                text: "Everything not yet committed, untracked files included:",
                command: "git-prism manifest HEAD",
            },
        ],
    },
    Page {
        path: &["context"],
        exit: None,
        topics: RANGE_TOPICS,
        examples: &[
            Example {
                text: "Callers, callees, tests and risk of every function a branch changed:",
                command: "git-prism context main..HEAD",
            },
            Example {
                text: "Only these functions, changed or not:",
                command: "git-prism context --function-names parse,Cart::new main..HEAD",
            },
        ],
    },
    Page {
        path: &["review"],
        exit: None,
        topics: RANGE_TOPICS,
        examples: &[Example {
            text: "The manifest and the context of a branch in one answer of at most 20000 tokens:",
            command: "git-prism review main..HEAD --max-tokens 20000",
        }],
    },
    Page {
        path: &["history"],
        exit: None,
        topics: RANGE_TOPICS,
        examples: &[
            Example {
                text: "One manifest per commit of a branch:",
                command: "git-prism history main..HEAD",
            },
            Example {
                text: "The last three commits that touched a directory:",
                command: "git-prism history -n 3 -- src/",
            },
        ],
    },
    Page {
        path: &["snapshot"],
        exit: None,
        topics: &[Topic::Git],
        examples: &[
            Example {
                text: "Lines 10 to 40 of a file before and after a branch:",
                command: "git-prism snapshot main..HEAD --paths src/lib.rs --line-range 10:40",
            },
            Example {
                text: "A file as staged, with git's hunks:",
                command: "git-prism snapshot --cached --paths README.md --diff-hunks",
            },
        ],
    },
    Page {
        path: &["schema"],
        exit: None,
        topics: &[],
        examples: &[Example {
            text: "The JSON Schema of the manifest:",
            command: "git-prism schema",
        }],
    },
    Page {
        path: &["serve"],
        exit: Some(&[
            (
                exit_codes::SUCCESS,
                "The client closed the connection, or the process that started the server ended.",
            ),
            (
                exit_codes::FAILURE,
                "The server could not start, or the protocol failed.",
            ),
            (exit_codes::USAGE, "The command line could not be parsed."),
        ]),
        topics: &[Topic::Answers, Topic::Git, Topic::Analysis],
        examples: &[
            Example {
                text: "Register the server with Claude Code:",
                command: "claude mcp add git-prism -- git-prism serve",
            },
            Example {
                text: "Answer for every repository under ~/src too:",
                command: "git-prism serve --allow ~/src",
            },
        ],
    },
    Page {
        path: &["languages"],
        exit: None,
        topics: &[],
        examples: &[Example {
            text: "The languages with function analysis, as JSON:",
            command: "git-prism languages --analyzed --json",
        }],
    },
    Page {
        path: &["explain"],
        exit: None,
        topics: &[Topic::Shim],
        examples: &[
            Example {
                text: "Would an agent's git diff here be answered, and if not, why:",
                command: "git-prism explain -- diff main..HEAD",
            },
            Example {
                text: "The same for gh, timed over 1000 decisions:",
                command: "git-prism explain --gh --repeat 1000 -- pr diff 12",
            },
        ],
    },
    Page {
        path: &["session"],
        exit: Some(&[
            (exit_codes::SUCCESS, "The agent exited 0."),
            (
                exit_codes::FAILURE,
                "The session could not start (a bad scope, the shim not installed, a kernel that cannot hold the sandbox without --weaker).",
            ),
            (
                exit_codes::USAGE,
                "The command line could not be parsed. Otherwise the session exits as the agent did.",
            ),
        ]),
        topics: &[Topic::Session, Topic::Install, Topic::Hooks],
        examples: &[
            Example {
                text: "Start Claude Code held to a scope:",
                command: "git-prism session --scope ~/scopes/release.toml -- claude",
            },
            Example {
                text: "Codex, or Gemini CLI, the same way:",
                command: "git-prism session --scope ~/scopes/release.toml -- codex",
            },
            Example {
                text: "Afterwards, the sessions started here (session verify --session <id> and session log --session <id> read one):",
                command: "git-prism session list",
            },
        ],
    },
    Page {
        path: &["session", "list"],
        exit: None,
        topics: &[Topic::Session],
        examples: &[Example {
            text: "Every session started on this machine, as JSON lines:",
            command: "git-prism session list --json",
        }],
    },
    Page {
        path: &["session", "check"],
        exit: None,
        topics: &[Topic::Session],
        examples: &[Example {
            text: "What a scope allows in the repository here:",
            command: "git-prism session check --scope ~/scopes/release.toml",
        }],
    },
    Page {
        path: &["session", "verify"],
        exit: Some(VERIFY_EXIT),
        topics: &[Topic::Session],
        examples: &[
            Example {
                text: "Inside a session: is its work committed and pushed?",
                command: "git-prism session verify --pushed",
            },
            Example {
                text: "After it ended, by its id (session list):",
                command: "git-prism session verify --session 3f2a",
            },
        ],
    },
    Page {
        path: &["session", "log"],
        exit: None,
        topics: &[Topic::Session],
        examples: &[Example {
            text: "The last 20 records of one session:",
            command: "git-prism session log --session 3f2a --last 20",
        }],
    },
    Page {
        path: &["verify"],
        exit: Some(VERIFY_EXIT),
        topics: &[Topic::Git],
        examples: &[
            Example {
                text: "Is the work since the base committed, pushed and merged, and migrations/ untouched?",
                command: "git-prism verify --since origin/main --pushed --merged-into main --protected migrations/",
            },
            Example {
                text: "Gate a loop on it, the base recorded before the agent started:",
                command: "git-prism verify --since $BASE --pushed || exit 1",
            },
            Example {
                text: "Every check as JSON, in two repositories:",
                command: "git-prism verify --json --since v1.4 app lib",
            },
        ],
    },
    Page {
        path: &["hook"],
        exit: None,
        topics: &[Topic::Hooks, Topic::Session],
        examples: &[Example {
            text: "Install both hooks into the harnesses found:",
            command: "git-prism shim install --hooks --yes",
        }],
    },
    Page {
        path: &["hook", "stop"],
        exit: Some(&[
            (
                exit_codes::SUCCESS,
                "The turn's work is done, or the turn changed nothing; nothing is printed.",
            ),
            (exit_codes::FAILURE, "The check itself failed."),
            (
                super::hook::BLOCK,
                "Not done: one line per failure and what to run, on stderr, which the harness gives the model. A command line that cannot be parsed also exits 2.",
            ),
        ]),
        topics: &[Topic::Hooks, Topic::Session],
        examples: &[Example {
            text: "What the harness runs at the end of a turn (its JSON on stdin):",
            command: "git-prism hook stop --harness claude",
        }],
    },
    Page {
        path: &["hook", "session-start"],
        exit: None,
        topics: &[Topic::Hooks, Topic::Session],
        examples: &[Example {
            text: "What the harness runs as a session starts (Gemini CLI reads JSON):",
            command: "git-prism hook session-start --harness gemini",
        }],
    },
    Page {
        path: &["completions"],
        exit: None,
        topics: &[],
        examples: &[
            Example {
                text: "Install bash completions:",
                command: "git-prism completions bash > ~/.local/share/bash-completion/completions/git-prism",
            },
            Example {
                text: "zsh, into a directory on $fpath:",
                command: "git-prism completions zsh > ~/.zfunc/_git-prism",
            },
        ],
    },
    Page {
        path: &["man"],
        exit: None,
        topics: &[],
        examples: &[
            Example {
                text: "Install every page where man finds it:",
                command: "git-prism man ~/.local/share/man/man1",
            },
            Example {
                text: "Read a page without installing it:",
                command: "git-prism man | man -l -",
            },
        ],
    },
];

/// The exit statuses of a command without its own.
const COMMON_EXIT: &[(i32, &str)] = &[
    (exit_codes::SUCCESS, "Success."),
    (
        exit_codes::FAILURE,
        "The command failed; one git-prism: line on stderr says why.",
    ),
    (exit_codes::USAGE, "The command line could not be parsed."),
];

pub(crate) fn run(args: Args, out: &mut Out<'_>) -> anyhow::Result<i32> {
    match args.dir {
        None => render(&[], out.stdout)?,
        Some(dir) => {
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create '{}'", dir.display()))?;
            for page in PAGES {
                let file = dir.join(format!("{}.1", page_name(page.path)));
                let mut bytes = Vec::new();
                render(page.path, &mut bytes)?;
                std::fs::write(&file, bytes)
                    .with_context(|| format!("cannot write '{}'", file.display()))?;
            }
            writeln!(
                out.stdout,
                "wrote {} manual pages to {}",
                PAGES.len(),
                dir.display()
            )?;
        }
    }
    Ok(exit_codes::SUCCESS)
}

/// `command` (the derive's definition) with each command's examples, and its exit statuses
/// where it has its own, after its `--help` (clap's `after_long_help`; `-h` stays short).
pub(super) fn with_help_tails(command: clap::Command) -> clap::Command {
    fn walk(command: clap::Command, path: &mut Vec<String>) -> clap::Command {
        let mut command = command;
        if let Some(page) = PAGES
            .iter()
            .find(|p| p.path.iter().copied().eq(path.iter().map(String::as_str)))
        {
            command = command.after_long_help(help_tail(page));
        }
        let names: Vec<String> = command
            .get_subcommands()
            .map(|s| s.get_name().to_owned())
            .collect();
        for name in names {
            path.push(name.clone());
            command = command.mut_subcommand(&name, |sub| walk(sub, path));
            path.pop();
        }
        command
    }
    walk(command, &mut Vec::new())
}

/// The end of a command's `--help`: its examples (each command after `$ `) and its exit
/// statuses when it has its own.
fn help_tail(page: &Page) -> String {
    let mut text = String::from("Examples:\n");
    for (i, example) in page.examples.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        text.push_str(&format!("  {}\n    $ {}\n", example.text, example.command));
    }
    if let Some(statuses) = page.exit {
        text.push_str("\nExit status:\n");
        for (code, what) in statuses {
            text.push_str(&hanging(&format!("  {code:<5}"), what));
        }
    }
    text
}

/// `text` after `head`, wrapped at 78 columns under its own first column. clap wraps a line
/// under the line's leading spaces, so at narrower widths it keeps the indent.
fn hanging(head: &str, text: &str) -> String {
    const WIDTH: usize = 78;
    let indent = " ".repeat(head.len());
    let mut out = head.to_owned();
    let mut column = head.len();
    for (i, word) in text.split_whitespace().enumerate() {
        if i > 0 && column + 1 + word.len() > WIDTH {
            out.push('\n');
            out.push_str(&indent);
            column = indent.len();
        } else if i > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(word);
        column += word.len();
    }
    out.push('\n');
    out
}

/// `git-prism-shim-install` for `["shim", "install"]`.
fn page_name(path: &[&str]) -> String {
    std::iter::once("git-prism")
        .chain(path.iter().copied())
        .collect::<Vec<_>>()
        .join("-")
}

/// The built clap command at `path` (the root for `[]`), without clap's `help` subcommands
/// (`--help` is every page's option; a `help` page would be a page about pages).
fn command_at(path: &[&str]) -> Option<clap::Command> {
    fn without_help(command: clap::Command) -> clap::Command {
        let names: Vec<String> = command
            .get_subcommands()
            .map(|s| s.get_name().to_owned())
            .collect();
        names
            .iter()
            .fold(command.disable_help_subcommand(true), |command, name| {
                command.mut_subcommand(name, without_help)
            })
    }
    let mut at = super::finish(without_help(Cli::command()));
    for name in path {
        at = at.find_subcommand(name)?.clone();
    }
    Some(at)
}

/// The page of the command at `path`, as roff.
fn render(path: &[&str], w: &mut dyn std::io::Write) -> anyhow::Result<()> {
    let page = PAGES
        .iter()
        .find(|p| p.path == path)
        .with_context(|| format!("no manual page for `{}`", path.join(" ")))?;
    let command = command_at(path).with_context(|| format!("no command `{}`", path.join(" ")))?;
    let name = page_name(path);
    let has_subcommands = command.get_subcommands().any(|s| !s.is_hide_set());
    let has_arguments = command.get_arguments().any(|a| !a.is_hide_set());
    let mut man = clap_mangen::Man::new(command.clone())
        .title(name.clone())
        .section("1")
        .source(format!("git-prism {}", crate::version::VERSION))
        .manual("git-prism manual");
    if !crate::version::DATE.is_empty() {
        man = man.date(crate::version::DATE);
    }
    man.render_title(w)?;
    man.render_name_section(w)?;
    man.render_synopsis_section(w)?;
    man.render_description_section(w)?;
    if has_arguments {
        man.render_options_section(w)?;
    }
    if has_subcommands {
        man.render_subcommands_section(w)?;
    }
    let mut roff = Roff::new();
    exit_section(&mut roff, page.exit.unwrap_or(COMMON_EXIT));
    environment_section(&mut roff, page.topics, path.is_empty());
    files_section(&mut roff, page.topics, path.is_empty());
    examples_section(&mut roff, page.examples);
    see_also_section(&mut roff, path, &command);
    roff.control("SH", ["VERSION"]);
    roff.text([roman(format!("git-prism {}", crate::version::VERSION))]);
    roff.to_writer(w)?;
    Ok(())
}

fn exit_section(roff: &mut Roff, statuses: &[(i32, &str)]) {
    roff.control("SH", ["EXIT STATUS"]);
    for (code, text) in statuses {
        roff.control("TP", []);
        roff.text([bold(code.to_string())]);
        roff.text([roman(*text)]);
    }
}

/// Whether an entry of `topics` belongs on a page of `page_topics` (`all`: git-prism(1)).
fn shown(topics: &[Topic], page_topics: &[Topic], all: bool) -> bool {
    all || (!topics.contains(&Topic::Internal) && topics.iter().any(|t| page_topics.contains(t)))
}

fn environment_section(roff: &mut Roff, topics: &[Topic], all: bool) {
    roff.control("SH", ["ENVIRONMENT"]);
    let mut any = false;
    for var in VARIABLES
        .iter()
        .filter(|v| shown(v.topics, topics, all) && !v.topics.contains(&Topic::Internal))
    {
        entry(roff, var.name, var.text);
        any = true;
    }
    if all {
        roff.control("PP", []);
        roff.text([roman(
            "Set by git-prism for the programs it starts, never for a person to set:",
        )]);
        for var in VARIABLES
            .iter()
            .filter(|v| v.topics.contains(&Topic::Internal))
        {
            entry(roff, var.name, var.text);
        }
    } else {
        if !any {
            roff.text([roman("This command reads no variable of its own.")]);
        }
        roff.control("PP", []);
        roff.text([
            roman("The variables every git-prism command reads are in "),
            bold("git-prism"),
            roman("(1)."),
        ]);
    }
}

fn files_section(roff: &mut Roff, topics: &[Topic], all: bool) {
    roff.control("SH", ["FILES"]);
    let mut any = false;
    for file in FILES.iter().filter(|f| shown(f.topics, topics, all)) {
        entry(roff, file.path, file.text);
        any = true;
    }
    if !any {
        roff.text([roman(
            "This command reads and writes no file outside the repository and its output.",
        )]);
    }
}

fn examples_section(roff: &mut Roff, examples: &[Example]) {
    roff.control("SH", ["EXAMPLES"]);
    for example in examples {
        roff.control("PP", []);
        roff.text([roman(example.text)]);
        roff.control("RS", ["4"]);
        roff.control("nf", []);
        roff.text([bold(example.command)]);
        roff.control("fi", []);
        roff.control("RE", []);
    }
}

fn see_also_section(roff: &mut Roff, path: &[&str], command: &clap::Command) {
    let mut pages: Vec<String> = Vec::new();
    if !path.is_empty() {
        pages.push(page_name(&path[..path.len() - 1]));
    }
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let mut sub_path = path.to_vec();
        sub_path.push(sub.get_name());
        pages.push(page_name(&sub_path));
    }
    pages.push("git".to_owned());
    roff.control("SH", ["SEE ALSO"]);
    let mut inlines = Vec::new();
    for (i, page) in pages.iter().enumerate() {
        if i > 0 {
            inlines.push(roman(", "));
        }
        inlines.push(bold(page.clone()));
        inlines.push(roman("(1)"));
    }
    roff.text(inlines);
    roff.control("PP", []);
    roff.text([
        roman("The README, shipped beside the binary in the release archive, explains the answers, sessions and hooks in full; "),
        italic("docs/adr/"),
        roman(" in the source says why they are as they are."),
    ]);
}

fn entry(roff: &mut Roff, tag: &str, text: &str) {
    roff.control("TP", []);
    roff.text([bold(tag)]);
    roff.text([roman(text)]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every visible command path of the parser, the root included.
    fn command_paths() -> Vec<Vec<String>> {
        fn walk(command: &clap::Command, path: Vec<String>, out: &mut Vec<Vec<String>>) {
            out.push(path.clone());
            for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
                if sub.get_name() == "help" {
                    continue;
                }
                let mut sub_path = path.clone();
                sub_path.push(sub.get_name().to_owned());
                walk(sub, sub_path, out);
            }
        }
        let mut out = Vec::new();
        walk(&super::super::command(), Vec::new(), &mut out);
        out
    }

    #[test]
    fn every_command_has_a_page_and_every_page_a_command() {
        let commands = command_paths();
        let pages: Vec<Vec<String>> = PAGES
            .iter()
            .map(|p| p.path.iter().map(|s| (*s).to_owned()).collect())
            .collect();
        for command in &commands {
            assert!(pages.contains(command), "no page for {command:?}");
        }
        for page in &pages {
            assert!(commands.contains(page), "no command for the page {page:?}");
        }
        assert_eq!(commands.len(), pages.len(), "a command has two pages");
    }

    #[test]
    fn every_page_has_the_four_sections_and_an_example() {
        for page in PAGES {
            assert!(!page.examples.is_empty(), "{:?} has no example", page.path);
            let mut bytes = Vec::new();
            render(page.path, &mut bytes).unwrap();
            let text = String::from_utf8(bytes).unwrap();
            for section in [
                "EXIT STATUS",
                "ENVIRONMENT",
                "FILES",
                "EXAMPLES",
                "SYNOPSIS",
            ] {
                assert!(
                    text.contains(&format!(".SH \"{section}\""))
                        || text.contains(&format!(".SH {section}")),
                    "{:?} has no {section}",
                    page.path
                );
            }
        }
    }

    /// The command line an example runs, up to its first pipe, redirect or list operator,
    /// when it runs `git-prism`.
    fn git_prism_args(command: &str) -> Option<Vec<String>> {
        let words: Vec<&str> = command
            .split_whitespace()
            .take_while(|w| !matches!(*w, "|" | ">" | "||" | "&&" | ";") && !w.ends_with(';'))
            .collect();
        // The last `git-prism` is the program (`claude mcp add git-prism -- git-prism serve`).
        let at = words.iter().rposition(|w| *w == "git-prism")?;
        Some(words[at + 1..].iter().map(|w| (*w).to_owned()).collect())
    }

    #[test]
    fn every_example_parses() {
        for page in PAGES {
            for example in page.examples {
                let Some(args) = git_prism_args(example.command) else {
                    continue;
                };
                let parsed = super::super::parse(
                    "git-prism".into(),
                    args.iter().map(std::ffi::OsString::from).collect(),
                );
                assert!(
                    parsed.is_ok(),
                    "{:?}: `{}` does not parse: {}",
                    page.path,
                    example.command,
                    parsed.err().map(|e| e.to_string()).unwrap_or_default()
                );
            }
        }
    }

    /// Every `GIT_PRISM_*` name in the source, as written in it.
    fn names_in_source() -> std::collections::BTreeSet<String> {
        fn walk(dir: &std::path::Path, out: &mut std::collections::BTreeSet<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    let mut rest = text.as_str();
                    while let Some(at) = rest.find("GIT_PRISM_") {
                        let tail = &rest[at..];
                        let end = tail
                            .find(|c: char| {
                                !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                            })
                            .unwrap_or(tail.len());
                        out.insert(tail[..end].to_owned());
                        rest = &tail[end..];
                    }
                }
            }
        }
        let mut out = std::collections::BTreeSet::new();
        walk(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut out,
        );
        out
    }

    #[test]
    fn every_variable_the_source_names_is_in_the_manual() {
        // Set by build.rs and read at compile time (`env!`), never at run time.
        let build_time = ["GIT_PRISM_VERSION", "GIT_PRISM_DATE", "GIT_PRISM_COMMIT"];
        let listed: Vec<&str> = VARIABLES.iter().flat_map(|v| v.name.split(", ")).collect();
        for name in names_in_source() {
            if build_time.contains(&name.as_str()) {
                continue;
            }
            let covered = listed.iter().any(|l| match l.strip_suffix('*') {
                Some(prefix) => name.starts_with(prefix),
                None => *l == name,
            }) || (name.ends_with('_')
                && listed.iter().any(|l| l.starts_with(name.as_str())));
            assert!(
                covered,
                "{name} is read in src/ but not in the manual's ENVIRONMENT"
            );
        }
    }
}
