package bench

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// runColumnar times the queries on the columnar copy: lumo serve makes its copy of db at served
// at start (timed, until it logs the sync: on SQLite it reads the import's DuckDB file, on
// PostgreSQL it copies the rows), DuckDB's own run gets a slot of its own (referenceCopy), and each query is timed over MCP against its hand-written SQL rendered for DuckDB, with
// the same defaults (memory limit, threads) on both sides. The server's peak resident memory is
// read after each phase (the copy, the queries, the small-call load), reset between them.
func runColumnar(ctx context.Context, c Config, engine string, db *store.DB, dsn string, app *semantic.App, served string) (*ColumnarReport, error) {
	rep := &ColumnarReport{MemoryLimitMiB: memoryLimitMiB(columnar.DefaultMemoryLimit)}
	c.logf("%s: lumo serve makes its columnar copy", engine)
	srv, err := startCopying(ctx, c.Lumo, c.ServerEnv, c.ServerLog, dsn, Login, served, &rep.CopySeconds, &rep.CopyRows)
	if err != nil {
		return nil, err
	}
	defer srv.stop()
	rep.CopyRowsPerSecond = float64(rep.CopyRows) / rep.CopySeconds
	rep.CopyMemory = memoryOf(srv.cmd.Process.Pid)
	c.logf("%s: the server's copy ready in %.1f s, %d rows copied from the database, its peak RSS %.1f MiB", engine, rep.CopySeconds, rep.CopyRows,
		rep.CopyMemory.PeakMiB)
	mine, err := referenceCopy(ctx, db, served)
	if err != nil {
		return nil, err
	}
	defer mine.Close()
	duck := mine.DB().(*sql.DB)
	queries, err := Queries(app, sqldialect.DuckDB{})
	if err != nil {
		return nil, err
	}
	cs, err := srv.connect(ctx)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	resetPeak(srv.cmd.Process.Pid)
	for _, q := range queries {
		c.logf("%s, columnar: %s", engine, q.Name)
		qr, err := timeQuery(ctx, cs, duck, q, c.Iterations)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", q.Name, err)
		}
		rep.Queries = append(rep.Queries, qr)
	}
	rep.QueriesMemory = memoryOf(srv.cmd.Process.Pid)
	resetPeak(srv.cmd.Process.Pid)
	if rep.Load, _, err = srv.loads(ctx, c, "query", SmallCall(app.ID)); err != nil {
		return nil, err
	}
	rep.ServerMemory = memoryOf(srv.cmd.Process.Pid)
	return rep, nil
}

// referenceCopy is DuckDB's own side: a copy of db's app data in the first free slot of served
// (the servers hold the others), synced: it reads the import's file on SQLite, and copies the
// rows from PostgreSQL.
func referenceCopy(ctx context.Context, db *store.DB, served string) (*columnar.Store, error) {
	c := columnar.Deferred(columnar.Options{Path: served, Slots: 8})
	if _, err := c.Sync(ctx, db); err != nil {
		c.Close()
		return nil, err
	}
	if _, ok := c.DB().(*sql.DB); !ok {
		c.Close()
		return nil, fmt.Errorf("the columnar store is a %T", c.DB())
	}
	return c, nil
}

// syncWatch passes a server's log on to to and sends the first line that reports a sync of the
// columnar copy to synced.
type syncWatch struct {
	to     io.Writer
	synced chan string
	line   []byte
	sent   bool
}

func (w *syncWatch) Write(p []byte) (int, error) {
	if w.to != nil {
		w.to.Write(p)
	}
	for _, b := range p {
		if b != '\n' {
			w.line = append(w.line, b)
			continue
		}
		if !w.sent && strings.Contains(string(w.line), "columnar copy: synced") {
			w.synced <- string(w.line)
			w.sent = true
		}
		w.line = w.line[:0]
	}
	return len(p), nil
}

// startCopying starts lumo serve on dsn as login with a new columnar copy at path and waits until
// it logs the copy's sync, setting seconds (from the start) and rows (copied).
func startCopying(ctx context.Context, lumo string, env []string, logTo io.Writer, dsn, login, path string, seconds *float64, rows *int64) (*server, error) {
	log := &syncWatch{to: logTo, synced: make(chan string, 1)}
	start := time.Now()
	srv, err := startServerOn(ctx, lumo, dsn, login, 0, path, env, log)
	if err != nil {
		return nil, err
	}
	select {
	case line := <-log.synced:
		*seconds, *rows = time.Since(start).Seconds(), syncedRows(line)
		return srv, nil
	case <-time.After(2 * time.Hour):
		err = errors.New("lumo serve did not log a sync of its columnar copy in 2 hours")
	case <-ctx.Done():
		err = ctx.Err()
	}
	srv.stop()
	return nil, err
}

// syncedRows is the rows of a sync's log line (JSON; 0 when absent).
func syncedRows(line string) int64 {
	var l struct {
		Rows int64 `json:"rows"`
	}
	json.Unmarshal([]byte(line), &l)
	return l.Rows
}

// memoryLimitMiB is a DuckDB memory limit such as "256MB" in MiB (DuckDB's MB are 1000*1000 bytes).
func memoryLimitMiB(limit string) float64 {
	n, _ := strconv.ParseFloat(strings.TrimSuffix(limit, "MB"), 64)
	return n * 1e6 / (1 << 20)
}
