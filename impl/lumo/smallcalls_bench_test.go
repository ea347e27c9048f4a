//go:build cgo

package lumo

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
)

// BenchmarkSmallCalls times the calls of a small app that read its rows (the demo's 20,000 sales,
// as mcp-load calls them) on the row store and on the columnar copy, side by side: what a small
// app pays for one engine, every read on DuckDB, against the database (--columnar off). The
// result cache is off.
//
//	go test -run '^$' -bench SmallCalls ./impl/lumo/
func BenchmarkSmallCalls(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, "lumo.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		b.Fatal(err)
	}
	u, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		b.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil {
		b.Fatal(err)
	}
	app := strconv.FormatInt(apps[0].ID, 10)
	col := syncedCopy(b, db, filepath.Join(dir, "lumo.duckdb"))
	var search lumoapi.SearchValuesInput
	var filtered, grouped lumoapi.QueryInput
	for raw, in := range map[string]interface{ UnmarshalJSON([]byte) error }{
		`{"appId": ` + app + `, "contains": "ana"}`: &search,
		`{"appId": ` + app + `, "fields": [{"ref": "Vendas.Canal"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}]}`:                                                                                &grouped,
		`{"appId": ` + app + `, "fields": [{"ref": "Lojas.UF"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}], "filters": [{"ref": "Vendas.Canal", "op": "in", "value": ["Loja", "Aplicativo"]}]}`: &filtered,
	} {
		if err := in.UnmarshalJSON([]byte(raw)); err != nil {
			b.Fatal(raw, err)
		}
	}
	for _, engine := range []struct {
		name string
		col  *columnar.Store
	}{{"rowstore", nil}, {"duckdb", col}} {
		svc := &Service{DB: db, Identity: FixedUser(u), Log: slog.New(slog.NewTextHandler(io.Discard, nil)), ResultCacheBytes: -1,
			QueryTimeout: time.Minute, Columnar: engine.col}
		calls := map[string]func() error{
			"search_values": func() error { _, _, err := svc.searchValues(ctx, &search); return err },
			"query":         func() error { _, _, err := svc.query(ctx, &grouped); return err },
			"query_filter":  func() error { _, _, err := svc.query(ctx, &filtered); return err },
		}
		for _, name := range []string{"search_values", "query", "query_filter"} {
			call := calls[name]
			b.Run(name+"/"+engine.name, func(b *testing.B) {
				defer cpuPerOp(b)()
				for b.Loop() {
					if err := call(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
