package schemapub_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lumo-caderninho/mcp/gen"
	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/schemacheck"
	"github.com/lumo-caderninho/mcp/impl/platform/schemapub"
	"github.com/lumo-caderninho/mcp/impl/platform/yamldoc"
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
		written, _ := filepath.Glob(filepath.Join(dir, "*.md"))
		committed, _ := filepath.Glob(filepath.Join("..", "..", "..", "gen", "docs", server, "*.md"))
		if len(written) != len(committed) {
			t.Errorf("gen/docs/%s holds %d pages, the schemas make %d: run go generate ./...", server, len(committed), len(written))
		}
		for _, w := range written {
			page, _ := os.ReadFile(w)
			name := filepath.Base(w)
			old, err := os.ReadFile(filepath.Join("..", "..", "..", "gen", "docs", server, name))
			if err != nil || !bytes.Equal(page, old) {
				t.Errorf("gen/docs/%s/%s is not what the schemas make now (%v): run go generate ./...", server, name, err)
			}
		}
		for _, f := range c.Formats() {
			page, err := os.ReadFile(filepath.Join(dir, f.File+".md"))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"# " + f.File, "## Exemplo", "## Campos", "| Campo | Tipo | Obrigatório | Padrão | Limites | Exemplo | Descrição |"} {
				if !strings.Contains(string(page), want) {
					t.Errorf("%s %s page lacks %q", server, f.File, want)
				}
			}
		}
		for _, tool := range c.Tools() {
			page, err := os.ReadFile(filepath.Join(dir, tool+".md"))
			if err != nil {
				t.Fatal(err)
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

// formatSchemas are the file formats' schemas of both servers: lumo/workspace.schema.json, ...
func formatSchemas(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"lumo", "caderninho"} {
		found, err := fs.Glob(schemas.FS, dir+"/*.schema.json")
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, found...)
	}
	if len(files) != 3 {
		t.Fatalf("found the format schemas %v, want workspace, app and installation", files)
	}
	return files
}

// schemaNodes calls visit for every schema object of doc (the root, properties, $defs, items,
// branches), with its JSON pointer; the values of examples, enum, const and default are data,
// not schemas, and are not entered.
func schemaNodes(doc any, visit func(pointer string, s map[string]any)) {
	var walk func(v any, at string)
	walk = func(v any, at string) {
		s, ok := v.(map[string]any)
		if !ok {
			return
		}
		visit(at, s)
		for k, e := range s {
			switch k {
			case "examples", "enum", "const", "default":
				continue
			case "properties", "$defs":
				m, _ := e.(map[string]any)
				for name, sub := range m {
					walk(sub, at+"/"+k+"/"+escapePointer(name))
				}
			case "oneOf", "anyOf", "allOf":
				l, _ := e.([]any)
				for i, sub := range l {
					walk(sub, fmt.Sprintf("%s/%s/%d", at, k, i))
				}
			case "items", "not", "if", "then", "else", "additionalProperties":
				walk(e, at+"/"+k)
			}
		}
	}
	walk(doc, "")
}

func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// TestFormatExamplesPassTheirSchemas: every example a file format's schema carries, the whole
// documents at its root and each field's, passes the schema at the place it is written, with the
// validator the importers use (schemacheck); each format has a whole example.
func TestFormatExamplesPassTheirSchemas(t *testing.T) {
	checked := 0
	for _, f := range formatSchemas(t) {
		dir, file := path.Split(f)
		set, err := schemacheck.Compile(schemas.FS, strings.TrimSuffix(dir, "/"))
		if err != nil {
			t.Fatal(err)
		}
		b, err := fs.ReadFile(schemas.FS, f)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		if ex, _ := doc["examples"].([]any); len(ex) == 0 {
			t.Errorf("%s has no whole example at its root", f)
		}
		schemaNodes(doc, func(at string, s map[string]any) {
			ex, _ := s["examples"].([]any)
			for i, e := range ex {
				checked++
				vs, err := set.ValidateAt(file, at, e)
				if err != nil {
					t.Fatalf("%s#%s: %v", f, at, err)
				}
				if len(vs) > 0 {
					t.Errorf("%s#%s example %d does not pass the schema there: %v", f, at, i+1, vs)
				}
			}
		})
	}
	if checked < 50 {
		t.Errorf("checked %d examples; the format schemas should carry one per field", checked)
	}
	// The check itself: an example that breaks its field's schema is reported.
	set, err := schemacheck.Compile(schemas.FS, "lumo")
	if err != nil {
		t.Fatal(err)
	}
	if vs, err := set.ValidateAt("app.schema.json", "/$defs/column/properties/type", "texto"); err != nil || len(vs) == 0 {
		t.Errorf("a column type of %q passed: %v %v", "texto", vs, err)
	}
}

// TestFormatFieldsAreDocumented: every field of a file format has a description, and every field
// that holds a value (not an object or a list of objects) an example, so that its reference page
// says what it is and shows it.
func TestFormatFieldsAreDocumented(t *testing.T) {
	for _, f := range formatSchemas(t) {
		b, err := fs.ReadFile(schemas.FS, f)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		defs, _ := doc["$defs"].(map[string]any)
		resolve := func(s map[string]any) map[string]any {
			if ref, ok := s["$ref"].(string); ok {
				target, _ := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
				return target
			}
			return s
		}
		schemaNodes(doc, func(at string, s map[string]any) {
			props, _ := s["properties"].(map[string]any)
			for name, p := range props {
				p, _ := p.(map[string]any)
				target := resolve(p)
				if p["description"] == nil && target["description"] == nil {
					t.Errorf("%s#%s/properties/%s has no description", f, at, name)
				}
				holdsObjects := target["properties"] != nil || target["if"] != nil
				if items, ok := target["items"].(map[string]any); ok {
					it := resolve(items)
					holdsObjects = it["properties"] != nil || it["if"] != nil
				}
				if !holdsObjects && p["examples"] == nil && target["examples"] == nil {
					t.Errorf("%s#%s/properties/%s has no example", f, at, name)
				}
			}
		})
	}
}

// TestFormatPagesShowTheExamplesAsTheImportersReadThem: each whole example a page shows as YAML,
// read as lumo import and caderninho import read their files (yamldoc), is the schema's example
// and passes the schema.
func TestFormatPagesShowTheExamplesAsTheImportersReadThem(t *testing.T) {
	for server, c := range described(t) {
		set, err := schemacheck.Compile(schemas.FS, server)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range c.Formats() {
			b, err := fs.ReadFile(schemas.FS, server+"/"+f.Schema)
			if err != nil {
				t.Fatal(err)
			}
			var s struct {
				Examples []any `json:"examples"`
			}
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			if len(f.Examples) != len(s.Examples) || len(f.Examples) == 0 {
				t.Fatalf("%s: the page shows %d examples, the schema has %d", f.File, len(f.Examples), len(s.Examples))
			}
			for i, y := range f.Examples {
				d, errs := yamldoc.Read(fstest.MapFS{f.File: {Data: []byte(y)}}, f.File)
				if errs != nil {
					t.Fatalf("%s example %d: %v\n%s", f.File, i+1, errs, y)
				}
				if vs := set.Validate(f.Schema, d.Value); len(vs) > 0 {
					t.Errorf("%s example %d, as YAML, does not pass the schema: %v", f.File, i+1, vs)
				}
				got, _ := json.Marshal(d.Value)
				want, _ := json.Marshal(s.Examples[i])
				if !bytes.Equal(got, want) {
					t.Errorf("%s example %d reads back as\n%s\nwant\n%s", f.File, i+1, got, want)
				}
			}
		}
	}
}
