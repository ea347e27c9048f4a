package workspace

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// rollupsFS is features/testdata/rollups with app.yaml's rollups replaced by rollups.
func rollupsFS(t *testing.T, rollups string) fstest.MapFS {
	t.Helper()
	const dir = "../../../features/testdata/rollups/"
	fsys := fstest.MapFS{}
	for _, f := range []string{"workspace.yaml", "apps/vendas/app.yaml", "apps/vendas/vendas.csv", "apps/vendas/lojas.csv"} {
		b, err := os.ReadFile(dir + f)
		if err != nil {
			t.Fatal(err)
		}
		if f == "apps/vendas/app.yaml" && rollups != "" {
			s, _, _ := strings.Cut(string(b), "rollups:\n")
			b = []byte(s + "rollups:\n" + rollups)
		}
		fsys[f] = &fstest.MapFile{Data: b}
	}
	return fsys
}

func TestRollupsLoad(t *testing.T) {
	ws, err := Load(rollupsFS(t, ""), "workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := ws.Tenants[0].Apps[0].Source.Model
	if len(m.Rollups) != 2 {
		t.Fatalf("%d rollups, want 2", len(m.Rollups))
	}
	r := m.Rollups[0]
	var dims, measures []string
	for _, c := range r.Dimensions {
		dims = append(dims, c.Ref())
	}
	for _, c := range r.Measures {
		measures = append(measures, c.Ref())
	}
	// Without measures: every measure of the fact with data (Líquido is calculated).
	if got := strings.Join(dims, ",") + " | " + r.Time.Ref() + " " + r.Grain + " | " + strings.Join(measures, ","); got !=
		"Lojas.UF,Vendas.Situação,Vendas.Canal | Vendas.Data day | Vendas.Valor,Vendas.Quantidade" {
		t.Errorf("rollup por_dia: %s", got)
	}
}

func TestRollupsRefused(t *testing.T) {
	tests := []struct{ name, rollups, want string }{
		{"calculated dimension", "  - {name: x, table: Vendas, dimensions: [Vendas.Líquido]}\n",
			"apps/vendas/app.yaml:31: rollups[0].dimensions[0]: Vendas.Líquido é uma coluna calculada, que não tem valores guardados para o rollup agregar; tire-a do rollup (consultas com ela leem a tabela Vendas)"},
		{"calculated measure", "  - {name: x, table: Vendas, measures: [Vendas.Líquido]}\n",
			"rollups[0].measures[0]: Vendas.Líquido é uma coluna calculada"},
		{"unknown table", "  - {name: x, table: Venda}\n", `rollups[0].table: a tabela "Venda" não está em tables`},
		{"dimension table", "  - {name: x, table: Lojas}\n", `rollups[0].table: a tabela "Lojas" é uma dimensão; um rollup agrega uma tabela de kind fact`},
		{"unknown ref", "  - {name: x, table: Vendas, dimensions: [Vendas.Cidade]}\n", "rollups[0].dimensions[0]: "},
		{"text time", "  - {name: x, table: Vendas, time: {ref: Vendas.Canal, grain: day}}\n",
			"rollups[0].time.ref: Vendas.Canal é texto; time pede uma coluna de data ou de data e hora"},
		{"text measure", "  - {name: x, table: Vendas, measures: [Vendas.Canal]}\n", "rollups[0].measures[0]: Vendas.Canal é texto; measures soma colunas numéricas"},
		{"measure of a dimension table", "  - {name: x, table: Vendas, measures: [Lojas.Id]}\n",
			"rollups[0].measures[0]: Lojas.Id é da tabela Lojas; as medidas de um rollup são colunas da própria fato Vendas"},
		{"twice", "  - {name: x, table: Vendas, dimensions: [Lojas.UF, lojas.uf]}\n", "rollups[0].dimensions[1]: Lojas.UF aparece duas vezes no rollup; deixe uma só"},
		{"same name", "  - {name: x, table: Vendas}\n  - {name: x, table: Vendas}\n", `rollups[1].name: o nome "x" já é usado por rollups[0]`},
		{"bad grain", "  - {name: x, table: Vendas, time: {ref: Vendas.Data, grain: week}}\n", "rollups[0].time.grain: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(rollupsFS(t, tt.rollups), "workspace.yaml")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error:\n%v\nwant it to contain\n%s", err, tt.want)
			}
		})
	}
}

func TestRollupMonthGrain(t *testing.T) {
	ws, err := Load(rollupsFS(t, "  - {name: x, table: Vendas, dimensions: [Lojas.UF], time: {ref: Vendas.Data, grain: month}}\n"), "workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if r := ws.Tenants[0].Apps[0].Source.Model.Rollups[0]; r.Grain != "month" || r.Time.Ref() != "Vendas.Data" {
		t.Errorf("rollup: %s %s", r.Time.Ref(), r.Grain)
	}
}

// automatic describes the automatic rollups of the rollups fixture with rollups set to rollups
// and usage added to some columns.
func automatic(t *testing.T, rollups string) string {
	t.Helper()
	fsys := rollupsFS(t, "")
	y := string(fsys["apps/vendas/app.yaml"].Data)
	y, _, _ = strings.Cut(y, "rollups:\n")
	y = strings.NewReplacer("label: Canal, type: string}", "label: Canal, type: string, usage: 2}",
		"label: UF, type: string}", "label: UF, type: string, usage: 7}",
		"label: Loja, type: string}", "label: Loja, type: string, usage: 1}",
		"label: Id, type: number, role: key}", "label: Id, type: number, role: key, usage: 9}").Replace(y)
	fsys["apps/vendas/app.yaml"].Data = []byte(y + rollups)
	ws, err := Load(fsys, "workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range ws.Tenants[0].Apps[0].Source.Model.Rollups {
		if !r.Auto {
			continue
		}
		var dims, ms []string
		for _, c := range r.Dimensions {
			dims = append(dims, c.Ref())
		}
		for _, c := range r.Measures {
			ms = append(ms, c.Ref())
		}
		out = append(out, r.Name+" "+r.Fact.Label+" "+strings.Join(dims, ",")+" | "+r.Time.Ref()+" "+r.Grain+" | "+strings.Join(ms, ","))
	}
	return strings.Join(out, "; ")
}

func TestAutomaticRollup(t *testing.T) {
	// The most used columns first, keys and calculated columns left out.
	if got, want := automatic(t, ""), "automatico Vendas Lojas.UF,Vendas.Canal,Lojas.Loja | Vendas.Data day | Vendas.Valor,Vendas.Quantidade"; got != want {
		t.Errorf("automatic rollup:\n%s\nwant\n%s", got, want)
	}
	if got := automatic(t, "rollups: []\n"); got != "" {
		t.Errorf("with rollups: [], an automatic rollup: %s", got)
	}
	if got := automatic(t, "rollups:\n  - {name: x, table: Vendas}\n"); got != "" {
		t.Errorf("with a declared rollup, an automatic one: %s", got)
	}
}
