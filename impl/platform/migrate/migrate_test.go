package migrate_test

import (
	"context"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/platform/migrate"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb/sqldbtest"
)

// Two servers keep their migrations apart and record them in the one schema_migrations table:
// each applies and checks only its own, and applying again changes nothing.
func TestServersShareTheTable(t *testing.T) {
	ctx := context.Background()
	db, err := sqldb.Open(ctx, sqldbtest.DSN(t, "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	a := fstest.MapFS{
		"migrations/0001_a.sql": {Data: []byte("-- a's first\nCREATE TABLE a_one (id INTEGER PRIMARY KEY);\nINSERT INTO a_one (id) VALUES (1);\n")},
		"migrations/0002_a.sql": {Data: []byte("CREATE TABLE a_two (id INTEGER PRIMARY KEY);")},
	}
	b := fstest.MapFS{"migrations/b_0001.sql": {Data: []byte("CREATE TABLE b_one (id INTEGER PRIMARY KEY);\n")}}
	if err := migrate.Apply(ctx, db.SQL(), db.Dialect(), a); err != nil {
		t.Fatal(err)
	}
	pending := func(fsys fstest.MapFS) []string {
		t.Helper()
		p, err := migrate.Pending(ctx, db.SQL(), fsys)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if d := cmp.Diff([]string(nil), pending(a)); d != "" {
		t.Errorf("a pending after applying a (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"b_0001"}, pending(b)); d != "" {
		t.Errorf("b pending before applying b (-want +got):\n%s", d)
	}
	for range 2 {
		if err := migrate.Apply(ctx, db.SQL(), db.Dialect(), b); err != nil {
			t.Fatal(err)
		}
		if err := migrate.Apply(ctx, db.SQL(), db.Dialect(), a); err != nil {
			t.Fatal(err)
		}
	}
	var versions []string
	rows, err := db.SQL().QueryContext(ctx, "SELECT version FROM schema_migrations ORDER BY version")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		versions = append(versions, v)
	}
	if d := cmp.Diff([]string{"0001_a", "0002_a", "b_0001"}, versions); d != "" {
		t.Errorf("schema_migrations (-want +got):\n%s", d)
	}
	var n int
	if err := db.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM a_one").Scan(&n); err != nil || n != 1 {
		t.Errorf("a_one has %d rows, %v; want 1 (applied once)", n, err)
	}
	a["migrations/0003_a.sql"] = &fstest.MapFile{Data: []byte("CREATE TABLE a_three (id INTEGER PRIMARY KEY);")}
	if d := cmp.Diff([]string{"0003_a"}, pending(a)); d != "" {
		t.Errorf("a pending after a new file (-want +got):\n%s", d)
	}
}

// A failing statement rolls the whole run back: nothing of it is recorded.
func TestFailedMigrationLeavesNothing(t *testing.T) {
	ctx := context.Background()
	db, err := sqldb.Open(ctx, filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	bad := fstest.MapFS{
		"migrations/0001_ok.sql":  {Data: []byte("CREATE TABLE ok (id INTEGER PRIMARY KEY);")},
		"migrations/0002_bad.sql": {Data: []byte("CREATE TABLE nope (;\n")},
	}
	if err := migrate.Apply(ctx, db.SQL(), db.Dialect(), bad); err == nil {
		t.Fatal("a broken migration applied")
	}
	p, err := migrate.Pending(ctx, db.SQL(), bad)
	if err == nil {
		t.Errorf("schema_migrations exists after a rolled-back run; pending %v", p)
	}
}
