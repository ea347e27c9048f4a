// Package sqldialect holds what differs between the SQL engines lumo runs on (SQLite and PostgreSQL).
package sqldialect

import (
	"strconv"
	"strings"
)

// Dialect is the SQL an engine needs spelled its own way. Identifiers come only from the catalogue;
// values always travel as bind parameters.
type Dialect interface {
	// Name is "sqlite" or "postgres".
	Name() string
	// Placeholder is the bind parameter for the i-th argument, counting from 1.
	Placeholder(i int) string
	// QuoteIdent quotes an identifier.
	QuoteIdent(name string) string
	// ColumnType is the SQL type of a data column holding values of a semantic type
	// (string, number, date, datetime). Dates travel as ISO text (YYYY-MM-DD,
	// YYYY-MM-DD HH:MM:SS) on every engine.
	ColumnType(semanticType string) string
}

// Engine names.
const (
	SQLiteName   = "sqlite"
	PostgresName = "postgres"
)

// SQLite is the embedded engine (modernc.org/sqlite): ? placeholders, dates as ISO text.
type SQLite struct{}

// Postgres is PostgreSQL (lib/pq): $n placeholders, DATE and TIMESTAMP columns, and text columns
// in the "C" collation, so that text sorts and compares by bytes exactly as on SQLite (and one
// btree index serves both ORDER BY and GROUP BY on it).
type Postgres struct{}

var (
	_ Dialect = SQLite{}
	_ Dialect = Postgres{}
)

func (SQLite) Name() string           { return SQLiteName }
func (SQLite) Placeholder(int) string { return "?" }
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

// quoteIdent double-quotes name (both engines follow the SQL standard here), doubling inner quotes.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// Rebind rewrites the ? placeholders of query into d's placeholders, in order. It does not look
// inside string literals, so queries passed here must not contain a literal "?".
func Rebind(d Dialect, query string) string {
	if d.Placeholder(1) == "?" {
		return query
	}
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
