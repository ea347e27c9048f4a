package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/platform/oauthres"
	"github.com/lumo-caderninho/mcp/impl/platform/oauthres/oauthtest"
)

// TestOAuthAccessTokensNameAnAssistant: a JWT of the configured issuer whose email claim is an
// assistant's name calls the tools as that assistant; one naming no assistant gets 401 with the
// error; the static token keeps working.
func TestOAuthAccessTokensNameAnAssistant(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, _ := demoStore(t)
	is := oauthtest.New(t)
	const public = "https://caderninho.exemplo.com.br"
	res, err := oauthres.New(ctx, oauthres.Config{Issuer: is.URL, Claim: "email"}, public)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	url := serveLoopback(t, &caderninho.Service{Store: s, Log: log}, httpOptions{resource: res, publicURL: public}, log) + "/mcp"
	for _, token := range []string{is.Sign(t, oauthtest.Token{Audience: public + "/mcp", Email: "Assistente da casa"}), "tok-assistente"} {
		session, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx,
			&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}, nil)
		if err != nil {
			t.Fatalf("connecting with %.12s...: %v", token, err)
		}
		r, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "caderninho_accounts", Arguments: map[string]any{}})
		if err != nil || r.IsError {
			t.Fatalf("accounts: %v %+v", err, r)
		}
		session.Close()
	}
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Authorization", "Bearer "+is.Sign(t, oauthtest.Token{Audience: public + "/mcp", Email: "Outro"}))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	www := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(www, "nenhum assistente desta instalacao") ||
		!strings.Contains(www, `resource_metadata="`+public+oauthres.MetadataPath+`"`) {
		t.Errorf("unknown assistant: %d %q", resp.StatusCode, www)
	}
}
