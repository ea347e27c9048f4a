-- Composite relationships: lumo_relationships keeps each relationship's first column pair (so
-- databases written before keep their rows as they are); the further pairs of a relationship
-- that joins on several columns are here, pair 1, 2, ... in the order app.yaml lists them.

CREATE TABLE lumo_relationship_keys (
    app_id BIGINT NOT NULL REFERENCES lumo_apps (id),
    pos INTEGER NOT NULL,
    pair INTEGER NOT NULL,
    from_column_id BIGINT NOT NULL REFERENCES lumo_columns (id),
    to_column_id BIGINT NOT NULL REFERENCES lumo_columns (id),
    PRIMARY KEY (app_id, pos, pair)
);
