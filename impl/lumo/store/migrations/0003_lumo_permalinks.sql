-- Permalink reports and the browser sessions that open them, shared by every server replica.
-- A permalink stores the query (its canonical arguments), never the data: opening it re-runs the
-- query for the viewer under the viewer's own access. id is derived from app_id and args, so
-- every replica computes the same id for the same query and inserts it only when absent.
-- No foreign keys: a re-import may drop an app, and its links then simply stop resolving.

CREATE TABLE lumo_permalinks (
    id VARCHAR(64) PRIMARY KEY,
    app_id BIGINT NOT NULL,
    args TEXT NOT NULL,
    created_at VARCHAR(40) NOT NULL
);

-- A report session: the SHA-256 of a random cookie value (the cookie itself is never stored)
-- bound to the SHA-256 of the token the viewer signed in with, so a changed or revoked token
-- ends its sessions. expires_at is Unix seconds.
CREATE TABLE lumo_report_sessions (
    id_sha256 CHAR(64) PRIMARY KEY,
    token_sha256 CHAR(64) NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE INDEX lumo_report_sessions_expires ON lumo_report_sessions (expires_at);
