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
// that does not exist stops the query with the similar values.
func CheckValues(ctx context.Context, db Querier, d sqldialect.Dialect, q *Query) error {
	for _, c := range q.Checks {
		present, err := existing(ctx, db, d, c.Col, c.Values)
		if err != nil {
			return err
		}
		for _, v := range c.Values {
			if present[v] {
				continue
			}
			fixed, err := checkValue(ctx, db, d, c.Col, v)
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

// existing is the set of vs that c holds as written, read in a few statements whatever the count
// of values: one per value is a lookup in the (folded, value) index of the row store, but a scan
// of the column on DuckDB, where a list of thousands would cost thousands of scans.
func existing(ctx context.Context, db Querier, d sqldialect.Dialect, c *semantic.Column, vs []string) (map[string]bool, error) {
	table, col, folded := d.QuoteIdent(c.Table.SQLName), d.QuoteIdent(c.SQLName), d.QuoteIdent(c.FoldSQLName)
	found := map[string]bool{}
	for chunk := range slices.Chunk(vs, existingChunk) {
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(chunk)), ", ")
		args := make([]any, 0, 2*len(chunk))
		for _, v := range chunk {
			args = append(args, fold.Fold(v))
		}
		for _, v := range chunk {
			args = append(args, v)
		}
		rows, err := db.QueryContext(ctx, sqldialect.Rebind(d, "SELECT DISTINCT "+sqldialect.Binary(d, col)+" FROM "+table+
			" WHERE "+folded+" IN ("+marks+") AND "+col+" IN ("+marks+")"), args...)
		if err != nil {
			return nil, fmt.Errorf("checking values of %s: %w", c.Ref(), err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				rows.Close()
				return nil, fmt.Errorf("checking values of %s: %w", c.Ref(), err)
			}
			found[s] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("checking values of %s: %w", c.Ref(), err)
		}
	}
	return found, nil
}

func checkValue(ctx context.Context, db Querier, d sqldialect.Dialect, c *semantic.Column, v string) (string, error) {
	table, col, folded := d.QuoteIdent(c.Table.SQLName), d.QuoteIdent(c.SQLName), d.QuoteIdent(c.FoldSQLName)
	// values lists distinct values in code point order on both engines (the selected column is
	// Binary), so a cut at limit keeps the same candidates, in the same order, everywhere.
	values := func(where string, limit int, args ...any) ([]string, error) {
		query := sqldialect.Rebind(d, "SELECT DISTINCT "+sqldialect.Binary(d, col)+" FROM "+table+" WHERE "+where+
			" ORDER BY 1 LIMIT "+itoa(limit))
		rows, err := db.QueryContext(ctx, query, args...)
		if err != nil {
			return nil, fmt.Errorf("checking values of %s: %w", c.Ref(), err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		return out, rows.Err()
	}
	// The value as written: col = v implies folded = fold(v), which makes this one lookup in the
	// (folded, value) index instead of a scan of the column.
	exact, err := db.QueryContext(ctx, sqldialect.Rebind(d, "SELECT 1 FROM "+table+" WHERE "+folded+" = ? AND "+col+" = ? LIMIT 1"),
		fold.Fold(v), v)
	if err != nil {
		return "", fmt.Errorf("checking values of %s: %w", c.Ref(), err)
	}
	found := exact.Next()
	exact.Close()
	if err := exact.Err(); err != nil {
		return "", fmt.Errorf("checking values of %s: %w", c.Ref(), err)
	}
	if found {
		return v, nil
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
		conds = append(conds, folded+" LIKE ?"+likeEscape)
		args = append(args, sqldialect.ContainsPattern(w))
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
