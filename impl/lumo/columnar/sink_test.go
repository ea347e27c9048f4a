//go:build cgo

package columnar_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// sinkWorkspace is one app whose table holds every kind of value a copy must keep exactly
// (decimals a float64 cannot hold, a number past DECIMAL(18), NULL and empty texts, accents,
// dates and times at their edges), a second table, and a rollup the import's sink leaves to Sync.
func sinkWorkspace(extraRows int) fstest.MapFS {
	var b strings.Builder
	b.WriteString("ID,CLIENTE,V,W,GRANDE,D,T,LOJA\n")
	rows := []string{
		`1,Ana,0.3,2.675,100000000000000000000,2024-02-29,2024-01-01 00:00:00,1`,
		`2,\N,-2.67,1.005,-3,1969-12-31,2024-12-31 23:59:59,2`,
		`3,,9999999999999.99,0.125,0,2000-01-01,1960-06-15 23:59:59,1`,
		`4,Conceição,-9999999999999.99,-0.375,12345678901234567890,2024-12-31,1970-01-01 00:00:00,2`,
		`5,JOSÉ,1234567890123.45,\N,5,\N,\N,\N`,
		`6,Zé,0,0,-0,2026-09-30,2026-09-30 14:05:09,1`,
		`7,Ana,-0,100,7,2026-10-01,2026-10-01 00:00:00,2`,
	}
	for _, r := range rows {
		b.WriteString(r + "\n")
	}
	for i := range extraRows {
		fmt.Fprintf(&b, "%d,Cliente %d,%d.%02d,1.5,%d,2025-01-%02d,2025-01-01 10:00:00,%d\n", 100+i, i%37, i, i%100, i, 1+i%28, 1+i%2)
	}
	return fstest.MapFS{
		"workspace.yaml": {Data: []byte(`tenants:
  - key: t1
    name: Tenant
    users:
      - {login: ana, name: Ana, token: tok-ana-sink}
    desks:
      - {name: Mesa, members: [ana]}
    apps:
      - {key: app, source: apps/app, desk: Mesa}
`)},
		"apps/app/app.yaml": {Data: []byte(`name: Vendas
tables:
  - label: Vendas
    name: vendas
    kind: fact
    file: vendas.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: CLIENTE, label: Cliente, type: string}
      - {name: V, label: Valor, type: number, role: measure}
      - {name: W, label: Peso, type: number, role: measure}
      - {name: GRANDE, label: Grande, type: number, role: measure}
      - {name: D, label: Dia, type: date}
      - {name: T, label: Hora, type: datetime}
      - {name: LOJA, label: Loja id, type: number, role: key}
  - label: Lojas
    name: lojas
    kind: dimension
    file: lojas.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: NOME, label: Loja, type: string}
relationships:
  - {from: Vendas.Loja id, to: Lojas.Id}
rollups:
  - name: por_loja
    table: Vendas
    dimensions: [Lojas.Loja]
`)},
		"apps/app/vendas.csv": {Data: []byte(b.String())},
		"apps/app/lojas.csv":  {Data: []byte("ID,NOME\n1,Centro\n2,São João\n")},
	}
}

// tableDump is a DuckDB table's column types and rows, as text, in a fixed order.
func tableDump(t *testing.T, db *sql.DB, table string) string {
	t.Helper()
	ctx := context.Background()
	q := sqldialect.DuckDB{}.QuoteIdent(table)
	var b strings.Builder
	rows, err := db.QueryContext(ctx, "SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = ? ORDER BY column_index", table)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s\n", name, typ)
	}
	rows.Close()
	rows, err = db.QueryContext(ctx, "SELECT CAST(COLUMNS(*) AS VARCHAR) FROM "+q+" ORDER BY ALL")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals, ptrs := make([]sql.NullString, len(cols)), make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for _, v := range vals {
			if v.Valid {
				b.WriteString(v.String + "|")
			} else {
				b.WriteString("NULL|")
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestImportSinkWritesWhatACopyWrites: the tables lumo import writes into the copy as it reads
// the files are, type for type and value for value, what a Sync copies out of the database; the
// copy holds the app at its import as soon as the import commits, and the Sync after it copies
// only what the sink leaves (the rollup).
func TestImportSinkWritesWhatACopyWrites(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	dir := t.TempDir()
	sunk, err := columnar.Open(ctx, columnar.Options{Path: filepath.Join(dir, "sunk.duckdb")})
	if err != nil {
		t.Fatal(err)
	}
	defer sunk.Close()
	sum, err := db.ImportWorkspaceWith(ctx, sinkWorkspace(3000), "workspace.yaml", store.ImportOptions{Sink: sunk.ImportSink()})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Sunk != 2 || sum.SinkErr != nil {
		t.Fatalf("the sink took %d tables (%v), want both", sum.Sunk, sum.SinkErr)
	}
	app := onlyApp(t, db)
	synced, err := sunk.Sync(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{app.Rollups[0].SQLName}; !slices.Equal(synced.Copied, want) {
		t.Errorf("the sync after the import copied %v, want only the rollup %v", synced.Copied, want)
	}
	if !sunk.Holds(app) {
		t.Fatal("the copy does not hold the app after the import and its sync")
	}

	copied, err := columnar.Open(ctx, columnar.Options{Path: filepath.Join(dir, "copied.duckdb")})
	if err != nil {
		t.Fatal(err)
	}
	defer copied.Close()
	if _, err := copied.Sync(ctx, db); err != nil {
		t.Fatal(err)
	}
	for _, tb := range app.Tables {
		want, got := tableDump(t, copied.DB().(*sql.DB), tb.SQLName), tableDump(t, sunk.DB().(*sql.DB), tb.SQLName)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-copied by Sync +written by the import):\n%s", tb.Label, diff)
		}
		if !strings.Contains(want, "DECIMAL(18,2)") && tb.Label == "Vendas" {
			t.Errorf("Vendas has no DECIMAL(18,2) column, so the test checks no retyping:\n%s", want)
		}
	}
}

// A failed import leaves the copy as it was, with no staged table.
func TestImportSinkFailsCleanly(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	path := filepath.Join(t.TempDir(), "lumo.duckdb")
	c, err := columnar.Open(ctx, columnar.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := db.ImportWorkspaceWith(ctx, sinkWorkspace(10), "workspace.yaml", store.ImportOptions{Sink: c.ImportSink()}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Sync(ctx, db); err != nil { // the rollup
		t.Fatal(err)
	}
	before := onlyApp(t, db)
	if !c.Holds(before) {
		t.Fatal("the copy does not hold the app after its import and sync")
	}
	dump := tableDump(t, c.DB().(*sql.DB), before.Tables[0].SQLName)

	bad := sinkWorkspace(10)
	bad["apps/app/lojas.csv"] = &fstest.MapFile{Data: []byte("ID,NOME\n1,Centro\nnão é número,X\n")}
	if _, err := db.ImportWorkspaceWith(ctx, bad, "workspace.yaml", store.ImportOptions{Sink: c.ImportSink()}); err == nil {
		t.Fatal("the import of a bad lojas.csv succeeded")
	}
	if got := tableDump(t, c.DB().(*sql.DB), before.Tables[0].SQLName); got != dump {
		t.Errorf("a failed import changed the copy of Vendas")
	}
	var staged int
	if err := c.DB().(*sql.DB).QueryRowContext(ctx, "SELECT COUNT(*) FROM duckdb_tables() WHERE table_name LIKE '%lumo_import'").Scan(&staged); err != nil {
		t.Fatal(err)
	}
	if staged != 0 {
		t.Errorf("%d staged tables left after a failed import", staged)
	}
	if !c.Holds(onlyApp(t, db)) {
		t.Error("after a failed import the copy no longer holds the app's previous import")
	}
}

func onlyApp(t *testing.T, db *store.DB) *semantic.App { return storetest.OnlyApp(t, db, "ana") }
