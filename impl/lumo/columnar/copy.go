//go:build cgo

package columnar

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// A copied table has the row store's table and column names, a folded copy beside every text
// column that has one, and DuckDB's types: VARCHAR, DATE, TIMESTAMP, and numbers as
// sqldialect.NumberType makes them (DECIMAL(18, scale) for the exact decimals, summed into
// DECIMAL(38, scale), so sums of cents stay exact; DOUBLE otherwise). A rollup's sums are
// DECIMAL(18, scale) where they fit, DECIMAL(38, scale) otherwise.

// duckColumn is a column of a copied table: its name, type and, for an exact decimal, its scale.
type duckColumn struct {
	name, typ string
	scale     int
}

// job is one table to copy: its physical name and how to list its columns.
type job struct {
	name string
	cols func() ([]duckColumn, error)
}

// tableJobs are app's data tables (a role-playing copy reads its original's) and rollups.
func tableJobs(c *copier, app *semantic.App) []job {
	var jobs []job
	for _, tb := range app.Tables {
		jobs = append(jobs, job{tb.SQLName, func() ([]duckColumn, error) {
			var cols []duckColumn
			for _, col := range tb.Columns {
				if col.Calculated() {
					continue
				}
				dc, err := c.column(col, col.SQLName)
				if err != nil {
					return nil, err
				}
				cols = append(cols, dc...)
			}
			return cols, nil
		}})
	}
	for _, r := range app.Rollups {
		jobs = append(jobs, job{r.SQLName, func() ([]duckColumn, error) { return c.rollupColumns(r) }})
	}
	return jobs
}

// copier copies tables from a row store transaction into the Store.
type copier struct {
	ctx        context.Context
	s          *Store
	src        *sql.Tx
	srcDialect sqldialect.Dialect
	numbers    map[[2]string]duckColumn // (table, column) SQL names: the type of a number column

	writers []writer // the copies' writers still at work, oldest first
}

// rollupColumns are a rollup's columns: its dimensions (with their folded copies), its time
// bucket, per measure its sum, count, minimum and maximum, and its row count.
func (c *copier) rollupColumns(r *semantic.Rollup) ([]duckColumn, error) {
	var cols []duckColumn
	for i, col := range r.Dimensions {
		dc, err := c.column(col, semantic.RollupDim(i))
		if err != nil {
			return nil, err
		}
		if len(dc) == 2 {
			dc[1].name = semantic.RollupDimFold(i)
		}
		cols = append(cols, dc...)
	}
	if r.Time != nil {
		dc, err := c.column(r.Time, semantic.RollupTime())
		if err != nil {
			return nil, err
		}
		cols = append(cols, dc...)
	}
	var sums []int // of cols: the sums of exact decimals
	for i, col := range r.Measures {
		dc, err := c.column(col, "") // the sums, minimums and maximums take the measure's type
		if err != nil {
			return nil, err
		}
		m, sum := dc[0], dc[0].typ
		if strings.HasPrefix(sum, "DECIMAL(") {
			sums = append(sums, len(cols))
		}
		cols = append(cols, duckColumn{semantic.RollupSum(i), sum, m.scale}, duckColumn{semantic.RollupCount(i), "BIGINT", 0},
			duckColumn{semantic.RollupMin(i), m.typ, m.scale}, duckColumn{semantic.RollupMax(i), m.typ, m.scale})
	}
	if err := c.sumTypes(r.SQLName, cols, sums); err != nil {
		return nil, err
	}
	return append(cols, duckColumn{semantic.RollupRows(), "BIGINT NOT NULL", 0}), nil
}

// sumTypes types each of cols[sums], a rollup's sum of exact decimals, by its largest value in
// the row store's rollup (one scan of it): DECIMAL(18, scale) where every sum fits, as DuckDB
// reads 18 digits many times faster than 38 (see narrowSums), DECIMAL(38, scale) otherwise, as
// DuckDB's SUM types them.
func (c *copier) sumTypes(rollup string, cols []duckColumn, sums []int) error {
	if len(sums) == 0 {
		return nil
	}
	maxes, largest := make([]string, len(sums)), make([]any, len(sums))
	for i, k := range sums {
		maxes[i], largest[i] = "MAX(ABS("+c.srcDialect.QuoteIdent(cols[k].name)+"))", new(sql.NullFloat64)
	}
	q := "SELECT " + strings.Join(maxes, ", ") + " FROM " + c.srcDialect.QuoteIdent(rollup)
	if err := c.src.QueryRowContext(c.ctx, q).Scan(largest...); err != nil {
		return fmt.Errorf("%s: %w", q, err)
	}
	for i, k := range sums {
		cols[k].typ = sumType(cols[k].scale, largest[i].(*sql.NullFloat64).Float64)
	}
	return nil
}

// sumType is the type of a sum of exact decimals of scale whose largest magnitude is maxAbs:
// DECIMAL(18, scale) below 10^(18-scale), as narrowSums retypes the import's own rollups.
func sumType(scale int, maxAbs float64) string {
	if maxAbs < math.Pow10(18-scale) {
		return "DECIMAL(18," + strconv.Itoa(scale) + ")"
	}
	return "DECIMAL(38," + strconv.Itoa(scale) + ")"
}

// column is the DuckDB column (named name) holding col's values, and its folded copy for a text
// column with one. A number column's type follows its scale and largest value in the row store.
func (c *copier) column(col *semantic.Column, name string) ([]duckColumn, error) {
	d := sqldialect.DuckDB{}
	if col.Type != semantic.TypeNumber {
		cols := []duckColumn{{name, d.ColumnType(col.Type), 0}}
		if col.FoldSQLName != "" {
			cols = append(cols, duckColumn{col.FoldSQLName, d.ColumnType(semantic.TypeString), 0})
		}
		return cols, nil
	}
	key := [2]string{col.Table.SQLName, col.SQLName}
	if _, ok := c.numbers[key]; !ok {
		if err := c.numberTypes(col); err != nil {
			return nil, err
		}
	}
	dc := c.numbers[key]
	dc.name = name
	return []duckColumn{dc}, nil
}

// numberTypes finds the types of col and of every other number column of its table, from their
// largest values, in one scan of the table.
func (c *copier) numberTypes(col *semantic.Column) error {
	cols := []*semantic.Column{col}
	for _, o := range col.Table.Columns {
		if o.Type == semantic.TypeNumber && !o.Calculated() && o.SQLName != col.SQLName {
			cols = append(cols, o)
		}
	}
	maxes, largest := make([]string, len(cols)), make([]any, len(cols))
	for i, o := range cols {
		maxes[i], largest[i] = "MAX(ABS("+c.srcDialect.QuoteIdent(o.SQLName)+"))", new(sql.NullFloat64)
	}
	q := "SELECT " + strings.Join(maxes, ", ") + " FROM " + c.srcDialect.QuoteIdent(col.Table.SQLName)
	if err := c.src.QueryRowContext(c.ctx, q).Scan(largest...); err != nil {
		return fmt.Errorf("%s: %w", q, err)
	}
	for i, o := range cols {
		typ := sqldialect.NumberType(sqldialect.DuckDB{}, o.Scale, largest[i].(*sql.NullFloat64).Float64)
		c.numbers[[2]string{col.Table.SQLName, o.SQLName}] = duckColumn{typ: typ, scale: o.Scale}
	}
	return nil
}

// Rows travel from the row store's reader to DuckDB's writer in batches of copyBatch rows, at
// most copyDepth batches ahead: reading SQLite is the slow side, and this bounds what waits.
const (
	copyBatch   = 1024
	copyDepth   = 8
	copyWriters = 4 // writers still appending or committing while the next table is read
)

// copy replaces table in the Store with the row store's rows, stamped loadID, and returns how
// many it read. It reads the rows here while a writer appends them to DuckDB, and returns once
// they are read: the writer's commit overlaps the next table's reading, and wait (called by the
// next copy and at the end of the sync) collects it. The writer creates the table, appends the
// rows and stamps it in one DuckDB transaction: a reader sees the old table or the new one, and a
// sync that fails or crashes midway leaves the old table with its old stamp, copied again next time.
func (c *copier) copy(table string, cols []duckColumn, loadID int64) (int64, error) {
	ctx, cancel := context.WithCancel(c.ctx)
	batches, free := make(chan []any, copyDepth), make(chan []any, copyDepth+1)
	done := make(chan error, 1)
	go func() {
		err := c.write(ctx, table, cols, loadID, batches, free)
		if err != nil {
			cancel() // stops the reader
			err = fmt.Errorf("copying %s: %w", table, err)
		}
		done <- err
	}()
	n, err := c.read(ctx, table, cols, batches, free)
	if err != nil {
		cancel() // before the close: the writer must not commit what it got
	}
	close(batches)
	if err != nil {
		if werr := <-done; werr != nil && errors.Is(err, context.Canceled) { // the writer failed first
			return 0, werr
		}
		return 0, fmt.Errorf("copying %s: reading it: %w", table, err)
	}
	c.writers = append(c.writers, writer{done, cancel})
	return n, c.wait(copyWriters)
}

// A writer is a copy's writer still at work: its error, once done, and its context's cancel.
type writer struct {
	done   <-chan error
	cancel context.CancelFunc
}

// wait waits for the oldest writers until at most n are at work, and returns the first error.
func (c *copier) wait(n int) error {
	var err error
	for len(c.writers) > n {
		w := c.writers[0]
		if werr := <-w.done; err == nil {
			err = werr
		}
		w.cancel()
		c.writers = c.writers[1:]
	}
	return err
}

// read sends the row store's rows of table to out, in batches of len(cols) values a row, taking
// a batch from free when the writer has given one back.
func (c *copier) read(ctx context.Context, table string, cols []duckColumn, out chan<- []any, free <-chan []any) (int64, error) {
	width := len(cols)
	names := make([]string, width)
	for i, col := range cols {
		names[i] = c.srcDialect.QuoteIdent(col.name)
	}
	rows, err := c.src.QueryContext(ctx, "SELECT "+strings.Join(names, ", ")+" FROM "+c.srcDialect.QuoteIdent(table))
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var n int64
	var batch []any
	dest := make([]any, width)
	send := func() error {
		select {
		case out <- batch:
			batch = nil
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	for rows.Next() {
		if batch == nil {
			select {
			case batch = <-free:
				batch = batch[:0]
			default:
				batch = make([]any, 0, copyBatch*width)
			}
		}
		row := batch[len(batch) : len(batch)+width]
		for i := range row {
			dest[i] = &row[i]
		}
		if err := rows.Scan(dest...); err != nil { // a []byte is copied (database/sql does for *any)
			return 0, err
		}
		batch, n = batch[:len(batch)+width], n+1
		if len(batch) == cap(batch) {
			if err := send(); err != nil {
				return 0, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if len(batch) > 0 {
		if err := send(); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// write creates table in DuckDB, appends the rows from in (each value turned into the column's
// type by a cell) and stamps it loadID, in one transaction on a connection of its own; it gives
// the batches back to free.
func (c *copier) write(ctx context.Context, table string, cols []duckColumn, loadID int64, in <-chan []any, free chan<- []any) error {
	defer func() {
		for range in { // unblocks the reader if the writer fails first
		}
	}()
	d := sqldialect.DuckDB{}
	defs, cells := make([]string, len(cols)), make([]cell, len(cols))
	for i, col := range cols {
		defs[i], cells[i] = d.QuoteIdent(col.name)+" "+col.typ, newCell(col)
	}
	conn, err := c.s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	create := "CREATE OR REPLACE TABLE " + d.QuoteIdent(table) + " (" + strings.Join(defs, ", ") + ")"
	for _, st := range []string{c.s.dropStatement(table), create} { // the view of an import's file, if any
		if _, err := tx.ExecContext(ctx, st); err != nil {
			return fmt.Errorf("%s: %w", st, err)
		}
	}
	err = appendAll(conn, table, cells, in, func(batch []any) {
		select {
		case free <- batch:
		default:
		}
	})
	if err != nil {
		return fmt.Errorf("loading it: %w", err)
	}
	if ctx.Err() != nil { // the reader failed: keep the old table
		return ctx.Err()
	}
	if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO "+loadsTable+" VALUES (?, ?)", table, loadID); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	c.s.unview(table)
	c.s.mu.Lock()
	c.s.loads[table] = loadID
	c.s.mu.Unlock()
	return nil
}

// flushRows is how many rows DuckDB's appender gathers before it appends them to the table. Its
// own default (204,800 rows) is held outside the memory limit, per table being written: 6M
// TPC-H line items at a 256MB limit peaked at 340 MiB RSS with it, 250 MiB flushing every 20,480.
const flushRows = 16 * copyBatch

// appendAll appends the batches of rows (len(cells) values each, each value through its cell)
// to table in conn's transaction, flushing every flushRows rows, and hands each batch to done
// once appended (nil: dropped).
func appendAll(conn *sql.Conn, table string, cells []cell, batches <-chan []any, done func([]any)) error {
	return conn.Raw(func(dc any) error { // the appender joins conn's transaction
		a, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "", table)
		if err != nil {
			return err
		}
		row, pending := make([]driver.Value, len(cells)), 0
		for batch := range batches {
			for rest := batch; len(rest) > 0; rest = rest[len(cells):] {
				for i := range row {
					if row[i], err = cells[i].value(rest[i]); err != nil {
						a.Close()
						return err
					}
				}
				if err := a.AppendRow(row...); err != nil {
					a.Close()
					return err
				}
				pending++
			}
			if pending >= flushRows {
				if err := a.Flush(); err != nil {
					a.Close()
					return err
				}
				pending = 0
			}
			if done != nil {
				done(batch)
			}
		}
		return a.Close()
	})
}
