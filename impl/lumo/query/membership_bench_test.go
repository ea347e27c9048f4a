package query_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
)

// BenchmarkMembership is what a segment, a column of related rows and a como condition cost, on
// the membership app grown to LUMO_BENCH_ORDERS orders (1,000,000 by default) of 100,000
// customers (a fifth with none), against SQL written by hand for the same answer: each case
// runs the query tool's path (analyze, plan, render, execute) and then the hand-written
// statement, on the same database. On PostgreSQL with LUMO_TEST_DB.
//
//	go test -run '^$' -bench Membership -benchtime 5x ./impl/lumo/query
func BenchmarkMembership(b *testing.B) {
	orders := 1_000_000
	if n, err := strconv.Atoi(os.Getenv("LUMO_BENCH_ORDERS")); err == nil && n > 0 {
		orders = n
	}
	db, app := membershipAtScale(b, orders)
	table := func(label string) string { return db.Dialect().QuoteIdent(app.TableByLabel(label).SQLName) }
	col := func(ref string, folded bool) string {
		c, err := app.ResolveColumn(ref)
		if err != nil {
			b.Fatal(err)
		}
		if folded {
			return db.Dialect().QuoteIdent(c.FoldSQLName)
		}
		return db.Dialect().QuoteIdent(c.SQLName)
	}
	cli, ped, itn, nac := table("Clientes"), table("Pedidos"), table("Itens"), table("Nação do cliente")
	cases := []struct {
		name string
		req  query.Request
		sql  string
	}{
		{"segment_without", query.Request{
			Fields:  []query.Item{{Ref: "Clientes.Segmento"}, {Ref: "Clientes.Id", Agg: "count"}},
			Filters: []query.Filter{{Segment: "Clientes sem pedidos"}},
		}, "SELECT c." + col("Clientes.Segmento", false) + ", COUNT(c." + col("Clientes.Id", false) + ") FROM " + cli + " c WHERE NOT EXISTS (SELECT 1 FROM " + ped +
			" p WHERE p." + col("Pedidos.Cliente", false) + " = c." + col("Clientes.Id", false) + ") GROUP BY 1"},
		{"related_count", query.Request{
			Fields: []query.Item{{Ref: "Clientes.Pedidos feitos"}, {Ref: "Clientes.Id", Agg: "count"}},
		}, "SELECT COALESCE(n.n, 0), COUNT(c." + col("Clientes.Id", false) + ") FROM " + cli + " c LEFT JOIN (SELECT " + col("Pedidos.Cliente", false) + " AS k, COUNT(" +
			col("Pedidos.Id", false) + ") AS n FROM " + ped + " GROUP BY 1) n ON n.k = c." + col("Clientes.Id", false) + " GROUP BY 1"},
		// A column of related rows whose condition reads another (orders with at least two items).
		{"related_nested", query.Request{
			Fields: []query.Item{{Ref: "Clientes.Pedidos com vários itens"}, {Ref: "Clientes.Id", Agg: "count"}},
		}, "SELECT COALESCE(n.n, 0), COUNT(c." + col("Clientes.Id", false) + ") FROM " + cli + " c LEFT JOIN (SELECT p." + col("Pedidos.Cliente", false) +
			" AS k, COUNT(p." + col("Pedidos.Id", false) + ") AS n FROM " + ped + " p JOIN (SELECT " + col("Itens.Pedido", false) + " AS o, COUNT(" + col("Itens.Id", false) +
			") AS k FROM " + itn + " GROUP BY 1) i ON i.o = p." + col("Pedidos.Id", false) + " WHERE i.k >= 2 GROUP BY 1) n ON n.k = c." + col("Clientes.Id", false) + " GROUP BY 1"},
		// A segment whose condition reads the fact the query measures.
		{"segment_reads_fact", query.Request{
			Fields:  []query.Item{{Ref: "Clientes.Segmento"}, {Ref: "Pedidos.Valor", Agg: "sum"}},
			Filters: []query.Filter{{Segment: "Clientes com pedido cancelado"}},
		}, "SELECT c." + col("Clientes.Segmento", false) + ", SUM(p." + col("Pedidos.Valor", false) + ") FROM " + ped + " p LEFT JOIN " + cli + " c ON c." + col("Clientes.Id", false) +
			" = p." + col("Pedidos.Cliente", false) + " WHERE p." + col("Pedidos.Cliente", false) + " IN (SELECT " + col("Pedidos.Cliente", false) + " FROM " + ped + " WHERE " +
			col("Pedidos.Situação", false) + " = 'Cancelada') GROUP BY 1"},
		// A filter two joins away from the fact: inner joins let the engine start from the one nation.
		{"filter_two_joins_away", query.Request{
			Fields:  []query.Item{{Ref: "Clientes.Segmento"}, {Ref: "Pedidos.Valor", Agg: "sum"}},
			Filters: []query.Filter{{Item: query.Item{Ref: "Nação do cliente.Nação"}, Op: "=", Value: "Japão"}},
		}, "SELECT c." + col("Clientes.Segmento", false) + ", SUM(p." + col("Pedidos.Valor", false) + ") FROM " + ped + " p JOIN " + cli + " c ON c." + col("Clientes.Id", false) +
			" = p." + col("Pedidos.Cliente", false) + " JOIN " + nac + " n ON n." + col("Nação do cliente.Id", false) + " = c." + col("Clientes.Nação", false) +
			" WHERE n." + col("Nação do cliente.Nação", false) + " = 'Japão' GROUP BY 1"},
		// A HAVING on a distinct count over 80,000 groups, whose summary counts the distinct
		// values of the groups kept.
		{"having_distinct_many_groups", query.Request{
			Fields:  []query.Item{{Ref: "Clientes.Cliente"}, {Ref: "Pedidos.Situação", Agg: "count_distinct"}},
			Filters: []query.Filter{{Item: query.Item{Ref: "Pedidos.Situação", Agg: "count_distinct"}, Op: ">", Value: 2.0}},
		}, "SELECT c." + col("Clientes.Cliente", false) + ", COUNT(DISTINCT p." + col("Pedidos.Situação", false) + ") FROM " + ped + " p LEFT JOIN " + cli + " c ON c." +
			col("Clientes.Id", false) + " = p." + col("Pedidos.Cliente", false) + " GROUP BY 1 HAVING COUNT(DISTINCT p." + col("Pedidos.Situação", false) + ") > 2"},
		{"como_measure", query.Request{
			Fields: []query.Item{{Ref: "Pedidos.Situação"}, {Ref: "Receita promocional"}},
		}, "SELECT " + col("Pedidos.Situação", false) + ", SUM(CASE WHEN " + col("Pedidos.Tipo", true) + " LIKE 'promo%' THEN " + col("Pedidos.Valor", false) +
			" END) FROM " + ped + " GROUP BY 1"},
	}
	ctx := context.Background()
	for _, c := range cases {
		lumo := func(b *testing.B) {
			if _, res, err := runQuery(db, app, c.req); err != nil || len(res.Rows) == 0 {
				b.Fatalf("%v, %v", res, err)
			}
		}
		hand := func(b *testing.B) {
			rows, err := db.SQL().QueryContext(ctx, c.sql)
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for rows.Next() {
				n++
			}
			rows.Close()
			if rows.Err() != nil || n == 0 {
				b.Fatalf("%d rows, %v", n, rows.Err())
			}
		}
		for _, run := range []struct {
			name string
			f    func(*testing.B)
		}{{"lumo", lumo}, {"sql", hand}} {
			b.Run(c.name+"/"+run.name, func(b *testing.B) {
				run.f(b) // once before timing, so neither side pays for a cold cache
				for b.Loop() {
					run.f(b)
				}
			})
		}
	}
}

// membershipAtScale imports features/testdata/membership with its orders replaced by n generated
// ones and its customers by 100,000, and returns the app as paula sees it.
func membershipAtScale(b *testing.B, n int) (*store.DB, *semantic.App) {
	b.Helper()
	src, dir := "../../../features/testdata/membership", b.TempDir()
	app := filepath.Join(dir, "apps", "pedidos")
	if err := os.MkdirAll(app, 0o755); err != nil {
		b.Fatal(err)
	}
	for _, f := range []string{"workspace.yaml", "apps/pedidos/app.yaml", "apps/pedidos/itens.csv", "apps/pedidos/nacoes.csv",
		"apps/pedidos/pecafornecedor.csv", "apps/pedidos/pecas.csv", "apps/pedidos/fornecedores.csv"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	const customers = 100_000
	var w strings.Builder
	w.WriteString("ID,NOME,SEGMENTO,NACAO_ID\n")
	for i := 1; i <= customers; i++ {
		fmt.Fprintf(&w, "%d,Cliente %d,%s,%d\n", i, i, []string{"Varejo", "Atacado", "Governo"}[i%3], i%4+1)
	}
	if err := os.WriteFile(filepath.Join(app, "clientes.csv"), []byte(w.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	w.Reset()
	w.WriteString("ID,CLIENTE_ID,DATA,SITUACAO,TIPO,PRIORIDADE,VALOR\n")
	for i := 1; i <= n; i++ { // customers 1..80,000 order; the last 20,000 never do
		fmt.Fprintf(&w, "%d,%d,2026-%02d-%02d,%s,%s,%s,%d.%02d\n", i, i%80_000+1, i%12+1, i%28+1,
			[]string{"Ativa", "Cancelada", "Entregue"}[i%3], []string{"PROMO VERÃO", "Normal", "Promo Natal", "Normal"}[i%4],
			[]string{"1-URGENTE", "2-ALTA", "3-MÉDIA"}[i%3], i%900+1, i%100)
	}
	if err := os.WriteFile(filepath.Join(app, "pedidos.csv"), []byte(w.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var db *store.DB
	if sqldb.IsPostgres(os.Getenv(storetest.EnvDSN)) {
		db = storetest.Open(b)
	} else {
		var err error
		if db, err = store.Open(ctx, filepath.Join(b.TempDir(), "lumo.db")); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { db.Close() })
	}
	if _, err := db.ImportWorkspace(ctx, os.DirFS(dir), "workspace.yaml"); err != nil {
		b.Fatal(err)
	}
	u, err := db.UserByLogin(ctx, "paula")
	if err != nil {
		b.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil || len(apps) != 1 {
		b.Fatalf("%v, %d apps", err, len(apps))
	}
	return db, apps[0]
}
