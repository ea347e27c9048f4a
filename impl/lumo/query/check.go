package query

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
)

// CheckValues checks every text value of =, in, != and not in filters against the column before the query
// runs: a value that exists only with other case or accents is corrected (and noted); a value
// that does not exist stops the query with the similar values. tables names the table to read a
// column's distinct values from (see values.Reader.Values); nil reads the column's own table.
func CheckValues(ctx context.Context, db Querier, d sqldialect.Dialect, tables func(*semantic.Column) string, q *Query) error {
	for _, c := range q.Checks {
		table := c.Col.Table.SQLName
		if tables != nil {
			table = tables(c.Col)
		}
		present, err := existing(ctx, db, d, c.Col, table, c.Values)
		if err != nil {
			return err
		}
		for _, v := range c.Values {
			if present[v] {
				continue
			}
			fixed, err := checkValue(ctx, db, d, c.Col, table, v)
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

// existing is the set of vs that c holds as written, read in a statement per existingChunk values:
// one per value would cost a scan each on DuckDB. Each value is one probe of the table, stopping at
// the first row that holds it (a lookup in the row store's (folded, value) index, since col = v
// implies folded = fold(v)): a DISTINCT over the rows holding a frequent value would read them all.
func existing(ctx context.Context, db Querier, d sqldialect.Dialect, c *semantic.Column, from string, vs []string) (map[string]bool, error) {
	table, col, folded := d.QuoteIdent(from), d.QuoteIdent(c.SQLName), d.QuoteIdent(c.FoldSQLName)
	found := map[string]bool{}
	for chunk := range slices.Chunk(vs, existingChunk) {
		pairs := strings.TrimSuffix(strings.Repeat("(CAST(? AS VARCHAR), CAST(? AS VARCHAR)), ", len(chunk)), ", ")
		args := make([]any, 0, 2*len(chunk))
		for _, v := range chunk {
			args = append(args, fold.Fold(v), v)
		}
		held, err := columnTexts(ctx, db, c, sqldialect.Rebind(d, "WITH x(f, v) AS (VALUES "+pairs+") SELECT x.v FROM x WHERE EXISTS (SELECT 1 FROM "+
			table+" t WHERE t."+folded+" = x.f AND t."+col+" = x.v)"), args...)
		if err != nil {
			return nil, err
		}
		for _, v := range held {
			found[v] = true
		}
	}
	return found, nil
}

// columnTexts runs a query of one text column of c and returns its values.
func columnTexts(ctx context.Context, db Querier, c *semantic.Column, query string, args ...any) ([]string, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("checking values of %s: %w", c.Ref(), err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("checking values of %s: %w", c.Ref(), err)
		}
		out = append(out, s)
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
