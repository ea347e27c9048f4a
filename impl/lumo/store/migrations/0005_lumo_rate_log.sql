-- Rate limits over a sliding window: one row per budget, a scope ('user' or 'tenant') and its
-- subject (the user or tenant id). slots is a ring of the admission times (Unix milliseconds,
-- 13 digits each, zero-padded) of the budget's last cap requests, growing until it holds cap of
-- them; head is the ring index of the oldest. A request is admitted when that oldest admission left the window, so no window-long
-- span ever holds more than cap requests. The conditional upsert that checks and overwrites the
-- slot is atomic on both engines, so every replica on the database shares the budget.
-- last_at is the newest admission; rows whose last_at left the window are deleted by the servers.

DROP TABLE lumo_rate_windows;

CREATE TABLE lumo_rate_log (
    scope VARCHAR(10) NOT NULL,
    subject BIGINT NOT NULL,
    cap INTEGER NOT NULL,
    head INTEGER NOT NULL,
    slots TEXT NOT NULL,
    last_at BIGINT NOT NULL,
    PRIMARY KEY (scope, subject)
);

CREATE INDEX lumo_rate_log_last ON lumo_rate_log (last_at);
