#!/usr/bin/env bash
# The demo behind `make demo`: a throwaway repository, the shim first on PATH, and the same
# `git diff` run by an agent and by a human.
set -euo pipefail

bin=${1:?usage: demo.sh path/to/git-prism}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/git-prism-demo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# A hermetic git: no user or system configuration, fixed identities and dates.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME="Ada Lovelace" GIT_AUTHOR_EMAIL=ada@example.com
export GIT_COMMITTER_NAME="Ada Lovelace" GIT_COMMITTER_EMAIL=ada@example.com
export GIT_AUTHOR_DATE=2024-05-01T12:00:00Z GIT_COMMITTER_DATE=2024-05-01T12:00:00Z
unset CLAUDECODE AI_AGENT AGENT CI GIT_PRISM_PASSTHROUGH GIT_PRISM_DISABLE GIT_PRISM_INSIDE_SHIM

real_git=$(command -v git)
repo=$tmp/repo
mkdir -p "$repo/src"
cd "$repo"
"$real_git" init -q -b main
cat > src/shapes.py <<'PY'
import math


class Circle:
    def __init__(self, r):
        self.r = r

    def area(self):
        return math.pi * self.r * self.r


def describe(shape):
    return f"{type(shape).__name__} with area {shape.area():.2f}"
PY
cat > src/lib.rs <<'RS'
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

pub fn mul(a: i32, b: i32) -> i32 {
    a * b
}
RS
printf '[package]\nname = "demo"\nversion = "0.1.0"\n\n[dependencies]\nserde = "1.0.100"\n' > Cargo.toml
"$real_git" add -A && "$real_git" commit -qm "shapes and arithmetic"
"$real_git" checkout -qb feature
cat > src/shapes.py <<'PY'
import math
from dataclasses import dataclass


class Circle:
    def __init__(self, r):
        self.r = r

    def area(self):
        # Same maths, commented and parenthesised: formatting, not a change.
        return (math.pi * self.r * self.r)

    def perimeter(self):
        return 2 * math.pi * self.r


def describe(shape, unit="cm"):
    return f"{type(shape).__name__} with area {shape.area():.2f} {unit}^2"
PY
cat > src/lib.rs <<'RS'
pub fn add(a: i32, b: i32) -> i32 {
    a.saturating_add(b)
}

pub fn product(a: i32, b: i32) -> i32 {
    a * b
}
RS
sed -i 's/serde = "1.0.100"/serde = "1.0.200"/' Cargo.toml
"$real_git" commit -qam "perimeter, units, saturating add"

"$bin" shim install --dir "$tmp/shim" --no >/dev/null
export PATH="$tmp/shim:$PATH"

# An agent harness runs each command as `bash -c CMD` with its marker (here Claude Code's
# CLAUDECODE=1) in the child's environment: that is what the shim looks for.
agent() { CLAUDECODE=1 GIT_PRISM_DEBUG=1 bash -c "$1"; }

echo "\$ git diff main..feature        # run by an agent"
agent 'git diff main..feature'
echo
echo "\$ git diff main..feature | head -n 12   # the agent pipes it: git's own bytes"
agent 'git diff main..feature | head -n 12'
echo
echo "\$ git diff --stat main..feature # a human: always git's own output"
git diff --stat main..feature
