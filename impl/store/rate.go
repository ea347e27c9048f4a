package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// RateBudget is one request budget: at most Limit requests in a window for Scope ("user" or
// "tenant") and Subject (the user or tenant id). Limit must be at least 1.
type RateBudget struct {
	Scope   string
	Subject int64
	Limit   int64
}

// TakeRequest counts one request in the window starting at windowStart (Unix seconds) against every
// budget, all or nothing: when each budget has room, each counter grows by one and full is nil;
// otherwise no counter changes and full is the first budget without room. The counters live in
// the database, so every replica on it shares them; the conditional upsert makes concurrent
// requests serialise on the counter row, so exactly Limit requests are admitted per window.
func (db *DB) TakeRequest(ctx context.Context, windowStart int64, budgets ...RateBudget) (full *RateBudget, err error) {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("counting a request: %w", err)
	}
	defer tx.Rollback()
	// The update's WHERE keeps a full window as it is; the upsert then returns no row.
	take := db.q(`INSERT INTO lumo_rate_windows (scope, subject, window_start, n) VALUES (?, ?, ?, 1)
		ON CONFLICT (scope, subject, window_start) DO UPDATE SET n = lumo_rate_windows.n + 1
		WHERE lumo_rate_windows.n < ? RETURNING n`)
	for i := range budgets {
		b := &budgets[i]
		var n int64
		err := tx.QueryRowContext(ctx, take, b.Scope, b.Subject, windowStart, b.Limit).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			return b, nil // the deferred rollback undoes the budgets taken before this one
		}
		if err != nil {
			return nil, fmt.Errorf("counting a request (%s %d): %w", b.Scope, b.Subject, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("counting a request: %w", err)
	}
	return nil, nil
}

// RequestsIn is the number of requests counted for scope and subject in the window starting at
// windowStart (0 when none).
func (db *DB) RequestsIn(ctx context.Context, scope string, subject, windowStart int64) (int64, error) {
	var n int64
	err := db.sql.QueryRowContext(ctx, db.q(`SELECT n FROM lumo_rate_windows
		WHERE scope = ? AND subject = ? AND window_start = ?`), scope, subject, windowStart).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return n, err
}

// PruneRateWindows deletes the windows that started before before (Unix seconds).
func (db *DB) PruneRateWindows(ctx context.Context, before int64) error {
	if _, err := db.sql.ExecContext(ctx, db.q("DELETE FROM lumo_rate_windows WHERE window_start < ?"), before); err != nil {
		return fmt.Errorf("deleting old rate-limit windows: %w", err)
	}
	return nil
}
