package installation

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/caderninho/demo"
	"github.com/lumo-caderninho/mcp/impl/platform/yamldoc"
)

func TestLoadDemo(t *testing.T) {
	inst, err := Load(demo.Caderninho, ".")
	if err != nil {
		t.Fatal(err)
	}
	if inst.Timezone != "America/Sao_Paulo" || inst.Location.String() != "America/Sao_Paulo" {
		t.Errorf("timezone %s", inst.Timezone)
	}
	got := map[string]any{
		"people":     len(inst.People),
		"spaces":     []string{inst.Spaces[0].Key, inst.Spaces[1].Key},
		"categories": inst.Spaces[0].Categories[4],
		"conn":       *inst.Connections[3],
		"assistant":  *inst.Assistants[0],
	}
	want := map[string]any{
		"people":     2,
		"spaces":     []string{"casa", "atelie"},
		"categories": "Saúde",
		"conn":       Connection{Key: "sabia-rafael", Institution: "Banco Sabiá", Holder: "rafael", Space: "casa", Source: "ofx/sabia-rafael", Line: 18},
		"assistant":  Assistant{Name: "Assistente da casa", Token: "tok-assistente", Line: 20},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := &fstest.MapFile{Mode: 0o755 | 1<<31}
	tests := []struct {
		name string
		yaml string
		want []string
	}{
		{"schema", `timezone: America/Sao_Paulo
people:
  - {key: Marina, name: Marina}
spaces: []
extra: 1
`, []string{
			"installation.yaml:3: people[0].key: o valor \"Marina\" não está no formato esperado",
			"installation.yaml:4: spaces: precisa de pelo menos 1 item.",
			"installation.yaml:5: extra: campo não aceito aqui; remova-o",
		}},
		{"references", `timezone: America/Sao_Paolo
people:
  - {key: marina, name: Marina}
  - {key: marina, name: Outra}
spaces:
  - {key: casa, name: Casa, categories: [Saúde, saude]}
connections:
  - {key: a, institution: Banco, holder: marian, space: casa, source: ofx/a}
  - {key: b, institution: Banco, holder: marina, space: cas, source: nada}
  - {key: c, institution: Banco, holder: marina, space: casa, source: ../fora}
  - {key: d, institution: Banco, holder: marina, space: casa, source: ofx/a/}
assistants:
  - {name: A, token: segredo-1}
  - {name: B, token: segredo-1}
`, []string{
			`installation.yaml:1: timezone: o fuso "America/Sao_Paolo" não existe; use um nome IANA como America/Sao_Paulo`,
			`installation.yaml:4: people[1].key: a pessoa "marina" já foi definida em people[0]`,
			`installation.yaml:6: spaces[0].categories[1]: a categoria "saude" repete categories[0]`,
			`installation.yaml:8: connections[0].holder: a pessoa "marian" não existe em people; pessoas parecidas: marina`,
			`installation.yaml:9: connections[1].space: o espaço "cas" não existe em spaces; espaços parecidos: casa`,
			`installation.yaml:9: connections[1].source: a pasta de extratos "nada" não existe`,
			`installation.yaml:10: connections[2].source: a pasta "../fora" precisa ser relativa ao installation.yaml`,
			`installation.yaml:11: connections[3].source: a pasta "ofx/a/" já é a de connections[0]`,
			`installation.yaml:14: assistants[1].token: o token já é usado por assistants[0]`,
		}},
		{"yaml", "timezone: [\n", []string{"installation.yaml:1: o YAML não pôde ser lido"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"installation.yaml": {Data: []byte(tt.yaml)}, "ofx/a": dir}
			_, err := Load(fsys, "installation.yaml")
			var errs yamldoc.Errors
			if !errors.As(err, &errs) {
				t.Fatalf("err = %v", err)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tt.want) {
				t.Fatalf("got %d errors:\n%s", len(lines), err)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("error %d = %q\nwant prefix %q", i, lines[i], w)
				}
			}
		})
	}
}
