Feature: Columns computed from related rows
  A calculated column may aggregate the rows of another table that point to its row through the
  relationships: a customer's number of orders (count([Pedidos.Id])), an order's number of distinct
  suppliers (count_distinct([Itens.Fornecedor])), a part's minimum supply cost
  (min([PeçaFornecedor.Custo])), optionally over the related rows meeting a condition (onde). It is
  computed per row in the same statement (a correlated subquery) and used wherever a column is:
  grouped, filtered, aggregated, inside other formulas and in search_values. Without related rows
  (or none with a value) count, count_distinct and sum give 0 and avg, min and max are blank; a
  fact row whose row of that table is missing reads it blank, as every column of that table.

  features/testdata/membership holds the app; the expected answers come from the sqlite3 CLI over
  the same CSVs (features/testdata/membership/oracle.sql), with hand-written correlated subqueries
  beside each scenario:
    sqlite3 :memory: -cmd '.read features/testdata/membership/oracle.sql' "<SQL>"

  Background:
    Given the workspace in "testdata/membership" is imported
    And I am connected as "paula"

  @L-Q02 @L-Q12 @own-setup
  Scenario: Each customer with its orders, active orders, total bought, last order and parts bought
    # SELECT c.NOME, (SELECT COUNT(ID) FROM pedidos p WHERE p.CLIENTE_ID = c.ID),
    #   (SELECT COUNT(ID) FROM pedidos p WHERE p.CLIENTE_ID = c.ID AND SITUACAO = 'Ativa'),
    #   COALESCE((SELECT SUM(VALOR) FROM pedidos p WHERE p.CLIENTE_ID = c.ID), 0),
    #   (SELECT MAX(DATA) FROM pedidos p WHERE p.CLIENTE_ID = c.ID),
    #   COALESCE((SELECT SUM(i.QTD) FROM itens i JOIN pedidos p ON p.ID = i.PEDIDO_ID WHERE p.CLIENTE_ID = c.ID), 0)
    #   FROM clientes c ORDER BY c.NOME
    # -> Ana|3|2|430.5|2026-09-10|121.0, Bruno|2|2|100.0|2026-09-15|11.0, Carla|2|1|530.0|2026-09-20|40.0,
    #    Davi|1|1|0|2026-09-07|1.0 (his one order has no Valor), Elisa|0|0|0||0, Fábio|1|1|120.0|2026-09-12|0, Gabi|0|0|0||0
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Cliente"}, {"ref": "Clientes.Pedidos feitos"}, {"ref": "Clientes.Pedidos ativos"}, {"ref": "Clientes.Total comprado", "agg": "sum"}, {"ref": "Clientes.Último pedido"}, {"ref": "Clientes.Peças compradas"}], "orderBy": [{"ref": "Clientes.Cliente", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Ana", 3, 2, 430.5, "2026-09-10", 121], ["Bruno", 2, 2, 100, "2026-09-15", 11], ["Carla", 2, 1, 530, "2026-09-20", 40], ["Davi", 1, 1, 0, "2026-09-07", 1], ["Elisa", 0, 0, 0, null, 0], ["Fábio", 1, 1, 120, "2026-09-12", 0], ["Gabi", 0, 0, 0, null, 0]]'
    And "summary" is '{"<col:pedidos:clientes:TOTAL>_SUM": 1180.5}'

  @L-Q02 @L-Q17 @own-setup
  Scenario: A column and a segment whose condition reads another column of related rows
    # Pedidos com vários itens = count([Pedidos.Id]) onde [Itens] >= 2, Itens being each order's count of items;
    # the segment Clientes com pedido de vários itens keeps the customers with such an order.
    # SELECT c.NOME, (SELECT COUNT(p.ID) FROM pedidos p WHERE p.CLIENTE_ID = c.ID
    #   AND (SELECT COUNT(i.ID) FROM itens i WHERE i.PEDIDO_ID = p.ID) >= 2) n FROM clientes c
    #   WHERE EXISTS (SELECT 1 FROM pedidos p WHERE p.CLIENTE_ID = c.ID AND (SELECT COUNT(i.ID) FROM itens i WHERE i.PEDIDO_ID = p.ID) >= 2)
    #   ORDER BY c.NOME -> Ana|2, Carla|1
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Cliente"}, {"ref": "Clientes.Pedidos com vários itens"}], "filters": [{"segment": "Clientes com pedido de vários itens"}], "orderBy": [{"ref": "Clientes.Cliente", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Ana", 2], ["Carla", 1]]'

  @L-Q02 @L-Q17 @L-Q23 @own-setup
  Scenario: A part's lowest supply cost beside its items, for the parts a filter keeps
    # SELECT p.NOME, (SELECT MIN(CUSTO) FROM pecafornecedor pf WHERE pf.PECA_ID = p.ID),
    #   (SELECT SUM(i.QTD) FROM itens i WHERE i.PECA_ID = p.ID) FROM pecas p WHERE p.TIPO_F LIKE '%parafuso%'
    #   ORDER BY p.NOME -> Parafuso Allen|7.5|15.0, Parafuso sextavado|5.5|29.0
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Peças.Peça"}, {"ref": "Peças.Menor custo"}, {"ref": "Itens.Quantidade", "agg": "sum"}], "filters": [{"ref": "Peças.Tipo", "op": "like", "value": "%parafuso%"}], "orderBy": [{"ref": "Peças.Peça", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Parafuso Allen", 7.5, 15], ["Parafuso sextavado", 5.5, 29]]'

  @L-Q02 @L-Q17 @own-setup
  Scenario: Grouping and filtering by a column computed from related rows
    # SELECT n, COUNT(*) FROM (SELECT (SELECT COUNT(ID) FROM pedidos p WHERE p.CLIENTE_ID = c.ID) n FROM clientes c)
    #   GROUP BY n ORDER BY n -> 0|2, 1|2, 2|2, 3|1
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Pedidos feitos"}, {"ref": "Clientes.Id", "agg": "count"}], "orderBy": [{"ref": "Clientes.Pedidos feitos", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[[0, 2], [1, 2], [2, 2], [3, 1]]'
    # The customers with no orders, as the segment "Clientes sem pedidos" keeps them -> Elisa, Gabi
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Cliente"}], "filters": [{"ref": "Clientes.Pedidos feitos", "op": "=", "value": 0}], "orderBy": [{"ref": "Clientes.Cliente", "dir": "asc"}]}'
    Then "rows" is '[["Elisa"], ["Gabi"]]'

  @L-Q02 @L-Q23 @own-setup
  Scenario: A customer's column computed from related rows groups the facts, blank for an order whose customer is missing
    # SELECT CASE WHEN c.ID IS NULL THEN NULL ELSE (SELECT COUNT(p2.ID) FROM pedidos p2 WHERE p2.CLIENTE_ID = c.ID) END g,
    #   SUM(p.VALOR), COUNT(p.ID) FROM pedidos p LEFT JOIN clientes c ON c.ID = p.CLIENTE_ID GROUP BY g ORDER BY g IS NULL, g
    # -> 1|120.0|2, 2|630.0|4, 3|430.5|3, |75.0|1 (order 9's customer 9 is not in Clientes)
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Pedidos feitos"}, {"ref": "Pedidos.Valor", "agg": "sum"}, {"ref": "Pedidos.Id", "agg": "count"}], "orderBy": [{"ref": "Clientes.Pedidos feitos", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[[1, 120, 2], [2, 630, 4], [3, 430.5, 3], [null, 75, 1]]'

  @L-Q02 @L-Q12 @own-setup
  Scenario: A column that compares its row with every row of its own table, whatever the question filters
    # Compra acima da média = se([Total comprado] > (avg([Total comprado]) onde [Pedidos feitos] > 0); 1; 0),
    # Parte do total comprado = [Total comprado] / sum([Total comprado]): an aggregate of the table's own
    # column reads every row of the table (those meeting onde), not the rows the question keeps.
    # WITH t AS (SELECT c.ID, c.NOME, c.SEGMENTO, COALESCE((SELECT SUM(VALOR) FROM pedidos p WHERE p.CLIENTE_ID = c.ID), 0) tot,
    #   (SELECT COUNT(ID) FROM pedidos p WHERE p.CLIENTE_ID = c.ID) n FROM clientes c)
    #   SELECT NOME, tot > (SELECT AVG(tot) FROM t WHERE n > 0), ROUND(tot / (SELECT SUM(tot) FROM t), 6) FROM t ORDER BY NOME
    # -> Ana|1|0.364676, Bruno|0|0.08471, Carla|1|0.448962, Davi|0|0.0, Elisa|0|0.0, Fábio|0|0.101652, Gabi|0|0.0
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Cliente"}, {"ref": "Clientes.Compra acima da média"}, {"ref": "Clientes.Parte do total comprado"}], "orderBy": [{"ref": "Clientes.Cliente", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Ana", 1, 0.364676], ["Bruno", 0, 0.08471], ["Carla", 1, 0.448962], ["Davi", 0, 0], ["Elisa", 0, 0], ["Fábio", 0, 0.101652], ["Gabi", 0, 0]]'
    # A filter on the segment keeps Ana and Carla; the average and the total stay those of every customer.
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Cliente"}, {"ref": "Clientes.Compra acima da média"}, {"ref": "Clientes.Parte do total comprado"}], "filters": [{"ref": "Clientes.Segmento", "op": "=", "value": "Varejo"}], "orderBy": [{"ref": "Clientes.Cliente", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Ana", 1, 0.364676], ["Carla", 1, 0.448962]]'
    # The orders of the customers above the average (order 9's customer is missing: blank, not kept)
    # ... SELECT SUM(p.VALOR), COUNT(p.ID) FROM pedidos p JOIN t ON t.ID = p.CLIENTE_ID WHERE t.tot > (SELECT AVG(tot) FROM t WHERE n > 0) -> 960.5|5
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Pedidos.Valor", "agg": "sum"}, {"ref": "Pedidos.Id", "agg": "count"}], "filters": [{"ref": "Clientes.Compra acima da média", "op": "=", "value": 1}]}'
    Then the call succeeds
    And "rows" is '[[960.5, 5]]'
    When I call "get_app" with '{"appId": "$app:pedidos"}'
    Then the text contains "- Clientes.Parte do total comprado: número, dimensão, calculada: Total comprado ÷ soma de Total comprado em todas as linhas de Clientes"

  @L-Q12 @own-setup
  Scenario: A column of the first or last characters of a text, blank where the text is blank
    # Início do nome = esquerda([Cliente]; 2), Fim do segmento = direita([Segmento]; 3); characters, not bytes (Fábio).
    # SELECT NOME, substr(NOME, 1, 2), NULLIF(substr(NULLIF(SEGMENTO, ''), -3), '') FROM clientes ORDER BY NOME
    # -> Ana|An|ejo, Bruno|Br|ado, Carla|Ca|ejo, Davi|Da|rno, Elisa|El|, Fábio|Fá|ado, Gabi|Ga|
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Cliente"}, {"ref": "Clientes.Início do nome"}, {"ref": "Clientes.Fim do segmento"}], "orderBy": [{"ref": "Clientes.Cliente", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Ana", "An", "ejo"], ["Bruno", "Br", "ado"], ["Carla", "Ca", "ejo"], ["Davi", "Da", "rno"], ["Elisa", "El", null], ["Fábio", "Fá", "ado"], ["Gabi", "Ga", null]]'
    # ... SELECT NULLIF(substr(NULLIF(SEGMENTO, ''), -3), '') f, COUNT(ID) FROM clientes GROUP BY f ORDER BY f IS NULL, f -> ado|2, ejo|2, rno|1, |2
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Fim do segmento"}, {"ref": "Clientes.Id", "agg": "count"}], "orderBy": [{"ref": "Clientes.Fim do segmento", "dir": "asc"}]}'
    Then "rows" is '[["ado", 2], ["ejo", 2], ["rno", 1], [null, 2]]'
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Cliente"}], "filters": [{"ref": "Clientes.Início do nome", "op": "=", "value": "Fá"}]}'
    Then "rows" is '[["Fábio"]]'
    When I call "search_values" with '{"appId": "$app:pedidos", "ref": "Clientes.Início do nome", "contains": "fa"}'
    Then the call succeeds
    And "values" is '["Fá"]'
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Cliente"}], "filters": [{"ref": "Clientes.Início do nome", "op": "like", "value": "f%"}]}'
    Then the call fails with code "INVALID_FILTER"
    When I call "get_app" with '{"appId": "$app:pedidos"}'
    Then the text contains "- Clientes.Início do nome: texto, dimensão, calculada: os 2 primeiros caracteres de Cliente"

  @L-Q12 @own-setup
  Scenario: An order's items and distinct suppliers, and a part's minimum and American average supply cost
    # SELECT p.ID, (SELECT COUNT(i.ID) FROM itens i WHERE i.PEDIDO_ID = p.ID),
    #   (SELECT COUNT(DISTINCT i.FORNECEDOR_ID) FROM itens i WHERE i.PEDIDO_ID = p.ID) FROM pedidos p ORDER BY p.ID
    # -> 1|2|2, 2|2|1, 3|1|1, 4|1|1, 5|1|1, 6|1|1, 7|2|2, 8|1|0 (its item has no supplier), 9|1|1, 10|0|0
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Pedidos.Id"}, {"ref": "Pedidos.Itens"}, {"ref": "Pedidos.Fornecedores distintos"}], "orderBy": [{"ref": "Pedidos.Id", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[[1, 2, 2], [2, 2, 1], [3, 1, 1], [4, 1, 1], [5, 1, 1], [6, 1, 1], [7, 2, 2], [8, 1, 0], [9, 1, 1], [10, 0, 0]]'
    # SELECT pc.NOME, (SELECT MIN(CUSTO) FROM pecafornecedor pf WHERE pf.PECA_ID = pc.ID),
    #   (SELECT AVG(CUSTO) FROM pecafornecedor pf JOIN fornecedores f ON f.ID = pf.FORNECEDOR_ID JOIN nacoes n ON n.ID = f.NACAO_ID
    #   WHERE pf.PECA_ID = pc.ID AND n.REGIAO = 'América') FROM pecas pc ORDER BY pc.NOME
    # -> Arruela|1.1|, Broca||, Parafuso Allen|7.5|7.5, Parafuso sextavado|5.5|5.5, Porca|2.75|3.25
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Peças.Peça"}, {"ref": "Peças.Menor custo", "agg": "min"}, {"ref": "Peças.Custo médio na América", "agg": "max"}], "orderBy": [{"ref": "Peças.Peça", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Arruela", 1.1, null], ["Broca", null, null], ["Parafuso Allen", 7.5, 7.5], ["Parafuso sextavado", 5.5, 5.5], ["Porca", 2.75, 3.25]]'

  @L-Q02 @L-V01 @own-setup
  Scenario: A formula over a column computed from related rows, grouped and listed by search_values
    # Frequência is se([Pedidos feitos] = 0; "Sem pedidos"; se([Pedidos feitos] >= 3; "Frequente"; "Ocasional")).
    # SELECT f, COUNT(*), SUM(t) FROM (SELECT CASE WHEN n = 0 THEN 'Sem pedidos' WHEN n >= 3 THEN 'Frequente'
    #   ELSE 'Ocasional' END f, t FROM (SELECT (SELECT COUNT(ID) FROM pedidos p WHERE p.CLIENTE_ID = c.ID) n,
    #   COALESCE((SELECT SUM(VALOR) FROM pedidos p WHERE p.CLIENTE_ID = c.ID), 0) t FROM clientes c)) GROUP BY f ORDER BY f
    # -> Frequente|1|430.5, Ocasional|4|750.0, Sem pedidos|2|0
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Frequência"}, {"ref": "Clientes.Id", "agg": "count"}, {"ref": "Clientes.Total comprado", "agg": "sum"}], "orderBy": [{"ref": "Clientes.Frequência", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Frequente", 1, 430.5], ["Ocasional", 4, 750], ["Sem pedidos", 2, 0]]'
    When I call "search_values" with '{"appId": "$app:pedidos", "ref": "Clientes.Frequência"}'
    Then the call succeeds
    And "values" is '["Frequente", "Ocasional", "Sem pedidos"]'
    When I call "search_values" with '{"appId": "$app:pedidos", "ref": "Clientes.Último pedido"}'
    Then "values" is '[null, "2026-09-07", "2026-09-10", "2026-09-12", "2026-09-15", "2026-09-20"]'

  @L-A03 @own-setup
  Scenario: get_app shows a column computed from related rows with its formula in words
    When I call "get_app" with '{"appId": "$app:pedidos"}'
    Then the call succeeds
    And the text contains "- Clientes.Pedidos feitos: número, dimensão, calculada: contagem de Pedidos.Id"
    And the text contains "- Clientes.Pedidos ativos: número, dimensão, calculada: contagem de Pedidos.Id onde Situação = \"Ativa\""
    And the text contains "- Peças.Menor custo: número, dimensão, BRL, calculada: mínimo de PeçaFornecedor.Custo"

  @own-setup
  Scenario Outline: An aggregation of related rows that does not fit is refused at import, with file, line, field, position and the fix
    When I import the workspace in "testdata/membership" with "apps/pedidos/app.yaml" holding:
      """
      name: Pedidos de peças
      tables:
        - label: Pedidos
          name: pedidos
          kind: fact
          file: pedidos.csv
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: CLIENTE_ID, label: Cliente, type: number, role: key}
            - {name: DATA, label: Data, type: date}
            - {name: SITUACAO, label: Situação, type: string}
            - {name: TIPO, label: Tipo, type: string}
            - {name: PRIORIDADE, label: Prioridade, type: string}
            - {name: VALOR, label: Valor, type: number, role: measure, unit: BRL}
        - label: Clientes
          name: clientes
          kind: dimension
          file: clientes.csv
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: NOME, label: Cliente, type: string}
            - {name: SEGMENTO, label: Segmento, type: string}
            - {name: NACAO_ID, label: Nação, type: number, role: key}
            - <column>
      relationships:
        - {from: Pedidos.Cliente, to: Clientes.Id}
      """
    Then the import fails with:
      """
      <error>
      """

    Examples:
      | column | error |
      | {name: X, label: Soma, type: number, formula: "sum([Soma])"} | apps/pedidos/app.yaml:24: tables[1].columns[4].formula: a fórmula da coluna calculada Clientes.Soma não pôde ser usada: posição 1: as colunas calculadas formam um ciclo (Soma → Soma): uma delas precisa ser calculada sem depender das outras |
      | {name: X, label: DDD, type: string, formula: "esquerda([Id]; 2)"} | apps/pedidos/app.yaml:24: tables[1].columns[4].formula: a fórmula da coluna calculada Clientes.DDD não pôde ser usada: posição 1: esquerda vale para texto, e [Id] é número; para os dígitos de um código, carregue a coluna como texto (type: string) |
      | {name: X, label: DDD, type: string, formula: "esquerda([Cliente]; 0)"} | apps/pedidos/app.yaml:24: tables[1].columns[4].formula: a fórmula da coluna calculada Clientes.DDD não pôde ser usada: posição 21: esperava quantos caracteres: um número inteiro de 1 a 1000, mas encontrou "0" |
      | {name: X, label: DDD, type: number, formula: 'se(esquerda([Cliente]; 2) como "a%"; 1; 0)'} | apps/pedidos/app.yaml:24: tables[1].columns[4].formula: a fórmula da coluna calculada Clientes.DDD não pôde ser usada: posição 27: como procura sem caixa nem acento só em textos fixos e colunas de texto, e este texto vem de esquerda ou direita; compare-o com = ou em, ou use como na coluna inteira ([Telefone] como "13%") |
      | {name: X, label: Situações, type: number, formula: "sum([Pedidos.Situação])"} | apps/pedidos/app.yaml:24: tables[1].columns[4].formula: a fórmula da coluna calculada Clientes.Situações não pôde ser usada: posição 1: sum vale só para coluna numérica, e Pedidos.Situação é texto; use count ou count_distinct |
      | {name: X, label: Último, type: number, formula: "max([Pedidos.Data])"} | apps/pedidos/app.yaml:24: tables[1].columns[4].formula: a fórmula da coluna calculada Clientes.Último não pôde ser usada: posição 1: a fórmula dá data, mas type diz número; troque type para date |
      | {name: X, label: Pedidos, type: number, formula: "count([Pedido.Id])"} | apps/pedidos/app.yaml:24: tables[1].columns[4].formula: a fórmula da coluna calculada Clientes.Pedidos não pôde ser usada: posição 1: em count([Pedido.Id]), a ref não é uma coluna: escreva Tabela.Coluna de uma tabela cujas linhas apontam para Clientes pelos relacionamentos, como count([Pedidos.Id]); apontam para Clientes: Pedidos; refs parecidas: Pedidos.Id |
      | {name: X, label: Ativos, type: number, formula: 'count([Pedidos.Id]) onde [Situacao] = 1'} | apps/pedidos/app.yaml:24: tables[1].columns[4].formula: a fórmula da coluna calculada Clientes.Ativos não pôde ser usada: posição 37: = compara valores do mesmo tipo, e [Situacao] é texto enquanto 1 é número |
