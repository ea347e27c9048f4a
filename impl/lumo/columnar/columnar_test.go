//go:build cgo

package columnar_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
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

// TestDeferredOpensAtTheFirstApp: a copy with no app to copy never opens DuckDB (no file,
// nothing copied); the first Sync that finds one opens the file and copies the app, however
// small.
func TestDeferredOpensAtTheFirstApp(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	path := filepath.Join(t.TempDir(), "lumo.duckdb")
	c := columnar.Deferred(columnar.Options{Path: path, Slots: 2})
	defer c.Close()
	done, err := c.Sync(ctx, db)
	if err != nil || len(done.Copied) != 0 || c.Path() != "" || c.DB() != nil {
		t.Fatalf("no app: copied %v, path %q, err %v; want nothing opened", done.Copied, c.Path(), err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a copy with nothing to copy made its file: %v", err)
	}
	if _, err := db.ImportWorkspace(ctx, storetest.OneTableWorkspace("Uma", "", "ID\n1\n2\n3\n"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	done, err = c.Sync(ctx, db)
	if err != nil || len(done.Copied) != 1 || done.Rows != 3 || c.Path() != path {
		t.Fatalf("an app of 3 rows: copied %v (%d rows), path %q, err %v; want its table in %s", done.Copied, done.Rows, c.Path(), err, path)
	}
}

// TestAwaitWaitsForKeep: a question for an app the copy does not hold yet waits for Keep's sync
// (woken by Await) and then finds it held; with no sync running it gives up at its deadline;
// after a failed sync it answers the failure at once (the caller reads the database); and when
// the copy holds a later import of the app it says so after a sync.
func TestAwaitWaitsForKeep(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, storetest.OneTableWorkspace("Uma", "", "ID\n1\n2\n"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	first := onlyApp(t, db)
	c := columnar.Deferred(columnar.Options{})
	defer c.Close()

	short, stop := context.WithTimeout(ctx, 50*time.Millisecond)
	defer stop()
	if err := c.Await(short, first); !errors.Is(err, context.DeadlineExceeded) || c.Holds(first) {
		t.Fatalf("Await with no sync running: %v, held %v; want its deadline and nothing held", err, c.Holds(first))
	}

	if c.FirstSyncEnded() {
		t.Fatal("FirstSyncEnded before any sync: /readyz would call the server ready")
	}
	kept := make(chan struct{})
	go func() { c.Keep(ctx, db, time.Hour); close(kept) }() // no poll: only the kick of a waiter
	waited := make(chan error, 2)
	for range 2 {
		go func() { waited <- c.Await(ctx, first) }()
	}
	for range 2 {
		if err := <-waited; err != nil || !c.Holds(first) {
			t.Fatalf("Await while Keep runs: %v, held %v; want the app held", err, c.Holds(first))
		}
	}

	if _, err := db.ImportWorkspace(ctx, storetest.OneTableWorkspace("Uma", "", "ID\n1\n2\n3\n"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	second := onlyApp(t, db)
	if !c.FirstSyncEnded() {
		t.Fatal("FirstSyncEnded false after Keep's sync")
	}
	if err := c.Await(ctx, first); err != nil {
		t.Fatalf("Await of the import the copy still holds: %v; want it answered from there", err)
	}
	if err := c.Await(ctx, second); err != nil || !c.Holds(second) {
		t.Fatalf("Await of the new import: %v, held %v", err, c.Holds(second))
	}
	if err := c.Await(ctx, first); !errors.Is(err, columnar.ErrReplaced) {
		t.Fatalf("Await of an app imported again since: %v; want ErrReplaced after a sync", err)
	}
	cancel()
	<-kept

	if _, err := db.ImportWorkspace(context.Background(), storetest.OneTableWorkspace("Uma", "", "ID\n1\n"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	third := onlyApp(t, db)
	if _, err := c.Sync(ctx, db); err == nil { // ctx is cancelled: the sync fails
		t.Fatal("a sync on a cancelled context succeeded")
	}
	if err := c.Await(context.Background(), third); !errors.Is(err, context.Canceled) {
		t.Fatalf("Await after a failed sync, none running: %v; want that sync's error at once", err)
	}
}

// TestSyncLeavesNoLog: a sync checkpoints what it wrote into the file, so that DuckDB does not
// keep the copied tables in memory beside its buffer pool (it checkpoints by itself only past 16
// MB of log) and a restart has no log to replay.
func TestSyncLeavesNoLog(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, storetest.OneTableWorkspace("Uma", "", "ID\n1\n2\n3\n"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lumo.duckdb")
	c, err := columnar.Open(ctx, columnar.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if done, err := c.Sync(ctx, db); err != nil || len(done.Copied) != 1 {
		t.Fatalf("sync: copied %v, %v", done.Copied, err)
	}
	if info, err := os.Stat(path + ".wal"); err == nil && info.Size() > 0 {
		t.Errorf("after a sync DuckDB's log holds %d bytes; want them checkpointed into the file", info.Size())
	}
}

// TestCopyKeepsDecimalsExact: a DECIMAL column of the copy holds, for each float64 of the row
// store, exactly the decimal strconv.FormatFloat(x, 'f', scale, 64) writes (its binary value
// rounded half to even), NULL stays NULL, and dates and timestamps keep their wall clock.
func TestCopyKeepsDecimalsExact(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	csv := "ID,V,D,T\n"
	days := []string{"2024-02-29", "1969-12-31", "2000-01-01", "2024-12-31"}
	stamps := []string{"2024-01-01 00:00:00", "2024-12-31 23:59:59", "1960-06-15 23:59:59", "1970-01-01 00:00:00"}
	values := []any{0.1 + 0.2, 2.675, -2.675, 1.005, 0.125, 0.375, -0.125, 1e-9, -1e-9, 9999999999999.99,
		-9999999999999.99, 1234567890123.455, nil, 0.0, -0.0, 100}
	for i := range values {
		csv += fmt.Sprintf("%d,1.25,%s,%s\n", i, days[i%len(days)], stamps[i%len(stamps)])
	}
	ws := storetest.OneTableWorkspace("Exatos", `      - {name: V, label: Valor, type: number, role: measure}
      - {name: D, label: Dia, type: date}
      - {name: T, label: Hora, type: datetime}
`, csv)
	if _, err := db.ImportWorkspace(ctx, ws, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	u, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	tb := apps[0].Tables[0]
	name := map[string]string{}
	for _, c := range tb.Columns {
		name[c.Name] = sqldialect.DuckDB{}.QuoteIdent(c.SQLName)
	}
	// The row store holds any float64, not only what a CSV of two decimals gives.
	update := sqldialect.Rebind(db.Dialect(), "UPDATE "+sqldialect.DuckDB{}.QuoteIdent(tb.SQLName)+" SET "+name["V"]+" = ? WHERE "+name["ID"]+" = ?")
	for i, v := range values {
		if _, err := db.SQL().ExecContext(ctx, update, v, i); err != nil {
			t.Fatal(err)
		}
	}
	col := syncedCopy(t, db)
	rows, err := col.DB().QueryContext(ctx, "SELECT CAST("+name["ID"]+" AS INTEGER), typeof("+name["V"]+"), CAST("+name["V"]+" AS VARCHAR), CAST("+
		name["D"]+" AS VARCHAR), CAST("+name["T"]+" AS VARCHAR) FROM "+sqldialect.DuckDB{}.QuoteIdent(tb.SQLName)+" ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var i int
		var typ string
		var v sql.NullString
		var d, ts string
		if err := rows.Scan(&i, &typ, &v, &d, &ts); err != nil {
			t.Fatal(err)
		}
		n++
		if typ != "DECIMAL(18,2)" {
			t.Errorf("row %d: V is a %s, want DECIMAL(18,2)", i, typ)
		}
		if values[i] == nil {
			if v.Valid {
				t.Errorf("row %d: NULL copied as %s", i, v.String)
			}
		} else {
			want := strconv.FormatFloat(toFloat(values[i]), 'f', 2, 64)
			if got, ok := new(big.Rat).SetString(v.String); !ok || got.Cmp(ratOf(t, want)) != 0 {
				t.Errorf("row %d: %v copied as %q, want %s", i, values[i], v.String, want)
			}
		}
		if d != days[i%len(days)] || ts != stamps[i%len(stamps)] {
			t.Errorf("row %d: date %s and timestamp %s, want %s and %s", i, d, ts, days[i%len(days)], stamps[i%len(stamps)])
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != len(values) {
		t.Fatalf("%d rows copied, want %d", n, len(values))
	}
}

func toFloat(v any) float64 {
	if i, ok := v.(int); ok {
		return float64(i)
	}
	return v.(float64)
}

func ratOf(t *testing.T, s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("%q is not a decimal", s)
	}
	return r
}
