@own-setup
Feature: Tokens issued and revoked by the administrator

  `lumo admin token issue` gives a user a new token (several per user, each with a label; the
  database keeps only its SHA-256) and `lumo admin token revoke` takes it back. Over HTTP every
  request looks its token up in the database, so a revoked token is refused (401) at its next
  request, by every replica, while the user's other tokens keep working.

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
