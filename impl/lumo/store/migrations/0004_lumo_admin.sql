-- Tokens issued with `lumo admin token issue`: a user may hold several, each with a label.
-- Only the hex SHA-256 is stored; the token is shown once. The workspace token stays in
-- lumo_users.token_sha256. A re-import keeps the tokens of every user the file still lists
-- (user ids are stable by login) and drops those of users it removes, reporting them.

CREATE TABLE lumo_tokens (
    token_sha256 CHAR(64) PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES lumo_users (id),
    label VARCHAR(63) NOT NULL,
    created_at VARCHAR(40) NOT NULL,
    UNIQUE (user_id, label)
);
