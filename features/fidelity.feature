Feature: The fidelity contract
  JSON is only for the agent's own eyes: when git's stdout is the very stream the agent's
  harness handed to the command. Redirected, piped, substituted or captured output gets git's
  exact bytes, however deep the call.

  Background:
    Given a repository with a main and a feature branch

  Scenario: The agent's own git diff is answered with structure
    When the agent runs "git diff main~1..main"
    Then stderr contains "git-prism: structured: diff main~1..main"

  Scenario: A Makefile recipe keeps the agent's stream
    Given the file "Makefile" contains
      """
      review:
      	git diff main~1..main
      """
    When the agent runs "make -s review"
    Then stderr contains "git-prism: structured: diff main~1..main"

  Scenario: A subshell that changes directory keeps the agent's stream
    When the agent runs "bash -c 'cd sub && git diff main~1..main'"
    Then stderr contains "git-prism: structured: diff main~1..main"

  Scenario: A redirect into a file gets git's bytes
    When the agent runs "git diff main~1..main > x.patch"
    Then it succeeds
    And stderr contains "git-prism: passthrough: stdout is redirected"
    And the file "x.patch" holds exactly what git prints for "diff main~1..main"

  Scenario: A redirect applied by dash before it execs git gets git's bytes
    When the agent runs "sh -c 'git diff main~1..main > d.patch'"
    Then it succeeds
    And stderr contains "git-prism: passthrough: stdout is redirected"
    And the file "d.patch" holds exactly what git prints for "diff main~1..main"

  Scenario: An append under dash after changing directory gets git's bytes
    When the agent runs "sh -c 'cd sub && exec git diff main~1..main >> ../d.patch'"
    Then it succeeds
    And the file "d.patch" holds exactly what git prints for "diff main~1..main"

  Scenario: A pipe into git apply gets git's bytes
    When the agent runs "git diff main main~1 | git apply --check --stat"
    Then it succeeds
    And stderr contains "git-prism: passthrough: stdout is redirected"
    And stdout contains "src/app.py"

  Scenario: A pipe into head gets git's bytes
    When the agent runs "git diff main~1..main | head -n 3"
    Then stderr contains "git-prism: passthrough: stdout is redirected"
    And stdout contains "diff --git a/src/app.py b/src/app.py"

  Scenario: Command substitution gets git's bytes
    When the agent runs "x=$(git diff main~1..main); printf '%s\n' "$x" > sub.patch"
    Then stderr contains "git-prism: passthrough: stdout is redirected"
    And the file "sub.patch" holds exactly what git prints for "diff main~1..main"

  Scenario: A test runner capturing git as a subprocess gets git's bytes
    Given the file "runner.py" contains
      """
      import subprocess, sys
      r = subprocess.run(["git", "diff", "main~1..main"], capture_output=True)
      sys.stdout.buffer.write(r.stdout)
      sys.stderr.buffer.write(r.stderr)
      """
    When the agent runs "python3 runner.py"
    Then stderr contains "git-prism: passthrough: stdout is redirected"
    And stdout is exactly what git prints for "diff main~1..main"

  Scenario: A git hook that redirects git diff gets git's bytes
    Given the executable file ".git/hooks/pre-commit" contains
      """
      #!/bin/sh
      git diff feature~1..feature > hook.out
      """
    When the agent runs "git commit -q --allow-empty -m check"
    Then it succeeds
    And the file "hook.out" holds exactly what git prints for "diff feature~1..feature"

  Scenario: explain shows the decision the shim would take here
    When the agent runs "git-prism explain -- diff main~1..main"
    Then stdout contains ""decision":"structured""
    And stdout contains ""request":"diff main~1..main""
