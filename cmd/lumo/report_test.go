package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/ratelimit"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

func TestServeRefusesABadPublicURL(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, u := range []string{"lumo.exemplo.com.br", "ftp://x", "https://x/?a=1"} {
		err := serve(context.Background(), []string{"--db", ":memory:", "--public-url", u}, log)
		if err == nil || !strings.Contains(err.Error(), "--public-url precisa ser um endereço http ou https absoluto") {
			t.Errorf("--public-url %q: %v", u, err)
		}
	}
}

// The HTTP server wires the report pages: a query over MCP returns a permalink whose page asks
// for a login, opens with a bearer token, and counts against the viewer's rate limit.
func TestHTTPServesPermalinkReports(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := &lumo.Service{DB: db, Log: log, PublicURL: "http://lumo.test"}
	h, err := httpHandler(ctx, svc, &ratelimit.Limiter{DB: db, PerUser: 3, Log: log,
		Now: func() time.Time { return time.Date(2026, 11, 29, 12, 0, 7, 0, time.UTC) }}, "", true)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	cs, _ := connect(t, ts.URL, "tok-ana-loja")
	cat, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(cat.StructuredContent)
	var apps struct{ Apps []struct{ ID int64 } }
	json.Unmarshal(b, &apps)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "query", Arguments: map[string]any{
		"appId": apps.Apps[0].ID, "fields": []any{map[string]any{"ref": "Lojas.Loja"}}}})
	if err != nil || res.IsError {
		t.Fatalf("query: %v %+v", err, res)
	}
	b, _ = json.Marshal(res.StructuredContent)
	var out struct{ Permalink string }
	json.Unmarshal(b, &out)
	path, ok := strings.CutPrefix(out.Permalink, "http://lumo.test/app/")
	if !ok {
		t.Fatalf("permalink %q", out.Permalink)
	}
	path = "/app/" + path
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	open := func(token string) *http.Response {
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		r, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		return r
	}
	if r := open(""); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/login?next=") {
		t.Errorf("without a login: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
	// ana's budget is 2: search_catalog and query spent it; bruno still has his.
	if r := open("tok-bruno-loja"); r.StatusCode != http.StatusOK {
		t.Errorf("bruno: %d", r.StatusCode)
	}
	if r := open("tok-ana-loja"); r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Errorf("ana over her limit: %d, Retry-After %q", r.StatusCode, r.Header.Get("Retry-After"))
	}
}
