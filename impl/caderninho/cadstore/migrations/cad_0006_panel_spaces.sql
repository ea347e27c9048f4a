-- Connections and spaces made in caderninho's private panel (or by caderninho admin): origin is
-- 'file' (installation.yaml) or 'panel', so a re-import keeps what the panel made.
-- Portable SQL: the same file runs on SQLite and PostgreSQL.
ALTER TABLE cad_connections ADD COLUMN origin VARCHAR(10) NOT NULL DEFAULT 'file';
ALTER TABLE cad_spaces ADD COLUMN origin VARCHAR(10) NOT NULL DEFAULT 'file';
