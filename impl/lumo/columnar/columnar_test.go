//go:build cgo

package columnar_test

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// TestOpenBoundsDuckDB checks that the flags reach DuckDB: its memory limit, threads and a temp
// directory beside the file, and that the copy's stamps survive a reopen.
func TestOpenBoundsDuckDB(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lumo.duckdb")
	c, err := columnar.Open(ctx, columnar.Options{Path: path, MemoryLimit: "100MB", Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	db := c.DB().(*sql.DB)
	for setting, want := range map[string]string{"threads": "1", "temp_directory": path + ".tmp", "memory_limit": "95.3 MiB"} {
		var got string
		if err := db.QueryRow("SELECT current_setting('" + setting + "')::VARCHAR").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s = %q, want %q", setting, got, want)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	// A second process cannot open a file another holds: lumo import leaves the copy to the
	// server that runs (see cmd/lumo).
	c, err = columnar.Open(ctx, columnar.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
}

// TestTimeoutInterruptsDuckDB checks that a query's context ends DuckDB's work: a query that
// would run for hours returns the context's error, and the store answers the next query.
func TestTimeoutInterruptsDuckDB(t *testing.T) {
	c, err := columnar.Open(context.Background(), columnar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	rows, err := c.DB().QueryContext(ctx, "SELECT count(*) FROM range(1000000000) a, range(1000000000) b WHERE a.range + b.range = 7")
	if err == nil {
		var n int64
		for rows.Next() {
			err = rows.Scan(&n)
		}
		if err == nil {
			err = rows.Err()
		}
		rows.Close()
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the deadline's error from an interrupted query, got %v", err)
	}
	var one int
	if err := c.DB().(*sql.DB).QueryRow("SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("after the interrupt: %v, %v", one, err)
	}
}

// failures counts the log's failed syncs.
type failures struct{ n atomic.Int32 }

func (f *failures) Enabled(context.Context, slog.Level) bool { return true }
func (f *failures) Handle(_ context.Context, r slog.Record) error {
	if strings.Contains(r.Message, "sync failed") {
		f.n.Add(1)
	}
	return nil
}
func (f *failures) WithAttrs([]slog.Attr) slog.Handler { return f }
func (f *failures) WithGroup(string) slog.Handler      { return f }

// TestKeepRetriesAFailedSyncOnceAMinute: a sync that fails (here, on a closed DuckDB) is logged and
// tried again after a minute or at the next import, not at every poll.
func TestKeepRetriesAFailedSyncOnceAMinute(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, storetest.OneTableWorkspace("Uma", "", "ID\n1\n"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	f := &failures{}
	c, err := columnar.Open(ctx, columnar.Options{Log: slog.New(f)})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	done := make(chan struct{})
	go func() { c.Keep(ctx, db, 10*time.Millisecond); close(done) }()
	for range 50 { // 50 polls and kicks
		time.Sleep(10 * time.Millisecond)
		c.Kick()
	}
	cancel()
	<-done
	if n := f.n.Load(); n != 1 {
		t.Fatalf("%d failed syncs logged over 50 polls; want 1 (the next try waits a minute or an import)", n)
	}
}

// TestDeferredOpensOnlyForAppsThatReachMinRows: a copy whose apps all stay under MinRows never
// opens DuckDB (no file, nothing copied); once an app reaches it, the first Sync opens the file
// and copies that app.
func TestDeferredOpensOnlyForAppsThatReachMinRows(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, storetest.OneTableWorkspace("Uma", "", "ID\n1\n2\n3\n"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lumo.duckdb")
	small := columnar.Deferred(columnar.Options{Path: path, MinRows: 4, Slots: 2})
	done, err := small.Sync(ctx, db)
	if err != nil || len(done.Copied) != 0 || small.Path() != "" || small.DB() != nil {
		t.Fatalf("an app of 3 rows under MinRows 4: copied %v, path %q, err %v; want nothing opened", done.Copied, small.Path(), err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a copy with nothing to copy made its file: %v", err)
	}
	small.Close()
	c := columnar.Deferred(columnar.Options{Path: path, MinRows: 3, Slots: 2})
	defer c.Close()
	done, err = c.Sync(ctx, db)
	if err != nil || len(done.Copied) != 1 || done.Rows != 3 || c.Path() != path {
		t.Fatalf("an app of 3 rows at MinRows 3: copied %v (%d rows), path %q, err %v; want its table in %s", done.Copied, done.Rows, c.Path(), err, path)
	}
}
