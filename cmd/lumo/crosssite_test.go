package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo"
)

// probeHTTP sends one request as curl would, with the Host and headers given ("" keeps the
// URL's), and returns its status and body.
func probeHTTP(t *testing.T, method, url, host, body string, hdr map[string]string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if host != "" {
		req.Host = host
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

const jsonCT = "application/json"

// The HTTP routes of lumo serve --http, token-less (--user ana) and with tokens: what a page of
// another site, or one whose name rebinds to 127.0.0.1, can make a browser send is refused.
func TestHTTPRefusesCrossSiteAndRebinding(t *testing.T) {
	for _, mode := range []struct {
		name, login string
		auth        map[string]string
	}{{"--user ana", "ana", nil}, {"tokens", "", map[string]string{"Authorization": "Bearer tok-ana-loja"}}} {
		t.Run(mode.name, func(t *testing.T) {
			ts := restServer(t, &lumo.Service{PublicURL: "http://127.0.0.1:1"}, mode.login)
			port := ts.URL[strings.LastIndex(ts.URL, ":")+1:]
			with := func(extra map[string]string) map[string]string {
				h := map[string]string{}
				for k, v := range mode.auth {
					h[k] = v
				}
				for k, v := range extra {
					h[k] = v
				}
				return h
			}
			// A permalink to read back under a rebound name.
			code, b := probeHTTP(t, "POST", ts.URL+"/tools/query", "", `{"appId":1,"fields":[{"ref":"Lojas.Loja"}]}`,
				with(map[string]string{"Content-Type": jsonCT}))
			var out struct{ Permalink string }
			if json.Unmarshal(b, &out); code != 200 || !strings.HasPrefix(out.Permalink, "http://127.0.0.1:1/app/") {
				t.Fatalf("query: %d %s", code, b)
			}
			report := ts.URL + strings.TrimPrefix(out.Permalink, "http://127.0.0.1:1")

			// 1. DNS rebinding: every route refuses a foreign Host on loopback, even with a token.
			for _, host := range []string{"attacker.example:" + port, "attacker.example"} {
				for _, r := range []struct{ method, url, body string }{
					{"POST", ts.URL + "/tools/get_app", `{"appId":1}`},
					{"POST", ts.URL + "/mcp", initializeBody},
					{"GET", report, ""},
					{"GET", ts.URL + "/openapi.json", ""},
					{"GET", ts.URL + "/healthz", ""},
					{"GET", ts.URL + "/login", ""},
				} {
					code, b := probeHTTP(t, r.method, r.url, host, r.body, with(map[string]string{
						"Content-Type": jsonCT, "Accept": "application/json, text/event-stream"}))
					if code != http.StatusForbidden || !strings.Contains(string(b), "Host não permitido") {
						t.Errorf("Host %s, %s %s: %d %.200s", host, r.method, r.url, code, b)
					}
				}
			}
			// The loopback names pass.
			for _, host := range []string{"localhost:" + port, "127.0.0.1:" + port} {
				if code, b := probeHTTP(t, "POST", ts.URL+"/tools/get_app", host, `{"appId":1}`, with(map[string]string{"Content-Type": jsonCT})); code != 200 {
					t.Errorf("Host %s: %d %.200s", host, code, b)
				}
			}
			if mode.login != "" {
				if code, _ := probeHTTP(t, "GET", report, "localhost:"+port, "", nil); code != 200 {
					t.Errorf("the report under localhost: %d", code)
				}
			}

			// 2. A body not declared as JSON (what a page posts without a CORS preflight): 415.
			for _, ct := range []string{"", "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
				"multipart/form-data; boundary=x", "application/json; charset=latin1"} {
				code, b := probeHTTP(t, "POST", ts.URL+"/tools/get_app", "", `{"appId":1}`, with(map[string]string{"Content-Type": ct}))
				c, msg, _ := errorBody(t, b)
				if code != http.StatusUnsupportedMediaType || c != "UNSUPPORTED_MEDIA_TYPE" || !strings.Contains(msg, "Content-Type: application/json") {
					t.Errorf("Content-Type %q: %d %s", ct, code, b)
				}
			}
			if code, b := probeHTTP(t, "POST", ts.URL+"/tools/get_app", "", `{"appId":1}`,
				with(map[string]string{"Content-Type": "application/json; charset=UTF-8"})); code != 200 {
				t.Errorf("charset=UTF-8: %d %.200s", code, b)
			}

			// 3. A call from a page of another origin: refused where no token authenticates it.
			for _, hdr := range []map[string]string{
				{"Sec-Fetch-Site": "cross-site", "Origin": "http://localhost:9"},
				{"Sec-Fetch-Site": "same-site", "Origin": "http://127.0.0.1:9"},
				{"Origin": "http://evil.example"},
			} {
				hdr["Content-Type"] = jsonCT
				hdr["Accept"] = "application/json, text/event-stream"
				want := http.StatusForbidden
				if mode.login == "" {
					want = http.StatusOK // the bearer token authenticates the call
				}
				code, b := probeHTTP(t, "POST", ts.URL+"/tools/get_app", "", `{"appId":1}`, with(hdr))
				if code != want {
					t.Errorf("REST from %v: %d %.200s, want %d", hdr, code, b, want)
				}
				if code, b := probeHTTP(t, "POST", ts.URL+"/mcp", "", initializeBody, with(hdr)); code != want {
					t.Errorf("/mcp from %v: %d %.200s, want %d", hdr, code, b, want)
				}
			}
			// The owner's own tools send no browser headers, or same-origin ones.
			for _, hdr := range []map[string]string{{}, {"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"}} {
				hdr["Content-Type"] = jsonCT
				if code, b := probeHTTP(t, "POST", ts.URL+"/tools/get_app", "", `{"appId":1}`, with(hdr)); code != 200 {
					t.Errorf("REST with %v: %d %.200s", hdr, code, b)
				}
			}
		})
	}
}

// rawRequest sends head, a whole HTTP/1.x request head as written (Go's client never sends an
// empty Host), to the server at base, and returns the status and body.
func rawRequest(t *testing.T, base, head string) (int, string) {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, head); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// An empty Host on loopback, without --public-url, gets a foreign Host's answer.
func TestHTTPRefusesAnEmptyHost(t *testing.T) {
	for _, login := range []string{"ana", ""} {
		ts := restServer(t, &lumo.Service{}, login)
		for _, head := range []string{
			"POST /tools/get_app HTTP/1.1\r\nHost:\r\nAuthorization: Bearer tok-ana-loja\r\nContent-Type: application/json\r\nContent-Length: 11\r\nConnection: close\r\n\r\n{\"appId\":1}",
			"GET /healthz HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n",
			"GET /mcp HTTP/1.0\r\nAuthorization: Bearer tok-ana-loja\r\n\r\n",
		} {
			if code, b := rawRequest(t, ts.URL, head); code != http.StatusForbidden || !strings.Contains(b, "Host não permitido") {
				t.Errorf("--user %q, %q: %d %.200s", login, head, code, b)
			}
		}
	}
}
