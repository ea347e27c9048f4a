package panel_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/caderninho/admin"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore/cadstoretest"
	"github.com/lumo-caderninho/mcp/impl/caderninho/installation"
	"github.com/lumo-caderninho/mcp/impl/caderninho/panel"
	"github.com/lumo-caderninho/mcp/impl/platform/authguard"
)

// fixture is an installation of two people, one space and one connection (no statements),
// served by the panel.
const fixture = `timezone: America/Sao_Paulo
people:
  - {key: marina, name: Marina Costa}
  - {key: rafael, name: Rafael Costa}
spaces:
  - {key: casa, name: Casa, categories: [Mercado]}
connections:
  - {key: aurora-marina, institution: Banco Aurora, holder: marina, space: casa, source: ofx/aurora-marina}
assistants:
  - {name: Assistente da casa, token: tok-assistente}
`

type world struct {
	t      *testing.T
	s      *cadstore.Store
	srv    *httptest.Server
	client *http.Client
	cred   string
	dir    string
	guard  *authguard.Guard
}

func register(t *testing.T, s *cadstore.Store, dir, yaml string) cadstore.RegisterSummary {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "installation.yaml"), []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	inst, err := installation.Load(os.DirFS(dir), "installation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := s.Register(context.Background(), inst, dir)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func setup(t *testing.T) *world { return setupWith(t, false) }

func setupWith(t *testing.T, readOnly bool) *world {
	t.Helper()
	s := cadstoretest.Open(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "ofx", "aurora-marina"), 0o700); err != nil {
		t.Fatal(err)
	}
	register(t, s, dir, fixture)
	cred, err := (admin.Ops{Store: s, Actor: "test"}).EnsureCredential(context.Background())
	if err != nil || !strings.HasPrefix(cred, admin.CredentialPrefix) {
		t.Fatalf("credential %q: %v", cred, err)
	}
	now := time.Now()
	g := authguard.New(authguard.DefaultMaxFailures)
	g.Now = func() time.Time { return now }
	mux := http.NewServeMux()
	(&panel.Handler{Store: s, Guard: g, ReadOnly: readOnly}).Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &world{t: t, s: s, srv: srv, client: client, cred: cred, dir: dir, guard: g}
}

// get fetches a panel page with the browser's cookies.
func (w *world) get(path string) (*http.Response, string) {
	w.t.Helper()
	resp, err := w.client.Get(w.srv.URL + path)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrf is the anti-CSRF token the page at path puts in its forms.
func (w *world) csrf(path string) string {
	w.t.Helper()
	_, body := w.get(path)
	m := csrfRE.FindStringSubmatch(body)
	if m == nil {
		w.t.Fatalf("no csrf field on %s:\n%s", path, body)
	}
	return m[1]
}

// post submits a form as a same-origin browser would (Origin = the server), unless hdr says
// otherwise.
func (w *world) post(path string, form url.Values, hdr ...string) (*http.Response, string) {
	w.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, w.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", w.srv.URL)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := w.client.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func (w *world) login() string {
	w.t.Helper()
	tok := w.csrf("/painel/entrar")
	resp, body := w.post("/painel/entrar", url.Values{"csrf": {tok}, "credencial": {w.cred}})
	if resp.StatusCode != http.StatusSeeOther {
		w.t.Fatalf("login: %d\n%s", resp.StatusCode, body)
	}
	var session *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == panel.CookieName {
			session = c
		}
	}
	if session == nil || !session.HttpOnly || session.SameSite != http.SameSiteStrictMode || session.Path != "/painel/" {
		w.t.Fatalf("session cookie %+v", session)
	}
	return tok
}

func revisions(t *testing.T, s *cadstore.Store) int64 {
	t.Helper()
	sps, err := s.Spaces(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return sps["casa"].Revision
}

func TestLoginGuardsEveryPage(t *testing.T) {
	t.Parallel()
	w := setup(t)
	resp, _ := w.get("/painel/")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/painel/entrar" {
		t.Fatalf("unauthenticated home: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, body := w.get("/painel/entrar")
	for h, want := range map[string]string{"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"} {
		if resp.Header.Get(h) != want {
			t.Errorf("%s = %q, want %q", h, resp.Header.Get(h), want)
		}
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "default-src 'none'; style-src 'nonce-") || !strings.Contains(csp, "form-action 'self'") {
		t.Errorf("CSP %q", csp)
	}
	if strings.Contains(body, "<script") || !strings.Contains(body, `lang="pt-BR"`) || !strings.Contains(body, `name="viewport"`) {
		t.Errorf("login page:\n%s", body)
	}
	// A form post without a session is refused, even with a valid token.
	tok := w.csrf("/painel/entrar")
	if resp, _ := w.post("/painel/pessoas", url.Values{"csrf": {tok}, "key": {"zeca"}, "name": {"Zeca"}}); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("post without a session: %d", resp.StatusCode)
	}
	w.login()
	if resp, body := w.get("/painel/"); resp.StatusCode != 200 || !strings.Contains(body, "Entrada no painel.") {
		t.Errorf("home after login: %d\n%s", resp.StatusCode, body)
	}
	// Logging out ends the session in the database.
	tok = w.csrf("/painel/")
	if resp, _ := w.post("/painel/sair", url.Values{"csrf": {tok}}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("logout: %d", resp.StatusCode)
	}
	if n, _ := w.s.PanelSessionCount(context.Background()); n != 0 {
		t.Errorf("%d sessions after logout", n)
	}
	if resp, _ := w.get("/painel/"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("home after logout: %d", resp.StatusCode)
	}
}

// A read-only server's panel shows its pages, says it is read-only, and refuses every change
// with 403 before reading the form: nothing is written and no revision moves.
func TestReadOnlyPanelChangesNothing(t *testing.T) {
	t.Parallel()
	w := setupWith(t, true)
	tok := w.login()
	for _, page := range []string{"/painel/", "/painel/pessoas", "/painel/conexoes", "/painel/espacos", "/painel/regras"} {
		if resp, body := w.get(page); resp.StatusCode != http.StatusOK || !strings.Contains(body, "modo somente leitura") {
			t.Errorf("%s: %d, no read-only notice:\n%s", page, resp.StatusCode, body)
		}
	}
	rev := revisions(t, w.s)
	people, err := w.s.People(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	writes := map[string]url.Values{
		"/painel/pessoas":                     {"key": {"ze"}, "name": {"Zé"}},
		"/painel/pessoas/renomear":            {"key": {"marina"}, "name": {"Outra"}},
		"/painel/pessoas/remover":             {"key": {"rafael"}},
		"/painel/assistentes":                 {"name": {"Outro assistente"}},
		"/painel/assistentes/rotulo":          {"name": {"Assistente da casa"}, "label": {"x"}},
		"/painel/assistentes/revogar":         {"name": {"Assistente da casa"}},
		"/painel/conexoes":                    {"key": {"nova"}},
		"/painel/conexoes/editar":             {"key": {"aurora-marina"}},
		"/painel/conexoes/extratos":           {"key": {"aurora-marina"}},
		"/painel/espacos":                     {"key": {"viagem"}, "name": {"Viagem"}},
		"/painel/espacos/renomear":            {"key": {"casa"}, "name": {"Lar"}},
		"/painel/espacos/remover":             {"key": {"casa"}},
		"/painel/espacos/categorias":          {"space": {"casa"}, "name": {"Lazer"}},
		"/painel/espacos/categorias/renomear": {"space": {"casa"}, "name": {"Mercado"}, "to": {"Feira"}},
		"/painel/espacos/categorias/unir":     {"space": {"casa"}, "name": {"Mercado"}, "into": {"Lazer"}},
		"/painel/espacos/categorias/remover":  {"space": {"casa"}, "name": {"Mercado"}},
		"/painel/regras":                      {"space": {"casa"}, "match": {"contains"}, "text": {"UBER"}, "category": {"Mercado"}},
		"/painel/regras/mover":                {"space": {"casa"}, "id": {"1"}, "to": {"1"}},
		"/painel/regras/remover":              {"space": {"casa"}, "id": {"1"}},
	}
	for path, form := range writes {
		form.Set("csrf", tok)
		resp, body := w.post(path, form)
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "modo somente leitura") {
			t.Errorf("%s: %d, want 403 saying the server is read-only:\n%s", path, resp.StatusCode, body)
		}
	}
	if got := revisions(t, w.s); got != rev {
		t.Errorf("revision %d after refused changes, want %d", got, rev)
	}
	if after, err := w.s.People(context.Background()); err != nil || len(after) != len(people) {
		t.Errorf("people %d -> %d (%v)", len(people), len(after), err)
	}
	// Signing out still works.
	if resp, body := w.post("/painel/sair", url.Values{"csrf": {tok}}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("sign out: %d\n%s", resp.StatusCode, body)
	}
}

func TestResetEndsSessions(t *testing.T) {
	t.Parallel()
	w := setup(t)
	w.login()
	if _, err := (admin.Ops{Store: w.s, Actor: admin.ActorCLI}).ResetCredential(context.Background()); err != nil {
		t.Fatal(err)
	}
	if resp, _ := w.get("/painel/"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the old session after a reset: %d", resp.StatusCode)
	}
}

func TestRefusesForgedAndCrossSitePosts(t *testing.T) {
	t.Parallel()
	w := setup(t)
	tok := w.login()
	before := revisions(t, w.s)
	add := url.Values{"csrf": {tok}, "key": {"zeca"}, "name": {"Zeca"}}
	forged := url.Values{"csrf": {strings.Repeat("A", 43)}, "key": {"zeca"}, "name": {"Zeca"}}
	if resp, body := w.post("/painel/pessoas", forged); resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "marca de segurança") {
		t.Errorf("forged CSRF token: %d\n%s", resp.StatusCode, body)
	}
	if resp, _ := w.post("/painel/pessoas", url.Values{"key": {"zeca"}, "name": {"Zeca"}}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("no CSRF token: %d", resp.StatusCode)
	}
	if resp, body := w.post("/painel/pessoas", add, "Origin", "https://evil.example"); resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "Envio recusado") {
		t.Errorf("foreign Origin: %d\n%s", resp.StatusCode, body)
	}
	if resp, _ := w.post("/painel/pessoas", add, "Sec-Fetch-Site", "cross-site"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site fetch: %d", resp.StatusCode)
	}
	// A cross-site login post is refused before the credential is looked at.
	if resp, _ := w.post("/painel/entrar", url.Values{"csrf": {tok}, "credencial": {w.cred}}, "Origin", "https://evil.example"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site login: %d", resp.StatusCode)
	}
	ps, _ := w.s.PeopleList(context.Background())
	if len(ps) != 2 || revisions(t, w.s) != before {
		t.Errorf("refused posts changed something: %+v", ps)
	}
	if resp, _ := w.post("/painel/pessoas", add); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("same-origin post: %d", resp.StatusCode)
	}
}

func TestWrongCredentialIsThrottled(t *testing.T) {
	t.Parallel()
	w := setup(t)
	tok := w.csrf("/painel/entrar")
	for i := range authguard.DefaultMaxFailures {
		resp, body := w.post("/painel/entrar", url.Values{"csrf": {tok}, "credencial": {"cadpainel_errada"}})
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "Credencial: não confere") {
			t.Fatalf("wrong credential %d: %d\n%s", i, resp.StatusCode, body)
		}
	}
	resp, body := w.post("/painel/entrar", url.Values{"csrf": {tok}, "credencial": {w.cred}})
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, "Muitas tentativas") {
		t.Errorf("after %d failures even the right credential waits: %d Retry-After %q", authguard.DefaultMaxFailures, resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if n, _ := w.s.PanelSessionCount(context.Background()); n != 0 {
		t.Errorf("%d sessions opened", n)
	}
}

func TestPeopleAddRenameRemove(t *testing.T) {
	t.Parallel()
	w := setup(t)
	tok := w.login()
	ctx := context.Background()
	rev := revisions(t, w.s)
	step := func(name, path string, form url.Values, status int, want string) string {
		t.Helper()
		form.Set("csrf", tok)
		resp, body := w.post(path, form)
		if resp.StatusCode == http.StatusSeeOther {
			resp, body = w.get(resp.Header.Get("Location"))
			if status == http.StatusSeeOther {
				status = resp.StatusCode
			}
		}
		if resp.StatusCode != status || !strings.Contains(body, want) {
			t.Errorf("%s: %d, want %d with %q:\n%s", name, resp.StatusCode, status, want, body)
		}
		return body
	}
	hostile := `<script>alert("x")</script> & "Zé"`
	body := step("add", "/painel/pessoas", url.Values{"key": {"ze"}, "name": {hostile}}, http.StatusSeeOther, "Pessoa adicionada.")
	if strings.Contains(body, "<script>") || !strings.Contains(body, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#34;Zé&#34;") {
		t.Errorf("the name is not escaped:\n%s", body)
	}
	if got := revisions(t, w.s); got != rev+1 {
		t.Errorf("revision after add %d, want %d", got, rev+1)
	}
	step("duplicate", "/painel/pessoas", url.Values{"key": {"ze"}, "name": {"Outro"}}, http.StatusConflict, "Chave: já existe uma pessoa")
	step("bad key", "/painel/pessoas", url.Values{"key": {"Zé Maria"}, "name": {"Zé"}}, http.StatusUnprocessableEntity, "Chave: &#34;Zé Maria&#34; não serve")
	long := strings.Repeat("á", admin.MaxName+1)
	body = step("long name", "/painel/pessoas", url.Values{"key": {"longo"}, "name": {long}}, http.StatusUnprocessableEntity, "Nome: tem 201 caracteres; o limite é 200.")
	if !strings.Contains(body, `value="longo"`) {
		t.Errorf("the refused form lost what was typed")
	}
	step("long rename", "/painel/pessoas/renomear", url.Values{"key": {"ze"}, "name": {long}}, http.StatusUnprocessableEntity, "Nome: tem 201 caracteres")
	step("rename", "/painel/pessoas/renomear", url.Values{"key": {"ze"}, "name": {"José <b>"}}, http.StatusSeeOther, "José &lt;b&gt;")
	step("rename again", "/painel/pessoas/renomear", url.Values{"key": {"ze"}, "name": {"José <b>"}}, http.StatusSeeOther, "nada mudou")
	if got := revisions(t, w.s); got != rev+2 {
		t.Errorf("revision after rename %d, want %d (the same name changes nothing)", got, rev+2)
	}
	step("rename unknown", "/painel/pessoas/renomear", url.Values{"key": {"nin"}, "name": {"X"}}, http.StatusNotFound, "Não existe a pessoa")
	step("remove holder", "/painel/pessoas/remover", url.Values{"key": {"marina"}}, http.StatusConflict, "é titular de uma conexão (aurora-marina)")
	step("remove", "/painel/pessoas/remover", url.Values{"key": {"ze"}}, http.StatusSeeOther, "Pessoa removida.")
	if got := revisions(t, w.s); got != rev+3 {
		t.Errorf("revision after remove %d, want %d", got, rev+3)
	}
	ps, _ := w.s.PeopleList(ctx)
	if len(ps) != 2 {
		t.Errorf("people %+v", ps)
	}

	// Without a key, the key comes from the name: accents removed, a suffix when it is taken.
	body = step("form", "/painel/pessoas", url.Values{"key": {"x"}, "name": {""}}, http.StatusUnprocessableEntity, "Nome: informe o nome.")
	if strings.Contains(body, `id="key" name="key" value="" required`) || !strings.Contains(body, "Avançado: chave da pessoa (opcional)") {
		t.Errorf("the person form still requires a key:\n%s", body)
	}
	step("derived", "/painel/pessoas", url.Values{"key": {""}, "name": {"José da Silva"}}, http.StatusSeeOther, "chave jose-da-silva")
	step("derived again", "/painel/pessoas", url.Values{"name": {"Jose  da SILVA!"}}, http.StatusSeeOther, "chave jose-da-silva-2")
	step("derived empty", "/painel/pessoas", url.Values{"name": {"<>"}}, http.StatusSeeOther, "chave pessoa")
	step("derived bad name", "/painel/pessoas", url.Values{"name": {long}}, http.StatusUnprocessableEntity, "Nome: tem 201 caracteres")
	if ps, _ := w.s.PeopleList(ctx); len(ps) != 5 {
		t.Errorf("people after derived keys %+v", ps)
	}
	_, body = w.get("/painel/registro")
	for _, want := range []string{"proprietário (painel)", "Pessoa &#34;ze&#34; adicionada", "renomeada de", "Pessoa &#34;ze&#34; (José &lt;b&gt;) removida.", "installation.yaml registrado"} {
		if !strings.Contains(body, want) {
			t.Errorf("audit log lacks %q:\n%s", want, body)
		}
	}
}

// An assistant token issued in the panel works over MCP; the panel shows its last use; revoked,
// it no longer identifies anyone; a label change keeps it working.
func TestAssistantIssueLabelRevoke(t *testing.T) {
	t.Parallel()
	w := setup(t)
	tok := w.login()
	ctx := context.Background()
	resp, body := w.post("/painel/assistentes", url.Values{"csrf": {tok}, "name": {"Claude <notebook>"}})
	m := regexp.MustCompile(`<code>(cad_[A-Za-z0-9_-]{43})</code>`).FindStringSubmatch(body)
	if resp.StatusCode != 200 || m == nil || !strings.Contains(body, "Claude &lt;notebook&gt;") || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("issue: %d\n%s", resp.StatusCode, body)
	}
	token := m[1]
	if _, body := w.get("/painel/assistentes"); strings.Contains(body, token) || !strings.Contains(body, "Último uso: nunca") {
		t.Errorf("the token is shown again, or was used:\n%s", body)
	}
	var stored int
	w.s.DB().SQL().QueryRow("SELECT COUNT(*) FROM cad_assistants WHERE token_sha256 = '" + cadstore.TokenHash(token) + "'").Scan(&stored)
	if stored != 1 {
		t.Errorf("the token's hash is stored %d times", stored)
	}

	a, err := w.s.AssistantByToken(ctx, token)
	if err != nil || a.Name != "Claude <notebook>" {
		t.Fatalf("token lookup: %+v %v", a, err)
	}
	if err := w.s.RecordUse(ctx, a); err != nil {
		t.Fatal(err)
	}
	srv, err := caderninho.NewServer(&caderninho.Service{Store: w.s, Identity: caderninho.Fixed(a.Name)}, caderninho.Options{ValidateOutput: true})
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "caderninho_accounts", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("accounts with the panel's token: %v %+v", err, res)
	}
	if _, body = w.get("/painel/assistentes"); strings.Count(body, "Último uso: nunca") != 1 {
		t.Errorf("the last use is not shown (only the file's assistant was never used):\n%s", body)
	}
	resp, _ = w.post("/painel/assistentes/rotulo", url.Values{"csrf": {tok}, "id": {itoa(a.ID)}, "name": {"Assistente da casa"}})
	if resp.StatusCode != http.StatusConflict {
		t.Errorf("relabel to a taken name: %d", resp.StatusCode)
	}
	resp, _ = w.post("/painel/assistentes/rotulo", url.Values{"csrf": {tok}, "id": {itoa(a.ID)}, "name": {strings.Repeat("x", 201)}})
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("relabel too long: %d", resp.StatusCode)
	}
	if resp, _ = w.post("/painel/assistentes/rotulo", url.Values{"csrf": {tok}, "id": {itoa(a.ID)}, "name": {"Claude"}}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("relabel: %d", resp.StatusCode)
	}
	if a, err := w.s.AssistantByToken(ctx, token); err != nil || a.Name != "Claude" {
		t.Errorf("after relabel: %+v %v", a, err)
	}
	if resp, _ = w.post("/painel/assistentes/revogar", url.Values{"csrf": {tok}, "id": {itoa(a.ID)}}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("revoke: %d", resp.StatusCode)
	}
	if _, err := w.s.AssistantByToken(ctx, token); err != cadstore.ErrNotFound {
		t.Errorf("a revoked token still identifies: %v", err)
	}
	if resp, _ = w.post("/painel/assistentes/revogar", url.Values{"csrf": {tok}, "id": {itoa(a.ID)}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("revoke twice: %d", resp.StatusCode)
	}
	_, body = w.get("/painel/registro")
	for _, want := range []string{"Token emitido para o assistente &#34;Claude &lt;notebook&gt;&#34;.", "Token do assistente &#34;Claude&#34; revogado."} {
		if !strings.Contains(body, want) {
			t.Errorf("audit log lacks %q", want)
		}
	}
	if strings.Contains(body, token) || strings.Contains(body, w.cred) {
		t.Error("the audit log shows a secret")
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// A re-import of installation.yaml keeps what the panel made, says so, and the file wins for
// what it names.
func TestReimportKeepsWhatThePanelMade(t *testing.T) {
	t.Parallel()
	w := setup(t)
	ctx := context.Background()
	ops := admin.Ops{Store: w.s, Actor: admin.ActorPanel}
	if err := ops.AddPerson(ctx, "ze", "Zé"); err != nil {
		t.Fatal(err)
	}
	if _, err := ops.RenamePerson(ctx, "rafael", "Rafa"); err != nil {
		t.Fatal(err)
	}
	token, _, err := ops.IssueAssistant(ctx, "Claude")
	if err != nil {
		t.Fatal(err)
	}
	rev := revisions(t, w.s)
	sum := register(t, w.s, w.dir, fixture)
	if strings.Join(sum.Kept, "|") != "pessoa ze|assistente Claude" || strings.Join(sum.Updated, "|") != `pessoa rafael (de "Rafa" para "Rafael Costa")` || len(sum.Removed) != 0 {
		t.Errorf("summary %+v", sum)
	}
	if got := revisions(t, w.s); got <= rev {
		t.Errorf("a re-import that undid a panel rename kept the revision %d", got)
	}
	if _, err := w.s.AssistantByToken(ctx, token); err != nil {
		t.Errorf("the panel's token after a re-import: %v", err)
	}
	if _, err := w.s.AssistantByToken(ctx, "tok-assistente"); err != nil {
		t.Errorf("the file's token after a re-import: %v", err)
	}
	// The file may not take a panel assistant's name.
	clash := strings.Replace(fixture, "Assistente da casa", "Claude", 1)
	if err := os.WriteFile(filepath.Join(w.dir, "installation.yaml"), []byte(clash), 0o600); err != nil {
		t.Fatal(err)
	}
	inst, err := installation.Load(os.DirFS(w.dir), "installation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.s.Register(ctx, inst, w.dir); err == nil || !strings.Contains(err.Error(), `o assistente "Claude" foi autorizado no painel`) {
		t.Errorf("a file assistant named as a panel one: %v", err)
	}
}

// Off loopback without an https public URL the panel answers 403 on every page.
func TestRefusedPanel(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	(&panel.Handler{Refused: "O painel só é servido em endereço local"}).Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for _, p := range []string{"/painel/", "/painel/entrar"} {
		resp, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(b), "endereço local") {
			t.Errorf("%s: %d %s", p, resp.StatusCode, b)
		}
	}
}

// The home page names every statement format the upload takes (OFX, QFX and the banks' CSV
// exports), not OFX alone.
func TestHomeNamesEveryStatementFormat(t *testing.T) {
	t.Parallel()
	w := setup(t)
	w.login()
	resp, body := w.get("/painel/")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("home: %d\n%s", resp.StatusCode, body)
	}
	if want := "enviar extratos (OFX, QFX ou CSV do banco)"; !strings.Contains(body, want) {
		t.Errorf("home lacks %q:\n%s", want, body)
	}
	if strings.Contains(body, "extratos OFX<") {
		t.Errorf("home still says only OFX:\n%s", body)
	}
}
