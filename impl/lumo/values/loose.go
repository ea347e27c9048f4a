package values

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// A word search reads a text column through its btree index on (folded copy, value) in one of two
// ways. The plain one (distinctSQL) tests every index entry, one per row: at 10M rows that is
// seconds even when the column has a handful of values. The loose one (looseSQL) jumps from one
// distinct (folded copy, value) pair to the next, one index descent per distinct value, and tests
// each pair once: far cheaper when values repeat, far dearer when they are (nearly) unique, where a
// descent costs what some 20-40 entries of the plain scan do. The engine's statistics (from the
// ANALYZE that follows every import) decide: the loose walk is taken when the pairs repeat at least
// looseMinRepeats times on average, the plain scan otherwise, and also when there are no
// statistics or no such index (a column with texts too long to index).
const looseMinRepeats = 32

// walksLoose reports whether Matches should read c with the loose walk (see looseMinRepeats).
func (r Reader) walksLoose(ctx context.Context, c *semantic.Column) (bool, error) {
	loose, err := r.WalkLoose(ctx, []*semantic.Column{c})
	if err != nil {
		return false, err
	}
	return loose[0], nil
}

// WalkLoose tells for each text column of cols whether to read it with the loose walk, from one
// read of the statistics for all of them. The query package's count_distinct summary walks the
// same index by the same rule.
func (r Reader) WalkLoose(ctx context.Context, cols []*semantic.Column) ([]bool, error) {
	var stats map[int]pairStats
	var err error
	switch r.Dialect.Name() {
	case sqldialect.DuckDBName: // no index to walk: every column reads by the plain scan
		return make([]bool, len(cols)), nil
	case sqldialect.PostgresName:
		stats, err = r.pgPairStats(ctx, cols)
	default:
		stats, err = r.sqlitePairStats(ctx, cols)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the statistics of the text columns: %w", err)
	}
	loose := make([]bool, len(cols))
	for i, s := range stats {
		loose[i] = s.distinct > 0 && s.rows >= looseMinRepeats*s.distinct
	}
	return loose, nil
}

// pairStats estimates the rows of a column's table and its distinct (folded copy, value) pairs.
type pairStats struct{ rows, distinct float64 }

// statsKeys is the VALUES list of cols (position, table, folded copy, value), as bind parameters.
func statsKeys(cols []*semantic.Column) (string, []any) {
	var rows []string
	var args []any
	for i, c := range cols {
		if !isText(c) {
			continue
		}
		rows = append(rows, "(?, ?, ?, ?)")
		args = append(args, i, c.Table.SQLName, c.FoldSQLName, c.SQLName)
	}
	return strings.Join(rows, ", "), args
}

// pgPairStats reads the row estimates of pg_class and the distinct estimates of pg_stats (the
// pairs number at least the larger of the two columns'; n_distinct < 0 is a fraction of the rows)
// of the columns with a valid, whole btree index that leads with (folded copy NULLS FIRST, value),
// the order the loose walk asks for. Columns without statistics (reltuples is -1 before the first
// ANALYZE) or without that index are left out. Two plain queries: pg_stats is a view that plans
// slowly when joined or repeated in one statement.
func (r Reader) pgPairStats(ctx context.Context, cols []*semantic.Column) (map[int]pairStats, error) {
	type key struct{ table, col string }
	var tables, names []any
	for _, c := range cols {
		if isText(c) {
			tables = append(tables, c.Table.SQLName)
			names = append(names, c.FoldSQLName, c.SQLName)
		}
	}
	if len(tables) == 0 {
		return nil, nil
	}
	in := func(n int) string { return "(" + strings.TrimSuffix(strings.Repeat("?, ", n), ", ") + ")" }
	distinct := map[key]float64{}
	err := r.each(ctx, `SELECT tablename::text, attname::text, n_distinct::float8 FROM pg_stats
WHERE schemaname = current_schema() AND tablename IN `+in(len(tables))+` AND attname IN `+in(len(names)),
		append(tables, names...), func(scan func(...any) error) error {
			var k key
			var n float64
			err := scan(&k.table, &k.col, &n)
			distinct[k] = n
			return err
		})
	if err != nil {
		return nil, err
	}
	rows := map[string]float64{}
	indexed := map[key]bool{} // table, folded copy + " " + value
	err = r.each(ctx, `SELECT c.relname::text, c.reltuples::float8, af.attname || ' ' || av.attname
FROM pg_class c
JOIN pg_index i ON i.indrelid = c.oid AND i.indisvalid AND i.indpred IS NULL AND i.indexprs IS NULL
	AND i.indoption[0] = 2 AND i.indoption[1] = 0
JOIN pg_class ic ON ic.oid = i.indexrelid
JOIN pg_am am ON am.oid = ic.relam AND am.amname = 'btree'
JOIN pg_attribute af ON af.attrelid = c.oid AND af.attnum = i.indkey[0]
JOIN pg_attribute av ON av.attrelid = c.oid AND av.attnum = i.indkey[1]
WHERE c.relnamespace = current_schema()::regnamespace AND c.relname IN `+in(len(tables)), tables,
		func(scan func(...any) error) error {
			var k key
			var n float64
			err := scan(&k.table, &n, &k.col)
			rows[k.table], indexed[k] = n, true
			return err
		})
	if err != nil {
		return nil, err
	}
	out := map[int]pairStats{}
	for i, c := range cols {
		t := c.Table.SQLName
		n := rows[t]
		nf, okf := distinct[key{t, c.FoldSQLName}]
		nv, okv := distinct[key{t, c.SQLName}]
		if !isText(c) || n <= 0 || !okf || !okv || !indexed[key{t, c.FoldSQLName + " " + c.SQLName}] {
			continue
		}
		abs := func(d float64) float64 {
			if d < 0 {
				return -d * n
			}
			return d
		}
		out[i] = pairStats{rows: n, distinct: max(abs(nf), abs(nv))}
	}
	return out, nil
}

// each runs q and calls row for every row, with the row's Scan.
func (r Reader) each(ctx context.Context, q string, args []any, row func(scan func(...any) error) error) error {
	rows, err := r.DB.QueryContext(ctx, r.rebind(q), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}

// sqlitePairStats reads sqlite_stat1 of the index whose first two columns are the folded copy
// and the value: "rows avg-rows-per-folded-copy avg-rows-per-pair ...", so the pairs are rows
// over the third number. A database never analysed has no sqlite_stat1 table.
func (r Reader) sqlitePairStats(ctx context.Context, cols []*semantic.Column) (map[int]pairStats, error) {
	keys, args := statsKeys(cols)
	if keys == "" {
		return nil, nil
	}
	var exists bool
	if err := r.DB.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'sqlite_stat1')`).Scan(&exists); err != nil || !exists {
		return nil, err
	}
	q := `WITH k (i, t, f, v) AS (VALUES ` + keys + `)
SELECT k.i, s.stat FROM k JOIN sqlite_stat1 s ON s.tbl = k.t
	AND (SELECT name FROM pragma_index_info(s.idx) WHERE seqno = 0) = k.f
	AND (SELECT name FROM pragma_index_info(s.idx) WHERE seqno = 1) = k.v`
	rows, err := r.DB.QueryContext(ctx, r.rebind(q), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int]pairStats{}
	for rows.Next() {
		var i int
		var stat string
		if err := rows.Scan(&i, &stat); err != nil {
			return nil, err
		}
		f := strings.Fields(stat)
		if len(f) < 3 {
			continue
		}
		n, err1 := strconv.ParseFloat(f[0], 64)
		perPair, err2 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil || n <= 0 || perPair <= 0 {
			continue
		}
		out[i] = pairStats{rows: n, distinct: n / perPair}
	}
	return out, rows.Err()
}

// looseSQL is the query of the first limit distinct (folded copy, value) pairs of the text column
// c whose folded copy contains every word, in the order of Distinct, read by the loose walk: a
// recursive query whose every step seeks the index for the first pair after the previous one.
// Both engines produce the recursive rows on demand, in the order they are made (ascending), so
// the LIMIT ends the walk as soon as enough pairs match. The blank value (NULL, or a folded copy
// that contains no word) never matches, so the walk starts at the first non-NULL pair.
//
// PostgreSQL seeks past the previous pair with a row comparison in a LATERAL subquery. SQLite has
// no LATERAL, and it seeks a row comparison to the first entry equal to the previous pair, then
// steps over all its rows; so it seeks the next value of the same folded copy, else the first pair
// of the next folded copy (each a seek past the key), and reads the pair by rowid.
func (r Reader) looseSQL(c *semantic.Column, words []string, limit int) (string, []any) {
	f, v, t := r.q(c.FoldSQLName), r.q(c.SQLName), r.q(c.Table.SQLName)
	nf := sqldialect.NullsFirst(r.Dialect)
	order := " ORDER BY " + f + nf + ", " + v + " LIMIT 1"
	first := "SELECT " + f + ", " + v + " FROM " + t + " WHERE " + f + " IS NOT NULL" + order
	var q string
	if r.Dialect.Name() == sqldialect.PostgresName {
		q = "WITH RECURSIVE d (f, v) AS ((" + first + ") UNION ALL SELECT n.f, n.v FROM d CROSS JOIN LATERAL (SELECT " +
			f + " AS f, " + v + " AS v FROM " + t + " WHERE (" + f + ", " + v + ") > (d.f, d.v)" + order + ") n)"
	} else {
		q = "WITH RECURSIVE d (f, v) AS (SELECT * FROM (" + first + ") UNION ALL SELECT n." + f + ", n." + v +
			" FROM d JOIN " + t + " n ON n.rowid = COALESCE(" +
			"(SELECT rowid FROM " + t + " WHERE " + f + " = d.f AND " + v + " > d.v" + order + "), " +
			"(SELECT rowid FROM " + t + " WHERE " + f + " > d.f" + order + ")))"
	}
	where, args := r.wordsWhere("d.f", words)
	q += " SELECT d.f, d.v FROM d" + where + " LIMIT " + strconv.Itoa(limit)
	return r.rebind(q), args
}
