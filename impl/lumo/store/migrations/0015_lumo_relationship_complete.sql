-- complete says the import found, for every row of the relationship's many side, its row on the
-- one side (no blank key, no key that matches nothing): a query may then join it inner, which
-- lets the engine reorder the joins. 0 for relationships imported before it was checked.
ALTER TABLE lumo_relationships ADD COLUMN complete INTEGER NOT NULL DEFAULT 0;
