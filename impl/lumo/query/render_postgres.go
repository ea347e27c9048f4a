package query

import (
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// postgresEngine is PostgreSQL: a parameter whose type the context does not give is cast (it
// refuses one of unknown type), and a distinct count may walk an index.
type postgresEngine struct{ dialectEngine }

var (
	_ looseWalker = postgresEngine{}
	_ keptGrouper = postgresEngine{}
)

func (e postgresEngine) typed(placeholder, typ string) string {
	switch typ {
	case semantic.TypeNumber:
		return e.float(placeholder)
	case semantic.TypeString:
		return "CAST(" + placeholder + " AS TEXT)"
	}
	return sqldialect.DateParam(e.Dialect, placeholder, typ)
}

// countDistinct: PostgreSQL always sorts for COUNT(DISTINCT); SELECT DISTINCT lets the planner
// hash instead when the column has few values (a sort of every row of the fact table was most
// of this query's time).
func (postgresEngine) countDistinct(col, from string, where []string) string {
	where = append(where, col+" IS NOT NULL")
	return "(SELECT COUNT(*) FROM (SELECT DISTINCT " + col + from + whereClause(where) + ") d)"
}

// inKept compares the groups as the text of a row, which PostgreSQL hashes once for f and
// looks up per row, where it cannot hash IS NOT DISTINCT FROM and ran the EXISTS as a scan of f
// for each row (seconds over thousands of groups). The texts tell NULL from the empty text
// ((,x) and ("",x)); a number plus 0 writes -0 as 0, the one group GROUP BY makes of both.
func (postgresEngine) inKept(fGroups, values []string, numeric []bool) string {
	row, kept := make([]string, len(values)), make([]string, len(values))
	for i := range values {
		row[i], kept[i] = values[i], fGroups[i]
		if numeric[i] {
			row[i], kept[i] = "("+row[i]+" + 0)", "("+kept[i]+" + 0)"
		}
	}
	return "ROW(" + strings.Join(row, ", ") + ")::text IN (SELECT ROW(" + strings.Join(kept, ", ") + ")::text FROM f)"
}

// looseCount counts the distinct non-NULL values of c by a loose walk of its (folded copy NULLS
// FIRST, value) index: one descent per distinct pair instead of reading every row. The folded
// copy is a function of the value, NULL exactly when the value is, so the pairs past the NULL
// ones are the distinct values, values that fold alike included; the empty text is walked past
// but not counted (the blank rule).
func (e postgresEngine) looseCount(c *semantic.Column) string {
	f, v, t := e.QuoteIdent(c.FoldSQLName), e.QuoteIdent(c.SQLName), e.QuoteIdent(c.Table.SQLName)
	order := " ORDER BY " + f + " NULLS FIRST, " + v + " LIMIT 1"
	return "(WITH RECURSIVE d (f, v) AS ((SELECT " + f + ", " + v + " FROM " + t + " WHERE " + f + " IS NOT NULL" + order +
		") UNION ALL SELECT n.f, n.v FROM d CROSS JOIN LATERAL (SELECT " + f + " AS f, " + v + " AS v FROM " + t +
		" WHERE (" + f + ", " + v + ") > (d.f, d.v)" + order + ") n) SELECT COUNT(" + blankless("v") + ") FROM d)"
}
