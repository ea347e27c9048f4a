Feature: Resources carry the same texts as the catalogue tools

  Background:
    Given the demo workspace is imported
    And I am connected as "ana"

  @L-G06
  Scenario: lumo://apps is the catalogue text
    When I read the resource "lumo://apps"
    Then the resource text is the text of "search_catalog" with '{}'

  @L-G06
  Scenario: lumo://app/{appId} is the get_app text
    When I read the resource "lumo://app/$app:vendas-comercial"
    Then the resource text is the text of "get_app" with '{"appId": "$app:vendas-comercial"}'

  @L-G06 @L-G05
  Scenario: An app outside the user's access is not a resource either
    Then reading the resource "lumo://app/$app:vendas-outra" fails
    And reading the resource "lumo://app/999999" fails
