//! Real formatters over real source: what a language's formatter does to a file is never
//! reported as a function change, and real edits made alongside it still are.
//!
//! The files are under `tests/fixtures/formatting/<language>/` (see the README there), or, for
//! Ruby, C#, PHP, Kotlin, Lua and Bash, real files of the corpus projects (sinatra,
//! commandline, slim, clikt, busted, bats-core; cloned by `crate::corpus`). Each formatter runs
//! at a narrow width so it rewraps most functions. A formatter is found through its environment
//! variable (`GIT_PRISM_RUSTFMT`, `GIT_PRISM_BLACK`, `GIT_PRISM_PRETTIER`,
//! `GIT_PRISM_PRETTIER_JAVA` and `GIT_PRISM_PRETTIER_PHP` for the plugins' entry files,
//! `GIT_PRISM_GOFMT`, `GIT_PRISM_CLANG_FORMAT`, `GIT_PRISM_RUBOCOP`, `GIT_PRISM_STYLUA`,
//! `GIT_PRISM_SHFMT`, `GIT_PRISM_KTLINT`), else on PATH; `make test` installs them all. A
//! formatter that is not installed skips its tests with a message, unless
//! `GIT_PRISM_REQUIRE_FORMATTERS` is set (as `make test` and CI set it): then its tests fail, so
//! a missing tool is never a pass. `bench/formatting.py` runs the same commands over the
//! fixtures for the figure in `bench/RESULTS.md`.
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use tree_sitter::{Language, Node, Parser};

use crate::common::{Repo, TestEnv};
use crate::functions::changes;
use crate::oracle::manifest;

/// One language's formatter and what its tests need to know about the grammar.
struct Case {
    /// The fixture directory under `tests/fixtures/formatting`.
    dir: &'static str,
    /// The formatter's name, for messages.
    formatter: &'static str,
    /// Its environment variable, and the program looked up on PATH without it.
    variable: &'static str,
    program: &'static str,
    /// The arguments before the file names (`{plugin}` is the entry file of a prettier
    /// plugin, named by the variable `plugin`; `{tools}` is `tests/fixtures/formatting/tools`).
    args: &'static [&'static str],
    plugin: &'static str,
    /// Where the files come from.
    files: Files,
    grammar: fn() -> Language,
    /// Definitions git-prism reports as functions, and their body and parameters fields.
    functions: &'static [&'static str],
    body: &'static str,
    /// Integer literal kinds.
    integers: &'static [&'static str],
    /// The parameter list kind, and a parameter to add to it (none: a language without
    /// parameter lists).
    parameters: &'static str,
    extra: &'static str,
}

/// Where a case's files come from.
enum Files {
    /// `tests/fixtures/formatting/<dir>/`.
    Fixtures,
    /// Files of a corpus project at its HEAD (cloned by `crate::corpus::clone`).
    Corpus {
        bundle: &'static str,
        paths: &'static [&'static str],
    },
}

const STYLE: &str = "--style={BasedOnStyle: GNU, ColumnLimit: 50}";

const RUST: Case = Case {
    dir: "rust",
    formatter: "rustfmt",
    variable: "GIT_PRISM_RUSTFMT",
    program: "rustfmt",
    args: &["--edition", "2021", "--config", "max_width=50"],
    plugin: "",
    files: Files::Fixtures,
    grammar: || tree_sitter_rust::LANGUAGE.into(),
    functions: &["function_item"],
    body: "body",
    integers: &["integer_literal"],
    parameters: "parameters",
    extra: "extra_param: u8",
};

const PYTHON: Case = Case {
    dir: "python",
    formatter: "black",
    variable: "GIT_PRISM_BLACK",
    program: "black",
    args: &["-q", "-l", "50"],
    plugin: "",
    files: Files::Fixtures,
    grammar: || tree_sitter_python::LANGUAGE.into(),
    functions: &["function_definition"],
    body: "body",
    integers: &["integer"],
    parameters: "parameters",
    extra: "extra_param=None",
};

const PRETTIER: &[&str] = &["--log-level", "warn", "--print-width", "50", "--write"];

const TYPESCRIPT: Case = Case {
    dir: "typescript",
    formatter: "prettier",
    variable: "GIT_PRISM_PRETTIER",
    program: "prettier",
    args: PRETTIER,
    plugin: "",
    files: Files::Fixtures,
    grammar: || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
    functions: &["function_declaration", "method_definition"],
    body: "body",
    integers: &["number"],
    parameters: "formal_parameters",
    extra: "extra_param?: number",
};

const JAVASCRIPT: Case = Case {
    dir: "javascript",
    formatter: "prettier",
    variable: "GIT_PRISM_PRETTIER",
    program: "prettier",
    args: PRETTIER,
    plugin: "",
    files: Files::Fixtures,
    grammar: || tree_sitter_javascript::LANGUAGE.into(),
    functions: &["function_declaration", "method_definition"],
    body: "body",
    integers: &["number"],
    parameters: "formal_parameters",
    extra: "extra_param",
};

const JAVA: Case = Case {
    dir: "java",
    formatter: "prettier-plugin-java",
    variable: "GIT_PRISM_PRETTIER",
    program: "prettier",
    args: &[
        "--log-level",
        "warn",
        "--plugin",
        "{plugin}",
        "--print-width",
        "50",
        "--write",
    ],
    plugin: "GIT_PRISM_PRETTIER_JAVA",
    files: Files::Fixtures,
    grammar: || tree_sitter_java::LANGUAGE.into(),
    functions: &["method_declaration", "constructor_declaration"],
    body: "body",
    integers: &["decimal_integer_literal"],
    parameters: "formal_parameters",
    extra: "int extraParam",
};

const GO: Case = Case {
    dir: "go",
    formatter: "gofmt",
    variable: "GIT_PRISM_GOFMT",
    program: "gofmt",
    args: &["-w"],
    plugin: "",
    files: Files::Fixtures,
    grammar: || tree_sitter_go::LANGUAGE.into(),
    functions: &["function_declaration", "method_declaration"],
    body: "body",
    integers: &["int_literal"],
    parameters: "parameter_list",
    extra: "extraParam int",
};

const C: Case = Case {
    dir: "c",
    formatter: "clang-format",
    variable: "GIT_PRISM_CLANG_FORMAT",
    program: "clang-format",
    args: &["-i", STYLE],
    plugin: "",
    files: Files::Fixtures,
    grammar: || tree_sitter_c::LANGUAGE.into(),
    functions: &["function_definition"],
    body: "body",
    integers: &["number_literal"],
    parameters: "parameter_list",
    extra: "int extra_param",
};

const CPP: Case = Case {
    dir: "cpp",
    formatter: "clang-format",
    variable: "GIT_PRISM_CLANG_FORMAT",
    program: "clang-format",
    args: &["-i", STYLE],
    plugin: "",
    files: Files::Fixtures,
    grammar: || tree_sitter_cpp::LANGUAGE.into(),
    functions: &["function_definition"],
    body: "body",
    integers: &["number_literal"],
    parameters: "parameter_list",
    extra: "int extra_param",
};

const RUBY: Case = Case {
    dir: "ruby",
    formatter: "rubocop",
    variable: "GIT_PRISM_RUBOCOP",
    program: "rubocop",
    // Layout (what RuboCop's `-x` fixes) and the style rewrites of ADR 9; no configuration but
    // a narrow line, so most methods are rewrapped.
    args: &[
        "--no-color",
        "--format",
        "quiet",
        "--fail-level",
        "F",
        "--config",
        "{tools}/rubocop.yml",
        "-a",
        "--only",
        "Layout,Style/StringLiterals,Style/Semicolon,Style/MethodDefParentheses,\
         Style/TrailingCommaInArguments,Style/TrailingCommaInArrayLiteral,\
         Style/TrailingCommaInHashLiteral,Style/MethodCallWithoutArgsParentheses,\
         Style/NumericLiterals,Style/ParenthesesAroundCondition,Style/MultilineIfThen,\
         Style/WhileUntilDo",
    ],
    plugin: "",
    files: Files::Corpus {
        bundle: "sinatra",
        paths: &[
            "lib/sinatra/base.rb",
            "lib/sinatra/indifferent_hash.rb",
            "lib/sinatra/main.rb",
            "lib/sinatra/show_exceptions.rb",
        ],
    },
    grammar: || tree_sitter_ruby::LANGUAGE.into(),
    functions: &["method", "singleton_method"],
    body: "body",
    integers: &["integer"],
    parameters: "method_parameters",
    extra: "extra_param = nil",
};

const PHP: Case = Case {
    dir: "php",
    formatter: "prettier-plugin-php",
    variable: "GIT_PRISM_PRETTIER",
    program: "prettier",
    args: &[
        "--log-level",
        "warn",
        "--plugin",
        "{plugin}",
        "--print-width",
        "50",
        "--write",
    ],
    plugin: "GIT_PRISM_PRETTIER_PHP",
    files: Files::Corpus {
        bundle: "slim",
        paths: &[
            "Slim/Middleware/BodyParsingMiddleware.php",
            "Slim/Middleware/ErrorMiddleware.php",
            "Slim/Routing/Route.php",
            "Slim/Routing/RouteCollector.php",
            "Slim/Routing/RouteParser.php",
        ],
    },
    grammar: || tree_sitter_php::LANGUAGE_PHP.into(),
    functions: &["method_declaration", "function_definition"],
    body: "body",
    integers: &["integer"],
    parameters: "formal_parameters",
    extra: "$extraParam = null",
};

const LUA: Case = Case {
    dir: "lua",
    formatter: "stylua",
    variable: "GIT_PRISM_STYLUA",
    program: "stylua",
    args: &["--column-width", "50"],
    plugin: "",
    files: Files::Corpus {
        bundle: "busted",
        paths: &[
            "busted/block.lua",
            "busted/context.lua",
            "busted/core.lua",
            "busted/init.lua",
            "busted/runner.lua",
        ],
    },
    grammar: || tree_sitter_lua::LANGUAGE.into(),
    functions: &["function_declaration"],
    body: "body",
    integers: &["number"],
    parameters: "parameters",
    extra: "extra_param",
};

const BASH: Case = Case {
    dir: "bash",
    formatter: "shfmt",
    variable: "GIT_PRISM_SHFMT",
    program: "shfmt",
    // Four-space indents, binary operators first, case bodies indented, a space after each
    // redirect: every file is rewritten.
    args: &["-w", "-i", "4", "-bn", "-ci", "-sr"],
    plugin: "",
    files: Files::Corpus {
        bundle: "bats-core",
        paths: &[
            "lib/bats-core/common.bash",
            "lib/bats-core/semaphore.bash",
            "lib/bats-core/test_functions.bash",
            "lib/bats-core/tracing.bash",
            "test/test_helper.bash",
            "test/suite.bats",
        ],
    },
    grammar: || tree_sitter_bash::LANGUAGE.into(),
    functions: &["function_definition"],
    body: "body",
    integers: &["number", "word"],
    parameters: "",
    extra: "",
};

const CSHARP: Case = Case {
    dir: "csharp",
    formatter: "clang-format",
    variable: "GIT_PRISM_CLANG_FORMAT",
    program: "clang-format",
    args: &["-i", STYLE],
    plugin: "",
    files: Files::Corpus {
        bundle: "commandline",
        paths: &[
            "src/CommandLine/Core/InstanceBuilder.cs",
            "src/CommandLine/Core/Tokenizer.cs",
            "src/CommandLine/Core/TypeLookup.cs",
            "src/CommandLine/Infrastructure/StringExtensions.cs",
            "src/CommandLine/Text/HelpText.cs",
            "src/CommandLine/UnParserExtensions.cs",
        ],
    },
    grammar: || tree_sitter_c_sharp::LANGUAGE.into(),
    functions: &[
        "method_declaration",
        "constructor_declaration",
        "local_function_statement",
    ],
    body: "body",
    integers: &["integer_literal"],
    parameters: "parameter_list",
    extra: "int extraParam",
};

const KOTLIN: Case = Case {
    dir: "kotlin",
    formatter: "ktlint",
    variable: "GIT_PRISM_KTLINT",
    program: "ktlint",
    // The rules ktlint cannot fix (line length, names) are off: they would fail the run.
    args: &[
        "-F",
        "--relative",
        "--editorconfig={tools}/ktlint.editorconfig",
    ],
    plugin: "",
    files: Files::Corpus {
        bundle: "clikt",
        paths: &[
            "clikt/src/commonMain/kotlin/com/github/ajalt/clikt/completion/BashCompletionGenerator.kt",
            "clikt/src/commonMain/kotlin/com/github/ajalt/clikt/completion/FishCompletionGenerator.kt",
            "clikt/src/commonMain/kotlin/com/github/ajalt/clikt/core/Context.kt",
            "clikt/src/commonMain/kotlin/com/github/ajalt/clikt/core/JaroWinkerSimilarity.kt",
            "clikt/src/commonMain/kotlin/com/github/ajalt/clikt/core/exceptions.kt",
            "clikt/src/commonMain/kotlin/com/github/ajalt/clikt/output/AbstractHelpFormatter.kt",
            "clikt/src/commonMain/kotlin/com/github/ajalt/clikt/output/text.kt",
            "clikt/src/commonMain/kotlin/com/github/ajalt/clikt/parameters/arguments/Argument.kt",
            "clikt/src/commonMain/kotlin/com/github/ajalt/clikt/parameters/groups/CoOccurringOptionGroup.kt",
            "clikt/src/commonMain/kotlin/com/github/ajalt/clikt/parameters/options/Option.kt",
            "clikt/src/commonMain/kotlin/com/github/ajalt/clikt/parsers/CommandLineParser.kt",
        ],
    },
    grammar: || tree_sitter_kotlin_ng::LANGUAGE.into(),
    functions: &["function_declaration"],
    body: "function_body",
    integers: &["number_literal"],
    parameters: "function_value_parameters",
    extra: "extraParam: Int",
};

/// A function's body: the field of that name, or (grammars without fields) the child of that
/// kind.
fn body_of<'t>(case: &Case, function: Node<'t>) -> Option<Node<'t>> {
    function.child_by_field_name(case.body).or_else(|| {
        let mut cursor = function.walk();
        function
            .children(&mut cursor)
            .find(|c| c.kind() == case.body)
    })
}

/// A file named by the environment, absolute (formatters run in the test repository); none
/// when the variable is unset or the file is missing (an install that could not happen).
fn from_env(variable: &str) -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var_os(variable).filter(|v| !v.is_empty())?);
    Some(std::env::current_dir().unwrap().join(path)).filter(|p| p.is_file())
}

/// The formatter's program, from its variable or PATH.
fn find(case: &Case) -> Option<PathBuf> {
    if std::env::var_os(case.variable).is_some_and(|v| !v.is_empty()) {
        return from_env(case.variable);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(case.program))
        .find(|candidate| candidate.is_file())
}

/// The formatter's command line before the file names, or why it cannot run.
fn command(case: &Case) -> Result<Vec<OsString>, String> {
    let program = find(case).ok_or_else(|| format!("{} not installed", case.formatter))?;
    let mut out = vec![program.into_os_string()];
    for arg in case.args {
        if arg.contains("{tools}") {
            let tools =
                Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formatting/tools");
            out.push(arg.replace("{tools}", &tools.to_string_lossy()).into());
        } else if *arg == "{plugin}" {
            let plugin =
                from_env(case.plugin).ok_or_else(|| format!("{} not installed", case.formatter))?;
            out.push(plugin.into_os_string());
        } else {
            out.push((*arg).into());
        }
    }
    Ok(out)
}

/// The files of a case: `(name, content)`, sorted; `None` when the corpus they come from is
/// not there (the test is skipped, see `crate::corpus`).
fn fixtures(case: &Case, env: &TestEnv) -> Option<Vec<(String, String)>> {
    if let Files::Corpus { bundle, paths } = case.files {
        let clone = crate::corpus::clone(env, bundle)?;
        let mut files: Vec<(String, String)> = paths
            .iter()
            .map(|p| ((*p).to_owned(), clone.git(&["show", &format!("HEAD:{p}")])))
            .collect();
        files.sort();
        return Some(files);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/formatting")
        .join(case.dir);
    let mut files: Vec<(String, String)> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n != "README.md"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", root.display());
    Some(files)
}

/// Runs the formatter over the files in the repository's work tree.
fn format(command: &[OsString], repo: &Repo<'_>, files: &[(String, String)]) {
    let out = Command::new(&command[0])
        .args(&command[1..])
        .args(files.iter().map(|(name, _)| name))
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The lines of `changes` that are function changes (not `formatting_only`).
fn function_changes(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| !l.contains(" formatting_only "))
        .cloned()
        .collect()
}

/// The formatter rewrites every file and touches functions; none is reported as changed.
fn formatting_is_not_a_change(case: &Case) {
    let command = match command(case) {
        Ok(c) => c,
        Err(why) => {
            assert!(
                std::env::var_os("GIT_PRISM_REQUIRE_FORMATTERS").is_none(),
                "{why} (GIT_PRISM_REQUIRE_FORMATTERS is set: a missing formatter fails)"
            );
            eprintln!("skipped: {why}");
            return;
        }
    };
    let env = TestEnv::new();
    let Some(files) = fixtures(case, &env) else {
        return;
    };
    let repo = env.repo(case.dir);
    for (name, content) in &files {
        repo.write(name, content);
    }
    repo.commit("original");
    format(&command, &repo, &files);
    for (name, content) in &files {
        let formatted = std::fs::read_to_string(repo.dir.join(name)).unwrap();
        assert_ne!(
            &formatted, content,
            "{} left {name} as it was",
            case.formatter
        );
    }
    repo.commit("formatted");
    let lines = changes(&manifest(&env, &repo.dir, &["HEAD~1..HEAD"]));
    let touched = lines.len();
    assert!(
        touched >= files.len(),
        "{} touched too few functions: {lines:#?}",
        case.formatter
    );
    assert_eq!(
        function_changes(&lines),
        Vec::<String>::new(),
        "{} reformatting reported as changes",
        case.formatter
    );
}

/// An edit to make in a file: replace `range` with `text`.
struct Edit {
    range: std::ops::Range<usize>,
    text: String,
}

/// Chooses real edits in a file: an integer literal changed in some functions, a parameter
/// added to others, one edit per function, spread through the file. Returns the edits, last
/// first, and how many of each kind.
fn real_edits(case: &Case, source: &str) -> (Vec<Edit>, usize, usize) {
    let mut parser = Parser::new();
    parser.set_language(&(case.grammar)()).unwrap();
    let tree = parser.parse(source, None).unwrap();
    // Functions with a body and no function inside.
    let mut candidates: Vec<Node<'_>> = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
        if case.functions.contains(&node.kind())
            && body_of(case, node).is_some()
            && !has_descendant(node, |n| {
                n.id() != node.id() && case.functions.contains(&n.kind())
            })
        {
            candidates.push(node);
        }
    }
    candidates.sort_by_key(|n| n.start_byte());
    let mut edits = Vec::new();
    let (mut literals, mut parameters) = (0, 0);
    for (i, function) in candidates.iter().enumerate() {
        if literals + parameters >= 8 {
            break;
        }
        let edit = if i % 2 == 0 || case.parameters.is_empty() {
            literal_edit(case, *function, source).inspect(|_| literals += 1)
        } else {
            parameter_edit(case, *function, source).inspect(|_| parameters += 1)
        };
        edits.extend(edit);
    }
    edits.sort_by_key(|e| std::cmp::Reverse(e.range.start));
    (edits, literals, parameters)
}

fn has_descendant(node: Node<'_>, found: impl Fn(Node<'_>) -> bool) -> bool {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if found(n) {
            return true;
        }
        let mut cursor = n.walk();
        stack.extend(n.children(&mut cursor));
    }
    false
}

/// The first decimal integer literal in the function's body, incremented.
fn literal_edit(case: &Case, function: Node<'_>, source: &str) -> Option<Edit> {
    let body = body_of(case, function)?;
    let mut stack = vec![body];
    let mut found: Option<Node<'_>> = None;
    while let Some(n) = stack.pop() {
        let text = &source[n.byte_range()];
        if case.integers.contains(&n.kind())
            && !text.is_empty()
            && text.bytes().all(|b| b.is_ascii_digit())
            && found.is_none_or(|f| n.start_byte() < f.start_byte())
        {
            found = Some(n);
        }
        let mut cursor = n.walk();
        stack.extend(n.children(&mut cursor));
    }
    let literal = found?;
    let value: u64 = source[literal.byte_range()].parse().ok()?;
    Some(Edit {
        range: literal.byte_range(),
        text: (value + 1).to_string(),
    })
}

/// A parameter added at the end of the function's parameter list (none when the list ends
/// with a variadic or keyword-arguments parameter, or is `(void)`).
fn parameter_edit(case: &Case, function: Node<'_>, source: &str) -> Option<Edit> {
    let body_start = body_of(case, function)?.start_byte();
    // The last parameter list before the body (after a Go method's receiver).
    let mut list: Option<Node<'_>> = None;
    let mut stack = vec![function];
    while let Some(n) = stack.pop() {
        if n.start_byte() >= body_start {
            continue;
        }
        if n.kind() == case.parameters && list.is_none_or(|l| n.start_byte() > l.start_byte()) {
            list = Some(n);
        }
        let mut cursor = n.walk();
        stack.extend(n.children(&mut cursor));
    }
    let list = list?;
    let text = &source[list.byte_range()];
    if text.contains("...") || text.contains("**") || text.contains("void)") {
        return None;
    }
    let close = list.child(list.child_count().checked_sub(1)?)?;
    if close.kind() != ")" {
        return None;
    }
    let before = source[..close.start_byte()].trim_end();
    let inserted = if before.ends_with(',') || before.ends_with('(') {
        case.extra.to_owned()
    } else {
        format!(", {}", case.extra)
    };
    Some(Edit {
        range: close.start_byte()..close.start_byte(),
        text: inserted,
    })
}

/// Real edits made with the reformatting are reported exactly as without it.
fn real_edits_survive_formatting(case: &Case) {
    let command = match command(case) {
        Ok(c) => c,
        Err(why) => {
            assert!(
                std::env::var_os("GIT_PRISM_REQUIRE_FORMATTERS").is_none(),
                "{why} (GIT_PRISM_REQUIRE_FORMATTERS is set: a missing formatter fails)"
            );
            eprintln!("skipped: {why}");
            return;
        }
    };
    let env = TestEnv::new();
    let Some(files) = fixtures(case, &env) else {
        return;
    };
    let repo = env.repo(case.dir);
    for (name, content) in &files {
        repo.write(name, content);
    }
    repo.commit("original");
    let (mut literals, mut parameters) = (0, 0);
    let mut edited = Vec::new();
    for (name, content) in &files {
        let (edits, l, p) = real_edits(case, content);
        literals += l;
        parameters += p;
        let mut text = content.clone();
        for edit in edits {
            text.replace_range(edit.range, &edit.text);
        }
        repo.write(name, &text);
        edited.push((name.clone(), text));
    }
    assert!(
        literals > 0 && (parameters > 0 || case.parameters.is_empty()),
        "{}: no edits",
        case.dir
    );
    repo.commit("edited");
    let expected = function_changes(&changes(&manifest(&env, &repo.dir, &["HEAD~1..HEAD"])));
    // The edits alone: exactly one change per edited function, of the edit's kind.
    let count = |kind: &str| {
        expected
            .iter()
            .filter(|l| l.split(' ').nth(1) == Some(kind))
            .count()
    };
    assert_eq!(
        (
            count("modified"),
            count("signature_changed"),
            expected.len()
        ),
        (literals, parameters, literals + parameters),
        "{expected:#?}"
    );
    // The same edits, formatted, from the original.
    format(&command, &repo, &edited);
    repo.commit("formatted");
    let actual = function_changes(&changes(&manifest(&env, &repo.dir, &["HEAD~2..HEAD"])));
    assert_eq!(actual, expected, "{} hid or added changes", case.formatter);
}

#[test]
fn rustfmt_changes_no_function() {
    formatting_is_not_a_change(&RUST);
}

#[test]
fn rustfmt_keeps_real_edits() {
    real_edits_survive_formatting(&RUST);
}

#[test]
fn black_changes_no_function() {
    formatting_is_not_a_change(&PYTHON);
}

#[test]
fn black_keeps_real_edits() {
    real_edits_survive_formatting(&PYTHON);
}

#[test]
fn prettier_changes_no_typescript_function() {
    formatting_is_not_a_change(&TYPESCRIPT);
}

#[test]
fn prettier_keeps_real_typescript_edits() {
    real_edits_survive_formatting(&TYPESCRIPT);
}

#[test]
fn prettier_changes_no_javascript_function() {
    formatting_is_not_a_change(&JAVASCRIPT);
}

#[test]
fn prettier_keeps_real_javascript_edits() {
    real_edits_survive_formatting(&JAVASCRIPT);
}

#[test]
fn prettier_java_changes_no_function() {
    formatting_is_not_a_change(&JAVA);
}

#[test]
fn prettier_java_keeps_real_edits() {
    real_edits_survive_formatting(&JAVA);
}

#[test]
fn gofmt_changes_no_function() {
    formatting_is_not_a_change(&GO);
}

#[test]
fn gofmt_keeps_real_edits() {
    real_edits_survive_formatting(&GO);
}

#[test]
fn clang_format_changes_no_c_function() {
    formatting_is_not_a_change(&C);
}

#[test]
fn clang_format_keeps_real_c_edits() {
    real_edits_survive_formatting(&C);
}

#[test]
fn clang_format_changes_no_cpp_function() {
    formatting_is_not_a_change(&CPP);
}

#[test]
fn clang_format_keeps_real_cpp_edits() {
    real_edits_survive_formatting(&CPP);
}

#[test]
fn rubocop_changes_no_function() {
    formatting_is_not_a_change(&RUBY);
}

#[test]
fn rubocop_keeps_real_edits() {
    real_edits_survive_formatting(&RUBY);
}

#[test]
fn prettier_php_changes_no_function() {
    formatting_is_not_a_change(&PHP);
}

#[test]
fn prettier_php_keeps_real_edits() {
    real_edits_survive_formatting(&PHP);
}

#[test]
fn stylua_changes_no_function() {
    formatting_is_not_a_change(&LUA);
}

#[test]
fn stylua_keeps_real_edits() {
    real_edits_survive_formatting(&LUA);
}

#[test]
fn shfmt_changes_no_function() {
    formatting_is_not_a_change(&BASH);
}

#[test]
fn shfmt_keeps_real_edits() {
    real_edits_survive_formatting(&BASH);
}

#[test]
fn clang_format_changes_no_csharp_function() {
    formatting_is_not_a_change(&CSHARP);
}

#[test]
fn clang_format_keeps_real_csharp_edits() {
    real_edits_survive_formatting(&CSHARP);
}

#[test]
fn ktlint_changes_no_function() {
    formatting_is_not_a_change(&KOTLIN);
}

#[test]
fn ktlint_keeps_real_edits() {
    real_edits_survive_formatting(&KOTLIN);
}
