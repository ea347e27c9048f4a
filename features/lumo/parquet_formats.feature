Feature: Tables read from Parquet files
  A table's file may be a .parquet file or a folder of part files (*.parquet, read in name order;
  markers such as _SUCCESS are no rows). Columns are matched to app.yaml by physical name and read
  with their Parquet types: DECIMAL amounts keep their exact value, DATE and TIMESTAMP are days and
  hours (a TIMESTAMP adjusted to UTC is an instant, read as its wall clock in Brasília, as a
  PostgreSQL timestamptz is; a local one as it is), NULLs are NULL. The import says how many files
  and rows it read.

  features/testdata/parquet/apps/vendas holds vendas.parquet (1.000 sales in four row groups:
  DECIMAL(12,2) amounts, DECIMAL(5,4) discounts, a UTC TIMESTAMP, a DATE, a local TIMESTAMP for
  the delivery, NULL for some clients and deliveries, texts with accents) and the folder itens
  (2.000 lines in three parts). features/testdata/parquet/gen/main.go writes them with
  parquet-go and, in features/testdata/parquet/check, the same rows as plain CSV; every expected
  number below is what the sqlite3 CLI computes over those CSVs, not our reader, with:
    C=features/testdata/parquet/check; sqlite3 :memory: -cmd '.mode csv' \
      -cmd ".import $C/vendas.csv vendas" -cmd ".import $C/itens.csv itens" -cmd '.mode list' "<query>"
  where each scenario's comment gives its <query>; amounts are summed exactly, in cents
  (cast(replace(VALOR,'.','') as integer)/100.0), and an empty field of the CSV is a NULL.

  Background:
    Given the workspace in "testdata/parquet" is imported, reading its files as:
      """
      apps/vendas/vendas.parquet: Parquet, 1.000 linhas
      apps/vendas/itens: Parquet, 3 arquivos, 2.000 linhas
      """
    And I am connected as "rui"

  @L-Q12 @L-R01 @own-setup
  Scenario: DECIMAL amounts sum exactly
    # select sum(cast(replace(VALOR,'.','') as integer))/100.0, count(*) from vendas;
    #   2379595.0|1000
    # select max(DESCONTO), min(DESCONTO), sum(QTD) from vendas;  0.1000|0.0000|4997
    When I call "query" with '{"appId": "$app:vendas-parquet", "fields": [{"ref": "Vendas.Valor", "agg": "sum"}, {"ref": "Vendas.Id", "agg": "count"}]}'
    Then the call succeeds
    And "rows" is '[[2379595, 1000]]'
    And "columns[*].unit" is '["BRL", null]'
    When I call "query" with '{"appId": "$app:vendas-parquet", "fields": [{"ref": "Vendas.Desconto", "agg": "max"}, {"ref": "Vendas.Desconto", "agg": "min"}, {"ref": "Vendas.Qtd", "agg": "sum"}]}'
    Then "rows" is '[[0.1, 0, 4997]]'

  @L-Q02 @L-Q12 @own-setup
  Scenario: Texts with accents group the amounts, and NULL clients are not counted
    # select LOJA, sum(cast(replace(VALOR,'.','') as integer))/100.0 s from vendas group by LOJA
    #   order by s desc;  Centro|803205.27  Jardins|794554.73  Ribeirão|781835.0
    # select count(*) from vendas where CLIENTE='Conceição';  167
    # select count(nullif(CLIENTE,'')) from vendas;  833
    When I call "query" with '{"appId": "$app:vendas-parquet", "fields": [{"ref": "Vendas.Loja"}, {"ref": "Vendas.Valor", "agg": "sum"}], "orderBy": [{"ref": "Vendas.Valor", "agg": "sum", "dir": "desc"}]}'
    Then "rows" is '[["Centro", 803205.27], ["Jardins", 794554.73], ["Ribeirão", 781835]]'
    When I call "query" with '{"appId": "$app:vendas-parquet", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [{"ref": "Vendas.Cliente", "op": "=", "value": "Conceição"}]}'
    Then "rows" is '[[167]]'
    When I call "query" with '{"appId": "$app:vendas-parquet", "fields": [{"ref": "Vendas.Cliente", "agg": "count"}]}'
    Then "rows" is '[[833]]'

  @L-Q03 @L-Q14 @L-Q18 @own-setup
  Scenario: TIMESTAMP and DATE columns are days and hours
    # DATA is a UTC TIMESTAMP (the check CSV writes it in UTC): its month is Brasília's, three hours behind.
    # select substr(datetime(DATA, '-3 hours'),1,7), sum(cast(replace(VALOR,'.','') as integer))/100.0 from vendas
    #   group by 1 order by 1;  2026-09|760917.57  2026-10|782545.52  2026-11|777371.75
    #   2026-12|58760.16
    # select count(*) from vendas where DIA between '2026-10-01' and '2026-10-31';  335
    # select count(*) from vendas where ENTREGA <> '' and ENTREGA >= '2026-11-01';  274
    When I call "query" with '{"appId": "$app:vendas-parquet", "fields": [{"ref": "Vendas.Data", "bucket": "month"}, {"ref": "Vendas.Valor", "agg": "sum"}], "orderBy": [{"ref": "Vendas.Data", "bucket": "month", "dir": "asc"}]}'
    Then "rows" is '[["2026-09", 760917.57], ["2026-10", 782545.52], ["2026-11", 777371.75], ["2026-12", 58760.16]]'
    When I call "query" with '{"appId": "$app:vendas-parquet", "fields": [{"ref": "Vendas.Id", "agg": "count"}], "filters": [{"ref": "Vendas.Dia", "op": "between", "value": ["2026-10-01", "2026-10-31"]}]}'
    Then "rows" is '[[335]]'
    When I call "query" with '{"appId": "$app:vendas-parquet", "fields": [{"ref": "Vendas.Entrega", "agg": "count"}], "filters": [{"ref": "Vendas.Entrega", "op": ">=", "value": "2026-11-01"}]}'
    Then "rows" is '[[274]]'

  @L-Q12 @L-Q23 @own-setup
  Scenario: A folder of part files is one table, joined like any other
    # select count(*), sum(cast(replace(PRECO,'.','') as integer))/100.0 from itens;  2000|90700.0
    # select v.LOJA, sum(cast(replace(i.PRECO,'.','') as integer))/100.0 s from itens i join
    #   vendas v on v.ID = i.VENDA group by v.LOJA order by s desc;
    #   Jardins|30473.26  Ribeirão|30357.63  Centro|29869.11
    When I call "query" with '{"appId": "$app:vendas-parquet", "fields": [{"ref": "Itens.Item", "agg": "count"}, {"ref": "Itens.Preço", "agg": "sum"}]}'
    Then "rows" is '[[2000, 90700]]'
    When I call "query" with '{"appId": "$app:vendas-parquet", "fields": [{"ref": "Vendas.Loja"}, {"ref": "Itens.Preço", "agg": "sum"}], "orderBy": [{"ref": "Itens.Preço", "agg": "sum", "dir": "desc"}]}'
    Then "rows" is '[["Jardins", 30473.26], ["Ribeirão", 30357.63], ["Centro", 29869.11]]'
