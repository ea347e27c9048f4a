Feature: Tables read from an Excel workbook
  A table's file may be an .xlsx workbook: a sheet (the first, or the one xlsx.sheet names) or a
  range (xlsx.range: a name defined in the workbook or Vendas!A3:F500) whose first row is the
  header. Cells are read with their types: numbers, dates as date-formatted serials, booleans,
  texts and the results of formulas; R$ and % formats give the column its unit; formatted empty
  rows after the data are no rows. Every problem names the file, the sheet and the cell.

  features/testdata/formats/apps/planilhas/vendas.xlsx is written by
  features/testdata/formats/gen/main.go with excelize (not our reader). Its sheet Vendas holds,
  as Excel shows them (F5 is the formula =F2*0.5 with its result 617,28 stored; G5 is empty;
  rows 7 to 40 are formatted but empty):
    ID  DATA              DIA         LOJA    CLIENTE       VALOR (R$)        DESCONTO (%)  PAGO
    1   30/09/2026 14:05  30/09/2026  Centro  João          R$ 1.234,56       10,00%        VERDADEIRO
    2   01/10/2026 09:30  01/10/2026  Bairro  Conceição     R$ 10,00          25,50%        FALSO
    3   15/10/2026 18:00  15/10/2026  Centro  José          -R$ 10,00         0,00%         VERDADEIRO
    4   20/10/2026 11:15  20/10/2026  Bairro  Ana “Aninha”  R$ 617,28                       FALSO
    5   02/11/2026 08:00  02/11/2026  Centro  João          R$ 2.000.000,00   5,00%         VERDADEIRO
  and its sheet Metas, under the title "Metas por loja" merged over A1:C1, the range MetasLoja
  (A3:C6): 01/09/2026 Centro 1.000; 01/10/2026 Centro 2.500,5; 01/10/2026 Bairro 750; row 8,
  outside the range, is a total (4.250,5). The expected numbers are summed by hand from these
  values, which are also the ones `unzip -p vendas.xlsx xl/worksheets/sheet2.xml` shows.

  Background:
    Given the workspace in "testdata/formats" is imported, reading its files as:
      """
      apps/planilhas/vendas.xlsx: planilha "Vendas", 5 linhas
      apps/planilhas/vendas.xlsx: intervalo "MetasLoja" (Metas!A3:C6), 3 linhas
      """
    And I am connected as "rui"

  @L-Q12 @L-R01 @own-setup
  Scenario: Amounts, also a formula's result, sum as numbers in BRL
    # 1234.56 + 10.00 - 10.00 + 617.28 + 2000000.00 = 2001851.84
    When I call "query" with '{"appId": "$app:planilhas", "fields": [{"ref": "Vendas.Valor", "agg": "sum"}, {"ref": "Vendas.Id", "agg": "count"}]}'
    Then the call succeeds
    And "rows" is '[[2001851.84, 5]]'
    And "columns[*].unit" is '["BRL", null]'

  @L-Q02 @L-Q12 @own-setup
  Scenario: Texts and booleans group the amounts
    # Centro: 1234.56 - 10.00 + 2000000.00 = 2001224.56; Bairro: 10.00 + 617.28 = 627.28.
    # Paid (VERDADEIRO): ids 1, 3 and 5.
    When I call "query" with '{"appId": "$app:planilhas", "fields": [{"ref": "Vendas.Loja"}, {"ref": "Vendas.Valor", "agg": "sum"}], "orderBy": [{"ref": "Vendas.Valor", "agg": "sum", "dir": "desc"}]}'
    Then "rows" is '[["Centro", 2001224.56], ["Bairro", 627.28]]'
    When I call "query" with '{"appId": "$app:planilhas", "fields": [{"ref": "Vendas.Pago"}, {"ref": "Vendas.Id", "agg": "count"}], "orderBy": [{"ref": "Vendas.Pago", "dir": "asc"}]}'
    Then "rows" is '[["FALSO", 2], ["VERDADEIRO", 3]]'
    When I call "query" with '{"appId": "$app:planilhas", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [{"ref": "Vendas.Cliente", "op": "=", "value": "Ana “Aninha”"}]}'
    Then "rows" is '[[1]]'

  @L-R01 @L-R11 @own-setup
  Scenario: Percent-formatted cells are fractions with unit percent, an empty cell is NULL
    # 10% = 0.1, 25.5% = 0.255, 0% = 0, 5% = 0.05; G5 is empty
    When I call "query" with '{"appId": "$app:planilhas", "fields": [{"ref": "Vendas.Desconto", "agg": "max"}, {"ref": "Vendas.Desconto", "agg": "min"}, {"ref": "Vendas.Desconto", "agg": "count"}]}'
    Then "rows" is '[[0.255, 0, 4]]'
    And "columns[*].unit" is '["percent", "percent", null]'

  @L-Q03 @L-Q14 @L-Q18 @own-setup
  Scenario: Date-formatted serials are days and hours
    # September: 1234.56; October: 10.00 - 10.00 + 617.28 = 617.28; November: 2000000.00.
    # Between 2026-10-01 and 2026-10-31: ids 2, 3 and 4. Id 3 is at 18:00.
    When I call "query" with '{"appId": "$app:planilhas", "fields": [{"ref": "Vendas.Data", "bucket": "month"}, {"ref": "Vendas.Valor", "agg": "sum"}], "orderBy": [{"ref": "Vendas.Data", "bucket": "month", "dir": "asc"}]}'
    Then "rows" is '[["2026-09", 1234.56], ["2026-10", 617.28], ["2026-11", 2000000]]'
    When I call "query" with '{"appId": "$app:planilhas", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [{"ref": "Vendas.Dia", "op": "between", "value": ["2026-10-01", "2026-10-31"]}]}'
    Then "rows" is '[[3]]'
    When I call "query" with '{"appId": "$app:planilhas", "fields": [{"ref": "Vendas.Data", "bucket": "hour_of_day"}, {"ref": "Vendas.Id", "agg": "count"}], "filters": [{"ref": "Vendas.Id", "op": "=", "value": 3}]}'
    Then "rows" is '[["18:00", 1]]'

  @L-Q12 @L-Q23 @own-setup
  Scenario: A named range reads the table below a title and above a total
    # 1000 + 2500.5 + 750 = 4250.5 (the total row, outside the range, is not a row); October:
    # 2500.5 + 750 = 3250.5
    When I call "query" with '{"appId": "$app:planilhas", "fields": [{"ref": "Metas.Meta", "agg": "sum"}, {"ref": "Metas.Loja", "agg": "count"}]}'
    Then "rows" is '[[4250.5, 3]]'
    When I call "query" with '{"appId": "$app:planilhas", "fields": [{"ref": "Metas.Mês", "bucket": "month"}, {"ref": "Metas.Meta", "agg": "sum"}], "orderBy": [{"ref": "Metas.Mês", "bucket": "month", "dir": "asc"}]}'
    Then "rows" is '[["2026-09", 1000], ["2026-10", 3250.5]]'

  @own-setup
  Scenario: A merged title above the header is left out, and the import says which row is the header
    # The sheet Metas, without the range: its row 1 is the title "Metas por loja" merged over
    # A1:C1, which names no column of the table; row 3 names them, and is the header. Row 8, a
    # total, is no data.
    When I import the workspace in "testdata/formats" with "apps/planilhas/app.yaml" holding:
      """
      name: Planilhas
      tables:
        - label: Metas
          name: metas
          kind: fact
          file: vendas.xlsx
          xlsx: {sheet: metas}
          columns:
            - {name: MES, label: Mês, type: date}
            - {name: LOJA, label: Loja, type: string}
            - {name: META, label: Meta, type: number}
      """
    Then the import succeeds, reading its files as:
      """
      apps/planilhas/vendas.xlsx: planilha "Metas", cabeçalho na linha 3, 3 linhas, 1 linha que não é dado pulada (linha 8, total: "Total")
      """
    And I am connected as "rui"
    When I call "query" with '{"appId": "$app:planilhas", "fields": [{"ref": "Metas.Meta", "agg": "sum"}]}'
    Then "rows" is '[[4250.5]]'

  @own-setup
  Scenario: A cell that does not fit its column is refused with the sheet and the cell
    When I import the workspace in "testdata/formats" with "apps/planilhas/app.yaml" holding:
      """
      name: Planilhas
      tables:
        - label: Vendas
          name: vendas
          kind: fact
          file: vendas.xlsx
          xlsx: {sheet: Vendas}
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: DATA, label: Data, type: datetime}
            - {name: DIA, label: Dia, type: date}
            - {name: LOJA, label: Loja, type: number}
            - {name: CLIENTE, label: Cliente, type: string}
            - {name: VALOR, label: Valor, type: number}
            - {name: DESCONTO, label: Desconto, type: number}
            - {name: PAGO, label: Pago, type: string}
      """
    Then the import fails with:
      """
      apps/planilhas/vendas.xlsx: Vendas!D2: a célula tem o texto "Centro", e a coluna "LOJA" é número; corrija o valor ou apague-o
      """
