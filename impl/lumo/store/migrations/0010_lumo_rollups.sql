-- Rollups: pre-aggregations of a fact table built at import (sql_name, with row_count rows),
-- grouped by their dimension columns and by time_column_id cut to grain ('day' or 'hour').
-- Their columns are listed in lumo_rollup_columns: role 'dimension' or 'measure', in order.

CREATE TABLE lumo_rollups (
    app_id BIGINT NOT NULL REFERENCES lumo_apps (id),
    pos INTEGER NOT NULL,
    name VARCHAR(63) NOT NULL,
    fact_table_id BIGINT NOT NULL REFERENCES lumo_tables (id),
    time_column_id BIGINT REFERENCES lumo_columns (id),
    grain VARCHAR(10) NOT NULL,
    sql_name VARCHAR(63) NOT NULL,
    row_count BIGINT NOT NULL,
    PRIMARY KEY (app_id, pos)
);

CREATE TABLE lumo_rollup_columns (
    app_id BIGINT NOT NULL REFERENCES lumo_apps (id),
    pos INTEGER NOT NULL,
    role VARCHAR(20) NOT NULL,
    idx INTEGER NOT NULL,
    column_id BIGINT NOT NULL REFERENCES lumo_columns (id),
    PRIMARY KEY (app_id, pos, role, idx)
);
