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

// A month bucket reads jan/2024 in the text; the structured rows keep 2024-01.
func TestQueryTextMonthBucket(t *testing.T) {
	q := &query.Query{Out: []*query.OutCol{
		{Key: "1_MES", Label: "Data (mês)", Type: "string", Group: &query.Target{Bucket: "month"}},
		{Key: "2_DIA", Label: "Data", Type: "date", Group: &query.Target{}},
	}}
	v := &lumoapi.QueryOutput{AppId: 1, RowCount: 2, TotalRows: 2, FiltersApplied: []string{}, Rows: [][]lumoapi.Cell{
		{lumoapi.NewStringCell("2024-01"), lumoapi.NewStringCell("2024-01-15")},
		{lumoapi.NewStringCell("2026-12"), lumoapi.NewStringCell("2026-12-31")},
	}}
	got := queryText("Vendas", q, v)
	for _, want := range []string{"| jan/2024 | 2024-01-15 |", "| dez/2026 | 2026-12-31 |"} {
		if !strings.Contains(got, want) {
			t.Errorf("text lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "| 2024-01 |") {
		t.Errorf("text keeps the month as 2024-01:\n%s", got)
	}
	if v.Rows[0][0].String != "2024-01" {
		t.Errorf("structured month changed to %q", v.Rows[0][0].String)
	}
}
