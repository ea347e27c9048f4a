package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/fold"
	"github.com/lumo-caderninho/mcp/impl/semantic"
	"github.com/lumo-caderninho/mcp/impl/workspace"
)

// Stored forms of dates: ISO text on every engine (PostgreSQL casts it to DATE/TIMESTAMP).
const (
	dateLayout     = "2006-01-02"
	datetimeLayout = "2006-01-02 15:04:05"
)

// createTable creates the data table of t: one column per model column and, beside every text
// column, its folded copy.
func (im *importer) createTable(ctx context.Context, t *pTable) error {
	d := im.db.dialect
	var cols []string
	for _, c := range t.cols {
		cols = append(cols, d.QuoteIdent(c.sqlName)+" "+d.ColumnType(c.c.Type))
		if c.foldName != "" {
			cols = append(cols, d.QuoteIdent(c.foldName)+" "+d.ColumnType(semantic.TypeString))
		}
	}
	ddl := "CREATE TABLE " + d.QuoteIdent(t.sqlName) + " (" + strings.Join(cols, ", ") + ")"
	if _, err := im.tx.ExecContext(ctx, ddl); err != nil {
		return fmt.Errorf("creating data table %s: %w", t.sqlName, err)
	}
	if t.file != "" {
		loaded := im.now
		if t.t.LoadedAt != nil {
			loaded = *t.t.LoadedAt
		}
		t.loadedAt = &loaded
	}
	return nil
}

// loadTable streams t's CSV into its data table: COPY on PostgreSQL, one prepared INSERT on
// SQLite, both inside the import transaction. Problems in the file come back as
// *workspace.Error.
func (im *importer) loadTable(ctx context.Context, t *pTable) error {
	d := im.db.dialect
	var names []string
	for _, c := range t.cols {
		names = append(names, d.QuoteIdent(c.sqlName))
		if c.foldName != "" {
			names = append(names, d.QuoteIdent(c.foldName))
		}
	}
	table := d.QuoteIdent(t.sqlName) + " (" + strings.Join(names, ", ") + ")"
	copyIn := im.db.Engine() == "postgres"
	query := "INSERT INTO " + table + " VALUES (" + inList(len(names)) + ")"
	if copyIn {
		query = "COPY " + table + " FROM STDIN"
	}
	stmt, err := im.tx.PrepareContext(ctx, im.db.q(query))
	if err != nil {
		return fmt.Errorf("preparing load of %s: %w", t.file, err)
	}
	defer stmt.Close()

	rows, err := workspace.OpenRows(im.fsys, t.file, t.t)
	if err != nil {
		return err
	}
	defer rows.Close()
	args := make([]any, len(names))
	for rows.Next() {
		j := 0
		for i, v := range rows.Values() {
			c := t.cols[i]
			if tm, ok := v.(time.Time); ok {
				if c.c.Type == semantic.TypeDate {
					v = tm.Format(dateLayout)
				} else {
					v = tm.Format(datetimeLayout)
				}
			}
			args[j] = v
			j++
			if c.foldName != "" {
				if s, ok := v.(string); ok {
					args[j] = fold.Fold(s)
				} else {
					args[j] = nil
				}
				j++
			}
		}
		if _, err := stmt.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("loading %s line %d into %s: %w", t.file, rows.Line(), t.sqlName, err)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if copyIn {
		if _, err := stmt.ExecContext(ctx); err != nil {
			return fmt.Errorf("loading %s into %s: %w", t.file, t.sqlName, err)
		}
	}
	n := rows.Count()
	t.rows = &n
	for i, s := range rows.Scales() {
		t.cols[i].scale = s
	}
	return nil
}
