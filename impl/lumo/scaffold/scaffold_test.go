package scaffold

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
)

func write(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestInitWritesAWorkspaceTheImporterReads: the result loads as a workspace; a column with one
// value that is not a number stays text; a 1.000-only amount column in a ";" file is declared
// with decimal ",".
func TestInitWritesAWorkspaceTheImporterReads(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "pedidos.csv", "PEDIDO_ID;CLIENTE_ID;TOTAL;OBS;QUANDO\n1;7;1.000;10;2026-01-05\n2;8;2.000;n/a;2026-01-06\n")
	write(t, dir, "clientes.csv", "CLIENTE_ID,NOME\n7,Ana\n8,Bia\n")
	res, err := Init([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Token) < 20 || !strings.HasPrefix(res.Token, "tok-") {
		t.Errorf("token %q", res.Token)
	}
	app, _ := os.ReadFile(res.App)
	for _, want := range []string{
		`csv: {decimal: ","}`,
		"{name: TOTAL, label: Total, type: number, role: measure, usage: 10}",
		"{name: OBS, label: Obs, type: string, role: dimension, usage: 5}",
		"{name: QUANDO, label: Quando, type: date, role: dimension, usage: 8}",
		"{from: Pedidos.Cliente id, to: Clientes.Cliente id}",
	} {
		if !strings.Contains(string(app), want) {
			t.Errorf("app.yaml lacks %q:\n%s", want, app)
		}
	}
	if _, err := workspace.Load(workspace.DirFS(dir), "workspace.yaml"); err != nil {
		t.Fatalf("the written workspace does not load: %v\n%s", err, app)
	}
	if _, err := Init([]string{dir}); err == nil || !strings.Contains(err.Error(), "já existe") {
		t.Errorf("a second init over the same folder: %v", err)
	}
}

func TestInitRefusals(t *testing.T) {
	dir := t.TempDir()
	other := t.TempDir()
	a := write(t, dir, "a.csv", "ID,V\n1,2\n")
	b := write(t, other, "b.csv", "ID,V\n1,2\n")
	bad := write(t, other, "c.csv", "Valor (R$),Data\n1,2\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "informe um ou mais arquivos CSV"},
		{[]string{a, b}, "precisam estar na mesma pasta"},
		{[]string{filepath.Join(dir, "x.xlsx")}, "não encontrei"},
		{[]string{bad}, `o cabeçalho "Valor (R$)" não serve de nome de coluna`},
		{[]string{t.TempDir()}, "a pasta não tem arquivos .csv"},
	} {
		if _, err := Init(c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Init(%v): %v, want %q", c.args, err, c.want)
		}
	}
}

// TestInitDegradesOnlyTheFailingColumn: a value past the sample that is not a number makes its
// own column text, not another column whose name it contains (LOJA_ID must not degrade ID).
func TestInitDegradesOnlyTheFailingColumn(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("ID,LOJA_ID,VALOR\n")
	for i := 1; i <= maxSample+10; i++ {
		loja := strconv.Itoa(i % 7)
		if i == maxSample+5 {
			loja = "sem loja"
		}
		fmt.Fprintf(&b, "%d,%s,%d.5\n", i, loja, i)
	}
	write(t, dir, "vendas.csv", b.String())
	res, err := Init([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	app, _ := os.ReadFile(res.App)
	for _, want := range []string{"{name: ID, label: Id, type: number", "{name: LOJA_ID, label: Loja id, type: string"} {
		if !strings.Contains(string(app), want) {
			t.Errorf("app.yaml lacks %q:\n%s", want, app)
		}
	}
}
