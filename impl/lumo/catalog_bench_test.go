package lumo

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"

	"github.com/lumo-caderninho/mcp/impl/lumo/bench"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
)

// processCPU is this process's user + system CPU seconds.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// catalogService imports lumo-bench's catalogue of apps apps and serves it as its user.
func catalogService(b testing.TB, apps int) *Service {
	b.Helper()
	ctx := context.Background()
	db := storetest.Open(b)
	if _, err := db.ImportWorkspace(ctx, bench.Catalog(apps), "workspace.yaml"); err != nil {
		b.Fatal(err)
	}
	u, err := db.UserByLogin(ctx, bench.CatalogLogin)
	if err != nil {
		b.Fatal(err)
	}
	return &Service{DB: db, Identity: FixedUser(u), Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// BenchmarkSearchCatalog times search_catalog (the handler, models cached as in a server) over
// lumo-bench's catalogue, LUMO_BENCH_CATALOG_APPS apps (default 10,000), with the bench's terms
// without terms (the whole catalogue) and the lumo://apps resource:
// go test ./impl/lumo/ -run '^$' -bench SearchCatalog -benchtime 20x -cpuprofile cpu.out
func BenchmarkSearchCatalog(b *testing.B) {
	apps := 10_000
	if s := os.Getenv("LUMO_BENCH_CATALOG_APPS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("LUMO_BENCH_CATALOG_APPS=%q: use a positive number", s)
		}
		apps = n
	}
	s := catalogService(b, apps)
	ctx := context.Background()
	call := func(args string) error {
		var in lumoapi.SearchCatalogInput
		if err := in.UnmarshalJSON([]byte(args)); err != nil {
			return err
		}
		_, text, err := s.searchCatalog(ctx, &in, DefaultMaxResultBytes)
		if err == nil {
			_ = text()
		}
		var te *mcpserver.ToolError
		if errors.As(err, &te) && te.Code == "RESULT_TOO_LARGE" {
			return nil // what the binder would answer anyway: the bench's catalogue has 500 apps per name
		}
		return err
	}
	read := func() error {
		_, err := s.readCatalog(ctx, &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: "lumo://apps"}})
		return err
	}
	for _, bm := range []struct {
		name string
		run  func() error
	}{
		{"terms", func() error { return call(`{"terms": ["financeiro", "cobrança"]}`) }},
		{"catalogue", func() error { return call(`{}`) }},
		{"resource", read},
	} {
		b.Run(bm.name, func(b *testing.B) {
			// The first call reads the models into the cache, as the server's first call does.
			if err := bm.run(); err != nil {
				b.Fatal(err)
			}
			cpu0 := processCPU()
			for b.Loop() {
				if err := bm.run(); err != nil {
					b.Fatal(err)
				}
			}
			// CPU time (all of this process's threads, GC included) is steadier than wall time on
			// a shared machine.
			b.ReportMetric((processCPU()-cpu0)*1000/float64(b.N), "cpu-ms/op")
		})
	}
}
