Feature: The session guard holds every git and gh call of a session to its scope
  With GIT_PRISM_SCOPE set, every call that reaches git-prism — the agent's own, a script's, a
  make recipe's — is checked before git runs: reads always pass; writes need the permission
  the scope gives the repository; a push never goes to a protected branch; what the guard
  cannot place is refused with one "git-prism guard:" line.

  Background:
    Given a repository with a main and a feature branch
    And a bare remote "origin" that has the main branch
    And the scope "scope.toml" lists the repository as "write-push" and the remote "origin" as "write-local"
    And the environment variable GIT_PRISM_SCOPE is "{tmp}/scope.toml"
    And the environment variable GIT_PRISM_STATE_DIR is "{tmp}/state"

  Scenario: A push to a protected branch is refused, in every spelling, and changes nothing
    When a human runs "git push origin main; git push origin feature:refs/heads/main; git -c alias.p=push p origin HEAD:main; git push --all; echo done"
    Then stdout contains "done"
    And stderr contains "git-prism guard: refused `git push origin main` in"
    And stderr contains "`main` is a protected branch"
    And stderr contains "refused `git -c alias.p=push p origin HEAD:main`"
    And stderr contains "--all pushes every branch"
    And the remote "origin" still has its first main

  Scenario: A refused push says what the agent can do instead, and that push lands
    When a human runs "git push origin main"
    Then the exit status is 1
    And stderr contains "push the work to a branch of your own instead (`git push origin HEAD:refs/heads/<new-branch>`) and open a pull request into `main`"
    And stderr contains "or ask the user to run `cd "
    When a human runs "git push -q origin HEAD:refs/heads/work"
    Then it succeeds
    And the remote "origin" has the branch "work"

  Scenario: A setting that runs a program is refused with the call without it, never a scope change
    When a human runs "git -c diff.external=./x diff --stat"
    Then the exit status is 1
    And stderr contains "run `git diff --stat` instead (without `-c diff.external=./x`)"
    And stderr contains "no scope allows it"
    And stderr does not contain "scope.toml"
    When a human runs "git diff --stat"
    Then it succeeds

  Scenario: A feature branch is pushed, and the push is recorded
    When a human runs "git push -q origin feature"
    Then it succeeds
    And the remote "origin" has the branch "feature"
    When I run "git-prism session log"
    Then stdout contains "allowed"
    And stdout contains "push to feature"

  Scenario: The escape hatches switch off answers, never the guard
    When a human runs "GIT_PRISM_INSIDE_SHIM=1 git push origin main"
    Then the exit status is 1
    And stderr contains "git-prism guard: refused"

  Scenario: A make recipe that pushes is held too
    Given the file "Makefile" contains
      """
      release:
      	@sh -c 'git push origin main'
      """
    When a human runs "make -s release"
    Then stderr contains "git-prism guard: refused `git push origin main`"

  Scenario: An unlisted repository is read-only
    Given a second repository "notes"
    When a human runs "cd ../notes && git log --oneline && git status --short && git commit -q --allow-empty -m x"
    Then the exit status is 1
    And stdout contains "init"
    And stderr contains "(read)"
    And stderr contains "does not list this repository"

  Scenario: A scope with an unknown permission refuses writes and allows reads
    Given the scope file "scope.toml" gives the repository "admin"
    When a human runs "git log -1 --format=%s && git commit -q --allow-empty -m x"
    Then the exit status is 1
    And stdout contains "main: greet the world"
    And stderr contains "is not valid"

  Scenario: session check says what the scope allows here
    When I run "git-prism session check"
    Then it succeeds
    And stdout contains "permission: write-push"
    And stdout contains "refused: pushes to main, master"
    And stdout contains "kernel: Landlock ABI"

  Scenario: A push into a repository on this machine needs that repository's permission
    Given a second repository "notes"
    When a human runs "git push ../notes main:refs/heads/copy"
    Then the exit status is 1
    And stderr contains "the push writes into the repository at"
    And stderr contains "notes"
