//go:build cgo

package columnar

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// The import writes its data tables into a DuckDB file of its own as it reads them (ImportSink),
// instead of a copy reading them back out of the database after the import: the rows are read
// once, and every copy attaches the file instead of copying them (loads.go). The file is written
// under a temporary name in LoadsDir, its number columns as DOUBLE (their decimals are known only
// once the file is read), then retyped as sqldialect.NumberType makes them, and its text
// columns' value tables grouped beside it; each rollup is then grouped there from the tables it
// reads (Rollup), as the import grouped it in the database. Before the
// catalogue commits, Commit stamps the file with the database and the load, closes it and gives
// it the load's name: no catalogue names a load whose file is still being written. What the sink
// leaves out or fails (a small app) the next Sync copies from the database, as before.

// stagingPrefix names the files imports are writing; an import removes those no process holds.
const stagingPrefix = "import-"

// ImportSink is the sink lumo import gives store.ImportOptions: it takes every data table (with
// its value tables) and rollup, creating the import's file at the first one. nil in a build
// without cgo (see nocgo.go).
func (s *Store) ImportSink() store.DataSink { return &importSink{s: s} }

type importSink struct {
	s         *Store
	mu        sync.Mutex
	db        *sql.DB // the import's file, open from the first table until Commit
	staging   string  // its temporary name
	final     string  // its load's name, once Commit gave it
	tables    []*sinkTable
	rollups   int // built in the file
	failed    []string
	waited    bool // Commit collected the writers' results
	functions bool // lumo's functions are registered in the file (direct.go)
	direct    int  // tables DuckDB loaded from their Parquet files (direct.go)
}

// Rollup waits for the tables the rollup reads and builds it in the file, in a transaction of
// its own, counting its rows; a failure is left to the copy's sync, and Commit reports it.
//
// A rollup groups its whole fact, and DuckDB's hash aggregate sizes its tables by the rows it
// expects: a daily rollup of 100M rows ran out of memory at half the limit (122 MiB, 2 threads).
// So the build waits for every writer of the file (no appender then holds rows outside DuckDB's
// limit) and runs with rollupShare of the limit; where that is still too little, it runs again
// on one thread, which needs about half the memory.
func (k *importSink) Rollup(ctx context.Context, name string, reads []string, selectSQL string, maxRows int64) (int64, error) {
	db, err := k.Reader(ctx, reads...)
	switch {
	case errors.Is(err, errNotTaken):
		return 0, nil // so is the rollup
	case err != nil:
		return 0, nil // Commit reports the table
	}
	k.waitWriters()
	table := sqldialect.DuckDB{}.QuoteIdent(name)
	var rows int64
	err = k.withRollupMemory(ctx, db, func(conn *sql.Conn) error {
		create := func() error {
			_, err := conn.ExecContext(ctx, "CREATE TABLE "+table+" AS "+selectSQL)
			return err
		}
		err := create()
		if err != nil && query.OutOfMemory(err) && ctx.Err() == nil && k.s.opts.Threads > 1 {
			k.s.log.Info("columnar copy: a rollup ran out of DuckDB's memory; it is built again on one thread", "rollup", name, "memory_limit", k.s.opts.MemoryLimit)
			if _, err := conn.ExecContext(ctx, "SET GLOBAL threads = 1"); err != nil {
				return err
			}
			defer conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf("SET GLOBAL threads = %d", k.s.opts.Threads))
			err = create()
		}
		if err != nil {
			return err
		}
		if err := conn.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+table).Scan(&rows); err != nil {
			return err
		}
		if maxRows > 0 && rows > maxRows {
			_, err := conn.ExecContext(ctx, "DROP TABLE "+table)
			return err
		}
		return narrowSums(ctx, conn, name)
	})
	k.mu.Lock()
	defer k.mu.Unlock()
	if err != nil {
		k.failed = append(k.failed, fmt.Sprintf("%s: %v", name, err))
		return 0, err
	}
	if maxRows <= 0 || rows <= maxRows {
		k.rollups++
	}
	return rows, nil
}

// narrowSums gives each DECIMAL(38, scale) column of table (a rollup's sums of exact decimals,
// as DuckDB's SUM types them) the type a copy gives them (sumType): DECIMAL(18, scale) where
// every value fits. DuckDB 1.5 reads a checkpointed 38-digit column bit-packed as HUGEINT some ten
// times slower: summing a rollup's 18,000 sums took 5.4 ms against 0.35-0.5 ms in 18 digits,
// most of a small query's time. A sum of them is DECIMAL(38, scale) either way.
func narrowSums(ctx context.Context, conn *sql.Conn, table string) error {
	type sum struct {
		name  string
		scale int
	}
	rows, err := conn.QueryContext(ctx, "SELECT column_name, numeric_scale FROM duckdb_columns() "+
		"WHERE database_name = current_database() AND schema_name = 'main' AND table_name = ? AND data_type LIKE 'DECIMAL(38,%'", table)
	if err != nil {
		return err
	}
	var sums []sum
	for rows.Next() {
		var s sum
		if err := rows.Scan(&s.name, &s.scale); err != nil {
			rows.Close()
			return err
		}
		sums = append(sums, s)
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if len(sums) == 0 {
		return nil
	}
	d := sqldialect.DuckDB{}
	maxes, largest := make([]string, len(sums)), make([]any, len(sums))
	for i, s := range sums {
		// As DOUBLE: a sum within rounding of the bound stays in 38 digits.
		maxes[i], largest[i] = "CAST(MAX(ABS("+d.QuoteIdent(s.name)+")) AS DOUBLE)", new(sql.NullFloat64)
	}
	if err := conn.QueryRowContext(ctx, "SELECT "+strings.Join(maxes, ", ")+" FROM "+d.QuoteIdent(table)).Scan(largest...); err != nil {
		return err
	}
	for i, s := range sums {
		typ := sumType(s.scale, largest[i].(*sql.NullFloat64).Float64)
		if strings.HasPrefix(typ, "DECIMAL(38,") {
			continue
		}
		if _, err := conn.ExecContext(ctx, "ALTER TABLE "+d.QuoteIdent(table)+" ALTER "+d.QuoteIdent(s.name)+" SET DATA TYPE "+typ); err != nil {
			return err
		}
	}
	return nil
}

// waitWriters waits for the writers of every table the sink took so far; their errors are
// Commit's to report.
func (k *importSink) waitWriters() {
	k.mu.Lock()
	writers := slices.Clone(k.tables)
	k.mu.Unlock()
	for _, t := range writers {
		t.wait()
	}
}

// rollupShare is the share of the memory limit a rollup is built with: DuckDB's aggregate holds
// about 100 MiB outside its limit (a daily rollup of 100M rows peaked at 326 MiB at 224MB), so
// 3/4 of it, as a direct load's, for the import to stay within the limit and 150 MB.
const rollupShare = 0.75

// withRollupMemory runs f on a connection to the import's file db with rollupShare of the
// memory limit, and half of it again after; nothing else may write the file meanwhile.
func (k *importSink) withRollupMemory(ctx context.Context, db *sql.DB, f func(*sql.Conn) error) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	limit := k.s.opts.MemoryLimit
	// What the readers left on Go's heap goes back to the system before DuckDB takes the share:
	// the import lets the heap grow to five times its live data (lumo import's tuneGC).
	debug.FreeOSMemory()
	defer conn.ExecContext(context.WithoutCancel(ctx), setMemoryLimit(halfLimit(limit)))
	if _, err := conn.ExecContext(ctx, setMemoryLimit(partLimit(limit, rollupShare))); err != nil {
		return err
	}
	return f(conn)
}

// errNotTaken is Reader's answer for a table the sink left out.
var errNotTaken = errors.New("not in the import's file")

// Reader waits for the writers of tables and returns the import's file, where they are.
func (k *importSink) Reader(ctx context.Context, tables ...string) (*sql.DB, error) {
	k.mu.Lock()
	db, taken := k.db, k.tables
	k.mu.Unlock()
	for _, name := range tables {
		i := slices.IndexFunc(taken, func(t *sinkTable) bool { return t.name == name })
		if i < 0 {
			return nil, fmt.Errorf("%s: %w", name, errNotTaken)
		}
		if err := taken[i].wait(); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if db == nil {
		return nil, errNotTaken
	}
	return db, nil
}

func (k *importSink) Table(ctx context.Context, name string, cols []store.SinkColumn) (store.TableSink, error) {
	db, err := k.file(ctx)
	if err != nil {
		return nil, err
	}
	t := &sinkTable{sink: k, name: name, cols: cols, batches: make(chan []any, copyDepth), written: make(chan struct{}),
		maxAbs: make([]float64, len(cols))}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	go func() {
		t.err = t.write(ctx, conn)
		close(t.written)
	}()
	k.mu.Lock()
	k.tables = append(k.tables, t)
	k.mu.Unlock()
	return t, nil
}

// file is the import's file, created in LoadsDir at the first table.
func (k *importSink) file(ctx context.Context) (*sql.DB, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.db != nil {
		return k.db, nil
	}
	path, err := k.s.stagingFile()
	if err != nil {
		return nil, err
	}
	o := k.s.opts
	o.MemoryLimit = halfLimit(o.MemoryLimit)
	db, err := openDuck(ctx, path, o)
	if err != nil {
		return nil, err
	}
	k.db, k.staging = db, path
	return db, nil
}

// stagingFile is a new name in LoadsDir for a load's file being written, once the files of
// writers that ended are removed.
func (s *Store) stagingFile() (string, error) {
	if s.opts.Path == "" {
		return "", errors.New("a copy kept in memory takes no import's tables")
	}
	dir := LoadsDir(s.opts.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	removeAbandoned(dir)
	f, err := os.CreateTemp(dir, stagingPrefix+"*.duckdb")
	if err != nil {
		return "", err
	}
	path := f.Name()
	f.Close()
	os.Remove(path) // DuckDB creates it: an empty file is no database
	return path, nil
}

// Commit waits for the tables' writers, stamps the file with the load and the database, and
// gives it the load's name. The import calls it before its catalogue commits.
func (k *importSink) Commit(ctx context.Context, loadID int64, identity string) (int, error) {
	k.mu.Lock()
	tables := k.tables
	k.waited = true
	k.mu.Unlock()
	var ready []*sinkTable
	for _, t := range tables {
		if err := t.wait(); err != nil {
			k.failed = append(k.failed, fmt.Sprintf("%s: %v", t.name, err))
			continue
		}
		ready = append(ready, t)
	}
	var err error
	switch {
	case len(ready) > 0:
		err = k.finish(ctx, loadID, identity)
	case k.db != nil:
		k.remove()
	}
	if err != nil {
		k.remove()
		return 0, fmt.Errorf("writing the import's file for the columnar copy: %w", err)
	}
	if len(k.failed) > 0 {
		return len(ready) + k.rollups, fmt.Errorf("tables left to the copy's sync: %s", strings.Join(k.failed, "; "))
	}
	return len(ready) + k.rollups, nil
}

// finish stamps the file, closes it and renames it to load loadID's file.
func (k *importSink) finish(ctx context.Context, loadID int64, identity string) error {
	db := k.db
	k.db = nil
	final, err := seal(ctx, db, k.staging, LoadsDir(k.s.opts.Path), loadID, identity)
	k.final = final
	return err
}

// seal stamps db, a load's file being written at staging, with the database (identity) and the
// load, closes it and renames it to the load's file in dir, which it returns ("" if it failed
// before the rename).
func seal(ctx context.Context, db *sql.DB, staging, dir string, loadID int64, identity string) (string, error) {
	defer db.Close()
	stamp := "CREATE TABLE " + loadMeta + " AS SELECT CAST(? AS VARCHAR) AS database_id, CAST(? AS BIGINT) AS load_id"
	if _, err := db.ExecContext(ctx, stamp, identity, loadID); err != nil {
		return "", fmt.Errorf("%s: %w", stamp, err)
	}
	if _, err := db.ExecContext(ctx, "CHECKPOINT"); err != nil {
		return "", err
	}
	if err := db.Close(); err != nil {
		return "", err
	}
	final := loadFile(dir, loadID)
	if err := removeDuck(final); err != nil { // a file of another database under this number
		return "", err
	}
	if err := os.Rename(staging, final); err != nil {
		return "", err
	}
	os.RemoveAll(staging + ".tmp") // the spill folder stays under the name it was made with
	return final, nil
}

// Abort stops the writers and removes the import's file: the import failed, or its catalogue
// did not commit after Commit.
func (k *importSink) Abort() {
	k.mu.Lock()
	tables, waited := k.tables, k.waited
	k.mu.Unlock()
	if !waited { // Commit collected the writers' results already
		for _, t := range tables {
			t.Abort()
			t.wait()
		}
	}
	k.remove()
}

// remove closes and deletes the import's file, under either name.
func (k *importSink) remove() {
	if k.db != nil {
		k.db.Close()
		k.db = nil
	}
	for _, path := range []string{k.staging, k.final} {
		if path != "" {
			removeDuck(path)
		}
	}
	k.staging, k.final = "", ""
}

// removeAbandoned deletes the files in dir that imports were writing when their processes
// ended: DuckDB holds a file's lock while a process writes it, so a file that opens is no
// longer written.
func removeAbandoned(dir string) {
	files, _ := filepath.Glob(filepath.Join(dir, stagingPrefix+"*.duckdb"))
	for _, f := range files {
		db, err := sql.Open("duckdb", f+"?access_mode=read_only")
		if err == nil {
			err = db.Ping()
			db.Close()
		}
		if HeldByAnother(err) {
			continue
		}
		removeDuck(f)
	}
}

// sinkTable is one table the import writes: its rows go in batches to a writer goroutine, which
// appends them to the table in the import's file.
type sinkTable struct {
	sink    *importSink
	name    string
	cols    []store.SinkColumn
	batch   []any
	batches chan []any
	written chan struct{} // closed when the writer is done, with err its result
	err     error
	maxAbs  []float64 // per column, the largest number's magnitude
	scales  []int     // set by Done, read by the writer after batches closes
	closed  bool
	aborted bool
}

// wait waits for the table's writer and returns its result.
func (t *sinkTable) wait() error {
	<-t.written
	return t.err
}

func (t *sinkTable) Add(row []any) {
	if t.closed {
		return
	}
	if t.batch == nil {
		t.batch = make([]any, 0, copyBatch*len(t.cols))
	}
	n := len(t.batch)
	t.batch = append(t.batch, row...)
	for i, v := range row {
		if f, ok := v.(float64); ok {
			t.maxAbs[i] = max(t.maxAbs[i], math.Abs(f))
			if f == 0 {
				t.batch[n+i] = 0.0 // -0 is 0, as the database keeps it
			}
		}
	}
	if len(t.batch) == cap(t.batch) {
		t.batches <- t.batch
		t.batch = nil
	}
}

func (t *sinkTable) Done(scales []int) {
	if t.closed {
		return
	}
	if len(t.batch) > 0 {
		t.batches <- t.batch
	}
	t.scales = scales
	t.closed = true
	close(t.batches)
}

func (t *sinkTable) Abort() {
	if t.closed {
		return
	}
	t.aborted, t.closed = true, true
	close(t.batches)
}

// write creates the table, appends the batches and retypes its number columns, in one
// transaction on conn, which it closes.
func (t *sinkTable) write(ctx context.Context, conn *sql.Conn) error {
	defer conn.Close()
	defer func() {
		for range t.batches { // unblocks the import if the writer fails first
		}
	}()
	d := sqldialect.DuckDB{}
	table := d.QuoteIdent(t.name)
	defs, cells := make([]string, len(t.cols)), make([]cell, len(t.cols))
	for i, c := range t.cols {
		typ := d.ColumnType(c.Type)
		if c.Type == semantic.TypeNumber {
			typ = "DOUBLE"
		}
		defs[i], cells[i] = d.QuoteIdent(c.Name)+" "+typ, newCell(duckColumn{name: c.Name, typ: typ})
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	create := "CREATE TABLE " + table + " (" + strings.Join(defs, ", ") + ")"
	if _, err := tx.ExecContext(ctx, create); err != nil {
		return fmt.Errorf("%s: %w", create, err)
	}
	if err := appendAll(conn, t.name, cells, t.batches, nil); err != nil {
		return fmt.Errorf("appending: %w", err)
	}
	if t.aborted {
		return errors.New("the import stopped")
	}
	if err := t.retype(ctx, tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	t.values(ctx, conn)
	return nil
}

// values groups the value tables of the table's text columns (see values.go), each in a
// transaction of its own on conn. One that fails is left to the copy's sync, which builds it.
func (t *sinkTable) values(ctx context.Context, conn *sql.Conn) {
	d := sqldialect.DuckDB{}
	for i, c := range t.cols {
		if c.Type != semantic.TypeString || c.Fold || i+1 == len(t.cols) || !t.cols[i+1].Fold {
			continue
		}
		query, err := valuesQuery(ctx, conn, d.QuoteIdent(t.name), d.QuoteIdent(c.Name), d.QuoteIdent(t.cols[i+1].Name))
		if err == nil && query != "" {
			_, err = conn.ExecContext(ctx, "CREATE TABLE "+d.QuoteIdent(valuesName(c.Name))+" AS "+query)
		}
		if err != nil {
			t.sink.s.log.Debug("columnar copy: an import's value table is left to the sync", "column", c.Name, "err", err)
		}
	}
}

// retype gives each number column the type a copy gives it (DECIMAL(18, scale) for exact
// decimals), now that its decimals and largest value are known.
func (t *sinkTable) retype(ctx context.Context, tx *sql.Tx) error {
	d := sqldialect.DuckDB{}
	data := 0 // index into scales, which counts data columns only
	for i, c := range t.cols {
		if c.Fold {
			continue
		}
		scale := 0
		if data < len(t.scales) {
			scale = t.scales[data]
		}
		data++
		if c.Type != semantic.TypeNumber {
			continue
		}
		typ := sqldialect.NumberType(d, scale, t.maxAbs[i])
		if typ == "DOUBLE" || typ == d.ColumnType(semantic.TypeNumber) {
			continue
		}
		st := "ALTER TABLE " + d.QuoteIdent(t.name) + " ALTER COLUMN " + d.QuoteIdent(c.Name) + " SET DATA TYPE " + typ
		if _, err := tx.ExecContext(ctx, st); err != nil {
			return fmt.Errorf("%s: %w", st, err)
		}
	}
	return nil
}
