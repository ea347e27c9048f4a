Feature: App tables loaded from another PostgreSQL database
  An app table may come from a table, a view or a SELECT of a PostgreSQL database that
  workspace.yaml names by a DSN without password: the password comes from the variable its
  passwordEnv names, and is never stored, shown or logged. Every import reads the source again in
  a read-only transaction, inside the same atomic import; the moment the read began is the
  table's loadedAt, so dataAsOf tells how fresh the answer is. timestamptz values are read as the
  wall clock in the database's timeZone (America/Sao_Paulo unless declared).

  These scenarios need a PostgreSQL server for the source (LUMO_TEST_SOURCE_DB or LUMO_TEST_DB)
  and are skipped, saying so, without one. The expected numbers are what the source database
  itself answers, with psql, over the rows the Background inserts; the SQL is beside each
  scenario.

  Background:
    Given the PostgreSQL source database holds:
      """
      CREATE SCHEMA cadastro;
      CREATE TABLE cadastro.clientes (id int4, nome text, uf char(2));
      INSERT INTO cadastro.clientes VALUES (1, 'Padaria São João', 'SP'), (2, 'Mercearia Conceição', 'MG'), (3, 'Açougue do Zé', 'SP');
      CREATE TABLE pedidos (numero int8, cliente int4, valor numeric(12,2), emitido timestamptz, situacao text);
      INSERT INTO pedidos VALUES
        (101, 1, 1234.56, '2026-10-01 09:30:00-03', 'faturado'),
        (102, 2, 10.00, '2026-10-15 14:00:00-03', 'faturado'),
        (103, 1, 0.99, '2026-11-02 08:00:00-03', 'cancelado'),
        (104, 3, 2000000.00, '2026-11-30 23:59:59-03', 'faturado'),
        (105, 2, 999.99, '2026-11-21 10:00:00-03', 'rascunho');
      """
    And the workspace in "testdata/pgsource" is imported from it with LUMO_FEATURE_ERP_SENHA set, reading its tables as:
      """
      banco erp, tabela cadastro.clientes: 3 linhas
      banco erp, consulta: 4 linhas
      """
    And I am connected as "ines"

  @L-Q12 @L-R01 @L-R06 @own-setup
  Scenario: A table and a SELECT of the source answer like files, exact to the cent
    # psql: SELECT c.uf, sum(p.valor) FROM pedidos p JOIN cadastro.clientes c ON c.id = p.cliente
    #       WHERE p.situacao <> 'rascunho' GROUP BY c.uf ORDER BY 2 DESC;  -> SP 2001235.55, MG 10.00
    When I call "query" with '{"appId": "$app:erp", "fields": [{"ref": "Clientes.UF"}, {"ref": "Pedidos.Valor", "agg": "sum"}], "orderBy": [{"ref": "Pedidos.Valor", "agg": "sum", "dir": "desc"}]}'
    Then the call succeeds
    And "rows" is '[["SP", 2001235.55], ["MG", 10]]'
    And "columns[*].unit" is '[null, "BRL"]'
    And "dataAsOf" is a time during the last import

  @L-Q12 @L-Q14 @own-setup
  Scenario: timestamptz values are São Paulo wall-clock times
    # psql (SET TIME ZONE 'America/Sao_Paulo'): SELECT to_char(emitido, 'YYYY-MM'), sum(valor), count(*)
    #       FROM pedidos WHERE situacao <> 'rascunho' GROUP BY 1 ORDER BY 1;
    #       -> 2026-10 1244.56 2; 2026-11 2000000.99 2 (order 104, 23:59:59-03 on the 30th, is
    #       December in UTC)
    When I call "query" with '{"appId": "$app:erp", "fields": [{"ref": "Pedidos.Emitido em", "bucket": "month"}, {"ref": "Pedidos.Valor", "agg": "sum"}, {"ref": "Pedidos.Pedido", "agg": "count"}], "orderBy": [{"ref": "Pedidos.Emitido em", "bucket": "month", "dir": "asc"}]}'
    Then "rows" is '[["2026-10", 1244.56, 2], ["2026-11", 2000000.99, 2]]'

  @L-R06 @own-setup
  Scenario: Importing again reads the source again
    # psql, after the INSERT: SELECT count(*), sum(valor) FROM pedidos WHERE situacao <> 'rascunho';
    #       -> 5, 2001345.55
    When the source database runs:
      """
      INSERT INTO pedidos VALUES (106, 2, 100.00, now(), 'faturado');
      """
    And the workspace is imported again from it
    And I am connected as "ines"
    And I call "query" with '{"appId": "$app:erp", "fields": [{"ref": "Pedidos.Pedido", "agg": "count"}, {"ref": "Pedidos.Valor", "agg": "sum"}]}'
    Then "rows" is '[[5, 2001345.55]]'
    And "dataAsOf" is a time during the last import

  @own-setup
  Scenario: A source that does not fit is refused naming the source and the column, and nothing changes
    When I import the workspace in "testdata/pgsource" from it with LUMO_FEATURE_ERP_SENHA set and "apps/erp/app.yaml" holding:
      """
      name: ERP do atacado
      tables:
        - label: Clientes
          name: clientes
          kind: dimension
          postgres: {database: erp, table: cadastro.clientes}
          columns:
            - {name: ID, label: Id, type: number, role: key}
            - {name: CIDADE, label: Cidade, type: string}
      """
    Then the import fails without the password, with:
      """
      banco erp, tabela cadastro.clientes: CIDADE: a origem não tem a coluna "CIDADE"; ela tem id, nome, uf
      """
    When I import the workspace in "testdata/pgsource" from it with LUMO_FEATURE_ERP_SENHA set and "apps/erp/app.yaml" holding:
      """
      name: ERP do atacado
      tables:
        - label: Clientes
          name: clientes
          kind: dimension
          postgres: {database: erp, table: cadastro.clientes}
          columns:
            - {name: NOME, label: Cliente, type: number}
      """
    Then the import fails without the password, with:
      """
      banco erp, tabela cadastro.clientes: NOME: a coluna é text na origem, e o app.yaml a declara number (número); mude o type no app.yaml ou converta-a na consulta (query: SELECT ..., coluna::tipo AS NOME)
      """
    When I call "query" with '{"appId": "$app:erp", "fields": [{"ref": "Pedidos.Pedido", "agg": "count"}]}'
    Then "rows" is '[[4]]'
