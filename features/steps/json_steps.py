"""Steps that read JSON answers: manifests, histories, snapshots."""

import codecs
import json

from behave import then


def doc(context):
    if not hasattr(context, "_json_for") or context._json_for is not context.result:
        context.json = json.loads(context.result.stdout)
        context._json_for = context.result
    return context.json


def file_entry(context, path):
    for f in doc(context)["files"]:
        if f["path"] == path:
            return f
    raise AssertionError(f"{path} not in {[f['path'] for f in doc(context)['files']]}")


@then("stdout is JSON")
def step_is_json(context):
    doc(context)


@then('the manifest lists {count:d} file(s)')
@then('the manifest lists {count:d} files')
@then('the manifest lists {count:d} file')
def step_file_count(context, count):
    files = doc(context)["files"]
    assert len(files) == count, [f["path"] for f in files]


@then('the file "{path}" is {change_type} with {added:d} added and {removed:d} removed')
def step_file_facts(context, path, change_type, added, removed):
    f = file_entry(context, path)
    assert f["change_type"] == change_type, f
    assert (f.get("lines_added"), f.get("lines_removed")) == (added, removed), f


@then('the file "{path}" has "{field}" = "{value}"')
def step_file_field(context, path, field, value):
    f = file_entry(context, path)
    assert str(f.get(field)).lower() == value.lower(), f


@then('the JSON field "{dotted}" is "{value}"')
def step_json_field(context, dotted, value):
    node = doc(context)
    for part in dotted.split("."):
        node = node[int(part)] if part.isdigit() else node[part]
    value = codecs.decode(value, "unicode_escape")
    assert str(node).lower() == value.lower(), f"{dotted} = {node!r}, want {value!r}"


@then('the JSON field "{dotted}" contains "{value}"')
def step_json_field_contains(context, dotted, value):
    value = codecs.decode(value, "unicode_escape")
    node = doc(context)
    for part in dotted.split("."):
        node = node[int(part)] if part.isdigit() else node[part]
    assert value in str(node), f"{dotted} = {node!r}, want it to contain {value!r}"


@then('the JSON has no field "{dotted}"')
def step_json_no_field(context, dotted):
    node = doc(context)
    parts = dotted.split(".")
    for part in parts[:-1]:
        node = node[int(part)] if part.isdigit() else node[part]
    assert parts[-1] not in node, node


@then('the dependency change of "{name}" goes from "{old}" to "{new}" as a {bump} bump')
def step_dependency(context, name, old, new, bump):
    for c in doc(context)["dependency_changes"]:
        if c["name"] == name:
            assert (c.get("old_version"), c.get("new_version"), c.get("bump")) == (old, new, bump), c
            return
    raise AssertionError(f"no dependency change for {name}: {doc(context)['dependency_changes']}")


@then("the history lists the commits git log lists")
def step_history_matches(context):
    from world import git_ok

    want = git_ok(context, "log", "--format=%H").split()
    got = [c["sha"] for c in doc(context)["commits"]]
    assert got == want, (got, want)


def compact_files(context):
    """The shim answer's files as {path: entry}: those it lists (`"files": {"dir/": {"M name
    +1 -0": [functions]}}`), and those only its hunks name, which are plain modifications
    (`M name +<added> -<removed>`, counted from their lines)."""
    listing = {}
    for directory, entries in (doc(context).get("files") or {}).items():
        for entry in entries:
            name = entry.split(" ", 1)[1]
            for sep in (" <- ", " +", " binary"):
                name = name.split(sep, 1)[0]
            listing[directory + name] = entry
    for path, hunks in (doc(context).get("hunks") or {}).items():
        if path in listing:
            continue
        lines = [l for h in hunks for l in h.split("\n")[1:]]
        added = sum(1 for l in lines if l.startswith("+"))
        removed = sum(1 for l in lines if l.startswith("-"))
        listing[path] = f"M {path.rsplit('/', 1)[-1]} +{added} -{removed}"
    return listing


def function_lines(context, path):
    """The functions the answer's map lists for a file: its interface lines (`api`), then the
    others (`files`)."""
    directory, _, name = path.rpartition("/")
    directory = directory + "/" if directory else ""
    lines = list((doc(context).get("api") or {}).get(path) or [])
    for entry, functions in ((doc(context).get("files") or {}).get(directory) or {}).items():
        if entry.split(" ", 1)[1].split(" ", 1)[0] == name:
            return lines + functions
    return lines


@then('the answer lists {count:d} file(s)')
@then('the answer lists {count:d} files')
@then('the answer lists {count:d} file')
def step_answer_count(context, count):
    listing = compact_files(context)
    assert len(listing) == count, listing


@then('the answer lists "{path}" as "{entry}"')
def step_answer_entry(context, path, entry):
    listing = compact_files(context)
    assert listing.get(path) == entry, listing


@then('the functions of "{path}" include "{entry}"')
def step_answer_function(context, path, entry):
    functions = function_lines(context, path)
    assert entry in functions, (functions, doc(context))


@then('a hunk of "{path}" contains "{text}"')
def step_answer_hunk(context, path, text):
    text = codecs.decode(text, "unicode_escape")
    hunks = (doc(context).get("hunks") or {}).get(path, [])
    assert any(text in h for h in hunks), hunks


@then('the answer has no hunks')
def step_answer_no_hunks(context):
    assert "hunks" not in doc(context), doc(context)


@then("the log answer lists the commits git log lists")
def step_log_answer_matches(context):
    from world import git_ok

    want = [sha[:12] for sha in git_ok(context, "log", "--format=%H").split()]
    got = [line[:12] for line in doc(context)["commits"]]
    assert got == want, (got, want)


@then('commit line {index:d} contains "{text}"')
def step_commit_line(context, index, text):
    text = codecs.decode(text, "unicode_escape")
    line = doc(context)["commits"][index]
    assert text in line, line


@then('following "next" with GIT_PRISM_CURSOR as the agent shows the hunks of all {count:d} files once')
def step_follow_next(context, count):
    from world import run

    seen = []
    page = doc(context)
    for _ in range(200):
        for path, hunks in (page.get("hunks") or {}).items():
            seen.extend(f"{path}: {h}" for h in hunks)
        command = page.get("next")
        if not command:
            break
        assert command.startswith("GIT_PRISM_CURSOR="), command
        result = run(["bash", "-c", command], context, CLAUDECODE="1")
        assert result.returncode == 0, result.stderr
        page = json.loads(result.stdout)
    files = {s.split(": ", 1)[0] for s in seen}
    assert len(files) == count, sorted(files)
    assert len(seen) == len(set(seen)), "a hunk was shown twice"


@then('blame run {index:d} is "{text}"')
def step_blame_run(context, index, text):
    text = codecs.decode(text, "unicode_escape")
    run_text = doc(context)["lines"][index]
    # The run's commit id is the repository's: compare from the span on.
    assert run_text.split(" ", 1)[1] == text, run_text


@then('the blame commits table names "{text}"')
def step_blame_table(context, text):
    values = list(doc(context)["commits"].values())
    assert any(text in v for v in values), values
