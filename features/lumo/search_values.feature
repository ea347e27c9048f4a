Feature: search_values lists a column's values, searches text columns and shows example rows
  With ref: up to 50 distinct values of a text or date column, in order, and their total. Without ref,
  with contains: the app's text columns are searched, dimension tables first. mode "sample": example rows.

  Expectations come from the demo CSVs (impl/lumo/demo/apps/), computed with python3, not with lumo:
    fold(s) = " ".join(unicodedata.normalize("NFD", s) without category Mn chars .split()).lower()
    distinct(vals, words) = the values v (\N read as None) where every fold(word) is in fold(v); None and
      "" count as one blank value, listed first; the rest sorted by (fold(v).encode(), v.encode())
    csv.DictReader reads the files; "col(file, NAME)" below is the list of that column's fields.
  Ordering, blanks and totals are decided in impl/lumo/values: text by folded text then bytes, dates by date,
  blank (NULL or empty text) as one value, first; totals are counted on the database.

  Background:
    Given the demo workspace is imported
    And I am connected as "ana"

  @L-V01 @L-G02
  Scenario: With ref, the distinct values of a text column, in order, and the total in the text
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "ref": "lojas.CIDADE"}'
    Then the call succeeds
    And "mode" is '"distinct"'
    And "appId" is '"$app:vendas-comercial"'
    And "ref" is '"Lojas.Cidade"'
    # distinct(col("vendas/lojas.csv", "CIDADE"), [])
    And "values" is '["Belém", "Belo Horizonte", "Curitiba", "Goiânia", "Maceió", "Ribeirão Preto", "São Paulo"]'
    # len of the list above
    And "totalDistinct" is '7'
    And the text contains "Lojas.Cidade tem 7 valores distintos, em ordem alfabética (sem diferença de acento ou caixa):"
    And the text contains "- Goiânia"
    And the text contains "Para filtrar em query: {\"op\":\"=\",\"ref\":\"Lojas.Cidade\",\"value\":\"Belém\"}."
    And "notes" is absent

  @L-V01
  Scenario: A personal copy reads the values of its original
    When I call "search_values" with '{"appId": "$app:vendas-ana", "ref": "Lojas.Cidade"}'
    Then "appId" is '"$app:vendas-ana"'
    # the copy shares vendas/lojas.csv: distinct(col("vendas/lojas.csv", "CIDADE"), [])
    And "values" is '["Belém", "Belo Horizonte", "Curitiba", "Goiânia", "Maceió", "Ribeirão Preto", "São Paulo"]'

  @L-V01
  Scenario: More than 50 values: the first 50 by date, and the total in the text
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "ref": "Vendas.Data"}'
    Then the call succeeds
    And "values" has 50 items
    # sorted(set(col("vendas/vendas.csv", "DATA"))): ISO text sorts by date; no \N in the column
    And "values[0]" is '"2025-01-01 08:16:00"'
    And "values[1]" is '"2025-01-01 08:17:00"'
    And "values[49]" is '"2025-01-02 15:06:00"'
    # len(set(col("vendas/vendas.csv", "DATA")))
    And "totalDistinct" is '19600'
    And the text contains "Vendas.Data tem 19.600 valores distintos; estes são os 50 primeiros, em ordem cronológica:"
    And the text contains "Os outros existem e não estão aqui"

  @L-V01
  Scenario: Blank values, NULL or empty text, are one null value, listed first
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "ref": "Lojas.Gerente"}'
    # distinct(col("vendas/lojas.csv", "GERENTE"), []): Ipê Amarelo has "" and Jardim Botânico \N
    Then "values" is '[null, "Débora Íris", "João Pedro Alves", "Luíza Câmara", "Marta Reis", "Otávio Nunes"]'
    And "totalDistinct" is '6'
    And the text contains "- (em branco: nulo ou texto vazio)"
    And the text contains "as linhas em branco: {\"op\":\"=\",\"ref\":\"Lojas.Gerente\",\"value\":\"\"}."

  @L-V01
  Scenario: Dates are listed by date
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "ref": "Metas.Mês"}'
    # sorted(set(col("vendas/metas.csv", "MES")))
    Then "values" is:
      """
      ["2025-01-01", "2025-02-01", "2025-03-01", "2025-04-01", "2025-05-01", "2025-06-01", "2025-07-01", "2025-08-01",
       "2025-09-01", "2025-10-01", "2025-11-01", "2025-12-01", "2026-01-01", "2026-02-01", "2026-03-01", "2026-04-01",
       "2026-05-01", "2026-06-01", "2026-07-01", "2026-08-01", "2026-09-01", "2026-10-01", "2026-11-01", "2026-12-01"]
      """
    And "totalDistinct" is '24'

  @L-V03
  Scenario: On a date column contains is ignored, and a note says so
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "ref": "Metas.Mês", "contains": "2025"}'
    Then the call succeeds
    # the same 24 months as without contains: len(set(col("vendas/metas.csv", "MES")))
    And "totalDistinct" is '24'
    And "values" has 24 items
    And "notes" is '["contains vale só para colunas de texto; em Metas.Mês (data) foi ignorado."]'
    And the text contains "Nota: contains vale só para colunas de texto; em Metas.Mês (data) foi ignorado."

  @L-V04
  Scenario Outline: contains keeps the values where every word appears, ignoring accents and case
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "ref": "<ref>", "contains": "<contains>"}'
    Then the call succeeds
    And "values" is '<values>'
    And "totalDistinct" is '<total>'
    And the text contains "<text>"

    # values = distinct(col(<file>, <column>), "<contains>".split()); total = its length
    Examples:
      | ref            | contains     | values                         | total | text                                                               |
      | Lojas.Loja     | sao joao     | ["São João"]                   | 1     | Lojas.Loja tem 1 valor distinto com \"sao joao\"                   |
      | Lojas.Loja     | JOÃO São     | ["São João"]                   | 1     | Lojas.Loja tem 1 valor distinto com \"JOÃO São\"                   |
      | Vendas.Cliente | jose antonio | ["José Antônio"]               | 1     | Vendas.Cliente tem 1 valor distinto                                |
      | Vendas.Cliente | ana lima     | []                             | 0     | Vendas.Cliente não tem valores com \"ana lima\".                   |
      | Lojas.Cidade   | r            | ["Belo Horizonte", "Curitiba", "Ribeirão Preto"] | 3 | Lojas.Cidade tem 3 valores distintos com \"r\"               |
      | Lojas.Gerente  | ÍRIS         | ["Débora Íris"]                | 1     | Lojas.Gerente tem 1 valor distinto com \"ÍRIS\"                    |

  @L-V04
  Scenario Outline: The LIKE wildcards % and _ in contains are plain characters
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "ref": "Vendas.Cupom", "contains": "<contains>"}'
    Then the call succeeds
    # no CUPOM field of vendas/vendas.csv has % or _ (grep -c on the column: 0); a wildcard would match all 5 coupons
    And "values" is '[]'
    And "totalDistinct" is '0'

    Examples:
      | contains |
      | _        |
      | %        |
      | %o%      |

  @L-V02
  Scenario: A numeric column is refused: numbers go through query
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "ref": "Vendas.Valor da venda"}'
    Then the call fails with code "NUMERIC_COLUMN"
    And the text contains "A coluna Vendas.Valor da venda é numérica: search_values lista valores só de colunas de texto ou data. Número se consulta com query."
    And "error.suggestions" is '["Use query: {\"appId\":$app:vendas-comercial,\"fields\":[{\"agg\":\"sum\",\"ref\":\"Vendas.Valor da venda\"}]}"]'

  @L-V02
  Scenario: A numeric dimension is refused too, with a query that groups by it
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "ref": "Vendas.Parcelas"}'
    Then the call fails with code "NUMERIC_COLUMN"
    And "error.suggestions" is '["Use query: {\"appId\":$app:vendas-comercial,\"fields\":[{\"ref\":\"Vendas.Parcelas\"}]}"]'

  @L-V02
  Scenario: An expression is not a column
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "ref": "Margem %"}'
    Then the call fails with code "NOT_A_COLUMN"
    And the text contains "\"Margem %\" é uma expressão, não uma coluna"

  @L-V05 @L-V06
  Scenario: Without ref, contains searches the text columns, dimension tables first
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "contains": "SAO"}'
    Then the call succeeds
    And "mode" is '"search"'
    And "appId" is '"$app:vendas-comercial"'
    # for each string column of vendas/app.yaml, dimension tables (Lojas, Produtos) before facts (Vendas):
    # distinct(col(file, NAME), ["SAO"])[:8], more = len(...) > 8; columns without values are not listed
    And "matches" is:
      """
      [{"ref": "Lojas.Loja", "values": ["São João"], "more": false},
       {"ref": "Lojas.Cidade", "values": ["São Paulo"], "more": false}]
      """
    # string columns in vendas/app.yaml: Lojas 4, Produtos 2, Vendas 4, Metas 0
    And "columnsSearched" is '10'
    And "columnsTotal" is '10'
    And "columnsLeftOut" is '[]'
    And the text contains "Valores com \"SAO\" em 2 colunas (procuradas 10 de 10 colunas de texto):"
    And the text contains "- Lojas.Loja: São João"

  @L-V05 @L-V06
  Scenario: At most 8 values per column; more says there are others
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "contains": "a"}'
    # same computation as above with ["a"], in the order Lojas, Produtos, Vendas
    Then "matches" is:
      """
      [{"ref": "Lojas.Loja", "values": ["Açaí da Praça", "Aurora", "Boa Vista", "Ipê Amarelo", "Jardim Botânico", "São João"], "more": false},
       {"ref": "Lojas.Cidade", "values": ["Curitiba", "Goiânia", "Maceió", "Ribeirão Preto", "São Paulo"], "more": false},
       {"ref": "Lojas.UF", "values": ["AL", "PA"], "more": false},
       {"ref": "Lojas.Gerente", "values": ["Débora Íris", "João Pedro Alves", "Luíza Câmara", "Marta Reis", "Otávio Nunes"], "more": false},
       {"ref": "Produtos.Produto", "values": ["Açaí 1L", "Agenda 2026", "Brinde de inauguração", "Caderno universitário", "Café torrado 500g", "Caixa de som", "Calça jeans", "Camiseta básica"], "more": true},
       {"ref": "Produtos.Categoria", "values": ["Alimentos", "Papelaria", "Vestuário"], "more": false},
       {"ref": "Vendas.Cliente", "values": ["Ana Beatriz", "Carlos Eduardo", "Fernanda Lima", "Gustavo Henrique", "Helena Prado", "Íris Moura", "José Antônio", "Letícia Sá"], "more": true},
       {"ref": "Vendas.Situação", "values": ["Ativa", "Cancelada"], "more": false},
       {"ref": "Vendas.Canal", "values": ["Aplicativo", "Loja"], "more": false},
       {"ref": "Vendas.Cupom", "values": ["FRETEGRÁTIS", "PRIMAVERA", "VOLTAÀSAULAS"], "more": false}]
      """
    And the text contains "- Produtos.Produto: Açaí 1L; Agenda 2026; Brinde de inauguração; Caderno universitário; Café torrado 500g; Caixa de som; Calça jeans; Camiseta básica (e mais; para todos: {\"appId\": $app:vendas-comercial, \"ref\": \"Produtos.Produto\", \"contains\": \"a\"})"

  @L-V06
  Scenario: A search that finds nothing says so
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "contains": "xyzzy"}'
    Then the call succeeds
    And "matches" is '[]'
    And "columnsSearched" is '10'
    And the text contains "Nenhum valor com \"xyzzy\" nas 10 colunas de texto procuradas (de 10)."

  @L-V05 @L-V07 @own-setup
  Scenario: Past 20 text columns the search stops, and the text lists the columns left out
    Given the workspace in "testdata/wide" is imported
    And I am connected as "lia"
    When I call "search_values" with '{"appId": "$app:cadastro", "contains": "agulha"}'
    Then the call succeeds
    # features/testdata/wide/apps/cadastro: 23 string columns; Pessoas (5) and Lugares (5) are dimensions
    # and come first, then Fatos Texto 01..10; distinct(col(file, NAME), ["agulha"]) for those 20
    And "columnsTotal" is '23'
    And "columnsSearched" is '20'
    And "matches" is:
      """
      [{"ref": "Pessoas.Nome", "values": ["Agulha Silva"], "more": false},
       {"ref": "Lugares.Rua", "values": ["Rua da Agulha"], "more": false},
       {"ref": "Fatos.Texto 05", "values": ["linha e agulha"], "more": false}]
      """
    # the last 3 of the 23 in search order
    And "columnsLeftOut" is '["Fatos.Texto 11", "Fatos.Texto 12", "Fatos.Texto 13"]'
    And the text contains "Ficaram de fora (a busca olha no máximo 20 colunas, as de dimensão primeiro): Fatos.Texto 11, Fatos.Texto 12, Fatos.Texto 13. Repita com ref para procurar em cada uma."
    When I call "search_values" with '{"appId": "$app:cadastro", "ref": "Fatos.Texto 13", "contains": "agulha"}'
    # distinct(col("fatos.csv", "T13"), ["agulha"])
    Then "values" is '["agulha no palheiro"]'

  @L-V08
  Scenario: mode sample shows 10 rows of the table, without technical columns
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "ref": "vendas", "mode": "sample"}'
    Then the call succeeds
    And "mode" is '"sample"'
    And "ref" is '"Vendas"'
    # the columns of table Vendas in vendas/app.yaml without role key (ID, LOJA_ID, PRODUTO_ID); the two
    # "Valor líquido" share a label, so their refs use the physical names
    And "columns" is:
      """
      [{"label": "Data", "ref": "Vendas.Data", "type": "datetime", "unit": null},
       {"label": "Cliente", "ref": "Vendas.Cliente", "type": "string", "unit": null},
       {"label": "Situação", "ref": "Vendas.Situação", "type": "string", "unit": null},
       {"label": "Canal", "ref": "Vendas.Canal", "type": "string", "unit": null},
       {"label": "Valor da venda", "ref": "Vendas.Valor da venda", "type": "number", "unit": "BRL"},
       {"label": "Valor líquido", "ref": "Vendas.VALOR_LIQ", "type": "number", "unit": "BRL"},
       {"label": "Valor líquido", "ref": "Vendas.VALOR_2", "type": "number", "unit": "BRL"},
       {"label": "Custo", "ref": "Vendas.Custo", "type": "number", "unit": "BRL"},
       {"label": "Quantidade", "ref": "Vendas.Quantidade", "type": "number", "unit": null},
       {"label": "Desconto", "ref": "Vendas.Desconto", "type": "number", "unit": "percent"},
       {"label": "Tempo no caixa", "ref": "Vendas.Tempo no caixa", "type": "number", "unit": "seconds"},
       {"label": "Parcelas", "ref": "Vendas.Parcelas", "type": "number", "unit": null},
       {"label": "Cupom", "ref": "Vendas.Cupom", "type": "string", "unit": null}]
      """
    # the first 10 data lines of vendas/vendas.csv, those columns, numbers as float(field), \N as null
    And "rows" is:
      """
      [["2025-01-18 14:03:00", "Ana Beatriz", null, "Aplicativo", 32.5, 26.0, 25.22, 22.32, 1.0, 0.2, 756.0, 1.0, null],
       ["2025-04-16 08:04:00", "Renata Conceição", "Ativa", "Loja", 24.0, 19.2, 18.62, 16.01, 1.0, 0.2, 649.0, 1.0, "FRETEGRÁTIS"],
       ["2026-03-20 15:55:00", "Otávio Brandão", "Ativa", "Loja", 5394.0, 4584.9, null, 2626.63, 6.0, 0.15, 467.0, 3.0, null],
       ["2026-02-19 08:48:00", null, "Ativa", "Site", 899.0, 764.15, 741.23, 423.92, 1.0, 0.15, 245.0, 1.0, "PRIMAVERA"],
       ["2026-08-11 10:46:00", "Paula Fontes", "Pendente", "Telefone", 72.0, 64.8, null, 41.81, 3.0, 0.1, 424.0, 1.0, null],
       ["2026-10-01 08:55:00", "Fernanda Lima", "Cancelada", "Loja", 89.7, 80.73, null, 35.63, 3.0, 0.1, 482.0, 2.0, "BEMVINDO10"],
       ["2025-12-05 11:30:00", "Íris Moura", "Cancelada", "Loja", 32.5, 30.88, 29.95, 20.95, 1.0, 0.05, 232.0, 6.0, null],
       ["2026-08-17 18:35:00", "Ana Beatriz", "Ativa", "Aplicativo", 49.9, 42.41, 41.14, 25.47, 1.0, 0.15, 611.0, 1.0, null],
       ["2026-01-13 14:32:00", "Fernanda Lima", "Ativa", "Telefone", 27.9, 27.9, 27.06, 16.15, 1.0, 0.0, 454.0, 1.0, "VOLTAÀSAULAS"],
       ["2026-06-29 14:45:00", "Renata Conceição", "Pendente", "Telefone", 1396.0, 1326.2, 1286.41, 678.44, 4.0, 0.05, 764.0, 1.0, null]]
      """
    And the text contains "Tabela Vendas: 10 linhas de exemplo (as primeiras carregadas), sem as colunas técnicas (Id, Loja id, Produto id)."
    And the text contains "Data | Cliente | Situação | Canal | Valor da venda | VALOR_LIQ | VALOR_2 | Custo | Quantidade | Desconto | Tempo no caixa | Parcelas | Cupom"
    And the text contains "2025-01-18 14:03:00 | Ana Beatriz | (nulo) | Aplicativo | R$ 32,50 | R$ 26,00 | R$ 25,22 | R$ 22,32 | 1 | 20,0% | 756 s | 1 | (nulo)"

  @L-V08
  Scenario: A table with fewer rows shows them all; an empty text is not a null
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "ref": "Lojas", "mode": "sample"}'
    Then "columns[*].ref" is '["Lojas.Loja", "Lojas.Cidade", "Lojas.UF", "Lojas.Gerente"]'
    # every data line of vendas/lojas.csv (7), columns NOME, CIDADE, UF, GERENTE; \N as null
    And "rows" is:
      """
      [["Aurora", "São Paulo", "SP", "Marta Reis"], ["Boa Vista", "Ribeirão Preto", "SP", "João Pedro Alves"],
       ["Centro", "Maceió", "AL", "Luíza Câmara"], ["São João", "Belo Horizonte", "MG", "Otávio Nunes"],
       ["Ipê Amarelo", "Goiânia", "GO", ""], ["Jardim Botânico", "Curitiba", "PR", null], ["Açaí da Praça", "Belém", "PA", "Débora Íris"]]
      """
    And the text contains "Tabela Lojas: 7 linhas de exemplo"
    And the text contains "Ipê Amarelo | Goiânia | GO | (vazio)"

  @L-V08
  Scenario: A table that was never loaded has no rows, and a note says so
    When I call "search_values" with '{"appId": "$app:estoque", "ref": "Movimentos", "mode": "sample"}'
    Then the call succeeds
    And "rows" is '[]'
    And "columns[*].label" is '["Data", "Loja", "Quantidade"]'
    And "notes" is '["A tabela Movimentos nunca foi carregada: não há linhas."]'

  @L-V08 @L-G03
  Scenario: mode sample needs a table that exists
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "ref": "Venda", "mode": "sample"}'
    Then the call fails with code "UNKNOWN_REF"
    And the text contains "A tabela \"Venda\" não existe nesta Aplicação. Tabelas parecidas: Vendas."
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "mode": "sample"}'
    Then the call fails with code "MISSING_REF"

  @L-V09 @L-G03
  Scenario: Without ref and without contains is an error that says what to pass
    When I call "search_values" with '{"appId": "$app:vendas-comercial"}'
    Then the call fails with code "MISSING_REF_OR_CONTAINS"
    And the text contains "search_values precisa de ref (a coluna, Tabela.Coluna) para listar os valores dela, ou de contains (um texto) para procurá-lo nas colunas de texto da Aplicação."
    # the most used text column in vendas/app.yaml (usage 30)
    And "error.suggestions" includes:
      """
      ["Para listar valores: {\"appId\": $app:vendas-comercial, \"ref\": \"Lojas.Loja\"}"]
      """
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "contains": "   "}'
    Then the call fails with code "MISSING_REF_OR_CONTAINS"

  @L-G03
  Scenario: An unknown ref is refused with similar refs
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "ref": "Lojas.Cidad"}'
    Then the call fails with code "UNKNOWN_REF"
    And the text contains "A ref \"Lojas.Cidad\" não existe nesta Aplicação. Refs parecidas:"
    And "error.suggestions" includes:
      """
      ["Lojas.Cidade"]
      """
    When I call "search_values" with '{"appId": "$app:vendas-comercial", "ref": "Lojas"}'
    Then the call fails with code "INVALID_REF"
    And the text contains "Lojas é uma tabela: para linhas de exemplo, use {\"appId\": $app:vendas-comercial, \"ref\": \"Lojas\", \"mode\": \"sample\"}"

  @L-G05 @L-G03
  Scenario Outline: Apps outside the user's access are not found, like missing ones
    Given I am connected as "<user>"
    When I call "search_values" with '{"appId": <app>, "ref": "Lojas.Cidade"}'
    Then the call fails with code "NOT_FOUND"
    And the text contains "A Aplicação <id> não foi encontrada."

    Examples:
      | user  | app                       | id                      |
      | ana   | "$app:vendas-outra"       | $app:vendas-outra       |
      | ana   | "$app:vendas-financeiro"  | $app:vendas-financeiro  |
      | carla | "$app:vendas-comercial"   | $app:vendas-comercial   |
      | bruno | "$app:vendas-ana"         | $app:vendas-ana         |
      | ana   | 999999                    | 999999                  |
