-- The fixture's rows in SQLite, to compute the scenarios' expected answers independently:
--   sqlite3 :memory: -cmd '.read features/testdata/whole/oracle.sql' "<SQL>"
.mode csv
.import features/testdata/whole/apps/estoque/ofertas.csv ofertas
.import features/testdata/whole/apps/estoque/fornecedores.csv fornecedores
.mode list
