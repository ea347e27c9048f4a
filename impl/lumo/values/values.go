// Package values reads what search_values shows of an app's data: the distinct values of a column,
// the values of text columns that contain given words, and example rows of a table. Every read is
// bounded on the engine (SELECT DISTINCT with LIMIT, COUNT on the engine): rows never stream whole
// into Go.
package values

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// Reader runs the reads on one database. Identifiers come only from the semantic model; words
// travel as bound LIKE patterns.
type Reader struct {
	DB      *sql.DB
	Dialect sqldialect.Dialect
	// Values names the table to read a text column's distinct values from: a table of them
	// (the columnar copy's, see columnar.Store.ValuesOf), or the column's own table. nil: its own.
	Values func(*semantic.Column) string
}

// Distinct is a page of a column's distinct values and how many there are in all.
type Distinct struct {
	// Values in order: text by its folded form (lower case, no accents), then byte by byte; dates
	// by date. nil is the blank value (NULL, or empty text), which comes first.
	Values []*string
	// Total counts the distinct values matching the words, the blank value as one.
	Total int64
}

// Searchable reports whether Distinct and Matches accept c: text and date columns.
func Searchable(c *semantic.Column) bool { return isText(c) || isDate(c) }

func isText(c *semantic.Column) bool { return c.Type == semantic.TypeString }

func isDate(c *semantic.Column) bool {
	return c.Type == semantic.TypeDate || c.Type == semantic.TypeDatetime
}

// Distinct returns the first limit distinct values of c (a text or date column) and their total.
// On a text column only values containing every word of words count (as substrings, ignoring
// case and accents); words are ignored on a date column. The page and the total come from one snapshot.
func (r Reader) Distinct(ctx context.Context, c *semantic.Column, words []string, limit int) (Distinct, error) {
	if !Searchable(c) {
		return Distinct{}, fmt.Errorf("distinct values of %s: a %s column", c.Ref(), c.Type)
	}
	tx, err := r.DB.BeginTx(ctx, r.snapshot())
	if err != nil {
		return Distinct{}, fmt.Errorf("distinct values of %s: %w", c.Ref(), err)
	}
	defer tx.Rollback()

	// One row more than asked: NULL and '' are two groups that fold into one blank value.
	page, count, args := r.distinctSQL(c, words, limit+1)
	rows, err := tx.QueryContext(ctx, page, args...)
	if err != nil {
		return Distinct{}, fmt.Errorf("distinct values of %s: %w", c.Ref(), err)
	}
	var d Distinct
	blank, blankGroups, groups := false, 0, 0
	for rows.Next() {
		groups++
		var f, v any
		dest := []any{&v}
		if isText(c) {
			dest = []any{&f, &v}
		}
		if err := rows.Scan(dest...); err != nil {
			rows.Close()
			return Distinct{}, fmt.Errorf("distinct values of %s: %w", c.Ref(), err)
		}
		s, ok := cellText(c, v)
		if !ok || (isText(c) && s == "") {
			blankGroups++
			if blank {
				continue
			}
			blank = true
			d.Values = append(d.Values, nil)
			continue
		}
		d.Values = append(d.Values, &s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Distinct{}, fmt.Errorf("distinct values of %s: %w", c.Ref(), err)
	}
	if groups <= limit {
		// The page holds every group: no need to count them again.
		d.Total = int64(len(d.Values))
		return d, nil
	}
	if len(d.Values) > limit {
		d.Values = d.Values[:limit]
	}
	if err := tx.QueryRowContext(ctx, count, args...).Scan(&d.Total); err != nil {
		return Distinct{}, fmt.Errorf("counting distinct values of %s: %w", c.Ref(), err)
	}
	// The blank groups (NULL, then '') sort first, so the page saw both if both exist.
	if blankGroups > 1 {
		d.Total -= int64(blankGroups - 1)
	}
	return d, nil
}

// distinctSQL is the query of the first limit distinct values of c and the query of their count,
// with their (shared) arguments. The value is the last column of the page.
//
// Text is distinct on (folded copy, value) and ordered so, the order of the column's index
// (see store's indexTable); a date on its value. Both queries walk that index without sorting.
// SELECT DISTINCT (rather than GROUP BY) lets SQLite skip ahead to the next distinct key in the
// index when the column has many repeated values; the inner ORDER BY of the count only makes
// PostgreSQL de-duplicate in the index's order (NULLS FIRST) instead of sorting.
func (r Reader) distinctSQL(c *semantic.Column, words []string, limit int) (page, count string, args []any) {
	page, count, args = r.distinctParts(c, words, limit)
	return r.rebind(page), r.rebind(count), args
}

// distinctParts is distinctSQL with its placeholders as "?".
func (r Reader) distinctParts(c *semantic.Column, words []string, limit int) (page, count string, args []any) {
	nf := sqldialect.NullsFirst(r.Dialect)
	cols, order := r.q(c.SQLName), r.q(c.SQLName)+nf
	if isText(c) {
		f := r.q(c.FoldSQLName)
		cols, order = f+", "+r.q(c.SQLName), f+nf+", "+r.q(c.SQLName)
	}
	var where string
	if isText(c) {
		where, args = r.wordsWhere(r.q(c.FoldSQLName), words)
	}
	table, selectDistinct := c.Table.SQLName, "SELECT DISTINCT "
	if r.Values != nil && isText(c) {
		table = r.Values(c)
		if table != c.Table.SQLName { // a value table's rows are distinct already
			selectDistinct = "SELECT "
		}
	}
	distinct := selectDistinct + cols + " FROM " + r.q(table) + where + " ORDER BY " + order
	page = distinct + fmt.Sprintf(" LIMIT %d", limit)
	count = "SELECT COUNT(*) FROM (" + distinct + ") g"
	return page, count, args
}

// wordsWhere is the WHERE clause that keeps rows whose folded copy (the SQL expression folded)
// contains every word. Words are folded here as the copy was at import (fold.Fold), so both sides
// are lower case without accents and LIKE compares them alike on every engine (SQLite's LIKE
// ignores ASCII case, PostgreSQL's does not).
func (r Reader) wordsWhere(folded string, words []string) (string, []any) {
	var terms []string
	var args []any
	for _, w := range words {
		for _, fw := range fold.Words(w) {
			cond, arg := sqldialect.Contains(r.Dialect, folded, fw)
			terms, args = append(terms, cond), append(args, arg)
		}
	}
	if len(terms) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(terms, " AND "), args
}

// Matches returns up to limit distinct values of the text column c that contain every word,
// in the order of Distinct, and whether there are more.
func (r Reader) Matches(ctx context.Context, c *semantic.Column, words []string, limit int) ([]string, bool, error) {
	loose, err := r.walksLoose(ctx, c)
	if err != nil {
		return nil, false, fmt.Errorf("matching words in %s: %w", c.Ref(), err)
	}
	return r.matches(ctx, c, words, limit, loose)
}

// matches is Matches reading c by the loose walk (looseSQL) or by the plain scan (distinctSQL).
func (r Reader) matches(ctx context.Context, c *semantic.Column, words []string, limit int, loose bool) ([]string, bool, error) {
	if !isText(c) || len(words) == 0 {
		return nil, false, fmt.Errorf("matching words in %s: needs a text column and words", c.Ref())
	}
	q, _, args := r.distinctSQL(c, words, limit+1)
	if loose {
		q, args = r.looseSQL(c, words, limit+1)
	}
	rows, err := r.DB.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, false, fmt.Errorf("matching words in %s: %w", c.Ref(), err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var f, v sql.NullString
		if err := rows.Scan(&f, &v); err != nil {
			return nil, false, fmt.Errorf("matching words in %s: %w", c.Ref(), err)
		}
		out = append(out, v.String)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("matching words in %s: %w", c.Ref(), err)
	}
	if len(out) > limit {
		return out[:limit], true, nil
	}
	return out, false, nil
}

// snapshot is the transaction a read of several statements runs in: PostgreSQL's repeatable read
// (its read committed would give each statement its own snapshot); a DuckDB transaction is a
// snapshot already, and its driver refuses the read-only option.
func (r Reader) snapshot() *sql.TxOptions {
	switch r.Dialect.Name() {
	case sqldialect.PostgresName:
		return &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead}
	case sqldialect.DuckDBName:
		return nil
	}
	return &sql.TxOptions{ReadOnly: true}
}

// Sample returns up to n rows of t with the columns cols (of t), the first rows in load order:
// SQLite reads by rowid; DuckDB scans in the order rows were appended (it preserves insertion
// order, and a view of an import's file has no rowid to order by); PostgreSQL reads the table
// from its first page (synchronised scans off, so a concurrent scan cannot make it start
// elsewhere), which for lumo's data tables, written once by COPY and never updated, is load
// order too. Cells are string, float64 or nil;
// dates are ISO text (YYYY-MM-DD, YYYY-MM-DD HH:MM:SS).
func (r Reader) Sample(ctx context.Context, t *semantic.Table, cols []*semantic.Column, n int) ([][]any, error) {
	if len(cols) == 0 {
		return [][]any{}, nil
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = r.q(c.SQLName)
	}
	q := "SELECT " + strings.Join(names, ", ") + " FROM " + r.q(t.SQLName)
	pg := r.Dialect.Name() == sqldialect.PostgresName
	if r.Dialect.Name() == sqldialect.SQLiteName {
		q += " ORDER BY rowid" // SQLite's rowid counts rows in the order they were appended
	}
	q += fmt.Sprintf(" LIMIT %d", n)
	tx, err := r.DB.BeginTx(ctx, r.snapshot())
	if err != nil {
		return nil, fmt.Errorf("sampling %s: %w", t.Label, err)
	}
	defer tx.Rollback()
	if pg {
		if _, err := tx.ExecContext(ctx, "SET LOCAL synchronize_seqscans = off"); err != nil {
			return nil, fmt.Errorf("sampling %s: %w", t.Label, err)
		}
	}
	rows, err := tx.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("sampling %s: %w", t.Label, err)
	}
	defer rows.Close()
	out := [][]any{}
	for rows.Next() {
		raw := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range raw {
			ptrs[i] = &raw[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("sampling %s: %w", t.Label, err)
		}
		row := make([]any, len(cols))
		for i, c := range cols {
			row[i] = cell(c, raw[i])
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sampling %s: %w", t.Label, err)
	}
	return out, nil
}

// Stored forms of dates, as the importer writes them on SQLite.
const (
	dateLayout     = "2006-01-02"
	datetimeLayout = "2006-01-02 15:04:05"
)

// cell turns a scanned value into a JSON cell: nil, float64 for numbers, string otherwise.
// DuckDB gives an exact number (a DECIMAL, a 128-bit integer) as a type that prints its digits.
func cell(c *semantic.Column, v any) any {
	if c.Type == semantic.TypeNumber {
		switch n := v.(type) {
		case float64:
			return n
		case int64:
			return float64(n)
		case int32:
			return float64(n)
		case fmt.Stringer:
			if f, err := strconv.ParseFloat(n.String(), 64); err == nil {
				return f
			}
		}
	}
	if s, ok := cellText(c, v); ok {
		return s
	}
	return nil
}

// cellText renders a scanned text or date value; ok is false for NULL.
func cellText(c *semantic.Column, v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "", false
	case string:
		return x, true
	case []byte:
		return string(x), true
	case time.Time:
		if c.Type == semantic.TypeDate {
			return x.Format(dateLayout), true
		}
		return x.Format(datetimeLayout), true
	}
	return fmt.Sprint(v), true
}

func (r Reader) q(name string) string { return r.Dialect.QuoteIdent(name) }

func (r Reader) rebind(q string) string { return sqldialect.Rebind(r.Dialect, q) }
