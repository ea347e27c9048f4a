package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/lib/pq"

	"github.com/lumo-caderninho/mcp/impl/lumo/pgsource"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// Stored forms of dates: ISO text on every engine (PostgreSQL casts it to DATE/TIMESTAMP).
const (
	dateLayout     = "2006-01-02"
	datetimeLayout = "2006-01-02 15:04:05"
)

// createTable creates the data table of t: one column per model column and, beside every text
// column, its folded copy; in the sink alone when the database keeps no app row.
func (im *importer) createTable(ctx context.Context, t *pTable) error {
	d := im.db.dialect
	var cols []string
	for _, c := range t.dataCols() {
		cols = append(cols, d.QuoteIdent(c.sqlName)+" "+d.ColumnType(c.c.Type))
		if c.foldName != "" {
			cols = append(cols, d.QuoteIdent(c.foldName)+" "+d.ColumnType(semantic.TypeString))
		}
	}
	if !im.sinkOnly {
		ddl := "CREATE TABLE " + d.QuoteIdent(t.sqlName) + " (" + strings.Join(cols, ", ") + ")"
		if _, err := im.tx.ExecContext(ctx, ddl); err != nil {
			return fmt.Errorf("creating data table %s: %w", t.sqlName, err)
		}
	}
	if t.file != "" {
		loaded := im.now
		if t.t.LoadedAt != nil {
			loaded = *t.t.LoadedAt
		}
		t.loadedAt = &loaded
	}
	return nil
}

// sqliteBatch is how many rows one SQLite INSERT carries: one statement per row spent most of
// the load in per-statement work (database/sql, binding, VDBE setup).
const sqliteBatch = 100

// copyBatch is how many rows travel together from the reading goroutine to COPY.
const copyBatch = 256

// loadBatch is rows read and converted, on their way to the database, and the file line of
// each row: on SQLite the arguments of n rows, one after the other; on PostgreSQL the n rows
// in COPY's text format, separated (not ended) by newlines.
type loadBatch struct {
	args  []any
	text  []byte
	lines []int
	n     int
}

// loadTable streams t's CSV into its data table: COPY on PostgreSQL, prepared multi-row INSERTs
// on SQLite, both inside the import transaction. Problems in the file come back as
// *workspace.Error.
//
// A goroutine reads, converts and folds the rows while this one writes the previous batch. On
// PostgreSQL the reader writes each row as COPY text and this goroutine hands it to the driver
// as it is: passing values through database/sql and lib/pq's encoder once per row took more
// CPU than reading them, on a machine where the server needs the other core. The first problem
// in file order wins, as when it was one loop: rows are written in order, and the rows read
// after the last full batch are dropped when the file has a problem.
func (im *importer) loadTable(ctx context.Context, t *pTable) error {
	d := im.db.dialect
	var names []string
	for _, c := range t.dataCols() {
		names = append(names, d.QuoteIdent(c.sqlName))
		if c.foldName != "" {
			names = append(names, d.QuoteIdent(c.foldName))
		}
	}
	width := len(names)
	table := d.QuoteIdent(t.sqlName) + " (" + strings.Join(names, ", ") + ")"
	copyIn := im.db.Engine() == "postgres"
	batch := copyBatch
	if !copyIn {
		batch = max(1, min(sqliteBatch, 30000/width))
	}
	insert := func(n int) string { return insertRows(table, width, n) }
	var stmt *sql.Stmt
	if !copyIn && !im.sinkOnly {
		// Plain "?" on purpose (not db.q's numbered ?N): the SQLite driver looks up every
		// parameter's name, a linear search per parameter when they are named.
		var err error
		if stmt, err = im.tx.PrepareContext(ctx, insert(batch)); err != nil {
			return fmt.Errorf("preparing load of %s: %w", t.source(), err)
		}
		defer stmt.Close()
	}

	rows, err := im.openRows(ctx, t)
	if err != nil {
		return err
	}
	defer func() { rows.Close() }()
	if loaded, err := im.loadDirect(ctx, t, &rows); loaded || err != nil {
		return err
	}
	sink, err := im.sinkTable(ctx, t)
	if err != nil {
		return err
	}
	// finishSink ends the sink's table: done when the file was read whole and loaded.
	finishSink := func(err error) {
		switch {
		case sink == nil:
		case err != nil:
			sink.Abort()
		default:
			sink.Done(rows.Scales())
		}
	}
	if lr, ok := rows.(interface{ LoadedAt() time.Time }); ok {
		at := lr.LoadedAt() // a database source is as of the moment its read began
		t.loadedAt = &at
	}

	// Three batches circulate: one being read, one queued, one being written.
	const inFlight = 3
	free := make(chan *loadBatch, inFlight)
	for range inFlight {
		b := &loadBatch{lines: make([]int, batch)}
		if copyIn {
			b.text = make([]byte, 0, 64<<10)
		} else {
			b.args = make([]any, width*batch)
		}
		free <- b
	}
	full := make(chan *loadBatch, inFlight)
	stop := make(chan struct{})
	var readErr error // set before full closes
	go func() {
		defer close(full)
		if copyIn {
			readErr = im.readCopyRows(rows, t, batch, free, full, stop, sink)
		} else {
			readErr = im.readRows(rows, t, width, batch, free, full, stop, sink)
		}
	}()
	// finish stops the reader and waits for it, so nothing touches rows after loadTable.
	finish := func(err error) error {
		close(stop)
		for range full {
		}
		finishSink(err)
		return err
	}

	if copyIn {
		// FREEZE (allowed because the table was created in this transaction) writes the rows
		// already visible to everyone, so index-only scans work from the first read on.
		query := "COPY " + table + " FROM STDIN WITH (FREEZE)"
		if err := im.copyRows(ctx, t, query, free, full, &readErr); err != nil {
			return finish(err)
		}
		finishSink(nil)
	} else {
		for b := range full {
			if err := im.insertBatch(ctx, stmt, insert, b, batch, width); err != nil {
				if b.n == 1 {
					return finish(fmt.Errorf("loading %s line %d into %s: %w", t.source(), b.lines[0], t.sqlName, err))
				}
				return finish(fmt.Errorf("loading %s lines %d-%d into %s: %w", t.source(), b.lines[0], b.lines[b.n-1], t.sqlName, err))
			}
			for range b.n {
				im.loaded(false)
			}
			free <- b
		}
		finishSink(readErr)
		if readErr != nil {
			return readErr
		}
	}
	n := rows.Count()
	t.rows = &n
	im.loaded(true)
	for i, s := range rows.Scales() {
		t.dataCols()[i].scale = s
	}
	for i, u := range rows.Units() {
		t.dataCols()[i].unit = u
	}
	t.csv = rows.Description()
	return nil
}

// loadDirect loads t, whose rows are open, straight from its Parquet or CSV file into the sink's
// DuckDB file with DuckDB's own reader, when the database keeps no app row and DuckDB reads
// every column as rows would; false when the table is left to rows. A load DuckDB refuses (a
// value out of lumo's bounds, a file it cannot read) leaves nothing behind, and rows then read
// the table, naming the file, line and column of the problem. A CSV file is read whole by rows
// first (they judge it); when DuckDB cannot take it, *rows are the table opened again.
func (im *importer) loadDirect(ctx context.Context, t *pTable, rows *workspace.Rows) (bool, error) {
	ds, ok := im.sink.(DirectSink)
	if !ok || !im.sinkOnly {
		return false, nil
	}
	if src, ok := workspace.Direct(*rows, im.fsys); ok {
		load, err := ds.ReadParquet(ctx, t.sqlName, sinkColumns(t), src)
		if err != nil {
			return false, ctx.Err() // the sink logged why
		}
		im.done.Rows += load.Rows
		im.directLoaded(t, load, src.Describe(load.Rows))
		return true, nil
	}
	src, ok := workspace.OpenDirectCSV(*rows, im.fsys)
	if !ok {
		return false, nil
	}
	before := im.done.Rows
	loaded, err := im.loadCSV(ctx, t, ds, src)
	if loaded || err != nil {
		return loaded, err
	}
	im.done.Rows = before // the rows are read again
	(*rows).Close()
	again, err := im.openRows(ctx, t)
	if err != nil {
		return false, err // *rows stay the closed ones: closing them again is harmless
	}
	*rows = again
	return false, nil
}

// directHead is how many rows of a CSV file lumo's reader reads before DuckDB starts loading
// it: the types and folded copies DuckDB's load starts with are what those rows show.
const directHead = 65536

// loadCSV loads t's CSV file (src) with DuckDB's reader while lumo's reader reads the rest of it:
// DuckDB starts from what the first rows show, and its load commits only when lumo's reader
// has read the whole file and found it as DuckDB read it (the sink loads it again from what the
// whole file shows when the first rows misled it). false, nil: lumo's reader reads the table.
func (im *importer) loadCSV(ctx context.Context, t *pTable, ds DirectSink, src *workspace.DirectCSV) (bool, error) {
	each := func() bool {
		im.loaded(false)
		return ctx.Err() == nil
	}
	exact, err := src.Read(directHead, each)
	if err != nil || !exact {
		return false, err
	}
	first := src.Snapshot() // before the rest is read into src
	loading, stop := context.WithCancel(ctx)
	defer stop()
	type read struct {
		exact bool
		err   error
	}
	pass := make(chan read, 1)
	go func() {
		exact, err := src.Read(-1, each)
		if !exact {
			stop() // DuckDB's load is in vain
		}
		pass <- read{exact, err}
	}()
	var whole read
	var waited bool
	wait := func() (*workspace.DirectCSV, bool) {
		if !waited {
			whole, waited = <-pass, true
		}
		return src, whole.exact && whole.err == nil
	}
	load, err := ds.ReadCSV(loading, t.sqlName, sinkColumns(t), first, wait)
	wait() // lumo's reader is done with the rows whatever the load did
	switch {
	case whole.err != nil:
		return false, whole.err
	case ctx.Err() != nil:
		return false, ctx.Err()
	case err != nil:
		return false, nil // the sink logged why
	}
	im.directLoaded(t, load, src.Describe())
	return true, nil
}

// directLoaded records what a direct load learnt of t's rows.
func (im *importer) directLoaded(t *pTable, load *DirectLoad, describe string) {
	n := load.Rows
	t.rows = &n
	for i, c := range t.dataCols() {
		c.scale = load.Scales[i]
		if c.foldName != "" {
			st := load.Texts[i]
			c.texts, c.textBytes, c.distinctLoaded, c.maxLen = st.Count, st.Bytes, st.Distinct, st.MaxLen
		}
	}
	t.csv = describe
	im.loaded(true)
}

// copyData is lib/pq's COPY statement writing a line of COPY text as it is (Exec would encode
// and escape every value again, behind database/sql's per-row conversions).
type copyData interface {
	CopyData(ctx context.Context, line string) (driver.Result, error)
}

// copyRows runs query (a COPY FROM STDIN) on the import's connection and writes the batches
// from full into it until full closes, returning each to free; a problem the reader met
// (*readErr, read once full is closed) ends it without an error of its own. PostgreSQL reports
// a bad row some rows after it was sent; the line it names maps back to the file's line.
func (im *importer) copyRows(ctx context.Context, t *pTable, query string, free chan<- *loadBatch, full <-chan *loadBatch, readErr *error) error {
	var lines copyLines
	fail := func(err error) error {
		if line, ok := lines.fileLine(t.sqlName, err); ok {
			return fmt.Errorf("loading %s line %d into %s: %w", t.source(), line, t.sqlName, err)
		}
		return fmt.Errorf("loading %s into %s: %w", t.source(), t.sqlName, err)
	}
	return im.conn.Raw(func(dc any) error {
		prep, ok := dc.(driver.ConnPrepareContext)
		if !ok {
			return fmt.Errorf("loading %s: driver %T cannot prepare COPY", t.source(), dc)
		}
		st, err := prep.PrepareContext(ctx, query)
		if err != nil {
			return fmt.Errorf("preparing load of %s: %w", t.source(), err)
		}
		// Ends the COPY when this returns early; the transaction then rolls back.
		defer st.Close()
		cd, ok := st.(copyData)
		if !ok {
			return fmt.Errorf("loading %s: driver statement %T cannot write COPY data", t.source(), st)
		}
		for b := range full {
			for _, l := range b.lines[:b.n] {
				lines.add(l)
			}
			// CopyData copies the text into its buffer before returning, and b is reused only
			// after that.
			if _, err := cd.CopyData(ctx, unsafe.String(unsafe.SliceData(b.text), len(b.text))); err != nil {
				return fail(err)
			}
			for range b.n {
				im.loaded(false)
			}
			free <- b
		}
		if *readErr != nil {
			return *readErr
		}
		// Exec without values ends the COPY and reports what PostgreSQL refused.
		if _, err := st.Exec(nil); err != nil {
			return fail(err)
		}
		return nil
	})
}

// copyLines maps the rows in the order COPY got them to their file lines, as runs of
// consecutive lines (a row spans several lines only when a quoted value holds a line break).
type copyLines struct {
	from []int // first row of each run, 0-based
	line []int // its file line
	n    int   // rows added
}

func (c *copyLines) add(line int) {
	if k := len(c.from) - 1; k < 0 || c.line[k]+c.n-c.from[k] != line {
		c.from = append(c.from, c.n)
		c.line = append(c.line, line)
	}
	c.n++
}

// fileLine is the file line of the row a PostgreSQL COPY error names in its context
// ("COPY <table>, line <n>, ..." in the server's language): the first number after the
// table's name.
func (c *copyLines) fileLine(table string, err error) (int, bool) {
	var pe *pq.Error
	if !errors.As(err, &pe) {
		return 0, false
	}
	i := strings.Index(pe.Where, table)
	if i < 0 {
		return 0, false
	}
	rest := pe.Where[i+len(table):]
	j := strings.IndexAny(rest, "0123456789")
	if j < 0 {
		return 0, false
	}
	k := j
	for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
		k++
	}
	n, convErr := strconv.Atoi(rest[j:k])
	if convErr != nil || n < 1 || n > c.n {
		return 0, false
	}
	row := n - 1
	r := sort.Search(len(c.from), func(i int) bool { return c.from[i] > row }) - 1
	return c.line[r] + row - c.from[r], true
}

// insertBatch runs the SQLite INSERT of one batch: the prepared statement for a full one, a
// statement of its own for the last, shorter one.
func (im *importer) insertBatch(ctx context.Context, stmt *sql.Stmt, insert func(int) string, b *loadBatch, batch, width int) error {
	if stmt == nil {
		return nil // the rows go to the sink alone (SinkOnly)
	}
	st := stmt
	if b.n < batch {
		last, err := im.tx.PrepareContext(ctx, insert(b.n))
		if err != nil {
			return err
		}
		defer last.Close()
		st = last
	}
	_, err := st.ExecContext(ctx, b.args[:b.n*width]...)
	return err
}

// insertRows is an INSERT of n rows of width values each into table (its quoted name and column
// list, or its quoted name alone).
func insertRows(table string, width, n int) string {
	row := "(" + inList(width) + ")"
	return "INSERT INTO " + table + " VALUES " + strings.Repeat(row+", ", n-1) + row
}

// readBatches is loadTable's reading side: it takes a batch from free, lets fill add each row
// to it (b.n rows are already there), and queues it on full once it holds batch rows, until the
// file ends, a problem in it (returned), or stop.
func readBatches(rows workspace.Rows, batch int, free <-chan *loadBatch, full chan<- *loadBatch, stop <-chan struct{}, fill func(b *loadBatch) error) error {
	var b *loadBatch
	for rows.Next() {
		if b == nil {
			select {
			case b = <-free:
				b.n = 0
				b.text = b.text[:0]
			case <-stop:
				return nil
			}
		}
		b.lines[b.n] = rows.Line()
		if err := fill(b); err != nil {
			return err
		}
		b.n++
		if b.n == batch {
			select {
			case full <- b:
				b = nil
			case <-stop:
				return nil
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err // the rows read since the last full batch are never written
	}
	if b != nil && b.n > 0 {
		select {
		case full <- b:
		case <-stop:
		}
	}
	return nil
}

// readRows is readBatches on SQLite: the converted values of each row and, beside every text
// value, its folded copy, one row after the other in b.args.
// With a sink, each row also goes to it, its dates as time.Time (the stored text is SQLite's).
func (im *importer) readRows(rows workspace.Rows, t *pTable, width, batch int, free <-chan *loadBatch, full chan<- *loadBatch, stop <-chan struct{}, sink TableSink) error {
	var raw []any
	if sink != nil {
		raw = make([]any, width)
	}
	only := im.sinkOnly // the database takes no row: the batches only count them
	return readBatches(rows, batch, free, full, stop, func(b *loadBatch) error {
		args := b.args[b.n*width : (b.n+1)*width]
		j := 0
		for i, v := range rows.Values() {
			c := t.dataCols()[i]
			if raw != nil {
				raw[j] = v
			}
			switch tm, ok := v.(time.Time); {
			case only:
			case ok:
				args[j] = storedTime(c.c.Type, tm, rows.Text(i))
			default:
				args[j] = v
			}
			j++
			if c.foldName != "" {
				var f any
				if s, ok := v.(string); ok {
					fs := fold.Fold(s)
					f = fs
					c.maxLen = max(c.maxLen, len(s), len(fs))
					c.countText(s)
				}
				if !only {
					args[j] = f
				}
				if raw != nil {
					raw[j] = f
				}
				j++
			}
		}
		for _, p := range t.pre {
			p.add(args)
		}
		if sink != nil {
			sink.Add(raw)
		}
		return nil
	})
}

// sinkColumns are t's data columns as a DataSink takes them, a folded copy after its column.
func sinkColumns(t *pTable) []SinkColumn {
	var cols []SinkColumn
	for _, c := range t.dataCols() {
		cols = append(cols, SinkColumn{Name: c.sqlName, Type: c.c.Type})
		if c.foldName != "" {
			cols = append(cols, SinkColumn{Name: c.foldName, Type: semantic.TypeString, Fold: true})
		}
	}
	return cols
}

// sinkTable is the sink's TableSink for t, nil when there is no sink or it leaves t out (the
// columnar store's sync copies it later); an error when the rows have nowhere else to go.
func (im *importer) sinkTable(ctx context.Context, t *pTable) (TableSink, error) {
	if im.sink == nil {
		return nil, nil
	}
	sink, err := im.sink.Table(ctx, t.sqlName, sinkColumns(t))
	switch {
	case !im.sinkOnly && err != nil:
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("writing %s into the DuckDB file: %w", t.sqlName, err)
	case im.sinkOnly && sink == nil:
		return nil, fmt.Errorf("the DuckDB file leaves out %s, which the database does not keep", t.sqlName)
	}
	return sink, nil
}

// sinkEmpty gives the sink t, a table with no data file, empty, so that a copy reads it from
// the import's file as it reads the others.
func (im *importer) sinkEmpty(ctx context.Context, t *pTable) error {
	sink, err := im.sinkTable(ctx, t)
	if sink != nil {
		sink.Done(nil)
	}
	return err
}

// readCopyRows is readBatches on PostgreSQL: each row goes into the batch as a line of COPY
// text, values (and, beside every text, its folded copy) separated by tabs, NULL as \N.
// With a sink, each row also goes to it as readRows sends it.
func (im *importer) readCopyRows(rows workspace.Rows, t *pTable, batch int, free <-chan *loadBatch, full chan<- *loadBatch, stop <-chan struct{}, sink TableSink) error {
	cols := t.dataCols()
	folds := make([]foldCache, len(cols))
	var raw []any
	if sink != nil {
		raw = make([]any, 0, len(cols)*2)
	}
	return readBatches(rows, batch, free, full, stop, func(b *loadBatch) error {
		buf := b.text
		if b.n > 0 {
			buf = append(buf, '\n')
		}
		raw = raw[:0]
		for i, v := range rows.Values() {
			c := cols[i]
			if sink != nil {
				raw = append(raw, v)
			}
			if i > 0 {
				buf = append(buf, '\t')
			}
			switch v := v.(type) {
			case nil:
				buf = append(buf, `\N`...)
			case string:
				buf = appendCopyText(buf, v)
			case time.Time:
				buf = appendCopyText(buf, storedTime(c.c.Type, v, rows.Text(i)))
			case float64:
				if v == 0 {
					buf = append(buf, '0') // -0 is 0, as SQLite keeps it and the copy holds it
				} else if text := rows.Text(i); len(text) <= maxCopiedNumber {
					// PostgreSQL reads the text to the same double (both round correctly);
					// formatting the float again cost more than reading it.
					buf = appendCopyText(buf, text)
				} else {
					buf = strconv.AppendFloat(buf, v, 'f', -1, 64)
				}
			default:
				return fmt.Errorf("loading %s line %d: unexpected value %T", t.source(), rows.Line(), v)
			}
			if c.foldName != "" {
				buf = append(buf, '\t')
				if s, ok := v.(string); ok {
					f := folds[i].fold(s)
					buf = appendCopyText(buf, f)
					c.maxLen = max(c.maxLen, len(s), len(f))
					c.countText(s)
					if sink != nil {
						raw = append(raw, f)
					}
				} else {
					buf = append(buf, `\N`...)
					if sink != nil {
						raw = append(raw, nil)
					}
				}
			}
		}
		b.text = buf
		if sink != nil {
			sink.Add(raw)
		}
		return nil
	})
}

// foldCache remembers the folded copies of a column's first values: most text columns repeat
// few values, and folding one that is not already lower-case allocates.
type foldCache map[string]string

// foldCacheSize bounds a foldCache; past it, values are folded every time.
const foldCacheSize = 4096

func (c *foldCache) fold(s string) string {
	if f, ok := (*c)[s]; ok {
		return f
	}
	f := fold.Fold(s)
	if *c == nil {
		*c = foldCache{}
	}
	if len(*c) < foldCacheSize {
		(*c)[strings.Clone(s)] = f
	}
	return f
}

// appendCopyText appends s as a value of COPY's text format: backslash, newline, carriage
// return and tab escaped, the rest as it is.
func appendCopyText(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '\n', '\r', '\t':
			buf = append(buf, s[:i]...)
			for ; i < len(s); i++ {
				switch c := s[i]; c {
				case '\\':
					buf = append(buf, '\\', '\\')
				case '\n':
					buf = append(buf, '\\', 'n')
				case '\r':
					buf = append(buf, '\\', 'r')
				case '\t':
					buf = append(buf, '\\', 't')
				default:
					buf = append(buf, c)
				}
			}
			return buf
		}
	}
	return append(buf, s...)
}

// maxCopiedNumber is the longest number COPY gets as written: at most 20 characters can
// neither overflow nor underflow a double (longer ones go as the parsed float64).
const maxCopiedNumber = 20

// storedTime is the stored text of a date or datetime value: the file's own text when it is
// already in the stored form (the common case; validated when read), which spares formatting.
func storedTime(colType string, v time.Time, text string) string {
	if colType == semantic.TypeDate {
		if len(text) == len(dateLayout) {
			return text
		}
		return v.Format(dateLayout)
	}
	switch len(text) {
	case len(datetimeLayout):
		return text
	case len("2006-01-02 15:04"):
		return text + ":00"
	}
	return v.Format(datetimeLayout)
}

// indexMaxLen is the longest text (in bytes) a column may hold and still get a btree index: an
// index entry holds the folded and the original text, and PostgreSQL refuses entries over about
// 2.7 kB. Longer texts (descriptions, notes) are read by a full scan instead.
const indexMaxLen = 1000

// indexTable creates the indexes search_values reads a loaded table through:
//
//   - every text column: a btree on (folded copy, value), which lists distinct values in order and
//     counts them by walking the index only, and is scanned instead of the table when matching
//     words in the folded copy; on PostgreSQL with the pg_trgm extension installed, also a trigram
//     GIN index on the folded copy, which finds LIKE '%word%' without reading every entry;
//
//   - every date column: a btree on the value, for distinct dates in order.
//
//   - every key a relationship joins on, on either side (a composite key as one index), so joins
//     read the other table by index instead of SQLite building an automatic index per query.
//
// The table is analysed afterwards, so the planner knows its size and spread right away.
func (im *importer) indexTable(ctx context.Context, t *pTable, trgmSchema string) error {
	if im.sinkOnly { // no data table here; free text still decides what search_values reads
		for _, c := range t.dataCols() {
			c.freeText = c.isFreeText()
		}
		return nil
	}
	d := im.db.dialect
	var ddl []string
	for _, cols := range im.keys[t] {
		ddl = append(ddl, keyIndex(d, t.sqlName, cols))
	}
	for _, c := range t.dataCols() {
		ic := indexColumn{sqlName: c.sqlName, foldName: c.foldName, colType: c.c.Type}
		c.freeText = c.isFreeText()
		if q := btreeIndex(d, t.sqlName, ic); q != "" && (c.foldName == "" || c.maxLen <= indexMaxLen) && !c.freeText {
			ddl = append(ddl, q)
		}
		if q := trgmIndex(d, t.sqlName, ic, trgmSchema); q != "" {
			ddl = append(ddl, q)
		}
	}
	ddl = append(ddl, analyze(d, t.sqlName)...)
	for _, q := range ddl {
		if _, err := im.tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("indexing data table %s: %w", t.sqlName, err)
		}
	}
	return nil
}

// Free text: a text column of at least freeTextRows values, averaging freeTextBytes or more, with
// nearly every value distinct (comments, descriptions, free-form notes). Its (folded, value)
// btree cost about as much to build as loading the whole table, on PostgreSQL and SQLite alike,
// and serves only ordered listings and exact-value checks nobody makes of such a column:
// search_values and filters still read it (by scan, or its trigram index). Key columns are never
// free text: a code is looked up by its exact value.
const (
	freeTextRows     = 10_000
	freeTextBytes    = 20
	freeTextDistinct = 0.9
)

// countText notes a text value loaded into c, for isFreeText.
func (c *pColumn) countText(s string) {
	if c.distinct == nil {
		c.distinct = newDistinctSketch()
	}
	c.texts++
	c.textBytes += int64(len(s))
	c.distinct.add(s)
}

func (c *pColumn) isFreeText() bool {
	return c.c.Role != semantic.RoleKey && c.texts >= freeTextRows &&
		c.textBytes >= freeTextBytes*c.texts && c.distinctEstimate() >= freeTextDistinct*float64(c.texts)
}

func (c *pColumn) distinctEstimate() float64 {
	if c.distinct == nil {
		return c.distinctLoaded
	}
	return c.distinct.estimate()
}

// indexColumn is what the index DDL needs of a data column.
type indexColumn struct {
	sqlName  string // c<id>_<name>
	foldName string // "" unless a text column
	colType  string // semantic type
}

// indexName is the name of a column's index: the column's SQL name with prefix ("i" btree,
// "g" trigram) in place of its "c", so a reopened database finds the names import gave.
func indexName(prefix, colSQLName string) string {
	return prefix + strings.TrimPrefix(colSQLName, "c")
}

// keyIndexName is the name of the index on a relationship key: "k" and the ids of its columns
// (c<id>_<name>), in key order, so a reopened database finds the names import gave.
func keyIndexName(cols []string) string {
	ids := make([]string, len(cols))
	for i, c := range cols {
		id, _, _ := strings.Cut(strings.TrimPrefix(c, "c"), "_")
		ids[i] = id
	}
	name := "k" + strings.Join(ids, "_")
	if len(name) > 63 {
		name = name[:63]
	}
	return name
}

// keyIndex is the DDL of the index on a relationship key of table (its columns' SQL names).
func keyIndex(d sqldialect.Dialect, table string, cols []string) string {
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = d.QuoteIdent(c)
	}
	return "CREATE INDEX IF NOT EXISTS " + d.QuoteIdent(keyIndexName(cols)) + " ON " + d.QuoteIdent(table) +
		" (" + strings.Join(quoted, ", ") + ")"
}

// btreeIndex is the DDL of c's btree index, "" for a column that gets none (numbers).
func btreeIndex(d sqldialect.Dialect, table string, c indexColumn) string {
	on := "CREATE INDEX IF NOT EXISTS " + d.QuoteIdent(indexName("i", c.sqlName)) + " ON " + d.QuoteIdent(table)
	switch {
	case c.foldName != "":
		return on + " (" + d.QuoteIdent(c.foldName) + sqldialect.NullsFirst(d) + ", " + d.QuoteIdent(c.sqlName) + ")"
	case c.colType == semantic.TypeDate || c.colType == semantic.TypeDatetime:
		return on + " (" + d.QuoteIdent(c.sqlName) + sqldialect.NullsFirst(d) + ")"
	}
	return ""
}

// trgmIndex is the DDL of c's trigram index, "" without pg_trgm or for a non-text column.
func trgmIndex(d sqldialect.Dialect, table string, c indexColumn, trgmSchema string) string {
	if c.foldName == "" || trgmSchema == "" {
		return ""
	}
	return "CREATE INDEX IF NOT EXISTS " + d.QuoteIdent(indexName("g", c.sqlName)) + " ON " + d.QuoteIdent(table) +
		" USING gin (" + d.QuoteIdent(c.foldName) + " " + d.QuoteIdent(trgmSchema) + ".gin_trgm_ops)"
}

// analyze refreshes a table's statistics, which let the planners pick these indexes; on SQLite
// they also enable skipping ahead to the next distinct key of an index (a sample of 1000 rows per
// index is enough).
func analyze(d sqldialect.Dialect, table string) []string {
	if d.Name() == sqldialect.PostgresName {
		return []string{"ANALYZE " + d.QuoteIdent(table)}
	}
	return []string{"PRAGMA analysis_limit = 1000", "ANALYZE " + d.QuoteIdent(table)}
}

// trgmSchema is the schema of the pg_trgm extension when it is installed in the database, "" when
// it is not (or on SQLite). lumo never installs it: an administrator may, to speed up searches.
func (im *importer) trgmSchema(ctx context.Context) (string, error) {
	return trgmSchema(ctx, im.db.dialect, im.tx)
}

// rowQuerier is a *sql.DB or a *sql.Tx.
type rowQuerier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func trgmSchema(ctx context.Context, d sqldialect.Dialect, q rowQuerier) (string, error) {
	if d.Name() != sqldialect.PostgresName {
		return "", nil
	}
	var schema string
	err := q.QueryRowContext(ctx, `SELECT n.nspname FROM pg_extension e
		JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`).Scan(&schema)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("looking for pg_trgm: %w", err)
	}
	return schema, nil
}

// openRows opens t's rows: its file, or the SELECT of its database, bounded by ctx.
func (im *importer) openRows(ctx context.Context, t *pTable) (workspace.Rows, error) {
	if t.pg != nil {
		return pgsource.Open(ctx, t.pg, t.t)
	}
	return workspace.OpenRows(im.fsys, t.file, t.t, t.format)
}
