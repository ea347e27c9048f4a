package specgen

import (
	"bytes"
	"testing"

	"github.com/go-faster/jx"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/platform/schemabundle"
	"github.com/lumo-caderninho/mcp/schemas"
)

// codec is what ogen generates for every request and response type.
type codec interface {
	Decode(d *jx.Decoder) error
	Encode(e *jx.Encoder)
	Validate() error
}

// TestLumoTypesRoundTrip checks that documents valid under the JSON Schemas decode into the ogen
// types, pass their Validate and encode back to the same JSON: the rewrites lose nothing a valid
// document needs.
func TestLumoTypesRoundTrip(t *testing.T) {
	tests := []struct {
		file string
		new  func() codec
		docs []string
	}{
		{"query.input.json", func() codec { return new(lumoapi.QueryInput) }, []string{
			`{"appId":7,"fields":[{"ref":"Vendas.Valor da venda","agg":"sum"}],"filters":[{"ref":"Vendas.Data","op":"between","value":["2026-09-01","2026-09-30"]}]}`,
			`{"appId":7,"fields":[{"ref":"Lojas.UF"},{"ref":"Vendas.Data","bucket":"month"}],"filters":[{"ref":"Lojas.UF","op":"in","value":["SP",3]},{"ref":"Vendas.Valor","op":">","value":10.5,"agg":"sum"},{"ref":"Lojas.Nome","op":"is null"}],"orderBy":[{"ref":"Lojas.UF","dir":"asc"}],"limit":5}`,
		}},
		{"search_catalog.input.json", func() codec { return new(lumoapi.SearchCatalogInput) }, []string{
			`{}`, `{"terms":"vendas"}`, `{"terms":["vendas","margem"],"appId":3}`,
		}},
		{"get_app.input.json", func() codec { return new(lumoapi.GetAppInput) }, []string{`{"appId":1}`}},
		{"search_values.input.json", func() codec { return new(lumoapi.SearchValuesInput) }, []string{
			`{"appId":1,"ref":"Vendas.Loja","contains":"centro"}`, `{"appId":1,"ref":"Vendas","mode":"sample"}`,
		}},
		{"query.output.json", func() codec { return new(lumoapi.QueryOutput) }, []string{
			`{"appId":7,"columns":[{"key":"12_SUM","label":"Valor","type":"number","unit":"BRL"},{"key":"3_AGP","label":"UF","type":"string","unit":null}],"rows":[[10.5,"SP"],[null,"RJ"]],"rowCount":2,"totalRows":2,"truncated":false,"summary":{"12_SUM":10.5,"3_AGP":null},"dataAsOf":"2026-09-30T23:59:00-03:00","filtersApplied":[],"permalink":"https://lumo.example/q/1?a=b","empty":"all_zero","notes":["x"]}`,
			`{"appId":7,"columns":[],"rows":[],"rowCount":0,"totalRows":0,"truncated":false,"dataAsOf":null,"filtersApplied":["UF = SP"]}`,
		}},
		{"search_catalog.output.json", func() codec { return new(lumoapi.SearchCatalogOutput) }, []string{
			`{"legend":{"id":"o id","desk":"a mesa","clonedFrom":"a origem","publishedAt":"quando","sameName":"mesmo nome","indicators":"indicadores"},"apps":[{"id":1,"name":"Vendas","description":null,"desk":null,"clonedFrom":{"id":2,"name":"Base"},"publishedAt":"2026-01-02T03:04:05-03:00","sameName":[],"indicators":[{"name":"Receita","description":"d","valid":true,"alsoIn":[{"id":2,"name":"Base"}]}]},{"id":2,"name":"Base","description":"b","desk":"Comercial","clonedFrom":null,"publishedAt":null,"sameName":[],"indicators":[]}]}`,
			`{"terms":["x"],"total":1,"shown":1,"matches":[{"kind":"column","name":"Loja","app":{"id":1,"name":"Vendas"},"description":null,"ref":"Vendas.Loja","field":{"ref":"Vendas.Loja"},"table":"Vendas","type":"string","unit":null},{"kind":"indicator","name":"Receita","app":{"id":1,"name":"Vendas"},"valid":true,"example":{"appId":1,"fields":[{"ref":"Vendas.Valor","agg":"sum"}],"filters":[]}}]}`,
		}},
		{"get_app.output.json", func() codec { return new(lumoapi.GetAppOutput) }, []string{
			`{"app":{"id":1,"name":"Vendas","description":null,"desk":"Comercial","clonedFrom":null,"publishedAt":null},"indicators":[{"name":"Receita","description":null,"valid":false,"problem":"p"}],"expressions":[{"id":4,"label":"Margem %","ref":"Margem %","field":{"ref":"Margem %"},"formula":"a/b","unit":"percent"}],"tables":[{"label":"Vendas","name":"VENDAS","kind":"fact","loadedAt":"2026-01-02T03:04:05Z","columns":[{"id":1,"name":"VALOR","label":"Valor","ref":"Vendas.Valor","field":{"ref":"Vendas.Valor","agg":"sum"},"type":"number","role":"measure","unit":"BRL","description":null}]}],"relationships":[{"from":"Vendas.Loja","to":"Lojas.Id"}],"segments":[{"label":"Clientes sem pedidos","description":null,"table":"Clientes","without":"Pedidos","meaning":"Clientes sem linhas em Pedidos","filter":{"segment":"Clientes sem pedidos"}}]}`,
		}},
		{"search_values.output.json", func() codec { return new(lumoapi.SearchValuesOutput) }, []string{
			`{"mode":"distinct","appId":1,"ref":"Vendas.Loja","values":["Centro",null],"totalDistinct":2,"notes":[]}`,
			`{"mode":"sample","appId":1,"ref":"Vendas","columns":[{"label":"Loja","ref":"Vendas.Loja","type":"string","unit":null}],"rows":[["Centro"],[null]]}`,
			`{"mode":"search","appId":1,"matches":[{"ref":"Vendas.Loja","values":["Centro"],"more":false}],"columnsSearched":1,"columnsTotal":2,"columnsLeftOut":["Vendas.Obs"]}`,
		}},
		{"query.output.json", func() codec { return new(lumoapi.ErrorResponse) }, []string{`{"error":{"code":"app_not_found","message":"Aplicação 9 não existe.","suggestions":["search_catalog"]}}`}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			bundled, err := schemabundle.Bundle(schemas.FS, "lumo", tt.file)
			if err != nil {
				t.Fatal(err)
			}
			sch := compile(t, bundled)
			for _, doc := range tt.docs {
				inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(doc)))
				if err != nil {
					t.Fatal(err)
				}
				if err := sch.Validate(inst); err != nil {
					t.Fatalf("sample is not valid, fix the test: %s\n%v", doc, err)
				}
				v := tt.new()
				if err := v.Decode(jx.DecodeStr(doc)); err != nil {
					t.Errorf("decoding %s: %v", doc, err)
					continue
				}
				if err := v.Validate(); err != nil {
					t.Errorf("ogen Validate rejects %s: %v", doc, err)
				}
				var e jx.Encoder
				v.Encode(&e)
				if diff := jsonEqual(t, []byte(doc), e.Bytes()); diff != "" {
					t.Errorf("round trip of %s (-in +out):\n%s", doc, diff)
				}
			}
		})
	}
}

func compile(t *testing.T, schema []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("mem://schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem://schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}
