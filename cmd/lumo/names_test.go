package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/scaffold"
)

// lumo import prints a data file's name quoted when it holds control characters: an escape
// code does not run, a line break does not forge the next line.
func TestImportQuotesFileNames(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "vendas.csv"), []byte("LOJA,VALOR\nCentro,10.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := scaffold.Init(scaffold.Options{Paths: []string{dir}}); err != nil {
		t.Fatal(err)
	}
	odd := "v\x1b[31m\n  forjada x: 999 linhas.csv"
	if err := os.Rename(filepath.Join(dir, "vendas.csv"), filepath.Join(dir, odd)); err != nil {
		t.Fatal(err)
	}
	app, err := os.ReadFile(filepath.Join(dir, "app.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	app = bytes.Replace(app, []byte("file: vendas.csv"), []byte(`file: "v\x1b[31m\n  forjada x: 999 linhas.csv"`), 1)
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), app, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	db := filepath.Join(t.TempDir(), "lumo.db")
	if err := run(context.Background(), []string{"import", "--db", db, filepath.Join(dir, "workspace.yaml")}, &out, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `    "v\x1b[31m\n  forjada x: 999 linhas.csv: separador`) {
		t.Errorf("the import does not quote the file's name:\n%q", out.String())
	}
	if strings.Contains(out.String(), "\x1b") || strings.Contains(out.String(), "\n  forjada") {
		t.Errorf("the import prints a name raw:\n%q", out.String())
	}
}
