package yamldoc

import (
	"testing"
	"testing/fstest"
)

func TestReadAndLines(t *testing.T) {
	fsys := fstest.MapFS{
		"ok.yaml":  {Data: []byte("a: 1\nb:\n  - {k: x}\n  - k: y\n    n: 2.5\n")},
		"dup.yaml": {Data: []byte("a: 1\na: 2\n")},
		"nul.yaml": {Data: []byte("# nada\n")},
	}
	d, errs := Read(fsys, "ok.yaml")
	if errs != nil {
		t.Fatal(errs)
	}
	if got := d.Line(Path("b", 1, "n")); got != 5 {
		t.Errorf("line of b[1].n = %d", got)
	}
	if got := d.Line(Path("b", 1, "missing")); got != 4 {
		t.Errorf("line of a missing field = %d", got)
	}
	if got := d.ErrAt(Path("b", 0, "k"), "x %d", 1).Error(); got != "ok.yaml:3: b[0].k: x 1" {
		t.Errorf("ErrAt = %q", got)
	}
	if m := d.Value.(map[string]any); m["a"] != 1 || m["b"].([]any)[1].(map[string]any)["n"] != 2.5 {
		t.Errorf("value = %#v", d.Value)
	}
	if _, errs := Read(fsys, "dup.yaml"); len(errs) != 1 || errs[0].Line != 2 {
		t.Errorf("dup: %v", errs)
	}
	if _, errs := Read(fsys, "nul.yaml"); len(errs) != 1 || errs[0].Message != "o arquivo está vazio" {
		t.Errorf("empty: %v", errs)
	}
	if _, errs := Read(fsys, "none.yaml"); len(errs) != 1 || errs[0].Message != "o arquivo não existe" {
		t.Errorf("missing: %v", errs)
	}
}

// A file or field named with a control character (a CSV's column, a data file from app.yaml)
// prints quoted, on its line: it runs no terminal escape and forges no next line.
func TestErrorQuotesNames(t *testing.T) {
	e := &Error{File: "vendas\n.csv", Line: 2, Field: "Valor\x1b[31m", Message: "a coluna não está na tabela"}
	if got, want := e.Error(), `"vendas\n.csv":2: "Valor\x1b[31m": a coluna não está na tabela`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	e = &Error{File: "vendas.csv", Line: 2, Field: "Valor", Message: "m"}
	if got, want := e.Error(), "vendas.csv:2: Valor: m"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
