//! Function analysis of real commits of real projects, labelled by hand: for each commit, every
//! function it changes and how (read from the diff, not from git-prism), with its first line.
//!
//! The histories are the git bundles of the shared corpus (`../shared/corpus/` beside the
//! repository, or `GIT_PRISM_CORPUS`), cloned into a temp directory by the test: their code is
//! never copied into this repository. A missing bundle fails the test.

use std::path::PathBuf;

use serde_json::Value;

use crate::common::TestEnv;
use crate::oracle::manifest;

/// The directory holding the corpus bundles.
fn corpus() -> PathBuf {
    match std::env::var_os("GIT_PRISM_CORPUS").filter(|v| !v.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    }
}

/// One line per function change with its first line (`path change_type name @line [(was
/// old)] [from old_path] [+edited]`), and the `formatting_only`, import and parse-error lines.
fn labelled(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for f in doc["files"].as_array().unwrap() {
        let path = f["path"].as_str().unwrap();
        for c in f["functions_changed"].as_array().into_iter().flatten() {
            let mut line = format!(
                "{path} {} {} @{}",
                c["change_type"].as_str().unwrap(),
                c["name"].as_str().unwrap(),
                c["start_line"]
            );
            if let Some(old) = c["old_name"].as_str() {
                line.push_str(&format!(" (was {old})"));
            }
            if let Some(old) = c["old_path"].as_str() {
                line.push_str(&format!(" from {old}"));
            }
            if c["edited"].as_bool() == Some(true) {
                line.push_str(" +edited");
            }
            out.push(line);
        }
        for name in f["formatting_only"].as_array().into_iter().flatten() {
            out.push(format!("{path} formatting_only {}", name.as_str().unwrap()));
        }
        let list = |k: &str| -> Vec<String> {
            f["imports_changed"][k]
                .as_array()
                .into_iter()
                .flatten()
                .map(|v| v.as_str().unwrap().to_owned())
                .collect()
        };
        let (added, removed) = (list("added"), list("removed"));
        if !added.is_empty() || !removed.is_empty() {
            out.push(format!(
                "{path} imports +{} -{}",
                added.join(","),
                removed.join(",")
            ));
        }
        if f["parse_errors"].as_bool() == Some(true) {
            out.push(format!("{path} parse_errors"));
        }
    }
    out.sort();
    out
}

/// Clones a corpus bundle and checks each commit's changes against its labels.
fn check(bundle: &str, commits: &[(&str, &[&str])]) {
    let source = corpus().join(bundle);
    assert!(
        source.is_file(),
        "{} is missing: the corpus bundles must be beside the repository (or set GIT_PRISM_CORPUS)",
        source.display()
    );
    let env = TestEnv::new();
    let dir = env.root().join("clone");
    let out = env
        .plain_git(&["clone", "-q"])
        .arg(&source)
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (commit, expected) in commits {
        let range = format!("{commit}~1..{commit}");
        let got = labelled(&manifest(&env, &dir, &[&range]));
        let mut expected: Vec<String> = expected.iter().map(|s| (*s).to_owned()).collect();
        expected.sort();
        assert_eq!(got, expected, "{bundle} {commit}");
    }
}

#[test]
fn csharp_commits_of_commandlineparser() {
    check(
        "commandline.bundle",
        &[
            // "Allow single dash as a value": an early return added to one method, a test added.
            (
                "2807896",
                &[
                    "src/CommandLine/Core/Tokenizer.cs modified CommandLine.Core.Tokenizer.TokenizeShortName @134",
                    "tests/CommandLine.Tests/Unit/Core/TokenizerTests.cs added CommandLine.Tests.Unit.Core.TokenizerTests.single_dash_as_a_value @128",
                ],
            ),
            // A new `AutoBuild` overload takes the old one's body (edited); the old one now
            // calls it. The doc comment edit is outside both definitions.
            (
                "a282612",
                &[
                    "src/CommandLine/Text/HelpText.cs modified CommandLine.Text.HelpText.AutoBuild @402",
                    "src/CommandLine/Text/HelpText.cs added CommandLine.Text.HelpText.AutoBuild @419",
                ],
            ),
            // Two property getters changed.
            (
                "fe9e602",
                &[
                    "src/CommandLine/Text/CopyrightInfo.cs modified CommandLine.Text.CopyrightInfo.Empty.get @32",
                    "src/CommandLine/Text/CopyrightInfo.cs modified CommandLine.Text.CopyrightInfo.Default.get @109",
                ],
            ),
            // Null checks in both constructors.
            (
                "3094bfb",
                &[
                    "src/CommandLine/ParserResult.cs modified CommandLine.ParserResult.ParserResult @67",
                    "src/CommandLine/ParserResult.cs modified CommandLine.ParserResult.ParserResult @75",
                ],
            ),
        ],
    );
}

#[test]
fn kotlin_commits_of_clikt() {
    let core = "clikt/src/commonMain/kotlin/com/github/ajalt/clikt/core";
    let parser = "clikt/src/commonMain/kotlin/com/github/ajalt/clikt/parsers/CommandLineParser.kt";
    let at_file = "test/src/commonTest/kotlin/com/github/ajalt/clikt/parsers/AtFileTest.kt";
    check(
        "clikt.bundle",
        &[
            // "Add CommandLineParser.parseAndRun": the extension `parse` delegates to it, `parse`
            // renames a parameter and its use, a comment is added in `throwErrors`.
            (
                "1bbbabc2",
                &[
                    &format!("{core}/CliktCommand.kt modified BaseCliktCommand.parse @89"),
                    &format!("{parser} added CommandLineParser.parseAndRun @19"),
                    &format!("{parser} signature_changed CommandLineParser.parse @37 +edited"),
                    &format!("{parser} formatting_only CommandInvocation.throwErrors"),
                ],
            ),
            // "Make echo public": `protected` dropped from four methods (two `echo` overloads).
            (
                "b79b0bc7",
                &[
                    &format!("{core}/CliktCommand.kt signature_changed CliktCommand.echo @294"),
                    &format!("{core}/CliktCommand.kt signature_changed CliktCommand.echo @307"),
                    &format!("{core}/CliktCommand.kt signature_changed CliktCommand.prompt @375"),
                    &format!("{core}/CliktCommand.kt signature_changed CliktCommand.confirm @412"),
                ],
            ),
            // An extension function's body, a test's body, an unused import dropped.
            (
                "95ce4f04",
                &[
                    &format!("{core}/CliktCommand.kt modified CliktCommand.inferCommandName @540"),
                    "clikt/src/commonTest/kotlin/com/github/ajalt/clikt/core/CliktCommandTest.kt modified CliktCommandTest.`inferring command name` @30",
                    "clikt/src/commonTest/kotlin/com/github/ajalt/clikt/core/CliktCommandTest.kt imports + -com.github.ajalt.clikt.parameters.options.defaultLazy",
                ],
            ),
            // A test with a local class and its method; the `Context` property default is no
            // function.
            (
                "8f3668bd",
                &[
                    &format!("{at_file} added AtFileTest.`atfile after subcommand` @156"),
                    &format!("{at_file} added AtFileTest.`atfile after subcommand`.C.run_ @162"),
                    &format!(
                        "{at_file} imports +com.github.ajalt.clikt.core.subcommands,com.github.ajalt.clikt.parameters.options.flag -"
                    ),
                ],
            ),
        ],
    );
}

#[test]
fn swift_commits_of_swift_argument_parser() {
    let zsh = "Sources/ArgumentParser/Completions/ZshCompletionsGenerator.swift";
    check(
        "swift-argument-parser.bundle",
        &[
            // "Adds aliases to the dump-help output": the memberwise initializer gains a
            // parameter and an assignment, the decoding initializer an assignment, and the
            // caller passes it.
            (
                "bbf95b7",
                &[
                    "Sources/ArgumentParser/Usage/DumpHelpGenerator.swift modified CommandInfoV0.init @62",
                    "Sources/ArgumentParserToolInfo/ToolInfo.swift signature_changed CommandInfoV0.init @67 +edited",
                    "Sources/ArgumentParserToolInfo/ToolInfo.swift modified CommandInfoV0.init @91",
                ],
            ),
            // A computed property renamed (its doc comment edited), its use changed in a method
            // of an extension of `[ParsableCommand.Type]`.
            (
                "750a170",
                &[
                    &format!(
                        "{zsh} modified [ParsableCommand.Type].argumentSpecAndSetupScript @138"
                    ),
                    &format!(
                        "{zsh} renamed ArgumentDefinition.isRepeatingOption @256 (was ArgumentDefinition.isRepeatableOption)"
                    ),
                ],
            ),
            // Three script strings changed in three methods.
            (
                "2073051",
                &[
                    &format!("{zsh} modified [ParsableCommand.Type].zshCompletionScript @14"),
                    &format!("{zsh} modified [ParsableCommand.Type].completionFunctions @50"),
                    &format!(
                        "{zsh} modified [ParsableCommand.Type].argumentActionAndSetupScript @170"
                    ),
                ],
            ),
            // A static computed property added in a protocol extension (the protocol's
            // requirement is no function), and its use.
            (
                "a836797",
                &[
                    "Sources/ArgumentParser/Parsable Types/ParsableArguments.swift added ParsableArguments._errorPrefix @75",
                    "Sources/ArgumentParser/Usage/MessageInfo.swift modified MessageInfo.fullText @160",
                ],
            ),
        ],
    );
}

#[test]
fn scala_commits_of_scopt() {
    let options = "shared/src/main/scala/scopt/options.scala";
    check(
        "scopt.bundle",
        &[
            // An immutable map: a method and the function nested in it change, an import too.
            (
                "b2bac82",
                &[
                    &format!("{options} modified OptionParser.parse @417"),
                    &format!("{options} modified OptionParser.parse.handleOccurrence @454"),
                    &format!(
                        "{options} imports +collection.immutable.ListMap -collection.mutable.ListMap"
                    ),
                ],
            ),
            // A filter in a method, an expected string in a test method.
            (
                "2d19279",
                &[
                    &format!("{options} modified OptionParser.commandExample @368"),
                    "shared/src/test/scala/scopt/ImmutableParserSpec.scala modified ImmutableParserSpec.showUsageHiddenCmdParser @767",
                ],
            ),
            // A case added to a method's match; the test added is a `test(...) { }` call, no
            // function.
            (
                "923b71d",
                &["shared/src/main/scala/scopt/OParser.scala modified OParser.children @130"],
            ),
            // An implicit method added to an object.
            (
                "65b7b5e",
                &["shared/src/main/scala/scopt/Read.scala added Read.optionRead @121"],
            ),
        ],
    );
}

/// Clones a corpus bundle into the environment's temp root.
fn clone(env: &TestEnv, bundle: &str) -> PathBuf {
    let source = corpus().join(bundle);
    assert!(source.is_file(), "{} is missing", source.display());
    let dir = env.root().join(bundle.trim_end_matches(".bundle"));
    let out = env
        .plain_git(&["clone", "-q"])
        .arg(&source)
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// The shim's answer to an agent's `git <args>`.
fn agent_answer(env: &TestEnv, dir: &std::path::Path, args: &[&str]) -> Value {
    let out = env
        .shim_git(args)
        .env("CLAUDECODE", "1")
        .env("GIT_PRISM_DEBUG", "1")
        .current_dir(dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("git-prism: structured: "),
        "git {args:?} was not answered: {stderr}"
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn hunk_headers_name_the_functions_of_each_language() {
    let env = TestEnv::new();
    for (bundle, commit, path, label) in [
        (
            "commandline.bundle",
            "2807896",
            "src/CommandLine/Core/Tokenizer.cs",
            "CommandLine.Core.Tokenizer.TokenizeShortName",
        ),
        (
            "clikt.bundle",
            "95ce4f04",
            "clikt/src/commonMain/kotlin/com/github/ajalt/clikt/core/CliktCommand.kt",
            "CliktCommand.inferCommandName",
        ),
        (
            "swift-argument-parser.bundle",
            "a836797",
            "Sources/ArgumentParser/Usage/MessageInfo.swift",
            "MessageInfo.fullText",
        ),
        (
            "scopt.bundle",
            "65b7b5e",
            "shared/src/main/scala/scopt/Read.scala",
            "Read.optionRead",
        ),
    ] {
        let dir = clone(&env, bundle);
        let doc = agent_answer(&env, &dir, &["show", commit]);
        let hunks: Vec<&str> = doc["hunks"][path]
            .as_array()
            .unwrap_or_else(|| panic!("{bundle}: no hunks for {path}: {doc}"))
            .iter()
            .map(|h| h.as_str().unwrap())
            .collect();
        assert!(
            hunks
                .iter()
                .any(|h| h.lines().next().unwrap().contains(label)),
            "{bundle}: {hunks:#?}"
        );
    }
}

/// `git-prism context <range>` in a clone.
fn context(env: &TestEnv, dir: &std::path::Path, range: &str) -> Value {
    let out = env
        .command(crate::common::bin(), &env.plain_path())
        .args(["context", range])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn csharp_using_and_kotlin_import_scope_callers_and_resolve_callees() {
    let env = TestEnv::new();
    let summary = |doc: &Value, name: &str| -> (String, Vec<String>, Vec<String>) {
        let f = doc["functions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == name)
            .unwrap_or_else(|| panic!("{name}: {doc}"));
        let callers = f["callers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| format!("{}:{}", c["file"].as_str().unwrap(), c["line"]))
            .collect();
        let callees = f["callees"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| {
                let file = c["resolved_file"].as_str()?;
                Some(format!("{} {file}", c["callee"].as_str().unwrap()))
            })
            .collect();
        (f["scoping"].as_str().unwrap().to_owned(), callers, callees)
    };
    // C#: the tokenizer's one caller; the calls into `Token` (another file, same namespace).
    let dir = clone(&env, "commandline.bundle");
    let doc = context(&env, &dir, "2807896~1..2807896");
    let token = "src/CommandLine/Core/Token.cs";
    assert_eq!(
        summary(&doc, "CommandLine.Core.Tokenizer.TokenizeShortName"),
        (
            "scoped".to_owned(),
            vec!["src/CommandLine/Core/Tokenizer.cs:35".to_owned()],
            vec![
                format!("Token.Value {token}"),
                format!("Token.Value {token}"),
                format!("Token.Name {token}"),
                format!("Token.Name {token}"),
                format!("Token.Value {token}"),
            ]
        )
    );
    // Kotlin: a private extension's caller in its file, and its own file's helper.
    let dir = clone(&env, "clikt.bundle");
    let doc = context(&env, &dir, "95ce4f04~1..95ce4f04");
    let file = "clikt/src/commonMain/kotlin/com/github/ajalt/clikt/core/CliktCommand.kt";
    assert_eq!(
        summary(&doc, "CliktCommand.inferCommandName"),
        (
            "scoped".to_owned(),
            vec![format!("{file}:85")],
            vec![format!("classSimpleName {file}")]
        )
    );
}
