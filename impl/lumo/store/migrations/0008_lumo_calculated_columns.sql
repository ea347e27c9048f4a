-- Calculated columns: formula is the row formula of a column computed at query time ("" for a
-- column with data). A calculated column has no data column: its sql_name and fold_sql_name are "".

ALTER TABLE lumo_columns ADD COLUMN formula TEXT NOT NULL DEFAULT '';
