Feature: Installing the shim
  `git-prism shim install` links git (and gh, where a real gh is installed) to the binary in a
  directory of its own, puts that directory first on PATH and the agent note into the agents' own instruction files with
  consent, and can be inspected and undone.

  Background:
    Given the environment variable GIT_PRISM_HOME is "{tmp}/gp"

  Scenario: Install links git and gh and asks nothing without a terminal
    Given a real gh is on PATH
    When I run "git-prism shim install"
    Then it succeeds
    And "{tmp}/gp/bin/git" is a symlink to git-prism
    And "{tmp}/gp/bin/gh" is a symlink to git-prism
    And stdout contains "gh: calls reach the real gh at {tmp}/real-gh/gh"
    And stdout contains "PATH not changed"
    And the file "{home}/.bashrc" does not exist

  Scenario: Without a real gh, install links git alone and says so
    When I run "git-prism shim install --no"
    Then it succeeds
    And "{tmp}/gp/bin/git" is a symlink to git-prism
    And the file "{tmp}/gp/bin/gh" does not exist
    And stdout contains "gh not linked: no gh on PATH"
    Given a real gh is on PATH
    When I run "git-prism shim install --no"
    Then "{tmp}/gp/bin/gh" is a symlink to git-prism
    Given the directory "{tmp}/gp/bin" is first on PATH
    When I run "gh pr list"
    Then the file "{tmp}/real-gh/argv" contains "pr list" 1 time

  Scenario: Install prints the note that tells the agent when it may not add it
    When I run "git-prism shim install --no"
    Then it succeeds
    And stdout contains "paste these lines into your project's AGENTS.md or CLAUDE.md"
    And stdout contains "A page is at most 20,000 bytes"
    And stdout contains "For one slice of a large patch a pipe is cheaper"
    And stdout contains "GIT_PRISM_INSIDE_SHIM=1 git ..."

  Scenario: With consent, the note goes into the agents found, and uninstall takes it out
    Given the file "{home}/.claude/CLAUDE.md" contains
      """
      # My rules
      Be brief.
      """
    And the file "{home}/.codex/config.toml" contains
      """
      model = "x"
      """
    When I run "git-prism shim install --yes"
    And I run "git-prism shim install --yes"
    Then it succeeds
    And stdout contains "agent note already in {home}/.claude/CLAUDE.md"
    And the file "{home}/.claude/CLAUDE.md" contains ">>> git-prism note >>>" 1 time
    And the file "{home}/.codex/AGENTS.md" contains ">>> git-prism note >>>" 1 time
    And the file "{home}/.gemini/GEMINI.md" does not exist
    When I run "git-prism shim status"
    Then stdout contains "agent note in: {home}/.claude/CLAUDE.md"
    When I run "git-prism shim uninstall"
    Then it succeeds
    And stdout contains "removed the agent note from {home}/.codex/AGENTS.md"
    And the file "{home}/.claude/CLAUDE.md" holds exactly
      """
      # My rules
      Be brief.
      """
    And the file "{home}/.codex/AGENTS.md" does not exist

  Scenario: --no-note keeps the agents' files as they are
    Given the file "{home}/.gemini/settings.json" contains
      """
      {}
      """
    When I run "git-prism shim install --yes --no-note"
    Then it succeeds
    And the file "{home}/.gemini/GEMINI.md" does not exist
    And stdout contains "paste these lines"

  Scenario: Install is idempotent
    When I run "git-prism shim install --no"
    And I run "git-prism shim install --no"
    Then it succeeds
    And stdout contains "already linked: {tmp}/gp/bin/git"

  Scenario: --dir chooses the directory
    When I run "git-prism shim install --dir {tmp}/elsewhere --no"
    Then it succeeds
    And "{tmp}/elsewhere/git" is a symlink to git-prism

  Scenario: A foreign file is refused and nothing changes
    Given a real gh is on PATH
    And the file "{tmp}/gp/bin/gh" contains
      """
      #!/bin/sh
      echo mine
      """
    When I run "git-prism shim install --no"
    Then the exit status is 1
    And stderr contains "refusing to replace files git-prism does not own"
    And the file "{tmp}/gp/bin/git" does not exist

  Scenario: --force replaces a foreign file
    Given a real gh is on PATH
    And the file "{tmp}/gp/bin/gh" contains
      """
      #!/bin/sh
      """
    When I run "git-prism shim install --no --force"
    Then it succeeds
    And "{tmp}/gp/bin/gh" is a symlink to git-prism

  Scenario: With consent, bash start-up files put the directory first exactly once
    When I run "git-prism shim install --yes"
    And I run "git-prism shim install --yes"
    Then it succeeds
    And stdout contains "restart your shell and your agent"
    And the file "{home}/.bashrc" contains ">>> git-prism shim >>>" 1 time
    And the file "{home}/.bash_profile" contains ">>> git-prism shim >>>" 1 time
    And a login bash sees "{tmp}/gp/bin" first on PATH exactly once

  Scenario: An existing .profile is used instead of creating .bash_profile
    Given the file "{home}/.profile" contains
      """
      export EDITOR=vi
      """
    When I run "git-prism shim install --yes"
    Then it succeeds
    And the file "{home}/.profile" contains ">>> git-prism shim >>>" 1 time
    And the file "{home}/.bash_profile" does not exist

  Scenario: zsh and fish get their own files
    Given the environment variable SHELL is "/usr/bin/zsh"
    When I run "git-prism shim install --yes"
    Then the file "{home}/.zshenv" contains ">>> git-prism shim >>>" 1 time
    Given the environment variable SHELL is "/usr/bin/fish"
    When I run "git-prism shim install --yes"
    Then the file "{home}/.config/fish/conf.d/git-prism.fish" contains "set -gx PATH" 1 time

  Scenario: Status reports a healthy install
    Given the directory "{tmp}/gp/bin" is first on PATH
    When I run "git-prism shim install --no"
    And I run "git-prism shim status"
    Then it succeeds
    And stdout contains "git: installed"
    And stdout contains "on PATH: first"
    And stdout contains "status: ok"

  Scenario: Status exits non-zero for a broken install
    When I run "git-prism shim install --no"
    And I run "git-prism shim status"
    Then the exit status is 1
    And stdout contains "is not on PATH"

  Scenario: Status reports a broken link
    Given the directory "{tmp}/gp/bin" is first on PATH
    And the file "{tmp}/gp/bin/gh" contains
      """
      foreign
      """
    When I run "git-prism shim status --json"
    Then the exit status is 1
    And stdout contains ""state":"foreign""
    And stdout contains ""ok":false"

  Scenario: Uninstall removes only what install created
    When I run "git-prism shim install --yes"
    And I run "git-prism shim uninstall"
    Then it succeeds
    And the file "{tmp}/gp/bin/git" does not exist
    And the file "{home}/.bashrc" contains ">>> git-prism shim >>>" 0 times

  Scenario: A directory named git is never replaced, even with --force
    Given the file "{tmp}/gp/bin/git/notes.txt" contains
      """
      my work
      """
    When I run "git-prism shim install --no --force"
    Then the exit status is 1
    And stderr contains "refusing to replace directories, even with --force"
    And the file "{tmp}/gp/bin/git/notes.txt" contains "my work" 1 time
    And the file "{tmp}/gp/bin/gh" does not exist

  Scenario: Uninstall refuses a block whose end line is missing and changes nothing
    Given the file "{home}/.bashrc" contains
      """
      alias ll='ls -l'
      # >>> git-prism shim >>>
      export PATH="/somewhere:$PATH"
      alias keep='this line'
      """
    When I run "git-prism shim uninstall"
    Then the exit status is 1
    And stderr contains "without its end line"
    And stderr contains "nothing was changed"
    And the file "{home}/.bashrc" contains "alias keep='this line'" 1 time
    And the file "{home}/.bashrc" contains ">>> git-prism shim >>>" 1 time

  Scenario: Install and uninstall leave a start-up file without a final newline as it was
    Given the file "{home}/.bashrc" contains, with no final newline
      """
      alias ll='ls -l'
      """
    When I run "git-prism shim install --yes"
    And I run "git-prism shim uninstall"
    Then it succeeds
    And the file "{home}/.bashrc" is exactly, with no final newline
      """
      alias ll='ls -l'
      """
