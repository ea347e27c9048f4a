package store_test

import (
	"database/sql"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
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

// A rollup that a finer one holds is regrouped from it, and its rows are those of the same
// rollup grouped from the fact.
func TestRollupRegroupedFromFiner(t *testing.T) {
	db := storetest.Open(t)
	read := func(regroup bool) (string, map[string]string) {
		from := map[string]string{}
		store.RegroupRollups(regroup, func(r, src string) { from[r] = src })
		defer store.RegroupRollups(true, nil)
		if _, err := db.ImportWorkspace(ctx, rollupsWorkspace(t, ""), "workspace.yaml"); err != nil {
			t.Fatal(err)
		}
		apps, err := db.VisibleApps(ctx, user(t, db, "rita"))
		if err != nil {
			t.Fatal(err)
		}
		return rollupRows(t, db, apps[0].Rollups[1]), from
	}
	regrouped, from := read(true)
	if from["por_uf"] != "por_dia" || from["por_dia"] != "vendas" {
		t.Fatalf("built from %v, want por_uf from por_dia and por_dia from vendas", from)
	}
	direct, from := read(false)
	if from["por_uf"] != "vendas" {
		t.Fatalf("with regrouping off, por_uf was built from %q", from["por_uf"])
	}
	if regrouped != direct || regrouped == "" {
		t.Errorf("por_uf regrouped from por_dia:\n%s\ngrouped from the fact:\n%s", regrouped, direct)
	}
}

// autoWorkspace is features/testdata/rollups_auto, with the automatico app's vendas.csv replaced
// when sales is not "".
func autoWorkspace(t *testing.T, sales string) fstest.MapFS {
	t.Helper()
	const dir = "../../../features/testdata/rollups_auto/"
	fsys := fstest.MapFS{}
	files := []string{"workspace.yaml"}
	for _, app := range []string{"mensal", "automatico", "sem_rollup", "chave_repetida"} {
		files = append(files, "apps/"+app+"/app.yaml", "apps/"+app+"/vendas.csv", "apps/"+app+"/lojas.csv")
	}
	for _, f := range files {
		b, err := os.ReadFile(dir + f)
		if err != nil {
			t.Fatal(err)
		}
		if f == "apps/automatico/vendas.csv" && sales != "" {
			b = []byte(sales)
		}
		fsys[f] = &fstest.MapFile{Data: b}
	}
	return fsys
}

// The automatic rollup: by day of the most used date and by the most used columns, none for an
// app with rollups: [] or one that declares its own, without a table whose key repeats, kept
// in the catalogue after a restart, and dropped when it would not be much smaller than the fact.
func TestAutomaticRollups(t *testing.T) {
	db, dsn := storetest.OpenDSN(t)
	if _, err := db.ImportWorkspace(ctx, autoWorkspace(t, ""), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	again, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	describe := func(db *store.DB) map[string]string {
		apps, err := db.VisibleApps(ctx, user(t, db, "rui"))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, a := range apps {
			var rs []string
			for _, r := range a.Rollups {
				var dims []string
				for _, c := range r.Dimensions {
					dims = append(dims, c.Ref())
				}
				s := r.Name + " " + strings.Join(dims, ",")
				if r.Time != nil {
					s += " | " + r.Time.Ref() + " " + r.Grain
				}
				rs = append(rs, s)
			}
			got[a.Name] = strings.Join(rs, "; ")
		}
		return got
	}
	want := map[string]string{
		"Vendas por mês":            "por_mes Lojas.UF,Vendas.Canal | Vendas.Data month",
		"Vendas automáticas":        "automatico Vendas.Canal,Lojas.UF | Vendas.Data day",
		"Vendas sem rollup":         "",
		"Vendas com chave repetida": "automatico Vendas.Canal | Vendas.Data day",
	}
	got := describe(again)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: rollups %q, want %q", k, got[k], v)
		}
	}
	// Ten sales on ten days: the rollup would hold every row.
	sales := "ID,DATA,LOJA_ID,CANAL,VALOR,QTD\n"
	for i := range 10 {
		sales += "1" + strings.Repeat("0", i) + ",2026-07-1" + string(rune('0'+i)) + " 10:00:00,1,Loja,10,1\n"
	}
	if _, err := db.ImportWorkspace(ctx, autoWorkspace(t, sales), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	if got := describe(db)["Vendas automáticas"]; got != "" {
		t.Errorf("automatic rollup over ten rows on ten days kept: %s", got)
	}
	if n := count(t, db, "lumo_rollups"); n != 2 { // por_mes and chave_repetida's
		t.Errorf("%d rollups in the catalogue, want 2", n)
	}
}

// On the embedded default the rollups are grouped in the import's DuckDB file, and there too a
// rollup that a finer one holds is regrouped from it (a monthly from a daily, one dimension from
// three): the same columns, types and rows as grouped from the fact.
func TestRollupRegroupedFromFinerInTheFile(t *testing.T) {
	if !columnar.Available {
		t.Skip("the import's DuckDB file needs DuckDB, linked with cgo")
	}
	fsys := rollupsWorkspace(t, "")
	app := fsys["apps/vendas/app.yaml"]
	app.Data = append(slices.Clip(app.Data), "  - name: por_mes\n    table: Vendas\n    dimensions: [Lojas.UF, Vendas.Situação]\n    time: {ref: Vendas.Data, grain: month}\n"...)
	read := func(regroup bool) (map[string]string, map[string]string) {
		from := map[string]string{}
		store.RegroupRollups(regroup, func(r, src string) { from[r] = src })
		defer store.RegroupRollups(true, nil)
		dir := t.TempDir()
		db, err := store.Open(ctx, filepath.Join(dir, "lumo.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		path := filepath.Join(dir, "lumo.duckdb")
		opts := store.ImportOptions{Sink: columnar.Deferred(columnar.Options{Path: path}).ImportSink(), SinkOnly: true}
		if _, err := db.ImportWorkspaceWith(ctx, fsys, "workspace.yaml", opts); err != nil {
			t.Fatal(err)
		}
		c, err := columnar.Open(ctx, columnar.Options{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := c.Sync(ctx, db); err != nil {
			t.Fatal(err)
		}
		apps, err := db.VisibleApps(ctx, user(t, db, "rita"))
		if err != nil {
			t.Fatal(err)
		}
		dumps := map[string]string{}
		for _, r := range apps[0].Rollups {
			dumps[r.Name] = duckDump(t, c.DB(), r.SQLName)
			checkFoldedCopies(t, c.DB(), r)
		}
		return dumps, from
	}
	regrouped, from := read(true)
	if want := map[string]string{"por_dia": "vendas", "por_mes": "por_dia", "por_uf": "por_mes"}; !maps.Equal(from, want) {
		t.Fatalf("built from %v, want %v", from, want)
	}
	direct, from := read(false)
	if from["por_uf"] != "vendas" || from["por_mes"] != "vendas" {
		t.Fatalf("with regrouping off, built from %v", from)
	}
	for name, want := range direct {
		if got := regrouped[name]; got != want || want == "" {
			t.Errorf("%s regrouped:\n%s\ngrouped from the fact:\n%s", name, got, want)
		}
	}
}

// checkFoldedCopies checks that every folded copy of a text dimension of rollup r, built in a
// DuckDB file, is its dimension's value folded: a group's copy is the text's, however the build
// groups them.
func checkFoldedCopies(t *testing.T, db query.Querier, r *semantic.Rollup) {
	t.Helper()
	checked := 0
	for i, c := range r.Dimensions {
		if c.Type != semantic.TypeString {
			continue
		}
		d := sqldialect.DuckDB{}
		rows, err := db.QueryContext(ctx, "SELECT "+d.QuoteIdent(semantic.RollupDim(i))+", "+d.QuoteIdent(semantic.RollupDimFold(i))+" FROM "+d.QuoteIdent(r.SQLName))
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var v, f sql.NullString
			if err := rows.Scan(&v, &f); err != nil {
				t.Fatal(err)
			}
			if v.Valid != f.Valid || f.String != fold.Fold(v.String) {
				t.Errorf("rollup %s, %s = %q: folded copy %q, want %q", r.Name, c.Label, v.String, f.String, fold.Fold(v.String))
			}
			checked++
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if checked == 0 && slices.ContainsFunc(r.Dimensions, func(c *semantic.Column) bool { return c.Type == semantic.TypeString }) {
		t.Errorf("rollup %s: no folded copy checked", r.Name)
	}
}

// duckDump is a DuckDB table's column types and rows, as text, in order.
func duckDump(t *testing.T, db query.Querier, table string) string {
	t.Helper()
	q := sqldialect.DuckDB{}.QuoteIdent(table)
	rows, err := db.QueryContext(ctx, "DESCRIBE SELECT * FROM "+q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var name, typ string
		var rest [4]sql.NullString
		if err := rows.Scan(&name, &typ, &rest[0], &rest[1], &rest[2], &rest[3]); err != nil {
			t.Fatal(err)
		}
		b.WriteString(name + " " + typ + ", ")
	}
	return b.String() + "\n" + tableRows(t, db, q)
}
