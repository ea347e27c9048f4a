-- The lumo catalogue: tenants, users, desks and the semantic model of every app.
-- Portable SQL: the same file runs on SQLite and PostgreSQL. Ids are assigned by the importer
-- from lumo_ids, so that they stay stable across re-imports of the same natural keys.
-- Timestamps are RFC 3339 text, keeping the offset they were written with.

CREATE TABLE lumo_ids (
    kind VARCHAR(20) PRIMARY KEY,
    last_id BIGINT NOT NULL
);

INSERT INTO lumo_ids (kind, last_id) VALUES
    ('import', 0), ('tenant', 0), ('user', 0), ('desk', 0), ('app', 0), ('table', 0), ('column', 0), ('expression', 0);

CREATE TABLE lumo_tenants (
    id BIGINT PRIMARY KEY,
    tenant_key VARCHAR(63) NOT NULL UNIQUE,
    name VARCHAR(200) NOT NULL,
    imported_at VARCHAR(40) NOT NULL
);

CREATE TABLE lumo_users (
    id BIGINT PRIMARY KEY,
    tenant_id BIGINT NOT NULL REFERENCES lumo_tenants (id),
    login VARCHAR(63) NOT NULL UNIQUE,
    name VARCHAR(200) NOT NULL,
    token_sha256 CHAR(64) NOT NULL UNIQUE
);

CREATE INDEX lumo_users_tenant ON lumo_users (tenant_id);

CREATE TABLE lumo_desks (
    id BIGINT PRIMARY KEY,
    tenant_id BIGINT NOT NULL REFERENCES lumo_tenants (id),
    name VARCHAR(200) NOT NULL,
    UNIQUE (tenant_id, name)
);

CREATE TABLE lumo_desk_members (
    desk_id BIGINT NOT NULL REFERENCES lumo_desks (id),
    user_id BIGINT NOT NULL REFERENCES lumo_users (id),
    PRIMARY KEY (desk_id, user_id)
);

CREATE INDEX lumo_desk_members_user ON lumo_desk_members (user_id);

-- An app is published from a source folder (data_app_id = id) or is a personal copy
-- (clone_of and owner_id set, desk_id and published_at null) reading the data tables of
-- data_app_id.
CREATE TABLE lumo_apps (
    id BIGINT PRIMARY KEY,
    tenant_id BIGINT NOT NULL REFERENCES lumo_tenants (id),
    app_key VARCHAR(63) NOT NULL,
    name VARCHAR(200) NOT NULL,
    description TEXT NOT NULL,
    desk_id BIGINT REFERENCES lumo_desks (id),
    owner_id BIGINT REFERENCES lumo_users (id),
    clone_of BIGINT REFERENCES lumo_apps (id),
    data_app_id BIGINT NOT NULL REFERENCES lumo_apps (id),
    published_at VARCHAR(40),
    UNIQUE (tenant_id, app_key)
);

CREATE INDEX lumo_apps_desk ON lumo_apps (desk_id);
CREATE INDEX lumo_apps_owner ON lumo_apps (owner_id);

-- sql_name is the physical data table (shared by an app and its copies); row_count is null for a
-- table that was never loaded.
CREATE TABLE lumo_tables (
    id BIGINT PRIMARY KEY,
    app_id BIGINT NOT NULL REFERENCES lumo_apps (id),
    pos INTEGER NOT NULL,
    label VARCHAR(200) NOT NULL,
    name VARCHAR(63) NOT NULL,
    kind VARCHAR(20) NOT NULL,
    loaded_at VARCHAR(40),
    sql_name VARCHAR(63) NOT NULL,
    row_count BIGINT,
    UNIQUE (app_id, name)
);

CREATE TABLE lumo_columns (
    id BIGINT PRIMARY KEY,
    table_id BIGINT NOT NULL REFERENCES lumo_tables (id),
    pos INTEGER NOT NULL,
    name VARCHAR(63) NOT NULL,
    label VARCHAR(200) NOT NULL,
    col_type VARCHAR(20) NOT NULL,
    role VARCHAR(20) NOT NULL,
    unit VARCHAR(20) NOT NULL,
    usage INTEGER NOT NULL,
    description TEXT NOT NULL,
    scale INTEGER NOT NULL,
    sql_name VARCHAR(63) NOT NULL,
    fold_sql_name VARCHAR(63) NOT NULL,
    UNIQUE (table_id, name)
);

CREATE TABLE lumo_relationships (
    app_id BIGINT NOT NULL REFERENCES lumo_apps (id),
    pos INTEGER NOT NULL,
    from_column_id BIGINT NOT NULL REFERENCES lumo_columns (id),
    to_column_id BIGINT NOT NULL REFERENCES lumo_columns (id),
    PRIMARY KEY (app_id, pos)
);

CREATE TABLE lumo_expressions (
    id BIGINT PRIMARY KEY,
    app_id BIGINT NOT NULL REFERENCES lumo_apps (id),
    pos INTEGER NOT NULL,
    label VARCHAR(200) NOT NULL,
    formula TEXT NOT NULL,
    unit VARCHAR(20) NOT NULL
);

CREATE INDEX lumo_expressions_app ON lumo_expressions (app_id);

-- fields and filters are JSON arrays in query syntax; problem is "" for a valid indicator.
CREATE TABLE lumo_indicators (
    app_id BIGINT NOT NULL REFERENCES lumo_apps (id),
    pos INTEGER NOT NULL,
    name VARCHAR(200) NOT NULL,
    description TEXT NOT NULL,
    fields TEXT NOT NULL,
    filters TEXT NOT NULL,
    problem TEXT NOT NULL,
    PRIMARY KEY (app_id, pos)
);
