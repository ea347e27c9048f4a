package scaffold

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// forged is a file name that, written raw into an app.yaml comment, ends the comment and
// declares a table of its own, which the import would load without the summary listing it.
const forged = "b.csv\n  - label: Intrusa\n    name: intrusa\n    kind: fact\n    file: a.csv\n    columns:\n" +
	"      - {name: ID, label: ID, type: number}\n      - {name: V, label: V, type: number}\n  #.csv"

// TestInitNamesCannotWriteYAML: a data file whose name holds a control character is left out,
// named (quoted) with the fix, and declares nothing in app.yaml; named on the command line, it
// stops Init; the summary prints it escaped, on its line.
func TestInitNamesCannotWriteYAML(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.csv", "ID,V\n1,2\n")
	write(t, dir, forged, "K,W\nx,y\n")
	write(t, dir, "cor\x1b[31m.csv", "K,W\nx,y\n")
	res, err := Init(Options{Paths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	app := read(t, dir, "app.yaml")
	var doc struct {
		Tables []struct{ Label, File string }
	}
	if err := yaml.Unmarshal([]byte(app), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Tables) != 1 || doc.Tables[0].Label != "A" || len(res.Tables) != 1 {
		t.Errorf("app.yaml declares %+v, init kept %d tables:\n%s", doc.Tables, len(res.Tables), app)
	}
	if strings.Contains(app, "Intrusa") {
		t.Errorf("app.yaml holds the forged table:\n%s", app)
	}
	var b strings.Builder
	Report(&b, res)
	contains(t, "the report", b.String(),
		`"b.csv\n  - label: Intrusa`,
		`"cor\x1b[31m.csv": o nome do arquivo tem caracteres de controle`,
		"renomeie o arquivo",
	)
	if strings.ContainsAny(b.String(), "\x1b") || strings.Contains(b.String(), "\n  - label: Intrusa") {
		t.Errorf("the report prints a name raw:\n%s", b.String())
	}
	os.Remove(res.App)
	os.Remove(res.Workspace)
	_, err = Init(Options{Paths: []string{filepath.Join(dir, "cor\x1b[31m.csv")}})
	if err == nil || !strings.Contains(err.Error(), `cor\x1b[31m.csv": o nome do arquivo tem caracteres de controle`) || strings.Contains(err.Error(), "\x1b") {
		t.Errorf("a named file with a control character: %v", err)
	}
}

// TestAppYAMLCommentsStayComments: whatever a table's source, note or a relationship's reason
// says, app.yaml's comments stay on their line, and names are written so YAML reads them back.
func TestAppYAMLCommentsStayComments(t *testing.T) {
	odd := "x\ny\r\u0085\u2028\u2029\x1b\x7f: #z"
	tb := &Table{File: odd, Name: "t", Label: odd, Kind: "fact", Source: odd, Note: odd,
		Columns: []Column{{Name: "c", Header: odd, Label: odd, Type: "string"}}}
	app := appYAML(odd, []*Table{tb}, []Relationship{{From: odd + ".c", To: odd + ".c", Reason: odd}})
	var doc struct {
		Name   string
		Tables []struct {
			Label, File string
			Columns     []struct{ Header, Label string }
		}
		Relationships []struct{ From, To string }
	}
	if err := yaml.Unmarshal([]byte(app), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, app)
	}
	if doc.Name != odd || len(doc.Tables) != 1 || doc.Tables[0].Label != odd || doc.Tables[0].File != odd ||
		len(doc.Tables[0].Columns) != 1 || doc.Tables[0].Columns[0].Header != odd || len(doc.Relationships) != 1 || doc.Relationships[0].From != odd+".c" {
		t.Errorf("app.yaml reads back as %+v:\n%s", doc, app)
	}
	for i, line := range strings.Split(app, "\n") {
		if strings.ContainsAny(line, "\r\u0085\u2028\u2029\x1b\x7f") {
			t.Errorf("line %d holds a raw line break or control character: %q", i+1, line)
		}
	}
}

// TestInitRefusesControlCharactersInHeaders: a CSV header with a control character stops Init
// naming the file, the column and the fix, not as a defect of init; a line break inside a
// quoted header, as Excel exports it, still reads.
func TestInitRefusesControlCharactersInHeaders(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "c.csv", "ID,Valor\x1b[31m,Obs\x00\n1,2,3\n")
	_, err := Init(Options{Paths: []string{p}})
	want := "c.csv: o cabeçalho (linha 1) tem problemas: o nome da coluna 2 tem caracteres de control"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "coluna 3") ||
		strings.Contains(err.Error(), "defeito") || strings.Contains(err.Error(), "\x1b") {
		t.Errorf("Init: %v, want %q", err, want)
	}
	dir = t.TempDir()
	write(t, dir, "d.csv", "ID,\"Valor\n(R$)\"\n1,2\n")
	if _, err := Init(Options{Paths: []string{dir}}); err != nil {
		t.Errorf("a header with a line break: %v", err)
	}
}
