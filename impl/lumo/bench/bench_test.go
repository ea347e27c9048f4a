package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/parquet-go/parquet-go"
)

// The generated workspace imports, and every hand-written query runs on the engine and returns
// the rows the bench expects (the MCP side is compared with these at run time).
func TestWorkspaceImportsAndQueriesRun(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	sum, err := db.ImportWorkspace(ctx, Workspace(5000), "workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(5000 + stores + products + stores*months); sum.Rows() != want {
		t.Fatalf("imported %d rows, want %d", sum.Rows(), want)
	}
	if _, err := db.ImportWorkspace(ctx, Catalog(50), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	app, err := salesApp(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := Queries(app, db.Dialect())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		n, err := rawRows(ctx, db.SQL(), q.SQL, q.SQLArgs)
		if err != nil {
			t.Fatalf("%s: %v\n%s", q.Name, err, q.SQL)
		}
		if (q.Rows >= 0 && n != q.Rows) || n == 0 {
			t.Errorf("%s: %d rows, want %d", q.Name, n, q.Rows)
		}
	}
	u, err := db.UserByLogin(ctx, CatalogLogin)
	if err != nil {
		t.Fatal(err)
	}
	if apps, err := db.VisibleApps(ctx, u); err != nil || len(apps) != 50 {
		t.Fatalf("catalogue user sees %d apps (%v), want 50", len(apps), err)
	}
}

// The same rows come out for the same scale.
func TestSalesRowsAreDeterministic(t *testing.T) {
	a, b := salesRows(100)(), salesRows(100)()
	for {
		la, oka := a()
		lb, okb := b()
		if oka != okb || string(la) != string(lb) {
			t.Fatalf("runs differ: %q / %q", la, lb)
		}
		if !oka {
			return
		}
	}
}

// BenchmarkImport loads the generated workspace (LUMO_BENCH_ROWS rows, default 200,000) into a
// fresh database per iteration, for profiling the importer:
// go test ./impl/lumo/bench/ -run '^$' -bench Import -benchtime 1x -cpuprofile cpu.out
// Besides rows/s it reports rows per CPU second (this process plus, on PostgreSQL, the server
// backend), which a loaded machine disturbs far less than wall time.
func BenchmarkImport(b *testing.B) {
	rows := 200_000
	if s := os.Getenv("LUMO_BENCH_ROWS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1000 {
			b.Fatalf("LUMO_BENCH_ROWS=%q: use a number of at least 1000", s)
		}
		rows = n
	}
	ctx := context.Background()
	for range b.N {
		b.StopTimer()
		db := storetest.Open(b)
		// One connection, so the import runs on the backend whose CPU is read below.
		db.SQL().SetMaxOpenConns(1)
		backend := -1
		if db.Engine() == "postgres" {
			if err := db.SQL().QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&backend); err != nil {
				b.Fatal(err)
			}
		}
		cpu0 := processCPU() + backendCPU(backend)
		b.StartTimer()
		start := time.Now()
		sum, err := db.ImportWorkspace(ctx, Workspace(rows), "workspace.yaml")
		if err != nil {
			b.Fatal(err)
		}
		wall := time.Since(start).Seconds()
		cpu := processCPU() + backendCPU(backend) - cpu0
		b.ReportMetric(float64(sum.Rows())/wall, "rows/s")
		b.ReportMetric(float64(sum.Rows())/cpu, "rows/cpu-s")
	}
}

// processCPU is this process's user + system CPU seconds.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// backendCPU is the user + system CPU seconds of a local PostgreSQL backend (0 when pid < 0 or
// unreadable), from /proc in clock ticks of 1/100 s.
func backendCPU(pid int) float64 {
	if pid < 0 {
		return 0
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	return float64(utime+stime) / 100
}

// TestSaleAtIsTheCSVRow: every format writer writes the rows the CSV generator writes.
func TestSaleAtIsTheCSVRow(t *testing.T) {
	next := salesRows(2000)()
	next() // header
	for i := 1; i <= 2000; i++ {
		line, _ := next()
		s := saleAt(i)
		status := s.status
		if status == "" {
			status = `\N`
		}
		want := fmt.Sprintf("%d,%s,%d,%d,%s,%s,%s,%s,%s,%d", s.id, s.at.Format("2006-01-02 15:04:00"), s.store, s.product,
			s.client, status, s.channel, appendCents(nil, s.valueCents), appendCents(nil, s.costCents), s.qty)
		if string(line) != want {
			t.Fatalf("row %d: CSV %q, saleAt %q", i, line, want)
		}
	}
	if got := string(appendBRL(nil, 123456789)); got != "1.234.567,89" {
		t.Errorf("appendBRL: %s", got)
	}
	if got := string(appendBRL(nil, 5)); got != "0,05" {
		t.Errorf("appendBRL: %s", got)
	}
}

// A Parquet folder holds saleAt's rows in order, part after part, each part at most its bound.
func TestParquetFolderHoldsEveryRowOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "vendas")
	if err := writeParquetParts(dir, 25, 10); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, e := range entries { // ReadDir sorts by name: part-000, part-001, ...
		rows, err := parquet.ReadFile[parquetSale](filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) > 10 {
			t.Errorf("%s holds %d rows, more than the part's bound of 10", e.Name(), len(rows))
		}
		for _, r := range rows {
			ids = append(ids, r.ID)
			if s := saleAt(int(r.ID)); r.CLIENTE != s.client || r.VALOR != int64(s.valueCents) || r.DATA != s.at.UnixMilli() {
				t.Errorf("row %d: %+v, saleAt %+v", r.ID, r, s)
			}
		}
	}
	if len(entries) != 3 || len(ids) != 25 || !slices.IsSorted(ids) || ids[0] != 1 || ids[24] != 25 {
		t.Errorf("%d parts holding ids %v, want 3 parts holding 1 to 25 in order", len(entries), ids)
	}
}

// DuckDB alone reads each format it has a reader for from the workspace's files and answers
// the value by UF: the side the formats bench times lumo's files to first answer against.
func TestDuckDBAloneAnswersFromTheFiles(t *testing.T) {
	if !columnar.Available {
		t.Skip("DuckDB is not linked in a build without cgo")
	}
	for _, name := range []string{"csv", "parquet", "parquet-folder"} {
		dir := t.TempDir()
		f := fileFormats[name]
		if f.duckdb == "" {
			t.Fatalf("%s has no DuckDB reader", name)
		}
		if _, err := writeFormatWorkspace(dir, f, 1000, nil, true); err != nil {
			t.Fatal(err)
		}
		secs, err := duckdbAlone(context.Background(), dir, f)
		if err != nil || secs <= 0 {
			t.Fatalf("%s: %v s, %v", name, secs, err)
		}
	}
}
