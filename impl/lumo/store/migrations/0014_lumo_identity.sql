-- database_id names this database for everything derived from it outside it (the columnar copy of
-- each replica): a random id written once, after migration, by the first process that opens the
-- database (store.ensureIdentity), so a new database at the same address has another. The one row
-- has singleton = 1.
CREATE TABLE lumo_identity (
    singleton INTEGER PRIMARY KEY,
    database_id VARCHAR(64) NOT NULL
);
