package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// RateBudget is one request budget: at most Limit requests in any window-long span for Scope
// ("user" or "tenant") and Subject (the user or tenant id). Limit must be at least 1.
type RateBudget struct {
	Scope   string
	Subject int64
	Limit   int64
}

// slotWidth is the width of one admission time in a budget's ring: Unix milliseconds, zero-padded
// (13 digits last until the year 2286).
const slotWidth = 13

// maxRateLimit bounds a ring (a budget of 300 is a 3,900-character row).
const maxRateLimit = 100_000

// TakeRequest admits one request at now (Unix milliseconds) against every budget, all or
// nothing: when each budget admitted fewer than its Limit requests in the window ending at now
// (window in milliseconds), each records now and full is nil; otherwise nothing changes, full is
// the first budget without room and retryAfter is the milliseconds until its oldest admission
// leaves the window. The rings live in the database, so every replica on it shares them; the
// conditional upsert serialises concurrent requests on the budget's row, so no span of one window
// ever holds more than Limit admissions. A budget whose Limit changed starts a new ring.
func (db *DB) TakeRequest(ctx context.Context, now, window int64, budgets ...RateBudget) (full *RateBudget, retryAfter int64, err error) {
	if len(budgets) == 0 {
		return nil, 0, nil
	}
	for _, b := range budgets {
		if b.Limit < 1 || b.Limit > maxRateLimit {
			return nil, 0, fmt.Errorf("rate limit %d of %s %d: want 1 to %d", b.Limit, b.Scope, b.Subject, maxRateLimit)
		}
	}
	if now < window || now >= 1e13 {
		return nil, 0, fmt.Errorf("rate limit clock %d ms: not a time this ring can hold", now)
	}
	stamp := fmt.Sprintf("%0*d", slotWidth, now)
	// One upsert for every budget. A new row is a ring holding now. A ring with fewer than Limit
	// slots grows by now; a full one overwrites its oldest slot (head) with now, if that admission
	// left the window; otherwise the update's WHERE keeps the row as it is, so a full budget is
	// missing from RETURNING. A ring of another limit is replaced by a new one.
	var values strings.Builder
	var args []any
	for i, b := range budgets {
		if i > 0 {
			values.WriteString(", ")
		}
		values.WriteString("(?, ?, ?, 0, ?, ?)")
		args = append(args, b.Scope, b.Subject, b.Limit, stamp, now)
	}
	args = append(args, stamp, stamp, now-window)
	const (
		oldest  = `CAST(SUBSTR(lumo_rate_log.slots, lumo_rate_log.head * 13 + 1, 13) AS BIGINT)`
		growing = `LENGTH(lumo_rate_log.slots) < lumo_rate_log.cap * 13`
		renewed = `lumo_rate_log.cap <> excluded.cap`
	)
	take := db.q(`INSERT INTO lumo_rate_log (scope, subject, cap, head, slots, last_at) VALUES ` + values.String() + `
		ON CONFLICT (scope, subject) DO UPDATE SET
			slots = CASE WHEN ` + renewed + ` THEN excluded.slots
				WHEN ` + growing + ` THEN lumo_rate_log.slots || CAST(? AS TEXT)
				ELSE SUBSTR(lumo_rate_log.slots, 1, lumo_rate_log.head * 13) || CAST(? AS TEXT)
					|| SUBSTR(lumo_rate_log.slots, lumo_rate_log.head * 13 + 14) END,
			head = CASE WHEN ` + renewed + ` OR ` + growing + ` THEN 0
				ELSE (lumo_rate_log.head + 1) % lumo_rate_log.cap END,
			cap = excluded.cap,
			last_at = excluded.last_at
		WHERE ` + renewed + ` OR ` + growing + ` OR ` + oldest + ` <= CAST(? AS BIGINT)
		RETURNING scope, subject`)
	// Prepared before the transaction begins: preparing may need a pool connection of its own, and
	// a transaction waiting for one while holding another can starve the pool under load.
	cs, err := db.stmts.acquire(ctx, db.sql, db.models.generation(), take)
	if err != nil {
		return nil, 0, fmt.Errorf("counting a request: %w", err)
	}
	defer db.stmts.release(cs)
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("counting a request: %w", err)
	}
	defer tx.Rollback()
	if db.Engine() == sqldialect.PostgresName {
		// Waiting for the WAL flush was most of a tool call's time (11 ms here). Concurrent
		// requests still see every committed admission, so limits stay exact across replicas; a
		// database crash may only forget the last fraction of a second of admissions.
		if _, err := tx.ExecContext(ctx, "SET LOCAL synchronous_commit = off"); err != nil {
			return nil, 0, fmt.Errorf("counting a request: %w", err)
		}
	}
	rows, err := tx.StmtContext(ctx, cs.st).QueryContext(ctx, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("counting a request: %w", err)
	}
	taken := map[RateBudget]bool{}
	for rows.Next() {
		var b RateBudget
		if err := rows.Scan(&b.Scope, &b.Subject); err != nil {
			rows.Close()
			return nil, 0, fmt.Errorf("counting a request: %w", err)
		}
		taken[b] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("counting a request: %w", err)
	}
	for i := range budgets {
		b := &budgets[i]
		if taken[RateBudget{Scope: b.Scope, Subject: b.Subject}] {
			continue
		}
		// The deferred rollback undoes the budgets taken with it.
		var at int64
		err := tx.QueryRowContext(ctx, db.q(`SELECT `+oldest+` FROM lumo_rate_log
			WHERE scope = ? AND subject = ?`), b.Scope, b.Subject).Scan(&at)
		if err != nil {
			return nil, 0, fmt.Errorf("counting a request: %w", err)
		}
		return b, max(at+window-now, 1), nil
	}
	if err := tx.Commit(); err != nil {
		return nil, 0, fmt.Errorf("counting a request: %w", err)
	}
	return nil, 0, nil
}

// RequestsIn is the number of requests of scope and subject admitted in the window ending at now
// (both in Unix milliseconds).
func (db *DB) RequestsIn(ctx context.Context, scope string, subject, now, window int64) (int64, error) {
	var slots string
	err := db.sql.QueryRowContext(ctx, db.q(`SELECT slots FROM lumo_rate_log
		WHERE scope = ? AND subject = ?`), scope, subject).Scan(&slots)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var n int64
	for i := 0; i+slotWidth <= len(slots); i += slotWidth {
		at, err := strconv.ParseInt(slots[i:i+slotWidth], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("reading the rate ring of %s %d: %w", scope, subject, err)
		}
		if at > now-window && at <= now {
			n++
		}
	}
	return n, nil
}

// PruneRateBudgets deletes the budgets whose newest admission is before before (Unix
// milliseconds): with the window past, they hold nothing a request could be refused for.
func (db *DB) PruneRateBudgets(ctx context.Context, before int64) error {
	if _, err := db.sql.ExecContext(ctx, db.q("DELETE FROM lumo_rate_log WHERE last_at < ?"), before); err != nil {
		return fmt.Errorf("deleting old rate-limit budgets: %w", err)
	}
	return nil
}
