package bench

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	lumows "github.com/lumo-caderninho/mcp/impl/lumo/workspace"
	"github.com/lumo-caderninho/mcp/impl/platform/mcphttp"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// Config is one bench run.
type Config struct {
	Rows         int
	Engines      []string // "sqlite", "postgres"
	PostgresDSN  string   // admin DSN: the run creates and drops a database of its own there
	Iterations   int      // timed repetitions of each query
	SmallCalls   int      // timed repetitions of each small call
	Clients      int      // concurrent clients of the throughput test
	LoadDuration time.Duration
	CatalogApps  int
	NoRollups    bool // import the sales app without its rollup
	// Columnar times the queries again on the columnar copy, against DuckDB's own run of the
	// hand-written SQL on the same rows (needs cgo).
	Columnar  bool
	Lumo      string // the lumo binary
	ServerEnv []string
	Peer      bool
	PeerDir   string
	Log       io.Writer
	ServerLog io.Writer

	serverColumnar string // the servers' --columnar: "off" unless the app rows are in DuckDB alone
}

// Run measures every engine of c and reports them side by side.
func Run(ctx context.Context, c Config) (*Report, error) {
	rep := &Report{Rows: c.Rows, Iterations: c.Iterations, Clients: c.Clients, CatalogApps: c.CatalogApps,
		Started: time.Now().UTC(), CPUs: cpus()}
	for _, engine := range c.Engines {
		e, err := runEngine(ctx, c, engine)
		if err != nil {
			return rep, fmt.Errorf("%s: %w", engine, err)
		}
		rep.Engines = append(rep.Engines, e)
	}
	if c.SmallCalls > 0 && len(c.Engines) > 0 {
		c.logf("go-sdk floor: a constant tool over the same transport")
		f, err := runFloor(ctx, c)
		if err != nil {
			return rep, err
		}
		rep.Floor = f
	}
	rep.Elapsed = time.Since(rep.Started).Round(time.Millisecond).String()
	return rep, nil
}

func (c Config) logf(format string, args ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, "lumo-bench: "+format+"\n", args...)
	}
}

func runEngine(ctx context.Context, c Config, engine string) (*EngineReport, error) {
	dsn, drop, err := freshDB(ctx, engine, c.PostgresDSN)
	if err != nil {
		return nil, err
	}
	defer drop()
	e := &EngineReport{Engine: engine}
	db, err := store.Open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	defer db.Close()

	// On SQLite with the columnar copy, the import writes the app rows into its own DuckDB file
	// alone, as lumo import does on the embedded default: every server reads that file (each in
	// a slot of served), and the hand-written SQL runs on DuckDB over it.
	var served string
	var opts store.ImportOptions
	if c.Columnar {
		dir, err := os.MkdirTemp("", "lumo-bench-columnar")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		served = filepath.Join(dir, "served.duckdb")
		if engine == "sqlite" && columnar.Available {
			opts.Sink, opts.SinkOnly = columnar.Deferred(columnar.Options{Path: served}).ImportSink(), true
			c.serverColumnar = served
		}
	}
	// The import reads files on disk, as lumo import does (DuckDB's own readers load only those),
	// written before the clock starts.
	ws := Workspace(c.Rows)
	if c.NoRollups {
		ws = WorkspaceNoRollups(c.Rows)
	}
	files, err := os.MkdirTemp("", "lumo-bench-files")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(files)
	c.logf("%s: writing %d sales rows to %s", engine, c.Rows, files)
	if err := ws.WriteDir(files); err != nil {
		return nil, fmt.Errorf("writing the workspace: %w", err)
	}
	c.logf("%s: importing %d sales rows", engine, c.Rows)
	start := time.Now()
	sum, err := db.ImportWorkspaceWith(ctx, lumows.DirFS(files), "workspace.yaml", opts)
	if err != nil {
		return nil, fmt.Errorf("importing: %w", err)
	}
	e.Import = ImportReport{Rows: sum.Rows(), Seconds: time.Since(start).Seconds()}
	e.Import.RowsPerSecond = float64(e.Import.Rows) / e.Import.Seconds
	c.logf("%s: %d rows in %.1f s (%.0f rows/s)", engine, e.Import.Rows, e.Import.Seconds, e.Import.RowsPerSecond)
	if c.CatalogApps > 0 {
		start = time.Now()
		catalog := store.ImportOptions{}
		if opts.SinkOnly { // each import writes a file of its own
			catalog = store.ImportOptions{Sink: columnar.Deferred(columnar.Options{Path: served}).ImportSink(), SinkOnly: true}
		}
		if _, err := db.ImportWorkspaceWith(ctx, Catalog(c.CatalogApps), "workspace.yaml", catalog); err != nil {
			return nil, fmt.Errorf("importing the catalogue: %w", err)
		}
		e.Import.CatalogSeconds = time.Since(start).Seconds()
	}
	app, err := salesApp(ctx, db)
	if err != nil {
		return nil, err
	}
	raw, dialect := db.SQL(), db.Dialect() // where the hand-written SQL runs: the app rows
	if opts.SinkOnly {
		e.Engine += " (app rows in DuckDB)"
		ref, err := referenceCopy(ctx, db, served)
		if err != nil {
			return nil, err
		}
		defer ref.Close()
		raw, dialect = ref.DB().(*sql.DB), sqldialect.DuckDB{}
	}
	queries, err := Queries(app, dialect)
	if err != nil {
		return nil, err
	}

	srv, err := startServer(ctx, c, dsn, Login, 0)
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
		c.logf("%s: %s", engine, q.Name)
		qr, err := timeQuery(ctx, cs, raw, q, c.Iterations)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", q.Name, err)
		}
		e.Queries = append(e.Queries, qr)
	}

	if c.Columnar {
		if e.Columnar, err = runColumnar(ctx, c, engine, db, dsn, app, served); err != nil {
			return nil, fmt.Errorf("columnar: %w", err)
		}
	}

	c.logf("%s: small calls", engine)
	small := SmallCall(app.ID)
	smallSQL, err := SmallSQL(app, dialect)
	if err != nil {
		return nil, err
	}
	rc, err := mcphttp.Connect(srv.url+"/mcp", "", "lumo-bench")
	if err != nil {
		return nil, err
	}
	var tool, rawTool, own, sel, ping []time.Duration
	for i := range c.SmallCalls + 5 {
		t0 := time.Now()
		if _, err := call(ctx, cs, "query", small); err != nil {
			return nil, err
		}
		t1 := time.Now()
		if _, err := rawRows(ctx, raw, smallSQL, nil); err != nil {
			return nil, err
		}
		t2 := time.Now()
		var one int
		if err := raw.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
			return nil, err
		}
		t3 := time.Now()
		if err := cs.Ping(ctx, nil); err != nil {
			return nil, err
		}
		t4 := time.Now()
		if err := rawCall(rc, "query", small); err != nil {
			return nil, err
		}
		t5 := time.Now()
		if i >= 5 { // warm-up
			tool, own, sel, ping = append(tool, t1.Sub(t0)), append(own, t2.Sub(t1)), append(sel, t3.Sub(t2)), append(ping, t4.Sub(t3))
			rawTool = append(rawTool, t5.Sub(t4))
		}
	}
	e.Small = SmallReport{Tool: timing(tool), RawTool: timing(rawTool), OwnSQL: timing(own), SelectOne: timing(sel), Ping: timing(ping)}
	e.Small.AddedMs = e.Small.Tool.P50 - e.Small.SelectOne.P50
	e.Small.AddedOverOwnMs = e.Small.Tool.P50 - e.Small.OwnSQL.P50
	e.Small.RawAddedOverOwnMs = e.Small.RawTool.P50 - e.Small.OwnSQL.P50

	c.logf("%s: search_values search mode", engine)
	if e.SearchValues, err = timeSearch(ctx, cs, app.ID, "joão", c.Iterations); err != nil {
		return nil, err
	}
	if e.SearchNoMatch, err = timeSearch(ctx, cs, app.ID, NoMatchWord, c.Iterations); err != nil {
		return nil, err
	}

	c.logf("%s: %d clients for %v, go-sdk client then raw JSON-RPC client", engine, c.Clients, c.LoadDuration)
	if e.Load, e.RawLoad, err = srv.loads(ctx, c, "query", small); err != nil {
		return nil, err
	}
	e.ServerMemory = memoryOf(srv.cmd.Process.Pid)
	cs.Close()
	srv.stop()

	c.logf("%s: repeated queries with the result cache on", engine)
	if e.CacheHitServerCPUMs, err = timeCacheHits(ctx, c, dsn, queries, e.Queries); err != nil {
		return nil, err
	}

	if c.CatalogApps > 0 {
		c.logf("%s: search_catalog over %d apps", engine, c.CatalogApps)
		if e.SearchCatalog, e.CatalogServerMemory, err = timeCatalog(ctx, c, dsn); err != nil {
			return nil, err
		}
	}
	if c.Peer && engine == "postgres" {
		c.logf("%s: stdio peer", engine)
		if e.Peer, err = runPeer(ctx, c, dsn, app.ID); err != nil {
			return nil, fmt.Errorf("peer: %w", err)
		}
		e.Peer.Peer.OverheadMs = e.Peer.Peer.Call.P50 - e.Small.SelectOne.P50
		e.Peer.Lumo.OverheadMs = e.Peer.Lumo.Call.P50 - e.Small.OwnSQL.P50
	}
	return e, nil
}

// NoMatchWord is a word no value of the bench's workspace contains.
const NoMatchWord = "xyzzy"

// timeSearch times n search_values calls in search mode for word.
func timeSearch(ctx context.Context, cs *mcp.ClientSession, appID int64, word string, n int) (Timing, error) {
	var d []time.Duration
	for range n {
		t0 := time.Now()
		if _, err := call(ctx, cs, "search_values", map[string]any{"appId": appID, "contains": word}); err != nil {
			return Timing{}, err
		}
		d = append(d, time.Since(t0))
	}
	return timing(d), nil
}

// timeQuery checks that both answers have the same rows, then times them alternately.
func timeQuery(ctx context.Context, cs *mcp.ClientSession, raw *sql.DB, q Query, n int) (QueryReport, error) {
	r := QueryReport{Name: q.Name, SQL: q.SQL}
	var mcpT, sqlT []time.Duration
	for i := range n + 1 {
		t0 := time.Now()
		sc, err := call(ctx, cs, "query", q.Args)
		if err != nil {
			return r, err
		}
		t1 := time.Now()
		got, err := rawRows(ctx, raw, q.SQL, q.SQLArgs)
		if err != nil {
			return r, fmt.Errorf("raw SQL: %w", err)
		}
		t2 := time.Now()
		if i == 0 { // warm-up, and the check that both asked the same question
			rows, _ := sc["rows"].([]any)
			if len(rows) != got || (q.Rows >= 0 && got != q.Rows) {
				return r, fmt.Errorf("query returned %d rows, SQL %d (want %d)", len(rows), got, q.Rows)
			}
			r.RowsReturned = got
			r.TotalRows, _ = sc["totalRows"].(float64)
			continue
		}
		mcpT, sqlT = append(mcpT, t1.Sub(t0)), append(sqlT, t2.Sub(t1))
	}
	r.MCP, r.RawSQL = timing(mcpT), timing(sqlT)
	r.RatioP50 = ratio(r.MCP.P50, r.RawSQL.P50)
	r.RatioP99 = ratio(r.MCP.P99, r.RawSQL.P99)
	return r, nil
}

// cacheHits is how many repetitions of each query timeCacheHits makes: enough that the server's
// CPU, counted in clock ticks, resolves a fraction of a millisecond per call.
const cacheHits = 200

// timeCacheHits times, on a server with the default result cache, each query's repetitions
// after its first call (the answer read from memory, client-observed), and returns the server
// CPU per repetition over all of them, in ms.
func timeCacheHits(ctx context.Context, c Config, dsn string, queries []Query, reports []QueryReport) (float64, error) {
	srv, err := startServer(ctx, c, dsn, Login, 32)
	if err != nil {
		return 0, err
	}
	defer srv.stop()
	cs, err := srv.connect(ctx)
	if err != nil {
		return 0, err
	}
	defer cs.Close()
	var cpu float64
	for i, q := range queries {
		if _, err := call(ctx, cs, "query", q.Args); err != nil { // the miss that fills the cache
			return 0, fmt.Errorf("%s: %w", q.Name, err)
		}
		d := make([]time.Duration, 0, cacheHits)
		cpu0 := cpuSeconds(srv.cmd.Process.Pid)
		for range cacheHits {
			t0 := time.Now()
			if _, err := call(ctx, cs, "query", q.Args); err != nil {
				return 0, fmt.Errorf("%s: %w", q.Name, err)
			}
			d = append(d, time.Since(t0))
		}
		cpu += cpuSeconds(srv.cmd.Process.Pid) - cpu0
		reports[i].CacheHit = timing(d)
	}
	return cpu * 1000 / float64(cacheHits*len(queries)), nil
}

// call runs a tool and returns its structuredContent; a tool error is an error here.
func call(ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any) (map[string]any, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if res.IsError {
		text := ""
		if len(res.Content) > 0 {
			if t, ok := res.Content[0].(*mcp.TextContent); ok {
				text = t.Text
			}
		}
		return nil, fmt.Errorf("%s returned a tool error: %s", name, text)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	return sc, nil
}

// rawRows runs query and reads every row, as a client of database/sql would.
func rawRows(ctx context.Context, db *sql.DB, query string, args []any) (int, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		n++
	}
	return n, rows.Err()
}

// loads measures the server under c.Clients concurrent sessions calling tool with args for
// c.LoadDuration, twice: with the go-sdk client, then with the raw JSON-RPC client (mcphttp), which
// leaves more of the shared cores to the server. Each report has the server's CPU per call.
func (s *server) loads(ctx context.Context, c Config, tool string, args map[string]any) (sdk, raw LoadReport, err error) {
	measure := func(open func(context.Context) (func() error, func(), error)) (LoadReport, error) {
		cpu0 := cpuSeconds(s.cmd.Process.Pid)
		r, err := load(ctx, c.Clients, c.LoadDuration, open)
		if r.Calls > 0 {
			r.ServerCPUPerCall = (cpuSeconds(s.cmd.Process.Pid) - cpu0) * 1000 / float64(r.Calls)
		}
		return r, err
	}
	sdk, err = measure(func(ctx context.Context) (func() error, func(), error) {
		cs, err := s.connect(ctx)
		if err != nil {
			return nil, nil, err
		}
		return func() error { _, err := call(ctx, cs, tool, args); return err }, func() { cs.Close() }, nil
	})
	if err != nil {
		return sdk, raw, err
	}
	raw, err = measure(func(context.Context) (func() error, func(), error) {
		rc, err := mcphttp.Connect(s.url+"/mcp", "", "lumo-bench")
		if err != nil {
			return nil, nil, err
		}
		return func() error { return rawCall(rc, tool, args) }, func() {}, nil
	})
	return sdk, raw, err
}

// rawCall runs one tool call with the raw JSON-RPC client; a tool error is an error.
func rawCall(rc *mcphttp.Client, tool string, args map[string]any) error {
	if out := rc.Call(tool, args); out.Kind != "" {
		return fmt.Errorf("%s: %s", tool, out.Kind)
	}
	return nil
}

// load runs clients concurrent sessions, each calling as fast as it can for d.
func load(ctx context.Context, clients int, d time.Duration,
	open func(context.Context) (call func() error, close func(), err error)) (LoadReport, error) {
	calls := make([]func() error, clients)
	for i := range calls {
		c, closeFn, err := open(ctx)
		if err != nil {
			return LoadReport{}, err
		}
		defer closeFn()
		calls[i] = c
	}
	var n atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for _, c := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				if err := c(); err != nil {
					once.Do(func() { firstErr = err })
					return
				}
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	el := time.Since(start).Seconds()
	return LoadReport{Clients: clients, Calls: n.Load(), Seconds: el, CallsPerSecond: float64(n.Load()) / el}, firstErr
}

func timeCatalog(ctx context.Context, c Config, dsn string) (Timing, Memory, error) {
	srv, err := startServer(ctx, c, dsn, CatalogLogin, 0)
	if err != nil {
		return Timing{}, Memory{}, err
	}
	defer srv.stop()
	cs, err := srv.connect(ctx)
	if err != nil {
		return Timing{}, Memory{}, err
	}
	defer cs.Close()
	var d []time.Duration
	for i := range c.Iterations + 1 {
		t0 := time.Now()
		sc, err := call(ctx, cs, "search_catalog", map[string]any{"terms": []any{"financeiro", "cobrança"}})
		if err != nil {
			return Timing{}, Memory{}, err
		}
		if i == 0 {
			if items, _ := sc["items"].([]any); sc == nil || len(items) == 0 && len(sc) == 0 {
				return Timing{}, Memory{}, errors.New("search_catalog found nothing")
			}
			continue
		}
		d = append(d, time.Since(t0))
	}
	return timing(d), memoryOf(srv.cmd.Process.Pid), nil
}

func salesApp(ctx context.Context, db *store.DB) (*semantic.App, error) {
	u, err := db.UserByLogin(ctx, Login)
	if err != nil {
		return nil, err
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil {
		return nil, err
	}
	for _, a := range apps {
		if a.Name == "Vendas" {
			return a, nil
		}
	}
	return nil, errors.New("the sales app is not visible to " + Login)
}

// freshDB makes an empty database for engine: a SQLite file in a temporary folder, or a new
// PostgreSQL database beside the admin DSN's (dropped afterwards).
func freshDB(ctx context.Context, engine, adminDSN string) (dsn string, drop func(), err error) {
	switch engine {
	case "sqlite":
		dir, err := os.MkdirTemp("", "lumo-bench-")
		if err != nil {
			return "", nil, err
		}
		return filepath.Join(dir, "lumo.db"), func() { os.RemoveAll(dir) }, nil
	case "postgres":
		dsn, drop, err := sqldb.ScratchDatabase(ctx, adminDSN, "lumo_bench_")
		if err != nil {
			return "", nil, fmt.Errorf("--pg: %w", err)
		}
		return dsn, func() {
			if err := drop(); err != nil {
				fmt.Fprintf(os.Stderr, "lumo-bench: %v\n", err)
			}
		}, nil
	}
	return "", nil, fmt.Errorf("unknown engine %q (use sqlite or postgres)", engine)
}
