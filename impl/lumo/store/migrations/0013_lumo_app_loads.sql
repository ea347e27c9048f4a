-- load_id is the import counter's value (lumo_ids kind 'import') after the import that loaded the
-- app's data tables and rollups: a columnar copy of a table is current when it was copied at the
-- same load_id. NULL (apps imported before this column) reads as 0: their data changes only with
-- an import, which sets it.
ALTER TABLE lumo_apps ADD COLUMN load_id BIGINT;
