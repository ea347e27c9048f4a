package store

import (
	"context"
	"fmt"

	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
)

// SeedDemoIfEmpty imports the demo workspace when the database has no tenant yet, and says
// whether it did. opts, at most one, are the import's (a sink for its rows).
func (db *DB) SeedDemoIfEmpty(ctx context.Context, opts ...ImportOptions) (bool, error) {
	var n int
	if err := db.sql.QueryRowContext(ctx, "SELECT COUNT(*) FROM lumo_tenants").Scan(&n); err != nil {
		return false, fmt.Errorf("counting tenants: %w", err)
	}
	if n > 0 {
		return false, nil
	}
	var o ImportOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	if _, err := db.ImportWorkspaceWith(ctx, demo.Lumo, "workspace.yaml", o); err != nil {
		return false, fmt.Errorf("importing the demo workspace: %w", err)
	}
	return true, nil
}
