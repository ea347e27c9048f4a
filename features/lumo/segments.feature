Feature: Segments, named membership filters
  app.yaml may declare segments (Cube's segments): the rows of a table that some row of another
  table reaches through the relationships (with: a semi-join), or that none reaches (without: an
  anti-join), counting only the related rows that meet a condition (where, in the formula
  language). A query names one in filters as {"segment": "<label>"}, beside any other filter; it
  compiles into the same statement as EXISTS or NOT EXISTS, and rollups decline it (the answer
  is the same with LUMO_ROLLUPS=off). get_app lists the segments and search_catalog finds them.
  A segment that does not fit the model is refused at import with file, line, field and the fix.

  features/testdata/membership holds the app; the expected answers come from the sqlite3 CLI over
  the same CSVs (features/testdata/membership/oracle.sql), with hand-written EXISTS / NOT EXISTS
  beside each scenario:
    sqlite3 :memory: -cmd '.read features/testdata/membership/oracle.sql' "<SQL>"

  Background:
    Given the workspace in "testdata/membership" is imported
    And I am connected as "paula"

  @L-Q01 @L-Q23 @L-R07 @own-setup
  Scenario: An anti-join: the customers without orders
    # SELECT NOME FROM clientes c WHERE NOT EXISTS (SELECT 1 FROM pedidos p WHERE p.CLIENTE_ID = c.ID) ORDER BY NOME
    # -> Elisa, Gabi
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Cliente"}], "filters": [{"segment": "Clientes sem pedidos"}], "orderBy": [{"ref": "Clientes.Cliente", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Elisa"], ["Gabi"]]'
    And "filtersApplied" is '["segmento Clientes sem pedidos"]'
    And the text contains "Filtros: segmento Clientes sem pedidos."

  @L-Q01 @L-Q02 @own-setup
  Scenario: A semi-join whose related rows meet a condition, counted by a column of the table
    # SELECT SEGMENTO, COUNT(ID) FROM clientes c WHERE EXISTS (SELECT 1 FROM pedidos p WHERE p.CLIENTE_ID = c.ID
    #   AND p.SITUACAO = 'Cancelada') GROUP BY SEGMENTO -> Varejo|2
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Segmento"}, {"ref": "Clientes.Id", "agg": "count"}], "filters": [{"segment": "clientes COM pedido cancelado"}]}'
    Then the call succeeds
    And "rows" is '[["Varejo", 2]]'

  @L-Q01 @L-Q23 @own-setup
  Scenario: A segment of a dimension filters the fact, with another filter, two relationships away and with como
    # "Clientes que compraram parafusos": with Itens (Itens → Pedidos → Clientes), where [Peças.Tipo] como "%parafuso%".
    # SELECT c.NOME, SUM(p.VALOR), COUNT(p.ID) FROM pedidos p LEFT JOIN clientes c ON c.ID = p.CLIENTE_ID
    #   WHERE EXISTS (SELECT 1 FROM itens i JOIN pedidos p2 ON p2.ID = i.PEDIDO_ID JOIN pecas pc ON pc.ID = i.PECA_ID
    #   WHERE p2.CLIENTE_ID = c.ID AND pc.TIPO <> '' AND pc.TIPO_F LIKE '%parafuso%') AND p.SITUACAO = 'Ativa'
    #   GROUP BY c.NOME ORDER BY c.NOME
    # -> Ana|350.5|2, Bruno|100.0|2, Carla|500.0|1
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Cliente"}, {"ref": "Pedidos.Valor", "agg": "sum"}, {"ref": "Pedidos.Id", "agg": "count"}], "filters": [{"segment": "Clientes que compraram parafusos"}, {"ref": "Pedidos.Situação", "op": "=", "value": "Ativa"}], "orderBy": [{"ref": "Clientes.Cliente", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Ana", 350.5, 2], ["Bruno", 100, 2], ["Carla", 500, 1]]'
    And "summary" is '{"<col:pedidos:pedidos:VALOR>_SUM": 950.5, "<col:pedidos:pedidos:ID>_CNT": 5}'
    And "filtersApplied" is '["segmento Clientes que compraram parafusos", "Situação = Ativa"]'

  @L-Q01 @L-Q23 @own-setup
  Scenario: An anti-join on a dimension joined to the fact keeps only rows that have that dimension's row
    # "Clientes sem pedido cancelado" over the orders: order 9's customer (9) is not in Clientes, so
    # it is in no segment of Clientes.
    # SELECT COUNT(p.ID), SUM(p.VALOR) FROM pedidos p LEFT JOIN clientes c ON c.ID = p.CLIENTE_ID WHERE c.ID IS NOT NULL
    #   AND NOT EXISTS (SELECT 1 FROM pedidos p2 WHERE p2.CLIENTE_ID = c.ID AND p2.SITUACAO = 'Cancelada') -> 4|220.0
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Pedidos.Id", "agg": "count"}, {"ref": "Pedidos.Valor", "agg": "sum"}], "filters": [{"segment": "Clientes sem pedido cancelado"}]}'
    Then the call succeeds
    And "rows" is '[[4, 220]]'

  @L-Q01 @L-Q23 @own-setup
  Scenario: A semi-join through a role-playing copy, and an anti-join on the items' suppliers
    # SELECT pc.NOME, SUM(i.VALOR), SUM(i.QTD) FROM itens i LEFT JOIN pecas pc ON pc.ID = i.PECA_ID WHERE EXISTS
    #   (SELECT 1 FROM pecafornecedor pf JOIN fornecedores f ON f.ID = pf.FORNECEDOR_ID JOIN nacoes n ON n.ID = f.NACAO_ID
    #   WHERE pf.PECA_ID = pc.ID AND n.NOME = 'Brasil') GROUP BY pc.NOME ORDER BY pc.NOME
    # -> Parafuso sextavado|440.0|29.0, Porca|175.0|23.0
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Peças.Peça"}, {"ref": "Itens.Valor", "agg": "sum"}, {"ref": "Itens.Quantidade", "agg": "sum"}], "filters": [{"segment": "Peças com fornecedor no Brasil"}], "orderBy": [{"ref": "Peças.Peça", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Parafuso sextavado", 440, 29], ["Porca", 175, 23]]'
    # SELECT NOME FROM fornecedores f WHERE NOT EXISTS (SELECT 1 FROM itens i WHERE i.FORNECEDOR_ID = f.ID) -> Sem Vendas Ltda
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Fornecedores.Fornecedor"}], "filters": [{"segment": "Fornecedores sem vendas"}]}'
    Then the call succeeds
    And "rows" is '[["Sem Vendas Ltda"]]'

  @L-Q11 @L-G03 @own-setup
  Scenario Outline: A segment the app does not declare, or written with other keys, says so
    When I call "query" with '<args>'
    Then the call fails with code "<code>"
    And the text contains "<message>"

    Examples:
      | args | code | message |
      | {"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Cliente"}], "filters": [{"segment": "Clientes sem pedido"}]} | UNKNOWN_REF | filters[0]: o segmento \"Clientes sem pedido\" não existe nesta Aplicação. Segmentos parecidos: \"Clientes sem pedidos\" |
      | {"appId": "$app:pedidos", "fields": [{"ref": "Clientes.Cliente"}], "filters": [{"segment": "Clientes sem pedidos", "op": "="}]} | INVALID_ARGUMENTS | filters[0].op: campo não aceito aqui; remova-o (os campos aceitos são: segment). |

  @L-A01 @own-setup
  Scenario: get_app lists the segments, each with its filter and in words
    When I call "get_app" with '{"appId": "$app:pedidos"}'
    Then the call succeeds
    And "segments[0]" is '{"label": "Clientes sem pedidos", "description": "Clientes que nunca fizeram um pedido.", "table": "Clientes", "without": "Pedidos", "meaning": "Clientes sem linhas em Pedidos", "filter": {"segment": "Clientes sem pedidos"}}'
    And "segments[4].where" is '"[Nação do fornecedor.Nação] = \"Brasil\""'
    And the text contains "Segmentos (entram em filters como {\"segment\": rótulo}):"
    And the text contains "- Clientes que compraram parafusos: Clientes com linhas em Itens onde Peças.Tipo como \"%parafuso%\". Clientes com ao menos um item de peça do tipo parafuso, em qualquer pedido."

  @L-C07 @own-setup
  Scenario: search_catalog finds segments by label and by description
    When I call "search_catalog" with '{"terms": ["parafuso"]}'
    Then the call succeeds
    And "matches" includes:
      """
      [{"kind": "segment", "name": "Clientes que compraram parafusos", "table": "Clientes", "description": "Clientes com ao menos um item de peça do tipo parafuso, em qualquer pedido.", "filter": {"segment": "Clientes que compraram parafusos"}, "meaning": "Clientes com linhas em Itens onde Peças.Tipo como \"%parafuso%\""}]
      """
    And the text contains "- Segmento Clientes que compraram parafusos em"
    When I call "search_catalog" with '{"terms": ["nunca fizeram"]}'
    Then "matches[*].name" is '["Clientes sem pedidos"]'

  @own-setup
  Scenario Outline: A segment that does not fit the model is refused at import, with file, line, field and the fix
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
      relationships:
        - {from: Pedidos.Cliente, to: Clientes.Id}
      segments:
        - {label: Clientes sem pedidos, table: Clientes, without: Pedidos}
        - <segment>
      """
    Then the import fails with:
      """
      <error>
      """

    Examples:
      | segment | error |
      | {label: Sem compra, table: Clientess, without: Pedidos} | apps/pedidos/app.yaml:28: segments[1].table: a tabela "Clientess" não está em tables; tabelas parecidas: Clientes |
      | {label: Sem compra, table: Clientes, without: Pedido} | apps/pedidos/app.yaml:28: segments[1].without: a tabela "Pedido" não está em tables; tabelas parecidas: Pedidos |
      | {label: Pedidos sem cliente, table: Pedidos, without: Clientes} | apps/pedidos/app.yaml:28: segments[1].without: o segmento "Pedidos sem cliente" não pôde ser usado: as linhas de Clientes não apontam para Pedidos pelos relacionamentos (muitos para um), então nenhuma linha de Pedidos tem linhas de Clientes relacionadas; nenhuma tabela aponta para Pedidos pelos relacionamentos |
      | {label: Clientes com clientes, table: Clientes, with: Clientes} | apps/pedidos/app.yaml:28: segments[1].with: o segmento "Clientes com clientes" não pôde ser usado: as linhas relacionadas vêm de outra tabela, cujas linhas apontam para Clientes pelos relacionamentos (muitos para um); apontam para Clientes: Pedidos |
      | {label: Ambos, table: Clientes, with: Pedidos, without: Pedidos} | apps/pedidos/app.yaml:28: segments[1].without: o segmento tem with e without; declare um só: with Pedidos guarda as linhas de Clientes que têm linhas em Pedidos, without as que não têm |
      | {label: Nenhum, table: Clientes} | apps/pedidos/app.yaml:28: segments[1]: o segmento precisa de with (as linhas de Clientes que têm linhas relacionadas em outra tabela, como with: Pedidos) ou without (as que não têm), com o rótulo dessa outra tabela |
      | {label: Cancelados, table: Clientes, with: Pedidos, where: '[Situacao] = 1'} | apps/pedidos/app.yaml:28: segments[1].where: a condição do segmento "Cancelados", sobre as linhas de Pedidos, não pôde ser usada: posição 12: = compara valores do mesmo tipo, e [Situacao] é texto enquanto 1 é número |
      | {label: Cancelados, table: Clientes, with: Pedidos, where: '[Situação] = "Cancelada" e'} | apps/pedidos/app.yaml:28: segments[1].where: a condição do segmento "Cancelados", sobre as linhas de Pedidos, não pôde ser usada: posição 27: esperava uma ref como [Preço], um número, um texto entre aspas, se(…) ou "(", mas encontrou o fim da fórmula |
      | {label: CLIENTES SEM PEDIDOS, table: Clientes, without: Pedidos} | apps/pedidos/app.yaml:28: segments[1].label: o rótulo "CLIENTES SEM PEDIDOS" já é usado por segments[0]; cada segmento precisa de um rótulo próprio |
