"""Behave hooks: a hermetic world per scenario.

Every scenario gets a temp directory with its own HOME, a shim directory (`git` and `gh`
symlinked to the built binary), and an environment built from scratch: no variable of the
developer's or CI's environment leaks into the binary under test except what a step sets.
"""

import os
import shutil
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _binary() -> Path:
    explicit = os.environ.get("GIT_PRISM_BIN")
    if explicit:
        return Path(explicit).resolve()
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return (target / "debug" / "git-prism").resolve()


def _real_git() -> Path:
    binary = _binary()
    for entry in os.environ.get("PATH", "").split(os.pathsep):
        candidate = Path(entry) / "git"
        if entry and os.path.isabs(entry) and candidate.is_file():
            if candidate.resolve() != binary:
                return candidate
    raise RuntimeError("no real git on PATH")


def before_all(context):
    context.binary = _binary()
    if not context.binary.is_file():
        raise RuntimeError(f"build git-prism first: {context.binary} is missing")
    context.real_git = _real_git()


def before_scenario(context, scenario):
    context.tmp = Path(tempfile.mkdtemp(prefix="git-prism-bdd-")).resolve()
    context.home = context.tmp / "home"
    context.home.mkdir()
    context.shim_dir = context.tmp / "shim"
    context.shim_dir.mkdir()
    for name in ("git", "gh", "git-prism"):
        (context.shim_dir / name).symlink_to(context.binary)
    context.extra_path = []
    context.base_env = {
        "HOME": str(context.home),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": str(context.home / ".gitconfig"),
        "GIT_AUTHOR_NAME": "A U Thor",
        "GIT_AUTHOR_EMAIL": "author@example.com",
        "GIT_COMMITTER_NAME": "C O Mitter",
        "GIT_COMMITTER_EMAIL": "committer@example.com",
        "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z",
        "LC_ALL": "C",
        "TZ": "UTC",
        "SHELL": "/bin/bash",
        # The scenarios' small repositories make answers that are often larger than git's own
        # output, which the shim weighs every answer against: the debug build under test skips
        # the weighing unless a scenario asks for it ("the shim weighs answers against git").
        "GIT_PRISM_TEST_SIZE_CHECK": "off",
    }
    context.scenario_env = {}
    context.repo = None
    context.result = None


def after_scenario(context, scenario):
    shutil.rmtree(context.tmp, ignore_errors=True)
