package specgen

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/platform/schemabundle"
	"github.com/lumo-caderninho/mcp/schemas"
)

// TestGeneratedUpToDate fails when gen/<server>/openapi.json differs from what the schemas give;
// run `go generate ./gen/...` to fix it.
func TestGeneratedUpToDate(t *testing.T) {
	servers, err := fs.ReadDir(schemas.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range servers {
		if !s.IsDir() {
			continue
		}
		for file, gen := range map[string]func(fs.FS, string) ([]byte, error){"openapi.json": Generate, "ogen.json": GenerateOgen} {
			t.Run(s.Name()+"/"+file, func(t *testing.T) {
				want, err := gen(schemas.FS, s.Name())
				if err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(filepath.Join("..", "..", "..", "gen", s.Name(), file))
				if err != nil {
					t.Fatalf("%v (run go generate ./gen/...)", err)
				}
				if !bytes.Equal(want, got) {
					t.Errorf("gen/%s/%s is stale: run go generate ./gen/...\n%s",
						s.Name(), file, cmp.Diff(string(want), string(got)))
				}
			})
		}
	}
}

func TestGenerateLumo(t *testing.T) {
	out, err := Generate(schemas.FS, "lumo")
	if err != nil {
		t.Fatal(err)
	}
	again, err := Generate(schemas.FS, "lumo")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, again) {
		t.Error("two runs differ")
	}
	v, err := schemabundle.Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	doc := v.(map[string]any)
	components := doc["components"].(map[string]any)["schemas"].(map[string]any)

	for _, name := range []string{
		"Field", "Filter", "Error", "ErrorResponse", "QueryOutputResultColumn", "GetAppOutputApp",
		"SearchCatalogInput", "SearchCatalogOutput", "GetAppInput", "GetAppOutput",
		"SearchValuesInput", "SearchValuesOutput", "QueryInput", "QueryOutput",
	} {
		if _, ok := components[name]; !ok {
			t.Errorf("no component %s", name)
		}
	}
	for _, name := range []string{"Workspace", "App"} {
		if _, ok := components[name]; ok {
			t.Errorf("component %s: file formats are left out", name)
		}
	}

	paths := doc["paths"].(map[string]any)
	ops := map[string]string{}
	for p, item := range paths {
		ops[p] = item.(map[string]any)["post"].(map[string]any)["operationId"].(string)
	}
	wantOps := map[string]string{
		"/tools/get_app": "getApp", "/tools/query": "query",
		"/tools/search_catalog": "searchCatalog", "/tools/search_values": "searchValues",
	}
	if diff := cmp.Diff(wantOps, ops); diff != "" {
		t.Errorf("operations (-want +got):\n%s", diff)
	}

	// Every ref points at a component, and nothing ogen cannot read is left.
	for name, c := range components {
		err := schemabundle.Walk(c, func(m map[string]any) error {
			if ref, ok := m["$ref"].(string); ok {
				target, found := strings.CutPrefix(ref, "#/components/schemas/")
				if _, exists := components[target]; !found || !exists {
					t.Errorf("%s: $ref %q does not resolve", name, ref)
				}
			}
			for _, kw := range []string{"$defs", "$id", "$schema", "not", "if"} {
				if _, ok := m[kw]; ok {
					t.Errorf("%s: %s left in", name, kw)
				}
			}
			if types, ok := m["type"].([]any); ok && len(types) > 2 {
				t.Errorf("%s: type list %v left in", name, types)
			}
			if _, ok := m["const"]; ok && m["type"] == nil {
				t.Errorf("%s: const without type", name)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}

	// An output's 200 is its result without the error branch: one result is that object itself,
	// several stay a oneOf (search_values' modes with a discriminator on mode, which the
	// branches then leave to it); errors are the default response, ErrorResponse.
	for _, name := range []string{"QueryOutput", "GetAppOutput"} {
		c := components[name].(map[string]any)
		if _, ok := c["oneOf"]; ok {
			t.Errorf("%s: oneOf left in", name)
		}
		if _, ok := c["properties"].(map[string]any)["error"]; ok {
			t.Errorf("%s: error property left in", name)
		}
	}
	for name, n := range map[string]int{"SearchCatalogOutput": 2, "SearchValuesOutput": 3} {
		if branches, _ := components[name].(map[string]any)["oneOf"].([]any); len(branches) != n {
			t.Errorf("%s: %d branches, want %d", name, len(branches), n)
		}
	}
	wantDisc := map[string]any{"propertyName": "mode", "mapping": map[string]any{
		"distinct": "#/components/schemas/SearchValuesOutputDistinct",
		"search":   "#/components/schemas/SearchValuesOutputSearch",
		"sample":   "#/components/schemas/SearchValuesOutputSample",
	}}
	if diff := cmp.Diff(wantDisc, components["SearchValuesOutput"].(map[string]any)["discriminator"]); diff != "" {
		t.Errorf("SearchValuesOutput discriminator (-want +got):\n%s", diff)
	}
	if _, ok := components["SearchValuesOutputDistinct"].(map[string]any)["properties"].(map[string]any)["mode"]; ok {
		t.Error("SearchValuesOutputDistinct: mode left in the branch")
	}
	for p, item := range paths {
		responses := item.(map[string]any)["post"].(map[string]any)["responses"].(map[string]any)
		ref := responses["default"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)["$ref"]
		if ref != "#/components/schemas/ErrorResponse" {
			t.Errorf("%s: default response %v", p, ref)
		}
		// lumo's tools are reads without cursors: no 409.
		var codes []string
		for code := range responses {
			codes = append(codes, code)
		}
		sort.Strings(codes)
		if diff := cmp.Diff([]string{"200", "400", "401", "403", "404", "413", "415", "422", "429", "500", "503", "504", "default"}, codes); diff != "" {
			t.Errorf("%s: responses (-want +got):\n%s", p, diff)
		}
		for _, code := range codes[1 : len(codes)-1] {
			r := responses[code].(map[string]any)["$ref"].(string)
			name := strings.TrimPrefix(r, "#/components/responses/")
			body := doc["components"].(map[string]any)["responses"].(map[string]any)[name].(map[string]any)
			if got := body["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)["$ref"]; got != "#/components/schemas/ErrorResponse" {
				t.Errorf("%s %s: body %v", p, code, got)
			}
		}
	}
	if diff := cmp.Diff([]any{map[string]any{"bearer": []any{}}}, doc["security"]); diff != "" {
		t.Errorf("security (-want +got):\n%s", diff)
	}
	wantScheme := map[string]any{"type": "http", "scheme": "bearer"}
	scheme := doc["components"].(map[string]any)["securitySchemes"].(map[string]any)["bearer"].(map[string]any)
	if scheme["type"] != wantScheme["type"] || scheme["scheme"] != wantScheme["scheme"] {
		t.Errorf("bearer scheme %v", scheme)
	}
	headers := doc["components"].(map[string]any)["responses"].(map[string]any)["TooManyRequests"].(map[string]any)["headers"].(map[string]any)
	if _, ok := headers["Retry-After"]; !ok {
		t.Error("429 does not declare Retry-After")
	}
	terms := components["SearchCatalogInput"].(map[string]any)["properties"].(map[string]any)["terms"].(map[string]any)
	if _, ok := terms["oneOf"]; !ok {
		t.Error("SearchCatalogInput.terms lost its oneOf")
	}
	wantCell := map[string]any{
		"description": "Um valor de linha: texto, número ou null.",
		"oneOf":       []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}, map[string]any{"type": "null"}},
	}
	if diff := cmp.Diff(wantCell, components["Cell"]); diff != "" {
		t.Errorf("Cell (-want +got):\n%s", diff)
	}
}

// TestGenerateOgen checks the document ogen reads: no security and only 200 and default, so
// each generated method returns its result type; every error status lands in default.
func TestGenerateOgen(t *testing.T) {
	for _, server := range []string{"lumo", "caderninho"} {
		out, err := GenerateOgen(schemas.FS, server)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatal(err)
		}
		if _, ok := doc["security"]; ok {
			t.Errorf("%s: security in ogen's document", server)
		}
		if _, ok := doc["components"].(map[string]any)["securitySchemes"]; ok {
			t.Errorf("%s: securitySchemes in ogen's document", server)
		}
		for p, item := range doc["paths"].(map[string]any) {
			responses := item.(map[string]any)["post"].(map[string]any)["responses"].(map[string]any)
			if len(responses) != 2 || responses["200"] == nil || responses["default"] == nil {
				t.Errorf("%s %s: responses %v, want 200 and default", server, p, responses)
			}
		}
	}
}

// TestCaderninhoConflicts checks that 409 is declared exactly where a tool takes a confirmation,
// an idempotency key, a cursor or an expected revision.
func TestCaderninhoConflicts(t *testing.T) {
	out, err := Generate(schemas.FS, "caderninho")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for p, item := range doc["paths"].(map[string]any) {
		if _, ok := item.(map[string]any)["post"].(map[string]any)["responses"].(map[string]any)["409"]; ok {
			got = append(got, strings.TrimPrefix(p, "/tools/"))
		}
	}
	sort.Strings(got)
	want := []string{"caderninho_sync", "caderninho_transactions", "plan_add_record", "plan_categorize",
		"plan_delete_record", "plan_delete_rule", "plan_edit_transaction", "plan_set_budget", "plan_set_rule", "plan_transactions"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools with 409 (-want +got):\n%s", diff)
	}
}

func TestRewrite(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"nullable type stays", `{"type":["string","null"],"format":"date-time"}`, `{"type":["string","null"],"format":"date-time"}`},
		{"nullable enum stays", `{"type":["string","null"],"enum":["a",null]}`, `{"type":["string","null"],"enum":["a",null]}`},
		{"several types split", `{"type":["string","integer","null"],"maxLength":3,"minimum":0,"description":"d"}`,
			`{"description":"d","oneOf":[{"type":"string","maxLength":3},{"type":"integer","minimum":0},{"type":"null"}]}`},
		{"integer folds into number", `{"type":["integer","number"]}`, `{"type":"number"}`},
		{"integer folds into number, nullable", `{"type":["number","integer","null"]}`, `{"type":["number","null"]}`},
		{"const gets a type", `{"properties":{"k":{"const":"x"},"n":{"const":2},"f":{"enum":[1.5,2,null]}}}`,
			`{"properties":{"k":{"const":"x","type":"string"},"n":{"const":2,"type":"integer"},"f":{"enum":[1.5,2,null],"type":["number","null"]}}}`},
		{"validation-only oneOf goes", `{"type":"object","oneOf":[{"properties":{"mode":{"const":"a"}},"required":["mode","x"]},{"required":["error"]}]}`,
			`{"type":"object"}`},
		{"oneOf with not goes", `{"type":"object","oneOf":[{"required":["a"],"not":{"anyOf":[{"required":["b"]}]}},{"required":["b"],"not":{"required":["a"]}}]}`,
			`{"type":"object"}`},
		{"real oneOf stays", `{"oneOf":[{"type":"string"},{"required":["a"]}]}`, `{"oneOf":[{"type":"string"},{"required":["a"]}]}`},
		{"exclusive bounds", `{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1}`,
			`{"type":"number","minimum":0,"exclusiveMinimum":true,"maximum":1,"exclusiveMaximum":true}`},
		{"not and if go", `{"type":"string","not":{"const":""},"if":{"minLength":1},"then":{"maxLength":2}}`, `{"type":"string"}`},
		{"refs move", `{"$schema":"x","$id":"a.input.json","properties":{"a":{"$ref":"common.json#/$defs/field"},"b":{"$ref":"#/$defs/local"}}}`,
			`{"properties":{"a":{"$ref":"#/components/schemas/Field"},"b":{"$ref":"#/components/schemas/AInputLocal"}}}`},
		{"a free-form object is raw JSON", `{"type":"object","properties":{"a":{"type":"object","description":"d"}}}`,
			`{"type":"object","properties":{"a":{"description":"d"}}}`},
		{"maps get their sorted type", `{"type":"object","properties":{"r":{"type":"object","additionalProperties":{"type":"integer","minimum":0}},` +
			`"s":{"type":"object","additionalProperties":{"type":["number","null"]}}}}`,
			`{"type":"object","properties":{"r":{"type":"object","additionalProperties":{"type":"integer","minimum":0},"x-ogen-type":"` + jsonmapPackage + `.Ints"},` +
				`"s":{"type":"object","additionalProperties":{"type":["number","null"]},"x-ogen-type":"` + jsonmapPackage + `.Numbers"}}}`},
	}
	g := &generator{names: map[defKey]string{
		{"common.json", "field"}:      "Field",
		{"a.input.json", "local"}:     "AInputLocal",
		{"a.input.json", ""}:          "AInput",
		{"other.output.json", "item"}: "OtherOutputItem",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := schemabundle.Decode([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if err := g.rewrite(in, "a.input.json"); err != nil {
				t.Fatal(err)
			}
			want, err := schemabundle.Decode([]byte(tt.want))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, in); diff != "" {
				t.Errorf("rewrite (-want +got):\n%s", diff)
			}
		})
	}

	for _, bad := range []string{
		`{"$ref":"common.json#/$defs/nope"}`,
		`{"$ref":"common.json#/properties/x"}`,
		`{"$ref":"https://example.com/x.json"}`,
		`{"type":["string","number"],"oneOf":[{"minLength":1}]}`,
		`{"type":"object","additionalProperties":{"type":"string"}}`,
	} {
		in, err := schemabundle.Decode([]byte(bad))
		if err != nil {
			t.Fatal(err)
		}
		if err := g.rewrite(in, "a.input.json"); err == nil {
			t.Errorf("%s: got no error", bad)
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	common := `{"$defs":{"error":{"type":"object"}}}`
	tests := []struct {
		name string
		fsys fstest.MapFS
		want string
	}{
		{"clash", fstest.MapFS{
			"s/common.json":   {Data: []byte(`{"$defs":{"error":{"type":"object"},"aInput":{"type":"string"}}}`)},
			"s/a.input.json":  {Data: []byte(`{"type":"object"}`)},
			"s/a.output.json": {Data: []byte(`{"type":"object"}`)},
		}, "component name AInput"},
		{"output without input", fstest.MapFS{
			"s/common.json":   {Data: []byte(common)},
			"s/b.output.json": {Data: []byte(`{"type":"object"}`)},
		}, "has no b.input.json"},
		{"input without output", fstest.MapFS{
			"s/common.json":  {Data: []byte(common)},
			"s/b.input.json": {Data: []byte(`{"type":"object"}`)},
		}, "has no b.output.json"},
		{"no error def", fstest.MapFS{
			"s/common.json":   {Data: []byte(`{"$defs":{}}`)},
			"s/b.input.json":  {Data: []byte(`{"type":"object"}`)},
			"s/b.output.json": {Data: []byte(`{"type":"object"}`)},
		}, "defines $defs/error"},
		{"empty", fstest.MapFS{}, "no schemas"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Generate(tt.fsys, "s")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestNames(t *testing.T) {
	for in, want := range map[string][2]string{
		"search_catalog": {"SearchCatalog", "searchCatalog"},
		"query":          {"Query", "query"},
		"resultColumn":   {"ResultColumn", "resultColumn"},
		"list-items.v2":  {"ListItemsV2", "listItemsV2"},
	} {
		if got := goName(in); got != want[0] {
			t.Errorf("goName(%q) = %q, want %q", in, got, want[0])
		}
		if got := camelName(in); got != want[1] {
			t.Errorf("camelName(%q) = %q, want %q", in, got, want[1])
		}
	}
}

// jsonEqual compares two JSON texts by value.
func jsonEqual(t *testing.T, a, b []byte) string {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatal(err)
	}
	return cmp.Diff(va, vb)
}
