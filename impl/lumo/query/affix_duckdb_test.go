//go:build cgo

package query

import (
	"database/sql"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2" // the "duckdb" database/sql driver
)

// TestAffixMatchesAsLike: the function affix chooses keeps on DuckDB exactly the texts the LIKE
// of its pattern keeps (NULL too), and patterns with a wildcard or an escape inside keep LIKE.
func TestAffixMatchesAsLike(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	wantFn := map[string]string{
		"abc%": "prefix", "%abc": "suffix", "%abc%": "contains", "%sao jose%": "contains",
		"abc": "", "%": "", "%%": "", "a%c": "", "%a_c%": "", `%a\%%`: "", `abc\%`: "", "%%abc": "", "_abc%": "",
	}
	texts := []any{nil, "", "abc", "abcd", "xabc", "xabcx", "ab", "a%c", `a\%`, "sao jose dos campos", "são josé"}
	for p, want := range wantFn {
		fn, fixed, ok := affix(p)
		if fn != want || ok != (want != "") {
			t.Errorf("affix(%q) = %q, %v; want %q", p, fn, ok, want)
		}
		if !ok {
			continue
		}
		for _, x := range texts {
			var like, byFn sql.NullBool
			if err := db.QueryRow(`SELECT CAST(? AS VARCHAR) LIKE ? ESCAPE '\', `+fn+`(CAST(? AS VARCHAR), ?)`, x, p, x, fixed).Scan(&like, &byFn); err != nil {
				t.Fatal(err)
			}
			if like != byFn {
				t.Errorf("%v LIKE %q is %v, %s(%v, %q) %v", x, p, like, fn, x, fixed, byFn)
			}
		}
	}
}
