-- caderninho planning writes: idempotency records, budgets and splits.
-- Portable SQL: the same file runs on SQLite and PostgreSQL.

-- One row per idempotency key of a planning write. The key is claimed first, in its own committed
-- row (status 'running'), so a concurrent duplicate sees it; the write itself then runs in one
-- transaction that also stores the result and sets status 'done'. A failed write deletes its
-- claim (nothing was written). A claim left 'running' by a crashed process expires after a few
-- minutes (claimed_at) and may be taken over. arguments is the digest of the normalised
-- arguments; result is the durable answer (JSON) a replay returns.
CREATE TABLE cad_writes (
    idempotency_key VARCHAR(200) PRIMARY KEY,
    tool VARCHAR(63) NOT NULL,
    arguments VARCHAR(64) NOT NULL,
    status VARCHAR(20) NOT NULL,
    claim VARCHAR(64) NOT NULL,
    claimed_at VARCHAR(40) NOT NULL,
    finished_at VARCHAR(40),
    result TEXT
);

-- A monthly budget of one category of a space, per currency (never mixed). amount_minor is the
-- budgeted amount in minor units, as the user wrote it.
CREATE TABLE cad_budgets (
    space_key VARCHAR(63) NOT NULL,
    budget_month VARCHAR(7) NOT NULL,
    category VARCHAR(200) NOT NULL,
    currency CHAR(3) NOT NULL,
    amount_minor BIGINT NOT NULL,
    updated_at VARCHAR(40) NOT NULL,
    PRIMARY KEY (space_key, budget_month, category, currency)
);

-- Splits of a record into categories: JSON [{"amountMinor": "…", "category": "…", "note": …}],
-- summing exactly to the record's amount; null when the record is not split.
ALTER TABLE cad_edits ADD COLUMN splits TEXT;
ALTER TABLE cad_records ADD COLUMN splits TEXT;
