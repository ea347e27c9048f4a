// Package storetest gives each test a fresh, empty, migrated lumo database.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/store"
)

// EnvDSN names the environment variable that selects PostgreSQL for tests, e.g.
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable. Unset: SQLite.
const EnvDSN = "LUMO_TEST_DB"

// Open returns a fresh migrated database closed when the test ends: a SQLite file in
// t.TempDir(), or, when LUMO_TEST_DB is a postgres URL, a new uniquely named schema in that
// database (made the connection's search_path, dropped at the end). Safe for parallel tests.
func Open(t testing.TB) *store.DB {
	t.Helper()
	db, _ := OpenDSN(t)
	return db
}

// OpenDSN is Open that also returns the DSN of the fresh database, for tests that start
// server processes on it.
func OpenDSN(t testing.TB) (*store.DB, string) {
	t.Helper()
	ctx := context.Background()
	dsn := os.Getenv(EnvDSN)
	if !store.IsPostgres(dsn) {
		file := filepath.Join(t.TempDir(), "lumo.db")
		db, err := store.Open(ctx, file)
		if err != nil {
			t.Fatalf("opening sqlite test database: %v", err)
		}
		t.Cleanup(func() { db.Close() })
		return db, file
	}
	return openPostgres(t, ctx, dsn)
}

func openPostgres(t testing.TB, ctx context.Context, dsn string) (*store.DB, string) {
	t.Helper()
	schemaDSN := postgresSchema(t, ctx, dsn)
	db, err := store.Open(ctx, schemaDSN)
	if err != nil {
		t.Fatalf("opening postgres test database: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db, schemaDSN
}

// DSN returns the address of a fresh, empty database for another process (a built binary) to
// open and migrate: a SQLite file in t.TempDir(), or, with LUMO_TEST_DB, a postgres URL whose
// search_path is a new schema, dropped when the test ends.
func DSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(EnvDSN)
	if !store.IsPostgres(dsn) {
		return filepath.Join(t.TempDir(), "lumo.db")
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
