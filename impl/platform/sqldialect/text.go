package sqldialect

import "strings"

// Text columns compare and sort by bytes on every engine: SQLite's BINARY collation, the "C"
// collation that Postgres.ColumnType gives data text columns, and DuckDB's VARCHAR. Folded copies (lower case, no
// accents) are matched with LIKE on bound patterns built by ContainsPattern.

// LikeEscape is the escape character of ContainsPattern; write `LIKE ? ESCAPE '\'` on every engine.
const LikeEscape = `\`

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// ContainsPattern is the LIKE pattern that finds word anywhere in a text, with LIKE's own
// wildcards in word (% and _) and the escape character taken literally.
func ContainsPattern(word string) string {
	return "%" + likeEscaper.Replace(word) + "%"
}

// NullsFirst is what follows an ascending ORDER BY term (or index column) so that NULL sorts
// before every value, as SQLite always does: " NULLS FIRST" on PostgreSQL and DuckDB (which sort
// NULL last by default), "" on SQLite (whose CREATE INDEX does not accept the clause).
func NullsFirst(d Dialect) string {
	if d.Name() == SQLiteName {
		return ""
	}
	return " NULLS FIRST"
}
