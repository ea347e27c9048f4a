package schemapub_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/gen"
	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/schemapub"
	"github.com/lumo-caderninho/mcp/schemas"
)

// described is each server's catalogue with its reference pages, as the binaries build it.
func described(t *testing.T) map[string]*schemapub.Catalog {
	t.Helper()
	cats := map[string]*schemapub.Catalog{}
	for server, tools := range map[string][]mcpserver.Tool{
		"lumo": (&lumo.Service{}).Tools(), "caderninho": (&caderninho.Service{}).Tools(),
	} {
		c, err := schemapub.New(schemas.FS, gen.OpenAPI, server)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Describe(mcpserver.DocTools(tools)); err != nil {
			t.Fatal(err)
		}
		cats[server] = c
	}
	return cats
}

// TestReferenceExamplesPassTheirSchemas: every tool of both servers carries at least one example
// call and one example result, and each passes the published schema of its kind (validation
// alone: nothing is called).
func TestReferenceExamplesPassTheirSchemas(t *testing.T) {
	total := 0
	for server, c := range described(t) {
		for _, tool := range c.Tools() {
			total++
			for _, kind := range []string{schemapub.Input, schemapub.Output} {
				b, _ := c.Schema(tool, kind)
				var s struct {
					Examples []json.RawMessage `json:"examples"`
				}
				if err := json.Unmarshal(b, &s); err != nil {
					t.Fatal(err)
				}
				if len(s.Examples) == 0 {
					t.Errorf("%s %s: no %s example", server, tool, kind)
				}
				for i, ex := range s.Examples {
					v, err := c.Validate(tool, kind, ex)
					if err != nil || len(v) > 0 {
						t.Errorf("%s %s %s example %d: %v %v\n%s", server, tool, kind, i+1, err, v, ex)
					}
				}
			}
		}
	}
	if total != 21 {
		t.Errorf("%d tools have reference pages, want the 21 of both servers", total)
	}
}

// TestReferencePagesDescribeEveryArgument: each page names every top-level argument and result
// field, and the committed gen/docs pages are what the schemas make now.
func TestReferencePagesDescribeEveryArgument(t *testing.T) {
	for server, c := range described(t) {
		dir := t.TempDir()
		var out, errs bytes.Buffer
		if err := c.Run([]string{"doc", "--write", dir}, nil, &out, &errs); err != nil {
			t.Fatalf("%s schemas doc --write: %v %s", server, err, &errs)
		}
		for _, tool := range c.Tools() {
			page, err := os.ReadFile(filepath.Join(dir, tool+".md"))
			if err != nil {
				t.Fatal(err)
			}
			committed, err := os.ReadFile(filepath.Join("..", "..", "..", "gen", "docs", server, tool+".md"))
			if err != nil || !bytes.Equal(page, committed) {
				t.Errorf("gen/docs/%s/%s.md is not what the schemas make now (%v): run go generate ./...", server, tool, err)
			}
			for _, kind := range []string{schemapub.Input, schemapub.Output} {
				b, _ := c.Schema(tool, kind)
				var s struct {
					Properties map[string]any `json:"properties"`
					OneOf      []struct {
						Ref        string         `json:"$ref"`
						Properties map[string]any `json:"properties"`
					} `json:"oneOf"`
				}
				json.Unmarshal(b, &s)
				for name := range s.Properties {
					if !strings.Contains(string(page), "| `"+name+"` |") {
						t.Errorf("%s %s page lacks the %s field %s", server, tool, kind, name)
					}
				}
			}
			for _, want := range []string{"## Argumentos", "## Resultado", "### Erro", "## Exemplo de chamada", "## Exemplo de resultado"} {
				if !strings.Contains(string(page), want) {
					t.Errorf("%s %s page lacks %q", server, tool, want)
				}
			}
		}
		var doc bytes.Buffer
		if err := c.Run([]string{"doc", c.Tools()[0]}, nil, &doc, &errs); err != nil || !strings.HasPrefix(doc.String(), "# "+c.Tools()[0]) {
			t.Errorf("%s schemas doc %s: %v %.80s", server, c.Tools()[0], err, &doc)
		}
		if err := c.Run([]string{"doc", "nada"}, nil, &doc, &errs); err == nil || !strings.Contains(errs.String(), `a ferramenta "nada" não existe`) {
			t.Errorf("%s schemas doc nada: %v %s", server, err, &errs)
		}
	}
}

// TestDocsAreServedAsHTML: /docs/ lists the tools and each page is HTML under a strict CSP, with
// the tool's fields escaped; an unknown page is 404.
func TestDocsAreServedAsHTML(t *testing.T) {
	for server, c := range described(t) {
		mux := http.NewServeMux()
		c.Register(mux)
		ts := httptest.NewServer(mux)
		defer ts.Close()
		get := func(path string) (int, http.Header, string) {
			res, err := http.Get(ts.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var b bytes.Buffer
			b.ReadFrom(res.Body)
			return res.StatusCode, res.Header, b.String()
		}
		code, h, body := get("/docs/")
		if code != 200 || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Fatalf("%s /docs/: %d %v", server, code, h)
		}
		for _, tool := range c.Tools() {
			if !strings.Contains(body, `href="`+tool+`"`) {
				t.Errorf("%s /docs/ does not link %s", server, tool)
			}
			code, h, page := get("/docs/" + tool)
			if code != 200 || h.Get("Content-Type") != "text/html; charset=utf-8" || !strings.Contains(page, "<h2>Argumentos</h2>") ||
				!strings.Contains(page, "Exemplo de resultado") {
				t.Errorf("%s /docs/%s: %d %s", server, tool, code, h.Get("Content-Type"))
			}
		}
		if code, _, _ := get("/docs/nada"); code != http.StatusNotFound {
			t.Errorf("%s /docs/nada: %d, want 404", server, code)
		}
	}
}
