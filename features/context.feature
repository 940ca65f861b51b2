Feature: Function context
  An agent reviewing a change asks who calls each changed function, what it calls, which
  tests reach it and how risky the change is, without grepping the repository.

  Background:
    Given a repository with a main and a feature branch
    And the file "shop/prices.py" contains
      """
      def total(items):
          return sum(items)


      def new():
          return 0
      """
    And the file "shop/stock.py" contains
      """
      def new():
          return 1
      """
    And the file "shop/cart.py" contains
      """
      from shop.prices import total as sum_up
      from . import stock


      def checkout(items):
          stock.new()
          return sum_up(items)
      """
    And the file "tests/test_prices.py" contains
      """
      from shop.prices import total


      def test_total():
          assert total([1, 2]) == 3
      """
    And everything is committed as "shop"
    And the file "shop/prices.py" contains
      """
      def total(items):
          return sum(items) + 0


      def new():
          return 2
      """
    And everything is committed as "change prices"

  Scenario: Callers are found through imports, not by name alone
    When I run "git-prism context HEAD~1..HEAD"
    Then it succeeds
    And the callers of "total" are
      """
      shop/cart.py:7 checkout
      tests/test_prices.py:5 test_total test
      """
    And the risk of "total" is "low" with 1 production and 1 test callers
    And the risk of "new" is "none" with 0 production and 0 test callers
    And the JSON field "functions.0.scoping" is "scoped"

  Scenario: A function asked for by name
    When I run "git-prism context --function-names checkout,nowhere HEAD~1..HEAD"
    Then it succeeds
    And the JSON field "functions.0.change_type" is "unchanged"
    And the JSON field "functions.0.callees.0.callee" is "stock.new"
    And the JSON field "functions.0.callees.0.resolved_file" is "shop/stock.py"
    And the JSON field "summary.not_found.0" is "nowhere"

  Scenario: Review gives the manifest and the context in one answer
    When I run "git-prism review --max-tokens 4000 HEAD~1..HEAD"
    Then it succeeds
    And the JSON field "manifest.summary.files_changed" is "1"
    And the JSON field "context.summary.functions" is "2"

  Scenario: A cursor from before the branch moved is refused
    When I run "git-prism context --page-size 1 HEAD~1..HEAD"
    Then it succeeds
    And I keep the next cursor
    When I run "git-prism context --page-size 1 --cursor {cursor} HEAD~1..HEAD"
    Then it succeeds
    Given the file "shop/stock.py" contains
      """
      def new():
          return 5
      """
    And everything is committed as "move the branch"
    When I run "git-prism context --page-size 1 --cursor {cursor} HEAD~1..HEAD"
    Then the exit status is 1
    And stderr contains "stale cursor"
