package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/ratelimit"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// recorder adds the bearer token and keeps the answer to the last tools/call POST.
type recorder struct {
	token string
	mu    sync.Mutex
	last  *http.Response
	body  []byte // of last
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+r.token)
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err == nil && bytes.Contains(body, []byte(`"tools/call"`)) {
		b, _ := io.ReadAll(res.Body)
		res.Body = io.NopCloser(bytes.NewReader(b))
		r.mu.Lock()
		r.last, r.body = res, b
		r.mu.Unlock()
	}
	return res, err
}

func startHTTP(t *testing.T, perUser, perTenant int) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := &lumo.Service{DB: db, Log: log}
	clock := func() time.Time { return time.Date(2026, 11, 29, 12, 0, 37, 0, time.UTC) }
	limiter := &ratelimit.Limiter{DB: db, PerUser: perUser, PerTenant: perTenant, Now: clock, Log: log}
	h, err := httpHandler(ctx, svc, limiter, "", true)
	if err != nil {
		t.Fatal(err)
	}
	// Every lumo tool resolves its caller first: counting that counts the tool work done.
	var work atomic.Int64
	identity := svc.Identity
	svc.Identity = func(ctx context.Context, extra *mcp.RequestExtra) (*store.User, error) {
		work.Add(1)
		return identity(ctx, extra)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts, &work
}

func connect(t *testing.T, url, token string) (*mcp.ClientSession, *recorder) {
	t.Helper()
	rec := &recorder{token: token}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: &http.Client{Transport: rec},
			DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, rec
}

func TestHTTPRateLimitAnswers429BeforeAnyToolWork(t *testing.T) {
	// A session's initialize is a request: ana's session and two calls spend her budget of 3.
	ts, work := startHTTP(t, 3, 5)
	ctx := context.Background()
	ana, rec := connect(t, ts.URL, "tok-ana-loja")
	for i := range 2 {
		res, err := ana.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("call %d: %v %v", i+1, err, res)
		}
	}
	if work.Load() != 2 {
		t.Fatalf("tool work after 2 calls: %d", work.Load())
	}
	_, err := ana.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}})
	if err == nil {
		t.Fatal("third call of the user succeeded")
	}
	check429(t, rec, "por usuário")
	if work.Load() != 2 {
		t.Fatalf("the refused call did tool work: %d", work.Load())
	}
	// Nor can she open another session: initialize is refused the same way.
	if _, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: &http.Client{Transport: rec},
			DisableStandaloneSSE: true, MaxRetries: -1}, nil); err == nil {
		t.Fatal("initialize over the user's limit opened a session")
	}
	check429(t, rec, "por usuário")
	// bruno, of ana's tenant, gets the tenant's last two requests (his initialize and one call),
	// then 429 for the tenant.
	bruno, rec := connect(t, ts.URL, "tok-bruno-loja")
	if res, err := bruno.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}}); err != nil || res.IsError {
		t.Fatalf("bruno's first call: %v %v", err, res)
	}
	if _, err := bruno.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}}); err == nil {
		t.Fatal("call over the tenant limit succeeded")
	}
	check429(t, rec, "do Tenant")
	if work.Load() != 3 {
		t.Fatalf("tool work %d, want 3", work.Load())
	}
	// carla's tenant has its own budget; listing tools is never counted.
	carla, _ := connect(t, ts.URL, "tok-carla-outra")
	for range 3 {
		if _, err := carla.ListTools(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	if res, err := carla.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}}); err != nil || res.IsError {
		t.Fatalf("carla: %v %v", err, res)
	}
}

func check429(t *testing.T, rec *recorder, scope string) {
	t.Helper()
	rec.mu.Lock()
	res, body := rec.last, rec.body
	rec.mu.Unlock()
	if res == nil || res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("last tools/call answered %v, want 429", res)
	}
	if got := res.Header.Get("Retry-After"); got != "60" {
		t.Errorf("Retry-After %q, want 60 (the clock stands still, so the oldest call is a minute away from leaving)", got)
	}
	if !strings.Contains(string(body), "RATE_LIMITED") || !strings.Contains(string(body), scope) ||
		!strings.Contains(string(body), "tente de novo em 60 s") {
		t.Errorf("429 body %s", body)
	}
}

func TestHTTPHealthReadyAndBodyLimit(t *testing.T) {
	ts, work := startHTTP(t, 60, 300)
	for _, path := range []string{"/healthz", "/readyz"} {
		res, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d", path, res.StatusCode)
		}
	}
	res, err := http.Post(ts.URL+"/mcp", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized || string(body) != "Token ausente: envie o cabeçalho Authorization: Bearer <token>.\n" {
		t.Errorf("/mcp without a token: %d %q", res.StatusCode, body) // go-sdk's own is "no bearer token"
	}
	if resp, body := postMCP(t, http.DefaultClient, ts.URL, "tok-nenhum"); resp.StatusCode != http.StatusUnauthorized ||
		body != "Token recusado: token desconhecido. Confira o token com quem administra o servidor.\n" {
		t.Errorf("/mcp with an unknown token: %d %q", resp.StatusCode, body)
	}
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_catalog","arguments":{"terms":"` +
		strings.Repeat("x", ratelimit.MaxBody) + `"}}}`
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(big))
	req.Header.Set("Authorization", "Bearer tok-ana-loja")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("body over %d bytes: %d, want 413", ratelimit.MaxBody, res.StatusCode)
	}
	if work.Load() != 0 {
		t.Errorf("tool work %d", work.Load())
	}
}

func TestHTTPReadyzIs503WithoutTheDatabase(t *testing.T) {
	db := storetest.Open(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h, err := httpHandler(context.Background(), &lumo.Service{DB: db, Log: log}, &ratelimit.Limiter{DB: db}, "", false)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	for path, want := range map[string]int{"/healthz": http.StatusOK, "/readyz": http.StatusServiceUnavailable} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != want {
			t.Errorf("%s: %d, want %d", path, rec.Code, want)
		}
	}
}
