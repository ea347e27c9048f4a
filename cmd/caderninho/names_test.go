package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// import prints the names of the files it reads or leaves aside quoted when they hold control
// characters: an escape code does not run, a line break does not forge the next line.
func TestImportQuotesFileNames(t *testing.T) {
	s, dir := demoStore(t)
	folder := filepath.Join(dir, "ofx", "aurora-marina")
	b, err := os.ReadFile(filepath.Join(dir, "next", "aurora-marina", "extrato-2026-11.ofx"))
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte("<DTPOSTED>20261030130600"), []byte("<DTPOSTED>20261120130600"), 1)
	for name, data := range map[string][]byte{
		"extrato\x1b[31m-2026-11.ofx":           b,
		"nota\x1b[2J\n    IGNORADO forjado.txt": []byte("x"),
	} {
		if err := os.WriteFile(filepath.Join(folder, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := importInto(context.Background(), s, filepath.Join(dir, "installation.yaml"), &out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		`    AVISO "extrato\x1b[31m-2026-11.ofx":34: a transação de 20/11/2026`,
		`    IGNORADO "nota\x1b[2J\n    IGNORADO forjado.txt": `,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("import output lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "\x1b") || strings.Contains(text, "\n    IGNORADO forjado") {
		t.Errorf("import output prints a name raw:\n%q", text)
	}
}
