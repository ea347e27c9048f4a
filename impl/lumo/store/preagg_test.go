package store_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// preaggWorkspace is a sales app whose rollups group by every kind of key the first step meets:
// an hour, a month of a date, a day, a number key, texts with blanks and accents, a key that
// reaches no store, and measures with blanks, negatives and zeros.
func preaggWorkspace(seed uint64, rows int) fstest.MapFS {
	rnd := rand.New(rand.NewPCG(seed, 7))
	pick := func(vs ...string) string { return vs[rnd.IntN(len(vs))] }
	var b strings.Builder
	b.WriteString("ID,DATA,DIA,LOJA_ID,SITUACAO,CANAL,VALOR,QTD\n")
	for i := range rows {
		data := fmt.Sprintf("2026-%02d-%02d %02d:%02d:%02d", 1+rnd.IntN(12), 1+rnd.IntN(28), rnd.IntN(24), rnd.IntN(60), rnd.IntN(60))
		if rnd.IntN(20) == 0 {
			data = ""
		}
		dia := fmt.Sprintf("2025-%02d-%02d", 1+rnd.IntN(12), 1+rnd.IntN(28))
		valor := pick("", "0", "-0", "0.1", "0.2", "-3.75", "1234567.89", "19.99", "0.01", "100")
		if rnd.IntN(3) == 0 {
			valor = strconv.FormatFloat(rnd.Float64()*1000-200, 'f', 2, 64)
		}
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%s,%s,%s\n", i+1, data, dia, pick("1", "2", "3", "4", "99", ""),
			pick("Ativa", "Cancelada", "", "Pendente", "Revisão"), pick("Loja", "Site", "Aplicativo", ""), valor, pick("1", "2", "", "10"))
	}
	app := `name: Vendas pré-agregadas
tables:
  - label: Vendas
    name: vendas
    kind: fact
    file: vendas.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: DATA, label: Data, type: datetime}
      - {name: DIA, label: Dia, type: date}
      - {name: LOJA_ID, label: Loja id, type: number, role: key}
      - {name: SITUACAO, label: Situação, type: string}
      - {name: CANAL, label: Canal, type: string}
      - {name: VALOR, label: Valor, type: number, role: measure, unit: BRL}
      - {name: QTD, label: Quantidade, type: number, role: measure}
  - label: Lojas
    name: lojas
    kind: dimension
    file: lojas.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: NOME, label: Loja, type: string}
      - {name: UF, label: UF, type: string}
relationships:
  - {from: Vendas.Loja id, to: Lojas.Id}
rollups:
  - {name: por_hora, table: Vendas, dimensions: [Lojas.UF, Vendas.Canal], time: {ref: Vendas.Data, grain: hour}}
  - {name: por_mes, table: Vendas, dimensions: [Vendas.Situação], time: {ref: Vendas.Dia, grain: month}, measures: [Vendas.Valor]}
  - {name: por_dia, table: Vendas, time: {ref: Vendas.Dia, grain: day}}
  - {name: por_loja, table: Vendas, dimensions: [Vendas.Loja id, Lojas.Loja, Vendas.Situação]}
  - {name: por_mes_data, table: Vendas, dimensions: [Vendas.Canal, Vendas.Situação], time: {ref: Vendas.Data, grain: month}}
`
	ws := `tenants:
  - key: pre
    name: Empresa Pré
    users:
      - {login: rui, name: Rui Prado, token: tok-rui-pre}
    desks:
      - {name: Vendas, members: [rui]}
    apps:
      - {key: vendas, source: apps/vendas, desk: Vendas, publishedAt: "2026-10-01T09:00:00-03:00"}
`
	return fstest.MapFS{
		"workspace.yaml":         {Data: []byte(ws)},
		"apps/vendas/app.yaml":   {Data: []byte(app)},
		"apps/vendas/vendas.csv": {Data: []byte(b.String())},
		"apps/vendas/lojas.csv":  {Data: []byte("ID,NOME,UF\n1,Loja Centro,SP\n2,Loja Praia,RJ\n3,Loja São João,SP\n4,Loja Sertão,\n")},
	}
}

// Rollups grouped while their fact loads (SQLite) hold the rows of the same rollups grouped from
// the fact in SQL, to the rounding answers use; on PostgreSQL none is grouped so.
func TestPreaggregatedRollupsMatchSQL(t *testing.T) {
	db := storetest.Open(t)
	read := func(ws fstest.MapFS, pre bool) (map[string]string, []string) {
		var heard []string
		store.Preaggregate(pre, func(r string) { heard = append(heard, r) })
		defer store.Preaggregate(true, nil)
		return importedRollups(t, db, ws), heard
	}
	for _, seed := range []uint64{1, 2, 3} {
		ws := preaggWorkspace(seed, 3000)
		grouped, heard := read(ws, true)
		inSQL, none := read(ws, false)
		if len(none) != 0 {
			t.Fatalf("preaggregation off, yet %v were grouped while loading", none)
		}
		want := []string{"por_hora", "por_mes", "por_dia", "por_loja", "por_mes_data"}
		if db.Engine() == "postgres" {
			want = nil
		}
		slices.Sort(want)
		slices.Sort(heard)
		if !slices.Equal(heard, want) {
			t.Errorf("seed %d: grouped while loading %v, want %v", seed, heard, want)
		}
		if len(inSQL) != 5 {
			t.Fatalf("seed %d: %d rollups built, want 5", seed, len(inSQL))
		}
		for name, rows := range inSQL {
			if grouped[name] != rows || rows == "" {
				t.Errorf("seed %d, rollup %s grouped while loading:\n%s\ngrouped in SQL:\n%s", seed, name, grouped[name], rows)
			}
		}
	}
}

// Past the import's group budget, a rollup is grouped from its fact in SQL, with the same rows.
func TestPreaggregationPastItsBudget(t *testing.T) {
	db := storetest.Open(t)
	if db.Engine() == "postgres" {
		t.Skip("PostgreSQL groups every rollup in SQL")
	}
	defer store.PreGroupBudget(200)()
	var heard []string
	store.Preaggregate(true, func(r string) { heard = append(heard, r) })
	defer store.Preaggregate(true, nil)
	ws := preaggWorkspace(4, 3000)
	got := importedRollups(t, db, ws)
	// por_loja (30 groups) fits; por_hora's thousands pass the budget first.
	if !slices.Contains(heard, "por_loja") || slices.Contains(heard, "por_hora") {
		t.Fatalf("grouped while loading: %v, want por_loja and not por_hora", heard)
	}
	store.Preaggregate(false, nil)
	for name, want := range importedRollups(t, db, ws) {
		if got[name] != want {
			t.Errorf("rollup %s past the budget:\n%s\nin SQL:\n%s", name, got[name], want)
		}
	}
}

// importedRollups imports ws and gives the rows of each rollup of rui's first app (rollupRows).
func importedRollups(t *testing.T, db *store.DB, ws fstest.MapFS) map[string]string {
	t.Helper()
	if _, err := db.ImportWorkspace(ctx, ws, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, user(t, db, "rui"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range apps[0].Rollups {
		got[r.Name] = rollupRows(t, db, r)
	}
	return got
}

// rollupRows is every row of r's table, in order, numbers at 12 significant digits (sums added in
// another order differ in their last bits, and answers are rounded far above them).
func rollupRows(t *testing.T, db *store.DB, r *semantic.Rollup) string {
	t.Helper()
	return tableRows(t, db.SQL(), db.Dialect().QuoteIdent(r.SQLName))
}

// tableRows is every row of table (quoted) as rollupRows gives them.
func tableRows(t *testing.T, db query.Querier, table string) string {
	t.Helper()
	rows, err := db.QueryContext(ctx, "SELECT * FROM "+table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		line := make([]string, len(vals))
		for i, v := range vals {
			switch v := v.(type) {
			case float64:
				line[i] = strconv.FormatFloat(v+0, 'g', 12, 64)
			case []byte:
				line[i] = string(v)
			case nil:
				line[i] = "∅"
			default:
				line[i] = fmt.Sprint(v)
			}
		}
		out = append(out, strings.Join(line, "|"))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}
