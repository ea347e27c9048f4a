-- Rate-limit windows shared by every server replica: one row per fixed one-minute window of a
-- scope ('user' or 'tenant') and its subject (the user or tenant id). window_start is Unix
-- seconds, a multiple of 60. n is the number of requests admitted in that window; it is
-- incremented with INSERT ... ON CONFLICT DO UPDATE ... RETURNING, atomic on both engines.
-- Old windows are deleted opportunistically by the servers.

CREATE TABLE lumo_rate_windows (
    scope VARCHAR(10) NOT NULL,
    subject BIGINT NOT NULL,
    window_start BIGINT NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (scope, subject, window_start)
);

CREATE INDEX lumo_rate_windows_start ON lumo_rate_windows (window_start);
