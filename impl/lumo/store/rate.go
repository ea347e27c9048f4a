package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
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
	if len(budgets) == 0 {
		return nil, nil
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("counting a request: %w", err)
	}
	defer tx.Rollback()
	if db.Engine() == sqldialect.PostgresName {
		// Waiting for the WAL flush was most of a tool call's time (11 ms here). Concurrent
		// requests still see every committed count, so limits stay exact across replicas; a
		// database crash may only forget the last fraction of a second of counts.
		if _, err := tx.ExecContext(ctx, "SET LOCAL synchronous_commit = off"); err != nil {
			return nil, fmt.Errorf("counting a request: %w", err)
		}
	}
	// One upsert for every budget; the update's WHERE keeps a full window as it is, so a full
	// budget's row is missing from RETURNING. Each row's limit is picked by its scope and subject.
	var values, limits strings.Builder
	var args []any
	for i, b := range budgets {
		if i > 0 {
			values.WriteString(", ")
		}
		values.WriteString("(?, ?, ?, 1)")
		args = append(args, b.Scope, b.Subject, windowStart)
	}
	for _, b := range budgets {
		limits.WriteString(" WHEN excluded.scope = ? AND excluded.subject = ? THEN CAST(? AS BIGINT)")
		args = append(args, b.Scope, b.Subject, b.Limit)
	}
	take := db.q(`INSERT INTO lumo_rate_windows (scope, subject, window_start, n) VALUES ` + values.String() + `
		ON CONFLICT (scope, subject, window_start) DO UPDATE SET n = lumo_rate_windows.n + 1
		WHERE lumo_rate_windows.n < CASE` + limits.String() + ` END RETURNING scope, subject`)
	rows, err := tx.QueryContext(ctx, take, args...)
	if err != nil {
		return nil, fmt.Errorf("counting a request: %w", err)
	}
	taken := map[RateBudget]bool{}
	for rows.Next() {
		var b RateBudget
		if err := rows.Scan(&b.Scope, &b.Subject); err != nil {
			rows.Close()
			return nil, fmt.Errorf("counting a request: %w", err)
		}
		taken[b] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("counting a request: %w", err)
	}
	for i := range budgets {
		b := &budgets[i]
		if !taken[RateBudget{Scope: b.Scope, Subject: b.Subject}] {
			return b, nil // the deferred rollback undoes the budgets taken with it
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
