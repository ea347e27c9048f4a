// Package storetest gives each test a fresh, empty, migrated lumo database.
package storetest

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb/sqldbtest"
)

// EnvDSN names the environment variable that selects PostgreSQL for tests, e.g.
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable. Unset: SQLite.
const EnvDSN = sqldbtest.EnvDSN

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
	dsn := DSN(t)
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		if sqldbtest.IsPostgres() {
			t.Fatalf("opening postgres test database: %v", err)
		}
		t.Fatalf("opening sqlite test database: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db, dsn
}

// DSN returns the address of a fresh, empty database for another process (a built binary) to
// open and migrate: a SQLite file in t.TempDir(), or, with LUMO_TEST_DB, a postgres URL whose
// search_path is a new schema, dropped when the test ends.
func DSN(t testing.TB) string {
	t.Helper()
	return sqldbtest.DSN(t, "lumo.db")
}

// OneTableWorkspace is a tenant whose user ana sees one app, name, with one fact table Itens
// (itens.csv holding csv): an ID key column, then the YAML column lines in more.
func OneTableWorkspace(name, more, csv string) fstest.MapFS {
	return fstest.MapFS{
		"workspace.yaml": {Data: []byte(`tenants:
  - key: t1
    name: Tenant
    users:
      - {login: ana, name: Ana, token: tok-ana-one-table}
    desks:
      - {name: Mesa, members: [ana]}
    apps:
      - {key: app, source: apps/app, desk: Mesa}
`)},
		"apps/app/app.yaml": {Data: []byte("name: " + name + `
tables:
  - label: Itens
    name: itens
    kind: fact
    file: itens.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
` + more)},
		"apps/app/itens.csv": {Data: []byte(csv)},
	}
}

// OnlyApp is the one app user login sees in db (the test fails when there is not exactly one).
func OnlyApp(t testing.TB, db *store.DB, login string) *semantic.App {
	t.Helper()
	ctx := context.Background()
	u, err := db.UserByLogin(ctx, login)
	if err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil || len(apps) != 1 {
		t.Fatalf("apps %s sees: %d, %v", login, len(apps), err)
	}
	return apps[0]
}
