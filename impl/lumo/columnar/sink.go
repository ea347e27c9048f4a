//go:build cgo

package columnar

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// The import writes its data tables into the copy as it reads them (ImportSink), instead of the
// copy reading them back out of the database after the import: the rows are read once. A table
// is appended under a staging name while the import runs, its number columns as DOUBLE (their
// decimals are known only once the file is read), then retyped as sqldialect.NumberType makes
// them; once the catalogue has committed, Commit swaps every staged table for its copy and
// stamps it with the import, in one DuckDB transaction. What the sink leaves out or fails (a
// small app, a rollup) the next Sync copies, as before.

// stagedSuffix marks a table the import is writing; openFile drops any a crash left.
const stagedSuffix = "__lumo_import"

// ImportSink is the sink lumo import gives store.ImportOptions: it takes the data tables of the
// apps whose largest table holds at least Options.MinRows rows (as estimated from the files),
// opening the copy at the first one. nil in a build without cgo (see nocgo.go).
func (s *Store) ImportSink() store.DataSink { return &importSink{s: s} }

type importSink struct {
	s      *Store
	mu     sync.Mutex
	tables []*sinkTable
	failed []string
}

func (k *importSink) Table(ctx context.Context, name string, cols []store.SinkColumn, largest int64) (store.TableSink, error) {
	if largest < k.s.opts.MinRows {
		return nil, nil
	}
	if err := k.s.open(ctx); err != nil {
		return nil, err
	}
	t := &sinkTable{sink: k, name: name, cols: cols, batches: make(chan []any, copyDepth), done: make(chan error, 1),
		maxAbs: make([]float64, len(cols))}
	conn, err := k.s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	go func() { t.done <- t.write(ctx, conn) }()
	k.mu.Lock()
	k.tables = append(k.tables, t)
	k.mu.Unlock()
	return t, nil
}

// Commit waits for the tables' writers and swaps in, stamped loadID, those that succeeded; a
// copy of another database is discarded first.
func (k *importSink) Commit(ctx context.Context, loadID int64, identity string) (int, error) {
	k.mu.Lock()
	tables := k.tables
	k.mu.Unlock()
	var ready []*sinkTable
	for _, t := range tables {
		if err := <-t.done; err != nil {
			k.failed = append(k.failed, fmt.Sprintf("%s: %v", t.name, err))
			continue
		}
		ready = append(ready, t)
	}
	if len(tables) == 0 {
		return 0, nil
	}
	err := k.swap(ctx, ready, loadID, identity)
	if err != nil {
		k.drop(tables)
		return 0, fmt.Errorf("making the imported tables readable in the columnar copy: %w", err)
	}
	if len(k.failed) > 0 {
		return len(ready), fmt.Errorf("tables left to the copy's sync: %s", strings.Join(k.failed, "; "))
	}
	return len(ready), nil
}

// swap binds the copy to identity's database and replaces each table by its staged one, stamped.
func (k *importSink) swap(ctx context.Context, ready []*sinkTable, loadID int64, identity string) error {
	s := k.s
	s.syncing.Lock() // not while a Sync of this process copies
	defer s.syncing.Unlock()
	s.mu.RLock()
	same := s.origin == identity
	s.mu.RUnlock()
	if !same {
		if err := s.discard(ctx, identity); err != nil {
			return err
		}
	}
	d := sqldialect.DuckDB{}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, t := range ready {
		for _, st := range []string{
			"DROP TABLE IF EXISTS " + d.QuoteIdent(t.name),
			"ALTER TABLE " + d.QuoteIdent(t.name+stagedSuffix) + " RENAME TO " + d.QuoteIdent(t.name),
		} {
			if _, err := tx.ExecContext(ctx, st); err != nil {
				return fmt.Errorf("%s: %w", st, err)
			}
		}
		if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO "+loadsTable+" VALUES (?, ?)", t.name, loadID); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.mu.Lock()
	for _, t := range ready {
		s.loads[t.name] = loadID
	}
	s.bound = true
	s.mu.Unlock()
	return nil
}

// Abort stops the writers and drops the staged tables.
func (k *importSink) Abort() {
	k.mu.Lock()
	tables := k.tables
	k.mu.Unlock()
	for _, t := range tables {
		t.Abort()
		<-t.done
	}
	k.drop(tables)
}

// drop drops tables' staged tables, which only this import wrote.
func (k *importSink) drop(tables []*sinkTable) {
	for _, t := range tables {
		k.s.db.ExecContext(context.Background(), "DROP TABLE IF EXISTS "+sqldialect.DuckDB{}.QuoteIdent(t.name+stagedSuffix))
	}
}

// sinkTable is one table the import writes: its rows go in batches to a writer goroutine, which
// appends them to the staged table.
type sinkTable struct {
	sink    *importSink
	name    string
	cols    []store.SinkColumn
	batch   []any
	batches chan []any
	done    chan error // the writer's result, once
	maxAbs  []float64  // per column, the largest number's magnitude
	scales  []int      // set by Done, read by the writer after batches closes
	closed  bool
	aborted bool
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

// write creates the staged table, appends the batches and retypes its number columns, in one
// transaction on conn, which it closes.
func (t *sinkTable) write(ctx context.Context, conn *sql.Conn) error {
	defer conn.Close()
	defer func() {
		for range t.batches { // unblocks the import if the writer fails first
		}
	}()
	d := sqldialect.DuckDB{}
	staged := d.QuoteIdent(t.name + stagedSuffix)
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
	create := "CREATE OR REPLACE TABLE " + staged + " (" + strings.Join(defs, ", ") + ")"
	if _, err := tx.ExecContext(ctx, create); err != nil {
		return fmt.Errorf("%s: %w", create, err)
	}
	err = conn.Raw(func(dc any) error { // the appender joins conn's transaction
		a, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "", t.name+stagedSuffix)
		if err != nil {
			return err
		}
		for batch := range t.batches {
			if err := appendBatch(a, cells, batch); err != nil {
				a.Close()
				return err
			}
		}
		return a.Close()
	})
	if err != nil {
		return fmt.Errorf("appending: %w", err)
	}
	if t.aborted {
		return errors.New("the import stopped")
	}
	if err := t.retype(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
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
		st := "ALTER TABLE " + d.QuoteIdent(t.name+stagedSuffix) + " ALTER COLUMN " + d.QuoteIdent(c.Name) + " SET DATA TYPE " + typ
		if _, err := tx.ExecContext(ctx, st); err != nil {
			return fmt.Errorf("%s: %w", st, err)
		}
	}
	return nil
}
