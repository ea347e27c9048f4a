-- caderninho rules: each space's own categorisation of bank transactions, applied at every import
-- and whenever a rule changes.
-- Portable SQL: the same file runs on SQLite and PostgreSQL.

-- One rule of a space, in order (pos 1, 2, ...: the first rule that matches a transaction
-- categorises it). The condition is on the bank's description (name and memo), folded as the
-- text filters fold it (match_fold): 'contains', 'startsWith' or 'equals'; optionally the
-- amount's absolute value within [amount_min, amount_max] in amount_currency (minor units,
-- inclusive; a null end is open), the account (<connection>:<number>), the account's holder and
-- the direction ('in': amount >= 0, 'out': amount < 0). description, when set, is what the
-- planning view shows instead of the bank's. Positions are kept dense per space; they are moved
-- with UPDATE, so no unique constraint holds them.
CREATE TABLE cad_rules (
    id BIGINT PRIMARY KEY,
    space_key VARCHAR(63) NOT NULL,
    pos INTEGER NOT NULL,
    match_kind VARCHAR(20) NOT NULL,
    match_text VARCHAR(200) NOT NULL,
    match_fold VARCHAR(800) NOT NULL,
    amount_currency CHAR(3),
    amount_min BIGINT,
    amount_max BIGINT,
    account_key VARCHAR(300),
    person_key VARCHAR(63),
    direction VARCHAR(3),
    category VARCHAR(200) NOT NULL,
    description TEXT,
    created_at VARCHAR(40) NOT NULL,
    updated_at VARCHAR(40) NOT NULL
);

CREATE INDEX cad_rules_space ON cad_rules (space_key, pos);

-- rule_id names the rule that wrote an edit (its category and description only); null is a
-- person's edit, which rules never touch. A rule's edit is rewritten or deleted whenever the
-- rules or the transaction's account change.
ALTER TABLE cad_edits ADD COLUMN rule_id BIGINT;

-- Partial: the person's edits (rule_id NULL) stay out, so no query of them is drawn to it.
CREATE INDEX cad_edits_rule ON cad_edits (rule_id) WHERE rule_id IS NOT NULL;

INSERT INTO cad_ids (kind, last_id) VALUES ('rule', 0);
