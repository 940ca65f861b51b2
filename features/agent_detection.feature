Feature: Agent detection
  Only the environment decides whether an AI agent is calling git.

  Scenario Outline: agent-detect names the agent and the variable that identified it
    Given the environment variable <variable> is "<value>"
    When I run "git-prism agent-detect"
    Then it succeeds
    And stdout is the JSON
      """
      {"agent": <agent>, "signal": <signal>}
      """

    Examples:
      | variable         | value  | agent         | signal             |
      | CLAUDECODE       | 1      | "claude-code" | "CLAUDECODE"       |
      | CURSOR_AGENT     | 1      | "cursor"      | "CURSOR_AGENT"     |
      | GEMINI_CLI       | 1      | "gemini-cli"  | "GEMINI_CLI"       |
      | CODEX_SANDBOX    | x      | "codex"       | "CODEX_SANDBOX"    |
      | CODEX_THREAD_ID  | t1     | "codex"       | "CODEX_THREAD_ID"  |
      | CLINE_ACTIVE     | true   | "cline"       | "CLINE_ACTIVE"     |
      | AUGMENT_AGENT    | 1      | "augment"     | "AUGMENT_AGENT"    |
      | OPENCODE_CLIENT  | cli    | "opencode"    | "OPENCODE_CLIENT"  |
      | TRAE_AI_SHELL_ID | 9      | "trae"        | "TRAE_AI_SHELL_ID" |
      | AI_AGENT         | my-bot | "my-bot"      | "AI_AGENT"         |
      | AGENT            | goose  | "goose"       | "AGENT"            |
      | AGENT            | amp    | "amp"         | "AGENT"            |
      | AGENT            | 1      | null          | null               |
      | AGENT            | ci-bot | null          | null               |

  Scenario: Nothing set means no agent
    When I run "git-prism agent-detect"
    Then stdout is the JSON
      """
      {"agent": null, "signal": null}
      """

  Scenario: CI overrides every agent marker
    Given the environment variable CLAUDECODE is "1"
    And the environment variable CI is "true"
    When I run "git-prism agent-detect"
    Then stdout is the JSON
      """
      {"agent": null, "signal": null}
      """
