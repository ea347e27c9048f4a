package store

import (
	"context"
	"fmt"

	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
)

// SeedDemoIfEmpty imports the demo workspace when the database has no tenant yet, and says
// whether it did.
func (db *DB) SeedDemoIfEmpty(ctx context.Context) (bool, error) {
	var n int
	if err := db.sql.QueryRowContext(ctx, "SELECT COUNT(*) FROM lumo_tenants").Scan(&n); err != nil {
		return false, fmt.Errorf("counting tenants: %w", err)
	}
	if n > 0 {
		return false, nil
	}
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		return false, fmt.Errorf("importing the demo workspace: %w", err)
	}
	return true, nil
}
