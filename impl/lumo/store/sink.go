package store

import (
	"context"
	"database/sql"

	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
)

// A DataSink takes the rows of the data tables an import loads, as the import reads them, so
// that the columnar store holds them without copying them back out of the database afterwards.
// Unless ImportOptions.SinkOnly, it is an optimisation: a table the sink leaves out, or fails, is
// copied by the columnar store's next sync, as before. With SinkOnly the sink is where the rows
// live: the database keeps none, and anything the sink leaves out or fails fails the import. The
// import calls Table for each data table it loads (on the goroutine that reads the file), then
// Commit just before the catalogue commits; or Abort when the import fails.
type DataSink interface {
	// Table starts taking table name, whose columns are cols (in load order, a text column's
	// folded copy right after it). nil, nil: the sink leaves it out.
	Table(ctx context.Context, name string, cols []SinkColumn) (TableSink, error)
	// Rollup builds rollup name from tables the sink took (reads), as query (DuckDB SQL over
	// them by their names) selects it, once they are written, and returns how many rows it
	// holds. With maxRows > 0, a rollup of more rows is dropped again (rows > maxRows says so).
	// A rollup reading a table the sink left out is left out too (0, nil); one whose build fails
	// returns the error, and Commit reports it.
	Rollup(ctx context.Context, name string, reads []string, query string, maxRows int64) (int64, error)
	// Reader waits until tables (taken by the sink) are written and returns the file that holds
	// them, for the import's checks over their rows (DuckDB SQL). The import does not close it.
	Reader(ctx context.Context, tables ...string) (*sql.DB, error)
	// Commit finishes the tables taken, stamped with the import (loadID) and the database
	// (identity), before the import's transaction commits: they are complete by the time any
	// reader sees the catalogue name loadID. It reports how many tables (data and rollups) it
	// holds, and those it could not take; the import stands regardless, unless SinkOnly.
	Commit(ctx context.Context, loadID int64, identity string) (taken int, err error)
	// Abort drops what the sink took, also after Commit when the import's transaction fails.
	Abort()
}

// SinkColumn is a column of a table a DataSink takes: its SQL name and semantic type, or a text
// column's folded copy (Fold, a string).
type SinkColumn struct {
	Name, Type string
	Fold       bool
}

// A TableSink takes one table's rows.
type TableSink interface {
	// Add takes a row: cols' values in order, as workspace.Rows gives them (string, float64,
	// time.Time or nil), plus the folded copies. Add copies what it keeps.
	Add(row []any)
	// Done says the table is read whole; scales are the decimals of its data columns (as
	// workspace.Rows.Scales, without the folded copies).
	Done(scales []int)
	// Abort drops the table.
	Abort()
}

// A DirectSink also loads a Parquet or CSV table straight from its files with DuckDB's own
// reader, which reads and compresses on every core where rows given to Add are appended on one.
// The import asks it only when the database keeps no app row (SinkOnly).
type DirectSink interface {
	DataSink
	// ReadParquet loads table name, whose columns are cols (as Table takes them), from src.
	// On an error nothing of the table is left: the import then reads it through Table.
	ReadParquet(ctx context.Context, name string, cols []SinkColumn, src *workspace.DirectParquet) (*DirectLoad, error)
	// ReadCSV is ReadParquet for a CSV file that lumo's reader is still reading: src is what
	// its first rows show. whole waits for the reader's end and gives the whole file's, false
	// when DuckDB may not load it; the load commits only when it read the whole file's rows as
	// the whole file shows them.
	ReadCSV(ctx context.Context, name string, cols []SinkColumn, src *workspace.DirectCSV, whole func() (*workspace.DirectCSV, bool)) (*DirectLoad, error)
}

// DirectLoad is what a DirectSink learnt of a table's rows while loading them.
type DirectLoad struct {
	Rows   int64
	Scales []int       // per data column (src.Columns' order), the decimals of numbers
	Texts  []TextStats // per data column; zero but for texts
}

// TextStats describe a text column's values: how many are not NULL, their bytes, an estimate
// of how many differ, and the longest value or folded value in bytes.
type TextStats struct {
	Count, Bytes int64
	Distinct     float64
	MaxLen       int
}
