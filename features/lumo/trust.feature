Feature: Answers a user can trust: one blank, exact decimals, ties, checked negative filters, filters across one-to-many
  A text column's blank is NULL or the empty text, and it is one value everywhere: one group
  (null, shown "(em branco)"), and a formula's condition on it does not hold. A calculated column
  over exact decimals equals its exact decimal on every engine. Rows whose measured values are
  answered equal are ordered by the next keys. != and not in check their texts as = and in do.
  A filter on a table whose rows point to the measured table (the items of an order) keeps the
  measured rows that have some such row, each counted once.

  features/testdata/trust holds the app; the expected numbers come from the sqlite3 CLI over the
  same CSVs (features/testdata/trust/oracle.sql), in integer cents, with the SQL beside each
  scenario:
    sqlite3 :memory: -cmd '.read features/testdata/trust/oracle.sql' "<SQL>"

  Background:
    Given the workspace in "testdata/trust" is imported
    And I am connected as "rita"

  @L-Q20 @L-Q02 @own-setup
  Scenario: NULL and the empty text are one blank group
    # SELECT NULLIF(CLIENTE, '') c, SUM(VALOR_C) FROM cents GROUP BY c ORDER BY c IS NULL, c
    # -> Bar Central|30, Hotel Ipê|61789, Padaria|30, Zé|20000, ÉDSON|5005, |8000
    When I call "query" with '{"appId": "$app:loja", "fields": [{"ref": "Pedidos.Cliente"}, {"ref": "Pedidos.Valor", "agg": "sum"}], "orderBy": [{"ref": "Pedidos.Cliente", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Bar Central", 0.3], ["Hotel Ipê", 617.89], ["Padaria", 0.3], ["Zé", 200], ["ÉDSON", 50.05], [null, 80]]'
    And the text contains "| (em branco) | R$ 80,00 |"
    And the text does not contain "(vazio)"

  @L-Q20 @own-setup
  Scenario: A formula's condition on a blank text does not hold, for NULL and the empty text alike
    # Tipo = se([Cliente] não em ("Zé"; "ÉDSON"); "Comum"; "Especial"): the blank orders 5 (NULL), 6 and 7 ('') are Especial.
    # SELECT CASE WHEN NULLIF(CLIENTE, '') NOT IN ('Zé', 'ÉDSON') THEN 'Comum' ELSE 'Especial' END t, COUNT(*), SUM(VALOR_C)
    #   FROM cents GROUP BY t ORDER BY t -> Comum|6|61849, Especial|5|33005
    When I call "query" with '{"appId": "$app:loja", "fields": [{"ref": "Pedidos.Tipo"}, {"ref": "Pedidos.Pedido", "agg": "count"}, {"ref": "Pedidos.Valor", "agg": "sum"}], "orderBy": [{"ref": "Pedidos.Tipo", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Comum", 6, 618.49], ["Especial", 5, 330.05]]'

  @L-Q17 @L-Q12 @own-setup
  Scenario: A difference of decimals equals its exact decimal, on every engine
    # Margem = [Valor] - [Custo]; 517.79 - 350.27 is 167.51999999999998 in floating point.
    # SELECT COUNT(*), SUM(VALOR_C - CUSTO_C) FROM cents WHERE VALOR_C - CUSTO_C = 16752 -> 1|16752
    When I call "query" with '{"appId": "$app:loja", "fields": [{"ref": "Pedidos.Pedido", "agg": "count"}, {"ref": "Pedidos.Margem", "agg": "sum"}], "filters": [{"ref": "Pedidos.Margem", "op": "=", "value": 167.52}]}'
    Then the call succeeds
    And "rows" is '[[1, 167.52]]'
    # SELECT SUM(VALOR_C - CUSTO_C) FROM cents -> 27827
    When I call "query" with '{"appId": "$app:loja", "fields": [{"ref": "Pedidos.Margem", "agg": "sum"}]}'
    Then the call succeeds
    And "rows" is '[[278.27]]'

  @L-Q04 @L-Q06 @own-setup
  Scenario: Averages answered equal tie, and the next key orders them
    # Bar Central averages (0.10 + 0.20) / 2, Padaria (0.15 + 0.15) / 2: both 0.15, though
    # 0.1 + 0.2 is 0.30000000000000004 in floating point.
    # SELECT CLIENTE, SUM(VALOR_C) * 1.0 / COUNT(*) a FROM cents WHERE CLIENTE IN ('Bar Central', 'Padaria')
    #   GROUP BY CLIENTE ORDER BY a DESC, CLIENTE DESC -> Padaria|15.0, Bar Central|15.0
    When I call "query" with '{"appId": "$app:loja", "fields": [{"ref": "Pedidos.Cliente"}, {"ref": "Pedidos.Valor", "agg": "avg"}], "filters": [{"ref": "Pedidos.Cliente", "op": "in", "value": ["Bar Central", "Padaria"]}], "orderBy": [{"ref": "Pedidos.Valor", "agg": "avg", "dir": "desc"}, {"ref": "Pedidos.Cliente", "dir": "desc"}], "limit": 1}'
    Then the call succeeds
    And "rows" is '[["Padaria", 0.15]]'
    And "truncated" is 'true'

  @L-Q21 @L-Q22 @own-setup
  Scenario: != and not in check their values: a case or accent difference is corrected, a typo stops the query
    # SELECT COUNT(*) FROM pedidos WHERE CLIENTE IS NULL OR CLIENTE <> 'Hotel Ipê' -> 9 (blank rows kept)
    When I call "query" with '{"appId": "$app:loja", "fields": [{"ref": "Pedidos.Pedido", "agg": "count"}], "filters": [{"ref": "Pedidos.Cliente", "op": "!=", "value": "hotel ipe"}]}'
    Then the call succeeds
    And "rows" is '[[9]]'
    And "filtersApplied" is '["Cliente diferente de Hotel Ipê"]'
    And "notes" is '["Pedidos.Cliente: o valor \"hotel ipe\" foi lido como \"Hotel Ipê\" (diferença de caixa ou acento)."]'
    # SELECT COUNT(*) FROM pedidos WHERE CLIENTE IS NULL OR CLIENTE NOT IN ('Zé', 'ÉDSON') -> 9
    When I call "query" with '{"appId": "$app:loja", "fields": [{"ref": "Pedidos.Pedido", "agg": "count"}], "filters": [{"ref": "Pedidos.Cliente", "op": "not in", "value": ["zé", "edson"]}]}'
    Then the call succeeds
    And "rows" is '[[9]]'
    And "filtersApplied" is '["Cliente fora de Zé, ÉDSON"]'
    When I call "query" with '{"appId": "$app:loja", "fields": [{"ref": "Pedidos.Pedido", "agg": "count"}], "filters": [{"ref": "Pedidos.Cliente", "op": "!=", "value": "Hotel Ipx"}]}'
    Then the call fails with code "VALUE_NOT_FOUND"
    And the text contains "O valor \"Hotel Ipx\" não existe em Pedidos.Cliente, e a consulta não rodou. Valores parecidos: \"Hotel Ipê\"."

  @L-Q23 @L-Q17 @own-setup
  Scenario: A filter on the items of an order keeps the orders with some such item, each once
    # SELECT COUNT(*), SUM(VALOR_C) FROM cents WHERE ID IN (SELECT PEDIDO FROM itens WHERE CATEGORIA = 'Bebidas') -> 2|71779
    # (order 1 has two items of Bebidas and counts once)
    When I call "query" with '{"appId": "$app:loja", "fields": [{"ref": "Pedidos.Pedido", "agg": "count"}, {"ref": "Pedidos.Valor", "agg": "sum"}], "filters": [{"ref": "Itens.Categoria", "op": "=", "value": "Bebidas"}]}'
    Then the call succeeds
    And "rows" is '[[2, 717.79]]'
    And "filtersApplied" is '["Pedidos com alguma linha de Itens em que Categoria = Bebidas"]'
    And "notes" is '["O filtro em Itens.Categoria vale para cada linha de Pedidos que tem alguma linha de Itens em que Categoria = Bebidas; cada linha de Pedidos conta uma vez."]'
    # SELECT NULLIF(CLIENTE, '') c, COUNT(*), SUM(VALOR_C) FROM cents WHERE ID IN (SELECT PEDIDO FROM itens WHERE CATEGORIA <> 'Bebidas')
    #   GROUP BY c ORDER BY c IS NULL, c -> Hotel Ipê|2|61789, |2|7000
    When I call "query" with '{"appId": "$app:loja", "fields": [{"ref": "Pedidos.Cliente"}, {"ref": "Pedidos.Pedido", "agg": "count"}, {"ref": "Pedidos.Valor", "agg": "sum"}], "filters": [{"ref": "Itens.Categoria", "op": "!=", "value": "bebidas"}], "orderBy": [{"ref": "Pedidos.Cliente", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Hotel Ipê", 2, 617.89], [null, 2, 70]]'
    And "filtersApplied" is '["Pedidos com alguma linha de Itens em que Categoria diferente de Bebidas"]'
