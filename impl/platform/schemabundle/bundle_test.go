package schemabundle

import (
	"bytes"
	"io/fs"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/lumo-caderninho/mcp/schemas"
)

const errorOut = `{"error":{"code":"app_not_found","message":"Aplicação 9 não existe.","suggestions":["search_catalog"]}}`

// samples holds instances per schema file; every one must get the same verdict from the bundled
// schema and from the original multi-file set. want records the expected verdict as a sanity check.
var samples = map[string][]struct {
	doc  string
	want bool
}{
	"query.input.json": {
		{`{"appId":7,"fields":[{"ref":"Vendas.Valor da venda","agg":"sum"}],"filters":[{"ref":"Vendas.Data","op":"between","value":["2026-09-01","2026-09-30"]}]}`, true},
		{`{"appId":0,"fields":[]}`, false},
		{`{"appId":7,"fields":[{"ref":"Lojas.UF"}],"filters":[{"ref":"Lojas.UF","op":"in","value":["SP",3]}],"orderBy":[{"ref":"Lojas.UF","dir":"asc"}],"limit":5}`, true},
		{`{"appId":7,"fields":[{"ref":"Vendas.Valor","agg":"median"}]}`, false},
		{`{"appId":7,"fields":[{"ref":"Vendas.Data","bucket":"week"}]}`, false},
		{`{"appId":7,"fields":[{"ref":"x"}],"filters":[{"ref":"y","op":"in","value":[["nested"]]}]}`, false},
		{`{"appId":7,"fields":[{"ref":"x"}],"extra":true}`, false},
	},
	"search_catalog.input.json": {
		{`{}`, true},
		{`{"terms":"vendas"}`, true},
		{`{"terms":["vendas","margem"],"appId":3}`, true},
		{`{"terms":""}`, false},
		{`{"terms":5}`, false},
		{`{"appId":"3"}`, false},
	},
	"get_app.input.json": {
		{`{"appId":1}`, true},
		{`{}`, false},
		{`{"appId":1,"x":1}`, false},
		{`{"appId":2147483648}`, false},
	},
	"search_values.input.json": {
		{`{"appId":1,"ref":"Vendas.Loja","contains":"centro"}`, true},
		{`{"appId":1,"ref":"Vendas","mode":"sample"}`, true},
		{`{"appId":1,"mode":"search"}`, false},
		{`{"ref":"Vendas.Loja"}`, false},
	},
	"query.output.json": {
		{errorOut, true},
		{`{}`, false},
		{`{"appId":7,"columns":[{"key":"12_SUM","label":"Valor","type":"number","unit":"BRL"},{"key":"3_AGP","label":"UF","type":"string","unit":null}],"rows":[[10.5,"SP"],[null,"RJ"]],"rowCount":2,"totalRows":2,"truncated":false,"summary":{"12_SUM":10.5,"3_AGP":null},"dataAsOf":null,"filtersApplied":[],"permalink":"https://lumo.example/q/1"}`, true},
		{`{"appId":7,"columns":[],"rows":[[true]],"rowCount":1,"totalRows":1,"truncated":false,"dataAsOf":null,"filtersApplied":[]}`, false},
		{`{"appId":7,"columns":[{"key":"k","label":"l","type":"number","unit":"EUR"}],"rows":[],"rowCount":0,"totalRows":0,"truncated":false,"dataAsOf":null,"filtersApplied":[]}`, false},
	},
	"search_catalog.output.json": {
		{errorOut, true},
		{`{"legend":{"id":"o id","desk":"a mesa","clonedFrom":"a origem","publishedAt":"quando","sameName":"mesmo nome","indicators":"indicadores"},"apps":[{"id":1,"name":"Vendas","description":null,"desk":null,"clonedFrom":{"id":2,"name":"Base"},"publishedAt":"2026-01-02T03:04:05-03:00","sameName":[],"indicators":[{"name":"Receita","description":null,"valid":true}]}]}`, true},
		{`{"terms":["x"],"total":1,"shown":1,"matches":[{"kind":"column","name":"Loja","app":{"id":1,"name":"Vendas"},"field":{"ref":"Vendas.Loja"},"unit":null}]}`, true},
		{`{"legend":{},"apps":[],"error":{"code":"c","message":"m","suggestions":[]}}`, false},
	},
	"get_app.output.json": {
		{errorOut, true},
		{`{"app":{"id":1,"name":"Vendas","description":null,"desk":"Comercial","clonedFrom":null,"publishedAt":null},"indicators":[],"expressions":[{"id":4,"label":"Margem %","ref":"Margem %","field":{"ref":"Margem %"},"formula":"a/b","unit":"percent"}],"tables":[{"label":"Vendas","name":"VENDAS","kind":"fact","loadedAt":null,"columns":[{"id":1,"name":"VALOR","label":"Valor","ref":"Vendas.Valor","field":{"ref":"Vendas.Valor","agg":"sum"},"type":"number","role":"measure","unit":"BRL","description":null}]}],"relationships":[],"segments":[]}`, true},
		{`{"app":{"id":1,"name":"Vendas"},"indicators":[],"expressions":[],"tables":[],"relationships":[]}`, false},
	},
	"search_values.output.json": {
		{errorOut, true},
		{`{"mode":"distinct","appId":1,"ref":"Vendas.Loja","values":["Centro",null],"totalDistinct":2}`, true},
		{`{"mode":"distinct","appId":1,"ref":"Vendas.Loja","totalDistinct":2}`, false},
		{`{"mode":"sample","appId":1,"ref":"Vendas","columns":[{"label":"Loja","ref":"Vendas.Loja","type":"string","unit":null}],"rows":[["Centro"]]}`, true},
		{`{"mode":"search","appId":1,"matches":[{"ref":"Vendas.Loja","values":["Centro"],"more":false}],"columnsSearched":1,"columnsTotal":1,"columnsLeftOut":[]}`, true},
	},
}

func TestTools(t *testing.T) {
	got, err := Tools(schemas.FS, "lumo")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"get_app", "query", "search_catalog", "search_values"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Tools (-want +got):\n%s", diff)
	}
}

func TestBundleLumo(t *testing.T) {
	tools, err := Tools(schemas.FS, "lumo")
	if err != nil {
		t.Fatal(err)
	}
	original := compilerFor(t, schemas.FS, "lumo")
	for _, tool := range tools {
		for _, file := range []string{tool + ".input.json", tool + ".output.json"} {
			t.Run(file, func(t *testing.T) {
				raw, err := Bundle(schemas.FS, "lumo", file)
				if err != nil {
					t.Fatal(err)
				}
				again, err := Bundle(schemas.FS, "lumo", file)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(raw, again) {
					t.Error("two bundles of the same schema differ")
				}
				doc, err := Decode(raw)
				if err != nil {
					t.Fatal(err)
				}
				checkRefsLocal(t, doc)

				c := jsonschema.NewCompiler()
				c.DefaultDraft(jsonschema.Draft2020)
				c.AssertFormat()
				c.UseLoader(noLoader{})
				if err := c.AddResource("mem://bundled/"+file, doc); err != nil {
					t.Fatal(err)
				}
				bundled, err := c.Compile("mem://bundled/" + file)
				if err != nil {
					t.Fatalf("compiling the bundled schema: %v", err)
				}
				orig, err := original.Compile("mem://schemas/lumo/" + file)
				if err != nil {
					t.Fatalf("compiling the original schema: %v", err)
				}
				if len(samples[file]) == 0 {
					t.Errorf("no sample instances for %s", file)
				}
				for _, s := range samples[file] {
					inst, err := jsonschema.UnmarshalJSON(strings.NewReader(s.doc))
					if err != nil {
						t.Fatal(err)
					}
					errB, errO := bundled.Validate(inst), orig.Validate(inst)
					if (errB == nil) != (errO == nil) {
						t.Errorf("%s: bundled says %v, original says %v", s.doc, errB, errO)
					}
					if (errO == nil) != s.want {
						t.Errorf("%s: original verdict %v, want valid=%v", s.doc, errO, s.want)
					}
				}
			})
		}
	}
}

// checkRefsLocal fails unless every $ref in doc is a JSON pointer into doc that resolves.
func checkRefsLocal(t *testing.T, doc any) {
	t.Helper()
	n := 0
	err := Walk(doc, func(m map[string]any) error {
		ref, ok := m["$ref"].(string)
		if !ok {
			return nil
		}
		n++
		if !strings.HasPrefix(ref, "#") {
			t.Errorf("$ref %q points outside the document", ref)
			return nil
		}
		if _, ok := pointer(doc, strings.TrimPrefix(ref, "#")); !ok {
			t.Errorf("$ref %q does not resolve", ref)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Error("no $ref at all: the walk is broken or the schema changed")
	}
}

func pointer(doc any, ptr string) (any, bool) {
	if ptr == "" {
		return doc, true
	}
	cur := doc
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[tok]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func compilerFor(t *testing.T, fsys fs.FS, dir string) *jsonschema.Compiler {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	files, err := fs.Glob(fsys, path.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource("mem://schemas/"+f, doc); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// noLoader refuses every load, so a ref that escapes the added resources fails to compile.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fs.ErrNotExist
}

func TestBundleTransitiveAndCollisions(t *testing.T) {
	fsys := fstest.MapFS{
		"s/a.input.json": {Data: []byte(`{"$id":"a.input.json","type":"object","properties":{` +
			`"x":{"$ref":"b.json#/$defs/x"},"y":{"$ref":"#/$defs/y"},"z":{"const":{"$ref":"c.json#/$defs/nope"}}},` +
			`"$defs":{"y":{"type":"integer","minimum":1.50}}}`)},
		"s/b.json": {Data: []byte(`{"$defs":{"x":{"type":"array","items":{"$ref":"#/$defs/w"}},` +
			`"w":{"$ref":"c.json#/$defs/v"}}}`)},
		"s/c.json": {Data: []byte(`{"$defs":{"v":{"type":"string"},"y":{"type":"integer","minimum":1.50}}}`)},
		"s/clash.input.json": {Data: []byte(`{"properties":{"x":{"$ref":"b.json#/$defs/x"}},` +
			`"$defs":{"w":{"type":"boolean"}}}`)},
		"s/same.input.json": {Data: []byte(`{"properties":{"v":{"$ref":"c.json#/$defs/y"}},` +
			`"$defs":{"y":{"type":"integer","minimum":1.50}}}`)},
		"s/bad.input.json": {Data: []byte(`{"properties":{"v":{"$ref":"c.json#/properties/y"}}}`)},
	}
	got, err := Bundle(fsys, "s", "a.input.json")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"$defs":{"v":{"type":"string"},"w":{"$ref":"#/$defs/v"},"x":{"items":{"$ref":"#/$defs/w"},"type":"array"},` +
		`"y":{"minimum":1.50,"type":"integer"}},"$id":"a.input.json","properties":{"x":{"$ref":"#/$defs/x"},` +
		`"y":{"$ref":"#/$defs/y"},"z":{"const":{"$ref":"c.json#/$defs/nope"}}},"type":"object"}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("Bundle (-want +got):\n%s", diff)
	}
	if _, err := Bundle(fsys, "s", "clash.input.json"); err == nil || !strings.Contains(err.Error(), "$defs/w") {
		t.Errorf("collision: got error %v, want one naming $defs/w", err)
	}
	if _, err := Bundle(fsys, "s", "same.input.json"); err != nil {
		t.Errorf("identical definitions under one name: %v", err)
	}
	if _, err := Bundle(fsys, "s", "bad.input.json"); err == nil {
		t.Error("a ref to something other than $defs: got no error")
	}
	tools, err := Tools(fsys, "s")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "bad", "clash", "same"}, tools); diff != "" {
		t.Errorf("Tools (-want +got):\n%s", diff)
	}
}
