package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// Rows streams the data rows of one table's file, converting each value to its column's type:
// a CSV (csvRows), an XLSX sheet or named range (xlsxRows), or a Parquet file or folder of part
// files (parquetRows). The store imports every format through this one iterator.
type Rows interface {
	// Columns are the table's columns; Values follow this order.
	Columns() []*semantic.Column
	// Next reads the next row, skipping blank ones. It returns false at the end or at the
	// first error (Err).
	Next() bool
	// Values is the current row in Columns order: nil for NULL, string for text, float64 for
	// numbers, time.Time (UTC, no zone meant) for dates and datetimes. The slice is reused by
	// Next.
	Values() []any
	// Text is the current row's value of Columns()[i] as the original CSV format writes it: a
	// number as -?digits(.digits)?, a date as YYYY-MM-DD, a date-time as YYYY-MM-DD HH:MM[:SS],
	// a text in UTF-8 (meaningless where Values holds nil). It lasts until the next Next.
	Text(i int) string
	// Line is where the current row is: the file line of a CSV, the sheet row of an XLSX, the
	// row (from 1, counting every part file) of a Parquet table.
	Line() int
	// Count is how many rows were read so far.
	Count() int64
	// Scales are, per column, the most decimals seen in a number so far.
	Scales() []int
	// Units are, per column, the unit its values showed so far ("BRL", "USD", "percent"; ""
	// for none): a column without unit in app.yaml gets this one.
	Units() []string
	// Description is the line an import prints for the file, in Portuguese (`vendas.csv:
	// separador ";", ...`, `vendas.xlsx: planilha "Vendas", 1.234 linhas`). Read after the last
	// row, it includes what the rows settled.
	Description() string
	// Err is the first error met, an *Error naming file and position; nil at a clean end.
	Err() error
	// Close releases the file.
	Close() error
}

// XLSXFormat is which part of a workbook holds a table, as app.yaml declares it
// (tables[].xlsx): a sheet (the first one when empty) or a range, either a defined name or
// Sheet!A1:F100 (A1:F100 in Sheet, or the first sheet). The range's first row is the header.
type XLSXFormat struct {
	Sheet string `json:"sheet"`
	Range string `json:"range"`
}

// File kinds, from a table's file name.
const (
	KindCSV     = "csv"
	KindXLSX    = "xlsx"
	KindParquet = "parquet"
)

// FileKind is how a table's file is read: an .xlsx is a workbook, a .parquet or a folder (of
// part files) Parquet, anything else CSV. dir says whether the name is a folder.
func FileKind(name string, dir bool) string {
	switch ext := strings.ToLower(path.Ext(name)); {
	case dir, ext == ".parquet":
		return KindParquet
	case ext == ".xlsx":
		return KindXLSX
	}
	return KindCSV
}

// Limits on what one value and one row may hold: a file past them is refused naming where, so
// a hostile file cannot make the import hold more than a few of them in memory.
const (
	// MaxValueBytes is the longest text one XLSX cell or Parquet value may hold.
	MaxValueBytes = 1 << 20
	// maxSheetColumns is the widest sheet Excel writes (column XFD).
	maxSheetColumns = 16384
)

// OpenRows opens a table's file and checks it against t: for a CSV (see openCSV) its header and
// format, for an XLSX (see openXLSX) the sheet or range and its header row, for Parquet (see
// openParquet) the schema of every part file. decl is what app.yaml declares for the file.
// Problems come back as Errors (file, position, column).
func OpenRows(fsys fs.FS, file string, t *semantic.Table, decl Format) (Rows, error) {
	t = DataTable(t)
	st, err := fs.Stat(fsys, file)
	if err != nil {
		msg := "o arquivo não pôde ser aberto: " + err.Error()
		if errors.Is(err, fs.ErrNotExist) {
			msg = "o arquivo não existe"
		}
		return nil, &Error{File: file, Message: msg}
	}
	switch FileKind(file, st.IsDir()) {
	case KindXLSX:
		return openXLSX(fsys, file, t, decl.XLSX)
	case KindParquet:
		return openParquet(fsys, file, t, st.IsDir())
	}
	r, err := openCSV(fsys, file, t, decl)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// DataTable is t with its data columns only: calculated columns are not in the file, nor in
// any other source.
func DataTable(t *semantic.Table) *semantic.Table {
	calc := false
	for _, c := range t.Columns {
		calc = calc || c.Calculated()
	}
	if !calc {
		return t
	}
	v := *t
	v.Columns = nil
	for _, c := range t.Columns {
		if !c.Calculated() {
			v.Columns = append(v.Columns, c)
		}
	}
	return &v
}

// readerAt is f as an io.ReaderAt with its size: the zip and Parquet readers seek in the file.
func readerAt(file string, f fs.File) (io.ReaderAt, int64, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, 0, &Error{File: file, Message: "o arquivo não pôde ser lido: " + err.Error()}
	}
	ra, ok := f.(io.ReaderAt)
	if !ok {
		return nil, 0, &Error{File: file, Message: fmt.Sprintf("o arquivo não pôde ser lido: %T não permite leitura por posição", f)}
	}
	return ra, st.Size(), nil
}
