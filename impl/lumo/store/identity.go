package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"time"
)

// Everything this process keeps outside the database (the models and answers it caches, each
// replica's columnar copy) is keyed by the import generation, and the columnar copy is also bound
// to the database it was made from. Both must survive an operator who deletes lumo.db and imports
// again, drops and recreates the PostgreSQL database under the same address, or restores a backup:
// a counter starting again at 1 would let a copy made of another database's rows pass for current.

// ensureIdentity writes this database's random id once (the first process to open it after
// migration wins; the others keep its id).
func (db *DB) ensureIdentity(ctx context.Context) error {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return fmt.Errorf("naming the database: %w", err)
	}
	_, err := db.sql.ExecContext(ctx, db.q("INSERT INTO lumo_identity (singleton, database_id) VALUES (1, ?) ON CONFLICT (singleton) DO NOTHING"),
		hex.EncodeToString(b[:]))
	if err != nil {
		return fmt.Errorf("naming the database: %w", err)
	}
	return nil
}

// Identity is the database's random id, read in tx (nil: in its own statement): a database made
// anew at the same address has another.
func (db *DB) Identity(ctx context.Context, tx *sql.Tx) (string, error) {
	const q = "SELECT database_id FROM lumo_identity WHERE singleton = 1"
	var row *sql.Row
	if tx != nil {
		row = tx.QueryRowContext(ctx, q)
	} else {
		row = db.sql.QueryRowContext(ctx, q)
	}
	var id string
	if err := row.Scan(&id); err != nil {
		return "", fmt.Errorf("reading the database's identity: %w", err)
	}
	return id, nil
}

// nextGeneration is the value the import counter moves to from at least last+1: the time in
// microseconds times 1,024 plus 10 random bits, so that the counter of a new or restored database
// never comes back to a value an earlier one held (it grows with the clock) and two databases
// moving in the same microsecond still differ. It stays a counter: every move is upwards.
// (9.2e18 / 1024 µs lasts until the year 2255.)
func nextGeneration(now time.Time) int64 {
	return now.UnixMicro()<<10 | mrand.Int64N(1<<10)
}
