//go:build cgo

package columnar_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/lumo/values"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// sinkWorkspace is one app whose table holds every kind of value a copy must keep exactly
// (decimals a float64 cannot hold, a number past DECIMAL(18), NULL and empty texts, accents,
// dates and times at their edges), a second table, a table with no file (empty), and rollups (by a dimension's text, by month
// of a date and by hour of a date-time) the import's sink groups in its file too.
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
  - label: Devoluções
    name: devolucoes
    kind: fact
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: MOTIVO, label: Motivo, type: string}
      - {name: VALOR, label: Valor devolvido, type: number, role: measure}
      - {name: DIA, label: Dia da devolução, type: date}
relationships:
  - {from: Vendas.Loja id, to: Lojas.Id}
rollups:
  - name: por_loja
    table: Vendas
    dimensions: [Lojas.Loja]
  - name: por_mes
    table: Vendas
    dimensions: [Vendas.Cliente]
    time: {ref: Vendas.Dia, grain: month}
  - name: por_hora
    table: Vendas
    time: {ref: Vendas.Hora, grain: hour}
    measures: [Vendas.Valor]
`)},
		"apps/app/vendas.csv": {Data: []byte(b.String())},
		"apps/app/lojas.csv":  {Data: []byte("ID,NOME\n1,Centro\n2,São João\n")},
	}
}

// sqliteDB is a new SQLite database, closed with the test, whatever LUMO_TEST_DB says.
func sqliteDB(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "lumo.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// openSynced opens a copy at path (closed with the test) and syncs it with db.
func openSynced(t *testing.T, path string, db *store.DB) (*columnar.Store, columnar.Synced) {
	t.Helper()
	c, err := columnar.Open(context.Background(), columnar.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	synced, err := c.Sync(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return c, synced
}

// tableDump is a DuckDB table's column types and rows, as text, in a fixed order.
func tableDump(t *testing.T, db *sql.DB, table string) string { return dump(t, db, table, false) }

// roundedDump is tableDump with each DOUBLE to 12 significant digits: sums of floating-point
// numbers in another order differ in their last bits.
func roundedDump(t *testing.T, db *sql.DB, table string) string { return dump(t, db, table, true) }

func dump(t *testing.T, db *sql.DB, table string, rounded bool) string {
	t.Helper()
	ctx := context.Background()
	q := sqldialect.DuckDB{}.QuoteIdent(table)
	var b strings.Builder
	var sel []string
	rows, err := db.QueryContext(ctx, "SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = current_database() AND table_name = ? ORDER BY column_index", table)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s\n", name, typ)
		col := sqldialect.DuckDB{}.QuoteIdent(name)
		if rounded && typ == "DOUBLE" {
			sel = append(sel, "printf('%.12g', "+col+")")
		} else {
			sel = append(sel, "CAST("+col+" AS VARCHAR)")
		}
	}
	rows.Close()
	rows, err = db.QueryContext(ctx, "SELECT "+strings.Join(sel, ", ")+" FROM "+q+" ORDER BY ALL")
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

// TestImportSinkWritesWhatACopyWrites: the tables lumo import writes into its own file as it
// reads the files are, type for type and value for value, what a Sync copies out of the
// database, and so are the rollups it groups there; a copy reads them all from that file (views
// stamped with the import) as soon as it syncs, and copies nothing.
func TestImportSinkWritesWhatACopyWrites(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "lumo.duckdb")
	sum, err := db.ImportWorkspaceWith(ctx, sinkWorkspace(3000), "workspace.yaml", store.ImportOptions{Sink: columnar.Deferred(columnar.Options{Path: path}).ImportSink()})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Sunk != 6 || sum.SinkErr != nil {
		t.Fatalf("the sink took %d tables (%v), want the three data tables and the three rollups", sum.Sunk, sum.SinkErr)
	}
	app := onlyApp(t, db)
	if got, want := loadFiles(t, path), []string{loadName(app)}; !slices.Equal(got, want) {
		t.Fatalf("files in %s: %v, want %v", columnar.LoadsDir(path), got, want)
	}
	sunk, synced := openSynced(t, path, db)
	if len(synced.Copied) != 0 {
		t.Errorf("the sync after the import copied %v, want nothing", synced.Copied)
	}
	if want := tableNames(app); !slices.Equal(synced.Attached, want) {
		t.Errorf("the sync after the import read %v from the import's file, want %v", synced.Attached, want)
	}
	if !sunk.Holds(app) {
		t.Fatal("the copy does not hold the app after the import and its sync")
	}

	copied, _ := openSynced(t, filepath.Join(dir, "copied.duckdb"), db)
	for _, tb := range app.Tables {
		want, got := tableDump(t, copied.DB().(*sql.DB), tb.SQLName), tableDump(t, sunk.DB().(*sql.DB), tb.SQLName)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-copied by Sync +written by the import):\n%s", tb.Label, diff)
		}
		if !strings.Contains(want, "DECIMAL(18,2)") && tb.Label == "Vendas" {
			t.Errorf("Vendas has no DECIMAL(18,2) column, so the test checks no retyping:\n%s", want)
		}
	}
	for _, r := range app.Rollups {
		want, got := roundedDump(t, copied.DB().(*sql.DB), r.SQLName), roundedDump(t, sunk.DB().(*sql.DB), r.SQLName)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("rollup %s (-copied by Sync +grouped by the import):\n%s", r.Name, diff)
		}
	}
	// A sample reads the first rows in load order from the file's views as from copied tables.
	for _, tb := range app.Tables {
		var cols []*semantic.Column
		for _, c := range tb.Columns {
			if !c.Calculated() {
				cols = append(cols, c)
			}
		}
		want, werr := values.Reader{DB: copied.DB().(*sql.DB), Dialect: sqldialect.DuckDB{}}.Sample(ctx, tb, cols, 5)
		got, gerr := values.Reader{DB: sunk.DB().(*sql.DB), Dialect: sqldialect.DuckDB{}}.Sample(ctx, tb, cols, 5)
		if werr != nil || gerr != nil {
			t.Fatalf("sampling %s: from the copied table %v, from the import's file %v", tb.Label, werr, gerr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("sample of %s (-copied +import's file):\n%s", tb.Label, diff)
		}
	}
	vts := valueTables(app)
	if len(vts) != 3 {
		t.Fatalf("value tables %v, want Cliente's, Loja's and Motivo's", vts)
	}
	for _, v := range vts {
		want, got := tableDump(t, copied.DB().(*sql.DB), v), tableDump(t, sunk.DB().(*sql.DB), v)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("value table %s (-built by Sync +grouped by the import):\n%s", v, diff)
		}
	}
}

// TestImportBesideAServer: an import that runs while a server holds the copy writes its own
// file; the server reads it without copying a row, keeps reading it after a restart, moves to
// the next import's file (the replaced one is deleted), and never reads a file another database
// wrote under the number of one of its loads.
func TestImportBesideAServer(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	path := filepath.Join(t.TempDir(), "lumo.duckdb")
	server, err := columnar.Open(ctx, columnar.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { server.Close() }()
	importOnce := func(ws fstest.MapFS) *semantic.App {
		t.Helper()
		sink := columnar.Deferred(columnar.Options{Path: path}).ImportSink() // as lumo import's, in its own process
		if sum, err := db.ImportWorkspaceWith(ctx, ws, "workspace.yaml", store.ImportOptions{Sink: sink}); err != nil || sum.Sunk != 6 {
			t.Fatalf("import: %v, %d tables sunk", err, sum.Sunk)
		}
		return onlyApp(t, db)
	}
	sync := func(want columnar.Synced) {
		t.Helper()
		got, err := server.Sync(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Attached, want.Attached) || !slices.Equal(got.Copied, want.Copied) {
			t.Fatalf("the server's sync read %v from the import's file and copied %v; want %v and %v", got.Attached, got.Copied, want.Attached, want.Copied)
		}
	}
	first := importOnce(sinkWorkspace(20))
	sync(columnar.Synced{Attached: tableNames(first)})
	if !server.Holds(first) || countRows(t, server, first.Tables[0].SQLName) != 27 {
		t.Fatalf("after the first import the server does not hold its 27 sales")
	}

	server.Close() // a restart: the views' files are attached again, nothing is copied
	if server, err = columnar.Open(ctx, columnar.Options{Path: path}); err != nil {
		t.Fatal(err)
	}
	if server.Holds(first) {
		t.Error("a reopened copy holds the app before its first sync attached the import's file")
	}
	sync(columnar.Synced{Attached: tableNames(first)})
	if !server.Holds(first) || countRows(t, server, first.Tables[0].SQLName) != 27 {
		t.Fatalf("after a restart the server does not hold the 27 sales")
	}

	second := importOnce(sinkWorkspace(30))
	sync(columnar.Synced{Attached: tableNames(second)})
	if !server.Holds(second) || countRows(t, server, second.Tables[0].SQLName) != 37 {
		t.Fatalf("after the second import the server does not hold its 37 sales")
	}
	if got, want := loadFiles(t, path), []string{loadName(second)}; !slices.Equal(got, want) {
		t.Errorf("files after the second import's sync: %v, want only %v", got, want)
	}
	var attached []string
	rows, err := server.DB().(*sql.DB).Query("SELECT database_name FROM duckdb_databases() WHERE database_name LIKE 'lumo_load_%'")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		rows.Scan(&name)
		attached = append(attached, name)
	}
	rows.Close()
	if want := []string{fmt.Sprintf("lumo_load_%d", second.LoadID)}; !slices.Equal(attached, want) {
		t.Errorf("files attached after the second import's sync: %v, want only %v", attached, want)
	}

	// Another database whose import wrote no file, and a file of the first database left under
	// the number of its load: the server copies the new database's rows instead (into a file of
	// that load written for the new database, which replaces the other's).
	other := storetest.Open(t)
	if _, err := other.ImportWorkspaceWith(ctx, sinkWorkspace(5), "workspace.yaml", store.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	third := storetest.OnlyApp(t, other, "ana")
	data, err := os.ReadFile(filepath.Join(columnar.LoadsDir(path), loadName(second)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(columnar.LoadsDir(path), loadName(third)), data, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := server.Sync(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Copied) != 6 {
		t.Fatalf("with another database's file under its load the sync copied %v; want every table copied", got.Copied)
	}
	if !server.Holds(third) || countRows(t, server, third.Tables[0].SQLName) != 12 {
		t.Fatalf("the server does not hold the other database's 12 sales")
	}
}

// A failed import leaves the copy as it was, and no file of its own.
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
	if _, err := c.Sync(ctx, db); err != nil {
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
	if got, want := loadFiles(t, path), []string{loadName(before)}; !slices.Equal(got, want) {
		t.Errorf("files after a failed import: %v, want only the previous import's %v", got, want)
	}
	if !c.Holds(onlyApp(t, db)) {
		t.Error("after a failed import the copy no longer holds the app's previous import")
	}
}

// When the catalogue fails to commit after the sink finished the import's file, Abort deletes
// the file (and returns).
func TestImportSinkAbortAfterCommit(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lumo.duckdb")
	sink := columnar.Deferred(columnar.Options{Path: path}).ImportSink()
	tb, err := sink.Table(ctx, "t1", []store.SinkColumn{{Name: "a", Type: semantic.TypeNumber}})
	if err != nil {
		t.Fatal(err)
	}
	tb.Add([]any{1.5})
	tb.Done([]int{1})
	if n, err := sink.Commit(ctx, 42, "db-1"); n != 1 || err != nil {
		t.Fatalf("Commit: %d tables, %v", n, err)
	}
	if got := loadFiles(t, path); !slices.Equal(got, []string{"load-42.duckdb"}) {
		t.Fatalf("files after Commit: %v", got)
	}
	done := make(chan struct{})
	go func() { sink.Abort(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Abort after Commit did not return")
	}
	if got := loadFiles(t, path); len(got) != 0 {
		t.Errorf("files after Abort: %v, want none", got)
	}
}

// loadFiles lists the files in the loads folder of the copy at path.
func loadFiles(t *testing.T, path string) []string {
	t.Helper()
	entries, err := os.ReadDir(columnar.LoadsDir(path))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func loadName(app *semantic.App) string { return fmt.Sprintf("load-%d.duckdb", app.LoadID) }

// tableNames are app's data tables, rollups and value tables, in the order a Sync takes them.
func tableNames(app *semantic.App) []string {
	var names []string
	for _, tb := range app.Tables {
		names = append(names, tb.SQLName)
	}
	for _, r := range app.Rollups {
		names = append(names, r.SQLName)
	}
	return append(names, valueTables(app)...)
}

// valueTables are the names of app's value tables.
func valueTables(app *semantic.App) []string {
	var names []string
	for _, tb := range app.Tables {
		for _, c := range tb.Columns {
			if c.Type == semantic.TypeString && c.FoldSQLName != "" && !c.Calculated() {
				names = append(names, columnar.ValuesTable(c))
			}
		}
	}
	return names
}

func countRows(t *testing.T, c *columnar.Store, table string) int {
	t.Helper()
	var n int
	if err := c.DB().(*sql.DB).QueryRow("SELECT COUNT(*) FROM " + sqldialect.DuckDB{}.QuoteIdent(table)).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func onlyApp(t *testing.T, db *store.DB) *semantic.App { return storetest.OnlyApp(t, db, "ana") }

// catalogueFacts are what an import learnt from app's rows and keeps in the catalogue: each
// table's rows, each column's decimals and unit, each relationship's checks and each rollup's rows.
func catalogueFacts(app *semantic.App) string {
	var b strings.Builder
	for _, tb := range app.Tables {
		fmt.Fprintf(&b, "table %s rows %d\n", tb.SQLName, tb.Rows)
		for _, c := range tb.Columns {
			fmt.Fprintf(&b, "  %s scale %d unit %q\n", c.SQLName, c.Scale, c.Unit)
		}
	}
	for _, r := range app.Relationships {
		fmt.Fprintf(&b, "relationship %s complete %v unique %v\n", r.FromTable().SQLName, r.Complete, r.Unique)
	}
	for _, r := range app.Rollups {
		fmt.Fprintf(&b, "rollup %s rows %d\n", r.SQLName, r.Rows)
	}
	return b.String()
}

// TestImportSinkOnlyKeepsNoRow: with SinkOnly (the embedded default) the database keeps the
// catalogue and no app row; the catalogue says what an import into the database says (rows,
// decimals, relationship checks, rollups' rows, all found on the file), the app is marked as read
// from its file alone, and its file holds what a sync copies from an import into the database.
func TestImportSinkOnlyKeepsNoRow(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	ref := sqliteDB(t) // the rows in the database, as on PostgreSQL
	if _, err := ref.ImportWorkspaceWith(ctx, sinkWorkspace(3000), "workspace.yaml", store.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	copied, _ := openSynced(t, filepath.Join(dir, "copied.duckdb"), ref)

	db := sqliteDB(t) // the embedded default; PostgreSQL keeps the rows
	path := filepath.Join(dir, "lumo.duckdb")
	sum, err := db.ImportWorkspaceWith(ctx, sinkWorkspace(3000), "workspace.yaml",
		store.ImportOptions{Sink: columnar.Deferred(columnar.Options{Path: path}).ImportSink(), SinkOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Sunk != 6 || sum.SinkErr != nil || sum.Rows() != 3009 {
		t.Fatalf("the sink took %d tables (%v) and the import says %d rows; want 6 and 3009", sum.Sunk, sum.SinkErr, sum.Rows())
	}
	app, want := onlyApp(t, db), onlyApp(t, ref)
	if !app.RowsInFile || want.RowsInFile {
		t.Fatalf("RowsInFile: %v with SinkOnly, %v without", app.RowsInFile, want.RowsInFile)
	}
	if diff := cmp.Diff(catalogueFacts(want), catalogueFacts(app)); diff != "" {
		t.Errorf("catalogue (-rows in the database +rows in the file alone):\n%s", diff)
	}
	if here, there := dataTables(t, db), dataTables(t, ref); here != 0 || there != 6 {
		t.Errorf("the database holds %d data tables and rollups, want none (%d without SinkOnly, want 6)", here, there)
	}

	sunk, synced := openSynced(t, path, db)
	if len(synced.Copied) != 0 || !slices.Equal(synced.Attached, tableNames(app)) {
		t.Errorf("the sync copied %v and read %v from the file; want nothing and %v", synced.Copied, synced.Attached, tableNames(app))
	}
	for _, tb := range app.Tables {
		if diff := cmp.Diff(tableDump(t, copied.DB().(*sql.DB), tb.SQLName), tableDump(t, sunk.DB().(*sql.DB), tb.SQLName)); diff != "" {
			t.Errorf("%s (-copied from the database +the file alone):\n%s", tb.Label, diff)
		}
	}
	for _, r := range app.Rollups {
		if diff := cmp.Diff(roundedDump(t, copied.DB().(*sql.DB), r.SQLName), roundedDump(t, sunk.DB().(*sql.DB), r.SQLName)); diff != "" {
			t.Errorf("rollup %s (-copied from the database +the file alone):\n%s", r.Name, diff)
		}
	}

	// Without the file the rows are nowhere: the sync says so instead of copying nothing.
	sunk.Close()
	if err := os.RemoveAll(columnar.LoadsDir(path)); err != nil {
		t.Fatal(err)
	}
	other, err := columnar.Open(ctx, columnar.Options{Path: filepath.Join(dir, "other.duckdb")})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var missing *columnar.MissingFileError
	if _, err := other.Sync(ctx, db); !errors.As(err, &missing) || missing.App != app.ID {
		t.Errorf("a sync without the import's file: %v, want a MissingFileError for app %d", err, app.ID)
	}
}

// TestImportSinkOnlyFailsWhole: with SinkOnly a sink that cannot take the rows fails the import,
// and the database is left as it was.
func TestImportSinkOnlyFailsWhole(t *testing.T) {
	ctx := context.Background()
	db := sqliteDB(t)
	memory := columnar.Deferred(columnar.Options{}).ImportSink() // a copy in memory takes no import's tables
	if _, err := db.ImportWorkspaceWith(ctx, sinkWorkspace(10), "workspace.yaml", store.ImportOptions{Sink: memory, SinkOnly: true}); err == nil {
		t.Fatal("an import whose rows have nowhere to go stood")
	}
	var apps int
	if err := db.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM lumo_apps").Scan(&apps); err != nil || apps != 0 {
		t.Errorf("after the failed import the database holds %d apps (%v), want none", apps, err)
	}
}

// The import's file is written with DuckDB at half the copy's memory limit (what DuckDB holds
// outside its limit while appending fits in the other half), read as DuckDB reads the flag.
func TestImportSinkRunsAtHalfTheMemory(t *testing.T) {
	for limit, want := range map[string]string{"256MB": "128000KB", "1 GiB": "536871KB", "1.5GB": "750000KB", "64KiB": "33KB", "lots": "lots"} {
		if got := columnar.HalfLimit(limit); got != want {
			t.Errorf("halfLimit(%q) = %q, want %q", limit, got, want)
		}
	}
	ctx := context.Background()
	c, _, file := sinkFile(t, "200MB")
	var got, want string
	if err := file.QueryRowContext(ctx, "SELECT current_setting('memory_limit')").Scan(&got); err != nil {
		t.Fatal(err)
	}
	if err := c.DB().(*sql.DB).QueryRowContext(ctx, "SELECT current_setting('memory_limit')").Scan(&want); err != nil {
		t.Fatal(err)
	}
	if got == want {
		t.Fatalf("the import's file runs at the copy's memory limit, %s", got)
	}
	half, err := columnar.Open(ctx, columnar.Options{Path: filepath.Join(t.TempDir(), "half.duckdb"), MemoryLimit: "100MB"})
	if err != nil {
		t.Fatal(err)
	}
	defer half.Close()
	if err := half.DB().(*sql.DB).QueryRowContext(ctx, "SELECT current_setting('memory_limit')").Scan(&want); err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("the import's file runs at %s, want %s (half of 200MB)", got, want)
	}
}

// sinkFile is an import sink of a copy at limit (two threads) whose file holds one written table,
// t, and that file.
func sinkFile(t *testing.T, limit string) (*columnar.Store, store.DataSink, *sql.DB) {
	t.Helper()
	ctx := context.Background()
	c, err := columnar.Open(ctx, columnar.Options{Path: filepath.Join(t.TempDir(), "lumo.duckdb"), MemoryLimit: limit, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	sink := c.ImportSink()
	t.Cleanup(func() { sink.Abort() })
	table, err := sink.Table(ctx, "t", []store.SinkColumn{{Name: "n", Type: semantic.TypeNumber}})
	if err != nil {
		t.Fatal(err)
	}
	table.Done([]int{0})
	file, err := sink.Reader(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	return c, sink, file
}

// A rollup groups its whole fact: it is built with more of the memory limit than the file's half
// (nothing appends meanwhile), and the file is back at half of it after. Where even that is too
// little for DuckDB's hash tables on two threads, the build runs again on one.
func TestImportSinkRollupMemory(t *testing.T) {
	ctx := context.Background()
	setting := func(db *sql.DB, name string) string {
		t.Helper()
		var v string
		if err := db.QueryRowContext(ctx, "SELECT current_setting('"+name+"')").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	// The limit of a copy opened at RollupLimit, as DuckDB writes it back.
	limitAt := func(limit string) string {
		t.Helper()
		c, err := columnar.Open(ctx, columnar.Options{Path: filepath.Join(t.TempDir(), "l.duckdb"), MemoryLimit: columnar.RollupLimit(limit)})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		return setting(c.DB().(*sql.DB), "memory_limit")
	}
	_, sink, file := sinkFile(t, "200MB")
	half := setting(file, "memory_limit")
	if _, err := sink.Rollup(ctx, "r", []string{"t"}, "SELECT current_setting('memory_limit') AS m, current_setting('threads') AS th", 0); err != nil {
		t.Fatal(err)
	}
	var m, th string
	if err := file.QueryRowContext(ctx, "SELECT m, th FROM r").Scan(&m, &th); err != nil {
		t.Fatal(err)
	}
	if want := limitAt("200MB"); m != want || th != "2" {
		t.Errorf("the rollup was built at %s on %s threads, want %s on 2", m, th, want)
	}
	if got := setting(file, "memory_limit"); got != half {
		t.Errorf("after the rollup the import's file runs at %s, want %s as before", got, half)
	}

	// 584,000 groups of 8M stored rows, as a daily rollup of a sales fact: at 72 MB DuckDB's
	// hash tables do not fit on two threads, and do on one.
	_, sink, file = sinkFile(t, "96MB")
	if _, err := file.ExecContext(ctx, `CREATE TABLE f AS SELECT i % 50 AS loja, CASE i % 6 WHEN 0 THEN NULL WHEN 1 THEN 'Cancelada' ELSE 'Ativa' END AS sit,
		'Canal ' || (i // 3) % 4 AS canal, TIMESTAMP '2024-01-01' + to_minutes((i * 7919) % 1051200) AS data, CAST(i % 99500 AS DECIMAL(18,2)) AS valor,
		CAST(i % 7 AS BIGINT) AS qtd FROM range(0, 8000000) r(i)`); err != nil {
		t.Fatal(err)
	}
	daily := `SELECT loja, sit, MIN(lower(sit)) AS sf, canal, MIN(lower(canal)) AS cf, date_trunc('day', data) AS d, SUM(valor) AS v, COUNT(valor) AS vn,
		MIN(valor) AS vmin, MAX(valor) AS vmax, SUM(qtd) AS q, COUNT(qtd) AS qn, MIN(qtd) AS qmin, MAX(qtd) AS qmax, COUNT(*) AS n FROM f GROUP BY loja, sit, canal, date_trunc('day', data)`
	half = setting(file, "memory_limit")
	if _, err := file.ExecContext(ctx, "SET GLOBAL memory_limit = '"+columnar.RollupLimit("96MB")+"'"); err != nil {
		t.Fatal(err)
	}
	if _, err := file.ExecContext(ctx, "CREATE TABLE tried AS "+daily); err == nil || !query.OutOfMemory(err) {
		t.Fatalf("the daily rollup fit DuckDB's memory on two threads at the rollups' share (%v): the test no longer proves the retry", err)
	}
	if _, err := file.ExecContext(ctx, "SET GLOBAL memory_limit = '"+half+"'"); err != nil {
		t.Fatal(err)
	}
	rows, err := sink.Rollup(ctx, "daily", []string{"t"}, daily, 0)
	if err != nil {
		t.Fatalf("the daily rollup failed at the rollups' share, on one thread too: %v", err)
	}
	var groups int64
	if err := file.QueryRowContext(ctx, "SELECT COUNT(*) FROM (SELECT DISTINCT loja, sit, canal, date_trunc('day', data) FROM f)").Scan(&groups); err != nil {
		t.Fatal(err)
	}
	if rows != groups {
		t.Errorf("the daily rollup holds %d rows, want %d groups", rows, groups)
	}
	if got := setting(file, "threads"); got != "2" {
		t.Errorf("after the rollup the import's file runs on %s threads, want 2", got)
	}
}

// A sync of rows the database holds writes their load's file, as an import would, and reads its
// tables from it: the copy's own DuckDB keeps none of them. Where no file can be written, the sync
// copies them into the copy, as before.
func TestSyncWritesTheLoadFile(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspaceWith(ctx, sinkWorkspace(10), "workspace.yaml", store.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	app := onlyApp(t, db)
	ownTables := func(c *columnar.Store) (n int) {
		t.Helper()
		for _, name := range tableNames(app) {
			var here int
			err := c.DB().(*sql.DB).QueryRow("SELECT COUNT(*) FROM duckdb_tables() WHERE database_name = current_database() AND table_name = ?", name).Scan(&here)
			if err != nil {
				t.Fatal(err)
			}
			n += here
		}
		return n
	}
	path := filepath.Join(t.TempDir(), "lumo.duckdb")
	c, synced := openSynced(t, path, db)
	if got, want := loadFiles(t, path), []string{loadName(app)}; !slices.Equal(got, want) {
		t.Fatalf("load files after the sync: %v, want %v", got, want)
	}
	if len(synced.Copied) != len(app.Tables)+len(app.Rollups) || synced.Rows == 0 || len(synced.Attached) != len(tableNames(app)) {
		t.Errorf("the sync copied %v (%d rows) and read %v from the file; want every table and rollup copied into it, and read with the value tables", synced.Copied, synced.Rows, synced.Attached)
	}
	if n := ownTables(c); n != 0 {
		t.Errorf("the copy's own DuckDB holds %d of the app's tables; want them all in the load's file", n)
	}
	if got := countRows(t, c, app.Tables[0].SQLName); int64(got) != app.Tables[0].Rows || !c.Holds(app) {
		t.Errorf("the copy reads %d rows of %s from the file, want %d", got, app.Tables[0].SQLName, app.Tables[0].Rows)
	}

	blocked := filepath.Join(t.TempDir(), "lumo.duckdb")
	if err := os.WriteFile(columnar.LoadsDir(blocked), []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, synced = openSynced(t, blocked, db)
	if len(synced.Copied) != len(app.Tables)+len(app.Rollups) || len(synced.Attached) != 0 || ownTables(c) != len(tableNames(app)) || !c.Holds(app) {
		t.Errorf("with no folder for load files the sync copied %v and read %v from a file; want every table copied into the copy", synced.Copied, synced.Attached)
	}
	if got := countRows(t, c, app.Tables[0].SQLName); int64(got) != app.Tables[0].Rows {
		t.Errorf("the copy holds %d rows of %s, want %d", got, app.Tables[0].SQLName, app.Tables[0].Rows)
	}
}

// TestRollupSumsTakeEighteenDigitsWhereTheyFit: a rollup's sum of exact decimals is DECIMAL(18,
// scale) where every sum fits, in the import's own file as in copies out of the database
// (DuckDB 1.5 reads a checkpointed 38-digit column some ten times slower), and DECIMAL(38,
// scale), exact, where a sum passes 18 digits.
func TestRollupSumsTakeEighteenDigitsWhereTheyFit(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, big, typ, sum string
	}{
		{"fits", "999999999999.99", "DECIMAL(18,2)", "1999999999999980.00"},
		{"passes 18 digits", "9999999999999.99", "DECIMAL(38,2)", "19999999999999980.00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("ID,GRUPO,V\n")
			for i := range 2000 {
				fmt.Fprintf(&b, "%d,g0,%s\n", i, tc.big)
			}
			b.WriteString("2000,g1,1.00\n")
			ws := storetest.OneTableWorkspace("Somas", `      - {name: GRUPO, label: Grupo, type: string}
      - {name: V, label: Valor, type: number, role: measure}
rollups:
  - name: por_grupo
    table: Itens
    dimensions: [Itens.Grupo]
`, b.String())
			db := sqliteDB(t)
			dir := t.TempDir()
			path := filepath.Join(dir, "lumo.duckdb")
			if _, err := db.ImportWorkspaceWith(ctx, ws, "workspace.yaml", store.ImportOptions{Sink: columnar.Deferred(columnar.Options{Path: path}).ImportSink()}); err != nil {
				t.Fatal(err)
			}
			r := onlyApp(t, db).Rollups[0]
			sunk, synced := openSynced(t, path, db)
			if !slices.Contains(synced.Attached, r.SQLName) {
				t.Fatalf("the rollup was not read from the import's file: %+v", synced)
			}
			// A copy in a file writes a load file of its own and groups the rollup there, as
			// an import does; one in memory copies the database's rows.
			copied, _ := openSynced(t, filepath.Join(dir, "copied.duckdb"), db)
			inMemory, synced := openSynced(t, "", db)
			if !slices.Contains(synced.Copied, r.SQLName) {
				t.Fatalf("the rollup was not copied out of the database: %+v", synced)
			}
			for name, c := range map[string]*columnar.Store{"import's file": sunk, "copy": copied, "copy in memory": inMemory} {
				var typ, sum string
				q := "SELECT data_type FROM duckdb_columns() WHERE database_name = current_database() AND table_name = ? AND column_name = ?"
				if err := c.DB().(*sql.DB).QueryRowContext(ctx, q, r.SQLName, semantic.RollupSum(0)).Scan(&typ); err != nil {
					t.Fatal(err)
				}
				q = "SELECT CAST(MAX(" + semantic.RollupSum(0) + ") AS VARCHAR) FROM " + r.SQLName
				if err := c.DB().(*sql.DB).QueryRowContext(ctx, q).Scan(&sum); err != nil {
					t.Fatal(err)
				}
				if typ != tc.typ || sum != tc.sum {
					t.Errorf("%s: the sum is %s %s, want %s %s", name, typ, sum, tc.typ, tc.sum)
				}
			}
		})
	}
}
