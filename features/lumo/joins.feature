Feature: Relationships on several columns, and one table under two roles
  A relationship may join on several column pairs: order items reach the cost of each part at
  each supplier by part and supplier together. A table reached by two paths is refused at import,
  naming both; the app declares role-playing copies instead (the nations table as the customer's
  nation and as the supplier's), each with its own relationship, over the same data.

  features/testdata/joins holds the star schema; the expected numbers come from the sqlite3 CLI
  over the same CSVs (features/testdata/joins/oracle.sql), with the SQL beside each scenario:
    sqlite3 :memory: -cmd '.read features/testdata/joins/oracle.sql' "<SQL>"

  Background:
    Given the workspace in "testdata/joins" is imported
    And I am connected as "jonas"

  @L-Q23 @own-setup
  Scenario: A composite relationship joins on part and supplier together
    # SELECT f.NOME, SUM(ps.CUSTO), SUM(i.QTD) FROM itens i LEFT JOIN fornecedores f ON f.ID = i.FORNECEDOR_ID
    #   LEFT JOIN pecafornecedor ps ON ps.PECA_ID = i.PECA_ID AND ps.FORNECEDOR_ID = i.FORNECEDOR_ID
    #   GROUP BY f.NOME ORDER BY f.NOME
    # -> Forja Sul|17.5|21.0, Metal Norte|21.0|10.0, Tóquio Peças|22.5|20.0 (joined on the part
    #    alone, the unit costs would sum to 122.5 instead of 61)
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Fornecedores.Fornecedor"}, {"ref": "PeçaFornecedor.Custo unitário", "agg": "sum"}, {"ref": "Itens.Quantidade", "agg": "sum"}], "orderBy": [{"ref": "Fornecedores.Fornecedor", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Forja Sul", 17.5, 21], ["Metal Norte", 21, 10], ["Tóquio Peças", 22.5, 20]]'

  @L-Q23 @own-setup
  Scenario: Grouping by a column of the composite-keyed table, with the item that has no match
    # SELECT ps.ESTOQUE, SUM(i.VALOR), COUNT(i.ID) FROM itens i LEFT JOIN pecafornecedor ps
    #   ON ps.PECA_ID = i.PECA_ID AND ps.FORNECEDOR_ID = i.FORNECEDOR_ID GROUP BY ps.ESTOQUE ORDER BY ps.ESTOQUE
    # -> |9.9|1, 30.0|15.0|1, 40.0|61.0|2, 50.0|94.5|2, 80.0|82.5|2, 100.0|61.0|2, 200.0|70.0|2
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "PeçaFornecedor.Estoque"}, {"ref": "Itens.Valor", "agg": "sum"}, {"ref": "Itens.Id", "agg": "count"}], "orderBy": [{"ref": "PeçaFornecedor.Estoque", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[[30, 15, 1], [40, 61, 2], [50, 94.5, 2], [80, 82.5, 2], [100, 61, 2], [200, 70, 2], [null, 9.9, 1]]'
    # SELECT COUNT(*) FROM itens i LEFT JOIN pecafornecedor ps ON ps.PECA_ID = i.PECA_ID
    #   AND ps.FORNECEDOR_ID = i.FORNECEDOR_ID WHERE ps.ESTOQUE IS NULL -> 1
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Itens.Id", "agg": "count"}], "filters": [{"ref": "PeçaFornecedor.Estoque", "op": "=", "value": ""}]}'
    Then "rows" is '[[1]]'

  @L-A01 @own-setup
  Scenario: get_app lists a composite relationship's columns, pair by pair
    When I call "get_app" with '{"appId": "$app:pedidos"}'
    Then the call succeeds
    And "relationships" includes:
      """
      [{"from": ["Itens.Peça", "Itens.Fornecedor"], "to": ["PeçaFornecedor.Peça", "PeçaFornecedor.Fornecedor"]}]
      """
    And the text contains "- (Itens.Peça, Itens.Fornecedor) → (PeçaFornecedor.Peça, PeçaFornecedor.Fornecedor)"

  @own-setup
  Scenario Outline: A composite relationship that does not pair up is refused at import, with file, line and field
    When I import the workspace in "testdata/joins" with "apps/pedidos/app.yaml" holding:
      """
      name: Pedidos
      tables:
        - label: Itens
          name: itens
          kind: fact
          columns:
            - {name: PECA_ID, label: Peça, type: number, role: key}
            - {name: FORNECEDOR_ID, label: Fornecedor, type: string, role: key}
        - label: PeçaFornecedor
          name: pecafornecedor
          kind: dimension
          columns:
            - {name: PECA_ID, label: Peça, type: number, role: key}
            - {name: FORNECEDOR_ID, label: Fornecedor, type: number, role: key}
        - label: Outra
          name: outra
          kind: dimension
          columns:
            - {name: ID, label: Id, type: number, role: key}
      relationships:
        - <relationship>
      """
    Then the import fails with:
      """
      <error>
      """

    Examples:
      | relationship                                                                          | error |
      | {from: [Itens.Peça, Itens.Fornecedor], to: [PeçaFornecedor.Peça]}                     | apps/pedidos/app.yaml:21: relationships[0]: from tem 2 colunas e to tem 1; liste em to uma coluna para cada coluna de from, na mesma ordem |
      | {from: [Itens.Peça, Itens.Fornecedor], to: [PeçaFornecedor.Peça, Outra.Id]}           | apps/pedidos/app.yaml:21: relationships[0].to[1]: Outra.Id é da tabela Outra, mas PeçaFornecedor.Peça é da tabela PeçaFornecedor; as colunas de to precisam ser todas da mesma tabela |
      | {from: [Itens.Peça, Itens.Fornecedor], to: [PeçaFornecedor.Peça, PeçaFornecedor.Fornecedor]} | apps/pedidos/app.yaml:21: relationships[0].to[1]: o par 2 liga Itens.Fornecedor (texto) a PeçaFornecedor.Fornecedor (número), de tipos diferentes; relacione colunas do mesmo tipo |
      | {from: [Itens.Peça, Itens.Peça], to: [PeçaFornecedor.Peça, PeçaFornecedor.Fornecedor]} | apps/pedidos/app.yaml:21: relationships[0].from[1]: a coluna Itens.Peça aparece duas vezes em from; cada coluna entra uma vez na chave |
      | {from: [Itens.Peça, Itens.Fornecdor], to: [PeçaFornecedor.Peça, PeçaFornecedor.Fornecedor]} | apps/pedidos/app.yaml:21: relationships[0].from[1]: a coluna "Itens.Fornecdor" não existe; refs parecidas: Itens.Fornecedor |
