package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/ratelimit"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
)

// syncBuffer is a log sink the server goroutines write to.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestMetricsRequestIDsAndLogs(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	log := slog.New(telemetry.LogHandler{Handler: slog.NewJSONHandler(&logs, nil)})
	svc := &lumo.Service{DB: db, Log: log}
	limiter := &ratelimit.Limiter{DB: db, PerUser: 4, PerTenant: 100, Log: log} // initialize and 3 calls
	h, err := httpHandlerWith(ctx, svc, limiter, "", true, serveOps{metrics: telemetry.NewMetrics("lumo", db.SQL())})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	ana, rec := connect(t, ts.URL, "tok-ana-loja")
	if res, err := ana.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}}); err != nil || res.IsError {
		t.Fatalf("search_catalog: %v %v", err, res)
	}
	if res, err := ana.CallTool(ctx, &mcp.CallToolParams{Name: "get_app", Arguments: map[string]any{"appId": 999999}}); err != nil || !res.IsError {
		t.Fatalf("get_app of a missing app: %v %v", err, res)
	}
	generated := rec.last.Header.Get(telemetry.Header)
	if len(generated) != 24 {
		t.Errorf("generated request id %q", generated)
	}
	ana.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}})
	if _, err := ana.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}}); err == nil {
		t.Fatal("fourth call admitted with --rate-user 4 (the session's initialize counts)")
	}

	// A client's plain id is echoed; a forged one is replaced.
	for id, echoed := range map[string]bool{"abc-123": true, "bad id {\"x\":1}": false} {
		req, _ := http.NewRequest("GET", ts.URL+"/healthz", nil)
		req.Header.Set(telemetry.Header, id)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get(telemetry.Header); (got == id) != echoed || got == "" {
			t.Errorf("X-Request-Id %q answered %q", id, got)
		}
	}

	resp, err := http.Get(ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	metrics := string(b)
	for _, want := range []string{
		`lumo_tool_calls_total{outcome="ok",tool="search_catalog"} 2`,
		`lumo_tool_calls_total{outcome="error",tool="get_app"} 1`,
		`lumo_tool_errors_total{code="NOT_FOUND",tool="get_app"} 1`,
		`lumo_tool_call_duration_seconds_count{tool="search_catalog"} 2`,
		`lumo_rate_limited_total 1`,
		`lumo_http_requests_total{code="429",path="/mcp"} 1`,
		`go_sql_max_open_connections{db_name="lumo"}`,
		`go_sql_in_use_connections{db_name="lumo"}`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}

	// Every line of a tool call carries its request id; no token ever appears.
	out := logs.String()
	if strings.Contains(out, "tok-ana-loja") {
		t.Error("a token reached the logs")
	}
	toolLines := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		if rec["msg"] == "tool call" || rec["msg"] == "http request" {
			if id, _ := rec["request_id"].(string); id == "" {
				t.Errorf("log line without request_id: %s", line)
			}
		}
		if rec["msg"] == "tool call" {
			toolLines++
		}
	}
	if toolLines != 3 {
		t.Errorf("%d tool call lines, want 3:\n%s", toolLines, out)
	}
	if !strings.Contains(out, `"request_id":"`+generated+`"`) {
		t.Errorf("the echoed id %s is not in the logs", generated)
	}
}

func TestGracefulShutdownFinishesInFlightCalls(t *testing.T) {
	started := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		time.Sleep(300 * time.Millisecond)
		io.WriteString(w, "done")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, stop := context.WithCancel(context.Background())
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	served := make(chan error, 1)
	go func() { served <- serveHTTP(ctx, h, addr, "", serveOps{shutdownTimeout: 5 * time.Second}, log) }()
	var resp *http.Response
	for i := 0; i < 50; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	got := make(chan string, 1)
	go func() {
		r, err := http.Get("http://" + addr + "/slow")
		if err != nil {
			got <- err.Error()
			return
		}
		resp = r
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		got <- string(b)
	}()
	<-started
	stop()
	time.Sleep(50 * time.Millisecond)
	if _, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		t.Error("a new connection was accepted during shutdown")
	}
	if body := <-got; body != "done" {
		t.Errorf("in-flight call: %q", body)
	}
	if err := <-served; err != nil {
		t.Errorf("serveHTTP: %v", err)
	}
	_ = resp
}

func TestGracefulShutdownIsBounded(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release })
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- serveHTTP(ctx, h, addr, "", serveOps{shutdownTimeout: 200 * time.Millisecond}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	for i := 0; i < 50; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	go http.Get("http://" + addr + "/stuck")
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	stop()
	select {
	case err := <-served:
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("serveHTTP: %v", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("shutdown took %v with a 200ms bound", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("shutdown not bounded")
	}
}

func TestImportPrintsASummaryLineAndProgressOnATerminal(t *testing.T) {
	var errOut bytes.Buffer
	old := stderr
	stderr = &errOut
	defer func() { stderr = old }()
	db := filepath.Join(t.TempDir(), "lumo.db")
	var out bytes.Buffer
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ws, err := filepath.Abs("../../impl/lumo/demo/workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), []string{"import", "--db", db, ws}, &out, log); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^Importação concluída: 21\.697 linhas em \d+,\d s \([\d.]+ linhas/s\)\.\n$`).MatchString(errOut.String()) {
		t.Errorf("not a terminal: stderr %q, want only the summary line", errOut.String())
	}
	if first, _, _ := strings.Cut(out.String(), "\n"); first != "Workspace importado: 2 tenants, 4 usuários, 3 mesas, 5 Aplicações, 21.697 linhas." {
		t.Errorf("summary %q", first)
	}
	if !strings.Contains(out.String(), "  loja/vendas-comercial vendas: 20.000 linhas\n"+
		"    apps/vendas/vendas.csv: separador \",\", decimal \".\", UTF-8, datas aaaa-mm-dd\n"+
		"  loja/vendas-comercial lojas: 7 linhas\n"+
		"    apps/vendas/lojas.csv: separador \",\", decimal \".\", UTF-8\n") {
		t.Errorf("per-table lines: %q", out.String())
	}
	// /dev/null is a character device but no terminal: no progress line there.
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Error("/dev/null counted as a terminal")
	}
	// On a terminal: rewritten progress lines with rows, rate and ETA.
	var term bytes.Buffer
	p := &importProgress{w: &term, start: time.Now().Add(-2 * time.Second)}
	p.update(store.Progress{Rows: 10000, TotalRows: 30000})
	p.summary(30000)
	if got := term.String(); !regexp.MustCompile(`^\r\033\[K10\.000 de 30\.000 linhas, [45]\.\d{3} linhas/s, faltam ~4,\d s` +
		`\r\033\[KImportação concluída: 30\.000 linhas em 2,0 s \([\d.]+ linhas/s\)\.\n$`).MatchString(got) {
		t.Errorf("terminal output %q", got)
	}
	// One row is "1 linha".
	var one bytes.Buffer
	p = &importProgress{w: &one, start: time.Now().Add(-time.Second)}
	p.update(store.Progress{Rows: 1, TotalRows: 1})
	p.summary(1)
	if got := one.String(); !strings.Contains(got, "1 de 1 linha,") || !strings.Contains(got, "Importação concluída: 1 linha em") {
		t.Errorf("one row: %q", got)
	}
}

// TestImportRefusesSymlinksOutOfTheWorkspace: `lumo import` of a workspace whose app folder is
// a symlink to a folder outside it imports nothing and names the path and the fix.
func TestImportRefusesSymlinksOutOfTheWorkspace(t *testing.T) {
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	if err := os.CopyFS(ws, os.DirFS("../../impl/lumo/demo")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(ws, "apps", "estoque"), filepath.Join(base, "estoque")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "estoque"), filepath.Join(ws, "apps", "estoque")); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(base, "lumo.db")
	var out bytes.Buffer
	err := run(context.Background(), []string{"import", "--db", db, filepath.Join(ws, "workspace.yaml")}, &out, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err == nil {
		t.Fatal("the import succeeded")
	}
	for _, want := range []string{`"apps/estoque/app.yaml" leva (por link simbólico) a ` + filepath.Join(base, "estoque", "app.yaml"), "fora da pasta do workspace", "copie o arquivo ou a pasta para dentro de"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q: %v", want, err)
		}
	}
}

// A role-playing copy leaving out an inherited calculated column it cannot resolve imports, and
// the import says which, with file and line.
func TestImportSaysWhatACopyLeavesOut(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../features/testdata/joins")); err != nil {
		t.Fatal(err)
	}
	app := `name: Pedidos
tables:
  - label: Fornecedores
    name: fornecedores
    kind: dimension
    file: fornecedores.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: NOME, label: Fornecedor, type: string}
      - {name: NACAO_ID, label: Nação, type: number, role: key}
      - {name: REGIAO, label: Região, type: string, formula: "[Nações.Região]"}
  - label: Nações
    name: nacoes
    kind: dimension
    file: nacoes.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: NOME, label: Nação, type: string}
      - {name: REGIAO, label: Região, type: string}
  - {label: Outro fornecedor, copyOf: Fornecedores}
relationships:
  - {from: Fornecedores.Nação, to: Nações.Id}
`
	for _, f := range []string{"itens.csv", "clientes.csv", "pecafornecedor.csv"} {
		if err := os.Remove(filepath.Join(dir, "apps/pedidos", f)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "apps/pedidos/app.yaml"), []byte(app), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if err := run(context.Background(), []string{"import", "--db", filepath.Join(t.TempDir(), "lumo.db"), filepath.Join(dir, "workspace.yaml")}, &out, log); err != nil {
		t.Fatal(err)
	}
	want := "Aviso: apps/pedidos/app.yaml:20: tables[2]: a cópia Outro fornecedor deixa de fora a coluna calculada Região de Fornecedores: " +
		"a fórmula dela não se resolve a partir de Outro fornecedor (posição 1: [Nações.Região] é da tabela Nações, que Outro fornecedor não alcança pelos relacionamentos (muitos para um); " +
		"use colunas de Outro fornecedor ou de uma tabela ligada a ela); para tê-la na cópia, declare em columns da cópia {name: REGIAO, formula: ...} com uma fórmula que se resolva a partir de Outro fornecedor\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("the import said\n%s\nwithout\n%s", out.String(), want)
	}
}
