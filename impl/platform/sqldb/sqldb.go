// Package sqldb opens the database both servers share (a SQLite file or PostgreSQL) with the
// engine settings they rely on, and finds a server's default file in the user's data directory.
package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/lib/pq"  // registers "postgres"
	_ "modernc.org/sqlite" // registers "sqlite"

	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// DB is an open, reachable database: the pool and the dialect of its engine. It does not migrate;
// each server applies its own migrations (package migrate).
type DB struct {
	sql     *sql.DB
	dialect sqldialect.Dialect
	dsn     string
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

// Option changes how Open connects.
type Option func(*options)

type options struct {
	sqlitePragmas []string
}

// SQLitePragma adds pragma (as "name(value)") to the ones every SQLite connection of the pool
// runs when it opens, after sqlitePragmas; PostgreSQL ignores it. It concerns this pool only:
// another server's pool on the same file keeps its own settings.
func SQLitePragma(pragma string) Option {
	return func(o *options) { o.sqlitePragmas = append(o.sqlitePragmas, pragma) }
}

// Open connects to dsn and checks that the database answers. A postgres:// or postgresql:// URL
// opens PostgreSQL (lib/pq); anything else is the path of a SQLite file (created if missing, in a
// folder that must exist).
func Open(ctx context.Context, dsn string, opts ...Option) (*DB, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	db := &DB{}
	var err error
	if IsPostgres(dsn) {
		db.dialect = sqldialect.Postgres{}
		db.dsn = customPlans(dsn)
		db.sql, err = sql.Open("postgres", db.dsn)
	} else {
		if dir := filepath.Dir(strings.TrimPrefix(strings.SplitN(dsn, "?", 2)[0], "file:")); dsn != ":memory:" {
			if st, statErr := os.Stat(dir); statErr != nil || !st.IsDir() {
				return nil, fmt.Errorf("a pasta do banco SQLite %q não existe; crie-a ou indique outro arquivo em --db", dir)
			}
		}
		db.dialect = sqldialect.SQLite{}
		db.dsn = dsn
		sep := "?"
		if strings.Contains(dsn, "?") {
			sep = "&"
		}
		pragmas := sqlitePragmas
		for _, p := range o.sqlitePragmas {
			pragmas += "&_pragma=" + p
		}
		db.sql, err = sql.Open("sqlite", dsn+sep+pragmas)
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
	return db, nil
}

// customPlans asks PostgreSQL to plan every run of a prepared statement with its values (unless
// the DSN says otherwise): statements are prepared once and reused (lumo's statement cache), and a
// generic plan chosen after five runs could ignore how selective a filter value is. Preparing still
// saves the parse and a round trip; planning these queries costs far less than running them.
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

// DefaultDSN is the SQLite file a server uses when no DSN is given: <name>.db in DataDir(name),
// e.g. $XDG_DATA_HOME/lumo/lumo.db or ~/.local/share/lumo/lumo.db. It creates the folder.
func DefaultDSN(name string) (string, error) {
	dir, err := DataDir(name)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name+".db"), nil
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

// SQL is the pool.
func (db *DB) SQL() *sql.DB { return db.sql }

// DSN is what the pool connects with: on PostgreSQL the URL with plan_cache_mode set, for another
// connection to the same database (a LISTEN connection) to get the same settings.
func (db *DB) DSN() string { return db.dsn }

// Close closes the pool.
func (db *DB) Close() error { return db.sql.Close() }
