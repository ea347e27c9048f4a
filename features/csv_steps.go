package features

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing/fstest"

	"github.com/cucumber/godog"
	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
)

// csvWorld imports workspaces whose CSVs are written in other formats, and keeps what the
// import said about each file, or why it refused.
type csvWorld struct {
	w         *lumoWorld
	lines     []string // how the last import read each file
	notes     []string // what the last import left out, without refusing
	importErr error
}

func initCSVSteps(w *lumoWorld, sc *godog.ScenarioContext) {
	c := &csvWorld{w: w}
	sc.Step(`^the workspace in "([^"]*)" is imported, reading its files as:$`, c.importedReading)
	sc.Step(`^I import the workspace in "([^"]*)" with "([^"]*)" holding:$`, c.importWith)
	sc.Step(`^the import fails with:$`, c.importFails)
	sc.Step(`^the import succeeds, reading its files as:$`, c.importReads)
	sc.Step(`^the import succeeds, saying:$`, c.importSays)
	sc.Step(`^the import succeeds, leaving nothing out$`, func() error { return c.importSays(&godog.DocString{}) })
	initPGSourceSteps(c, sc)
}

func (c *csvWorld) importedReading(ctx context.Context, dir string, doc *godog.DocString) error {
	// The folder as lumo import reads it: with LUMO_COLUMNAR=on on SQLite, DuckDB loads the
	// Parquet tables it reads as lumo does straight from their files.
	if err := c.importFS(ctx, workspace.DirFS(dir)); err != nil {
		return err
	}
	if diff := cmp.Diff(strings.Split(strings.TrimSpace(doc.Content), "\n"), c.lines); diff != "" {
		return fmt.Errorf("how the files were read (-want +got):\n%s", diff)
	}
	return nil
}

// importWith imports the workspace in dir with the file at path (relative to dir) replaced by
// doc's text; the scenario then says whether it worked.
func (c *csvWorld) importWith(ctx context.Context, dir, path string, doc *godog.DocString) error {
	c.importErr = c.importFS(ctx, overlayFS{FS: os.DirFS(dir), path: path, data: []byte(doc.Content + "\n")})
	return nil
}

func (c *csvWorld) importFS(ctx context.Context, fsys fs.FS) error {
	if external() {
		return errNeedsOwnSetup
	}
	sum, err := c.w.importWorkspace(ctx, fsys)
	c.lines, c.notes = nil, sum.Notes
	for _, t := range sum.Tables {
		c.lines = append(c.lines, t.CSV)
	}
	return err
}

// importReads checks that the last import worked and read the files as doc says.
func (c *csvWorld) importReads(doc *godog.DocString) error {
	if c.importErr != nil {
		return fmt.Errorf("the import failed: %v", c.importErr)
	}
	if diff := cmp.Diff(strings.Split(strings.TrimSpace(doc.Content), "\n"), c.lines); diff != "" {
		return fmt.Errorf("how the files were read (-want +got):\n%s", diff)
	}
	return nil
}

// importSays checks that the last import worked and said, besides how it read the files,
// exactly doc's lines (what it left out).
func (c *csvWorld) importSays(doc *godog.DocString) error {
	if c.importErr != nil {
		return fmt.Errorf("the import failed: %v", c.importErr)
	}
	var want []string
	if s := strings.TrimSpace(doc.Content); s != "" {
		want = strings.Split(s, "\n")
	}
	if diff := cmp.Diff(want, c.notes); diff != "" {
		return fmt.Errorf("what the import said (-want +got):\n%s", diff)
	}
	return nil
}

func (c *csvWorld) importFails(doc *godog.DocString) error {
	if c.importErr == nil {
		return errors.New("the import succeeded")
	}
	if want := strings.TrimSpace(doc.Content); !strings.Contains(c.importErr.Error(), want) {
		return fmt.Errorf("the import failed with\n%v\nwhich does not contain\n%s", c.importErr, want)
	}
	return nil
}

// filesFS is FS with each file of files holding its data instead.
type filesFS struct {
	fs.FS
	files map[string][]byte
}

func filesOver(fsys fs.FS, files map[string][]byte) fs.FS { return filesFS{fsys, files} }

func (o filesFS) Open(name string) (fs.File, error) {
	data, ok := o.files[name]
	if !ok {
		return o.FS.Open(name)
	}
	return fstest.MapFS{name: {Data: data}}.Open(name)
}

// overlayFS is FS with the file at path holding data instead.
type overlayFS struct {
	fs.FS
	path string
	data []byte
}

func (o overlayFS) Open(name string) (fs.File, error) {
	if name != o.path {
		return o.FS.Open(name)
	}
	return fstest.MapFS{name: {Data: o.data}}.Open(name)
}
