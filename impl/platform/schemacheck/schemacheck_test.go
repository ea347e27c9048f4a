package schemacheck

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/schemas"
)

func TestValidatePortugueseMessages(t *testing.T) {
	set, err := Compile(schemas.FS, "lumo")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		file, doc string
		want      []string // each must appear in the joined report
	}{
		{"query.input.json", `{"appId":7,"fields":[{"ref":"Vendas.Valor da venda","agg":"sum"}]}`, nil},
		{"query.input.json", `{"fields":[]}`, []string{"appId: campo obrigatório ausente", "fields: precisa de pelo menos 1 item"}},
		{"query.input.json", `{"appId":"7","fields":[{"ref":"x","agg":"soma"}]}`, []string{"appId: deve ser número inteiro, mas veio texto", `fields[0].agg: o valor "soma" não é aceito; use um de: sum, avg`}},
		{"query.input.json", `{"appId":7,"fields":[{"ref":"x","color":1}]}`, []string{"fields[0].color: campo não aceito aqui; remova-o (os campos aceitos são: agg, bucket, ref)"}},
		{"query.input.json", `{"appId":7,"fields":[{"ref":"x"}],"filters":[{"ref":"x","op":"in","value":{"a":1}}]}`, []string{"filters[0].value: deve ser texto, número ou lista, mas veio objeto"}},
		{"query.input.json", `{"appId":7,"fields":[{"ref":"x"}],"limit":0}`, []string{"limit: deve ser no mínimo 1 (veio 0)"}},
		{"search_catalog.input.json", `{"terms":""}`, []string{"terms: não pode ser vazio"}},
		{"search_catalog.input.json", `{"terms":["a", 3]}`, []string{"terms[1]: deve ser texto, mas veio número"}},
		{"query.input.json", `{"appId":7,"fields":[{"ref":"x","agg":"sum"}],"orderBy":[{"ref":"x","agg":"sum"}]}`, []string{`orderBy[0].dir: campo obrigatório ausente; informe dir, um de: asc, desc (por exemplo, orderBy[0] = {"agg":"sum","dir":"asc","ref":"x"}).`}},
		{"query.input.json", `{"fields":[{"ref":"x"}]}`, []string{"appId: campo obrigatório ausente; informe appId."}},
		{"query.input.json", `[1]`, []string{"(argumentos): deve ser objeto, mas veio lista"}},
		{"query.input.json", `{`, []string{"(argumentos): o conteúdo não é um JSON válido"}},
	}
	for _, c := range cases {
		got := set.ValidateJSON(c.file, []byte(c.doc))
		var lines []string
		for _, v := range got {
			lines = append(lines, v.String())
		}
		report := strings.Join(lines, "\n")
		if c.want == nil && len(got) > 0 {
			t.Errorf("%s %s: unexpected violations:\n%s", c.file, c.doc, report)
		}
		if c.want != nil && len(got) == 0 {
			t.Errorf("%s %s: no violations, want %q", c.file, c.doc, c.want)
		}
		for _, w := range c.want {
			if !strings.Contains(report, w) {
				t.Errorf("%s %s: report lacks %q:\n%s", c.file, c.doc, w, report)
			}
		}
	}
}

// TestInputIntegersAreBounded: every integer an input schema accepts has a maximum that int64
// holds, so a schema-valid argument always decodes (an unbounded 1e20 would pass the schema and
// fail the generated decoder). common.json's revisions and currencyTotal are output-only.
func TestInputIntegersAreBounded(t *testing.T) {
	for _, dir := range []string{"lumo", "caderninho"} {
		files, err := fs.Glob(schemas.FS, dir+"/*.json")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, ".output.json") || strings.HasSuffix(f, ".schema.json") {
				continue
			}
			b, err := fs.ReadFile(schemas.FS, f)
			if err != nil {
				t.Fatal(err)
			}
			var doc any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			var walk func(v any, at string)
			walk = func(v any, at string) {
				switch x := v.(type) {
				case map[string]any:
					if x["type"] == "integer" && !strings.Contains(at, "/examples") && !strings.Contains(at, "/$defs/revisions") &&
						!strings.Contains(at, "/$defs/currencyTotal") {
						if m, ok := x["maximum"].(float64); !ok || m > math.MaxInt64 {
							t.Errorf("%s%s: an input integer without a maximum int64 holds", f, at)
						}
					}
					for k, e := range x {
						walk(e, at+"/"+k)
					}
				case []any:
					for i, e := range x {
						walk(e, fmt.Sprintf("%s/%d", at, i))
					}
				}
			}
			walk(doc, "")
		}
	}
}
