Feature: Month rollups and the automatic rollup
  A rollup may cut its date by month (grain: month): it answers the month, year and month of the
  year buckets and the filters whose bounds fall on a month's first and last days; any other
  bound reads the fact. A fact table without declared rollups gets one at import, by day of its
  most used date column and by its most used columns (usage), with every measure; it leaves out a
  table whose key repeats, and rollups: [] turns it off. The answer is the same either way
  (LUMO_ROLLUPS=off runs every scenario on the fact tables, and these steps then check that no
  rollup was read).

  features/testdata/rollups_auto holds the four apps (the same sales); the expected numbers come
  from the sqlite3 CLI over the same CSVs, reading the base rows
  (features/testdata/rollups_auto/oracle.sql), with the SQL beside each scenario:
    sqlite3 :memory: -cmd '.read features/testdata/rollups_auto/oracle.sql' "<SQL>"

  Background:
    Given the workspace in "testdata/rollups_auto" is imported
    And I am connected as "rui"

  @L-Q02 @L-Q07 @own-setup
  Scenario: Sums by state and month over whole months read the month rollup
    # SELECT l.UF, substr(v.DATA,1,7) m, ROUND(SUM(VALOR),2), ROUND(AVG(VALOR),6), COUNT(VALOR) FROM vendas v
    #   LEFT JOIN lojas l ON l.ID=v.LOJA_ID WHERE DATA >= '2026-08-01' AND DATA < '2026-10-01'
    #   GROUP BY 1,2 ORDER BY l.UF IS NULL, 1,2
    # -> MG|2026-08|2581.57|430.261667|6, MG|2026-09|872.0|436.0|2, RJ|2026-08|4113.43|514.17875|8,
    #    RJ|2026-09|3562.22|508.888571|7, SP|2026-08|5195.87|472.351818|11, SP|2026-09|5099.18|339.945333|15
    # SELECT ROUND(SUM(VALOR),2), ROUND(AVG(VALOR),6), COUNT(VALOR) FROM vendas
    #   WHERE DATA >= '2026-08-01' AND DATA < '2026-10-01'  -> 21424.27|437.23|49
    When I call "query" with '{"appId": "$app:mensal", "fields": [{"ref": "Lojas.UF"}, {"ref": "Vendas.Data", "bucket": "month"}, {"ref": "Vendas.Valor", "agg": "sum"}, {"ref": "Vendas.Valor", "agg": "avg"}, {"ref": "Vendas.Valor", "agg": "count"}], "filters": [{"ref": "Vendas.Data", "op": "between", "value": ["2026-08-01", "2026-09-30"]}]}'
    Then the call succeeds
    And "rows" is '[["MG", "2026-08", 2581.57, 430.261667, 6], ["MG", "2026-09", 872, 436, 2], ["RJ", "2026-08", 4113.43, 514.17875, 8], ["RJ", "2026-09", 3562.22, 508.888571, 7], ["SP", "2026-08", 5195.87, 472.351818, 11], ["SP", "2026-09", 5099.18, 339.945333, 15]]'
    And "summary" is '{"<col:mensal:vendas:VALOR>_SUM": 21424.27, "<col:mensal:vendas:VALOR>_AVG": 437.23, "<col:mensal:vendas:VALOR>_CNT": 49}'
    And "dataAsOf" is '"2026-10-01T06:00:00-03:00"'
    And the query read the rollup "por_mes"

  @L-Q07 @own-setup
  Scenario: A bound that is not a month's end reads the fact
    # SELECT substr(DATA,1,7), ROUND(SUM(VALOR),2) FROM vendas WHERE DATA >= '2026-08-01' AND DATA < '2026-09-29'
    #   GROUP BY 1 ORDER BY 1  -> 2026-08|11890.87, 2026-09|9533.4
    When I call "query" with '{"appId": "$app:mensal", "fields": [{"ref": "Vendas.Data", "bucket": "month"}, {"ref": "Vendas.Valor", "agg": "sum"}], "filters": [{"ref": "Vendas.Data", "op": "between", "value": ["2026-08-01", "2026-09-28"]}]}'
    Then the call succeeds
    And "rows" is '[["2026-08", 11890.87], ["2026-09", 9533.4]]'
    And the query read no rollup
    # By day is finer than the rollup: the fact again.
    # SELECT substr(DATA,1,10), ROUND(SUM(VALOR),2) FROM vendas WHERE DATA >= '2026-09-01' GROUP BY 1 ORDER BY 1
    #   -> 2026-09-01|5344.83, 2026-09-28|4188.57
    When I call "query" with '{"appId": "$app:mensal", "fields": [{"ref": "Vendas.Data", "bucket": "day"}, {"ref": "Vendas.Valor", "agg": "sum"}], "filters": [{"ref": "Vendas.Data", "op": ">=", "value": "2026-09-01"}]}'
    Then the call succeeds
    And "rows" is '[["2026-09-01", 5344.83], ["2026-09-28", 4188.57]]'
    And the query read no rollup

  @L-Q02 @L-Q07 @own-setup
  Scenario: Without declared rollups, the automatic one answers by day and by the most used columns
    # SELECT CANAL, substr(DATA,1,10), ROUND(SUM(VALOR),2), SUM(QTD) FROM vendas GROUP BY 1,2 ORDER BY 1,2
    # -> Loja|2026-07-03|2177.52|20, Loja|2026-07-20|2585.48|43, Loja|2026-08-10|2463.95|45,
    #    Loja|2026-08-31|3550.79|39, Loja|2026-09-01|2403.9|25, Loja|2026-09-28|2884.2|40,
    #    Site|2026-07-03|3858.43|43, Site|2026-07-20|3976.44|57, Site|2026-08-10|3096.09|34,
    #    Site|2026-08-31|2780.04|23, Site|2026-09-01|2940.93|31, Site|2026-09-28|1304.37|15
    When I call "query" with '{"appId": "$app:automatico", "limit": 20, "fields": [{"ref": "Vendas.Canal"}, {"ref": "Vendas.Data", "bucket": "day"}, {"ref": "Vendas.Valor", "agg": "sum"}, {"ref": "Vendas.Quantidade", "agg": "sum"}]}'
    Then the call succeeds
    And "rows" is '[["Loja", "2026-07-03", 2177.52, 20], ["Loja", "2026-07-20", 2585.48, 43], ["Loja", "2026-08-10", 2463.95, 45], ["Loja", "2026-08-31", 3550.79, 39], ["Loja", "2026-09-01", 2403.9, 25], ["Loja", "2026-09-28", 2884.2, 40], ["Site", "2026-07-03", 3858.43, 43], ["Site", "2026-07-20", 3976.44, 57], ["Site", "2026-08-10", 3096.09, 34], ["Site", "2026-08-31", 2780.04, 23], ["Site", "2026-09-01", 2940.93, 31], ["Site", "2026-09-28", 1304.37, 15]]'
    And the query read the rollup "automatico"
    # Lojas.Loja has no usage, so it is not in the automatic rollup: the fact.
    When I call "query" with '{"appId": "$app:automatico", "fields": [{"ref": "Lojas.Loja"}, {"ref": "Vendas.Quantidade", "agg": "sum"}]}'
    Then the call succeeds
    And the query read no rollup

  @L-Q02 @own-setup
  Scenario: rollups: [] turns the automatic rollup off
    # SELECT CANAL, ROUND(SUM(VALOR),2), SUM(QTD) FROM vendas GROUP BY 1 ORDER BY 1  -> Loja|16065.84|212, Site|17956.3|203
    When I call "query" with '{"appId": "$app:sem_rollup", "fields": [{"ref": "Vendas.Canal"}, {"ref": "Vendas.Valor", "agg": "sum"}, {"ref": "Vendas.Quantidade", "agg": "sum"}]}'
    Then the call succeeds
    And "rows" is '[["Loja", 16065.84, 212], ["Site", 17956.3, 203]]'
    And the query read no rollup
    When I call "query" with '{"appId": "$app:automatico", "fields": [{"ref": "Vendas.Canal"}, {"ref": "Vendas.Valor", "agg": "sum"}, {"ref": "Vendas.Quantidade", "agg": "sum"}]}'
    Then the call succeeds
    And "rows" is '[["Loja", 16065.84, 212], ["Site", 17956.3, 203]]'
    And the query read the rollup "automatico"

  @L-Q02 @L-Q12 @own-setup
  Scenario: A repeated key leaves its table out of the automatic rollup, and the import succeeds
    # lojas.csv of chave_repetida holds key 2 twice: each sale of store 2 joins two rows.
    # SELECT CANAL, ROUND(SUM(VALOR),2), SUM(QTD) FROM vendas GROUP BY 1 ORDER BY 1  -> Loja|16065.84|212, Site|17956.3|203
    When I call "query" with '{"appId": "$app:chave_repetida", "fields": [{"ref": "Vendas.Canal"}, {"ref": "Vendas.Valor", "agg": "sum"}, {"ref": "Vendas.Quantidade", "agg": "sum"}]}'
    Then the call succeeds
    And "rows" is '[["Loja", 16065.84, 212], ["Site", 17956.3, 203]]'
    And the query read the rollup "automatico"
    # SELECT l.UF, ROUND(SUM(VALOR),2) FROM vendas v LEFT JOIN lojas_dup l ON l.ID=v.LOJA_ID GROUP BY 1 ORDER BY 1
    #   -> MG|6979.4, RJ|21180.42, SP|16452.53
    When I call "query" with '{"appId": "$app:chave_repetida", "fields": [{"ref": "Lojas.UF"}, {"ref": "Vendas.Valor", "agg": "sum"}]}'
    Then the call succeeds
    And "rows" is '[["MG", 6979.4], ["RJ", 21180.42], ["SP", 16452.53]]'
    And the query read no rollup
