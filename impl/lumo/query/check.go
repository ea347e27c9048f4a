package query

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
)

// ValueSource is where CheckValues reads a column's values. Table names the table of its
// distinct values (see values.Reader.Values; nil: the column's own table). Held, when not nil,
// gives every value a column holds when they are few enough to be held in memory (a dimension's
// regions, channels, statuses), and nil for any other column: a value it holds needs no
// statement, and one it lacks is not held as written.
type ValueSource struct {
	Table func(*semantic.Column) string
	Held  func(*semantic.Column) map[string]bool
}

// CheckValues checks every text value of =, in, != and not in filters against the column before the query
// runs: a value that exists only with other case or accents is corrected (and noted); a value
// that does not exist stops the query with the similar values.
func CheckValues(ctx context.Context, db Querier, d sqldialect.Dialect, src ValueSource, q *Query) error {
	table := func(c *TextCheck) string {
		if src.Table != nil {
			return src.Table(c.Col)
		}
		return c.Col.Table.SQLName
	}
	present := make([]map[string]bool, len(q.Checks))
	var looked []*TextCheck // the checks whose values no set holds in memory
	var at []int
	for i, c := range q.Checks {
		if src.Held != nil {
			if held := src.Held(c.Col); held != nil {
				present[i] = held
				continue
			}
		}
		looked, at = append(looked, c), append(at, i)
	}
	found, err := existing(ctx, db, d, table, looked)
	if err != nil {
		return err
	}
	for k, i := range at {
		present[i] = found[k]
	}
	for i, c := range q.Checks {
		for _, v := range c.Values {
			if present[i][v] {
				continue
			}
			fixed, err := checkValue(ctx, db, d, c.Col, table(c), v)
			if err != nil {
				return err
			}
			if fixed != v {
				c.Correct(v, fixed)
				q.Notes = append(q.Notes, fmt.Sprintf("%s: o valor %q foi lido como %q (diferença de caixa ou acento).", c.Col.Ref(), v, fixed))
			}
		}
	}
	return nil
}

// existingChunk bounds the values of one lookup in existing (two bind parameters each).
const existingChunk = 1000

// existing is, per check, the set of its values that its column holds as written, read for every
// check in one statement per existingChunk values: a statement costs DuckDB 1-2 ms whatever it
// reads, and one per value would cost a scan each. Each value is one probe of the table (table
// names it), stopping at the first row that holds it (a lookup in the row store's (folded, value)
// index, since col = v implies folded = fold(v)): a DISTINCT over the rows holding a frequent
// value would read them all.
func existing(ctx context.Context, db Querier, d sqldialect.Dialect, table func(*TextCheck) string, checks []*TextCheck) ([]map[string]bool, error) {
	found := make([]map[string]bool, len(checks))
	type part struct {
		check  int
		values []string
	}
	var parts []part
	n := 0
	flush := func() error {
		if len(parts) == 0 {
			return nil
		}
		var with, sel []string
		var args []any
		for k, p := range parts {
			c := checks[p.check]
			t, col, folded := d.QuoteIdent(table(c)), d.QuoteIdent(c.Col.SQLName), d.QuoteIdent(c.Col.FoldSQLName)
			x := "x" + itoa(k)
			with = append(with, x+"(f, v) AS (VALUES "+strings.TrimSuffix(strings.Repeat("(CAST(? AS VARCHAR), CAST(? AS VARCHAR)), ", len(p.values)), ", ")+")")
			sel = append(sel, "SELECT "+itoa(p.check)+" AS i, "+x+".v FROM "+x+" WHERE EXISTS (SELECT 1 FROM "+t+" t WHERE t."+folded+" = "+x+".f AND t."+col+" = "+x+".v)")
			for _, v := range p.values {
				args = append(args, fold.Fold(v), v)
			}
		}
		held, err := queryRows(ctx, db, checks[parts[0].check].Col, sqldialect.Rebind(d, "WITH "+strings.Join(with, ", ")+" "+strings.Join(sel, " UNION ALL ")), args,
			func(rows *sql.Rows, h *heldText) error { return rows.Scan(&h.check, &h.value) })
		if err != nil {
			return err
		}
		for _, h := range held {
			if found[h.check] == nil {
				found[h.check] = map[string]bool{}
			}
			found[h.check][h.value] = true
		}
		parts, n = parts[:0], 0
		return nil
	}
	for i, c := range checks {
		for chunk := range slices.Chunk(c.Values, existingChunk) {
			if n+len(chunk) > existingChunk {
				if err := flush(); err != nil {
					return nil, err
				}
			}
			parts, n = append(parts, part{i, chunk}), n+len(chunk)
		}
	}
	return found, flush()
}

// heldText is a value a check's column holds (see existing).
type heldText struct {
	check int
	value string
}

// columnTexts runs a query of one text column of c and returns its values.
func columnTexts(ctx context.Context, db Querier, c *semantic.Column, query string, args ...any) ([]string, error) {
	return queryRows(ctx, db, c, query, args, func(rows *sql.Rows, v *string) error { return rows.Scan(v) })
}

// queryRows runs a query that checks c's values and scans each of its rows into a T.
func queryRows[T any](ctx context.Context, db Querier, c *semantic.Column, query string, args []any, scan func(*sql.Rows, *T) error) ([]T, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("checking values of %s: %w", c.Ref(), err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := scan(rows, &v); err != nil {
			return nil, fmt.Errorf("checking values of %s: %w", c.Ref(), err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("checking values of %s: %w", c.Ref(), err)
	}
	return out, nil
}

// checkValue is the value c holds for v, which it does not hold as written (see existing): the one
// value v spells ignoring case and accents, or an error with the similar values.
func checkValue(ctx context.Context, db Querier, d sqldialect.Dialect, c *semantic.Column, from, v string) (string, error) {
	table, col, folded := d.QuoteIdent(from), d.QuoteIdent(c.SQLName), d.QuoteIdent(c.FoldSQLName)
	// values lists distinct values in code point order on both engines (the selected column is
	// Binary), so a cut at limit keeps the same candidates, in the same order, everywhere.
	values := func(where string, limit int, args ...any) ([]string, error) {
		return columnTexts(ctx, db, c, sqldialect.Rebind(d, "SELECT DISTINCT "+sqldialect.Binary(d, col)+" FROM "+table+" WHERE "+where+
			" ORDER BY 1 LIMIT "+itoa(limit)), args...)
	}
	same, err := values(folded+" = ?", 5, fold.Fold(v))
	if err != nil {
		return "", err
	}
	if len(same) == 1 {
		return same[0], nil
	}
	if len(same) > 1 {
		return "", errorf(CodeValueNotFound, same, "O valor %q não existe em %s com essa grafia, e ignorando caixa e acento ele casa com mais de um valor: %s. Use um deles.",
			v, c.Ref(), joinQuoted(same))
	}
	var conds []string
	var args []any
	for _, w := range fold.Words(v) { // the words literally, wildcards and backslashes included
		cond, arg := sqldialect.Contains(d, folded, w)
		conds, args = append(conds, cond), append(args, arg)
	}
	var candidates []string
	if len(conds) > 0 {
		if candidates, err = values("("+strings.Join(conds, " OR ")+")", 50, args...); err != nil {
			return "", err
		}
	}
	suggestions := suggest.Similar(v, candidates, 5)
	if len(suggestions) == 0 {
		if candidates, err = values(col+" IS NOT NULL AND "+col+" <> ''", 500); err != nil {
			return "", err
		}
		suggestions = suggest.Similar(v, candidates, 5)
	}
	msg := fmt.Sprintf("O valor %q não existe em %s, e a consulta não rodou.", v, c.Ref())
	if len(suggestions) > 0 {
		msg += " Valores parecidos: " + joinQuoted(suggestions) + "."
	} else {
		msg += " Use search_values com essa ref para ver os valores."
	}
	return "", errorf(CodeValueNotFound, suggestions, "%s", msg)
}
