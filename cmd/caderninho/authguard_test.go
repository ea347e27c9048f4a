package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/caderninho/admin"
	"github.com/lumo-caderninho/mcp/impl/platform/authguard"
)

// 1,000 wrong tokens from one address: 10 are checked, the rest get 429 with Retry-After before
// any lookup; an assistant's token from another address still works.
func TestHTTPThrottlesFailedTokensPerClient(t *testing.T) {
	s, _ := demoStore(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	g := authguard.New(authguard.DefaultMaxFailures)
	now := time.Now()
	g.Now = func() time.Time { return now }
	url := serveLoopback(t, &caderninho.Service{Store: s, Log: log}, httpOptions{guard: g}, log) + "/mcp"
	post := func(from, token string) (*http.Response, string) {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
		req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
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
	counts := map[int]int{}
	for range 1000 {
		resp, body := post("127.0.0.1", "tok-outro")
		counts[resp.StatusCode]++
		if resp.StatusCode == http.StatusTooManyRequests && (resp.Header.Get("Retry-After") != "6" || !strings.Contains(body, "tente de novo em 6 s")) {
			t.Fatalf("429: Retry-After %q, body %q", resp.Header.Get("Retry-After"), body)
		}
	}
	if counts[401] != 10 || counts[429] != 990 {
		t.Errorf("statuses %v; want 10 × 401 and 990 × 429", counts)
	}
	if resp, _ := post("127.0.0.1", "tok-assistente"); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("good token from the throttled address: %d", resp.StatusCode)
	}
	if resp, body := post("127.0.0.2", "tok-assistente"); resp.StatusCode != http.StatusOK {
		t.Errorf("good token from another address: %d %s", resp.StatusCode, body)
	}
}

// An assistant failing on /mcp (a revoked token, say) until its address is throttled does not
// lock the owner out of the panel from that address: panel logins have their own bound, which
// wrong credentials still reach.
func TestPanelLoginThrottledApartFromTokens(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, _ := demoStore(t)
	cred, err := (admin.Ops{Store: s, Actor: admin.ActorCLI}).ResetCredential(ctx)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	now := time.Now()
	guards := []*authguard.Guard{authguard.New(authguard.DefaultMaxFailures), authguard.New(authguard.DefaultMaxFailures)}
	for _, g := range guards {
		g.Now = func() time.Time { return now }
	}
	base := serveLoopback(t, &caderninho.Service{Store: s, Log: log}, httpOptions{guard: guards[0], panelGuard: guards[1]}, log)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(req *http.Request) (int, string) {
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	mcpFails := map[int]int{}
	for range 20 {
		req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer cad_revogado")
		status, _ := do(req)
		mcpFails[status]++
	}
	if mcpFails[401] != 10 || mcpFails[429] != 10 {
		t.Fatalf("/mcp statuses %v; want 10 × 401 and 10 × 429", mcpFails)
	}
	csrfRE := regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	login := func(credential string) (int, string) {
		req, _ := http.NewRequest("GET", base+"/painel/entrar", nil)
		_, page := do(req)
		m := csrfRE.FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("no csrf field:\n%s", page)
		}
		form := url.Values{"credencial": {credential}, "csrf": {m[1]}}
		req, _ = http.NewRequest("POST", base+"/painel/entrar", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", base)
		return do(req)
	}
	if status, body := login(cred); status != http.StatusSeeOther {
		t.Fatalf("the owner's login from the address /mcp throttles: %d, want 303\n%s", status, body)
	}
	panelFails := map[int]int{}
	for range 20 {
		status, _ := login("cadpainel_errada")
		panelFails[status]++
	}
	if panelFails[401] != 10 || panelFails[429] != 10 {
		t.Errorf("wrong panel credentials: statuses %v; want 10 × 401 and 10 × 429", panelFails)
	}
}

// A token the database cannot check (here: the pool closed under the server) is 503 with
// Retry-After on /mcp and on REST, never a 401: 30 of them from one address do not throttle it.
func TestHTTPDatabaseDownIsNotAFailedToken(t *testing.T) {
	s, _ := demoStore(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	base := serveLoopback(t, &caderninho.Service{Store: s, Log: log}, httpOptions{guard: authguard.New(authguard.DefaultMaxFailures)}, log)
	s.DB().Close()
	for i := range 30 {
		for _, path := range []string{"/mcp", "/tools/caderninho_accounts"} {
			body := `{}`
			if path == "/mcp" {
				body = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
			}
			req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Authorization", "Bearer tok-assistente")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "2" ||
				!strings.Contains(string(b), "o banco de dados não respondeu") {
				t.Fatalf("call %d to %s: %d, Retry-After %q, %s", i, path, resp.StatusCode, resp.Header.Get("Retry-After"), b)
			}
			if path != "/mcp" && !strings.Contains(string(b), `"code":"UNAVAILABLE"`) {
				t.Fatalf("REST: %s", b)
			}
		}
	}
}
