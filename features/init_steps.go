package features

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cucumber/godog"

	"github.com/lumo-caderninho/mcp/impl/lumo/scaffold"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
)

// initWorld runs lumo init's inference on copies of fixture files and imports what it wrote.
type initWorld struct {
	w   *lumoWorld
	dir string
	res *scaffold.Result
}

func initInitSteps(w *lumoWorld, sc *godog.ScenarioContext) {
	i := &initWorld{w: w}
	sc.Step(`^a folder holding the files "([^"]*)" of "([^"]*)"$`, i.folderHolding)
	sc.Step(`^lumo init runs on that folder$`, i.run)
	sc.Step(`^the app\.yaml it wrote has the lines:$`, i.appHas)
	sc.Step(`^the workspace it wrote is imported$`, i.imported)
}

func (i *initWorld) folderHolding(list, from string) error {
	if external() {
		return errNeedsOwnSetup
	}
	i.dir = i.w.t.TempDir()
	for _, f := range strings.Split(list, ", ") {
		b, err := os.ReadFile(filepath.Join(from, f))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(i.dir, filepath.Base(f)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (i *initWorld) run() (err error) {
	i.res, err = scaffold.Init([]string{i.dir})
	return err
}

func (i *initWorld) appHas(doc *godog.DocString) error {
	b, err := os.ReadFile(i.res.App)
	if err != nil {
		return err
	}
	for _, line := range strings.Split(strings.TrimSpace(doc.Content), "\n") {
		if !strings.Contains(string(b), strings.TrimSpace(line)) {
			return fmt.Errorf("app.yaml lacks %q:\n%s", strings.TrimSpace(line), b)
		}
	}
	return nil
}

// imported imports the written workspace as `lumo import` does, confined to its folder.
func (i *initWorld) imported(ctx context.Context) error {
	_, err := i.w.db.ImportWorkspace(ctx, workspace.DirFS(i.dir), "workspace.yaml")
	return err
}
