Feature: search_catalog with terms finds indicators, expressions and columns
  An item matches when it matches any term, ignoring accents and case. One string is one term.

  Background:
    Given the demo workspace is imported
    And I am connected as "ana"

  @L-C01 @L-C07 @L-C08
  Scenario: A single string finds valid indicators with a ready query, and invalid ones without
    When I call "search_catalog" with '{"terms": "faturamento"}'
    Then the call succeeds
    And "terms" is '["faturamento"]'
    And "total" is '4'
    And "shown" is '4'
    And "matches" includes:
      """
      [
        {"kind": "indicator", "name": "Faturamento", "app": {"id": "$app:vendas-comercial", "name": "Vendas"}, "valid": true,
         "example": {"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Valor da venda", "agg": "sum"}],
                     "filters": [{"ref": "Vendas.Situação", "op": "=", "value": "Ativa"}]}},
        {"kind": "indicator", "name": "Faturamento", "app": {"id": "$app:vendas-ana", "name": "Vendas"}, "valid": true,
         "example": {"appId": "$app:vendas-ana", "fields": [{"ref": "Vendas.Valor da venda", "agg": "sum"}],
                     "filters": [{"ref": "Vendas.Situação", "op": "=", "value": "Ativa"}]}},
        {"kind": "indicator", "name": "Faturamento bruto antigo", "app": {"id": "$app:vendas-comercial", "name": "Vendas"}, "valid": false}
      ]
      """
    And the text contains "4 resultados para \"faturamento\"."
    And the text contains "(inválido: usa algo que não existe mais; sem exemplo)"

  @L-C08
  Scenario: An invalid indicator has no example
    When I call "search_catalog" with '{"terms": "bruto antigo"}'
    Then "total" is '2'
    And "matches[*].example" is '[]'

  @L-C02 @L-C09
  Scenario: Accents and case do not matter; columns carry ref and field
    When I call "search_catalog" with '{"terms": ["SITUACAO"], "appId": "$app:vendas-comercial"}'
    Then "matches" is:
      """
      [{"kind": "column", "name": "Situação", "app": {"id": "$app:vendas-comercial", "name": "Vendas"},
        "ref": "Vendas.Situação", "field": {"ref": "Vendas.Situação"}, "table": "Vendas", "type": "string", "unit": null}]
      """

  @L-C01 @L-C02 @L-C07 @L-C09
  Scenario: Any term matches: expressions, indicators and columns together
    When I call "search_catalog" with '{"terms": ["margem", "cidade"], "appId": "$app:vendas-comercial"}'
    Then "total" is '3'
    And "matches[*].kind" is '["indicator", "expression", "column"]'
    And "matches" includes:
      """
      [
        {"kind": "expression", "name": "Margem %", "ref": "Margem %", "field": {"ref": "Margem %"}, "unit": "percent"},
        {"kind": "indicator", "name": "Margem", "valid": true, "example": {"appId": "$app:vendas-comercial", "fields": [{"ref": "Margem %"}]}},
        {"kind": "column", "name": "Cidade", "ref": "Lojas.Cidade", "field": {"ref": "Lojas.Cidade"}, "table": "Lojas"}
      ]
      """

  @L-C01 @L-C09 @L-Q08
  Scenario: One string is one term; columns sharing a label are addressed by physical name
    When I call "search_catalog" with '{"terms": "valor líquido", "appId": "$app:vendas-comercial"}'
    Then "total" is '2'
    And "matches[*].ref" is '["Vendas.VALOR_LIQ", "Vendas.VALOR_2"]'
    And "matches[*].field" is '[{"ref": "Vendas.VALOR_LIQ", "agg": "sum"}, {"ref": "Vendas.VALOR_2", "agg": "sum"}]'

  @L-C01
  Scenario: appId narrows the search to one app
    When I call "search_catalog" with '{"terms": "faturamento", "appId": "$app:vendas-ana"}'
    Then "total" is '2'
    And "matches[*].app.id" is '["$app:vendas-ana", "$app:vendas-ana"]'

  @L-C07
  Scenario: Nothing found says so
    When I call "search_catalog" with '{"terms": ["xyzzy"]}'
    Then the call succeeds
    And "total" is '0'
    And "matches" has 0 items
    And the text contains "Nada encontrado para \"xyzzy\"."

  @L-G03
  Scenario Outline: Bad arguments are refused in Portuguese, naming the field
    When I call "search_catalog" with '<args>'
    Then the call fails with code "INVALID_ARGUMENTS"
    And the text contains "<message>"

    Examples:
      | args                      | message                                                                  |
      | {"terms": 5}              | terms: deve ser texto ou lista, mas veio número.                         |
      | {"term": "x"}             | term: campo não aceito aqui; remova-o (os campos aceitos são: appId, terms). |
      | {"terms": [""]}           | terms[0]: não pode ser vazio.                                            |
      | {"appId": 0}              | appId: deve ser no mínimo 1 (veio 0).                                    |
