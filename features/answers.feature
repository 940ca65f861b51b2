Feature: The shim answers an agent's git with structure
  An agent types the git it already knows and reads JSON that costs less than git's own output:
  the changed code with the functions it changes, a large change's complete map first, commits
  with what they changed, blame with each commit once, the pickaxe with the lines that hold the
  term. People and scripts keep getting git's own bytes.

  Background:
    Given a repository with a main and a feature branch

  Scenario: git diff as an agent
    When the agent runs "git diff main~1..main"
    Then it succeeds
    And stdout is JSON
    And the answer lists "src/app.py" as "M app.py +5 -1"
    And a hunk of "src/app.py" contains "@@ -2 +2 @@ hello; added bye\n-    return 'hello'\n+    return 'hello, world'"
    And the JSON has no field "raw"

  Scenario: Patch-shaping options are honoured inside the answer
    When the agent runs "git diff -U1 main~1..main"
    Then stdout is JSON
    And a hunk of "src/app.py" contains "@@ -1 +1 @@ hello; added bye\n def hello():\n-    return 'hello'"
    When the agent runs "git diff --unified=3 main~1..main -- src"
    Then stdout is JSON
    And a hunk of "src/app.py" contains " def hello():"

  Scenario: A change too large for one answer leads with its table of contents
    Given the file "gen.sh" contains
      """
      for i in $(seq 1 40); do printf 'def f%s():\n    return %s\n' $i $i > "m$i.py"; done
      git add -A && git -c user.name=x -c user.email=x@y commit -q -m many
      for i in $(seq 1 40); do printf 'def f%s():\n    return %s + 1\n\ndef g%s(x):\n    return x\n' $i $i $i > "m$i.py"; done
      git -c user.name=x -c user.email=x@y commit -q -am more
      """
    And the environment variable GIT_PRISM_MAX_OUTPUT is "6000"
    When I run "sh gen.sh"
    And the agent runs "git diff HEAD~1..HEAD"
    Then stdout is JSON
    And the JSON field "summary" contains "40 files changed"
    And the functions of "m7.py" include "added def g7(x)"
    And the functions of "m7.py" include "modified f7"
    And the JSON field "raw" is "GIT_PRISM_INSIDE_SHIM=1 git diff HEAD~1..HEAD"

  Scenario: A change too large for one answer continues with GIT_PRISM_CURSOR
    Given the file "gen.sh" contains
      """
      for i in $(seq 1 40); do printf 'def f%s():\n    return %s\n' $i $i > "m$i.py"; done
      git add -A && git -c user.name=x -c user.email=x@y commit -q -m many
      for i in $(seq 1 40); do printf 'def f%s():\n    return %s + 1\n' $i $i > "m$i.py"; done
      git -c user.name=x -c user.email=x@y commit -q -am more
      """
    And the environment variable GIT_PRISM_MAX_OUTPUT is "2000"
    When I run "sh gen.sh"
    And the agent runs "git diff HEAD~1..HEAD"
    Then stdout is JSON
    And stdout contains ""next":"GIT_PRISM_CURSOR=gp2-"
    And following "next" with GIT_PRISM_CURSOR as the agent shows the hunks of all 40 files once

  Scenario: An answer never costs more than git's own output, else git's bytes
    Given the shim weighs answers against git
    When the agent runs "git show -s main"
    Then stdout is JSON
    And the JSON field "message" is "main: greet the world"
    And the JSON has no field "files"
    And stdout is at most as large as what git prints for "show -s main"
    When the agent runs "git log"
    Then stdout is JSON
    And stdout is at most as large as what git prints for "log"
    When the agent runs "git blame sub/notes.txt"
    Then stdout is exactly what git prints for "blame sub/notes.txt"

  Scenario: A function's history, each commit with the lines it changed, reformatting marked
    Given the file "history.sh" contains
      """
      c() { git commit -q -am "$1"; }
      printf 'def hello():\n    return "hi, world"\n' > src/app.py; c "greet the world"
      printf 'def hello():\n    """The greeting."""\n    return "hi, world"\n' > src/app.py; c "document"
      printf 'def hello() -> str:\n    """The greeting."""\n    return "hi, world"\n' > src/app.py; c "annotate"
      printf 'def hello() -> str:\n    """The greeting."""\n    return "hi, you"\n' > src/app.py; c "greet you"
      """
    And the shim weighs answers against git
    When I run "sh history.sh"
    And the agent runs "git log -L :hello:src/app.py"
    Then stdout is JSON
    And commit line 0 contains " A U Thor: greet you\n@@ -3 +3 @@\n-    return \"hi, world\"\n+    return \"hi, you\""
    And commit line 1 contains " A U Thor: annotate [type annotations only]"
    And commit line 2 contains " A U Thor: document [formatting or comments only]"
    And commit line 3 contains " A U Thor: greet the world\n@@ -2"
    And stdout is at most as large as what git prints for "log -L :hello:src/app.py"

  Scenario: A cursor that cannot be used says so in one line, never with git's whole output
    When the agent runs "GIT_PRISM_CURSOR=gp2-0000000000000000-m1 git diff main~1..main"
    Then the exit status is 1
    And stdout is empty
    And stderr contains "git-prism: the page cursor (GIT_PRISM_CURSOR) is stale"
    And stderr contains "run `git diff main~1..main` again"
    When the agent runs "GIT_PRISM_CURSOR=nonsense git log"
    Then the exit status is 1
    And stdout is empty
    And stderr contains "'nonsense' is not one this command printed"

  Scenario: Already compact formats keep git's bytes
    When the agent runs "git diff --stat main~1..main"
    Then stdout is exactly what git prints for "diff --stat main~1..main"

  Scenario: git diff as a human
    When a human runs "git diff main~1..main"
    Then stdout is exactly what git prints for "diff main~1..main"

  Scenario: git diff from a subdirectory
    When the agent runs "git diff main~1..main -- ." in "sub"
    Then stdout is exactly what git prints for "diff main~1..main -- sub"

  Scenario: git -C from elsewhere
    When the agent runs "cd / && git -C {repo} diff main~1..main"
    Then the answer lists 1 file

  Scenario: A three-dot range across diverged branches
    When the agent runs "git diff main...feature"
    Then the answer lists 1 file
    And the answer lists "feature.txt" as "A feature.txt +1 -0"
    And a hunk of "feature.txt" contains "@@ -0 +1 @@\n+a feature"

  Scenario: A bad ref gets git's own error and exit code
    When the agent runs "git diff nope..main"
    Then the exit status is 128
    And stderr contains "fatal: ambiguous argument 'nope..main'"
    And stdout does not contain "{"

  Scenario: git log as an agent, merges included
    When I run "git -c user.name=x -c user.email=x@y merge -q --no-ff -m merge feature"
    And the agent runs "git log"
    Then stdout is JSON
    And the log answer lists the commits git log lists
    And commit line 0 contains " [merge; A feature.txt +1 -0]\nmerge"

  Scenario: git log as a human
    When a human runs "git log --stat"
    Then stdout is exactly what git prints for "log --stat"

  Scenario: git show as an agent
    When the agent runs "git show main"
    Then the JSON field "message" is "main: greet the world"
    And the JSON field "author" is "A U Thor <author@example.com>"
    And the answer lists "src/app.py" as "M app.py +5 -1"
    And a hunk of "src/app.py" contains "@@ -2 +2 @@ hello; added bye\n-    return 'hello'\n+    return 'hello, world'\n+\n+\n+def bye():"

  Scenario: git show with the header suppressed and wider context
    When the agent runs "git show main --format= -U4"
    Then stdout is JSON
    And the JSON has no field "message"
    And a hunk of "src/app.py" contains "@@ -1 +1 @@"

  Scenario: Functions inside a Rust macro are named, and a macro that holds no items says so
    Given the file "gen.sh" contains
      """
      printf 'pub struct Builder;\n\nimpl Builder {\n    pub fn new() -> Builder {\n        Builder\n    }\n}\n\nfrom_integer! {\n    i8\n}\n' > lib.rs
      git add -A && git -c user.name=x -c user.email=x@y commit -q -m base
      printf 'pub struct Builder;\n\nimpl Builder {\n    pub fn new() -> Builder {\n        Builder\n    }\n\n    cfg_unstable! {\n        pub fn track(&mut self) {}\n    }\n}\n\nfrom_integer! {\n    i8 i16\n}\n' > lib.rs
      git -c user.name=x -c user.email=x@y commit -q -am track
      """
    When I run "sh gen.sh"
    And the agent runs "git show HEAD"
    Then stdout is JSON
    And a hunk of "lib.rs" contains "@@ added Builder::track"
    And a hunk of "lib.rs" contains "@@ opaque macro from_integer!"

  Scenario: git show -s is the commit without its hunks
    When the agent runs "git show -s main"
    Then the JSON field "message" is "main: greet the world"
    And the answer has no hunks

  Scenario: git show --oneline keeps git's bytes
    When the agent runs "git show --oneline main"
    Then stdout is exactly what git prints for "show --oneline main"

  Scenario: git show of a file goes to git
    When the agent runs "git show main:README.md"
    Then stdout is exactly what git prints for "show main:README.md"

  Scenario: git blame as an agent
    When the agent runs "git blame src/app.py"
    Then stdout is JSON
    And blame run 0 is "1 hello\ndef hello():"
    And the blame commits table names "A U Thor 2024-01-01: "

  Scenario: The pickaxe as an agent
    When the agent runs "git log -S bye"
    Then stdout is JSON
    And the JSON field "commits.0" contains "\nmain: greet the world\nsrc/app.py:5 bye\n+def bye():"

  Scenario: A redirect gets git's bytes
    When the agent runs "git log -S bye > out.txt"
    Then the file "out.txt" holds exactly what git prints for "log -S bye"

  Scenario: A pipe into git apply gets git's bytes
    When the agent runs "git diff main main~1 | git apply --check"
    Then it succeeds

  Scenario: A make target keeps the agent's stream
    Given the file "Makefile" contains
      """
      review:
      	@git diff main~1..main
      """
    When the agent runs "make -s review"
    Then stdout is JSON
    And the answer lists 1 file

  Scenario: A test runner capturing git gets git's bytes
    Given the file "runner.py" contains
      """
      import subprocess, sys
      sys.stdout.buffer.write(subprocess.run(["git", "show", "main"], capture_output=True).stdout)
      """
    When the agent runs "python3 runner.py"
    Then stdout is exactly what git prints for "show main"

  Scenario: gh pr diff as an agent
    Given a fake gh whose pull request 7 merges "feature" into "main"
    When the agent runs "gh pr diff 7"
    Then it succeeds
    And the JSON field "pull_request.number" is "7"
    And the answer lists "feature.txt" as "A feature.txt +1 -0"
    And the fake gh was asked "pr view --json number,title,url,baseRefOid,headRefOid,baseRefName,headRefName -- 7"

  Scenario: gh pr diff --patch and other gh calls go to gh
    Given a fake gh whose pull request 7 merges "feature" into "main"
    When the agent runs "gh pr diff 7 --patch && gh pr list"
    Then stdout contains "real gh: pr diff 7 --patch"
    And stdout contains "real gh: pr list"

  Scenario: gh pr diff as a human goes to gh
    Given a fake gh whose pull request 7 merges "feature" into "main"
    When a human runs "gh pr diff 7"
    Then stdout contains "real gh: pr diff 7"
