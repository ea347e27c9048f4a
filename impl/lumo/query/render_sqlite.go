package query

// sqliteEngine is SQLite (modernc.org/sqlite): dates are ISO text and a bind parameter takes
// its type from its value, so parameters need no cast.
type sqliteEngine struct{ dialectEngine }

// scanKey is the key under unary plus, a no-op on its value and collation that no index serves.
func (sqliteEngine) scanKey(key string) string { return "+" + key }

func (sqliteEngine) typed(placeholder, _ string) string { return placeholder }

// textEnd: SQLite has no LEFT or RIGHT; substr counts the characters of a text.
func (sqliteEngine) textEnd(expr string, n int, right bool) string {
	if right {
		return "substr(" + expr + ", -" + itoa(n) + ")"
	}
	return "substr(" + expr + ", 1, " + itoa(n) + ")"
}

func (sqliteEngine) countDistinct(col, from string, where []string) string {
	return "(SELECT COUNT(DISTINCT " + col + ")" + from + whereClause(where) + ")"
}
