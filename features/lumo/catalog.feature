Feature: search_catalog without terms lists the user's catalogue
  The catalogue holds the apps of the desks the user belongs to plus the user's own personal copies,
  inside the user's tenant, with what tells apps of the same name apart.

  Background:
    Given the demo workspace is imported

  @L-C03 @L-C04 @L-G05 @L-G02
  Scenario: Ana sees the apps of the Comercial desk and her personal copy
    Given I am connected as "ana"
    When I call "search_catalog"
    Then the call succeeds
    And "apps" has 3 items
    And "apps" includes:
      """
      [
        {"id": "$app:vendas-comercial", "name": "Vendas", "description": "Vendas por item, com lojas, produtos e metas mensais.",
         "desk": "Comercial", "clonedFrom": null, "publishedAt": "2026-09-01T09:00:00-03:00",
         "sameName": [{"id": "$app:vendas-ana", "name": "Vendas"}]},
        {"id": "$app:estoque", "name": "Estoque", "desk": "Comercial", "clonedFrom": null, "publishedAt": null, "sameName": []},
        {"id": "$app:vendas-ana", "name": "Vendas", "desk": null, "clonedFrom": {"id": "$app:vendas-comercial", "name": "Vendas"},
         "publishedAt": null, "sameName": [{"id": "$app:vendas-comercial", "name": "Vendas"}]}
      ]
      """
    And "legend.desk" is '"A mesa da Aplicação; null é Minha Mesa (cópia pessoal)."'
    And the text contains "Catálogo: 3 Aplicações."
    And the text contains "(Minha Mesa; cópia pessoal de [$app:vendas-comercial] Vendas; nunca publicada)"

  @L-C04 @L-G05
  Scenario: Bruno sees the Comercial and Financeiro desks, and not Ana's personal copy
    Given I am connected as "bruno"
    When I call "search_catalog"
    Then "apps" has 3 items
    And "apps[*].id" is:
      """
      ["$app:vendas-comercial", "$app:vendas-financeiro", "$app:estoque"]
      """
    And "apps" includes:
      """
      [{"id": "$app:vendas-financeiro", "name": "Vendas", "desk": "Financeiro", "publishedAt": "2026-08-03T10:30:00-03:00",
        "sameName": [{"id": "$app:vendas-comercial", "name": "Vendas"}]}]
      """

  @L-G05
  Scenario: Carla, of another tenant, sees only her tenant's app
    Given I am connected as "carla"
    When I call "search_catalog"
    Then "apps" has 1 item
    And "apps" includes:
      """
      [{"id": "$app:vendas-outra", "name": "Vendas", "description": "Vendas da outra empresa.", "desk": "Comercial",
        "clonedFrom": null, "publishedAt": "2026-07-01T08:00:00-03:00", "sameName": []}]
      """
    And the text does not contain "Estoque"

  @L-G05
  Scenario: A user without desks nor personal apps has an empty catalogue
    Given I am connected as "davi"
    When I call "search_catalog"
    Then the call succeeds
    And "apps" has 0 items
    And the text contains "Você ainda não tem acesso a nenhuma Aplicação."

  @L-C04 @L-C06
  Scenario: Indicators carry validity and the other apps with an indicator of the same name
    Given I am connected as "bruno"
    When I call "search_catalog" with:
      """
      {"appId": "$app:vendas-comercial"}
      """
    Then "apps" has 1 item
    And "apps[0].indicators" is:
      """
      [
        {"name": "Faturamento", "description": "Soma do valor das vendas ativas.", "valid": true,
         "alsoIn": [{"id": "$app:vendas-financeiro", "name": "Vendas"}]},
        {"name": "Itens vendidos", "description": null, "valid": true},
        {"name": "Lojas com venda", "description": null, "valid": true},
        {"name": "Margem", "description": null, "valid": true},
        {"name": "Faturamento bruto antigo", "description": "Indicador da versão anterior; a coluna que ele usa foi removida.", "valid": false}
      ]
      """
    And the text contains "Faturamento (também em [$app:vendas-financeiro])"
    And the text contains "Faturamento bruto antigo (inválido)"

  @L-C05
  Scenario: The text samples each app's date columns and most used columns
    Given I am connected as "ana"
    When I call "search_catalog"
    Then the text contains "Colunas (amostra): Vendas.Data (data e hora); Metas.Mês (data); Vendas.Valor da venda (número, BRL); Lojas.Loja (texto); Vendas.Situação (texto)"
    And the text contains "Colunas (amostra): Movimentos.Data (data)."

  @L-G03
  Scenario: An app outside the user's access is not found, exactly like one that does not exist
    Given I am connected as "ana"
    When I call "search_catalog" with:
      """
      {"appId": "$app:vendas-outra"}
      """
    Then the call fails with code "NOT_FOUND"
    And the text contains "A Aplicação $app:vendas-outra não foi encontrada."
    And "error.suggestions" is:
      """
      ["Use search_catalog sem termos para ver as Aplicações que você pode consultar."]
      """
    When I call "search_catalog" with '{"appId": 999999}'
    Then the call fails with code "NOT_FOUND"
    And the text contains "A Aplicação 999999 não foi encontrada."
