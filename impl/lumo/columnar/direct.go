//go:build cgo

package columnar

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// A Parquet table that DuckDB reads as lumo does (workspace.Direct) is loaded by DuckDB itself:
// one CREATE TABLE AS over read_parquet, whose reading, casting and compression run on every
// thread the file's DuckDB has, where the Appender compresses the rows Go read on one. The folded
// copy of each text is Go's own fold.Fold, called by DuckDB as a function (foldFunc), so the
// texts fold exactly as every other import folds them; so are Brasília's wall clock and a
// float's decimals. What lumo's reader checks value by value is checked in SQL before the table
// commits (a float that is not a number, a text over workspace.MaxValueBytes, a day outside the
// years 1-9999); a table that fails any of it, or that DuckDB cannot read (a text that is not
// UTF-8), is rolled back and left to lumo's reader, which names the file, line and column.

// Names of lumo's functions in the import's file.
const (
	foldFunction     = "lumo_fold"       // foldFunc
	wallFunction     = "lumo_wall_clock" // wallFunc
	decimalsFunction = "lumo_decimals"   // decimalsFunc
)

// directShare is the share of --columnar-memory DuckDB has while it reads a Parquet table: with
// the whole 256MB an import of 10M rows peaked at 397 MiB, over the limit plus 150 MB; with this
// share 322 MiB, and 387 MiB at 100M rows.
const directShare = 0.875

// ReadParquet loads table name from src's files (store.DirectSink).
func (k *importSink) ReadParquet(ctx context.Context, name string, cols []store.SinkColumn, src *workspace.DirectParquet) (*store.DirectLoad, error) {
	db, err := k.file(ctx)
	if err != nil {
		return nil, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if err := k.registerFunctions(conn); err != nil {
		return nil, err
	}
	// The order of the rows is no part of lumo's answers (every answer is ordered, and DuckDB
	// scans in parallel), and keeping it held memory outside DuckDB's limit and made the file
	// written twice, once by the load and once compressed at the end.
	if _, err := conn.ExecContext(ctx, "SET preserve_insertion_order = false"); err != nil {
		return nil, err
	}
	load, err := loadParquet(ctx, conn, name, cols, src, k.s.opts.MemoryLimit)
	if err != nil {
		k.s.log.Debug("columnar copy: DuckDB's Parquet reader leaves the table to lumo's", "table", name, "err", err)
		return nil, err
	}
	t := &sinkTable{sink: k, name: name, cols: cols, written: make(chan struct{}), closed: true}
	close(t.written)
	t.values(ctx, conn)
	k.mu.Lock()
	k.tables = append(k.tables, t)
	k.direct++
	k.mu.Unlock()
	return load, nil
}

// registerFunctions makes lumo's functions callable in the import's file, once.
func (k *importSink) registerFunctions(conn *sql.Conn) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.functions {
		return nil
	}
	if err := duckdb.RegisterScalarUDF(conn, foldFunction, foldFunc{}); err != nil {
		return fmt.Errorf("registering %s: %w", foldFunction, err)
	}
	if err := duckdb.RegisterScalarUDF(conn, wallFunction, wallFunc{}); err != nil {
		return fmt.Errorf("registering %s: %w", wallFunction, err)
	}
	if err := duckdb.RegisterScalarUDF(conn, decimalsFunction, decimalsFunc{}); err != nil {
		return fmt.Errorf("registering %s: %w", decimalsFunction, err)
	}
	k.functions = true
	return nil
}

// foldFunc is fold.Fold as a DuckDB scalar function of one VARCHAR (NULL stays NULL).
type foldFunc struct{}

func (foldFunc) Config() duckdb.ScalarFuncConfig {
	text, _ := duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR)
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{text}, ResultTypeInfo: text}
}

func (foldFunc) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(v []driver.Value) (any, error) {
		s, ok := v[0].(string)
		if !ok {
			return nil, fmt.Errorf("%s takes a text, not %T", foldFunction, v[0])
		}
		return fold.Fold(s), nil
	}}
}

// wallFunc is an instant, in microseconds from the epoch, as the TIMESTAMP of Brasília's wall
// clock to the second (workspace.WallClock), as lumo's reader shows a UTC TIMESTAMP.
type wallFunc struct{}

func (wallFunc) Config() duckdb.ScalarFuncConfig {
	micros, _ := duckdb.NewTypeInfo(duckdb.TYPE_BIGINT)
	stamp, _ := duckdb.NewTypeInfo(duckdb.TYPE_TIMESTAMP)
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{micros}, ResultTypeInfo: stamp}
}

func (wallFunc) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(v []driver.Value) (any, error) {
		us, ok := v[0].(int64)
		if !ok {
			return nil, fmt.Errorf("%s takes microseconds, not %T", wallFunction, v[0])
		}
		sec := us / 1e6
		if us%1e6 < 0 {
			sec--
		}
		return time.Unix(workspace.WallClock(sec), 0).UTC(), nil
	}}
}

// decimalsFunc is how many decimals a DOUBLE's shortest text has, as lumo's reader counts them
// for the column's scale (strconv's shortest 'f' format).
type decimalsFunc struct{}

func (decimalsFunc) Config() duckdb.ScalarFuncConfig {
	float, _ := duckdb.NewTypeInfo(duckdb.TYPE_DOUBLE)
	count, _ := duckdb.NewTypeInfo(duckdb.TYPE_INTEGER)
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{float}, ResultTypeInfo: count}
}

func (decimalsFunc) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(v []driver.Value) (any, error) {
		f, ok := v[0].(float64)
		if !ok {
			return nil, fmt.Errorf("%s takes a DOUBLE, not %T", decimalsFunction, v[0])
		}
		var buf [32]byte
		text := strconv.AppendFloat(buf[:0], f, 'f', -1, 64)
		if dot := bytes.IndexByte(text, '.'); dot >= 0 {
			return int32(len(text) - dot - 1), nil
		}
		return int32(0), nil
	}}
}

// loadParquet creates table name from src in one transaction on conn: the rows as DuckDB reads
// them, each text's folded copy, each number column typed as a copy types it (from the largest
// magnitude, read first); an error, and nothing left, when a value is out of lumo's bounds.
func loadParquet(ctx context.Context, conn *sql.Conn, name string, cols []store.SinkColumn, src *workspace.DirectParquet, limit string) (*store.DirectLoad, error) {
	d := sqldialect.DuckDB{}
	files := make([]string, len(src.Files))
	for i, f := range src.Files {
		files[i] = "'" + strings.ReplaceAll(f, "'", "''") + "'"
	}
	from := " FROM read_parquet([" + strings.Join(files, ", ") + "], hive_partitioning = false, union_by_name = false)"
	maxAbs, scales, err := numbers(ctx, conn, src, from)
	if err != nil {
		return nil, err
	}
	var sel []string
	var data []int // per column of cols, its index in src.Columns
	var source string
	next := 0 // the next column of src
	for _, c := range cols {
		if c.Fold {
			if len(data) == 0 {
				return nil, errors.New("a folded copy before any column")
			}
			sel = append(sel, foldFunction+"("+source+") AS "+d.QuoteIdent(c.Name))
			data = append(data, data[len(data)-1])
			continue
		}
		i := next
		next++
		if i >= len(src.Columns) {
			return nil, errors.New("more columns than the Parquet table")
		}
		dc := src.Columns[i]
		source = d.QuoteIdent(dc.Source)
		switch dc.Kind {
		case workspace.DirectText:
			source = "CAST(" + source + " AS VARCHAR)"
		case workspace.DirectNumber, workspace.DirectFloat:
			typ := sqldialect.NumberType(d, scales[i], maxAbs[i])
			switch {
			case typ == "DOUBLE" && dc.Kind == workspace.DirectFloat:
				source = "CASE WHEN " + source + " = 0 THEN 0.0 ELSE " + source + " END" // -0 is 0, as lumo keeps it
			case typ == "DOUBLE" && dc.Scale > 0:
				// A decimal's text reads as the nearest float, as lumo's reader converts it;
				// DuckDB's own cast divides by 10^scale after rounding the integer.
				source = "CAST(CAST(" + source + " AS VARCHAR) AS DOUBLE)"
			default:
				source = "CAST(" + source + " AS " + typ + ")"
			}
		case workspace.DirectDatetime:
			source = "date_trunc('second', CAST(" + source + " AS TIMESTAMP))"
		case workspace.DirectInstant:
			source = wallFunction + "(epoch_us(" + source + "))"
		}
		sel = append(sel, source+" AS "+d.QuoteIdent(c.Name))
		data = append(data, i)
	}
	// Appending holds rows outside DuckDB's limit, hence half of it for the import's file; the
	// load holds none, so DuckDB has most of the limit while it reads (its reader and lumo's
	// functions hold some outside it), and half again for what follows.
	half := setMemoryLimit(halfLimit(limit))
	defer conn.ExecContext(context.WithoutCancel(ctx), half) // after the transaction ends
	if _, err := conn.ExecContext(ctx, setMemoryLimit(partLimit(limit, directShare))); err != nil {
		return nil, err
	}
	table := d.QuoteIdent(name)
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "CREATE TABLE "+table+" AS SELECT "+strings.Join(sel, ", ")+from); err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, half); err != nil {
		return nil, err
	}
	load, err := measure(ctx, tx, table, cols, data, src)
	if err != nil {
		return nil, err
	}
	load.Scales = scales
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return load, nil
}

// numbers are, per column of src, the largest magnitude of its numbers and their decimals (a
// DECIMAL's scale, a float's most decimals), read from its files, so that the table is created
// with the types a copy gives them; an error when a float is not a number.
func numbers(ctx context.Context, conn *sql.Conn, src *workspace.DirectParquet, from string) (maxAbs []float64, scales []int, err error) {
	d := sqldialect.DuckDB{}
	maxAbs, scales = make([]float64, len(src.Columns)), make([]int, len(src.Columns))
	var aggs []string
	var dest []any
	notNumbers := make([]int64, len(src.Columns))
	for i, c := range src.Columns {
		col := d.QuoteIdent(c.Source)
		switch c.Kind {
		case workspace.DirectNumber:
			scales[i] = c.Scale
		case workspace.DirectFloat:
			aggs = append(aggs, "COALESCE(MAX("+decimalsFunction+"("+col+")), 0)",
				"COUNT(*) FILTER (WHERE isnan("+col+") OR isinf("+col+"))")
			dest = append(dest, &scales[i], &notNumbers[i])
		default:
			continue
		}
		aggs = append(aggs, "COALESCE(MAX(ABS(CAST("+col+" AS DOUBLE))), 0)")
		dest = append(dest, &maxAbs[i])
	}
	if len(aggs) == 0 {
		return maxAbs, scales, nil
	}
	q := "SELECT " + strings.Join(aggs, ", ") + from
	if err := conn.QueryRowContext(ctx, q).Scan(dest...); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", q, err)
	}
	for i, n := range notNumbers {
		if n > 0 {
			return nil, nil, fmt.Errorf("column %s: %d floats are NaN or infinite", src.Columns[i].Source, n)
		}
	}
	return maxAbs, scales, nil
}

// measure reads, in one pass over the loaded table, its rows and what the import learns of each
// text; an error names the first value lumo's reader refuses.
func measure(ctx context.Context, tx *sql.Tx, table string, cols []store.SinkColumn, data []int, src *workspace.DirectParquet) (*store.DirectLoad, error) {
	d := sqldialect.DuckDB{}
	load := &store.DirectLoad{Texts: make([]store.TextStats, len(src.Columns))}
	outside := make([]int64, len(cols))
	aggs, dest := []string{"COUNT(*)"}, []any{&load.Rows}
	for i, c := range cols {
		col := d.QuoteIdent(c.Name)
		st := &load.Texts[data[i]]
		switch kind := src.Columns[data[i]].Kind; {
		case c.Fold:
			aggs = append(aggs, "COALESCE(MAX(strlen("+col+")), 0)")
			dest = append(dest, &textMax{st})
		case kind == workspace.DirectText:
			aggs = append(aggs, "COUNT("+col+")", "COALESCE(SUM(strlen("+col+")), 0)", "COALESCE(MAX(strlen("+col+")), 0)",
				"approx_count_distinct("+col+")")
			dest = append(dest, &st.Count, &st.Bytes, &textMax{st}, &st.Distinct)
		case kind == workspace.DirectDate:
			aggs = append(aggs, "COUNT(*) FILTER (WHERE "+col+" < DATE '0001-01-01' OR "+col+" > DATE '9999-12-31')")
			dest = append(dest, &outside[i])
		case kind == workspace.DirectDatetime || kind == workspace.DirectInstant:
			aggs = append(aggs, "COUNT(*) FILTER (WHERE "+col+" < TIMESTAMP '0001-01-01 00:00:00' OR "+col+" > TIMESTAMP '9999-12-31 23:59:59')")
			dest = append(dest, &outside[i])
		}
	}
	q := "SELECT " + strings.Join(aggs, ", ") + " FROM " + table
	if err := tx.QueryRowContext(ctx, q).Scan(dest...); err != nil {
		return nil, fmt.Errorf("%s: %w", q, err)
	}
	for i, c := range cols {
		dc := src.Columns[data[i]]
		switch {
		case outside[i] > 0:
			return nil, fmt.Errorf("column %s: %d days outside the years 1-9999", dc.Source, outside[i])
		case !c.Fold && dc.Kind == workspace.DirectText && load.Texts[data[i]].MaxLen > workspace.MaxValueBytes:
			return nil, fmt.Errorf("column %s: a text over %d bytes", dc.Source, workspace.MaxValueBytes)
		}
	}
	return load, nil
}

// textMax scans a length into a text's longest (of the text and its folded copy).
type textMax struct{ st *store.TextStats }

func (m *textMax) Scan(v any) error {
	n, ok := v.(int64)
	if !ok {
		return fmt.Errorf("a length of type %T", v)
	}
	m.st.MaxLen = max(m.st.MaxLen, int(n))
	return nil
}
