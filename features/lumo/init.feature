Feature: From files to a question: lumo init
  `lumo init FILE-OR-FOLDER...` writes, next to the files, a workspace (one tenant, one user with a
  fresh token, one app) whose app.yaml is inferred from the files: tables, labels from the
  headers, types, roles, units, relationships between matching key columns and usage. Every
  inference is checked by reading the whole file with the importer's reader, so the import and
  the first query work without edits.

  The files are the pt-BR fixture's vendas.csv (";", decimal comma, R$, %, dd/mm/aaaa,
  Windows-1252) and lojas.csv (tab separated UTF-8 with a BOM); csv_formats.feature lists their
  rows. The sums per store are added by hand from those rows: loja 1 (Aurora)
  1234.56 - 10.00 + 2000000.00 = 2001224.56; loja 2 (Boa Vista) 10.00 - 4.56 + 0.99 = 6.43.

  @L-Q12 @L-R01 @own-setup
  Scenario: Two spreadsheets become an app that answers a grouped sum in reais
    Given a folder holding the files "apps/vendas/vendas.csv, apps/vendas/lojas.csv" of "testdata/ptbr"
    When lumo init runs on that folder
    Then the app.yaml it wrote has the lines:
      """
      - label: Vendas
      kind: fact
      - {name: VALOR, label: Valor, type: number, role: measure, unit: BRL, usage: 10}
      - {name: DESCONTO, label: Desconto, type: number, role: measure, unit: percent, usage: 10}
      - {name: DIA, label: Dia, type: date, role: dimension, usage: 8}
      - {name: DATA, label: Data, type: datetime, role: dimension, usage: 8}
      - {name: LOJA_ID, label: Loja id, type: number, role: key}
      - label: Lojas
      kind: dimension
      - {from: Vendas.Loja id, to: Lojas.Id}
      """
    And the workspace it wrote is imported
    And I am connected as "voce"
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Lojas.Nome"}, {"ref": "Vendas.Valor", "agg": "sum"}]}'
    Then the call succeeds
    And "rows" is '[["Aurora", 2001224.56], ["Boa Vista", 6.43]]'
    And "columns[*].unit" is '[null, "BRL"]'
