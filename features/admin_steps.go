package features

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"

	"github.com/cucumber/godog"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo"
)

// adminWorld serves the scenario's database over Streamable HTTP with bearer auth (as `lumo
// serve --http` does) and changes it with the administration API, as `lumo admin` does.
type adminWorld struct {
	*lumoWorld
	server  *httptest.Server
	tokens  map[string]string // label -> token issued in this scenario
	token   string            // of the current HTTP session
	status  int               // HTTP status of the last tool call over HTTP (0 = none)
	callErr error
}

func initAdminSteps(w *lumoWorld, sc *godog.ScenarioContext) {
	a := &adminWorld{lumoWorld: w}
	sc.Before(func(ctx context.Context, _ *godog.Scenario) (context.Context, error) {
		a.server, a.tokens, a.token, a.status, a.callErr = nil, map[string]string{}, "", 0, nil
		return ctx, nil
	})
	sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
		if a.server != nil {
			a.server.Close()
		}
		return ctx, nil
	})
	sc.Step(`^the administrator issues "([^"]*)" a token labelled "([^"]*)"$`, func(ctx context.Context, login, label string) error {
		if external() { // issuing needs our database
			return errNeedsOwnSetup
		}
		tok, err := w.db.IssueToken(ctx, login, label)
		a.tokens[label] = tok
		return err
	})
	sc.Step(`^the administrator revokes the token "([^"]*)" of "([^"]*)"$`, func(ctx context.Context, label, login string) error {
		if external() {
			return errNeedsOwnSetup
		}
		return w.db.RevokeToken(ctx, login, label)
	})
	sc.Step(`^the administrator (removes|adds) "([^"]*)" (?:from|to) the desk "([^"]*)"$`, func(ctx context.Context, verb, login, desk string) error {
		if external() {
			return errNeedsOwnSetup
		}
		if verb == "adds" {
			return w.db.AddMember(ctx, desk, login)
		}
		return w.db.RemoveMember(ctx, desk, login)
	})
	sc.Step(`^I connect over HTTP with the token (?:labelled )?"([^"]*)"$`, a.connectHTTP)
	sc.Step(`^connecting over HTTP with the token (?:labelled )?"([^"]*)" is refused with HTTP (\d+)$`, func(ctx context.Context, token string, code int) error {
		err := a.connectHTTP(ctx, token)
		if err == nil {
			return errors.New("the connection was accepted")
		}
		if a.status != code {
			return fmt.Errorf("connecting answered HTTP %d (%v), want %d", a.status, err, code)
		}
		return nil
	})
	sc.Step(`^I try to call "([^"]*)" over HTTP$`, func(ctx context.Context, tool string) error {
		a.status = 0
		a.callErr = w.call(ctx, tool, "{}")
		return nil
	})
	sc.Step(`^the request is refused with HTTP (\d+)$`, func(code int) error {
		if a.callErr == nil {
			return errors.New("the call was answered")
		}
		if a.status != code {
			return fmt.Errorf("HTTP %d (%v), want %d", a.status, a.callErr, code)
		}
		return nil
	})
}

// statusRecorder adds the bearer token and keeps the status of the last tools/call or
// initialize POST.
type statusRecorder struct{ a *adminWorld }

func (r statusRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+r.a.token)
	res, err := http.DefaultTransport.RoundTrip(req)
	if err == nil && req.Method == http.MethodPost {
		r.a.status = res.StatusCode
	}
	return res, err
}

func (a *adminWorld) connectHTTP(ctx context.Context, token string) error {
	if t, ok := a.tokens[token]; ok {
		token = t
	}
	if a.server == nil {
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		svc := a.service(&lumo.Service{Log: log, Identity: lumo.TokenUser(a.db)})
		srv, err := lumo.NewServer(svc, lumo.Options{ValidateOutput: true})
		if err != nil {
			return err
		}
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Logger: log})
		mux := http.NewServeMux()
		mux.Handle("/mcp", lumo.BearerAuth(a.db, log, nil)(h))
		a.server = httptest.NewServer(mux)
	}
	if a.session != nil {
		a.session.Close()
		a.session = nil
	}
	a.token, a.status = token, 0
	return a.connectClient(ctx, &mcp.StreamableClientTransport{Endpoint: a.server.URL + "/mcp",
		HTTPClient: &http.Client{Transport: statusRecorder{a}}, DisableStandaloneSSE: true, MaxRetries: -1})
}
