package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// DirFS is the workspace folder dir as a file system that `lumo import` reads, like os.DirFS
// except that a name resolving outside dir (a symlinked CSV, app folder or app.yaml pointing
// elsewhere) cannot be opened: the error says which path left the folder and how to fix it.
// Symlinks that stay inside dir are followed.
func DirFS(dir string) fs.FS { return rootFS{dir: dir} }

type rootFS struct{ dir string }

// OutsideError is a workspace path that resolves outside the workspace folder.
type OutsideError struct {
	Name         string // as the workspace names it: apps/vendas/lojas.csv
	Root, Target string // absolute, links resolved
}

func (e *OutsideError) Error() string {
	return fmt.Sprintf("%q leva (por link simbólico) a %s, fora da pasta do workspace %s; "+
		"copie o arquivo ou a pasta para dentro de %s em vez de usar um link para fora dela", e.Name, e.Target, e.Root, e.Root)
}

func (r rootFS) Open(name string) (fs.File, error) {
	root, rel, err := r.resolve(name)
	if err != nil {
		return nil, err
	}
	// open the resolved path through an os.Root, so a link swapped in after the check cannot lead out
	rt, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer rt.Close()
	f, err := rt.Open(rel)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return f, nil
}

// OSPath is the file name resolves to, checked inside the folder as Open checks it, for a
// reader that opens files by their path (DuckDB's read_parquet).
func (r rootFS) OSPath(name string) (string, error) {
	root, rel, err := r.resolve(name)
	if err != nil {
		return "", err
	}
	return filepath.Join(root, rel), nil
}

// resolve is the folder, its symlinks resolved, and the path inside it that name leads to;
// an error when name resolves outside it.
func (r rootFS) resolve(name string) (root, rel string, err error) {
	if !fs.ValidPath(name) {
		return "", "", &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	root, err = filepath.EvalSymlinks(r.dir)
	if err != nil {
		return "", "", &fs.PathError{Op: "open", Path: name, Err: err}
	}
	root, err = filepath.Abs(root)
	if err != nil {
		return "", "", &fs.PathError{Op: "open", Path: name, Err: err}
	}
	target, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", "", &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		return "", "", &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if rel, err := filepath.Rel(root, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", "", &OutsideError{Name: name, Root: root, Target: target}
	}
	rel, _ = filepath.Rel(root, target)
	return root, rel, nil
}
