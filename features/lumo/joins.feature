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

  @L-Q23 @own-setup
  Scenario: Two role-playing copies of one table answer for their own path, in the same query
    # SELECT nc.NOME, nf.NOME, SUM(i.VALOR), COUNT(i.ID) FROM itens i
    #   LEFT JOIN clientes c ON c.ID = i.CLIENTE_ID LEFT JOIN nacoes nc ON nc.ID = c.NACAO_ID
    #   LEFT JOIN fornecedores f ON f.ID = i.FORNECEDOR_ID LEFT JOIN nacoes nf ON nf.ID = f.NACAO_ID
    #   GROUP BY nc.NOME, nf.NOME ORDER BY nc.NOME, nf.NOME
    # -> Argentina|Japão|27.5|1, Argentina|Portugal|24.5|1, Brasil|Brasil|40.0|1, Brasil|Japão|116.0|3,
    #    Brasil|Portugal|70.0|1, Japão|Brasil|39.9|2, Portugal|Brasil|61.0|2, Portugal|Portugal|15.0|1
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Nação do cliente.Nação"}, {"ref": "Nação do fornecedor.Nação"}, {"ref": "Itens.Valor", "agg": "sum"}, {"ref": "Itens.Id", "agg": "count"}], "orderBy": [{"ref": "Nação do cliente.Nação", "dir": "asc"}, {"ref": "Nação do fornecedor.Nação", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is:
      """
      [["Argentina", "Japão", 27.5, 1], ["Argentina", "Portugal", 24.5, 1], ["Brasil", "Brasil", 40, 1], ["Brasil", "Japão", 116, 3],
       ["Brasil", "Portugal", 70, 1], ["Japão", "Brasil", 39.9, 2], ["Portugal", "Brasil", 61, 2], ["Portugal", "Portugal", 15, 1]]
      """

  @L-Q23 @own-setup
  Scenario Outline: Each copy alone follows its own relationship
    # <oracle SQL> -> <oracle rows>
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "<copy>.Nação"}, {"ref": "Itens.Valor", "agg": "sum"}], "orderBy": [{"ref": "<copy>.Nação", "dir": "asc"}]}'
    Then "rows" is '<rows>'

    Examples:
      | copy                | rows                                                                     | oracle SQL | oracle rows |
      | Nação do cliente    | [["Argentina", 52], ["Brasil", 226], ["Japão", 39.9], ["Portugal", 76]] | SELECT nc.NOME, SUM(i.VALOR) FROM itens i LEFT JOIN clientes c ON c.ID = i.CLIENTE_ID LEFT JOIN nacoes nc ON nc.ID = c.NACAO_ID GROUP BY nc.NOME ORDER BY nc.NOME | Argentina 52.0, Brasil 226.0, Japão 39.9, Portugal 76.0 |
      | Nação do fornecedor | [["Brasil", 140.9], ["Japão", 143.5], ["Portugal", 109.5]]              | SELECT nf.NOME, SUM(i.VALOR) FROM itens i LEFT JOIN fornecedores f ON f.ID = i.FORNECEDOR_ID LEFT JOIN nacoes nf ON nf.ID = f.NACAO_ID GROUP BY nf.NOME ORDER BY nf.NOME | Brasil 140.9, Japão 143.5, Portugal 109.5 |

  @L-Q23 @own-setup
  Scenario: A filter on one copy and a group on the other
    # SELECT nc.NOME, SUM(i.QTD) FROM itens i LEFT JOIN clientes c ON c.ID = i.CLIENTE_ID
    #   LEFT JOIN nacoes nc ON nc.ID = c.NACAO_ID LEFT JOIN fornecedores f ON f.ID = i.FORNECEDOR_ID
    #   LEFT JOIN nacoes nf ON nf.ID = f.NACAO_ID WHERE nf.REGIAO = 'Europa' GROUP BY nc.NOME ORDER BY nc.NOME
    # -> Argentina|2.0, Brasil|7.0, Portugal|1.0
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Nação do cliente.Nação"}, {"ref": "Itens.Quantidade", "agg": "sum"}], "filters": [{"ref": "Nação do fornecedor.Região de origem", "op": "=", "value": "europa"}], "orderBy": [{"ref": "Nação do cliente.Nação", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Argentina", 2], ["Brasil", 7], ["Portugal", 1]]'

  @L-A01 @L-A02 @own-setup
  Scenario: get_app shows each copy with the table it copies, its own labels and its relationship
    When I call "get_app" with '{"appId": "$app:pedidos"}'
    Then the call succeeds
    And "tables[*].label" is '["Itens", "Clientes", "Fornecedores", "PeçaFornecedor", "Nações", "Nação do cliente", "Nação do fornecedor"]'
    And "tables[*].copyOf" is '["Nações", "Nações"]'
    And "tables[5].name" is '"nacao_do_cliente"'
    And "tables[5].loadedAt" is '"2026-10-01T06:00:00-03:00"'
    And "tables[6].columns[*].ref" is '["Nação do fornecedor.Id", "Nação do fornecedor.Nação", "Nação do fornecedor.Região de origem"]'
    And "tables[6].columns[2].description" is '"Região da nação do fornecedor"'
    And "relationships" includes:
      """
      [{"from": "Clientes.Nação", "to": "Nação do cliente.Id"}, {"from": "Fornecedores.Nação", "to": "Nação do fornecedor.Id"}]
      """
    And the text contains "Tabela Nação do cliente (dimensão; cópia de Nações, com os mesmos dados; carregada em 01/10/2026 06:00)"

  @L-C02 @own-setup
  Scenario: A copy's columns are found under the copy's labels, and their values read the shared data
    When I call "search_catalog" with '{"terms": ["região de origem"], "appId": "$app:pedidos"}'
    Then "matches" is:
      """
      [{"kind": "column", "name": "Região de origem", "app": {"id": "$app:pedidos", "name": "Pedidos"}, "table": "Nação do fornecedor",
        "ref": "Nação do fornecedor.Região de origem", "field": {"ref": "Nação do fornecedor.Região de origem"}, "type": "string",
        "unit": null, "description": "Região da nação do fornecedor"}]
      """
    When I call "search_values" with '{"appId": "$app:pedidos", "ref": "Nação do cliente.Região"}'
    Then the call succeeds
    And "ref" is '"Nação do cliente.Região"'
    And "values" is '["América", "Ásia", "Europa"]'

  @own-setup
  Scenario Outline: A table reached by two paths is refused at import, naming both, whatever the order
    When I import the workspace in "testdata/joins" with "apps/pedidos/app.yaml" holding:
      """
      name: Pedidos
      tables:
        - label: Itens
          name: itens
          kind: fact
          columns:
            - {name: CLIENTE_ID, label: Cliente, type: number, role: key}
            - {name: FORNECEDOR_ID, label: Fornecedor, type: number, role: key}
        - label: Clientes
          name: clientes
          kind: dimension
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: NACAO_ID, label: Nação, type: number, role: key}
        - label: Fornecedores
          name: fornecedores
          kind: dimension
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: NACAO_ID, label: Nação, type: number, role: key}
        - label: Nações
          name: nacoes
          kind: dimension
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: NOME, label: Nação, type: string}
      relationships:
        - {from: Itens.Cliente, to: Clientes.Id}
        - {from: Itens.Fornecedor, to: Fornecedores.Id}
        - <third>
        - <fourth>
      """
    Then the import fails with:
      """
      apps/pedidos/app.yaml:<line>: relationships[<second>]: a tabela Nações é alcançada a partir de Itens por dois caminhos: Itens → Clientes → Nações (relationships[0]: Itens.Cliente = Clientes.Id; relationships[<clientes>]: Clientes.Nação = Nações.Id) e Itens → Fornecedores → Nações (relationships[1]: Itens.Fornecedor = Fornecedores.Id; relationships[<fornecedores>]: Fornecedores.Nação = Nações.Id); uma consulta não teria como escolher. Declare uma cópia de Nações para cada caminho (em tables, {label: "Nações (Fornecedores)", copyOf: Nações}) e ligue cada relacionamento à sua cópia
      """

    # The walk from Itens reaches Clientes first (relationships[0]), so Clientes' path to Nações is
    # the first one found in either order, and the error sits on the relationship that opens the
    # second path.
    Examples:
      | third                                     | fourth                                    | line | second | clientes | fornecedores |
      | {from: Clientes.Nação, to: Nações.Id}     | {from: Fornecedores.Nação, to: Nações.Id} | 31   | 3      | 2        | 3            |
      | {from: Fornecedores.Nação, to: Nações.Id} | {from: Clientes.Nação, to: Nações.Id}     | 30   | 2      | 3        | 2            |

  @own-setup
  Scenario Outline: A copy must name a table with data of the same app
    When I import the workspace in "testdata/joins" with "apps/pedidos/app.yaml" holding:
      """
      name: Pedidos
      tables:
        - label: Nações
          name: nacoes
          kind: dimension
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: NOME, label: Nação, type: string}
        - {label: Nação do cliente, copyOf: Nações}
        - <copy>
      """
    Then the import fails with:
      """
      <error>
      """

    Examples:
      | copy                                                           | error |
      | {label: Nação do fornecedor, copyOf: Nacoes do mundo}          | apps/pedidos/app.yaml:10: tables[2].copyOf: a tabela "Nacoes do mundo" não existe; copyOf leva o rótulo de uma tabela com dados: Nações |
      | {label: Nação do fornecedor, copyOf: Nação do cliente}         | apps/pedidos/app.yaml:10: tables[2].copyOf: "Nação do cliente" já é uma cópia; copie a tabela com dados que ela copia |
      | {label: Nação do fornecedor, copyOf: Nações, columns: [{name: PAIS, label: País}]} | apps/pedidos/app.yaml:10: tables[2].columns[0].name: a tabela Nações não tem a coluna "PAIS"; use o nome físico de uma coluna dela (ID, NOME) ou, para uma coluna calculada própria da cópia, informe label, type e formula |
      | {label: Nação do Cliente!, copyOf: Nações}                     | apps/pedidos/app.yaml:10: tables[2].label: o nome físico "nacao_do_cliente" já é usado por tables[1]; cada tabela precisa de um nome próprio; dê à cópia um name próprio |
      | {label: Nação do fornecedor, copyOf: Nações, file: nacoes.csv} | apps/pedidos/app.yaml:10: tables[2].file: campo não aceito aqui; remova-o (os campos aceitos são: columns, copyOf, label, name). |

  # A copy of the suppliers reached from the part-supplier costs (the original is reached from the
  # items): the original's calculated Região reads Nações, which only the original reaches, so the
  # copy leaves it out, and the copy declares its own cheapest cost, an aggregation of the
  # part-supplier rows pointing to it, and its stock offered. By hand, from pecafornecedor.csv: Forja
  # Sul (1) offers parts 10 and 11 at 5.50 and 3.25, so 3.25, with 100 + 200 = 300 in stock; Metal
  # Norte (2) 6.00 and 9.00, so 6 (50 + 30 = 80); Tóquio Peças (3) 2.75 and 8.50, so 2.75 (80 + 40 =
  # 120). Items joined by part and supplier (itens.csv; item 11, part 13, has no offer):
  # Forja Sul items 1, 6, 8, 12 (4 + 6 + 2 + 8 = 20); Tóquio Peças items 2, 5, 7, 10 (10 + 3 + 5 + 2
  # = 20); Metal Norte items 3, 4, 9 (2 + 1 + 7 = 10), filtered out by cost < 5.
  @own-setup
  Scenario: A copy leaves out an inherited calculated column it cannot resolve, says so at import, and answers its own
    When I import the workspace in "testdata/joins" with "apps/pedidos/app.yaml" holding:
      """
      name: Pedidos
      tables:
        - label: Itens
          name: itens
          kind: fact
          file: itens.csv
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: CLIENTE_ID, label: Cliente, type: number, role: key}
            - {name: PECA_ID, label: Peça, type: number, role: key}
            - {name: FORNECEDOR_ID, label: Fornecedor, type: number, role: key}
            - {name: QTD, label: Quantidade, type: number, role: measure}
            - {name: VALOR, label: Valor, type: number, role: measure, unit: BRL}
        - label: Fornecedores
          name: fornecedores
          kind: dimension
          file: fornecedores.csv
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: NOME, label: Fornecedor, type: string}
            - {name: NACAO_ID, label: Nação, type: number, role: key}
            - {name: REGIAO, label: Região, type: string, formula: "[Nações.Região]"}
        - label: PeçaFornecedor
          name: pecafornecedor
          kind: dimension
          file: pecafornecedor.csv
          columns:
            - {name: PECA_ID, label: Peça, type: number, role: key}
            - {name: FORNECEDOR_ID, label: Fornecedor, type: number, role: key}
            - {name: CUSTO, label: Custo unitário, type: number, role: measure, unit: BRL}
            - {name: ESTOQUE, label: Estoque, type: number}
        - label: Nações
          name: nacoes
          kind: dimension
          file: nacoes.csv
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: NOME, label: Nação, type: string}
            - {name: REGIAO, label: Região, type: string}
        - label: Fornecedor da oferta
          copyOf: Fornecedores
          columns:
            - {name: CUSTO_MIN, label: Custo mínimo, type: number, unit: BRL, formula: "min([PeçaFornecedor.Custo unitário])"}
            - {name: ESTOQUE_OFERTADO, label: Estoque ofertado, type: number, formula: "sum([PeçaFornecedor.Estoque])"}
      relationships:
        - {from: Itens.Fornecedor, to: Fornecedores.Id}
        - {from: [Itens.Peça, Itens.Fornecedor], to: [PeçaFornecedor.Peça, PeçaFornecedor.Fornecedor]}
        - {from: PeçaFornecedor.Fornecedor, to: Fornecedor da oferta.Id}
        - {from: Fornecedores.Nação, to: Nações.Id}
      """
    Then the import succeeds, saying:
      """
      apps/pedidos/app.yaml:40: tables[4]: a cópia Fornecedor da oferta deixa de fora a coluna calculada Região de Fornecedores: a fórmula dela não se resolve a partir de Fornecedor da oferta (posição 1: [Nações.Região] é da tabela Nações, que Fornecedor da oferta não alcança pelos relacionamentos (muitos para um); use colunas de Fornecedor da oferta ou de uma tabela ligada a ela); para tê-la na cópia, declare em columns da cópia {name: REGIAO, formula: ...} com uma fórmula que se resolva a partir de Fornecedor da oferta
      """
    When I call "get_app" with '{"appId": "$app:pedidos"}'
    Then "tables[1].columns[*].ref" is '["Fornecedores.Id", "Fornecedores.Fornecedor", "Fornecedores.Nação", "Fornecedores.Região"]'
    And "tables[4].columns[*].ref" is '["Fornecedor da oferta.Id", "Fornecedor da oferta.Fornecedor", "Fornecedor da oferta.Nação", "Fornecedor da oferta.Custo mínimo", "Fornecedor da oferta.Estoque ofertado"]'
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Fornecedor da oferta.Fornecedor"}, {"ref": "Fornecedor da oferta.Custo mínimo"}, {"ref": "Fornecedor da oferta.Estoque ofertado"}, {"ref": "Itens.Quantidade", "agg": "sum"}], "filters": [{"ref": "Fornecedor da oferta.Custo mínimo", "op": "<", "value": 5}], "orderBy": [{"ref": "Fornecedor da oferta.Fornecedor", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Forja Sul", 3.25, 300, 20], ["Tóquio Peças", 2.75, 120, 20]]'
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Fornecedor da oferta.Região"}, {"ref": "Itens.Quantidade", "agg": "sum"}]}'
    Then the call fails with code "UNKNOWN_REF"
    And the text contains "A ref \"Fornecedor da oferta.Região\" não existe nesta Aplicação: a coluna calculada \"Região\" de Fornecedores ficou fora da cópia Fornecedor da oferta, porque a fórmula dela não se resolve a partir de Fornecedor da oferta (a importação avisou). Use-a pela tabela original, ou declare-a em columns da cópia no app.yaml, com uma fórmula que se resolva a partir de Fornecedor da oferta. Refs parecidas: Fornecedores.Região"

  # The copy resolves the inherited Região from its own place by a formula of its own, under the
  # same name. By hand: Fornecedor da oferta of nation 4 is Tóquio Peças (fornecedores.csv), so its
  # items 2, 5, 7, 10 (10 + 3 + 5 + 2 = 20) are Ásia; Forja Sul (1) and Metal Norte (3) are Outra
  # (20 + 10 = 30), and so is item 11, which has no offer: its Nação is blank, so the condition
  # does not hold (30 + 1 = 31). The original keeps its own Região, read from Nações through the
  # item's supplier: Forja Sul (Brasil, América) items 1, 6, 8, 11, 12 (4 + 6 + 2 + 1 + 8 = 21),
  # Tóquio Peças (Japão, Ásia) 20, Metal Norte (Portugal, Europa) items 3, 4, 9 (10).
  @own-setup
  Scenario: A copy gives an inherited calculated column a formula of its own
    When I import the workspace in "testdata/joins" with "apps/pedidos/app.yaml" holding:
      """
      name: Pedidos
      tables:
        - label: Itens
          name: itens
          kind: fact
          file: itens.csv
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: CLIENTE_ID, label: Cliente, type: number, role: key}
            - {name: PECA_ID, label: Peça, type: number, role: key}
            - {name: FORNECEDOR_ID, label: Fornecedor, type: number, role: key}
            - {name: QTD, label: Quantidade, type: number, role: measure}
            - {name: VALOR, label: Valor, type: number, role: measure, unit: BRL}
        - label: Fornecedores
          name: fornecedores
          kind: dimension
          file: fornecedores.csv
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: NOME, label: Fornecedor, type: string}
            - {name: NACAO_ID, label: Nação, type: number, role: key}
            - {name: REGIAO, label: Região, type: string, formula: "[Nações.Região]"}
        - label: PeçaFornecedor
          name: pecafornecedor
          kind: dimension
          file: pecafornecedor.csv
          columns:
            - {name: PECA_ID, label: Peça, type: number, role: key}
            - {name: FORNECEDOR_ID, label: Fornecedor, type: number, role: key}
            - {name: CUSTO, label: Custo unitário, type: number, role: measure, unit: BRL}
            - {name: ESTOQUE, label: Estoque, type: number}
        - label: Nações
          name: nacoes
          kind: dimension
          file: nacoes.csv
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: NOME, label: Nação, type: string}
            - {name: REGIAO, label: Região, type: string}
        - label: Fornecedor da oferta
          copyOf: Fornecedores
          columns:
            - {name: REGIAO, label: Região da oferta, formula: 'se([Nação] = 4; "Ásia"; "Outra")'}
      relationships:
        - {from: Itens.Fornecedor, to: Fornecedores.Id}
        - {from: [Itens.Peça, Itens.Fornecedor], to: [PeçaFornecedor.Peça, PeçaFornecedor.Fornecedor]}
        - {from: PeçaFornecedor.Fornecedor, to: Fornecedor da oferta.Id}
        - {from: Fornecedores.Nação, to: Nações.Id}
      """
    Then the import succeeds, leaving nothing out
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Fornecedor da oferta.Região da oferta"}, {"ref": "Itens.Quantidade", "agg": "sum"}], "orderBy": [{"ref": "Itens.Quantidade", "agg": "sum", "dir": "desc"}]}'
    Then the call succeeds
    And "rows" is '[["Outra", 31], ["Ásia", 20]]'
    When I call "query" with '{"appId": "$app:pedidos", "fields": [{"ref": "Fornecedores.Região"}, {"ref": "Itens.Quantidade", "agg": "sum"}], "orderBy": [{"ref": "Itens.Quantidade", "agg": "sum", "dir": "desc"}]}'
    Then the call succeeds
    And "rows" is '[["América", 21], ["Ásia", 20], ["Europa", 10]]'

  @own-setup
  Scenario Outline: A copy's own calculated column that does not fit is refused at import, with file, line and the fix
    When I import the workspace in "testdata/joins" with "apps/pedidos/app.yaml" holding:
      """
      name: Pedidos
      tables:
        - label: Fornecedores
          name: fornecedores
          kind: dimension
          file: fornecedores.csv
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: NOME, label: Fornecedor, type: string}
            - {name: NACAO_ID, label: Nação, type: number, role: key}
            - {name: REGIAO, label: Região, type: string, formula: "[Nações.Região]"}
        - label: PeçaFornecedor
          name: pecafornecedor
          kind: dimension
          file: pecafornecedor.csv
          columns:
            - {name: PECA_ID, label: Peça, type: number, role: key}
            - {name: FORNECEDOR_ID, label: Fornecedor, type: number, role: key}
            - {name: CUSTO, label: Custo unitário, type: number, role: measure, unit: BRL}
            - {name: ESTOQUE, label: Estoque, type: number}
        - label: Nações
          name: nacoes
          kind: dimension
          file: nacoes.csv
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: NOME, label: Nação, type: string}
            - {name: REGIAO, label: Região, type: string}
        - label: Fornecedor da oferta
          copyOf: Fornecedores
          columns:
            - <column>
      relationships:
        - {from: PeçaFornecedor.Fornecedor, to: Fornecedor da oferta.Id}
        - {from: Fornecedores.Nação, to: Nações.Id}
      """
    Then the import fails with:
      """
      <error>
      """

    Examples:
      | column | error |
      | {name: CUSTO_MIN, label: Custo mínimo, type: number, formula: "min([PeçaFornecedor.Custo])"} | apps/pedidos/app.yaml:32: tables[3].columns[0].formula: a fórmula da coluna calculada Fornecedor da oferta.Custo mínimo não pôde ser usada: posição 1: em min([PeçaFornecedor.Custo]), a ref não é uma coluna: escreva Tabela.Coluna de uma tabela cujas linhas apontam para Fornecedor da oferta pelos relacionamentos, como count([PeçaFornecedor.Peça]); apontam para Fornecedor da oferta: PeçaFornecedor; refs parecidas: PeçaFornecedor.Custo unitário |
      | {name: CUSTO_MIN, label: Custo mínimo, type: string, formula: "min([PeçaFornecedor.Custo unitário])"} | apps/pedidos/app.yaml:32: tables[3].columns[0].formula: a fórmula da coluna calculada Fornecedor da oferta.Custo mínimo não pôde ser usada: posição 1: a fórmula dá número, mas type diz texto; troque type para number |
      | {name: CUSTO_MIN, label: Custo mínimo, formula: "min([PeçaFornecedor.Custo unitário])"}              | apps/pedidos/app.yaml:32: tables[3].columns[0]: a coluna calculada CUSTO_MIN é própria da cópia (Fornecedores não tem essa coluna) e precisa de label e type; informe type, como {name: CUSTO_MIN, label: Custo mínimo, type: number, formula: "min([PeçaFornecedor.Custo unitário])"} |
      | {name: NOME, label: Nome, type: string, formula: "[Nação]"} | apps/pedidos/app.yaml:32: tables[3].columns[0].formula: NOME é uma coluna com dados de Fornecedores, que a cópia lê como estão; para uma coluna calculada própria da cópia, dê a ela um name que Fornecedores não use |
      | {name: NOME, type: number} | apps/pedidos/app.yaml:32: tables[3].columns[0].type: a coluna NOME vem de Fornecedores como está, e numa cópia type só se declara com formula (uma coluna calculada da cópia); remova type |
      | {name: ORIGEM, label: Origem, type: string, formula: "[Região]"} | apps/pedidos/app.yaml:32: tables[3].columns[0].formula: a fórmula da coluna calculada Fornecedor da oferta.Origem não pôde ser usada: posição 1: a coluna calculada [Região] vem de Fornecedores, mas fica fora da cópia Fornecedor da oferta: a fórmula dela não se resolve a partir de Fornecedor da oferta (posição 1: [Nações.Região] é da tabela Nações, que Fornecedor da oferta não alcança pelos relacionamentos (muitos para um); use colunas de Fornecedor da oferta ou de uma tabela ligada a ela); declare-a em columns da cópia, com o name REGIAO e uma fórmula que se resolva a partir de Fornecedor da oferta |
      | {name: ORIGEM, label: Origem, type: string, formula: "[Fornecedores.Região]"} | apps/pedidos/app.yaml:32: tables[3].columns[0].formula: a fórmula da coluna calculada Fornecedor da oferta.Origem não pôde ser usada: posição 1: a coluna calculada [Fornecedores.Região] vem de Fornecedores, mas fica fora da cópia Fornecedor da oferta |
      | {name: CUSTO_MIN, label: Custo mínimo, type: number, formula: " "} | apps/pedidos/app.yaml:32: tables[3].columns[0].formula: a fórmula está em branco; escreva a conta, como [Preço] * (1 - [Desconto]), ou remova formula |
