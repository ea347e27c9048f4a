Feature: CSV as Brazil writes it
  An app's CSVs may be written as Brazilian spreadsheets export them: ";", tab or "|" separators,
  decimal comma with "." thousands, R$ amounts and percentages, Windows-1252 or ISO-8859-1 text,
  dd/mm/aaaa and dd/mm/aa dates. What app.yaml does not declare is detected, the import says how
  it read each file, and a file whose format cannot be decided is refused naming the setting that
  settles it.

  features/testdata/ptbr/apps/vendas holds vendas.csv (Windows-1252, detected), lojas.csv (tab
  separated UTF-8 with a BOM, detected) and metas.csv (declared in app.yaml). The expected numbers
  are summed by hand (and checked with iconv -f cp1252 | awk, not our reader) from the rows of
  vendas.csv, written here as the file has them:
    id  loja  dia         cliente        valor             desconto
    1   1     30/09/2026  João           R$ 1.234,56       10%
    2   2     01/10/2026  Conceição      R$ 10,00          25,5 %
    3   1     15/10/2026  José           -R$ 10,00         0%
    4   2     20/10/2026  Ana “Aninha”   (R$ 4,56)         \N
    5   1     02/11/2026  João           R$ 2.000.000,00   5%
    6   2     13/11/2026  Conceição      R$ 0,99           12,5%
  and of metas.csv: 01/09/26 loja 1 1.000; 01/10/26 loja 1 2.500,5; 01/10/26 loja 2 750.

  Background:
    Given the workspace in "testdata/ptbr" is imported, reading its files as:
      """
      apps/vendas/vendas.csv: separador ";", decimal ",", Windows-1252, datas dd/mm/aaaa
      apps/vendas/lojas.csv: separador tabulação, UTF-8
      apps/vendas/metas.csv: separador "|", decimal ",", ISO-8859-1, datas dd/mm/aa
      """
    And I am connected as "rui"

  @L-Q12 @L-R01 @own-setup
  Scenario: R$ amounts with thousands and every negative form sum as numbers, in BRL
    # 1234.56 + 10.00 - 10.00 - 4.56 + 2000000.00 + 0.99 = 2001230.99; the blank line and the
    # line of ";" are no rows
    When I call "query" with '{"appId": "$app:vendas-br", "fields": [{"ref": "Vendas.Valor", "agg": "sum"}, {"ref": "Vendas.Id", "agg": "count"}]}'
    Then the call succeeds
    And "rows" is '[[2001230.99, 6]]'
    And "columns[*].unit" is '["BRL", null]'

  @L-Q02 @L-Q12 @L-Q23 @own-setup
  Scenario: Windows-1252 and UTF-8 texts read as the same words, and group the amounts
    # by client: João 1234.56 + 2000000.00 = 2001234.56; Conceição 10.00 + 0.99 = 10.99;
    # Ana “Aninha” -4.56; José -10.00. By city (lojas.csv): São Paulo (loja 1) 1234.56 - 10.00 +
    # 2000000.00 = 2001224.56; Ribeirão Preto (loja 2) 10.00 - 4.56 + 0.99 = 6.43
    When I call "query" with '{"appId": "$app:vendas-br", "fields": [{"ref": "Vendas.Cliente"}, {"ref": "Vendas.Valor", "agg": "sum"}], "orderBy": [{"ref": "Vendas.Valor", "agg": "sum", "dir": "desc"}]}'
    Then "rows" is '[["João", 2001234.56], ["Conceição", 10.99], ["Ana “Aninha”", -4.56], ["José", -10]]'
    When I call "query" with '{"appId": "$app:vendas-br", "fields": [{"ref": "Lojas.Cidade"}, {"ref": "Vendas.Valor", "agg": "sum"}], "orderBy": [{"ref": "Vendas.Valor", "agg": "sum", "dir": "desc"}]}'
    Then "rows" is '[["São Paulo", 2001224.56], ["Ribeirão Preto", 6.43]]'
    When I call "query" with '{"appId": "$app:vendas-br", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [{"ref": "Vendas.Cliente", "op": "=", "value": "Conceição"}]}'
    Then "rows" is '[[2]]'

  @L-R01 @L-R11 @own-setup
  Scenario: Percentages are fractions with unit percent
    # 10% = 0.1, 25,5 % = 0.255, 0% = 0, 5% = 0.05, 12,5% = 0.125; one NULL
    When I call "query" with '{"appId": "$app:vendas-br", "fields": [{"ref": "Vendas.Desconto", "agg": "max"}, {"ref": "Vendas.Desconto", "agg": "min"}, {"ref": "Vendas.Desconto", "agg": "count"}]}'
    Then the call succeeds
    And "rows" is '[[0.255, 0, 5]]'
    And "columns[*].unit" is '["percent", "percent", null]'

  @L-Q03 @L-Q14 @L-Q18 @own-setup
  Scenario: dd/mm/aaaa dates and times are days and hours like any other
    # September: 1234.56; October: 10.00 - 10.00 - 4.56 = -4.56; November: 2000000.00 + 0.99 =
    # 2000000.99. Between 2026-10-01 and 2026-10-31: ids 2, 3 and 4. Row 6 is at 23:59:59.
    When I call "query" with '{"appId": "$app:vendas-br", "fields": [{"ref": "Vendas.Data", "bucket": "month"}, {"ref": "Vendas.Valor", "agg": "sum"}], "orderBy": [{"ref": "Vendas.Data", "bucket": "month", "dir": "asc"}]}'
    Then "rows" is '[["2026-09", 1234.56], ["2026-10", -4.56], ["2026-11", 2000000.99]]'
    When I call "query" with '{"appId": "$app:vendas-br", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [{"ref": "Vendas.Dia", "op": "between", "value": ["2026-10-01", "2026-10-31"]}]}'
    Then "rows" is '[[3]]'
    When I call "query" with '{"appId": "$app:vendas-br", "fields": [{"ref": "Vendas.Data", "bucket": "hour_of_day"}, {"ref": "Vendas.Id", "agg": "count"}], "filters": [{"ref": "Vendas.Data", "op": ">=", "value": "2026-11-13 23:00"}]}'
    Then "rows" is '[["23:00", 1]]'

  @L-Q12 @L-Q23 @own-setup
  Scenario: Settings declared in app.yaml read amounts detection would refuse
    # metas.csv declares decimal ",": 1.000 is 1000; 1000 + 2500.5 + 750 = 4250.5; October
    # 2500.5 + 750 = 3250.5; dd/mm/aa: 01/09/26 is 2026-09-01. Its texts are ISO-8859-1.
    When I call "query" with '{"appId": "$app:vendas-br", "fields": [{"ref": "Metas.Meta", "agg": "sum"}]}'
    Then "rows" is '[[4250.5]]'
    When I call "query" with '{"appId": "$app:vendas-br", "fields": [{"ref": "Metas.Mês", "bucket": "month"}, {"ref": "Metas.Meta", "agg": "sum"}], "orderBy": [{"ref": "Metas.Mês", "bucket": "month", "dir": "asc"}]}'
    Then "rows" is '[["2026-09", 1000], ["2026-10", 3250.5]]'
    When I call "query" with '{"appId": "$app:vendas-br", "fields": [{"ref": "Metas.Observação"}, {"ref": "Metas.Meta", "agg": "sum"}], "filters": [{"ref": "Metas.Observação", "op": "in", "value": ["Início", "Promoção"]}], "orderBy": [{"ref": "Metas.Meta", "agg": "sum", "dir": "asc"}]}'
    Then "rows" is '[["Promoção", 750], ["Início", 1000]]'

  @own-setup
  Scenario: A file whose every amount is like 1.000 is refused, naming the setting that settles it
    When I import the workspace in "testdata/ptbr" with "apps/vendas/vendas.csv" holding:
      """
      ID;DATA;DIA;LOJA_ID;CLIENTE;VALOR;DESCONTO
      1;30/09/2026 14:05;30/09/2026;1;Ana;1.000;\N
      2;30/09/2026 15:05;30/09/2026;1;Bia;2.500;\N
      """
    Then the import fails with:
      """
      apps/vendas/vendas.csv:2: VALOR: não dá para saber se "1.000" é 1000 ou 1: nenhum número do arquivo mostra se o "." separa milhar ou decimal; declare csv.decimal: "," (como em 1.234,56) ou csv.decimal: "." (como em 1,234.56) na tabela "vendas" do app.yaml
      """

  @own-setup
  Scenario: A file whose dates have no day above 12 is refused, naming the setting that settles it
    When I import the workspace in "testdata/ptbr" with "apps/vendas/vendas.csv" holding:
      """
      ID;DATA;DIA;LOJA_ID;CLIENTE;VALOR;DESCONTO
      1;01/02/2026 10:00;01/02/2026;1;Ana;12,50;\N
      2;03/04/2026 11:00;03/04/2026;1;Bia;1,50;\N
      """
    Then the import fails with:
      """
      apps/vendas/vendas.csv:2: DATA: não dá para saber se "01/02/2026 10:00" tem o dia ou o mês primeiro: nenhuma data do arquivo tem dia acima de 12; se o dia vem primeiro, declare csv.dateFormat: dd/mm/aaaa na tabela "vendas" do app.yaml (mês primeiro não é aceito; use AAAA-MM-DD)
      """

  @own-setup
  Scenario: A value that contradicts what the file showed is refused with its line
    When I import the workspace in "testdata/ptbr" with "apps/vendas/vendas.csv" holding:
      """
      ID;DATA;DIA;LOJA_ID;CLIENTE;VALOR;DESCONTO
      1;13/02/2026 10:00;13/02/2026;1;Ana;12,50;10%
      2;14/02/2026 11:00;14/02/2026;1;Bia;1.5;0,3
      """
    Then the import fails with:
      """
      apps/vendas/vendas.csv:3: VALOR: o arquivo mistura decimal com ponto e com vírgula: "12,50" (linha 2, coluna VALOR) e "1.5" (linha 3, coluna VALOR); escreva todos os números do mesmo jeito e declare csv.decimal: "," ou "." na tabela "vendas" do app.yaml
      """
    When I import the workspace in "testdata/ptbr" with "apps/vendas/vendas.csv" holding:
      """
      ID;DATA;DIA;LOJA_ID;CLIENTE;VALOR;DESCONTO
      1;13/02/2026 10:00;13/02/2026;1;Ana;12,50;10%
      2;14/02/2026 11:00;14/02/2026;1;Bia;1,5;0,3
      """
    Then the import fails with:
      """
      apps/vendas/vendas.csv:3: DESCONTO: o valor "0,3" não tem %, mas o da linha 2 ("10%") tem; escreva todos os números da coluna com % ou todos sem (sem %, o percentual vai como fração: 0.25 é 25%)
      """
