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
