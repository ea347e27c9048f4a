package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/caderninho"
)

// The attack of a page the owner visits while caderninho serve --http runs: a write posted
// cross-site without Content-Type (fetch no-cors), the same with JSON, and a read under a name that
// rebinds to 127.0.0.1. Token-less (--no-token) and with tokens; nothing is written.
func TestHTTPRefusesCrossSiteAndRebinding(t *testing.T) {
	for _, mode := range []struct {
		name    string
		noToken bool
		auth    string
	}{{"--no-token", true, ""}, {"tokens", false, "Bearer tok-assistente"}} {
		t.Run(mode.name, func(t *testing.T) {
			s, _ := demoStore(t)
			log := slog.New(slog.NewTextHandler(io.Discard, nil))
			base := serveLoopback(t, &caderninho.Service{Store: s, Log: log}, httpOptions{validate: true, noToken: mode.noToken}, log)
			port := base[strings.LastIndex(base, ":")+1:]
			n := 0
			record := func() string {
				n++
				return fmt.Sprintf(`{"space": "casa", "confirmed": true, "idempotency_key": "ataque-%04d", "day": "2026-11-05",
					"amount": {"amountMinor": "-999999", "currency": "BRL"}, "currency": "BRL", "description": "Ataque"}`, n)
			}
			do := func(method, path, host, body string, hdr map[string]string) (int, string) {
				t.Helper()
				req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
				if host != "" {
					req.Host = host
				}
				if mode.auth != "" {
					req.Header.Set("Authorization", mode.auth)
				}
				for k, v := range hdr {
					req.Header.Set(k, v)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				return resp.StatusCode, string(b)
			}
			jsonHdr := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

			// fetch(url, {mode: "no-cors", method: "POST", body}) sends text/plain, or no type at all.
			for _, ct := range []string{"", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded"} {
				code, b := do("POST", "/tools/plan_add_record", "", record(), map[string]string{"Content-Type": ct, "Sec-Fetch-Site": "cross-site"})
				if code != http.StatusUnsupportedMediaType && code != http.StatusForbidden {
					t.Errorf("no-cors write with Content-Type %q: %d %.200s", ct, code, b)
				}
				if code, b := do("POST", "/tools/plan_add_record", "", record(), map[string]string{"Content-Type": ct}); code != http.StatusUnsupportedMediaType {
					t.Errorf("write with Content-Type %q: %d %.200s, want 415", ct, code, b)
				}
			}
			// A cross-origin write with JSON (which a browser would preflight): refused without a token.
			for _, hdr := range []map[string]string{
				{"Sec-Fetch-Site": "cross-site", "Origin": "http://localhost:9"},
				{"Origin": "http://evil.example"},
			} {
				hdr["Content-Type"] = "application/json"
				code, b := do("POST", "/tools/plan_add_record", "", record(), hdr)
				if mode.noToken && code != http.StatusForbidden {
					t.Errorf("cross-origin write %v: %d %.200s, want 403", hdr, code, b)
				}
				if !mode.noToken && code != http.StatusOK {
					t.Errorf("cross-origin write with a token %v: %d %.200s, want 200 (the token authenticates it)", hdr, code, b)
				}
			}
			// DNS rebinding: every route, a token or not.
			for _, r := range []struct{ method, path, body string }{
				{"POST", "/tools/caderninho_transactions", `{}`},
				{"POST", "/tools/plan_add_record", record()},
				{"POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`},
				{"GET", "/painel/", ""},
				{"GET", "/openapi.json", ""},
				{"GET", "/healthz", ""},
			} {
				if code, b := do(r.method, r.path, "attacker.example:"+port, r.body, jsonHdr); code != http.StatusForbidden || !strings.Contains(b, "Host não permitido") {
					t.Errorf("Host attacker.example, %s %s: %d %.200s", r.method, r.path, code, b)
				}
			}
			if code, b := do("POST", "/tools/caderninho_transactions", "localhost:"+port, `{}`, jsonHdr); code != 200 {
				t.Errorf("Host localhost: %d %.200s", code, b)
			}

			var written int
			if err := s.DB().SQL().QueryRowContext(context.Background(), "SELECT count(*) FROM cad_records WHERE description = 'Ataque'").Scan(&written); err != nil {
				t.Fatal(err)
			}
			want := 0
			if !mode.noToken {
				want = 2 // the two token-authenticated writes
			}
			if written != want {
				t.Errorf("%d records written, want %d", written, want)
			}
		})
	}
}

// An empty Host on loopback, without --public-url, gets a foreign Host's answer; Go's client
// never sends one, so the request is written by hand.
func TestHTTPRefusesAnEmptyHost(t *testing.T) {
	s, _ := demoStore(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, noToken := range []bool{true, false} {
		base := serveLoopback(t, &caderninho.Service{Store: s, Log: log}, httpOptions{validate: true, noToken: noToken}, log)
		for _, head := range []string{
			"POST /tools/caderninho_accounts HTTP/1.1\r\nHost:\r\nAuthorization: Bearer tok-assistente\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
			"GET /healthz HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n",
			"GET /painel/ HTTP/1.0\r\n\r\n",
		} {
			c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(c, head)
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			c.Close()
			if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(b), "Host não permitido") {
				t.Errorf("--no-token %v, %q: %d %.200s", noToken, head, resp.StatusCode, b)
			}
		}
	}
}
