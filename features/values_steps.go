package features

import (
	"context"
	"os"

	"github.com/cucumber/godog"
)

func initValuesSteps(w *lumoWorld, sc *godog.ScenarioContext) {
	sc.Step(`^the workspace in "([^"]*)" is imported$`, w.workspaceImported)
}

// workspaceImported imports another workspace folder (relative to features/) beside whatever the
// scenario imported already; its tenants, logins and tokens must not clash with those.
func (w *lumoWorld) workspaceImported(ctx context.Context, dir string) error {
	_, err := w.importWorkspace(ctx, os.DirFS(dir))
	return err
}
