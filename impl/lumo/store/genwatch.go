package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// On PostgreSQL, reading the import counter was one of a small tool call's two round trips. Every
// transaction that moves the counter also notifies generationChannel, and a genwatch.Watch on a
// connection of its own remembers the value read last until a notification says it moved (see
// package genwatch for what staleness that allows).

// generationChannel is the NOTIFY channel of the import counter.
const generationChannel = "lumo_generation"

// generationTrust bounds how long a remembered counter value is used without reading it again.
const generationTrust = time.Second

// listenerApp names the listener's connection in pg_stat_activity.
const listenerApp = "lumo-generation-listener"

// importGeneration is the import counter: remembered on PostgreSQL while the listener vouches for
// it, read from the database otherwise.
func (db *DB) importGeneration(ctx context.Context) (int64, error) {
	read := func() (int64, error) { return scanGeneration(db.queryRow(ctx, importGenerationSQL)) }
	if db.watch == nil {
		return read()
	}
	return db.watch.Value(db.sql, read)
}

// moveGeneration moves the import counter in tx (to nextGeneration's value, see identity.go), as
// every import and admin change does, and
// notifies the other processes (PostgreSQL delivers it at commit). Once tx has committed, call
// generationMoved.
func (db *DB) moveGeneration(ctx context.Context, tx *sql.Tx) error {
	next := nextGeneration(time.Now())
	if _, err := tx.ExecContext(ctx, db.q("UPDATE lumo_ids SET last_id = CASE WHEN last_id + 1 > ? THEN last_id + 1 ELSE ? END WHERE kind = 'import'"), next, next); err != nil {
		return err
	}
	if db.watch != nil {
		if err := db.watch.Notify(ctx, tx); err != nil {
			return fmt.Errorf("notifying the import: %w", err)
		}
	}
	return nil
}

// generationMoved makes this process read the counter afresh, without waiting for its own
// notification.
func (db *DB) generationMoved() {
	if db.watch != nil {
		db.watch.Forget()
	}
}

// Generation is the import counter: it moves with every import and admin change, so a process
// that sees it move knows what its users see may have changed.
func (db *DB) Generation(ctx context.Context) (int64, error) { return db.importGeneration(ctx) }
