Feature: get_app describes one application
  Tables (fact or dimension, when loaded), columns with label, ref, field, type, role and unit,
  expressions, indicators and relationships.

  Background:
    Given the demo workspace is imported

  @L-A01 @L-A02 @L-A03 @L-Q07 @L-Q08 @L-G02
  Scenario: The sales app, complete
    Given I am connected as "ana"
    When I call "get_app" with '{"appId": "$app:vendas-comercial"}'
    Then the call succeeds
    And "app" is:
      """
      {"id": "$app:vendas-comercial", "name": "Vendas", "description": "Vendas por item, com lojas, produtos e metas mensais.",
       "desk": "Comercial", "clonedFrom": null, "publishedAt": "2026-09-01T09:00:00-03:00"}
      """
    And "tables[*].label" is '["Vendas", "Lojas", "Produtos", "Metas"]'
    And "tables[*].kind" is '["fact", "dimension", "dimension", "fact"]'
    And "tables[*].loadedAt" is '["2026-10-15T03:00:00-03:00", "2026-10-14T22:30:00-03:00", "2026-10-15T01:10:00-03:00", "2026-10-01T06:00:00-03:00"]'
    And "tables[0].columns" has 16 items
    And "tables[0].columns" includes:
      """
      [
        {"name": "DATA", "label": "Data", "ref": "Vendas.Data", "field": {"ref": "Vendas.Data"}, "type": "datetime", "role": "dimension", "unit": null, "description": null},
        {"name": "ID", "label": "Id", "ref": "Vendas.Id", "field": {"ref": "Vendas.Id", "agg": "count_distinct"}, "type": "number", "role": "key", "unit": null},
        {"name": "VALOR", "label": "Valor da venda", "ref": "Vendas.Valor da venda", "field": {"ref": "Vendas.Valor da venda", "agg": "sum"}, "type": "number", "role": "measure", "unit": "BRL"},
        {"name": "VALOR_2", "label": "Valor líquido", "ref": "Vendas.VALOR_2", "field": {"ref": "Vendas.VALOR_2", "agg": "sum"}, "type": "number", "role": "measure", "unit": "BRL",
         "description": "Valor líquido após taxas do meio de pagamento"},
        {"name": "DESCONTO", "ref": "Vendas.Desconto", "unit": "percent"},
        {"name": "TEMPO_CAIXA", "ref": "Vendas.Tempo no caixa", "unit": "seconds"},
        {"name": "PARCELAS", "ref": "Vendas.Parcelas", "field": {"ref": "Vendas.Parcelas"}, "type": "number", "role": "dimension"}
      ]
      """
    And "relationships" is:
      """
      [{"from": "Vendas.Loja id", "to": "Lojas.Id"}, {"from": "Vendas.Produto id", "to": "Produtos.Id"}, {"from": "Metas.Loja id", "to": "Lojas.Id"}]
      """
    And "expressions" includes:
      """
      [{"label": "Margem %", "ref": "Margem %", "field": {"ref": "Margem %"}, "unit": "percent",
        "formula": "(sum([Vendas.VALOR_LIQ]) - sum([Vendas.Custo])) / sum([Vendas.VALOR_LIQ])"},
       {"label": "Ticket médio", "ref": "Ticket médio", "unit": "BRL"}]
      """
    And "indicators[*].name" is '["Faturamento", "Itens vendidos", "Lojas com venda", "Margem", "Faturamento bruto antigo"]'
    And "indicators[*].valid" is '[true, true, true, true, false]'
    And "indicators[2].example" is '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Lojas.Loja", "agg": "count_distinct"}]}'
    And "indicators[4].example" is absent
    And the text contains "Tabela Vendas (fato; carregada em 15/10/2026 03:00)"
    And the text contains "- Vendas.VALOR_2: número, medida, BRL. Valor líquido após taxas do meio de pagamento"
    And the text contains "- Vendas.Loja id → Lojas.Id"

  @L-A02
  Scenario: A table that was never loaded says so
    Given I am connected as "bruno"
    When I call "get_app" with '{"appId": "$app:estoque"}'
    Then "tables[*].loadedAt" is '[null, "2026-10-10T05:00:00-03:00"]'
    And "app.publishedAt" is 'null'
    And the text contains "Tabela Movimentos (fato; nunca carregada)"

  @L-A01
  Scenario: A personal copy has its own id, points at its origin and has no desk
    Given I am connected as "ana"
    When I call "get_app" with '{"appId": "$app:vendas-ana"}'
    Then "app" is:
      """
      {"id": "$app:vendas-ana", "name": "Vendas", "description": "Vendas por item, com lojas, produtos e metas mensais.",
       "desk": null, "clonedFrom": {"id": "$app:vendas-comercial", "name": "Vendas"}, "publishedAt": null}
      """
    And "tables[*].label" is '["Vendas", "Lojas", "Produtos", "Metas"]'

  @L-G05 @L-G03
  Scenario Outline: Apps outside the user's access are not found
    Given I am connected as "<user>"
    When I call "get_app" with '{"appId": "$app:<app>"}'
    Then the call fails with code "NOT_FOUND"
    And the text contains "A Aplicação $app:<app> não foi encontrada."

    Examples:
      | user  | app               |
      | carla | vendas-comercial  |
      | bruno | vendas-ana        |
      | ana   | vendas-financeiro |
      | davi  | estoque           |
      | ana   | vendas-outra      |

  @L-G03
  Scenario Outline: Bad arguments are refused in Portuguese, naming the field
    Given I am connected as "ana"
    When I call "get_app" with '<args>'
    Then the call fails with code "INVALID_ARGUMENTS"
    And the text contains "<message>"

    Examples:
      | args                        | message                                               |
      | {}                          | appId: campo obrigatório ausente; informe appId.      |
      | {"appId": "7"}              | appId: deve ser número inteiro, mas veio texto.       |
      | {"appId": 1.5}              | appId: deve ser número inteiro, mas veio número.      |
      | {"appId": 3000000000}       | appId: deve ser no máximo 2147483647 (veio 3000000000). |
