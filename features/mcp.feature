Feature: MCP server
  Agents that prefer tools over a shell reach the same data through `git-prism serve`, driven
  here by the official Python MCP SDK.

  Background:
    Given a repository with a main and a feature branch
    And the file "src/shop.py" contains
      """
      from src.app import hello


      def welcome():
          return hello() + '!'
      """
    And everything is committed as "shop"

  Scenario: The tools, their descriptions and schemas
    When an MCP client lists the tools
    Then the tools match the snapshot "mcp_tools.json"
    And every tool says it only reads, on this machine, with the same result each time
    And the server says it is "git-prism" version "0.1.0"

  Scenario: A change at a glance with its code (the compact form)
    When an MCP client calls "get_change_manifest" with
      """
      {"base_ref": "main~2", "head_ref": "main"}
      """
    Then the tool call succeeds
    And the answer lists "src/app.py" as "M app.py +5 -1"
    And the answer lists "src/shop.py" as "A shop.py +5 -0"
    And a hunk of "src/app.py" contains "+def bye():"

  Scenario: A change manifest in full
    When an MCP client calls "get_change_manifest" with
      """
      {"base_ref": "main~2", "head_ref": "main", "format": "full"}
      """
    Then the tool call succeeds
    And the JSON field "summary.files_changed" is "2"
    And the file "src/app.py" is modified with 5 added and 1 removed
    And the file "src/shop.py" is added with 5 added and 0 removed

  Scenario: The working tree when head_ref is omitted, limited by patterns
    Given the file "notes.md" contains
      """
      untracked notes
      """
    When an MCP client calls "get_change_manifest" with
      """
      {"base_ref": "HEAD", "exclude_patterns": ["*.md"], "format": "full"}
      """
    Then the tool call succeeds
    And the JSON field "summary.files_changed" is "0"

  Scenario: File snapshots with diff hunks
    When an MCP client calls "get_file_snapshots" with
      """
      {"base_ref": "main~2", "head_ref": "main", "paths": ["src/app.py"], "include_diff_hunks": true,
       "line_range": {"start": 1, "end": 2}}
      """
    Then the tool call succeeds
    And the JSON field "files.0.before.content" is "def hello():\n    return 'hello'\n"
    And the JSON field "files.0.diff_hunks.0.old_start" is "1"

  Scenario: Commit history
    When an MCP client calls "get_commit_history" with
      """
      {"base_ref": "main~2", "head_ref": "main"}
      """
    Then the tool call succeeds
    And the JSON field "commits.0" contains " [A src/shop.py +5 -0"
    When an MCP client calls "get_commit_history" with
      """
      {"base_ref": "main~2", "head_ref": "main", "format": "full"}
      """
    Then the tool call succeeds
    And the JSON field "summary.commits" is "2"

  Scenario: Function context and review
    When an MCP client calls "get_function_context" with
      """
      {"base_ref": "main~2", "head_ref": "main", "function_names": ["hello"]}
      """
    Then the tool call succeeds
    And the callers of "hello" are
      """
      src/shop.py:5 welcome
      """
    When an MCP client calls "review_change" with
      """
      {"base_ref": "main~2", "head_ref": "main", "max_response_tokens": 5000}
      """
    Then the tool call succeeds
    And the JSON field "manifest.summary.files_changed" is "2"
    And the JSON field "context.summary.functions" is "3"

  Scenario: Paging a 150-file change without overlap or loss, then a stale cursor
    Given a repository whose feature branch changes 150 files
    When an MCP client pages through "get_change_manifest" of "main".."feature" with page_size 40
    Then every file git diff lists for "main..feature" was seen exactly once, in order
    When the branch moves and an MCP client asks for the next page of "main".."feature"
    Then the tool call fails with "stale cursor"

  Scenario: Repositories outside the client's roots are refused
    Given the file "{tmp}/elsewhere/README.md" contains
      """
      not the project
      """
    When an MCP client calls "get_change_manifest" with
      """
      {"repo_path": "{tmp}/elsewhere", "base_ref": "HEAD"}
      """
    Then the tool call fails with "outside the directories this server may read"
    When an MCP client whose only root is "home" calls "get_change_manifest" with
      """
      {"repo_path": "{repo}", "base_ref": "main~1", "head_ref": "main"}
      """
    Then the tool call fails with "outside the directories this server may read"

  Scenario: Bad arguments get an error the agent can act on
    When an MCP client calls "get_change_manifest" with
      """
      {"base_ref": "--output=/tmp/x"}
      """
    Then the tool call fails with "is not a revision"
    When an MCP client calls "get_change_manifest" with
      """
      {"base_ref": "no-such-branch", "head_ref": "main"}
      """
    Then the tool call fails with "no-such-branch"

  Scenario: The server exits when the client closes the connection
    When an MCP client connects and closes the connection
    Then the server has exited

  Scenario: The server exits when its parent dies
    When the process that started the server dies while the connection is open
    Then the server exits on its own
