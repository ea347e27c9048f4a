package sqldialect

import "testing"

func TestDialects(t *testing.T) {
	tests := []struct {
		d                                Dialect
		name, ph3, quoted, num, dts, str string
	}{
		{SQLite{}, "sqlite", "?3", `"a""b"`, "REAL", "TEXT", "TEXT"},
		{Postgres{}, "postgres", "$3", `"a""b"`, "DOUBLE PRECISION", "TIMESTAMP", `TEXT COLLATE "C"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.d.Name(); got != tt.name {
				t.Errorf("Name() = %q", got)
			}
			if got := tt.d.Placeholder(3); got != tt.ph3 {
				t.Errorf("Placeholder(3) = %q, want %q", got, tt.ph3)
			}
			if got := tt.d.QuoteIdent(`a"b`); got != tt.quoted {
				t.Errorf("QuoteIdent = %q, want %q", got, tt.quoted)
			}
			if got := tt.d.ColumnType("number"); got != tt.num {
				t.Errorf("ColumnType(number) = %q, want %q", got, tt.num)
			}
			if got := tt.d.ColumnType("datetime"); got != tt.dts {
				t.Errorf("ColumnType(datetime) = %q, want %q", got, tt.dts)
			}
			if got := tt.d.ColumnType("string"); got != tt.str {
				t.Errorf("ColumnType(string) = %q, want %q", got, tt.str)
			}
		})
	}
}

func TestRebind(t *testing.T) {
	q := "SELECT a FROM t WHERE b = ? AND c IN (?, ?)"
	if got, want := Rebind(SQLite{}, q), "SELECT a FROM t WHERE b = ?1 AND c IN (?2, ?3)"; got != want {
		t.Errorf("sqlite: %q, want %q", got, want)
	}
	want := "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)"
	if got := Rebind(Postgres{}, q); got != want {
		t.Errorf("postgres: %q, want %q", got, want)
	}
}

func TestContainsPattern(t *testing.T) {
	tests := map[string]string{
		"sao":  "%sao%",
		"50%":  `%50\%%`,
		"a_b":  `%a\_b%`,
		`c:\x`: `%c:\\x%`,
		"":     "%%",
		"ção":  "%ção%",
	}
	for in, want := range tests {
		if got := ContainsPattern(in); got != want {
			t.Errorf("ContainsPattern(%q) = %q, want %q", in, got, want)
		}
	}
	if NullsFirst(SQLite{}) != "" || NullsFirst(Postgres{}) != " NULLS FIRST" {
		t.Errorf("NullsFirst: %q, %q", NullsFirst(SQLite{}), NullsFirst(Postgres{}))
	}
}
