-- Independent oracle for features/lumo/rollups.feature: the fixture CSVs loaded into the
-- sqlite3 CLI with hand-written SQL over the base rows, sharing no code with lumo. Run from the
-- repo root:
--   sqlite3 :memory: -cmd '.read features/testdata/rollups/oracle.sql' "<SQL from a feature comment>"
CREATE TABLE vendas (ID INTEGER, DATA TEXT, LOJA_ID INTEGER, SITUACAO TEXT, CANAL TEXT, VALOR REAL, QTD REAL);
CREATE TABLE lojas (ID INTEGER, NOME TEXT, UF TEXT);
.import --csv --skip 1 features/testdata/rollups/apps/vendas/vendas.csv vendas
.import --csv --skip 1 features/testdata/rollups/apps/vendas/lojas.csv lojas
-- \N and an empty field are blank (NULL) values
UPDATE vendas SET SITUACAO = NULL WHERE SITUACAO IN ('', '\N');
UPDATE vendas SET VALOR = NULL WHERE VALOR = '\N';
UPDATE vendas SET LOJA_ID = NULL WHERE LOJA_ID = '\N';
