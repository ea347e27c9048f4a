package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyTree copies the folder src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDirFSRefusesLinksOutOfTheWorkspace: a CSV, or a whole app folder, symlinked to a place
// outside the workspace folder is refused naming the path and the fix; a symlink that stays
// inside is followed.
func TestDirFSRefusesLinksOutOfTheWorkspace(t *testing.T) {
	base := t.TempDir()
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "fora")
	copyTree(t, "testdata/ok", ws)
	copyTree(t, "testdata/ok/apps/vendas", outside)

	if _, err := Load(DirFS(ws), "workspace.yaml"); err != nil {
		t.Fatalf("the plain workspace: %v", err)
	}

	// a CSV that links inside the folder is read
	csv := filepath.Join(ws, "apps", "vendas", "lojas.csv")
	if err := os.Rename(csv, filepath.Join(ws, "lojas-real.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "..", "lojas-real.csv"), csv); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(DirFS(ws), "workspace.yaml"); err != nil {
		t.Fatalf("a symlink inside the workspace: %v", err)
	}

	// a CSV that links outside is refused
	os.Remove(csv)
	if err := os.Symlink(filepath.Join(outside, "lojas.csv"), csv); err != nil {
		t.Fatal(err)
	}
	checkOutside(t, ws, "apps/vendas/lojas.csv", filepath.Join(outside, "lojas.csv"))

	// an app folder that links outside is refused
	os.Remove(csv)
	if err := os.Rename(filepath.Join(ws, "lojas-real.csv"), csv); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(ws, "apps", "vendas")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, "apps", "vendas")); err != nil {
		t.Fatal(err)
	}
	checkOutside(t, ws, "apps/vendas/app.yaml", filepath.Join(outside, "app.yaml"))
}

func checkOutside(t *testing.T, ws, file, target string) {
	t.Helper()
	_, err := Load(DirFS(ws), "workspace.yaml")
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("%s: want a refusal, got %v", file, err)
	}
	msg := err.Error()
	for _, want := range []string{`"` + file + `" leva (por link simbólico) a `, "fora da pasta do workspace", target, "copie o arquivo ou a pasta para dentro de"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal lacks %q: %s", want, msg)
		}
	}
	f, err := DirFS(ws).Open(file)
	var oe *OutsideError
	if !errors.As(err, &oe) {
		if f != nil {
			f.Close()
		}
		t.Errorf("Open(%s) = %v, want an OutsideError", file, err)
	}
}
