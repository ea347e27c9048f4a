package query

import (
	"strconv"
	"strings"
)

// duckdbEngine is DuckDB, the columnar engine: a parameter whose type the context does not give
// is cast (a date literal a DATE, a row formula's number literal the exact decimal written, as
// the copy's exact columns are), and there is no index to walk.
type duckdbEngine struct{ dialectEngine }

// typed casts as on PostgreSQL: the spellings read alike on DuckDB (TEXT is VARCHAR's alias).
func (e duckdbEngine) typed(placeholder, typ string) string {
	return postgresEngine(e).typed(placeholder, typ)
}

// float leaves the NULL partials of a multi-fact query's blocks untyped: on DuckDB an untyped
// NULL takes the type of the UNION's other branches, so a block's exact DECIMAL sums stay
// DECIMAL (a DOUBLE NULL would turn them, and the summary's sum of them, into floating point).
func (e duckdbEngine) float(expr string) string {
	if expr == "NULL" {
		return expr
	}
	return e.dialectEngine.float(expr)
}

func (duckdbEngine) countDistinct(col, from string, where []string) string {
	return "(SELECT COUNT(DISTINCT " + col + ")" + from + whereClause(where) + ")"
}

// exact is the calculation itself: DuckDB computes on DECIMAL columns exactly, and a ROUND per row
// would double the time of a sum over them.
func (duckdbEngine) exact(expr string, _ int) string { return expr }

func (duckdbEngine) decorrelatesExists() {}

// decimalLiteral is DECIMAL(38, the decimals written), or a DOUBLE past 18 decimals or 38 digits.
func (e duckdbEngine) decimalLiteral(placeholder, text string) string {
	whole, frac, _ := strings.Cut(text, ".")
	whole = strings.TrimLeft(whole, "0")
	if len(frac) > 18 || len(whole)+len(frac) > 38 || strings.ContainsAny(text, "eE") {
		return "CAST(" + placeholder + " AS DOUBLE)"
	}
	return "CAST(" + placeholder + " AS DECIMAL(38, " + strconv.Itoa(len(frac)) + "))"
}

// times computes a product of exact decimals in 38 digits: DuckDB types DECIMAL(18, a) *
// DECIMAL(18, b) as DECIMAL(18, a + b) and fails past it (7-digit values with 6 decimals each),
// where a DECIMAL(38) factor makes it DECIMAL(38, a + b). A DOUBLE operand makes it a DOUBLE, as it
// was.
func (duckdbEngine) times(l, r string) string {
	return "(" + l + " * CAST(1 AS DECIMAL(38, 0)) * " + r + ")"
}

func (duckdbEngine) filtersPartials() {}
