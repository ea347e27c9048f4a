Feature: From files to a question: lumo init
  `lumo init FILE-OR-FOLDER...` (and `--postgres DSN --table schema.name`) writes, next to the
  files, a workspace (one tenant, one user with a fresh token, one app) whose app.yaml is inferred
  from the data: one table per CSV file, per sheet, named range or Excel table of a workbook, per
  Parquet file or folder of parts, per PostgreSQL table; labels from the headers, types, roles,
  units, relationships between columns of the same name whose values match, and usage. Every
  inference is checked by reading every row with the importer's reader, so the import and the
  first query work without edits. What it cannot use is named, with the reason.

  Every file below is made by another tool than lumo's readers: the CSV fixtures are written
  by hand, the workbooks by excelize, the Parquet files by parquet-go (the generators are in
  features/init_steps.go), the PostgreSQL tables by SQL. Each scenario lists the rows, and the
  expected sums are added by hand from them (in cents, so no rounding is involved).

  @L-Q12 @L-R01 @own-setup
  Scenario: Two CSV files become an app that answers a grouped sum in reais
    # The pt-BR fixture's vendas.csv (";", decimal comma, R$, %, dd/mm/aaaa, Windows-1252) and
    # lojas.csv (tab separated UTF-8 with a BOM); csv_formats.feature lists their rows. By hand:
    # loja 1 (Aurora) 1234.56 - 10.00 + 2000000.00 = 2001224.56; loja 2 (Boa Vista)
    # 10.00 - 4.56 + 0.99 = 6.43.
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
      - {name: LOJA_ID, label: Loja ID, type: number, role: key}
      - label: Lojas
      kind: dimension
      - {from: Vendas.Loja ID, to: Lojas.ID}
      """
    And the report says:
      """
      Vendas (fato): vendas.csv
      6 linhas, 7 colunas: 2 medidas (Valor em R$, Desconto em %), 2 datas (Data, Dia), 2 chaves (ID, Loja ID)
      lido: separador ";", decimal ",", Windows-1252, datas dd/mm/aaaa
      Vendas.Loja ID → Lojas.ID: LOJA_ID aponta para Lojas pela chave ID, e os 2 valores de Vendas estão em Lojas
      """
    And the workspace it wrote is imported
    And I am connected as "voce-dados"
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Lojas.Nome"}, {"ref": "Vendas.Valor", "agg": "sum"}]}'
    Then the call succeeds
    And "rows" is '[["Aurora", 2001224.56], ["Boa Vista", 6.43]]'
    And "columns[*].unit" is '[null, "BRL"]'

  @L-Q12 @L-R01 @own-setup
  Scenario: Headers as people type them are labels, with physical names derived from them
    # Excel on Windows saves "CSV (separado por ponto e vírgula)" in Windows-1252 with decimal
    # commas. By hand: Ana 1.234,50 + 10,00 = 1.244,50; Bia 99,90.
    Given a folder holding the file "vendas.csv" in Windows-1252:
      """
      Nº;Data da venda;Valor (R$);Cliente;Observação
      1;01/02/2026;1.234,50;Ana;
      2;03/02/2026;99,90;Bia;à vista
      3;13/02/2026;10,00;Ana;
      """
    And the folder also holds the file "ruim.csv":
      """
      Valor,,Valor
      1,2,3
      """
    When lumo init runs on that folder
    Then the app.yaml it wrote has the lines:
      """
      - {name: no, header: Nº, label: Nº, type: number, role: key}
      - {name: data_da_venda, header: Data da venda, label: Data da venda, type: date, role: dimension, usage: 8}
      - {name: valor_r, header: Valor (R$), label: Valor (R$), type: number, role: measure, unit: BRL, usage: 10}
      - {name: Cliente, label: Cliente, type: string, role: dimension, usage: 5}
      - {name: observacao, header: Observação, label: Observação, type: string, role: dimension, usage: 5}
      """
    And the report says:
      """
      ruim.csv: o cabeçalho (linha 1) tem problemas: a coluna 2 não tem nome; as colunas 1 e 3 se chamam "Valor"; corrija a primeira linha do arquivo
      """
    And the workspace it wrote is imported
    And I am connected as "voce-dados"
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Vendas.Cliente"}, {"ref": "Vendas.Valor (R$)", "agg": "sum"}], "orderBy": [{"ref": "Vendas.Cliente", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Ana", 1244.5], ["Bia", 99.9]]'
    And "columns[*].label" is '["Cliente", "Valor (R$) (soma)"]'
    And "columns[*].unit" is '[null, "BRL"]'

  @L-Q12 @L-R01 @own-setup
  Scenario: A spreadsheet's total row and the note under it are not sales
    # As a spreadsheet saves it: the values, a Total row summing them, a blank line, a note. By
    # hand, without the total: Centro 10,50 + 30,00 = 40,50; Praia 20,00.
    Given a folder holding the file "caixa.csv":
      """
      Data;Loja;Valor
      01/10/2026;Centro;10,50
      02/10/2026;Praia;20,00
      03/10/2026;Centro;30,00
      Total;;60,50

      Fonte: ERP, emitido em 05/10/2026
      """
    When lumo init runs on that folder
    Then the app.yaml it wrote has the lines:
      """
      - {name: Data, label: Data, type: date, role: dimension, usage: 8}
      - {name: Valor, label: Valor, type: number, role: measure, usage: 10}
      """
    And the report says:
      """
      3 linhas, 3 colunas: 1 medida (Valor), 1 data (Data), 0 chaves
      lido: separador ";", decimal ",", UTF-8, datas dd/mm/aaaa, 2 linhas que não são dados puladas (linha 5, total: "Total"; linha 7, nota depois de uma linha em branco: "Fonte: ERP, emitido em 05/10/2026")
      """
    And the workspace it wrote is imported
    And I am connected as "voce-dados"
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Caixa.Loja"}, {"ref": "Caixa.Valor", "agg": "sum"}], "orderBy": [{"ref": "Caixa.Loja", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Centro", 40.5], ["Praia", 20]]'

  @L-Q23 @own-setup
  Scenario: Tables init could not relate answer NO_JOIN_PATH naming the relationship to declare
    # Store 9 of vendas.csv is not in lojas.csv, so init leaves the two tables apart.
    Given a folder holding the file "vendas.csv":
      """
      COD_LOJA;VALOR
      1;10,50
      9;20,00
      """
    And the folder also holds the file "lojas.csv":
      """
      COD_LOJA;CIDADE
      1;Recife
      2;Olinda
      """
    When lumo init runs on that folder
    Then the report says:
      """
      Não liguei:
      """
    And the workspace it wrote is imported
    And I am connected as "voce-dados"
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Lojas.Cidade"}, {"ref": "Vendas.Valor", "agg": "sum"}]}'
    Then the call fails with code "NO_JOIN_PATH"
    And "error.suggestions" is '["Para ligar Vendas a Lojas, declare em relationships do app.yaml: {from: Vendas.Cod loja, to: Lojas.Cod loja}, e importe de novo."]'

  @L-Q12 @L-Q23 @L-R01 @own-setup
  Scenario: A workbook's sheets, named range and Excel table become tables, and the rest is named
    # vendas.xlsx, written by excelize:
    #   sheet Vendas: "Vendas de outubro" in A1, the header on row 3, DIA date-formatted, PRECO
    #   and TOTAL in "R$" #,##0.00, TOTAL the formula =Dn*En with its value stored:
    #     PEDIDO DIA         LOJA    QTD  PRECO     TOTAL
    #     1      01/10/2026  Centro  2    10,50     21,00
    #     2      01/10/2026  Bairro  1    99,90     99,90
    #     3      02/10/2026  Centro  3    5,25      15,75
    #     4      03/10/2026  Praia   10   1,99      19,90
    #     5      03/10/2026  Centro  1    1.234,56  1.234,56
    #   sheet Cadastro: the Excel table Lojas (A1:C4): LOJA CIDADE UF; Centro São Paulo SP;
    #   Bairro Campinas SP; Praia Niterói RJ
    #   sheet Metas: the range named Metas (B2:C5): LOJA META (R$); Centro 1.000; Bairro 500;
    #   Praia 300; and the name Taxa, one cell (E2)
    #   sheet Notas: "Conferido por Ana em 05/10" in A1
    # By hand: SP (Centro, Bairro) sells 21.00 + 15.75 + 1234.56 + 99.90 = 1371.21 against
    # goals of 1000 + 500 = 1500; RJ (Praia) sells 19.90 against 300.
    Given a folder holding "vendas.xlsx" written by excelize: four sheets, a named range and an Excel table
    When lumo init runs on that folder
    Then the app.yaml it wrote has the lines:
      """
      # o cabeçalho está na linha 3, abaixo de um título
      - label: Vendas
      xlsx: {sheet: Vendas, range: "A3:F1048576"}
      - {name: TOTAL, label: Total, type: number, role: measure, unit: BRL, usage: 10}
      - {name: DIA, label: Dia, type: date, role: dimension, usage: 8}
      - label: Lojas
      kind: dimension
      xlsx: {range: "Cadastro!A1:C4"}
      - label: Metas
      xlsx: {range: Metas}
      - {name: META, label: Meta, type: number, role: measure, unit: BRL, usage: 10}
      - {from: Vendas.Loja, to: Lojas.Loja}
      - {from: Metas.Loja, to: Lojas.Loja}
      """
    And the report says:
      """
      Vendas (fato): vendas.xlsx, planilha "Vendas"
      5 linhas, 6 colunas: 3 medidas (Qtd, Preco em R$, Total em R$), 1 data (Dia), 2 chaves (Pedido, Loja)
      Lojas (dimensão): vendas.xlsx, tabela do Excel "Lojas" (Cadastro!A1:C4)
      Metas (fato): vendas.xlsx, intervalo "Metas" (Metas!B2:C5)
      Vendas.Loja → Lojas.Loja: mesmo nome, e os 3 valores de Vendas estão em Lojas
      Metas.Loja → Lojas.Loja: mesmo nome, e os 3 valores de Metas estão em Lojas
      Vendas.Loja → Metas.Loja: Vendas chegaria a Lojas por dois caminhos (Vendas → Lojas e Vendas → Metas → Lojas), o que o lumo import recusa; fica o primeiro
      vendas.xlsx, intervalo "Taxa": o nome aponta para uma célula só (Metas!$E$2)
      vendas.xlsx, planilha "Notas": a primeira linha com valores (linha 1) não é um cabeçalho: A1 tem "Conferido por Ana em 05/10"
      """
    And the workspace it wrote is imported
    And I am connected as "voce-dados"
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Lojas.Uf"}, {"ref": "Vendas.Total", "agg": "sum"}, {"ref": "Metas.Meta", "agg": "sum"}], "orderBy": [{"ref": "Lojas.Uf", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["RJ", 19.9, 300], ["SP", 1371.21, 1500]]'
    And "columns[*].unit" is '[null, "BRL", "BRL"]'

  @L-Q02 @L-Q12 @L-Q14 @L-Q23 @own-setup
  Scenario: A folder of Parquet parts is one table, and a Parquet file another
    # itens/, written by parquet-go in two parts (and a _SUCCESS marker): PRECO is
    # DECIMAL(10,2), VENDIDO_EM a UTC TIMESTAMP in milliseconds, ENTREGA a DATE (NULL once):
    #   part-00000: (1, P1, 2, 10.50, 2026-10-01 09:30:00, 2026-10-03)
    #               (1, P2, 1, 249.90, 2026-10-01 09:30:00, 2026-10-03)
    #               (2, P1, 5, 10.50, 2026-10-02 14:00:00, NULL)
    #   part-00001: (3, P3, 1, 1000.00, 2026-10-05 18:45:10, 2026-10-10)
    #               (4, P2, 2, 249.90, 2026-11-01 08:00:00, 2026-11-02)
    # produtos.parquet: P1 Caneta Papelaria; P2 Mochila Acessórios; P3 Notebook Eletrônicos;
    # P4 Régua Papelaria.
    # By hand: Papelaria (P1) QTD 2 + 5 = 7, PRECO 10.50 + 10.50 = 21.00; Acessórios (P2) QTD
    # 1 + 2 = 3, PRECO 249.90 + 249.90 = 499.80; Eletrônicos (P3) QTD 1, PRECO 1000.00.
    # By month sold: 2026-10: 10.50 + 249.90 + 10.50 + 1000.00 = 1270.90; 2026-11: 249.90.
    Given a folder holding "itens" written by parquet-go: two parts of one table
    And the folder also holds "produtos.parquet" written by parquet-go
    When lumo init runs on that folder
    Then the app.yaml it wrote has the lines:
      """
      # itens/ (Parquet, 2 arquivos): 5 linhas
      - label: Itens
      file: itens
      - {name: PRECO, label: Preco, type: number, role: measure, usage: 10}
      - {name: VENDIDO_EM, label: Vendido em, type: datetime, role: dimension, usage: 8}
      - {name: ENTREGA, label: Entrega, type: date, role: dimension, usage: 8}
      - label: Produtos
      kind: dimension
      file: produtos.parquet
      - {from: Itens.Produto, to: Produtos.Produto}
      """
    And the report says:
      """
      Itens (fato): itens/ (Parquet, 2 arquivos)
      Produtos (dimensão): produtos.parquet (Parquet)
      Itens.Produto → Produtos.Produto: mesmo nome, e os 3 valores de Itens estão em Produtos
      """
    And the workspace it wrote is imported
    And I am connected as "voce-dados"
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Produtos.Categoria"}, {"ref": "Itens.Qtd", "agg": "sum"}, {"ref": "Itens.Preco", "agg": "sum"}], "orderBy": [{"ref": "Produtos.Categoria", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Acessórios", 3, 499.8], ["Eletrônicos", 1, 1000], ["Papelaria", 7, 21]]'
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Itens.Vendido em", "bucket": "month"}, {"ref": "Itens.Preco", "agg": "sum"}], "orderBy": [{"ref": "Itens.Vendido em", "bucket": "month", "dir": "asc"}]}'
    Then "rows" is '[["2026-10", 1270.9], ["2026-11", 249.9]]'

  @L-Q14 @L-Q15 @L-R01 @own-setup
  Scenario: Dates a workbook holds as dd/mm/aaaa texts are dates, as in a CSV
    # pedidos.xlsx, written by excelize, one sheet Pedidos; DIA holds texts, not date serials:
    #   PEDIDO DIA         VALOR
    #   1      30/09/2026  100,50
    #   2      01/10/2026  20
    #   3      31/10/2026  3,25
    #   4      02/11/2026  7
    # By hand: September 100.50, October 20 + 3.25 = 23.25, November 7.
    Given a folder holding "pedidos.xlsx" written by excelize: dates as texts
    When lumo init runs on that folder
    Then the app.yaml it wrote has the lines:
      """
      - {name: DIA, label: Dia, type: date, role: dimension, usage: 8}
      """
    And the workspace it wrote is imported
    And I am connected as "voce-dados"
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Pedidos.Dia", "bucket": "month"}, {"ref": "Pedidos.Valor", "agg": "sum"}], "orderBy": [{"ref": "Pedidos.Dia", "bucket": "month", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["2026-09", 100.5], ["2026-10", 23.25], ["2026-11", 7]]'

  @L-Q12 @L-Q23 @L-R01 @own-setup
  Scenario: A folder mixing CSV, XLSX and Parquet is one app, related across formats
    # vendas.csv below (";", decimal comma, R$, dd/mm/aaaa); lojas.xlsx, written by excelize,
    # one sheet Lojas: LOJA CIDADE UF; Centro São Paulo SP; Bairro Campinas SP; Praia Niterói
    # RJ; itens/ the Parquet parts of the scenario above (orders 1 to 4). LEIAME.md is no data.
    # By hand: SP (orders 1, 2, 3 of Centro and Bairro) QTD 2 + 1 + 5 + 1 = 9, RJ (order 4 of
    # Praia) QTD 2; São Paulo (Centro) VALOR 270.90 + 1000.00 = 1270.90, Campinas 52.50,
    # Niterói 499.80.
    Given a folder holding the file "vendas.csv":
      """
      PEDIDO_ID;DIA;LOJA;VALOR
      1;01/10/2026;Centro;R$ 270,90
      2;02/10/2026;Bairro;R$ 52,50
      3;05/10/2026;Centro;R$ 1.000,00
      4;01/11/2026;Praia;R$ 499,80
      """
    And the folder also holds "lojas.xlsx" written by excelize: one sheet
    And the folder also holds "itens" written by parquet-go: two parts of one table
    And the folder also holds the file "LEIAME.md":
      """
      Exportado do ERP em 05/11.
      """
    When lumo init runs on that folder
    Then the report says:
      """
      3 Tabelas:
      Itens (fato): itens/ (Parquet, 2 arquivos)
      Lojas (dimensão): lojas.xlsx, planilha "Lojas"
      Vendas (fato): vendas.csv
      Itens.Pedido ID → Vendas.Pedido ID: mesmo nome, e os 4 valores de Itens estão em Vendas
      Vendas.Loja → Lojas.Loja: mesmo nome, e os 3 valores de Vendas estão em Lojas
      LEIAME.md: não é um arquivo que o lumo lê
      """
    And the workspace it wrote is imported
    And I am connected as "voce-dados"
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Lojas.Uf"}, {"ref": "Itens.Qtd", "agg": "sum"}], "orderBy": [{"ref": "Lojas.Uf", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["RJ", 2], ["SP", 9]]'
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Lojas.Cidade"}, {"ref": "Vendas.Valor", "agg": "sum"}], "orderBy": [{"ref": "Lojas.Cidade", "dir": "asc"}]}'
    Then "rows" is '[["Campinas", 52.5], ["Niterói", 499.8], ["São Paulo", 1270.9]]'
    And "columns[*].unit" is '[null, "BRL"]'

  @L-Q12 @L-Q23 @L-R01 @own-setup
  Scenario: PostgreSQL tables join the folder's files, the password only in a variable
    # The source tables are the rows the SQL below inserts; metas.csv is below. A boolean is
    # text, VERDADEIRO or FALSO as a workbook's. By hand: SP (Centro, Bairro) sells 270.90 +
    # 52.50 + 1000.00 = 1323.40 against goals of 1000 + 500 = 1500; RJ (Praia) sells 499.80
    # against 300; the paid orders (1 and 3) 270.90 + 1000.00 = 1270.90.
    Given a PostgreSQL source database holding:
      """
      CREATE SCHEMA vendas;
      CREATE TABLE vendas.lojas (loja text PRIMARY KEY, uf text);
      INSERT INTO vendas.lojas VALUES ('Centro', 'SP'), ('Bairro', 'SP'), ('Praia', 'RJ');
      CREATE TABLE vendas.pedidos (id integer PRIMARY KEY, dia date, loja text, valor numeric(12,2), pago boolean, criado timestamptz);
      INSERT INTO vendas.pedidos VALUES
        (1, '2026-10-01', 'Centro', 270.90, true, '2026-10-01 09:30:00-03'),
        (2, '2026-10-02', 'Bairro', 52.50, false, '2026-10-02 14:00:00-03'),
        (3, '2026-10-05', 'Centro', 1000.00, true, '2026-10-05 18:45:10-03'),
        (4, '2026-11-01', 'Praia', 499.80, NULL, '2026-11-01 08:00:00-03');
      """
    And a folder holding the file "metas.csv":
      """
      LOJA,META
      Centro,1000
      Bairro,500
      Praia,300
      """
    When lumo init runs on that folder with --postgres and --table "vendas.pedidos,vendas.lojas", the password in LUMO_INIT_SENHA
    Then the app.yaml it wrote has the lines:
      """
      postgres: {database: lumo_source_
      table: vendas.pedidos}
      - {name: pago, label: Pago, type: string, role: dimension, usage: 5}
      - {name: valor, label: Valor, type: number, role: measure, usage: 10}
      - {name: criado, label: Criado, type: datetime, role: dimension, usage: 8}
      table: vendas.lojas}
      - {from: Pedidos.Loja, to: Lojas.Loja}
      - {from: Metas.Loja, to: Lojas.Loja}
      """
    And the report says:
      """
      Pedidos (fato): banco lumo_source_
      , tabela vendas.pedidos
      Pedidos.Loja → Lojas.Loja: mesmo nome, e os 3 valores de Pedidos estão em Lojas
      A senha do banco lumo_source_
      vem de LUMO_INIT_SENHA
      """
    And no file it wrote, nor the report, holds the password
    And the workspace it wrote is imported
    And I am connected as "voce-dados"
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Lojas.Uf"}, {"ref": "Pedidos.Valor", "agg": "sum"}, {"ref": "Metas.Meta", "agg": "sum"}], "orderBy": [{"ref": "Lojas.Uf", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["RJ", 499.8, 300], ["SP", 1323.4, 1500]]'
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Pedidos.Valor", "agg": "sum"}], "filters": [{"ref": "Pedidos.Pago", "op": "=", "value": "VERDADEIRO"}]}'
    Then "rows" is '[[1270.9]]'

  @L-Q12 @L-Q23 @own-setup
  Scenario: A Hive-partitioned folder, as DuckDB and Spark write it, is one table with its keys as columns
    # vendas/, as DuckDB's COPY vendas TO 'vendas' (FORMAT parquet, PARTITION_BY (ano, mes))
    # writes it: ano=2025/mes=12/data_0.parquet: (1, Centro, 100.00), (2, Praia, 50.50);
    # ano=2026/mes=1/data_0.parquet: (3, Centro, 200.00), (4, Centro, 10.25);
    # ano=2026/mes=2/data_0.parquet: (5, Praia, 300.00). entregas/, as Spark's
    # partitionBy("dia") writes it, with _SUCCESS, .crc files and Snappy pages:
    # dia=2026-01-05: (3, 2), (4, 1); dia=2026-02-10: (5, 3); dia=__HIVE_DEFAULT_PARTITION__:
    # (1, 7). By hand: 2025 sells 100.00 + 50.50 = 150.50, 2026 200.00 + 10.25 + 300.00 =
    # 510.25, of which January 210.25 and February 300.00; the deliveries with a day take
    # 2 + 1 + 3 = 6 days, and Centro's orders (1, 3, 4) 7 + 2 + 1 = 10, Praia's (5) 3.
    Given a folder holding "vendas" written by parquet-go: DuckDB's partitioned COPY
    And the folder also holds "entregas" written by parquet-go: Spark's partitioned write
    When lumo init runs on that folder
    Then the app.yaml it wrote has the lines:
      """
      name: Dados
      # vendas/ (Parquet, particionado por ano e mes, 3 arquivos): 5 linhas
      file: vendas
      - {name: ano, label: Ano, type: number, role: dimension, usage: 5}
      - {name: mes, label: Mes, type: number, role: dimension, usage: 5}
      # entregas/ (Parquet, particionado por dia, 3 arquivos): 4 linhas
      - {name: dia, label: Dia, type: date, role: dimension, usage: 8}
      - {from: Entregas.Pedido ID, to: Vendas.Pedido ID}
      """
    And the report says:
      """
      Entregas (fato): entregas/ (Parquet, particionado por dia, 3 arquivos)
      Vendas (fato): vendas/ (Parquet, particionado por ano e mes, 3 arquivos)
      """
    And the workspace it wrote is imported
    And I am connected as "voce-dados"
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Vendas.Ano"}, {"ref": "Vendas.Valor", "agg": "sum"}], "orderBy": [{"ref": "Vendas.Ano", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[[2025, 150.5], [2026, 510.25]]'
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Vendas.Mes"}, {"ref": "Vendas.Valor", "agg": "sum"}], "filters": [{"ref": "Vendas.Ano", "op": "=", "value": 2026}], "orderBy": [{"ref": "Vendas.Mes", "dir": "asc"}]}'
    Then "rows" is '[[1, 210.25], [2, 300]]'
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Entregas.Prazo", "agg": "sum"}], "filters": [{"ref": "Entregas.Dia", "op": "between", "value": ["2026-01-01", "2026-12-31"]}]}'
    Then "rows" is '[[6]]'
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Vendas.Loja"}, {"ref": "Entregas.Prazo", "agg": "sum"}], "orderBy": [{"ref": "Vendas.Loja", "dir": "asc"}]}'
    Then "rows" is '[["Centro", 10], ["Praia", 3]]'

  @L-Q12 @own-setup
  Scenario: lumo init on a partitioned folder makes it the table, and on one of its partitions names the table's folder
    # vendas/ as in the scenario above. By hand: 2025 sells 150.50, 2026 510.25.
    Given a folder holding "vendas" written by parquet-go: DuckDB's partitioned COPY
    When lumo init runs on "vendas" in that folder
    Then the app.yaml it wrote has the lines:
      """
      name: Vendas
      - label: Vendas
      file: "."
      """
    And the report says:
      """
      Vendas (fato): vendas/ (Parquet, particionado por ano e mes, 3 arquivos)
      claude mcp add lumo -- lumo serve --user voce-vendas
      """
    And the workspace it wrote is imported
    And I am connected as "voce-vendas"
    When I call "query" with '{"appId": "$app:vendas", "fields": [{"ref": "Vendas.Ano"}, {"ref": "Vendas.Valor", "agg": "sum"}], "orderBy": [{"ref": "Vendas.Ano", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[[2025, 150.5], [2026, 510.25]]'
    And lumo init on "vendas/ano=2026" in that folder fails with:
      """
      <folder>/vendas/ano=2026: a pasta é uma partição (ano=2026) de uma tabela Parquet particionada; rode o lumo init em <folder>/vendas, a pasta da tabela, ou na pasta de cima dela
      """

  @L-Q12 @L-R01 @own-setup
  Scenario: A sheet formatted with a merged title and merged groups of columns is read from its header, and a merged header is named as merged
    # formatada.xlsx, written by excelize with its merged cells styled over their ranges:
    #   sheet Vendas: "Vendas de outubro" merged over A1:E1; "Onde e quando" over B2:C2 and
    #   "Valores" over D2:E2; the header on row 3, DIA date-formatted:
    #     PEDIDO DIA         LOJA    QTD  VALOR
    #     1      01/10/2026  Centro  2    21,00
    #     2      01/10/2026  Praia   1    99,90
    #     3      02/10/2026  Centro  3    15,75
    #   sheet Metas: LOJA in A1, META merged over B1:C1; Centro, 1000 and "revisar" on row 2.
    # By hand: Centro sells 21.00 + 15.75 = 36.75, Praia 99.90.
    Given a folder holding "formatada.xlsx" written by excelize: merged title, groups and header
    When lumo init runs on that folder
    Then the app.yaml it wrote has the lines:
      """
      # o cabeçalho está na linha 3, abaixo de um título (linha 1) e de grupos de colunas em células mescladas (linha 2: B2:C2 e D2:E2)
      xlsx: {sheet: Vendas, range: "A3:E1048576"}
      - {name: VALOR, label: Valor, type: number, role: measure, usage: 10}
      - {name: DIA, label: Dia, type: date, role: dimension, usage: 8}
      """
    And the report says:
      """
      Vendas (fato): formatada.xlsx, planilha "Vendas"
      3 linhas, 5 colunas: 2 medidas (Qtd, Valor), 1 data (Dia), 1 chave (Pedido)
      o cabeçalho está na linha 3, abaixo de um título (linha 1) e de grupos de colunas em células mescladas (linha 2: B2:C2 e D2:E2)
      formatada.xlsx, planilha "Metas": o cabeçalho (linha 1) tem células mescladas: B1:C1 é uma célula mesclada, e a coluna C fica sem nome
      """
    And the workspace it wrote is imported
    And I am connected as "voce-dados"
    When I call "query" with '{"appId": "$app:dados", "fields": [{"ref": "Vendas.Loja"}, {"ref": "Vendas.Valor", "agg": "sum"}], "orderBy": [{"ref": "Vendas.Loja", "dir": "asc"}]}'
    Then the call succeeds
    And "rows" is '[["Centro", 36.75], ["Praia", 99.9]]'
