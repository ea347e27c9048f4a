package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/store/storetest"
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
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	db := storetest.Open(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	errc := make(chan error, 1)
	go func() { errc <- serveHTTP(ctx, &lumo.Service{DB: db, Log: log}, db, addr, "", false, log) }()
	base := "http://" + addr
	var resp *http.Response
	for i := 0; i < 100; i++ {
		if resp, err = http.Get(base + "/schemas/"); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
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
	cancel()
	if err := <-errc; err != nil {
		t.Errorf("serve: %v", err)
	}
}
