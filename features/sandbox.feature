Feature: A session holds the agent itself: a sandbox derived from the scope, a broker for its git
  `git-prism session` starts the agent's whole process tree in a sandbox: it writes only the
  work trees of its write repositories (never their git directories), its private temporary
  directory and its own state; it cannot read the repositories the scope does not list, nor the
  user's credentials. The git writes the sandbox withholds go through the session, which judges
  each again and runs it.

  Background:
    Given a repository with a main and a feature branch
    And a bare remote "origin" that has the main branch
    And a second repository "secret"
    And the scope "scope.toml" lists the repository as "write-push" and the remote "origin" as "write-local"
    And the environment variable GIT_PRISM_STATE_DIR is "{tmp}/state"

  Scenario: The agent's own tools cannot write the git directory, but its git commits do land
    When I run "git-prism session --scope {tmp}/scope.toml -- sh -c 'echo x >> .git/config; echo direct=$?; echo new > n.txt && git add n.txt && git commit -qm agent && git log -1 --format=%s'"
    Then it succeeds
    And stdout contains "direct=2"
    And stdout contains "agent"
    And stderr contains "git-prism session: the agent writes:"

  Scenario: An unlisted repository and the credentials are invisible to the agent
    Given the file "{tmp}/home/.git-credentials" contains
      """
      https://me:TOKEN@example.com
      """
    When I run "git-prism session --scope {tmp}/scope.toml -- sh -c 'ls ../secret | wc -l; cat ~/.git-credentials; echo done'"
    Then it succeeds
    And stdout contains "0"
    And stdout does not contain "TOKEN"
    And stderr contains "the agent cannot read: 1 unlisted repository"

  Scenario: A protected push by git's own binary is refused by the kernel, a feature push by the broker lands
    When I run "git-prism session --scope {tmp}/scope.toml -- sh -c 'git commit -q --allow-empty -m x; {real_git} push -q origin HEAD:main; echo direct=$?; git push -q origin feature; echo broker=$?'"
    Then it succeeds
    And stdout contains "broker=0"
    And stdout does not contain "direct=0"
    And the remote "origin" still has its first main
    And the remote "origin" has the branch "feature"
