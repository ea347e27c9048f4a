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

// Contains is the condition that the text expression text contains word, with one "?" for its
// argument arg. DuckDB gets its contains(), a substring search many times faster than LIKE with
// an escape character (which leaves DuckDB's fast paths for the generic matcher); the other
// engines get LIKE on ContainsPattern. Both compare bytes: a folded copy against a folded word.
func Contains(d Dialect, text, word string) (cond string, arg string) {
	if d.Name() == DuckDBName {
		return "contains(" + text + ", ?)", word
	}
	return text + " LIKE ? ESCAPE '" + LikeEscape + "'", ContainsPattern(word)
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
