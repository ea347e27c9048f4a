//go:build cgo

package columnar

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// A value table holds a text column's distinct (folded, value) pairs, under the column's own
// names, so that search_values and the query's value checks read the few distinct values instead
// of scanning every row, as the row store reads its (folded, value) index. The import groups it in
// its own file beside its table (ImportSink), where Sync reads it; or Sync builds it once its table
// is current. It is stamped with the same LoadID; a reader uses it only at its app's
// LoadID (ValuesOf) and scans the table otherwise. A column of a large table whose values hardly
// repeat gets none (it would be as large as the column): its stamp is then the LoadID negated.

// valuesSmallTable is the most rows a table may hold for its columns to get value tables however
// little their values repeat: they are tiny.
var valuesSmallTable int64 = 1_000

// valuesTable is the name of c's value table: the column's physical name is unique in the
// database (it carries the column's id) and a role-playing copy shares its original's.
func valuesTable(c *semantic.Column) string { return valuesName(c.SQLName) }

// valuesName is the name of the value table of the column named column.
func valuesName(column string) string { return "v" + column }

// hasValues says whether c can have a value table: a stored text column with a folded copy.
func hasValues(c *semantic.Column) bool {
	return c.Type == semantic.TypeString && c.FoldSQLName != "" && !c.Calculated()
}

// ValuesOf names, for a text column of app, the table to read its distinct values from: its value
// table when one is current at app's LoadID, its own table otherwise (see values.Reader.Values).
func (s *Store) ValuesOf(app *semantic.App) func(*semantic.Column) string {
	return func(c *semantic.Column) string {
		if hasValues(c) {
			s.mu.RLock()
			id, ok := s.loads[valuesTable(c)]
			s.mu.RUnlock()
			if ok && id == app.LoadID {
				return valuesTable(c)
			}
		}
		return c.Table.SQLName
	}
}

// heldMax and heldMaxBytes bound the values of a value table held in memory (see Held): their
// number, and their bytes.
var heldMax, heldMaxBytes = 1024, 64 << 10

// heldValues are a value table's values as read at a load; nil values: over the bounds.
type heldValues struct {
	loadID int64
	values map[string]bool
}

// Held gives, for a text column of app, every value it holds when its value table at app's
// LoadID holds at most heldMax of at most heldMaxBytes in all, read once per load and then held
// in memory: the check of a dimension's few values (a region, a channel, a status) would
// otherwise cost a DuckDB statement of 1-3 ms, a tenth of a short question. nil for any other
// column, or when the read fails (the check then reads the table).
func (s *Store) Held(ctx context.Context, app *semantic.App) func(*semantic.Column) map[string]bool {
	return func(c *semantic.Column) map[string]bool {
		if !hasValues(c) {
			return nil
		}
		name := valuesTable(c)
		s.mu.RLock()
		id, h, db := s.loads[name], s.held[name], s.db
		s.mu.RUnlock()
		switch {
		case id != app.LoadID || db == nil:
			return nil
		case h.loadID == id:
			return h.values
		}
		values, err := readHeld(ctx, db, name, c.SQLName, id)
		if err != nil {
			return nil
		}
		s.mu.Lock()
		if s.loads[name] == id {
			s.held[name] = heldValues{id, values}
		}
		s.mu.Unlock()
		return values
	}
}

// readHeld reads the values of value table name (its column col) when its stamp is loadID, in
// one snapshot with the stamp: the values of another load are an error. nil when there are more
// than heldMax, or more than heldMaxBytes.
func readHeld(ctx context.Context, db *sql.DB, name, col string, loadID int64) (map[string]bool, error) {
	d := sqldialect.DuckDB{}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var stamp int64
	if err := tx.QueryRowContext(ctx, "SELECT load_id FROM "+loadsTable+" WHERE sql_name = ?", name).Scan(&stamp); err != nil {
		return nil, err
	}
	if stamp != loadID {
		return nil, fmt.Errorf("the values of %s are of load %d, not %d", name, stamp, loadID)
	}
	q := "SELECT " + d.QuoteIdent(col) + " FROM " + d.QuoteIdent(name) + " WHERE " + d.QuoteIdent(col) + " IS NOT NULL LIMIT " + fmt.Sprint(heldMax+1)
	rows, err := tx.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	values, size := map[string]bool{}, 0
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		if size += len(v); size > heldMaxBytes {
			return nil, nil
		}
		values[v] = true
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(values) > heldMax {
		return nil, nil
	}
	return values, nil
}

// buildValues brings the value tables of apps' current tables that lack one at their app's
// LoadID: from the import's file when it holds one (adding it to done), built otherwise. It adds
// every value table's name to want.
func (s *Store) buildValues(ctx context.Context, apps []*semantic.App, identity string, want map[string]bool, done *Synced) error {
	for _, app := range apps {
		for _, t := range app.Tables {
			for _, c := range t.Columns {
				name := valuesTable(c)
				if !hasValues(c) || want[name] {
					continue
				}
				want[name] = true
				s.mu.RLock()
				id, built := s.loads[name]
				current := s.loads[t.SQLName] == app.LoadID
				s.mu.RUnlock()
				if !current || built && (id == app.LoadID || id == -app.LoadID) {
					continue
				}
				if a := s.attach(ctx, app.LoadID, identity); a != nil && a.tables[name] {
					if err := s.view(ctx, name, a, app.LoadID); err != nil {
						return err
					}
					done.Attached = append(done.Attached, name)
					continue
				}
				if err := s.buildValueTable(ctx, c, app.LoadID); err != nil {
					return fmt.Errorf("the distinct values of %s: %w", c.Ref(), err)
				}
			}
		}
	}
	return nil
}

// buildValueTable replaces c's value table and its stamp in one DuckDB transaction, or only
// stamps that it has none (see valuesQuery).
func (s *Store) buildValueTable(ctx context.Context, c *semantic.Column, loadID int64) error {
	d := sqldialect.DuckDB{}
	raw := valuesTable(c)
	name, table := d.QuoteIdent(raw), d.QuoteIdent(c.Table.SQLName)
	fold, col := d.QuoteIdent(c.FoldSQLName), d.QuoteIdent(c.SQLName)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	query, err := valuesQuery(ctx, tx, table, col, fold)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.dropStatement(raw)); err != nil { // a view of an import's file, if any
		return err
	}
	stamp := loadID
	if query == "" {
		stamp = -loadID
	} else if _, err := tx.ExecContext(ctx, "CREATE TABLE "+name+" AS "+query); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO "+loadsTable+" VALUES (?, ?)", raw, stamp); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.unview(raw)
	s.mu.Lock()
	s.loads[raw] = stamp
	s.mu.Unlock()
	return nil
}

// valuesQuery is the query of the value table of column col (quoted, with its folded copy fold)
// of table, or "" when table holds more than valuesSmallTable rows and the column's values hardly
// repeat (at most one distinct value for two rows, by DuckDB's estimate): decided before building
// it, so that a value table too large to keep is never built.
func valuesQuery(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, table, col, fold string) (string, error) {
	var rows, distinct int64
	if err := q.QueryRowContext(ctx, "SELECT COUNT(*), approx_count_distinct("+col+") FROM "+table).Scan(&rows, &distinct); err != nil {
		return "", err
	}
	if rows > valuesSmallTable && 2*distinct > rows {
		return "", nil
	}
	return "SELECT DISTINCT " + fold + ", " + col + " FROM " + table + " ORDER BY " + fold + " NULLS FIRST, " + col + " NULLS FIRST", nil
}
