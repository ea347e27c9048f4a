package main

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/lumo-caderninho/mcp/impl/lumo/ratelimit"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

func TestSchemasValidateOpensNoDatabase(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	t.Setenv("LUMO_DB", filepath.Join(dir, "lumo.db"))
	payload := filepath.Join(dir, "query.json")
	if err := os.WriteFile(payload, []byte(`{"name": "query", "arguments": {"appId": 1, "fields": [{"ref": "Vendas.Valor"}], "limit": "10"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	err := run(context.Background(), []string{"schemas", "validate", payload}, &out, log)
	if err == nil || err.Error() != "exit status 1" {
		t.Fatalf("validate: %v, want exit status 1", err)
	}
	if !strings.Contains(out.String(), "- limit: deve ser número inteiro, mas veio texto.") {
		t.Errorf("validate printed %q", &out)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("validating created files: %v", entries)
	}
}

func TestServeHTTPPublishesSchemasWithoutToken(t *testing.T) {
	db := storetest.Open(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	h, err := httpHandler(context.Background(), &lumo.Service{DB: db, Log: log}, &ratelimit.Limiter{DB: db}, "", false)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	base := ts.URL
	for path, want := range map[string]int{
		"/schemas/":                 http.StatusOK,
		"/schemas/query.input.json": http.StatusOK,
		"/openapi.json":             http.StatusOK,
		"/mcp":                      http.StatusUnauthorized,
	} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want || (want == http.StatusOK && !json.Valid(body)) {
			t.Errorf("GET %s without a token: %d, want %d", path, resp.StatusCode, want)
		}
	}
}
