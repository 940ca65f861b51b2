Feature: Escape hatches and passthrough
  git-prism sits in front of every git call on the machine. People and scripts must get
  git's exact bytes, and anyone can switch the shim off for one command or a whole session.

  Background:
    Given a repository with a main and a feature branch

  Scenario: A human's git diff is git's own output
    When a human runs "git diff main~1..main"
    Then it succeeds
    And stdout is exactly what git prints for "diff main~1..main"
    And stderr contains "git-prism: passthrough: not an agent"

  Scenario Outline: An opt-out variable makes the agent's call pass through
    Given the environment variable <variable> is "<value>"
    When the agent runs "git diff main~1..main"
    Then it succeeds
    And stdout is exactly what git prints for "diff main~1..main"
    And stderr contains "git-prism: passthrough: <variable> is set"

    Examples:
      | variable              | value |
      | GIT_PRISM_PASSTHROUGH | 1     |
      | GIT_PRISM_PASSTHROUGH | TRUE  |
      | GIT_PRISM_DISABLE     | true  |
      | GIT_PRISM_DISABLE     | 1     |
      | GIT_PRISM_INSIDE_SHIM | 1     |
      | GIT_PRISM_INSIDE_SHIM | yes   |

  Scenario: An opt-out set to something else does not opt out
    Given the environment variable GIT_PRISM_PASSTHROUGH is "0"
    When the agent runs "git diff main~1..main"
    Then stderr does not contain "GIT_PRISM_PASSTHROUGH is set"

  Scenario: CI is never an agent
    Given the environment variable CI is "true"
    When the agent runs "git diff main~1..main"
    Then stdout is exactly what git prints for "diff main~1..main"
    And stderr contains "git-prism: passthrough: not an agent"

  Scenario Outline: The agent's calls that ask for git's own format pass through
    When the agent runs "git <args>"
    Then stdout is exactly what git prints for "<args>"
    And stderr contains "git-prism: passthrough: "

    Examples:
      | args                           |
      | status --short                 |
      | diff --stat main~1..main       |
      | diff --name-only main~1        |
      | log --oneline                  |
      | log -p -1                      |
      | show main:README.md            |
      | blame --porcelain README.md    |
      | rev-parse HEAD                 |

  Scenario: The resolver reports where the real git is
    Given the environment variable GIT_PRISM_DEBUG_RESOLVER is "1"
    When a human runs "git rev-parse --is-inside-work-tree"
    Then it succeeds
    And stderr contains "git-prism: resolved git: /"

  Scenario: No real git anywhere is exit 127 with one line
    When a human runs the shim with only the shim directory on PATH
    Then the exit status is 127
    And stderr contains "git-prism: no real `git` found on PATH"

  Scenario: The raw escape hatch an answer advertises gives git's bytes
    When the agent runs "GIT_PRISM_INSIDE_SHIM=1 git diff main~1..main"
    Then stdout is exactly what git prints for "diff main~1..main"
