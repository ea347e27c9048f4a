package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// builtRollup is a rollup's data table once built.
type builtRollup struct {
	sqlName string
	rows    int64
}

func indexOfTable(tables []*semantic.Table, t *semantic.Table) int {
	for i, x := range tables {
		if x == t {
			return i
		}
	}
	return -1
}

// buildRollups builds the rollups of source app a, once its tables are loaded: each one grouped
// from its fact along the same LEFT JOINs a query takes (the shortest path, which app.yaml makes
// the only one), so a query the rollup answers sees exactly the rows it would see on the fact.
func (im *importer) buildRollups(ctx context.Context, a *pApp) error {
	if im.rollups == nil {
		im.rollups = map[*semantic.Rollup]*builtRollup{}
	}
	d := im.db.dialect
	byTable := map[*semantic.Table]*pTable{}
	byColumn := map[*semantic.Column]*pColumn{}
	for _, t := range a.tables {
		byTable[t.t] = t
		for _, c := range t.cols {
			byColumn[c.c] = c
		}
	}
	for ri, r := range a.model.Rollups {
		fact := byTable[r.Fact]
		if r.Auto {
			if ok, err := im.fitAuto(ctx, a, r, byTable, byColumn); err != nil || !ok {
				if err != nil {
					return err
				}
				continue
			}
		}
		name := sqlName("r", fact.id, r.Name, "")
		via := a.model.Reach(r.Fact) // the paths the planner joins
		alias := map[*semantic.Table]string{r.Fact: "t0"}
		var joins []string
		var add func(t *semantic.Table) error
		add = func(t *semantic.Table) error {
			if _, done := alias[t]; done {
				return nil
			}
			rel := via[t]
			if err := add(rel.FromTable()); err != nil {
				return err
			}
			if err := im.uniqueKey(ctx, a, ri, r, byTable[t], rel, byColumn); err != nil {
				return err
			}
			alias[t] = "t" + strconv.Itoa(len(alias))
			on := make([]string, len(rel.From))
			for k := range rel.From {
				on[k] = alias[rel.From[k].Table] + "." + d.QuoteIdent(byColumn[rel.From[k]].sqlName) + " = " +
					alias[t] + "." + d.QuoteIdent(byColumn[rel.To[k]].sqlName)
			}
			joins = append(joins, " LEFT JOIN "+d.QuoteIdent(byTable[t].data().sqlName)+" "+alias[t]+" ON "+strings.Join(on, " AND "))
			return nil
		}
		var cols, sel, groups []string
		ref := func(c *semantic.Column, fold bool) string {
			n := byColumn[c].sqlName
			if fold {
				n = byColumn[c].foldName
			}
			return alias[c.Table] + "." + d.QuoteIdent(n)
		}
		for i, c := range r.Dimensions {
			if err := add(c.Table); err != nil {
				return err
			}
			cols = append(cols, d.QuoteIdent(semantic.RollupDim(i))+" "+d.ColumnType(c.Type))
			sel = append(sel, ref(c, false))
			groups = append(groups, ref(c, false))
			if byColumn[c].foldName != "" {
				// The folded copy is a function of the value, the same in every row of a group:
				// any of them is it, and grouping by the value alone sorts narrower keys.
				cols = append(cols, d.QuoteIdent(semantic.RollupDimFold(i))+" "+d.ColumnType(semantic.TypeString))
				sel = append(sel, "MIN("+ref(c, true)+")")
			}
		}
		if r.Time != nil {
			if err := add(r.Time.Table); err != nil {
				return err
			}
			e := timeGrain(d, ref(r.Time, false), r.Time.Type, r.Grain)
			cols = append(cols, d.QuoteIdent(semantic.RollupTime())+" "+d.ColumnType(r.Time.Type))
			sel = append(sel, e)
			groups = append(groups, e)
		}
		num := d.ColumnType(semantic.TypeNumber)
		for i, c := range r.Measures {
			v := ref(c, false)
			cols = append(cols, d.QuoteIdent(semantic.RollupSum(i))+" "+num, d.QuoteIdent(semantic.RollupCount(i))+" BIGINT",
				d.QuoteIdent(semantic.RollupMin(i))+" "+num, d.QuoteIdent(semantic.RollupMax(i))+" "+num)
			sel = append(sel, "SUM("+v+")", "COUNT("+v+")", "MIN("+v+")", "MAX("+v+")")
		}
		cols = append(cols, d.QuoteIdent(semantic.RollupRows())+" BIGINT NOT NULL")
		sel = append(sel, "COUNT(*)")
		from := d.QuoteIdent(fact.data().sqlName) + " t0"
		if d.Name() == sqldialect.SQLiteName {
			// Read the fact in file order and sort once: walking a key index for the GROUP BY
			// fetched the rows one by one, several times slower on a million rows.
			from += " NOT INDEXED"
		}
		q := "INSERT INTO " + d.QuoteIdent(name) + " SELECT " + strings.Join(sel, ", ") + " FROM " + from + strings.Join(joins, "")
		if len(groups) > 0 {
			q += " GROUP BY " + strings.Join(groups, ", ")
		} else {
			q += " HAVING COUNT(*) > 0"
		}
		ddl := []string{"CREATE TABLE " + d.QuoteIdent(name) + " (" + strings.Join(cols, ", ") + ")", q}
		if len(r.Dimensions) > 0 || r.Time != nil {
			// The dimensions in order, for filters on the first ones.
			var ix []string
			for i, c := range r.Dimensions {
				if byColumn[c].foldName != "" {
					ix = append(ix, d.QuoteIdent(semantic.RollupDimFold(i)))
				}
				ix = append(ix, d.QuoteIdent(semantic.RollupDim(i)))
			}
			if r.Time != nil {
				ddl = append(ddl, "CREATE INDEX "+d.QuoteIdent(sqlName("r", fact.id, r.Name, "_t"))+" ON "+d.QuoteIdent(name)+" ("+d.QuoteIdent(semantic.RollupTime())+")")
			}
			if len(ix) > 0 {
				ddl = append(ddl, "CREATE INDEX "+d.QuoteIdent(sqlName("r", fact.id, r.Name, "_d"))+" ON "+d.QuoteIdent(name)+" ("+strings.Join(ix, ", ")+")")
			}
		}
		ddl = append(ddl, analyze(d, name)...)
		for _, s := range ddl {
			if _, err := im.tx.ExecContext(ctx, s); err != nil {
				return fmt.Errorf("building rollup %s: %w", name, err)
			}
		}
		built := &builtRollup{sqlName: name}
		if err := im.tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+d.QuoteIdent(name)).Scan(&built.rows); err != nil {
			return fmt.Errorf("counting rollup %s: %w", name, err)
		}
		if r.Auto && 2*built.rows > *fact.rows {
			// Not much smaller than the fact: it would cost its space and win little.
			if _, err := im.tx.ExecContext(ctx, "DROP TABLE "+d.QuoteIdent(name)); err != nil {
				return fmt.Errorf("dropping rollup %s: %w", name, err)
			}
			continue
		}
		im.rollups[r] = built
	}
	kept := a.model.Rollups[:0:0] // the catalogue lists the built ones (copies share the model)
	for _, r := range a.model.Rollups {
		if im.rollups[r] != nil {
			kept = append(kept, r)
		}
	}
	a.model.Rollups = kept
	return nil
}

// fitAuto fits an automatic rollup to the loaded data, where a declared one would be refused:
// no fact data, no rollup; a dimension on a table whose key repeats along the path is left out.
func (im *importer) fitAuto(ctx context.Context, a *pApp, r *semantic.Rollup, byTable map[*semantic.Table]*pTable, byColumn map[*semantic.Column]*pColumn) (bool, error) {
	if !byTable[r.Fact].hasData() || byTable[r.Fact].rows == nil {
		return false, nil
	}
	via := a.model.Reach(r.Fact)
	repeats := map[*semantic.Table]bool{}
	var bad func(t *semantic.Table) (bool, error)
	bad = func(t *semantic.Table) (bool, error) {
		if t == r.Fact {
			return false, nil
		}
		if b, done := repeats[t]; done {
			return b, nil
		}
		b, err := bad(via[t].FromTable())
		if err == nil && !b {
			b, err = im.keyRepeats(ctx, byTable[t], via[t], byColumn)
		}
		repeats[t] = b
		return b, err
	}
	var dims []*semantic.Column
	for _, c := range r.Dimensions {
		b, err := bad(c.Table)
		if err != nil {
			return false, fmt.Errorf("checking the keys for rollup %s: %w", r.Name, err)
		}
		if !b {
			dims = append(dims, c)
		}
	}
	r.Dimensions = dims
	return r.Time != nil || len(dims) > 0, nil
}

// uniqueKey refuses a rollup joining a table whose key repeats: the join would repeat fact rows
// that a query not reaching that table counts once, and the rollup would not answer it exactly.
func (im *importer) uniqueKey(ctx context.Context, a *pApp, ri int, r *semantic.Rollup, t *pTable, rel *semantic.Relationship, byColumn map[*semantic.Column]*pColumn) error {
	dup, err := im.keyRepeats(ctx, t, rel, byColumn)
	if err != nil {
		return fmt.Errorf("checking the key of %s for rollup %s: %w", t.sqlName, r.Name, err)
	}
	if !dup {
		return nil
	}
	var refs []string
	for _, c := range rel.To {
		refs = append(refs, c.Ref())
	}
	return workspace.Errors{&workspace.Error{File: a.ws.Source.File, Field: fmt.Sprintf("rollups[%d]", ri), Message: fmt.Sprintf(
		"o rollup %q passa pela tabela %s, mas a chave %s se repete nela, e cada linha de %s contaria mais de uma vez; "+
			"deixe a chave única nos dados ou tire do rollup as colunas de %s", r.Name, t.t.Label, strings.Join(refs, ", "), r.Fact.Label, t.t.Label)}}
}

// keyRepeats reports whether some filled key of rel repeats in t, which rel reaches.
func (im *importer) keyRepeats(ctx context.Context, t *pTable, rel *semantic.Relationship, byColumn map[*semantic.Column]*pColumn) (bool, error) {
	d := im.db.dialect
	var keys, filled []string
	for _, c := range rel.To {
		k := d.QuoteIdent(byColumn[c].sqlName)
		keys = append(keys, k)
		filled = append(filled, k+" IS NOT NULL")
	}
	q := "SELECT 1 FROM " + d.QuoteIdent(t.data().sqlName) + " WHERE " + strings.Join(filled, " AND ") +
		" GROUP BY " + strings.Join(keys, ", ") + " HAVING COUNT(*) > 1 LIMIT 1"
	rows, err := im.tx.QueryContext(ctx, q)
	if err != nil {
		return false, err
	}
	dup := rows.Next()
	rows.Close()
	return dup, rows.Err()
}

// timeGrain cuts a date column's value to the rollup's grain, keeping its type: a date is its
// day or starts its month; a date-time starts its month, day or hour (ISO text on SQLite,
// TIMESTAMP or DATE on PostgreSQL).
func timeGrain(d sqldialect.Dialect, v, colType, grain string) string {
	pg := d.Name() == sqldialect.PostgresName
	if colType == semantic.TypeDate {
		switch {
		case grain != semantic.GrainMonth:
			return v
		case pg: // date_trunc takes a date as a timestamp: back to the column's type
			return "CAST(date_trunc('month', " + v + ") AS DATE)"
		}
		return "(substr(" + v + ", 1, 7) || '-01')"
	}
	if pg {
		return "date_trunc('" + grain + "', " + v + ")"
	}
	switch grain {
	case semantic.GrainHour:
		return "(substr(" + v + ", 1, 13) || ':00:00')"
	case semantic.GrainMonth:
		return "(substr(" + v + ", 1, 7) || '-01 00:00:00')"
	}
	return "(substr(" + v + ", 1, 10) || ' 00:00:00')"
}
