// Package columnar keeps a columnar copy of lumo's app data (data tables and rollups) in DuckDB,
// where the queries no rollup answers run many times faster than on the row store. The copy is
// derived: the catalogue, the state and the data of record stay in SQLite or PostgreSQL, and the
// copy is rebuilt from them table by table, or reads the tables from the file each import
// writes beside it (loads.go). Each copied table is stamped with the LoadID of the
// app it was copied for; a query reads the copy only when every table and rollup its app uses
// carries the app's current LoadID, so a copy never answers for another import than the one the
// query's model comes from. Building DuckDB needs cgo: without it Open says ErrUnavailable and
// every query reads the row store.
package columnar

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
)

// Defaults keep DuckDB within lumo's memory targets under the 8-client load: its buffer pool is
// capped below the server's RSS budget, and two threads leave cores for the MCP transport.
const (
	DefaultMemoryLimit = "256MB"
	DefaultThreads     = 2
)

// Options say where the copy lives and how much DuckDB may use.
type Options struct {
	// Path is the DuckDB file; "" keeps the copy in memory. With Slots > 1, when another
	// process holds it the copy takes the next free of Slots files (SlotPath): several servers
	// of one database on a host each keep their own.
	Path        string
	Slots       int
	MemoryLimit string // DuckDB's memory_limit ("256MB", "1GB"); "" = DefaultMemoryLimit
	Threads     int    // DuckDB's threads; 0 = DefaultThreads
	// TempDir is where DuckDB spills what passes MemoryLimit: "" = Path + ".tmp" beside the
	// file (or DuckDB's own choice for an in-memory copy).
	TempDir string
	Log     *slog.Logger // nil = slog.Default()
}

// ErrUnavailable is Open's answer in a build without cgo.
var ErrUnavailable = errors.New("columnar store unavailable: this build of lumo has no cgo, so DuckDB is not linked; queries read the row store")

// ErrReplaced is Await's answer when a sync begun after the wait ended holding a later import of
// the app than the one asked for: the caller's model of the app is out of date.
var ErrReplaced = errors.New("the app was imported again while its question waited for the columnar copy")

// A MissingFileError is a Sync's answer when an app's rows are only in its import's file
// (semantic.App.RowsInFile) and that file, or a table of it, cannot be read: the database has no
// row to copy instead, and only importing again (or restoring the file) brings them back.
type MissingFileError struct {
	App   int64
	Table string
	Path  string
}

func (e *MissingFileError) Error() string {
	return fmt.Sprintf("app %d: table %s is in no readable import file (%s), and the database keeps none of its rows", e.App, e.Table, e.Path)
}

// Synced says what a Sync did.
type Synced struct {
	Copied   []string // physical names of the tables copied
	Rows     int64    // rows copied
	Attached []string // physical names of the tables now read from their import's file
	Dropped  int      // tables dropped because no app uses them any more
}

// LoadsDir is the folder beside the copy at base where lumo import writes each import's data
// tables and rollups, one DuckDB file a load: lumo.duckdb → lumo.loads.
func LoadsDir(base string) string { return strings.TrimSuffix(base, ".duckdb") + ".loads" }

// loadFile is the file of load loadID's tables in dir.
func loadFile(dir string, loadID int64) string {
	return filepath.Join(dir, "load-"+strconv.FormatInt(loadID, 10)+".duckdb")
}

// SlotPath is slot i (from 1) of the file base: lumo.duckdb, lumo-2.duckdb, ...
func SlotPath(base string, i int) string {
	if i == 1 {
		return base
	}
	return strings.TrimSuffix(base, ".duckdb") + "-" + strconv.Itoa(i) + ".duckdb"
}

// HeldByAnother says whether err is DuckDB refusing a file another process holds.
func HeldByAnother(err error) bool {
	return err != nil && strings.Contains(err.Error(), "Could not set lock")
}

// PathBeside is the DuckDB file kept beside a SQLite database file: lumo.db → lumo.duckdb.
func PathBeside(sqlitePath string) string {
	for _, ext := range []string{".db", ".sqlite", ".sqlite3"} {
		if base, ok := strings.CutSuffix(sqlitePath, ext); ok && base != "" {
			return base + ".duckdb"
		}
	}
	return sqlitePath + ".duckdb"
}
