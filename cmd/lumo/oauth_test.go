package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/ratelimit"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/oauthres"
	"github.com/lumo-caderninho/mcp/impl/platform/oauthres/oauthtest"
)

// TestOAuthAccessTokens: with --oauth-issuer, a JWT of that issuer for this server's URL whose
// email claim is a user's login calls the tools as that user; an expired token, one for another
// audience, one of another issuer and one naming no user get 401 with the error in
// WWW-Authenticate; static tokens keep working; the metadata names the issuer.
func TestOAuthAccessTokens(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	is := oauthtest.New(t)
	const public = "https://lumo.exemplo.com.br"
	const audience = public + "/mcp"
	res, err := oauthres.New(ctx, oauthres.Config{Issuer: is.URL, Claim: "email"}, public)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := &lumo.Service{DB: db, Log: log}
	h, err := httpHandlerWith(ctx, svc, &ratelimit.Limiter{DB: db, Log: log}, "", true, serveOps{resource: res})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)

	good := is.Sign(t, oauthtest.Token{Audience: audience, Subject: "u-1", Email: "ana"})
	cs, _ := connect(t, ts.URL, good)
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}})
	if err != nil || r.IsError || !strings.Contains(r.Content[0].(*mcp.TextContent).Text, "Catálogo") {
		t.Fatalf("search_catalog with ana's OAuth token: %v %+v", err, r)
	}
	cs.Close()
	if cs, _ := connect(t, ts.URL, "tok-ana-loja"); cs == nil {
		t.Fatal("the static token no longer works")
	}

	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	post := func(token string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	metadata := `resource_metadata="` + public + oauthres.MetadataPath + `"`
	for name, c := range map[string]struct {
		token, why string
	}{
		"no token":       {"", ""},
		"expired":        {is.Sign(t, oauthtest.Token{Audience: audience, Email: "ana", Expiry: time.Now().Add(-time.Minute)}), "o token OAuth expirou"},
		"other audience": {is.Sign(t, oauthtest.Token{Audience: "https://outro.exemplo.com/mcp", Email: "ana"}), "nao e para este servidor"},
		"other issuer":   {is.Sign(t, oauthtest.Token{Issuer: "https://falso.exemplo.com", Audience: audience, Email: "ana"}), "nao e do emissor"},
		"unknown user":   {is.Sign(t, oauthtest.Token{Audience: audience, Email: "zeca"}), "nao existe neste workspace"},
		"no claim":       {is.Sign(t, oauthtest.Token{Audience: audience, Subject: "u-1"}), "nao tem o claim email"},
		"static unknown": {"tok-nenhum", "token desconhecido"},
		"forged":         {good[:len(good)-4] + "AAAA", "assinatura"},
		"issued tomorrow": {is.Sign(t, oauthtest.Token{Audience: audience, Email: "ana", IssuedAt: time.Now().Add(24 * time.Hour),
			Expiry: time.Now().Add(25 * time.Hour)}), "emitido no futuro"},
	} {
		resp := post(c.token)
		www := resp.Header.Get("WWW-Authenticate")
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(www, "Bearer ") || !strings.Contains(www, metadata) {
			t.Errorf("%s: %d, WWW-Authenticate %q; want 401 naming %s", name, resp.StatusCode, www, metadata)
			continue
		}
		if c.why == "" {
			if strings.Contains(www, "error=") {
				t.Errorf("%s: %q carries an error without a token (RFC 6750 §3.1)", name, www)
			}
		} else if !strings.Contains(www, `error="invalid_token"`) || !strings.Contains(www, c.why) {
			t.Errorf("%s: WWW-Authenticate %q, want invalid_token and %q", name, www, c.why)
		}
	}

	resp, err := http.Get(ts.URL + oauthres.MetadataPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var meta struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&meta); err != nil || meta.Resource != audience ||
		len(meta.AuthorizationServers) != 1 || meta.AuthorizationServers[0] != is.URL {
		t.Errorf("protected resource metadata: %+v %v", meta, err)
	}
}
