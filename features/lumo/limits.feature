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

  # Size limits: every argument is bounded by the published input schema (README, "Size limits")
  # and an answer by the server (4 MiB by default); each overrun is an error naming the field.

  @L-G03 @L-G07
  Scenario: Too many search terms, or one too long, is refused naming the field and the bound
    Given I am connected as "ana"
    When I call "search_catalog" with '{"terms": [ITEMS]}', ITEMS being 21 copies of '"venda"' joined by commas
    Then the call fails with code "INVALID_ARGUMENTS"
    And the text contains "- terms: aceita no máximo 20 itens (veio com 21)."
    When I call "search_catalog" with '{"terms": "TEXT"}', TEXT being 201 copies of 'a' together
    Then the call fails with code "INVALID_ARGUMENTS"
    And the text contains "- terms: deve ter no máximo 200 caracteres (veio com 201)."
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "contains": "TEXT"}', TEXT being 201 copies of 'a' together
    Then the call fails with code "INVALID_ARGUMENTS"
    And the text contains "- contains: deve ter no máximo 200 caracteres (veio com 201)."

  @L-G03 @L-G07
  Scenario: A query with too many fields, filters or values in a list is refused before it runs
    Given I am connected as "ana"
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [FIELDS]}', FIELDS being 51 copies of '{"ref": "Lojas.Loja"}' joined by commas
    Then the call fails with code "INVALID_ARGUMENTS"
    And the text contains "- fields: aceita no máximo 50 itens (veio com 51)."
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Lojas.Loja"}], "filters": [FILTERS]}', FILTERS being 51 copies of '{"ref": "Lojas.Loja", "op": "is not null"}' joined by commas
    Then the call fails with code "INVALID_ARGUMENTS"
    And the text contains "- filters: aceita no máximo 50 itens (veio com 51)."
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Lojas.Loja"}], "filters": [{"ref": "Lojas.Loja", "op": "in", "value": [VALUES]}]}', VALUES being 1001 copies of '"Centro"' joined by commas
    Then the call fails with code "INVALID_ARGUMENTS"
    And the text contains "- filters[0].value: aceita no máximo 1000 itens (veio com 1001)."
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Lojas.Loja"}], "filters": [{"ref": "Lojas.Loja", "op": "=", "value": "TEXT"}]}', TEXT being 1001 copies of 'x' together
    Then the call fails with code "INVALID_ARGUMENTS"
    And the text contains "filters[0].value"
    And the text contains "no máximo 1000 caracteres (veio com 1001)"

  @L-G03 @L-G07 @own-setup
  Scenario: An answer over the size limit is an error that says how to ask for less
    Given answers are limited to 2000 bytes
    And I am connected as "ana" under those limits
    When I call "get_app" with '{"appId": "$app:vendas-comercial"}'
    Then the call fails with code "RESULT_TOO_LARGE"
    And the text contains "acima do limite de 2.000 bytes por resposta."
    And "error.suggestions" is '["Peça menos linhas (limit), menos colunas (fields) ou filtre mais (filters)."]'
    When I call "search_catalog" with '{"terms": "faturamento"}'
    Then the call succeeds

  @L-G03 @L-C03 @own-setup
  Scenario: A catalogue surely over the size limit is refused before it is built, saying what to ask instead
    Given answers are limited to 2000 bytes
    And I am connected as "ana" under those limits
    When I call "search_catalog"
    Then the call fails with code "RESULT_TOO_LARGE"
    And the text contains "A resposta de search_catalog sem termos teria pelo menos "
    And the text contains " bytes, acima do limite de 2.000 bytes por resposta (o catálogo tem 3 Aplicações)."
    And "error.suggestions" is '["Use terms para achar Indicadores, expressões e colunas pelo nome.", "Use appId para descrever uma Aplicação só."]'
