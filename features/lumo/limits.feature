Feature: Rate limits per user and per tenant

  Every tool call counts against the caller's budget and the budget of the caller's Tenant over a
  sliding minute kept in the database (shared by every replica): no 60-second span, wherever it
  starts, admits more calls than the limit. Over a limit, the call does no work: on stdio it is a
  RATE_LIMITED tool error that says when to retry, which is when the oldest counted call is a
  minute old (HTTP answers 429 with Retry-After, tested in cmd/lumo).

  Background:
    Given the demo workspace is imported
    And the rate limits are 2 calls per minute per user and 3 per tenant
    And the clock says 12:00:37

  @L-G07 @own-setup
  Scenario: A user over the per-user limit gets a tool error saying when to retry
    Given I am connected as "ana" under those limits
    When I call "search_catalog" 2 times successfully
    Given the clock says 12:00:50
    And I call "search_catalog"
    Then the call fails with code "RATE_LIMITED"
    And the text contains "Limite de 2 requisições por minuto por usuário atingido; tente de novo em 47 s."
    And "error.suggestions" is '["Espere 47 s e repita a chamada."]'

  @L-G07 @own-setup
  Scenario: Invalid calls count too, and a minute boundary does not reset the budget
    Given I am connected as "ana" under those limits
    When I call "get_app" with '{"appId": "sete"}'
    Then the call fails with code "INVALID_ARGUMENTS"
    When I call "search_catalog" 1 times successfully
    And I call "search_catalog"
    Then the call fails with code "RATE_LIMITED"
    Given the clock says 12:01:00
    When I call "search_catalog"
    Then the call fails with code "RATE_LIMITED"
    And the text contains "tente de novo em 37 s."
    Given the clock says 12:01:37
    When I call "search_catalog" 2 times successfully
    And I call "get_app" with '{"appId": 1}'
    Then the call fails with code "RATE_LIMITED"
    And the text contains "tente de novo em 60 s."

  @L-G07 @own-setup
  Scenario: The users of one Tenant share the per-tenant limit; other Tenants do not
    Given I am connected as "ana" under those limits
    When I call "search_catalog" 2 times successfully
    And I am connected as "bruno" under those limits
    Given the clock says 12:00:40
    And I call "search_catalog" 1 times successfully
    And I call "search_catalog"
    Then the call fails with code "RATE_LIMITED"
    And the text contains "Limite de 3 requisições por minuto do Tenant atingido; tente de novo em 57 s."
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

  # Every bound at its limit works, on SQLite and on PostgreSQL: the workspace "limites" (boundsWorkspace
  # in features/limits_steps_test.go) has table Itens with Id 1..1000, Nome "item 0001".."item 1000", Dia the
  # Id-th day from 2024-01-01, Momento that day at 12:34, Coluna 01..50 "v0"/"v1" and, in row 1 only, Longo
  # of 1,000 'á'; row 1001 has the empty Nome and row 1002 a NULL one (both NULL elsewhere). The dimension
  # table of 99 'T' has a column of 200 'C' (a 300-character ref) holding "x" and NULL.

  @L-Q17 @L-Q18 @L-Q20 @L-Q21 @L-Q22 @own-setup
  Scenario Outline: 1,000 values in in and not in, of every type, run
    Given the bounds workspace is imported
    And I am connected as "iara"
    When I call "query" with '{"appId": "$app:limites", "fields": [{"ref": "Itens.Id", "agg": "count"}], "filters": [{"ref": "<ref>", "op": "<op>", "value": [VALUES]}]}', VALUES being <values>
    Then the call succeeds
    And "rows" is '[[<count>]]'

    Examples:
      | ref           | op     | values                                                                   | count | why                                          |
      | Itens.Nome    | in     | 1000 numbered copies of '"item {nnnn}"' joined by commas                 | 1000  | each value checked, then one IN list         |
      | Itens.Nome    | not in | 1000 numbered copies of '"item {nnnn}"' joined by commas                 | 2     | the blank rows stay                          |
      | Itens.Nome    | in     | '"", ', then 999 numbered copies of '"item {nnnn}"' joined by commas     | 1001  | 999 names and both blank rows                |
      | Itens.Nome    | not in | '"", ', then 999 numbered copies of '"item {nnnn}"' joined by commas     | 1     | filled and not listed: item 1000             |
      | Itens.Id      | in     | 1000 numbered copies of '{n}' joined by commas                           | 1000  |                                              |
      | Itens.Id      | not in | 1000 numbered copies of '{n}' joined by commas                           | 2     | Ids 1001 and 1002                            |
      | Itens.Id      | not in | '"", ', then 999 numbered copies of '{n}' joined by commas               | 3     | filled and not listed: Ids 1000 to 1002      |
      | Itens.Dia     | in     | 1000 numbered copies of '"{day}"' joined by commas                       | 1000  | a date column: one IN list                   |
      | Itens.Dia     | not in | 1000 numbered copies of '"{day}"' joined by commas                       | 2     | NULL stays                                   |
      | Itens.Momento | in     | 1000 numbered copies of '"{day}"' joined by commas                       | 1000  | date-time column: 1,000 whole days           |
      | Itens.Momento | not in | 1000 numbered copies of '"{day}"' joined by commas                       | 2     |                                              |
      | Itens.Momento | in     | 1000 numbered copies of '"{day} 12:34"' joined by commas                 | 1000  | instants: one IN list                        |
      | Itens.Momento | not in | '"", ', then 999 numbered copies of '"{day}"' joined by commas           | 1     | filled and not listed: the 1000th day        |

  @L-Q01 @L-Q04 @L-G07 @own-setup
  Scenario: 50 fields, 50 filters and 50 orderBy in one call run, and limit 500 brings 500 rows
    Given the bounds workspace is imported
    And I am connected as "iara"
    When I call "query" with '{"appId": "$app:limites", "fields": [FIELDS], "filters": [FILTERS], "orderBy": [ORDER]}', FIELDS being 50 numbered copies of '{"ref": "Itens.Coluna {nn}"}' joined by commas and FILTERS being 50 numbered copies of '{"ref": "Itens.Coluna {nn}", "op": "in", "value": ["v0", "v1"]}' joined by commas and ORDER being 50 numbered copies of '{"ref": "Itens.Coluna {nn}", "dir": "desc"}' joined by commas
    Then the call succeeds
    # Coluna k is v0 or v1 by the parity of Id + k: two combinations, each of 500 rows
    And "rowCount" is '2'
    And "rows[0][0]" is '"v1"'
    And "rows[1][0]" is '"v0"'
    When I call "query" with '{"appId": "$app:limites", "fields": [{"ref": "Itens.Id"}], "limit": 500}'
    Then the call succeeds
    And "rowCount" is '500'
    And "totalRows" is '1002'
    And "truncated" is 'true'

  @L-Q17 @L-Q18 @L-Q22 @own-setup
  Scenario: A text value of 1,000 characters works with =, like, between and not between
    Given the bounds workspace is imported
    And I am connected as "iara"
    When I call "query" with '{"appId": "$app:limites", "fields": [{"ref": "Itens.Id"}], "filters": [{"ref": "Itens.Longo", "op": "=", "value": "TEXT"}]}', TEXT being 1000 copies of 'á' together
    Then "rows" is '[[1]]'
    When I call "query" with '{"appId": "$app:limites", "fields": [{"ref": "Itens.Id"}], "filters": [{"ref": "Itens.Longo", "op": "like", "value": "TEXT"}]}', TEXT being '%', then 999 copies of 'A' together
    Then "rows" is '[[1]]'
    When I call "query" with '{"appId": "$app:limites", "fields": [{"ref": "Itens.Id"}], "filters": [{"ref": "Itens.Longo", "op": "between", "value": ["TEXT", "TEXT"]}]}', TEXT being 1000 copies of 'á' together
    Then "rows" is '[[1]]'
    When I call "query" with '{"appId": "$app:limites", "fields": [{"ref": "Itens.Id", "agg": "count"}], "filters": [{"ref": "Itens.Longo", "op": "not between", "value": ["TEXT", "TEXT"]}]}', TEXT being 1000 copies of 'á' together
    # not between keeps the blank rows: every row but the first
    Then "rows" is '[[1001]]'
    When I call "query" with '{"appId": "$app:limites", "fields": [{"ref": "Itens.Id", "agg": "count"}], "filters": [{"ref": "Itens.Momento", "op": "between", "value": ["2024-01-01", "2026-09-26"]}]}'
    Then "rows" is '[[1000]]'

  @L-Q07 @L-V01 @L-V04 @own-setup
  Scenario: A ref of 300 characters works in fields, filters, orderBy and search_values
    Given the bounds workspace is imported
    And I am connected as "iara"
    When I call "query" with '{"appId": "$app:limites", "fields": [{"ref": "REF"}], "filters": [{"ref": "REF", "op": "=", "value": "x"}], "orderBy": [{"ref": "REF", "dir": "asc"}]}', REF being 99 copies of 'T' together, then '.', then 200 copies of 'C' together
    Then the call succeeds
    And "rows" is '[["x"]]'
    When I call "search_values" with '{"appId": "$app:limites", "ref": "REF"}', REF being 99 copies of 'T' together, then '.', then 200 copies of 'C' together
    Then "values" is '[null, "x"]'
    When I call "search_values" with '{"appId": "$app:limites", "ref": "REF", "contains": "TEXT"}', REF being 99 copies of 'T' together, then '.', then 200 copies of 'C' together and TEXT being 200 copies of 'x' together
    Then the call succeeds
    And "values" is '[]'

  @L-C01 @L-V04 @L-V06
  Scenario: 20 search terms of 200 characters, and a contains of 200 characters, run
    Given I am connected as "ana"
    When I call "search_catalog" with '{"terms": [TERMS]}', TERMS being 20 copies of '"WORD"' joined by commas and WORD being 200 copies of 'a' together
    Then the call succeeds
    And "total" is '0'
    When I call "search_catalog" with '{"terms": "TEXT"}', TEXT being 200 copies of 'a' together
    Then the call succeeds
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "contains": "TEXT"}', TEXT being 200 copies of 'a' together
    Then the call succeeds
    And "matches" is '[]'

  @L-Q17 @L-Q18 @own-setup
  Scenario: All filters together take at most 5,000 values, and at the bound they run
    Given the bounds workspace is imported
    And I am connected as "iara"
    When I call "query" with '{"appId": "$app:limites", "fields": [{"ref": "Itens.Coluna 01"}, {"ref": "Itens.Nome", "agg": "count_distinct"}], "filters": [{"ref": "Itens.Nome", "op": "in", "value": [NOMES]}, {"ref": "Itens.Id", "op": "in", "value": [IDS]}, {"ref": "Itens.Dia", "op": "in", "value": [DIAS]}, {"ref": "Itens.Momento", "op": "in", "value": [DIAS]}, {"ref": "Itens.Id", "op": "not in", "value": [AUSENTES]}], "orderBy": [{"ref": "Itens.Coluna 01", "dir": "asc"}]}', NOMES being 1000 numbered copies of '"item {nnnn}"' joined by commas and IDS being 1000 numbered copies of '{n}' joined by commas and DIAS being 1000 numbered copies of '"{day}"' joined by commas and AUSENTES being 1000 numbered copies of '-{n}' joined by commas
    Then the call succeeds
    And "rows" is '[["v0", 500], ["v1", 500]]'
    When I call "query" with '{"appId": "$app:limites", "fields": [{"ref": "Itens.Id", "agg": "count"}], "filters": [{"ref": "Itens.Nome", "op": "in", "value": [NOMES]}, {"ref": "Itens.Id", "op": "in", "value": [IDS]}, {"ref": "Itens.Dia", "op": "in", "value": [DIAS]}, {"ref": "Itens.Momento", "op": "in", "value": [DIAS]}, {"ref": "Itens.Id", "op": "not in", "value": [AUSENTES]}, {"ref": "Itens.Id", "op": "=", "value": 1}]}', NOMES being 1000 numbered copies of '"item {nnnn}"' joined by commas and IDS being 1000 numbered copies of '{n}' joined by commas and DIAS being 1000 numbered copies of '"{day}"' joined by commas and AUSENTES being 1000 numbered copies of '-{n}' joined by commas
    Then the call fails with code "INVALID_FILTER"
    And the text contains "filters: as listas de valores somam 5.001 valores, acima do limite de 5.000 por consulta; divida a pergunta em consultas menores ou troque listas longas por between."
