package workspace

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// calcFS is features/testdata/calc with app.yaml edited by edit.
func calcFS(t *testing.T, edit func(string) string) fstest.MapFS {
	t.Helper()
	const dir = "../../../features/testdata/calc/"
	fsys := fstest.MapFS{}
	for _, f := range []string{"workspace.yaml", "apps/vendas/app.yaml", "apps/vendas/pedidos.csv", "apps/vendas/produtos.csv"} {
		b, err := os.ReadFile(dir + f)
		if err != nil {
			t.Fatal(err)
		}
		if f == "apps/vendas/app.yaml" {
			b = []byte(edit(string(b)))
		}
		fsys[f] = &fstest.MapFile{Data: b}
	}
	return fsys
}

// withColumn adds a calculated column to Pedidos, after Valor por unidade.
func withColumn(col string) func(string) string {
	return func(s string) string {
		const anchor = "formula: \"[Valor líquido] / [Quantidade]\"}\n"
		return strings.Replace(s, anchor, anchor+"      - "+col+"\n", 1)
	}
}

func TestCalculatedColumnsLoad(t *testing.T) {
	ws, err := Load(calcFS(t, func(s string) string { return s }), "workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := ws.Tenants[0].Apps[0].Source.Model
	calc := 0
	for _, c := range m.Tables[0].Columns {
		if c.Calculated() {
			calc++
			if c.Calc == nil {
				t.Errorf("%s is not bound", c.Ref())
			}
		}
	}
	if calc != 7 {
		t.Errorf("%d calculated columns, want 7", calc)
	}
}

func TestHostileFormulasAreRefusedAtImport(t *testing.T) {
	long := "[Preço]" + strings.Repeat(" + 1", 9999) // 10,000 terms
	terms201 := "[Preço]" + strings.Repeat(" + 1", 200)
	tests := []struct {
		name, col, want string
	}{
		{"10,000 terms", `{name: X, label: Longa, type: number, formula: "` + long + `"}`,
			"apps/vendas/app.yaml:29: tables[0].columns[17].formula: deve ter no máximo 2000 caracteres (veio com 40003)"},
		{"201 terms", `{name: X, label: Longa, type: number, formula: "` + terms201 + `"}`,
			"apps/vendas/app.yaml:29: tables[0].columns[17].formula: a fórmula da coluna calculada Pedidos.Longa não pôde ser usada: posição 807: esperava no máximo 200 termos"},
		{"relationship on a calculated column", `{name: X, label: Produto calculado, type: number, formula: "[Produto] + 0"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			edit := withColumn(tt.col)
			if tt.want == "" {
				inner := edit
				edit = func(s string) string {
					return strings.Replace(inner(s), "{from: Pedidos.Produto, to: Produtos.Id}", "{from: Pedidos.Produto calculado, to: Produtos.Id}", 1)
				}
				tt.want = "relationships[0].from: Pedidos.Produto calculado é uma coluna calculada; um relacionamento liga colunas com dados, carregadas do arquivo"
			}
			_, err := Load(calcFS(t, edit), "workspace.yaml")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error:\n%v\nwant it to contain\n%s", err, tt.want)
			}
			if len(err.Error()) > 2000 {
				t.Errorf("the error repeats the formula: %d bytes", len(err.Error()))
			}
		})
	}
}
