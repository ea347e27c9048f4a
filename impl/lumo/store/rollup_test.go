package store_test

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// rollupsWorkspace is features/testdata/rollups, with lojas.csv replaced when stores is not "".
func rollupsWorkspace(t *testing.T, stores string) fstest.MapFS {
	t.Helper()
	const dir = "../../../features/testdata/rollups/"
	fsys := fstest.MapFS{}
	for _, f := range []string{"workspace.yaml", "apps/vendas/app.yaml", "apps/vendas/vendas.csv", "apps/vendas/lojas.csv"} {
		b, err := os.ReadFile(dir + f)
		if err != nil {
			t.Fatal(err)
		}
		if f == "apps/vendas/lojas.csv" && stores != "" {
			b = []byte(stores)
		}
		fsys[f] = &fstest.MapFile{Data: b}
	}
	return fsys
}

// The rollups are in the catalogue after a restart, with the rows they were built with, and a
// re-import replaces their tables.
func TestRollupsSurviveRestartAndReimport(t *testing.T) {
	db, dsn := storetest.OpenDSN(t)
	for range 2 {
		if _, err := db.ImportWorkspace(ctx, rollupsWorkspace(t, ""), "workspace.yaml"); err != nil {
			t.Fatal(err)
		}
	}
	again, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	apps, err := again.VisibleApps(ctx, user(t, again, "rita"))
	if err != nil {
		t.Fatal(err)
	}
	rs := apps[0].Rollups
	if len(rs) != 2 {
		t.Fatalf("%d rollups after a restart, want 2", len(rs))
	}
	var got []string
	for _, r := range rs {
		var dims, ms []string
		for _, c := range r.Dimensions {
			dims = append(dims, c.Ref())
		}
		for _, c := range r.Measures {
			ms = append(ms, c.Ref())
		}
		time := ""
		if r.Time != nil {
			time = r.Time.Ref() + "/" + r.Grain
		}
		got = append(got, r.Name+" "+r.Fact.Label+" ["+strings.Join(dims, ",")+"] "+time+" ["+strings.Join(ms, ",")+"]")
		if n := count(t, again, r.SQLName); n != r.Rows || n == 0 {
			t.Errorf("rollup %s: %d rows in %s, catalogue says %d", r.Name, n, r.SQLName, r.Rows)
		}
	}
	want := "por_dia Vendas [Lojas.UF,Vendas.Situação,Vendas.Canal] Vendas.Data/day [Vendas.Valor,Vendas.Quantidade]|" +
		"por_uf Vendas [Lojas.UF]  [Vendas.Valor,Vendas.Quantidade]"
	if strings.Join(got, "|") != want {
		t.Errorf("rollups:\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	// por_uf: one row per state, the blank one included (sales of no store or of store 5).
	if rs[1].Rows != 4 {
		t.Errorf("por_uf has %d rows, want 4", rs[1].Rows)
	}
}

// A rollup through a table whose key repeats would count fact rows twice: the import is refused,
// naming the file, the rollup and the key, and leaves nothing behind.
func TestRollupThroughRepeatedKeyIsRefused(t *testing.T) {
	db := storetest.Open(t)
	_, err := db.ImportWorkspace(ctx, rollupsWorkspace(t, "ID,NOME,UF\n1,Loja Centro,SP\n1,Loja Centro 2,RJ\n2,Loja Praia,RJ\n"), "workspace.yaml")
	want := `apps/vendas/app.yaml: rollups[0]: o rollup "por_dia" passa pela tabela Lojas, mas a chave Lojas.Id se repete nela`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want it to contain %s", err, want)
	}
	if _, err := db.UserByLogin(ctx, "rita"); err == nil {
		t.Error("the refused import left its users behind")
	}
}
