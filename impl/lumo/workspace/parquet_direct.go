package workspace

import (
	"io/fs"
	"strings"

	"github.com/parquet-go/parquet-go/format"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// A Parquet table whose every column DuckDB's own reader (read_parquet) reads as parquetRows
// converts it (with lumo's fold and wall clock as functions where DuckDB has none of its own)
// can be loaded by DuckDB straight from its files, on every core, instead of value by value
// through Go. DirectParquet says how, or that the table needs the Go reader: a column of a type
// whose conversion is lumo's own (unsigned integers, 32-bit floats, DECIMALs on bytes,
// nanoseconds, INT96, booleans, instants on a date column), a value written as the text of
// another type, or a folder partitioned by its names.

// Kinds of a DirectColumn.
const (
	DirectText     = "text"     // a UTF-8 string, as it is
	DirectNumber   = "number"   // a signed integer or a DECIMAL on INT32/INT64, exactly; in a CSV, a number's plain text
	DirectFloat    = "float"    // a DOUBLE, whose decimals are its shortest text's
	DirectDate     = "date"     // a DATE
	DirectDatetime = "datetime" // a TIMESTAMP without zone in milli- or microseconds, to the second
	DirectInstant  = "instant"  // a TIMESTAMP adjusted to UTC, the same: Brasília's wall clock (WallClock)
)

// DirectParquet is a Parquet table as DuckDB reads it: its part files in order and, per column
// of the table (Rows' order), the Parquet column and how it converts.
type DirectParquet struct {
	Files   []string // paths on the operating system, for read_parquet
	Columns []DirectColumn
	rows    *parquetRows
}

// DirectColumn is one column of a DirectParquet or a DirectCSV.
type DirectColumn struct {
	Source string // the Parquet column's name; the CSV column's, for messages
	Kind   string // Direct*
	Scale  int    // decimals of a DirectNumber (a DirectFloat's are known once read)

	// Of a CSV column, known once lumo's reader has read the file: the field of the record it
	// is, its numbers' largest magnitude, whether its texts are all ASCII, whether every rune
	// past ASCII in them is one fold.Latin maps by itself, and whether any has white space that
	// folding collapses or trims.
	Field                int
	MaxAbs               float64
	ASCII, Latin, Spaced bool
}

// Describe is the import's line for the table once count rows are loaded, as Description.
func (d *DirectParquet) Describe(count int64) string { return d.rows.describe(count) }

// An OSFS is a file system whose files are files of the operating system (DirFS).
type OSFS interface {
	fs.FS
	// OSPath is the path on the operating system of the file name opens.
	OSPath(name string) (string, error)
}

// Direct is how DuckDB reads rows (opened by OpenRows from fsys) exactly as they would be read,
// or false when rows are not a Parquet table that DuckDB reads exactly.
func Direct(rows Rows, fsys fs.FS) (*DirectParquet, bool) {
	r, ok := rows.(*parquetRows)
	osfs, isOS := fsys.(OSFS)
	if !ok || !isOS || r.hive != nil || r.part != -1 || r.count != 0 {
		return nil, false
	}
	d := &DirectParquet{rows: r}
	for i, c := range r.cols {
		col, ok := directColumn(c, r.types[i])
		if !ok {
			return nil, false
		}
		d.Columns = append(d.Columns, col)
	}
	for _, p := range r.parts {
		path, err := osfs.OSPath(p)
		if err != nil || strings.ContainsAny(path, "*?[{") { // read_parquet would glob it
			return nil, false
		}
		d.Files = append(d.Files, path)
	}
	if !r.scanAll() {
		return nil, false
	}
	return d, true
}

// scanAll checks every row group of every part as reading it would before DuckDB reads any
// (page sizes and counts, the memory a group holds, compressed pages that expand past what
// they declare: see scanPages), and leaves r as opened: a problem is then met again, and
// named, by the rows.
func (r *parquetRows) scanAll() bool {
	defer func() {
		r.closePart()
		r.part, r.group, r.partLine, r.err = -1, 0, 0, nil
	}()
	for i := range r.parts {
		if r.openPart(i) != nil {
			return false
		}
		for g := range r.pf.RowGroups() {
			if !r.scanGroup(g, false) {
				return false
			}
		}
	}
	return true
}

// directColumn is how DuckDB reads column c of Parquet type ty as parquetRows converts it.
func directColumn(c *semantic.Column, ty pqType) (DirectColumn, bool) {
	col := DirectColumn{Source: c.SourceName()}
	intPhys := ty.phys == format.Int32 || ty.phys == format.Int64
	switch {
	case c.Type == semantic.TypeString && ty.kind == pqString && ty.utf8:
		col.Kind = DirectText
	case c.Type == semantic.TypeNumber && ty.kind == pqInt && intPhys:
		col.Kind = DirectNumber
	case c.Type == semantic.TypeNumber && ty.kind == pqDecimal && intPhys:
		col.Kind, col.Scale = DirectNumber, ty.scale
	case c.Type == semantic.TypeNumber && ty.kind == pqDouble:
		col.Kind = DirectFloat
	case c.Type == semantic.TypeDate && ty.kind == pqDate:
		col.Kind = DirectDate
	case c.Type == semantic.TypeDatetime && ty.kind == pqTimestamp && (ty.perSec == 1e3 || ty.perSec == 1e6):
		col.Kind = DirectDatetime
		if ty.utc {
			col.Kind = DirectInstant
		}
	default:
		return col, false
	}
	return col, true
}
