"""A fake `gh` on PATH that records its argv and prints canned `gh pr view` JSON."""

import json

from behave import given, then

from world import git_ok


@given('a fake gh whose pull request {number:d} merges "{head}" into "{base}"')
def step_fake_gh(context, number, head, base):
    fake = context.tmp / "fakegh"
    fake.mkdir(exist_ok=True)
    view = {
        "number": number,
        "title": f"Pull request {number}",
        "url": f"https://example.com/pr/{number}",
        "baseRefOid": git_ok(context, "rev-parse", base).strip(),
        "headRefOid": git_ok(context, "rev-parse", head).strip(),
        "baseRefName": base,
        "headRefName": head,
    }
    log = context.tmp / "gh.argv"
    script = fake / "gh"
    script.write_text(
        "#!/bin/sh\n"
        f'printf "%s\\n" "$*" >> "{log}"\n'
        'case "$1 $2" in\n'
        f"  'pr view') printf '%s\\n' '{json.dumps(view)}' ;;\n"
        '  *) echo "real gh: $*" ;;\n'
        "esac\n"
    )
    script.chmod(0o755)
    context.late_path = [fake]
    context.gh_log = log


@then('the fake gh was asked "{text}"')
def step_gh_asked(context, text):
    calls = context.gh_log.read_text() if context.gh_log.exists() else ""
    assert text in calls, calls
