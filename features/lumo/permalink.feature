@own-setup
Feature: query results link to a report of the same query when the server has a public URL

  Background:
    Given the demo workspace is imported

  @L-R08
  Scenario: With a public URL every query result carries its permalink
    Given the server's public URL is "https://lumo.exemplo.com.br"
    And I am connected as "ana"
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Lojas.Loja"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}], "limit": 3}'
    Then the call succeeds
    And "permalink" is a report link under "https://lumo.exemplo.com.br"
    And the text contains "Relatório na Aplicação: https://lumo.exemplo.com.br/app/"
    # The same query asked in another key order is the same report.
    When I call "query" with '{"limit": 3, "fields": [{"ref": "Lojas.Loja"}, {"agg": "sum", "ref": "Vendas.Valor da venda"}], "appId": "$app:vendas-comercial"}'
    Then "permalink" is the same link as before

  @L-R08
  Scenario: Without a public URL there is no permalink
    Given I am connected as "ana"
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Valor da venda", "agg": "sum"}]}'
    Then the call succeeds
    And "permalink" is absent
    And the text does not contain "Relatório na Aplicação"

  @L-R08
  Scenario: A query refused has no permalink
    Given the server's public URL is "https://lumo.exemplo.com.br"
    And I am connected as "ana"
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Vendas.Valor da venda"}]}'
    Then the call fails with code "INVALID_FIELD"
    And "permalink" is absent

  @L-R08 @L-G05
  Scenario: A permalink opens the same result only for viewers who see the app
    Given the server's public URL is "https://lumo.exemplo.com.br"
    And I am connected as "ana"
    When I call "query" with '{"appId": "$app:vendas-comercial", "fields": [{"ref": "Lojas.Loja"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}], "orderBy": [{"ref": "Vendas.Valor da venda", "agg": "sum", "dir": "desc"}], "limit": 3}'
    Then "permalink" is a report link under "https://lumo.exemplo.com.br"
    When "ana" opens the permalink in a browser
    Then the report page answers 200 and contains "<h1>Vendas</h1>"
    And the report page answers 200 and contains "Linhas: 3 de 7; as outras 4 existem e não estão aqui."
    And the report page answers 200 and contains "<td class=\"num\">R$ "
    # bruno shares the Comercial desk: he sees it, with his own access.
    When "bruno" opens the permalink in a browser
    Then the report page answers 200 and contains "Consulta refeita agora para Bruno Lima"
    # davi is in the same Tenant without the desk; carla is in another Tenant: a link grants nothing.
    When "davi" opens the permalink in a browser
    Then the report page answers 404 and contains "Relatório não encontrado"
    And the report page does not contain "R$"
    When "carla" opens the permalink in a browser
    Then the report page answers 404 and contains "Relatório não encontrado"
    And the report page does not contain "R$"
