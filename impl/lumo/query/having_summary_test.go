package query_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// TestDistinctSummaryUnderHaving: a count_distinct's summary under a HAVING counts the distinct
// values of the groups the HAVING keeps, the blank group (NULL and the empty text) and a group
// of zeros (0 and -0) included, as counted here from the rows by hand.
func TestDistinctSummaryUnderHaving(t *testing.T) {
	type row struct{ grupo, num, cliente string }
	rows := []row{
		{"a", "0", "c1"}, {"a", "-0", "c2"}, {"a", "1", "c3"},
		{"", "-0", "c4"}, {"", "", "c5"}, {"", "2", "c1"},
		{"b", "1", "c6"}, {"b", "1", "c6"},
		{"c", "", "c7"},
	}
	var csv strings.Builder
	csv.WriteString("ID,GRUPO,NUM,CLIENTE\n")
	for i, r := range rows {
		fmt.Fprintf(&csv, "%d,%s,%s,%s\n", i+1, r.grupo, r.num, r.cliente)
	}
	// by hand: the distinct clients of each group, and of the groups keeping at least min.
	want := func(group func(row) string, min int) float64 {
		per := map[string]map[string]bool{}
		for _, r := range rows {
			g := group(r)
			if per[g] == nil {
				per[g] = map[string]bool{}
			}
			per[g][r.cliente] = true
		}
		all := map[string]bool{}
		for _, cs := range per {
			if len(cs) >= min {
				for c := range cs {
					all[c] = true
				}
			}
		}
		return float64(len(all))
	}
	byGrupo := func(r row) string { return r.grupo }
	byNum := func(r row) string {
		if r.num == "-0" {
			return "0"
		}
		return r.num
	}
	onBothEngines(t, func(t *testing.T, db *store.DB) {
		fsys := storetest.OneTableWorkspace("Resumo", `      - {name: GRUPO, label: Grupo, type: string}
      - {name: NUM, label: Num, type: number}
      - {name: CLIENTE, label: Cliente, type: string}
`, csv.String())
		if _, err := db.ImportWorkspace(t.Context(), fsys, "workspace.yaml"); err != nil {
			t.Fatal(err)
		}
		app := storetest.OnlyApp(t, db, "ana")
		for _, c := range []struct {
			group string
			by    func(row) string
			min   int
		}{{"Itens.Grupo", byGrupo, 1}, {"Itens.Grupo", byGrupo, 2}, {"Itens.Grupo", byGrupo, 3}, {"Itens.Num", byNum, 1}, {"Itens.Num", byNum, 2}} {
			q, res, err := runQuery(db, app, query.Request{
				Fields:  []query.Item{{Ref: c.group}, {Ref: "Itens.Cliente", Agg: "count_distinct"}},
				Filters: []query.Filter{{Item: query.Item{Ref: "Itens.Cliente", Agg: "count_distinct"}, Op: ">=", Value: float64(c.min)}},
			})
			if err != nil {
				t.Fatalf("%s, at least %d: %v", c.group, c.min, err)
			}
			if got, want := res.Summary[q.Out[1].Key], want(c.by, c.min); got != want {
				t.Errorf("%s, groups of at least %d clients: summary %v, want %v (rows %v)", c.group, c.min, got, want, res.Rows)
			}
		}
	})
}
