-- Role-playing copies: a table of an app that reads another table of the same app (copy_of, its
-- id) under its own label, with relationships of its own. Its sql_name (and its columns') are the
-- original's: no data is copied.

ALTER TABLE lumo_tables ADD COLUMN copy_of BIGINT;
