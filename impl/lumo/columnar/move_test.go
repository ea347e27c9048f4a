//go:build cgo

package columnar_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// failingMover fails after its first load, as a full disk would.
type failingMover struct{ aborted bool }

func (m *failingMover) Write(context.Context, *sql.Tx, sqldialect.Dialect, []*semantic.App, string) error {
	return errors.New("no space left on device")
}
func (m *failingMover) Abort() { m.aborted = true }

// TestMoveRowsOut: a database imported with its rows in SQLite (an earlier lumo) moves them into
// the load's DuckDB file at a server's start: the file holds what a copy of the database held,
// type for type and value for value, the database none, and the app reads its file alone. A
// mover that fails changes nothing; a second move finds nothing to move.
func TestMoveRowsOut(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := sqliteDB(t)
	if _, err := db.ImportWorkspaceWith(ctx, sinkWorkspace(3000), "workspace.yaml", store.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	copied, _ := openSynced(t, filepath.Join(dir, "copied.duckdb"), db) // from the rows in the database

	failing := &failingMover{}
	if moved, _, err := db.MoveRowsOut(ctx, failing); err == nil || moved != 0 || !failing.aborted {
		t.Fatalf("a failing move: %d moved, %v, aborted %v", moved, err, failing.aborted)
	}
	if app := onlyApp(t, db); app.RowsInFile || dataTables(t, db) != 6 {
		t.Fatalf("after a failed move: RowsInFile %v, %d tables in the database; want false and 6", app.RowsInFile, dataTables(t, db))
	}

	path := filepath.Join(dir, "lumo.duckdb")
	moved, reclaimed, err := db.MoveRowsOut(ctx, columnar.Deferred(columnar.Options{Path: path}).RowsMover())
	if err != nil || moved != 6 || reclaimed <= 0 {
		t.Fatalf("moving the rows out: %d tables, %d bytes reclaimed, %v; want 6 tables and some bytes", moved, reclaimed, err)
	}
	app := onlyApp(t, db)
	if !app.RowsInFile || dataTables(t, db) != 0 {
		t.Fatalf("after the move: RowsInFile %v, %d tables in the database; want true and none", app.RowsInFile, dataTables(t, db))
	}
	sunk, synced := openSynced(t, path, db)
	if len(synced.Copied) != 0 || !slices.Equal(synced.Attached, tableNames(app)) {
		t.Errorf("the sync after the move copied %v and read %v; want nothing and %v", synced.Copied, synced.Attached, tableNames(app))
	}
	for _, name := range tableNames(app) {
		if diff := cmp.Diff(roundedDump(t, copied.DB().(*sql.DB), name), roundedDump(t, sunk.DB().(*sql.DB), name)); diff != "" {
			t.Errorf("%s (-copied from the database +moved into the file):\n%s", name, diff)
		}
	}
	if moved, _, err := db.MoveRowsOut(ctx, columnar.Deferred(columnar.Options{Path: path}).RowsMover()); err != nil || moved != 0 {
		t.Errorf("a second move: %d moved, %v; want nothing", moved, err)
	}
}

// TestMoveRowsOutKeepsAWholeFile: rows an earlier import kept in the database and, whole, in its
// own file too leave the database without the file being written again.
func TestMoveRowsOutKeepsAWholeFile(t *testing.T) {
	ctx := context.Background()
	db := sqliteDB(t)
	path := filepath.Join(t.TempDir(), "lumo.duckdb")
	if _, err := db.ImportWorkspaceWith(ctx, sinkWorkspace(20), "workspace.yaml",
		store.ImportOptions{Sink: columnar.Deferred(columnar.Options{Path: path}).ImportSink()}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(columnar.LoadsDir(path), loadName(onlyApp(t, db)))
	before, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if moved, _, err := db.MoveRowsOut(ctx, columnar.Deferred(columnar.Options{Path: path}).RowsMover()); err != nil || moved != 6 {
		t.Fatalf("moving the rows out: %d, %v", moved, err)
	}
	after, err := os.Stat(file)
	if err != nil || !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the import's whole file was written again (%v)", err)
	}
	if app := onlyApp(t, db); !app.RowsInFile || dataTables(t, db) != 0 {
		t.Errorf("after the move: RowsInFile %v, %d tables in the database", app.RowsInFile, dataTables(t, db))
	}
}

// dataTables counts the data tables and rollups a SQLite database holds.
func dataTables(t *testing.T, db *store.DB) int {
	t.Helper()
	var n int
	if err := db.SQL().QueryRow("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND (name LIKE 'd%' OR name LIKE 'r%')").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
