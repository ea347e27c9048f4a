package sqldialect

import "testing"

func TestDialects(t *testing.T) {
	tests := []struct {
		d                           Dialect
		name, ph3, quoted, num, dts string
	}{
		{SQLite{}, "sqlite", "?3", `"a""b"`, "REAL", "TEXT"},
		{Postgres{}, "postgres", "$3", `"a""b"`, "DOUBLE PRECISION", "TIMESTAMP"},
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
			if got := tt.d.ColumnType("string"); got != "TEXT" {
				t.Errorf("ColumnType(string) = %q", got)
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
