//! The help, as a person reads it (issue 38): `-h` is one screen for every command, `--help`
//! the full reference with examples that the binary's own parser accepts, and each command
//! shows only its own options.
//!
//! The commands are read from the binary's own `--help` (its `Commands:` lists), so a new
//! command is covered without being named here.

use std::path::Path;
use std::process::Output;

use crate::common::{TestEnv, bin, join, output_within};

/// One screen of a terminal.
const SCREEN_LINES: usize = 24;
const SCREEN_COLUMNS: usize = 80;

/// `git-prism <args>` in the hermetic environment, with a terminal of `columns`.
fn help_output(env: &TestEnv, args: &[&str], columns: usize) -> String {
    let out = env
        .command(bin(), &env.plain_path())
        .env("COLUMNS", columns.to_string())
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git-prism {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The names in the `Commands:` list of a help text, `help` left out.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.strip_prefix("  "))
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Every command path, the root (`[]`) first, as the binary's help lists them.
fn command_paths(env: &TestEnv) -> Vec<Vec<String>> {
    let mut paths = vec![Vec::new()];
    let mut i = 0;
    while let Some(path) = paths.get(i).cloned() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        for name in subcommands(&help_output(env, &args, 1000)) {
            let mut sub = path.clone();
            sub.push(name);
            paths.push(sub);
        }
        i += 1;
    }
    paths
}

/// `path` followed by `flag`, as arguments.
fn with_flag<'a>(path: &'a [String], flag: &'a str) -> Vec<&'a str> {
    path.iter()
        .map(String::as_str)
        .chain(std::iter::once(flag))
        .collect()
}

#[test]
fn every_command_is_found_in_the_help() {
    // The discovery itself: if it found nothing, every other test here would pass vacuously.
    let env = TestEnv::new();
    let paths = command_paths(&env);
    for expected in [
        &["manifest"][..],
        &["context"],
        &["review"],
        &["shim", "install"],
        &["session", "verify"],
        &["hook", "stop"],
    ] {
        assert!(
            paths.iter().any(|p| p == expected),
            "{expected:?} not found in {paths:?}"
        );
    }
}

#[test]
fn every_short_help_fits_one_screen() {
    let env = TestEnv::new();
    for path in command_paths(&env) {
        let short = help_output(&env, &with_flag(&path, "-h"), SCREEN_COLUMNS);
        let lines = short.lines().count();
        assert!(
            lines <= SCREEN_LINES,
            "`git-prism {} -h` is {lines} lines at {SCREEN_COLUMNS} columns:\n{short}",
            path.join(" ")
        );
        for line in short.lines() {
            assert!(
                line.chars().count() <= SCREEN_COLUMNS,
                "`git-prism {} -h` is wider than {SCREEN_COLUMNS} columns: {line:?}",
                path.join(" ")
            );
        }
        let long = help_output(&env, &with_flag(&path, "--help"), SCREEN_COLUMNS);
        assert_ne!(
            short,
            long,
            "`git-prism {} -h` is its --help",
            path.join(" ")
        );
        assert!(
            !short.contains("Examples:"),
            "`git-prism {} -h` has the examples of --help",
            path.join(" ")
        );
    }
}

/// The lines of the block under `heading` in a help text.
fn block<'a>(help: &'a str, heading: &str) -> Vec<&'a str> {
    help.lines()
        .skip_while(|l| *l != heading)
        .skip(1)
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .collect()
}

/// The examples' command lines of a `--help` (each after `$ `, with the lines clap wrapped
/// it onto).
fn examples(help: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut open = false;
    for line in block(help, "Examples:") {
        if let Some(command) = line.trim_start().strip_prefix("$ ") {
            lines.push(command.to_owned());
            open = true;
        } else if open && line.starts_with("    ") {
            let last = lines.last_mut().unwrap();
            last.push(' ');
            last.push_str(line.trim());
        } else {
            open = false;
        }
    }
    lines
}

#[test]
fn every_long_help_has_examples() {
    let env = TestEnv::new();
    for path in command_paths(&env) {
        let long = help_output(&env, &with_flag(&path, "--help"), 1000);
        assert!(
            !examples(&long).is_empty(),
            "`git-prism {} --help` has no Examples: block:\n{long}",
            path.join(" ")
        );
    }
}

/// The simple commands of an example line: split at `;`, `&&` and `||`, each up to its first
/// pipe or redirection, as words.
fn simple_commands(line: &str) -> Vec<Vec<String>> {
    assert!(
        !line.contains(['\'', '"', '\\', '`']),
        "an example with quoting needs a shell word splitter here: {line}"
    );
    let mut commands = vec![Vec::new()];
    let mut piped = false;
    for word in line.split_whitespace() {
        match word {
            ";" | "&&" | "||" => {
                commands.push(Vec::new());
                piped = false;
            }
            "|" | ">" | ">>" | "<" => piped = true,
            _ if piped => {}
            _ => {
                let (word, ends) = match word.strip_suffix(';') {
                    Some(w) => (w, true),
                    None => (word, false),
                };
                commands.last_mut().unwrap().push(word.to_owned());
                if ends {
                    commands.push(Vec::new());
                }
            }
        }
    }
    commands.retain(|c| !c.is_empty());
    commands
}

#[test]
fn every_example_is_accepted_by_the_parser() {
    // The parser the binary runs, stopped before it runs anything (a debug build's switch):
    // an example with an option that does not exist, or a value it refuses, fails here.
    let env = TestEnv::new();
    let mut checked = 0;
    for path in command_paths(&env) {
        let long = help_output(&env, &with_flag(&path, "--help"), 1000);
        for line in examples(&long) {
            let mut answered_git = None;
            for words in simple_commands(&line) {
                // The last `git-prism` is the program (`claude mcp add git-prism -- git-prism
                // serve`).
                if let Some(at) = words.iter().rposition(|w| w == "git-prism") {
                    let out = env
                        .command(bin(), &env.plain_path())
                        .env("GIT_PRISM_TEST_PARSE_ONLY", "1")
                        .args(&words[at + 1..])
                        .output()
                        .unwrap();
                    assert!(
                        out.status.success() && out.stdout.is_empty(),
                        "`git-prism {} --help`: the example `{line}` does not parse: {}",
                        path.join(" "),
                        String::from_utf8_lossy(&out.stderr)
                    );
                    checked += 1;
                    continue;
                }
                // A git command line, as an agent runs it: what the shim decides for it.
                let program = words.iter().position(|w| !w.contains('='));
                let Some(p) = program.filter(|p| words[*p] == "git") else {
                    continue;
                };
                let mut cmd = env.command(bin(), &env.plain_path());
                for assignment in &words[..p] {
                    let (name, value) = assignment.split_once('=').unwrap();
                    cmd.env(name, value);
                }
                let out = cmd
                    .arg("explain")
                    .arg("--")
                    .args(&words[p + 1..])
                    .output()
                    .unwrap();
                let said = String::from_utf8_lossy(&out.stdout).into_owned();
                let structured = said.contains(r#""decision":"structured""#);
                answered_git = Some(answered_git.unwrap_or(false) || structured);
            }
            if let Some(answered) = answered_git {
                assert!(
                    answered,
                    "`git-prism {} --help`: the shim answers none of the git calls of `{line}`",
                    path.join(" ")
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "only {checked} examples checked");
}

/// A repository the examples of the answer commands can run in: `main`, and a branch with
/// three commits changing `parse` and `Cart::new` in `src/lib.rs`, and a staged README.md.
fn example_repo(env: &TestEnv) -> std::path::PathBuf {
    let repo = env.repo("app");
    let body = |n: usize| {
        let mut text = String::from(
            "pub struct Cart {\n    items: Vec<u32>,\n}\n\nimpl Cart {\n    pub fn new() -> Cart {\n        Cart { items: Vec::new() }\n    }\n}\n\n",
        );
        text.push_str(&format!(
            "pub fn parse(s: &str) -> usize {{\n    s.len() + {n}\n}}\n\n"
        ));
        for i in 0..40 {
            text.push_str(&format!("pub fn f{i}() -> usize {{ parse(\"{i}\") }}\n"));
        }
        text
    };
    repo.write("src/lib.rs", body(0))
        .write("README.md", "# app\n");
    repo.commit("start");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    for n in 1..=3 {
        repo.write("src/lib.rs", body(n));
        repo.commit(&format!("change {n}"));
    }
    repo.write("README.md", "# app\n\nNow with a cart.\n");
    repo.git(&["add", "README.md"]);
    repo.dir.clone()
}

/// Runs `line` with `sh` in `dir`, git-prism and the shim's `git` first on PATH.
fn run_example(env: &TestEnv, dir: &Path, line: &str) -> Output {
    let bin_dir = env.root().join("bin");
    if !bin_dir.exists() {
        std::fs::create_dir_all(&bin_dir).unwrap();
        std::os::unix::fs::symlink(bin(), bin_dir.join("git-prism")).unwrap();
    }
    let path = join(&[
        bin_dir,
        env.shim_dir.clone(),
        env.real_dir(),
        "/usr/bin".into(),
        "/bin".into(),
    ]);
    let mut cmd = env.sh(line, &path);
    cmd.current_dir(dir);
    output_within(&mut cmd, 120)
}

#[test]
fn the_examples_of_the_answer_commands_run() {
    // Examples are run as written, by `sh`, in a repository they fit; those of commands that
    // need more than a repository (a session, an agent, a remote) are held to the parser
    // above.
    let env = TestEnv::new();
    let repo = example_repo(&env);
    let answers = [
        &[][..],
        &["agent-detect"],
        &["manifest"],
        &["context"],
        &["review"],
        &["history"],
        &["snapshot"],
        &["schema"],
        &["languages"],
        &["explain"],
    ];
    let paths = command_paths(&env);
    for path in &paths {
        if !answers.iter().any(|a| a.iter().eq(path.iter())) {
            continue;
        }
        let long = help_output(&env, &with_flag(path, "--help"), 1000);
        for line in examples(&long) {
            // Installing is `shim install`'s to test, not the root page's.
            if line.contains("shim install") {
                continue;
            }
            let out = run_example(&env, &repo, &line);
            assert!(
                out.status.success() && !out.stdout.is_empty(),
                "`{line}` (from `git-prism {} --help`) failed: {}",
                path.join(" "),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// The long options a help lists in its `Options:` block.
fn options(help: &str) -> Vec<String> {
    block(help, "Options:")
        .iter()
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("--")))
        .map(|w| w.trim_end_matches(',').to_owned())
        .collect()
}

#[test]
fn context_and_review_show_only_their_own_options() {
    // They shared one options list: each showed the other's cursors (issue 38).
    let env = TestEnv::new();
    for flag in ["-h", "--help"] {
        let context = options(&help_output(&env, &["context", flag], 1000));
        let review = options(&help_output(&env, &["review", flag], 1000));
        for own in ["--function-names", "--page-size", "--max-tokens"] {
            assert!(
                context.iter().any(|o| o == own),
                "context {flag}: {context:?}"
            );
            assert!(review.iter().any(|o| o == own), "review {flag}: {review:?}");
        }
        assert!(context.iter().any(|o| o == "--cursor"), "{context:?}");
        for review_only in ["--manifest-cursor", "--context-cursor"] {
            assert!(
                !context.iter().any(|o| o == review_only),
                "context {flag} shows {review_only}: {context:?}"
            );
            assert!(review.iter().any(|o| o == review_only), "{review:?}");
        }
        assert!(
            !review.iter().any(|o| o == "--cursor"),
            "review {flag} shows --cursor: {review:?}"
        );
    }
}

#[test]
fn review_says_which_cursors_it_takes() {
    // `--cursor` is hidden from `review`, not gone: it still gets the pointed message.
    let env = TestEnv::new();
    let repo = example_repo(&env);
    let mut cmd = env.command(bin(), &env.plain_path());
    cmd.current_dir(&repo)
        .args(["review", "--cursor", "x", "main..HEAD"]);
    let out = output_within(&mut cmd, 60);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("review takes --manifest-cursor and --context-cursor"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn session_help_names_the_shim_and_a_scope_the_guard_accepts() {
    let env = TestEnv::new();
    let help = help_output(&env, &["session", "--help"], 1000);
    assert!(help.contains("git-prism shim install"), "{help}");
    assert!(help.contains("protected_paths"), "{help}");
    // The scope file shown is one `session check` loads: every key it names is a real one.
    let toml: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("The scope file is TOML"))
        .skip_while(|l| !l.starts_with("  "))
        .take_while(|l| l.is_empty() || l.starts_with("  "))
        .collect();
    assert!(toml.iter().any(|l| l.contains("[[repo]]")), "{toml:?}");
    let repo = example_repo(&env);
    let scope = toml
        .join("\n")
        .replace("/home/me/src/app", &repo.to_string_lossy());
    let file = env.root().join("scope.toml");
    std::fs::write(&file, &scope).unwrap();
    let mut cmd = env.command(bin(), &env.plain_path());
    cmd.current_dir(&repo)
        .args(["session", "check", "--scope"])
        .arg(&file);
    let out = output_within(&mut cmd, 60);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && said.contains("write-push"),
        "the scope in `session --help` is refused:\n{scope}\n{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn exit_statuses_are_in_the_help_of_commands_with_their_own() {
    let env = TestEnv::new();
    for (path, codes) in [
        (&["verify"][..], &["10", "15"][..]),
        (&["session", "verify"], &["10", "15"]),
        (&["hook", "stop"], &["2"]),
        (&["session"], &["0", "1"]),
        (&["shim", "status"], &["1"]),
        (&["serve"], &["1"]),
        (&[], &["126", "127"]),
    ] {
        let args: Vec<&str> = path.iter().copied().chain(["--help"]).collect();
        let help = help_output(&env, &args, 1000);
        let statuses = block(&help, "Exit status:");
        for code in codes {
            assert!(
                statuses
                    .iter()
                    .any(|l| l.split_whitespace().next() == Some(code)),
                "`git-prism {} --help` does not list exit status {code}:\n{help}",
                path.join(" ")
            );
        }
    }
}
