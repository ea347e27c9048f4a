package values

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/semantic"
	"github.com/lumo-caderninho/mcp/impl/sqldialect"
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
	rows, distinct, err := r.pairStats(ctx, c)
	if err != nil || distinct <= 0 {
		return false, err
	}
	return rows >= looseMinRepeats*distinct, nil
}

// pairStats estimates the rows of c's table and its distinct (folded copy, value) pairs from the
// engine's statistics; distinct is 0 when they are missing or c has no index on the pair.
func (r Reader) pairStats(ctx context.Context, c *semantic.Column) (rows, distinct float64, err error) {
	if r.Dialect.Name() == sqldialect.PostgresName {
		return r.pgPairStats(ctx, c)
	}
	return r.sqlitePairStats(ctx, c)
}

// pgPairStats reads the row estimate of pg_class and the distinct estimates of pg_stats (the
// pairs number at least the larger of the two columns'; n_distinct < 0 is a fraction of the rows),
// provided a valid, whole btree index leads with (folded copy NULLS FIRST, value), the order the
// loose walk asks for.
func (r Reader) pgPairStats(ctx context.Context, c *semantic.Column) (rows, distinct float64, err error) {
	const q = `SELECT c.reltuples::float8,
	(SELECT s.n_distinct FROM pg_stats s WHERE s.schemaname = n.nspname AND s.tablename = c.relname AND s.attname = $2)::float8,
	(SELECT s.n_distinct FROM pg_stats s WHERE s.schemaname = n.nspname AND s.tablename = c.relname AND s.attname = $3)::float8,
	EXISTS (SELECT 1 FROM pg_index i
		JOIN pg_class ic ON ic.oid = i.indexrelid
		JOIN pg_am am ON am.oid = ic.relam AND am.amname = 'btree'
		JOIN pg_attribute f ON f.attrelid = c.oid AND f.attnum = i.indkey[0]
		JOIN pg_attribute v ON v.attrelid = c.oid AND v.attnum = i.indkey[1]
		WHERE i.indrelid = c.oid AND i.indisvalid AND i.indpred IS NULL AND i.indexprs IS NULL
			AND f.attname = $2 AND v.attname = $3 AND i.indoption[0] = 2 AND i.indoption[1] = 0)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.oid = to_regclass($1)`
	var nf, nv sql.NullFloat64
	var indexed bool
	err = r.DB.QueryRowContext(ctx, q, r.q(c.Table.SQLName), c.FoldSQLName, c.SQLName).Scan(&rows, &nf, &nv, &indexed)
	if errors.Is(err, sql.ErrNoRows) || err == nil && (!indexed || !nf.Valid || !nv.Valid || rows <= 0) {
		return 0, 0, nil // no table, index or statistics (reltuples is -1 before the first ANALYZE)
	}
	if err != nil {
		return 0, 0, err
	}
	abs := func(n float64) float64 {
		if n < 0 {
			return -n * rows
		}
		return n
	}
	return rows, max(abs(nf.Float64), abs(nv.Float64)), nil
}

// sqlitePairStats reads sqlite_stat1 of the index whose first two columns are the folded copy
// and the value: "rows avg-rows-per-folded-copy avg-rows-per-pair ...", so the pairs are rows
// over the third number. A database never analysed has no sqlite_stat1 table.
func (r Reader) sqlitePairStats(ctx context.Context, c *semantic.Column) (rows, distinct float64, err error) {
	var exists bool
	if err := r.DB.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'sqlite_stat1')`).Scan(&exists); err != nil || !exists {
		return 0, 0, err
	}
	var stat string
	err = r.DB.QueryRowContext(ctx, `SELECT s.stat FROM sqlite_stat1 s
WHERE s.tbl = ? AND (SELECT name FROM pragma_index_info(s.idx) WHERE seqno = 0) = ?
	AND (SELECT name FROM pragma_index_info(s.idx) WHERE seqno = 1) = ?
LIMIT 1`, c.Table.SQLName, c.FoldSQLName, c.SQLName).Scan(&stat)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	f := strings.Fields(stat)
	if len(f) < 3 {
		return 0, 0, nil
	}
	n, err1 := strconv.ParseFloat(f[0], 64)
	perPair, err2 := strconv.ParseFloat(f[2], 64)
	if err1 != nil || err2 != nil || n <= 0 || perPair <= 0 {
		return 0, 0, nil
	}
	return n, n / perPair, nil
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
