Feature: Change manifests from the command line
  `git-prism manifest` reports what changed in a range with git's own per-file facts,
  plus what a reviewer needs next: languages, generated files, dependency bumps.

  Background:
    Given a repository with a main and a feature branch

  Scenario: A commit range
    When I run "git-prism manifest main~1..main"
    Then it succeeds
    And the manifest lists 1 file
    And the file "src/app.py" is modified with 5 added and 1 removed
    And the file "src/app.py" has "language" = "python"
    And the JSON field "metadata.base_ref" is "main~1"
    And the JSON field "summary.lines_added" is "5"

  Scenario: A three-dot range diffs from the merge base
    When I run "git-prism manifest main...feature"
    Then it succeeds
    And the manifest lists 1 file
    And the file "feature.txt" is added with 1 added and 0 removed

  Scenario: The working tree includes untracked files that are not ignored
    Given the file ".gitignore" contains
      """
      *.log
      """
    And the file "notes.md" contains
      """
      draft
      """
    And the file "debug.log" contains
      """
      noise
      """
    When I run "git-prism manifest HEAD"
    Then it succeeds
    And the file "notes.md" has "untracked" = "true"
    And stdout does not contain "debug.log"

  Scenario: A bad revision is one clear error
    When I run "git-prism manifest nope..main"
    Then the exit status is 1
    And stderr contains "nope"
    And stdout does not contain "{"

  Scenario: Outside a repository
    When I run "git-prism manifest --repo {home} HEAD"
    Then the exit status is 1
    And stderr contains "not a git repository"

  Scenario: Pages with cursors
    Given the file "a1.txt" contains
      """
      1
      """
    And the file "a2.txt" contains
      """
      2
      """
    And the file "a3.txt" contains
      """
      3
      """
    When I run "git-prism manifest --no-untracked --page-size 2 HEAD"
    Then stdout does not contain "a1.txt"
    When I run "git-prism manifest --page-size 2 HEAD"
    Then the manifest lists 2 files
    And the JSON field "pagination.total_files" is "3"
    And the JSON field "summary.files_changed" is "3"

  Scenario: Dependency bumps
    Given the file "Cargo.toml" contains
      """
      [dependencies]
      serde = "1.0.100"
      """
    When I run "git -c user.name=x -c user.email=x@y add Cargo.toml"
    And I run "git -c user.name=x -c user.email=x@y commit -q -m deps"
    Given the file "Cargo.toml" contains
      """
      [dependencies]
      serde = "2.0.0"
      """
    When I run "git-prism manifest HEAD"
    Then the dependency change of "serde" goes from "1.0.100" to "2.0.0" as a major bump

  Scenario: Per-commit history, merges included
    When I run "git -c user.name=x -c user.email=x@y merge -q --no-ff -m merge feature"
    And I run "git-prism history"
    Then it succeeds
    And the history lists the commits git log lists
    And the JSON field "summary.merges" is "1"
    And the JSON field "commits.0.is_merge" is "true"

  Scenario: Snapshots before and after
    When I run "git-prism snapshot main~1..main --paths src/app.py --line-range 1:2"
    Then it succeeds
    And the JSON field "files.0.before.content" is "def hello():\n    return 'hello'\n"
    And the JSON field "files.0.after.first_line" is "1"

  Scenario: The schema of the manifest
    When I run "git-prism schema"
    Then it succeeds
    And stdout contains "schema_version"

  Scenario: Functions that changed, not lines
    Given the file "src/app.py" contains
      """
      def hello():
          # greet the whole world
          return 'hello, world'


      def bye(name):
          return 'bye ' + name
      """
    When I run "git-prism manifest main"
    Then it succeeds
    And stdout contains ""name":"bye","kind":"function","change_type":"signature_changed""
    And stdout contains ""formatting_only":["hello"]"
    And the JSON field "summary.functions.signature_changed" is "1"

  Scenario: Languages without an analyzer are not analysed
    Given the file "README.md" contains
      """
      # changed
      """
    When I run "git-prism manifest main"
    Then stdout contains ""path":"README.md","change_type":"modified""
    And stdout contains ""functions_changed":null"

  Scenario: The languages with function analysis
    When I run "git-prism languages --analyzed"
    Then it succeeds
    And stdout contains "rust"
    And stdout contains "python"

  Scenario: A large manifest is paged by default as the shim pages, --all prints it whole
    Given the file "gen.sh" contains
      """
      for i in $(seq 1 200); do printf 'def f%s():\n    return %s\n' $i $i > "module_with_a_long_name_$i.py"; done
      git add -A && git -c user.name=x -c user.email=x@y commit -q -m many
      """
    When I run "sh gen.sh"
    And I run "git-prism manifest HEAD~1..HEAD"
    Then it succeeds
    And stdout is at most 20001 bytes
    And stdout contains ""next_cursor":"
    When I run "git-prism manifest --max-tokens 2000 HEAD~1..HEAD"
    Then stdout is at most 6001 bytes
    When I run "git-prism manifest --all HEAD~1..HEAD"
    Then the manifest lists 201 files
    And stdout does not contain "next_cursor"
