Feature: query runs an aggregated query and returns raw numbers with units
  Expected numbers come from the sqlite3 CLI over the fixture CSVs (features/testdata/oracle/load.sql);
  the SQL used is written above each expectation.

  Background:
    Given the demo workspace is imported
    And I am connected as "ana"

  @L-Q01 @L-Q02 @L-Q07 @L-R01 @L-R02 @L-R05 @L-R07 @L-Q04 @L-Q06 @L-G02
  Scenario: Active sales of September per store, ranked, with the spec's example filters
    # SELECT l.NOME, round(sum(v.VALOR),2) FROM vendas v LEFT JOIN lojas l ON v.LOJA_ID=l.ID
    #  WHERE v.SITUACAO='Ativa' AND v.DATA >= '2026-09-01' AND v.DATA < '2026-10-01' GROUP BY 1 ORDER BY 2 DESC;
    # SELECT round(sum(VALOR),2) FROM vendas WHERE SITUACAO='Ativa' AND DATA >= '2026-09-01' AND DATA < '2026-10-01';  -> 273430.9
    When I call "query" with:
      """
      {"appId": "$app:vendas-comercial",
       "fields": [{"ref": "Lojas.Loja"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}],
       "filters": [{"ref": "Vendas.Situação", "op": "=", "value": "Ativa"},
                   {"ref": "Vendas.Data", "op": "between", "value": ["2026-09-01", "2026-09-30"]}],
       "orderBy": [{"ref": "Vendas.Valor da venda", "agg": "sum", "dir": "desc"}]}
      """
    Then the call succeeds
    And "columns[*].label" is '["Loja", "Valor da venda (soma)"]'
    And "columns[*].type" is '["string", "number"]'
    And "columns[*].unit" is '[null, "BRL"]'
    And "rows" is:
      """
      [["São João", 51378.9], ["Boa Vista", 43132.2], ["Jardim Botânico", 38732.5], ["Ipê Amarelo", 37183.6],
       ["Centro", 35580.5], ["Aurora", 33928.2], ["Açaí da Praça", 33495]]
      """
    And "rowCount" is '7'
    And "totalRows" is '7'
    And "truncated" is 'false'
    And "filtersApplied" is '["Situação = Ativa", "Data entre 01/09/2026 e 30/09/2026"]'
    And the text contains "| São João | R$ 51.378,90 |"
    And the text contains "Total de todas as linhas: Valor da venda (soma) R$ 273.430,90."
    And the text contains "Filtros: Situação = Ativa; Data entre 01/09/2026 e 30/09/2026."

  @L-R02 @L-R05 @own-setup
  Scenario: Keys name the column and the aggregate; the summary is the total over every row
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Canal"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}, {"ref": "Vendas.Valor da venda", "agg": "avg"}]}'
    Then "columns[*].key" is '["<col:vendas-comercial:vendas:CANAL>_AGP", "<col:vendas-comercial:vendas:VALOR>_SUM", "<col:vendas-comercial:vendas:VALOR>_AVG"]'
    # SELECT CANAL, round(sum(VALOR),2), round(avg(VALOR),6) FROM vendas GROUP BY 1 ORDER BY 1;
    And "rows" is:
      """
      [["Aplicativo", 1234493.1, 380.429307], ["Loja", 3933043.6, 386.501926], ["Site", 1285323.3, 387.378933], ["Telefone", 1344169.7, 412.195554]]
      """
    # The summary's average is over all 20000 sales, not the average of the four channel averages:
    # SELECT round(sum(VALOR),2), round(avg(VALOR),6) FROM vendas;  -> 7797029.7 | 389.851485
    And "summary" is '{"<col:vendas-comercial:vendas:VALOR>_SUM": 7797029.7, "<col:vendas-comercial:vendas:VALOR>_AVG": 389.851485}'

  @L-Q05 @L-R03 @L-R04 @L-R12 @own-setup
  Scenario: Without limit, 10 rows; the text says how many exist and are not here
    # SELECT count(DISTINCT coalesce(CLIENTE,'<null>')) FROM vendas;  -> 16 groups (15 names and the blank)
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Cliente"}, {"ref": "Vendas.Id", "agg": "count"}]}'
    Then "rowCount" is '10'
    And "totalRows" is '16'
    And "truncated" is 'true'
    And the text contains "Linhas: 10 de 16; as outras 6 existem e não estão aqui."
    # SELECT count(*) FROM vendas;  -> 20000 (the summary counts the rows that did not come too)
    And "summary" is '{"<col:vendas-comercial:vendas:ID>_CNT": 20000}'

  @L-Q05 @L-R10
  Scenario: A limit over 500 is cut to 500 with a note
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Data", "bucket": "day"}, {"ref": "Vendas.Id", "agg": "count"}], "limit": 900}'
    Then "rowCount" is '500'
    And "notes" is '["limit 900 passou do teto e foi reduzido para 500 linhas."]'

  @L-Q05 @L-Q15 @L-R10
  Scenario: A grouped date without limit returns 31 rows, by day
    # SELECT count(DISTINCT substr(DATA,1,10)) FROM vendas WHERE DATA >= '2026-09-01' AND DATA < '2026-10-01';  -> 30
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Data"}, {"ref": "Vendas.Id", "agg": "count"}], "filters": [{"ref": "Vendas.Data", "op": ">=", "value": "2026-08-01"}]}'
    Then "rowCount" is '31'
    And "columns[0]" includes the object '{"label": "Data (dia)", "type": "date"}'
    And "rows[0][0]" is '"2026-08-01"'
    And "notes" is '["Vendas.Data sem bucket foi agrupada por dia."]'

  @L-Q12 @L-Q13
  Scenario Outline: Aggregates are checked against the column
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [<field>]}'
    Then the call fails with code "<code>"
    And the text contains "<message>"

    Examples:
      | field                                        | code          | message                                                                                         |
      | {"ref": "Vendas.Valor da venda"}             | INVALID_FIELD | fields[0]: Vendas.Valor da venda é uma medida numérica e exige agg                               |
      | {"ref": "Vendas.Canal", "agg": "sum"}        | INVALID_FIELD | fields[0]: Vendas.Canal é texto; sum, avg, min e max valem só para coluna numérica.              |
      | {"ref": "Vendas.Canal", "bucket": "month"}   | INVALID_FIELD | fields[0]: bucket vale só para coluna de data, e Vendas.Canal é texto.                           |
      | {"ref": "Margem %", "agg": "sum"}            | INVALID_FIELD | fields[0]: a expressão Margem % já é agregada e entra só como {ref}, sem agg nem bucket.         |

  @L-Q12
  Scenario: count and count_distinct work on any column
    # SELECT count(CLIENTE), count(DISTINCT CLIENTE) FROM vendas;  -> 18974 | 15
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Cliente", "agg": "count"}, {"ref": "Vendas.Cliente", "agg": "count_distinct"}]}'
    Then "rows" is '[[18974, 15]]'
    And "columns[*].unit" is '[null, null]'
