#!/bin/sh
# Prints the absolute path of the real git: the first `git` on PATH that is not git-prism.
# (Benchmarks must compare against git itself even when the shim is installed.)
IFS=:
for dir in $PATH; do
  case "$dir" in /*) ;; *) continue ;; esac
  candidate="$dir/git"
  [ -x "$candidate" ] || continue
  if GIT_PRISM_PASSTHROUGH=1 "$candidate" --version 2>/dev/null | grep -q '^git version'; then
    resolved=$(readlink -f "$candidate")
    case "$(basename "$resolved")" in git-prism) continue ;; esac
    echo "$candidate"
    exit 0
  fi
done
echo "no real git on PATH" >&2
exit 1
