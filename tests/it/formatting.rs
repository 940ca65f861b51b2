//! Real formatters over real source: what a language's formatter does to a file is never
//! reported as a function change, and real edits made alongside it still are.
//!
//! The files are under `tests/fixtures/formatting/<language>/` (see the README there), or, where
//! that directory holds a `corpus.txt`, real files of a project of the shared corpus (its first
//! line names the bundle, the others the files), read from a clone of the bundle. Each
//! formatter runs at a narrow width so it rewraps most functions. A formatter is found through
//! its environment variable (`GIT_PRISM_RUSTFMT`, `GIT_PRISM_BLACK`, `GIT_PRISM_PRETTIER`,
//! `GIT_PRISM_PRETTIER_JAVA` for the Java plugin's entry file, `GIT_PRISM_GOFMT`,
//! `GIT_PRISM_CLANG_FORMAT`, `GIT_PRISM_KTLINT`), else on PATH; `make test` installs them all. A formatter that is
//! not installed skips its tests with a message, unless `GIT_PRISM_REQUIRE_FORMATTERS` is set
//! (as `make test` and CI set it): then its tests fail, so a missing tool is never a pass. `bench/formatting.py` runs the same commands
//! for the figure in `bench/RESULTS.md`.

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
    /// The arguments before the file names (`{plugin}` is the Java plugin's entry file).
    args: &'static [&'static str],
    grammar: fn() -> Language,
    /// Definitions git-prism reports as functions, and their body and parameters fields.
    functions: &'static [&'static str],
    body: &'static str,
    /// Integer literal kinds.
    integers: &'static [&'static str],
    /// The parameter list kind, and a parameter to add to it.
    parameters: &'static str,
    extra: &'static str,
}

const STYLE: &str = "--style={BasedOnStyle: GNU, ColumnLimit: 50}";

const RUST: Case = Case {
    dir: "rust",
    formatter: "rustfmt",
    variable: "GIT_PRISM_RUSTFMT",
    program: "rustfmt",
    args: &["--edition", "2021", "--config", "max_width=50"],
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
    grammar: || tree_sitter_cpp::LANGUAGE.into(),
    functions: &["function_definition"],
    body: "body",
    integers: &["number_literal"],
    parameters: "parameter_list",
    extra: "int extra_param",
};

const CSHARP: Case = Case {
    dir: "csharp",
    formatter: "clang-format",
    variable: "GIT_PRISM_CLANG_FORMAT",
    program: "clang-format",
    args: &["-i", STYLE],
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
            let plugin = from_env("GIT_PRISM_PRETTIER_JAVA")
                .ok_or_else(|| "prettier-plugin-java not installed".to_owned())?;
            out.push(plugin.into_os_string());
        } else {
            out.push((*arg).into());
        }
    }
    Ok(out)
}

/// The fixture files of a language: `(name, content)`, sorted.
fn fixtures(dir: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/formatting")
        .join(dir);
    if root.join("corpus.txt").is_file() {
        return corpus_files(&root.join("corpus.txt"));
    }
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
    files
}

/// The files a `corpus.txt` names, read from a clone of its bundle (`GIT_PRISM_CORPUS`, else
/// `../shared/corpus` beside the repository): `(path, content)`, sorted. A missing bundle fails.
fn corpus_files(list: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(list).unwrap();
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let bundle = lines.next().expect("corpus.txt names a bundle");
    let corpus = std::env::var_os("GIT_PRISM_CORPUS")
        .filter(|v| !v.is_empty())
        .map_or_else(
            || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
            PathBuf::from,
        );
    let source = corpus.join(bundle);
    assert!(
        source.is_file(),
        "{} is missing: the corpus bundles must be beside the repository (or set GIT_PRISM_CORPUS)",
        source.display()
    );
    let env = TestEnv::new();
    let clone = env.root().join("clone");
    let out = env
        .plain_git(&["clone", "-q", "--no-checkout"])
        .arg(&source)
        .arg(&clone)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files: Vec<(String, String)> = lines
        .map(|path| {
            let out = env
                .plain_git(&["show", &format!("HEAD:{path}")])
                .current_dir(&clone)
                .output()
                .unwrap();
            assert!(out.status.success(), "{path} is not in {bundle}");
            (path.to_owned(), String::from_utf8(out.stdout).unwrap())
        })
        .collect();
    files.sort();
    files
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
    let repo = env.repo(case.dir);
    let files = fixtures(case.dir);
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
        let edit = if i % 2 == 0 {
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
    let repo = env.repo(case.dir);
    let files = fixtures(case.dir);
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
    assert!(literals > 0 && parameters > 0, "{}: no edits", case.dir);
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
