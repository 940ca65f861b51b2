"""Steps for function context: committing fixture changes and reading caller lists."""

import json

from behave import given, then

from world import git_ok


@given('everything is committed as "{message}"')
def step_commit_all(context, message):
    git_ok(context, "add", "-A")
    git_ok(context, "commit", "-q", "-m", message)


def _function(context, name):
    doc = json.loads(context.result.stdout)
    functions = doc["context"]["functions"] if "context" in doc else doc["functions"]
    for f in functions:
        if f["name"] == name:
            return f
    raise AssertionError(f"no function {name} in {json.dumps(doc, indent=1)}")


@then('the callers of "{name}" are')
def step_callers_are(context, name):
    f = _function(context, name)
    got = [
        f'{c["file"]}:{c["line"]} {c.get("caller", "-")}'
        + (" test" if c["is_test"] else "")
        + (" candidate" if c.get("candidate") else "")
        for c in f["callers"]
    ]
    want = [line.strip() for line in context.text.strip().splitlines()]
    assert got == want, f"callers of {name}: {got}, want {want}"


@then('the risk of "{name}" is "{risk}" with {production:d} production and {tests:d} test callers')
def step_risk(context, name, risk, production, tests):
    b = _function(context, name)["blast_radius"]
    got = (b["risk"], b["production_callers"], b["test_callers"])
    assert got == (risk, production, tests), b


@then("I keep the next cursor")
def step_keep_cursor(context):
    doc = json.loads(context.result.stdout)
    context.cursor = doc["pagination"]["next_cursor"]
