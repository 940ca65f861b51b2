//! Real commits of real projects, labelled by hand: for each, the functions it changes and how,
//! asserted exactly (the same lines as `crate::functions::changes`).
//!
//! The histories are the git bundles of the shared corpus (`../shared/corpus/`, see its
//! README), cloned into a temp directory by each test, never copied into this repository. The
//! directory is `GIT_PRISM_CORPUS`, else the first `shared/corpus` beside an ancestor of this
//! crate. `make test` sets `GIT_PRISM_CORPUS`: then a missing corpus fails the tests; without it
//! they are skipped with a message.

use std::path::PathBuf;

use crate::common::{Repo, TestEnv};
use crate::functions::changes;
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

/// Asserts the function changes of each labelled commit of a corpus project.
fn labelled(bundle: &str, commits: &[(&str, &[&str])]) {
    let env = TestEnv::new();
    let Some(repo) = clone(&env, bundle) else {
        return;
    };
    for (commit, expected) in commits {
        let range = format!("{commit}^..{commit}");
        let got = changes(&manifest(&env, &repo.dir, &[&range]));
        assert_eq!(got, *expected, "{bundle} {commit}");
    }
}

#[test]
fn sinatra_commits_labelled_by_hand() {
    labelled(
        "sinatra",
        &[
            // "Rename warn method to warn_for_deprecation": the class-level `warn` (inside
            // `class << self`) renamed and its `super` call made a call of `warn`; its caller
            // `public=` follows.
            (
                "21db005c",
                &[
                    "lib/sinatra/base.rb modified Sinatra::Base.public=",
                    "lib/sinatra/base.rb renamed Sinatra::Base.warn_for_deprecation (was Sinatra::Base.warn) +edited",
                ],
            ),
            // "Allow CALLERS_TO_IGNORE to be overridden": a new class-level reader, used by
            // `cleaned_caller`.
            (
                "0b2c3a7c",
                &[
                    "lib/sinatra/base.rb added Sinatra::Base.callers_to_ignore",
                    "lib/sinatra/base.rb modified Sinatra::Base.cleaned_caller",
                ],
            ),
            // "Remove the IndifferentHash initializer": the instance method goes; a minitest
            // method changes two assertions.
            (
                "ceb14eda",
                &[
                    "lib/sinatra/indifferent_hash.rb deleted Sinatra::IndifferentHash#initialize",
                    "test/indifferent_hash_test.rb modified TestIndifferentHashBasics#test_default_object",
                ],
            ),
        ],
    );
}

#[test]
fn slim_commits_labelled_by_hand() {
    labelled(
        "slim",
        &[
            // "Added ability to override RouteGroupInterface": `group` delegates to two new
            // protected methods; one more `use`.
            (
                "0c72421d",
                &[
                    "Slim/Routing/RouteCollector.php added RouteCollector::createGroup",
                    "Slim/Routing/RouteCollector.php added RouteCollector::createProxy",
                    "Slim/Routing/RouteCollector.php imports +Slim\\Interfaces\\RouteCollectorProxyInterface -",
                    "Slim/Routing/RouteCollector.php modified RouteCollector::group",
                ],
            ),
            // "Persist routes indexed by name": a new property (no function), three methods.
            (
                "5542d85d",
                &[
                    "Slim/Routing/RouteCollector.php modified RouteCollector::getNamedRoute",
                    "Slim/Routing/RouteCollector.php modified RouteCollector::map",
                    "Slim/Routing/RouteCollector.php modified RouteCollector::removeNamedRoute",
                ],
            ),
            // "Update BodyParsingMiddlewareTest": the anonymous class a helper returns gets a
            // property (the helper's code) and its `handle` changes; two tests follow.
            (
                "4c7e0cfe",
                &[
                    "tests/Middleware/BodyParsingMiddlewareTest.php modified BodyParsingMiddlewareTest::createRequestHandler",
                    "tests/Middleware/BodyParsingMiddlewareTest.php modified BodyParsingMiddlewareTest::createRequestHandler::class@anonymous::handle",
                    "tests/Middleware/BodyParsingMiddlewareTest.php modified BodyParsingMiddlewareTest::testParsing",
                    "tests/Middleware/BodyParsingMiddlewareTest.php modified BodyParsingMiddlewareTest::testParsingWithARegisteredParser",
                ],
            ),
        ],
    );
}

#[test]
fn busted_commits_labelled_by_hand() {
    labelled(
        "busted",
        &[
            // "Restore state on its own terms": a local function value inside `restore`.
            (
                "fc45066",
                &[
                    "busted/context.lua added restore.set",
                    "busted/context.lua modified restore",
                ],
            ),
            // "Refactor copying of context": a local function inside the function bound to
            // `handler.format`.
            (
                "1b52da3",
                &[
                    "busted/outputHandlers/base.lua added handler.format.copyElement",
                    "busted/outputHandlers/base.lua modified handler.format",
                ],
            ),
            // "convert error object to string before encoding": `function busted.getTrace` and
            // the function bound to `handler.suiteEnd`, each inside a module's returned
            // anonymous function (no name of its own).
            (
                "e5e6691",
                &[
                    "busted/core.lua modified busted.getTrace",
                    "busted/outputHandlers/json.lua modified handler.suiteEnd",
                ],
            ),
        ],
    );
}

#[test]
fn bats_core_commits_labelled_by_hand() {
    labelled(
        "bats-core",
        &[
            // "Simplify tracing code": one function.
            (
                "34833b5",
                &["lib/bats-core/tracing.bash modified bats_debug_trap"],
            ),
            // "Centrallize RELATIVE_BATS_ROOT": code moves from a bats file's `setup` into the
            // shared `fixtures` helper, and a test's expectations use it.
            (
                "4ac00c5",
                &[
                    "test/suite.bats modified @test \"errors when loading common helper from multiple tests in a suite\"",
                    "test/test_helper.bash modified fixtures",
                    "test/warnings.bats modified setup",
                ],
            ),
            // "Add unit-test suite that demonstrates the issue": a new bats file (two tests,
            // `function name()` hooks) and a suite setup file.
            (
                "115f3e5",
                &[
                    "test/fixtures/junit-formatter/issue1180/referenced_connectors_tests.bats added @test \"skipped-and-junit-agrees\"",
                    "test/fixtures/junit-formatter/issue1180/referenced_connectors_tests.bats added @test \"skipped-but-junit-reports-failure\"",
                    "test/fixtures/junit-formatter/issue1180/referenced_connectors_tests.bats added setup_file",
                    "test/fixtures/junit-formatter/issue1180/referenced_connectors_tests.bats added teardown_file",
                    "test/fixtures/junit-formatter/issue1180/setup_suite.bash added setup_suite",
                    "test/fixtures/junit-formatter/issue1180/setup_suite.bash added teardown_suite",
                ],
            ),
        ],
    );
}
