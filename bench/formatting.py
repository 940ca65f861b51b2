#!/usr/bin/env python3
"""The formatting figure of bench/RESULTS.md: real formatters over real source.

For each language under tests/fixtures/formatting/, commits the files, reformats them with the
language's formatter at a narrow width (the same commands as tests/it/formatting.rs), commits
again, and asks a git-prism binary for the manifest of that commit. Prints, per formatter, how
many functions the formatter touched (their text changed) and how many of them the manifest
reported as real changes (`functions_changed`) instead of `formatting_only`.

    bench/formatting.py --binary target/x86_64-unknown-linux-gnu/release/git-prism

Formatters are found as the tests find them: GIT_PRISM_RUSTFMT, GIT_PRISM_BLACK,
GIT_PRISM_PRETTIER, GIT_PRISM_PRETTIER_JAVA (prettier-plugin-java's entry file),
GIT_PRISM_GOFMT, GIT_PRISM_CLANG_FORMAT, else PATH. `make bench-formatting` sets them.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "formatting"


def tool(env_var, name):
    return os.environ.get(env_var) or shutil.which(name)


def formatters():
    """(label, directory, extensions, command builder or None when not installed)."""
    rustfmt = tool("GIT_PRISM_RUSTFMT", "rustfmt")
    black = tool("GIT_PRISM_BLACK", "black")
    prettier = tool("GIT_PRISM_PRETTIER", "prettier")
    plugin = os.environ.get("GIT_PRISM_PRETTIER_JAVA")
    gofmt = tool("GIT_PRISM_GOFMT", "gofmt")
    clang = tool("GIT_PRISM_CLANG_FORMAT", "clang-format")
    style = "{BasedOnStyle: GNU, ColumnLimit: 50}"
    return [
        ("rustfmt", "rust", rustfmt and (lambda f: [rustfmt, "--edition", "2021", "--config", "max_width=50", *f])),
        ("black", "python", black and (lambda f: [black, "-q", "-l", "50", *f])),
        ("prettier (TypeScript)", "typescript", prettier and (lambda f: [prettier, "--log-level", "warn", "--print-width", "50", "--write", *f])),
        ("prettier (JavaScript)", "javascript", prettier and (lambda f: [prettier, "--log-level", "warn", "--print-width", "50", "--write", *f])),
        ("prettier-plugin-java", "java", prettier and plugin and (lambda f: [prettier, "--log-level", "warn", "--plugin", plugin, "--print-width", "50", "--write", *f])),
        ("gofmt", "go", gofmt and (lambda f: [gofmt, "-w", *f])),
        ("clang-format (C)", "c", clang and (lambda f: [clang, "-i", f"--style={style}", *f])),
        ("clang-format (C++)", "cpp", clang and (lambda f: [clang, "-i", f"--style={style}", *f])),
    ]


def git(repo, *args):
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null",
               GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@example.com",
               GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@example.com")
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def measure(binary, directory, command):
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        shutil.copytree(FIXTURES / directory, repo, ignore=shutil.ignore_patterns("README.md"))
        git(repo, "init", "-q")
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "original")
        files = sorted(p.name for p in repo.iterdir() if p.is_file())
        subprocess.run(command(files), cwd=repo, check=True)
        git(repo, "commit", "-qam", "formatted")
        env = dict(os.environ, GIT_PRISM_CACHE="0")
        out = subprocess.run([binary, "manifest", "HEAD~1..HEAD"], cwd=repo, env=env,
                             check=True, capture_output=True).stdout
        doc = json.loads(out)
        reported = formatting = 0
        kinds = {}
        for f in doc["files"]:
            for c in f.get("functions_changed") or []:
                reported += 1
                kinds[c["change_type"]] = kinds.get(c["change_type"], 0) + 1
            formatting += len(f.get("formatting_only") or [])
        return reported + formatting, reported, kinds, len(files)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    args.binary = str(Path(args.binary).resolve())
    print("| formatter | files | functions touched | reported as changes | of which |")
    print("|---|---:|---:|---:|---|")
    for label, directory, command in formatters():
        if not (FIXTURES / directory).is_dir():
            continue
        if not command:
            print(f"| {label} | — | not installed | | |")
            continue
        touched, reported, kinds, files = measure(args.binary, directory, command)
        detail = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) or "—"
        print(f"| {label} | {files} | {touched} | {reported} | {detail} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
