package query

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// membershipApp is features/testdata/membership: como and em in formulas.
func membershipApp(t testing.TB) *semantic.App {
	t.Helper()
	return fixtureApp(t, os.DirFS("../../../features/testdata/membership"))
}

// membershipCases are the golden requests of formulas' como and em, on membershipApp. They are
// apart from goldenCases, whose requests the DuckDB tests also run, on the fixtures they list.
func membershipCases() map[string]Request {
	return map[string]Request{
		// A calculated column with como grouped and filtered; conditional measures with como, não
		// como and em, and one whose condition reaches another table.
		"como_em_grouped": {
			Fields:  []Item{{Ref: "Pedidos.Promocional"}, {Ref: "Pedidos.Prioritário", Agg: "sum"}, {Ref: "Receita promocional"}, {Ref: "Pedidos prioritários"}, {Ref: "Pedidos não promocionais"}},
			Filters: []Filter{{Item: Item{Ref: "Pedidos.Promocional"}, Op: "like", Value: "s%"}},
		},
		"como_through_relationship": {
			Fields: []Item{{Ref: "Fornecedores.Fornecedor"}, {Ref: "Itens de parafuso"}},
		},
		// Segments: an anti-join on the base table; a semi-join two relationships away with a
		// condition reaching a third table, on a dimension joined to the fact (and a count_distinct
		// summary that writes the filter again); a segment over a role-playing copy.
		"segment_without": {
			Fields:  []Item{{Ref: "Clientes.Cliente"}},
			Filters: []Filter{{Segment: "Clientes sem pedidos"}},
		},
		"segment_with_joined": {
			Fields:  []Item{{Ref: "Clientes.Segmento"}, {Ref: "Pedidos.Valor", Agg: "sum"}, {Ref: "Pedidos.Id", Agg: "count_distinct"}},
			Filters: []Filter{{Segment: "Clientes que compraram parafusos"}, {Item: Item{Ref: "Pedidos.Situação"}, Op: "=", Value: "Ativa"}},
		},
		// Columns computed from related rows: grouped, filtered, measured and in a formula, on the
		// base table and on a dimension joined to the fact (blank where its row is missing).
		"related_on_base": {
			Fields:  []Item{{Ref: "Clientes.Frequência"}, {Ref: "Clientes.Total comprado", Agg: "sum"}, {Ref: "Clientes.Último pedido", Agg: "count_distinct"}},
			Filters: []Filter{{Item: Item{Ref: "Clientes.Pedidos ativos"}, Op: "<", Value: 3.0}},
		},
		"related_joined": {
			Fields: []Item{{Ref: "Clientes.Pedidos feitos"}, {Ref: "Itens.Quantidade", Agg: "sum"}, {Ref: "Pedidos.Fornecedores distintos", Agg: "max"}},
		},
		// A column of related rows whose condition reads another column of related rows, and a
		// segment whose condition does: grouped joins inside the related rows' subquery, never a
		// correlated subquery per row.
		"related_nested": {
			Fields:  []Item{{Ref: "Clientes.Cliente"}, {Ref: "Clientes.Pedidos com vários itens"}},
			Filters: []Filter{{Segment: "Clientes com pedido de vários itens"}},
		},
		// A column of related rows on a dimension the question filters: its related rows are
		// grouped only for the parts the filter keeps.
		"related_narrowed": {
			Fields:  []Item{{Ref: "Peças.Peça"}, {Ref: "Peças.Menor custo"}, {Ref: "Itens.Quantidade", Agg: "sum"}},
			Filters: []Filter{{Item: Item{Ref: "Peças.Tipo"}, Op: "like", Value: "%parafuso%"}},
		},
		// Columns that aggregate every row of their own table (an average over the customers with
		// orders, a share of the total): one uncorrelated subquery each, unnarrowed by the filter.
		"own_table_all_rows": {
			Fields:  []Item{{Ref: "Clientes.Compra acima da média"}, {Ref: "Clientes.Parte do total comprado", Agg: "sum"}, {Ref: "Pedidos.Valor", Agg: "sum"}},
			Filters: []Filter{{Item: Item{Ref: "Clientes.Segmento"}, Op: "=", Value: "Varejo"}},
		},
		"segment_without_joined": {
			Fields:  []Item{{Ref: "Clientes.Segmento"}, {Ref: "Pedidos.Valor", Agg: "sum"}},
			Filters: []Filter{{Segment: "Clientes sem pedido cancelado"}},
		},
	}
}

// TestGoldenSQLMembership pins the SQL of membershipCases as TestGoldenSQL pins goldenCases'.
func TestGoldenSQLMembership(t *testing.T) {
	app := membershipApp(t)
	cases := membershipCases()
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		q, err := Analyze(app, cases[name])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		plan, err := PlanQuery(q)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, d := range []sqldialect.Dialect{sqldialect.SQLite{}, sqldialect.Postgres{}, sqldialect.DuckDB{}} {
			st := RendererFor(d).Render(q, plan, nil)
			got := fmt.Sprintf("%s\n-- args: %v\n", strings.ReplaceAll(st.SQL, "), ", "),\n  "), st.Args)
			file := filepath.Join("testdata", "golden", name+"."+d.Name()+".sql")
			if *update {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test ./impl/lumo/query -run TestGoldenSQLMembership -update)", err)
			}
			if string(want) != got {
				t.Errorf("%s: SQL changed; run go test ./impl/lumo/query -run TestGoldenSQLMembership -update and review the diff.\ngot:\n%s", file, got)
			}
			for _, v := range []string{"'promo%'", "'1-URGENTE'", "'Sim'"} {
				if strings.Contains(got, v) {
					t.Errorf("%s: the value %s reached the SQL text instead of a bind parameter", file, v)
				}
			}
		}
	}
}
