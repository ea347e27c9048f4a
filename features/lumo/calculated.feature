Feature: Calculated columns and conditional measures
  A column of app.yaml may be a formula computed row by row at query time: arithmetic over the
  columns of its table and of the tables it reaches (many to one), the days between two dates,
  comparisons and se(condição; então; senão). It is used like any column: grouped, aggregated,
  filtered, ordered, and inside expressions. An expression may aggregate under a condition
  (onde), so a share of two filtered sums is one query.

  features/testdata/calc holds the app; the expected numbers come from the sqlite3 CLI over the
  same CSVs (features/testdata/calc/oracle.sql), with the SQL beside each scenario:
    sqlite3 :memory: -cmd '.read features/testdata/calc/oracle.sql' "<SQL>"

  Background:
    Given the workspace in "testdata/calc" is imported
    And I am connected as "carla"

  @L-Q02 @L-Q12 @own-setup
  Scenario: Grouping by a calculated text column and aggregating calculated numbers
    # SELECT CASE WHEN PRECO >= 100 THEN 'Cara' ELSE 'Barata' END f, SUM(PRECO*QTD*(1-DESCONTO)),
    #   SUM(CASE WHEN ENTREGA > PROMETIDA THEN 1 ELSE 0 END), AVG(julianday(ENTREGA)-julianday(DATA_PEDIDO)), COUNT(ID)
    #   FROM pedidos GROUP BY f ORDER BY f
    # -> Barata|1170.0|2|5.5|5, Cara|1679.0|1|5.66666666666667|3
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Pedidos.Faixa de preço"}, {"ref": "Pedidos.Valor líquido", "agg": "sum"}, {"ref": "Pedidos.Atrasado", "agg": "sum"}, {"ref": "Pedidos.Dias de entrega", "agg": "avg"}, {"ref": "Pedidos.Id", "agg": "count"}], "orderBy": [{"ref": "Pedidos.Faixa de preço", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Barata", 1170, 2, 5.5, 5], ["Cara", 1679, 1, 5.666667, 3]]'
    And "columns[1].unit" is '"BRL"'

  @L-Q17 @L-Q02 @own-setup
  Scenario: Filtering by calculated columns, a number and a text
    # SELECT COUNT(ID), SUM(QTD) FROM pedidos WHERE julianday(ENTREGA)-julianday(DATA_PEDIDO) >= 5
    #   AND (CASE WHEN PRECO >= 100 THEN 'Cara' ELSE 'Barata' END) = 'Cara'
    # -> 2|3.0
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Pedidos.Id", "agg": "count"}, {"ref": "Pedidos.Quantidade", "agg": "sum"}], "filters": [{"ref": "Pedidos.Dias de entrega", "op": ">=", "value": 5}, {"ref": "Pedidos.Faixa de preço", "op": "=", "value": "Cara"}]}'
    Then the call succeeds
    And "rows" is '[[2, 3]]'

  @L-Q23 @L-Q12 @own-setup
  Scenario: A calculated column over the product it reaches, and a division by zero that is blank
    # SELECT pr.CATEGORIA, SUM(p.PRECO - pr.CUSTO), MAX(p.PRECO*p.QTD*(1-p.DESCONTO) / NULLIF(p.QTD, 0)),
    #   MIN(p.PRECO*p.QTD*(1-p.DESCONTO) / NULLIF(p.QTD, 0)) FROM pedidos p LEFT JOIN produtos pr ON pr.ID = p.PRODUTO_ID
    #   GROUP BY pr.CATEGORIA ORDER BY pr.CATEGORIA
    # -> Ferragens|4.0|3.6|3.6, Ferramentas|425.0|285.0|45.0
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Produtos.Categoria"}, {"ref": "Pedidos.Margem unitária", "agg": "sum"}, {"ref": "Pedidos.Valor por unidade", "agg": "max"}, {"ref": "Pedidos.Valor por unidade", "agg": "min"}], "orderBy": [{"ref": "Produtos.Categoria", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Ferragens", 4, 3.6, 3.6], ["Ferramentas", 425, 285, 45]]'
    # SELECT ID, PRECO*QTD*(1-DESCONTO) / NULLIF(QTD, 0) FROM pedidos WHERE ID IN (5, 6) -> 5|, 6|
    # (no discount on order 5; no quantity on order 6)
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Pedidos.Id", "agg": "count"}], "filters": [{"ref": "Pedidos.Valor por unidade", "op": "is null"}]}'
    Then the call succeeds
    And "rows" is '[[2]]'

  @L-Q04 @L-Q06 @own-setup
  Scenario: A ranking by a calculated measure
    # SELECT pr.NOME, SUM(p.PRECO*p.QTD*(1-p.DESCONTO)) s FROM pedidos p LEFT JOIN produtos pr ON pr.ID = p.PRODUTO_ID
    #   GROUP BY pr.NOME ORDER BY s DESC LIMIT 2
    # -> Furadeira|1679.0, Parafuso|1080.0
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Produtos.Produto"}, {"ref": "Pedidos.Valor líquido", "agg": "sum"}], "orderBy": [{"ref": "Pedidos.Valor líquido", "agg": "sum", "dir": "desc"}], "limit": 2}'
    Then the call succeeds
    And "rows" is '[["Furadeira", 1679], ["Parafuso", 1080]]'

  @L-Q09 @own-setup
  Scenario: An expression over a calculated column
    # SELECT SITUACAO, SUM(PRECO*QTD*(1-DESCONTO)) / COUNT(ID) FROM pedidos GROUP BY SITUACAO ORDER BY SITUACAO
    # -> Ativa|309.5, Cancelada|496.0
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Pedidos.Situação"}, {"ref": "Ticket líquido"}], "orderBy": [{"ref": "Pedidos.Situação", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Ativa", 309.5], ["Cancelada", 496]]'

  @L-Q09 @own-setup
  Scenario: Conditional measures, a share of two sums among them, in one query
    # SELECT SUM(CASE WHEN SITUACAO = 'Ativa' THEN PRECO*QTD*(1-DESCONTO) END),
    #   COUNT(CASE WHEN PRIORIDADE = 'Urgente' THEN ID END),
    #   SUM(CASE WHEN PROMO = 1 THEN PRECO*QTD*(1-DESCONTO) END) / SUM(PRECO*QTD*(1-DESCONTO)),
    #   SUM(CASE WHEN PRIORIDADE = 'Urgente' AND SITUACAO = 'Ativa' THEN (CASE WHEN ENTREGA > PROMETIDA THEN 1 ELSE 0 END) END),
    #   COUNT(CASE WHEN DATA_PEDIDO >= '2026-09-05' THEN ID END) FROM pedidos
    # -> 1857.0|4|0.778167778167778|2|5
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Receita ativa"}, {"ref": "Pedidos urgentes"}, {"ref": "Parte em promoção"}, {"ref": "Atrasos urgentes ativos"}, {"ref": "Pedidos a partir de 5 de setembro"}]}'
    Then the call succeeds
    And "rows" is '[[1857, 4, 0.778168, 2, 5]]'

  @L-Q09 @L-Q23 @own-setup
  Scenario: Conditional measures by group, one with a condition on the product it reaches
    # SELECT pr.CATEGORIA, SUM(CASE WHEN SITUACAO = 'Ativa' THEN PRECO*QTD*(1-DESCONTO) END),
    #   COUNT(CASE WHEN PRIORIDADE = 'Urgente' THEN p.ID END), SUM(CASE WHEN pr.CATEGORIA = 'Ferramentas' THEN PRECO*QTD*(1-DESCONTO) END)
    #   FROM pedidos p LEFT JOIN produtos pr ON pr.ID = p.PRODUTO_ID GROUP BY pr.CATEGORIA ORDER BY pr.CATEGORIA
    # -> Ferragens|360.0|1|, Ferramentas|1497.0|3|1769.0
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Produtos.Categoria"}, {"ref": "Receita ativa"}, {"ref": "Pedidos urgentes"}, {"ref": "Receita de ferramentas"}], "orderBy": [{"ref": "Produtos.Categoria", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Ferragens", 360, 1, null], ["Ferramentas", 1497, 3, 1769]]'

  @own-setup
  Scenario Outline: A calculated column or a condition that does not fit is refused at import, with file, line, field and position
    When I import the workspace in "testdata/calc" with "apps/vendas/app.yaml" holding:
      """
      name: Vendas calculadas
      description: Pedidos de ferragens e ferramentas, com valor líquido, prazo de entrega e atrasos calculados.
      tables:
        - label: Pedidos
          name: pedidos
          kind: fact
          file: pedidos.csv
          loadedAt: "2026-10-01T06:00:00-03:00"
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: PRODUTO_ID, label: Produto, type: number, role: key}
            - {name: PRECO, label: Preço, type: number, role: measure, unit: BRL}
            - {name: QTD, label: Quantidade, type: number, role: measure}
            - {name: DESCONTO, label: Desconto, type: number, role: measure}
            - {name: DATA_PEDIDO, label: Pedido, type: date}
            - {name: PROMETIDA, label: Prometida, type: date}
            - {name: ENTREGA, label: Entrega, type: date}
            - {name: SITUACAO, label: Situação, type: string}
            - {name: PRIORIDADE, label: Prioridade, type: string}
            - {name: PROMO, label: Promo, type: number}
            - {name: VALOR_LIQ, label: Valor líquido, type: number, role: measure, unit: BRL, formula: "[Preço] * [Quantidade] * (1 - [Desconto])"}
            - {name: DIAS, label: Dias de entrega, type: number, role: measure, formula: "[Entrega] - [Pedido]"}
            - {name: ATRASO, label: Atrasado, type: number, role: measure, formula: "se([Entrega] > [Prometida]; 1; 0)"}
            - {name: FAIXA, label: Faixa de preço, type: string, formula: 'se([Preço] >= 100; "Cara"; "Barata")'}
            - {name: MARGEM, label: Margem unitária, type: number, role: measure, unit: BRL, formula: "[Preço] - [Produtos.Custo]"}
            - <column>
            - <other>
        - label: Produtos
          name: produtos
          kind: dimension
          file: produtos.csv
          loadedAt: "2026-10-01T06:00:00-03:00"
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: NOME, label: Produto, type: string}
            - {name: CATEGORIA, label: Categoria, type: string}
            - {name: CUSTO, label: Custo, type: number, role: measure, unit: BRL}
      relationships:
        - {from: Pedidos.Produto, to: Produtos.Id}
      expressions:
        - <expression>
      """
    Then the import fails with:
      """
      <error>
      """

    Examples:
      | column | other | expression | error |
      | {name: X, label: Soma errada, type: number, formula: "[Situação] + 1"} | {name: OUTRA, label: Outra, type: number, formula: "[Preço] / 2"} | {label: Receita, formula: "sum([Pedidos.Valor líquido])"} | apps/vendas/app.yaml:26: tables[0].columns[16].formula: a fórmula da coluna calculada Pedidos.Soma errada não pôde ser usada: posição 12: + vale só entre números, e [Situação] é texto |
      | {name: X, label: Atraso errado, type: number, formula: "se([Entrega] > 3; 1; 0)"} | {name: OUTRA, label: Outra, type: number, formula: "[Preço] / 2"} | {label: Receita, formula: "sum([Pedidos.Valor líquido])"} | apps/vendas/app.yaml:26: tables[0].columns[16].formula: a fórmula da coluna calculada Pedidos.Atraso errado não pôde ser usada: posição 14: > compara valores do mesmo tipo, e [Entrega] é data enquanto 3 é número |
      | {name: X, label: Dobro, type: number, formula: "[Quantidad] * 2"} | {name: OUTRA, label: Outra, type: number, formula: "[Preço] / 2"} | {label: Receita, formula: "sum([Pedidos.Valor líquido])"} | apps/vendas/app.yaml:26: tables[0].columns[16].formula: a fórmula da coluna calculada Pedidos.Dobro não pôde ser usada: posição 1: a coluna [Quantidad] não existe em Pedidos nem nas tabelas que ela alcança; colunas parecidas: [Quantidade] |
      | {name: A, label: Ida, type: number, formula: "[Volta] + 1"} | {name: B, label: Volta, type: number, formula: "[Ida] + 1"} | {label: Receita, formula: "sum([Pedidos.Valor líquido])"} | apps/vendas/app.yaml:27: tables[0].columns[17].formula: a fórmula da coluna calculada Pedidos.Volta não pôde ser usada: posição 1: as colunas calculadas formam um ciclo (Ida → Volta → Ida): uma delas precisa ser calculada sem depender das outras |
      | {name: X, label: Atrasou, type: number, formula: "[Entrega] > [Prometida]"} | {name: OUTRA, label: Outra, type: number, formula: "[Preço] / 2"} | {label: Receita, formula: "sum([Pedidos.Valor líquido])"} | apps/vendas/app.yaml:26: tables[0].columns[16].formula: a fórmula da coluna calculada Pedidos.Atrasou não pôde ser usada: posição 1: a fórmula é uma condição (vale ou não vale), e uma coluna guarda um valor; escreva se(condição; 1; 0) para contar, ou se(condição; "sim"; "não") |
      | {name: X, label: Dobro, type: string, formula: "[Preço] * 2"} | {name: OUTRA, label: Outra, type: number, formula: "[Preço] / 2"} | {label: Receita, formula: "sum([Pedidos.Valor líquido])"} | apps/vendas/app.yaml:26: tables[0].columns[16].formula: a fórmula da coluna calculada Pedidos.Dobro não pôde ser usada: posição 1: a fórmula dá número, mas type diz texto; troque type para number |
      | {name: X, label: Líquido, type: number, formula: "[Preço] * (1 - [Desconto]"} | {name: OUTRA, label: Outra, type: number, formula: "[Preço] / 2"} | {label: Receita, formula: "sum([Pedidos.Valor líquido])"} | apps/vendas/app.yaml:26: tables[0].columns[16].formula: a fórmula da coluna calculada Pedidos.Líquido não pôde ser usada: posição 26: esperava ")" ou um operador, mas encontrou o fim da fórmula |
      | {name: X, label: Total, type: number, formula: "sum([Situação])"} | {name: OUTRA, label: Outra, type: number, formula: "[Preço] / 2"} | {label: Receita, formula: "sum([Pedidos.Valor líquido])"} | apps/vendas/app.yaml:26: tables[0].columns[16].formula: a fórmula da coluna calculada Pedidos.Total não pôde ser usada: posição 1: sum vale só para coluna numérica, e Pedidos.Situação é texto; use count ou count_distinct |
      | {name: X, label: Data errada, type: number, formula: 'se([Pedido] >= "05/09/2026"; 1; 0)'} | {name: OUTRA, label: Outra, type: number, formula: "[Preço] / 2"} | {label: Receita, formula: "sum([Pedidos.Valor líquido])"} | apps/vendas/app.yaml:26: tables[0].columns[16].formula: a fórmula da coluna calculada Pedidos.Data errada não pôde ser usada: posição 16: o texto "05/09/2026" é comparado com uma data e não é uma data no formato AAAA-MM-DD |
      | {name: X, label: Custo fora, type: number, formula: "[Preço] - [Clientes.Custo]"} | {name: OUTRA, label: Outra, type: number, formula: "[Preço] / 2"} | {label: Receita, formula: "sum([Pedidos.Valor líquido])"} | apps/vendas/app.yaml:26: tables[0].columns[16].formula: a fórmula da coluna calculada Pedidos.Custo fora não pôde ser usada: posição 11: a coluna [Clientes.Custo] não existe em Pedidos nem nas tabelas que ela alcança; colunas parecidas: [Produtos.Custo] |
      | {name: X, label: Metade, type: number, formula: "[Preço] / 2"} | {name: OUTRA, label: Outra, type: number, formula: "[Preço] / 2"} | {label: Ativas, formula: 'sum([Pedidos.Valor líquido]) onde [Estado] = "Ativa"'} | apps/vendas/app.yaml:41: expressions[0].formula: a condição (onde) de sum([Pedidos.Valor líquido]): posição 35: a coluna [Estado] não existe em Pedidos nem nas tabelas que ela alcança; use o rótulo de uma coluna de Pedidos ou Tabela.Coluna |
      | {name: X, label: Metade, type: number, formula: "[Preço] / 2"} | {name: OUTRA, label: Outra, type: number, formula: "[Preço] / 2"} | {label: Recentes, formula: "count([Pedidos.Id]) onde [Pedido] >= 5"} | apps/vendas/app.yaml:41: expressions[0].formula: a condição (onde) de count([Pedidos.Id]): posição 35: >= compara valores do mesmo tipo, e [Pedido] é data enquanto 5 é número |
      | {name: X, label: Metade, type: number, formula: "[Preço] / 2"} | {name: OUTRA, label: Outra, type: number, formula: "[Preço] / 2"} | {label: Urgentes em promoção, formula: 'count([Pedidos.Id]) onde [Promo] = 1 e [Prioridade] = "Urgente"'} | apps/vendas/app.yaml:41: expressions[0].formula: a fórmula não pôde ser lida: posição 38: esperava um operador (+ - * /) ou o fim da fórmula (para juntar condições de onde, ponha-as entre parênteses: onde ([A] = 1 e [B] = 2)), mas encontrou "e" |

  @L-A03 @own-setup
  Scenario: get_app shows calculated columns and conditional measures with their formulas in words
    When I call "get_app" with '{"appId": "$app:vendas"}'
    Then the call succeeds
    And "tables[0].columns[11].formula" is '"[Preço] * [Quantidade] * (1 - [Desconto])"'
    And "tables[0].columns[11].calculation" is '"calculada: Preço × Quantidade × (1 − Desconto)"'
    And "tables[0].columns[1].calculation" is absent
    And the text contains "- Pedidos.Valor líquido: número, medida, BRL, calculada: Preço × Quantidade × (1 − Desconto)"
    And the text contains "- Pedidos.Dias de entrega: número, medida, calculada: Entrega − Pedido"
    And the text contains "- Pedidos.Atrasado: número, medida, calculada: se Entrega > Prometida então 1, senão 0"
    And the text contains "- Pedidos.Margem unitária: número, medida, BRL, calculada: Preço − Produtos.Custo"
    And "expressions[2].calculation" is '"(soma de Pedidos.Valor líquido onde Promo = 1) ÷ soma de Pedidos.Valor líquido"'
    And the text contains "- Receita ativa = sum([Pedidos.Valor líquido]) onde [Situação] = \"Ativa\" (BRL); em palavras: soma de Pedidos.Valor líquido onde Situação = \"Ativa\""

  @L-C07 @L-C09 @own-setup
  Scenario: search_catalog finds calculated columns and conditional measures, with their formulas in words
    When I call "search_catalog" with '{"terms": ["líquido", "urgentes"]}'
    Then the call succeeds
    And "matches" includes:
      """
      [
        {"kind": "expression", "name": "Pedidos urgentes", "ref": "Pedidos urgentes", "field": {"ref": "Pedidos urgentes"}, "calculation": "contagem de Pedidos.Id onde Prioridade = \"Urgente\""},
        {"kind": "column", "name": "Valor líquido", "ref": "Pedidos.Valor líquido", "field": {"ref": "Pedidos.Valor líquido", "agg": "sum"}, "table": "Pedidos", "type": "number", "unit": "BRL", "calculation": "calculada: Preço × Quantidade × (1 − Desconto)"}
      ]
      """
    And the text contains "- Coluna Pedidos.Valor líquido (número, BRL; calculada: Preço × Quantidade × (1 − Desconto)) em"

  @L-V02 @own-setup
  Scenario: search_values lists a calculated text column's values, and the sample leaves calculated columns out, saying so
    # sqlite3 :memory: -cmd '.read features/testdata/calc/oracle.sql' "SELECT CASE WHEN PRECO >= 100 THEN 'Cara'
    #   ELSE 'Barata' END AS f, count(*) FROM pedidos GROUP BY f ORDER BY f;"  -> Barata 5, Cara 3
    When I call "search_values" with '{"appId": "$app:vendas", "ref": "Pedidos.Faixa de preço"}'
    Then the call succeeds
    And "values" is '["Barata", "Cara"]'
    And "totalDistinct" is '2'
    When I call "search_values" with '{"appId": "$app:vendas", "ref": "Pedidos.Faixa de preço", "contains": "CARA"}'
    Then "values" is '["Cara"]'
    And the text contains "Pedidos.Faixa de preço tem 1 valor distinto com "CARA""
    When I call "search_values" with '{"appId": "$app:vendas", "ref": "Pedidos", "mode": "sample"}'
    Then the call succeeds
    And "columns[*].label" is '["Preço", "Quantidade", "Desconto", "Pedido", "Prometida", "Entrega", "Situação", "Prioridade", "Promo"]'
    And the text contains "As colunas calculadas (Valor líquido, Dias de entrega, Atrasado, Faixa de preço, Margem unitária, Valor por unidade, Etiqueta) não aparecem no modo sample"

  @L-Q17 @own-setup
  Scenario: like on a calculated text column ignores case and accents, as on a column with data
    # Etiqueta is se([Prioridade] = "Urgente"; [Prioridade]; [Situação]). sqlite3 :memory: -cmd
    #   '.read features/testdata/calc/oracle.sql' "SELECT count(*) FROM pedidos WHERE lower(CASE WHEN
    #   PRIORIDADE = 'Urgente' THEN PRIORIDADE ELSE SITUACAO END) LIKE '%urg%';"  -> 4; '%tiv%' -> 3;
    #   NOT LIKE '%a%' -> 4. Faixa de preço: LIKE '%ara%' -> 8 (Cara and Barata), 'car%' -> 3
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Pedidos.Id", "agg": "count"}], "filters": [{"ref": "Pedidos.Etiqueta", "op": "like", "value": "%URG%"}]}'
    Then "rows" is '[[4]]'
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Pedidos.Id", "agg": "count"}], "filters": [{"ref": "Pedidos.Etiqueta", "op": "like", "value": "%tív%"}]}'
    Then "rows" is '[[3]]'
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Pedidos.Id", "agg": "count"}], "filters": [{"ref": "Pedidos.Etiqueta", "op": "not like", "value": "%a%"}]}'
    Then "rows" is '[[4]]'
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Pedidos.Id", "agg": "count"}], "filters": [{"ref": "Pedidos.Faixa de preço", "op": "like", "value": "%ara%"}]}'
    Then "rows" is '[[8]]'
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Pedidos.Id", "agg": "count"}], "filters": [{"ref": "Pedidos.Faixa de preço", "op": "like", "value": "CAR%"}]}'
    Then "rows" is '[[3]]'

  @L-Q17 @L-Q12 @own-setup
  Scenario Outline: A calculated column that cannot take an operation says so, never INTERNAL
    When I call "query" with '<args>'
    Then the call fails with code "<code>"
    And the text contains "<message>"

    Examples:
      | args | code | message |
      | {"appId": "$app:vendas", "fields": [{"ref": "Pedidos.Faixa de preço", "agg": "sum"}]} | INVALID_FIELD | fields[0]: Pedidos.Faixa de preço é texto; sum, avg, min e max valem só para coluna numérica. |
      | {"appId": "$app:vendas", "fields": [{"ref": "Pedidos.Valor líquido"}]} | INVALID_FIELD | fields[0]: Pedidos.Valor líquido é uma medida numérica e exige agg |

  @L-Q22 @own-setup
  Scenario: A text filter on a calculated column is checked against the values its formula gives
    # SELECT COUNT(ID) FROM pedidos WHERE (CASE WHEN PRECO >= 100 THEN 'Cara' ELSE 'Barata' END) = 'Barata' -> 5
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Pedidos.Id", "agg": "count"}], "filters": [{"ref": "Pedidos.Faixa de preço", "op": "=", "value": "barata"}]}'
    Then the call succeeds
    And "rows" is '[[5]]'
    And the text contains "Pedidos.Faixa de preço: o valor \"barata\" foi lido como \"Barata\" (diferença de caixa ou acento)."
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Pedidos.Id", "agg": "count"}], "filters": [{"ref": "Pedidos.Faixa de preço", "op": "in", "value": ["Cara", "Carissima"]}]}'
    Then the call fails with code "VALUE_NOT_FOUND"
    And the text contains "O valor \"Carissima\" não existe em Pedidos.Faixa de preço, e a consulta não rodou. A coluna é calculada e dá só os valores \"Cara\", \"Barata\"."

  @L-Q03 @L-Q09 @own-setup
  Scenario: A filter on a conditional measure cuts the groups, and a condition compares a date with a day
    # SELECT pr.NOME, SUM(CASE WHEN SITUACAO = 'Ativa' THEN PRECO*QTD*(1-DESCONTO) END) r,
    #   COUNT(CASE WHEN DATA_PEDIDO >= '2026-09-05' THEN p.ID END) FROM pedidos p LEFT JOIN produtos pr ON pr.ID = p.PRODUTO_ID
    #   GROUP BY pr.NOME HAVING r > 300 ORDER BY r DESC
    # -> Furadeira|1407.0|2, Parafuso|360.0|1
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Produtos.Produto"}, {"ref": "Receita ativa"}, {"ref": "Pedidos a partir de 5 de setembro"}], "filters": [{"ref": "Receita ativa", "op": ">", "value": 300}], "orderBy": [{"ref": "Receita ativa", "dir": "desc"}]}'
    Then the call succeeds
    And "rows" is '[["Furadeira", 1407, 2], ["Parafuso", 360, 1]]'
