package query

// sqliteEngine is SQLite (modernc.org/sqlite): dates are ISO text and a bind parameter takes
// its type from its value, so parameters need no cast.
type sqliteEngine struct{ dialectEngine }

func (sqliteEngine) typed(placeholder, _ string) string { return placeholder }

func (sqliteEngine) countDistinct(col, from string, where []string) string {
	return "(SELECT COUNT(DISTINCT " + col + ")" + from + whereClause(where) + ")"
}
