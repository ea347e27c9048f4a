Feature: query refs, expressions, buckets and joins follow the app's model
  Expected numbers come from the sqlite3 CLI over the fixture CSVs (features/testdata/oracle/load.sql).

  Background:
    Given the demo workspace is imported
    And I am connected as "ana"

  @L-Q07 @L-Q10
  Scenario: Refs ignore case and accents; the blank (NULL or empty text) is one group, null
    # SELECT NULLIF(SITUACAO, ''), count(*) FROM vendas GROUP BY 1 ORDER BY 1 IS NULL, 1;  (NULL 392 + '' 619)
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "VENDAS.situacao"}, {"ref": "vendas.id", "agg": "count"}]}'
    Then "rows" is '[["Ativa", 16070], ["Cancelada", 1959], ["Pendente", 960], [null, 1011]]'
    And the text contains "| (em branco) | 1.011 |"
    And the text does not contain "(vazio)"

  @L-Q08
  Scenario: Two columns with the same label are addressed by physical name
    # SELECT round(sum(VALOR_2),2) FROM vendas;  -> 6277740.25
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.VALOR_2", "agg": "sum"}]}'
    Then "rows" is '[[6277740.25]]'
    And "columns[0].label" is '"Valor líquido (soma)"'
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Valor líquido", "agg": "sum"}]}'
    Then the call fails with code "AMBIGUOUS_REF"
    And "error.suggestions" is '["Vendas.VALOR_LIQ", "Vendas.VALOR_2"]'

  @L-Q11
  Scenario Outline: Column ids, names without table and old syntaxes are refused with similar refs
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "<ref>", "agg": "sum"}]}'
    Then the call fails with code "UNKNOWN_REF"
    And "error.suggestions" includes:
      """
      ["Vendas.Valor da venda"]
      """

    Examples:
      | ref                       |
      | Valor da venda            |
      | [Vendas].[Valor da venda] |
      | Vendas:Valor da venda     |
      | Vendas.Valor da vendas    |

  @L-Q11 @own-setup
  Scenario: A column id is not a ref
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "<col:vendas-comercial:vendas:VALOR>", "agg": "sum"}]}'
    Then the call fails with code "UNKNOWN_REF"
    And the text contains "não está no formato Tabela.Coluna"

  @L-Q09 @L-R11 @own-setup
  Scenario: Expressions enter as {ref}; percent is a fraction
    # SELECT round((sum(VALOR_LIQ)-sum(CUSTO))/sum(VALOR_LIQ),6), round(sum(VALOR)/count(DISTINCT ID),6) FROM vendas;
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Margem %"}, {"ref": "ticket medio"}]}'
    Then "rows" is '[[0.432655, 389.851485]]'
    And "columns" is:
      """
      [{"key": "<expr:vendas-comercial:Margem %>_EXP", "label": "Margem %", "type": "number", "unit": "percent"},
       {"key": "<expr:vendas-comercial:Ticket médio>_EXP", "label": "Ticket médio", "type": "number", "unit": "BRL"}]
      """
    And the text contains "| 43,3% | R$ 389,85 |"

  @L-Q09 @L-R05 @own-setup
  Scenario: An expression per group, and its total recomputed from all rows
    # SELECT CANAL, round((sum(VALOR_LIQ)-sum(CUSTO))/sum(VALOR_LIQ),6) FROM vendas GROUP BY 1 ORDER BY 1;  total 0.432655
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Canal"}, {"ref": "Margem %"}]}'
    Then "rows" is '[["Aplicativo", 0.43443], ["Loja", 0.430365], ["Site", 0.433673], ["Telefone", 0.436711]]'
    And "summary" is '{"<expr:vendas-comercial:Margem %>_EXP": 0.432655}'

  @L-R11
  Scenario: Each column states its unit
    # SELECT round(avg(DESCONTO),6), round(avg(TEMPO_CAIXA),6) FROM vendas;  -> 0.071853 | 456.1315
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Desconto", "agg": "avg"}, {"ref": "Vendas.Tempo no caixa", "agg": "avg"}]}'
    Then "rows" is '[[0.071853, 456.1315]]'
    And "columns[*].unit" is '["percent", "seconds"]'
    And the text contains "| 7,2% | 456,1 s |"

  @L-Q14
  Scenario Outline: Buckets group a date
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Data", "bucket": "<bucket>"}, {"ref": "Vendas.Id", "agg": "count"}], "filters": [<filter>], "orderBy": [{"ref": "Vendas.Data", "bucket": "<bucket>", "dir": "asc"}], "limit": 3}'
    Then "rows" is '<rows>'
    And "columns[0].type" is '"<type>"'

    Examples:
      | bucket        | filter                                                                           | rows                                           | type   | oracle SQL                                                                             |
      | year          | {"ref": "Vendas.Data", "op": ">=", "value": "2025-01-01"}                        | [[2025, 11307], [2026, 8693]]                  | number | SELECT CAST(substr(DATA,1,4) AS INT), count(*) FROM vendas GROUP BY 1                   |
      | month         | {"ref": "Vendas.Data", "op": ">=", "value": "2026-01-01"}                        | [["2026-01", 984], ["2026-02", 797], ["2026-03", 953]] | string | SELECT substr(DATA,1,7), count(*) FROM vendas WHERE DATA >= '2026-01-01' GROUP BY 1 |
      | month_of_year | {"ref": "Vendas.Data", "op": ">=", "value": "2026-01-01"}                        | [[1, 984], [2, 797], [3, 953]]                 | number | SELECT CAST(substr(DATA,6,2) AS INT), count(*) ... WHERE DATA >= '2026-01-01'          |
      | day_of_week   | {"ref": "Vendas.Data", "op": "between", "value": ["2026-09-01", "2026-09-07"]}   | [[0, 35], [1, 22], [2, 41]]                    | number | SELECT strftime('%w',DATA), count(*) ... WHERE DATA >= '2026-09-01' AND DATA < '2026-09-08' |
      | hour_of_day   | {"ref": "Vendas.Data", "op": "=", "value": "2026-09-01"}                         | [["08:00", 4], ["09:00", 3], ["10:00", 3]]     | string | SELECT substr(DATA,12,2)\|\|':00', count(*) ... WHERE DATA LIKE '2026-09-01%'             |
      | day           | {"ref": "Vendas.Data", "op": ">=", "value": "2026-10-13"}                        | [["2026-10-13", 27], ["2026-10-14", 27]]       | date   | SELECT substr(DATA,1,10), count(*) ... WHERE DATA >= '2026-10-13'                      |

  @L-Q14 @L-Q16
  Scenario: hour_of_day on a date without time is an error
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Metas.Mês", "bucket": "hour_of_day"}, {"ref": "Metas.Meta", "agg": "sum"}]}'
    Then the call fails with code "INVALID_FIELD"
    And the text contains "fields[0]: hour_of_day só faz sentido em coluna com hora, e Metas.Mês tem só a data."

  @L-Q23 @L-R10 @own-setup
  Scenario: Two facts sharing a dimension are aggregated separately, never multiplied
    # SELECT l.NOME, round(v.s,2), round(m.s,2) FROM lojas l
    #   LEFT JOIN (SELECT LOJA_ID, sum(VALOR) s FROM vendas WHERE DATA >= '2026-01-01' GROUP BY 1) v ON v.LOJA_ID=l.ID
    #   LEFT JOIN (SELECT LOJA_ID, sum(META) s FROM metas WHERE MES >= '2026-01-01' GROUP BY 1) m ON m.LOJA_ID=l.ID ORDER BY 1;
    When I call "query" with:
      """
      {"appId": "$app:vendas-comercial",
       "fields": [{"ref": "Lojas.Loja"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}, {"ref": "Metas.Meta", "agg": "sum"}],
       "filters": [{"ref": "Vendas.Data", "op": ">=", "value": "2026-01-01"}, {"ref": "Metas.Mês", "op": ">=", "value": "2026-01-01"}]}
      """
    Then the call succeeds
    And "rows" is:
      """
      [["Aurora", 484700.3, 1047000], ["Açaí da Praça", 432269.1, 1426000], ["Boa Vista", 460856.5, 1469000],
       ["Centro", 438798.1, 1329000], ["Ipê Amarelo", 480515.7, 1149000], ["Jardim Botânico", 468530.9, 1173000],
       ["São João", 520290.4, 1037000]]
      """
    # SELECT round(sum(VALOR),2) FROM vendas WHERE DATA >= '2026-01-01';  -> 3285961
    # SELECT round(sum(META),2) FROM metas WHERE MES >= '2026-01-01';     -> 8630000
    And "summary" is '{"<col:vendas-comercial:vendas:VALOR>_SUM": 3285961, "<col:vendas-comercial:metas:META>_SUM": 8630000}'
    And "notes" is:
      """
      ["O filtro Data >= 01/01/2026 vale só para Vendas; Metas não tem relacionamento com Vendas.",
       "O filtro Mês >= 01/01/2026 vale só para Metas; Vendas não tem relacionamento com Metas."]
      """

  @L-Q23
  Scenario: Two facts grouped by a dimension attribute
    # SELECT l.UF, sum(v.VALOR) ... GROUP BY 1;  and SELECT l.UF, sum(m.META) ... GROUP BY 1;
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Lojas.UF"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}, {"ref": "Metas.Meta", "agg": "sum"}], "orderBy": [{"ref": "Lojas.UF", "dir": "desc"}], "limit": 2}'
    Then "rows" is '[["SP", 2299684.8, 5040000], ["PR", 1056745.8, 2433000]]'
    And "totalRows" is '6'

  @L-Q23
  Scenario: Tables without a relationship path cannot be combined
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Produtos.Categoria"}, {"ref": "Metas.Meta", "agg": "sum"}]}'
    Then the call fails with code "NO_JOIN_PATH"
    And the text contains "As tabelas Metas, Produtos não combinam"

  @L-Q04
  Scenario: orderBy refs must be in fields
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Lojas.Loja"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}], "orderBy": [{"ref": "Vendas.Valor da venda", "agg": "avg", "dir": "desc"}]}'
    Then the call fails with code "INVALID_ORDER"
    And the text contains "orderBy[0]: Vendas.Valor da venda (média) não está em fields"
    And "error.suggestions" is '["Lojas.Loja", "Vendas.Valor da venda (soma)"]'

  @L-Q01 @L-Q04
  Scenario: An orderBy without dir is refused with its values and the fixed item
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Lojas.Loja"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}], "orderBy": [{"ref": "Vendas.Valor da venda", "agg": "sum"}]}'
    Then the call fails with code "INVALID_ARGUMENTS"
    And "error.suggestions" is '["orderBy[0].dir: campo obrigatório ausente; informe dir, um de: asc, desc (por exemplo, orderBy[0] = {\"agg\":\"sum\",\"dir\":\"asc\",\"ref\":\"Vendas.Valor da venda\"})."]'

  @L-Q06
  Scenario: A ranking is orderBy plus limit
    # SELECT l.NOME, round(sum(v.VALOR),2) FROM vendas v LEFT JOIN lojas l ON l.ID=v.LOJA_ID GROUP BY 1 ORDER BY 2 DESC LIMIT 3;
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Lojas.Loja"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}], "orderBy": [{"ref": "Vendas.Valor da venda", "agg": "sum", "dir": "desc"}], "limit": 3}'
    Then "rows" is '[["Aurora", 1168837.8], ["Centro", 1134401.7], ["São João", 1134323.1]]'
    And the text contains "Linhas: 3 de 7; as outras 4 existem e não estão aqui."
