package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// A RowsMover writes, for apps whose rows the database holds, the files an import now writes
// instead (see MoveRowsOut).
type RowsMover interface {
	// Write writes each load's file of apps from tx's rows (written in d), stamped with the
	// database's identity, before tx commits.
	Write(ctx context.Context, tx *sql.Tx, d sqldialect.Dialect, apps []*semantic.App, identity string) error
	// Abort removes what Write wrote: it failed, or the transaction did not commit.
	Abort()
}

// MoveRowsOut upgrades a SQLite database whose apps keep their rows in it, as lumo did before
// imports wrote them into DuckDB files alone: under the import lock, in one transaction, m writes
// each load's file from the rows, then the apps are marked RowsInFile and their data tables and
// rollups dropped. Nothing changes when anything fails. It returns how many tables and rollups
// left the database (0 when no app kept its rows here) and the bytes SQLite gave back.
func (db *DB) MoveRowsOut(ctx context.Context, m RowsMover) (moved int, reclaimed int64, err error) {
	if db.Engine() == "postgres" {
		return 0, 0, errors.New("PostgreSQL keeps the app data of record")
	}
	var left int
	if err := db.sql.QueryRowContext(ctx, "SELECT COUNT(*) FROM lumo_apps WHERE rows_in_file = 0").Scan(&left); err != nil || left == 0 {
		return 0, 0, err
	}
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	if err := db.moveGeneration(ctx, tx); err != nil { // the import lock, and every server reloads
		return 0, 0, fmt.Errorf("locking to move the app rows: %w", err)
	}
	apps, err := db.loadModels(ctx, tx, "SELECT id FROM lumo_apps WHERE rows_in_file = 0", nil)
	if err != nil || len(apps) == 0 { // another process moved them meanwhile
		return 0, 0, err
	}
	identity, err := db.Identity(ctx, tx)
	if err != nil {
		return 0, 0, err
	}
	if err := m.Write(ctx, tx, db.dialect, apps, identity); err != nil {
		m.Abort()
		return 0, 0, fmt.Errorf("writing the app rows into DuckDB files: %w", err)
	}
	dropped := map[string]bool{}
	for _, a := range apps {
		var names []string
		for _, t := range a.Tables {
			names = append(names, t.SQLName)
		}
		for _, r := range a.Rollups {
			names = append(names, r.SQLName)
		}
		for _, name := range names {
			if dropped[name] {
				continue
			}
			dropped[name] = true
			if _, err := tx.ExecContext(ctx, "DROP TABLE IF EXISTS "+db.dialect.QuoteIdent(name)); err != nil {
				m.Abort()
				return 0, 0, fmt.Errorf("dropping data table %s: %w", name, err)
			}
		}
	}
	_, err = tx.ExecContext(ctx, "UPDATE lumo_apps SET rows_in_file = 1 WHERE rows_in_file = 0")
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		m.Abort()
		return 0, 0, fmt.Errorf("marking the apps whose rows moved: %w", err)
	}
	db.generationMoved()
	return len(dropped), db.reclaim(ctx), nil
}
