package demo

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestCaderninhoIsRootedAtInstallation(t *testing.T) {
	for _, name := range []string{
		"installation.yaml",
		"ofx/aurora-marina/extrato-2026-08.ofx",
		"ofx/sabia-rafael/poupanca-2026-09.ofx",
		"next/aurora-marina/extrato-2026-11.ofx",
	} {
		if _, err := fs.Stat(Caderninho, name); err != nil {
			t.Errorf("stat %s: %v", name, err)
		}
	}
}

func TestCopyCaderninho(t *testing.T) {
	dir := t.TempDir()
	if err := CopyCaderninho(dir); err != nil {
		t.Fatal(err)
	}
	want, err := fs.ReadFile(Caderninho, "ofx/aurora-marina/extrato-2026-08.ofx")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "ofx", "aurora-marina", "extrato-2026-08.ofx"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("copied statement differs from the embedded one")
	}
}
