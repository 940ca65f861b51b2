"""Shared helpers for step definitions: paths, environments and running commands."""

import os
import subprocess
from pathlib import Path

SYSTEM_DIRS = ["/usr/bin", "/bin"]


def real_git_dir(context) -> str:
    return str(context.real_git.parent)


def path_with_shim(context) -> str:
    return os.pathsep.join(
        [
            *map(str, context.extra_path),
            str(context.shim_dir),
            *map(str, getattr(context, "late_path", [])),
            real_git_dir(context),
            *SYSTEM_DIRS,
        ]
    )


def path_without_shim(context) -> str:
    return os.pathsep.join([*map(str, context.extra_path), real_git_dir(context), *SYSTEM_DIRS])


def env(context, shim=True, **extra) -> dict:
    """The scenario's environment, with PATH through the shim (or not) and extra variables."""
    result = dict(context.base_env)
    result["PATH"] = path_with_shim(context) if shim else path_without_shim(context)
    result.update(context.scenario_env)
    result.update(extra)
    return result


def cwd(context, sub=None) -> Path:
    base = context.repo or context.tmp
    return base / sub if sub else base


def run(argv, context, shim=True, sub=None, stdin=None, **extra) -> subprocess.CompletedProcess:
    """Runs argv as the harness would, with stdout and stderr captured through pipes."""
    return subprocess.run(
        argv,
        cwd=cwd(context, sub),
        env=env(context, shim=shim, **extra),
        input=stdin,
        capture_output=True,
        timeout=60,
    )


def real_git(context, *args, sub=None) -> subprocess.CompletedProcess:
    """Runs the real git directly (never through the shim)."""
    return subprocess.run(
        [str(context.real_git), *args],
        cwd=cwd(context, sub),
        env=env(context, shim=False),
        capture_output=True,
        timeout=60,
    )


def git_ok(context, *args, sub=None) -> str:
    out = real_git(context, *args, sub=sub)
    assert out.returncode == 0, f"git {args} failed: {out.stderr.decode(errors='replace')}"
    return out.stdout.decode()
