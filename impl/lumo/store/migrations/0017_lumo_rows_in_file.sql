-- rows_in_file says the import kept the app's data tables and rollups in its DuckDB file alone
-- (the embedded default): the database holds no row of them, and every read of the app's data
-- goes to the columnar store. 0 for apps whose rows the database holds.
ALTER TABLE lumo_apps ADD COLUMN rows_in_file INTEGER NOT NULL DEFAULT 0;
