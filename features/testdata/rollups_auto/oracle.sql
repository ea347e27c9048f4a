-- Independent oracle for features/lumo/rollups_auto.feature: the fixture CSVs loaded into the
-- sqlite3 CLI with hand-written SQL over the base rows, sharing no code with lumo. Run from the
-- repo root:
--   sqlite3 :memory: -cmd '.read features/testdata/rollups_auto/oracle.sql' "<SQL from a feature comment>"
-- (every app holds the same vendas.csv; lojas_dup is chave_repetida's lojas.csv, key 2 twice)
CREATE TABLE vendas (ID INTEGER, DATA TEXT, LOJA_ID INTEGER, CANAL TEXT, VALOR REAL, QTD REAL);
CREATE TABLE lojas (ID INTEGER, NOME TEXT, UF TEXT);
CREATE TABLE lojas_dup (ID INTEGER, NOME TEXT, UF TEXT);
.import --csv --skip 1 features/testdata/rollups_auto/apps/mensal/vendas.csv vendas
.import --csv --skip 1 features/testdata/rollups_auto/apps/mensal/lojas.csv lojas
.import --csv --skip 1 features/testdata/rollups_auto/apps/chave_repetida/lojas.csv lojas_dup
-- \N is a blank (NULL) value
UPDATE vendas SET VALOR = NULL WHERE VALOR = '\N';
