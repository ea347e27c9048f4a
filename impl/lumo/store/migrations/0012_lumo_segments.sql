-- Segments: named filters of the rows of table_id (Cube's segments) by the rows of
-- related_table_id that reach them through the relationships: with (without = 0) keeps the rows
-- some related row reaches, without (without = 1) those none reaches, counting only the related
-- rows meeting the row condition where_formula ('' for every row).

CREATE TABLE lumo_segments (
    app_id BIGINT NOT NULL REFERENCES lumo_apps (id),
    pos INTEGER NOT NULL,
    label VARCHAR(200) NOT NULL,
    description TEXT NOT NULL,
    table_id BIGINT NOT NULL REFERENCES lumo_tables (id),
    related_table_id BIGINT NOT NULL REFERENCES lumo_tables (id),
    without INTEGER NOT NULL,
    where_formula TEXT NOT NULL,
    PRIMARY KEY (app_id, pos)
);
