-- Independent oracle for features/lumo/trust.feature: the fixture CSVs loaded into the sqlite3
-- CLI with hand-written SQL, sharing no code with lumo. Run from the repo root:
--   sqlite3 :memory: -cmd '.read features/testdata/trust/oracle.sql' "<SQL from a feature comment>"
-- Money is compared in integer cents (CENTS), so no floating-point difference decides an answer.
CREATE TABLE pedidos (ID INTEGER, CLIENTE TEXT, VALOR REAL, CUSTO REAL, DATA TEXT);
CREATE TABLE itens (ITEM INTEGER, PEDIDO INTEGER, CATEGORIA TEXT, QTD REAL);
.import --csv --skip 1 features/testdata/trust/apps/loja/pedidos.csv pedidos
.import --csv --skip 1 features/testdata/trust/apps/loja/itens.csv itens
-- \N is NULL; an empty field stays the empty text
UPDATE pedidos SET CLIENTE = NULL WHERE CLIENTE = '\N';
CREATE VIEW cents AS SELECT ID, CLIENTE, CAST(ROUND(VALOR * 100) AS INTEGER) AS VALOR_C,
  CAST(ROUND(CUSTO * 100) AS INTEGER) AS CUSTO_C FROM pedidos;
