package workspace

import (
	"io/fs"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// A CSV table can be loaded by DuckDB's own reader (read_csv), which reads, casts and compresses
// on every core, when lumo's reader, reading the whole file beside it, finds every value written
// so that DuckDB reads it as lumo does: lumo's reader stays the judge of the file (its format,
// its errors with file, line and column, its scales), and DuckDB's load commits only what it
// accepted. So a file qualifies when it is UTF-8 with ISO dates and every number is written as
// its plain text (no thousands, units, percent or decimal comma), and nothing in it is one of the
// reader's own rules: no total rows, notes or blank records left out, no line break inside a
// value.

// DirectCSV is a CSV table as DuckDB reads it: its file and, per column of the table (Rows'
// order), the field it comes from and how it converts.
type DirectCSV struct {
	File      string // the path on the operating system, for read_csv
	Delimiter byte
	Width     int // fields per record
	Columns   []DirectColumn
	Count     int64 // data rows
	rows      *csvRows
}

// Describe is the import's line for the table (Rows.Description).
func (d *DirectCSV) Describe() string { return d.rows.Description() }

// OpenDirectCSV says how DuckDB may read rows (a table just opened from fsys): false when they
// are not a CSV file on the operating system, UTF-8, whose sample shows a decimal point and ISO
// dates. Read then reads the file with lumo's reader.
func OpenDirectCSV(rows Rows, fsys fs.FS) (*DirectCSV, bool) {
	r, ok := rows.(*csvRows)
	osfs, isOS := fsys.(OSFS)
	if !ok || !isOS || r.count != 0 || r.format.decode != nil {
		return nil, false
	}
	path, err := osfs.OSPath(r.file)
	if err != nil || strings.ContainsAny(path, "*?[{") { // read_csv would glob it
		return nil, false
	}
	d := &DirectCSV{File: path, Delimiter: r.format.delim, Width: r.width, rows: r}
	for i, c := range r.cols {
		col := DirectColumn{Source: c.SourceName(), Field: r.pos[i], ASCII: true, Latin: true}
		switch c.Type {
		case semantic.TypeString:
			col.Kind = DirectText
		case semantic.TypeNumber:
			col.Kind = DirectNumber
		case semantic.TypeDate:
			col.Kind = DirectDate
		case semantic.TypeDatetime:
			col.Kind = DirectDatetime
		default:
			return nil, false
		}
		d.Columns = append(d.Columns, col)
	}
	if !d.exact() {
		return nil, false // the sample settled a format DuckDB does not read as lumo does
	}
	return d, true
}

// Read reads up to n more rows of d's file with lumo's reader (n < 0: to the end), calling each
// after every row (false stops the read), and keeps what DuckDB needs to read the same rows
// exactly (Columns, Scales, Count). exact is false as soon as a row shows that DuckDB would read
// the file otherwise (or each stopped it): the rest is then lumo's reader's, from the start. A
// problem in the file is the reader's error.
func (d *DirectCSV) Read(n int, each func() bool) (exact bool, err error) {
	r := d.rows
	for ; n != 0 && r.Next(); n-- {
		if !each() || !d.scanRow() {
			return false, nil
		}
		d.Count = r.count
	}
	if err := r.Err(); err != nil {
		return false, err
	}
	for i := range d.Columns {
		d.Columns[i].Scale = r.scales[i]
	}
	return d.exact(), nil // a total row or a line of separators last
}

// Snapshot is d as read so far, for a load that starts before the rest is read.
func (d *DirectCSV) Snapshot() *DirectCSV {
	s := *d
	s.Columns = slices.Clone(d.Columns)
	return &s
}

// Scales are, per column, its numbers' decimals (as Rows.Scales).
func (d *DirectCSV) Scales() []int {
	scales := make([]int, len(d.Columns))
	for i, c := range d.Columns {
		scales[i] = c.Scale
	}
	return scales
}

// exact says whether DuckDB still reads the rows read so far as lumo's reader did: a decimal
// point, ISO dates, numbers as written, no row left out.
func (d *DirectCSV) exact() bool {
	r := d.rows
	return r.format.decimal != ',' && (r.format.dates == "" || r.format.dates == DatesISO) && len(r.skipped) == 0 && r.blanks == 0 && !r.dressed
}

// scanRow notes what the current row says of its columns, and whether DuckDB reads it exactly.
func (d *DirectCSV) scanRow() bool {
	for i, v := range d.rows.vals {
		col := &d.Columns[i]
		switch v := v.(type) {
		case string:
			if !col.scanText(v) {
				return false
			}
		case float64:
			col.MaxAbs = max(col.MaxAbs, math.Abs(v))
		case time.Time:
			if v.Year() < 1 { // DuckDB counts the years before 1 as lumo does not
				return false
			}
		}
	}
	return d.exact()
}

// scanText notes what text s says of its column's folded copy; false for a text with a line
// break, which lumo's reader and DuckDB's may read differently (encoding/csv drops the \r of
// a \r\n inside quotes).
func (c *DirectColumn) scanText(s string) bool {
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b == '\n' || b == '\r':
			return false
		case b >= 0x80:
			c.ASCII = false
			r, size := utf8.DecodeRuneInString(s[i:])
			c.Latin = c.Latin && fold.Latin(r)
			i += size - 1
		case b == '\t' || b == '\v' || b == '\f':
			c.Spaced = true
		case b == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' '):
			c.Spaced = true
		}
	}
	return true
}
