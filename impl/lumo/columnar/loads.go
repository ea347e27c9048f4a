//go:build cgo

package columnar

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// Each import writes its data tables and rollups into a DuckDB file of its own, load-N.duckdb in LoadsDir,
// finished before the catalogue names load N (ImportSink). A copy reads them from there instead
// of copying them out of the database: it ATTACHes the file READ_ONLY (any number of processes
// may; DuckDB excludes others only while one writes, and no one writes a finished file) and
// gives each table a view under its own name, stamped with the load, so Holds and the queries do
// not change. A file is attached only when it says it was written for this database and this
// load (loadMeta): a file another database left under the same number is never read. The views
// live in the copy's file but their attachments end with the process: openFile drops them and
// the next Sync makes them again, at the cost of an ATTACH.

// loadMeta is, in a load file, the database and the load it was written for.
const loadMeta = "lumo_load"

// attachment is a load file attached to the copy: its catalogue alias and its tables.
type attachment struct {
	alias  string
	tables map[string]bool
}

// attach attaches load loadID's file, once; nil when the database identity wrote none for that
// load, or it cannot be read (its tables are then copied from the database, as before).
func (s *Store) attach(ctx context.Context, loadID int64, identity string) *attachment {
	s.mu.RLock()
	a := s.attached[loadID]
	s.mu.RUnlock()
	if a != nil || s.opts.Path == "" {
		return a
	}
	path := loadFile(LoadsDir(s.opts.Path), loadID)
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	a, err := s.attachFile(ctx, path, loadID, identity)
	if err != nil {
		s.log.Warn("columnar copy: an import's file cannot be read; its tables are copied from the database", "file", path, "err", err)
		return nil
	}
	s.mu.Lock()
	s.attached[loadID] = a
	s.mu.Unlock()
	return a
}

// attachFor is the attached file that holds j, a table of app, when there is one.
func (s *Store) attachFor(ctx context.Context, j job, app *semantic.App, identity string) *attachment {
	if a := s.attach(ctx, app.LoadID, identity); a != nil && a.tables[j.name] {
		return a
	}
	return nil
}

// attachFile attaches path as load loadID's file when it says it was written for identity's
// database at that load.
func (s *Store) attachFile(ctx context.Context, path string, loadID int64, identity string) (*attachment, error) {
	d := sqldialect.DuckDB{}
	a := &attachment{alias: "lumo_load_" + strconv.FormatInt(loadID, 10), tables: map[string]bool{}}
	alias := d.QuoteIdent(a.alias)
	for _, st := range []string{
		"DETACH DATABASE IF EXISTS " + alias,
		"ATTACH '" + strings.ReplaceAll(path, "'", "''") + "' AS " + alias + " (READ_ONLY)",
	} {
		if _, err := s.db.ExecContext(ctx, st); err != nil {
			return nil, err
		}
	}
	var database string
	var load int64
	err := s.db.QueryRowContext(ctx, "SELECT database_id, load_id FROM "+alias+".main."+loadMeta).Scan(&database, &load)
	if err == nil && (database != identity || load != loadID) {
		err = fmt.Errorf("written for database %s at load %d, not this one (%s, load %d)", database, load, identity, loadID)
	}
	if err == nil {
		err = s.listTables(ctx, a)
	}
	if err != nil {
		s.db.ExecContext(ctx, "DETACH DATABASE IF EXISTS "+alias)
		return nil, err
	}
	return a, nil
}

// listTables reads which tables a's file holds.
func (s *Store) listTables(ctx context.Context, a *attachment) error {
	tables, err := names(ctx, s.db, "SELECT table_name FROM duckdb_tables() WHERE database_name = ?", a.alias)
	for _, name := range tables {
		a.tables[name] = true
	}
	return err
}

// view makes name read a's table of that name, stamped loadID, replacing the copied table or
// view of that name in the same DuckDB transaction.
func (s *Store) view(ctx context.Context, name string, a *attachment, loadID int64) error {
	d := sqldialect.DuckDB{}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, st := range []string{
		s.dropStatement(name),
		"CREATE VIEW " + d.QuoteIdent(name) + " AS SELECT * FROM " + d.QuoteIdent(a.alias) + ".main." + d.QuoteIdent(name),
	} {
		if _, err := tx.ExecContext(ctx, st); err != nil {
			return fmt.Errorf("%s: %w", st, err)
		}
	}
	if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO "+loadsTable+" VALUES (?, ?)", name, loadID); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.mu.Lock()
	s.loads[name], s.views[name] = loadID, true
	s.mu.Unlock()
	return nil
}

// dropStatement drops name, a copied table or a view, if it exists (DuckDB refuses to drop one
// kind as the other).
func (s *Store) dropStatement(name string) string {
	s.mu.RLock()
	isView := s.views[name]
	s.mu.RUnlock()
	kind := "TABLE"
	if isView {
		kind = "VIEW"
	}
	return "DROP " + kind + " IF EXISTS " + sqldialect.DuckDB{}.QuoteIdent(name)
}

// unview forgets that name was a view, once the transaction that dropped it committed.
func (s *Store) unview(name string) {
	s.mu.Lock()
	delete(s.views, name)
	s.mu.Unlock()
}

// detachUnread detaches the load files no view reads any more. A query already running on one
// keeps reading it to its end: DuckDB holds a detached database until its last reader is done.
func (s *Store) detachUnread(ctx context.Context) {
	s.mu.Lock()
	read := map[int64]bool{}
	for name := range s.views {
		read[s.loads[name]] = true
	}
	var gone []string
	for id, a := range s.attached {
		if !read[id] {
			gone = append(gone, a.alias)
			delete(s.attached, id)
		}
	}
	s.mu.Unlock()
	for _, alias := range gone {
		if _, err := s.db.ExecContext(ctx, "DETACH DATABASE IF EXISTS "+sqldialect.DuckDB{}.QuoteIdent(alias)); err != nil {
			s.log.Debug("columnar copy: detaching a replaced import's file failed", "alias", alias, "err", err)
		}
	}
}

// removeStale deletes the load files of the loads no app reads any more (current are the
// LoadIDs of every app): those numbered up to the newest current load. A file numbered past it
// belongs to an import that has not committed (or to another database, and the import of that
// number writes it anew), and is left. A server still reading a deleted file keeps it open
// until its own Sync detaches it.
func (s *Store) removeStale(current map[int64]bool) {
	if s.opts.Path == "" {
		return
	}
	var newest int64
	for id := range current {
		newest = max(newest, id)
	}
	files, _ := filepath.Glob(filepath.Join(LoadsDir(s.opts.Path), "load-*.duckdb"))
	for _, f := range files {
		id, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "load-"), ".duckdb"), 10, 64)
		if err != nil || id > newest || current[id] {
			continue
		}
		if err := removeDuck(f); err != nil {
			s.log.Warn("columnar copy: a replaced import's file could not be deleted", "file", f, "err", err)
		}
	}
}

// removeDuck deletes a DuckDB file, its log and its spill folder.
func removeDuck(path string) error {
	os.RemoveAll(path + ".tmp")
	err := os.Remove(path)
	if werr := os.Remove(path + ".wal"); werr != nil && !os.IsNotExist(werr) && err == nil {
		err = werr
	}
	if os.IsNotExist(err) {
		return nil
	}
	return err
}

// dropViews drops the views a former process made and their stamps: their files are not
// attached in this one.
func dropViews(ctx context.Context, db *sql.DB) error {
	views, err := names(ctx, db, "SELECT view_name FROM duckdb_views() WHERE database_name = current_database() AND NOT internal")
	if err != nil || len(views) == 0 {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, name := range views {
		if _, err := tx.ExecContext(ctx, "DROP VIEW IF EXISTS "+sqldialect.DuckDB{}.QuoteIdent(name)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+loadsTable+" WHERE sql_name = ?", name); err != nil {
			return err
		}
	}
	return tx.Commit()
}
