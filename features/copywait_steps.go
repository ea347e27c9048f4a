package features

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
)

// The steps of a server whose columnar copy is not ready: the app rows in the database (as on
// PostgreSQL), a copy of its own that no sync has filled, and its questions waiting for the
// sync lumo serve runs in the background (columnar.Store.Keep) instead of syncing it themselves.
func initCopyWaitSteps(w *lumoWorld, sc *godog.ScenarioContext) {
	sc.Step(`^the app rows are kept in the database and this server's columnar copy has not synced yet$`, w.unsyncedCopy)
	sc.Step(`^this server's columnar copy syncs in the background$`, w.keepCopy)
	sc.Step(`^the query ran on the columnar copy$`, w.ranOnCopy)
}

func (w *lumoWorld) unsyncedCopy(ctx context.Context) error {
	if external() {
		return godog.ErrSkip
	}
	if _, err := w.db.ImportWorkspaceWith(ctx, demo.Lumo, "workspace.yaml", store.ImportOptions{}); err != nil {
		return err
	}
	if w.columnar != nil {
		w.columnar.Close()
	}
	c, err := columnar.Open(ctx, columnar.Options{})
	if err != nil {
		return err
	}
	w.columnar, w.awaitCopy = c, true
	return nil
}

func (w *lumoWorld) keepCopy() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	c := w.columnar
	go func() { c.Keep(ctx, w.db, 20*time.Millisecond); close(done) }()
	w.stopKeep = func() { cancel(); <-done }
}

// ranOnCopy checks that the queries since the last check ran on DuckDB, and at least one did.
func (w *lumoWorld) ranOnCopy() error {
	log := w.queryLog.take()
	var ran int
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, `msg="query engine"`) {
			continue
		}
		if !strings.Contains(line, "engine=duckdb") {
			return fmt.Errorf("a query ran on the database: %s", line)
		}
		ran++
	}
	if ran == 0 {
		return fmt.Errorf("no query ran; log:\n%s", log)
	}
	return nil
}
