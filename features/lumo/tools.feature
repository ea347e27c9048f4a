Feature: tools/list publishes the lumo tools with their schemas and annotations

  Background:
    Given the demo workspace is imported
    And I am connected as "ana"

  @L-G01 @L-G04
  Scenario: Every tool is read-only, idempotent and without effect outside the server
    Then the listed tools are "search_catalog, get_app, search_values, query"
    And every tool is annotated read-only, idempotent, closed-world and not destructive
    And every tool has a title and a Portuguese description saying when to use it

  Scenario: Published schemas are the ones in schemas/, bundled
    Then every tool publishes the schemas of "lumo" bundled, without references to other files
