package faults

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
)

// TestQueryCancelledMidRun runs a query that takes a while, then the same query with a time limit
// of a quarter of that: it must come back TIMEOUT well before the query could have finished (the
// statement is cancelled in the database, not awaited), and the next call on the same database
// must answer.
func TestQueryCancelledMidRun(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 100,000 rows; skipped with -short")
	}
	ctx := context.Background()
	db := storetest.Open(t)
	path := lumoWorkspace(t, t.TempDir(), 100000)
	if _, err := db.ImportWorkspace(ctx, os.DirFS(filepath.Dir(path)), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	ana, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	callTool := func(tool string, timeout time.Duration, args map[string]any) (*mcp.CallToolResult, time.Duration) {
		srv, err := lumo.NewServer(&lumo.Service{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Identity: lumo.FixedUser(ana), QueryTimeout: timeout}, lumo.Options{ValidateOutput: true})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res, err := mcpserver.CallInProcess(ctx, srv, "faults", tool, args)
		if err != nil {
			t.Fatal(err)
		}
		return res, time.Since(start)
	}
	call := func(timeout time.Duration, args map[string]any) (*mcp.CallToolResult, time.Duration) {
		return callTool("query", timeout, args)
	}
	res, _ := callTool("search_catalog", time.Minute, map[string]any{})
	var cat struct {
		Apps []struct {
			ID int64 `json:"id"`
		} `json:"apps"`
	}
	if b, _ := json.Marshal(res.StructuredContent); json.Unmarshal(b, &cat) != nil || len(cat.Apps) == 0 {
		t.Fatalf("no app in the catalogue: %s", b)
	}
	app := cat.Apps[0].ID
	heavy := map[string]any{"appId": app, "limit": 1, "fields": []any{
		map[string]any{"ref": "Vendas.Cliente"}, map[string]any{"ref": "Vendas.Data"}, map[string]any{"ref": "Vendas.Id"},
		map[string]any{"ref": "Vendas.Valor", "agg": "sum"}},
		"orderBy": []any{map[string]any{"ref": "Vendas.Valor", "agg": "sum", "dir": "desc"}}}
	var full time.Duration
	for i := 0; i < 2; i++ { // the faster of two warm runs
		res, took := call(time.Minute, heavy)
		if res.IsError {
			t.Fatalf("the heavy query fails: %v", res.Content)
		}
		if i == 0 || took < full {
			full = took
		}
	}
	if full < 200*time.Millisecond {
		t.Skipf("the heavy query takes only %v here; too fast to cancel mid-run", full)
	}
	limit := full / 4
	res, took := call(limit, heavy)
	t.Logf("full run %v; with a limit of %v the call returned after %v", full.Round(time.Millisecond), limit.Round(time.Millisecond), took.Round(time.Millisecond))
	b, _ := json.Marshal(res.StructuredContent)
	var v struct {
		Error struct{ Code string } `json:"error"`
	}
	if err := json.Unmarshal(b, &v); err != nil || !res.IsError || v.Error.Code != "TIMEOUT" {
		t.Fatalf("want a TIMEOUT error, got %s", b)
	}
	if took > full*3/4 {
		t.Errorf("the cancelled call took %v of a %v query: the statement ran on", took, full)
	}
	if res, _ := call(time.Minute, map[string]any{"appId": app, "fields": []any{map[string]any{"ref": "Vendas.Valor", "agg": "sum"}}}); res.IsError {
		t.Fatalf("the next query fails: %v", res.Content)
	}
}
