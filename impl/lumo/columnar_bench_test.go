//go:build cgo

package lumo

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/bench"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// BenchmarkColumnarAdHoc times every lumo-bench query as an ad-hoc question (rollups off) answered
// by the Service from the columnar copy, beside DuckDB's own run of its hand-written SQL on the same
// copy. The copy is of lumo-bench's million sales, its fact table then grown inside DuckDB to
// LUMO_BENCH_TIMES copies of itself (default 1): LUMO_BENCH_TIMES=100 measures 100M rows (a 2 GB
// file, ~40 s to grow) without importing them into the row store first.
//
//	LUMO_BENCH_TIMES=100 go test -run '^$' -bench ColumnarAdHoc -benchtime 3x ./impl/lumo/
func BenchmarkColumnarAdHoc(b *testing.B) {
	ctx := context.Background()
	times := 1
	if v := os.Getenv("LUMO_BENCH_TIMES"); v != "" {
		var err error
		if times, err = strconv.Atoi(v); err != nil || times < 1 {
			b.Fatalf("LUMO_BENCH_TIMES=%q: want a whole number from 1", v)
		}
	}
	dir := b.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, "lumo.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ImportWorkspace(ctx, bench.Workspace(1_000_000), "workspace.yaml"); err != nil {
		b.Fatal(err)
	}
	u, err := db.UserByLogin(ctx, bench.Login)
	if err != nil {
		b.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil {
		b.Fatal(err)
	}
	app := apps[0]
	col := syncedCopy(b, db, filepath.Join(dir, "lumo.duckdb"))
	duck := col.DB().(*sql.DB)
	sales := app.TableByLabel("Vendas")
	if sales == nil {
		b.Fatal("the bench's app has no table Vendas")
	}
	if times > 1 { // the stamp stays: the Service reads the grown table as the app's
		start := time.Now()
		grow := `INSERT INTO "` + sales.SQLName + `" SELECT v.* FROM "` + sales.SQLName + `" v, range(` + strconv.Itoa(times-1) + `)`
		if _, err := duck.ExecContext(ctx, grow); err != nil {
			b.Fatal(err)
		}
		b.Logf("Vendas grown to %d copies of its rows in %v", times, time.Since(start).Round(time.Second))
	}
	svc := &Service{DB: db, Identity: FixedUser(u), Log: slog.New(slog.NewTextHandler(io.Discard, nil)), ResultCacheBytes: -1,
		QueryTimeout: time.Hour, NoRollups: true, Columnar: col}
	queries, err := bench.Queries(app, sqldialect.DuckDB{})
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range queries {
		q.Args["appId"] = app.ID
		raw, _ := json.Marshal(q.Args)
		var in lumoapi.QueryInput
		if err := in.UnmarshalJSON(raw); err != nil {
			b.Fatal(err)
		}
		b.Run(q.Name+"/lumo", func(b *testing.B) {
			defer cpuPerOp(b)()
			for b.Loop() {
				if _, _, err := svc.query(ctx, &in); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(q.Name+"/duckdb", func(b *testing.B) {
			defer cpuPerOp(b)()
			for b.Loop() {
				rows, err := duck.QueryContext(ctx, q.SQL, q.SQLArgs...)
				if err != nil {
					b.Fatal(err)
				}
				for rows.Next() {
				}
				if err := rows.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// cpuPerOp reports, when the returned func runs, the process's CPU time per operation (cpu-ms/op):
// on a machine others share, the wall time swings with their load and the CPU time much less.
func cpuPerOp(b *testing.B) func() {
	start := processCPU()
	return func() {
		b.ReportMetric((processCPU()-start)*1000/float64(b.N), "cpu-ms/op")
	}
}
