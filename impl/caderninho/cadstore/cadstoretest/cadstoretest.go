// Package cadstoretest gives each test a fresh, empty, migrated caderninho store.
package cadstoretest

import (
	"context"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb/sqldbtest"
)

// Open returns the store of a fresh migrated database closed when the test ends: a SQLite file in
// t.TempDir(), or, when LUMO_TEST_DB is a postgres URL, a new uniquely named schema in that
// database (made the connection's search_path, dropped at the end). Safe for parallel tests.
func Open(t testing.TB) *cadstore.Store {
	t.Helper()
	s, _ := OpenDSN(t)
	return s
}

// OpenDSN is Open that also returns the DSN of the fresh database, for tests that start
// server processes on it.
func OpenDSN(t testing.TB) (*cadstore.Store, string) {
	t.Helper()
	dsn := sqldbtest.DSN(t, "caderninho.db")
	s, err := cadstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("opening the test database: %v", err)
	}
	t.Cleanup(func() { s.DB().Close() })
	return s, dsn
}
