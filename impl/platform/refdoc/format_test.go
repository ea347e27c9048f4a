package refdoc

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestScalarYAMLReadsBack: every text is written so that YAML reads back the same text, plain
// where it can be, inside a flow collection and outside one.
func TestScalarYAMLReadsBack(t *testing.T) {
	for _, tt := range []struct {
		in          string
		plain, flow bool // written without quotes outside and inside a flow collection
	}{
		{"Vendas", true, true},
		{"Valor (R$)", true, true},
		{"Vendas das lojas, com metas.", true, false},
		{"dd/mm/aaaa", true, true},
		{"", false, false},
		{"yes", true, true}, // a text in YAML 1.2, as go.yaml.in/yaml/v3 reads it
		{"123", false, false},
		{"2026-09-01T09:00:00-03:00", false, false},
		{"[Preço] * (1 - [Desconto])", false, false},
		{"a: b", false, false},
		{"fim:", false, false},
		{"x #y", false, false},
		{"-R$ 10,00", false, false},
		{"it's", true, true},
		{"'quoted'", false, false},
		{"linha\nquebrada", false, false},
		{" espaço", false, false},
		{"null", false, false},
	} {
		for _, flow := range []bool{false, true} {
			got := scalarYAML(tt.in, flow)
			want := tt.plain
			if flow {
				want = tt.flow
			}
			if (got == tt.in) != want {
				t.Errorf("scalarYAML(%q, flow=%v) = %s; plain: %v, want %v", tt.in, flow, got, got == tt.in, want)
			}
			doc := "v: " + got
			if flow {
				doc = "v: [" + got + "]"
			}
			var back map[string]any
			if err := yaml.Unmarshal([]byte(doc), &back); err != nil {
				t.Errorf("%q written as %s does not parse: %v", tt.in, got, err)
				continue
			}
			v := back["v"]
			if flow {
				l, _ := v.([]any)
				if len(l) != 1 {
					t.Errorf("%q written as %s in a list reads back as %v", tt.in, got, v)
					continue
				}
				v = l[0]
			}
			if v != tt.in {
				t.Errorf("%q written as %s reads back as %#v", tt.in, got, v)
			}
		}
	}
}

// TestBuildFormat: a schema's objects become sections in the order fields name them, two shapes
// (if/then/else) two sections, constraints between fields sentences, and the whole example YAML.
func TestBuildFormat(t *testing.T) {
	schema := `{
  "description": "Um arquivo.",
  "type": "object",
  "examples": [{"name": "x", "items": [{"kind": "a", "size": 2}, {"copyOf": "x"}], "db": {"table": "t"}}],
  "properties": {
    "name": {"description": "O nome.", "examples": ["x"], "type": "string", "minLength": 1},
    "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
    "db": {"$ref": "#/$defs/db"}
  },
  "required": ["name"],
  "additionalProperties": false,
  "$defs": {
    "item": {"type": "object", "if": {"required": ["copyOf"]}, "then": {"$ref": "#/$defs/copy"}, "else": {"$ref": "#/$defs/data"}},
    "copy": {"description": "Uma cópia.", "type": "object", "properties": {"copyOf": {"type": "string"}}},
    "data": {"type": "object", "properties": {
      "kind": {"type": "string", "enum": ["a", "b"], "default": "a"},
      "size": {"type": "integer", "minimum": 0, "examples": [2]}
    }, "not": {"required": ["kind", "size"]}},
    "db": {"type": "object", "properties": {"table": {"type": "string"}, "query": {"type": "string"}},
      "oneOf": [{"required": ["table"]}, {"required": ["query"]}]}
  }
}`
	f, err := BuildFormat("lumo", "x.schema.json", []byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	page := FormatMarkdown(f)
	for _, want := range []string{
		"# x.yaml\n",
		"## Exemplo\n\n```yaml\nname: x\nitems: [{kind: a, size: 2}, {copyOf: x}]\ndb: {table: t}\n```",
		"### Raiz do arquivo\n\nNenhum outro campo é aceito.",
		"| `name` | texto | sim | — | ao menos 1 caractere | `x` | O nome. |",
		"| `items` | lista de objetos ([`items[]` sem `copyOf`](#items-sem-copyof), [`items[]` com `copyOf`](#items-com-copyof)) |",
		"### `items[]` sem `copyOf`\n\nNão aceita `kind` e `size` juntos.",
		"| `kind` | um de \"a\", \"b\" | não | `a` |",
		"### `items[]` com `copyOf`\n\nUma cópia.",
		"### `db`\n\nPrecisa de exatamente uma destas formas: `table`; `query`.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	if strings.Index(page, "### `items[]` sem") > strings.Index(page, "### `db`") {
		t.Error("sections are not in the order the fields name them")
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"`tables[].columns[]` sem `copyOf`": "tablescolumns-sem-copyof",
		"Raiz do arquivo":                   "raiz-do-arquivo",
		"Relatórios (permalink)":            "relatórios-permalink",
		"`rollups[].time`":                  "rollupstime",
	} {
		if got := Slug(strings.ReplaceAll(in, "`", "")); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}
