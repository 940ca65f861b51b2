"""Steps for hostile changes: names, lines and messages built to mislead a reviewer."""

import codecs
import json
import os

from behave import given, then

from world import git_ok


@given('the line {number:d} of "{path}" becomes {length} characters long, ending in "{tail}"')
def step_long_line(context, number, path, length, tail):
    full = context.repo / path
    lines = full.read_text().split("\n")
    width = int(length.replace(",", ""))
    head = lines[number - 1]
    lines[number - 1] = head + " #" + " " * (width - len(head) - len(tail) - 2) + tail
    full.write_text("\n".join(lines))


@given("a file whose name is not UTF-8 and a file named its quoted form")
def step_twin_names(context):
    root = os.fsencode(context.repo)
    with open(os.path.join(root, b"x\xff.py"), "wb") as f:
        f.write(b"A = 1\n")
    with open(os.path.join(root, b'"x\\377.py"'), "wb") as f:
        f.write(b"B = 2\n")


@given('an empty commit whose message is "{message}"')
def step_empty_commit(context, message):
    git_ok(context, "commit", "-q", "--allow-empty", "-m", codecs.decode(message, "unicode_escape"))


@then("stdout is JSON without duplicate keys")
def step_json_unique_keys(context):
    def unique(pairs):
        keys = [k for k, _ in pairs]
        assert len(keys) == len(set(keys)), f"duplicate keys: {keys}"
        return dict(pairs)

    json.loads(context.result.stdout, object_pairs_hook=unique)


@then("the answer has hunks for {count:d} files")
def step_hunk_files(context, count):
    hunks = json.loads(context.result.stdout).get("hunks") or {}
    assert len(hunks) == count, list(hunks)


@then('the hunks of "{path}", their segments joined, contain "{text}"')
def step_hunks_joined(context, path, text):
    hunks = (json.loads(context.result.stdout).get("hunks") or {}).get(path, [])
    # A long line arrives in segments: each continuation is a line starting with its
    # prefix and "…".
    joined = "\n".join(hunks)
    for prefix in "+- ":
        joined = joined.replace("\n" + prefix + "…", "")
    assert text in joined, joined[-400:]
