package query

import (
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// duckdbEngine is DuckDB, the columnar engine: a parameter whose type the context does not give
// is cast, so that it means what it means on the row stores (a date literal a DATE; a number
// literal the exact decimal it is, see decimalLiteral), and there is no index to walk.
type duckdbEngine struct {
	dialectEngine
	wide bool // products in 38 digits and numbers as DOUBLE (see times and decimalLiteral)
}

// decimalLiteral types a row formula's number literal, or a filter's number value, as the exact
// decimal of its own digits, DECIMAL(1, 0) for 1 and DECIMAL(2, 2) for 0.03: `[Preço] * (1 -
// [Desconto])` then stays in DECIMAL, exact, and DuckDB computes it, and compares a column with a
// value, in 64-bit integers as fast as its own SQL (TPC-H Q1's sums: 52 ms, against 91 ms with
// DOUBLE literals and 237 ms with DECIMAL(38) ones; Q6's filters 14-19 ms, against 26-29 ms). A
// number of more than MaxExactDigits digits or MaxExactScale decimals stays a DOUBLE. DuckDB keeps
// the sum of two DECIMAL(18) values in DECIMAL(18) and fails past it where a DOUBLE would not:
// such a statement is run again wide, with DOUBLE numbers as before (Statement.wide).
func (e duckdbEngine) decimalLiteral(text string) string {
	if e.wide {
		return ""
	}
	whole, frac, _ := strings.Cut(text, ".")
	whole, frac = strings.TrimLeft(whole, "0"), strings.TrimRight(frac, "0")
	digits := max(len(whole)+len(frac), 1)
	if digits > sqldialect.MaxExactDigits || len(frac) > sqldialect.MaxExactScale {
		return ""
	}
	return "DECIMAL(" + itoa(digits) + ", " + itoa(len(frac)) + ")"
}

// typed casts as on PostgreSQL: the spellings read alike on DuckDB (TEXT is VARCHAR's alias).
func (e duckdbEngine) typed(placeholder, typ string) string {
	return postgresEngine{e.dialectEngine}.typed(placeholder, typ)
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

// times is a product as DuckDB types it, or, wide, computed in 38 digits: DuckDB types
// DECIMAL(18, a) * DECIMAL(18, b) as DECIMAL(18, a + b) and fails past 18 digits (two 7-digit
// values with 6 decimals each), where a DECIMAL(38) factor makes it DECIMAL(38, a + b) (and a
// DOUBLE operand a DOUBLE, as before). Wide costs 128-bit arithmetic on every row (TPC-H Q1 2.7x),
// so a statement is written narrow and written wide only when DuckDB refuses it (Statement.wide).
func (e duckdbEngine) times(l, r string) string {
	if e.wide {
		return "(" + l + " * CAST(1 AS DECIMAL(38, 0)) * " + r + ")"
	}
	return "(" + l + " * " + r + ")"
}

func (duckdbEngine) filtersPartials() {}

func (duckdbEngine) likeWithoutEscape() {}
func (duckdbEngine) affixMatch()        {}
