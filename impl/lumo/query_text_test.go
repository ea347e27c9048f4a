package lumo

import (
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/query"
)

// The spec's fixed lines, exactly, including the count that stops at one million.
func TestQueryTextLines(t *testing.T) {
	q := &query.Query{Out: []*query.OutCol{{Key: "1_AGP", Label: "Cliente", Type: "string", Group: &query.Target{}}}}
	cases := []struct {
		rows  int
		total int64
		want  string
	}{
		{10, 16, "Linhas: 10 de 16; as outras 6 existem e não estão aqui."},
		{500, 2500, "Linhas: 500 de 2.500; as outras 2.000 existem e não estão aqui."},
		{500, query.TotalCap + 1, "Linhas: 500 de mais de 1.000.000; as outras existem e não estão aqui."},
		{0, 0, "Nenhum registro para essa combinação de filtros."},
	}
	for _, c := range cases {
		v := &lumoapi.QueryOutput{AppId: 1, RowCount: c.rows, TotalRows: int(c.total), Truncated: int64(c.rows) < c.total, FiltersApplied: []string{}}
		for i := 0; i < c.rows; i++ {
			v.Rows = append(v.Rows, []lumoapi.Cell{lumoapi.NewStringCell("x")})
		}
		if got := queryText("Vendas", q, v); !strings.Contains(got, c.want) {
			t.Errorf("rows %d of %d: text lacks %q:\n%s", c.rows, c.total, c.want, got)
		}
	}
}
