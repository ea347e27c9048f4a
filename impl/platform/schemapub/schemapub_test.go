package schemapub_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/gen"
	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/schemapub"
	"github.com/lumo-caderninho/mcp/schemas"
)

var discard = slog.New(slog.NewTextHandler(io.Discard, nil))

// listTools connects to srv in memory and returns tools/list, by name.
func listTools(t *testing.T, srv *mcp.Server) map[string]*mcp.Tool {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*mcp.Tool{}
	for _, tool := range list.Tools {
		out[tool.Name] = tool
	}
	return out
}

func servers(t *testing.T) map[string]*mcp.Server {
	l, err := lumo.NewServer(&lumo.Service{Log: discard}, lumo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := caderninho.NewServer(&caderninho.Service{Log: discard}, caderninho.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*mcp.Server{"lumo": l, "caderninho": c}
}

func get(t *testing.T, h http.Handler, method, path string) (int, http.Header, []byte) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	return rec.Code, rec.Header(), rec.Body.Bytes()
}

func jsonEqual(t *testing.T, what string, a []byte, b any) {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	bb, _ := json.Marshal(b)
	if err := json.Unmarshal(bb, &y); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if d := cmp.Diff(y, x); d != "" {
		t.Errorf("%s differs from tools/list (-tools/list +served):\n%s", what, d)
	}
}

func TestHTTPServesWhatToolsListPublishes(t *testing.T) {
	for server, srv := range servers(t) {
		t.Run(server, func(t *testing.T) {
			cat, err := schemapub.New(schemas.FS, gen.OpenAPI, server)
			if err != nil {
				t.Fatal(err)
			}
			mux := http.NewServeMux()
			cat.Register(mux)
			tools := listTools(t, srv)
			binder := &mcpserver.Binder{FS: schemas.FS, Dir: server}

			code, _, body := get(t, mux, http.MethodGet, "/schemas/")
			if code != http.StatusOK {
				t.Fatalf("GET /schemas/: %d %s", code, body)
			}
			var ix schemapub.Index
			if err := json.Unmarshal(body, &ix); err != nil {
				t.Fatal(err)
			}
			if ix.Server != server || ix.OpenAPI != "/openapi.json" || len(ix.Tools) != len(tools) {
				t.Fatalf("index %+v, want %d tools of %s", ix, len(tools), server)
			}
			for _, it := range ix.Tools {
				tool := tools[it.Name]
				if tool == nil {
					t.Fatalf("index lists %s, tools/list does not", it.Name)
				}
				in, out, err := binder.Published(it.Name)
				if err != nil {
					t.Fatal(err)
				}
				// Clients build argument forms from the input schema; some do not follow $ref.
				if bytes.Contains(in, []byte(`"$ref"`)) || bytes.Contains(in, []byte(`"$defs"`)) {
					t.Errorf("%s's published input schema is not self-contained: %s", it.Name, in)
				}
				for path, want := range map[string]json.RawMessage{it.Input: in, it.Output: out} {
					code, h, body := get(t, mux, http.MethodGet, path)
					if code != http.StatusOK || h.Get("Content-Type") != "application/schema+json" {
						t.Fatalf("GET %s: %d %s", path, code, h.Get("Content-Type"))
					}
					if !bytes.Equal(body, want) {
						t.Errorf("GET %s is not byte-identical to the published schema", path)
					}
				}
				_, _, body = get(t, mux, http.MethodGet, it.Input)
				jsonEqual(t, it.Input, body, tool.InputSchema)
				_, _, body = get(t, mux, http.MethodGet, it.Output)
				jsonEqual(t, it.Output, body, tool.OutputSchema)
			}

			want, err := os.ReadFile(filepath.Join("..", "..", "..", "gen", server, "openapi.json"))
			if err != nil {
				t.Fatal(err)
			}
			if code, _, body := get(t, mux, http.MethodGet, "/openapi.json"); code != http.StatusOK || !bytes.Equal(body, want) {
				t.Errorf("GET /openapi.json: %d, identical to gen/%s/openapi.json: %v", code, server, bytes.Equal(body, want))
			}
			if code, _, body := get(t, mux, http.MethodHead, "/openapi.json"); code != http.StatusOK || len(body) != 0 {
				t.Errorf("HEAD /openapi.json: %d, %d bytes", code, len(body))
			}
			for path, wantCode := range map[string]int{
				"/schemas/nope.input.json":    http.StatusNotFound,
				"/schemas/common.json":        http.StatusNotFound,
				"/schemas/../embed.go":        http.StatusNotFound,
				"/schemas/x/../common.json":   http.StatusNotFound,
				"/schemas/query.input.json/x": http.StatusNotFound,
			} {
				if code, _, _ := get(t, mux, http.MethodGet, path); code != wantCode && code != http.StatusMovedPermanently && code != http.StatusTemporaryRedirect {
					t.Errorf("GET %s: %d, want %d", path, code, wantCode)
				}
			}
			if code, h, _ := get(t, mux, http.MethodPost, "/schemas/"); code != http.StatusMethodNotAllowed || h.Get("Allow") == "" {
				t.Errorf("POST /schemas/: %d", code)
			}
		})
	}
}

func TestRunSchemasCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	validQuery := write("q.json", `{"appId": 1, "fields": [{"ref": "Vendas.Valor", "agg": "sum"}]}`)
	badQuery := write("bad.json", `{"appId": "1", "fields": [{"ref": 7, "agg": "soma"}], "extra": true}`)
	notJSON := write("broken.json", "{\n  \"appId\": 1,\n  \"fields\": [\n}")
	call := write("call.json", `{"name": "get_app", "arguments": {"appId": 0}}`)
	rpc := write("rpc.json", `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "search_catalog"}}`)
	output := write("out.json", `{"apps": []}`)
	sync := write("sync.json", `{"idempotency_key": "chave-0001"}`)

	cases := []struct {
		name     string
		server   string
		args     []string
		stdin    string
		code     int
		stdout   []string
		stderr   []string
		noStdout bool
	}{
		{name: "list", server: "lumo", args: []string{"list"}, stdout: []string{"get_app\nquery\nsearch_catalog\nsearch_values\n"}},
		{name: "list caderninho", server: "caderninho", args: []string{"list"}, stdout: []string{"caderninho_accounts\n", "caderninho_sync\n"}},
		{name: "show", server: "lumo", args: []string{"show", "query", "input"}, stdout: []string{`"$schema"`, `"fields"`}},
		{name: "show unknown tool", server: "lumo", args: []string{"show", "nada", "input"}, code: 2, stderr: []string{`a ferramenta "nada" não existe em lumo`}},
		{name: "show bad kind", server: "lumo", args: []string{"show", "query", "entrada"}, code: 2, stderr: []string{`use input ou output`}},
		{name: "valid", server: "lumo", args: []string{"validate", "--tool", "query", validQuery}, stdout: []string{"válido: o payload passa no schema de entrada de query."}},
		{name: "invalid names every field", server: "lumo", args: []string{"validate", "--tool", "query", badQuery}, code: 1, stdout: []string{
			"inválido: 4 problemas no payload de entrada de query:",
			"- appId: deve ser número inteiro, mas veio texto.",
			"- extra: campo não aceito aqui; remova-o",
			"- fields[0].agg: o valor \"soma\" não é aceito",
			"- fields[0].ref: deve ser texto, mas veio número.",
		}},
		{name: "not JSON", server: "lumo", args: []string{"validate", "--tool", "query", notJSON}, code: 1, stdout: []string{"o conteúdo não é um JSON válido (linha 4, coluna 1)."}},
		{name: "stdin", server: "caderninho", args: []string{"validate", "--tool", "caderninho_sync", "-"}, stdin: `{"idempotency_key": ""}`, code: 1, stdout: []string{"- idempotency_key:"}},
		{name: "sync valid", server: "caderninho", args: []string{"validate", "--tool=caderninho_sync", "--kind=input", sync}, stdout: []string{"válido"}},
		{name: "call wrapper", server: "lumo", args: []string{"validate", call}, code: 1, stdout: []string{"de entrada de get_app", "- appId: deve ser no mínimo 1 (veio 0)."}},
		{name: "json-rpc request", server: "lumo", args: []string{"validate", rpc}, stdout: []string{"válido: o payload passa no schema de entrada de search_catalog."}},
		{name: "output kind", server: "lumo", args: []string{"validate", "--tool", "search_catalog", "--kind", "output", output}, code: 1, stdout: []string{"de saída de search_catalog"}},
		{name: "output needs tool", server: "lumo", args: []string{"validate", "--kind", "output", output}, code: 2, stderr: []string{"com --kind output, informe --tool"}},
		{name: "wrapper needs name", server: "lumo", args: []string{"validate", validQuery}, code: 2, stderr: []string{`sem --tool, o arquivo precisa ser {"name"`}},
		{name: "missing file", server: "lumo", args: []string{"validate", "--tool", "query", filepath.Join(dir, "none.json")}, code: 2, stderr: []string{"não existe"}, noStdout: true},
		{name: "no file", server: "lumo", args: []string{"validate", "--tool", "query"}, code: 2, stderr: []string{"validate recebe um arquivo"}},
		{name: "unknown flag", server: "lumo", args: []string{"validate", "--x", validQuery}, code: 2, stderr: []string{"Uso:"}},
		{name: "unknown subcommand", server: "lumo", args: []string{"check"}, code: 2, stderr: []string{`subcomando desconhecido "check"`}},
		{name: "no subcommand", server: "caderninho", args: nil, code: 2, stderr: []string{"caderninho schemas validate"}},
	}
	cats := map[string]*schemapub.Catalog{}
	for _, s := range []string{"lumo", "caderninho"} {
		c, err := schemapub.New(schemas.FS, gen.OpenAPI, s)
		if err != nil {
			t.Fatal(err)
		}
		cats[s] = c
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := cats[tc.server].Run(tc.args, strings.NewReader(tc.stdin), &stdout, &stderr)
			code := 0
			if err != nil {
				ec, ok := err.(schemapub.ExitCode)
				if !ok {
					t.Fatalf("error %v is not an exit code", err)
				}
				code = int(ec)
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, &stdout, &stderr)
			}
			for _, w := range tc.stdout {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, &stdout)
				}
			}
			for _, w := range tc.stderr {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, &stderr)
				}
			}
			if tc.noStdout && stdout.Len() > 0 {
				t.Errorf("stdout should be empty:\n%s", &stdout)
			}
		})
	}
}
