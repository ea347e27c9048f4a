-- key_unique says the import found no key of the relationship's one side in two of its rows, so
-- a join along it repeats no row of the many side: a query may then filter the many side's rows
-- grouped by the key before the join. 0 for relationships imported before it was checked.
ALTER TABLE lumo_relationships ADD COLUMN key_unique INTEGER NOT NULL DEFAULT 0;
