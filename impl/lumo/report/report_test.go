package report_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/lumo/report"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
)

type fixture struct {
	db     *store.DB
	svc    *lumo.Service
	srv    *httptest.Server
	link   string // the permalink, as the query tool returned it
	path   string
	vendas int64 // vendas-comercial, seen by ana and bruno (desk Comercial)
}

// setup seeds the demo workspace and returns a report server plus the permalink of a query ana
// ran through the MCP tool.
func setup(t *testing.T, publicURL string) *fixture {
	t.Helper()
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.SeedDemoIfEmpty(ctx); err != nil {
		t.Fatalf("seeding demo: %v", err)
	}
	ana, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{db: db}
	apps, err := db.VisibleApps(ctx, ana)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range apps {
		if a.Key == "vendas-comercial" {
			f.vendas = a.ID
		}
	}
	f.svc = &lumo.Service{DB: db, Identity: lumo.FixedUser(ana), PublicURL: publicURL}
	mux := http.NewServeMux()
	(&report.Handler{DB: db, Runner: f.svc, PublicURL: publicURL}).Register(mux)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	f.link = f.query(t, map[string]any{"appId": f.vendas,
		"fields":  []any{map[string]any{"ref": "Lojas.Loja"}, map[string]any{"ref": "Vendas.Valor da venda", "agg": "sum"}},
		"orderBy": []any{map[string]any{"ref": "Vendas.Valor da venda", "agg": "sum", "dir": "desc"}},
		"limit":   3})
	f.path = strings.TrimPrefix(f.link, publicURL)
	return f
}

// query calls the query tool as ana and returns its permalink.
func (f *fixture) query(t *testing.T, args map[string]any) string {
	t.Helper()
	srv, err := lumo.NewServer(f.svc, lumo.Options{ValidateOutput: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := mcpserver.CallInProcess(context.Background(), srv, "test", "query", args)
	if err != nil || res.IsError {
		t.Fatalf("query: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out struct {
		Permalink string `json:"permalink"`
	}
	json.Unmarshal(b, &out)
	if out.Permalink == "" {
		t.Fatalf("query result without permalink: %s", b)
	}
	if !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "Relatório na Aplicação: "+out.Permalink) {
		t.Errorf("query text does not carry the permalink:\n%s", res.Content[0].(*mcp.TextContent).Text)
	}
	return out.Permalink
}

func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

func get(t *testing.T, url string, header ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := (&http.Client{CheckRedirect: noRedirect}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestReportAccessFollowsTheViewer(t *testing.T) {
	t.Parallel()
	f := setup(t, "https://lumo.exemplo.com.br")
	if !strings.HasPrefix(f.link, "https://lumo.exemplo.com.br/app/") || !strings.Contains(f.link, "/report/") {
		t.Fatalf("permalink %q", f.link)
	}
	for _, c := range []struct {
		who    string
		token  string
		status int
		want   string
	}{
		{"owner's desk (ana)", "tok-ana-loja", 200, "<td class=\"num\">R$ "},
		{"same desk (bruno)", "tok-bruno-loja", 200, "Consulta refeita agora para Bruno Lima"},
		{"same tenant without the desk (davi)", "tok-davi-loja", 404, "Relatório não encontrado"},
		{"other tenant (carla)", "tok-carla-outra", 404, "Relatório não encontrado"},
		{"unknown token", "nope", 401, "Token desconhecido"},
	} {
		resp, body := get(t, f.srv.URL+f.path, "Authorization", "Bearer "+c.token)
		if resp.StatusCode != c.status || !strings.Contains(body, c.want) {
			t.Errorf("%s: status %d, want %d with %q; body:\n%s", c.who, resp.StatusCode, c.status, c.want, body)
		}
		if c.status != 200 && strings.Contains(body, "R$") {
			t.Errorf("%s: a refused page shows data:\n%s", c.who, body)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("%s: CSP %q", c.who, csp)
		}
	}
}

func TestReportPageShowsTheResult(t *testing.T) {
	t.Parallel()
	f := setup(t, "http://127.0.0.1:1")
	resp, body := get(t, f.srv.URL+f.path, "Authorization", "Bearer tok-ana-loja")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d:\n%s", resp.StatusCode, body)
	}
	for _, want := range []string{
		"<title>Vendas · Lumo</title>", "<h1>Vendas</h1>", "Sem filtros.", "Dados carregados até ",
		"<th scope=\"col\">Loja</th>", "Linhas: 3 de 7; as outras 4 existem e não estão aqui.",
		"<svg", "class=\"barra\"", "Total de todas as linhas: ",
		`<div class="tabela"><table>`, `font-size="13"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q:\n%s", want, body)
		}
	}
	if n := strings.Count(body, "class=\"barra\""); n != 6 {
		t.Errorf("%d bars, want 6 (one per row in the wide chart and in the phone's)", n)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("content type %q", ct)
	}
}

// At phone width (390 px) nothing is cut: the viewport is the device's, the table scrolls inside
// its own box instead of widening the page, and the chart is an SVG that scales to the column's
// width (viewBox, width 100%, no minimum width), drawn a second time 360 wide with fewer labels
// for screens below 36rem, so its 13 px labels are read at about 13 px there.
func TestReportPageFitsAPhone(t *testing.T) {
	t.Parallel()
	f := setup(t, "http://127.0.0.1:1")
	_, body := get(t, f.srv.URL+f.path, "Authorization", "Bearer tok-ana-loja")
	for _, want := range []string{
		`<meta name="viewport" content="width=device-width, initial-scale=1">`,
		`<div class="tabela"><table>`, ".tabela,figure{overflow-x:auto}",
		".grafico{display:block;width:100%;height:auto}", ".grafico.compacto{display:none}",
		"@media (max-width:36rem){.grafico.largo{display:none}.grafico.compacto{display:block}}",
		`class="grafico largo barras" role="img" aria-label="Valor da venda (soma) por Loja" viewBox="0 0 720 260" width="100%"`,
		`class="grafico compacto barras" role="img" aria-label="Valor da venda (soma) por Loja" viewBox="0 0 360 260" width="100%"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "min-width:34rem") {
		t.Errorf("the chart keeps a minimum width wider than a phone:\n%s", body)
	}
}

func TestReportLineChartForDates(t *testing.T) {
	t.Parallel()
	f := setup(t, "http://127.0.0.1:1")
	link := f.query(t, map[string]any{"appId": f.vendas, "fields": []any{
		map[string]any{"ref": "Vendas.Data", "bucket": "month"}, map[string]any{"ref": "Vendas.Valor da venda", "agg": "sum"}},
		"filters": []any{map[string]any{"ref": "Vendas.Situação", "op": "=", "value": "Ativa"}}})
	_, body := get(t, f.srv.URL+strings.TrimPrefix(link, "http://127.0.0.1:1"), "Authorization", "Bearer tok-ana-loja")
	for _, want := range []string{"<polyline", "class=\"ponto\"", "Filtros: Situação = Ativa.", "<td>set/2026</td>"} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q:\n%s", want, body)
		}
	}
}

func TestSameQuerySameLinkAndNoDataInIt(t *testing.T) {
	t.Parallel()
	f := setup(t, "http://127.0.0.1:1")
	again := f.query(t, map[string]any{"limit": 3,
		"orderBy": []any{map[string]any{"dir": "desc", "agg": "sum", "ref": "Vendas.Valor da venda"}},
		"fields":  []any{map[string]any{"ref": "Lojas.Loja"}, map[string]any{"agg": "sum", "ref": "Vendas.Valor da venda"}},
		"appId":   f.vendas})
	if again != f.link {
		t.Errorf("same query in another key order: %q, first %q", again, f.link)
	}
	other := f.query(t, map[string]any{"appId": f.vendas, "fields": []any{map[string]any{"ref": "Lojas.Loja"}}})
	if other == f.link {
		t.Errorf("another query got the same link %q", other)
	}
	id := f.link[strings.LastIndex(f.link, "/")+1:]
	if len(id) < 22 || strings.ContainsAny(id, "=+/") {
		t.Errorf("id %q: want at least 128 bits, URL-safe", id)
	}
	appID, args, err := f.db.Permalink(context.Background(), id)
	if err != nil || appID != f.vendas {
		t.Fatalf("stored permalink: app %d, err %v", appID, err)
	}
	if strings.Contains(string(args), "R$") || strings.Contains(string(args), "rows") || !strings.Contains(string(args), "Lojas.Loja") {
		t.Errorf("stored permalink must hold the query only: %s", args)
	}
	for _, p := range []string{f.path + "x", strings.Replace(f.path, "/app/", "/app/9", 1), "/app/abc/report/x"} {
		if resp, _ := get(t, f.srv.URL+p, "Authorization", "Bearer tok-ana-loja"); resp.StatusCode != 404 {
			t.Errorf("%s: status %d, want 404", p, resp.StatusCode)
		}
	}
}

func TestLoginFormOpensASession(t *testing.T) {
	t.Parallel()
	f := setup(t, "https://lumo.exemplo.com.br/bi")
	path := strings.TrimPrefix(f.link, "https://lumo.exemplo.com.br/bi")
	resp, _ := get(t, f.srv.URL+path)
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || loc != "/bi/login?next="+url.QueryEscape("/bi"+path) {
		t.Fatalf("unauthenticated: status %d, Location %q", resp.StatusCode, loc)
	}
	_, form := get(t, f.srv.URL+"/login?next="+url.QueryEscape("/bi"+path))
	if !strings.Contains(form, `name="token"`) || !strings.Contains(form, `value="/bi`+path+`"`) {
		t.Fatalf("login form:\n%s", form)
	}
	csrf := csrfOf(t, f.srv.URL+"/login")
	post := func(token, next string) *http.Response {
		resp, _ := postForm(t, f.srv.URL+"/login", csrf, url.Values{"token": {token}, "next": {next}})
		return resp
	}
	if resp := post("wrong", "/bi"+path); resp.StatusCode != 401 || len(resp.Cookies()) != 0 {
		t.Errorf("wrong token: status %d, cookies %v", resp.StatusCode, resp.Cookies())
	}
	resp = post("tok-ana-loja", "/bi"+path)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/bi"+path {
		t.Fatalf("login: status %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	var c *http.Cookie
	for _, k := range resp.Cookies() {
		if k.Name == report.CookieName {
			c = k
		}
	}
	if c == nil || !c.HttpOnly || !c.Secure || c.SameSite != http.SameSiteLaxMode || strings.Contains(c.Value, "tok-ana") {
		t.Fatalf("session cookie %+v", c)
	}
	if r, body := get(t, f.srv.URL+path, "Cookie", c.Name+"="+c.Value); r.StatusCode != 200 || !strings.Contains(body, "Ana Souza") {
		t.Errorf("with the session cookie: status %d", r.StatusCode)
	}
	if r, _ := get(t, f.srv.URL+path, "Cookie", c.Name+"=forged"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("forged cookie: status %d, want a redirect to the login", r.StatusCode)
	}
	// Off-site destinations are dropped, so the form cannot be used as an open redirect.
	for _, next := range []string{"//evil.example/app/1", "https://evil.example/bi/app/1", "/bi/login", "/bi/app/../../x"} {
		if resp := post("tok-ana-loja", next); resp.StatusCode != 200 || resp.Header.Get("Location") != "" {
			t.Errorf("next %q: status %d, Location %q", next, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
}

func TestParsePublicURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://lumo.exemplo.com.br":  "https://lumo.exemplo.com.br",
		"https://exemplo.com.br/lumo/": "https://exemplo.com.br/lumo",
		"http://127.0.0.1:8080":        "http://127.0.0.1:8080",
		"lumo.exemplo.com.br":          "",
		"ftp://x":                      "",
		"/app":                         "",
		"https://x/?a=1":               "",
		"https://user:pw@x":            "",
		"https://x/#frag":              "",
		"https:lumo":                   "",
	} {
		got, err := report.ParsePublicURL(in)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("ParsePublicURL(%q) = %q, %v; want %q", in, got, err, want)
		}
		if err != nil && !strings.Contains(err.Error(), "--public-url") {
			t.Errorf("error %q does not name the flag", err)
		}
	}
}

// csrfForm is the anti-CSRF cookie a form page set and the token its hidden field carries.
type csrfForm struct {
	cookie *http.Cookie
	token  string
}

var csrfInput = regexp.MustCompile(`name="csrf" value="([^"]*)"`)

// csrfOf opens the form page at url (a login form, or a report page with header) and returns
// its anti-CSRF cookie and field.
func csrfOf(t *testing.T, url string, header ...string) csrfForm {
	t.Helper()
	resp, body := get(t, url, header...)
	m := csrfInput.FindStringSubmatch(body)
	var f csrfForm
	for _, c := range resp.Cookies() {
		if strings.HasSuffix(c.Name, "lumo_csrf") {
			f.cookie = c
		}
	}
	if m == nil || f.cookie == nil || m[1] != f.cookie.Value || len(m[1]) < 43 {
		t.Fatalf("%s: no anti-CSRF token (field %v, cookie %v):\n%s", url, m, f.cookie, body)
	}
	f.token = m[1]
	return f
}

// postForm posts form to url with the anti-CSRF cookie and field of f (when set) and header.
func postForm(t *testing.T, url string, f csrfForm, form url.Values, header ...string) (*http.Response, string) {
	t.Helper()
	if f.token != "" {
		form.Set("csrf", f.token)
	}
	req, _ := http.NewRequest("POST", url, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if f.cookie != nil {
		req.AddCookie(&http.Cookie{Name: f.cookie.Name, Value: f.cookie.Value})
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	resp, err := (&http.Client{CheckRedirect: noRedirect}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func sessionCookie(resp *http.Response) *http.Cookie {
	for _, k := range resp.Cookies() {
		if k.Name == report.CookieName && k.Value != "" {
			return k
		}
	}
	return nil
}

// A login or logout post from another site, or without this browser's anti-CSRF token, is
// refused with 403 and opens or ends no session.
func TestLoginAndLogoutRefuseCrossSitePosts(t *testing.T) {
	t.Parallel()
	f := setup(t, "https://lumo.exemplo.com.br")
	csrf := csrfOf(t, f.srv.URL+"/login")
	if !strings.HasPrefix(csrf.cookie.Name, "__Host-") || !csrf.cookie.HttpOnly || !csrf.cookie.Secure ||
		csrf.cookie.Path != "/" || csrf.cookie.SameSite != http.SameSiteStrictMode {
		t.Errorf("anti-CSRF cookie %+v", csrf.cookie)
	}
	login := url.Values{"token": {"tok-ana-loja"}}
	for _, c := range []struct {
		name   string
		csrf   csrfForm
		header []string
		want   string
	}{
		{"no token nor cookie", csrfForm{}, nil, "Formulário expirado"},
		{"cookie without the field", csrfForm{cookie: csrf.cookie}, nil, "Formulário expirado"},
		{"field without the cookie", csrfForm{token: csrf.token}, nil, "Formulário expirado"},
		{"another browser's token", csrfForm{cookie: csrf.cookie, token: strings.Repeat("A", 43)}, nil, "Formulário expirado"},
		{"Sec-Fetch-Site cross-site", csrf, []string{"Sec-Fetch-Site", "cross-site"}, "Envio recusado"},
		{"Sec-Fetch-Site same-site", csrf, []string{"Sec-Fetch-Site", "same-site"}, "Envio recusado"},
		{"foreign Origin", csrf, []string{"Origin", "https://evil.example"}, "Envio recusado"},
		{"Origin null", csrf, []string{"Origin", "null"}, "Envio recusado"},
		{"Origin of the test server, not the public URL", csrf, []string{"Origin", f.srv.URL}, "Envio recusado"},
	} {
		resp, body := postForm(t, f.srv.URL+"/login", c.csrf, login, c.header...)
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, c.want) || sessionCookie(resp) != nil {
			t.Errorf("login, %s: status %d, session %v; want 403 with %q:\n%s", c.name, resp.StatusCode, sessionCookie(resp), c.want, body)
		}
	}
	// What Chromium sends from the login page, whose Referrer-Policy is no-referrer: Origin null,
	// and the browser's own word that the post is same-origin.
	if resp, body := postForm(t, f.srv.URL+"/login", csrf, login, "Origin", "null", "Sec-Fetch-Site", "same-origin"); resp.StatusCode != http.StatusOK || sessionCookie(resp) == nil {
		t.Fatalf("same-origin login with Origin null: status %d:\n%s", resp.StatusCode, body)
	}
	resp, body := postForm(t, f.srv.URL+"/login", csrf, login,
		"Origin", "https://lumo.exemplo.com.br", "Sec-Fetch-Site", "same-origin")
	c := sessionCookie(resp)
	if resp.StatusCode != http.StatusOK || c == nil {
		t.Fatalf("same-origin login: status %d, session %v:\n%s", resp.StatusCode, c, body)
	}
	// The report page's logout form carries the token too; a cross-site logout ends nothing.
	withSession := []string{"Cookie", c.Name + "=" + c.Value}
	logout := csrfOf(t, f.srv.URL+f.path, withSession...)
	for _, h := range [][]string{{"Sec-Fetch-Site", "cross-site"}, {"Origin", "https://evil.example"}} {
		resp, _ := postForm(t, f.srv.URL+"/logout", logout, url.Values{}, append(h, withSession...)...)
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("cross-site logout %v: status %d, want 403", h, resp.StatusCode)
		}
	}
	if resp, _ := postForm(t, f.srv.URL+"/logout", csrfForm{}, url.Values{}, withSession...); resp.StatusCode != http.StatusForbidden {
		t.Errorf("logout without the token: status %d, want 403", resp.StatusCode)
	}
	if r, _ := get(t, f.srv.URL+f.path, withSession...); r.StatusCode != 200 {
		t.Fatalf("the session after refused logouts: status %d", r.StatusCode)
	}
	if resp, _ := postForm(t, f.srv.URL+"/logout", logout, url.Values{}, withSession...); resp.StatusCode != 200 {
		t.Errorf("same-site logout: status %d", resp.StatusCode)
	}
	if r, _ := get(t, f.srv.URL+f.path, withSession...); r.StatusCode != http.StatusSeeOther {
		t.Errorf("after logout: status %d, want a redirect to the login", r.StatusCode)
	}
}

// Without --public-url the Origin must be the request's own.
func TestLoginOriginWithoutPublicURL(t *testing.T) {
	t.Parallel()
	f := setup(t, "http://127.0.0.1:1")
	mux := http.NewServeMux()
	(&report.Handler{DB: f.db, Runner: f.svc}).Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	csrf := csrfOf(t, srv.URL+"/login")
	if resp, _ := postForm(t, srv.URL+"/login", csrf, url.Values{"token": {"tok-ana-loja"}}, "Origin", srv.URL); resp.StatusCode != 200 {
		t.Errorf("own origin: status %d", resp.StatusCode)
	}
	if resp, _ := postForm(t, srv.URL+"/login", csrf, url.Values{"token": {"tok-ana-loja"}}, "Origin", "http://127.0.0.2:1"); resp.StatusCode != 403 {
		t.Errorf("other origin: status %d", resp.StatusCode)
	}
}

// A login purges expired sessions, so they do not pile up until someone logs out.
func TestLoginPurgesExpiredSessions(t *testing.T) {
	t.Parallel()
	f := setup(t, "http://127.0.0.1:1")
	ctx := context.Background()
	for i := range 5 {
		if _, err := f.db.CreateReportSession(ctx, fmt.Sprintf("old-%d", i), "tok-ana-loja", time.Now().Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	csrf := csrfOf(t, f.srv.URL+"/login")
	if resp, _ := postForm(t, f.srv.URL+"/login", csrf, url.Values{"token": {"tok-bruno-loja"}}); sessionCookie(resp) == nil {
		t.Fatalf("login: status %d", resp.StatusCode)
	}
	if n, err := f.db.ReportSessionCount(ctx); err != nil || n != 1 {
		t.Errorf("%d sessions after the login (err %v), want only the new one", n, err)
	}
}

// The Authorization scheme is case-insensitive (RFC 7235); another scheme is refused.
func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	t.Parallel()
	f := setup(t, "http://127.0.0.1:1")
	for authz, status := range map[string]int{
		"Bearer tok-ana-loja": 200, "bearer tok-ana-loja": 200, "BEARER tok-ana-loja": 200, "bEaReR  tok-ana-loja": 200,
		"Basic tok-ana-loja": 401, "Bearertok-ana-loja": 401, "tok-ana-loja": 401,
	} {
		if resp, body := get(t, f.srv.URL+f.path, "Authorization", authz); resp.StatusCode != status {
			t.Errorf("Authorization %q: status %d, want %d:\n%.300s", authz, resp.StatusCode, status, body)
		}
	}
}
