package bench

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// runColumnar times the queries on the columnar copy: it copies db into a DuckDB file for the
// server (timed) and into a second one for DuckDB's own run (the server holds the first), starts
// lumo serve on the first, and times each query over MCP against its hand-written SQL rendered
// for DuckDB, with the same defaults (memory limit, threads) on both sides.
func runColumnar(ctx context.Context, c Config, engine string, db *store.DB, dsn string, app *semantic.App) (*ColumnarReport, error) {
	dir, err := os.MkdirTemp("", "lumo-bench-columnar")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	served, own := filepath.Join(dir, "served.duckdb"), filepath.Join(dir, "own.duckdb")
	rep := &ColumnarReport{}
	c.logf("%s: copying into the columnar store", engine)
	start := time.Now()
	col, err := columnar.Open(ctx, columnar.Options{Path: served})
	if err != nil {
		return nil, err
	}
	done, err := col.Sync(ctx, db)
	col.Close()
	if err != nil {
		return nil, err
	}
	rep.CopyRows, rep.CopySeconds = done.Rows, time.Since(start).Seconds()
	rep.CopyRowsPerSecond = float64(done.Rows) / rep.CopySeconds
	c.logf("%s: %d rows copied in %.1f s (%.0f rows/s)", engine, done.Rows, rep.CopySeconds, rep.CopyRowsPerSecond)
	mine, err := columnar.Open(ctx, columnar.Options{Path: own})
	if err != nil {
		return nil, err
	}
	defer mine.Close()
	if _, err := mine.Sync(ctx, db); err != nil {
		return nil, err
	}
	duck, ok := mine.DB().(*sql.DB)
	if !ok {
		return nil, fmt.Errorf("the columnar store is a %T", mine.DB())
	}
	queries, err := Queries(app, sqldialect.DuckDB{})
	if err != nil {
		return nil, err
	}
	srv, err := startServerOn(ctx, c.Lumo, dsn, Login, 0, served, c.ServerEnv, c.ServerLog)
	if err != nil {
		return nil, err
	}
	defer srv.stop()
	cs, err := srv.connect(ctx)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	for _, q := range queries {
		c.logf("%s, columnar: %s", engine, q.Name)
		qr, err := timeQuery(ctx, cs, duck, q, c.Iterations)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", q.Name, err)
		}
		rep.Queries = append(rep.Queries, qr)
	}
	if rep.Load, _, err = srv.loads(ctx, c, "query", SmallCall(app.ID)); err != nil {
		return nil, err
	}
	rep.ServerMemory = memoryOf(srv.cmd.Process.Pid)
	return rep, nil
}
