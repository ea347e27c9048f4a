package query

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// TestGoldenSQLDuckDB pins the SQL DuckDB gets for every golden request, as TestGoldenSQL does
// for the row stores; `go test ./impl/lumo/query -run TestGoldenSQLDuckDB -update` rewrites only
// these files. Rendering needs no DuckDB (nor cgo): engines_duckdb_test.go runs the statements.
func TestGoldenSQLDuckDB(t *testing.T) {
	r := RendererFor(sqldialect.DuckDB{})
	for _, c := range goldenCases(t) {
		q, plan, walk := c.planned(t)
		if got := r.WalkColumns(q, plan); len(got) != 0 {
			t.Errorf("%s: WalkColumns on DuckDB = %v", c.name, got)
		}
		st := r.Render(q, plan, walk)
		got := fmt.Sprintf("%s\n-- args: %v\n", strings.ReplaceAll(st.SQL, "), ", "),\n  "), st.Args)
		file := filepath.Join("testdata", "golden", c.name+".duckdb.sql")
		if *update {
			if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (run go test ./impl/lumo/query -run TestGoldenSQLDuckDB -update)", err)
		}
		if string(want) != got {
			t.Errorf("%s: SQL changed; run go test ./impl/lumo/query -run TestGoldenSQLDuckDB -update and review the diff.\ngot:\n%s", file, got)
		}
		for _, spelled := range []string{"CAST(NULL", "julianday", "substr(", "COLLATE", "to_char", "DOUBLE PRECISION", " AS REAL"} {
			if strings.Contains(got, spelled) {
				t.Errorf("%s: %q is another engine's spelling", file, spelled)
			}
		}
	}
}
