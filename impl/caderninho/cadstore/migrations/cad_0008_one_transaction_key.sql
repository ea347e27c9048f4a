-- A transaction names its statement and its account as one key: (statement_id, account_id) must
-- be a statement of that account. One composite foreign key replaces the two single ones, so a
-- PostgreSQL import checks one key per row instead of two (the checks run at the end of COPY and
-- were about a third of a million-row import); the statement's own key makes account_id an
-- account. SQLite cannot change a table's keys, so the table is rebuilt, rows and ids unchanged.
-- Portable SQL: the same file runs on SQLite and PostgreSQL.

CREATE UNIQUE INDEX cad_statements_id_account ON cad_statements (id, account_id);

CREATE TABLE cad_transactions_next (
    id BIGINT PRIMARY KEY,
    account_id BIGINT NOT NULL,
    statement_id BIGINT NOT NULL,
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
    UNIQUE (account_id, dedupe_key),
    FOREIGN KEY (statement_id, account_id) REFERENCES cad_statements (id, account_id)
);

INSERT INTO cad_transactions_next (id, account_id, statement_id, dedupe_key, fitid, fingerprint, posted_day,
    posted_at, amount_minor, currency, trn_type, name, memo, search_fold, check_num, ref_num)
SELECT id, account_id, statement_id, dedupe_key, fitid, fingerprint, posted_day,
    posted_at, amount_minor, currency, trn_type, name, memo, search_fold, check_num, ref_num
FROM cad_transactions;

DROP TABLE cad_transactions;

ALTER TABLE cad_transactions_next RENAME TO cad_transactions;

CREATE INDEX cad_transactions_day ON cad_transactions (posted_day, id);
CREATE INDEX cad_transactions_account_day ON cad_transactions (account_id, posted_day, id);
CREATE INDEX cad_transactions_totals ON cad_transactions (account_id, currency, posted_day, amount_minor);
