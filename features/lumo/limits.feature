Feature: Rate limits per user and per tenant

  Every tool call counts against the caller's budget and the budget of the caller's Tenant, in
  one-minute windows kept in the database (shared by every replica). Over a limit, the call does
  no work: on stdio it is a RATE_LIMITED tool error that says when to retry (HTTP answers 429 with
  Retry-After, tested in cmd/lumo).

  Background:
    Given the demo workspace is imported
    And the rate limits are 2 calls per minute per user and 3 per tenant
    And the clock says 12:00:37

  @L-G07 @own-setup
  Scenario: A user over the per-user limit gets a tool error saying when to retry
    Given I am connected as "ana" under those limits
    When I call "search_catalog" 2 times successfully
    And I call "search_catalog"
    Then the call fails with code "RATE_LIMITED"
    And the text contains "Limite de 2 requisições por minuto por usuário atingido; tente de novo em 23 s."
    And "error.suggestions" is '["Espere 23 s e repita a chamada."]'

  @L-G07 @own-setup
  Scenario: Invalid calls count too, and the next window starts afresh
    Given I am connected as "ana" under those limits
    When I call "get_app" with '{"appId": "sete"}'
    Then the call fails with code "INVALID_ARGUMENTS"
    When I call "search_catalog" 1 times successfully
    And I call "search_catalog"
    Then the call fails with code "RATE_LIMITED"
    Given the clock says 12:01:00
    When I call "search_catalog" 2 times successfully
    And I call "get_app" with '{"appId": 1}'
    Then the call fails with code "RATE_LIMITED"
    And the text contains "tente de novo em 60 s."

  @L-G07 @own-setup
  Scenario: The users of one Tenant share the per-tenant limit; other Tenants do not
    Given I am connected as "ana" under those limits
    When I call "search_catalog" 2 times successfully
    And I am connected as "bruno" under those limits
    And I call "search_catalog" 1 times successfully
    And I call "search_catalog"
    Then the call fails with code "RATE_LIMITED"
    And the text contains "Limite de 3 requisições por minuto do Tenant atingido; tente de novo em 23 s."
    Given I am connected as "davi" under those limits
    When I call "search_catalog"
    Then the call fails with code "RATE_LIMITED"
    Given I am connected as "carla" under those limits
    Then I call "search_catalog" 2 times successfully
