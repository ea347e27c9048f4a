// Package sqldbtest gives each test the address of a fresh, empty database: a SQLite file, or a
// new PostgreSQL schema when LUMO_TEST_DB names a PostgreSQL database.
package sqldbtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
)

// EnvDSN names the environment variable that selects PostgreSQL for tests, e.g.
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable. Unset: SQLite.
const EnvDSN = "LUMO_TEST_DB"

// DSN returns the address of a fresh, empty database: the SQLite file t.TempDir()/file, or, with
// LUMO_TEST_DB, a postgres URL whose search_path is a new uniquely named schema, dropped when the
// test ends. Safe for parallel tests.
func DSN(t testing.TB, file string) string {
	t.Helper()
	dsn := os.Getenv(EnvDSN)
	if !sqldb.IsPostgres(dsn) {
		return filepath.Join(t.TempDir(), file)
	}
	return postgresSchema(t, context.Background(), dsn)
}

// postgresSchema creates a uniquely named schema, dropped when the test ends, and returns dsn
// with it as the search_path.
func postgresSchema(t testing.TB, ctx context.Context, dsn string) string {
	t.Helper()
	admin, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatalf("opening %s: %v", EnvDSN, err)
	}
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatalf("naming test schema: %v", err)
	}
	schema := "lumo_test_" + hex.EncodeToString(b[:])
	_, err = admin.ExecContext(ctx, "CREATE SCHEMA "+schema)
	admin.Close() // no idle connection per test: suites open hundreds of schemas
	if err != nil {
		t.Fatalf("creating test schema in %s: %v", EnvDSN, err)
	}
	// Registered first, so it runs after the database users are closed.
	t.Cleanup(func() {
		admin, err := sql.Open("postgres", dsn)
		if err == nil {
			_, err = admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
			admin.Close()
		}
		if err != nil {
			t.Errorf("dropping test schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("parsing %s: %v", EnvDSN, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// IsPostgres reports whether LUMO_TEST_DB selects PostgreSQL.
func IsPostgres() bool { return sqldb.IsPostgres(os.Getenv(EnvDSN)) }
