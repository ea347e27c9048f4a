-- Independent oracle for features/lumo/calculated.feature: the fixture CSVs loaded into the
-- sqlite3 CLI with hand-written SQL, sharing no code with lumo. Run from the repo root:
--   sqlite3 :memory: -cmd '.read features/testdata/calc/oracle.sql' "<SQL from a feature comment>"
CREATE TABLE pedidos (ID INTEGER, PRODUTO_ID INTEGER, PRECO REAL, QTD REAL, DESCONTO REAL, DATA_PEDIDO TEXT,
  PROMETIDA TEXT, ENTREGA TEXT, SITUACAO TEXT, PRIORIDADE TEXT, PROMO REAL);
CREATE TABLE produtos (ID INTEGER, NOME TEXT, CATEGORIA TEXT, CUSTO REAL);
.import --csv --skip 1 features/testdata/calc/apps/vendas/pedidos.csv pedidos
.import --csv --skip 1 features/testdata/calc/apps/vendas/produtos.csv produtos
-- an empty CSV field is a blank (NULL) value
UPDATE pedidos SET DESCONTO = NULL WHERE DESCONTO = '';
UPDATE pedidos SET ENTREGA = NULL WHERE ENTREGA = '';
