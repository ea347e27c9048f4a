package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore/cadstoretest"
	"github.com/lumo-caderninho/mcp/impl/caderninho/demo"
	"github.com/lumo-caderninho/mcp/impl/caderninho/installation"
)

// bearer adds a token to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

func TestImportThenServeHTTPWithAssistantTokens(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	if err := demo.CopyCaderninho(dir); err != nil {
		t.Fatal(err)
	}
	s := cadstoretest.Open(t)
	var out bytes.Buffer
	if err := importInto(ctx, s, filepath.Join(dir, "installation.yaml"), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Instalação registrada: 2 pessoas, 2 espaços, 4 conexões, 1 assistente.",
		"  aurora-marina: 3 arquivos novos, 132 transações novas, 13 já importadas, 1 conta nova; nova revisão do espaço casa",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("import output lacks %q:\n%s", want, out.String())
		}
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	base := serveLoopback(t, &caderninho.Service{Store: s, Log: log}, httpOptions{validate: true}, log)
	url := base + "/mcp"

	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for name, token := range map[string]string{"no token": "", "unknown token": "tok-outro"} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(initialize))
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
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: status %d, want 401", name, resp.StatusCode)
		}
	}

	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url,
		HTTPClient: &http.Client{Transport: bearer{"tok-assistente", http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "caderninho_accounts", Arguments: map[string]any{"person": "rafael"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "2 contas e cartões") {
		t.Errorf("accounts over HTTP: %+v", res.Content[0])
	}
	// The published schemas and the OpenAPI document need no token.
	for _, path := range []string{"/schemas/", "/schemas/caderninho_sync.input.json", "/openapi.json"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !json.Valid(body) {
			t.Errorf("GET %s without a token: %d %.80s", path, resp.StatusCode, body)
		}
	}
}

func TestSchemasValidateOpensNoDatabase(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	t.Setenv("CADERNINHO_DB", filepath.Join(dir, "caderninho.db"))
	payload := filepath.Join(dir, "sync.json")
	if err := os.WriteFile(payload, []byte(`{"idempotency_key": "chave-0001", "connections": ["x"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if err := run(context.Background(), []string{"schemas", "validate", "--tool", "caderninho_sync", payload}, &out, log); err != nil {
		t.Fatalf("validate: %v\n%s", err, &out)
	}
	if !strings.Contains(out.String(), "válido") {
		t.Errorf("validate printed %q", &out)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("validating created files: %v", entries)
	}
}

// A one-shot call of caderninho_sync answers at once (waitSeconds 0) but exits only after the
// import it started has recorded its outcome: the request is completed, never left running.
func TestCallSyncFinishesItsImportBeforeExiting(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := demo.CopyCaderninho(dir); err != nil {
		t.Fatal(err)
	}
	s, dsn := cadstoretest.OpenDSN(t)
	inst, err := installation.Load(os.DirFS(dir), "installation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Register(ctx, inst, dir); err != nil { // registered, nothing imported yet
		t.Fatal(err)
	}
	var out bytes.Buffer
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	args := []string{"call", "--db", dsn, "caderninho_sync", `{"idempotency_key": "chave-call-0001", "waitSeconds": 0}`}
	if err := run(ctx, args, &out, log); err != nil {
		t.Fatalf("call: %v\n%s", err, &out)
	}
	if !strings.Contains(out.String(), "Solicitação de importação") {
		t.Errorf("call printed %q", &out)
	}
	r, err := s.SyncByKey(ctx, "chave-call-0001")
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != cadstore.SyncCompleted || r.FinishedAt == nil {
		t.Fatalf("after the call exited the request is %q, want %q", r.Status, cadstore.SyncCompleted)
	}
	for _, o := range r.Outcomes {
		if o.Status == cadstore.StatusPending || o.Status == cadstore.StatusFailed {
			t.Errorf("connection %s: %s", o.Connection, o.Status)
		}
	}
}

func TestServeRefusesANegativeRetention(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	err := run(context.Background(), []string{"serve", "--db", filepath.Join(t.TempDir(), "c.db"), "--idempotency-retention", "-1h"}, io.Discard, log)
	if err == nil || !strings.Contains(err.Error(), "--idempotency-retention: -1h0m0s é negativo") {
		t.Errorf("serve with a negative retention: %v", err)
	}
}

// TestServeHTTPStateless: with --stateless every POST stands alone (no initialize, no
// Mcp-Session-Id), and an import request started by one POST is read by a later one, as another
// replica would: its state lives in the database.
func TestServeHTTPStateless(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, _ := demoStore(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := &caderninho.Service{Store: s, Log: log}
	url := serveLoopback(t, svc, httpOptions{validate: true, stateless: true}, log) + "/mcp"

	callSync := func(id int) map[string]any {
		t.Helper()
		body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"caderninho_sync",` +
			`"arguments":{"idempotency_key":"sem-sessao-0001","waitSeconds":0}}}`
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer tok-assistente")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Mcp-Session-Id") != "" {
			t.Fatalf("stateless POST: %d, session %q: %s", resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), raw)
		}
		payload := raw
		if i := bytes.Index(raw, []byte("data: ")); i >= 0 { // an SSE answer carries one message
			payload, _, _ = bytes.Cut(raw[i+len("data: "):], []byte("\n"))
		}
		var msg struct {
			Result struct {
				IsError           bool           `json:"isError"`
				StructuredContent map[string]any `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal(payload, &msg); err != nil || msg.Result.IsError || msg.Result.StructuredContent == nil {
			t.Fatalf("tools/call without a session: %v %s", err, raw)
		}
		return msg.Result.StructuredContent["request"].(map[string]any)
	}
	first := callSync(1)
	if first["replay"] != false {
		t.Errorf("first call: %v", first)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		r := callSync(2)
		if r["replay"] != true || r["id"] != first["id"] {
			t.Fatalf("repeated key: %v, first %v", r, first)
		}
		if r["status"] == cadstore.SyncCompleted {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the import is still %v", r["status"])
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// import prints, under its connection, each transaction dated outside its statement's period.
func TestImportPrintsWarnings(t *testing.T) {
	ctx := context.Background()
	s, dir := demoStore(t)
	b, err := os.ReadFile(filepath.Join(dir, "next", "aurora-marina", "extrato-2026-11.ofx"))
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte("<DTPOSTED>20261030130600"), []byte("<DTPOSTED>20261120130600"), 1)
	if err := os.WriteFile(filepath.Join(dir, "ofx", "aurora-marina", "extrato-2026-11.ofx"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := importInto(ctx, s, filepath.Join(dir, "installation.yaml"), &out); err != nil {
		t.Fatal(err)
	}
	want := "  aurora-marina: 1 arquivo novo, 11 transações novas, 1 já importada; nova revisão do espaço casa\n" +
		"    AVISO extrato-2026-11.ofx:34: a transação de 20/11/2026 (FITID AUR20261030042) está fora do período do extrato"
	if !strings.Contains(out.String(), want) {
		t.Errorf("import output lacks %q:\n%s", want, out.String())
	}
}

// TestServeHTTPWithoutToken: --no-token serves a client that sends no token (the inspector, the
// conformance suite) as the local assistant, only on a loopback address; --read-only lists and
// serves only the tools that change nothing.
func TestServeHTTPWithoutToken(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	db := filepath.Join(t.TempDir(), "c.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--no-token", "--http", "0.0.0.0:0"}, `--no-token só é aceito em endereço local (127.0.0.1, ::1 ou localhost), não em "0.0.0.0:0"`},
		{[]string{"--no-token", "--http", "192.168.0.10:8080"}, "--no-token só é aceito em endereço local"},
		{[]string{"--no-token"}, "--no-token vale só com --http"},
	} {
		err := run(context.Background(), append([]string{"serve", "--db", db}, c.args...), io.Discard, log)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("serve %v: %v, want %q", c.args, err, c.want)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, _ := demoStore(t)
	base := serveLoopback(t, &caderninho.Service{Store: s, Log: log}, httpOptions{validate: true, noToken: true, readOnly: true}, log)
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("connecting without a token: %v", err)
	}
	defer session.Close()
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		if !tool.Annotations.ReadOnlyHint {
			t.Errorf("read-only server lists %s, which writes", tool.Name)
		}
		names = append(names, tool.Name)
	}
	if len(names) != 9 {
		t.Errorf("read-only server lists %d tools, want the 9 that change nothing: %v", len(names), names)
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "caderninho_accounts", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("accounts without a token: %v %+v", err, res)
	}
	if _, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "caderninho_sync", Arguments: map[string]any{"idempotency_key": "sem-token-1"}}); err == nil ||
		!strings.Contains(err.Error(), "unknown tool") {
		t.Errorf("caderninho_sync on a read-only server: %v, want an unknown tool", err)
	}
	session.Close()
}

// serveLoopback runs serveHTTP on a free loopback port until the test ends and returns its base
// URL; the test fails if serving returned an error.
func serveLoopback(t *testing.T, svc *caderninho.Service, opts httpOptions, log *slog.Logger) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- serveHTTP(ctx, svc, ln, opts, log) }()
	t.Cleanup(func() {
		cancel()
		if err := <-errc; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

// demoStore is a fresh store with the demo installation (copied to dir) registered and its
// statements imported.
func demoStore(t *testing.T) (s *cadstore.Store, dir string) {
	t.Helper()
	dir = t.TempDir()
	if err := demo.CopyCaderninho(dir); err != nil {
		t.Fatal(err)
	}
	s = cadstoretest.Open(t)
	if err := importInto(context.Background(), s, filepath.Join(dir, "installation.yaml"), io.Discard); err != nil {
		t.Fatal(err)
	}
	return s, dir
}

// A one-shot call writes the answer and nothing of the MCP session (connected, disconnected)
// on stderr. The test runs itself as the process, since the call's logger writes to stderr.
func TestCallKeepsSessionChatterOut(t *testing.T) {
	if dsn := os.Getenv("CADERNINHO_CALL_CHILD"); dsn != "" {
		log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
		if err := run(context.Background(), []string{"call", "--db", dsn, "caderninho_accounts", "{}"}, os.Stdout, log); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	dir := t.TempDir()
	if err := demo.CopyCaderninho(dir); err != nil {
		t.Fatal(err)
	}
	s, dsn := cadstoretest.OpenDSN(t)
	inst, err := installation.Load(os.DirFS(dir), "installation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Register(context.Background(), inst, dir); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCallKeepsSessionChatterOut$")
	cmd.Env = append(os.Environ(), "CADERNINHO_CALL_CHILD="+dsn)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("call: %v\n%s", err, &stderr)
	}
	if strings.Contains(stderr.String(), "session") || !strings.Contains(stdout.String(), "structuredContent") {
		t.Errorf("stdout %q\nstderr %q", &stdout, &stderr)
	}
}
