package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/gen"
	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/ratelimit"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/mcphttp"
)

// postREST calls POST /tools/<tool> with body and token ("" for none) and returns the answer
// and its body.
func postREST(t *testing.T, base, token, tool, body string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/tools/"+tool, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// errorBody decodes the shared error body, failing the test when the body is not one.
func errorBody(t *testing.T, b []byte) (code, message string, suggestions []string) {
	t.Helper()
	var e struct {
		Error *struct {
			Code        string   `json:"code"`
			Message     string   `json:"message"`
			Suggestions []string `json:"suggestions"`
		} `json:"error"`
	}
	if err := json.Unmarshal(b, &e); err != nil || e.Error == nil || e.Error.Code == "" || e.Error.Suggestions == nil {
		t.Fatalf("not the error body: %s", b)
	}
	return e.Error.Code, e.Error.Message, e.Error.Suggestions
}

// restCases are representative calls of every tool, successes and refusals, with the status
// the REST mirror answers them with.
var restCases = []struct {
	name, tool, args string
	status           int
}{
	{"catalog", "search_catalog", `{}`, 200},
	{"catalog terms", "search_catalog", `{"terms":["valor","loja"]}`, 200},
	{"catalog one term in one app", "search_catalog", `{"terms":"situação","appId":1}`, 200},
	{"catalog unknown app", "search_catalog", `{"appId":999}`, 404},
	{"get_app", "get_app", `{"appId":1}`, 200},
	{"get_app as written with a fraction", "get_app", `{"appId":1.0}`, 200},
	{"get_app not found", "get_app", `{"appId":999}`, 404},
	{"get_app invalid arguments", "get_app", `{"appId":"um","extra":true}`, 400},
	{"get_app no arguments", "get_app", `{}`, 400},
	{"values distinct", "search_values", `{"appId":1,"ref":"Vendas.Situação"}`, 200},
	{"values contains", "search_values", `{"appId":1,"ref":"Lojas.Loja","contains":"centro"}`, 200},
	{"values search", "search_values", `{"appId":1,"contains":"ativa"}`, 200},
	{"values sample", "search_values", `{"appId":1,"ref":"Lojas","mode":"sample"}`, 200},
	{"values numeric column", "search_values", `{"appId":1,"ref":"Vendas.Valor da venda"}`, 400},
	{"values nothing to do", "search_values", `{"appId":1}`, 400},
	{"query", "query", `{"appId":1,"fields":[{"ref":"Lojas.Loja"},{"ref":"Vendas.Valor da venda","agg":"sum"}],"orderBy":[{"ref":"Vendas.Valor da venda","agg":"sum","dir":"desc"}],"limit":3}`, 200},
	{"query by month with a filter", "query", `{"appId":1,"fields":[{"ref":"Vendas.Data","bucket":"month"},{"ref":"Vendas.Quantidade","agg":"sum"}],"filters":[{"ref":"Vendas.Situação","op":"=","value":"ativa"}]}`, 200},
	{"query empty", "query", `{"appId":1,"fields":[{"ref":"Vendas.Valor da venda","agg":"sum"}],"filters":[{"ref":"Vendas.Data","op":"between","value":["1990-01-01","1990-01-31"]}]}`, 200},
	{"query unknown ref", "query", `{"appId":1,"fields":[{"ref":"Vendas.Nada"}]}`, 400},
	{"query schema violations", "query", `{"appId":1,"fields":[{"ref":"Vendas.Valor","agg":"soma"}],"limit":0}`, 400},
	{"query not found", "query", `{"appId":999,"fields":[{"ref":"Vendas.Valor da venda","agg":"sum"}]}`, 404},
}

// TestRESTEqualsMCP calls every case over MCP and over REST: REST's body is MCP's
// structuredContent (as JSON values), with the status of the error code.
func TestRESTEqualsMCP(t *testing.T) {
	ts, _ := startHTTP(t, 0, 0)
	ana, _ := connect(t, ts.URL, "tok-ana-loja")
	ctx := context.Background()
	for _, tc := range restCases {
		t.Run(tc.name, func(t *testing.T) {
			var args map[string]any
			d := json.NewDecoder(strings.NewReader(tc.args))
			d.UseNumber()
			if err := d.Decode(&args); err != nil {
				t.Fatal(err)
			}
			res, err := ana.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			mcpJSON, err := json.Marshal(res.StructuredContent)
			if err != nil {
				t.Fatal(err)
			}
			resp, body := postREST(t, ts.URL, "tok-ana-loja", tc.tool, tc.args)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if res.IsError != (tc.status != 200) {
				t.Fatalf("MCP isError %v for a case of status %d", res.IsError, tc.status)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q", ct)
			}
			if resp.Header.Get("X-Request-Id") == "" {
				t.Error("no X-Request-Id")
			}
			var restV, mcpV any
			if err := json.Unmarshal(body, &restV); err != nil {
				t.Fatalf("REST body: %v: %s", err, body)
			}
			if err := json.Unmarshal(mcpJSON, &mcpV); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(mcpV, restV); diff != "" {
				t.Errorf("REST body differs from MCP's structuredContent (-mcp +rest):\n%s", diff)
			}
			if tc.status != 200 {
				errorBody(t, body)
			}
		})
	}
}

func TestRESTInvalidArgumentsNameTheFields(t *testing.T) {
	ts, _ := startHTTP(t, 0, 0)
	resp, body := postREST(t, ts.URL, "tok-ana-loja", "query", `{"appId":1,"fields":[{"ref":"Vendas.Valor","agg":"soma"}],"limit":0}`)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	code, msg, suggestions := errorBody(t, body)
	if code != "INVALID_ARGUMENTS" || !strings.HasPrefix(msg, "Argumentos inválidos para query:\n- ") ||
		!strings.Contains(msg, "fields[0].agg") || !strings.Contains(msg, "limit") || len(suggestions) < 2 {
		t.Errorf("%s %q %q", code, msg, suggestions)
	}

	// (A body without Content-Type: application/json is 415: TestHTTPRefusesCrossSiteAndRebinding.)
	for name, tc := range map[string]struct{ contentType, body, want string }{
		"not JSON": {"application/json", `{"appId":`, "não é um JSON válido"},
		"NUL":      {"application/json", `{"appId":1,"x":"a\u0000"}`, "caractere nulo"},
		"array":    {"application/json", `[1]`, "Argumentos inválidos para get_app"},
	} {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", ts.URL+"/tools/get_app", strings.NewReader(tc.body))
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			req.Header.Set("Authorization", "Bearer tok-ana-loja")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			code, msg, _ := errorBody(t, b)
			if resp.StatusCode != 400 || code != "INVALID_ARGUMENTS" || !strings.Contains(msg, tc.want) {
				t.Errorf("%d %s %q, want 400 INVALID_ARGUMENTS with %q", resp.StatusCode, code, msg, tc.want)
			}
		})
	}

	// An empty body is no arguments, as on MCP.
	resp, body = postREST(t, ts.URL, "tok-ana-loja", "search_catalog", ``)
	if resp.StatusCode != 200 {
		t.Errorf("empty body: %d %s", resp.StatusCode, body)
	}
}

func TestRESTAuth(t *testing.T) {
	ts, work := startHTTP(t, 0, 0)
	for name, token := range map[string]string{"no token": "", "unknown token": "tok-nobody"} {
		resp, body := postREST(t, ts.URL, token, "get_app", `{"appId":1}`)
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: %d, WWW-Authenticate %q", name, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
		if code, msg, _ := errorBody(t, body); code != "UNAUTHORIZED" || !strings.Contains(msg, "Authorization: Bearer") {
			t.Errorf("%s: %s %q", name, code, msg)
		}
	}
	if work.Load() != 0 {
		t.Errorf("refused calls did tool work: %d", work.Load())
	}
	// Another user's token sees only that user's apps: carla (another tenant) cannot see app 1.
	if resp, body := postREST(t, ts.URL, "tok-carla-outra", "get_app", `{"appId":1}`); resp.StatusCode != 404 {
		t.Errorf("carla's get_app 1: %d %s", resp.StatusCode, body)
	}
}

func TestRESTFailedTokensAreThrottled(t *testing.T) {
	ts := guardedServer(t)
	c := clientFrom("127.0.0.7")
	post := func(token string) (*http.Response, []byte) {
		req, _ := http.NewRequest("POST", ts.URL+"/tools/search_catalog", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	for range 10 {
		if resp, _ := post("tok-wrong"); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("bad token: %d", resp.StatusCode)
		}
	}
	resp, body := post("tok-ana-loja") // even a good token waits: the address is throttled
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("after 10 failures: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if code, _, _ := errorBody(t, body); code != "RATE_LIMITED" {
		t.Errorf("code %s", code)
	}
}

func TestRESTRateLimitSharedWithMCP(t *testing.T) {
	// ana's budget of 4: a session's initialize and one MCP call, then two REST calls; the third
	// REST call and any further MCP call are refused before any tool work.
	ts, work := startHTTP(t, 4, 10)
	ctx := context.Background()
	ana, rec := connect(t, ts.URL, "tok-ana-loja")
	if res, err := ana.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}}); err != nil || res.IsError {
		t.Fatalf("MCP call: %v %v", err, res)
	}
	for i := range 2 {
		if resp, body := postREST(t, ts.URL, "tok-ana-loja", "search_catalog", `{}`); resp.StatusCode != 200 {
			t.Fatalf("REST call %d: %d %s", i+1, resp.StatusCode, body)
		}
	}
	resp, body := postREST(t, ts.URL, "tok-ana-loja", "search_catalog", `{}`)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("over the limit: %d, Retry-After %q: %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	code, msg, suggestions := errorBody(t, body)
	if code != "RATE_LIMITED" || !strings.Contains(msg, "por usuário") || len(suggestions) != 1 {
		t.Errorf("%s %q %q", code, msg, suggestions)
	}
	if _, err := ana.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}}); err == nil {
		t.Fatal("an MCP call over the shared budget succeeded")
	}
	check429(t, rec, "por usuário")
	if work.Load() != 3 {
		t.Errorf("tool work %d, want 3", work.Load())
	}
	// bruno, of the same tenant, still has his own budget.
	if resp, body := postREST(t, ts.URL, "tok-bruno-loja", "search_catalog", `{}`); resp.StatusCode != 200 {
		t.Errorf("bruno: %d %s", resp.StatusCode, body)
	}
}

func TestRESTPathsAndMethods(t *testing.T) {
	ts, _ := startHTTP(t, 0, 0)
	resp, body := postREST(t, ts.URL, "tok-ana-loja", "get_ap", `{}`)
	if code, msg, _ := errorBody(t, body); resp.StatusCode != 404 || code != "NOT_FOUND" || !strings.Contains(msg, `"get_app"`) {
		t.Errorf("unknown tool: %d %s %q", resp.StatusCode, code, msg)
	}
	req, _ := http.NewRequest("GET", ts.URL+"/tools/get_app", nil)
	req.Header.Set("Authorization", "Bearer tok-ana-loja")
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if code, _, _ := errorBody(t, b); r.StatusCode != 405 || r.Header.Get("Allow") != "POST" || code != "METHOD_NOT_ALLOWED" {
		t.Errorf("GET: %d Allow %q %s", r.StatusCode, r.Header.Get("Allow"), code)
	}

	// Every path /openapi.json advertises answers, with its declared statuses.
	var doc struct {
		Paths map[string]map[string]struct {
			Responses map[string]any `json:"responses"`
		} `json:"paths"`
	}
	raw, err := gen.OpenAPI.ReadFile("lumo/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Paths) != 4 {
		t.Fatalf("%d paths", len(doc.Paths))
	}
	for p, item := range doc.Paths {
		tool := strings.TrimPrefix(p, "/tools/")
		args := map[string]string{"search_catalog": `{}`, "get_app": `{"appId":1}`,
			"search_values": `{"appId":1,"ref":"Lojas.Loja"}`, "query": `{"appId":1,"fields":[{"ref":"Lojas.Loja"}]}`}[tool]
		resp, body := postREST(t, ts.URL, "tok-ana-loja", tool, args)
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d %s", p, resp.StatusCode, body)
		}
		if _, ok := item["post"].Responses["409"]; ok {
			t.Errorf("%s declares 409", p)
		}
	}
}

func TestRESTBodyOverTheLimitIs413(t *testing.T) {
	ts, work := startHTTP(t, 0, 0)
	big := `{"terms":["` + strings.Repeat("a", ratelimit.MaxBody) + `"]}`
	resp, body := postREST(t, ts.URL, "tok-ana-loja", "search_catalog", big)
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d: %.200s", resp.StatusCode, body)
	}
	if code, _, _ := errorBody(t, body); code != "REQUEST_TOO_LARGE" {
		t.Errorf("code %s", code)
	}
	if work.Load() != 0 {
		t.Errorf("tool work %d", work.Load())
	}
}

// restServer serves the demo with svc's settings and no rate limits.
func restServer(t *testing.T, svc *lumo.Service, login string) *httptest.Server {
	t.Helper()
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	svc.DB = db
	svc.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	h, err := httpHandler(ctx, svc, &ratelimit.Limiter{DB: db}, login, true)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts
}

func TestRESTQueryTimeoutIs504(t *testing.T) {
	ts := restServer(t, &lumo.Service{QueryTimeout: time.Nanosecond}, "")
	resp, body := postREST(t, ts.URL, "tok-ana-loja", "query", `{"appId":1,"fields":[{"ref":"Vendas.Valor da venda","agg":"sum"}]}`)
	if code, _, _ := errorBody(t, body); resp.StatusCode != http.StatusGatewayTimeout || code != "TIMEOUT" {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
}

func TestRESTSingleUserMode(t *testing.T) {
	ts := restServer(t, &lumo.Service{}, "ana")
	if resp, body := postREST(t, ts.URL, "", "get_app", `{"appId":1}`); resp.StatusCode != 200 {
		t.Errorf("no token in --user mode: %d %s", resp.StatusCode, body)
	}
}

// bearerTransport adds a bearer token to every request of the generated client.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(req)
}

// TestRESTGeneratedClient calls every tool with ogen's generated client, which decodes and
// validates each answer into the generated types.
func TestRESTGeneratedClient(t *testing.T) {
	ts, _ := startHTTP(t, 0, 0)
	c, err := lumoapi.NewClient(ts.URL, lumoapi.WithClient(&http.Client{Transport: bearerTransport{"tok-ana-loja"}}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cat, err := c.SearchCatalog(ctx, &lumoapi.SearchCatalogInput{})
	if err != nil {
		t.Fatal(err)
	}
	listing, ok := cat.GetSearchCatalogOutputCatalog()
	if !ok || len(listing.Apps) == 0 {
		t.Fatalf("catalog: %+v", cat)
	}
	app, err := c.GetApp(ctx, &lumoapi.GetAppInput{AppId: 1})
	if err != nil {
		t.Fatal(err)
	}
	if app.App.Name != "Vendas" || len(app.Tables) == 0 {
		t.Errorf("get_app: %s, %d tables", app.App.Name, len(app.Tables))
	}
	vals, err := c.SearchValues(ctx, &lumoapi.SearchValuesInput{AppId: 1, Ref: lumoapi.NewOptRef("Vendas.Situação")})
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := vals.GetSearchValuesOutputDistinct(); !ok || len(d.Values) == 0 {
		t.Errorf("search_values: %+v", vals)
	}
	q, err := c.Query(ctx, &lumoapi.QueryInput{AppId: 1, Fields: []lumoapi.Field{
		{Ref: "Lojas.Loja"}, {Ref: "Vendas.Valor da venda", Agg: lumoapi.NewOptAgg(lumoapi.AggSum)}}})
	if err != nil {
		t.Fatal(err)
	}
	if q.RowCount == 0 || len(q.Columns) != 2 {
		t.Errorf("query: %d rows, %d columns", q.RowCount, len(q.Columns))
	}

	_, err = c.GetApp(ctx, &lumoapi.GetAppInput{AppId: 999})
	var refusal *lumoapi.ErrorResponseStatusCode
	if !errors.As(err, &refusal) || refusal.StatusCode != 404 || refusal.Response.Error.Code != "NOT_FOUND" ||
		!strings.Contains(refusal.Response.Error.Message, "999") {
		t.Errorf("get_app 999: %v", err)
	}

	// Without a token the client gets the 401 error body.
	anon, err := lumoapi.NewClient(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	_, err = anon.GetApp(ctx, &lumoapi.GetAppInput{AppId: 1})
	if !errors.As(err, &refusal) || refusal.StatusCode != 401 || refusal.Response.Error.Code != "UNAUTHORIZED" {
		t.Errorf("no token: %v", err)
	}
}

// BenchmarkSmallCall times the small call, get_app, over REST and over MCP (one session, JSON
// answers, the light mcphttp client), through the whole HTTP handler on a loopback connection.
func BenchmarkSmallCall(b *testing.B) {
	ctx := context.Background()
	db := storetest.Open(b)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		b.Fatal(err)
	}
	svc := &lumo.Service{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	h, err := httpHandler(ctx, svc, &ratelimit.Limiter{DB: db}, "", false)
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	body := []byte(`{"appId":1}`)
	b.Run("rest", func(b *testing.B) {
		c := &http.Client{}
		for b.Loop() {
			req, _ := http.NewRequest("POST", ts.URL+"/tools/get_app", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer tok-ana-loja")
			resp, err := c.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				b.Fatal(resp.Status)
			}
		}
	})
	b.Run("mcp", func(b *testing.B) {
		c, err := mcphttp.Connect(ts.URL+"/mcp", "tok-ana-loja", "bench")
		if err != nil {
			b.Fatal(err)
		}
		args := map[string]any{"appId": 1}
		for b.Loop() {
			if out := c.Call("get_app", args); out.Kind != "" {
				b.Fatal(out.Kind)
			}
		}
	})
}
