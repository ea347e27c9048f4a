Feature: query results say how fresh, how empty and how complete they are

  Background:
    Given the demo workspace is imported

  @L-R06
  Scenario: dataAsOf is the oldest load among the tables used
    Given I am connected as "ana"
    # Vendas loaded 2026-10-15T03:00, Lojas 2026-10-14T22:30 (app.yaml)
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Valor da venda", "agg": "sum"}]}'
    Then "dataAsOf" is '"2026-10-15T03:00:00-03:00"'
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Lojas.Loja"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}]}'
    Then "dataAsOf" is '"2026-10-14T22:30:00-03:00"'
    And the text contains "Dados carregados até 14/10/2026 22:30 (a carga mais antiga entre as tabelas usadas)."

  @L-R06 @L-R09 @L-R13
  Scenario: A table never loaded gives a null dataAsOf and no rows
    Given I am connected as "ana"
    When I call "query" with '{"appId": "$app:estoque", "fields": [{"ref": "Movimentos.Loja"}, {"ref": "Movimentos.Quantidade", "agg": "sum"}]}'
    Then the call succeeds
    And "dataAsOf" is 'null'
    And "rows" is '[]'
    And "empty" is '"zero_rows"'
    And "summary" is absent
    And the text contains "Nenhum registro para essa combinação de filtros."
    And the text contains "Alguma tabela usada nunca foi carregada"

  @L-R09 @L-R13
  Scenario: No row for the filters
    Given I am connected as "ana"
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Valor da venda", "agg": "sum"}], "filters": [{"ref": "Vendas.Data", "op": ">", "value": "2030-01-01"}]}'
    Then "empty" is '"zero_rows"'
    And "rowCount" is '0'
    And "totalRows" is '0'
    And "truncated" is 'false'
    And the text contains "Nenhum registro para essa combinação de filtros."

  @L-R09
  Scenario: Only zeros
    Given I am connected as "bruno"
    # SELECT round(sum(TAXA),2) FROM recebimentos WHERE MEIO='Pix';  -> 0.0
    When I call "query" with '{"appId": "$app:vendas-financeiro", "fields": [{"ref": "Recebimentos.Meio de pagamento"}, {"ref": "Recebimentos.Taxa", "agg": "sum"}], "filters": [{"ref": "Recebimentos.Meio de pagamento", "op": "=", "value": "Pix"}]}'
    Then "rows" is '[["Pix", 0]]'
    And "empty" is '"all_zero"'

  @L-G05
  Scenario: Another tenant's app is not found
    Given I am connected as "carla"
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Valor da venda", "agg": "sum"}]}'
    Then the call fails with code "NOT_FOUND"

  @own-setup
  Scenario: A query past its time limit is cancelled with a clear error, and the server keeps answering
    Given the query time limit is 1 nanosecond
    And I am connected as "ana"
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Cliente"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}]}'
    Then the call fails with code "TIMEOUT"
    And the text contains "A consulta passou de 0 ms e foi cancelada."
    Given the query time limit is 30 seconds
    And I am connected as "ana"
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Valor da venda", "agg": "sum"}]}'
    Then the call succeeds

  @L-R01 @L-Q02
  Scenario: Months of the year and days of the week come as numbers, named in the text
    Given I am connected as "ana"
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Data", "bucket": "month_of_year"}, {"ref": "Vendas.Data", "bucket": "day_of_week"}, {"ref": "Vendas.Id", "agg": "count"}], "orderBy": [{"ref": "Vendas.Data", "bucket": "month_of_year", "dir": "asc"}, {"ref": "Vendas.Data", "bucket": "day_of_week", "dir": "asc"}], "limit": 2}'
    Then the call succeeds
    And "rows[0][0]" is '1'
    And "rows[0][1]" is '0'
    And "rows[1][1]" is '1'
    And the text contains "| 1 (jan) | 0 (dom) |"
    And the text contains "| 1 (jan) | 1 (seg) |"

  @L-R01 @L-Q14
  Scenario: A month bucket comes as YYYY-MM and reads as month and year in the text
    # SELECT count(*) FROM vendas WHERE substr(DATA,1,7) = '2026-09';  -> 906
    Given I am connected as "ana"
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Data", "bucket": "month"}, {"ref": "Vendas.Id", "agg": "count"}], "filters": [{"ref": "Vendas.Data", "bucket": "month", "op": "=", "value": "2026-09"}]}'
    Then the call succeeds
    And "rows" is '[["2026-09", 906]]'
    And the text contains "| set/2026 | 906 |"

  @own-setup @L-G03
  Scenario: A question waits for this server's columnar copy, and past the wait says so instead of answering from the database
    Given the app rows are kept in the database and this server's columnar copy has not synced yet
    And the query time limit is 1 seconds
    And I am connected as "ana"
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Valor da venda", "agg": "sum"}]}'
    Then the call fails with code "UNAVAILABLE"
    And the text contains "Os dados deste app ainda estão sendo copiados para o motor colunar deste servidor"
    And the text contains "a espera passou de 1 s"
    And the text contains "Repita a chamada em alguns segundos."
    Given this server's columnar copy syncs in the background
    And the query time limit is 30 seconds
    And I am connected as "ana"
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Valor da venda", "agg": "sum"}]}'
    Then the call succeeds
    And the query ran on the columnar copy
