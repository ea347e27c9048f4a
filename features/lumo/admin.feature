@own-setup
Feature: Tokens and desk memberships changed by the administrator

  `lumo admin token issue` gives a user a new token (several per user, each with a label; the
  database keeps only its SHA-256) and `lumo admin token revoke` takes it back. Over HTTP every
  request looks its token up in the database, so a revoked token is refused (401) at its next
  request, by every replica, while the user's other tokens keep working. A personal copy reads its
  origin's data, so its owner sees it only while they see the origin: taken off the origin's desk,
  they lose both at once.

  Background:
    Given the demo workspace is imported

  @L-G05
  Scenario: An issued token identifies its user until it is revoked
    Given the administrator issues "ana" a token labelled "notebook"
    When I connect over HTTP with the token labelled "notebook"
    And I call "search_catalog"
    Then the call succeeds
    And "apps" has 3 items
    When the administrator revokes the token "notebook" of "ana"
    And I try to call "search_catalog" over HTTP
    Then the request is refused with HTTP 401
    And connecting over HTTP with the token labelled "notebook" is refused with HTTP 401

  @L-G05
  Scenario: Revoking one token leaves the user's other tokens working
    Given the administrator issues "bruno" a token labelled "notebook"
    And the administrator issues "bruno" a token labelled "celular"
    When the administrator revokes the token "notebook" of "bruno"
    Then connecting over HTTP with the token labelled "notebook" is refused with HTTP 401
    When I connect over HTTP with the token labelled "celular"
    And I call "search_catalog"
    Then the call succeeds
    When I connect over HTTP with the token "tok-bruno-loja"
    And I call "search_catalog"
    Then the call succeeds

  @L-G05
  Scenario: An unknown token is refused
    Then connecting over HTTP with the token "lumo_inventado" is refused with HTTP 401

  @L-G05
  Scenario: A personal copy goes with its origin when its owner leaves the origin's desk
    Given I am connected as "ana"
    When I call "query" with '{"appId": "$app:vendas-ana", "fields": [{"ref": "Lojas.Loja"}]}'
    Then the call succeeds
    When the administrator removes "ana" from the desk "Comercial"
    And I call "get_app" with '{"appId": "$app:vendas-comercial"}'
    Then the call fails with code "NOT_FOUND"
    When I call "query" with '{"appId": "$app:vendas-ana", "fields": [{"ref": "Lojas.Loja"}]}'
    Then the call fails with code "NOT_FOUND"
    When I call "get_app" with '{"appId": "$app:vendas-ana"}'
    Then the call fails with code "NOT_FOUND"
    When I call "search_values" with '{"appId": "$app:vendas-ana", "ref": "Lojas.Loja"}'
    Then the call fails with code "NOT_FOUND"
    When I call "search_catalog"
    Then "apps" has 0 items
    When the administrator adds "ana" to the desk "Comercial"
    And I call "query" with '{"appId": "$app:vendas-ana", "fields": [{"ref": "Lojas.Loja"}]}'
    Then the call succeeds
