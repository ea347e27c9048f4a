-- Independent oracle for the query features: the fixture CSVs loaded into the sqlite3 CLI with
-- hand-written SQL, sharing no code with lumo. Run from the repo root:
--   sqlite3 :memory: -cmd '.read features/testdata/oracle/load.sql' "<SQL from a feature comment>"
CREATE TABLE vendas (ID INTEGER, DATA TEXT, LOJA_ID INTEGER, PRODUTO_ID INTEGER, CLIENTE TEXT, SITUACAO TEXT, CANAL TEXT,
  VALOR REAL, VALOR_LIQ REAL, VALOR_2 REAL, CUSTO REAL, QTD REAL, DESCONTO REAL, TEMPO_CAIXA REAL, PARCELAS REAL, CUPOM TEXT);
CREATE TABLE lojas (ID INTEGER, NOME TEXT, CIDADE TEXT, UF TEXT, GERENTE TEXT);
CREATE TABLE produtos (ID INTEGER, NOME TEXT, CATEGORIA TEXT, PRECO REAL);
CREATE TABLE metas (MES TEXT, LOJA_ID INTEGER, META REAL);
CREATE TABLE recebimentos (ID INTEGER, DATA TEXT, MEIO TEXT, BRUTO REAL, TAXA REAL, TAXA_PCT REAL);
.import --csv --skip 1 impl/lumo/demo/apps/vendas/vendas.csv vendas
.import --csv --skip 1 impl/lumo/demo/apps/vendas/lojas.csv lojas
.import --csv --skip 1 impl/lumo/demo/apps/vendas/produtos.csv produtos
.import --csv --skip 1 impl/lumo/demo/apps/vendas/metas.csv metas
.import --csv --skip 1 impl/lumo/demo/apps/vendas-financeiro/recebimentos.csv recebimentos
UPDATE vendas SET CLIENTE = NULL WHERE CLIENTE = '\N';
UPDATE vendas SET SITUACAO = NULL WHERE SITUACAO = '\N';
UPDATE vendas SET CUPOM = NULL WHERE CUPOM = '\N';
UPDATE vendas SET VALOR_2 = NULL WHERE VALOR_2 = '\N';
UPDATE lojas SET GERENTE = NULL WHERE GERENTE = '\N';
