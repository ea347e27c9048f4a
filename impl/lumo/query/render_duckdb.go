package query

// duckdbEngine is DuckDB, the columnar engine: a parameter whose type the context does not give
// is cast, so that it means what it means on the row stores (a number literal a DOUBLE, a date
// literal a DATE), and there is no index to walk.
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

func (duckdbEngine) filtersPartials() {}
