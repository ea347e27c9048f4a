package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/pgsource/pgtest"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
)

// TestImportTimeLimitCancelsTheSource: `lumo import --timeout` stops a source SELECT that never
// ends, on the source server too, and the import changes nothing.
func TestImportTimeLimitCancelsTheSource(t *testing.T) {
	src := pgtest.SourceDB(t, "CREATE TABLE t (id int4); INSERT INTO t VALUES (1), (2);")
	ws := t.TempDir()
	write := func(name, data string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(ws, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("workspace.yaml", `databases:
  - {name: origem, dsn: "`+src+`"}
tenants:
  - key: t1
    name: T1
    users: [{login: ana, name: Ana, token: tok-ana-123456}]
    desks: [{name: Geral, members: [ana]}]
    apps: [{key: a, source: apps/a, desk: Geral}]
`)
	app := func(query string) string {
		return `name: A
tables:
  - label: T
    name: t
    kind: fact
    postgres: {database: origem, query: "` + query + `"}
    columns:
      - {name: ID, label: Id, type: number, role: measure}
`
	}
	write("apps/a/app.yaml", app("SELECT id FROM t"))
	db := filepath.Join(t.TempDir(), "lumo.db")
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var out bytes.Buffer
	if err := run(context.Background(), []string{"import", "--db", db, filepath.Join(ws, "workspace.yaml")}, &out, log); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "banco origem, consulta: 2 linhas") {
		t.Errorf("import output:\n%s", out.String())
	}

	write("apps/a/app.yaml", app("SELECT id FROM t, pg_sleep(3600)"))
	start := time.Now()
	err := run(context.Background(), []string{"import", "--db", db, "--timeout", "2s", filepath.Join(ws, "workspace.yaml")}, &out, log)
	if err == nil || !strings.Contains(err.Error(), "a importação passou do tempo limite (--timeout 2s) e foi desfeita; nada mudou no banco") ||
		!strings.Contains(err.Error(), "banco origem, consulta: a leitura passou do tempo limite da importação e foi cancelada no banco") {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the import took %v", d)
	}
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int
	if err := s.SQL().QueryRow("SELECT COUNT(*) FROM lumo_tables WHERE loaded_at IS NOT NULL").Scan(&n); err != nil || n != 1 {
		t.Errorf("loaded tables after the refused import: %d, %v", n, err)
	}
}
