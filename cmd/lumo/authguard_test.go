package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/ratelimit"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/authguard"
)

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// clientFrom is an HTTP client whose connections come from the loopback address local.
func clientFrom(local string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func postMCP(t *testing.T, c *http.Client, base, token string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(initializeBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// guardedServer serves the demo over HTTP with the default failed-token throttle, its clock
// stopped so that no failure wears off during a test.
func guardedServer(t *testing.T) *httptest.Server {
	t.Helper()
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := &lumo.Service{DB: db, Log: log, PublicURL: "http://lumo.test"}
	g := authguard.New(authguard.DefaultMaxFailures)
	now := time.Now()
	g.Now = func() time.Time { return now }
	h, err := httpHandlerWith(ctx, svc, &ratelimit.Limiter{DB: db}, "", true, serveOps{guard: g})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts
}

// 1,000 wrong tokens from one address: 10 are checked, the rest get 429 with Retry-After before
// any lookup, on /mcp and on the report login alike; another address's good token still works.
func TestHTTPThrottlesFailedTokensPerClient(t *testing.T) {
	ts := guardedServer(t)
	attacker := clientFrom("127.0.0.1")
	counts := map[int]int{}
	for range 1000 {
		resp, body := postMCP(t, attacker, ts.URL, "wrong")
		counts[resp.StatusCode]++
		if resp.StatusCode == http.StatusTooManyRequests && (resp.Header.Get("Retry-After") != "6" ||
			!strings.Contains(body, "Muitas tentativas com token inválido a partir deste endereço; tente de novo em 6 s.")) {
			t.Fatalf("429 without Retry-After 6 or the message: %q %q", resp.Header.Get("Retry-After"), body)
		}
	}
	if counts[401] != 10 || counts[429] != 990 {
		t.Errorf("statuses %v; want 10 × 401 and 990 × 429", counts)
	}
	// The same address is refused on the report login form and with a good token too.
	resp, err := attacker.Get(ts.URL + "/login")
	if err != nil {
		t.Fatal(err)
	}
	form, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`name="csrf" value="([^"]*)"`).FindSubmatch(form)
	if m == nil {
		t.Fatalf("login form:\n%s", form)
	}
	req, _ := http.NewRequest("POST", ts.URL+"/login", strings.NewReader(url.Values{"token": {"tok-ana-loja"}, "csrf": {string(m[1])}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for _, c := range resp.Cookies() {
		req.AddCookie(c)
	}
	resp, err = attacker.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(body), "Muitas tentativas") {
		t.Errorf("login from the throttled address: %d %q", resp.StatusCode, body)
	}
	if resp, _ := postMCP(t, attacker, ts.URL, "tok-ana-loja"); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("good token from the throttled address: %d", resp.StatusCode)
	}
	if resp, body := postMCP(t, clientFrom("127.0.0.2"), ts.URL, "tok-ana-loja"); resp.StatusCode != http.StatusOK {
		t.Errorf("good token from another address: %d %s", resp.StatusCode, body)
	}
}

// The report login counts failures like /mcp: 10 wrong tokens, then 429.
func TestReportLoginIsThrottled(t *testing.T) {
	ts := guardedServer(t)
	c := clientFrom("127.0.0.1")
	counts := map[int]int{}
	for range 100 {
		req, _ := http.NewRequest("POST", ts.URL+"/login", strings.NewReader(url.Values{"token": {"wrong"}, "csrf": {strings.Repeat("x", 43)}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(&http.Cookie{Name: "lumo_csrf", Value: strings.Repeat("x", 43)})
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		counts[resp.StatusCode]++
	}
	if counts[401] != 10 || counts[429] != 90 {
		t.Errorf("statuses %v; want 10 × 401 and 90 × 429", counts)
	}
}

// The bearer scheme is case-insensitive on /mcp and on report pages alike (RFC 7235).
func TestLowerCaseBearerSchemeEverywhere(t *testing.T) {
	ts, _ := startHTTP(t, 0, 0)
	c := clientFrom("127.0.0.1")
	for _, scheme := range []string{"bearer", "BEARER"} {
		req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(initializeBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", scheme+" tok-ana-loja")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("/mcp with %q: status %d", scheme, resp.StatusCode)
		}
		// A report page answers 404 for an unknown link only once the viewer is known (401 otherwise).
		req, _ = http.NewRequest("GET", ts.URL+"/app/1/report/nope", nil)
		req.Header.Set("Authorization", scheme+" tok-ana-loja")
		resp, err = c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("report page with %q: status %d, want 404 (a known viewer)", scheme, resp.StatusCode)
		}
	}
}

// A token the database cannot check (here: the pool closed under the server) is 503 with
// Retry-After on /mcp and on REST, never a 401: 30 of them from one address do not throttle it.
func TestHTTPDatabaseDownIsNotAFailedToken(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h, err := httpHandlerWith(ctx, &lumo.Service{DB: db, Log: log}, &ratelimit.Limiter{DB: db}, "", true,
		serveOps{guard: authguard.New(authguard.DefaultMaxFailures)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	db.SQL().Close()
	for i := range 30 {
		resp, body := postMCP(t, http.DefaultClient, ts.URL, "tok-ana-loja")
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "2" || !strings.Contains(body, "o banco de dados não respondeu") {
			t.Fatalf("/mcp call %d: %d, Retry-After %q, %s", i, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
		resp, b := postREST(t, ts.URL, "tok-ana-loja", "search_catalog", `{}`)
		if code, _, _ := errorBody(t, b); resp.StatusCode != http.StatusServiceUnavailable || code != "UNAVAILABLE" || resp.Header.Get("Retry-After") != "2" {
			t.Fatalf("REST call %d: %d %s", i, resp.StatusCode, b)
		}
	}
}
