-- caderninho planning: the layers that turn the origin view into the effective view. Nothing is
-- seeded; the planning writes fill these tables.
-- Portable SQL: the same file runs on SQLite and PostgreSQL. Flags are SMALLINT 0/1; amounts are
-- BIGINT minor units; days YYYY-MM-DD text; instants RFC 3339 text.
-- Spaces, people and accounts are named by their keys (text), not by row ids: a re-import of the
-- installation may recreate those rows, and an edit must survive it (and be reported when its
-- transaction is gone, never silently dropped).

-- The user's edit of one bank transaction, keyed by the transaction's identity in the bank:
-- the account (<connection>:<number>) and the transaction's dedupe_key (cad_transactions), which
-- re-imports of overlapping statements keep. A null column keeps the bank's value.
CREATE TABLE cad_edits (
    account_key VARCHAR(300) NOT NULL,
    dedupe_key VARCHAR(300) NOT NULL,
    space_key VARCHAR(63) NOT NULL,
    category VARCHAR(200),
    description TEXT,
    note TEXT,
    excluded SMALLINT NOT NULL DEFAULT 0,
    updated_at VARCHAR(40) NOT NULL,
    PRIMARY KEY (account_key, dedupe_key)
);

-- A record the user wrote by hand (cash, a bill not in any statement). amount_minor null means
-- the amount is unknown (never zero); currency is always known. person_key and account_key are
-- optional; search_fold is description and note folded for text filters.
CREATE TABLE cad_records (
    id BIGINT PRIMARY KEY,
    space_key VARCHAR(63) NOT NULL,
    person_key VARCHAR(63),
    account_key VARCHAR(300),
    record_day VARCHAR(10) NOT NULL,
    amount_minor BIGINT,
    currency CHAR(3) NOT NULL,
    description TEXT NOT NULL,
    search_fold TEXT NOT NULL,
    category VARCHAR(200),
    note TEXT,
    excluded SMALLINT NOT NULL DEFAULT 0,
    created_at VARCHAR(40) NOT NULL,
    updated_at VARCHAR(40) NOT NULL
);

CREATE INDEX cad_records_space_day ON cad_records (space_key, record_day, id);

INSERT INTO cad_ids (kind, last_id) VALUES ('record', 0);
