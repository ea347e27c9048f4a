package lumo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// sessionOf connects an in-memory client to a server acting as login, sharing svc's answer cache.
func sessionOf(t testing.TB, svc *Service, db *store.DB, login string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	u, err := db.UserByLogin(ctx, login)
	if err != nil {
		t.Fatal(err)
	}
	own := &Service{DB: svc.DB, Log: svc.Log, Identity: FixedUser(u), cache: svc.results()}
	srv, err := NewServer(own, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	s, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func callJSON(t testing.TB, s *mcp.ClientSession, tool string, args any) (string, string) {
	t.Helper()
	r, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	if _, bench := t.(*testing.B); bench && r.IsError {
		t.Fatalf("%s failed: %v", tool, r.Content[0].(*mcp.TextContent).Text)
	}
	b, _ := json.Marshal(r.StructuredContent)
	return r.Content[0].(*mcp.TextContent).Text, string(b)
}

// TestAnswersAreKeptUntilTheDataChanges: a repeated query is answered from the cache with the
// same text and structuredContent; an import moves the generation and the next call reads the new
// data; a caller who cannot see the app gets NOT_FOUND however warm the cache is.
func TestAnswersAreKeptUntilTheDataChanges(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	ws := func(v string) {
		t.Helper()
		if _, err := db.ImportWorkspace(ctx, twoTenantsWith("Vendas", "ID,V\n1,"+v+"\n2,20\n"), "workspace.yaml"); err != nil {
			t.Fatal(err)
		}
	}
	ws("10")
	svc := &Service{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	ana, bea := sessionOf(t, svc, db, "ana"), sessionOf(t, svc, db, "bea")
	u, _ := db.UserByLogin(ctx, "ana")
	apps, _ := db.VisibleApps(ctx, u)
	q := map[string]any{"appId": apps[0].ID, "fields": []any{map[string]any{"ref": "Itens.Valor", "agg": "sum"}}}

	text1, sc1 := callJSON(t, ana, "query", q)
	hits0, _ := svc.results().stats()
	text2, sc2 := callJSON(t, ana, "query", q)
	hits1, _ := svc.results().stats()
	if hits1 != hits0+1 {
		t.Fatalf("the repeated query was not answered from the cache (hits %d -> %d)", hits0, hits1)
	}
	if text1 != text2 || sc1 != sc2 {
		t.Fatalf("the kept answer differs:\n%s\n%s\n---\n%s\n%s", text1, sc1, text2, sc2)
	}
	if _, sc := callJSON(t, bea, "query", q); sc == sc1 || !json.Valid([]byte(sc)) {
		t.Fatalf("bea, who cannot see ana's app, got its answer: %s", sc)
	}
	ws("15")
	_, sc3 := callJSON(t, ana, "query", q)
	if sc3 == sc1 {
		t.Fatalf("after an import the answer is the old one: %s", sc3)
	}
	var out struct {
		Rows [][]float64 `json:"rows"`
	}
	if err := json.Unmarshal([]byte(sc3), &out); err != nil || len(out.Rows) != 1 || out.Rows[0][0] != 35 {
		t.Fatalf("after the import: %s, want the sum 35", sc3)
	}
}

// BenchmarkRepeatedQuery is a count_distinct and an avg over 100,000 rows answered from the cache
// and computed afresh.
func BenchmarkRepeatedQuery(b *testing.B) {
	ctx := context.Background()
	var data strings.Builder
	data.WriteString("ID,V\n")
	for i := range 100_000 {
		fmt.Fprintf(&data, "%d,%d\n", i+1, i%97)
	}
	for _, bc := range []struct {
		name  string
		bytes int64
	}{{"cached", 0}, {"uncached", -1}} {
		b.Run(bc.name, func(b *testing.B) {
			db := storetest.Open(b)
			if _, err := db.ImportWorkspace(ctx, twoTenantsWith("Vendas", data.String()), "workspace.yaml"); err != nil {
				b.Fatal(err)
			}
			svc := &Service{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), ResultCacheBytes: bc.bytes}
			s := sessionOf(b, svc, db, "ana")
			u, _ := db.UserByLogin(ctx, "ana")
			apps, _ := db.VisibleApps(ctx, u)
			q := map[string]any{"appId": apps[0].ID, "fields": []any{map[string]any{"ref": "Itens.Valor", "agg": "count_distinct"},
				map[string]any{"ref": "Itens.Valor", "agg": "avg"}}}
			for b.Loop() {
				callJSON(b, s, "query", q)
			}
		})
	}
}
