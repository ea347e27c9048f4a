package lumo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/lumo/bench"
	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
)

// syntheticApps makes n in-memory models whose names collide once folded (case, accents,
// spaces), with descriptions, expressions and several tables, to exercise ranks and grouping.
func syntheticApps(n int) []*semantic.App {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"Cobrança", "cobranca", "COBRANÇA ", "Financeiro", "financeiro  anual", "Vendas", "Valor",
		"Total de vendas", "São João", "sao joao", "Ação", "Id", "total", "Margem", "Saldo", "  Saldo  final "}
	pick := func() string { return words[r.IntN(len(words))] }
	var apps []*semantic.App
	for i := range n {
		a := &semantic.App{ID: int64(i + 1), Name: pick()}
		if r.IntN(3) == 0 {
			a.Description = "Painel de " + pick()
		}
		for range r.IntN(4) {
			ind := &semantic.Indicator{Name: pick()}
			if r.IntN(2) == 0 {
				ind.Description = "Soma de " + pick()
			}
			if r.IntN(5) == 0 {
				ind.Problem = "não existe"
			}
			a.Indicators = append(a.Indicators, ind)
		}
		for k := range r.IntN(3) {
			a.Expressions = append(a.Expressions, &semantic.Expression{ID: int64(k), Label: pick(), Unit: []string{"", "BRL"}[r.IntN(2)]})
		}
		for k := range r.IntN(3) {
			t := &semantic.Table{ID: int64(k), Label: fmt.Sprintf("Tabela %d", k)}
			for c := range r.IntN(5) {
				t.Columns = append(t.Columns, &semantic.Column{ID: int64(c), Table: t, Name: fmt.Sprintf("C%d", c), Label: pick(),
					Type: []string{"string", "number", "date"}[r.IntN(3)], Role: []string{"dimension", "measure", "key"}[r.IntN(3)],
					Usage: r.IntN(4), Description: []string{"", "uma coluna"}[r.IntN(2)]})
			}
			a.Tables = append(a.Tables, t)
		}
		apps = append(apps, a)
	}
	return apps
}

func visible(t *testing.T, load func(context.Context) ([]*semantic.App, error)) []*semantic.App {
	t.Helper()
	apps, err := load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return apps
}

func sameReply(t *testing.T, what string, got, want mcpserver.Reply) {
	t.Helper()
	if d := cmp.Diff(want.Text, got.Text); d != "" {
		t.Errorf("%s: text (-want +got):\n%s", what, d)
	}
	g, w := got.JSON, want.JSON
	if string(g) != string(w) {
		t.Errorf("%s: structured differs:\n got %.2000s\nwant %.2000s", what, g, w)
	}
}

// The precomputed folded names give exactly the answers of folding every name on every call:
// the demo's models, the bench's catalogue and synthetic models with colliding names, over the
// whole catalogue and each app alone, with and without terms.
func TestSearchCatalogMatchesReference(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ImportWorkspace(ctx, bench.Catalog(45), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	// 500 synthetic apps make a catalogue text past its budget (entries left out).
	large := syntheticApps(500)
	want := refCatalogReply(large, large)
	if !strings.Contains(want.Text, "ficaram fora deste texto") {
		t.Fatal("the large synthetic catalogue fits its text budget: it tests nothing")
	}
	sameReply(t, "synthetic-large catalogue", catalogReply(large, large), want)
	sets := map[string][]*semantic.App{"synthetic": syntheticApps(300), "empty": nil}
	for _, login := range []string{"ana", bench.CatalogLogin} {
		u, err := db.UserByLogin(ctx, login)
		if err != nil {
			t.Fatal(err)
		}
		sets[login] = visible(t, func(ctx context.Context) ([]*semantic.App, error) { return db.VisibleApps(ctx, u) })
	}
	termSets := [][]string{
		{"financeiro", "cobrança"}, {"vendas"}, {"Total"}, {"valor de"}, {"ç"}, {"\u0301"}, {"id"}, {"zzz"},
		{"sao joao", "SALDO FINAL", "margem", "a"}, {"faturamento"}, {"Soma"}, {"painel"}, {"e"},
	}
	for name, all := range sets {
		sameReply(t, name+" catalogue", catalogReply(all, all), refCatalogReply(all, all))
		for _, ts := range termSets {
			sameReply(t, fmt.Sprintf("%s %q", name, ts), searchReply(all, 0, len(all), ts), refSearchReply(all, ts))
		}
		for i, a := range all {
			if i%7 != 0 && len(all) > 100 {
				continue // every app of the small sets, a sample of the large one
			}
			scope := []*semantic.App{a}
			sameReply(t, fmt.Sprintf("%s app %d catalogue", name, a.ID), catalogReply(all, scope), refCatalogReply(all, scope))
			for _, ts := range termSets {
				sameReply(t, fmt.Sprintf("%s app %d %q", name, a.ID, ts), searchReply(all, i, i+1, ts), refSearchReply(scope, ts))
			}
		}
	}
}

// FoldedOf reuses the folded names of a slice it has seen and folds anew for another slice.
func TestFoldedOfReusesPerSlice(t *testing.T) {
	apps := syntheticApps(20)
	f := semantic.FoldedOf(apps)
	if semantic.FoldedOf(apps) != f {
		t.Error("the same slice was folded twice")
	}
	if semantic.FoldedOf(apps[:10]) == f {
		t.Error("a shorter slice got the whole slice's names")
	}
	other := append([]*semantic.App(nil), apps...)
	if semantic.FoldedOf(other) == f {
		t.Error("a copy of the slice got the first slice's entry")
	}
}
