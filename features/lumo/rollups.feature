Feature: Rollups
  app.yaml may declare rollups: pre-aggregations of a fact table built at import, by some of its
  dimensions and a date cut by day. A query the rollup answers exactly reads it instead of the
  fact table, the smallest rollup first; every other query reads the fact. The answer is the same
  either way (LUMO_ROLLUPS=off runs every scenario on the fact tables, and these steps then check
  that no rollup was read).

  features/testdata/rollups holds the app (rollups por_dia and por_uf); the expected numbers come
  from the sqlite3 CLI over the same CSVs, reading the base rows
  (features/testdata/rollups/oracle.sql), with the SQL beside each scenario:
    sqlite3 :memory: -cmd '.read features/testdata/rollups/oracle.sql' "<SQL>"

  Background:
    Given the workspace in "testdata/rollups" is imported
    And I am connected as "rita"

  @L-Q02 @L-Q07 @own-setup
  Scenario: Sums and averages by state and month, filtered by whole days, read the day rollup
    # SELECT l.UF, substr(v.DATA,1,7) m, ROUND(SUM(VALOR),2), ROUND(AVG(VALOR),6), COUNT(QTD) FROM vendas v
    #   LEFT JOIN lojas l ON l.ID=v.LOJA_ID WHERE SITUACAO='Ativa' AND DATA >= '2026-09-01' AND DATA < '2026-10-11'
    #   GROUP BY 1,2 ORDER BY l.UF IS NULL, 1,2
    # -> BA|2026-09|514.24|257.12|2, RJ|2026-09|818.23|818.23|1, RJ|2026-10|1161.52|387.173333|3,
    #    SP|2026-09|4319.15|479.905556|9, SP|2026-10|524.27|524.27|1, |2026-09|368.21|368.21|1
    # SELECT ROUND(SUM(VALOR),2), ROUND(AVG(VALOR),6), COUNT(QTD) FROM vendas WHERE SITUACAO='Ativa'
    #   AND DATA >= '2026-09-01' AND DATA < '2026-10-11'  -> 7705.62|453.271765|17
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Lojas.UF"}, {"ref": "Vendas.Data", "bucket": "month"}, {"ref": "Vendas.Valor", "agg": "sum"}, {"ref": "Vendas.Valor", "agg": "avg"}, {"ref": "Vendas.Quantidade", "agg": "count"}], "filters": [{"ref": "Vendas.Situação", "op": "=", "value": "ativa"}, {"ref": "Vendas.Data", "op": "between", "value": ["2026-09-01", "2026-10-10"]}]}'
    Then the call succeeds
    And "rows" is '[["BA", "2026-09", 514.24, 257.12, 2], ["RJ", "2026-09", 818.23, 818.23, 1], ["RJ", "2026-10", 1161.52, 387.173333, 3], ["SP", "2026-09", 4319.15, 479.905556, 9], ["SP", "2026-10", 524.27, 524.27, 1], [null, "2026-09", 368.21, 368.21, 1]]'
    And "summary" is '{"<col:vendas:vendas:VALOR>_SUM": 7705.62, "<col:vendas:vendas:VALOR>_AVG": 453.271765, "<col:vendas:vendas:QTD>_CNT": 17}'
    And "dataAsOf" is '"2026-10-31T06:00:00-03:00"'
    And the query read the rollup "por_dia"

  @L-Q02 @own-setup
  Scenario: By state alone, the smaller state rollup answers, distinct counts included
    # SELECT l.UF, COUNT(DISTINCT CANAL), MAX(VALOR), MIN(VALOR) FROM vendas v LEFT JOIN lojas l ON l.ID=v.LOJA_ID
    #   GROUP BY 1 ORDER BY l.UF IS NULL, 1
    # -> BA|3|874.62|141.37, RJ|3|840.87|70.14, SP|3|899.27|104.7, |3|896.99|33.35
    # Canal is not in por_uf: the distinct count of Canal reads por_dia.
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Lojas.UF"}, {"ref": "Vendas.Canal", "agg": "count_distinct"}, {"ref": "Vendas.Valor", "agg": "max"}, {"ref": "Vendas.Valor", "agg": "min"}]}'
    Then the call succeeds
    And "rows" is '[["BA", 3, 874.62, 141.37], ["RJ", 3, 840.87, 70.14], ["SP", 3, 899.27, 104.7], [null, 3, 896.99, 33.35]]'
    And the query read the rollup "por_dia"
    # SELECT l.UF, MAX(VALOR) FROM vendas v LEFT JOIN lojas l ON l.ID=v.LOJA_ID GROUP BY 1 ORDER BY l.UF IS NULL, 1
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Lojas.UF"}, {"ref": "Vendas.Valor", "agg": "max"}]}'
    Then the call succeeds
    And "rows" is '[["BA", 874.62], ["RJ", 840.87], ["SP", 899.27], [null, 896.99]]'
    And the query read the rollup "por_uf"

  @L-Q07 @own-setup
  Scenario: Day of the week and a negated filter keeping blanks read the day rollup
    # SELECT CAST(strftime('%w', DATA) AS INTEGER) w, ROUND(SUM(VALOR),2), COUNT(QTD) FROM vendas
    #   WHERE SITUACAO IS NULL OR SITUACAO <> 'Cancelada' GROUP BY 1 ORDER BY 1
    # -> 0|2610.59|7, 1|4426.48|7, 2|941.49|4, 3|4037.51|10, 4|3499.77|8, 5|3370.65|6, 6|5250.45|11
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Vendas.Data", "bucket": "day_of_week"}, {"ref": "Vendas.Valor", "agg": "sum"}, {"ref": "Vendas.Quantidade", "agg": "count"}], "filters": [{"ref": "Vendas.Situação", "op": "!=", "value": "Cancelada"}]}'
    Then the call succeeds
    And "rows" is '[[0, 2610.59, 7], [1, 4426.48, 7], [2, 941.49, 4], [3, 4037.51, 10], [4, 3499.77, 8], [5, 3370.65, 6], [6, 5250.45, 11]]'
    And the query read the rollup "por_dia"

  @L-Q07 @L-Q12 @own-setup
  Scenario: What no rollup answers reads the fact table
    # A time of day in the filter, and a distinct count of the key:
    # SELECT l.UF, ROUND(SUM(VALOR),2), COUNT(DISTINCT v.ID) FROM vendas v LEFT JOIN lojas l ON l.ID=v.LOJA_ID
    #   WHERE DATA >= '2026-10-20 12:00:00' GROUP BY 1 ORDER BY l.UF IS NULL, 1  -> RJ|209.61|1, SP|1782.48|3
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Lojas.UF"}, {"ref": "Vendas.Valor", "agg": "sum"}, {"ref": "Vendas.Id", "agg": "count_distinct"}], "filters": [{"ref": "Vendas.Data", "op": ">=", "value": "2026-10-20 12:00:00"}]}'
    Then the call succeeds
    And "rows" is '[["RJ", 209.61, 1], ["SP", 1782.48, 3]]'
    And the query read no rollup
    # A calculated column: SELECT ROUND(SUM(VALOR*0.9),2) FROM vendas WHERE CANAL='Site' -> 8704.08
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Vendas.Líquido", "agg": "sum"}], "filters": [{"ref": "Vendas.Canal", "op": "=", "value": "Site"}]}'
    Then the call succeeds
    And "rows" is '[[8704.08]]'
    And the query read no rollup
