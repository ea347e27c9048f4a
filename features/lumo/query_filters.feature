Feature: query filters: every op, blank semantics, dates, buckets, aggregates and value checking
  Counts come from the sqlite3 CLI over the fixture CSVs (features/testdata/oracle/load.sql); the SQL is
  beside each example. vendas.csv has 20000 sales; SITUACAO has 392 NULL and 619 empty values.

  Background:
    Given the demo workspace is imported
    And I am connected as "ana"

  @L-Q17 @L-Q18 @L-Q19 @L-Q20 @L-Q21
  Scenario Outline: <op> keeps exactly the expected rows
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [<filter>]}'
    Then the call succeeds
    And "rows" is '[[<count>]]'
    And "filtersApplied" is '["<words>"]'

    Examples:
      | op          | filter                                                                          | count | words                                    | oracle SQL (WHERE of SELECT count(*) FROM vendas)            |
      | = blank     | {"ref": "Vendas.Situação", "op": "=", "value": ""}                              | 1011  | Situação em branco                       | SITUACAO IS NULL OR SITUACAO = ''                             |
      | != blank    | {"ref": "Vendas.Situação", "op": "!=", "value": ""}                             | 18989 | Situação preenchido                      | SITUACAO IS NOT NULL AND SITUACAO <> ''                       |
      | != filled   | {"ref": "Vendas.Situação", "op": "!=", "value": "Ativa"}                        | 3930  | Situação diferente de Ativa              | SITUACAO IS NULL OR SITUACAO <> 'Ativa'                       |
      | in          | {"ref": "Vendas.Cupom", "op": "in", "value": ["FRETEGRÁTIS", "PRIMAVERA"]}      | 1990  | Cupom em FRETEGRÁTIS, PRIMAVERA          | CUPOM IN ('FRETEGRÁTIS','PRIMAVERA')                          |
      | in blank    | {"ref": "Vendas.Cupom", "op": "in", "value": ["FRETEGRÁTIS", ""]}               | 15970 | Cupom em FRETEGRÁTIS, (em branco)        | CUPOM IN ('FRETEGRÁTIS') OR CUPOM IS NULL OR CUPOM = ''       |
      | not in      | {"ref": "Vendas.Cupom", "op": "not in", "value": ["FRETEGRÁTIS", "PRIMAVERA"]}  | 18010 | Cupom fora de FRETEGRÁTIS, PRIMAVERA     | CUPOM IS NULL OR CUPOM NOT IN ('FRETEGRÁTIS','PRIMAVERA')     |
      | is null     | {"ref": "Vendas.Cupom", "op": "is null"}                                        | 11952 | Cupom nulo                               | CUPOM IS NULL                                                 |
      | is not null | {"ref": "Vendas.Cupom", "op": "is not null"}                                    | 8048  | Cupom não nulo                           | CUPOM IS NOT NULL                                             |
      | like        | {"ref": "Vendas.Cliente", "op": "like", "value": "%JOSE%"}                      | 1208  | Cliente como \"%JOSE%\"                  | CLIENTE = 'José Antônio' (the only name with jose, any accent) |
      | not like    | {"ref": "Vendas.Cliente", "op": "not like", "value": "%jose%"}                  | 18792 | Cliente não como \"%jose%\"              | CLIENTE IS NULL OR CLIENTE <> 'José Antônio'                  |
      | between     | {"ref": "Vendas.Valor da venda", "op": "between", "value": [100, 200]}          | 3635  | Valor da venda entre 100 e 200           | VALOR BETWEEN 100 AND 200                                     |
      | not between | {"ref": "Vendas.Valor da venda", "op": "not between", "value": [100, 200]}      | 16365 | Valor da venda fora de 100 a 200         | NOT (VALOR BETWEEN 100 AND 200)                               |
      | >           | {"ref": "Vendas.Valor da venda", "op": ">", "value": 5000}                      | 144   | Valor da venda > 5.000                   | VALOR > 5000                                                  |
      | in numbers  | {"ref": "Vendas.Parcelas", "op": "in", "value": [6, 10]}                        | 5694  | Parcelas em 6, 10                        | PARCELAS IN (6,10)                                            |

  @L-Q17 @L-G03 @own-setup
  Scenario: like: % is any run of characters, _ one character, and \%, \_ and \\ match them literally
    # features/testdata/patterns/apps/etiquetas/etiquetas.csv: 1 "100%", 2 "1000", 3 "100 reais", 4 "a_b",
    # 5 "axb", 6 "a\b", 7 "ab", 8 "Ação 50% off", 9 NULL, 10 "", 11 "AÇÃO_ESPECIAL" (JSON doubles each \)
    Given the workspace in "testdata/patterns" is imported
    And I am connected as "otto"
    When I call "query" with '{"appId": "$app:etiquetas", "fields": [{"ref": "Etiquetas.Id"}], "filters": [{"ref": "Etiquetas.Texto", "op": "like", "value": "100%"}], "orderBy": [{"ref": "Etiquetas.Id", "dir": "asc"}]}'
    Then "rows" is '[[1], [2], [3]]'
    When I call "query" with '{"appId": "$app:etiquetas", "fields": [{"ref": "Etiquetas.Id"}], "filters": [{"ref": "Etiquetas.Texto", "op": "like", "value": "100\\%"}], "orderBy": [{"ref": "Etiquetas.Id", "dir": "asc"}]}'
    Then "rows" is '[[1]]'
    And "filtersApplied" is '["Texto como \"100\\%\""]'
    When I call "query" with '{"appId": "$app:etiquetas", "fields": [{"ref": "Etiquetas.Id"}], "filters": [{"ref": "Etiquetas.Texto", "op": "like", "value": "%\\%%"}], "orderBy": [{"ref": "Etiquetas.Id", "dir": "asc"}]}'
    Then "rows" is '[[1], [8]]'
    When I call "query" with '{"appId": "$app:etiquetas", "fields": [{"ref": "Etiquetas.Id"}], "filters": [{"ref": "Etiquetas.Texto", "op": "not like", "value": "%\\%%"}], "orderBy": [{"ref": "Etiquetas.Id", "dir": "asc"}]}'
    Then "rows" is '[[2], [3], [4], [5], [6], [7], [9], [10], [11]]'
    When I call "query" with '{"appId": "$app:etiquetas", "fields": [{"ref": "Etiquetas.Id"}], "filters": [{"ref": "Etiquetas.Texto", "op": "like", "value": "a_b"}], "orderBy": [{"ref": "Etiquetas.Id", "dir": "asc"}]}'
    Then "rows" is '[[4], [5], [6]]'
    When I call "query" with '{"appId": "$app:etiquetas", "fields": [{"ref": "Etiquetas.Id"}], "filters": [{"ref": "Etiquetas.Texto", "op": "like", "value": "a\\_b"}], "orderBy": [{"ref": "Etiquetas.Id", "dir": "asc"}]}'
    Then "rows" is '[[4]]'
    When I call "query" with '{"appId": "$app:etiquetas", "fields": [{"ref": "Etiquetas.Id"}], "filters": [{"ref": "Etiquetas.Texto", "op": "like", "value": "a\\\\b"}], "orderBy": [{"ref": "Etiquetas.Id", "dir": "asc"}]}'
    Then "rows" is '[[6]]'
    # accents and case still do not matter; the escaped _ is literal after them
    When I call "query" with '{"appId": "$app:etiquetas", "fields": [{"ref": "Etiquetas.Id"}], "filters": [{"ref": "Etiquetas.Texto", "op": "like", "value": "acao\\_%"}], "orderBy": [{"ref": "Etiquetas.Id", "dir": "asc"}]}'
    Then "rows" is '[[11]]'
    # a \ before another character is refused, with the pattern that means it literally
    When I call "query" with '{"appId": "$app:etiquetas", "fields": [{"ref": "Etiquetas.Id"}], "filters": [{"ref": "Etiquetas.Texto", "op": "like", "value": "a\\b"}]}'
    Then the call fails with code "INVALID_FILTER"
    And the text contains "filters[0].value: no padrão de like, a \ do caractere 2 não vem antes de %, _ ou outra \. Em like, % é qualquer sequência de caracteres, _ é um caractere só, e \%, \_ e \\ procuram %, _ e \ literais; para procurar uma \, escreva \\."
    And "error.suggestions" is '["a\\\\b"]'

  @L-Q18
  @L-Q17 @L-Q20 @L-Q21 @own-setup
  Scenario Outline: A blank row matches no pattern, not even %: like leaves it out, not like keeps it
    # etiquetas.csv holds 9 NULL and 10 "" besides nine texts. The expected ids come from sqlite3 over
    # the same eleven rows (plain LIKE is enough: every row these patterns tell apart has an ASCII a):
    #   SELECT group_concat(id) FROM e WHERE texto IS NULL OR texto = '' OR texto NOT LIKE '<pattern>'
    #   SELECT group_concat(id) FROM e WHERE texto <> '' AND texto LIKE '<pattern>'
    Given the workspace in "testdata/patterns" is imported
    And I am connected as "otto"
    When I call "query" with '{"appId": "$app:etiquetas", "fields": [{"ref": "Etiquetas.Id"}], "filters": [{"ref": "Etiquetas.Texto", "op": "<op>", "value": "<pattern>"}], "orderBy": [{"ref": "Etiquetas.Id", "dir": "asc"}], "limit": 20}'
    Then "rows" is '<ids>'
    When I call "query" with '{"appId": "$app:etiquetas", "fields": [{"ref": "Etiquetas.Id", "agg": "count"}], "filters": [{"ref": "Etiquetas.Texto", "op": "<op>", "value": "<pattern>"}]}'
    Then "rows" is '[[<count>]]'

    Examples:
      | op       | pattern | ids                                                 | count |
      | not like | %       | [[9], [10]]                                         | 2     |
      | not like | _%      | [[9], [10]]                                         | 2     |
      | not like | %a%     | [[1], [2], [9], [10]]                               | 4     |
      | like     | %       | [[1], [2], [3], [4], [5], [6], [7], [8], [11]]      | 9     |
      | like     | %a%     | [[3], [4], [5], [6], [7], [8], [11]]                | 7     |

  Scenario Outline: Dates: a date-only value on a date-time column means the whole day
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [<filter>]}'
    Then "rows" is '[[<count>]]'

    Examples:
      | filter                                                                                  | count | oracle SQL (WHERE)                                             |
      | {"ref": "Vendas.Data", "op": "between", "value": ["2026-09-01", "2026-09-30"]}          | 906   | DATA >= '2026-09-01' AND DATA < '2026-10-01'                   |
      | {"ref": "Vendas.Data", "op": ">", "value": "2026-10-13"}                                | 27    | DATA >= '2026-10-14' (after the whole day of the 13th)         |
      | {"ref": "Vendas.Data", "op": "<=", "value": "2025-01-01"}                               | 39    | DATA <= '2025-01-01 23:59:59'                                  |
      | {"ref": "Vendas.Data", "op": "between", "value": ["2026-09-01 12:00", "2026-09-01 18:00"]} | 14 | DATA >= '2026-09-01 12:00' AND DATA <= '2026-09-01 18:00:00'   |
      | {"ref": "Vendas.Data", "op": "=", "value": "2026-09-01"}                                | 41    | DATA >= '2026-09-01' AND DATA < '2026-09-02'                   |

  @L-Q03 @L-Q14 @L-Q16 @L-R10
  Scenario Outline: A filter with bucket cuts the date by the bucket
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [<filter>]}'
    Then "rows" is '[[<count>]]'
    And "notes" is '<notes>'

    Examples:
      | filter                                                                              | count | notes                                                                                                        | oracle SQL (WHERE)                               |
      | {"ref": "Vendas.Data", "bucket": "day_of_week", "op": "in", "value": [0, 6]}        | 5830  | ["O filtro por dia da semana lê a tabela inteira; combine com um intervalo de datas para uma consulta mais rápida."] | strftime('%w',DATA) IN (0,6)          |
      | {"ref": "Vendas.Data", "bucket": "hour_of_day", "op": "=", "value": "08:00"}        | 1407  | ["O filtro por hora do dia lê a tabela inteira; combine com um intervalo de datas para uma consulta mais rápida."]   | substr(DATA,12,2) = '08'              |

  @L-Q03 @L-Q14
  Scenario: A month filter with bucket reads the month
    # SELECT count(*) FROM vendas WHERE substr(DATA,1,7) = '2026-09';  -> 906
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [{"ref": "Vendas.Data", "bucket": "month", "op": "=", "value": "2026-09"}]}'
    Then "rows" is '[[906]]'
    And "filtersApplied" is '["Data (mês) = 2026-09"]'
    And "notes" is absent

  @L-Q03 @L-Q04 @own-setup
  Scenario: A filter with agg cuts by the aggregated value
    # SELECT l.NOME, round(sum(v.VALOR),2) FROM vendas v LEFT JOIN lojas l ON l.ID=v.LOJA_ID GROUP BY 1 HAVING sum(v.VALOR) > 1134350 ORDER BY 1;
    When I call "query" with:
      """
      {"appId": "$app:vendas-comercial", "fields": [{"ref": "Lojas.Loja"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}],
       "filters": [{"ref": "Vendas.Valor da venda", "agg": "sum", "op": ">", "value": 1134350}],
       "orderBy": [{"ref": "Lojas.Loja", "dir": "asc"}]}
      """
    Then "rows" is '[["Aurora", 1168837.8], ["Centro", 1134401.7]]'
    And "summary" is '{"<col:vendas-comercial:vendas:VALOR>_SUM": 2303239.5}'
    And "filtersApplied" is '["Valor da venda (soma) > 1.134.350"]'

  @L-Q22 @L-R10
  Scenario: A value that exists with other case and accents is corrected, with a note
    # SELECT count(*) FROM vendas WHERE CLIENTE IN ('Íris Moura','Letícia Sá');  -> 2535
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [{"ref": "Vendas.Cliente", "op": "in", "value": ["iris moura", "LETICIA SA"]}]}'
    Then "rows" is '[[2535]]'
    And "filtersApplied" is '["Cliente em Íris Moura, Letícia Sá"]'
    And "notes" is:
      """
      ["Vendas.Cliente: o valor \"iris moura\" foi lido como \"Íris Moura\" (diferença de caixa ou acento).",
       "Vendas.Cliente: o valor \"LETICIA SA\" foi lido como \"Letícia Sá\" (diferença de caixa ou acento)."]
      """

  @L-Q22 @L-G03
  Scenario: A value that does not exist stops the query and lists similar values
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [{"ref": "Vendas.Situação", "op": "=", "value": "Ativo"}]}'
    Then the call fails with code "VALUE_NOT_FOUND"
    And the text contains "O valor \"Ativo\" não existe em Vendas.Situação, e a consulta não rodou. Valores parecidos: \"Ativa\""
    And "error.suggestions[0]" is '"Ativa"'

  @L-Q17 @L-Q18 @L-Q19 @L-G03
  Scenario Outline: Values of the wrong shape are refused, naming the filter
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [<filter>]}'
    Then the call fails with code "INVALID_FILTER"
    And the text contains "<message>"

    Examples:
      | filter                                                                    | message                                                                          |
      | {"ref": "Vendas.Data", "op": "between", "value": "2026-09-01"}            | filters[0]: between recebe uma lista [início, fim] em value.                    |
      | {"ref": "Vendas.Data", "op": "between", "value": ["2026-09-01"]}          | filters[0]: between recebe uma lista [início, fim] em value.                    |
      | {"ref": "Vendas.Canal", "op": "in", "value": "Loja"}                      | filters[0]: in recebe uma lista com ao menos um valor em value.                 |
      | {"ref": "Vendas.Canal", "op": "is null", "value": "Loja"}                 | filters[0]: is null não leva value; retire-o.                                   |
      | {"ref": "Vendas.Canal", "op": "="}                                        | filters[0]: o operador = precisa de value.                                      |
      | {"ref": "Vendas.Canal", "op": "=", "value": ["Loja"]}                     | filters[0]: o operador = recebe um valor só; para uma lista use in ou not in.   |
      | {"ref": "Vendas.Data", "op": ">", "value": "01/09/2026"}                  | filters[0].value: "01/09/2026" não está no formato AAAA-MM-DD ou AAAA-MM-DD HH:mm |
      | {"ref": "Vendas.Valor da venda", "op": ">", "value": "mil"}               | filters[0].value: esperava um número, veio "mil"                                 |
      | {"ref": "Vendas.Valor da venda", "op": "like", "value": "1%"}             | filters[0]: like vale só para coluna de texto.                                  |
      | {"ref": "Vendas.Data", "bucket": "month", "op": "=", "value": "2026-9"}   | filters[0].value: "2026-9" não está no formato AAAA-MM                           |

  @L-Q03 @L-R05 @own-setup
  Scenario: A distinct count's total is recounted over the rows that passed the aggregate filter
    # SELECT l.NOME, count(DISTINCT v.PRODUTO_ID) FROM vendas v JOIN lojas l ON l.ID=v.LOJA_ID
    #   WHERE v.DATA >= '2026-10-14' GROUP BY 1 HAVING sum(v.VALOR) > 1000 ORDER BY 1;
    # total: SELECT count(DISTINCT v.PRODUTO_ID) ... WHERE v.DATA >= '2026-10-14' AND l.NOME IN (<the stores above>);  -> 10 (not 6+7+3)
    When I call "query" with:
      """
      {"appId": "$app:vendas-comercial", "fields": [{"ref": "Lojas.Loja"}, {"ref": "Vendas.Produto id", "agg": "count_distinct"}],
       "filters": [{"ref": "Vendas.Data", "op": ">=", "value": "2026-10-14"}, {"ref": "Vendas.Valor da venda", "agg": "sum", "op": ">", "value": 1000}]}
      """
    Then "rows" is '[["Boa Vista", 6], ["Centro", 7], ["São João", 3]]'
    And "summary" is '{"<col:vendas-comercial:vendas:PRODUTO_ID>_CNTD": 10}'

  @L-Q17 @L-R10 @own-setup
  Scenario: A distinct count leaves the blank value out, and says so
    # features/testdata/patterns/apps/etiquetas/etiquetas.csv: 11 rows, 9 distinct filled texts, row 9
    # NULL and row 10 the empty text. sqlite3: SELECT count(DISTINCT NULLIF(TEXTO, '')) FROM etiquetas; -> 9
    Given the workspace in "testdata/patterns" is imported
    And I am connected as "otto"
    When I call "query" with '{"appId": "$app:etiquetas", "fields": [{"ref": "Etiquetas.Texto", "agg": "count_distinct"}]}'
    Then "rows" is '[[9]]'
    And "notes" is '["Etiquetas.Texto: a contagem distinta não conta o valor em branco (vazio ou texto vazio)."]'

  @L-Q12 @L-Q20 @own-setup
  Scenario: A count of a text column counts its filled values: neither NULL nor the empty text
    # etiquetas.csv: 11 rows, row 9 NULL (\N) and row 10 an empty cell, read as the empty text; the same
    # blank that = "" finds. sqlite3: SELECT count(NULLIF(TEXTO, '')) FROM etiquetas; -> 9
    Given the workspace in "testdata/patterns" is imported
    And I am connected as "otto"
    When I call "query" with '{"appId": "$app:etiquetas", "fields": [{"ref": "Etiquetas.Texto", "agg": "count"}, {"ref": "Etiquetas.Id", "agg": "count"}]}'
    Then "rows" is '[[9, 11]]'
    And "notes" is '["Etiquetas.Texto: a contagem não conta o valor em branco (vazio ou texto vazio)."]'
    When I call "query" with '{"appId": "$app:etiquetas", "fields": [{"ref": "Etiquetas.Texto", "agg": "count"}], "filters": [{"ref": "Etiquetas.Texto", "op": "=", "value": ""}]}'
    Then "rows" is '[[0]]'
