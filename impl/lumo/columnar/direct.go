//go:build cgo

package columnar

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
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
//
// A CSV file is loaded while lumo's reader reads it (workspace.DirectCSV), from what its first
// rows show, and commits once the reader has found every value written as DuckDB's read_csv reads
// it: DuckDB reads every field as text and casts it as lumo's reader converts it; the folded
// copies of ASCII texts are SQL, since calling Go for each of TPC-H lineitem's 30M texts made its
// load 21.5 s instead of 13.6 s.

var _ store.DirectSink = (*importSink)(nil)

// Names of lumo's functions in the import's file.
const (
	foldFunction     = "lumo_fold"       // foldFunc
	wallFunction     = "lumo_wall_clock" // wallFunc
	decimalsFunction = "lumo_decimals"   // decimalsFunc
)

// directShare is the share of --columnar-memory DuckDB has while it reads a Parquet table: with
// the whole 256MB an import of 10M rows peaked at 397 MiB, over the limit plus 150 MB. At 100M rows
// (ten parts, four rollups) DuckDB spills the table's end to its temp folder and reads it back,
// where RSS peaks: 393-405 MiB at 7/8, 369-370 MiB at 3/4 in the same time (164-165 s; at 10M
// 295-313 MiB against 326-329, 16.2-16.8 s both).
const directShare = 0.75

// ReadParquet loads table name from src's files (store.DirectSink).
func (k *importSink) ReadParquet(ctx context.Context, name string, cols []store.SinkColumn, src *workspace.DirectParquet) (*store.DirectLoad, error) {
	return k.readDirect(ctx, name, cols, func(conn *sql.Conn) (*store.DirectLoad, error) {
		return loadParquet(ctx, conn, name, cols, src, k.s.opts.MemoryLimit)
	})
}

// ReadCSV loads table name from src's file (store.DirectSink).
func (k *importSink) ReadCSV(ctx context.Context, name string, cols []store.SinkColumn, src *workspace.DirectCSV, whole func() (*workspace.DirectCSV, bool)) (*store.DirectLoad, error) {
	return k.readDirect(ctx, name, cols, func(conn *sql.Conn) (*store.DirectLoad, error) {
		return loadCSV(ctx, conn, name, cols, src, whole, k.s.opts.MemoryLimit)
	})
}

// readDirect creates table name with load, on a connection to the import's file where lumo's
// functions are defined, then its value tables.
func (k *importSink) readDirect(ctx context.Context, name string, cols []store.SinkColumn, load func(*sql.Conn) (*store.DirectLoad, error)) (*store.DirectLoad, error) {
	// The load has DuckDB's memory to itself: the memory limit is the database's, and it is
	// raised for the load where an appender still writing a table read before counts on half.
	k.waitWriters()
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
	loaded, err := load(conn)
	if err != nil {
		k.s.log.Debug("columnar copy: DuckDB's reader leaves the table to lumo's", "table", name, "err", err)
		return nil, err
	}
	t := &sinkTable{sink: k, name: name, cols: cols, written: make(chan struct{}), closed: true}
	close(t.written)
	t.values(ctx, conn)
	k.mu.Lock()
	k.tables = append(k.tables, t)
	k.direct++
	k.mu.Unlock()
	return loaded, nil
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
		files[i] = sqlText(f)
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
	load, err := createDirect(ctx, conn, name, cols, data, src.Columns, sel, from, limit, nil)
	if err != nil {
		return nil, err
	}
	load.Scales = scales
	return load, nil
}

// loadCSV creates table name from src's file in one transaction on conn: the fields as DuckDB
// reads them (every one a text), each cast as lumo's reader converts it, each text's folded
// copy, each number column typed as a copy types it, all as src (the first rows) shows them. It
// commits when lumo's reader has read the whole file (whole) and found it as src showed it and
// with as many rows as DuckDB read; when the first rows misled it (a later number with more
// decimals, a later accent), it loads the file again as the whole file shows it.
func loadCSV(ctx context.Context, conn *sql.Conn, name string, cols []store.SinkColumn, src *workspace.DirectCSV,
	whole func() (*workspace.DirectCSV, bool), limit string) (*store.DirectLoad, error) {
	sel, data, err := csvSelect(cols, src)
	if err != nil {
		return nil, err
	}
	// Buffers of 8 MB instead of DuckDB's default: the reader holds them outside DuckDB's limit,
	// one per thread (TPC-H's import peaked at 416 MiB with the default, 377 MiB with 8 MB). A
	// file DuckDB cannot read so fails the load, and lumo's reader reads it.
	fields := make([]string, src.Width)
	for i := range fields {
		fields[i] = fmt.Sprintf("'f%d': 'VARCHAR'", i)
	}
	from := fmt.Sprintf(" FROM read_csv(%s, header = true, delim = %s, quote = '\"', escape = '\"', nullstr = '\\N', auto_detect = false, buffer_size = 8388608, columns = {%s})",
		sqlText(src.File), sqlText(string(src.Delimiter)), strings.Join(fields, ", "))
	var final *workspace.DirectCSV
	var finalSel []string
	read := func() error { // waits for lumo's reader
		if final != nil {
			return nil
		}
		f, ok := whole()
		if !ok {
			return errors.New("lumo's reader reads the file")
		}
		s, _, err := csvSelect(cols, f)
		final, finalSel = f, s
		return err
	}
	check := func(used []string) func(*store.DirectLoad) error {
		return func(load *store.DirectLoad) error {
			if err := read(); err != nil {
				return err
			}
			if !slices.Equal(used, finalSel) {
				return errors.New("the file's first rows showed other types than the whole file")
			}
			if load.Rows != final.Count {
				return fmt.Errorf("DuckDB read %d rows, lumo's reader %d", load.Rows, final.Count)
			}
			return nil
		}
	}
	load, err := createDirect(ctx, conn, name, cols, data, src.Columns, sel, from, limit, check(sel))
	if err != nil {
		if read() != nil || ctx.Err() != nil || slices.Equal(sel, finalSel) {
			return nil, err
		}
		if load, err = createDirect(ctx, conn, name, cols, data, final.Columns, finalSel, from, limit, check(finalSel)); err != nil {
			return nil, err
		}
	}
	load.Scales = final.Scales()
	return load, nil
}

// csvSelect is the select list of loadCSV for the columns of src as read so far, and for each
// of cols its column in src.Columns.
func csvSelect(cols []store.SinkColumn, src *workspace.DirectCSV) (sel []string, data []int, err error) {
	d := sqldialect.DuckDB{}
	var text workspace.DirectColumn
	next := 0
	for _, c := range cols {
		if c.Fold {
			if len(data) == 0 {
				return nil, nil, errors.New("a folded copy before any column")
			}
			sel = append(sel, foldText(text)+" AS "+d.QuoteIdent(c.Name))
			data = append(data, data[len(data)-1])
			continue
		}
		i := next
		next++
		if i >= len(src.Columns) {
			return nil, nil, errors.New("more columns than the CSV table")
		}
		dc := src.Columns[i]
		field := fmt.Sprintf("f%d", dc.Field)
		source := "NULLIF(" + field + ", '')" // an empty field is NULL but for a text
		switch dc.Kind {
		case workspace.DirectText:
			source, text = field, dc
			text.Source = field
		case workspace.DirectNumber:
			typ := sqldialect.NumberType(d, dc.Scale, dc.MaxAbs)
			source = "CAST(" + source + " AS " + typ + ")"
			if typ == "DOUBLE" {
				source = "CASE WHEN " + source + " = 0 THEN 0.0 ELSE " + source + " END" // -0 is 0, as lumo keeps it
			}
		case workspace.DirectDate:
			source = "CAST(" + source + " AS DATE)"
		case workspace.DirectDatetime:
			source = "CAST(" + source + " AS TIMESTAMP)"
		}
		sel = append(sel, source+" AS "+d.QuoteIdent(c.Name))
		data = append(data, i)
	}
	return sel, data, nil
}

// foldText is the folded copy of text column c (Source: its field) as fold.Fold makes it: in
// SQL for ASCII texts (lower-cased, white space collapsed and trimmed where c has any) and for
// texts whose other runes fold.Latin maps by themselves (DuckDB's strip_accents after lower
// folds each of those as Fold does: TestSQLFoldAgreesWithFold), by foldFunc for the others.
func foldText(c workspace.DirectColumn) string {
	x := c.Source
	spaced := func(folded string) string {
		if c.Spaced {
			return "trim(regexp_replace(" + folded + ", '[\t\n\v\f\r ]+', ' ', 'g'))"
		}
		return folded
	}
	ascii := spaced("lower(" + x + ")")
	if c.ASCII {
		return ascii
	}
	other := foldFunction + "(" + x + ")"
	if c.Latin {
		other = spaced("strip_accents(lower(" + x + "))")
	}
	return "CASE WHEN strlen(" + x + ") = length(" + x + ") THEN " + ascii + " ELSE " + other + " END"
}

// sqlText is s as an SQL string literal.
func sqlText(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// createDirect creates table name as SELECT sel from in one transaction on conn, with most of
// the memory limit while DuckDB reads and half of it after, and commits it once measured (cols,
// data and src as measure takes them) and, unless check (when given) finds otherwise, whole.
func createDirect(ctx context.Context, conn *sql.Conn, name string, cols []store.SinkColumn, data []int, src []workspace.DirectColumn,
	sel []string, from, limit string, check func(*store.DirectLoad) error) (*store.DirectLoad, error) {
	table := sqldialect.DuckDB{}.QuoteIdent(name)
	// Appending holds rows outside DuckDB's limit, hence half of it for the import's file; the
	// load holds none, so DuckDB has most of the limit while it reads (its reader and lumo's
	// functions hold some outside it), and half again for what follows.
	half := setMemoryLimit(halfLimit(limit))
	defer conn.ExecContext(context.WithoutCancel(ctx), half) // after the transaction ends
	if _, err := conn.ExecContext(ctx, setMemoryLimit(partLimit(limit, directShare))); err != nil {
		return nil, err
	}
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
	if check != nil {
		if err := check(load); err != nil {
			return nil, err
		}
	}
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
func measure(ctx context.Context, tx *sql.Tx, table string, cols []store.SinkColumn, data []int, src []workspace.DirectColumn) (*store.DirectLoad, error) {
	d := sqldialect.DuckDB{}
	load := &store.DirectLoad{Texts: make([]store.TextStats, len(src))}
	outside := make([]int64, len(cols))
	aggs, dest := []string{"COUNT(*)"}, []any{&load.Rows}
	for i, c := range cols {
		col := d.QuoteIdent(c.Name)
		st := &load.Texts[data[i]]
		switch kind := src[data[i]].Kind; {
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
		dc := src[data[i]]
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
