//go:build cgo

package columnar

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// A copied table has the row store's table and column names, a folded copy beside every text
// column that has one, and DuckDB's types: VARCHAR, DATE, TIMESTAMP, and numbers as
// sqldialect.NumberType makes them (DECIMAL(18, scale) for the exact decimals, summed into
// DECIMAL(38, scale), so sums of cents stay exact; DOUBLE otherwise).

// duckColumn is a column of a copied table: its name, type and, for an exact decimal, its scale.
type duckColumn struct {
	name, typ string
	scale     int
}

// job is one table to copy: its physical name and how to list its columns.
type job struct {
	name string
	cols func() ([]duckColumn, error)
}

// tableJobs are app's data tables (a role-playing copy reads its original's) and rollups.
func tableJobs(c *copier, app *semantic.App) []job {
	var jobs []job
	for _, tb := range app.Tables {
		jobs = append(jobs, job{tb.SQLName, func() ([]duckColumn, error) {
			var cols []duckColumn
			for _, col := range tb.Columns {
				if col.Calculated() {
					continue
				}
				dc, err := c.column(col, col.SQLName)
				if err != nil {
					return nil, err
				}
				cols = append(cols, dc...)
			}
			return cols, nil
		}})
	}
	for _, r := range app.Rollups {
		jobs = append(jobs, job{r.SQLName, func() ([]duckColumn, error) { return c.rollupColumns(r) }})
	}
	return jobs
}

// copier copies tables from a row store transaction into the Store.
type copier struct {
	ctx        context.Context
	s          *Store
	src        *sql.Tx
	srcDialect sqldialect.Dialect
	numbers    map[[2]string]duckColumn // (table, column) SQL names: the type of a number column
}

// rollupColumns are a rollup's columns: its dimensions (with their folded copies), its time
// bucket, per measure its sum, count, minimum and maximum, and its row count.
func (c *copier) rollupColumns(r *semantic.Rollup) ([]duckColumn, error) {
	var cols []duckColumn
	for i, col := range r.Dimensions {
		dc, err := c.column(col, semantic.RollupDim(i))
		if err != nil {
			return nil, err
		}
		if len(dc) == 2 {
			dc[1].name = semantic.RollupDimFold(i)
		}
		cols = append(cols, dc...)
	}
	if r.Time != nil {
		dc, err := c.column(r.Time, semantic.RollupTime())
		if err != nil {
			return nil, err
		}
		cols = append(cols, dc...)
	}
	for i, col := range r.Measures {
		dc, err := c.column(col, "") // the sums, minimums and maximums take the measure's type
		if err != nil {
			return nil, err
		}
		m, sum := dc[0], dc[0].typ
		if strings.HasPrefix(sum, "DECIMAL(") { // a sum of many values: DECIMAL(38), as DuckDB's SUM gives
			sum = "DECIMAL(38," + strconv.Itoa(m.scale) + ")"
		}
		cols = append(cols, duckColumn{semantic.RollupSum(i), sum, m.scale}, duckColumn{semantic.RollupCount(i), "BIGINT", 0},
			duckColumn{semantic.RollupMin(i), m.typ, m.scale}, duckColumn{semantic.RollupMax(i), m.typ, m.scale})
	}
	return append(cols, duckColumn{semantic.RollupRows(), "BIGINT NOT NULL", 0}), nil
}

// column is the DuckDB column (named name) holding col's values, and its folded copy for a text
// column with one. A number column's type follows its scale and largest value in the row store.
func (c *copier) column(col *semantic.Column, name string) ([]duckColumn, error) {
	d := sqldialect.DuckDB{}
	if col.Type != semantic.TypeNumber {
		cols := []duckColumn{{name, d.ColumnType(col.Type), 0}}
		if col.FoldSQLName != "" {
			cols = append(cols, duckColumn{col.FoldSQLName, d.ColumnType(semantic.TypeString), 0})
		}
		return cols, nil
	}
	key := [2]string{col.Table.SQLName, col.SQLName}
	dc, ok := c.numbers[key]
	if !ok {
		var largest sql.NullFloat64
		q := "SELECT MAX(ABS(" + c.srcDialect.QuoteIdent(col.SQLName) + ")) FROM " + c.srcDialect.QuoteIdent(col.Table.SQLName)
		if err := c.src.QueryRowContext(c.ctx, q).Scan(&largest); err != nil {
			return nil, fmt.Errorf("%s: %w", q, err)
		}
		dc = duckColumn{typ: sqldialect.NumberType(d, col.Scale, largest.Float64), scale: col.Scale}
		c.numbers[key] = dc
	}
	dc.name = name
	return []duckColumn{dc}, nil
}

// copy replaces table in the Store with the row store's rows, stamped loadID, and returns how
// many it copied. The rows are appended as text to a staging table of VARCHARs, then cast to the
// columns' types in one INSERT, so each value arrives as the row store's ISO dates and, for a
// DECIMAL column, the decimal its float64 stands for; the swap and the stamp commit together.
func (c *copier) copy(ctx context.Context, table string, cols []duckColumn, loadID int64) (int64, error) {
	d := sqldialect.DuckDB{}
	// The stage is a temporary table: in memory (spilling to the temp directory), never written
	// to the file or its log.
	stage := "temp.main." + d.QuoteIdent(table+"__stage")
	var defs, texts, names, casts []string
	for _, col := range cols {
		q := d.QuoteIdent(col.name)
		defs, texts, names = append(defs, q+" "+col.typ), append(texts, q+" VARCHAR"), append(names, c.srcDialect.QuoteIdent(col.name))
		casts = append(casts, "CAST("+q+" AS "+strings.TrimSuffix(col.typ, " NOT NULL")+")")
	}
	conn, err := c.s.db.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "CREATE OR REPLACE TEMP TABLE "+d.QuoteIdent(table+"__stage")+" ("+strings.Join(texts, ", ")+")"); err != nil {
		return 0, err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS "+stage)
	rows, err := c.src.QueryContext(ctx, "SELECT "+strings.Join(names, ", ")+" FROM "+c.srcDialect.QuoteIdent(table))
	if err != nil {
		return 0, fmt.Errorf("reading it: %w", err)
	}
	defer rows.Close()
	var n int64
	err = conn.Raw(func(dc any) error {
		a, err := duckdb.NewAppender(dc.(driver.Conn), "temp", "main", table+"__stage")
		if err != nil {
			return err
		}
		vals, ptrs, text := make([]any, len(cols)), make([]any, len(cols)), make([]driver.Value, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				a.Close()
				return err
			}
			for i, v := range vals {
				text[i] = duckText(v, cols[i])
			}
			if err := a.AppendRow(text...); err != nil {
				a.Close()
				return err
			}
			n++
		}
		if err := rows.Err(); err != nil {
			a.Close()
			return err
		}
		return a.Close()
	})
	if err != nil {
		return 0, fmt.Errorf("loading it: %w", err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	for _, st := range []string{
		"CREATE OR REPLACE TABLE " + d.QuoteIdent(table) + " (" + strings.Join(defs, ", ") + ")",
		"INSERT INTO " + d.QuoteIdent(table) + " SELECT " + strings.Join(casts, ", ") + " FROM " + stage,
	} {
		if _, err := tx.ExecContext(ctx, st); err != nil {
			return 0, fmt.Errorf("%s: %w", st, err)
		}
	}
	if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO "+loadsTable+" VALUES (?, ?)", table, loadID); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	c.s.mu.Lock()
	c.s.loads[table] = loadID
	c.s.mu.Unlock()
	return n, nil
}

// duckText is a row store's value as text for DuckDB's column c, nil for NULL.
func duckText(v any, c duckColumn) driver.Value {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		return x
	case []byte:
		return string(x)
	case time.Time: // PostgreSQL's DATE and TIMESTAMP
		if c.typ == "DATE" {
			return x.Format("2006-01-02")
		}
		return x.Format("2006-01-02 15:04:05")
	case float64:
		if strings.HasPrefix(c.typ, "DECIMAL") {
			return strconv.FormatFloat(x, 'f', c.scale, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64) // the shortest text that reads back as x
	}
	return fmt.Sprint(v)
}
