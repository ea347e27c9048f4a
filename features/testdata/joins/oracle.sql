-- Independent oracle for features/lumo/joins.feature: the fixture CSVs loaded into the sqlite3
-- CLI with hand-written SQL, sharing no code with lumo. Run from the repo root:
--   sqlite3 :memory: -cmd '.read features/testdata/joins/oracle.sql' "<SQL from a feature comment>"
CREATE TABLE itens (ID INTEGER, CLIENTE_ID INTEGER, PECA_ID INTEGER, FORNECEDOR_ID INTEGER, QTD REAL, VALOR REAL);
CREATE TABLE clientes (ID INTEGER, NOME TEXT, NACAO_ID INTEGER);
CREATE TABLE fornecedores (ID INTEGER, NOME TEXT, NACAO_ID INTEGER);
CREATE TABLE pecafornecedor (PECA_ID INTEGER, FORNECEDOR_ID INTEGER, CUSTO REAL, ESTOQUE REAL);
CREATE TABLE nacoes (ID INTEGER, NOME TEXT, REGIAO TEXT);
.import --csv --skip 1 features/testdata/joins/apps/pedidos/itens.csv itens
.import --csv --skip 1 features/testdata/joins/apps/pedidos/clientes.csv clientes
.import --csv --skip 1 features/testdata/joins/apps/pedidos/fornecedores.csv fornecedores
.import --csv --skip 1 features/testdata/joins/apps/pedidos/pecafornecedor.csv pecafornecedor
.import --csv --skip 1 features/testdata/joins/apps/pedidos/nacoes.csv nacoes
