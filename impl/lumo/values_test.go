package lumo

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
)

// TestSearchOutOfTime: when the budget runs out the search answers with what it has, lists the
// columns it did not finish and says why (the engines' cancellation is tested in impl/lumo/values).
func TestSearchOutOfTime(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	u, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	s := &Service{DB: db, Identity: FixedUser(u), Log: slog.New(slog.NewTextHandler(io.Discard, nil)), SearchBudget: time.Nanosecond}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	args := json.RawMessage(`{"appId": ` + strconv.FormatInt(apps[0].ID, 10) + `, "contains": "sao"}`)
	var in lumoapi.SearchValuesInput
	if err := in.UnmarshalJSON(args); err != nil {
		t.Fatal(err)
	}
	out, text, err := s.searchValues(ctx, &in)
	if err != nil {
		t.Fatal(err)
	}
	v := out.SearchValuesOutputSearch
	reply := mcpserver.Reply{Text: text()}
	want := []string{"Lojas.Loja", "Lojas.Cidade", "Lojas.UF", "Lojas.Gerente", "Produtos.Produto", "Produtos.Categoria",
		"Vendas.Cliente", "Vendas.Situação", "Vendas.Canal", "Vendas.Cupom"}
	if d := cmp.Diff(want, refStrings(v.ColumnsLeftOut)); d != "" || v.ColumnsSearched != 0 || v.ColumnsTotal != 10 || len(v.Matches) != 0 {
		t.Errorf("left out (-want +got):\n%s\n%+v", d, v)
	}
	if len(v.Notes) != 1 || !strings.Contains(reply.Text, "O tempo da busca (0 ms) acabou antes de procurar em: Lojas.Loja, Lojas.Cidade,") ||
		!strings.Contains(reply.Text, "Repita com ref para procurar em cada uma.") {
		t.Errorf("text:\n%s\nnotes: %v", reply.Text, v.Notes)
	}
}

func TestFormatNumber(t *testing.T) {
	col := func(unit string, scale int) *semantic.Column { return &semantic.Column{Unit: unit, Scale: scale} }
	tests := []struct {
		n    float64
		c    *semantic.Column
		want string
	}{
		{4695447.08, col("BRL", 2), "R$ 4.695.447,08"},
		{-1234.5, col("USD", 2), "-US$ 1.234,50"},
		{0.25, col("percent", 2), "25,0%"},
		{0.0349, col("percent", 4), "3,49%"},
		{756, col("seconds", 0), "756 s"},
		{1000000, col("", 0), "1.000.000"},
		{12.5, col("", 3), "12,500"},
		{999, col("GBP", 2), "£ 999,00"},
	}
	for _, tt := range tests {
		if got := formatNumber(tt.n, tt.c); got != tt.want {
			t.Errorf("formatNumber(%v, %q) = %q, want %q", tt.n, tt.c.Unit, got, tt.want)
		}
	}
}

func refStrings(refs []lumoapi.Ref) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = string(r)
	}
	return out
}

// TestCalculatedDistinctIsBounded: a calculated text column is listed by grouping on it, and one
// with more values than one query reads is refused, pointing to query, rather than listed in part.
func TestCalculatedDistinctIsBounded(t *testing.T) {
	ctx := context.Background()
	var data strings.Builder
	data.WriteString("ID,NOME,V\n")
	for i := range 600 {
		data.WriteString(strconv.Itoa(i+1) + ",Cliente " + strconv.Itoa(i) + "," + strconv.Itoa(i) + "\n")
	}
	fsys := twoTenantsWith("Vendas", data.String())
	fsys["apps/vendas/app.yaml"].Data = []byte(`name: Vendas
tables:
  - label: Itens
    name: itens
    kind: fact
    file: itens.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: NOME, label: Nome, type: string}
      - {name: V, label: Valor, type: number, role: measure}
      - {name: FAIXA, label: Faixa, type: string, formula: 'se([Valor] >= 300; "alta"; "baixa")'}
      - {name: QUEM, label: Quem, type: string, formula: 'se([Valor] >= 0; [Nome]; "ninguém")'}
`)
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, fsys, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	svc := &Service{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	s := sessionOf(t, svc, db, "ana")
	u, _ := db.UserByLogin(ctx, "ana")
	apps, _ := db.VisibleApps(ctx, u)
	if _, sc := callJSON(t, s, "search_values", map[string]any{"appId": apps[0].ID, "ref": "Itens.Faixa"}); !strings.Contains(sc, `"values":["alta","baixa"]`) {
		t.Errorf("two values: %s", sc)
	}
	text, sc := callJSON(t, s, "search_values", map[string]any{"appId": apps[0].ID, "ref": "Itens.Quem"})
	if !strings.Contains(sc, `"code":"TOO_MANY_VALUES"`) || !strings.Contains(text, "tem mais de 500 valores distintos") {
		t.Errorf("600 values: %s\n%s", text, sc)
	}
}
