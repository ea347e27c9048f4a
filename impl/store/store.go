// Package store opens the lumo database (SQLite or PostgreSQL), migrates it, imports workspaces
// into it and reads the catalogue back as semantic models.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/lib/pq"  // registers "postgres"
	_ "modernc.org/sqlite" // registers "sqlite"

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
	watch     *genWatch // PostgreSQL only
}

// sqlitePragmas make a file database safe for concurrent readers and one writer: WAL, a busy
// timeout instead of immediate "database is locked", foreign keys on, and write transactions
// that take the write lock at BEGIN (no failed lock upgrades halfway through an import).
const sqlitePragmas = "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)" +
	"&_pragma=foreign_keys(1)&_txlock=immediate"

// poolIdle is how many idle connections the pool keeps for the next calls.
const poolIdle = 16

// IsPostgres reports whether dsn names a PostgreSQL database (a postgres:// or postgresql:// URL).
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Open connects to dsn, runs the migrations and builds the data-table indexes a database loaded
// by an older version lacks (within a time budget; see ensureIndexes). A postgres:// or
// postgresql:// URL opens PostgreSQL (lib/pq); anything else is the path of a SQLite file
// (created if missing).
func Open(ctx context.Context, dsn string, opts ...Option) (*DB, error) {
	o := openOptions{log: slog.Default(), reindexBudget: reindexBudget}
	for _, opt := range opts {
		opt(&o)
	}
	db := &DB{importing: make(chan struct{}, 1)}
	var err error
	if IsPostgres(dsn) {
		db.dialect = sqldialect.Postgres{}
		pgDSN := customPlans(dsn)
		db.sql, err = sql.Open("postgres", pgDSN)
		db.watch = newGenWatch(pgDSN, o.log)
	} else {
		if dir := filepath.Dir(strings.TrimPrefix(strings.SplitN(dsn, "?", 2)[0], "file:")); dsn != ":memory:" {
			if st, statErr := os.Stat(dir); statErr != nil || !st.IsDir() {
				return nil, fmt.Errorf("a pasta do banco SQLite %q não existe; crie-a ou indique outro arquivo em --db", dir)
			}
		}
		db.dialect = sqldialect.SQLite{}
		sep := "?"
		if strings.Contains(dsn, "?") {
			sep = "&"
		}
		db.sql, err = sql.Open("sqlite", dsn+sep+sqlitePragmas)
		if err == nil && (dsn == ":memory:" || strings.Contains(dsn, "mode=memory")) {
			db.sql.SetMaxOpenConns(1) // every connection would be its own empty database
		}
	}
	if err != nil {
		return nil, fmt.Errorf("opening database: %w", err)
	}
	// database/sql keeps 2 idle connections by default: under a few concurrent callers every
	// call past the second opened a new one (a new PostgreSQL backend, SQLite's pragmas again).
	db.sql.SetMaxIdleConns(poolIdle)
	db.sql.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.sql.PingContext(ctx); err != nil {
		db.sql.Close()
		return nil, fmt.Errorf("connecting to database %s: %w", redact(dsn), err)
	}
	if err := db.migrate(ctx); err != nil {
		db.sql.Close()
		return nil, err
	}
	db.ensureIndexes(ctx, o)
	return db, nil
}

// customPlans asks PostgreSQL to plan every run of a prepared statement with its values (unless
// the DSN says otherwise): statements are prepared once and reused (stmtCache), and a generic plan
// chosen after five runs could ignore how selective a filter value is. Preparing still saves the
// parse and a round trip; planning these queries costs far less than running them.
func customPlans(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return dsn // lib/pq reports it
	}
	q := u.Query()
	if !q.Has("plan_cache_mode") {
		q.Set("plan_cache_mode", "force_custom_plan")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// redact hides the password of a URL DSN, so errors and logs can name the database.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// DefaultDSN is the SQLite file used when no DSN is given: $XDG_DATA_HOME/lumo/lumo.db, or
// ~/.local/share/lumo/lumo.db. It creates the folder.
func DefaultDSN() (string, error) {
	dir, err := DataDir("lumo")
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "lumo.db"), nil
}

// DataDir is a server's folder in the user's data directory ($XDG_DATA_HOME/<name>, or
// ~/.local/share/<name>), created.
func DataDir(name string) (string, error) {
	base := os.Getenv("XDG_DATA_HOME")
	if !filepath.IsAbs(base) { // the XDG spec says to ignore a relative path
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("finding the data directory: %w", err)
		}
		base = filepath.Join(home, ".local", "share")
	}
	dir := filepath.Join(base, name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("creating the data directory: %w", err)
	}
	return dir, nil
}

// Engine is "sqlite" or "postgres".
func (db *DB) Engine() string { return db.dialect.Name() }

// Dialect is the SQL dialect of the engine.
func (db *DB) Dialect() sqldialect.Dialect { return db.dialect }

// SQL is the underlying pool, for packages that run their own queries.
func (db *DB) SQL() *sql.DB { return db.sql }

// Close closes the pool.
func (db *DB) Close() error {
	if db.watch != nil {
		db.watch.close()
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
