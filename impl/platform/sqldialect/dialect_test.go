package sqldialect

import "testing"

func TestDialects(t *testing.T) {
	tests := []struct {
		d                                Dialect
		name, ph3, quoted, num, dts, str string
	}{
		{SQLite{}, "sqlite", "?3", `"a""b"`, "REAL", "TEXT", "TEXT"},
		{Postgres{}, "postgres", "$3", `"a""b"`, "DOUBLE PRECISION", "TIMESTAMP", `TEXT COLLATE "C"`},
		{DuckDB{}, "duckdb", "$3", `"a""b"`, "DOUBLE", "TIMESTAMP", "VARCHAR"},
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
	if NullsFirst(SQLite{}) != "" || NullsFirst(Postgres{}) != " NULLS FIRST" || NullsFirst(DuckDB{}) != " NULLS FIRST" {
		t.Errorf("NullsFirst: %q, %q, %q", NullsFirst(SQLite{}), NullsFirst(Postgres{}), NullsFirst(DuckDB{}))
	}
}

// NumberType: the row stores keep every number a float64; DuckDB makes a column an exact
// DECIMAL(18, scale) while its values are decimals of at most 10 places and 15 digits.
func TestNumberType(t *testing.T) {
	tests := []struct {
		d      Dialect
		scale  int
		maxAbs float64
		want   string
	}{
		{SQLite{}, 2, 100, "REAL"},
		{Postgres{}, 2, 100, "DOUBLE PRECISION"},
		{DuckDB{}, 2, 100, "DECIMAL(18,2)"},
		{DuckDB{}, 0, 0, "DECIMAL(18,0)"},
		{DuckDB{}, 2, 9999999999999.99, "DECIMAL(18,2)"}, // 15 digits
		{DuckDB{}, 2, 1e13, "DOUBLE"},                    // 16
		{DuckDB{}, 0, 1e308, "DOUBLE"},
		{DuckDB{}, 10, 99999.9999999999, "DECIMAL(18,10)"},
		{DuckDB{}, 11, 0.5, "DOUBLE"}, // 0.30000000000000004 and the like: binary fractions written out
		{DuckDB{}, -1, 1, "DOUBLE"},
	}
	for _, tt := range tests {
		if got := NumberType(tt.d, tt.scale, tt.maxAbs); got != tt.want {
			t.Errorf("NumberType(%s, %d, %g) = %q, want %q", tt.d.Name(), tt.scale, tt.maxAbs, got, tt.want)
		}
	}
}

// The query compiler's spellings on DuckDB: date functions on DATE and TIMESTAMP without any
// zone, buckets grouped by a date or an hour, typed parameters.
func TestDuckDBSpellings(t *testing.T) {
	d := DuckDB{}
	tests := map[string]string{
		Bucket(d, "x", "day"):           "strftime(x, '%Y-%m-%d')",
		Bucket(d, "x", "month"):         "strftime(x, '%Y-%m')",
		Bucket(d, "x", "year"):          "year(x)",
		Bucket(d, "x", "month_of_year"): "month(x)",
		Bucket(d, "x", "hour_of_day"):   "(strftime(x, '%H') || ':00')",
		Bucket(d, "x", "day_of_week"):   "dayofweek(x)",
		NullSafeEq(d, "a", "b"):         "a IS NOT DISTINCT FROM b",
		Float(d, "x"):                   "CAST(x AS DOUBLE)",
		NullNumber(d):                   "CAST(NULL AS DOUBLE)",
		Binary(d, "x"):                  "x",
		DateParam(d, "$1", "date"):      "CAST($1 AS DATE)",
		DateParam(d, "$1", "datetime"):  "CAST($1 AS TIMESTAMP)",
		DayDiff(d, "a", "b"):            "(CAST(epoch_us(CAST(a AS TIMESTAMP)) - epoch_us(CAST(b AS TIMESTAMP)) AS DOUBLE) / 86400000000)",
	}
	for got, want := range tests {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	groups := map[string][2]string{
		"day":         {"CAST(x AS DATE)", "strftime(CAST(x AS DATE), '%Y-%m-%d')"},
		"month":       {"date_trunc('month', x)", "strftime(date_trunc('month', x), '%Y-%m')"},
		"hour_of_day": {"hour(x)", "(lpad(CAST(hour(x) AS VARCHAR), 2, '0') || ':00')"},
		"year":        {"year(x)", "year(x)"},
	}
	for bucket, want := range groups {
		if key, value := BucketGroup(d, "x", bucket); key != want[0] || value != want[1] {
			t.Errorf("BucketGroup(%s) = %q, %q, want %q, %q", bucket, key, value, want[0], want[1])
		}
	}
}
