// Package sqldialect holds what differs between the SQL engines both servers run on (SQLite and
// PostgreSQL), and DuckDB, the columnar engine lumo's query compiler also renders for.
package sqldialect

import (
	"math"
	"strconv"
	"strings"
)

// Dialect is the SQL an engine needs spelled its own way. Identifiers come only from the catalogue;
// values always travel as bind parameters.
type Dialect interface {
	// Name is "sqlite", "postgres" or "duckdb".
	Name() string
	// Placeholder is the bind parameter for the i-th argument, counting from 1.
	Placeholder(i int) string
	// QuoteIdent quotes an identifier.
	QuoteIdent(name string) string
	// ColumnType is the SQL type of a data column holding values of a semantic type
	// (string, number, date, datetime). Dates travel as ISO text (YYYY-MM-DD,
	// YYYY-MM-DD HH:MM:SS) on every engine. A number column whose decimals are known takes
	// NumberType instead.
	ColumnType(semanticType string) string
}

// Engine names.
const (
	SQLiteName   = "sqlite"
	PostgresName = "postgres"
	DuckDBName   = "duckdb"
)

// SQLite is the embedded engine (modernc.org/sqlite): ? placeholders, dates as ISO text.
type SQLite struct{}

// Postgres is PostgreSQL (lib/pq): $n placeholders, DATE and TIMESTAMP columns, and text columns
// in the "C" collation, so that text sorts and compares by bytes exactly as on SQLite (and one
// btree index serves both ORDER BY and GROUP BY on it).
type Postgres struct{}

// DuckDB is the columnar engine (github.com/duckdb/duckdb-go, cgo): $n placeholders, DATE and
// TIMESTAMP (never TIMESTAMPTZ: the stored wall-clock times are Brasília's, and the session's
// TimeZone must play no part), VARCHAR, which compares and sorts by bytes as SQLite's text does,
// and exact DECIMAL numbers where NumberType allows them.
type DuckDB struct{}

var (
	_ Dialect = SQLite{}
	_ Dialect = Postgres{}
	_ Dialect = DuckDB{}
)

func (SQLite) Name() string             { return SQLiteName }
func (SQLite) Placeholder(i int) string { return "?" + strconv.Itoa(i) } // numbered: a fragment may repeat
func (SQLite) QuoteIdent(name string) string {
	return quoteIdent(name)
}
func (SQLite) ColumnType(semanticType string) string {
	if semanticType == "number" {
		return "REAL"
	}
	return "TEXT"
}

func (Postgres) Name() string             { return PostgresName }
func (Postgres) Placeholder(i int) string { return "$" + strconv.Itoa(i) }
func (Postgres) QuoteIdent(name string) string {
	return quoteIdent(name)
}
func (Postgres) ColumnType(semanticType string) string {
	switch semanticType {
	case "number":
		return "DOUBLE PRECISION"
	case "date":
		return "DATE"
	case "datetime":
		return "TIMESTAMP"
	}
	return `TEXT COLLATE "C"`
}

func (DuckDB) Name() string             { return DuckDBName }
func (DuckDB) Placeholder(i int) string { return "$" + strconv.Itoa(i) }
func (DuckDB) QuoteIdent(name string) string {
	return quoteIdent(name)
}

// ColumnType: a number of unknown decimals is a DOUBLE, as on the row stores.
func (DuckDB) ColumnType(semanticType string) string {
	switch semanticType {
	case "number":
		return "DOUBLE"
	case "date":
		return "DATE"
	case "datetime":
		return "TIMESTAMP"
	}
	return "VARCHAR"
}

// MaxExactScale and MaxExactDigits bound the number columns NumberType makes exact decimals.
// Up to 15 significant digits a decimal survives the float64 it may travel as on its way in, and
// every sum of such values stays far below DECIMAL(38)'s 10^38 (DuckDB's SUM of a DECIMAL checks
// only its 128-bit integer, about 1.7 × 10^38, for overflow, not the 38 digits). Past 10
// decimals, which is all a query shows (see query's round), the values are binary fractions
// written out rather than decimals (0.30000000000000004).
const (
	MaxExactScale  = 10
	MaxExactDigits = 15
)

// NumberType is the SQL type of a number column whose values have at most scale decimals and
// an absolute value of at most maxAbs. SQLite's REAL and PostgreSQL's DOUBLE PRECISION hold
// every number as a float64 (a query rounds each result to the column's scale); on DuckDB a
// column within MaxExactScale and MaxExactDigits is an exact decimal, so its sums are exact
// (DuckDB sums a DECIMAL into a DECIMAL(38, scale)), and any other is a DOUBLE. The column is
// DECIMAL(18, scale), which DuckDB stores, scans, compares and joins as a 64-bit integer; its
// sums are still DECIMAL(38, scale), accumulated in 128 bits.
func NumberType(d Dialect, scale int, maxAbs float64) string {
	if d.Name() != DuckDBName || scale < 0 || scale > MaxExactScale || !(maxAbs*math.Pow10(scale) < math.Pow10(MaxExactDigits)) {
		return d.ColumnType("number")
	}
	return "DECIMAL(18," + strconv.Itoa(scale) + ")"
}

// quoteIdent double-quotes name (every engine follows the SQL standard here), doubling inner quotes.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// Rebind rewrites the ? placeholders of query into d's placeholders, in order. It does not look
// inside string literals, so queries passed here must not contain a literal "?".
func Rebind(d Dialect, query string) string {
	var b strings.Builder
	n := 0
	for {
		i := strings.IndexByte(query, '?')
		if i < 0 {
			b.WriteString(query)
			return b.String()
		}
		n++
		b.WriteString(query[:i])
		b.WriteString(d.Placeholder(n))
		query = query[i+1:]
	}
}

// Query-compiler spellings, one per engine. Dates are ISO text on SQLite and DATE/TIMESTAMP on
// PostgreSQL and DuckDB, wall-clock times in Brasília (the import reads them so), never converted
// between zones; all produce the same bucket values: day YYYY-MM-DD, month YYYY-MM, year and
// month_of_year and day_of_week (0 = Sunday) integers, hour_of_day "HH:00".

// Bucket cuts a date expression by bucket.
func Bucket(d Dialect, expr, bucket string) string {
	switch d.Name() {
	case PostgresName:
		switch bucket {
		case "day":
			return "to_char(" + expr + ", 'YYYY-MM-DD')"
		case "month":
			return "to_char(" + expr + ", 'YYYY-MM')"
		case "year":
			return "CAST(EXTRACT(YEAR FROM " + expr + ") AS INTEGER)"
		case "month_of_year":
			return "CAST(EXTRACT(MONTH FROM " + expr + ") AS INTEGER)"
		case "hour_of_day":
			return "(to_char(" + expr + ", 'HH24') || ':00')"
		case "day_of_week":
			return "CAST(EXTRACT(DOW FROM " + expr + ") AS INTEGER)"
		}
		return expr
	case DuckDBName: // on DATE and TIMESTAMP alike; year, month and dayofweek are BIGINT
		switch bucket {
		case "day":
			return "strftime(" + expr + ", '%Y-%m-%d')"
		case "month":
			return "strftime(" + expr + ", '%Y-%m')"
		case "year":
			return "year(" + expr + ")"
		case "month_of_year":
			return "month(" + expr + ")"
		case "hour_of_day":
			return "(strftime(" + expr + ", '%H') || ':00')"
		case "day_of_week":
			return "dayofweek(" + expr + ")"
		}
		return expr
	}
	switch bucket {
	case "day":
		return "substr(" + expr + ", 1, 10)"
	case "month":
		return "substr(" + expr + ", 1, 7)"
	case "year":
		return "CAST(substr(" + expr + ", 1, 4) AS INTEGER)"
	case "month_of_year":
		return "CAST(substr(" + expr + ", 6, 2) AS INTEGER)"
	case "hour_of_day":
		return "(substr(" + expr + ", 12, 2) || ':00')"
	case "day_of_week":
		return "CAST(strftime('%w', " + expr + ") AS INTEGER)"
	}
	return expr
}

// BucketGroup is Bucket split for a GROUP BY: the key to group rows by and the bucket's value
// written over that key. On PostgreSQL and DuckDB the text buckets group by a date or an hour and
// format once per group: formatting every row cost PostgreSQL 2.3 times the grouping by month of
// a million rows, and DuckDB 2 to 5 times the grouping by day, month or hour of 20 million.
// Elsewhere both are Bucket.
func BucketGroup(d Dialect, expr, bucket string) (key, value string) {
	switch d.Name() {
	case PostgresName:
		switch bucket {
		case "day", "month":
			// A date becomes a timestamp without time zone: the session's zone plays no part.
			key = "date_trunc('" + bucket + "', CAST(" + expr + " AS TIMESTAMP))"
			return key, Bucket(d, key, bucket)
		case "hour_of_day":
			key = "CAST(EXTRACT(HOUR FROM " + expr + ") AS INTEGER)"
			return key, "(lpad(CAST(" + key + " AS TEXT), 2, '0') || ':00')"
		}
	case DuckDBName:
		switch bucket {
		case "day":
			key = "CAST(" + expr + " AS DATE)"
			return key, Bucket(d, key, bucket)
		case "month":
			key = "date_trunc('month', " + expr + ")"
			return key, Bucket(d, key, bucket)
		case "hour_of_day":
			key = "hour(" + expr + ")"
			return key, "(lpad(CAST(" + key + " AS VARCHAR), 2, '0') || ':00')"
		}
	}
	e := Bucket(d, expr, bucket)
	return e, e
}

// NullSafeEq is a = b where NULL equals NULL.
func NullSafeEq(d Dialect, a, b string) string {
	if d.Name() == SQLiteName {
		return a + " IS " + b
	}
	return a + " IS NOT DISTINCT FROM " + b
}

// Float casts a numeric expression to floating point, so integer counts divide exactly.
func Float(d Dialect, expr string) string {
	switch d.Name() {
	case PostgresName:
		return "CAST(" + expr + " AS DOUBLE PRECISION)"
	case DuckDBName:
		return "CAST(" + expr + " AS DOUBLE)"
	}
	return "CAST(" + expr + " AS REAL)"
}

// Round rounds a numeric expression to scale decimals: on the engines that hold numbers as
// doubles, so that a calculation on exact decimals (517.79 - 350.27) is the double of its exact
// result (167.52), as DuckDB's DECIMAL arithmetic gives it, and equal values answered equal
// compare, group and sort as equal.
func Round(d Dialect, expr string, scale int) string {
	s := strconv.Itoa(scale)
	if d.Name() == PostgresName { // round(double precision, int) does not exist
		return "CAST(ROUND(CAST(" + expr + " AS NUMERIC), " + s + ") AS DOUBLE PRECISION)"
	}
	return "ROUND(" + expr + ", " + s + ")"
}

// NullNumber is a typed numeric NULL (UNION branches agree on the type).
func NullNumber(d Dialect) string { return Float(d, "NULL") }

// Binary makes text compare and sort by code point on every engine (SQLite's and DuckDB's
// default), instead of PostgreSQL's locale order.
func Binary(d Dialect, expr string) string {
	if d.Name() == PostgresName {
		return expr + ` COLLATE "C"`
	}
	return expr
}

// DayDiff is the days from date b to date a (dates or date-times), a fraction for times apart.
func DayDiff(d Dialect, a, b string) string {
	switch d.Name() {
	case PostgresName:
		return "CAST(EXTRACT(EPOCH FROM (CAST(" + a + " AS TIMESTAMP) - CAST(" + b + " AS TIMESTAMP))) / 86400 AS DOUBLE PRECISION)"
	case DuckDBName:
		return "(CAST(epoch_us(CAST(" + a + " AS TIMESTAMP)) - epoch_us(CAST(" + b + " AS TIMESTAMP)) AS DOUBLE) / 86400000000)"
	}
	return "(julianday(" + a + ") - julianday(" + b + "))"
}

// DateParam is a bind placeholder for a date or date-time given as ISO text, typed for the engine.
func DateParam(d Dialect, placeholder, columnType string) string {
	if d.Name() == SQLiteName {
		return placeholder
	}
	if columnType == "date" {
		return "CAST(" + placeholder + " AS DATE)"
	}
	return "CAST(" + placeholder + " AS TIMESTAMP)"
}
