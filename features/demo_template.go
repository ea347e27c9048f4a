package features

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb/sqldbtest"
)

// Importing the demo workspace takes seconds (it parses and loads every CSV and builds the
// rollups), and most lumo scenarios start with it: on SQLite the suite imports it once into a
// template and gives each scenario a copy of that file. The demo's data carries its own times, so
// a copy answers exactly as a fresh import would. With LUMO_COLUMNAR=on the template's import
// writes the rows into its own DuckDB file instead, copied beside each scenario's columnar copy.
// On PostgreSQL each scenario imports it into its own schema, as before.
var demoTemplate struct {
	once  sync.Once
	data  []byte            // the SQLite file of a migrated database holding the demo workspace
	loads map[string][]byte // with LUMO_COLUMNAR=on, the import's DuckDB file by name
	err   error
}

// demoCopy returns a database holding the demo workspace, in a file of its own under t's
// temporary folder, or nil on PostgreSQL (the caller imports it then). With a columnar copy at
// columnarPath, the import's own DuckDB file goes beside it.
func demoCopy(ctx context.Context, t *testing.T, columnarPath string) (*store.DB, error) {
	if sqldbtest.IsPostgres() {
		return nil, nil
	}
	demoTemplate.once.Do(func() {
		dir, err := os.MkdirTemp("", "lumo-demo-template-")
		if err != nil {
			demoTemplate.err = err
			return
		}
		defer os.RemoveAll(dir)
		db, err := store.Open(ctx, filepath.Join(dir, "import.db"))
		if err != nil {
			demoTemplate.err = err
			return
		}
		defer db.Close()
		var opts store.ImportOptions
		copyPath := filepath.Join(dir, "lumo.duckdb")
		if columnarOn() {
			opts.Sink, opts.SinkOnly = columnar.Deferred(columnar.Options{Path: copyPath}).ImportSink(), true
		}
		if _, err := db.ImportWorkspaceWith(ctx, demo.Lumo, "workspace.yaml", opts); err != nil {
			demoTemplate.err = fmt.Errorf("importing the demo workspace: %w", err)
			return
		}
		if columnarOn() {
			demoTemplate.loads = map[string][]byte{}
			files, _ := filepath.Glob(filepath.Join(columnar.LoadsDir(copyPath), "load-*.duckdb"))
			for _, f := range files {
				if demoTemplate.loads[filepath.Base(f)], err = os.ReadFile(f); err != nil {
					demoTemplate.err = err
					return
				}
			}
			if len(files) != 1 {
				demoTemplate.err = fmt.Errorf("the demo's import wrote %d DuckDB files, want 1", len(files))
				return
			}
		}
		// VACUUM INTO writes one consistent file, whatever the WAL still holds.
		file := filepath.Join(dir, "template.db")
		if _, err := db.SQL().ExecContext(ctx, "VACUUM INTO ?", file); err != nil {
			demoTemplate.err = fmt.Errorf("copying the demo database: %w", err)
			return
		}
		demoTemplate.data, demoTemplate.err = os.ReadFile(file)
	})
	if demoTemplate.err != nil {
		return nil, demoTemplate.err
	}
	file := filepath.Join(t.TempDir(), "lumo.db")
	if err := os.WriteFile(file, demoTemplate.data, 0o600); err != nil {
		return nil, err
	}
	if columnarPath != "" {
		dir := columnar.LoadsDir(columnarPath)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
		for name, data := range demoTemplate.loads {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
				return nil, err
			}
		}
	}
	return store.Open(ctx, file)
}

// pristine says whether db holds no tenant yet, so that the demo's copy may replace it.
func pristine(ctx context.Context, db *store.DB) (bool, error) {
	var n int
	err := db.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM lumo_tenants").Scan(&n)
	return n == 0, err
}
