package workspace

import (
	"io/fs"
	"math"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// A CSV table can be loaded by DuckDB's own reader (read_csv), which reads, casts and compresses
// on every core, once lumo's reader has read the whole file and found every value written so
// that DuckDB reads it as lumo does: lumo's reader stays the judge of the file (its format, its
// errors with file, line and column, its scales), and DuckDB only loads what it accepted. So a
// file qualifies when it is UTF-8 with ISO dates and every number is written as its plain text
// (no thousands, units, percent or decimal comma), and nothing in it is one of the reader's own
// rules: no total rows, notes or blank records left out, no line break inside a value.

// DirectCSV is a CSV table as DuckDB reads it: its file and, per column of the table (Rows'
// order), the field it comes from and how it converts.
type DirectCSV struct {
	File      string // the path on the operating system, for read_csv
	Delimiter byte
	Width     int // fields per record
	Columns   []DirectColumn
	Scales    []int // per column, its numbers' decimals (as Rows.Scales)
	Count     int64 // data rows
	rows      *csvRows
}

// Describe is the import's line for the table (Rows.Description).
func (d *DirectCSV) Describe() string { return d.rows.Description() }

// ReadDirectCSV reads rows (a table just opened from fsys) to the end with lumo's reader when
// they are a CSV file DuckDB may read, calling each after every row, and says how DuckDB reads
// the same file exactly; nil when it does not. read says the rows were read (spent: the table
// must be opened again to be read otherwise); a problem in the file is the reader's error.
func ReadDirectCSV(rows Rows, fsys fs.FS, each func()) (d *DirectCSV, read bool, err error) {
	r, ok := rows.(*csvRows)
	osfs, isOS := fsys.(OSFS)
	if !ok || !isOS || r.count != 0 || r.format.decode != nil {
		return nil, false, nil
	}
	path, err := osfs.OSPath(r.file)
	if err != nil || strings.ContainsAny(path, "*?[{") { // read_csv would glob it
		return nil, false, nil
	}
	d = &DirectCSV{File: path, Delimiter: r.format.delim, Width: r.width, rows: r}
	for i, c := range r.cols {
		col := DirectColumn{Source: c.SourceName(), Field: r.pos[i], ASCII: true}
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
			return nil, false, nil
		}
		d.Columns = append(d.Columns, col)
	}
	if !d.exact() {
		return nil, false, nil // the sample settled a format DuckDB does not read as lumo does
	}
	r.plain = make([]bool, len(r.cols))
	for i := range r.plain {
		r.plain[i] = true
	}
	for r.Next() {
		each()
		if !d.scanRow() {
			return nil, true, nil // the rest of the file is lumo's reader's
		}
	}
	if err := r.Err(); err != nil {
		return nil, true, err
	}
	if !d.exact() { // a total row or a line of separators at the end
		return nil, true, nil
	}
	for i := range d.Columns {
		d.Columns[i].Scale = r.scales[i]
	}
	d.Scales, d.Count = r.scales, r.count
	return d, true, nil
}

// exact says whether DuckDB still reads the rows read so far as lumo's reader did: a decimal
// point, ISO dates, numbers as written, no row left out.
func (d *DirectCSV) exact() bool {
	r := d.rows
	if r.format.decimal == ',' || (r.format.dates != "" && r.format.dates != DatesISO) || len(r.skipped) > 0 || r.blanks > 0 {
		return false
	}
	for _, p := range r.plain {
		if !p {
			return false
		}
	}
	return true
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
		case b == '\t' || b == '\v' || b == '\f':
			c.Spaced = true
		case b == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' '):
			c.Spaced = true
		}
	}
	return true
}
