package query

// duckdbEngine is DuckDB, the columnar engine: a parameter whose type the context does not give
// is cast, so that it means what it means on the row stores (a number literal a DOUBLE, a date
// literal a DATE), and there is no index to walk.
type duckdbEngine struct {
	dialectEngine
	wide bool // products in 38 digits (see times)
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
