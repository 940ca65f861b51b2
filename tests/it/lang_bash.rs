//! Function analysis fixtures for Bash and bats: one commit per situation, the exact change
//! list asserted for each.

use crate::common::TestEnv;
use crate::functions::{Source, step};

const SCRIPT: &str = r#"#!/usr/bin/env bash
set -euo pipefail

source "$(dirname "$0")/lib.sh"

helper() {
  local y=$(( $1 * 3 ))
  local z=$(( y - 4 ))
  echo $(( z + 1 ))
}

function total {
  local sum=0
  for price in "$@"; do
    sum=$(( sum + price ))
  done
  echo $(( sum * 2 ))
}

render() {
  format() {
    printf '%s\n' "$1"
  }
  format "$(total 1 2)"
}

other_total() {
  echo 0
}

render
"#;

#[test]
fn bash_situations() {
    let env = TestEnv::new();
    let repo = env.repo("bash");
    let file = "bin/cart";
    repo.write(file, SCRIPT).commit("base");
    let mut src = Source(SCRIPT.to_owned());
    let mut edit = |from: &str, to: &str| src.edit(from, to);

    let s = edit("render() {", "added() {\n  echo 7\n}\n\nrender() {");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["bin/cart added added"]
    );
    let s = edit("added() {\n  echo 7\n}\n\n", "");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["bin/cart deleted added"]
    );
    let s = edit("echo $(( sum * 2 ))", "echo $(( sum * 3 ))");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["bin/cart modified total"]
    );
    // A function has no parameters: `function total`, `total()` and `function total()` are
    // one signature; a subshell body is another body.
    let s = edit("function total {", "total() {");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["bin/cart formatting_only total"]
    );
    let s = edit("helper() {", "assist() {");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["bin/cart renamed assist (was helper)"]
    );
    let s = edit(
        "assist() {\n  local y=$(( $1 * 3 ))",
        "assist2() {\n  local y=$(( $1 * 5 ))",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["bin/cart renamed assist2 (was assist) +edited"]
    );
    // Move `other_total` to a library.
    let other = "other_total() {\n  echo 0\n}\n";
    let s = edit(&format!("{other}\n"), "");
    let lib = format!("#!/bin/sh\n{other}");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s)), ("bin/lib.sh", Some(&lib))]),
        ["bin/lib.sh moved other_total from bin/cart"]
    );
    // Reordering functions is not a change.
    let render = "render() {\n  format() {\n    printf '%s\\n' \"$1\"\n  }\n  format \"$(total 1 2)\"\n}\n\n";
    edit(render, "");
    let s = edit("total() {", &format!("{render}total() {{"));
    assert_eq!(step(&env, &repo, &[(file, Some(&s))]), Vec::<String>::new());
    // What shfmt may write either way, and comments, are formatting only.
    let s = edit(
        "  for price in \"$@\"; do\n    sum=$(( sum + price ))\n  done",
        "  for price in \"$@\"\n  do sum=$(( sum + price )); done",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["bin/cart formatting_only total"]
    );
    let s = edit(
        "total() {",
        "# Sums its arguments, doubled.\ntotal() { # in cents",
    );
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["bin/cart formatting_only total"]
    );
    // A function defined inside another is its own function.
    let s = edit("printf '%s\\n'", "printf '%s!\\n'");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["bin/cart modified render.format"]
    );
    // Sourced files are imports.
    let s = edit("source \"$(dirname \"$0\")/lib.sh\"", ". ./lib.sh");
    assert_eq!(
        step(&env, &repo, &[(file, Some(&s))]),
        ["bin/cart imports +./lib.sh -\"$(dirname \"$0\")/lib.sh\""]
    );
    // A syntax error keeps what can be extracted and says so.
    let s = edit("render\n", "render() {\n  if then\n");
    let got = step(&env, &repo, &[(file, Some(&s))]);
    assert!(got.contains(&"bin/cart parse_errors".to_owned()), "{got:?}");
}

/// bats tests are functions named as written; the same name in two files is two functions.
#[test]
fn bats_tests_are_test_functions() {
    let env = TestEnv::new();
    let repo = env.repo("bats");
    let test = r#"#!/usr/bin/env bats

setup() {
  load test_helper
}

@test "adds two numbers" {
  run add 1 2
  [ "$output" -eq 3 ]
}

@test 'refuses text' {
  run add a b
  [ "$status" -ne 0 ]
}
"#;
    repo.write("test/add.bats", test).commit("base");
    let mut src = Source(test.to_owned());
    let s = src.edit("run add a b", "run add x y");
    assert_eq!(
        step(&env, &repo, &[("test/add.bats", Some(&s))]),
        ["test/add.bats modified @test 'refuses text'"]
    );
    let s = src.edit("@test \"adds two numbers\"", "@test \"adds numbers\"");
    assert_eq!(
        step(&env, &repo, &[("test/add.bats", Some(&s))]),
        ["test/add.bats renamed @test \"adds numbers\" (was @test \"adds two numbers\")"]
    );
    let s = src.edit("@test 'refuses text' {", "@test 'refuses text' {\n  skip");
    assert_eq!(
        step(&env, &repo, &[("test/add.bats", Some(&s))]),
        ["test/add.bats modified @test 'refuses text'"]
    );
}
