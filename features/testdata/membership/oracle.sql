-- Independent oracle for features/lumo/{segments,related_columns,formulas_como_em}.feature: the fixture CSVs loaded into the
-- sqlite3 CLI with hand-written SQL, sharing no code with lumo. Run from the repo root:
--   sqlite3 :memory: -cmd '.read features/testdata/membership/oracle.sql' "<SQL from a feature comment>"
-- A \N field is NULL; an empty field is the empty text in a text column and NULL in a number
-- column. The *_F columns are the text folded as lumo's like folds it (lower case, no accents),
-- written here with replace() over the accented letters the files hold.
CREATE TABLE pedidos (ID INTEGER, CLIENTE_ID INTEGER, DATA TEXT, SITUACAO TEXT, TIPO TEXT, PRIORIDADE TEXT, VALOR REAL);
CREATE TABLE itens (ID INTEGER, PEDIDO_ID INTEGER, PECA_ID INTEGER, FORNECEDOR_ID INTEGER, QTD REAL, VALOR REAL);
CREATE TABLE clientes (ID INTEGER, NOME TEXT, SEGMENTO TEXT, NACAO_ID INTEGER);
CREATE TABLE pecas (ID INTEGER, NOME TEXT, TIPO TEXT);
CREATE TABLE fornecedores (ID INTEGER, NOME TEXT, NACAO_ID INTEGER);
CREATE TABLE pecafornecedor (PECA_ID INTEGER, FORNECEDOR_ID INTEGER, CUSTO REAL);
CREATE TABLE nacoes (ID INTEGER, NOME TEXT, REGIAO TEXT);
.import --csv --skip 1 features/testdata/membership/apps/pedidos/pedidos.csv pedidos
.import --csv --skip 1 features/testdata/membership/apps/pedidos/itens.csv itens
.import --csv --skip 1 features/testdata/membership/apps/pedidos/clientes.csv clientes
.import --csv --skip 1 features/testdata/membership/apps/pedidos/pecas.csv pecas
.import --csv --skip 1 features/testdata/membership/apps/pedidos/fornecedores.csv fornecedores
.import --csv --skip 1 features/testdata/membership/apps/pedidos/pecafornecedor.csv pecafornecedor
.import --csv --skip 1 features/testdata/membership/apps/pedidos/nacoes.csv nacoes
UPDATE pedidos SET CLIENTE_ID = NULL WHERE CLIENTE_ID = '\N';
UPDATE pedidos SET DATA = NULL WHERE DATA = '\N';
UPDATE pedidos SET SITUACAO = NULL WHERE SITUACAO = '\N';
UPDATE pedidos SET TIPO = NULL WHERE TIPO = '\N';
UPDATE pedidos SET PRIORIDADE = NULL WHERE PRIORIDADE = '\N';
UPDATE pedidos SET VALOR = NULL WHERE VALOR = '\N';
UPDATE itens SET PEDIDO_ID = NULL WHERE PEDIDO_ID = '\N';
UPDATE itens SET PECA_ID = NULL WHERE PECA_ID = '\N';
UPDATE itens SET FORNECEDOR_ID = NULL WHERE FORNECEDOR_ID = '\N';
UPDATE itens SET QTD = NULL WHERE QTD = '\N';
UPDATE itens SET VALOR = NULL WHERE VALOR = '\N';
UPDATE clientes SET NOME = NULL WHERE NOME = '\N';
UPDATE clientes SET SEGMENTO = NULL WHERE SEGMENTO = '\N';
UPDATE clientes SET NACAO_ID = NULL WHERE NACAO_ID = '\N';
UPDATE pecas SET NOME = NULL WHERE NOME = '\N';
UPDATE pecas SET TIPO = NULL WHERE TIPO = '\N';
UPDATE fornecedores SET NOME = NULL WHERE NOME = '\N';
UPDATE fornecedores SET NACAO_ID = NULL WHERE NACAO_ID = '\N';
UPDATE pecafornecedor SET CUSTO = NULL WHERE CUSTO = '\N';
UPDATE pedidos SET VALOR = NULL WHERE VALOR = '';
ALTER TABLE pedidos ADD COLUMN TIPO_F TEXT;
UPDATE pedidos SET TIPO_F = lower(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(TIPO,'Ã','a'),'ã','a'),'Á','a'),'á','a'),'Â','a'),'â','a'),'À','a'),'à','a'),'Ç','c'),'ç','c'),'É','e'),'é','e'),'Ê','e'),'ê','e'),'Í','i'),'í','i'),'Ó','o'),'ó','o'),'Õ','o'),'õ','o'),'Ô','o'),'ô','o'),'Ú','u'),'ú','u'));
ALTER TABLE pecas ADD COLUMN TIPO_F TEXT;
UPDATE pecas SET TIPO_F = lower(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(TIPO,'Ã','a'),'ã','a'),'Á','a'),'á','a'),'Â','a'),'â','a'),'À','a'),'à','a'),'Ç','c'),'ç','c'),'É','e'),'é','e'),'Ê','e'),'ê','e'),'Í','i'),'í','i'),'Ó','o'),'ó','o'),'Õ','o'),'õ','o'),'Ô','o'),'ô','o'),'Ú','u'),'ú','u'));
