package store

import (
	"database/sql"
	"fmt"
	"sync"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// Reading an app's model takes a transaction and six catalogue queries, more than most tool
// calls spend on their own work. Only an import or an admin command changes the catalogue or who
// sees it, and each moves lumo_ids 'import' in its transaction (moveGeneration), so that counter
// versions the models: one cheap read per call (none on PostgreSQL between changes, see genwatch.go)
// tells whether the models already read are still current, in this process or after an import by
// another (the CLI, another replica).

// cacheMaxApps and cacheMaxKeys bound the models kept (a user seeing thousands of apps is read
// each time; unknown app ids asked over and over cannot grow the map).
const (
	cacheMaxApps = 20000
	cacheMaxKeys = 4096
)

const importGenerationSQL = "SELECT last_id FROM lumo_ids WHERE kind = 'import'"

type modelKey struct{ user, tenant, app int64 }

// modelCache holds the models read at one import generation; models are shared read-only.
type modelCache struct {
	mu      sync.Mutex
	gen     int64
	entries map[modelKey][]*semantic.App
	apps    int
}

func (c *modelCache) get(gen int64, k modelKey) ([]*semantic.App, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || c.gen != gen {
		return nil, false
	}
	apps, ok := c.entries[k]
	return apps, ok
}

// generation is the import generation of the models held (0 before any).
func (c *modelCache) generation() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// put keeps apps, read at generation gen, for key k. Entries of another generation are dropped:
// get serves only the generation asked for, so a slow reader putting an older generation costs
// the next caller one read, never a stale model (and after a restored backup the counter may go
// down: the restored generation must be cached too).
func (c *modelCache) put(gen int64, k modelKey, apps []*semantic.App) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || gen != c.gen || c.apps+len(apps) > cacheMaxApps || len(c.entries) >= cacheMaxKeys {
		c.entries, c.gen, c.apps = map[modelKey][]*semantic.App{}, gen, 0
	}
	if len(apps) > cacheMaxApps {
		return
	}
	c.entries[k] = apps
	c.apps += len(apps)
}

// scanGeneration reads the import counter from row, a query of importGenerationSQL.
func scanGeneration(row *sql.Row) (int64, error) {
	var gen int64
	if err := row.Scan(&gen); err != nil {
		return 0, fmt.Errorf("reading the import generation: %w", err)
	}
	return gen, nil
}
