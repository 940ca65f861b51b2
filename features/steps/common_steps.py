"""Step definitions shared by every feature: repositories, running commands, checking output."""

import json
import os
import shlex
import subprocess

from behave import given, then, when

from world import git_ok, real_git, run


def expand(context, text: str) -> str:
    """Substitutes {tmp}, {home}, {repo}, {shim}, {real_git} and {cursor} in a step's text."""
    for name, value in (
        ("tmp", context.tmp),
        ("real_git", context.real_git),
        ("home", context.home),
        ("repo", context.repo or ""),
        ("shim", context.shim_dir),
        ("cursor", getattr(context, "cursor", "")),
    ):
        text = text.replace("{" + name + "}", str(value))
    return text


def write(context, path: str, content: str, executable=False):
    full = (context.repo or context.tmp) / path
    full.parent.mkdir(parents=True, exist_ok=True)
    full.write_text(content)
    if executable:
        full.chmod(0o755)


@given("a repository with a main and a feature branch")
def step_repository(context):
    context.repo = context.tmp / "repo"
    context.repo.mkdir()
    git_ok(context, "init", "-q", "-b", "main")
    write(context, "README.md", "# demo\n")
    write(context, "src/app.py", "def hello():\n    return 'hello'\n")
    write(context, "sub/notes.txt", "notes\n")
    git_ok(context, "add", "-A")
    git_ok(context, "commit", "-q", "-m", "initial")
    git_ok(context, "branch", "feature")
    write(context, "src/app.py", "def hello():\n    return 'hello, world'\n\n\ndef bye():\n    return 'bye'\n")
    git_ok(context, "commit", "-q", "-am", "main: greet the world")
    git_ok(context, "checkout", "-q", "feature")
    write(context, "feature.txt", "a feature\n")
    git_ok(context, "add", "-A")
    git_ok(context, "commit", "-q", "-m", "feature: add a file")
    git_ok(context, "checkout", "-q", "main")


@given('the file "{path}" contains')
def step_file_contains(context, path):
    write(context, expand(context, path), expand(context, context.text) + "\n")


@given('the file "{path}" contains, with no final newline')
def step_file_contains_no_newline(context, path):
    write(context, expand(context, path), expand(context, context.text))


@given('the executable file "{path}" contains')
def step_exec_file_contains(context, path):
    write(context, expand(context, path), expand(context, context.text) + "\n", executable=True)


@given('the environment variable {name} is "{value}"')
def step_env_var(context, name, value):
    context.scenario_env[name] = expand(context, value)


@given('the directory "{path}" is first on PATH')
def step_extra_path(context, path):
    context.extra_path.insert(0, expand(context, path))


@given("the shim weighs answers against git")
def step_weighs(context):
    """Undoes the test switch of the debug build: every answer is weighed against git's own
    output, as in a release build."""
    context.base_env.pop("GIT_PRISM_TEST_SIZE_CHECK", None)


@given("a real gh is on PATH")
def step_real_gh(context):
    """A stand-in for the GitHub CLI, after git-prism's own directories: it records its
    arguments in {tmp}/real-gh/argv."""
    directory = context.tmp / "real-gh"
    directory.mkdir(exist_ok=True)
    gh = directory / "gh"
    gh.write_text(f'#!/bin/sh\necho "$*" >> {directory}/argv\n')
    gh.chmod(0o755)
    late = getattr(context, "late_path", [])
    if str(directory) not in map(str, late):
        context.late_path = [*late, str(directory)]


def _harness(context, command, agent, shim=True):
    """Plays the agent harness: runs `bash -c COMMAND` with stdout/stderr on pipes.

    The agent marker is set only in the child's environment, as real harnesses do.
    """
    extra = {"GIT_PRISM_DEBUG": "1"}
    if agent:
        extra["CLAUDECODE"] = "1"
    context.command = expand(context, command)
    context.result = run(["bash", "-c", context.command], context, shim=shim, **extra)


@when('the agent runs "{command}" in "{sub}"')
def step_agent_runs_in(context, command, sub):
    extra = {"GIT_PRISM_DEBUG": "1", "CLAUDECODE": "1"}
    context.command = expand(context, command)
    context.result = run(["bash", "-c", context.command], context, sub=sub, **extra)


@when('the agent runs "{command}"')
def step_agent_runs(context, command):
    _harness(context, command, agent=True)


@when('a human runs "{command}"')
def step_human_runs(context, command):
    _harness(context, command, agent=False)


@when('I run "{command}"')
def step_i_run(context, command):
    argv = shlex.split(expand(context, command))
    if argv[0] == "git-prism":
        argv[0] = str(context.binary)
    context.result = run(argv, context)


@when("a human runs the shim with only the shim directory on PATH")
def step_shim_alone(context):
    env = dict(context.base_env, PATH=str(context.shim_dir))
    context.result = subprocess.run(
        [str(context.shim_dir / "git"), "status"], env=env, capture_output=True, timeout=60
    )


def _stdout(context) -> str:
    return context.result.stdout.decode(errors="replace")


def _stderr(context) -> str:
    return context.result.stderr.decode(errors="replace")


@then("it succeeds")
def step_succeeds(context):
    assert context.result.returncode == 0, (
        f"exit {context.result.returncode}\nstdout: {_stdout(context)}\nstderr: {_stderr(context)}"
    )


@then("the exit status is {code:d}")
def step_exit_status(context, code):
    assert context.result.returncode == code, (
        f"exit {context.result.returncode}, want {code}\nstderr: {_stderr(context)}"
    )


@then('stderr contains "{text}"')
def step_stderr_contains(context, text):
    text = expand(context, text)
    assert text in _stderr(context), f"{text!r} not in stderr:\n{_stderr(context)}"


@then('stderr does not contain "{text}"')
def step_stderr_lacks(context, text):
    assert expand(context, text) not in _stderr(context), _stderr(context)


@then('stdout contains "{text}"')
def step_stdout_contains(context, text):
    text = expand(context, text)
    assert text in _stdout(context), f"{text!r} not in stdout:\n{_stdout(context)}"


@then('stdout does not contain "{text}"')
def step_stdout_lacks(context, text):
    assert expand(context, text) not in _stdout(context), _stdout(context)


@then('stdout is at most as large as what git prints for "{args}"')
def step_stdout_within_git(context, args):
    expected = real_git(context, *shlex.split(args))
    got, git = len(context.result.stdout), len(expected.stdout)
    assert got <= git, f"{got} bytes, git's own output {git}:\n{_stdout(context)}"


@then('stdout is exactly what git prints for "{args}"')
def step_stdout_is_git(context, args):
    expected = real_git(context, *shlex.split(args))
    assert context.result.stdout == expected.stdout, (
        f"stdout differs from git's\n--- got\n{_stdout(context)}\n--- git\n"
        f"{expected.stdout.decode(errors='replace')}"
    )


@then('the file "{path}" holds exactly what git prints for "{args}"')
def step_file_is_git(context, path, args):
    expected = real_git(context, *shlex.split(args))
    got = ((context.repo or context.tmp) / expand(context, path)).read_bytes()
    assert got == expected.stdout, f"{path} differs from git's output:\n{got[:400]!r}"


@then('stdout is the JSON')
def step_stdout_json(context):
    got = json.loads(_stdout(context))
    want = json.loads(expand(context, context.text))
    assert got == want, f"got {got}, want {want}"


@then('the file "{path}" exists')
def step_file_exists(context, path):
    assert os.path.lexists(expand(context, path)), path


@then('the file "{path}" does not exist')
def step_file_missing(context, path):
    assert not os.path.lexists(expand(context, path)), path


@then('"{path}" is a symlink to git-prism')
def step_is_symlink(context, path):
    path = expand(context, path)
    assert os.path.islink(path), f"{path} is not a symlink"
    assert os.path.realpath(path) == str(context.binary), os.path.realpath(path)


@then('the file "{path}" contains "{text}" {count:d} time')
@then('the file "{path}" contains "{text}" {count:d} times')
def step_file_count(context, path, text, count):
    content = open(expand(context, path)).read()
    assert content.count(expand(context, text)) == count, content


@then('the file "{path}" is exactly, with no final newline')
def step_file_exactly_no_newline(context, path):
    with open(expand(context, path), "rb") as f:
        content = f.read()
    want = expand(context, context.text).encode()
    assert content == want, f"got {content!r}, want {want!r}"


@then('a login bash sees "{directory}" first on PATH exactly once')
def step_login_bash_path(context, directory):
    directory = expand(context, directory)
    env = {"HOME": str(context.home), "PATH": "/usr/bin:/bin:" + directory, "TERM": "dumb"}
    for flags in (["-l", "-c"], ["-i", "-c"]):
        out = subprocess.run(
            ["bash", *flags, 'printf "%s" "$PATH"'], env=env, capture_output=True, timeout=30
        )
        entries = out.stdout.decode().split(":")
        assert entries[0] == directory, f"bash {flags[0]}: {entries}"
        assert entries.count(directory) == 1, f"bash {flags[0]}: {entries}"


@then('the file "{path}" holds exactly')
def step_file_exactly(context, path):
    with open(expand(context, path), "rb") as f:
        content = f.read()
    want = (expand(context, context.text) + "\n").encode()
    assert content == want, f"got {content!r}, want {want!r}"


@then("stdout is empty")
def step_stdout_empty(context):
    assert not context.result.stdout, _stdout(context)


@then("stdout is at most {count:d} bytes")
def step_stdout_at_most(context, count):
    size = len(context.result.stdout)
    assert size <= count, f"stdout is {size} bytes"
