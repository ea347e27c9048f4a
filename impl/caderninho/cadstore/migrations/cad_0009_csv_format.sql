-- The format of a connection's CSV statements, as installation.yaml declares it (format:, a key of
-- bankcsv.Formats); '' when undeclared: each CSV file is then read in the format its header is
-- recognised as. OFX/QFX files are read whatever it says.
-- Portable SQL: the same file runs on SQLite and PostgreSQL.
ALTER TABLE cad_connections ADD COLUMN csv_format VARCHAR(40) NOT NULL DEFAULT '';
