-- caderninho's private panel: the owner's credential and browser sessions, the audit log of
-- administrative changes, and where each person and assistant came from.
-- Portable SQL: the same file runs on SQLite and PostgreSQL. Instants are RFC 3339 text, except
-- session expiries (Unix seconds, compared as numbers).

-- One row (id = 1) once a credential was made: only its SHA-256 is kept.
CREATE TABLE cad_panel_owner (
    id INTEGER PRIMARY KEY,
    credential_sha256 CHAR(64) NOT NULL,
    created_at VARCHAR(40) NOT NULL
);

-- A browser signed in to the panel: the SHA-256 of the cookie's random id and of the credential
-- it signed in with, so a new credential ends every session.
CREATE TABLE cad_panel_sessions (
    id_sha256 CHAR(64) PRIMARY KEY,
    credential_sha256 CHAR(64) NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE INDEX cad_panel_sessions_expires ON cad_panel_sessions (expires_at);

-- Who changed what, when: actor is the panel's owner, the command line or installation.yaml;
-- action a stable code (person.add, assistant.revoke, ...); detail the Portuguese sentence the
-- panel shows. Never a token or credential.
CREATE TABLE cad_audit (
    id BIGINT PRIMARY KEY,
    logged_at VARCHAR(40) NOT NULL,
    actor VARCHAR(200) NOT NULL,
    action VARCHAR(63) NOT NULL,
    detail TEXT NOT NULL
);

INSERT INTO cad_ids (kind, last_id) VALUES ('audit', 0);

-- origin is 'file' (installation.yaml) or 'panel' (the panel or caderninho admin): a re-import
-- manages only what the file made, so nothing the panel made is removed by it.
ALTER TABLE cad_people ADD COLUMN origin VARCHAR(10) NOT NULL DEFAULT 'file';
ALTER TABLE cad_assistants ADD COLUMN origin VARCHAR(10) NOT NULL DEFAULT 'file';
ALTER TABLE cad_assistants ADD COLUMN created_at VARCHAR(40);
ALTER TABLE cad_assistants ADD COLUMN last_used_at VARCHAR(40);
