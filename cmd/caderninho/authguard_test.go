package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/platform/authguard"
)

// 1,000 wrong tokens from one address: 10 are checked, the rest get 429 with Retry-After before
// any lookup; an assistant's token from another address still works.
func TestHTTPThrottlesFailedTokensPerClient(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, _ := demoStore(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	g := authguard.New(authguard.DefaultMaxFailures)
	now := time.Now()
	g.Now = func() time.Time { return now }
	errc := make(chan error, 1)
	go func() {
		errc <- serveHTTP(ctx, &caderninho.Service{Store: s, Log: log}, ln, httpOptions{guard: g}, log)
	}()
	url := "http://" + ln.Addr().String() + "/mcp"
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
	cancel()
	if err := <-errc; err != nil {
		t.Errorf("serve: %v", err)
	}
}
