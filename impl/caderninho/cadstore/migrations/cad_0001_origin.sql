-- caderninho: the installation (people, spaces, connections, assistants) and the origin view of
-- the bank data exactly as imported from statements (never edited).
-- Portable SQL: the same file runs on SQLite and PostgreSQL. Ids come from cad_ids. Amounts are
-- BIGINT minor units of the currency; days are YYYY-MM-DD text; instants RFC 3339 text. Bank
-- strings are TEXT: banks do not keep to OFX's lengths.
-- Named cad_* so it sorts after lumo's numbered migrations and never collides with them.

CREATE TABLE cad_ids (
    kind VARCHAR(20) PRIMARY KEY,
    last_id BIGINT NOT NULL
);

INSERT INTO cad_ids (kind, last_id) VALUES
    ('lock', 0), ('person', 0), ('space', 0), ('connection', 0), ('assistant', 0), ('account', 0),
    ('file', 0), ('statement', 0), ('transaction', 0), ('sync', 0);

-- One row (id = 1): the time zone and the secret that signs pagination cursors.
CREATE TABLE cad_installation (
    id INTEGER PRIMARY KEY,
    timezone VARCHAR(64) NOT NULL,
    cursor_secret VARCHAR(64) NOT NULL,
    imported_at VARCHAR(40) NOT NULL
);

CREATE TABLE cad_people (
    id BIGINT PRIMARY KEY,
    person_key VARCHAR(63) NOT NULL UNIQUE,
    name VARCHAR(200) NOT NULL
);

-- revision grows with every committed change to the space; definition is a digest of what the
-- installation file says about it, to tell whether a re-import changed it.
CREATE TABLE cad_spaces (
    id BIGINT PRIMARY KEY,
    space_key VARCHAR(63) NOT NULL UNIQUE,
    name VARCHAR(200) NOT NULL,
    revision BIGINT NOT NULL,
    definition CHAR(64) NOT NULL
);

CREATE TABLE cad_categories (
    space_id BIGINT NOT NULL REFERENCES cad_spaces (id),
    pos INTEGER NOT NULL,
    name VARCHAR(200) NOT NULL,
    PRIMARY KEY (space_id, pos)
);

CREATE TABLE cad_connections (
    id BIGINT PRIMARY KEY,
    connection_key VARCHAR(63) NOT NULL UNIQUE,
    institution VARCHAR(200) NOT NULL,
    holder_id BIGINT NOT NULL REFERENCES cad_people (id),
    space_id BIGINT NOT NULL REFERENCES cad_spaces (id),
    source_path TEXT NOT NULL,
    last_attempt_at VARCHAR(40),
    last_success_at VARCHAR(40),
    last_error TEXT
);

CREATE TABLE cad_assistants (
    id BIGINT PRIMARY KEY,
    name VARCHAR(200) NOT NULL UNIQUE,
    token_sha256 CHAR(64) NOT NULL UNIQUE
);

-- An account or card as statements name it: unique per connection by its number (ACCTID).
-- The balance is the latest ledger balance (LEDGERBAL) and the day it refers to.
CREATE TABLE cad_accounts (
    id BIGINT PRIMARY KEY,
    connection_id BIGINT NOT NULL REFERENCES cad_connections (id),
    acct_number TEXT NOT NULL,
    kind VARCHAR(20) NOT NULL,
    acct_type TEXT NOT NULL,
    bank_id TEXT NOT NULL,
    branch_id TEXT NOT NULL,
    currency CHAR(3) NOT NULL,
    balance_minor BIGINT,
    balance_day VARCHAR(10),
    balance_at VARCHAR(40),
    UNIQUE (connection_id, acct_number)
);

-- A statement file imported for a connection, by content: the same bytes are read once.
CREATE TABLE cad_files (
    id BIGINT PRIMARY KEY,
    connection_id BIGINT NOT NULL REFERENCES cad_connections (id),
    path TEXT NOT NULL,
    sha256 CHAR(64) NOT NULL,
    imported_at VARCHAR(40) NOT NULL,
    UNIQUE (connection_id, sha256)
);

-- One statement of a file: the days it covers (null without a transaction list) and its ledger
-- balance; coverage is the union of an account's statement periods.
CREATE TABLE cad_statements (
    id BIGINT PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES cad_accounts (id),
    file_id BIGINT NOT NULL REFERENCES cad_files (id),
    start_day VARCHAR(10),
    end_day VARCHAR(10),
    ledger_minor BIGINT,
    ledger_day VARCHAR(10),
    transactions INTEGER NOT NULL,
    added INTEGER NOT NULL
);

CREATE INDEX cad_statements_account ON cad_statements (account_id);

-- dedupe_key is "f:<FITID>" or, when the bank repeats or omits FITIDs, "p:<fingerprint>#<n>";
-- fingerprint digests day, amount, currency, memo and name. search_fold is memo and name folded
-- (lower case, no accents) for text filters.
CREATE TABLE cad_transactions (
    id BIGINT PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES cad_accounts (id),
    statement_id BIGINT NOT NULL REFERENCES cad_statements (id),
    dedupe_key TEXT NOT NULL,
    fitid TEXT NOT NULL,
    fingerprint CHAR(64) NOT NULL,
    posted_day VARCHAR(10) NOT NULL,
    posted_at VARCHAR(40),
    amount_minor BIGINT NOT NULL,
    currency CHAR(3) NOT NULL,
    trn_type TEXT NOT NULL,
    name TEXT NOT NULL,
    memo TEXT NOT NULL,
    search_fold TEXT NOT NULL,
    check_num TEXT NOT NULL,
    ref_num TEXT NOT NULL,
    UNIQUE (account_id, dedupe_key)
);

CREATE INDEX cad_transactions_day ON cad_transactions (posted_day, id);
CREATE INDEX cad_transactions_account_day ON cad_transactions (account_id, posted_day, id);

-- A caderninho_sync request: durable, keyed by the caller's idempotency key. outcome is the JSON
-- list of per-connection results; heartbeat_at tells a live run from one whose process died.
CREATE TABLE cad_syncs (
    id BIGINT PRIMARY KEY,
    idempotency_key VARCHAR(200) NOT NULL UNIQUE,
    arguments TEXT NOT NULL,
    requested_by VARCHAR(200) NOT NULL,
    status VARCHAR(20) NOT NULL,
    requested_at VARCHAR(40) NOT NULL,
    heartbeat_at VARCHAR(40) NOT NULL,
    finished_at VARCHAR(40),
    outcome TEXT NOT NULL
);
