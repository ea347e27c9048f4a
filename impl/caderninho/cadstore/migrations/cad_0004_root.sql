-- caderninho: the installation's folder (where installation.yaml is), so an import reads only
-- statements that resolve inside it, symbolic links included. NULL until the next registration.
-- Portable SQL: the same file runs on SQLite and PostgreSQL.
ALTER TABLE cad_installation ADD COLUMN root_path TEXT;
