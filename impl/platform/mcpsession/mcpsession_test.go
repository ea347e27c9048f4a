package mcpsession

import (
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/platform/mcphttp"
)

// testServer serves an MCP server whose bearer token is the user's name.
func testServer(t *testing.T, l Limits) (*mcp.Server, string) {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(ctx context.Context, _ *mcp.CallToolRequest, in struct{}) (*mcp.CallToolResult, struct{}, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, struct{}{}, nil
	})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	verify := auth.RequireBearerToken(func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token == "" {
			return nil, errors.New("no token")
		}
		return &auth.TokenInfo{UserID: token, Expiration: time.Now().Add(time.Hour)}, nil
	}, nil)
	hs := httptest.NewServer(verify(Handler(srv, mcp.StreamableHTTPOptions{JSONResponse: true}, l, log)))
	t.Cleanup(hs.Close)
	return srv, hs.URL
}

func sessions(srv *mcp.Server) int {
	n := 0
	for range srv.Sessions() {
		n++
	}
	return n
}

func TestSessionsPerUserAreCapped(t *testing.T) {
	srv, url := testServer(t, Limits{PerUser: 5})
	other, err := mcphttp.Connect(url, "bruno", "test")
	if err != nil {
		t.Fatal(err)
	}
	var ana []*mcphttp.Client
	for i := 0; i < 20; i++ { // opened and abandoned, as a careless client or an attacker does
		c, err := mcphttp.Connect(url, "ana", "test")
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
		ana = append(ana, c)
	}
	if n := sessions(srv); n != 6 {
		t.Errorf("%d sessions open, want ana's 5 and bruno's 1", n)
	}
	for i, c := range ana {
		out := c.Call("echo", map[string]any{})
		if live := out.Kind == ""; live != (i >= 15) {
			t.Errorf("ana's session %d: live %v (%d %s), want only the newest 5 live", i, live, out.Status, out.Kind)
		}
		if i < 15 && out.Status != http.StatusNotFound {
			t.Errorf("ana's closed session %d answered %d, want 404 (the client then opens a new one)", i, out.Status)
		}
	}
	if out := other.Call("echo", map[string]any{}); out.Kind != "" {
		t.Errorf("another user's session was closed: %d %s", out.Status, out.Kind)
	}
}

// TestIdleSessionsExpire: sessions abandoned without DELETE are closed after the timeout, and the
// goroutines and memory they held are freed.
func TestIdleSessionsExpire(t *testing.T) {
	const timeout = 4 * time.Second
	srv, url := testServer(t, Limits{Timeout: timeout, PerUser: -1})
	settle := func() (goroutines int, heap uint64) {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return runtime.NumGoroutine(), m.HeapInuse
	}
	warm, err := mcphttp.Connect(url, "warm", "test") // the server's pools warm
	if err != nil {
		t.Fatal(err)
	}
	warm.CloseIdleConnections()
	time.Sleep(timeout + time.Second)
	g0, h0 := settle()
	const n = 300
	for i := 0; i < n; i++ {
		c, err := mcphttp.Connect(url, "ana", "test")
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
		c.CloseIdleConnections() // only the session is left, as by a client gone without DELETE
	}
	g1, h1 := settle()
	// On a loaded machine the first sessions may expire before the last open: enough that most
	// are open, each holding a goroutine.
	if open := sessions(srv); open < n/2 || g1 < g0+open {
		t.Fatalf("%d sessions open right after opening %d, goroutines %d -> %d: the test measures nothing", open, n, g0, g1)
	}
	deadline := time.Now().Add(10 * time.Second)
	for sessions(srv) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if open := sessions(srv); open > 0 {
		t.Fatalf("%d of %d idle sessions still open %v after the %v timeout", open, n, 10*time.Second, timeout)
	}
	var g2 int
	var h2 uint64
	for time.Now().Before(deadline) {
		if g2, h2 = settle(); g2 <= g0+10 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("goroutines %d -> %d with %d sessions -> %d after expiry; heap in use %d -> %d -> %d KiB",
		g0, g1, n, g2, h0>>10, h1>>10, h2>>10)
	if g2 > g0+10 {
		t.Errorf("goroutines did not return near the baseline: %d before, %d after expiry", g0, g2)
	}
	if h2 > h0+(h1-h0)/4 {
		t.Errorf("memory did not return near the baseline: heap in use %d KiB before, %d with sessions, %d after expiry", h0>>10, h1>>10, h2>>10)
	}
}

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		perUser int
		err     string
	}{
		{nil, DefaultPerUser, ""},
		{[]string{"--max-sessions-per-user", "0"}, -1, ""},
		{[]string{"--max-sessions-per-user", "3"}, 3, ""},
		{[]string{"--max-sessions-per-user", "-1"}, 0, "use um número inteiro"},
		{[]string{"--session-timeout", "0s"}, DefaultPerUser, "--session-timeout precisa ser positivo"},
	} {
		var l Limits
		fs := newFlagSet()
		l.RegisterFlags(fs)
		err := fs.Parse(tc.args)
		if err == nil {
			err = l.Check()
		}
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: err %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil || l.PerUser != tc.perUser || l.Timeout != DefaultTimeout {
			t.Errorf("%v: %+v, %v", tc.args, l, err)
		}
	}
}

func newFlagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// A body that is not JSON (NaN, Infinity, a cut message) is a JSON-RPC parse error in
// Portuguese, not go-sdk's English "malformed payload"; valid calls go on as before.
func TestMalformedBodyInPortuguese(t *testing.T) {
	_, url := testServer(t, Limits{})
	post := func(body string) (int, string) {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer ana")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for body, want := range map[string]string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"x": Infinity}}}`: "NaN e Infinity não são números em JSON",
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"x": NaN}}}`:      "NaN e Infinity",
		`{"jsonrpc":"2.0","id":1,"method":`: "Mensagem que não é JSON válido",
	} {
		code, got := post(body)
		if code != 400 || !strings.Contains(got, `"code":-32700`) || !strings.Contains(got, want) || strings.Contains(got, "malformed") {
			t.Errorf("%s: %d %s", body, code, got)
		}
	}
	if code, got := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`); code != 200 {
		t.Errorf("initialize: %d %s", code, got)
	}
}
