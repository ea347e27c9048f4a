// Package store keeps lumo's catalogue in the shared database (SQLite or PostgreSQL): it opens it
// with lumo's migrations, imports workspaces into it and reads the catalogue back as semantic models.
package store

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/genwatch"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// ErrNotFound is returned when a user or an app does not exist or is not visible to the user.
var ErrNotFound = errors.New("not found")

// DB is a migrated lumo database.
type DB struct {
	sql     *sql.DB
	dialect sqldialect.Dialect
	// importing serialises this process's imports before they reach the engine, so a second
	// import waits for the first instead of failing on SQLite's busy timeout.
	importing chan struct{}
	models    modelCache
	stmts     stmtCache
	watch     *genwatch.Watch // PostgreSQL only
}

// Open connects to dsn, runs lumo's migrations and builds the data-table indexes a database
// loaded by an older version lacks (within a time budget; see ensureIndexes). A postgres:// or
// postgresql:// URL opens PostgreSQL (lib/pq); anything else is the path of a SQLite file
// (created if missing); see sqldb.Open.
func Open(ctx context.Context, dsn string, opts ...Option) (*DB, error) {
	o := openOptions{log: slog.Default(), reindexBudget: reindexBudget}
	for _, opt := range opts {
		opt(&o)
	}
	conn, err := sqldb.Open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	db := &DB{sql: conn.SQL(), dialect: conn.Dialect(), importing: make(chan struct{}, 1)}
	if sqldb.IsPostgres(dsn) {
		db.watch = genwatch.New(conn.DSN(), o.log, genwatch.Config{Channel: generationChannel, ApplicationName: listenerApp,
			Trust: generationTrust, Changes: "imports", Counter: "the import counter"})
	}
	if err := db.migrate(ctx); err != nil {
		db.sql.Close()
		return nil, err
	}
	if err := db.ensureIdentity(ctx); err != nil {
		db.sql.Close()
		return nil, err
	}
	db.ensureIndexes(ctx, o)
	return db, nil
}

// DefaultDSN is the SQLite file used when no DSN is given: $XDG_DATA_HOME/lumo/lumo.db, or
// ~/.local/share/lumo/lumo.db. It creates the folder.
func DefaultDSN() (string, error) { return sqldb.DefaultDSN("lumo") }

// Engine is "sqlite" or "postgres".
func (db *DB) Engine() string { return db.dialect.Name() }

// Dialect is the SQL dialect of the engine.
func (db *DB) Dialect() sqldialect.Dialect { return db.dialect }

// SQL is the underlying pool, for packages that run their own queries.
func (db *DB) SQL() *sql.DB { return db.sql }

// Close closes the pool.
func (db *DB) Close() error {
	if db.watch != nil {
		db.watch.Close()
	}
	db.stmts.close()
	return db.sql.Close()
}

// q rewrites ? placeholders for the engine.
func (db *DB) q(query string) string { return sqldialect.Rebind(db.dialect, query) }

// inList is "?, ?, ?" for n values.
func inList(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}
