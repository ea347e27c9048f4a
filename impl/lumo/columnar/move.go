//go:build cgo

package columnar

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"slices"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// RowsMover writes, for a database whose apps keep their rows in it (imported before imports
// wrote them into DuckDB files alone), each load's file as lumo import now writes it, in LoadsDir
// beside the copy at Options.Path: the data tables, rollups and value tables, copied from the
// database's transaction with the sync's copier, stamped and renamed like an import's (see
// store.DB.MoveRowsOut). nil in a build without cgo.
func (s *Store) RowsMover() store.RowsMover { return &rowsMover{s: s} }

type rowsMover struct {
	s       *Store
	written []string // the files it wrote, removed by Abort
}

func (m *rowsMover) Write(ctx context.Context, tx *sql.Tx, d sqldialect.Dialect, apps []*semantic.App, identity string) error {
	loads, byLoad := groupByLoad(apps)
	for _, loadID := range loads {
		if m.s.fileHolds(ctx, loadID, identity, byLoad[loadID]) {
			continue // an import of the previous version wrote it whole beside the rows
		}
		if _, _, err := m.writeLoad(ctx, tx, d, loadID, identity, byLoad[loadID]); err != nil {
			return fmt.Errorf("load %d: %w", loadID, err)
		}
	}
	return nil
}

// groupByLoad groups apps by their load, and lists the loads in order.
func groupByLoad(apps []*semantic.App) ([]int64, map[int64][]*semantic.App) {
	byLoad := map[int64][]*semantic.App{}
	var loads []int64
	for _, a := range apps {
		if byLoad[a.LoadID] == nil {
			loads = append(loads, a.LoadID)
		}
		byLoad[a.LoadID] = append(byLoad[a.LoadID], a)
	}
	slices.Sort(loads)
	return loads, byLoad
}

// writeLoad writes load loadID's file: apps' tables and rollups copied from tx, and their value
// tables, with DuckDB at half the memory limit as an import writes its file (halfLimit). It
// returns the tables and rollups copied and their rows.
func (m *rowsMover) writeLoad(ctx context.Context, tx *sql.Tx, d sqldialect.Dialect, loadID int64, identity string, apps []*semantic.App) ([]string, int64, error) {
	staging, err := m.s.stagingFile()
	if err != nil {
		return nil, 0, err
	}
	file := Deferred(Options{Path: staging, MemoryLimit: halfLimit(m.s.opts.MemoryLimit), Threads: m.s.opts.Threads, Log: m.s.log})
	if err := file.openFile(ctx, staging); err != nil {
		removeDuck(staging)
		return nil, 0, err
	}
	var tables []string
	var rows int64
	err = func() error {
		c := &copier{ctx: ctx, s: file, src: tx, srcDialect: d, numbers: map[[2]string]duckColumn{}}
		copied := map[string]bool{}
		for _, app := range apps {
			for _, j := range tableJobs(c, app) {
				if copied[j.name] {
					continue
				}
				copied[j.name] = true
				cols, err := j.cols()
				if err != nil {
					return err
				}
				n, err := c.copy(j.name, cols, loadID)
				if err != nil {
					return err
				}
				tables, rows = append(tables, j.name), rows+n
			}
		}
		if err := c.wait(0); err != nil {
			return err
		}
		for _, app := range apps {
			for _, t := range app.Tables {
				for _, col := range t.Columns {
					if name := valuesTable(col); hasValues(col) && !copied[name] {
						copied[name] = true
						if err := file.buildValueTable(ctx, col, loadID); err != nil {
							return fmt.Errorf("the distinct values of %s: %w", col.Ref(), err)
						}
					}
				}
			}
		}
		return nil
	}()
	if err != nil {
		file.Close()
		removeDuck(staging)
		return nil, 0, err
	}
	final, err := seal(ctx, file.db, staging, LoadsDir(m.s.opts.Path), loadID, identity)
	if err != nil {
		removeDuck(staging)
		return nil, 0, err
	}
	m.written = append(m.written, final)
	return tables, rows, nil
}

func (m *rowsMover) Abort() {
	for _, f := range m.written {
		removeDuck(f)
	}
	m.written = nil
}

// fileHolds says whether load loadID's file, written for identity's database, holds every data
// table and rollup of apps.
func (s *Store) fileHolds(ctx context.Context, loadID int64, identity string, apps []*semantic.App) bool {
	path := loadFile(LoadsDir(s.opts.Path), loadID)
	if _, err := os.Stat(path); err != nil {
		return false
	}
	probe := Deferred(Options{Log: slog.New(slog.DiscardHandler)}) // attaches the file from memory
	if err := probe.openFile(ctx, ""); err != nil {
		return false
	}
	defer probe.Close()
	a, err := probe.attachFile(ctx, path, loadID, identity)
	if err != nil {
		return false
	}
	for _, app := range apps {
		for _, t := range app.Tables {
			if !a.tables[t.SQLName] {
				return false
			}
		}
		for _, r := range app.Rollups {
			if !a.tables[r.SQLName] {
				return false
			}
		}
	}
	return true
}
