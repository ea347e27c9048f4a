package crosssite

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// probe sends method path to a server on 127.0.0.1 that answers 200 past the guard, with the Host
// and headers given, and returns the status and body.
func probe(t *testing.T, base string, method, path, host string, hdr map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, base+path, strings.NewReader(`{}`))
	if host != "" {
		req.Host = host
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

func serve(t *testing.T, g Guard) string {
	t.Helper()
	ts := httptest.NewServer(g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("passed")) })))
	t.Cleanup(ts.Close)
	return ts.URL
}

func TestHostOnLoopback(t *testing.T) {
	base := serve(t, Guard{PublicURL: "https://lumo.exemplo.com.br/base"})
	port := base[strings.LastIndex(base, ":")+1:]
	for host, want := range map[string]int{
		"127.0.0.1:" + port: 200, "localhost:" + port: 200, "LOCALHOST:" + port: 200, "[::1]:" + port: 200,
		"127.0.0.2": 200, "localhost": 200, "lumo.exemplo.com.br": 200, "lumo.exemplo.com.br:443": 200,
		"attacker.example:" + port: 403, "attacker.example": 403, "127.0.0.1.nip.io:" + port: 403,
		"evil.localhost:" + port: 403, "[::ffff:7f00:1]:" + port: 200, "exemplo.com.br": 403,
	} {
		for _, path := range []string{"/tools/query", "/mcp", "/relatorio/abc", "/healthz"} {
			if code, body := probe(t, base, "GET", path, host, nil); code != want {
				t.Errorf("Host %q %s: %d %s, want %d", host, path, code, body, want)
			}
		}
	}
	// Without a public URL only the loopback names pass.
	base = serve(t, Guard{})
	if code, _ := probe(t, base, "GET", "/", "lumo.exemplo.com.br", nil); code != 403 {
		t.Errorf("a foreign Host without a public URL: %d", code)
	}
}

// Each route refuses in its own form: the REST error body, a JSON-RPC error, plain text.
func TestRefusalBodies(t *testing.T) {
	base := serve(t, Guard{})
	code, body := probe(t, base, "POST", "/tools/query", "attacker.example", nil)
	var rest struct {
		Error struct{ Code, Message string }
	}
	if json.Unmarshal([]byte(body), &rest); code != 403 || rest.Error.Code != "FORBIDDEN" || !strings.Contains(rest.Error.Message, "Host não permitido") {
		t.Errorf("REST: %d %s", code, body)
	}
	code, body = probe(t, base, "POST", "/mcp", "attacker.example", nil)
	var rpc struct {
		JSONRPC string
		Error   struct {
			Code    int
			Message string
		}
	}
	if json.Unmarshal([]byte(body), &rpc); code != 403 || rpc.JSONRPC != "2.0" || rpc.Error.Code != -32600 || !strings.Contains(rpc.Error.Message, "Host não permitido") {
		t.Errorf("MCP: %d %s", code, body)
	}
	if code, body = probe(t, base, "GET", "/painel/", "attacker.example", nil); code != 403 || !strings.HasPrefix(body, "Host não permitido") {
		t.Errorf("page: %d %s", code, body)
	}
}

// A connection that did not arrive on loopback (a LAN or public address) may use any Host: the
// bearer tokens, required off loopback, guard it.
func TestHostOffLoopback(t *testing.T) {
	h := Guard{}.Wrap(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	req := httptest.NewRequest("GET", "/mcp", nil)
	req.Host = "lumo.interno"
	req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.ParseIP("192.168.0.10"), Port: 8080}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Errorf("off loopback: %d", rec.Code)
	}
}

func TestTokenlessRefusesOtherOrigins(t *testing.T) {
	tokenless := serve(t, Guard{Tokenless: true})
	withTokens := serve(t, Guard{})
	own := strings.TrimPrefix(tokenless, "http://")
	cases := []struct {
		name string
		hdr  map[string]string
		want int
	}{
		{"no browser headers (curl, an MCP client)", nil, 200},
		{"same-origin", map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "null"}, 200},
		{"typed by the user", map[string]string{"Sec-Fetch-Site": "none"}, 200},
		{"cross-site", map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}, 403},
		{"another port of this host", map[string]string{"Sec-Fetch-Site": "same-site", "Origin": "http://127.0.0.1:1"}, 403},
		{"foreign Origin, no Sec-Fetch-Site", map[string]string{"Origin": "https://evil.example"}, 403},
		{"Origin null, no Sec-Fetch-Site", map[string]string{"Origin": "null"}, 403},
		{"own Origin, no Sec-Fetch-Site", map[string]string{"Origin": "http://" + own}, 200},
	}
	for _, c := range cases {
		for _, path := range []string{"/mcp", "/tools/plan_add_record"} {
			for _, method := range []string{"POST", "GET", "DELETE"} {
				if code, body := probe(t, tokenless, method, path, "", c.hdr); code != c.want {
					t.Errorf("tokenless, %s, %s %s: %d %s, want %d", c.name, method, path, code, body, c.want)
				}
			}
			// With tokens, the bearer check authenticates the call (and a browser cannot send a
			// token to another site without a CORS preflight, which these servers never allow).
			if code, _ := probe(t, withTokens, "POST", path, "", c.hdr); code != 200 {
				t.Errorf("with tokens, %s, %s: %d", c.name, path, code)
			}
		}
		// Pages and their forms keep their own checks (links to a report open from anywhere).
		if code, _ := probe(t, tokenless, "GET", "/relatorio/abc", "", c.hdr); code != 200 {
			t.Errorf("tokenless page, %s: %d", c.name, code)
		}
	}
}

// rawProbe sends request (a whole HTTP/1.x request head) to the server at base as written, and
// returns the status and body: Go's client never sends an empty Host.
func rawProbe(t *testing.T, base, request string) (int, string) {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, request); err != nil {
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

// An empty Host (HTTP/1.1 "Host:" with no name, or HTTP/1.0 without the header) names no
// loopback name: it gets a wrong Host's answer, with or without a public URL.
func TestEmptyHostOnLoopback(t *testing.T) {
	for _, g := range []Guard{{}, {PublicURL: "https://lumo.exemplo.com.br"}, {Tokenless: true}} {
		base := serve(t, g)
		for _, req := range []string{
			"GET /mcp HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n",
			"GET /tools/query HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n",
			"GET /healthz HTTP/1.0\r\n\r\n",
		} {
			if code, body := rawProbe(t, base, req); code != 403 || !strings.Contains(body, "Host não permitido") {
				t.Errorf("%+v, %q: %d %s, want 403 Host não permitido", g, req, code, body)
			}
		}
	}
}
