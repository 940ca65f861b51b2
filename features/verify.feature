Feature: git-prism verify asks git whether work said to be done is done
  An unattended loop's worst output is a false "done". `git-prism verify` asks git itself:
  nothing left uncommitted, a commit made since the start, the branch on its remote, the commit
  merged. It is silent when everything holds, and says each failure in one
  "git-prism verify:" line with its own exit status.

  Background:
    Given a repository with a main and a feature branch
    And a bare remote "origin" that has the main branch

  Scenario: Work committed and pushed passes silently
    When a human runs "git checkout -q feature && git push -q -u origin feature"
    And I run "git-prism verify --since main --pushed"
    Then it succeeds
    And stdout is empty
    And stderr does not contain "git-prism"

  Scenario: Files written but never committed
    Given the file "notes/new.txt" contains
      """
      left behind
      """
    When I run "git-prism verify --since HEAD~1"
    Then the exit status is 10
    And stdout contains "git-prism verify: committed: 1 change not committed (1 untracked): ?? notes/new.txt"

  Scenario: The same ref passed as the task branch and its base
    When I run "git-prism verify --since main --merged-into main"
    Then the exit status is 11
    And stdout contains "git-prism verify: commit: HEAD is still at main ("

  Scenario: A commit pushed on its branch but never merged
    When a human runs "git checkout -q feature && git push -q -u origin feature"
    And I run "git-prism verify --since main --pushed --merged-into main"
    Then the exit status is 13
    And stdout contains "git-prism verify: merged: main is "
    And stdout contains "which does not contain HEAD"

  Scenario: Drivers read every check as JSON
    When I run "git-prism verify --since HEAD~1 --json"
    Then it succeeds
    And the JSON field "ok" is "true"
