package lumo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/bench"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
)

// TestRollupsAnswerAlike runs random queries over the benchmark's sales (100,000 rows, 5,000
// with -short), whose app declares a rollup, with rollups off and on: every answer (rows, total,
// summary, dataAsOf) must be the same, and both kinds of query must occur (some the rollup
// answers, some it cannot).
func TestRollupsAnswerAlike(t *testing.T) {
	rows := 100_000
	if testing.Short() {
		rows = 5_000
	}
	t.Run("sqlite", func(t *testing.T) {
		db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "lumo.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		rollupsAlike(t, db, rows)
	})
	t.Run("postgres", func(t *testing.T) {
		if !sqldb.IsPostgres(os.Getenv(storetest.EnvDSN)) {
			t.Skip("runs on PostgreSQL too with LUMO_TEST_DB=postgres://...")
		}
		rollupsAlike(t, storetest.Open(t), rows)
	})
}

func rollupsAlike(t *testing.T, db *store.DB, rows int) {
	ctx := context.Background()
	if _, err := db.ImportWorkspace(ctx, bench.Workspace(rows), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	u, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	app := apps[0]
	if len(app.Rollups) != 3 {
		t.Fatalf("rollups after import: %+v", app.Rollups)
	}
	for _, r := range app.Rollups {
		if r.Rows == 0 || r.Rows > int64(rows) {
			t.Fatalf("rollup %s has %d rows", r.Name, r.Rows)
		}
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	on := &Service{DB: db, Identity: FixedUser(u), Log: log, QueryTimeout: time.Minute}
	off := &Service{DB: db, Identity: FixedUser(u), Log: log, QueryTimeout: time.Minute, NoRollups: true}

	groups := []map[string]any{
		{"ref": "Lojas.Loja"}, {"ref": "Lojas.UF"}, {"ref": "Vendas.Situação"}, {"ref": "Vendas.Canal"},
		{"ref": "Vendas.Data", "bucket": "day"}, {"ref": "Vendas.Data", "bucket": "month"}, {"ref": "Vendas.Data", "bucket": "year"},
		{"ref": "Vendas.Data", "bucket": "month_of_year"}, {"ref": "Vendas.Data", "bucket": "day_of_week"},
		{"ref": "Vendas.Data", "bucket": "hour_of_day"},                                       // not at a day grain
		{"ref": "Produtos.Categoria"}, {"ref": "Produtos.Produto"}, {"ref": "Vendas.Cliente"}, // in other rollups
		{"ref": "Lojas.Cidade"}, // in none
	}
	measures := []map[string]any{
		{"ref": "Vendas.Valor da venda", "agg": "sum"}, {"ref": "Vendas.Valor da venda", "agg": "avg"},
		{"ref": "Vendas.Custo", "agg": "min"}, {"ref": "Vendas.Custo", "agg": "max"}, {"ref": "Vendas.Quantidade", "agg": "count"},
		{"ref": "Vendas.Quantidade", "agg": "sum"}, {"ref": "Vendas.Situação", "agg": "count_distinct"},
		{"ref": "Lojas.UF", "agg": "count_distinct"}, {"ref": "Vendas.Situação", "agg": "count"}, {"ref": "Vendas.Loja id", "agg": "max"},
		{"ref": "Vendas.Cliente", "agg": "count_distinct"}, {"ref": "Vendas.Margem", "agg": "sum"}, {"ref": "Parte ativa"}, // not
	}
	filters := []map[string]any{
		{"ref": "Vendas.Situação", "op": "=", "value": "Ativa"},
		{"ref": "Vendas.Situação", "op": "in", "value": []any{"Pendente", ""}},
		{"ref": "Vendas.Canal", "op": "!=", "value": "Site"},
		{"ref": "Lojas.UF", "op": "in", "value": []any{"SP", "MG"}},
		{"ref": "Lojas.Loja", "op": "like", "value": "%0%"},
		{"ref": "Vendas.Data", "op": "between", "value": []any{"2025-03-01", "2025-06-30"}},
		{"ref": "Vendas.Data", "op": "<", "value": "2026-01-01"},
		{"ref": "Vendas.Data", "bucket": "month", "op": "=", "value": "2025-02"},
		{"ref": "Vendas.Data", "op": ">=", "value": "2025-05-10 12:00:00"}, // not on a day boundary
		{"ref": "Vendas.Valor da venda", "op": ">", "value": 500.0},        // not a dimension
		{"ref": "Vendas.Valor da venda", "agg": "sum", "op": ">", "value": 1000.0},
	}
	rnd := rand.New(rand.NewPCG(20, 2))
	pick := func(list []map[string]any, n int) []any {
		out := []any{}
		seen := map[int]bool{}
		for range n {
			i := rnd.IntN(len(list))
			if !seen[i] {
				seen[i] = true
				out = append(out, list[i])
			}
		}
		return out
	}
	routed, based := map[string]int{}, 0
	n := 150
	if testing.Short() {
		n = 60
	}
	for i := range n {
		args := map[string]any{"appId": app.ID, "limit": 1000,
			"fields":  append(pick(groups, rnd.IntN(3)), pick(measures, 1+rnd.IntN(3))...),
			"filters": pick(filters, rnd.IntN(3))}
		raw, _ := json.Marshal(args)
		var in lumoapi.QueryInput
		if err := in.UnmarshalJSON(raw); err != nil {
			t.Fatalf("decoding %s: %v", raw, err)
		}
		_, _, want, errOff := off.execQuery(ctx, app, &in)
		_, plan, got, errOn := on.execQuery(ctx, app, &in)
		if fmt.Sprint(errOff) != fmt.Sprint(errOn) {
			t.Fatalf("query %d %s: error off %v, on %v", i, raw, errOff, errOn)
		}
		if errOff != nil {
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("query %d %s: rollup answer differs (-off +on):\n%s", i, raw, diff)
		}
		if r := plan.Blocks[0].Rollup; r != nil {
			routed[r.Name]++
		} else {
			based++
		}
	}
	t.Logf("queries by each rollup %v, %d by the base tables", routed, based)
	for _, r := range app.Rollups {
		if routed[r.Name] == 0 {
			t.Errorf("no query went to rollup %s: the generator should reach every one", r.Name)
		}
	}
	if based < n/10 {
		t.Fatalf("queries by each rollup %v, %d by the base tables: the generator should mix both", routed, based)
	}
}
