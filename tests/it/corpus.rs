//! Real commits of real projects, labelled by hand: for each commit, every function it changes
//! and how (read from the diff and the sources at that commit, not from git-prism), with its
//! first line, and the `formatting_only`, import and parse-error lines; asserted exactly. Also
//! the hunk headers and the function context of a few of them.
//!
//! The histories are the git bundles of the shared corpus (`../shared/corpus/`, see its
//! README), cloned into a temp directory by each test, never copied into this repository. The
//! directory is `GIT_PRISM_CORPUS`, else the first `shared/corpus` in an ancestor of this crate
//! (`../shared/corpus` beside a clone or a worktree, or one further up).
//! `make test` always sets `GIT_PRISM_CORPUS` (the Makefile finds it the same way, `.ci/run`
//! also beside the repository a clone came from): then a missing corpus fails the tests;
//! without it (a plain `cargo test` far from any corpus) they are skipped with a message.

use std::path::PathBuf;

use serde_json::Value;

use crate::common::{Repo, TestEnv};
use crate::oracle::manifest;

/// The corpus directory, or why there is none.
fn corpus_dir() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("GIT_PRISM_CORPUS").filter(|v| !v.is_empty()) {
        let dir = std::env::current_dir().unwrap().join(dir);
        return if dir.is_dir() {
            Ok(dir)
        } else {
            Err(format!(
                "GIT_PRISM_CORPUS={} is not a directory",
                dir.display()
            ))
        };
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("shared/corpus"))
        .find(|d| d.is_dir())
        .ok_or_else(|| "no shared/corpus found (set GIT_PRISM_CORPUS)".to_owned())
}

/// A clone of the corpus bundle `name` in the test's temp directory; `None` (the test skipped)
/// when there is no corpus and `GIT_PRISM_CORPUS` is unset.
pub(crate) fn clone<'e>(env: &'e TestEnv, name: &str) -> Option<Repo<'e>> {
    let dir = match corpus_dir() {
        Ok(dir) => dir,
        Err(why) => {
            assert!(
                std::env::var_os("GIT_PRISM_CORPUS").is_none(),
                "{why}: the corpus is required"
            );
            eprintln!("skipped: {why}");
            return None;
        }
    };
    let bundle = dir.join(format!("{name}.bundle"));
    assert!(bundle.is_file(), "{} missing", bundle.display());
    let target = env.root().join(name);
    let out = env
        .command(&env.real_git, &env.plain_path())
        .arg("clone")
        .arg("-q")
        .arg(&bundle)
        .arg(&target)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "clone {name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(env.repo_at(&target))
}

/// One line per function change with its first line (`path change_type name @line [(was
/// old)] [from old_path] [+edited]`), and the `formatting_only`, import, opaque and
/// parse-error lines.
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
        for name in f["opaque_changed"].as_array().into_iter().flatten() {
            out.push(format!("{path} opaque {}", name.as_str().unwrap()));
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
    let env = TestEnv::new();
    let Some(repo) = clone(&env, bundle) else {
        return;
    };
    for (commit, expected) in commits {
        let range = format!("{commit}~1..{commit}");
        let got = labelled(&manifest(&env, &repo.dir, &[&range]));
        let mut expected: Vec<String> = expected.iter().map(|s| (*s).to_owned()).collect();
        expected.sort();
        assert_eq!(got, expected, "{bundle} {commit}");
    }
}

#[test]
fn sinatra_commits_labelled_by_hand() {
    check(
        "sinatra",
        &[
            // "Rename warn method to warn_for_deprecation": the class-level `warn` (inside
            // `class << self`) renamed and its `super` call made a call of `warn`; its caller
            // `public=` follows.
            (
                "21db005c",
                &[
                    "lib/sinatra/base.rb modified Sinatra::Base.public= @1410",
                    "lib/sinatra/base.rb renamed Sinatra::Base.warn_for_deprecation @1775 (was Sinatra::Base.warn) +edited",
                ],
            ),
            // "Allow CALLERS_TO_IGNORE to be overridden": a new class-level reader, used by
            // `cleaned_caller`.
            (
                "0b2c3a7c",
                &[
                    "lib/sinatra/base.rb added Sinatra::Base.callers_to_ignore @1225",
                    "lib/sinatra/base.rb modified Sinatra::Base.cleaned_caller @1792",
                ],
            ),
            // "Remove the IndifferentHash initializer": the instance method goes; a minitest
            // method changes two assertions.
            (
                "ceb14eda",
                &[
                    "lib/sinatra/indifferent_hash.rb deleted Sinatra::IndifferentHash#initialize @46",
                    "test/indifferent_hash_test.rb modified TestIndifferentHashBasics#test_default_object @28",
                ],
            ),
        ],
    );
}

#[test]
fn slim_commits_labelled_by_hand() {
    check(
        "slim",
        &[
            // "Added ability to override RouteGroupInterface": `group` delegates to two new
            // protected methods; one more `use`.
            (
                "0c72421d",
                &[
                    "Slim/Routing/RouteCollector.php added RouteCollector::createGroup @237",
                    "Slim/Routing/RouteCollector.php added RouteCollector::createProxy @243",
                    "Slim/Routing/RouteCollector.php imports +Slim\\Interfaces\\RouteCollectorProxyInterface -",
                    "Slim/Routing/RouteCollector.php modified RouteCollector::group @226",
                ],
            ),
            // "Persist routes indexed by name": a new property (no function), three methods.
            (
                "5542d85d",
                &[
                    "Slim/Routing/RouteCollector.php modified RouteCollector::getNamedRoute @190",
                    "Slim/Routing/RouteCollector.php modified RouteCollector::map @235",
                    "Slim/Routing/RouteCollector.php modified RouteCollector::removeNamedRoute @179",
                ],
            ),
            // "Update BodyParsingMiddlewareTest": the anonymous class a helper returns gets a
            // property (the helper's code) and its `handle` changes; two tests follow.
            (
                "4c7e0cfe",
                &[
                    "tests/Middleware/BodyParsingMiddlewareTest.php modified BodyParsingMiddlewareTest::createRequestHandler @29",
                    "tests/Middleware/BodyParsingMiddlewareTest.php modified BodyParsingMiddlewareTest::createRequestHandler::class@anonymous::handle @41",
                    "tests/Middleware/BodyParsingMiddlewareTest.php modified BodyParsingMiddlewareTest::testParsing @151",
                    "tests/Middleware/BodyParsingMiddlewareTest.php modified BodyParsingMiddlewareTest::testParsingWithARegisteredParser @162",
                ],
            ),
        ],
    );
}

#[test]
fn busted_commits_labelled_by_hand() {
    check(
        "busted",
        &[
            // "Restore state on its own terms": a local function value inside `restore`.
            (
                "fc45066",
                &[
                    "busted/context.lua added restore.set @20",
                    "busted/context.lua modified restore @15",
                ],
            ),
            // "Refactor copying of context": a local function inside the function bound to
            // `handler.format`.
            (
                "1b52da3",
                &[
                    "busted/outputHandlers/base.lua added handler.format.copyElement @56",
                    "busted/outputHandlers/base.lua modified handler.format @55",
                ],
            ),
            // "convert error object to string before encoding": `function busted.getTrace` and
            // the function bound to `handler.suiteEnd`, each inside a module's returned
            // anonymous function (no name of its own).
            (
                "e5e6691",
                &[
                    "busted/core.lua modified busted.getTrace @65",
                    "busted/outputHandlers/json.lua modified handler.suiteEnd @9",
                ],
            ),
        ],
    );
}

#[test]
fn bats_core_commits_labelled_by_hand() {
    check(
        "bats-core",
        &[
            // "Simplify tracing code": one function.
            (
                "34833b5",
                &["lib/bats-core/tracing.bash modified bats_debug_trap @274"],
            ),
            // "Centrallize RELATIVE_BATS_ROOT": code moves from a bats file's `setup` into the
            // shared `fixtures` helper, and a test's expectations use it.
            (
                "4ac00c5",
                &[
                    "test/suite.bats modified @test \"errors when loading common helper from multiple tests in a suite\" @54",
                    "test/test_helper.bash modified fixtures @14",
                    "test/warnings.bats modified setup @5",
                ],
            ),
            // "Add unit-test suite that demonstrates the issue": a new bats file (two tests,
            // `function name()` hooks) and a suite setup file.
            (
                "115f3e5",
                &[
                    "test/fixtures/junit-formatter/issue1180/referenced_connectors_tests.bats added @test \"skipped-and-junit-agrees\" @17",
                    "test/fixtures/junit-formatter/issue1180/referenced_connectors_tests.bats added @test \"skipped-but-junit-reports-failure\" @23",
                    "test/fixtures/junit-formatter/issue1180/referenced_connectors_tests.bats added setup_file @4",
                    "test/fixtures/junit-formatter/issue1180/referenced_connectors_tests.bats added teardown_file @8",
                    "test/fixtures/junit-formatter/issue1180/setup_suite.bash added setup_suite @3",
                    "test/fixtures/junit-formatter/issue1180/setup_suite.bash added teardown_suite @7",
                ],
            ),
        ],
    );
}

#[test]
fn csharp_commits_of_commandlineparser() {
    check(
        "commandline",
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
        "clikt",
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
        "swift-argument-parser",
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
            // of an extension of `[ParsableCommand.Type]`. The two zsh completion snapshots
            // change functions (`_base-test_help`, `_math_add` and four more), but zsh's expansion flags
            // (`${(M)@:#...}`) are no bash: read with bash's grammar (shell files are), they are
            // `parse_errors` and those functions go unreported.
            (
                "750a170",
                &[
                    "Tests/ArgumentParserExampleTests/Snapshots/testMathZshCompletionScript().zsh parse_errors",
                    "Tests/ArgumentParserUnitTests/Snapshots/testBase_Zsh().zsh parse_errors",
                    &format!(
                        "{zsh} modified [ParsableCommand.Type].argumentSpecAndSetupScript @138"
                    ),
                    &format!(
                        "{zsh} renamed ArgumentDefinition.isRepeatingOption @256 (was ArgumentDefinition.isRepeatableOption)"
                    ),
                ],
            ),
            // Three script strings changed in three methods, and the zsh snapshots they
            // generate: the first function of each is read, the rest are past zsh's expansion
            // flags (`parse_errors`; `_math`, `_math_stats`, `_math_stats_quantiles` and
            // `_base-test` go unreported).
            (
                "2073051",
                &[
                    "Tests/ArgumentParserExampleTests/Snapshots/testMathZshCompletionScript().zsh modified __math_complete @3",
                    "Tests/ArgumentParserExampleTests/Snapshots/testMathZshCompletionScript().zsh parse_errors",
                    "Tests/ArgumentParserUnitTests/Snapshots/testBase_Zsh().zsh modified __base-test_complete @3",
                    "Tests/ArgumentParserUnitTests/Snapshots/testBase_Zsh().zsh parse_errors",
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
        "scopt",
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

/// Issue 36: items inside macro invocations were invisible (serde_json wrapped its 128-bit
/// integer support in `serde_if_integer128! { .. }`; tokio much of its API in `cfg_*! { .. }`).
/// A macro whose body is items is read as if they were written outside it; one whose body is
/// not stays opaque, and is said to be.
#[test]
fn rust_items_inside_macros_on_real_commits() {
    check(
        "json",
        &[
            // Two `From` impls added inside `serde_if_integer128!`, told apart by the trait's
            // type argument; a `#[cfg]` moved from two functions to the macro around each
            // (their signatures read the same: the macro's attributes are its items'); a
            // `from_integer! { i128 u128 }` (a list of types, not items) inside it, opaque.
            (
                "04ff227",
                &[
                    "src/number.rs added <Number as From<i128>>::from @746",
                    "src/number.rs added <Number as From<u128>>::from @752",
                    "src/number.rs parse_errors",
                    "src/value/from.rs opaque macro from_integer!",
                    "src/value/ser.rs modified <Serializer as serde::Serializer>::serialize_i128 @82",
                    "src/value/ser.rs modified <Serializer as serde::Serializer>::serialize_u128 @109",
                    "src/value/ser.rs parse_errors",
                ],
            ),
            // The macro dropped, its functions written outside it, unchanged: reindented only
            // (they read `added`); the `deserialize_number!(..)` lines it held moved into the
            // impl beside their like, unchanged: nothing.
            (
                "37e76e0",
                &[
                    "src/de.rs formatting_only <&'a mut Deserializer as de::Deserializer>::deserialize_i128",
                    "src/de.rs formatting_only <&'a mut Deserializer as de::Deserializer>::deserialize_u128",
                    "src/de.rs formatting_only Deserializer::scan_integer128",
                    "src/de.rs imports + -serde::serde_if_integer128",
                    "src/number.rs imports + -serde::serde_if_integer128",
                    "src/ser.rs formatting_only <&'a mut Serializer as ser::Serializer>::serialize_i128",
                    "src/ser.rs formatting_only <&'a mut Serializer as ser::Serializer>::serialize_u128",
                    "src/ser.rs formatting_only <MapKeySerializer as ser::Serializer>::serialize_i128",
                    "src/ser.rs formatting_only <MapKeySerializer as ser::Serializer>::serialize_u128",
                    "src/ser.rs formatting_only <NumberStrEmitter as ser::Serializer>::serialize_i128",
                    "src/ser.rs formatting_only <NumberStrEmitter as ser::Serializer>::serialize_u128",
                    "src/ser.rs formatting_only <RawValueStrEmitter as ser::Serializer>::serialize_i128",
                    "src/ser.rs formatting_only <RawValueStrEmitter as ser::Serializer>::serialize_u128",
                    "src/ser.rs imports + -serde::serde_if_integer128",
                    "src/value/de.rs imports + -serde::serde_if_integer128",
                    "src/value/from.rs imports + -serde::serde_if_integer128",
                    "src/value/ser.rs formatting_only <Serializer as serde::Serializer>::serialize_i128",
                    "src/value/ser.rs formatting_only <Serializer as serde::Serializer>::serialize_u128",
                    "src/value/ser.rs imports + -serde::serde_if_integer128",
                ],
            ),
        ],
    );
}

/// Issue 36: one rename rule for every language. A body that changed beyond names is a new
/// function unless it is large and similar; one that changed only in names, or a member that
/// kept its own name under a renamed scope, is the same function renamed.
#[test]
fn renames_follow_one_rule_on_real_commits() {
    check(
        "commandline",
        &[
            // `CreateDefault() { return new DefaultSentenceBuilder(); }` became `Create() {
            // return Factory(); }`: a one-line body replaced (it read `renamed`).
            (
                "f734165",
                &[
                    "src/CommandLine/Text/HelpText.cs signature_changed CommandLine.Text.HelpText.HelpText @37",
                    "src/CommandLine/Text/HelpText.cs signature_changed CommandLine.Text.HelpText.HelpText @60",
                    "src/CommandLine/Text/HelpText.cs signature_changed CommandLine.Text.HelpText.HelpText @83",
                    "src/CommandLine/Text/SentenceBuilder.cs added CommandLine.Text.SentenceBuilder.Create @21",
                    "src/CommandLine/Text/SentenceBuilder.cs deleted CommandLine.Text.SentenceBuilder.CreateDefault @22",
                ],
            ),
            // The property renamed with its field: its accessors changed only in that name.
            (
                "afd1d5a",
                &[
                    "src/CommandLine/Parser.cs modified CommandLine.Parser.ParseArguments @86",
                    "src/CommandLine/Parser.cs modified CommandLine.Parser.ParseArguments @116",
                    "src/CommandLine/ParserSettings.cs modified CommandLine.ParserSettings.ParserSettings @27",
                    "src/CommandLine/ParserSettings.cs renamed CommandLine.ParserSettings.CaseInsensitiveEnumValues.get @59 (was CommandLine.ParserSettings.CaseInsensitiveValues.get) +edited",
                    "src/CommandLine/ParserSettings.cs renamed CommandLine.ParserSettings.CaseInsensitiveEnumValues.set @60 (was CommandLine.ParserSettings.CaseInsensitiveValues.set) +edited",
                ],
            ),
        ],
    );
    check(
        "json",
        &[
            // `impl IntoDeserializer<'de, crate::Error>` now spelled `<'de, Error>`: the impls'
            // one-line members keep their names under the renamed impls (they read `added`
            // and `deleted` with the trait's arguments in the name, and nothing without them).
            (
                "0d084c5",
                &[
                    "src/map.rs renamed <Map as de::IntoDeserializer<Error>>::into_deserializer @596 (was <Map as de::IntoDeserializer<crate::Error>>::into_deserializer)",
                    "src/map.rs renamed <&'de Map as de::IntoDeserializer<Error>>::into_deserializer @604 (was <&'de Map as de::IntoDeserializer<crate::Error>>::into_deserializer)",
                    "src/map.rs imports +crate::error::Error -",
                    "src/value/de.rs modified <VariantDeserializer as VariantAccess>::struct_variant @592",
                    "src/value/de.rs modified <VariantRefDeserializer as VariantAccess>::struct_variant @1102",
                    "src/value/de.rs imports +serde::de::Deserializer as _ -serde::de::Deserializer",
                ],
            ),
        ],
    );
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
            "sinatra",
            "ceb14eda",
            "test/indifferent_hash_test.rb",
            "TestIndifferentHashBasics#test_default_object",
        ),
        (
            "commandline",
            "2807896",
            "src/CommandLine/Core/Tokenizer.cs",
            "CommandLine.Core.Tokenizer.TokenizeShortName",
        ),
        (
            "slim",
            "5542d85d",
            "Slim/Routing/RouteCollector.php",
            "RouteCollector::map",
        ),
        (
            "clikt",
            "95ce4f04",
            "clikt/src/commonMain/kotlin/com/github/ajalt/clikt/core/CliktCommand.kt",
            "CliktCommand.inferCommandName",
        ),
        (
            "swift-argument-parser",
            "a836797",
            "Sources/ArgumentParser/Usage/MessageInfo.swift",
            "MessageInfo.fullText",
        ),
        (
            "bats-core",
            "34833b5",
            "lib/bats-core/tracing.bash",
            "bats_debug_trap",
        ),
        (
            "scopt",
            "65b7b5e",
            "shared/src/main/scala/scopt/Read.scala",
            "Read.optionRead",
        ),
        ("busted", "e5e6691", "busted/core.lua", "busted.getTrace"),
        // Items inside a macro are named, not the macro (issue 36), and a change inside a
        // macro whose body is not items says the macro is opaque.
        (
            "json",
            "04ff227",
            "src/number.rs",
            "added <Number as From<i128>>::from, <Number as From<u128>>::from",
        ),
        (
            "json",
            "04ff227",
            "src/value/from.rs",
            "opaque macro from_integer!",
        ),
    ] {
        // One clone per bundle, however many rows it has.
        let dir = env.root().join(bundle);
        let dir = if dir.is_dir() {
            dir
        } else {
            let Some(repo) = clone(&env, bundle) else {
                return;
            };
            repo.dir
        };
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
    let Some(repo) = clone(&env, "commandline") else {
        return;
    };
    let doc = context(&env, &repo.dir, "2807896~1..2807896");
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
    let Some(repo) = clone(&env, "clikt") else {
        return;
    };
    let doc = context(&env, &repo.dir, "95ce4f04~1..95ce4f04");
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

/// Issue 36: a test module's calls are tests. serde_json's `ExtendedFloat::mul` (its lexical
/// float parser, imported in 422e1d3) is called by `#[cfg(test)] mod tests` in its own file,
/// on values whose type the resolver does not know (`x.mul(&y)`): it read as untested.
#[test]
fn a_test_module_tests_its_own_file_on_a_real_commit() {
    let env = TestEnv::new();
    let Some(repo) = clone(&env, "json") else {
        return;
    };
    let out = env
        .command(crate::common::bin(), &env.plain_path())
        .args([
            "context",
            "422e1d3~1..422e1d3",
            "--function-names",
            "ExtendedFloat::mul",
        ])
        .current_dir(&repo.dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mul = &doc["functions"][0];
    assert_eq!(mul["name"], "ExtendedFloat::mul", "{doc:#}");
    assert_eq!(mul["blast_radius"]["has_tests"], true, "{doc:#}");
    let tests: Vec<&str> = mul["test_references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"].as_str().unwrap())
        .collect();
    assert_eq!(tests, ["tests::check_mul", "tests::mul_test"]);
}
