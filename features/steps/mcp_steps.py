"""Steps that drive `git-prism serve` with the official Python MCP SDK as the client.

Each "an MCP client ..." step runs one whole session: it starts the server over stdio,
initializes, declares the scenario's repository (or the directories a step names) as its
roots, does its calls and closes the connection. Cursors are bound to resolved commits, not to
a session, so paging works across sessions as it does across an agent's turns.
"""

import asyncio
import json
import os
import re
import signal
import subprocess
import time
import types as pytypes
from pathlib import Path

from behave import given, then, when
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

from world import env, git_ok

SNAPSHOTS = Path(__file__).resolve().parent.parent / "snapshots"


def _params(context, args=()):
    return StdioServerParameters(
        command=str(context.binary),
        args=["serve", *args],
        env=env(context, shim=False),
        cwd=str(context.tmp),
    )


async def _session(context, work, roots=None, args=()):
    """Runs `work(session)` in one session; the server's stderr goes to a log file."""
    roots = [context.repo] if roots is None else roots

    async def list_roots(_ctx):
        return types.ListRootsResult(roots=[types.Root(uri=Path(r).as_uri()) for r in roots])

    log_path = context.tmp / "serve.log"
    with open(log_path, "a") as errlog:
        async with stdio_client(_params(context, args), errlog=errlog) as (read, write):
            async with ClientSession(read, write, list_roots_callback=list_roots) as session:
                context.initialized = await session.initialize()
                return await work(session)


def session(context, work, **kwargs):
    return asyncio.run(asyncio.wait_for(_session(context, work, **kwargs), timeout=120))


def _store(context, result):
    """Keeps a tool result where the JSON steps look (`context.result.stdout`)."""
    text = "".join(c.text for c in result.content if getattr(c, "type", "") == "text")
    context.tool_error = bool(result.is_error)
    context.result = pytypes.SimpleNamespace(
        stdout=text.encode(), stderr=b"", returncode=1 if result.is_error else 0
    )


def _arguments(context, text):
    for name, value in (("repo", context.repo), ("tmp", context.tmp)):
        text = text.replace("{" + name + "}", str(value))
    return json.loads(text)


@given("a repository whose feature branch changes {count:d} files")
def step_many_files(context, count):
    context.repo = context.tmp / "big"
    context.repo.mkdir()
    git_ok(context, "init", "-q", "-b", "main")
    for i in range(count):
        (context.repo / f"f{i:03}.txt").write_text(f"file {i}\n")
    git_ok(context, "add", "-A")
    git_ok(context, "commit", "-q", "-m", "base")
    git_ok(context, "checkout", "-q", "-b", "feature")
    for i in range(count):
        (context.repo / f"f{i:03}.txt").write_text(f"file {i}\nchanged\n")
    git_ok(context, "commit", "-q", "-am", "change every file")


@when("an MCP client lists the tools")
def step_list_tools(context):
    async def work(s):
        return await s.list_tools()

    context.tools = session(context, work).tools


@then('the tools match the snapshot "{name}"')
def step_tools_snapshot(context, name):
    got = [
        {
            "name": t.name,
            "title": t.title,
            "description": t.description,
            "inputSchema": t.input_schema,
            "annotations": t.annotations.model_dump(by_alias=True, exclude_none=True)
            if t.annotations
            else None,
        }
        for t in sorted(context.tools, key=lambda t: t.name)
    ]
    path = SNAPSHOTS / name
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        path.write_text(json.dumps(got, indent=2, sort_keys=True) + "\n")
    want = json.loads(path.read_text())
    assert got == want, (
        "the tool list changed; if on purpose, run `UPDATE_SNAPSHOTS=1 make bdd` and review "
        f"the diff of {path}:\n{json.dumps(got, indent=2, sort_keys=True)}"
    )


@then("every tool says it only reads, on this machine, with the same result each time")
def step_tools_read_only(context):
    for t in context.tools:
        a = t.annotations
        assert a is not None, f"{t.name} has no annotations"
        assert t.title and a.title == t.title, (t.name, t.title, a.title)
        assert a.read_only_hint is True, t.name
        assert a.idempotent_hint is True, t.name
        assert a.open_world_hint is False, t.name


@then('the server says it is "{name}" version "{version}"')
def step_server_info(context, name, version):
    info = context.initialized.server_info
    # The version names the build: `0.1.0+<commit>` (plain `0.1.0` outside a git checkout).
    assert info.name == name and (info.version == version or info.version.startswith(version + "+")), info


@when('an MCP client calls "{tool}" with')
def step_call_tool(context, tool):
    arguments = _arguments(context, context.text)

    async def work(s):
        return await s.call_tool(tool, arguments)

    _store(context, session(context, work))


@when('an MCP client whose only root is "{root}" calls "{tool}" with')
def step_call_tool_with_root(context, root, tool):
    arguments = _arguments(context, context.text)

    async def work(s):
        return await s.call_tool(tool, arguments)

    _store(context, session(context, work, roots=[context.tmp / root]))


@then("the tool call succeeds")
def step_tool_ok(context):
    assert not context.tool_error, context.result.stdout.decode()


@then('the tool call fails with "{text}"')
def step_tool_fails(context, text):
    message = context.result.stdout.decode()
    assert context.tool_error, f"expected an error, got {message[:500]}"
    assert text in message, message


@when('an MCP client pages through "{tool}" of "{base}".."{head}" with page_size {size:d}')
def step_page_through(context, tool, base, head, size):
    async def work(s):
        seen, cursors, cursor = [], [], None
        while True:
            args = {"base_ref": base, "head_ref": head, "page_size": size,
                    "include_function_analysis": False}
            if tool == "get_change_manifest":
                args["format"] = "full"
            if cursor:
                args["cursor"] = cursor
            result = await s.call_tool(tool, args)
            assert not result.is_error, result.content[0].text
            doc = json.loads(result.content[0].text)
            seen += [f["path"] for f in doc["files"]]
            cursor = (doc.get("pagination") or {}).get("next_cursor")
            if not cursor:
                return seen, cursors
            cursors.append(cursor)

    context.seen, context.cursors = session(context, work)


@then('every file git diff lists for "{range_}" was seen exactly once, in order')
def step_seen_once(context, range_):
    want = git_ok(context, "diff", "--name-only", range_).split()
    assert context.seen == want, (len(context.seen), len(want))
    assert len(context.cursors) >= 2, context.cursors


@when('the branch moves and an MCP client asks for the next page of "{base}".."{head}"')
def step_stale(context, base, head):
    (context.repo / "later.txt").write_text("later\n")
    git_ok(context, "add", "-A")
    git_ok(context, "commit", "-q", "-m", "later")
    cursor = context.cursors[0]

    async def work(s):
        return await s.call_tool(
            "get_change_manifest",
            {"base_ref": base, "head_ref": head, "page_size": 40, "cursor": cursor,
             "include_function_analysis": False, "format": "full"},
        )

    _store(context, session(context, work))


def _server_pid(context):
    log = (context.tmp / "serve.log").read_text()
    pids = re.findall(r"started \(version [^,]+, pid (\d+)", log)
    assert pids, log
    return int(pids[-1])


def _gone(pid, seconds=5.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


@when("an MCP client connects and closes the connection")
def step_connect_close(context):
    async def work(s):
        await s.list_tools()

    session(context, work)


@then("the server has exited")
def step_server_exited(context):
    pid = _server_pid(context)
    assert _gone(pid), f"server {pid} still running"
    log = (context.tmp / "serve.log").read_text()
    assert "stopping" in log, log


@when("the process that started the server dies while the connection is open")
def step_parent_dies(context):
    # A parent shell starts the server with a stdin that stays open (a FIFO this process
    # holds), then is killed: the server must notice it was orphaned.
    fifo = context.tmp / "stdin.fifo"
    os.mkfifo(fifo)
    log = context.tmp / "serve.log"
    parent = subprocess.Popen(
        ["bash", "-c", f'"$0" serve < "$1" 2>> "$2" & wait', str(context.binary), str(fifo), str(log)],
        env=env(context, shim=False),
        cwd=context.tmp,
    )
    holder = os.open(fifo, os.O_WRONLY)
    deadline = time.monotonic() + 10
    while "started" not in (log.read_text() if log.exists() else "") and time.monotonic() < deadline:
        time.sleep(0.05)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    context.fifo_holder = holder


@then("the server exits on its own")
def step_exits_alone(context):
    pid = _server_pid(context)
    try:
        assert _gone(pid), f"orphaned server {pid} still running"
        assert "parent process" in (context.tmp / "serve.log").read_text()
    finally:
        os.close(context.fifo_holder)
