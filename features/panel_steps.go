package features

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/cucumber/godog"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/caderninho/admin"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/caderninho/panel"
)

// panelWorld drives caderninho's private panel as the owner's browser would (a cookie jar,
// forms posted with their anti-CSRF token and the panel's own Origin), next to an /mcp endpoint
// that checks assistants' tokens in the store, as serve --http does.
type panelWorld struct {
	w      *cadWorld
	srv    *httptest.Server
	client *http.Client
	status int
	body   string
	token  string // the last token the panel showed
}

func initPanelSteps(w *cadWorld, sc *godog.ScenarioContext) {
	p := &panelWorld{w: w}
	sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
		if p.srv != nil {
			p.srv.Close()
			p.srv = nil
		}
		return ctx, nil
	})
	sc.Step(`^the owner is signed in to the panel$`, p.signedIn)
	sc.Step(`^the owner posts the form "([^"]*)" with:$`, func(path string, t *godog.Table) error { return p.post(path, fields(t), "same-origin") })
	sc.Step(`^a cross-site page posts the form "([^"]*)" with:$`, func(path string, t *godog.Table) error { return p.post(path, fields(t), "cross-site") })
	sc.Step(`^the owner posts the form "([^"]*)" with a forged anti-CSRF token and:$`, func(path string, t *godog.Table) error {
		return p.post(path, fields(t), "forged")
	})
	sc.Step(`^the panel answers (\d+)$`, p.answers)
	sc.Step(`^the panel's page "([^"]*)" shows "(.*)"$`, p.pageShows)
	sc.Step(`^the panel's page "([^"]*)" does not show "(.*)"$`, p.pageLacks)
	sc.Step(`^the answer shows "(.*)"$`, func(s string) error { return p.contains(p.body, s) })
	sc.Step(`^the token it showed calls "([^"]*)" over MCP$`, p.tokenCalls)
	sc.Step(`^the token it showed gets 401 on "/mcp"$`, p.tokenRefused)
	sc.Step(`^the owner revokes the assistant "([^"]*)" in the panel$`, func(ctx context.Context, name string) error {
		id, err := p.assistantID(ctx, name)
		if err != nil {
			return err
		}
		return p.post("/painel/assistentes/revogar", url.Values{"id": {id}}, "same-origin")
	})
}

func (p *panelWorld) signedIn(ctx context.Context) error {
	if external() {
		return errNeedsOwnSetup
	}
	s := p.w.store
	cred, err := (admin.Ops{Store: s, Actor: admin.ActorCLI}).ResetCredential(ctx)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	mux := http.NewServeMux()
	(&panel.Handler{Store: s, Log: log}).Register(mux)
	svc := &caderninho.Service{Store: s, Log: log, Identity: caderninho.FromToken()}
	srv, err := caderninho.NewServer(svc, caderninho.Options{})
	if err != nil {
		return err
	}
	verify := auth.RequireBearerToken(func(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		a, err := s.AssistantByToken(ctx, token)
		if errors.Is(err, cadstore.ErrNotFound) {
			return nil, auth.ErrInvalidToken
		}
		if err != nil {
			return nil, err
		}
		return &auth.TokenInfo{UserID: a.Name, Expiration: time.Now().Add(time.Hour)}, nil
	}, nil)
	mux.Handle("/mcp", verify(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{JSONResponse: true})))
	p.srv = httptest.NewServer(mux)
	jar, _ := cookiejar.New(nil)
	p.client = &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if err := p.post("/painel/entrar", url.Values{"credencial": {cred}}, "same-origin"); err != nil {
		return err
	}
	if p.status != http.StatusSeeOther {
		return fmt.Errorf("login answered %d: %.300s", p.status, p.body)
	}
	return nil
}

var (
	panelCSRF  = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	panelToken = regexp.MustCompile(`\b(cad_[A-Za-z0-9_-]{16,})`)
)

func (p *panelWorld) get(path string) (int, string, error) {
	resp, err := p.client.Get(p.srv.URL + path)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// fields is a two-column table of form fields.
func fields(t *godog.Table) url.Values {
	form := url.Values{}
	for _, row := range t.Rows {
		form.Set(row.Cells[0].Value, row.Cells[1].Value)
	}
	return form
}

// post submits form to path, its anti-CSRF token read from the page that shows the form (path,
// or for /painel/x/action its page /painel/x), as the owner's browser (same-origin), from another
// site (cross-site: a foreign Origin) or with a forged token.
func (p *panelWorld) post(path string, form url.Values, how string) error {
	page := path
	if parts := strings.Split(strings.Trim(path, "/"), "/"); len(parts) > 2 {
		page = "/" + strings.Join(parts[:2], "/")
	}
	_, pageBody, err := p.get(page)
	if err != nil {
		return err
	}
	m := panelCSRF.FindStringSubmatch(pageBody)
	if m == nil {
		return fmt.Errorf("no anti-CSRF field on %s:\n%.300s", page, pageBody)
	}
	form.Set("csrf", m[1])
	origin := p.srv.URL
	switch how {
	case "cross-site":
		origin = "https://mal.exemplo.com"
	case "forged":
		form.Set("csrf", strings.Repeat("A", len(m[1])))
	}
	req, _ := http.NewRequest(http.MethodPost, p.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", origin)
	resp, err := p.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	p.status, p.body = resp.StatusCode, string(b)
	if m := panelToken.FindStringSubmatch(p.body); m != nil {
		p.token = m[1]
	}
	return nil
}

func (p *panelWorld) answers(code int) error {
	if p.status != code {
		return fmt.Errorf("the panel answered %d, want %d: %.400s", p.status, code, p.body)
	}
	return nil
}

func (p *panelWorld) contains(body, s string) error {
	if !strings.Contains(body, s) {
		return fmt.Errorf("%q is not on the page:\n%.1500s", s, body)
	}
	return nil
}

func (p *panelWorld) pageShows(path, s string) error {
	_, body, err := p.get(path)
	if err != nil {
		return err
	}
	return p.contains(body, s)
}

func (p *panelWorld) pageLacks(path, s string) error {
	_, body, err := p.get(path)
	if err != nil {
		return err
	}
	if strings.Contains(body, s) {
		return fmt.Errorf("%q is on %s", s, path)
	}
	return nil
}

type bearerRT struct{ token string }

func (b bearerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func (p *panelWorld) tokenCalls(ctx context.Context, tool string) error {
	if p.token == "" {
		return errors.New("the panel showed no token")
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "panel", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: p.srv.URL + "/mcp", HTTPClient: &http.Client{Transport: bearerRT{p.token}}}, nil)
	if err != nil {
		return fmt.Errorf("connecting with the panel's token: %w", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
	if err != nil || res.IsError {
		return fmt.Errorf("%s with the panel's token: %v %+v", tool, err, res)
	}
	return nil
}

func (p *panelWorld) tokenRefused() error {
	req, _ := http.NewRequest(http.MethodPost, p.srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+p.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		return fmt.Errorf("/mcp with the revoked token answered %d, want 401", resp.StatusCode)
	}
	return nil
}

// assistantID is the id the panel's list gives the assistant named name, for the revoke form.
func (p *panelWorld) assistantID(ctx context.Context, name string) (string, error) {
	id, err := (admin.Ops{Store: p.w.store}).AssistantID(ctx, name)
	return strconv.FormatInt(id, 10), err
}
